//! `urne-simulate`: see the library's documentation (test and demo tool, never part of a sitting).

#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(urne_simulate::run(std::env::args_os()))
}
