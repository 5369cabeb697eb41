//! `urne proof --day D --all --out FILE`: every account's inclusion proof of a sealed day in one
//! file (spec/formats.md §4.8, "every proof of a day"), for production, which hands each player
//! their own line, in memory that does not grow with the day ([`super::stream`]): pass 1 over
//! the stored set (leaf hashes, the accounts' sorted runs) -> the key and the tree's levels, in
//! scratch files -> the root checked against the seal -> pass 2 over the set again, each line
//! staged as it is made (mode 0600: it maps every account to its salt; every proof verified
//! as it is made) -> record `draw.proofs` with its hash -> place it. No line is signed: each
//! leads to the commitment of the published signed result.

use super::super::ctx::Ctx;
use super::super::inputs;
use super::stream;
use crate::edge::fsio::{self, Staging};
use crate::edge::hsm::KeyRole;
use crate::error::{Error, Kind, Result};
use crate::msg;
use crate::msg::catalogue::cmd as mc;
use crate::msg::catalogue::sitting as S;
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::Path;
use urne_verify::crypto::Hash32;
use urne_verify::crypto::keys;
use urne_verify::draw::account_salt;
use urne_verify::draw::files::{PROOF_FORMAT, ProofFile};
use urne_verify::draw::proofs::line;
use urne_verify::draw::records::ProofsRecord;
use urne_verify::values::KeyId;
use urne_verify::verify::draw::{PublishedSeal, published_is_the_proofs, verify_proof};

/// A progress line is drawn for days of at least this many accounts.
const PROGRESS_FROM: usize = 10_000;

/// `urne proof --day D --all --out FILE`.
#[expect(
    clippy::too_many_lines,
    reason = "one command's steps in their order: the day, pass 1, the checks, pass 2, the record, the placing"
)]
pub(super) fn all_proofs(ctx: &mut Ctx, day: &str, out: &Path) -> Result<()> {
    let day = inputs::check_day(day)?;
    let (attempt, seal) = inputs::sealed_day(ctx, day)?;
    // A file is never written over (checked again as it is staged).
    let (dir_path, name) = fsio::split(out)?;
    let dir = fsio::out_folder(&dir_path)?;
    if !matches!(dir.kind(&name), Ok(None)) {
        return Err(fsio::already_exists(out));
    }
    let rk = ctx.hsm()?.public_key(KeyRole::Result)?;
    let count = usize::try_from(seal.commitment.leaves).unwrap_or(usize::MAX);
    // Readable by its owner only: the file and the scratch files map accounts to salts.
    let mut staged = Staging::new(&dir)?.private();
    let scratch_error = |e: std::io::Error| crate::error::io_error(crate::error::Io::Write, out, e);
    // Pass 1: the leaves' hashes and the accounts' sorted runs, from the set read in pieces
    // (its recorded hash checked at the end of the pass).
    let mut p1 = stream::Pass1::new(staged.scratch()?, staged.scratch()?);
    let mut records = stream::Records::default();
    let mut failed_io = None;
    ctx.audit()?.blob_pieces(&seal.set_sha256, |piece| {
        records.each(piece, |r| {
            if failed_io.is_none() {
                failed_io = p1.push(&r).err();
            }
        });
    })?;
    if let Some(e) = failed_io {
        return Err(scratch_error(e));
    }
    if !records.whole() || !p1.well_formed || p1.n != count {
        return Err(Error::new(
            Kind::RecordUnreadable,
            crate::msg!(mc::ERR_INPUT_SEALED_SET),
            crate::msg!(mc::REC_INPUT_SEALED_SET),
        ));
    }
    let (key, levels) = p1
        .finish(&seal.operation, &seal.day.to_string(), || {
            staged
                .scratch()
                .map_err(|e| std::io::Error::other(e.to_string()))
        })
        .map_err(scratch_error)?;
    if levels.root() != seal.commitment.root {
        return Err(self_check_failed(
            "the sealed set's root is not the seal's commitment",
        ));
    }
    note!("{}", msg!(S::SCR_PROOFS_PRODUCTION_ONLY));
    if !matches!(dir.kind(&name), Ok(None)) {
        return Err(fsio::already_exists(out));
    }
    // Pass 2: every line, in leaf order, from the set read again (its hash checked again: a set
    // changed between the passes fails here, and nothing is placed). Staged whole and hashed as
    // written; placed only once the trail records it (spec/appliance.md §6.5).
    let published = PublishedSeal {
        operation: seal.operation.clone(),
        day: seal.day.to_string(),
        attempt: attempt.get(),
        commitment: seal.commitment.clone(),
    };
    let proof_of = |i: usize, r: &stream::Record, path: Vec<Hash32>| ProofFile {
        format: PROOF_FORMAT.into(),
        version: 1,
        operation: seal.operation.clone(),
        day: seal.day.to_string(),
        attempt: attempt.get(),
        account: Hash32(r.account),
        salt: account_salt(&key, &r.account),
        pseudonym: r.leaf.pseudonym,
        entries: r.leaf.entries,
        leaf: i as u64,
        commitment: seal.commitment.clone(),
        path,
        result_key_id: keys::key_id(&rk),
    };
    let key_id = KeyId::of(&rk);
    let mut paths = levels.paths().map_err(scratch_error)?;
    let mut sha = Sha256::new();
    let mut stopped: Option<Error> = None;
    let audit = ctx.audit()?;
    let written = staged.write_with(&name, |file| {
        let mut writer = std::io::BufWriter::with_capacity(1 << 20, file);
        let mut records = stream::Records::default();
        let mut i = 0usize;
        let mut failed: Option<std::io::Error> = None;
        let read = audit.blob_pieces(&seal.set_sha256, |piece| {
            records.each(piece, |r| {
                if failed.is_some() || stopped.is_some() {
                    return;
                }
                let path = match paths.path(i) {
                    Ok(p) => p,
                    Err(e) => {
                        failed = Some(e);
                        return;
                    }
                };
                let p = proof_of(i, &r, path);
                // Every line verified as it is made, as a player's page would: a scratch file
                // changed under the run (the levels, the runs) stops it, and nothing is placed.
                if let Err(f) =
                    verify_proof(&p, &key_id).and_then(|()| published_is_the_proofs(&p, &published))
                {
                    stopped = Some(self_check_failed(&f.what));
                    return;
                }
                let l = line(&p);
                sha.update(&l);
                failed = writer.write_all(&l).err();
                i += 1;
                if count >= PROGRESS_FROM && i.is_multiple_of((count / 50).max(1)) {
                    progress(i, count);
                }
            });
        });
        if count >= PROGRESS_FROM {
            note!();
        }
        if let Err(e) = read {
            stopped.get_or_insert(e);
        }
        if stopped.is_some() {
            return Err(std::io::Error::other("stopped"));
        }
        if let Some(e) = failed {
            return Err(e);
        }
        writer.flush()
    });
    if let Some(e) = stopped {
        return Err(e);
    }
    written?;
    let file_sha256 = Hash32(sha.finalize().into());
    // Recorded first: a file the trail could not record is never placed (spec/appliance.md §6.5).
    ctx.record_evidence(ProofsRecord {
        day,
        attempt,
        count: count as u64,
        file_sha256,
    })?;
    staged.publish(&[name.as_str()])?;
    ctx.checkpoint()?;
    say!(
        "{}",
        msg!(
            S::SCR_PROOFS_WRITTEN,
            count = count,
            day = day,
            attempt = attempt,
            path = out.display()
        )
    );
    say!("{}", msg!(S::SCR_PROOFS_PRODUCTION_ONLY));
    Ok(())
}

fn self_check_failed(what: &str) -> Error {
    Error::new(
        Kind::SelfCheckFailed,
        crate::msg!(mc::ERR_PROOF_SELF_CHECK, what = what),
        crate::msg!(mc::REC_PROOF_SELF_CHECK),
    )
}

/// The progress of the file, `i` of `n` proofs written: a bar redrawn in place on its line.
fn progress(i: usize, n: usize) {
    let w = 30;
    let done = (i * w) / n;
    note_raw!(
        "\r[{}{}] {}",
        "#".repeat(done),
        "-".repeat(w - done),
        crate::msg!(
            crate::msg::catalogue::SCR_PROGRESS_PROOFS,
            done = i,
            total = n
        )
    );
}
