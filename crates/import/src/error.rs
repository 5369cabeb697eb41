//! What stops an import, by identity: a [`Kind`] with its stable id and its exit code, and an
//! [`ImportError`] carrying the words of one occurrence. Every refusal loads nothing.

use urne_verify::verify::{Failure, FailureClass};

/// What stopped an import, by identity: its id (the `error[<id>]:` line) and its exit code, a
/// property of the kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kind {
    /// An output, or a block's production file, does not verify (exit 1; the message names the
    /// class of spec/formats.md §8.1).
    VerificationFailed,
    /// Arguments that do not go together, or an input that cannot be read (exit 2).
    Usage,
    /// A result made from an export production did not send (exit 3).
    UnknownExport,
    /// Outputs made under rules that are not the regulation's, or a rehearsal's (exit 4).
    NotOfficial,
    /// Two histories: the medium's outputs fork, or they do not extend what the database holds
    /// (exit 5).
    Fork,
    /// The database refused, or holds a schema this import does not know (exit 6).
    Database,
    /// What production needs is not on the medium: a draw without its `result.json`, a
    /// version-1 output, a lone `result.json` (exit 7).
    Incomplete,
    /// Standard output closed before the JSON Lines were all written (exit 8): the import
    /// itself is done.
    StdoutClosed,
}

impl Kind {
    /// Every kind, for the tests of ids and codes.
    pub const ALL: &'static [Kind] = &[
        Kind::VerificationFailed,
        Kind::Usage,
        Kind::UnknownExport,
        Kind::NotOfficial,
        Kind::Fork,
        Kind::Database,
        Kind::Incomplete,
        Kind::StdoutClosed,
    ];

    /// The stable id printed in the `error[<id>]:` line.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Kind::VerificationFailed => "verification-failed",
            Kind::Usage => "usage",
            Kind::UnknownExport => "unknown-export",
            Kind::NotOfficial => "not-official",
            Kind::Fork => "fork",
            Kind::Database => "database",
            Kind::Incomplete => "incomplete",
            Kind::StdoutClosed => "stdout-closed",
        }
    }

    /// The exit code (crates/import/README.md).
    #[must_use]
    pub fn code(self) -> u8 {
        match self {
            Kind::VerificationFailed => 1,
            Kind::Usage => 2,
            Kind::UnknownExport => 3,
            Kind::NotOfficial => 4,
            Kind::Fork => 5,
            Kind::Database => 6,
            Kind::Incomplete => 7,
            Kind::StdoutClosed => 8,
        }
    }
}

/// The exit code of an import that loaded, and found that a result or block it had loaded
/// before as payable or on sale is now void (an alert line says which).
pub const ALERT_CODE: u8 = 10;

/// Why an import stopped, loading nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ImportError {
    /// What it is.
    pub kind: Kind,
    /// What does not hold, in words.
    pub message: String,
    /// What to do about it.
    pub hint: String,
}

impl ImportError {
    /// An error of `kind`.
    pub fn new(kind: Kind, message: impl Into<String>, hint: impl Into<String>) -> Self {
        ImportError {
            kind,
            message: message.into(),
            hint: hint.into(),
        }
    }

    /// A verification failure of the medium: a fork and a rehearsal keep their own kinds.
    #[must_use]
    pub fn verification(f: &Failure) -> Self {
        let (kind, hint) = match f.class {
            FailureClass::Fork => (
                Kind::Fork,
                "the outputs are of two histories: import nothing, keep the medium as evidence and tell the operator and the commissaire",
            ),
            FailureClass::Rehearsal => (
                Kind::NotOfficial,
                "a rehearsal's outputs are never official results: import the official sitting's medium",
            ),
            FailureClass::Usage | FailureClass::Unreadable => (
                Kind::Usage,
                "check the medium's path and the keys folder (result.pub.pem, audit.pub.pem)",
            ),
            _ => (
                Kind::VerificationFailed,
                "the medium is not as the appliance published it, or the keys are not the appliance's: check the keys against the key ceremony's minutes and import nothing from this medium",
            ),
        };
        ImportError::new(
            kind,
            format!("verification failed ({}): {}", f.class.name(), f.what),
            f.hint.clone().unwrap_or_else(|| hint.into()),
        )
    }

    /// A database error.
    #[must_use]
    pub fn database(what: &str, e: &postgres::Error) -> Self {
        let detail = e
            .as_db_error()
            .map_or_else(|| e.to_string(), |d| d.message().to_string());
        ImportError::new(
            Kind::Database,
            format!("the database refused {what}: {detail}"),
            "check --database (a PostgreSQL connection string) and the database's state; nothing was loaded",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_own_id_and_code() {
        let mut ids: Vec<_> = Kind::ALL.iter().map(|k| k.id()).collect();
        let mut codes: Vec<_> = Kind::ALL.iter().map(|k| k.code()).collect();
        ids.sort_unstable();
        ids.dedup();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(ids.len(), Kind::ALL.len());
        assert_eq!(codes.len(), Kind::ALL.len());
        assert!(!codes.contains(&0) && !codes.contains(&ALERT_CODE));
    }

    #[test]
    fn a_fork_and_a_rehearsal_keep_their_kinds() {
        let f = |class| Failure {
            class,
            what: "w".into(),
            hint: None,
        };
        assert_eq!(
            ImportError::verification(&f(FailureClass::Fork)).kind,
            Kind::Fork
        );
        assert_eq!(
            ImportError::verification(&f(FailureClass::Rehearsal)).kind,
            Kind::NotOfficial
        );
        assert_eq!(
            ImportError::verification(&f(FailureClass::BadSignature)).kind,
            Kind::VerificationFailed
        );
    }
}
