//! Why an operation rules file was refused.

/// Why a rules file was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RulesError {
    /// The file is not JSON of the rules file's shape (unknown fields included).
    #[error("the rules file is not valid JSON for an operation: {0}")]
    Json(String),
    /// A field is present but its value breaks a rule; `field` names it (`periods[1].first_day`).
    #[error("field `{field}`: {reason}")]
    Invalid {
        /// The field, as a path into the file.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
}

/// A [`RulesError::Invalid`] for `field`.
pub(super) fn invalid(field: impl Into<String>, reason: impl Into<String>) -> RulesError {
    RulesError::Invalid {
        field: field.into(),
        reason: reason.into(),
    }
}
