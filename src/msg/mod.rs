//! One catalogue of what urne says to the people at the console (issue 25 item 3; the model is
//! rage's: every message has an id and its words in each language). An id names what the
//! message is for: `err-…` what failed (an `error[<id>]:` line), `rec-…` what to do about it (a
//! `hint:` line), `scr-…` a line of a screen, `ask-…` a prompt. Values go where the words say
//! `{name}`, filled at the edge in the language of the screens ([`lang::lang`]), so that
//! a sitting held in French shows no English message of urne's, and the reverse (a test reads
//! every screen of a sitting against this catalogue).
//!
//! Use: `msg!(catalogue::ERR_USAGE_UNKNOWN, arg = "--bogus")` gives the words in the screens'
//! language with the value in place.

pub mod catalogue;
pub mod lang;
mod message;

pub use lang::{Lang, lang};
pub use message::Msg;

/// The words of a catalogue message in the screens' language ([`lang::lang`]), its
/// values in place: `msg!(M)`, `msg!(M, day = d, attempt = n)`.
#[macro_export]
macro_rules! msg {
    ($m:expr) => {
        $m.fill($crate::msg::lang::lang(), &[])
    };
    ($m:expr, $($name:ident = $value:expr),+ $(,)?) => {
        $m.fill(
            $crate::msg::lang::lang(),
            &[$((stringify!($name), &$value as &dyn ::std::fmt::Display)),+],
        )
    };
}

/// Sets the language of every screen this process prints from now on (see [`lang::store`]),
/// the paced screen's pause included.
pub fn set_lang(l: Lang) {
    lang::store(l);
    crate::out::set_pause_words(pause_words(l));
}

/// What a paced screen says when it waits before going on (spec/appliance.md §9.4).
pub fn pause_words(l: Lang) -> &'static str {
    catalogue::SCR_PAUSE.words(l)
}

#[cfg(test)]
mod tests;
