//! `urne verify FILE`: an account's inclusion proof in a sealed draw (spec/formats.md §8.3) or a
//! ticket's proof in a block's committed outcomes (spec/formats.md §5.B9), each checked in the order the spec
//! gives, optionally against the published folder.

use super::draw::{PublishedSeal, published_is_the_proofs, verify_proof};
use super::folder::Folder;
use super::signed::{Keys, read_signed, read_signed_opt};
use super::{FailureClass as C, VResult, fail, parse, parse_named};
use crate::block::files::{self, CommitFile, TICKET_PROOF_FORMAT, TicketProofFile};
use crate::block::tickets::verify_ticket_inclusion;
use crate::draw::files::{BundleFile, PROOF_FORMAT, ProofFile, ResultFile};
use crate::values::BlockId;
use crate::values::KeyId;

/// A proof file that verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Proven {
    /// A ticket's proof in a block (spec/formats.md §5.B9).
    Ticket(TicketProofFile),
    /// An account's inclusion proof in a sealed draw (spec/formats.md §8.3).
    Draw(ProofFile),
}

/// Verifies the proof file `name` of `f` under `keys`: its signature first (the `.sig` beside
/// it), then as a ticket proof or an inclusion proof according to its `format`; with
/// `published` (the draw or block folder), against the published commitment.
pub fn verify_proof_file(
    f: &dyn Folder,
    name: &str,
    published: Option<&dyn Folder>,
    keys: &Keys,
) -> VResult<Proven> {
    let bytes = read_signed(f, name, &keys.result)?;
    let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
    if v["format"] == TICKET_PROOF_FORMAT {
        return verify_ticket_proof_file(&bytes, published, keys).map(Proven::Ticket);
    }
    let p: ProofFile = parse_named(name, &bytes)?;
    if p.format != PROOF_FORMAT {
        return Err(fail(C::Malformed, format!("{name} is not an urne proof")));
    }
    // The proof's own steps first, then the published folder (spec/formats.md §8.3's order).
    verify_proof(&p, &KeyId::of(&keys.result))?;
    if let Some(d) = published {
        let (seal, note, name) = published_seal(d, keys)?;
        published_is_the_proofs(&p, &seal)?;
        not_a_rehearsal(&note, name)?;
    }
    Ok(Proven::Draw(p))
}

/// What the published draw folder `d` says of its seal: from its `bundle.json`, else its
/// `result.json` (signature checked, parsed); with the checkpoint that file carries, and its name.
fn published_seal(d: &dyn Folder, keys: &Keys) -> VResult<(PublishedSeal, String, &'static str)> {
    let (core, key_id, note, name) = if let Some(b) =
        read_signed_opt(d, "bundle.json", &keys.result)?
    {
        let b = parse_named::<BundleFile>("published bundle.json", &b)?;
        (b.core, b.result_key_id, b.audit_checkpoint, "bundle.json")
    } else if let Some(b) = read_signed_opt(d, "result.json", &keys.result)? {
        let r = parse_named::<ResultFile>("published result.json", &b)?;
        (r.core, r.result_key_id, r.audit_checkpoint, "result.json")
    } else {
        return Err(fail(
            C::CommitmentMismatch,
            format!(
                "{} holds no published draw (no bundle.json or result.json): the proof's commitment is not shown to be published",
                d.show("")
            ),
        ));
    };
    if key_id != KeyId::of(&keys.result) {
        return Err(fail(
            C::Inconsistent,
            "the published draw names another result key than the one given",
        ));
    }
    let seal = PublishedSeal {
        operation: core.operation,
        day: core.day,
        attempt: core.attempt,
        commitment: core.commitment,
    };
    Ok((seal, note, name))
}

/// spec/formats.md §8.3, §5.B9: the published output a proof is checked against is a
/// rehearsal's when the `audit_checkpoint` it carries, signed with it by the result key, has a
/// rehearsal token's origin (§6.10): so is the proof [rehearsal] [M-386].
fn not_a_rehearsal(note: &str, name: &str) -> VResult<()> {
    let prefix = format!("{}/", crate::audit::chain::Origin::Rehearsal.prefix());
    if !note.starts_with(&prefix) {
        return Ok(());
    }
    Err(fail(
        C::Rehearsal,
        format!(
            "the published {name} is a rehearsal token's (its audit_checkpoint's origin is {:?}): RÉPÉTITION — SANS VALEUR / REHEARSAL — NO VALUE, so is the proof",
            note.lines().next().unwrap_or_default()
        ),
    ))
}

/// A ticket proof's format, version and block id (malformed) and result key (inconsistent),
/// checked before the published folder is read (spec/formats.md §5.B9).
fn ticket_proof_header(p: &TicketProofFile, k: &Keys) -> VResult<()> {
    if p.format != TICKET_PROOF_FORMAT || p.version != 1 {
        return Err(fail(C::Malformed, "not an urne ticket proof v1"));
    }
    BlockId::parse(&p.block).map_err(|e| fail(C::Malformed, format!("block: {e}")))?;
    if p.result_key_id != KeyId::of(&k.result) {
        return Err(fail(
            C::Inconsistent,
            format!(
                "the proof names result key {}, the key given is {}",
                p.result_key_id,
                KeyId::of(&k.result)
            ),
        ));
    }
    Ok(())
}

/// Checks a ticket proof (spec/formats.md §5.B9): against the published commitment when given.
pub fn verify_ticket_proof(
    p: &TicketProofFile,
    published: Option<&CommitFile>,
    k: &Keys,
) -> VResult<()> {
    ticket_proof_header(p, k)?;
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
    published: Option<&dyn Folder>,
    k: &Keys,
) -> VResult<TicketProofFile> {
    let p: TicketProofFile = parse(bytes)?;
    ticket_proof_header(&p, k)?;
    let commit = match published {
        Some(d) => {
            let name = format!("{}.commit.json", files::stem(&p.block));
            let Some(bytes) = read_signed_opt(d, &name, &k.result)? else {
                return Err(fail(
                    C::CommitmentMismatch,
                    format!(
                        "{} is not in the published folder: the proof's root is not shown to be published",
                        d.show(&name)
                    ),
                ));
            };
            let c: CommitFile = parse(&bytes)?;
            Some((c, name))
        }
        None => None,
    };
    verify_ticket_proof(&p, commit.as_ref().map(|(c, _)| c), k)?;
    if let Some((c, name)) = &commit {
        not_a_rehearsal(&c.audit_checkpoint, name)?;
    }
    Ok(p)
}
