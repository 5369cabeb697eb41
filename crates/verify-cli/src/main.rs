//! `urne-verify`: the verifier third parties install (production, auditors, the regulator). It
//! checks urne's published outputs with the public keys it is given, and nothing else: it links
//! the `urne-verify` library and clap only, reads the files it is named, writes nothing, and
//! can never produce a result. What it checks and says is this package's library
//! (`urne_verify_cli`), which the appliance's `urne verify` runs too.

#![forbid(unsafe_code)]

use clap::Parser;
use std::io::Write;
use std::process::ExitCode;
use urne_verify::verify::verdict::{Line, printable};
use urne_verify_cli::{Args, Kind, PlainDisk, Refused};

fn main() -> ExitCode {
    let args = match Args::try_parse() {
        Ok(a) => a,
        Err(e) => match urne_verify_cli::usage::words(&e) {
            Some((message, hint)) => {
                let mut out = std::io::stderr().lock();
                let _ = writeln!(out, "error[{}]: {}", Kind::Usage.id(), printable(&message));
                let _ = writeln!(out, "hint: {}", printable(&hint));
                return ExitCode::from(Kind::Usage.code());
            }
            None => e.exit(),
        },
    };
    match urne_verify_cli::run(&args, &PlainDisk).and_then(|lines| print(&lines)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(r) => {
            // Every output verified and one's software is not released (exit 9): the verdict
            // first, then the error (spec/formats.md §8.8).
            if let Err(closed) = print(&r.lines) {
                let mut e = std::io::stderr().lock();
                let _ = writeln!(
                    e,
                    "error[{}]: {}",
                    closed.kind.id(),
                    printable(&closed.message)
                );
                let _ = writeln!(e, "hint: {}", closed.hint);
                return ExitCode::from(closed.kind.code());
            }
            let mut e = std::io::stderr().lock();
            let _ = writeln!(e, "error[{}]: {}", r.kind.id(), printable(&r.message));
            let _ = writeln!(e, "hint: {}", r.hint);
            ExitCode::from(r.kind.code())
        }
    }
}

/// Prints the verdict: its lines on standard output, the notes on standard error. A verdict
/// that cannot be written is not a verdict (exit 2).
fn print(lines: &[Line]) -> Result<(), Refused> {
    let closed = |e: std::io::Error| {
        Refused::new(
            Kind::StdoutClosed,
            format!("cannot write to standard output: {e}"),
            "the verdict was not written; run it again with standard output to a terminal or a file with room",
        )
    };
    let mut out = std::io::stdout().lock();
    for l in lines {
        match l {
            Line::Out(s) => writeln!(out, "{s}").map_err(closed)?,
            Line::Note(s) => {
                let _ = writeln!(std::io::stderr().lock(), "{s}");
            }
        }
    }
    out.flush().map_err(closed)
}
