//! The last time a person witnessed (spec/formats.md §6.4 (5) [M-254]): the appliance's clock is tier
//! (a)'s, so the trail's times are the clock's word, but a sitting is opened or taken up again
//! only once the commissaire typed the date and time at their own watch and the clock agreed
//! with it (spec/appliance.md §9.1), and a clock is corrected only to the time a watch gave (`clock.corrected`). A
//! correction sets the clock back, so it is bounded by them: never earlier than the last time so
//! witnessed, and itself dated by a clock that agreed with the watch. Without the bound, a PIN
//! holder sets the clock to any past time, types that time as their "watch" and re-dates what
//! follows at will; with it, corrections never walk back step by step either. A `clock.confirmed`
//! (a clock far ahead, confirmed by whoever is at the terminal, spec/appliance.md §6.6) sets no bound: it guards
//! against a mistake, and counting it would only keep a mistaken confirmation from being
//! corrected, while anyone who means to go back simply never confirms.

use crate::audit::Event;
use crate::entries::rfc3339::{is_one_time_format, parse_unix};
use crate::events::kinds::{self, Kind, Record};

/// How far the appliance's clock may be from a watch when a person confirms it (spec/appliance.md §6.6,
/// §9.1): 5 minutes, and the seconds of the minute typed (a watch is read to the minute).
pub const WATCH_TOLERANCE_SECS: i64 = 5 * 60 + 59;

/// The last time witnessed by a person, in Unix seconds, as the trail's events are read in order.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Witnessed {
    /// The latest witnessed time so far and the event that witnessed it, if any.
    floor: Option<(i64, u64)>,
}

impl Witnessed {
    /// The last time witnessed in `events` (in order).
    #[must_use]
    pub fn of(events: &[Event]) -> Witnessed {
        let mut w = Witnessed::default();
        for e in events {
            w.see(e);
        }
        w
    }

    /// The latest time a person witnessed so far (Unix seconds), if any.
    #[must_use]
    pub fn floor(&self) -> Option<i64> {
        self.floor.map(|(t, _)| t)
    }

    /// Takes the event `e` into account: a sitting opened or taken up again witnessed its own
    /// time, less the watch check's tolerance; a clock corrected, its `confirmed` (a payload that
    /// is not one, or a `confirmed` not in urne's one format, spec/formats.md §6.1, witnessed nothing).
    pub fn see(&mut self, e: &Event) {
        let at = if e.kind == Kind::SittingOpened.name() || e.kind == Kind::SittingResumed.name() {
            parse_unix(&e.ts).map(|t| t - WATCH_TOLERANCE_SECS)
        } else if e.kind == Kind::ClockCorrected.name() {
            let Ok(Record::ClockCorrected(c)) = kinds::parse(e) else {
                return;
            };
            let confirmed = c.confirmed;
            is_one_time_format(&confirmed)
                .then(|| parse_unix(&confirmed))
                .flatten()
        } else {
            None
        };
        if let Some(at) = at
            && self.floor.is_none_or(|(f, _)| at >= f)
        {
            self.floor = Some((at, e.seq));
        }
    }

    /// Whether the `clock.corrected` event `e`, whose `confirmed` is `confirmed`, may follow what
    /// was seen so far: its `confirmed` not earlier than the last witnessed time, and its own time
    /// not earlier than its `confirmed` less the watch check's tolerance (the clock agreed with
    /// the watch when it was recorded) [M-254].
    pub fn admits(&self, e: &Event, confirmed: &str) -> Result<(), String> {
        let (Some(c), Some(ts)) = (parse_unix(confirmed), parse_unix(&e.ts)) else {
            return Err(format!(
                "event {}'s times are not RFC 3339 UTC with microseconds",
                e.seq
            ));
        };
        if let Some((f, by)) = self.floor.filter(|(f, _)| c < *f) {
            return Err(format!(
                "event {} confirms the time {confirmed}, {} s earlier than the last time a person witnessed before it (at event {by}): a correction never goes back past a watch",
                e.seq,
                f - c
            ));
        }
        if ts < c - WATCH_TOLERANCE_SECS {
            return Err(format!(
                "event {} is dated {}, more than the watch check's tolerance before the time it confirms ({confirmed}): it was not recorded by a clock that agreed with the watch",
                e.seq, e.ts
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crypto::Hash32;
    use crate::verify::FailureClass as C;

    fn ev(seq: u64, ts: &str, kind: &str, payload: &str) -> Event {
        Event {
            seq,
            ts: ts.into(),
            kind: kind.into(),
            payload: payload.into(),
            prev_hash: Hash32::ZERO,
            hash: Hash32::ZERO,
        }
    }

    const FAILED: &str = r#"{"command":"seal","class":"refused","error":"x"}"#;
    const AHEAD: &str = "2028-12-10T09:00:00.000000Z";

    fn correction(confirmed: &str) -> String {
        format!(r#"{{"wrong":"{AHEAD}","confirmed":"{confirmed}","reason":"clock set ahead"}}"#)
    }

    /// Event 1 witnessed (`kind`, `payload` at `t1`), event 2 dated ahead, event 3 a correction
    /// confirming `confirmed`, dated `at`.
    fn trail(kind: &str, payload: &str, confirmed: &str, at: &str) -> Vec<Event> {
        vec![
            ev(1, "2018-12-10T09:00:00.000000Z", kind, payload),
            ev(2, AHEAD, "command.failed", FAILED),
            ev(3, at, "clock.corrected", &correction(confirmed)),
        ]
    }

    fn fails_at_3(t: &[Event], why: &str) {
        let f = crate::verify::trail::step5_times(t).unwrap_err();
        assert_eq!((f.class, f.seq), (C::Inconsistent, 3), "{}", f.reason);
        assert!(f.reason.contains(why), "{}", f.reason);
    }

    #[test]
    fn a_correction_never_goes_back_past_a_sitting_opened_at_the_watch() {
        let times = crate::verify::trail::step5_times;
        let opened = r#"{"number":1}"#; // only its kind and time count here
        for kind in ["sitting.opened", "sitting.resumed"] {
            // The sitting's time less the watch check's tolerance (5 min 59 s) is the floor.
            let ok = trail(
                kind,
                opened,
                "2018-12-10T08:55:00.000000Z",
                "2018-12-10T08:55:30.000000Z",
            );
            assert!(times(&ok).is_ok(), "{kind}");
            let early = trail(
                kind,
                opened,
                "2018-12-10T08:54:00.000000Z",
                "2018-12-10T08:54:30.000000Z",
            );
            fails_at_3(&early, "a correction never goes back past a watch");
        }
        // An event that witnessed nothing sets no floor: any confirmed time in the format.
        let any = trail(
            "command.failed",
            FAILED,
            "2010-01-01T00:00:00.000000Z",
            "2010-01-01T00:00:10.000000Z",
        );
        assert!(times(&any).is_ok());
    }

    #[test]
    fn a_correction_never_goes_back_past_a_corrected_clock_but_a_confirmed_one_sets_no_bound() {
        let times = crate::verify::trail::step5_times;
        let confirmed = r#"{"previous":"2018-11-01T09:00:00.000000Z","confirmed":"2018-12-10T09:00:00.000000Z"}"#;
        let before = trail(
            "clock.confirmed",
            confirmed,
            "2018-12-10T08:00:00.000000Z",
            "2018-12-10T08:00:10.000000Z",
        );
        assert!(times(&before).is_ok());
        assert_eq!(Witnessed::of(&before[..2]).floor(), None);
        // A second correction is bounded by the first's confirmed time.
        let mut t = trail(
            "command.failed",
            FAILED,
            "2018-12-10T09:10:00.000000Z",
            "2018-12-10T09:10:00.000000Z",
        );
        t.push(ev(4, AHEAD, "command.failed", FAILED));
        t.push(ev(
            5,
            "2018-12-10T09:09:30.000000Z",
            "clock.corrected",
            &correction("2018-12-10T09:09:00.000000Z"),
        ));
        let f = times(&t).unwrap_err();
        assert_eq!(f.seq, 5, "{}", f.reason);
        assert!(f.reason.contains("at event 3"), "{}", f.reason);
    }

    #[test]
    fn a_correction_is_dated_by_a_clock_that_agreed_with_the_watch() {
        let times = crate::verify::trail::step5_times;
        let c = "2018-12-10T09:10:00.000000Z";
        // 5 min 59 s before the minute confirmed: within the watch check's tolerance.
        let edge = trail("command.failed", FAILED, c, "2018-12-10T09:04:01.000000Z");
        assert!(times(&edge).is_ok());
        let before = trail("command.failed", FAILED, c, "2018-12-10T09:04:00.000000Z");
        fails_at_3(
            &before,
            "not recorded by a clock that agreed with the watch",
        );
        assert_eq!(
            Witnessed::of(&edge).floor(),
            crate::entries::rfc3339::parse_unix(c)
        );
    }
}
