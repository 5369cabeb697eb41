//! The files a block publishes (SPEC.md §5, B.9): the public commitment, the secret production
//! file (`tickets.csv`, §5.B6) and, after the block closed, the reveal. Written once from these
//! structs, signed over their exact bytes, parsed strictly after the signature check.

use crate::software::SoftwareIdentity;
use serde::{Deserialize, Serialize};

pub const COMMIT_FORMAT: &str = "urne-block-commitment";
pub const REVEAL_FORMAT: &str = "urne-block-reveal";
pub const TICKET_PROOF_FORMAT: &str = "urne-ticket-proof";

/// File stem of a block's files: the canonical id with `/` replaced by `_`.
pub fn stem(canonical: &str) -> String {
    canonical.replace('/', "_")
}

/// Count of one tier in a block (tier 0 = losing).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct TierCount {
    pub tier: u8,
    pub units: u32,
    pub prize_cents: u64,
}

/// `<stem>.commit.json`: public at generation.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct CommitFile {
    pub format: String,
    pub version: u32,
    pub block: String,
    pub game: String,
    pub price_cents: u64,
    pub emission: String,
    pub number: u32,
    pub attempt: u32,
    pub rules_sha256: String,
    pub block_size: u32,
    pub tiers: Vec<TierCount>,
    pub outcomes_root: String,
    pub seed_commitment: String,
    pub tickets_file: String,
    pub tickets_sha256: String,
    pub generated_at: String,
    pub audit_checkpoint: String,
    pub result_key_id: String,
    pub audit_key_id: String,
    pub software: SoftwareIdentity,
}

/// `<stem>.reveal.json`: published after the block closed; lets anyone recompute the block.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct RevealFile {
    pub format: String,
    pub version: u32,
    pub block: String,
    pub rules_sha256: String,
    pub entropy: String,
    pub seed: String,
    pub seed_commitment: String,
    pub outcomes_root: String,
    pub revealed_at: String,
    pub audit_checkpoint: String,
    pub result_key_id: String,
}

/// `urne proof --block`: one ticket's row and its inclusion path to the outcomes root.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct TicketProofFile {
    pub format: String,
    pub version: u32,
    pub block: String,
    pub position: u32,
    /// The ticket's row of tickets.csv, without its line feed (§5.B6).
    pub row: String,
    pub block_size: u32,
    pub outcomes_root: String,
    pub path: Vec<String>,
    pub result_key_id: String,
}
