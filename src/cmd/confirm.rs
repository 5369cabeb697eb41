//! The confirmation an irreversible command asks for before it records anything (`urne void`,
//! `urne block void`, `urne block reveal`: spec/appliance.md §4.6, §5.B9): what it is about to do, shown
//! on the screen, then the day or the block id typed back at the terminal, three tries. Typed at
//! the appliance's console only: never read from a pipe, a file or an argument, which could be
//! written before anyone saw what the command was about to do.

use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::cmd as mc;
use std::io::{BufRead, IsTerminal, Write};

/// How often the day or block id may be typed back.
pub const TRIES: usize = 3;

/// Where the confirmation is typed.
pub enum Terminal<'a> {
    /// This process's standard input: refused (exit 2) unless it is a terminal.
    Own,
    /// The terminal of the sitting that runs the command (`urne ceremony`), which checked it.
    Sitting(&'a mut dyn BufRead),
}

impl Terminal<'_> {
    /// Refuses (exit 2), before anything is recorded, a confirmation that could not be typed:
    /// standard input is not a terminal. `what` names the step (`void`, `reveal`).
    pub fn check(&self, what: &str) -> Result<()> {
        match self {
            Terminal::Own if !std::io::stdin().is_terminal() => Err(Error::new(
                Kind::NotATerminal,
                match what {
                    "void" => crate::msg!(mc::ERR_CONFIRM_TERMINAL_VOID),
                    "reveal" => crate::msg!(mc::ERR_CONFIRM_TERMINAL_REVEAL),
                    _ => crate::msg!(mc::ERR_CONFIRM_TERMINAL, what = what),
                },
                crate::msg!(mc::REC_CONFIRM_TERMINAL),
            )),
            _ => Ok(()),
        }
    }

    /// One line typed at this terminal, without its line ending (an error when it was closed).
    fn read_line(&mut self) -> Result<String> {
        let closed = || {
            Error::new(
                Kind::TerminalClosed,
                crate::msg!(mc::ERR_CONFIRM_CLOSED),
                crate::msg!(mc::REC_CONFIRM_CLOSED),
            )
        };
        match self {
            Terminal::Own => read_line(&mut std::io::stdin().lock(), closed),
            Terminal::Sitting(input) => read_line(*input, closed),
        }
    }
}

/// One line typed at `input` (a terminal), without its line ending, once what is on the screen
/// is flushed; `closed` is the error when the terminal was closed before a line was typed.
pub fn read_line(input: &mut dyn BufRead, closed: impl FnOnce() -> Error) -> Result<String> {
    let _ = std::io::stderr().flush();
    let mut s = String::new();
    let n = input.read_line(&mut s).map_err(|e| {
        Error::new(
            Kind::TerminalUnreadable,
            crate::msg!(mc::ERR_CONFIRM_UNREADABLE, e = e),
            crate::msg!(mc::REC_CONFIRM_UNREADABLE),
        )
    })?;
    if n == 0 {
        return Err(closed());
    }
    crate::out::typed();
    Ok(s.trim_end_matches(['\n', '\r']).to_string())
}

/// What an irreversible step shows before it is confirmed.
pub struct Shown<'a> {
    /// The heading, e.g. `ABOUT TO VOID` (what cannot be undone).
    pub title: &'a str,
    /// The step, in a word (`void`, `reveal`), for the refusals.
    pub step: &'a str,
    /// Each line: a label and its value.
    pub lines: Vec<(&'a str, String)>,
    /// What is typed back, in words (`the day`, `the block id`).
    pub noun: &'a str,
    /// Exactly what must be typed back.
    pub want: String,
}

/// Shows `s` on the terminal and asks for `s.want` typed back: three tries, then a refusal
/// (exit 2), before anything is recorded.
pub fn typed_back(term: &mut Terminal, s: &Shown) -> Result<()> {
    term.check(s.step)?;
    let lang = crate::text::lang();
    let noun = noun(s.noun, lang);
    note!();
    note!("{}", s.title);
    let width = s
        .lines
        .iter()
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(0);
    for (label, value) in &s.lines {
        let mut v = value.lines();
        note!("  {label:<width$}  {}", v.next().unwrap_or(""));
        for more in v {
            note!("  {:<width$}  {more}", "");
        }
    }
    note!(
        "{}",
        lang.t(
            "Cette opération est irréversible.",
            "This cannot be undone."
        )
    );
    for _ in 0..TRIES {
        let ask = lang.t("Pour confirmer, tapez", "To confirm, type");
        let then = lang.t("puis Entrée :", "then Enter:");
        // On one line when it fits an 80-column console, else what to type on a line of its own.
        let gap = if ask.chars().count() + noun.chars().count() + s.want.chars().count() + 20 > 80 {
            "\n "
        } else {
            ""
        };
        note!("{ask} {noun}{gap} ({}), {then}", s.want);
        if term.read_line()?.trim() == s.want {
            return Ok(());
        }
        note!(
            "  {} {noun} {}",
            lang.t("refusé : ce n'est pas", "refused: that is not"),
            lang.t("affiché ci-dessus", "shown above")
        );
    }
    Err(Error::new(
        Kind::NotConfirmed,
        crate::msg!(mc::ERR_CONFIRM_NOT_TYPED, noun = noun, tries = TRIES),
        crate::msg!(mc::REC_CONFIRM_NOT_TYPED, noun = noun),
    ))
}

/// What is typed back, in `lang`: the callers name it in English (`the day`, `the block id`).
fn noun(en: &str, lang: crate::text::Lang) -> &str {
    match (lang, en) {
        (crate::text::Lang::Fr, "the day") => "le jour",
        (crate::text::Lang::Fr, "the block id") => "l'identifiant du bloc",
        _ => en,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown() -> Shown<'static> {
        Shown {
            title: "ABOUT TO VOID",
            step: "void",
            lines: vec![("day", "2018-12-01".into())],
            noun: "the day",
            want: "2018-12-01".into(),
        }
    }

    #[test]
    fn the_id_is_typed_back_within_three_tries() {
        let mut i = std::io::Cursor::new("2018-12-1\n 2018-12-01 \n");
        assert!(typed_back(&mut Terminal::Sitting(&mut i), &shown()).is_ok());
        let mut i = std::io::Cursor::new("x\n2018-12-02\n2018-12-10\n2018-12-01\n");
        let e = typed_back(&mut Terminal::Sitting(&mut i), &shown()).unwrap_err();
        assert_eq!(e.kind, crate::error::Kind::NotConfirmed);
        let mut i = std::io::Cursor::new("x\n");
        assert!(
            typed_back(&mut Terminal::Sitting(&mut i), &shown()).is_err(),
            "closed"
        );
    }
}
