//! Third-party verification (design principle 2, SPEC.md §8): recomputes draws and blocks from
//! published files and compares. Pure: it is given bytes and keys, never the HSM, the database or
//! a private key, so it can never produce a result.

pub mod draw;

/// Why verification failed: the class of failure (for scripts and test vectors) and what,
/// precisely, does not hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub class: FailureClass,
    pub what: String,
}

/// Classes of failure, so a parse error cannot pass for a signature failure (SPEC.md §8.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureClass {
    /// A signature is missing or does not verify under the given key.
    BadSignature,
    /// A file does not parse as its format says.
    Malformed,
    /// Committed data does not match its commitment (Merkle root, counts, hashes).
    CommitmentMismatch,
    /// Recomputing the draw or the block gives another outcome.
    DrawMismatch,
    /// Two files that must agree do not (result vs bundle, export vs seal).
    Inconsistent,
}

impl FailureClass {
    pub fn name(self) -> &'static str {
        match self {
            FailureClass::BadSignature => "bad-signature",
            FailureClass::Malformed => "malformed",
            FailureClass::CommitmentMismatch => "commitment-mismatch",
            FailureClass::DrawMismatch => "draw-mismatch",
            FailureClass::Inconsistent => "inconsistent",
        }
    }
}

pub fn fail(class: FailureClass, what: impl Into<String>) -> Failure {
    Failure {
        class,
        what: what.into(),
    }
}

pub type VResult<T> = Result<T, Failure>;
