//! The console's size, for a screen paced to it (spec/appliance.md §9.4): the rows and columns
//! of the terminal standard output writes to, when a person sits at it (standard input and
//! standard output both a terminal). Anything else (a pipe, a file, a terminal of unknown
//! size) is not paced.

use std::io::IsTerminal;
use std::os::fd::AsRawFd;

/// The console's rows and columns, or `None` when the output is not a terminal a person reads
/// and answers at, or the terminal does not know its size (a pseudo-terminal left at 0×0).
pub fn size() -> Option<(usize, usize)> {
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        return None;
    }
    let out = std::io::stdout();
    let mut ws = libc::winsize {
        ws_row: 0,
        ws_col: 0,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: TIOCGWINSZ writes one `winsize` into the structure passed, which lives for the
    // call; the descriptor is standard output's, open for the process's life.
    let r = unsafe { libc::ioctl(out.as_raw_fd(), libc::TIOCGWINSZ, &raw mut ws) };
    (r == 0 && ws.ws_row > 0 && ws.ws_col > 0)
        .then(|| (usize::from(ws.ws_row), usize::from(ws.ws_col)))
}

/// The terminal's settings before [`hold_echo`] turned its echo off, to be put back.
static HELD: std::sync::Mutex<Option<libc::termios>> = std::sync::Mutex::new(None);

/// Turns the echo of the console off until [`release_echo`]: a sitting holds it from its first
/// moment to its PIN prompt, so that a PIN typed ahead of the prompt is never shown (what was
/// typed ahead is then discarded, spec/appliance.md §9). Nothing when standard input is not a
/// terminal.
pub fn hold_echo() {
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        return;
    }
    let fd = stdin.as_raw_fd();
    // SAFETY: an all-zero termios is a valid value for tcgetattr to fill in.
    let mut t: libc::termios = unsafe { std::mem::zeroed() };
    // SAFETY: tcgetattr writes one termios into `t`, which lives for the call.
    if unsafe { libc::tcgetattr(fd, &raw mut t) } != 0 {
        return;
    }
    let Ok(mut held) = HELD.lock() else { return };
    if held.is_some() {
        return;
    }
    let mut quiet = t;
    quiet.c_lflag &= !(libc::ECHO | libc::ECHONL);
    // SAFETY: tcsetattr reads the termios passed, which lives for the call.
    if unsafe { libc::tcsetattr(fd, libc::TCSANOW, &raw const quiet) } == 0 {
        // Put back with echo on and lines edited, whatever was found: a run killed while it
        // held the echo leaves it off, and the next run must not keep it so (the commissaire
        // types the contribution, which the screen shows as typed).
        let mut back = t;
        back.c_lflag |= libc::ECHO | libc::ICANON;
        *held = Some(back);
    }
}

/// Puts back the console as [`hold_echo`] found it, its echo and line editing on (nothing when it
/// was not held).
pub fn release_echo() {
    let Ok(mut held) = HELD.lock() else { return };
    if let Some(t) = held.take() {
        // SAFETY: tcsetattr reads the termios passed, which lives for the call.
        let _ =
            unsafe { libc::tcsetattr(std::io::stdin().as_raw_fd(), libc::TCSANOW, &raw const t) };
    }
}
