//! `urne clock correct` (spec/appliance.md §6.6): a clock that was set ahead dated events of the trail,
//! and was then set right; every command refuses the right clock as "set back" until this
//! witnessed correction is recorded. At the appliance's console: the trail's last time and the
//! clock's are shown, a person types the date and time at their watch (the clock must agree
//! within 5 minutes), and `clock.corrected` is recorded naming the wrong time and the confirmed
//! one: the one event that may be earlier than the one before it (spec/formats.md §6.4 (5)).

use super::ctx::Ctx;
use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::cmd as mc;
use chrono::{DateTime, Utc};
use urne_verify::audit::Event;
use urne_verify::events::kinds::{self, Record};
use urne_verify::events::payloads::ClockCorrected;
use urne_verify::verify::witnessed::Witnessed;

/// `urne clock correct --reason TEXT`.
pub fn correct(ctx: &mut Ctx, reason: &str) -> Result<()> {
    super::inputs::check_reason(reason, "clock correction")?;
    // Typed at the console, before the PIN: never from a pipe or a file.
    super::randomness::need_terminal_for(
        &crate::msg!(mc::ERR_CLOCK_TERMINAL),
        &crate::msg!(mc::REC_CLOCK_TERMINAL),
    )?;
    let lang = crate::text::lang();
    let event = ctx.begin_correction(|events, last| {
        let tz = chrono_tz::Europe::Paris;
        let paris = |ts: &str| {
            chrono::DateTime::parse_from_rfc3339(ts).map_or_else(
                |_| ts.to_string(),
                |t| t.with_timezone(&tz).format("%Y-%m-%d %H:%M:%S").to_string(),
            )
        };
        let now = crate::edge::clock::now_rfc3339();
        note!();
        note!(
            "{}",
            lang.t(
                "CORRECTION DE L'HORLOGE DE L'APPAREIL",
                "CORRECTION OF THE APPLIANCE'S CLOCK"
            )
        );
        note!(
            "  {}  {} ({} {}, {})",
            lang.t("dernier événement du journal", "the trail's last event   "),
            paris(&last.ts),
            lang.t("n°", "no."),
            last.seq,
            last.kind
        );
        note!(
            "  {}  {}",
            lang.t("horloge de l'appareil       ", "the appliance's clock    "),
            paris(&now)
        );
        note!(
            "  {}",
            lang.t(
                "(heure de Paris) : l'horloge est en arrière du journal, dont les derniers événements ont été datés par une horloge en avance.",
                "(Paris time): the clock is behind the trail, whose last events were dated by a clock set ahead."
            )
        );
        let confirmed = super::watch::check(lang, "`urne clock correct`")?;
        refuse_before_witnessed(events, confirmed)?;
        Ok(ClockCorrected {
            wrong: last.ts.clone(),
            confirmed: crate::edge::clock::rfc3339(confirmed),
            reason: reason.trim().to_string(),
        })
    })?;
    say!("{}", crate::msg!(mc::SCR_CLOCK_CORRECTED));
    say!(
        "{}",
        crate::msg!(mc::SCR_CLOCK_CORRECTED_EVENT, seq = event.seq)
    );
    if let Ok(Record::ClockCorrected(c)) = kinds::parse(&event) {
        say!(
            "{}",
            crate::msg!(mc::SCR_CLOCK_CORRECTED_WRONG, at = c.wrong)
        );
        say!(
            "{}",
            crate::msg!(mc::SCR_CLOCK_CORRECTED_CONFIRMED, at = c.confirmed)
        );
    }
    say!("{}", crate::msg!(mc::SCR_CLOCK_CORRECTED_AT, at = event.ts));
    Ok(())
}

/// Refuses (exit 4, nothing recorded) a correction to `confirmed`, the time the watch gave,
/// earlier than the last time a person witnessed in `events` (spec/formats.md §6.4 (5) [M-254]): a
/// sitting opened or taken up again at the commissaire's watch, a clock confirmed or corrected.
/// The watch or that record is wrong; a correction that went back past it would re-date what a
/// person saw, and both verifiers refuse it.
fn refuse_before_witnessed(events: &[Event], confirmed: DateTime<Utc>) -> Result<()> {
    let Some(floor) = Witnessed::of(events).floor() else {
        return Ok(());
    };
    if confirmed.timestamp() >= floor {
        return Ok(());
    }
    let floor = DateTime::from_timestamp(floor, 0).map_or_else(String::new, |t| {
        t.with_timezone(&chrono_tz::Europe::Paris)
            .format("%Y-%m-%d %H:%M:%S")
            .to_string()
    });
    Err(Error::new(
        Kind::ClockCorrectionRefused,
        crate::msg!(mc::ERR_CLOCK_PAST_WATCH, floor = floor),
        crate::msg!(mc::REC_CLOCK_PAST_WATCH),
    ))
}
