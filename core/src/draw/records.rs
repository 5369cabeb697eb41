//! What a daily draw records in the audit trail (SPEC.md §6.2), and the state of a day derived
//! from those records: the trail is the only source of truth for "sealed", "drawn", "voided".

use super::Pick;
use super::files::{CommitmentRef, ExportRef, Figures, VoidedAttempt};
use crate::audit::Event;
use crate::crypto::Hash32;
use serde::{Deserialize, Serialize};

/// Kind of the seal's event ([`SealRecord`]).
pub const SEAL: &str = "draw.seal";
/// Kind of the event recording the witness and the entropy before use ([`EntropyRecord`]).
pub const ENTROPY: &str = "draw.entropy";
/// Kind of the event recording the seed and the picks ([`ResultRecord`]).
pub const RESULT: &str = "draw.result";
/// Kind of the event recording the published folder ([`PublishedRecord`]).
pub const PUBLISHED: &str = "draw.published";
/// Kind of the event voiding an attempt ([`VoidRecord`], SPEC.md §4.6).
pub const VOID: &str = "draw.void";
/// Kind of the event recording a draw made after its draw date (D-8).
pub const LATE: &str = "draw.late";
/// Kind of the event recording a refused input file, with its SHA-256 and the reason.
pub const REJECTED: &str = "input.rejected";

/// The `draw.seal` record (SPEC.md §6.2): what the day was sealed from, and its commitment.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SealRecord {
    /// The rules' operation id.
    pub operation: String,
    /// The sealed day, `YYYY-MM-DD`.
    pub day: String,
    /// The attempt sealed (SPEC.md §4.6).
    pub attempt: u32,
    /// SHA-256 of the rules file, also the name of its blob in the trail (SPEC.md §4.4, §6.2).
    pub rules_sha256: Hash32,
    /// The export's path as the operator gave it.
    pub export_file: String,
    /// The signed export the day was sealed from.
    pub export: ExportRef,
    /// The figures of the day's tally (SPEC.md §4.7).
    pub figures: Figures,
    /// The commitment, recorded before any entropy exists (SPEC.md §4.3).
    pub commitment: CommitmentRef,
    /// SHA-256 of the sealed set (leaves in pseudonym order with their accounts), stored as a
    /// blob beside the events (SPEC.md §6.2).
    pub set_sha256: Hash32,
    /// SHA-256 of the public `leaves.bin` (a blob), and its signature by the result key, made at
    /// the seal so the draw only copies it.
    pub leaves_sha256: Hash32,
    /// The 64-byte signature of `leaves.bin` by the result key (SPEC.md §1.4), hex.
    pub leaves_sig: String,
}

/// The `draw.entropy` record (SPEC.md §3.1, §6.2): the draw's randomness, recorded before use.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EntropyRecord {
    /// The rules' operation id.
    pub operation: String,
    /// The day drawn, `YYYY-MM-DD`.
    pub day: String,
    /// The attempt drawn (SPEC.md §4.6).
    pub attempt: u32,
    /// The commitment root shown before the witness was taken (SPEC.md §4.3).
    pub commitment_root: Hash32,
    /// The commissaire's contribution, as typed (SPEC.md §4.4).
    pub witness: String,
    /// The HSM's 48 bytes of entropy (SPEC.md §3.1), hex.
    pub entropy: String,
}

/// The `draw.result` record (SPEC.md §6.2): the seed and the picks, recorded once.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ResultRecord {
    /// The rules' operation id.
    pub operation: String,
    /// The day drawn, `YYYY-MM-DD`.
    pub day: String,
    /// The attempt drawn (SPEC.md §4.6).
    pub attempt: u32,
    /// The draw seed (SPEC.md §4.4).
    pub seed: Hash32,
    /// The winner's pick (SPEC.md §4.5).
    pub winner: Pick,
    /// The reserves' picks, in rank order.
    pub reserves: Vec<Pick>,
}

/// The `draw.published` record (SPEC.md §6.2): the folder the outputs were published into.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PublishedRecord {
    /// The day drawn, `YYYY-MM-DD`.
    pub day: String,
    /// The attempt drawn (SPEC.md §4.6).
    pub attempt: u32,
    /// The output folder as the operator gave it.
    pub out: String,
    /// The SHA-256 of every output, by file name.
    pub files: std::collections::BTreeMap<String, Hash32>,
}

/// The `draw.void` record (SPEC.md §4.6): an attempt annulled in front of the commissaire.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct VoidRecord {
    /// The day whose attempt is voided, `YYYY-MM-DD`.
    pub day: String,
    /// The attempt voided.
    pub attempt: u32,
    /// The reason given, as the commissaire signs it.
    pub reason: String,
    /// The stage the attempt had reached ([`DayState::stage`]).
    pub stage: String,
}

/// A record of a day in the audit trail that does not parse as the record of its kind (the
/// trail was altered, or written by other software): commands stop on it rather than guess.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("audit event {seq} ({kind}) is not a well-formed record: {reason}")]
pub struct MalformedRecord {
    /// The event's sequence number.
    pub seq: u64,
    /// The event's kind.
    pub kind: String,
    /// What does not parse, in the parser's words.
    pub reason: String,
}

/// Parses the payload `v` of event `e` as its kind's record.
fn record<T: serde::de::DeserializeOwned>(
    e: &Event,
    v: serde_json::Value,
) -> Result<T, MalformedRecord> {
    serde_json::from_value(v).map_err(|err| MalformedRecord {
        seq: e.seq,
        kind: e.kind.clone(),
        reason: err.to_string(),
    })
}

/// The state of one day, derived from the trail.
#[derive(Debug, Default)]
pub struct DayState {
    /// The current attempt (1 + the number of voids).
    pub attempt: u32,
    /// The voided attempts, in order.
    pub voided: Vec<VoidedAttempt>,
    /// The current attempt's seal, with its event's sequence number.
    pub seal: Option<(u64, SealRecord)>,
    /// The current attempt's recorded randomness, with its event's sequence number.
    pub entropy: Option<(u64, EntropyRecord)>,
    /// The current attempt's recorded outcome, with its event's sequence number.
    pub result: Option<(u64, ResultRecord)>,
    /// The current attempt's publication, with its event's sequence number.
    pub published: Option<(u64, PublishedRecord)>,
}

impl DayState {
    /// Reads the trail's events for `day`. Events of voided attempts are kept out of the
    /// current state; the voids themselves are listed. A void, or a record of the current
    /// attempt, that does not parse as its kind's record is an error.
    pub fn from_events(events: &[Event], day: &str) -> Result<DayState, MalformedRecord> {
        let mut st = DayState {
            attempt: 1,
            ..Default::default()
        };
        for e in events {
            let v: serde_json::Value = match serde_json::from_str(&e.payload) {
                Ok(v) => v,
                Err(_) => continue,
            };
            if v["day"] != day {
                continue;
            }
            // urne records attempts as u32; a larger number (not urne's) is cut to 32 bits, as
            // it always was.
            #[allow(clippy::cast_possible_truncation)]
            let attempt = v["attempt"].as_u64().unwrap_or(0) as u32;
            match e.kind.as_str() {
                VOID => {
                    let r: VoidRecord = record(e, v)?;
                    st.voided.push(VoidedAttempt {
                        attempt: r.attempt,
                        reason: r.reason,
                        audit_seq: e.seq,
                    });
                    st.attempt = r.attempt + 1;
                    st.seal = None;
                    st.entropy = None;
                    st.result = None;
                    st.published = None;
                }
                _ if attempt != st.attempt => {}
                SEAL => st.seal = Some((e.seq, record(e, v)?)),
                ENTROPY => st.entropy = Some((e.seq, record(e, v)?)),
                RESULT => st.result = Some((e.seq, record(e, v)?)),
                PUBLISHED => st.published = Some((e.seq, record(e, v)?)),
                _ => {}
            }
        }
        Ok(st)
    }

    /// The stage the current attempt has reached, in words.
    pub fn stage(&self) -> &'static str {
        if self.published.is_some() {
            "drawn and published"
        } else if self.result.is_some() {
            "drawn (outputs not yet written)"
        } else if self.entropy.is_some() {
            "entropy recorded (draw interrupted)"
        } else if self.seal.is_some() {
            "sealed"
        } else {
            "not sealed"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(seq: u64, kind: &str, payload: &serde_json::Value) -> Event {
        Event {
            seq,
            ts: "2018-12-05T09:00:00.000000Z".into(),
            kind: kind.into(),
            payload: payload.to_string(),
            prev_hash: Hash32::ZERO,
            hash: Hash32::ZERO,
        }
    }

    fn result(seed: &str) -> serde_json::Value {
        serde_json::json!({"operation": "op", "day": "2018-12-04", "attempt": 1, "seed": seed,
            "winner": {"entry": 0, "leaf": 0}, "reserves": []})
    }

    #[test]
    fn records_parse_with_their_hashes_typed() {
        let seed = "ab".repeat(32);
        let st = DayState::from_events(&[event(3, RESULT, &result(&seed))], "2018-12-04").unwrap();
        let (seq, r) = st.result.unwrap();
        assert_eq!((seq, r.seed), (3, Hash32::from_hex(&seed).unwrap()));
        assert_eq!(serde_json::to_value(&r).unwrap(), result(&seed));
    }

    #[test]
    fn a_malformed_record_of_the_day_is_an_error() {
        let bad = "AB".repeat(32);
        let e =
            DayState::from_events(&[event(7, RESULT, &result(&bad))], "2018-12-04").unwrap_err();
        assert_eq!((e.seq, e.kind.as_str()), (7, RESULT));
        assert!(e.reason.contains("expected 64 hex digits"), "{e}");
        // Another day's records, and payloads that are not JSON, are not this day's.
        let other = DayState::from_events(&[event(7, RESULT, &result(&bad))], "2018-12-05");
        assert!(other.unwrap().result.is_none());
        let mut not_json = event(8, SEAL, &serde_json::Value::Null);
        not_json.payload = "{".into();
        assert!(DayState::from_events(&[not_json], "2018-12-04").is_ok());
        // A void that does not parse is an error too.
        let void = serde_json::json!({"day": "2018-12-04", "attempt": "1"});
        assert!(DayState::from_events(&[event(9, VOID, &void)], "2018-12-04").is_err());
    }
}
