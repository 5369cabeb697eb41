//! The files a block publishes (spec/formats.md §5.B9): the public commitment, the secret production
//! file (`tickets.csv`, spec/formats.md §5.B6) and, after the block closed, the reveal. Written once from these
//! structs, signed over their exact bytes, parsed strictly after the signature check.

use crate::crypto::Hash32;
use crate::software::SoftwareIdentity;
use serde::{Deserialize, Serialize};

/// The `format` of a block commitment (spec/formats.md §5.B9).
pub const COMMIT_FORMAT: &str = "urne-block-commitment";
/// The `format` of a block reveal (spec/formats.md §5.B9).
pub const REVEAL_FORMAT: &str = "urne-block-reveal";
/// The `format` of a ticket proof (spec/formats.md §5.B9).
pub const TICKET_PROOF_FORMAT: &str = "urne-ticket-proof";

/// File stem of a block's files: the canonical id with `/` replaced by `_`.
pub fn stem(canonical: &str) -> String {
    canonical.replace('/', "_")
}

/// Count of one tier in a block (tier 0 = losing).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TierCount {
    /// The tier: 10, 9, …, 4 for the winning tiers, 0 for a losing ticket (G-3).
    pub tier: u8,
    /// Tickets of that tier in the block.
    pub units: u32,
    /// The tier's prize at the block's price, in cents (0 for a loss).
    pub prize_cents: u64,
}

/// `<stem>.commit.json`: public at generation.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CommitFile {
    /// [`COMMIT_FORMAT`].
    pub format: String,
    /// 1, or 2 with `history` (spec/formats.md §7).
    pub version: u32,
    /// The canonical block id (spec/formats.md §5.B2).
    pub block: String,
    /// The game, the id's first part.
    pub game: String,
    /// The price point in cents, the id's second part (G-2).
    pub price_cents: u64,
    /// The emission, the id's third part.
    pub emission: String,
    /// The block number, the id's last part.
    pub number: u32,
    /// 1, or more after voids of the same block identity.
    pub attempt: u32,
    /// SHA-256 of the game rules file's exact bytes (spec/formats.md §5.B3).
    pub rules_sha256: Hash32,
    /// Version 2, rules that are not an official regulation only: `"unofficial_rules": true`
    /// (spec/formats.md §7.4 [M-292]); absent under official rules and in version 1.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::json::present"
    )]
    pub unofficial_rules: Option<crate::rules::official::UnofficialRules>,
    /// Tickets in the block (G-1).
    pub block_size: u32,
    /// The tier counts, tiers 10, 9, …, 4 then 0 (G-3).
    pub tiers: Vec<TierCount>,
    /// RFC 6962 root of the ticket rows in position order (spec/formats.md §5.B7).
    pub outcomes_root: Hash32,
    /// The seed commitment (spec/formats.md §5.B3).
    pub seed_commitment: Hash32,
    /// Version 2: the entropy's commitment (spec/formats.md §3.2), recorded and shown before the
    /// contribution was typed.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::json::present"
    )]
    pub entropy_commitment: Option<Hash32>,
    /// Version 2: the commissaire's contribution (spec/formats.md §4.4.1), public at generation.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::json::present"
    )]
    pub contribution: Option<String>,
    /// Version 2: the entropy requests of this attempt that were refused (spec/appliance.md §3.1).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::json::present"
    )]
    pub entropy_refused: Option<Vec<crate::draw::files::RefusedEntropy>>,
    /// Version 2: the events that fixed the entropy commitment, then the contribution, with
    /// their inclusion proofs in the tree of `audit_checkpoint` (spec/formats.md §3.3).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::json::present"
    )]
    pub fixed: Option<crate::randomness::fixed::Fixed>,
    /// The production file's name, `S.tickets.csv`.
    pub tickets_file: String,
    /// SHA-256 of the production file (spec/formats.md §5.B6).
    pub tickets_sha256: Hash32,
    /// When the block was generated, RFC 3339 UTC, from the appliance's clock.
    pub generated_at: String,
    /// The signed audit checkpoint (spec/formats.md §6.3), as note text.
    pub audit_checkpoint: String,
    /// Key id (spec/formats.md §1.3) of the result key that signs the outputs.
    pub result_key_id: String,
    /// Key id (spec/formats.md §1.3) of the audit key that signs the checkpoints.
    pub audit_key_id: String,
    /// The software that generated the block.
    pub software: SoftwareIdentity,
    /// Version 2: the code that answered for the HSM (the PKCS#11 module, the token, every file
    /// mapped in the process: spec/formats.md §4.7, §6.2), as the command's `software.start` recorded it.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::json::present"
    )]
    pub pkcs11: Option<crate::software::Pkcs11Identity>,
    /// Version 2: the commitment's place in the trail's history (spec/formats.md §6.7).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::json::present"
    )]
    pub history: Option<crate::audit::history::History>,
}

/// `<stem>.reveal.json`: published after the block closed; lets anyone recompute the block.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RevealFile {
    /// [`REVEAL_FORMAT`].
    pub format: String,
    /// 1, or 2 with `sales_closed_at` and `history` (spec/formats.md §7).
    pub version: u32,
    /// The canonical block id (spec/formats.md §5.B2).
    pub block: String,
    /// SHA-256 of the game rules file, as in the commitment (spec/formats.md §5.B3).
    pub rules_sha256: Hash32,
    /// Version 2, rules that are not an official regulation only: `"unofficial_rules": true`
    /// (spec/formats.md §7.4 [M-292]); absent under official rules and in version 1.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::json::present"
    )]
    pub unofficial_rules: Option<crate::rules::official::UnofficialRules>,
    /// The HSM's entropy for the block (spec/appliance.md §3.1, spec/formats.md §5.B3), hex.
    pub entropy: String,
    /// The block seed derived from it (spec/formats.md §5.B3).
    pub seed: Hash32,
    /// The seed commitment, as in the commitment (spec/formats.md §5.B3).
    pub seed_commitment: Hash32,
    /// The outcomes root, as in the commitment (spec/formats.md §5.B7).
    pub outcomes_root: Hash32,
    /// Version 2: when the block's sales closed, as production states it at the reveal, in
    /// urne's one time format (RFC 3339 UTC with microseconds, spec/formats.md §5.B9, §6.1).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::json::present"
    )]
    pub sales_closed_at: Option<String>,
    /// When the block was revealed, RFC 3339 UTC, from the appliance's clock.
    pub revealed_at: String,
    /// The signed audit checkpoint (spec/formats.md §6.3), as note text.
    pub audit_checkpoint: String,
    /// Key id (spec/formats.md §1.3) of the result key that signs the outputs.
    pub result_key_id: String,
    /// Version 2: the reveal's place in the trail's history (spec/formats.md §6.7).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::json::present"
    )]
    pub history: Option<crate::audit::history::History>,
}

/// `urne proof --block`: one ticket's row and its inclusion path to the outcomes root.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TicketProofFile {
    /// [`TICKET_PROOF_FORMAT`].
    pub format: String,
    /// 1.
    pub version: u32,
    /// The canonical block id (spec/formats.md §5.B2).
    pub block: String,
    /// The ticket's position in the block (0-based).
    pub position: u32,
    /// The ticket's row of tickets.csv, without its line feed (spec/formats.md §5.B6).
    pub row: String,
    /// Tickets in the block: the size of the tree (spec/formats.md §5.B9).
    pub block_size: u32,
    /// The committed outcomes root the path leads to (spec/formats.md §5.B7).
    pub outcomes_root: Hash32,
    /// RFC 9162 audit path of the row's leaf, bottom-up (spec/formats.md §2.4, §5.B9).
    pub path: Vec<Hash32>,
    /// Key id (spec/formats.md §1.3) of the result key that signed the proof.
    pub result_key_id: String,
}
