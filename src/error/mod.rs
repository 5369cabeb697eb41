//! The error every command returns to `main`: one `error[<id>]:` line, one `hint:` line, and an
//! exit code from a short documented list (README.md, "Exit codes"), decided by the failure's
//! [`Kind`] (its id and code: spec/appliance.md §10). The edges build it where their
//! library fails: PKCS#11 errors in `edge/hsm.rs`, SQLite errors in `edge/store.rs`, file errors
//! through [`io_error`]. The core's typed errors (the export's `ExportError`, the rules'
//! `RulesError`, `BlockIdError`, `CsvError`, …) are converted by the commands, which choose the
//! kind and write the hint the operator needs.

use crate::msg::Msg;
use crate::msg::catalogue::edge as m;
use std::fmt;

mod kind;
pub mod usage;
pub use kind::{Exit, Kind};

/// A failure as the operator sees it: what failed ([`Kind`], which decides the exit code), in
/// the words of its `error[<id>]:` and `hint:` lines.
#[derive(Debug)]
pub struct Error {
    /// What failed: decides the `error[<id>]:` id and the exit code.
    pub kind: Kind,
    /// The `error[<id>]:` line's text: what failed, in the operator's words.
    pub message: String,
    /// The `hint:` line's text: what the operator can do about it.
    pub hint: String,
    /// The trail itself is in question (broken, not the token's, deleted or replaced while the
    /// command ran): nothing more is recorded in it, not even this failure (spec/appliance.md §6.5).
    /// Always so for an incident (exit 7).
    pub untouched: bool,
    /// A refusal of what the command was given (a watch that disagrees with the clock, spec/appliance.md
    /// §9.1): reported, and not recorded as `command.failed` (the trail is not in question).
    pub unrecorded: bool,
}

impl Error {
    /// A failure of kind `kind`; an incident (exit 7) is never recorded in the trail
    /// (spec/appliance.md §6.5, §6.6).
    pub fn new(kind: Kind, message: impl Into<String>, hint: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
            hint: hint.into(),
            untouched: kind.exit() == Exit::Incident,
            unrecorded: false,
        }
    }
    /// A failure of the trail itself (spec/appliance.md §6.5, §6.6): reported, never recorded in it.
    pub fn trail(kind: Kind, message: impl Into<String>, hint: impl Into<String>) -> Self {
        Error {
            untouched: true,
            ..Self::new(kind, message, hint)
        }
    }
    /// This error, reported and not recorded as `command.failed` (a refusal of input that SPEC.md
    /// says records nothing).
    #[must_use]
    pub fn unrecorded(self) -> Self {
        Error {
            unrecorded: true,
            ..self
        }
    }
    /// The exit code this failure ends the command with: its kind's.
    pub fn exit(&self) -> Exit {
        self.kind.exit()
    }
    /// A short machine-readable name of the exit class, recorded in audit events.
    pub fn class(&self) -> &'static str {
        match self.exit() {
            Exit::Success => "success",
            Exit::VerificationFailed => "verification-failed",
            Exit::BadInput => "bad-input",
            Exit::Hsm => "hsm",
            Exit::Refused => "refused",
            Exit::Internal => "internal",
            Exit::Busy => "busy",
            Exit::Incident => "incident",
            Exit::Unanchored => "unanchored",
            Exit::NotReleased => "not-released",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for Error {}

/// What every fallible function of the appliance returns.
pub type Result<T> = std::result::Result<T, Error>;

/// What urne was doing with a file when the system refused (the words of [`io_error`]'s
/// message, one whole sentence per case in each language).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Io {
    /// Reading a file or listing a folder.
    Read,
    /// Reading the working directory, to resolve a relative path.
    ReadWorkdir,
    /// Opening a folder already held (a second descriptor of it).
    Open,
    /// Opening a folder by its path.
    OpenFolder,
    /// Opening a staging folder just made.
    OpenStaging,
    /// Making a staging folder.
    CreateStaging,
    /// Reading a staging folder's owner and mode.
    ExamineStaging,
    /// Writing a file.
    Write,
    /// Removing a file or a folder.
    Remove,
    /// Syncing a folder.
    Sync,
    /// Syncing the folder of a file.
    SyncFolderOf,
    /// Putting an output at its final name.
    Publish,
    /// Creating the audit trail.
    CreateTrail,
    /// Opening the audit trail.
    OpenTrail,
    /// Putting a new audit trail at its path.
    PutTrail,
}

impl Io {
    /// The message that says this failed.
    fn msg(self) -> &'static Msg {
        match self {
            Io::Read => &m::ERR_FILE_READ,
            Io::ReadWorkdir => &m::ERR_FILE_READ_WORKDIR,
            Io::Open => &m::ERR_FILE_OPEN,
            Io::OpenFolder => &m::ERR_FILE_OPEN_FOLDER,
            Io::OpenStaging => &m::ERR_FILE_OPEN_STAGING,
            Io::CreateStaging => &m::ERR_FILE_CREATE_STAGING,
            Io::ExamineStaging => &m::ERR_FILE_EXAMINE_STAGING,
            Io::Write => &m::ERR_FILE_WRITE,
            Io::Remove => &m::ERR_FILE_REMOVE,
            Io::Sync => &m::ERR_FILE_SYNC,
            Io::SyncFolderOf => &m::ERR_FILE_SYNC_FOLDER_OF,
            Io::Publish => &m::ERR_FILE_PUBLISH,
            Io::CreateTrail => &m::ERR_FILE_CREATE_TRAIL,
            Io::OpenTrail => &m::ERR_FILE_OPEN_TRAIL,
            Io::PutTrail => &m::ERR_FILE_PUT_TRAIL,
        }
    }
}

/// Reading or writing a file the operator named. A file to read that is not there is said in
/// one wording whatever the file (an export, a rules file, a key): `no such file: PATH`.
#[expect(
    clippy::needless_pass_by_value,
    reason = "an error conversion, as `map_err` hands the error over: by value, like `From`"
)]
pub fn io_error(doing: Io, path: &std::path::Path, e: std::io::Error) -> Error {
    if doing == Io::Read && e.kind() == std::io::ErrorKind::NotFound {
        return no_such_file(path);
    }
    let kind = match e.kind() {
        std::io::ErrorKind::NotFound | std::io::ErrorKind::PermissionDenied => {
            Kind::FileInaccessible
        }
        _ => Kind::IoFailed,
    };
    Error::new(
        kind,
        crate::msg!(doing.msg(), path = path.display(), e = e),
        crate::msg!(m::REC_FILE_CHECK_PATH),
    )
}

/// A file the operator named to be read is not there (exit 2).
pub fn no_such_file(path: &std::path::Path) -> Error {
    Error::new(
        Kind::NoSuchFile,
        crate::msg!(m::ERR_FILE_NO_SUCH, path = path.display()),
        crate::msg!(m::REC_FILE_NO_SUCH),
    )
}
