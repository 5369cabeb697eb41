//! Why an export is refused: one [`ExportErrorKind`] per rule of entry-export-v1 (spec/appliance.md
//! §4.1.1) and of the signature check (spec/formats.md §1.4), with the line it applies to.

use chrono::NaiveDate;

/// A reason found on one line: (1-based line, reason). Workers and merges keep the one on the
/// smallest line.
pub(super) type LineErr = (u64, ExportErrorKind);

/// Why an export was refused. `line` is the 1-based line of the file the reason applies to, when
/// there is one (line 1 is the header); it displays as `line N: <reason>`, or the reason alone.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct ExportError {
    /// The 1-based line the reason applies to, if it applies to one line.
    pub line: Option<u64>,
    /// The rule that refused the file.
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
    /// A reason that applies to the file as a whole.
    pub(crate) fn file(kind: ExportErrorKind) -> ExportError {
        ExportError { line: None, kind }
    }

    /// A reason that applies to line `line`.
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
    /// The file could not be read (the I/O error as text).
    #[error("cannot read the export: {0}")]
    Io(String),
    /// The `.sig` file is not 64 bytes long (its length).
    #[error("the signature file must hold exactly 64 bytes (raw Ed25519), it holds {0}")]
    SignatureLength(usize),
    /// The caller gave no trusted producer key.
    #[error("no trusted producer key was given")]
    NoTrustedKey,
    /// No trusted producer key verifies the signature over the exact bytes.
    #[error("the signature does not verify under any trusted producer key")]
    BadSignature,
    /// Pass 2 read other bytes than pass 1 verified (hashes as hex, sizes in bytes).
    #[error(
        "the file changed after its signature was checked (SHA-256 {found}, {found_size} bytes; \
         verified {expected}, {expected_size} bytes)"
    )]
    FileChanged {
        /// SHA-256 of the verified file, hex.
        expected: String,
        /// Size of the verified file.
        expected_size: u64,
        /// SHA-256 of the bytes read now, hex.
        found: String,
        /// Size of the bytes read now.
        found_size: u64,
    },
    /// A play is on line 2^32 or later (play lines are numbered in 32 bits: a resource limit).
    #[error("the file has more lines than this reader supports (2^32 - 1)")]
    TooManyLines,
    /// The file holds more than [`MAX_EXPORT_BYTES`](super::limits::MAX_EXPORT_BYTES) bytes (a limit
    /// of the format, decided from the file's metadata before it is read when the caller has
    /// them, else while it is read).
    #[error(
        "the export holds more than {} bytes, the most an export may hold",
        super::limits::MAX_EXPORT_BYTES
    )]
    TooLarge,
    /// The path is not a regular file (a folder, a FIFO, a device), decided from its metadata:
    /// it is never opened.
    #[error("the export is not a regular file")]
    NotAFile,
    /// More accounts with entries than one day's leaves file may hold
    /// ([`MAX_ACCOUNTS_WITH_ENTRIES`](super::limits::MAX_ACCOUNTS_WITH_ENTRIES), 2^24; the count found).
    #[error("{0} accounts have entries, more than the {max} one day may hold", max = super::limits::MAX_ACCOUNTS_WITH_ENTRIES)]
    TooManyAccountsWithEntries(u64),

    // Lines.
    /// A line is not valid UTF-8.
    #[error("the line is not valid UTF-8")]
    NotUtf8,
    /// A line ends in CR LF (no CR is allowed anywhere in an export, spec/formats.md §4.1.1).
    #[error("the line ends in CR LF; lines must end in LF alone")]
    Crlf,
    /// A line holds a CR (0x0D) other than right before its LF: between JSON tokens or anywhere
    /// else, no CR is allowed in an export (spec/formats.md §4.1.1; the 1-based byte column of the first).
    #[error(
        "the line holds a CR (byte 0x0D) at column {0}; no CR is allowed anywhere in an export"
    )]
    CarriageReturn(usize),
    /// The last line does not end in LF.
    #[error("the last line does not end in LF")]
    MissingFinalNewline,
    /// A line is longer than the format's limit (the limit, 2^20 bytes, its LF not counted),
    /// wherever it lies in the file.
    #[error("the line is longer than {0} bytes (its LF not counted)")]
    LineTooLong(usize),
    /// A line is not exactly one JSON object (RFC 8259 without CR), or nests deeper than 64
    /// levels, the line's top-level object being level 1 (1-based byte column and why).
    #[error("not valid JSON: {reason} (column {column})")]
    InvalidJson {
        /// 1-based byte offset in the line of the byte where reading stopped.
        column: usize,
        /// What the reader expected.
        reason: &'static str,
    },
    /// An object of the line, at any depth, has a key twice (the key, unescaped: keys are
    /// compared after JSON unescaping).
    #[error("the key {0:?} appears twice in one object")]
    DuplicateKey(String),
    /// A required field is missing (its name; `subscription.subscribed_at` for the member of a
    /// play's `subscription` object).
    #[error("field `{0}` is missing")]
    MissingField(&'static str),
    /// A field has the wrong JSON type (an integer field holding a fraction or an exponent
    /// included).
    #[error("field `{field}` must be {expected}, found {found}")]
    WrongType {
        /// The field's name as the format writes it (`stake_cents`).
        field: &'static str,
        /// The type the format requires, in words (`an integer`).
        expected: &'static str,
        /// The type found, in words (`a string`).
        found: &'static str,
    },
    /// A field's value is not one the format allows (why, in words).
    #[error("field `{field}` is out of range: {reason}")]
    OutOfRange {
        /// The field's name as the format writes it (`account`).
        field: &'static str,
        /// Why the value is refused.
        reason: String,
    },

    // The header.
    /// The file has no byte at all.
    #[error("the file is empty: no header")]
    Empty,
    /// Line 1 has no `format` field: it is not a header.
    #[error("line 1 is not a header (no `format` field)")]
    MissingHeader,
    /// The header's `format` is not `draw-entries` (the value found).
    #[error("format is {0:?}, expected \"draw-entries\"")]
    WrongFormat(String),
    /// The header's `version` is a number other than `1` (its JSON text: `1.0` is refused too).
    #[error("version is {0}, expected 1")]
    WrongVersion(String),
    /// The header names another operation than the rules'.
    #[error("operation is {found:?}, expected {expected:?}")]
    WrongOperation {
        /// The rules' operation id.
        expected: String,
        /// The header's `operation`.
        found: String,
    },
    /// The header's day is in none of the rules' periods (the day as written).
    #[error("day {0} is not a day of the operation")]
    DayNotInOperation(String),
    /// The header's `producer` is not the key id of the key that signed the file.
    #[error("producer is {found:?}, but the file was signed by key {expected:?}")]
    WrongProducer {
        /// The key id of the key that verified the signature.
        expected: String,
        /// The header's `producer`.
        found: String,
    },
    /// The header's count of one record type is not the number found.
    #[error("the header announces {header} {record} records, the file holds {found}")]
    CountMismatch {
        /// The record type (`play` or `exclusion`).
        record: &'static str,
        /// The count the header announces.
        header: u64,
        /// The count found.
        found: u64,
    },

    // Records.
    /// A record has an unknown `type` (the value found).
    #[error("unknown record type {0:?}")]
    UnknownType(String),
    /// Two plays have the same id (the id when it is short enough to keep, and the first line).
    /// Reported on the line of the id's second play.
    #[error("{}", dup_play(.id.as_deref(), *.first_line))]
    DuplicatePlayId {
        /// The id, when it is at most 15 bytes long (longer ids are kept as a hash).
        id: Option<String>,
        /// The line of the id's first play.
        first_line: u64,
    },
    /// An account is excluded twice (the account as hex, and the first line). Reported on the
    /// line of its second exclusion.
    #[error("duplicate exclusion of account {account} (first on line {first_line})")]
    DuplicateExclusion {
        /// The account, as 64 lowercase hex digits.
        account: String,
        /// The line of its first exclusion.
        first_line: u64,
    },
    /// A play's instant is not on the file's day in the rules' time zone (D-1).
    #[error("play at {at} is not on {day} in {tz}")]
    PlayNotOnDay {
        /// The play's `at`, as written.
        at: String,
        /// The file's day.
        day: NaiveDate,
        /// The rules' time zone.
        tz: &'static str,
    },
}

/// The message of [`ExportErrorKind::DuplicatePlayId`], with the id when it was kept.
fn dup_play(id: Option<&str>, first_line: u64) -> String {
    match id {
        Some(id) => format!("duplicate play id {id:?} (first on line {first_line})"),
        None => format!("duplicate play id (the same id as line {first_line})"),
    }
}

impl ExportErrorKind {
    /// A short stable name for the rule that refused the file (for the audit trail and tests):
    /// one per variant, lowercase words joined by hyphens (`duplicate-play-id`).
    pub fn name(&self) -> &'static str {
        match self {
            Self::Io(_) => "io",
            Self::SignatureLength(_) => "signature-length",
            Self::NoTrustedKey => "no-trusted-key",
            Self::BadSignature => "bad-signature",
            Self::FileChanged { .. } => "file-changed",
            Self::TooManyLines => "too-many-lines",
            Self::TooLarge => "too-large",
            Self::NotAFile => "not-a-file",
            Self::TooManyAccountsWithEntries(_) => "too-many-accounts-with-entries",
            Self::NotUtf8 => "not-utf8",
            Self::Crlf => "crlf",
            Self::CarriageReturn(_) => "carriage-return",
            Self::MissingFinalNewline => "missing-final-newline",
            Self::LineTooLong(_) => "line-too-long",
            Self::InvalidJson { .. } => "invalid-json",
            Self::DuplicateKey(_) => "duplicate-key",
            Self::MissingField(_) => "missing-field",
            Self::WrongType { .. } => "wrong-type",
            Self::OutOfRange { .. } => "out-of-range",
            Self::Empty => "empty",
            Self::MissingHeader => "missing-header",
            Self::WrongFormat(_) => "wrong-format",
            Self::WrongVersion(_) => "wrong-version",
            Self::WrongOperation { .. } => "wrong-operation",
            Self::DayNotInOperation(_) => "day-not-in-operation",
            Self::WrongProducer { .. } => "wrong-producer",
            Self::CountMismatch { .. } => "count-mismatch",
            Self::UnknownType(_) => "unknown-type",
            Self::DuplicatePlayId { .. } => "duplicate-play-id",
            Self::DuplicateExclusion { .. } => "duplicate-exclusion",
            Self::PlayNotOnDay { .. } => "play-not-on-day",
        }
    }
}
