//! The error every command returns to `main`: one `error:` line, one `hint:` line, and an exit
//! code from a short documented list (README.md, "Exit codes"). The edges build it where their
//! library fails: PKCS#11 errors in `edge/hsm.rs`, SQLite errors in `edge/store.rs`, file errors
//! through [`io_error`]. The core's typed errors (the export's `ExportError`, the rules'
//! `RulesError`, `BlockIdError`, `CsvError`, …) are converted by the commands, which choose the
//! exit code and write the hint the operator needs.

use std::fmt;

/// Exit codes, documented in README.md. Few on purpose: scripts branch on them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// 0: the command did what it said.
    Success = 0,
    /// 1: a verification ran and found something that does not hold.
    VerificationFailed = 1,
    /// 2: bad input or usage: a malformed, unsigned or wrongly signed file, a bad argument.
    BadInput = 2,
    /// 3: the HSM is unavailable or refused: missing module, missing token, wrong PIN.
    Hsm = 3,
    /// 4: refused by the ceremony's state: keys already exist, a day already drawn, a day not ended.
    Refused = 4,
    /// 5: the appliance's own storage or environment failed (disk, database, executable unreadable).
    Internal = 5,
    /// 6: another urne command holds the trail: nothing was done; run again when it has finished.
    Busy = 6,
    /// 7: an incident: the database is not the token's trail (another trail, an older or truncated
    /// copy, a fork, none at the path), or the trail or the token holds what urne did not write.
    Incident = 7,
    /// 8: `urne audit verify` found the trail consistent with itself only: no audit key or
    /// checkpoint from outside, so a trail rewritten under another key would pass too.
    Unanchored = 8,
}

impl Exit {
    /// The code a child urne process exited with, as this process's exit.
    pub fn from_code(code: i32) -> Exit {
        match code {
            0 => Exit::Success,
            1 => Exit::VerificationFailed,
            2 => Exit::BadInput,
            3 => Exit::Hsm,
            4 => Exit::Refused,
            6 => Exit::Busy,
            7 => Exit::Incident,
            8 => Exit::Unanchored,
            _ => Exit::Internal,
        }
    }
}

/// A failure as the operator sees it.
#[derive(Debug)]
pub struct Error {
    pub exit: Exit,
    pub message: String,
    pub hint: String,
    /// The trail itself is in question (broken, not the token's, deleted or replaced while the
    /// command ran): nothing more is recorded in it, not even this failure (spec/appliance.md §6.5).
    pub untouched: bool,
    /// A refusal of what the command was given (a watch that disagrees with the clock, spec/appliance.md
    /// §9.1): reported, and not recorded as `command.failed` (the trail is not in question).
    pub unrecorded: bool,
}

impl Error {
    pub fn new(exit: Exit, message: impl Into<String>, hint: impl Into<String>) -> Self {
        Error {
            exit,
            message: message.into(),
            hint: hint.into(),
            untouched: false,
            unrecorded: false,
        }
    }
    /// A failure of the trail itself (spec/appliance.md §6.5, §6.6): reported, never recorded in it.
    pub fn trail(exit: Exit, message: impl Into<String>, hint: impl Into<String>) -> Self {
        Error {
            untouched: true,
            ..Self::new(exit, message, hint)
        }
    }
    /// An incident of the trail (exit 7): it is not the token's, or it or the token holds what
    /// urne did not write. Reported, never recorded in it (spec/appliance.md §6.5, §6.6).
    pub fn incident(message: impl Into<String>, hint: impl Into<String>) -> Self {
        Self::trail(Exit::Incident, message, hint)
    }
    /// This error, reported and not recorded as `command.failed` (a refusal of input that SPEC.md
    /// says records nothing).
    pub fn unrecorded(self) -> Self {
        Error {
            unrecorded: true,
            ..self
        }
    }
    pub fn bad_input(message: impl Into<String>, hint: impl Into<String>) -> Self {
        Self::new(Exit::BadInput, message, hint)
    }
    pub fn refused(message: impl Into<String>, hint: impl Into<String>) -> Self {
        Self::new(Exit::Refused, message, hint)
    }
    pub fn internal(message: impl Into<String>, hint: impl Into<String>) -> Self {
        Self::new(Exit::Internal, message, hint)
    }
    pub fn verification(message: impl Into<String>, hint: impl Into<String>) -> Self {
        Self::new(Exit::VerificationFailed, message, hint)
    }
    /// A short machine-readable name of the exit class, recorded in audit events.
    pub fn class(&self) -> &'static str {
        match self.exit {
            Exit::Success => "success",
            Exit::VerificationFailed => "verification-failed",
            Exit::BadInput => "bad-input",
            Exit::Hsm => "hsm",
            Exit::Refused => "refused",
            Exit::Internal => "internal",
            Exit::Busy => "busy",
            Exit::Incident => "incident",
            Exit::Unanchored => "unanchored",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

/// Reading or writing a file the operator named. A file to read that is not there is said in
/// one wording whatever the file (an export, a rules file, a key): `no such file: PATH`.
pub fn io_error(what: &str, path: &std::path::Path, e: std::io::Error) -> Error {
    if what == "read" && e.kind() == std::io::ErrorKind::NotFound {
        return no_such_file(path);
    }
    let exit = match e.kind() {
        std::io::ErrorKind::NotFound | std::io::ErrorKind::PermissionDenied => Exit::BadInput,
        _ => Exit::Internal,
    };
    Error::new(
        exit,
        format!("cannot {what} {}: {e}", path.display()),
        "check the path and the permissions, and that the medium is mounted",
    )
}

/// A file the operator named to be read is not there (exit 2).
pub fn no_such_file(path: &std::path::Path) -> Error {
    Error::bad_input(
        format!("no such file: {}", path.display()),
        "check the path (relative paths are from the working directory) and that the medium is mounted",
    )
}
