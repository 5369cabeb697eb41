//! The `urne-import` command as a library function ([`run`]), which the binary calls with its
//! process's arguments and streams and the tests with theirs (so they run the code built with
//! them, never a stale binary).

use crate::db::Alert;
use crate::error::ALERT_CODE;
use crate::{Exports, ImportError, Kind, Request};
use clap::Parser;
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

/// Verifies a publications medium of the urne appliance, works out the state of every day and
/// block, and loads it into PostgreSQL in one transaction (or prints it as JSON Lines).
///
/// Everything is verified first with the urne-verify library: every output under the keys
/// given, one linear history that passes through the last import's checkpoint, the official
/// rules, each result made from an export on production's list, and each block's production
/// file against its commitment. Any refusal loads nothing. Importing the same medium twice
/// changes nothing. A void of a result or block imported before as payable or on sale marks it
/// void and is reported (an `alert` line and a `warning:` on standard error; exit 10).
///
/// Exit codes: 0 imported (or nothing to change), 1 verification failed, 2 usage or unreadable
/// input, 3 a result of an export production did not send, 4 unofficial rules or a rehearsal,
/// 5 a fork (the medium's, or against the database), 6 the database refused, 7 a draw without
/// its result.json, a version-1 output or a lone result.json, 8 standard output closed (the
/// import itself done), 10 imported with an alert.
#[derive(Debug, Parser)]
#[command(name = "urne-import", version)]
#[expect(
    clippy::doc_markdown,
    reason = "the help text: product names in plain words, no backticks on screen"
)]
struct Args {
    /// The publications medium: a folder of outputs (the whole medium, which sees every void),
    /// or one output folder.
    medium: PathBuf,
    /// The folder of the appliance's public keys (result.pub.pem, audit.pub.pem), from the key
    /// ceremony's publication, never from the medium.
    #[arg(long, value_name = "DIR")]
    keys: PathBuf,
    /// Production's list of the exports it sent, as `sha256sum` prints them (HASH  NAME).
    #[arg(long, value_name = "FILE")]
    exports: PathBuf,
    /// A folder of blocks' production files (the secret medium's *.tickets.csv), each checked
    /// against its commitment and loaded with COPY. Repeatable.
    #[arg(long, value_name = "DIR")]
    tickets: Vec<PathBuf>,
    /// A signed audit checkpoint held outside the appliance (the one copied into a sitting's
    /// minutes, as a file): the outputs' history must pass through it. Repeatable. Give it at
    /// least at the first import into a database: nothing else then ties the medium to the
    /// history the commissaire witnessed.
    #[arg(long, value_name = "NOTE")]
    checkpoint: Vec<PathBuf>,
    /// The PostgreSQL database, as a connection string (`host=/run/postgresql dbname=prod`).
    /// Without it, nothing is loaded: the state is printed as JSON Lines only.
    #[arg(long, value_name = "CONNINFO")]
    database: Option<String>,
}

/// `urne-import ARGS` (the program's name first), its JSON Lines to `out`, its `error:`,
/// `hint:`, `warning:` and `note:` lines to `err`; the exit code.
pub fn run<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let a = match Args::try_parse_from(args) {
        Ok(a) => a,
        Err(e) if e.use_stderr() => {
            let _ = writeln!(err, "error[{}]: {}", Kind::Usage.id(), e.kind());
            let _ = writeln!(err, "hint: urne-import --help");
            return Kind::Usage.code();
        }
        Err(e) => {
            let _ = write!(out, "{}", e.render());
            return 0;
        }
    };
    match import(&a, out, err) {
        Ok(code) => code,
        Err(e) => {
            let _ = writeln!(err, "error[{}]: {}", e.kind.id(), e.message);
            let _ = writeln!(err, "hint: {}", e.hint);
            e.kind.code()
        }
    }
}

/// Each alert, on standard error.
fn warn(err: &mut dyn Write, alerts: &[Alert]) {
    for al in alerts {
        let what = match al {
            Alert::DrawVoided {
                operation,
                day,
                attempt,
                reason,
            } => format!(
                "the draw of {operation} day {day} attempt {attempt}, imported before as the day's result, is VOID ({reason}): do not pay it; the day's result is its next attempt"
            ),
            Alert::BlockVoided {
                block,
                attempt,
                reason,
            } => format!(
                "block {block} attempt {attempt}, imported before, is VOID ({reason}): withdraw its tickets from sale"
            ),
        };
        let _ = writeln!(
            err,
            "warning: {what} (kept in urne.alerts until acknowledged)"
        );
    }
}

/// The checkpoints given with `--checkpoint`, as (name, text).
fn held_checkpoints(paths: &[PathBuf]) -> Result<Vec<(String, String)>, ImportError> {
    let mut checkpoints = vec![];
    for p in paths {
        let note = std::fs::read(p)
            .ok()
            .filter(|b| b.len() <= 4096)
            .and_then(|b| String::from_utf8(b).ok())
            .ok_or_else(|| {
                ImportError::new(
                    Kind::Usage,
                    format!("--checkpoint {}: not a readable checkpoint note (at most 4,096 bytes of UTF-8)", p.display()),
                    "give the signed checkpoint copied from the sitting's minutes (checkpoint.note)",
                )
            })?;
        checkpoints.push((p.display().to_string(), note));
    }
    Ok(checkpoints)
}

fn import(a: &Args, out: &mut dyn Write, err: &mut dyn Write) -> Result<u8, ImportError> {
    let text = std::fs::read_to_string(&a.exports).map_err(|e| {
        ImportError::new(
            Kind::Usage,
            format!("--exports {}: {e}", a.exports.display()),
            "give production's list of the exports it sent (sha256sum entries-*.jsonl > exports.sha256)",
        )
    })?;
    let exports = Exports::parse(&text, &a.exports.display().to_string())?;
    let checkpoints = held_checkpoints(&a.checkpoint)?;
    let r = Request {
        medium: &a.medium,
        keys: &a.keys,
        exports: &exports,
        tickets: &a.tickets,
        checkpoints: &checkpoints,
    };
    let (plan, loaded) = match &a.database {
        None => (crate::verify(&r, None)?, None),
        Some(conninfo) => {
            let mut client = postgres::Client::connect(conninfo, postgres::NoTls)
                .map_err(|e| ImportError::database("the connection", &e))?;
            let (p, l) = crate::import(&mut client, &r)?;
            (p, Some(l))
        }
    };
    // The alerts first, on standard error, whatever becomes of standard output.
    let alerts = loaded.as_ref().map_or(&[][..], |l| &l.alerts[..]);
    warn(err, alerts);
    if a.checkpoint.is_empty() && loaded.as_ref().is_some_and(|l| l.first) {
        eprintln!(
            "note: the first import into this database was tied to no checkpoint held outside the medium: give --checkpoint (the sitting's minutes) to import only the history the commissaire witnessed"
        );
    }
    for p in &plan.other_tickets {
        eprintln!(
            "note: {}: no block commitment among the outputs names this production file: not loaded",
            p.display()
        );
    }
    let code = if alerts.is_empty() { 0 } else { ALERT_CODE };
    for line in crate::lines::lines(&plan, loaded.as_ref()) {
        if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
            let done = if loaded.is_some() {
                "the import itself is done (loaded, or nothing to change)"
            } else {
                "nothing was loaded (no --database)"
            };
            return Err(ImportError::new(
                Kind::StdoutClosed,
                "standard output closed: the JSON Lines were not all written",
                format!(
                    "{done}; run it again to list the state (it changes nothing); alerts are in urne.alerts"
                ),
            ));
        }
    }
    Ok(code)
}
