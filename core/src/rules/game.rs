//! Rules of an instant game (SPEC.md "Blocks" §5.B1; rules G-1 … G-8): price points, block size,
//! prize table, grid and symbol set, read from a rules file and validated at load (design
//! principle 8). A table that does not add up is refused here, before any block exists.
//!
//! The file of the seed regulation is `rules/noel-de-la-chance-2015.json`. For that game id the
//! loader also checks every number against the regulation's own figures ([`G3_TABLE`] …), so a
//! self-consistent but altered file cannot pass as "Le Noël de la chance". Files with another game
//! id (reduced tables for tests and vectors) get every internal-consistency check but not that pin.

use crate::crypto::{Hash32, sha256};
use serde::Deserialize;

/// The `format` value a game rules file must carry.
pub const FORMAT: &str = "urne-game-rules-v1";

/// Game id of "Le Noël de la chance" (from 30 November 2015).
pub const OFFICIAL_GAME_ID: &str = "noel-de-la-chance-2015";

/// G-1: units per block.
pub const G1_BLOCK_SIZE: u32 = 800_000;
/// G-2: price points, in cents.
pub const G2_PRICES_CENTS: [u64; 3] = [50, 100, 200];
/// G-3: (symbols matched, units per block, prize in cents at €0.50); ×2 at €1, ×4 at €2.
pub const G3_TABLE: [(u8, u32, u64); 7] = [
    (10, 1, 250_000),
    (9, 1, 25_000),
    (8, 200, 5_000),
    (7, 11_000, 1_000),
    (6, 14_100, 250),
    (5, 99_000, 100),
    (4, 46_000, 50),
];
/// G-3: winning units per block.
pub const G3_WINNING_UNITS: u32 = 170_302;
/// G-3: total prizes per block, in cents, at each G-2 price (€280,000 / €560,000 / €1,120,000).
pub const G3_TOTAL_PRIZES_CENTS: [u64; 3] = [28_000_000, 56_000_000, 112_000_000];

/// G-4: rows of the grid.
pub const GRID_ROWS: usize = 3;
/// G-4: cells per row.
pub const GRID_COLUMNS: usize = 6;
/// G-4: cells per grid.
pub const GRID_CELLS: usize = GRID_ROWS * GRID_COLUMNS;
/// G-6: symbols offered to the player.
pub const OFFERED_SYMBOLS: usize = 3;
/// G-7: the fewest matches that win; G-8: at most `MIN_WINNING_MATCHES - 1` is a loss.
pub const MIN_WINNING_MATCHES: u8 = 4;
/// G-3/G-7: the most matches that win (the top prize).
pub const MAX_WINNING_MATCHES: u8 = 10;
/// Tier of a losing unit (G-8). A winning unit's tier is its number of matches (4..=10).
pub const LOSING_TIER: u8 = 0;
/// How many times any symbol other than the chosen one may appear in a grid, and how many times
/// the chosen one may appear in a losing grid (G-6, G-8): one less than a win.
pub const MAX_OTHER_SYMBOL: usize = MIN_WINNING_MATCHES as usize - 1;
/// Fewest symbols that satisfy the grid construction (SPEC §5.B5): a losing grid draws 18 cards
/// from 3 copies of every symbol (3m >= 18), a tier-4 grid draws 14 from 3 copies of the other
/// m-1 (3(m-1) >= 14).
pub const MIN_SYMBOLS: usize = 6;
/// Most symbols: each is written as one letter `A`..`Z` in the tickets file.
pub const MAX_SYMBOLS: usize = 26;

/// Why a rules file was refused. Each message names the field and what was expected.
#[derive(Debug, thiserror::Error)]
pub enum RulesError {
    #[error("rules file is not valid JSON for {FORMAT}: {0}")]
    Json(#[from] serde_json::Error),
    #[error("rules field `{field}`: {problem}")]
    Field { field: String, problem: String },
    #[error(
        "prize table does not add up: {what} is {computed} by the table but the file declares {declared}"
    )]
    DoesNotAddUp {
        what: String,
        computed: u64,
        declared: u64,
    },
    #[error(
        "`{field}` differs from the regulation ({rule}): the file says {found}, {rule} says {law}"
    )]
    NotTheRegulation {
        field: String,
        rule: &'static str,
        found: String,
        law: String,
    },
}

fn field(field: &str, problem: impl Into<String>) -> RulesError {
    RulesError::Field {
        field: field.to_string(),
        problem: problem.into(),
    }
}

/// One row of the prize table (G-3): units per block and the prize at each price point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrizeRow {
    /// Symbols matched (G-7), 4..=10; also the ticket's tier.
    pub matches: u8,
    /// Units per block with this outcome.
    pub units: u32,
    /// Prize in cents at each price point, in the order of [`GameRules::prices_cents`].
    pub prize_cents: Vec<u64>,
}

/// Validated rules of one instant game. Fields are private: a value exists only if it passed
/// [`GameRules::from_json`].
#[derive(Debug, Clone)]
pub struct GameRules {
    game: String,
    title: String,
    prices_cents: Vec<u64>,
    block_size: u32,
    /// Ordered by `matches` descending (10 first), exactly one row per tier 10..=4.
    table: Vec<PrizeRow>,
    symbols: Vec<String>,
    sha256: Hash32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesFile {
    format: String,
    game: String,
    title: String,
    #[serde(default)]
    #[allow(dead_code)] // Free text, bound into the rules hash, never interpreted.
    notes: Vec<String>,
    price_points_cents: Vec<u64>,
    block_size: u32,
    prize_table: Vec<RowFile>,
    totals: TotalsFile,
    grid: GridFile,
    symbols: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RowFile {
    matches: u8,
    units: u32,
    prize_cents: Vec<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TotalsFile {
    winning_units: u32,
    losing_units: u32,
    prize_cents: Vec<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GridFile {
    rows: usize,
    columns: usize,
    offered_symbols: usize,
}

/// Game ids and symbol names: lowercase ASCII letters, digits and `-`, starting with a letter or
/// digit, 1..=64 bytes. Used in canonical strings, so one spelling only.
pub(crate) fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !s.starts_with('-')
}

impl GameRules {
    /// Parses and validates a rules file (`format` = [`FORMAT`]). The SHA-256 of `bytes` is kept:
    /// it is the rules hash bound into every block seed and result.
    pub fn from_json(bytes: &[u8]) -> Result<GameRules, RulesError> {
        let f: RulesFile = serde_json::from_slice(bytes)?;
        if f.format != FORMAT {
            return Err(field(
                "format",
                format!("is {:?}, expected {FORMAT:?}", f.format),
            ));
        }
        if !is_slug(&f.game) {
            return Err(field(
                "game",
                "must be lowercase letters, digits and '-' (1..=64)",
            ));
        }

        // G-2: price points, ascending, each an integer multiple of the first so that amounts scale.
        let p = &f.price_points_cents;
        if p.is_empty() || p[0] == 0 || p.windows(2).any(|w| w[0] >= w[1]) {
            return Err(field(
                "price_points_cents",
                "must be non-empty, positive and strictly ascending",
            ));
        }
        if p.iter().any(|&x| x % p[0] != 0) {
            return Err(field(
                "price_points_cents",
                "each price must be a multiple of the first (amounts scale with the price, G-3)",
            ));
        }

        // G-4, G-6: the grid the algorithm of SPEC §5.B5 is written for.
        if f.grid.rows != GRID_ROWS || f.grid.columns != GRID_COLUMNS {
            return Err(field(
                "grid",
                format!(
                    "is {}x{}, the game has {GRID_ROWS} rows of {GRID_COLUMNS} cells (G-4)",
                    f.grid.rows, f.grid.columns
                ),
            ));
        }
        if f.grid.offered_symbols != OFFERED_SYMBOLS {
            return Err(field(
                "grid.offered_symbols",
                format!(
                    "is {}, the player picks among {OFFERED_SYMBOLS} (G-6)",
                    f.grid.offered_symbols
                ),
            ));
        }

        // Symbols: enough for the grid construction, one letter each, distinct names.
        let m = f.symbols.len();
        if !(MIN_SYMBOLS..=MAX_SYMBOLS).contains(&m) {
            return Err(field(
                "symbols",
                format!(
                    "has {m} symbols; {MIN_SYMBOLS}..={MAX_SYMBOLS} are needed (3 copies of each fill a grid with no symbol 4 times, G-8)"
                ),
            ));
        }
        for (i, s) in f.symbols.iter().enumerate() {
            if !is_slug(s) {
                return Err(field(
                    &format!("symbols[{i}]"),
                    "must be lowercase letters, digits and '-'",
                ));
            }
            if f.symbols[..i].contains(s) {
                return Err(field(
                    &format!("symbols[{i}]"),
                    format!("{s:?} is listed twice"),
                ));
            }
        }

        // G-3, G-7: one row per tier 10, 9, …, 4 in that order; prizes scale with the price
        // (×1/×2/×4) and grow with the number of matches.
        let want: Vec<u8> = (MIN_WINNING_MATCHES..=MAX_WINNING_MATCHES).rev().collect();
        let got: Vec<u8> = f.prize_table.iter().map(|r| r.matches).collect();
        if got != want {
            return Err(field(
                "prize_table",
                format!("rows must be matches {want:?} in that order (G-7), found {got:?}"),
            ));
        }
        for r in &f.prize_table {
            let name = format!("prize_table[matches={}].prize_cents", r.matches);
            if r.prize_cents.len() != p.len() {
                return Err(field(&name, "must give one amount per price point"));
            }
            if r.prize_cents[0] == 0 {
                return Err(field(&name, "a winning unit pays more than 0"));
            }
            for (i, &a) in r.prize_cents.iter().enumerate() {
                // amount_i / price_i == amount_0 / price_0, in integers.
                if a.checked_mul(p[0]) != r.prize_cents[0].checked_mul(p[i]) {
                    return Err(field(
                        &name,
                        format!(
                            "{a} at price {} does not scale from {} at price {} (G-3: x1/x2/x4)",
                            p[i], r.prize_cents[0], p[0]
                        ),
                    ));
                }
            }
        }
        for w in f.prize_table.windows(2) {
            if w[0].prize_cents[0] <= w[1].prize_cents[0] {
                return Err(field(
                    "prize_table",
                    format!(
                        "the prize for {} matches must exceed the prize for {} (G-7)",
                        w[0].matches, w[1].matches
                    ),
                ));
            }
        }

        // G-3: the table adds up to the declared totals, and winning + losing = the block (G-1).
        let winning: u64 = f.prize_table.iter().map(|r| u64::from(r.units)).sum();
        if winning != u64::from(f.totals.winning_units) {
            return Err(RulesError::DoesNotAddUp {
                what: "the number of winning units".into(),
                computed: winning,
                declared: f.totals.winning_units.into(),
            });
        }
        let units = winning + u64::from(f.totals.losing_units);
        if units != u64::from(f.block_size) {
            return Err(RulesError::DoesNotAddUp {
                what: "winning_units + losing_units (the block size, G-1)".into(),
                computed: units,
                declared: f.block_size.into(),
            });
        }
        if f.block_size == 0 {
            return Err(field("block_size", "must be positive"));
        }
        if f.totals.prize_cents.len() != p.len() {
            return Err(field(
                "totals.prize_cents",
                "must give one total per price point",
            ));
        }
        for (i, &declared) in f.totals.prize_cents.iter().enumerate() {
            let computed = f
                .prize_table
                .iter()
                .try_fold(0u64, |acc, r| {
                    u64::from(r.units)
                        .checked_mul(r.prize_cents[i])
                        .and_then(|x| acc.checked_add(x))
                })
                .ok_or_else(|| field("prize_table", "amounts overflow"))?;
            if computed != declared {
                return Err(RulesError::DoesNotAddUp {
                    what: format!("the total of prizes at price {} cents", p[i]),
                    computed,
                    declared,
                });
            }
        }

        let rules = GameRules {
            game: f.game,
            title: f.title,
            prices_cents: f.price_points_cents,
            block_size: f.block_size,
            table: f
                .prize_table
                .into_iter()
                .map(|r| PrizeRow {
                    matches: r.matches,
                    units: r.units,
                    prize_cents: r.prize_cents,
                })
                .collect(),
            symbols: f.symbols,
            sha256: sha256(bytes),
        };
        if rules.game == OFFICIAL_GAME_ID {
            rules.check_regulation(&f.totals)?;
        }
        Ok(rules)
    }

    /// The pin for [`OFFICIAL_GAME_ID`]: every figure equals the regulation's (G-1, G-2, G-3).
    fn check_regulation(&self, totals: &TotalsFile) -> Result<(), RulesError> {
        fn differs(field: &str, rule: &'static str, found: String, law: String) -> RulesError {
            RulesError::NotTheRegulation {
                field: field.into(),
                rule,
                found,
                law,
            }
        }
        if self.block_size != G1_BLOCK_SIZE {
            return Err(differs(
                "block_size",
                "G-1",
                self.block_size.to_string(),
                G1_BLOCK_SIZE.to_string(),
            ));
        }
        if self.prices_cents != G2_PRICES_CENTS {
            return Err(differs(
                "price_points_cents",
                "G-2",
                format!("{:?}", self.prices_cents),
                format!("{G2_PRICES_CENTS:?}"),
            ));
        }
        for (row, &(matches, units, prize)) in self.table.iter().zip(G3_TABLE.iter()) {
            let law: Vec<u64> = G2_PRICES_CENTS.iter().map(|&p| prize * p / 50).collect();
            if row.matches != matches || row.units != units || row.prize_cents != law {
                return Err(differs(
                    &format!("prize_table[matches={}]", row.matches),
                    "G-3",
                    format!("{} units, {:?} cents", row.units, row.prize_cents),
                    format!("{units} units, {law:?} cents"),
                ));
            }
        }
        if totals.winning_units != G3_WINNING_UNITS
            || totals.prize_cents != G3_TOTAL_PRIZES_CENTS
            || totals.losing_units != G1_BLOCK_SIZE - G3_WINNING_UNITS
        {
            return Err(differs(
                "totals",
                "G-3",
                format!(
                    "{} winning, {} losing, {:?} cents",
                    totals.winning_units, totals.losing_units, totals.prize_cents
                ),
                format!(
                    "{G3_WINNING_UNITS} winning, {} losing, {G3_TOTAL_PRIZES_CENTS:?} cents",
                    G1_BLOCK_SIZE - G3_WINNING_UNITS
                ),
            ));
        }
        Ok(())
    }

    /// Game id (a slug, e.g. `noel-de-la-chance-2015`).
    pub fn game(&self) -> &str {
        &self.game
    }
    /// Human title.
    pub fn title(&self) -> &str {
        &self.title
    }
    /// Price points in cents, ascending (G-2).
    pub fn prices_cents(&self) -> &[u64] {
        &self.prices_cents
    }
    /// Units per block (G-1).
    pub fn block_size(&self) -> u32 {
        self.block_size
    }
    /// The prize table (G-3), matches 10 first.
    pub fn table(&self) -> &[PrizeRow] {
        &self.table
    }
    /// Symbol names; a symbol's index is its position here, and its letter `A` + index.
    pub fn symbols(&self) -> &[String] {
        &self.symbols
    }
    /// SHA-256 of the rules file bytes as loaded.
    pub fn sha256(&self) -> &Hash32 {
        &self.sha256
    }
    /// Winning units per block (G-3).
    pub fn winning_units(&self) -> u32 {
        self.table.iter().map(|r| r.units).sum()
    }
    /// Losing units per block (G-8).
    pub fn losing_units(&self) -> u32 {
        self.block_size - self.winning_units()
    }

    /// Index of `price_cents` among the price points, if it is one (G-2).
    pub fn price_index(&self, price_cents: u64) -> Option<usize> {
        self.prices_cents.iter().position(|&p| p == price_cents)
    }

    /// Units of `tier` per block: the G-3 row for 4..=10, the losing units for 0 (G-8), else 0.
    pub fn units_of_tier(&self, tier: u8) -> u32 {
        if tier == LOSING_TIER {
            return self.losing_units();
        }
        self.table
            .iter()
            .find(|r| r.matches == tier)
            .map_or(0, |r| r.units)
    }

    /// Prize in cents of a unit of `tier` at price index `price_idx` (G-3, G-7): 0 for a losing
    /// unit, `None` for a tier that does not exist.
    pub fn prize_cents(&self, tier: u8, price_idx: usize) -> Option<u64> {
        if tier == LOSING_TIER {
            return Some(0);
        }
        self.table
            .iter()
            .find(|r| r.matches == tier)
            .and_then(|r| r.prize_cents.get(price_idx).copied())
    }

    /// Total prizes in cents of one block at price index `price_idx`.
    pub fn total_prizes_cents(&self, price_idx: usize) -> u64 {
        self.table
            .iter()
            .map(|r| u64::from(r.units) * r.prize_cents[price_idx])
            .sum()
    }
}

/// Reduced rules for tests and vectors: the official file with another game id, `block_size`
/// units and `units` winning units for matches 10, 9, …, 4 (totals recomputed), as file bytes.
/// Everything else (prices, amounts, grid, symbols) is the official game's, so a reduced block
/// exercises every tier and every code path; only the counts are smaller.
pub fn reduced_rules_json(
    official: &GameRules,
    game: &str,
    block_size: u32,
    units: [u32; 7],
) -> Vec<u8> {
    let winning: u32 = units.iter().sum();
    let table: Vec<serde_json::Value> = official
        .table()
        .iter()
        .zip(units)
        .map(|(r, u)| serde_json::json!({"matches": r.matches, "units": u, "prize_cents": r.prize_cents}))
        .collect();
    let totals: Vec<u64> = (0..official.prices_cents().len())
        .map(|i| {
            official
                .table()
                .iter()
                .zip(units)
                .map(|(r, u)| u64::from(u) * r.prize_cents[i])
                .sum()
        })
        .collect();
    let v = serde_json::json!({
        "format": FORMAT,
        "game": game,
        "title": format!("{} (reduced block of {block_size} for tests)", official.title()),
        "notes": ["Reduced table for tests and test vectors; not a rules file of any real game."],
        "price_points_cents": official.prices_cents(),
        "block_size": block_size,
        "prize_table": table,
        "totals": {
            "winning_units": winning,
            "losing_units": block_size.saturating_sub(winning),
            "prize_cents": totals,
        },
        "grid": {"rows": GRID_ROWS, "columns": GRID_COLUMNS, "offered_symbols": OFFERED_SYMBOLS},
        "symbols": official.symbols(),
    });
    let mut out = serde_json::to_vec_pretty(&v).expect("a JSON value serializes");
    out.push(b'\n');
    out
}

/// Is `tier` a valid ticket tier: 0 (losing, G-8) or 4..=10 matches (G-7)?
pub fn is_tier(tier: u8) -> bool {
    tier == LOSING_TIER || (MIN_WINNING_MATCHES..=MAX_WINNING_MATCHES).contains(&tier)
}

/// The official rules file, compiled in for tests.
#[cfg(test)]
pub(crate) mod tests_support {
    use super::*;

    pub const OFFICIAL: &[u8] = include_bytes!("../../../rules/noel-de-la-chance-2015.json");

    /// Reduced rules of `n` units with about the official proportions (at least one of each tier).
    pub fn small_rules(n: u32) -> GameRules {
        let official = GameRules::from_json(OFFICIAL).unwrap();
        let units =
            G3_TABLE.map(|(_, u, _)| ((u64::from(u) * u64::from(n)) / 800_000).max(1) as u32);
        GameRules::from_json(&reduced_rules_json(&official, "noel-test", n, units)).unwrap()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::tests_support::OFFICIAL;

    fn edit(f: impl FnOnce(&mut serde_json::Value)) -> Vec<u8> {
        let mut v: serde_json::Value = serde_json::from_slice(OFFICIAL).unwrap();
        f(&mut v);
        serde_json::to_vec_pretty(&v).unwrap()
    }

    #[test]
    fn the_official_rules_file_loads_and_matches_g1_g2_g3() {
        let r = GameRules::from_json(OFFICIAL).unwrap();
        assert_eq!(r.game(), OFFICIAL_GAME_ID);
        assert_eq!(r.block_size(), 800_000); // G-1
        assert_eq!(r.prices_cents(), &[50, 100, 200]); // G-2
        assert_eq!(r.winning_units(), 170_302); // G-3
        assert_eq!(r.losing_units(), 629_698); // G-3, G-8
        assert_eq!(r.total_prizes_cents(0), 28_000_000); // €280,000
        assert_eq!(r.total_prizes_cents(1), 56_000_000); // €560,000
        assert_eq!(r.total_prizes_cents(2), 112_000_000); // €1,120,000
        // G-3: 70% of sales at every price.
        for (i, p) in r.prices_cents().iter().enumerate() {
            assert_eq!(r.total_prizes_cents(i) * 10, 800_000 * p * 7);
        }
        assert_eq!(r.prize_cents(10, 2), Some(1_000_000));
        assert_eq!(r.prize_cents(4, 0), Some(50));
        assert_eq!(r.prize_cents(0, 1), Some(0));
        assert_eq!(r.prize_cents(3, 1), None);
        assert_eq!(r.sha256(), &sha256(OFFICIAL));
    }

    #[test]
    fn a_table_whose_units_do_not_add_up_is_refused() {
        let bad = edit(|v| v["prize_table"][2]["units"] = 201.into());
        let e = GameRules::from_json(&bad).unwrap_err();
        assert!(
            matches!(
                e,
                RulesError::DoesNotAddUp {
                    computed: 170_303,
                    declared: 170_302,
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("winning units"), "{e}");
    }

    #[test]
    fn a_table_whose_amounts_do_not_add_up_is_refused() {
        // Consistent scaling, but the €2.50 prize becomes €3: the €280,000 total no longer holds.
        let bad =
            edit(|v| v["prize_table"][4]["prize_cents"] = serde_json::json!([300, 600, 1200]));
        let e = GameRules::from_json(&bad).unwrap_err();
        assert!(
            matches!(
                e,
                RulesError::DoesNotAddUp {
                    declared: 28_000_000,
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn losing_units_must_complete_the_block() {
        let bad = edit(|v| v["totals"]["losing_units"] = 629_697.into());
        assert!(matches!(
            GameRules::from_json(&bad).unwrap_err(),
            RulesError::DoesNotAddUp {
                computed: 799_999,
                declared: 800_000,
                ..
            }
        ));
    }

    #[test]
    fn amounts_that_do_not_scale_x1_x2_x4_are_refused() {
        let bad = edit(|v| v["prize_table"][6]["prize_cents"] = serde_json::json!([50, 100, 250]));
        let e = GameRules::from_json(&bad).unwrap_err();
        assert!(e.to_string().contains("does not scale"), "{e}");
    }

    #[test]
    fn tiers_must_be_4_to_10_once_each() {
        let bad = edit(|v| v["prize_table"][6]["matches"] = 3.into());
        assert!(
            GameRules::from_json(&bad)
                .unwrap_err()
                .to_string()
                .contains("G-7")
        );
        let bad = edit(|v| {
            v["prize_table"].as_array_mut().unwrap().pop();
        });
        assert!(GameRules::from_json(&bad).is_err());
    }

    #[test]
    fn prizes_must_grow_with_matches() {
        let bad = edit(|v| {
            v["prize_table"][0]["prize_cents"] = serde_json::json!([25_000, 50_000, 100_000]);
            v["totals"]["prize_cents"] = serde_json::json!([27_775_000, 55_550_000, 111_100_000]);
        });
        assert!(
            GameRules::from_json(&bad)
                .unwrap_err()
                .to_string()
                .contains("must exceed")
        );
    }

    #[test]
    fn too_few_or_duplicate_symbols_are_refused() {
        let bad = edit(|v| {
            v["symbols"].as_array_mut().unwrap().truncate(5);
        });
        assert!(
            GameRules::from_json(&bad)
                .unwrap_err()
                .to_string()
                .contains("symbols")
        );
        let bad = edit(|v| v["symbols"][3] = v["symbols"][0].clone());
        assert!(
            GameRules::from_json(&bad)
                .unwrap_err()
                .to_string()
                .contains("twice")
        );
    }

    #[test]
    fn a_grid_other_than_3x6_with_3_offered_is_refused() {
        let bad = edit(|v| v["grid"]["columns"] = 5.into());
        assert!(
            GameRules::from_json(&bad)
                .unwrap_err()
                .to_string()
                .contains("G-4")
        );
        let bad = edit(|v| v["grid"]["offered_symbols"] = 2.into());
        assert!(
            GameRules::from_json(&bad)
                .unwrap_err()
                .to_string()
                .contains("G-6")
        );
    }

    #[test]
    fn a_consistent_but_altered_official_table_is_refused_by_the_regulation_pin() {
        // Moves one unit from tier 5 to tier 4 and fixes up the totals: internally consistent,
        // but it is not G-3.
        let bad = edit(|v| {
            v["prize_table"][5]["units"] = 98_999.into();
            v["prize_table"][6]["units"] = 46_001.into();
            v["totals"]["prize_cents"] = serde_json::json!([27_999_950, 55_999_900, 111_999_800]);
        });
        let e = GameRules::from_json(&bad).unwrap_err();
        assert!(
            matches!(e, RulesError::NotTheRegulation { rule: "G-3", .. }),
            "{e}"
        );
        // The same table under another game id passes: the pin is for the regulation's game only.
        let other = edit(|v| {
            v["game"] = "noel-test".into();
            v["prize_table"][5]["units"] = 98_999.into();
            v["prize_table"][6]["units"] = 46_001.into();
            v["totals"]["prize_cents"] = serde_json::json!([27_999_950, 55_999_900, 111_999_800]);
        });
        assert!(GameRules::from_json(&other).is_ok());
    }

    #[test]
    fn reduced_rules_load_and_keep_the_official_amounts() {
        let official = GameRules::from_json(OFFICIAL).unwrap();
        let r = GameRules::from_json(&reduced_rules_json(
            &official,
            "noel-test",
            100,
            [1, 1, 1, 2, 3, 9, 5],
        ))
        .unwrap();
        assert_eq!(
            (r.block_size(), r.winning_units(), r.losing_units()),
            (100, 22, 78)
        );
        assert_eq!(r.prize_cents(10, 1), official.prize_cents(10, 1));
        // The regulation's game id cannot be given to a reduced table.
        let bad = reduced_rules_json(&official, OFFICIAL_GAME_ID, 100, [1, 1, 1, 2, 3, 9, 5]);
        assert!(matches!(
            GameRules::from_json(&bad).unwrap_err(),
            RulesError::NotTheRegulation { rule: "G-1", .. }
        ));
    }

    #[test]
    fn unknown_fields_and_wrong_format_are_refused() {
        let bad = edit(|v| v["extra"] = 1.into());
        assert!(matches!(
            GameRules::from_json(&bad).unwrap_err(),
            RulesError::Json(_)
        ));
        let bad = edit(|v| v["format"] = "urne-game-rules-v2".into());
        assert!(
            GameRules::from_json(&bad)
                .unwrap_err()
                .to_string()
                .contains("format")
        );
    }
}
