//! The files a daily draw publishes (spec/formats.md §4.7): `result.json` for production, `bundle.json`
//! for the public, `proof-*.json` for one participant. Written once from these structs (field
//! order fixed by the struct), signed over their exact bytes, and parsed back strictly
//! (`deny_unknown_fields`) only after their signature has been checked.

use crate::crypto::Hash32;
use crate::software::SoftwareIdentity;
use serde::{Deserialize, Serialize};

/// The `format` of `result.json` (spec/formats.md §4.7).
pub const RESULT_FORMAT: &str = "urne-draw-result";
/// The `format` of `bundle.json` (spec/formats.md §4.7).
pub const BUNDLE_FORMAT: &str = "urne-draw-bundle";
/// The `format` of an inclusion proof (spec/formats.md §4.8).
pub const PROOF_FORMAT: &str = "urne-inclusion-proof";
/// The name of the published leaves file, beside the bundle (spec/formats.md §4.7).
pub const LEAVES_FILE: &str = "leaves.bin";
/// The public bundle's file name in a draw folder: the draw output's primary file (spec/formats.md §6.7).
pub const BUNDLE_FILE_NAME: &str = "bundle.json";

/// The signed export a seal was made from.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ExportRef {
    /// SHA-256 of the export file's exact bytes, bound into the seed (spec/formats.md §4.4).
    pub sha256: Hash32,
    /// The export file's size in bytes.
    pub size: u64,
    /// Key id (spec/formats.md §1.3) of the producer key that signed the export (spec/formats.md §4.1.1).
    pub producer_key_id: String,
}

/// The figures the commissaire writes down (D-3 … D-6, D-13).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Figures {
    /// Id of the rules' period containing the day (spec/formats.md §4.7).
    pub period: String,
    /// That period's tranche, in cents: stakes per entry (D-4).
    pub tranche_cents: u64,
    /// Play records in the export.
    pub plays: u64,
    /// Plays that count (online, subscription inside the period; spec/formats.md §4.1.1).
    pub counting_plays: u64,
    /// Retail plays, which never count (D-3).
    pub retail_plays: u64,
    /// Plays refused for a subscription taken out outside the period (D-5).
    pub subscription_plays_refused: u64,
    /// Distinct accounts with at least one counting play, excluded ones included.
    pub accounts_with_counting_plays: u64,
    /// Exclusion records, by reason (D-6, D-13).
    pub exclusion_records: ReasonCounts,
    /// Excluded accounts with at least one play record of any class, by reason.
    pub excluded_accounts_with_plays: ReasonCounts,
    /// Accounts in the canonical entry list (spec/formats.md §4.1): the number of leaves.
    pub accounts_with_entries: u64,
    /// Entries in the canonical entry list: the sum over its accounts.
    pub entries: u64,
}

/// A count for each exclusion reason, in the order closed, minor, fraud (D-6, D-13).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ReasonCounts {
    /// The count for the exclusion reason `closed` (a closed account).
    pub closed: u64,
    /// The count for the exclusion reason `minor` (the account holder is a minor).
    pub minor: u64,
    /// The count for the exclusion reason `fraud`.
    pub fraud: u64,
}

/// The seal's commitment (spec/formats.md §4.3).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CommitmentRef {
    /// RFC 6962 Merkle root (spec/formats.md §2.4) of the leaves in pseudonym order.
    pub root: Hash32,
    /// The number of leaves (accounts with entries).
    pub leaves: u64,
    /// The sum of the leaves' entries.
    pub entries: u64,
}

/// A winner or reserve as production needs it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Placed {
    /// 0 for the winner, 1, 2, … for the reserves in order (spec/formats.md §4.5).
    pub rank: u32,
    /// The 32-byte account id behind the leaf, as production exports it (spec/formats.md §4.1.1).
    pub account: Hash32,
    /// The leaf's pseudonym for the day (spec/formats.md §4.2).
    pub pseudonym: Hash32,
    /// The leaf's entries.
    pub entries: u8,
    /// The entry number `e` that picked the leaf (spec/formats.md §4.5).
    pub entry: u64,
    /// The picked leaf's index in pseudonym order.
    pub leaf: u64,
}

/// A winner or reserve as the public sees it (no account id; D-14, D-15).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct PublicPlaced {
    /// 0 for the winner, 1, 2, … for the reserves in order (spec/formats.md §4.5).
    pub rank: u32,
    /// The leaf's pseudonym for the day (spec/formats.md §4.2).
    pub pseudonym: Hash32,
    /// The leaf's entries.
    pub entries: u8,
    /// The entry number `e` that picked the leaf (spec/formats.md §4.5).
    pub entry: u64,
    /// The picked leaf's index in pseudonym order.
    pub leaf: u64,
}

/// An earlier attempt of the same day that was voided (design principle 1).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct VoidedAttempt {
    /// The attempt number that was voided (spec/formats.md §4.6).
    pub attempt: u32,
    /// The reason given for the void, as recorded.
    pub reason: String,
    /// Sequence number of the `draw.void` event in the audit trail (spec/formats.md §6.1).
    pub audit_seq: u64,
}

/// Everything that determines the draw and its outcome, shared by result and bundle.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct DrawCore {
    /// The rules' operation id.
    pub operation: String,
    /// The day drawn, `YYYY-MM-DD`.
    pub day: String,
    /// The attempt number: 1, plus one per voided attempt (spec/formats.md §4.6).
    pub attempt: u32,
    /// The day's earlier, voided attempts, in order (spec/formats.md §4.6).
    pub voided_attempts: Vec<VoidedAttempt>,
    /// SHA-256 of the rules file's exact bytes (spec/formats.md §4.4).
    pub rules_sha256: Hash32,
    /// Version 2, rules that are not an official regulation only: `"unofficial_rules": true`
    /// (spec/formats.md §7.4 [M-292]); absent under official rules and in version 1.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::json::present"
    )]
    pub unofficial_rules: Option<crate::rules::official::UnofficialRules>,
    /// The signed export the day was sealed from.
    pub export: ExportRef,
    /// The figures of the day's tally (spec/formats.md §4.7).
    pub figures: Figures,
    /// The seal's commitment (spec/formats.md §4.3).
    pub commitment: CommitmentRef,
    /// Version 2: the entropy's commitment (spec/formats.md §3.2), recorded and shown before the
    /// contribution was typed; absent in version 1.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::json::present"
    )]
    pub entropy_commitment: Option<Hash32>,
    /// Version 1: the commissaire's contribution, as typed (spec/formats.md §4.4); absent in version 2.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::json::present"
    )]
    pub witness: Option<String>,
    /// Version 2: the commissaire's contribution (spec/formats.md §4.4.1); absent in version 1.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::json::present"
    )]
    pub contribution: Option<String>,
    /// The HSM's entropy (48 bytes, spec/appliance.md §3.1), hex.
    pub entropy: String,
    /// The draw seed (spec/formats.md §4.4).
    pub seed: Hash32,
    /// The day's prize, in cents (from the rules' period, D-10).
    pub prize_cents: u64,
    /// Reserves the rules ask for (`reserves_per_day`, spec/formats.md §4.5).
    pub reserves_wanted: u32,
    /// Version 2: the entropy requests of this attempt that the appliance refused (spec/appliance.md
    /// §3.1), in trail order; absent in version 1.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::json::present"
    )]
    pub entropy_refused: Option<Vec<RefusedEntropy>>,
    /// Version 2: the events that fixed the entropy commitment, then the contribution, with
    /// their inclusion proofs in the tree of `audit_checkpoint` (spec/formats.md §3.3); absent in
    /// version 1.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::json::present"
    )]
    pub fixed: Option<crate::randomness::fixed::Fixed>,
    /// Version 2: the draw's place in the trail's history (spec/formats.md §6.7); absent in version 1.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::json::present"
    )]
    pub history: Option<crate::audit::history::History>,
}

impl DrawCore {
    /// The commissaire's contribution: `contribution` in version 2, `witness` in version 1.
    pub fn contribution_text(&self) -> &str {
        self.contribution
            .as_deref()
            .or(self.witness.as_deref())
            .unwrap_or("")
    }
}

/// An entropy request the appliance refused (spec/appliance.md §3.1, the `entropy.refused` event).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RefusedEntropy {
    /// The `entropy.refused` event's sequence number.
    pub audit_seq: u64,
    /// The refused value's entropy commitment (spec/formats.md §3.2).
    pub entropy_commitment: Hash32,
    /// Why it was refused, in words.
    pub reason: String,
}

/// `result.json`: for production, names accounts.
// Derived as `remote = "Self"`: the derived (de)serialisers are inherent functions, and the
// trait impls below split the draw core off first (no `flatten` when deserialising, which serde
// does not support with `deny_unknown_fields`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct ResultFile {
    /// [`RESULT_FORMAT`].
    pub format: String,
    /// 1, or 2 with `history` (spec/formats.md §7).
    pub version: u32,
    /// The draw core, its fields inline.
    #[serde(flatten, skip_deserializing)]
    pub core: DrawCore,
    /// `commitment.entries` repeated.
    pub entries: u64,
    /// `commitment.leaves` repeated.
    pub accounts: u64,
    /// The winner (rank 0).
    pub winner: Placed,
    /// The reserves, ranks 1, 2, …
    pub reserves: Vec<Placed>,
    /// When the draw was made, RFC 3339 UTC, from the appliance's clock.
    pub drawn_at: String,
    /// The signed audit checkpoint (spec/formats.md §6.3), as note text.
    pub audit_checkpoint: String,
    /// Key id (spec/formats.md §1.3) of the result key that signs the outputs.
    pub result_key_id: String,
    /// Key id (spec/formats.md §1.3) of the audit key that signs the checkpoints.
    pub audit_key_id: String,
    /// The software that made the result.
    pub software: SoftwareIdentity,
    /// Version 2: the code that answered for the HSM (the PKCS#11 module, the token, every file
    /// mapped in the process: spec/formats.md §4.7, §6.2), as the command's `software.start` recorded it.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::json::present"
    )]
    pub pkcs11: Option<crate::software::Pkcs11Identity>,
}

/// `bundle.json`: for anyone; lets a third party recompute the draw from the commitment.
// Derived as `remote = "Self"`: the derived (de)serialisers are inherent functions, and the
// trait impls below split the draw core off first (no `flatten` when deserialising, which serde
// does not support with `deny_unknown_fields`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, remote = "Self")]
pub struct BundleFile {
    /// [`BUNDLE_FORMAT`].
    pub format: String,
    /// 1, or 2 with `history` (spec/formats.md §7).
    pub version: u32,
    /// The draw core, its fields inline: the same as `result.json`'s.
    #[serde(flatten, skip_deserializing)]
    pub core: DrawCore,
    /// The committed leaves are published beside the bundle in `leaves.bin` (spec/formats.md §4.7).
    pub leaves_file: String,
    /// SHA-256 of `leaves.bin` (spec/formats.md §4.7).
    pub leaves_sha256: Hash32,
    /// The winner (rank 0), without its account.
    pub winner: PublicPlaced,
    /// The reserves, ranks 1, 2, …, without their accounts.
    pub reserves: Vec<PublicPlaced>,
    /// When the draw was made, RFC 3339 UTC, from the appliance's clock.
    pub drawn_at: String,
    /// The signed audit checkpoint (spec/formats.md §6.3), as note text.
    pub audit_checkpoint: String,
    /// Key id (spec/formats.md §1.3) of the result key that signs the outputs.
    pub result_key_id: String,
    /// Key id (spec/formats.md §1.3) of the audit key that signs the checkpoints.
    pub audit_key_id: String,
    /// The software that made the result.
    pub software: SoftwareIdentity,
    /// Version 2: the code that answered for the HSM (the PKCS#11 module, the token, every file
    /// mapped in the process: spec/formats.md §4.7, §6.2), as the command's `software.start` recorded it.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::json::present"
    )]
    pub pkcs11: Option<crate::software::Pkcs11Identity>,
}

/// The members of the draw core (spec/formats.md §4.7), in order, both versions' together.
pub const CORE_MEMBERS: [&str; 19] = [
    "operation",
    "day",
    "attempt",
    "voided_attempts",
    "rules_sha256",
    "unofficial_rules",
    "export",
    "figures",
    "commitment",
    "entropy_commitment",
    "witness",
    "contribution",
    "entropy",
    "seed",
    "prize_cents",
    "reserves_wanted",
    "entropy_refused",
    "fixed",
    "history",
];

macro_rules! core_split_serde {
    ($t:ty) => {
        impl Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                <$t>::serialize(self, s)
            }
        }

        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                use serde::de::Error;
                let split = crate::draw::split::Split::deserialize(d, &CORE_MEMBERS)?;
                let mut file =
                    <$t>::deserialize(&mut serde_json::Deserializer::from_str(&split.rest))
                        .map_err(D::Error::custom)?;
                file.core = serde_json::from_str(&split.core).map_err(D::Error::custom)?;
                Ok(file)
            }
        }
    };
}
core_split_serde!(ResultFile);
core_split_serde!(BundleFile);

/// `proof-….json`: one account's entries are in the sealed set (spec/formats.md §4.8).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ProofFile {
    /// [`PROOF_FORMAT`].
    pub format: String,
    /// 1.
    pub version: u32,
    /// The rules' operation id.
    pub operation: String,
    /// The sealed day, `YYYY-MM-DD`.
    pub day: String,
    /// The attempt whose seal the proof is in (spec/formats.md §4.6).
    pub attempt: u32,
    /// The 32-byte account id the proof is for.
    pub account: Hash32,
    /// The account's salt for the day (spec/formats.md §4.2).
    pub salt: Hash32,
    /// The account's pseudonym for the day: `H("urne/v1/pseudonym", salt, account)` (spec/formats.md §4.2).
    pub pseudonym: Hash32,
    /// The account's entries: the leaf is `pseudonym || entries` (spec/formats.md §4.3).
    pub entries: u8,
    /// The leaf's index in pseudonym order.
    pub leaf: u64,
    /// The seal's commitment the leaf is in (spec/formats.md §4.3).
    pub commitment: CommitmentRef,
    /// RFC 9162 audit path of the leaf, bottom-up (spec/formats.md §2.4, §4.8).
    pub path: Vec<Hash32>,
    /// Key id (spec/formats.md §1.3) of the result key that signed the proof.
    pub result_key_id: String,
}

/// Serialises an output file: pretty JSON with a final newline, the exact bytes that get signed
/// (spec/formats.md §1.5).
///
/// # Panics
/// Never for the output structs of this crate: their fields are strings, integers, lists and
/// structs with string keys, which `serde_json` always serialises.
pub fn to_bytes<T: Serialize>(v: &T) -> Vec<u8> {
    let mut b = serde_json::to_vec_pretty(v).expect("output structs serialise");
    b.push(b'\n');
    b
}
