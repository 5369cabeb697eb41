//! `urne proof`: signed inclusion proofs. `--day D --account A`: an account's entries are in a
//! day's sealed set (spec/formats.md §4.8); `--block ID --position P`: a ticket's outcome is in a
//! block's commitment (spec/appliance.md §5.B9). Each: read what is proved -> build the proof -> check it
//! -> sign and write it -> record it.

mod all;
mod stream;

use super::ctx::Ctx;
use super::inputs;
use crate::edge::folder::DiskFolder;
use crate::edge::hsm::KeyRole;
use crate::edge::publish;
use crate::error::{Error, Kind, Result};
use crate::msg;
use crate::msg::catalogue::cmd as mc;
use crate::msg::catalogue::sitting as S;
use std::path::Path;
use urne_verify::block::files::{
    self as block_files, CommitFile, TICKET_PROOF_FORMAT, TicketProofFile,
};
use urne_verify::block::records as block_records;
use urne_verify::crypto::{Hash32, keys, merkle, parse_hex32, sha256};
use urne_verify::draw::files::{self, ProofFile};
use urne_verify::draw::records::{ProofRecord, SealRecord};
use urne_verify::draw::{self, SealedSet};
use urne_verify::values::Attempt;
use urne_verify::verify::signed::read_signed;

/// `urne proof` with its arguments as given: either a day and an account, a day and `--all`,
/// or a block and a position (with the block's folder).
#[expect(
    clippy::too_many_arguments,
    reason = "the command's arguments as clap gives them, matched once here"
)]
pub fn run(
    ctx: &mut Ctx,
    day: Option<String>,
    account: Option<String>,
    all: bool,
    block: Option<String>,
    position: Option<u32>,
    dir: &Path,
    out: &Path,
) -> Result<()> {
    match (day, account, all, block, position) {
        (Some(d), Some(a), false, None, None) => day_proof(ctx, &d, &a, out),
        (Some(d), None, true, None, None) => all::all_proofs(ctx, &d, out),
        (None, None, false, Some(b), Some(p)) => ticket_proof(ctx, dir, &b, p, out),
        _ => Err(Error::new(
            Kind::Usage,
            crate::msg!(mc::ERR_PROOF_USAGE),
            crate::msg!(mc::REC_PROOF_USAGE),
        )),
    }
}

/// `urne proof --day D --account A --out FILE`.
fn day_proof(ctx: &mut Ctx, day: &str, account: &str, out: &Path) -> Result<()> {
    let day = inputs::check_day(day)?;
    let acct = parse_hex32(account).ok_or_else(|| {
        Error::new(
            Kind::BadAccount,
            crate::msg!(mc::ERR_PROOF_ACCOUNT),
            crate::msg!(mc::REC_PROOF_ACCOUNT),
        )
    })?;
    let (attempt, seal) = inputs::sealed_day(ctx, day)?;
    let set = inputs::sealed_set(ctx, &seal)?;
    let Some(pos) = set.accounts.iter().position(|a| a == &acct) else {
        return Err(Error::new(
            Kind::NoSuchAccount,
            crate::msg!(mc::ERR_PROOF_NO_ENTRY, account = account, day = day),
            crate::msg!(mc::REC_PROOF_NO_ENTRY),
        ));
    };
    let rk = ctx.hsm()?.public_key(KeyRole::Result)?;
    let proof = inclusion_proof(&seal, attempt, &set, pos, &rk);
    let published = urne_verify::verify::draw::PublishedSeal {
        operation: seal.operation.clone(),
        day: seal.day.to_string(),
        attempt: attempt.get(),
        commitment: seal.commitment.clone(),
    };
    urne_verify::verify::draw::verify_proof(&proof, &urne_verify::values::KeyId::of(&rk))
        .and_then(|()| urne_verify::verify::draw::published_is_the_proofs(&proof, &published))
        .map_err(|f| {
            Error::new(
                Kind::SelfCheckFailed,
                crate::msg!(mc::ERR_PROOF_SELF_CHECK, what = f.what),
                crate::msg!(mc::REC_PROOF_SELF_CHECK),
            )
        })?;
    let bytes = files::to_bytes(&proof);
    refuse_existing(out)?;
    let sig = ctx.hsm()?.sign(KeyRole::Result, &bytes)?;
    // Recorded first: a proof the trail could not record is never written (spec/appliance.md §6.5).
    ctx.record_evidence(ProofRecord {
        day,
        attempt,
        pseudonym: proof.pseudonym,
        file_sha256: sha256(&bytes),
    })?;
    publish::write_with_sig(out, &bytes, &sig)?;
    ctx.checkpoint()?;
    say!(
        "{}",
        msg!(
            if proof.entries == 1 {
                &S::SCR_PROOF_WRITTEN_ONE
            } else {
                &S::SCR_PROOF_WRITTEN
            },
            account = account,
            day = day,
            entries = proof.entries,
            leaf = pos,
            leaves = set.leaves.len(),
            path = out.display()
        )
    );
    Ok(())
}

/// The inclusion proof of the account at leaf `pos` of a sealed set: its salt, its pseudonym,
/// its entries and its Merkle path to the seal's commitment.
fn inclusion_proof(
    seal: &SealRecord,
    attempt: Attempt,
    set: &SealedSet,
    pos: usize,
    result_key: &[u8; 32],
) -> ProofFile {
    let leaves = &set.leaves;
    let hashes = draw::leaf_hashes(leaves);
    let key = draw::pseudonym_key(&draw::list_digest(
        &seal.operation,
        &seal.day.to_string(),
        &set.list(),
    ));
    let salt = draw::account_salt(&key, &set.accounts[pos]);
    ProofFile {
        format: files::PROOF_FORMAT.into(),
        version: 1,
        operation: seal.operation.clone(),
        day: seal.day.to_string(),
        attempt: attempt.get(),
        account: Hash32(set.accounts[pos]),
        salt,
        pseudonym: leaves[pos].pseudonym,
        entries: leaves[pos].entries,
        leaf: pos as u64,
        commitment: seal.commitment.clone(),
        path: merkle::inclusion_path(pos, &hashes),
        result_key_id: keys::key_id(result_key),
    }
}

/// `urne proof --block ID --position P --out FILE`.
fn ticket_proof(
    ctx: &mut Ctx,
    dir: &Path,
    block_arg: &str,
    position: u32,
    out: &Path,
) -> Result<()> {
    let id = inputs::parse_block(block_arg)?;
    // Logged in and the trail checked before anything is read, signed or written (spec/appliance.md §6.5).
    ctx.begin()?;
    let stem = block_files::stem(&id.canonical());
    // The appliance signs a proof only against a commitment it signed itself: the commitment's
    // signature is checked with the token's own result key before anything is read from it.
    let rk = ctx.hsm()?.public_key(KeyRole::Result)?;
    let commit_bytes = read_signed(&DiskFolder::open(dir), &format!("{stem}.commit.json"), &rk)
        .map_err(|f| {
            Error::new(
                Kind::CommitmentInvalid,
                crate::msg!(
                    mc::ERR_PROOF_COMMITMENT,
                    what = f.what,
                    class = f.class.name()
                ),
                crate::msg!(mc::REC_PROOF_COMMITMENT),
            )
        })?;
    let commit: CommitFile = serde_json::from_slice(&commit_bytes).map_err(|e| {
        Error::new(
            Kind::CommitmentInvalid,
            crate::msg!(mc::ERR_PROOF_COMMITMENT_JSON, e = e),
            "",
        )
    })?;
    if commit.block != id.canonical() {
        return Err(Error::new(
            Kind::CommitmentInvalid,
            crate::msg!(mc::ERR_PROOF_OTHER_BLOCK),
            crate::msg!(mc::REC_PROOF_OTHER_BLOCK),
        ));
    }
    let csv = dir.join(format!("{stem}.tickets.csv"));
    let row = inputs::find_row(&csv, position)?;
    // The leaves of every ticket, recomputed from the production file, must give the committed root.
    let leaves = ticket_leaves(&csv)?;
    if merkle::root(&leaves) != commit.outcomes_root {
        return Err(Error::new(
            Kind::CommitmentMismatch,
            crate::msg!(mc::ERR_PROOF_MISMATCH),
            crate::msg!(mc::REC_PROOF_MISMATCH),
        ));
    }
    let p = TicketProofFile {
        format: TICKET_PROOF_FORMAT.into(),
        version: 1,
        block: id.canonical(),
        position,
        row,
        block_size: commit.block_size,
        outcomes_root: commit.outcomes_root,
        path: merkle::inclusion_path(position as usize, &leaves),
        result_key_id: keys::key_id(&rk),
    };
    let bytes = files::to_bytes(&p);
    refuse_existing(out)?;
    let sig = ctx.hsm()?.sign(KeyRole::Result, &bytes)?;
    // Recorded first: a proof the trail could not record is never written (spec/appliance.md §6.5).
    ctx.record_evidence(block_records::ProofRecord {
        block: id.clone(),
        position,
        file_sha256: sha256(&bytes),
    })?;
    publish::write_with_sig(out, &bytes, &sig)?;
    ctx.checkpoint()?;
    say!(
        "{}",
        msg!(
            S::SCR_TICKET_PROOF_WRITTEN,
            block = p.block,
            position = position,
            path = out.display()
        )
    );
    Ok(())
}

/// A proof file is never written over anything (checked before it is recorded).
fn refuse_existing(out: &Path) -> Result<()> {
    if std::fs::symlink_metadata(out).is_ok() {
        return Err(Error::new(
            Kind::OutputExists,
            crate::msg!(
                crate::msg::catalogue::edge::ERR_OUTPUT_EXISTS,
                path = out.display()
            ),
            crate::msg!(mc::REC_PROOF_EXISTS),
        ));
    }
    Ok(())
}

/// The leaf hash of every ticket of a production file, in position order.
fn ticket_leaves(csv: &Path) -> Result<Vec<Hash32>> {
    use std::io::BufRead;
    let f = std::fs::File::open(csv)
        .map_err(|e| crate::error::io_error(crate::error::Io::Read, csv, e))?;
    std::io::BufReader::with_capacity(1 << 20, f)
        .lines()
        .skip(1)
        .map(|l| l.map(|l| urne_verify::block::tickets::ticket_leaf(l.as_bytes())))
        .collect::<std::io::Result<_>>()
        .map_err(|e| crate::error::io_error(crate::error::Io::Read, csv, e))
}
