//! Reduced rules files for tests and test vectors: the official game's amounts, grid and symbols
//! with smaller counts under another game id.

use super::figures::{FORMAT, GRID_COLUMNS, GRID_ROWS, OFFERED_SYMBOLS};
use super::model::GameRules;

/// Reduced rules for tests and vectors: the official file with another game id, `block_size`
/// units and `units` winning units for matches 10, 9, …, 4 (totals recomputed), as file bytes.
/// Everything else (prices, amounts, grid, symbols) is the official game's, so a reduced block
/// exercises every tier and every code path; only the counts are smaller.
///
/// # Panics
/// Never: a JSON value always serializes.
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
