//! What a void notice states of a void (spec/formats.md §4.6, §5.B9), read from the trail alone: the void
//! event and what was recorded before it, so that a notice written after a kill states the same
//! void as one written by the run that recorded it; and which voids the trail does not yet record
//! as announced. The notice's format, which a verifier reads, is `urne_verify::void_notice`.

use crate::state;
use urne_verify::audit::Event;
use urne_verify::audit::history::History;
use urne_verify::events::kinds::{self, MalformedRecord, Record};
use urne_verify::values::Attempt;
use urne_verify::void_notice::{FORMAT, Subject, VERSION, VoidNotice};

/// A void as the trail recorded it, with everything its notice states about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Voided {
    /// The day or block.
    pub subject: Subject,
    /// The operation (for a block, its game).
    pub operation: String,
    /// The attempt voided.
    pub attempt: Attempt,
    /// The reason recorded.
    pub reason: String,
    /// What the attempt had reached.
    pub stage: String,
    /// The void event's sequence number.
    pub seq: u64,
    /// The void event's time.
    pub ts: String,
}

impl Voided {
    /// The notice of this void, with the given checkpoint, key ids and history.
    pub fn notice(
        &self,
        audit_checkpoint: String,
        result_key_id: String,
        audit_key_id: String,
        history: History,
    ) -> VoidNotice {
        let (day, block) = match &self.subject {
            Subject::Day(d) => (Some(d.to_string()), None),
            Subject::Block(b) => (None, Some(b.to_string())),
        };
        VoidNotice {
            format: FORMAT.into(),
            version: VERSION,
            operation: self.operation.clone(),
            day,
            block,
            attempt: self.attempt.get(),
            reason: self.reason.clone(),
            stage: self.stage.clone(),
            void_seq: self.seq,
            voided_at: self.ts.clone(),
            audit_checkpoint,
            result_key_id,
            audit_key_id,
            history,
        }
    }

    /// Whether `n` states this very void (subject, attempt, event, reason, stage, operation,
    /// time): a notice found in place after a kill is this void's only then.
    pub fn is_stated_by(&self, n: &VoidNotice) -> bool {
        n.format == FORMAT
            && n.version == VERSION
            && n.subject().as_ref() == Ok(&self.subject)
            && n.operation == self.operation
            && n.attempt == self.attempt
            && n.reason == self.reason
            && n.stage == self.stage
            && n.void_seq == self.seq
            && n.voided_at == self.ts
    }

    /// The `file` the trail records this void's notice under ([`Subject::recorded_name`]).
    pub fn recorded_name(&self) -> String {
        self.subject.recorded_name(self.attempt)
    }
}

/// The void recorded by event `seq` of `events` (the whole trail, `events[i].seq == i + 1`),
/// with the operation and stage read from what was recorded before it.
///
/// # Errors
/// No such event, not a void, or a day's void without a seal before it: in words.
pub fn voided(events: &[Event], seq: u64) -> Result<Voided, String> {
    let i = usize::try_from(seq.wrapping_sub(1)).map_err(|e| e.to_string())?;
    let e = events
        .get(i)
        .filter(|e| e.seq == seq)
        .ok_or_else(|| format!("the trail has no event {seq}"))?;
    let before = &events[..i];
    match kinds::parse(e).map_err(|m| m.to_string())? {
        Record::DrawVoid(r) => {
            let st = state::day_state(before, r.day).map_err(|m| m.to_string())?;
            let operation = match (st.seal, st.carried_operation) {
                (Some((_, seal)), _) => seal.operation,
                (None, Some(op)) => op,
                (None, None) => return Err(format!("event {seq} voids day {} unsealed", r.day)),
            };
            Ok(Voided {
                subject: Subject::Day(r.day),
                operation,
                attempt: r.attempt,
                reason: r.reason,
                stage: r.stage,
                seq,
                ts: e.ts.clone(),
            })
        }
        Record::BlockVoid(r) => {
            let st = state::block_state(before, &r.block).map_err(|m| m.to_string())?;
            Ok(Voided {
                operation: r.block.game().to_string(),
                stage: st.stage().to_string(),
                subject: Subject::Block(r.block),
                attempt: r.attempt,
                reason: r.reason,
                seq,
                ts: e.ts.clone(),
            })
        }
        _ => Err(format!("event {seq} ({}) is not a void", e.kind)),
    }
}

/// A recorded void whose notice the trail does not record as published.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unannounced {
    /// The void event's sequence number.
    pub seq: u64,
    /// The day or block.
    pub subject: Subject,
    /// The attempt voided.
    pub attempt: Attempt,
}

/// The voids of `events` (in trail order) whose notice no `output.published` event records
/// (by [`Subject::recorded_name`]).
///
/// # Errors
/// An event that is not a well-formed record.
pub fn unannounced(events: &[Event]) -> Result<Vec<Unannounced>, MalformedRecord> {
    let mut voids = vec![];
    let mut recorded = std::collections::BTreeSet::new();
    for e in events {
        match kinds::parse(e)? {
            Record::DrawVoid(r) => voids.push(Unannounced {
                seq: e.seq,
                subject: Subject::Day(r.day),
                attempt: r.attempt,
            }),
            Record::BlockVoid(r) => voids.push(Unannounced {
                seq: e.seq,
                subject: Subject::Block(r.block),
                attempt: r.attempt,
            }),
            Record::OutputPublished(p) => {
                recorded.insert(p.file);
            }
            _ => {}
        }
    }
    voids.retain(|v| !recorded.contains(&v.subject.recorded_name(v.attempt)));
    Ok(voids)
}

#[cfg(test)]
mod tests {
    use super::*;
    use urne_verify::crypto::Hash32;

    fn notice() -> VoidNotice {
        Voided {
            subject: Subject::Day("2018-12-04".parse().unwrap()),
            operation: "op".into(),
            attempt: urne_verify::values::Attempt::new(1).unwrap(),
            reason: "power cut".into(),
            stage: "sealed".into(),
            seq: 7,
            ts: "2018-12-05T10:00:00.000000Z".into(),
        }
        .notice(
            "note".into(),
            "0123456789abcdef".into(),
            "fedcba9876543210".into(),
            History {
                trail: Hash32([1; 32]),
                predecessor: None,
                consistency: vec![],
                restart: None,
            },
        )
    }

    #[test]
    fn day_and_block_are_both_present_and_exactly_one_is_set() {
        let n = notice();
        let v: serde_json::Value = serde_json::to_value(&n).unwrap();
        assert_eq!(v["block"], serde_json::Value::Null);
        assert_eq!(n.subject(), Ok(Subject::Day("2018-12-04".parse().unwrap())));
        let back: VoidNotice = serde_json::from_value(v.clone()).unwrap();
        assert_eq!(back, n);
        let mut missing = v.clone();
        missing.as_object_mut().unwrap().remove("block");
        assert!(serde_json::from_value::<VoidNotice>(missing).is_err());
        let mut both = v.clone();
        both["block"] = "g/100/e/1".into();
        let both: VoidNotice = serde_json::from_value(both).unwrap();
        assert!(both.subject().is_err());
        let mut extra = v;
        extra["software"] = 1.into();
        assert!(serde_json::from_value::<VoidNotice>(extra).is_err());
    }
}
