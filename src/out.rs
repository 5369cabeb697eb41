//! What urne writes to its standard output and standard error, without ever panicking: a closed
//! pipe (`urne verify out | head -1`), a full disk (`>/dev/full`) or a closed standard error
//! stops the writing, never the command half-way through an operation. Once standard output has
//! failed, nothing more is written to it, and `main` reports it (exit 2) when the command
//! otherwise succeeded: a report nobody could read is not a success.

use std::io::Write;
use std::sync::Mutex;

/// Why standard output failed, once it has.
static STDOUT_FAILED: Mutex<Option<String>> = Mutex::new(None);

fn failed() -> bool {
    STDOUT_FAILED.lock().map_or(true, |g| g.is_some())
}

/// Writes `args` to standard output (and a newline when `newline`), flushing it; on failure
/// records why and writes nothing more. Use [`say!`](crate::say) and
/// [`say_raw!`](crate::say_raw).
pub fn stdout(args: std::fmt::Arguments<'_>, newline: bool) {
    if failed() {
        return;
    }
    let mut o = std::io::stdout().lock();
    let r = o
        .write_fmt(args)
        .and_then(|()| if newline { o.write_all(b"\n") } else { Ok(()) })
        .and_then(|()| o.flush());
    if let Err(e) = r
        && let Ok(mut g) = STDOUT_FAILED.lock()
    {
        g.get_or_insert(e.to_string());
    }
}

/// Writes `args` and a newline to standard error; a closed or full standard error is ignored
/// (there is nowhere left to say it). Use [`note!`](crate::note).
pub fn stderr(args: std::fmt::Arguments<'_>) {
    let mut e = std::io::stderr().lock();
    let _ = e.write_fmt(args).and_then(|()| e.write_all(b"\n"));
}

/// Why standard output could not be written, if it could not.
pub fn stdout_failure() -> Option<String> {
    STDOUT_FAILED.lock().ok().and_then(|g| g.clone())
}

/// `println!` that never panics (see [`stdout`]).
#[macro_export]
macro_rules! say {
    () => { $crate::out::stdout(format_args!(""), true) };
    ($($t:tt)*) => { $crate::out::stdout(format_args!($($t)*), true) };
}

/// `print!` that never panics, flushed (see [`stdout`]).
#[macro_export]
macro_rules! say_raw {
    ($($t:tt)*) => { $crate::out::stdout(format_args!($($t)*), false) };
}

/// `eprintln!` that never panics (see [`stderr`]).
#[macro_export]
macro_rules! note {
    () => { $crate::out::stderr(format_args!("")) };
    ($($t:tt)*) => { $crate::out::stderr(format_args!($($t)*)) };
}

/// `eprint!` that never panics (see [`stderr`]): no newline.
#[macro_export]
macro_rules! note_raw {
    ($($t:tt)*) => { $crate::out::stderr_raw(format_args!($($t)*)) };
}

/// Writes `args` to standard error without a newline; failures ignored (see [`stderr`]).
pub fn stderr_raw(args: std::fmt::Arguments<'_>) {
    let mut e = std::io::stderr().lock();
    let _ = e.write_fmt(args).and_then(|()| e.flush());
}
