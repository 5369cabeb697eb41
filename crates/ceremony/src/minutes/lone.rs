//! The minutes of one draw made outside any sitting (`pv.html`, spec/formats.md §4.7): the same minutes
//! as a sitting's, for the events of that draw, from the start of the process that began it to
//! the end of the trail, with production's keys pinned then (spec/formats.md §6.2). No place or person is
//! recorded: the document leaves lines to fill.

use super::collect::{self, Parsed, Range};
use super::{Context, Lang, Minutes, MinutesError, MinutesKind};
use urne_verify::audit::Event;
use urne_verify::events::kinds::Record;
use urne_verify::values::{Attempt, Day};

impl Minutes {
    /// The minutes of the draw of `day`'s `attempt`, read from `events` (the whole trail, in
    /// order, up to at least the draw's result) and `ctx`.
    pub fn for_draw(
        events: &[Event],
        day: Day,
        attempt: Attempt,
        ctx: &dyn Context,
    ) -> Result<Minutes, MinutesError> {
        let all = collect::parse_all(events)?;
        let purpose = format!("day {day}");
        let first = all
            .iter()
            .position(|p| match &p.r {
                Record::DrawLate(r) => r.day == day && r.attempt == attempt,
                Record::DrawEntropy(r) => r.day == day && r.attempt == attempt,
                Record::EntropyRefused(r) => r.purpose == purpose && r.attempt == attempt,
                Record::DrawContribution(r) => r.day == day && r.attempt == attempt,
                Record::DrawResult(r) => r.day == day && r.attempt == attempt,
                _ => false,
            })
            .ok_or(MinutesError::NoDraw { day, attempt })?;
        let is_start = |p: &Parsed| matches!(p.r, Record::SoftwareStart(_));
        let lo = all[..=first].iter().rposition(is_start).unwrap_or(first);
        let hi = all.len() - 1;
        let range = Range {
            lo,
            hi,
            opener: is_start(&all[lo]).then_some(lo),
            key_ceremony: false,
        };
        let mut w = collect::collect(&all, &range, ctx);
        w.draws.retain(|d| d.day == day && d.attempt == attempt);
        w.blocks.clear();
        w.reveals.clear();
        w.voids.clear();
        // Production's keys a seal trusts at the draw's end, and every pin outside a sitting
        // since the last sitting closed (M-241), as in a sitting's minutes.
        let since = super::outside::start(&all, lo);
        super::pinned::add(&mut w, &all, since, hi);
        super::corrections::add(&mut w, &all, lo, hi);
        Ok(Minutes {
            kind: MinutesKind::LoneDraw,
            number: None,
            lang: Lang::Fr,
            time_zone: w.time_zone,
            titles: w.titles,
            place: String::new(),
            town: String::new(),
            commissaire: None,
            present: vec![],
            opened: all[lo].at,
            closed: None,
            last: all[hi].at,
            outside: vec![],
            plan: vec![],
            plan_done: vec![],
            draws: w.draws,
            blocks: w.blocks,
            reveals: w.reveals,
            voids: w.voids,
            keys: w.keys,
            incidents: w.incidents,
            software: w.software,
            integrity: w.integrity,
        })
    }
}
