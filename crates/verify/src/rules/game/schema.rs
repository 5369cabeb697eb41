//! The game rules file as written (`format` = `urne-game-rules-v1`, spec/appliance.md §5.B1), before
//! validation. Unknown fields are refused.

use serde::Deserialize;

/// The whole file.
#[derive(Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(super) struct RulesFile {
    pub(super) format: String,
    pub(super) game: String,
    pub(super) title: String,
    #[serde(default)]
    #[allow(dead_code)] // Free text, bound into the rules hash, never interpreted.
    pub(super) notes: Vec<String>,
    pub(super) price_points_cents: Vec<u64>,
    pub(super) block_size: u32,
    pub(super) prize_table: Vec<RowFile>,
    pub(super) totals: TotalsFile,
    pub(super) grid: GridFile,
    pub(super) symbols: Vec<String>,
}

/// One row of `prize_table`.
#[derive(Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(super) struct RowFile {
    pub(super) matches: u8,
    pub(super) units: u32,
    pub(super) prize_cents: Vec<u64>,
}

/// `totals`: what the table must add up to.
#[derive(Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(super) struct TotalsFile {
    pub(super) winning_units: u32,
    pub(super) losing_units: u32,
    pub(super) prize_cents: Vec<u64>,
}

/// `grid`.
#[derive(Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub(super) struct GridFile {
    pub(super) rows: usize,
    pub(super) columns: usize,
    pub(super) offered_symbols: usize,
}
