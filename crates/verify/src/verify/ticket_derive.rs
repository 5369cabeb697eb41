//! A ticket's proof derived by anyone after the reveal (spec/formats.md §5.B9): the revealed
//! block folder verified whole first (§5.B10: the reveal, the regenerated block against its
//! commitment), then the block regenerated from the reveal, and the ticket's row and Merkle path
//! read from it. The proof is unsigned: it holds against the published commitment (§8.3).

use super::block_folder::block_commitments;
use super::folder::Folder;
use super::outputs::verify_output;
use super::signed::{Keys, read_signed, read_signed_opt};
use super::{Expect, FailureClass as C, Report, VResult, fail, parse};
use crate::block::files::{self, CommitFile, RevealFile, TICKET_PROOF_FORMAT, TicketProofFile};
use crate::block::{BlockId, block_seed_of, default_threads, generate_block};
use crate::crypto::merkle;
use crate::rules::game::GameRules;
use crate::values::KeyId;

/// The unsigned proof of the ticket at `position` of the revealed block `block` (the folder's one
/// block when `None`) of the block folder `d`, once `d` verified under `keys`; with the
/// folder's report. A folder of several blocks and no `block`, a block not in it or not
/// revealed, or a position beyond the block are usage mistakes (exit 2).
pub fn derive_ticket_proof(
    d: &dyn Folder,
    keys: &Keys,
    block: Option<&BlockId>,
    position: u32,
) -> VResult<(TicketProofFile, Report)> {
    let usage = |what: String| fail(C::Usage, what);
    let names = block_commitments(d).map_err(|e| fail(C::Unreadable, e.0))?;
    let name = match block {
        Some(id) => {
            let n = format!("{}.commit.json", files::stem(&id.canonical()));
            if !names.contains(&n) {
                return Err(usage(format!("{} is not in the folder", d.show(&n))));
            }
            n
        }
        None if names.len() == 1 => names[0].clone(),
        None => {
            return Err(usage(format!(
                "{} holds {} block commitments: name the block (--expect-block ID)",
                d.show(""),
                names.len()
            )));
        }
    };
    let report = verify_output(d, keys, None, &Expect::default())?;
    let c: CommitFile = parse(&read_signed(d, &name, &keys.result)?)?;
    let stem = files::stem(&c.block);
    let Some(rb) = read_signed_opt(d, &format!("{stem}.reveal.json"), &keys.result)? else {
        return Err(usage(format!(
            "block {} is not revealed in {}: a ticket's proof is derived from the reveal",
            c.block,
            d.show("")
        )));
    };
    if position >= c.block_size {
        return Err(usage(format!(
            "position {position} is not in block {} of {} tickets (positions 0 to {})",
            c.block,
            c.block_size,
            c.block_size.saturating_sub(1)
        )));
    }
    let r: RevealFile = parse(&rb)?;
    let rules = GameRules::from_json(&read_signed(d, "rules.json", &keys.result)?)
        .map_err(|e| fail(C::Malformed, format!("rules.json: {e}")))?;
    let id = BlockId::parse(&c.block).map_err(|e| fail(C::Malformed, format!("block: {e}")))?;
    let entropy = hex::decode(&r.entropy)
        .map_err(|_| fail(C::Malformed, "the reveal's entropy is not hex"))?;
    let seed = block_seed_of(&id, rules.sha256(), c.contribution.as_deref(), &entropy);
    let blk = generate_block(&rules, &id, &seed, default_threads())
        .map_err(|e| fail(C::DrawMismatch, format!("{}: {e}", c.block)))?;
    // The folder verified: the regenerated block is the committed one.
    if blk.outcomes_root() != &c.outcomes_root {
        return Err(fail(
            C::DrawMismatch,
            format!(
                "{}: the regenerated block is not the committed one",
                c.block
            ),
        ));
    }
    let row = blk
        .csv()
        .split(|&b| b == b'\n')
        .nth(position as usize + 1)
        .map(|r| String::from_utf8_lossy(r).into_owned())
        .unwrap_or_default();
    let proof = TicketProofFile {
        format: TICKET_PROOF_FORMAT.into(),
        version: 1,
        block: c.block.clone(),
        position,
        row,
        block_size: c.block_size,
        outcomes_root: c.outcomes_root,
        path: merkle::inclusion_path(position as usize, blk.leaves()),
        result_key_id: KeyId::of(&keys.result).to_string(),
    };
    // What is handed out verifies as an unsigned proof would (spec/formats.md §5.B9, §8.3).
    super::proof::verify_ticket_proof(&proof, Some(&c), keys)?;
    Ok((proof, report))
}
