//! Loading a game rules file (spec/formats.md §5.B1): [`GameRules::from_json`], one named step per group of
//! clauses, in the order the checks have always run (the first refusal is the one reported).

use crate::crypto::sha256;

use super::error::{RulesError, field};
use super::figures::{
    FORMAT, GRID_COLUMNS, GRID_ROWS, MAX_SYMBOLS, MAX_WINNING_MATCHES, MIN_SYMBOLS,
    MIN_WINNING_MATCHES, OFFERED_SYMBOLS, OFFICIAL_GAME_ID, is_slug,
};
use super::model::{GameRules, PrizeRow};
use super::pin::check_regulation;
use super::schema::{GridFile, RowFile, RulesFile};

/// The largest block a rules file may declare (spec/formats.md §5.B1): its production file then stays
/// within the limit of spec/formats.md §1.6.
pub(super) const MAX_BLOCK_SIZE: u32 = 4_194_304;

/// The official game's rules file ("Le Noël de la chance" 2015), shipped with the library: what
/// a block of the official game is checked against where no rules file is given (production's
/// import of a block's production file, urne-import).
pub const NOEL_DE_LA_CHANCE_2015: &[u8] =
    include_bytes!("../../../../../rules/noel-de-la-chance-2015.json");

impl GameRules {
    /// The official game's rules, [`NOEL_DE_LA_CHANCE_2015`].
    ///
    /// # Panics
    /// Never in a tested build: the shipped file is compiled in, and the unit test
    /// `the_shipped_official_game_loads` loads it.
    #[must_use]
    pub fn noel_de_la_chance_2015() -> GameRules {
        GameRules::from_json(NOEL_DE_LA_CHANCE_2015).expect("the shipped game rules file is valid")
    }

    /// Parses and validates a rules file (`format` = [`FORMAT`]). The SHA-256 of `bytes` is kept:
    /// it is the rules hash bound into every block seed and result.
    pub fn from_json(bytes: &[u8]) -> Result<GameRules, RulesError> {
        let f: RulesFile = serde_json::from_slice(bytes)?;
        check_format_and_game(&f)?;
        let p = &f.price_points_cents;
        check_prices(p)?;
        check_grid(&f.grid)?;
        check_symbols(&f.symbols)?;
        check_prize_table(&f.prize_table, p)?;
        check_totals(&f)?;

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
            check_regulation(&rules, &f.totals)?;
        }
        Ok(rules)
    }
}

/// `format` is [`FORMAT`]; `game` is a slug.
fn check_format_and_game(f: &RulesFile) -> Result<(), RulesError> {
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
    Ok(())
}

/// G-2: price points, ascending, each an integer multiple of the first so that amounts scale.
fn check_prices(p: &[u64]) -> Result<(), RulesError> {
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
    Ok(())
}

/// G-4, G-6: the grid the algorithm of spec/formats.md §5.B5 is written for.
fn check_grid(grid: &GridFile) -> Result<(), RulesError> {
    if grid.rows != GRID_ROWS || grid.columns != GRID_COLUMNS {
        return Err(field(
            "grid",
            format!(
                "is {}x{}, the game has {GRID_ROWS} rows of {GRID_COLUMNS} cells (G-4)",
                grid.rows, grid.columns
            ),
        ));
    }
    if grid.offered_symbols != OFFERED_SYMBOLS {
        return Err(field(
            "grid.offered_symbols",
            format!(
                "is {}, the player picks among {OFFERED_SYMBOLS} (G-6)",
                grid.offered_symbols
            ),
        ));
    }
    Ok(())
}

/// Symbols: enough for the grid construction (G-8), one letter each, distinct names.
fn check_symbols(symbols: &[String]) -> Result<(), RulesError> {
    let m = symbols.len();
    if !(MIN_SYMBOLS..=MAX_SYMBOLS).contains(&m) {
        return Err(field(
            "symbols",
            format!(
                "has {m} symbols; {MIN_SYMBOLS}..={MAX_SYMBOLS} are needed (3 copies of each fill a grid with no symbol 4 times, G-8)"
            ),
        ));
    }
    for (i, s) in symbols.iter().enumerate() {
        if !is_slug(s) {
            return Err(field(
                &format!("symbols[{i}]"),
                "must be lowercase letters, digits and '-'",
            ));
        }
        if symbols[..i].contains(s) {
            return Err(field(
                &format!("symbols[{i}]"),
                format!("{s:?} is listed twice"),
            ));
        }
    }
    Ok(())
}

/// G-3, G-7: one row per tier 10, 9, …, 4 in that order; prizes scale with the price
/// (×1/×2/×4) and grow with the number of matches.
fn check_prize_table(table: &[RowFile], p: &[u64]) -> Result<(), RulesError> {
    let want: Vec<u8> = (MIN_WINNING_MATCHES..=MAX_WINNING_MATCHES).rev().collect();
    let got: Vec<u8> = table.iter().map(|r| r.matches).collect();
    if got != want {
        return Err(field(
            "prize_table",
            format!("rows must be matches {want:?} in that order (G-7), found {got:?}"),
        ));
    }
    for r in table {
        check_row_amounts(r, p)?;
    }
    for w in table.windows(2) {
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
    Ok(())
}

/// G-3: one amount per price point, positive, scaling with the price (×1/×2/×4).
fn check_row_amounts(r: &RowFile, p: &[u64]) -> Result<(), RulesError> {
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
    Ok(())
}

/// G-3: the table adds up to the declared totals, and winning + losing = the block (G-1).
fn check_totals(f: &RulesFile) -> Result<(), RulesError> {
    let p = &f.price_points_cents;
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
    if f.block_size == 0 || f.block_size > MAX_BLOCK_SIZE {
        return Err(field(
            "block_size",
            "must be positive and at most 4,194,304 (spec/formats.md §5.B1)",
        ));
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
    Ok(())
}
