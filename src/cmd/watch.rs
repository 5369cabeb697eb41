//! The date and time at a person's watch, typed at the terminal (spec/appliance.md §6.6, §9.1): the
//! appliance's clock is a file of the machine's (tier a), a watch is not. Asked by `urne
//! ceremony` at every opening, by any recording command whose clock is far ahead of the trail's
//! last event ([`check_not_far_ahead`]), and by `urne clock correct` before it records a
//! correction.

use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::cmd as mc;
use crate::text::Lang;
use chrono::{DateTime, Utc};
use std::io::IsTerminal;
use urne_verify::audit::Event;
use urne_verify::events::payloads::ClockConfirmed;

/// How many times the date and time may be typed.
const TRIES: usize = 3;

/// How far the appliance's clock may be from the watch, in minutes (whole minutes typed: the
/// clock is within this many minutes and 59 seconds of the minute typed).
pub const TOLERANCE_MINUTES: i64 = 5;

/// How far ahead of the trail's last event the clock may be before a person is asked to confirm
/// it at the terminal (spec/appliance.md §6.6): longer than any gap of the daily draws' routine (a day is
/// drawn on its draw date or within the 30 days D-8 allows), shorter than a block's sales period
/// (months), which a clock set ahead could otherwise close early (a reveal refuses a sales close
/// later than the clock, spec/appliance.md §5.B9).
pub const AHEAD_DAYS: i64 = 31;

/// Asks for the date and time at the watch (Paris time, D-1: `AAAA-MM-JJ HH:MM`; three tries,
/// as every prompt: a time that does not parse, or one more than [`TOLERANCE_MINUTES`] from the
/// appliance's clock, is refused and asked again) and returns it, once the appliance's clock is
/// within [`TOLERANCE_MINUTES`] of it; else nothing goes on (exit 4). `then` names what to run
/// again after setting the clock right. A refusal is one of what was typed: reported, never
/// recorded, not even as `command.failed` (spec/appliance.md §9.1; asked before anything is
/// recorded everywhere else, spec/appliance.md §6.6).
pub fn check(lang: Lang, then: &str) -> Result<DateTime<Utc>> {
    ask(lang, then).map(|w| w.at).map_err(Error::unrecorded)
}

/// What a sitting's check of the watch gives: the instant the watch showed, and each time typed
/// before it that the appliance's clock disagreed with, in words of the sitting's language, for
/// the minutes (spec/appliance.md §9.1, §9.2).
pub struct Watched {
    /// The instant the watch showed, the clock within the tolerance of it.
    pub at: DateTime<Utc>,
    /// The times refused because the clock disagreed with them, described.
    pub refused: Vec<String>,
}

/// What becomes of a refusal after the last try.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LastRefusal {
    /// Not recorded (an ordinary sitting: nothing is recorded after the trail's check, M-257).
    Unrecorded,
    /// Recorded as `command.failed` (the key ceremony: its keys, already generated, are dated by
    /// the same clock, and its minutes say why the first attempt stopped).
    Recorded,
}

/// [`check`] at a sitting: the times refused before the one that agreed are returned for the
/// sitting to record once the clock is confirmed; the refusal after the last try is recorded
/// or not as `last` says.
pub fn check_at_sitting(lang: Lang, then: &str, last: LastRefusal) -> Result<Watched> {
    ask(lang, then).map_err(|e| match last {
        LastRefusal::Unrecorded => e.unrecorded(),
        // The key ceremony: its keys exist already and stay; "nothing was done" would be false.
        LastRefusal::Recorded => Error {
            hint: crate::msg!(crate::msg::catalogue::REC_KEY_CEREMONY_CLOCK, then = then),
            ..e
        },
    })
}

/// [`check`], its refusals not yet marked.
fn ask(lang: Lang, then: &str) -> Result<Watched> {
    let tz = chrono_tz::Europe::Paris;
    let mut refused = vec![];
    let mut disagreed = None;
    for attempt in 1..=TRIES {
        note!(
            "{}",
            lang.t(
                "Commissaire : date et heure à votre montre, heure de Paris (AAAA-MM-JJ HH:MM) :",
                "Commissaire: the date and time at your watch, Paris time (YYYY-MM-DD HH:MM):"
            )
        );
        let typed = read_words(lang)?;
        // A time that does not exist in Paris (the hour skipped in March) is asked again.
        let Some(local) = chrono::NaiveDateTime::parse_from_str(&typed, "%Y-%m-%d %H:%M")
            .ok()
            .filter(|t| t.and_local_timezone(tz).earliest().is_some())
        else {
            note!(
                "  {}",
                lang.t(
                    "refusé : écrivez par exemple 2018-12-11 10:02",
                    "refused: write e.g. 2018-12-11 10:02"
                )
            );
            continue;
        };
        let now = crate::edge::clock::now_utc();
        if let Some(at) = agrees(local, now) {
            return Ok(Watched { at, refused });
        }
        let shown = now.with_timezone(&tz).format("%Y-%m-%d %H:%M").to_string();
        let why = disagreement(lang, &shown, &typed, attempt);
        note!("  {} {why}", lang.t("refusé :", "refused:"));
        refused.push(why);
        disagreed = Some((shown, typed));
    }
    let Some((shown, typed)) = disagreed else {
        return Err(Error::new(
            Kind::NoValidAnswer,
            mc::ERR_WATCH_NO_ANSWER.words(lang),
            mc::REC_WATCH_NO_ANSWER.words(lang),
        ));
    };
    // In the sitting's language: the key ceremony's minutes state it (spec/appliance.md §9.2).
    Err(Error::new(
        Kind::ClockDisagrees,
        mc::ERR_WATCH_REFUSED.fill(lang, &[("why", &disagreement(lang, &shown, &typed, TRIES))]),
        mc::REC_WATCH_REFUSED.fill(lang, &[("then", &then)]),
    ))
}

/// A time typed that the appliance's clock disagrees with, in words: what the clock said, what
/// was typed, the try.
fn disagreement(lang: Lang, shown: &str, typed: &str, attempt: usize) -> String {
    format!(
        "{} {shown} {} {typed} {} {TOLERANCE_MINUTES} {} {attempt} {} {TRIES})",
        lang.t(
            "l'horloge de l'appareil indiquait",
            "the appliance's clock said"
        ),
        lang.t(
            "(heure de Paris), la montre du commissaire",
            "(Paris time), the commissaire's watch"
        ),
        lang.t(": plus de", ": more than"),
        lang.t("minutes d'écart (essai", "minutes apart (try"),
        lang.t("sur", "of"),
    )
}

/// The instant the watch shows (`local`, Paris time) when the clock `now` is within
/// [`TOLERANCE_MINUTES`] of it. In the hour the clocks go back (the last Sunday of October), a
/// Paris time is two instants: either may be the watch's. A time that does not exist in Paris
/// (the hour skipped in March) is no instant.
fn agrees(local: chrono::NaiveDateTime, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    let tz = chrono_tz::Europe::Paris;
    let r = local.and_local_timezone(tz);
    [r.earliest(), r.latest()]
        .into_iter()
        .flatten()
        .map(|t| t.with_timezone(&Utc))
        .find(|at| {
            (now - *at).num_seconds().abs() <= urne_verify::verify::witnessed::WATCH_TOLERANCE_SECS
        })
}

/// A recording command's clock far ahead of the trail (spec/appliance.md §6.6): when the clock is more
/// than [`AHEAD_DAYS`] days after the trail's last event, a person confirms the date and time at
/// the terminal ([`check`]) before anything is recorded, and the confirmation is returned for the
/// command to record (`clock.confirmed`); without a terminal, refused (exit 2). `None`: the clock
/// is not far ahead, nothing was asked.
/// (`urne ceremony`, which asks for the watch at its opening, asks here first too: it may
/// publish what a killed run left before it opens the sitting.)
pub fn check_not_far_ahead(last: Option<&Event>, command: &str) -> Result<Option<ClockConfirmed>> {
    let Some(last) = last else {
        return Ok(None);
    };
    let now = crate::edge::clock::now_utc();
    let Some(then) = urne_verify::entries::rfc3339::parse_unix(&last.ts) else {
        return Ok(None); // not urne's format: the trail's check (spec/formats.md §6.4 (5)) refuses it
    };
    let ahead = now.timestamp() - then;
    if ahead <= AHEAD_DAYS * 86_400 {
        return Ok(None);
    }
    let days = ahead / 86_400;
    let what = crate::msg!(
        mc::ERR_WATCH_FAR_AHEAD,
        now = crate::edge::clock::now_rfc3339(),
        days = days,
        last = last.ts,
        seq = last.seq,
        limit = AHEAD_DAYS
    );
    if !std::io::stdin().is_terminal() {
        return Err(Error::new(
            Kind::NotATerminal,
            what,
            crate::msg!(mc::REC_WATCH_FAR_AHEAD),
        ));
    }
    let lang = crate::text::lang();
    let paris = |t: DateTime<Utc>| {
        t.with_timezone(&chrono_tz::Europe::Paris)
            .format("%Y-%m-%d %H:%M")
            .to_string()
    };
    let last_at = DateTime::from_timestamp(then, 0).map_or_else(|| last.ts.clone(), paris);
    note!(
        "{} {} {} {days} {} {last_at} ({} {}){}",
        lang.t(
            "L'horloge de l'appareil indique",
            "The appliance's clock says"
        ),
        paris(now),
        lang.t("(heure de Paris), soit", "(Paris time),"),
        lang.t(
            "jours après le dernier événement du journal d'audit,",
            "days after the audit trail's last event,"
        ),
        lang.t("n°", "no."),
        last.seq,
        lang.t(
            " : plus de 31 jours ; la date et l'heure sont confirmées avant toute inscription.",
            ": more than 31 days; the date and time are confirmed before anything is recorded."
        )
    );
    let confirmed = check(lang, &format!("`urne {command}`"))?;
    Ok(Some(ClockConfirmed {
        previous: last.ts.clone(),
        confirmed: crate::edge::clock::rfc3339(confirmed),
    }))
}

/// A line typed at the terminal, its runs of blanks made single spaces and its ends trimmed (a
/// date and a time, `2018-12-11  10:02`, read as typed on paper); the terminal closed is an error.
fn read_words(lang: Lang) -> Result<String> {
    let line = crate::cmd::confirm::read_line(&mut std::io::stdin().lock(), || {
        Error::new(
            Kind::TerminalClosed,
            mc::ERR_WATCH_CLOSED.words(lang),
            mc::REC_WATCH_CLOSED.words(lang),
        )
    })?;
    Ok(line.split_whitespace().collect::<Vec<_>>().join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(s: &str) -> DateTime<Utc> {
        s.parse().unwrap()
    }
    fn paris(s: &str) -> chrono::NaiveDateTime {
        chrono::NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M").unwrap()
    }

    #[test]
    fn the_watch_agrees_within_the_tolerance_in_paris_time_at_its_edges() {
        // Winter (UTC+1), across midnight in Paris: 00:02 on 12 December is 23:02 UTC the day before.
        let now = utc("2018-12-11T23:02:30Z");
        assert_eq!(
            agrees(paris("2018-12-12 00:02"), now),
            Some(utc("2018-12-11T23:02:00Z"))
        );
        assert_eq!(agrees(paris("2018-12-11 00:02"), now), None);
        // 5 minutes and 59 seconds apart agree; 6 minutes do not.
        assert!(agrees(paris("2018-12-12 00:07"), utc("2018-12-11T23:01:01Z")).is_some());
        assert!(agrees(paris("2018-12-12 00:08"), utc("2018-12-11T23:01:59Z")).is_none());
        // The hour the clocks go back: 02:30 in Paris is 00:30 or 01:30 UTC, either agrees.
        assert!(agrees(paris("2026-10-25 02:30"), utc("2026-10-25T00:30:00Z")).is_some());
        assert!(agrees(paris("2026-10-25 02:30"), utc("2026-10-25T01:30:00Z")).is_some());
        // The hour skipped in March is no time at all.
        assert_eq!(
            agrees(paris("2026-03-29 02:30"), utc("2026-03-29T01:30:00Z")),
            None
        );
    }
}
