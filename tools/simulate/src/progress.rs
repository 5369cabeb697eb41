//! Progress lines on stderr, for big days only.

/// Says how far the work is, on stderr, when the day is big (a million plays or more).
pub(crate) struct Progress {
    big: bool,
}

impl Progress {
    /// Progress for a day of `plays` plays.
    pub(crate) fn new(plays: u64) -> Progress {
        Progress {
            big: plays >= 1_000_000,
        }
    }

    /// True for a big day.
    pub(crate) fn big(&self) -> bool {
        self.big
    }

    /// Prints `urne-simulate: {what}` on a big day.
    pub(crate) fn say(&self, what: &str) {
        if self.big {
            eprintln!("urne-simulate: {what}");
        }
    }
}
