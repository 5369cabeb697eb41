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
