//! `urne-import`: production's import of the appliance's publications (crates/import/README.md).

#![forbid(unsafe_code)]

use clap::Parser;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use urne_import::db::Alert;
use urne_import::error::ALERT_CODE;
use urne_import::{Exports, ImportError, Kind, Request};

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
/// its result.json, 10 imported with an alert.
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
    /// The PostgreSQL database, as a connection string (`host=/run/postgresql dbname=prod`).
    /// Without it, nothing is loaded: the state is printed as JSON Lines only.
    #[arg(long, value_name = "CONNINFO")]
    database: Option<String>,
}

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(a) => a,
        Err(e) if e.use_stderr() => {
            let msg = e.kind().to_string();
            let mut out = std::io::stderr().lock();
            let _ = writeln!(out, "error[{}]: {msg}", Kind::Usage.id());
            let _ = writeln!(out, "hint: urne-import --help");
            return ExitCode::from(Kind::Usage.code());
        }
        Err(e) => e.exit(),
    };
    match run(&args) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            let mut out = std::io::stderr().lock();
            let _ = writeln!(out, "error[{}]: {}", e.kind.id(), e.message);
            let _ = writeln!(out, "hint: {}", e.hint);
            ExitCode::from(e.kind.code())
        }
    }
}

fn run(a: &Args) -> Result<u8, ImportError> {
    let text = std::fs::read_to_string(&a.exports).map_err(|e| {
        ImportError::new(
            Kind::Usage,
            format!("--exports {}: {e}", a.exports.display()),
            "give production's list of the exports it sent (sha256sum entries-*.jsonl > exports.sha256)",
        )
    })?;
    let exports = Exports::parse(&text, &a.exports.display().to_string())?;
    let r = Request {
        medium: &a.medium,
        keys: &a.keys,
        exports: &exports,
        tickets: &a.tickets,
    };
    let (plan, loaded) = match &a.database {
        None => (urne_import::verify(&r, None)?, None),
        Some(conninfo) => {
            let mut client = postgres::Client::connect(conninfo, postgres::NoTls)
                .map_err(|e| ImportError::database("the connection", &e))?;
            let (p, l) = urne_import::import(&mut client, &r)?;
            (p, Some(l))
        }
    };
    let mut out = std::io::stdout().lock();
    for line in urne_import::lines::lines(&plan, loaded.as_ref()) {
        if writeln!(out, "{line}").is_err() {
            // The database is loaded (or nothing was to be): only the listing is lost.
            eprintln!(
                "error[stdout-closed]: standard output closed: the JSON Lines were not all written"
            );
            eprintln!(
                "hint: the import itself is done; run it again to list the state (it changes nothing)"
            );
            return Ok(Kind::Usage.code());
        }
    }
    let alerts = loaded.as_ref().map_or(&[][..], |l| &l.alerts[..]);
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
        eprintln!("warning: {what}");
    }
    Ok(if alerts.is_empty() { 0 } else { ALERT_CODE })
}
