//! The sitting's terminal: what the commissaire and the operator read and type, in French or
//! English (the sitting's `lang`), one question at a time, each answer checked and shown back.

use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::cmd as mc;

pub use crate::text::Lang;

/// How often an answer that is refused may be typed again.
const TRIES: usize = 3;

/// A line typed at the terminal (without its end of line); the terminal closed is an error.
pub fn read_line(lang: Lang) -> Result<String> {
    crate::cmd::confirm::read_line(&mut std::io::stdin().lock(), || {
        Error::new(
            Kind::TerminalClosed,
            mc::ERR_TERM_CLOSED.words(lang),
            mc::REC_TERM_CLOSED.words(lang),
        )
    })
}

/// A line typed at the terminal, its runs of blanks made single spaces and its ends trimmed (a
/// date and a time, `2018-12-11  10:02`, read as typed on paper).
pub fn read_words(lang: Lang) -> Result<String> {
    Ok(read_line(lang)?
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" "))
}

/// Asks `question` until `oui`/`yes` or `non`/`no` is typed.
pub fn confirm(lang: Lang, question: &str) -> Result<bool> {
    loop {
        note!(
            "{question} {}",
            lang.t("Tapez oui ou non :", "Type yes or no:")
        );
        match read_line(lang)?.trim().to_lowercase().as_str() {
            "oui" | "yes" => return Ok(true),
            "non" | "no" => return Ok(false),
            _ => note!(
                "  {}",
                lang.t("répondez oui ou non", "please answer yes or no")
            ),
        }
    }
}

/// Why `s` cannot stand in the minutes as a name, a role or a place: empty, longer than 200
/// characters, or holding a control, an invisible or a direction-changing character (which
/// would make the printed text read otherwise than it was typed).
pub fn check_text(s: &str) -> std::result::Result<(), &'static str> {
    let n = s.chars().count();
    if s.trim().is_empty() {
        return Err("empty");
    }
    if n > 200 {
        return Err("longer than 200 characters");
    }
    // Direction marks and overrides, and the characters that print as nothing (soft hyphen,
    // zero-width spaces and joiners, word joiner, invisible operators, byte-order mark,
    // interlinear annotation): a name holding one reads on paper as another name.
    let hidden = |c: char| {
        matches!(c, '\u{00ad}' | '\u{034f}' | '\u{061c}' | '\u{115f}' | '\u{1160}' | '\u{17b4}'
            | '\u{17b5}' | '\u{180b}'..='\u{180f}' | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{206f}' | '\u{3164}' | '\u{fe00}'..='\u{fe0f}'
            | '\u{feff}' | '\u{ffa0}' | '\u{fff9}'..='\u{fffb}')
    };
    if s.chars().any(|c| c.is_control() || hidden(c)) {
        return Err("holds a control, invisible or direction-changing character");
    }
    Ok(())
}

/// Asks for a line of text that [`check_text`] accepts (three tries), trimmed.
pub fn ask_text(lang: Lang, prompt: &str) -> Result<String> {
    for _ in 0..TRIES {
        note!("{prompt}");
        let line = read_line(lang)?;
        match check_text(&line) {
            Ok(()) => return Ok(line.trim().to_string()),
            Err(why) => note!("  {} ({why})", lang.t("refusé", "refused")),
        }
    }
    Err(Error::new(
        Kind::NoValidAnswer,
        mc::ERR_TERM_NO_ANSWER.words(lang),
        mc::REC_TERM_NO_ANSWER.words(lang),
    ))
}

/// Asks for `want` typed back (three tries, case and surrounding spaces ignored): the
/// confirmation of an irreversible step names what it acts on.
pub fn type_back(lang: Lang, prompt: &str, want: &str) -> Result<()> {
    for _ in 0..TRIES {
        note!("{prompt}");
        if read_line(lang)?.trim().eq_ignore_ascii_case(want) {
            return Ok(());
        }
        note!(
            "  {} {want}",
            lang.t("refusé : il faut taper", "refused: type exactly")
        );
    }
    Err(Error::new(
        Kind::NotConfirmed,
        mc::ERR_TERM_NOT_CONFIRMED.fill(lang, &[("want", &want)]),
        mc::REC_TERM_NOT_CONFIRMED.words(lang),
    ))
}

/// A rule between the steps of the sitting, with a title.
/// A rehearsal's heading bears its mark (spec/appliance.md §6.10).
pub fn heading(title: &str) {
    note!();
    note!("{}", "─".repeat(72));
    if let Some(mark) = crate::text::rehearsal_mark(crate::text::lang()) {
        note!("{mark}");
    }
    note!("{title}");
    note!("{}", "─".repeat(72));
}

/// The commissaire types the date and time at their own watch (Paris time, D-1: `AAAA-MM-JJ HH:MM`;
/// three tries): the appliance's clock, which dates every event, the minutes and the D-8 plan,
/// must be within 5 minutes of it, else nothing goes on (exit 4). The clock is a file of the
/// machine's; the commissaire's watch is not (`cmd::watch`). Returns the times refused before
/// the one that agreed, described, for the sitting to record ([`record_refused`]).
pub fn check_clock(lang: Lang, last: crate::cmd::watch::LastRefusal) -> Result<Vec<String>> {
    crate::cmd::watch::check_at_sitting(lang, "`urne ceremony`", last).map(|w| w.refused)
}

/// Records each time refused at the watch before the one that agreed (spec/appliance.md §9.1,
/// §9.2): a `command.failed` of class `refused`, once the clock is confirmed (so dated by a
/// clock the commissaire's watch agrees with), for the minutes to state.
pub fn record_refused(
    ctx: &mut crate::cmd::ctx::Ctx,
    lang: Lang,
    refused: Vec<String>,
) -> Result<()> {
    for why in refused {
        ctx.record(urne_verify::events::payloads::CommandFailed {
            command: ctx.command_name.clone(),
            class: "refused".into(),
            error: format!(
                "{} {why}",
                lang.t(
                    "heure à la montre refusée, demandée à nouveau :",
                    "time at the watch refused, asked again:"
                )
            ),
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_for_the_minutes_is_plain() {
        assert!(check_text("Maître Claire Dupont").is_ok());
        assert!(check_text("Étude Dupont & Associés, Paris 8e").is_ok());
        assert!(check_text("").is_err());
        assert!(check_text("   ").is_err());
        assert!(check_text("abc\u{202e}fed").is_err());
        for hidden in ['\u{200b}', '\u{2060}', '\u{feff}', '\u{00ad}', '\u{200d}'] {
            assert!(
                check_text(&format!("Maître{hidden} Dupont")).is_err(),
                "{hidden:?}"
            );
        }
        assert!(check_text("a\tb").is_err());
        assert!(check_text(&"x".repeat(201)).is_err());
        assert!(check_text(&"é".repeat(200)).is_ok());
    }
}
