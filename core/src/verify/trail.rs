//! Verification of the audit trail (SPEC.md §6.4): the events are exactly 1 … n and chain, and
//! every checkpoint (stored with the trail or held by the user) verifies under the audit key
//! and has the root of the tree over the events it covers. The store (reading the events and
//! checking the blobs) is the caller's.

use crate::audit::Event;
use crate::audit::chain::{self, ChainFailure};
use crate::crypto::{Hash32, parse_hex32};
use std::path::PathBuf;

/// The audit public key recorded by `keys init` (the first `keys.generated` event).
pub fn recorded_audit_key(events: &[Event]) -> Option<[u8; 32]> {
    let e = events.iter().find(|e| e.kind == "keys.generated")?;
    let v: serde_json::Value = serde_json::from_str(&e.payload).ok()?;
    v["keys"].as_array()?.iter().find_map(|k| {
        (k["role"] == "audit")
            .then(|| k["public_key"].as_str().and_then(parse_hex32))
            .flatten()
    })
}

/// The outcome of checking a trail: how much is vouched for by signatures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrailReport {
    /// Events in the trail.
    pub events: u64,
    /// Checkpoints verified (stored and held).
    pub checkpoints: usize,
    /// Events covered by the largest verified checkpoint.
    pub covered: u64,
}

impl TrailReport {
    /// `--strict` (§6.4): events after the last checkpoint are a failure, at the first of them.
    pub fn check_strict(&self) -> Result<(), ChainFailure> {
        if self.covered < self.events {
            return Err(ChainFailure {
                seq: self.covered + 1,
                reason: format!(
                    "events {}..{} are not covered by a signed checkpoint",
                    self.covered + 1,
                    self.events
                ),
            });
        }
        Ok(())
    }
}

/// Verifies a trail (events + stored notes + externally held notes) under `audit_key`: the
/// chain first, then each stored checkpoint `(size, note)` in order, then each held one
/// `(path, note)`. Returns the first failure.
pub fn verify_trail(
    events: &[Event],
    stored: &[(u64, String)],
    held: &[(PathBuf, String)],
    audit_key: Option<[u8; 32]>,
) -> Result<TrailReport, ChainFailure> {
    chain::verify_chain(events)?;
    let hashes: Vec<Hash32> = events.iter().map(|e| e.hash).collect();
    let notes: Vec<(String, &str)> = stored
        .iter()
        .map(|(s, n)| (format!("stored checkpoint at size {s}"), n.as_str()))
        .chain(
            held.iter()
                .map(|(p, n)| (format!("checkpoint {}", p.display()), n.as_str())),
        )
        .collect();
    if notes.is_empty() {
        return Ok(TrailReport {
            events: events.len() as u64,
            checkpoints: 0,
            covered: 0,
        });
    }
    let Some(key) = audit_key else {
        return Err(ChainFailure {
            seq: 1,
            reason: "checkpoints exist but no audit key is known to check them (no keys.generated event; pass --audit-key)".into(),
        });
    };
    let mut covered = 0u64;
    let mut last_good = 0u64;
    for (i, (what, note)) in notes.iter().enumerate() {
        let cp = chain::verify_note(note, &key).map_err(|why| ChainFailure {
            seq: if i < stored.len() {
                stored[i].0.max(1)
            } else {
                1
            },
            reason: format!("{what}: {why}"),
        })?;
        chain::check_against(&cp, &hashes, last_good).map_err(|mut f| {
            f.reason = format!("{what}: {}", f.reason);
            f
        })?;
        if i < stored.len() {
            last_good = cp.size;
        }
        covered = covered.max(cp.size);
    }
    Ok(TrailReport {
        events: events.len() as u64,
        checkpoints: notes.len(),
        covered,
    })
}
