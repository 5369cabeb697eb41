//! What a daily draw records in the audit trail (spec/formats.md §6.2): one payload type per `draw.*`
//! kind, named in the registry (`events::kinds`); the state of a day derived from them is
//! `urne_ceremony::state::day`. Each payload's fields are in the order they are stored, and a payload with a
//! member the type does not define does not parse.

use super::Pick;
use super::files::{CommitmentRef, ExportRef, Figures};
use crate::crypto::Hash32;
use crate::values::{Attempt, Day};
use serde::{Deserialize, Serialize};

/// The `draw.seal` record (spec/formats.md §6.2): what the day was sealed from, and its commitment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SealRecord {
    /// The rules' operation id.
    pub operation: String,
    /// The sealed day, `YYYY-MM-DD`.
    pub day: Day,
    /// The attempt sealed (spec/formats.md §4.6).
    pub attempt: Attempt,
    /// SHA-256 of the rules file, also the name of its blob in the trail (spec/formats.md §4.4, §6.2).
    pub rules_sha256: Hash32,
    /// The export's path as the operator gave it.
    pub export_file: String,
    /// The signed export the day was sealed from.
    pub export: ExportRef,
    /// The figures of the day's tally (spec/formats.md §4.7).
    pub figures: Figures,
    /// The commitment, recorded before any entropy exists (spec/formats.md §4.3).
    pub commitment: CommitmentRef,
    /// SHA-256 of the sealed set (leaves in pseudonym order with their accounts), stored as a
    /// blob beside the events (spec/formats.md §6.2).
    pub set_sha256: Hash32,
    /// SHA-256 of the public `leaves.bin` (a blob), and its signature by the result key, made at
    /// the seal so the draw only copies it.
    pub leaves_sha256: Hash32,
    /// The 64-byte signature of `leaves.bin` by the result key (spec/formats.md §1.4), hex.
    pub leaves_sig: String,
}

/// The `draw.entropy` record (spec/appliance.md §3.1, spec/formats.md §3.2, §6.2): the draw's entropy, requested once,
/// recorded and committed to before the commissaire's contribution exists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntropyRecord {
    /// The rules' operation id.
    pub operation: String,
    /// The day drawn, `YYYY-MM-DD`.
    pub day: Day,
    /// The attempt drawn (spec/formats.md §4.6).
    pub attempt: Attempt,
    /// The seal's commitment root (spec/formats.md §4.3).
    pub commitment_root: Hash32,
    /// `tagged_hash("urne/v2/entropy-commitment", [entropy])` (spec/formats.md §3.2), shown for the
    /// commissaire to copy before the contribution is typed.
    pub entropy_commitment: Hash32,
    /// SHA-256 of the blob that holds the entropy, sealed by the token's key until it is used
    /// (spec/appliance.md §3.4, spec/formats.md §6.2).
    pub entropy_blob: Hash32,
}

/// The `draw.contribution` record (spec/formats.md §4.4.1, §6.2): the commissaire's contribution, typed
/// after the entropy commitment was recorded and shown, recorded before anything is computed
/// from it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContributionRecord {
    /// The rules' operation id.
    pub operation: String,
    /// The day drawn, `YYYY-MM-DD`.
    pub day: Day,
    /// The attempt drawn (spec/formats.md §4.6).
    pub attempt: Attempt,
    /// The entropy commitment it follows (the `draw.entropy` event's).
    pub entropy_commitment: Hash32,
    /// The commissaire's contribution, as typed and confirmed (spec/formats.md §4.4.1).
    pub contribution: String,
}

/// The `draw.result` record (spec/formats.md §6.2): the seed and the picks, recorded once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultRecord {
    /// The rules' operation id.
    pub operation: String,
    /// The day drawn, `YYYY-MM-DD`.
    pub day: Day,
    /// The attempt drawn (spec/formats.md §4.6).
    pub attempt: Attempt,
    /// The draw seed (spec/formats.md §4.4).
    pub seed: Hash32,
    /// The winner's pick (spec/formats.md §4.5).
    pub winner: Pick,
    /// The reserves' picks, in rank order.
    pub reserves: Vec<Pick>,
}

/// The `draw.published` record (spec/formats.md §6.2): the folder the outputs were published into.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PublishedRecord {
    /// The day drawn, `YYYY-MM-DD`.
    pub day: Day,
    /// The attempt drawn (spec/formats.md §4.6).
    pub attempt: Attempt,
    /// The output folder as the operator gave it.
    pub out: String,
    /// The SHA-256 of every output, by file name.
    pub files: std::collections::BTreeMap<String, Hash32>,
    /// Version 2: the output's primary file and its checkpoint, which the next output names as
    /// its predecessor (spec/formats.md §6.7); recorded in this one event so that no kill separates
    /// the publication from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<crate::audit::history::OutputPublished>,
}

/// The `draw.void` record (spec/formats.md §4.6): an attempt annulled in front of the commissaire.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VoidRecord {
    /// The day whose attempt is voided, `YYYY-MM-DD`.
    pub day: Day,
    /// The attempt voided.
    pub attempt: Attempt,
    /// The reason given, as the commissaire signs it.
    pub reason: String,
    /// The stage the attempt had reached (`urne_ceremony::state::day::DayState::stage`).
    pub stage: String,
}

/// The `draw.late` record (rule D-8): a draw made after its draw date plus the grace days,
/// recorded before the entropy is requested.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LateRecord {
    /// The day drawn, `YYYY-MM-DD`.
    pub day: Day,
    /// The attempt drawn (spec/formats.md §4.6).
    pub attempt: Attempt,
    /// The period's draw date, `YYYY-MM-DD`.
    pub draw_date: String,
    /// The date of the draw in the rules' time zone, `YYYY-MM-DD`.
    pub today: String,
}

/// The `draw.proofs` record (spec/formats.md §4.8, §6.2): the file of every account's inclusion
/// proof of a sealed attempt, written in one run for production.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProofsRecord {
    /// The day of the sealed set, `YYYY-MM-DD`.
    pub day: Day,
    /// The attempt whose seal the proofs are against.
    pub attempt: Attempt,
    /// The number of proofs (lines) in the file: every leaf of the seal.
    pub count: u64,
    /// SHA-256 of the file written.
    pub file_sha256: Hash32,
}

/// The `draw.proof` record (spec/formats.md §4.8): a signed inclusion proof issued for one account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProofRecord {
    /// The day of the sealed set, `YYYY-MM-DD`.
    pub day: Day,
    /// The attempt whose seal the proof is against.
    pub attempt: Attempt,
    /// The account's pseudonym in that seal (spec/formats.md §4.2).
    pub pseudonym: Hash32,
    /// SHA-256 of the proof file written.
    pub file_sha256: Hash32,
}
