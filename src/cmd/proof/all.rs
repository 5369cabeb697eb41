//! `urne proof --day D --all --out FILE`: every account's inclusion proof of a sealed day in one
//! file (spec/formats.md §4.8, "every proof of a day"), for production, which hands each player
//! their own line. Read the sealed set -> compute the key and the tree's levels once -> check
//! the first and last proofs -> stage the file line by line (mode 0600: it maps every account to
//! its salt) -> record `draw.proofs` with its hash -> place it. No line is signed: each leads to
//! the commitment of the published signed result.

use super::super::ctx::Ctx;
use super::super::inputs;
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
use urne_verify::draw::proofs::{AllProofs, line};
use urne_verify::draw::records::ProofsRecord;
use urne_verify::values::KeyId;
use urne_verify::verify::draw::{PublishedSeal, published_is_the_proofs, verify_proof};

/// A progress line is drawn for days of at least this many accounts.
const PROGRESS_FROM: usize = 10_000;

/// `urne proof --day D --all --out FILE`.
pub(super) fn all_proofs(ctx: &mut Ctx, day: &str, out: &Path) -> Result<()> {
    let day = inputs::check_day(day)?;
    ctx.begin()?;
    let events = ctx.audit()?.events()?;
    let st = inputs::day_state(&events, day)?;
    let Some((_, seal)) = st.seal.clone() else {
        return Err(Error::new(
            Kind::DayNotSealed,
            crate::msg!(mc::ERR_PROOF_NOT_SEALED, day = day),
            crate::msg!(mc::REC_PROOF_NOT_SEALED),
        ));
    };
    // A file is never written over (checked again as it is staged).
    let (dir_path, name) = fsio::split(out)?;
    let dir = fsio::out_folder(&dir_path)?;
    if !matches!(dir.kind(&name), Ok(None)) {
        return Err(fsio::already_exists(out));
    }
    let set = inputs::sealed_set(ctx, &seal)?;
    let rk = ctx.hsm()?.public_key(KeyRole::Result)?;
    let all = AllProofs::new(
        &set,
        &seal.operation,
        seal.day,
        st.attempt,
        seal.commitment.clone(),
        &rk,
    );
    self_check(&all, &seal, st.attempt.get(), &rk)?;
    note!("{}", msg!(S::SCR_PROOFS_PRODUCTION_ONLY));
    if !matches!(dir.kind(&name), Ok(None)) {
        return Err(fsio::already_exists(out));
    }
    // Staged whole, readable by its owner only, hashed as it is written; placed only once the
    // trail records it (spec/appliance.md §6.5).
    let mut staged = Staging::new(&dir)?.private();
    let mut sha = Sha256::new();
    staged.write_with(&name, |f| {
        let mut w = std::io::BufWriter::with_capacity(1 << 20, f);
        let n = all.len();
        for i in 0..n {
            let l = line(&all.proof(i));
            sha.update(&l);
            w.write_all(&l)?;
            if n >= PROGRESS_FROM && (i + 1) % (n / 50).max(1) == 0 {
                progress(i + 1, n);
            }
        }
        if n >= PROGRESS_FROM {
            progress(n, n);
            note!();
        }
        w.flush()
    })?;
    let file_sha256 = Hash32(sha.finalize().into());
    // Recorded first: a file the trail could not record is never placed (spec/appliance.md §6.5).
    ctx.record_evidence(ProofsRecord {
        day,
        attempt: st.attempt,
        count: all.len() as u64,
        file_sha256,
    })?;
    staged.publish(&[name.as_str()])?;
    ctx.checkpoint()?;
    say!(
        "{}",
        msg!(
            S::SCR_PROOFS_WRITTEN,
            count = all.len(),
            day = day,
            attempt = st.attempt,
            path = out.display()
        )
    );
    say!("{}", msg!(S::SCR_PROOFS_PRODUCTION_ONLY));
    Ok(())
}

/// The levels' root is the seal's, and the first and the last proofs verify against the seal
/// (every path is read from the same levels): nothing is written otherwise.
fn self_check(
    all: &AllProofs<'_>,
    seal: &urne_verify::draw::records::SealRecord,
    attempt: u32,
    rk: &[u8; 32],
) -> Result<()> {
    let failed = |what: String| {
        Error::new(
            Kind::SelfCheckFailed,
            crate::msg!(mc::ERR_PROOF_SELF_CHECK, what = what),
            crate::msg!(mc::REC_PROOF_SELF_CHECK),
        )
    };
    if all.root() != seal.commitment.root {
        return Err(failed(
            "the sealed set's root is not the seal's commitment".into(),
        ));
    }
    let published = PublishedSeal {
        operation: seal.operation.clone(),
        day: seal.day.to_string(),
        attempt,
        commitment: seal.commitment.clone(),
    };
    for i in [0, all.len().saturating_sub(1)] {
        if all.is_empty() {
            break;
        }
        let p = all.proof(i);
        verify_proof(&p, &KeyId::of(rk))
            .and_then(|()| published_is_the_proofs(&p, &published))
            .map_err(|f| failed(f.what))?;
    }
    Ok(())
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
