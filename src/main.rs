//! The `urne` binary: parse the command line, run it, turn any error into one `error[<id>]:` line,
//! one `hint:` line and a documented exit code (spec/appliance.md §10). No panics reach the operator.

use clap::Parser;
use urne::error::Kind;
use urne::note;

fn main() {
    // Before anything else: the environment reduced, the process non-dumpable, OpenSSL told to
    // load nothing by name (issue 22, "A clean process"; `urne::edge::process`).
    urne::edge::process::clean();
    // A panic is a bug in urne; still, the operator gets the same two lines and a documented code.
    std::panic::set_hook(Box::new(|info| {
        urne::edge::tty::release_echo();
        note!("error[{}]: internal error: {info}", Kind::Defect.id());
        note!("hint: this is a defect in urne; keep the audit trail and report it");
        std::process::exit(5);
    }));
    // The token's marks read back afresh for a parent urne process (spec/appliance.md §6.6).
    if let Some(code) = urne::edge::hsm::Hsm::serve_fresh_read() {
        std::process::exit(code);
    }
    // A command line that does not parse is one `error[usage]:` line and a hint, as every other
    // refusal (spec/appliance.md §10); `--help` and `--version` print as clap prints them.
    let cli = match urne::cli::Cli::try_parse() {
        Ok(c) => c,
        Err(e) => match urne::error::usage::words(&e, urne::text::lang()) {
            Some((message, hint)) => {
                let printable = urne_verify::verify::verdict::printable;
                note!("error[{}]: {}", Kind::Usage.id(), printable(&message));
                note!("hint: {}", printable(&hint));
                std::process::exit(Kind::Usage.exit() as i32);
            }
            None => e.exit(),
        },
    };
    // On a console, the screen is paced to its size (spec/appliance.md §9.4).
    urne::out::pace(urne::edge::tty::size());
    urne::out::set_pause_words(urne::text::pause_words(urne::text::lang()));
    let ran = urne::cmd::run(cli);
    // The console as the command found it, whatever happened (a sitting holds its echo off
    // until its PIN prompt).
    urne::edge::tty::release_echo();
    match ran {
        Ok(exit) => match urne::out::stdout_failure() {
            // The command did its work, but its report could not be written: nobody read it.
            Some(why) => {
                note!(
                    "error[{}]: cannot write to standard output: {why}",
                    Kind::StdoutClosed.id()
                );
                note!(
                    "hint: the command's report was not written; run it again with standard output to a terminal or a file with room"
                );
                std::process::exit(Kind::StdoutClosed.exit() as i32);
            }
            None => std::process::exit(exit as i32),
        },
        Err(e) => {
            // Escaped: a message names paths and values from the media and files given, which
            // must never put a control sequence on the operator's screen or a second line under
            // the one `error:` line.
            let printable = urne_verify::verify::verdict::printable;
            note!("error[{}]: {}", e.kind.id(), printable(&e.message));
            if !e.hint.is_empty() {
                note!("hint: {}", printable(&e.hint));
            }
            std::process::exit(e.exit() as i32);
        }
    }
}
