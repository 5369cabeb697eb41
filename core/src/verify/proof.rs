//! `urne verify FILE`: an account's inclusion proof in a sealed draw (SPEC.md §8.3) or a
//! ticket's proof in a block's committed outcomes (§5.B9), each checked in the order the spec
//! gives, optionally against the published folder.

use super::draw::verify_proof;
use super::signed::{Keys, read_signed};
use super::{FailureClass as C, VResult, fail, parse, parse_named};
use crate::block::BlockId;
use crate::block::files::{self, CommitFile, TICKET_PROOF_FORMAT, TicketProofFile};
use crate::block::tickets::verify_ticket_inclusion;
use crate::crypto::keys;
use crate::draw::files::{CommitmentRef, PROOF_FORMAT, ProofFile};
use std::path::Path;

/// A proof file that verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Proven {
    /// A ticket's proof in a block (§5.B9).
    Ticket(TicketProofFile),
    /// An account's inclusion proof in a sealed draw (§8.3).
    Draw(ProofFile),
}

/// Verifies the proof file `file` under `keys`: its signature first (the `.sig` beside it), then
/// as a ticket proof or an inclusion proof according to its `format`; with `published` (the
/// draw or block folder), against the published commitment.
pub fn verify_proof_file(file: &Path, published: Option<&Path>, keys: &Keys) -> VResult<Proven> {
    let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let bytes = read_signed(&dir, &name, &keys.result)?;
    let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
    if v["format"] == TICKET_PROOF_FORMAT {
        return verify_ticket_proof_file(&bytes, published, keys).map(Proven::Ticket);
    }
    let p: ProofFile = parse_named(&name, &bytes)?;
    if p.format != PROOF_FORMAT {
        return Err(fail(C::Malformed, "not an urne inclusion proof"));
    }
    let commitment = match published {
        Some(d) => Some(published_commitment(d, keys)?),
        None => None,
    };
    verify_proof(&p, commitment.as_ref())?;
    Ok(Proven::Draw(p))
}

/// The commitment of the published draw folder `d`: from its `bundle.json`, else its
/// `result.json` (signature checked).
fn published_commitment(d: &Path, keys: &Keys) -> VResult<CommitmentRef> {
    let b = read_signed(d, "bundle.json", &keys.result)
        .or_else(|_| read_signed(d, "result.json", &keys.result))?;
    let v: serde_json::Value = parse_named("published result", &b)?;
    serde_json::from_value(v["commitment"].clone())
        .map_err(|e| fail(C::Malformed, format!("published commitment: {e}")))
}

/// Checks a ticket proof (SPEC.md §5.B9): against the published commitment when given.
pub fn verify_ticket_proof(
    p: &TicketProofFile,
    published: Option<&CommitFile>,
    k: &Keys,
) -> VResult<()> {
    if p.format != TICKET_PROOF_FORMAT || p.version != 1 {
        return Err(fail(C::Malformed, "not an urne ticket proof v1"));
    }
    BlockId::parse(&p.block).map_err(|e| fail(C::Malformed, format!("block: {e}")))?;
    if p.result_key_id != keys::key_id(&k.result) {
        return Err(fail(C::Inconsistent, "the proof names another result key"));
    }
    if let Some(c) = published
        && (c.outcomes_root != p.outcomes_root
            || c.block_size != p.block_size
            || c.block != p.block)
    {
        return Err(fail(
            C::CommitmentMismatch,
            "the proof's root is not the published commitment's",
        ));
    }
    if !p.row.starts_with(&format!("{},", p.position)) {
        return Err(fail(
            C::Malformed,
            "the row is not the ticket at this position",
        ));
    }
    if !verify_ticket_inclusion(
        p.row.as_bytes(),
        p.position,
        p.block_size,
        &p.path,
        &p.outcomes_root,
    ) {
        return Err(fail(
            C::CommitmentMismatch,
            "the ticket's inclusion path does not lead to the outcomes root",
        ));
    }
    Ok(())
}

/// Parses a ticket proof (already signature-checked) and checks it, against the commitment in
/// the published block folder when given (its signature checked).
pub fn verify_ticket_proof_file(
    bytes: &[u8],
    published: Option<&Path>,
    k: &Keys,
) -> VResult<TicketProofFile> {
    let p: TicketProofFile = parse(bytes)?;
    let commit = match published {
        Some(d) => {
            let c: CommitFile = parse(&read_signed(
                d,
                &format!("{}.commit.json", files::stem(&p.block)),
                &k.result,
            )?)?;
            Some(c)
        }
        None => None,
    };
    verify_ticket_proof(&p, commit.as_ref(), k)?;
    Ok(p)
}
