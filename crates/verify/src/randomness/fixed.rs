//! The order in which a draw's or a block's randomness became fixed, as its output proves it
//! (spec/formats.md §3.3): the event that recorded the entropy commitment and the event that recorded the
//! commissaire's contribution, each exactly as stored in the trail, with its RFC 9162 inclusion
//! proof in the tree of the output's own checkpoint. The entropy's event comes first: every
//! append is covered by its own signed checkpoint (spec/formats.md §6.3), so the commitment was signed before the
//! contribution existed in the trail.

use crate::audit::chain::event_hash;
use crate::crypto::{Hash32, merkle};
use serde::{Deserialize, Serialize};

/// One event of the trail as stored (spec/formats.md §6.1), with its inclusion proof.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FixedEvent {
    /// The event's sequence number (its leaf is `seq - 1`).
    pub seq: u64,
    /// Its time, as stored.
    pub ts: String,
    /// Its kind.
    pub kind: String,
    /// Its payload, the JSON text exactly as stored and hashed.
    pub payload: String,
    /// The previous event's hash.
    pub prev_hash: Hash32,
    /// The RFC 9162 inclusion path of the event's hash in the tree of the output's checkpoint.
    pub inclusion: Vec<Hash32>,
}

/// The two events that fixed the randomness, in the order they were appended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Fixed {
    /// The event that recorded the HSM's entropy and its commitment (`draw.entropy`,
    /// `block.entropy`).
    pub entropy: FixedEvent,
    /// The event that recorded the commissaire's contribution (`draw.contribution`,
    /// `block.contribution`).
    pub contribution: FixedEvent,
}

impl FixedEvent {
    /// The event as the trail holds it, with its proof in the tree over `hashes` (all events
    /// of the trail up to the output's checkpoint, in order).
    pub fn of(e: &crate::audit::Event, hashes: &[Hash32]) -> FixedEvent {
        let leaves: Vec<Hash32> = hashes.iter().map(|h| merkle::leaf_hash(h)).collect();
        FixedEvent {
            seq: e.seq,
            ts: e.ts.clone(),
            kind: e.kind.clone(),
            payload: e.payload.clone(),
            prev_hash: e.prev_hash,
            inclusion: merkle::inclusion_path(
                usize::try_from(e.seq.saturating_sub(1)).unwrap_or(usize::MAX),
                &leaves,
            ),
        }
    }

    /// The event's hash (spec/formats.md §6.1).
    pub fn hash(&self) -> Hash32 {
        event_hash(
            &self.prev_hash,
            self.seq,
            &self.ts,
            &self.kind,
            &self.payload,
        )
    }

    /// Whether the event is the `seq`-th of the tree of `size` events with root `root`.
    pub fn included(&self, size: u64, root: &Hash32) -> bool {
        self.seq >= 1
            && merkle::verify_inclusion(
                &merkle::leaf_hash(&self.hash()),
                self.seq - 1,
                size,
                &self.inclusion,
                root,
            )
    }
}

impl Fixed {
    /// Checks the evidence against the output's checkpoint (`size`, `root`): each event is in
    /// that tree at its `seq`, of the kind expected, and the entropy's event comes before the
    /// contribution's. What the payloads say is the caller's to compare.
    pub fn check(&self, size: u64, root: &Hash32, kinds: (&str, &str)) -> Result<(), String> {
        for (name, e, kind) in [
            ("entropy", &self.entropy, kinds.0),
            ("contribution", &self.contribution, kinds.1),
        ] {
            if e.kind != kind {
                return Err(format!(
                    "the {name} event is of kind {:?}, not {kind}",
                    e.kind
                ));
            }
            if !e.included(size, root) {
                return Err(format!(
                    "the {name} event (#{}) is not in the trail of the checkpoint ({size} events)",
                    e.seq
                ));
            }
        }
        if self.entropy.seq >= self.contribution.seq {
            return Err(format!(
                "the contribution (event #{}) was recorded before the entropy commitment (event #{})",
                self.contribution.seq, self.entropy.seq
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::Event;

    fn trail(n: u64) -> Vec<Event> {
        let mut prev = Hash32::ZERO;
        (1..=n)
            .map(|seq| {
                let (ts, kind) = ("2018-12-07T08:00:00.000000Z", format!("k{seq}"));
                let payload = "{}".to_string();
                let hash = event_hash(&prev, seq, ts, &kind, &payload);
                let e = Event {
                    seq,
                    ts: ts.into(),
                    kind,
                    payload,
                    prev_hash: prev,
                    hash,
                };
                prev = hash;
                e
            })
            .collect()
    }

    #[test]
    fn the_order_and_the_inclusion_are_checked() {
        let t = trail(7);
        let hashes: Vec<Hash32> = t.iter().map(|e| e.hash).collect();
        let root = crate::audit::chain::tree_root(&hashes);
        let f = Fixed {
            entropy: FixedEvent::of(&t[2], &hashes),
            contribution: FixedEvent::of(&t[4], &hashes),
        };
        assert_eq!(f.check(7, &root, ("k3", "k5")), Ok(()));
        assert!(f.check(7, &root, ("k3", "k4")).is_err());
        let swapped = Fixed {
            entropy: f.contribution.clone(),
            contribution: f.entropy.clone(),
        };
        assert!(
            swapped
                .check(7, &root, ("k5", "k3"))
                .unwrap_err()
                .contains("before")
        );
        let mut edited = f.clone();
        edited.contribution.payload = "{\"x\":1}".into();
        assert!(
            edited
                .check(7, &root, ("k3", "k5"))
                .unwrap_err()
                .contains("not in the trail")
        );
        let mut moved = f.clone();
        moved.entropy.seq = 2;
        assert!(moved.check(7, &root, ("k3", "k5")).is_err());
        assert!(f.check(6, &root, ("k3", "k5")).is_err());
    }
}
