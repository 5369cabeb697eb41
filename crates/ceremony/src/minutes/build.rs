//! A sitting's minutes from the trail (spec/appliance.md §9.1, §9.2): the range from its
//! `sitting.opened` to its `sitting.closed` (or to the trail's end while it is open), read by
//! `collect`, under the header the opening recorded.

use super::collect::{self, Parsed, Range};
use super::pinned;
use super::{Context, Lang, Minutes, MinutesError, MinutesKind, StepDone};
use urne_verify::audit::Event;
use urne_verify::crypto::Hash32;
use urne_verify::events::kinds::Record;
use urne_verify::sitting::{SittingKind, Step};

impl Minutes {
    /// The minutes of sitting `number`, read from `events` (the whole trail, in order) and
    /// `ctx`. Fails when an event does not parse, or when the trail has no such sitting.
    pub fn from_trail(
        events: &[Event],
        number: u32,
        ctx: &dyn Context,
    ) -> Result<Minutes, MinutesError> {
        let all = collect::parse_all(events)?;
        let lo = all
            .iter()
            .position(|p| matches!(&p.r, Record::SittingOpened(r) if r.number == number))
            .ok_or(MinutesError::NoSitting(number))?;
        let Record::SittingOpened(opened) = &all[lo].r else {
            unreachable!("found above")
        };
        let hi = all[lo..]
            .iter()
            .position(|p| matches!(&p.r, Record::SittingClosed(r) if r.number == number))
            .map_or(all.len() - 1, |i| lo + i);
        let key_ceremony = opened.kind == SittingKind::KeyCeremony;
        let range_opener = opener(&all, lo);
        let range = Range {
            lo,
            hi,
            opener: range_opener,
            key_ceremony,
        };
        let mut w = collect::collect(&all, &range, ctx);
        // A pin before the opening is an act done outside any sitting (M-270), stated there;
        // one recorded while the sitting was open by another process, an incident.
        pinned::add(&mut w, &all, lo, hi);
        let outside = if key_ceremony {
            vec![]
        } else {
            super::outside::acts(&all, super::outside::start(&all, lo), lo)
        };
        super::corrections::add(&mut w, &all, lo, hi);
        if !key_ceremony {
            let from = super::outside::start(&all, lo);
            w.incidents
                .extend(collect::between(&all, from, lo, range_opener));
            w.incidents.sort_by_key(|i| i.at().seq);
        }
        Ok(Minutes {
            kind: if key_ceremony {
                MinutesKind::KeyCeremony
            } else {
                MinutesKind::Sitting
            },
            number: Some(number),
            lang: Lang::from_code(&opened.lang),
            time_zone: w.time_zone,
            titles: w.titles,
            place: opened.place.clone(),
            town: opened.town.clone(),
            commissaire: Some(opened.commissaire.clone()),
            present: opened.present.clone(),
            opened: all[lo].at,
            closed: matches!(all[hi].r, Record::SittingClosed(_)).then_some(all[hi].at),
            last: all[hi].at,
            outside,
            plan: opened.plan.clone(),
            plan_done: opened
                .plan
                .iter()
                .map(|st| step_done(&all, lo, hi, st))
                .collect(),
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

    /// The entropy commitments of the draws drawn: what [`Context::draw_entropy`] is asked
    /// for. Read them from minutes built with any context.
    pub fn drawn_entropy_commitments(&self) -> Vec<Hash32> {
        self.draws
            .iter()
            .filter(|d| d.result.is_some())
            .filter_map(|d| Some(d.entropy_commitment.as_ref()?.value))
            .collect()
    }

    /// The leaves whose pseudonyms the minutes name, by sealed set (a seal's `set_sha256`):
    /// what [`Context::pseudonym`] is asked for. Read them from minutes built with any context.
    pub fn picked_leaves(&self) -> Vec<(Hash32, u64)> {
        self.draws
            .iter()
            .filter_map(|d| Some((d.seal.as_ref()?.value.set_sha256, d.result.as_ref()?)))
            .flat_map(|(set, r)| r.picks.iter().map(move |p| (set, p.leaf)))
            .collect()
    }
}

/// The process that opened the sitting at index `lo`: the last `software.start` before it
/// (`urne ceremony` records its own start, then opens the sitting), or, when the trail has none
/// before it (the key ceremony opens its sitting right after the trail's creation), the first
/// one inside it.
fn opener(all: &[Parsed], lo: usize) -> Option<usize> {
    let is_start = |p: &Parsed| matches!(p.r, Record::SoftwareStart(_));
    all[..lo]
        .iter()
        .rposition(is_start)
        .or_else(|| all[lo..].iter().position(is_start).map(|i| lo + i))
}

/// What became of the planned step `st` of the sitting at `lo..=hi` of `all`: the event that
/// does it (a draw's result, a block generated or revealed, a void), in the sitting, else
/// before it, else none.
fn step_done(all: &[Parsed], lo: usize, hi: usize, st: &Step) -> StepDone {
    let does = |r: &Record| collect::does(r, st);
    if !matches!(st.action.as_str(), "draw" | "generate" | "reveal" | "void") {
        return StepDone::InSitting;
    }
    if all[lo..=hi].iter().any(|p| does(&p.r).is_some()) {
        return StepDone::InSitting;
    }
    all[..lo]
        .iter()
        .rev()
        .find_map(|p| {
            does(&p.r).map(|attempt| StepDone::Before {
                seq: p.at.seq,
                attempt,
            })
        })
        .unwrap_or(StepDone::NotDone)
}
