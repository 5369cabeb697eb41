//! `urne-import`: production's import of the appliance's publications (crates/import/README.md).
//! The command is the library's [`urne_import::cli::run`].

#![forbid(unsafe_code)]

use std::process::ExitCode;

fn main() -> ExitCode {
    let code = urne_import::cli::run(
        std::env::args_os(),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    );
    ExitCode::from(code)
}
