//! What a daily draw records in the audit trail (SPEC.md §6.2), and the state of a day derived
//! from those records: the trail is the only source of truth for "sealed", "drawn", "voided".

use super::Pick;
use super::files::{CommitmentRef, ExportRef, Figures, VoidedAttempt};
use crate::audit::Event;
use serde::{Deserialize, Serialize};

pub const SEAL: &str = "draw.seal";
pub const ENTROPY: &str = "draw.entropy";
pub const RESULT: &str = "draw.result";
pub const PUBLISHED: &str = "draw.published";
pub const VOID: &str = "draw.void";
pub const LATE: &str = "draw.late";
pub const REJECTED: &str = "input.rejected";

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SealRecord {
    pub operation: String,
    pub day: String,
    pub attempt: u32,
    pub rules_sha256: String,
    pub export_file: String,
    pub export: ExportRef,
    pub figures: Figures,
    pub commitment: CommitmentRef,
    /// SHA-256 of the sealed set (leaves in pseudonym order with their accounts), stored as a
    /// blob beside the events (SPEC.md §6.2).
    pub set_sha256: String,
    /// SHA-256 of the public `leaves.bin` (a blob), and its signature by the result key, made at
    /// the seal so the draw only copies it.
    pub leaves_sha256: String,
    pub leaves_sig: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EntropyRecord {
    pub operation: String,
    pub day: String,
    pub attempt: u32,
    pub commitment_root: String,
    pub witness: String,
    pub entropy: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ResultRecord {
    pub operation: String,
    pub day: String,
    pub attempt: u32,
    pub seed: String,
    pub winner: Pick,
    pub reserves: Vec<Pick>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PublishedRecord {
    pub day: String,
    pub attempt: u32,
    pub out: String,
    pub files: std::collections::BTreeMap<String, String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct VoidRecord {
    pub day: String,
    pub attempt: u32,
    pub reason: String,
    pub stage: String,
}

/// The state of one day, derived from the trail.
#[derive(Debug, Default)]
pub struct DayState {
    /// The current attempt (1 + the number of voids).
    pub attempt: u32,
    pub voided: Vec<VoidedAttempt>,
    pub seal: Option<(u64, SealRecord)>,
    pub entropy: Option<(u64, EntropyRecord)>,
    pub result: Option<(u64, ResultRecord)>,
    pub published: Option<(u64, PublishedRecord)>,
}

impl DayState {
    /// Reads the trail's events for `day`. Events of voided attempts are kept out of the
    /// current state; the voids themselves are listed.
    pub fn from_events(events: &[Event], day: &str) -> DayState {
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
            let attempt = v["attempt"].as_u64().unwrap_or(0) as u32;
            match e.kind.as_str() {
                VOID => {
                    if let Ok(r) = serde_json::from_value::<VoidRecord>(v) {
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
                }
                _ if attempt != st.attempt => {}
                SEAL => st.seal = serde_json::from_value(v).ok().map(|r| (e.seq, r)),
                ENTROPY => st.entropy = serde_json::from_value(v).ok().map(|r| (e.seq, r)),
                RESULT => st.result = serde_json::from_value(v).ok().map(|r| (e.seq, r)),
                PUBLISHED => st.published = serde_json::from_value(v).ok().map(|r| (e.seq, r)),
                _ => {}
            }
        }
        st
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
