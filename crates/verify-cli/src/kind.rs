//! What stops the verifier, by identity: a [`Kind`] with its stable id and its exit code, and a
//! [`Refused`] carrying the words of one occurrence.

use urne_verify::verify::verdict::{self, Line};
use urne_verify::verify::{Failure, FailureClass};

/// What stopped the verifier, by identity: its stable id, printed in the `error[<id>]:` line, and
/// its exit code, a property of the kind. The ids are the appliance's for the same failures
/// (spec/appliance.md §10), so `urne verify`, which runs this crate, prints them unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kind {
    /// An output does not verify (exit 1; the message names the class of spec/formats.md §8.1).
    VerificationFailed,
    /// An exported trail does not verify (exit 1).
    TrailVerificationFailed,
    /// Arguments that do not go together (exit 2).
    Usage,
    /// The verdict could not be written to standard output (exit 2).
    StdoutClosed,
    /// No `--keys`, or keys that do not load (exit 2).
    KeysInvalid,
    /// A path that is not an output, or not one output where one is needed (exit 2).
    NotAnOutput,
    /// Auditor mode without production's public key (exit 2).
    NoProducerKey,
    /// A producer key file that does not read as a public key (exit 2).
    ProducerKeyInvalid,
    /// A file that cannot be read (exit 2).
    VerifyInput,
    /// A file named to be read is not there (exit 2).
    NoSuchFile,
    /// A file named to be read (a key, a checkpoint) that is not a regular file within its
    /// limit: a FIFO is refused, never waited on (exit 2, spec/formats.md §1.6).
    NotRegularFile,
    /// A release given (`--release`) that is refused: its manifest missing, unreadable, not
    /// signed by a release key given, malformed, or two of one revision that disagree (exit 2,
    /// spec/formats.md §8.8).
    ReleaseInvalid,
    /// A release key (`--release-key`) that does not read as a public key, or is an appliance
    /// key (exit 2, spec/formats.md §8.8).
    ReleaseKeyInvalid,
    /// Every output verified, and one's executable is not the released `bin/urne` of its source
    /// revision: built another way, or not released (exit 9, the class `not-released` of
    /// spec/formats.md §8.1, §8.8).
    SoftwareNotReleased,
}

impl Kind {
    /// Every kind, for the tests that check the ids (here and in the appliance, which maps each
    /// to its own kind of the same id and exit code).
    pub const ALL: &'static [Kind] = &[
        Kind::VerificationFailed,
        Kind::TrailVerificationFailed,
        Kind::Usage,
        Kind::StdoutClosed,
        Kind::KeysInvalid,
        Kind::NotAnOutput,
        Kind::NoProducerKey,
        Kind::ProducerKeyInvalid,
        Kind::VerifyInput,
        Kind::NoSuchFile,
        Kind::NotRegularFile,
        Kind::ReleaseInvalid,
        Kind::ReleaseKeyInvalid,
        Kind::SoftwareNotReleased,
    ];

    /// The stable id printed in the `error[<id>]:` line.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Kind::VerificationFailed => "verification-failed",
            Kind::TrailVerificationFailed => "trail-verification-failed",
            Kind::Usage => "usage",
            Kind::StdoutClosed => "stdout-closed",
            Kind::KeysInvalid => "keys-invalid",
            Kind::NotAnOutput => "not-an-output",
            Kind::NoProducerKey => "no-producer-key",
            Kind::ProducerKeyInvalid => "producer-key-invalid",
            Kind::VerifyInput => "verify-input",
            Kind::NoSuchFile => "no-such-file",
            Kind::NotRegularFile => "not-regular-file",
            Kind::ReleaseInvalid => "release-invalid",
            Kind::ReleaseKeyInvalid => "release-key-invalid",
            Kind::SoftwareNotReleased => "software-not-released",
        }
    }

    /// The exit code: 1 when a verification ran and found what does not hold, 2 when nothing
    /// was verified, 9 when everything verified but an output's software is not released
    /// (spec/formats.md §8.1).
    #[must_use]
    pub fn code(self) -> u8 {
        match self {
            Kind::VerificationFailed | Kind::TrailVerificationFailed => 1,
            Kind::SoftwareNotReleased => 9,
            Kind::Usage
            | Kind::StdoutClosed
            | Kind::KeysInvalid
            | Kind::NotAnOutput
            | Kind::NoProducerKey
            | Kind::ProducerKeyInvalid
            | Kind::VerifyInput
            | Kind::NoSuchFile
            | Kind::NotRegularFile
            | Kind::ReleaseInvalid
            | Kind::ReleaseKeyInvalid => 2,
        }
    }
}

/// Why nothing was verified (exit 2), what does not hold (exit 1), or which software is not
/// released (exit 9): the kind, the words of its `error[<id>]:` and `hint:` lines, and the
/// verdict's lines to print before them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// What stopped the verifier.
    pub kind: Kind,
    /// The `error:` line's words (not yet escaped for the terminal).
    pub message: String,
    /// The `hint:` line's words.
    pub hint: String,
    /// The verdict printed before the error: every output verified, when what fails is their
    /// software's release (exit 9, spec/formats.md §8.8); empty otherwise.
    pub lines: Vec<Line>,
}

impl Refused {
    /// A refusal of `kind` with its words.
    pub fn new(kind: Kind, message: impl Into<String>, hint: impl Into<String>) -> Self {
        Refused {
            kind,
            message: message.into(),
            hint: hint.into(),
            lines: vec![],
        }
    }
}

impl From<Failure> for Refused {
    fn from(f: Failure) -> Self {
        let not_released = f.class == FailureClass::NotReleased;
        let r = verdict::refusal(f);
        let kind = if not_released {
            Kind::SoftwareNotReleased
        } else if r.verification {
            Kind::VerificationFailed
        } else {
            Kind::VerifyInput
        };
        Refused::new(kind, r.message, r.hint)
    }
}

#[cfg(test)]
mod tests {
    use super::Kind;

    /// Every id is kebab-case and names one kind; exit 1 is a verification that ran, and its
    /// id says so.
    #[test]
    fn ids_are_unique_kebab_case() {
        let mut seen = std::collections::BTreeSet::new();
        for k in Kind::ALL {
            let id = k.id();
            assert!(
                !id.is_empty()
                    && !id.starts_with('-')
                    && !id.ends_with('-')
                    && !id.contains("--")
                    && id.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{id}"
            );
            assert!(seen.insert(id), "{id} twice");
            assert_eq!(k.code() == 1, id.ends_with("verification-failed"), "{id}");
            assert_eq!(k.code() == 9, id == "software-not-released", "{id}");
        }
    }
}
