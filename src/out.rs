//! What urne writes to its standard output and standard error, without ever panicking: a closed
//! pipe (`urne verify out | head -1`), a full disk (`>/dev/full`) or a closed standard error
//! stops the writing, never the command half-way through an operation. Once standard output has
//! failed, nothing more is written to it, and `main` reports it (exit 2) when the command
//! otherwise succeeded: a report nobody could read is not a success.

//!
//! On a console (spec/appliance.md §9.4) the screen is paced: before a line would push off the
//! top of the screen one the person has not had the time to read since they last typed, urne
//! waits for Enter (`— Entrée pour continuer —`). The size is the console's
//! ([`crate::edge::tty::size`], given once by `main` with [`pace`]); a pipe, a file or a terminal
//! of unknown size is not paced.

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The console's rows and columns when the screen is paced; 0 rows: not paced.
static ROWS: AtomicUsize = AtomicUsize::new(0);
static COLS: AtomicUsize = AtomicUsize::new(80);
/// Lines written to the console since the person last typed a line or pressed Enter.
static SHOWN: AtomicUsize = AtomicUsize::new(0);
/// The words of the pause, in the screens' language ([`set_pause_words`]).
static PAUSE: Mutex<&str> = Mutex::new("— Entrée pour continuer —");

/// Paces the screen to a console of `rows` × `cols` (`None`: not a console; nothing paced).
pub fn pace(size: Option<(usize, usize)>) {
    let (rows, cols) = size.unwrap_or((0, 80));
    ROWS.store(rows, Ordering::Relaxed);
    COLS.store(cols.max(1), Ordering::Relaxed);
}

/// The words of the pause, in the language of the screens (`crate::text::set_lang`).
pub fn set_pause_words(words: &'static str) {
    if let Ok(mut g) = PAUSE.lock() {
        *g = words;
    }
}

/// The most lines written in one piece that a paced console shows whole (its rows, less the
/// pause's line, the cursor's and a margin); 20 when the screen is not paced.
pub fn whole_lines() -> usize {
    match ROWS.load(Ordering::Relaxed) {
        0 => 20,
        rows => rows.saturating_sub(4).max(1),
    }
}

/// The person has typed a line: what is on the screen has been read up to here.
pub fn typed() {
    SHOWN.store(0, Ordering::Relaxed);
}

/// How many lines of a `cols`-wide console `text` takes once written: one per line ended by a
/// newline, more for a line longer than the console is wide (it wraps).
fn console_lines(text: &str, cols: usize) -> usize {
    let mut parts: Vec<&str> = text.split('\n').collect();
    parts.pop(); // what follows the last newline is not a whole line yet
    parts
        .iter()
        .map(|l| {
            let last = l.rsplit('\r').next().unwrap_or(l);
            last.chars().count().div_ceil(cols).max(1)
        })
        .sum()
}

/// Before `text` is written: when it would push off the screen what the person has not yet had
/// on it since they last typed, wait for Enter. Returns at once when the screen is not paced.
fn before(text: &str) {
    let rows = ROWS.load(Ordering::Relaxed);
    if rows == 0 {
        return;
    }
    let n = console_lines(text, COLS.load(Ordering::Relaxed));
    // Room for the pause's own line and the cursor's.
    let room = rows.saturating_sub(2).max(1);
    let shown = SHOWN.load(Ordering::Relaxed);
    if shown > 0 && shown + n > room {
        pause();
    }
    SHOWN.fetch_add(n, Ordering::Relaxed);
}

/// Waits for Enter at the console (read from `/dev/tty`, so that a prompt's locked standard
/// input is never waited on twice); a console that cannot be read stops the pacing.
fn pause() {
    let words = PAUSE.lock().map_or("", |g| *g);
    {
        let mut e = std::io::stderr().lock();
        let _ = write!(e, "  {words} ").and_then(|()| e.flush());
    }
    let read = std::fs::File::open("/dev/tty").and_then(|tty| {
        let mut line = String::new();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(tty), &mut line)
    });
    if !matches!(read, Ok(n) if n > 0) {
        ROWS.store(0, Ordering::Relaxed);
    }
    typed();
}

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
    if ROWS.load(Ordering::Relaxed) > 0 {
        let mut text = args.to_string();
        if newline {
            text.push('\n');
        }
        before(&text);
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
    if ROWS.load(Ordering::Relaxed) > 0 {
        before(&format!("{args}\n"));
    }
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
    if ROWS.load(Ordering::Relaxed) > 0 {
        before(&args.to_string());
    }
    let mut e = std::io::stderr().lock();
    let _ = e.write_fmt(args).and_then(|()| e.flush());
}

#[cfg(test)]
mod tests {
    use super::console_lines;

    #[test]
    fn a_console_line_is_a_line_ended_wrapped_at_the_width() {
        assert_eq!(console_lines("", 80), 0);
        assert_eq!(console_lines("prompt: ", 80), 0);
        assert_eq!(console_lines("one\n", 80), 1);
        assert_eq!(console_lines("one\ntwo\n", 80), 2);
        assert_eq!(console_lines("\n", 80), 1);
        assert_eq!(console_lines(&format!("{}\n", "x".repeat(80)), 80), 1);
        assert_eq!(console_lines(&format!("{}\n", "x".repeat(81)), 80), 2);
        assert_eq!(console_lines(&format!("{}\n", "é".repeat(160)), 80), 2);
        // A progress line redrawn with carriage returns takes the width of its last drawing.
        assert_eq!(console_lines("\r10 %\r100 %\n", 80), 1);
    }
}
