//! Where an output stands in the trail's history (spec/formats.md §6.7): every version-2 result, block
//! commitment and reveal names its trail, the output published before it (its predecessor: the
//! SHA-256 of its primary file and the size and root of its checkpoint) and an RFC 6962
//! consistency proof from that checkpoint to its own. Two outputs naming the same predecessor,
//! or checkpoints that are not consistent, are a fork (checked by `verify::history`).

use super::chain::{Event, PrefixRoots};
use crate::crypto::{Hash32, merkle};
use serde::{Deserialize, Serialize};

/// The output published before this one, as the trail recorded it (`output.published`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Predecessor {
    /// The SHA-256 of its primary file (`bundle.json`, `S.commit.json`, `S.reveal.json`).
    pub sha256: Hash32,
    /// The size of the checkpoint it carries.
    pub checkpoint_size: u64,
    /// The root of that checkpoint.
    pub checkpoint_root: Hash32,
}

/// An output's place in the history (the `history` member of a version-2 output).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct History {
    /// The trail's identity (spec/appliance.md §6.6).
    pub trail: Hash32,
    /// The output published before it; `null` for the trail's first output. The member is
    /// required: `null`, never absent (spec/formats.md §6.7, §1.5).
    #[serde(deserialize_with = "Option::deserialize")]
    #[cfg_attr(
        test,
        schemars(required, schema_with = "crate::schemas::nullable::<Predecessor>")
    )]
    pub predecessor: Option<Predecessor>,
    /// The RFC 9162 §2.1.4 proof that the predecessor's checkpoint is a prefix of this output's
    /// (empty without a predecessor, or when both checkpoints have the same size).
    pub consistency: Vec<Hash32>,
    /// On a trail made by a witnessed restart (spec/appliance.md §6.8): the trail it replaced and the
    /// token's last mark of it. Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart: Option<Restart>,
}

/// The trail a restarted trail replaced, as every output of the new trail states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Restart {
    /// The trail replaced.
    pub previous_trail: Hash32,
    /// The token's last mark of it: its size.
    pub previous_mark_size: u64,
    /// The token's last mark of it: its root.
    pub previous_mark_root: Hash32,
}

/// The `output.published` record: an output placed, named for the next one's predecessor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputPublished {
    /// The output's primary file, by name.
    pub file: String,
    /// Its SHA-256.
    pub sha256: Hash32,
    /// The size of the checkpoint it carries.
    pub checkpoint_size: u64,
    /// The root of that checkpoint.
    pub checkpoint_root: Hash32,
}

/// The `output.placing` record (spec/appliance.md §6.2, §6.7): an output about to be moved into its
/// folder, recorded before the first of its files is; its publication record follows. A run
/// that finds it not followed by that record looks in `out` only: a complete output there
/// (every file of `files` with its SHA-256) is recorded as published, never made again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputPlacing {
    /// The folder, as the operator gave it.
    pub out: String,
    /// The output's primary file, by name (`bundle.json`, `S.reveal.json`, …).
    pub file: String,
    /// What the output publishes.
    pub subject: Subject,
    /// The SHA-256 of every file the output places (signatures and public keys aside), by name.
    pub files: std::collections::BTreeMap<String, Hash32>,
}

/// What an output publishes: one output per subject, ever (spec/formats.md §6.7).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Subject {
    /// A day's attempt drawn.
    Draw {
        /// The day, `YYYY-MM-DD`.
        day: crate::values::Day,
        /// The attempt.
        attempt: crate::values::Attempt,
    },
    /// A block's attempt committed.
    Block {
        /// The block id.
        block: crate::values::BlockId,
        /// The attempt.
        attempt: crate::values::Attempt,
    },
    /// A block's attempt revealed.
    Reveal {
        /// The block id.
        block: crate::values::BlockId,
        /// The attempt.
        attempt: crate::values::Attempt,
    },
    /// The notice of the void recorded at audit event `void_seq`.
    VoidNotice {
        /// The `draw.void` or `block.void` event.
        void_seq: u64,
    },
    /// A sitting's minutes.
    Sitting {
        /// The sitting's number.
        number: u32,
    },
}

/// One version-2 output, as a verifier found it: its primary file, that file's SHA-256, its
/// history and its (signature-checked) checkpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// The primary file's path, for messages.
    pub name: String,
    /// The primary file's SHA-256.
    pub sha256: Hash32,
    /// Its `history` member.
    pub history: History,
    /// Its checkpoint, verified under the audit key.
    pub checkpoint: super::chain::Checkpoint,
    /// What it publishes (e.g. a day's attempt drawn, a block's attempt committed), when the
    /// verifier knows: one history publishes each at most once (spec/formats.md §8.4).
    pub subject: Option<crate::subject::Publishes>,
}

/// The members of a `trail.restarted` record that a history names (the record's whole format is
/// the event registry's, `crate::events::payloads::TrailRestarted`; the trail was checked
/// against it before any history is made from it).
#[derive(Deserialize)]
#[allow(clippy::struct_field_names, reason = "the record's own member names")]
struct RestartMembers {
    previous_trail: Hash32,
    previous_mark_size: u64,
    previous_mark_root: Hash32,
}

/// The history of an output whose checkpoint covers the whole trail as it stands (its events'
/// `hashes`, in order, and its event 1, `first`), whose predecessor is `last_published`, the last
/// output the trail records as published.
///
/// # Errors
/// A predecessor that claims a checkpoint the trail does not have (larger than the trail, or
/// with another root): the trail was altered.
pub fn history_of(
    trail: Hash32,
    first: Option<&Event>,
    hashes: &[Hash32],
    last_published: Option<&OutputPublished>,
) -> Result<History, String> {
    let restart = first
        .filter(|e| e.kind == "trail.restarted")
        .and_then(|e| serde_json::from_str::<RestartMembers>(&e.payload).ok())
        .map(|r| Restart {
            previous_trail: r.previous_trail,
            previous_mark_size: r.previous_mark_size,
            previous_mark_root: r.previous_mark_root,
        });
    let Some(p) = last_published else {
        return Ok(History {
            trail,
            predecessor: None,
            consistency: vec![],
            restart,
        });
    };
    let roots = PrefixRoots::at(hashes, [p.checkpoint_size]);
    if roots.root_at(p.checkpoint_size) != Some(p.checkpoint_root) {
        return Err(format!(
            "the output published before ({}) names a checkpoint of size {} that is not this trail's",
            p.file, p.checkpoint_size
        ));
    }
    let leaves: Vec<Hash32> = hashes.iter().map(|h| merkle::leaf_hash(h)).collect();
    let m = usize::try_from(p.checkpoint_size).map_err(|e| e.to_string())?;
    Ok(History {
        trail,
        predecessor: Some(Predecessor {
            sha256: p.sha256,
            checkpoint_size: p.checkpoint_size,
            checkpoint_root: p.checkpoint_root,
        }),
        consistency: merkle::consistency_proof(m, &leaves),
        restart,
    })
}

/// Checks an output's own history against its own checkpoint `(size, root)`: the consistency
/// proof leads from the predecessor's checkpoint to it (and is empty without a predecessor).
///
/// # Errors
/// What does not hold, in words.
pub fn check_own(h: &History, size: u64, root: &Hash32) -> Result<(), String> {
    match &h.predecessor {
        None if h.consistency.is_empty() => Ok(()),
        None => Err("a consistency proof without a predecessor".into()),
        Some(p) if p.checkpoint_size == size => {
            if p.checkpoint_root == *root && h.consistency.is_empty() {
                Ok(())
            } else {
                Err(format!(
                    "its checkpoint and its predecessor's have the same size {size} but differ"
                ))
            }
        }
        Some(p) if p.checkpoint_size > size => Err(format!(
            "its predecessor's checkpoint ({} events) is larger than its own ({size})",
            p.checkpoint_size
        )),
        Some(p) => {
            if merkle::verify_consistency(
                p.checkpoint_size,
                size,
                &p.checkpoint_root,
                root,
                &h.consistency,
            ) {
                Ok(())
            } else {
                Err(format!(
                    "the consistency proof from its predecessor's checkpoint ({} events) to its own ({size}) does not verify",
                    p.checkpoint_size
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::chain::{event_hash, tree_root};

    fn events(n: u64) -> Vec<Event> {
        let mut prev = Hash32::ZERO;
        (1..=n)
            .map(|seq| {
                let payload = format!("{{\"n\":{seq}}}");
                let hash = event_hash(&prev, seq, "t", "k", &payload);
                let e = Event {
                    seq,
                    ts: "t".into(),
                    kind: "k".into(),
                    payload,
                    prev_hash: prev,
                    hash,
                };
                prev = hash;
                e
            })
            .collect()
    }

    fn root(ev: &[Event]) -> Hash32 {
        tree_root(&ev.iter().map(|e| e.hash).collect::<Vec<_>>())
    }

    #[test]
    fn an_output_proves_it_extends_its_predecessor() {
        let ev = events(13);
        let trail = Hash32([3; 32]);
        let hashes = |ev: &[Event]| ev.iter().map(|e| e.hash).collect::<Vec<_>>();
        let first = history_of(trail, ev.first(), &hashes(&ev[..5]), None).unwrap();
        assert_eq!(first.predecessor, None);
        assert_eq!(check_own(&first, 5, &root(&ev[..5])), Ok(()));
        let p = OutputPublished {
            file: "bundle.json".into(),
            sha256: Hash32([9; 32]),
            checkpoint_size: 5,
            checkpoint_root: root(&ev[..5]),
        };
        let h = history_of(trail, ev.first(), &hashes(&ev), Some(&p)).unwrap();
        assert_eq!(check_own(&h, 13, &root(&ev)), Ok(()));
        // Another history of the same trail after event 5 does not extend it.
        let mut forked = events(13);
        forked[7].payload.push(' ');
        assert!(check_own(&h, 13, &root(&forked[..7])).is_err());
        let mut other = h.clone();
        other.consistency[0].0[0] ^= 1;
        assert!(check_own(&other, 13, &root(&ev)).is_err());
        // A predecessor checkpoint the trail does not have is refused when building.
        let bad = OutputPublished {
            checkpoint_root: Hash32([1; 32]),
            ..p
        };
        assert!(history_of(trail, ev.first(), &hashes(&ev), Some(&bad)).is_err());
    }

    /// An output's `history` member, as the output files declare it.
    #[derive(Deserialize)]
    struct Out {
        #[serde(default, deserialize_with = "crate::json::present")]
        history: Option<History>,
    }

    #[test]
    fn a_history_states_its_predecessor_and_a_present_member_is_a_history() {
        let trail = "11".repeat(32);
        let first = format!(r#"{{"trail":"{trail}","predecessor":null,"consistency":[]}}"#);
        assert!(serde_json::from_str::<History>(&first).is_ok());
        // `predecessor` is null for a first output, never absent (spec/formats.md §6.7).
        let absent = format!(r#"{{"trail":"{trail}","consistency":[]}}"#);
        assert!(serde_json::from_str::<History>(&absent).is_err());
        // An output's `history` member: absent is none, `null` is not absent.
        assert!(serde_json::from_str::<Out>("{}").unwrap().history.is_none());
        assert!(serde_json::from_str::<Out>(r#"{"history":null}"#).is_err());
        let some = format!(r#"{{"history":{first}}}"#);
        assert!(
            serde_json::from_str::<Out>(&some)
                .unwrap()
                .history
                .is_some()
        );
    }
}
