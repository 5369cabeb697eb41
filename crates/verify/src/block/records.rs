//! What an instant-game block records in the audit trail (spec/formats.md §6.2): one payload type per
//! `block.*` kind, named in the registry (`events::kinds`); the state of a block identity derived
//! from them is `urne_ceremony::state::block`. Each payload's fields are in the order they are stored, and a
//! payload with a member the type does not define does not parse.

use super::BlockId;
use crate::crypto::Hash32;
use crate::values::Attempt;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The `block.entropy` record (spec/appliance.md §3.1, spec/formats.md §3.2, §6.2): the block's entropy, recorded before
/// use, sealed by the token's key in a blob named by its hash, and committed to before the
/// commissaire's contribution exists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntropyRecord {
    /// The block's canonical id (spec/formats.md §5.B2).
    pub block: BlockId,
    /// The attempt generated (1 + the voids of this block before it).
    pub attempt: Attempt,
    /// SHA-256 of the game rules file the block is generated under (spec/formats.md §5.B3).
    pub rules_sha256: Hash32,
    /// `tagged_hash("urne/v2/entropy-commitment", [entropy])` (spec/formats.md §3.2).
    pub entropy_commitment: Hash32,
    /// SHA-256 of the blob that holds the entropy, sealed by the token's key (spec/appliance.md §3.4).
    pub entropy_blob: Hash32,
}

/// One block a contribution applies to, with the entropy commitment it follows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContributedBlock {
    /// The block's canonical id (spec/formats.md §5.B2).
    pub block: BlockId,
    /// Its attempt.
    pub attempt: Attempt,
    /// Its `block.entropy` event's entropy commitment.
    pub entropy_commitment: Hash32,
}

/// The `block.contribution` record (spec/appliance.md §4.4.1, §5.B3, §6.2): the commissaire's
/// contribution for the blocks of one `urne block generate`, typed after their entropy
/// commitments were recorded and shown, recorded before anything is computed from it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContributionRecord {
    /// The blocks it applies to, in order, each once.
    pub blocks: Vec<ContributedBlock>,
    /// The commissaire's contribution, as typed and confirmed (spec/formats.md §4.4.1).
    pub contribution: String,
}

/// The `block.generated` record (spec/formats.md §6.2): what the generated block commits to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneratedRecord {
    /// The block's canonical id (spec/formats.md §5.B2).
    pub block: BlockId,
    /// The attempt generated.
    pub attempt: Attempt,
    /// The RFC 6962 root over the block's ordered tickets (spec/formats.md §5.B7).
    pub outcomes_root: Hash32,
    /// The commitment to the block's seed (spec/formats.md §5.B3).
    pub seed_commitment: Hash32,
    /// SHA-256 of the block's secret production file `tickets.csv` (spec/formats.md §5.B6).
    pub tickets_sha256: Hash32,
}

/// The `block.published` record (spec/formats.md §6.2): the folder the signed commitment and the
/// production file were published into.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PublishedRecord {
    /// The block's canonical id (spec/formats.md §5.B2).
    pub block: BlockId,
    /// The attempt published.
    pub attempt: Attempt,
    /// The output folder as the operator gave it.
    pub out: String,
    /// The SHA-256 of every file written, by file name.
    pub files: BTreeMap<String, Hash32>,
    /// Version 2: the output's primary file and its checkpoint, which the next output names as
    /// its predecessor (spec/formats.md §6.7); recorded in this one event so that no kill separates
    /// the publication from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<crate::audit::history::OutputPublished>,
}

/// The `block.revealed` record (spec/formats.md §6.2): the entropy and the seed, made public.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RevealedRecord {
    /// The block's canonical id (spec/formats.md §5.B2).
    pub block: BlockId,
    /// The attempt revealed.
    pub attempt: Attempt,
    /// The HSM's 48 bytes of entropy (spec/appliance.md §3.1), hex.
    pub entropy: String,
    /// The block seed derived from it (spec/formats.md §5.B3).
    pub seed: Hash32,
    /// When the block's sales closed, as production stated it at the reveal, in urne's one
    /// time format (RFC 3339 UTC with microseconds, spec/formats.md §6.1).
    pub sales_closed_at: String,
}

/// The `block.void` record: a block's attempt annulled; the identity may be generated again
/// as the next attempt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VoidRecord {
    /// The block's canonical id (spec/formats.md §5.B2).
    pub block: BlockId,
    /// The attempt voided.
    pub attempt: Attempt,
    /// The reason given, as the witness signs it.
    pub reason: String,
}

/// The `block.proof` record (spec/formats.md §5.B9): a signed ticket proof issued for one position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProofRecord {
    /// The block's canonical id (spec/formats.md §5.B2).
    pub block: BlockId,
    /// The ticket's position in the block.
    pub position: u32,
    /// SHA-256 of the proof file written.
    pub file_sha256: Hash32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const ID: &str = "noel-de-la-chance-2015/100/e1/1";
    const H0: &str = "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d";
    const H1: &str = "4bf5122f344554c53bde2ebb8cd2b7e3d1600ad631c385a5d7cce23c7785459a";
    const H2: &str = "dbc1b4c900ffe48d575b5da5c638040125f65db0fe3e24494b76ea986457d986";
    const H3: &str = "084fed08b978af4d7d196a7446a86b58009e636b611db16211b65a9aadff29c5";
    const E48: &str = "8d182905e535537a32cc0c475403d1fe78ee541a40d61e0b306d7541ed8dbb63d550dab383d0fca0e23448af99bffe10";

    fn h(hex: &str) -> Hash32 {
        Hash32::from_hex(hex).unwrap()
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

    #[test]
    fn records_serialise_to_the_bytes_the_json_payloads_stored() {
        let entropy = EntropyRecord {
            block: ID.parse().unwrap(),
            attempt: crate::values::Attempt::new(1).unwrap(),
            rules_sha256: h(H0),
            entropy_commitment: h(H1),
            entropy_blob: h(H0),
        };
        same_bytes(
            &entropy,
            r#"{"block":"noel-de-la-chance-2015/100/e1/1","attempt":1,"rules_sha256":"6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d","entropy_commitment":"4bf5122f344554c53bde2ebb8cd2b7e3d1600ad631c385a5d7cce23c7785459a","entropy_blob":"6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d"}"#,
            &json!({"block": ID, "attempt": 1u32, "rules_sha256": H0, "entropy_commitment": H1, "entropy_blob": H0}),
        );
        let generated = GeneratedRecord {
            block: ID.parse().unwrap(),
            attempt: crate::values::Attempt::new(2).unwrap(),
            outcomes_root: h(H0),
            seed_commitment: h(H1),
            tickets_sha256: h(H2),
        };
        same_bytes(
            &generated,
            r#"{"block":"noel-de-la-chance-2015/100/e1/1","attempt":2,"outcomes_root":"6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d","seed_commitment":"4bf5122f344554c53bde2ebb8cd2b7e3d1600ad631c385a5d7cce23c7785459a","tickets_sha256":"dbc1b4c900ffe48d575b5da5c638040125f65db0fe3e24494b76ea986457d986"}"#,
            &json!({"block": ID, "attempt": 2u32, "outcomes_root": h(H0), "seed_commitment": h(H1), "tickets_sha256": h(H2)}),
        );
        let files: BTreeMap<String, Hash32> = [
            ("b.tickets.csv".to_string(), h(H1)),
            ("a.commit.json".to_string(), h(H0)),
        ]
        .into();
        let published = PublishedRecord {
            block: ID.parse().unwrap(),
            attempt: crate::values::Attempt::new(1).unwrap(),
            out: "/media/usb/blocks".into(),
            files: files.clone(),
            output: None,
        };
        same_bytes(
            &published,
            r#"{"block":"noel-de-la-chance-2015/100/e1/1","attempt":1,"out":"/media/usb/blocks","files":{"a.commit.json":"6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d","b.tickets.csv":"4bf5122f344554c53bde2ebb8cd2b7e3d1600ad631c385a5d7cce23c7785459a"}}"#,
            &json!({"block": ID, "attempt": 1u32, "out": "/media/usb/blocks", "files": files}),
        );
        let revealed = RevealedRecord {
            block: ID.parse().unwrap(),
            attempt: crate::values::Attempt::new(1).unwrap(),
            entropy: E48.into(),
            seed: h(H3),
            sales_closed_at: "2015-12-31T22:59:59.000000Z".into(),
        };
        same_bytes(
            &revealed,
            r#"{"block":"noel-de-la-chance-2015/100/e1/1","attempt":1,"entropy":"8d182905e535537a32cc0c475403d1fe78ee541a40d61e0b306d7541ed8dbb63d550dab383d0fca0e23448af99bffe10","seed":"084fed08b978af4d7d196a7446a86b58009e636b611db16211b65a9aadff29c5","sales_closed_at":"2015-12-31T22:59:59.000000Z"}"#,
            &json!({"block": ID, "attempt": 1u32, "entropy": E48, "seed": H3, "sales_closed_at": "2015-12-31T22:59:59.000000Z"}),
        );
        let void = VoidRecord {
            block: ID.parse().unwrap(),
            attempt: crate::values::Attempt::new(3).unwrap(),
            reason: "misprint \"é\"".into(),
        };
        same_bytes(
            &void,
            r#"{"block":"noel-de-la-chance-2015/100/e1/1","attempt":3,"reason":"misprint \"é\""}"#,
            &json!({"block": ID, "attempt": 3u32, "reason": "misprint \"é\""}),
        );
    }
}
