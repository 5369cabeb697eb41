//! The clock's corrections and confirmations in the minutes (spec/appliance.md §9.2, §6.6): every
//! `clock.corrected` recorded since the previous sitting closed, whoever recorded it, as an
//! incident stating the wrong time, the time confirmed at the terminal and the reason (the events
//! before it were dated by a clock set ahead, which the commissaire reads here rather than in a
//! gap of dates); every `clock.confirmed`, a clock far ahead of the trail that a person
//! confirmed at the terminal, with both times; and every event dated more than 31 days after the
//! one before it that no `clock.confirmed` states (a run killed between its `software.start` and
//! its confirmation loses the confirmation, never the gap: the gap itself is the incident).

use super::Incident;
use super::collect::{Parsed, Work};
use urne_verify::events::kinds::Record;

/// How far after the event before it an event is dated before the minutes state the gap (spec/appliance.md
/// §6.6: the bound past which a recording command asks for the watch).
pub(super) const AHEAD_DAYS: i64 = 31;

/// Adds to the work of the range `lo..=hi` of `all` the corrections and confirmations since the
/// sitting before it.
pub(super) fn add(w: &mut Work, all: &[Parsed], lo: usize, hi: usize) {
    let from = all[..lo]
        .iter()
        .rposition(|p| matches!(p.r, Record::SittingClosed(_)))
        .unwrap_or(0);
    w.incidents
        .extend(all[from..=hi].iter().filter_map(|p| match &p.r {
            Record::ClockCorrected(c) => Some(Incident::ClockCorrected {
                at: p.at,
                wrong: c.wrong.clone(),
                confirmed: c.confirmed.clone(),
                reason: c.reason.clone(),
            }),
            Record::ClockConfirmed(c) => Some(Incident::ClockConfirmed {
                at: p.at,
                previous: c.previous.clone(),
                confirmed: c.confirmed.clone(),
            }),
            _ => None,
        }));
    w.incidents.extend(jumps(all, from.max(1), hi));
    w.incidents.sort_by_key(|i| i.at().seq);
}

/// The events of `all[from..=hi]` dated more than [`AHEAD_DAYS`] after the event before them,
/// unless a `clock.confirmed` among the next two events names that event's time as `previous`
/// (the confirmation follows the `software.start` the gap falls on).
fn jumps(all: &[Parsed], from: usize, hi: usize) -> Vec<Incident> {
    (from..=hi)
        .filter(|&i| i > 0 && i < all.len())
        .filter(|&i| (all[i].at.at - all[i - 1].at.at).num_seconds() > AHEAD_DAYS * 86_400)
        .filter(|&i| {
            let previous = all[i - 1].at.at;
            let names = |text: &str| {
                chrono::DateTime::parse_from_rfc3339(text).is_ok_and(|t| t == previous)
            };
            !all[i..all.len().min(i + 2)]
                .iter()
                .any(|p| matches!(&p.r, Record::ClockConfirmed(c) if names(&c.previous)))
        })
        .map(|i| Incident::ClockJumped {
            at: all[i].at,
            previous: all[i - 1].at,
        })
        .collect()
}
