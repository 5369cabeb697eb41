//! Why a game rules file was refused.

use super::figures::FORMAT;

/// Why a rules file was refused. Each message names the field and what was expected.
#[derive(Debug, thiserror::Error)]
pub enum RulesError {
    /// The file is not JSON of the rules file's shape (unknown fields included).
    #[error("rules file is not valid JSON for {FORMAT}: {0}")]
    Json(#[from] serde_json::Error),
    /// A field breaks a rule of its own.
    #[error("rules field `{field}`: {problem}")]
    Field {
        /// The field, as a path into the file.
        field: String,
        /// What is wrong with it.
        problem: String,
    },
    /// The prize table does not add up to a declared total (G-1, G-3).
    #[error(
        "prize table does not add up: {what} is {computed} by the table but the file declares {declared}"
    )]
    DoesNotAddUp {
        /// The figure that does not add up.
        what: String,
        /// Its value computed from the table.
        computed: u64,
        /// Its value as the file declares it.
        declared: u64,
    },
    /// A file with the official game id whose figures are not the regulation's.
    #[error(
        "`{field}` differs from the regulation ({rule}): the file says {found}, {rule} says {law}"
    )]
    NotTheRegulation {
        /// The field that differs.
        field: String,
        /// The clause it breaks (`G-1`, `G-2`, `G-3`).
        rule: &'static str,
        /// What the file says.
        found: String,
        /// What the regulation says.
        law: String,
    },
}

/// A [`RulesError::Field`] for `field`.
pub(super) fn field(field: &str, problem: impl Into<String>) -> RulesError {
    RulesError::Field {
        field: field.to_string(),
        problem: problem.into(),
    }
}
