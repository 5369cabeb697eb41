//! The state machine of the trail (spec/formats.md §6.2): every event, of every day and block, read
//! through the registry (`events::kinds`) and applied in order to the history of the day or block
//! it names. It fails closed: an unknown kind, a known kind whose payload does not parse, or an
//! event that cannot follow the ones before it (an entropy without a seal, a second entropy for
//! one attempt, a result without entropy, a reveal before the block was generated and
//! published, an attempt number that is not the current one) is a [`MalformedRecord`], and no
//! state is returned. On a trail urne wrote, the state of a day or a block is what the trail
//! says: the only source of truth for "sealed", "drawn", "generated", "revealed", "voided".

mod attempts;
pub mod block;
pub mod day;
pub mod sittings;

use std::collections::BTreeMap;
use urne_verify::audit::Event;
use urne_verify::block::BlockId;
use urne_verify::events::kinds::{self, MalformedRecord, Record};
use urne_verify::events::payloads::ProducerKeys;
use urne_verify::values::{Attempt, Day, KeyId};

/// Every day's and every block's history, read from the whole trail.
#[derive(Debug, Default)]
pub struct Trail {
    days: BTreeMap<Day, day::DayHistory>,
    /// By canonical id: listed in the bytewise order of its spelling.
    blocks: BTreeMap<String, block::BlockHistory>,
    sittings: Sittings,
    /// Production's keys pinned by the last `producer.keys` (spec/formats.md §6.2), if any.
    producer: Option<ProducerKeys>,
}

/// The sittings of the trail (spec/appliance.md §9.1): the last one's number, and whether it is open.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Sittings {
    /// The number of the trail's last sitting (0: none yet).
    pub last: u32,
    /// Whether that sitting is open (opened, not closed).
    pub open: bool,
}

impl Sittings {
    fn opened(&mut self, number: u32) -> Result<(), String> {
        if self.open {
            return Err(format!("sitting {} is still open", self.last));
        }
        if Some(number) != self.last.checked_add(1) {
            return Err(format!(
                "sitting {number} does not follow sitting {}",
                self.last
            ));
        }
        self.last = number;
        self.open = true;
        Ok(())
    }

    fn open_one(self, number: u32) -> Result<(), String> {
        if self.open && number == self.last {
            Ok(())
        } else {
            Err(format!("sitting {number} is not the open sitting"))
        }
    }
}

impl Trail {
    /// Reads every event of the trail, in order. The first event that is not a well-formed
    /// record, or that cannot follow the events before it, is the error.
    pub fn from_events(events: &[Event]) -> Result<Trail, MalformedRecord> {
        Trail::from_events_seen(events, |_, _| {})
    }

    /// [`Trail::from_events`], showing each event's record to `seen` before it is applied: a
    /// caller that needs every record too (the check before acting, for the blobs they name)
    /// parses each event once.
    ///
    /// # Errors
    /// As [`Trail::from_events`].
    pub fn from_events_seen(
        events: &[Event],
        mut seen: impl FnMut(&Event, &Record),
    ) -> Result<Trail, MalformedRecord> {
        let mut t = Trail::default();
        for (e, r) in events.iter().zip(parse_all(events)) {
            let r = r?;
            seen(e, &r);
            t.apply(e.seq, r)
                .map_err(|reason| kinds::malformed(e, reason))?;
        }
        Ok(t)
    }

    /// Applies the record of event `seq`; the error is why it cannot follow. Records of no day
    /// or block (and ticket proofs, which name a position, not an attempt) change no state.
    fn apply(&mut self, seq: u64, r: Record) -> Result<(), String> {
        match r {
            Record::TrailCreated(_) | Record::TrailRestarted(_) if seq != 1 => {
                Err("a trail is created by its first event only".into())
            }
            Record::TrailRestarted(r) => {
                for d in r.days {
                    self.day(d.day).carry(&d.operation, d.attempt, &d.stage)?;
                }
                for b in r.blocks {
                    self.block(&b.block).carry(b.attempt, &b.stage)?;
                }
                Ok(())
            }
            Record::TrailCreated(_)
            | Record::SoftwareStart(_)
            | Record::KeysGenerated(_)
            | Record::KeysExported(_)
            | Record::CommandFailed(_)
            | Record::InputRejected(_)
            | Record::BlockProof(_)
            | Record::OutputPublished(_)
            | Record::OutputPlacing(_)
            | Record::EntropyRefused(_)
            | Record::ClockCorrected(_)
            | Record::ClockConfirmed(_) => Ok(()),
            Record::ProducerKeys(r) => self.pin(r),
            Record::SittingOpened(r) => self.sittings.opened(r.number),
            Record::SittingResumed(r) => self.sittings.open_one(r.number),
            Record::SittingClosed(r) => {
                self.sittings.open_one(r.number)?;
                self.sittings.open = false;
                Ok(())
            }
            Record::DrawSeal(r) => {
                self.check_producer(&r.export.producer_key_id)?;
                self.day(r.day).seal(seq, r)
            }
            Record::DrawLate(r) => self.day(r.day).late(r.attempt),
            Record::DrawEntropy(r) => self.day(r.day).entropy(seq, r),
            Record::DrawContribution(r) => self.day(r.day).contribution(seq, r),
            Record::DrawResult(r) => self.day(r.day).result(seq, r),
            Record::DrawPublished(r) => self.day(r.day).published(seq, r),
            Record::DrawVoid(r) => self.day(r.day).void(seq, r),
            Record::DrawProof(r) => self.day(r.day).proof(r.attempt),
            Record::DrawProofs(r) => self.day(r.day).proof(r.attempt),
            Record::BlockEntropy(r) => self.block(&r.block).entropy(seq, r),
            Record::BlockContribution(r) => {
                let mut named = std::collections::BTreeSet::new();
                if r.blocks.is_empty() {
                    return Err("a contribution names no block".into());
                }
                for b in &r.blocks {
                    if !named.insert(&b.block) {
                        return Err(format!("block {} is named twice", b.block));
                    }
                    self.block(&b.block).contribution(seq, b, &r.contribution)?;
                }
                Ok(())
            }
            Record::BlockGenerated(r) => self.block(&r.block).generated(r),
            Record::BlockPublished(r) => self.block(&r.block).published(r),
            Record::BlockRevealed(r) => self.block(&r.block).revealed(r),
            Record::BlockVoid(r) => self.block(&r.block).void(seq, r),
        }
    }

    /// `producer.keys`: a well-formed set that names, as the set it replaces, the one pinned
    /// (none for the first).
    fn pin(&mut self, r: ProducerKeys) -> Result<(), String> {
        r.check()?;
        let pinned = self
            .producer
            .as_ref()
            .map(ProducerKeys::ids)
            .unwrap_or_default();
        if r.previous != pinned {
            return Err(format!(
                "it replaces production's keys [{}], and the trail pins [{}]",
                KeyId::join(&r.previous),
                KeyId::join(&pinned)
            ));
        }
        if r.ids() == pinned {
            return Err("it pins the keys already pinned".into());
        }
        self.producer = Some(r);
        Ok(())
    }

    /// A seal, once production's keys are pinned, names one of them as its export's key.
    fn check_producer(&self, key_id: &str) -> Result<(), String> {
        match &self.producer {
            Some(p) if !p.keys.iter().any(|k| *key_id == k.key_id) => Err(format!(
                "the export's key {key_id} is not among production's pinned keys [{}]",
                KeyId::join(&p.ids())
            )),
            _ => Ok(()),
        }
    }

    /// Production's keys pinned by the trail's last `producer.keys` (spec/formats.md §6.2), if any.
    pub fn producer_keys(&self) -> Option<&ProducerKeys> {
        self.producer.as_ref()
    }

    fn day(&mut self, day: Day) -> &mut day::DayHistory {
        self.days.entry(day).or_default()
    }

    fn block(&mut self, id: &BlockId) -> &mut block::BlockHistory {
        self.blocks.entry(id.canonical()).or_default()
    }

    /// Every day the trail names, in date order, with its state.
    pub fn days(&self) -> impl Iterator<Item = (Day, day::DayState)> {
        self.days.iter().map(|(d, h)| (*d, h.state()))
    }

    /// Every block the trail names, by canonical id (bytewise order), with its state.
    pub fn blocks(&self) -> impl Iterator<Item = (&str, block::BlockState)> {
        self.blocks.iter().map(|(b, h)| (b.as_str(), h.state()))
    }

    /// The trail's sittings: the last one's number and whether it is open.
    pub fn sittings(&self) -> Sittings {
        self.sittings
    }

    /// The state of `day` (attempt 1, nothing recorded, when the trail never names it).
    pub fn day_state(&self, day: Day) -> day::DayState {
        self.days
            .get(&day)
            .map_or_else(day::DayState::new, day::DayHistory::state)
    }

    /// The state of the block `id` (attempt 1, nothing recorded, when the trail never
    /// names it).
    pub fn block_state(&self, id: &BlockId) -> block::BlockState {
        self.blocks
            .get(&id.canonical())
            .map_or_else(block::BlockState::new, block::BlockHistory::state)
    }
}

/// The entropy commitment (spec/formats.md §3.2) of every entropy the trail has seen: each draw's, each
/// block's and each refused one, so that a token returning any earlier value, for a draw or a
/// block, is caught by one comparison of one tagged hash.
///
/// # Errors
/// An event that is not a well-formed record.
pub fn entropy_hashes(
    events: &[Event],
) -> Result<std::collections::BTreeSet<urne_verify::crypto::Hash32>, MalformedRecord> {
    let mut seen = std::collections::BTreeSet::new();
    for e in events {
        match kinds::parse(e)? {
            Record::DrawEntropy(r) => {
                seen.insert(r.entropy_commitment);
            }
            Record::BlockEntropy(r) => {
                seen.insert(r.entropy_commitment);
            }
            Record::EntropyRefused(r) => {
                seen.insert(r.entropy_commitment);
            }
            _ => {}
        }
    }
    Ok(seen)
}

/// The attempts the trail records as drawn late (`draw.late`, D-8), as (day, attempt): one
/// record per attempt, however many runs found it late.
pub fn late_attempts(events: &[Event]) -> std::collections::BTreeSet<(Day, Attempt)> {
    events
        .iter()
        .filter_map(|e| match kinds::parse(e) {
            Ok(Record::DrawLate(r)) => Some((r.day, r.attempt)),
            _ => None,
        })
        .collect()
}

/// The state of `day`, read from the whole trail ([`Trail::from_events`]).
pub fn day_state(events: &[Event], day: Day) -> Result<day::DayState, MalformedRecord> {
    Ok(Trail::from_events(events)?.day_state(day))
}

/// The state of the block `id`, read from the whole trail ([`Trail::from_events`]).
pub fn block_state(events: &[Event], id: &BlockId) -> Result<block::BlockState, MalformedRecord> {
    Ok(Trail::from_events(events)?.block_state(id))
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod tests_sitting;

#[cfg(test)]
mod tests_producer;

/// Every event's record, in order: parsed on two threads for a long trail (each event alone;
/// the records are applied in order afterwards, so the first malformed one is still the first).
fn parse_all(events: &[Event]) -> Vec<Result<Record, MalformedRecord>> {
    const ALONE: usize = 2_000;
    if events.len() < ALONE {
        return events.iter().map(kinds::parse).collect();
    }
    let (first, second) = events.split_at(events.len() / 2);
    std::thread::scope(|s| {
        let later = s.spawn(|| second.iter().map(kinds::parse).collect::<Vec<_>>());
        let mut all: Vec<_> = first.iter().map(kinds::parse).collect();
        match later.join() {
            Ok(rest) => all.extend(rest),
            // A panic in a parse is a defect; parse the rest here rather than lose it.
            Err(_) => all.extend(second.iter().map(kinds::parse)),
        }
        all
    })
}
