//! The files a daily draw publishes (SPEC.md §4.7): `result.json` for production, `bundle.json`
//! for the public, `proof-*.json` for one participant. Written once from these structs (field
//! order fixed by the struct), signed over their exact bytes, and parsed back strictly
//! (`deny_unknown_fields`) only after their signature has been checked.

use crate::software::SoftwareIdentity;
use serde::{Deserialize, Serialize};

pub const RESULT_FORMAT: &str = "urne-draw-result";
pub const BUNDLE_FORMAT: &str = "urne-draw-bundle";
pub const PROOF_FORMAT: &str = "urne-inclusion-proof";
pub const LEAVES_FILE: &str = "leaves.bin";

/// The signed export a seal was made from.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ExportRef {
    pub sha256: String,
    pub size: u64,
    pub producer_key_id: String,
}

/// The figures the commissaire writes down (D-3 … D-6, D-13).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Figures {
    pub period: String,
    pub tranche_cents: u64,
    pub plays: u64,
    pub counting_plays: u64,
    pub retail_plays: u64,
    pub subscription_plays_refused: u64,
    pub accounts_with_counting_plays: u64,
    pub exclusion_records: ReasonCounts,
    pub excluded_accounts_with_plays: ReasonCounts,
    pub accounts_with_entries: u64,
    pub entries: u64,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ReasonCounts {
    pub closed: u64,
    pub minor: u64,
    pub fraud: u64,
}

/// The seal's commitment (SPEC.md §4.3).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct CommitmentRef {
    pub root: String,
    pub leaves: u64,
    pub entries: u64,
}

/// A winner or reserve as production needs it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Placed {
    pub rank: u32,
    pub account: String,
    pub pseudonym: String,
    pub entries: u8,
    pub entry: u64,
    pub leaf: u64,
}

/// A winner or reserve as the public sees it (no account id; D-14, D-15).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct PublicPlaced {
    pub rank: u32,
    pub pseudonym: String,
    pub entries: u8,
    pub entry: u64,
    pub leaf: u64,
}

/// An earlier attempt of the same day that was voided (design principle 1).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct VoidedAttempt {
    pub attempt: u32,
    pub reason: String,
    pub audit_seq: u64,
}

/// Everything that determines the draw and its outcome, shared by result and bundle.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct DrawCore {
    pub operation: String,
    pub day: String,
    pub attempt: u32,
    pub voided_attempts: Vec<VoidedAttempt>,
    pub rules_sha256: String,
    pub export: ExportRef,
    pub figures: Figures,
    pub commitment: CommitmentRef,
    pub witness: String,
    pub entropy: String,
    pub seed: String,
    pub prize_cents: u64,
    pub reserves_wanted: u32,
}

/// `result.json`: for production, names accounts.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ResultFile {
    pub format: String,
    pub version: u32,
    #[serde(flatten)]
    pub core: DrawCore,
    pub entries: u64,
    pub accounts: u64,
    pub winner: Placed,
    pub reserves: Vec<Placed>,
    pub drawn_at: String,
    pub audit_checkpoint: String,
    pub result_key_id: String,
    pub audit_key_id: String,
    pub software: SoftwareIdentity,
}

/// `bundle.json`: for anyone; lets a third party recompute the draw from the commitment.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct BundleFile {
    pub format: String,
    pub version: u32,
    #[serde(flatten)]
    pub core: DrawCore,
    /// The committed leaves are published beside the bundle in `leaves.bin` (SPEC.md §4.7).
    pub leaves_file: String,
    pub leaves_sha256: String,
    pub winner: PublicPlaced,
    pub reserves: Vec<PublicPlaced>,
    pub drawn_at: String,
    pub audit_checkpoint: String,
    pub result_key_id: String,
    pub audit_key_id: String,
    pub software: SoftwareIdentity,
}

/// `proof-….json`: one account's entries are in the sealed set (SPEC.md §4.8).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ProofFile {
    pub format: String,
    pub version: u32,
    pub operation: String,
    pub day: String,
    pub attempt: u32,
    pub account: String,
    pub salt: String,
    pub pseudonym: String,
    pub entries: u8,
    pub leaf: u64,
    pub commitment: CommitmentRef,
    /// Inclusion path, bottom-up, hex.
    pub path: Vec<String>,
    pub result_key_id: String,
}

/// Serialises an output file: pretty JSON with a final newline, the exact bytes that get signed.
pub fn to_bytes<T: Serialize>(v: &T) -> Vec<u8> {
    let mut b = serde_json::to_vec_pretty(v).expect("output structs serialise");
    b.push(b'\n');
    b
}
