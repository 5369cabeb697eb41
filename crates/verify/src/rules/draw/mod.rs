//! Rules of a promotional draw operation ("Chanceux Noël", D-1 … D-15), as data (design
//! principle 8). The operation's rules file (`rules/chanceux-noel-2018.json`) is parsed and
//! validated here; a file that is inconsistent (periods that overlap, a draw date before the end
//! of its period, a zero tranche, an unknown time zone, …) is refused at load with a message that
//! names the field.
//!
//! Instants are handled as Unix seconds (UTC), days as `NaiveDate` in the operation's time zone
//! (D-1): the conversion between the two goes through chrono-tz, never through a fixed offset.
//!
//! One job per file: `schema` (the file as written), `load` (its validation, step by step),
//! `time` (days and instants in the operation's time zone), `operation` (the validated
//! [`DrawRules`]), `vocabulary` (channels and exclusion reasons), `error`.

mod error;
mod load;
mod operation;
mod schema;
mod time;
mod vocabulary;

pub use error::RulesError;
pub use load::CHANCEUX_NOEL_2018;
pub use operation::{DrawRules, Period};
pub use vocabulary::{Channel, ExclusionReason};

#[cfg(test)]
mod tests;

/// The rules file's JSON Schema as its raw form reads it (schemas/, generated in the tests).
#[cfg(test)]
pub(crate) fn json_schema() -> schemars::Schema {
    schemars::schema_for!(schema::RawRules)
}
