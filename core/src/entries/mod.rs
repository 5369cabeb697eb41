//! Production's daily entry exports (SPEC.md "Entries"; format `entry-export-v1`): the signature
//! check, the strict parse, and the D-3 … D-6 / D-13 tally that turns one day's plays into
//! entries.
//!
//! Two passes over the same bytes, because inputs are verified before they are parsed (design
//! principle 5):
//!
//! 1. [`verify_export`] streams the file once: strict pure Ed25519 (RFC 8032) against the trusted
//!    producer keys, plus SHA-256 and size. Nothing is parsed.
//! 2. [`tally_export`] streams it again, parses and validates every line exactly as the format
//!    says, recomputes SHA-256 and refuses the file if it is not the one that was verified, and
//!    computes the entries. (A third read, hash-checked the same way, happens only when two play
//!    ids may be equal: see [`tally_export_with`].)
//!
//! This module is pure: it reads from the readers it is given (opened by the caller's function
//! for each pass), names no file and reads no clock.
//! Its results do not depend on record order or thread count: entries come out sorted by account
//! bytes, and the error reported is always the one on the earliest line.

mod accounts;
mod fast;
mod json;
pub mod rfc3339;
mod tally;
mod verify;

pub use tally::{TallyOptions, tally_export, tally_export_with};
pub use verify::{verify_export, verify_strict_fast, verify_strict_stream};

use chrono::NaiveDate;

use crate::rules::draw::ExclusionReason;

/// What pass 1 established about an export file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifiedExport {
    /// SHA-256 of the file's exact bytes.
    pub sha256: [u8; 32],
    /// Size of the file in bytes.
    pub size: u64,
    /// The trusted producer key that verified the signature (raw 32 bytes).
    pub key: [u8; 32],
    /// Its key id (first 16 hex digits of SHA-256 over the raw key): the header must name it.
    pub key_id: String,
}

/// One account's entries in the day's draw (D-3, D-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AccountEntries {
    /// The pseudonymous account id (64 hex digits in the export).
    pub account: [u8; 32],
    /// 1 ..= the daily cap.
    pub entries: u8,
}

/// Everything the tally of one day's export established: the header, the day's rules, the
/// figures for the commissaire's minutes, and the entries themselves in canonical order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DayTally {
    // The header, as the file states it.
    pub operation: String,
    pub day: NaiveDate,
    pub producer: String,
    pub generated_at: String,
    pub status_as_of: String,
    /// Play records the header announced (equal to the plays found).
    pub header_plays: u64,
    /// Exclusion records the header announced (equal to the exclusions found).
    pub header_exclusions: u64,

    /// The file (as verified in pass 1 and re-hashed in pass 2).
    pub sha256: [u8; 32],
    pub size: u64,

    // The rules that applied to this day.
    pub period_id: String,
    pub tranche_cents: u64,
    pub daily_cap: u8,

    // Figures.
    /// Play records (all channels).
    pub plays: u64,
    /// Plays that count (online; subscription taken out inside the participation period).
    pub counting_plays: u64,
    /// Retail plays (never count, D-3).
    pub retail_plays: u64,
    /// Online subscription debits that do not count: subscription taken out outside the
    /// participation period (D-5).
    pub subscription_plays_refused: u64,
    /// Accounts with at least one counting play.
    pub accounts_with_counting_plays: u64,
    /// Exclusion records, by reason (index: `ExclusionReason::index`).
    pub exclusions_by_reason: [u64; 3],
    /// Excluded accounts that had counting plays, by reason (D-6, D-13).
    pub excluded_with_counting_plays_by_reason: [u64; 3],
    /// Accounts with at least one entry.
    pub accounts_with_entries: u64,
    /// Sum of all entries: the size of the day's draw.
    pub total_entries: u64,
    /// Accounts with at least one entry, sorted ascending by account bytes.
    pub entries: Vec<AccountEntries>,
}

impl DayTally {
    /// Exclusion records of every reason.
    pub fn exclusions(&self) -> u64 {
        self.exclusions_by_reason.iter().sum()
    }

    /// Excluded accounts that had counting plays, every reason.
    pub fn excluded_accounts_with_counting_plays(&self) -> u64 {
        self.excluded_with_counting_plays_by_reason.iter().sum()
    }

    /// Exclusion records of one reason.
    pub fn exclusions_for(&self, r: ExclusionReason) -> u64 {
        self.exclusions_by_reason[r.index()]
    }
}

/// Why an export was refused. `line` is the 1-based line of the file the reason applies to, when
/// there is one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct ExportError {
    pub line: Option<u64>,
    pub kind: ExportErrorKind,
}

impl std::fmt::Display for ExportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "line {l}: {}", self.kind),
            None => write!(f, "{}", self.kind),
        }
    }
}

impl ExportError {
    pub(crate) fn file(kind: ExportErrorKind) -> ExportError {
        ExportError { line: None, kind }
    }

    pub(crate) fn at(line: u64, kind: ExportErrorKind) -> ExportError {
        ExportError {
            line: Some(line),
            kind,
        }
    }
}

/// Each rule of entry-export-v1 that can refuse a file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExportErrorKind {
    // The file as a whole.
    #[error("cannot read the export: {0}")]
    Io(String),
    #[error("the signature file must hold exactly 64 bytes (raw Ed25519), it holds {0}")]
    SignatureLength(usize),
    #[error("no trusted producer key was given")]
    NoTrustedKey,
    #[error("the signature does not verify under any trusted producer key")]
    BadSignature,
    #[error(
        "the file changed after its signature was checked (SHA-256 {found}, {found_size} bytes; \
         verified {expected}, {expected_size} bytes)"
    )]
    FileChanged {
        expected: String,
        expected_size: u64,
        found: String,
        found_size: u64,
    },
    #[error("the file has more lines than this reader supports (2^32 - 1)")]
    TooManyLines,

    // Lines.
    #[error("the line is not valid UTF-8")]
    NotUtf8,
    #[error("the line ends in CR LF; lines must end in LF alone")]
    Crlf,
    #[error("the last line does not end in LF")]
    MissingFinalNewline,
    #[error("the line is longer than {0} bytes")]
    LineTooLong(usize),
    #[error("not valid JSON: {reason} (column {column})")]
    InvalidJson { column: usize, reason: &'static str },
    #[error("the key {0:?} appears twice in one object")]
    DuplicateKey(String),
    #[error("field `{0}` is missing")]
    MissingField(&'static str),
    #[error("field `{field}` must be {expected}, found {found}")]
    WrongType {
        field: &'static str,
        expected: &'static str,
        found: &'static str,
    },
    #[error("field `{field}` is out of range: {reason}")]
    OutOfRange { field: &'static str, reason: String },

    // The header.
    #[error("the file is empty: no header")]
    Empty,
    #[error("line 1 is not a header (no `format` field)")]
    MissingHeader,
    #[error("format is {0:?}, expected \"draw-entries\"")]
    WrongFormat(String),
    #[error("version is {0}, expected 1")]
    WrongVersion(String),
    #[error("operation is {found:?}, expected {expected:?}")]
    WrongOperation { expected: String, found: String },
    #[error("day {0} is not a day of the operation")]
    DayNotInOperation(String),
    #[error("producer is {found:?}, but the file was signed by key {expected:?}")]
    WrongProducer { expected: String, found: String },
    #[error("the header announces {header} {record} records, the file holds {found}")]
    CountMismatch {
        record: &'static str,
        header: u64,
        found: u64,
    },

    // Records.
    #[error("unknown record type {0:?}")]
    UnknownType(String),
    #[error("{}", dup_play(.id, *.first_line))]
    DuplicatePlayId { id: Option<String>, first_line: u64 },
    #[error("duplicate exclusion of account {account} (first on line {first_line})")]
    DuplicateExclusion { account: String, first_line: u64 },
    #[error("play at {at} is not on {day} in {tz}")]
    PlayNotOnDay {
        at: String,
        day: NaiveDate,
        tz: &'static str,
    },
}

fn dup_play(id: &Option<String>, first_line: u64) -> String {
    match id {
        Some(id) => format!("duplicate play id {id:?} (first on line {first_line})"),
        None => format!("duplicate play id (the same id as line {first_line})"),
    }
}

impl ExportErrorKind {
    /// A short stable name for the rule that refused the file (for the audit trail and tests).
    pub fn name(&self) -> &'static str {
        use ExportErrorKind::*;
        match self {
            Io(_) => "io",
            SignatureLength(_) => "signature-length",
            NoTrustedKey => "no-trusted-key",
            BadSignature => "bad-signature",
            FileChanged { .. } => "file-changed",
            TooManyLines => "too-many-lines",
            NotUtf8 => "not-utf8",
            Crlf => "crlf",
            MissingFinalNewline => "missing-final-newline",
            LineTooLong(_) => "line-too-long",
            InvalidJson { .. } => "invalid-json",
            DuplicateKey(_) => "duplicate-key",
            MissingField(_) => "missing-field",
            WrongType { .. } => "wrong-type",
            OutOfRange { .. } => "out-of-range",
            Empty => "empty",
            MissingHeader => "missing-header",
            WrongFormat(_) => "wrong-format",
            WrongVersion(_) => "wrong-version",
            WrongOperation { .. } => "wrong-operation",
            DayNotInOperation(_) => "day-not-in-operation",
            WrongProducer { .. } => "wrong-producer",
            CountMismatch { .. } => "count-mismatch",
            UnknownType(_) => "unknown-type",
            DuplicatePlayId { .. } => "duplicate-play-id",
            DuplicateExclusion { .. } => "duplicate-exclusion",
            PlayNotOnDay { .. } => "play-not-on-day",
        }
    }
}
