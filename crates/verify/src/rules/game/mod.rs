//! Rules of an instant game (spec/formats.md §5.B1; rules G-1 … G-8): price points, block size,
//! prize table, grid and symbol set, read from a rules file and validated at load (design
//! principle 8). A table that does not add up is refused here, before any block exists.
//!
//! The file of the seed regulation is `rules/noel-de-la-chance-2015.json`. For that game id the
//! loader also checks every number against the regulation's own figures ([`G3_TABLE`] …), so a
//! self-consistent but altered file cannot pass as "Le Noël de la chance". Files with another game
//! id (reduced tables for tests and vectors) get every internal-consistency check but not that pin.
//!
//! One job per file: `figures` (the regulation's figures and the game's shape), `schema` (the
//! file as written), `load` (its validation, step by step), `pin` (the regulation pin), `model`
//! (the validated [`GameRules`]), `reduced` (reduced rules files for tests), `error`.

mod error;
mod figures;
mod load;
mod model;
mod pin;
mod reduced;
mod schema;

pub use error::RulesError;
pub use figures::{
    FORMAT, G1_BLOCK_SIZE, G2_PRICES_CENTS, G3_TABLE, G3_TOTAL_PRIZES_CENTS, G3_WINNING_UNITS,
    GRID_CELLS, GRID_COLUMNS, GRID_ROWS, LOSING_TIER, MAX_OTHER_SYMBOL, MAX_SYMBOLS,
    MAX_WINNING_MATCHES, MIN_SYMBOLS, MIN_WINNING_MATCHES, OFFERED_SYMBOLS, OFFICIAL_GAME_ID,
    is_tier,
};
pub use load::NOEL_DE_LA_CHANCE_2015;
pub use model::{GameRules, PrizeRow};
pub use reduced::reduced_rules_json;

/// The official rules file, compiled in for tests.
#[cfg(test)]
pub(crate) mod tests_support;

#[cfg(test)]
mod tests;

/// The rules file's JSON Schema as its raw form reads it (schemas/, generated in the tests).
#[cfg(test)]
pub(crate) fn json_schema() -> schemars::Schema {
    schemars::schema_for!(schema::RulesFile)
}
