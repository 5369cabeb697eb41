//! What an instant-game block records in the audit trail (SPEC.md §6.2), and the state of a
//! block identity derived from those records: the trail is the only source of truth for
//! "generated", "published", "revealed", "voided".

use crate::audit::Event;
use crate::crypto::Hash32;
use crate::draw::records::MalformedRecord;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Kind of the event recording a block's entropy, by hash, before use ([`EntropyRecord`]).
pub const ENTROPY: &str = "block.entropy";
/// Kind of the event recording what a generated block commits to ([`GeneratedRecord`]).
pub const GENERATED: &str = "block.generated";
/// Kind of the event recording a block's published files ([`PublishedRecord`]).
pub const PUBLISHED: &str = "block.published";
/// Kind of the event recording a block's reveal ([`RevealedRecord`]).
pub const REVEALED: &str = "block.revealed";
/// Kind of the event voiding a block's attempt ([`VoidRecord`]).
pub const VOID: &str = "block.void";

/// The `block.entropy` record (SPEC.md §3.1, §6.2): the block's randomness, recorded before
/// use as a secret blob named by its hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntropyRecord {
    /// The block's canonical id (SPEC.md §5.B2).
    pub block: String,
    /// The attempt generated (1 + the voids of this block before it).
    pub attempt: u32,
    /// SHA-256 of the game rules file the block is generated under (SPEC.md §5.B3).
    pub rules_sha256: Hash32,
    /// SHA-256 of the HSM's 48 bytes of entropy, the name of the secret blob holding them.
    pub entropy_sha256: Hash32,
}

/// The `block.generated` record (SPEC.md §6.2): what the generated block commits to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneratedRecord {
    /// The block's canonical id (SPEC.md §5.B2).
    pub block: String,
    /// The attempt generated.
    pub attempt: u32,
    /// The RFC 6962 root over the block's ordered tickets (SPEC.md §5.B7).
    pub outcomes_root: Hash32,
    /// The commitment to the block's seed (SPEC.md §5.B3).
    pub seed_commitment: Hash32,
    /// SHA-256 of the block's secret production file `tickets.csv` (SPEC.md §5.B6).
    pub tickets_sha256: Hash32,
}

/// The `block.published` record (SPEC.md §6.2): the folder the signed commitment and the
/// production file were published into.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublishedRecord {
    /// The block's canonical id (SPEC.md §5.B2).
    pub block: String,
    /// The attempt published.
    pub attempt: u32,
    /// The output folder as the operator gave it.
    pub out: String,
    /// The SHA-256 of every file written, by file name.
    pub files: BTreeMap<String, Hash32>,
}

/// The `block.revealed` record (SPEC.md §6.2): the entropy and the seed, made public.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevealedRecord {
    /// The block's canonical id (SPEC.md §5.B2).
    pub block: String,
    /// The attempt revealed.
    pub attempt: u32,
    /// The HSM's 48 bytes of entropy (SPEC.md §3.1), hex.
    pub entropy: String,
    /// The block seed derived from it (SPEC.md §5.B3).
    pub seed: Hash32,
}

/// The `block.void` record: a block's attempt annulled; the identity may be generated again
/// as the next attempt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VoidRecord {
    /// The block's canonical id (SPEC.md §5.B2).
    pub block: String,
    /// The attempt voided.
    pub attempt: u32,
    /// The reason given, as the witness signs it.
    pub reason: String,
}

/// The state of one block identity, derived from the trail.
#[derive(Debug, Default)]
pub struct BlockState {
    /// The current attempt (1 + the number of voids).
    pub attempt: u32,
    /// The block's voids, in order, with their events' sequence numbers.
    pub voided: Vec<(u64, VoidRecord)>,
    /// The current attempt's recorded entropy (the last such record).
    pub entropy: Option<EntropyRecord>,
    /// The current attempt's `block.generated` record.
    pub generated: Option<GeneratedRecord>,
    /// The current attempt's `block.published` record.
    pub published: Option<PublishedRecord>,
    /// The current attempt's `block.revealed` record.
    pub revealed: Option<RevealedRecord>,
    /// Every `block.entropy` record of this block, of any attempt, in trail order.
    entropies: Vec<EntropyRecord>,
}

/// Parses the payload of event `e` as its kind's record.
fn record<T: serde::de::DeserializeOwned>(e: &Event) -> Result<T, MalformedRecord> {
    serde_json::from_str(&e.payload).map_err(|err| malformed(e, err.to_string()))
}

fn malformed(e: &Event, reason: String) -> MalformedRecord {
    MalformedRecord {
        seq: e.seq,
        kind: e.kind.clone(),
        reason,
    }
}

impl BlockState {
    /// Reads the trail's events for the block `canonical_id`. Every `block.entropy`,
    /// `block.generated`, `block.published`, `block.revealed` and `block.void` event must
    /// parse as its kind's record, whichever block it names: one that does not is an error
    /// (the trail was altered), never skipped. Events of other kinds are ignored. A void
    /// starts the next attempt afresh; records of other attempts than the current one are
    /// kept out of the current state.
    pub fn from_events(
        events: &[Event],
        canonical_id: &str,
    ) -> Result<BlockState, MalformedRecord> {
        let mut st = BlockState {
            attempt: 1,
            ..Default::default()
        };
        for e in events {
            match e.kind.as_str() {
                VOID => {
                    let r: VoidRecord = record(e)?;
                    if r.block != canonical_id {
                        continue;
                    }
                    let next = r.attempt.checked_add(1).ok_or_else(|| {
                        malformed(e, format!("attempt {} cannot be voided", r.attempt))
                    })?;
                    st.voided.push((e.seq, r));
                    st = BlockState {
                        attempt: next,
                        voided: std::mem::take(&mut st.voided),
                        entropies: std::mem::take(&mut st.entropies),
                        ..Default::default()
                    };
                }
                ENTROPY => {
                    let r: EntropyRecord = record(e)?;
                    if r.block == canonical_id {
                        if r.attempt == st.attempt {
                            st.entropy = Some(r.clone());
                        }
                        st.entropies.push(r);
                    }
                }
                GENERATED => {
                    let r: GeneratedRecord = record(e)?;
                    if st.is_current(&r.block, r.attempt, canonical_id) {
                        st.generated = Some(r);
                    }
                }
                PUBLISHED => {
                    let r: PublishedRecord = record(e)?;
                    if st.is_current(&r.block, r.attempt, canonical_id) {
                        st.published = Some(r);
                    }
                }
                REVEALED => {
                    let r: RevealedRecord = record(e)?;
                    if st.is_current(&r.block, r.attempt, canonical_id) {
                        st.revealed = Some(r);
                    }
                }
                _ => {}
            }
        }
        Ok(st)
    }

    /// Whether a record naming `block` and `attempt` is one of this block's current attempt.
    fn is_current(&self, block: &str, attempt: u32, canonical_id: &str) -> bool {
        block == canonical_id && attempt == self.attempt
    }

    /// The rules hash recorded with the current attempt's entropy: that of the block's first
    /// `block.entropy` record (of any attempt) with the same entropy hash, as the reveal has
    /// always looked it up. In a trail urne wrote, it is the current attempt's own record.
    pub fn entropy_rules_sha256(&self) -> Option<Hash32> {
        let eh = self.entropy.as_ref()?.entropy_sha256;
        self.entropies
            .iter()
            .find(|r| r.entropy_sha256 == eh)
            .map(|r| r.rules_sha256)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const ID: &str = "noel-de-la-chance-2015/100/E1/1";
    const H0: &str = "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d";
    const H1: &str = "4bf5122f344554c53bde2ebb8cd2b7e3d1600ad631c385a5d7cce23c7785459a";
    const H2: &str = "dbc1b4c900ffe48d575b5da5c638040125f65db0fe3e24494b76ea986457d986";
    const H3: &str = "084fed08b978af4d7d196a7446a86b58009e636b611db16211b65a9aadff29c5";
    const E48: &str = "8d182905e535537a32cc0c475403d1fe78ee541a40d61e0b306d7541ed8dbb63d550dab383d0fca0e23448af99bffe10";

    fn h(hex: &str) -> Hash32 {
        Hash32::from_hex(hex).unwrap()
    }

    fn event(seq: u64, kind: &str, payload: &str) -> Event {
        Event {
            seq,
            ts: "2018-12-05T09:00:00.000000Z".into(),
            kind: kind.into(),
            payload: payload.into(),
            prev_hash: Hash32::ZERO,
            hash: Hash32::ZERO,
        }
    }

    /// `r` serialises to exactly `expected` (the bytes the appliance's `json!` payloads
    /// stored), which is also what `json` gives, and parses back to itself.
    fn same_bytes<T>(r: &T, expected: &str, json: &serde_json::Value)
    where
        T: Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        assert_eq!(serde_json::to_string(r).unwrap(), expected);
        assert_eq!(
            serde_json::to_string(&serde_json::to_value(r).unwrap()).unwrap(),
            expected
        );
        assert_eq!(serde_json::to_string(json).unwrap(), expected);
        assert_eq!(&serde_json::from_str::<T>(expected).unwrap(), r);
    }

    fn entropy(attempt: u32, rules: &str, eh: &str) -> String {
        format!(
            r#"{{"block":"{ID}","attempt":{attempt},"rules_sha256":"{rules}","entropy_sha256":"{eh}"}}"#
        )
    }

    fn generated(attempt: u32) -> String {
        format!(
            r#"{{"block":"{ID}","attempt":{attempt},"outcomes_root":"{H0}","seed_commitment":"{H1}","tickets_sha256":"{H2}"}}"#
        )
    }

    fn published(attempt: u32) -> String {
        format!(
            r#"{{"block":"{ID}","attempt":{attempt},"out":"out","files":{{"a.commit.json":"{H0}"}}}}"#
        )
    }

    fn revealed(attempt: u32) -> String {
        format!(r#"{{"block":"{ID}","attempt":{attempt},"entropy":"{E48}","seed":"{H3}"}}"#)
    }

    fn void(attempt: u32) -> String {
        format!(r#"{{"block":"{ID}","attempt":{attempt},"reason":"misprint"}}"#)
    }

    #[test]
    fn records_serialise_to_the_bytes_the_json_payloads_stored() {
        let entropy = EntropyRecord {
            block: ID.into(),
            attempt: 1,
            rules_sha256: h(H0),
            entropy_sha256: h(H1),
        };
        same_bytes(
            &entropy,
            r#"{"block":"noel-de-la-chance-2015/100/E1/1","attempt":1,"rules_sha256":"6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d","entropy_sha256":"4bf5122f344554c53bde2ebb8cd2b7e3d1600ad631c385a5d7cce23c7785459a"}"#,
            &json!({"block": ID, "attempt": 1u32, "rules_sha256": H0, "entropy_sha256": H1}),
        );
        let generated = GeneratedRecord {
            block: ID.into(),
            attempt: 2,
            outcomes_root: h(H0),
            seed_commitment: h(H1),
            tickets_sha256: h(H2),
        };
        same_bytes(
            &generated,
            r#"{"block":"noel-de-la-chance-2015/100/E1/1","attempt":2,"outcomes_root":"6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d","seed_commitment":"4bf5122f344554c53bde2ebb8cd2b7e3d1600ad631c385a5d7cce23c7785459a","tickets_sha256":"dbc1b4c900ffe48d575b5da5c638040125f65db0fe3e24494b76ea986457d986"}"#,
            &json!({"block": ID, "attempt": 2u32, "outcomes_root": h(H0), "seed_commitment": h(H1), "tickets_sha256": h(H2)}),
        );
        let files: BTreeMap<String, Hash32> = [
            ("b.tickets.csv".to_string(), h(H1)),
            ("a.commit.json".to_string(), h(H0)),
        ]
        .into();
        let published = PublishedRecord {
            block: ID.into(),
            attempt: 1,
            out: "/media/usb/blocks".into(),
            files: files.clone(),
        };
        same_bytes(
            &published,
            r#"{"block":"noel-de-la-chance-2015/100/E1/1","attempt":1,"out":"/media/usb/blocks","files":{"a.commit.json":"6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d","b.tickets.csv":"4bf5122f344554c53bde2ebb8cd2b7e3d1600ad631c385a5d7cce23c7785459a"}}"#,
            &json!({"block": ID, "attempt": 1u32, "out": "/media/usb/blocks", "files": files}),
        );
        let revealed = RevealedRecord {
            block: ID.into(),
            attempt: 1,
            entropy: E48.into(),
            seed: h(H3),
        };
        same_bytes(
            &revealed,
            r#"{"block":"noel-de-la-chance-2015/100/E1/1","attempt":1,"entropy":"8d182905e535537a32cc0c475403d1fe78ee541a40d61e0b306d7541ed8dbb63d550dab383d0fca0e23448af99bffe10","seed":"084fed08b978af4d7d196a7446a86b58009e636b611db16211b65a9aadff29c5"}"#,
            &json!({"block": ID, "attempt": 1u32, "entropy": E48, "seed": H3}),
        );
        let void = VoidRecord {
            block: ID.into(),
            attempt: 3,
            reason: "misprint \"é\"".into(),
        };
        same_bytes(
            &void,
            r#"{"block":"noel-de-la-chance-2015/100/E1/1","attempt":3,"reason":"misprint \"é\""}"#,
            &json!({"block": ID, "attempt": 3u32, "reason": "misprint \"é\""}),
        );
    }

    #[test]
    fn the_state_follows_attempts_and_voids() {
        let other = "noel-de-la-chance-2015/100/E1/2";
        let trail = [
            event(1, "software.start", "not a record"),
            event(2, ENTROPY, &entropy(1, H0, H1)),
            event(3, GENERATED, &generated(1)),
            event(4, PUBLISHED, &published(1)),
            event(5, "block.unknown", "{"),
            event(6, ENTROPY, &entropy(1, H0, H2).replace(ID, other)),
        ];
        let st = BlockState::from_events(&trail, ID).unwrap();
        assert_eq!(st.attempt, 1);
        assert_eq!(st.entropy.as_ref().unwrap().entropy_sha256, h(H1));
        assert_eq!(st.generated.as_ref().unwrap().outcomes_root, h(H0));
        assert!(st.published.is_some() && st.revealed.is_none() && st.voided.is_empty());
        assert_eq!(st.entropy_rules_sha256(), Some(h(H0)));
        let o = BlockState::from_events(&trail, other).unwrap();
        assert!(o.generated.is_none() && o.entropy.is_some());

        // A void starts attempt 2 afresh; records of attempt 1 after it are not current.
        let mut trail = trail.to_vec();
        trail.push(event(7, VOID, &void(1)));
        trail.push(event(8, REVEALED, &revealed(1)));
        let st = BlockState::from_events(&trail, ID).unwrap();
        assert_eq!(st.attempt, 2);
        assert_eq!(st.voided.len(), 1);
        assert_eq!(
            (st.voided[0].0, st.voided[0].1.reason.as_str()),
            (7, "misprint")
        );
        assert!(st.entropy.is_none() && st.generated.is_none() && st.published.is_none());
        assert!(st.revealed.is_none() && st.entropy_rules_sha256().is_none());

        // Attempt 2, with entropy the HSM replayed from attempt 1 under other rules: the rules
        // hash is the first recorded with that entropy, as the reveal always read it.
        trail.push(event(9, ENTROPY, &entropy(2, H3, H1)));
        trail.push(event(10, GENERATED, &generated(2)));
        trail.push(event(11, PUBLISHED, &published(2)));
        trail.push(event(12, REVEALED, &revealed(2)));
        let st = BlockState::from_events(&trail, ID).unwrap();
        assert_eq!(st.attempt, 2);
        assert_eq!(st.entropy.as_ref().unwrap().rules_sha256, h(H3));
        assert_eq!(st.entropy_rules_sha256(), Some(h(H0)));
        assert!(st.generated.is_some() && st.published.is_some() && st.revealed.is_some());
    }

    fn malformed_at(kind: &str, payload: &str) -> MalformedRecord {
        let trail = [
            event(1, ENTROPY, &entropy(1, H0, H1)),
            event(2, kind, payload),
        ];
        let e = BlockState::from_events(&trail, ID).unwrap_err();
        assert_eq!((e.seq, e.kind.as_str()), (2, kind));
        e
    }

    #[test]
    fn a_malformed_record_of_each_kind_is_an_error() {
        let upper = |s: String, hex: &str| s.replace(hex, &hex.to_uppercase());
        let e = malformed_at(ENTROPY, &upper(entropy(1, H0, H1), H1));
        assert!(e.reason.contains("expected 64 hex digits"), "{e}");
        let e = malformed_at(GENERATED, &upper(generated(1), H0));
        assert!(e.reason.contains("expected 64 hex digits"), "{e}");
        assert_eq!(
            e.to_string(),
            format!(
                "audit event 2 (block.generated) is not a well-formed record: {}",
                e.reason
            )
        );
        malformed_at(PUBLISHED, &upper(published(1), H0));
        malformed_at(REVEALED, &upper(revealed(1), H3));
        malformed_at(VOID, &void(1).replace(":1,", ":\"1\","));
        // Missing fields, a payload that is not JSON, another block's altered record: errors
        // too, never skipped.
        malformed_at(GENERATED, &format!(r#"{{"block":"{ID}","attempt":1}}"#));
        malformed_at(REVEALED, "{");
        malformed_at(
            PUBLISHED,
            &published(1).replace(ID, "x").replace(":1,", ":-1,"),
        );
        // A void of the last attempt there can be cannot start another.
        let e = malformed_at(VOID, &void(u32::MAX));
        assert!(e.reason.contains("cannot be voided"), "{e}");
    }
}
