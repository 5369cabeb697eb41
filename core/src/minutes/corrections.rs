//! The clock's corrections and confirmations in the minutes (SPEC.md §9.2, §6.6): every
//! `clock.corrected` recorded since the previous sitting closed, whoever recorded it, as an
//! incident stating the wrong time, the time confirmed at the terminal and the reason (the events
//! before it were dated by a clock set ahead, which the commissaire reads here rather than in a
//! gap of dates); and every `clock.confirmed`, a clock far ahead of the trail that a person
//! confirmed at the terminal, with both times.

use super::Incident;
use super::collect::{Parsed, Work};
use crate::audit::kinds::Record;

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
    w.incidents.sort_by_key(|i| i.at().seq);
}
