//! A generated block's outputs (spec/formats.md §5.B9, §6.7): its signed production file on the secret
//! medium, its signed commitment in the output folder (where it goes recorded first), its
//! manifest last (staged with the commitment), then their record; a commitment a stopped run
//! left whole in place is recorded as it is, and its manifest staged and placed after it.

use super::common::Made;
use super::folders::Folders;
use super::randomness;
use crate::cmd::ctx::Ctx;
use crate::cmd::placing;
use crate::edge::hsm::KeyRole;
use crate::edge::{fsio, publish};
use crate::error::{Error, Kind, Result};
use crate::msg;
use crate::msg::catalogue::sitting as S;
use std::collections::BTreeMap;
use std::path::Path;
use urne_verify::block::BlockId;
use urne_verify::block::files::{self, COMMIT_FORMAT, CommitFile};
use urne_verify::block::records::PublishedRecord;
use urne_verify::crypto::{Hash32, keys, sha256};
use urne_verify::manifest::{self, Audience, Listed, Manifest};
use urne_verify::rules::game::GameRules;
use urne_verify::values::Attempt;

/// Outputs and publish: the signed production file on the secret medium, then the signed
/// commitment in the output folder and its manifest last, then their record. Returns the
/// commitment's file name.
pub(super) fn publish_block(
    ctx: &mut Ctx,
    rules: &GameRules,
    (id, attempt, r): (&BlockId, Attempt, &randomness::Fixed),
    made: Made,
    f: &Folders,
) -> Result<String> {
    let canonical = id.canonical();
    let stem = files::stem(&canonical);
    let commit = commit_file(ctx, rules, (id, attempt, r), &made)?;
    let rk = ctx.hsm()?.public_key(KeyRole::Result)?;
    let commit_name = format!("{stem}.commit.json");
    let csv_name = format!("{stem}.tickets.csv");
    let placed = placed_before(&f.out, &commit_name, &made, &rk, &commit);
    // The manifest lists the commitment in place, the rules beside it and the production file
    // (spec/formats.md §5.B9).
    let listed_too = [
        rules_listed(&f.out, rules)?,
        Listed {
            name: csv_name.clone(),
            size: made.csv.len() as u64,
            sha256: made.csv_sha,
            audience: Audience::Production,
        },
    ];
    let m_name = manifest::block_file(&stem);
    let manifest_of = |bytes: &[u8], c: &CommitFile| {
        let mut listed = vec![Listed::of(&commit_name, bytes, Audience::Public)];
        listed.extend(listed_too.iter().cloned());
        let m = Manifest::new(
            &c.game,
            (None, Some(&c.block)),
            attempt.get(),
            listed,
            &c.result_key_id,
        );
        [(m_name.as_str(), urne_verify::draw::files::to_bytes(&m))]
    };
    let secret = [(csv_name.as_str(), made.csv)];
    let mut written = match placed {
        None => {
            // Fresh: the manifest is staged with the commitment and moved into place after it.
            let m_file = manifest_of(&urne_verify::draw::files::to_bytes(&commit), &commit);
            let commit_in = (commit_name.as_str(), &commit);
            place_block(ctx, f, (id, attempt), &secret, commit_in, &m_file)?
        }
        Some(commit_sha) => adopt_block(ctx, f, &secret, (&commit_name, commit_sha))?,
    };
    // The commitment in place (this run's, or a killed run's found whole) is the output the
    // next one names.
    let placed_bytes = fsio::read_in(&f.out, &commit_name).unwrap_or_default();
    let placed_commit: CommitFile = serde_json::from_slice(&placed_bytes).map_err(|_| {
        Error::new(
            Kind::SelfCheckFailed,
            msg!(S::ERR_BLOCK_COMMIT_UNREADABLE, name = commit_name),
            msg!(S::REC_BLOCK_COMMIT_UNREADABLE),
        )
    })?;
    if placed.is_some() {
        // Adopted: its manifest last (spec/formats.md §5.B9), in a staging of its own.
        let m_file = manifest_of(&placed_bytes, &placed_commit);
        publish::refuse_taken(&f.out, &m_file, "--out")?;
        let hsm = ctx.hsm()?;
        written.extend(publish::stage_signed(hsm, &f.out, &m_file, &[], None, false)?.publish()?);
    }
    let output = match written.get(&commit_name).copied() {
        Some(sha) => Some(ctx.output_record(&commit_name, sha, &placed_commit.audit_checkpoint)?),
        None => None,
    };
    // Marked with the next block's placing, or when the command ends (`Ctx::finish`).
    ctx.record_evidence_as(
        PublishedRecord {
            block: id.clone(),
            attempt,
            out: f.out.display().to_string(),
            files: written,
            output,
        },
        crate::edge::store::Vouch::Later,
    )?;
    Ok(commit_name)
}

/// A block whose commitment is in place already (`commit_sha`, a stopped run's): its production
/// file only is put on the secret medium (kept as it is when there with these very bytes,
/// recomputed from the entropy). Returns the SHA-256 of the production file and of the
/// commitment, by name.
fn adopt_block(
    ctx: &mut Ctx,
    f: &Folders,
    secret: &[(&str, Vec<u8>)],
    (commit_name, commit_sha): (&str, Hash32),
) -> Result<BTreeMap<String, Hash32>> {
    publish::refuse_taken(&f.secret, secret, "--secret-out")?;
    let hsm = ctx.hsm()?;
    let mut w = publish::stage_signed(hsm, &f.secret, secret, &[], None, true)?.publish()?;
    w.insert(commit_name.to_string(), commit_sha);
    Ok(w)
}

/// Places a block's files: where its commitment goes is recorded first (spec/formats.md §6.7: a
/// run stopped from then on is taken up in this folder only), then they are written. Returns the
/// SHA-256 of each file placed.
fn place_block(
    ctx: &mut Ctx,
    f: &Folders,
    (id, attempt): (&BlockId, Attempt),
    secret: &[(&str, Vec<u8>)],
    (commit_name, commit): (&str, &CommitFile),
    manifest: &[(&str, Vec<u8>)],
) -> Result<BTreeMap<String, Hash32>> {
    let commit_sha = sha256(&urne_verify::draw::files::to_bytes(commit));
    let subject = placing::Subject::Block {
        block: id.clone(),
        attempt,
    };
    let listed = [(commit_name.to_string(), commit_sha)].into();
    placing::record(ctx, &f.out, subject, commit_name, &listed)?;
    write_block(ctx, f, secret, (commit_name, commit), manifest)
}

/// The entry of the folder's `rules.json` in a block's manifest: the very rules of the block.
fn rules_listed(out: &Path, rules: &GameRules) -> Result<Listed> {
    let bytes = fsio::read_in(out, "rules.json")?;
    if sha256(&bytes) != *rules.sha256() {
        return Err(Error::new(
            Kind::RulesDiffer,
            msg!(
                S::ERR_BLOCK_OTHER_RULES,
                path = out.join("rules.json").display()
            ),
            msg!(S::REC_BLOCK_OTHER_RULES),
        ));
    }
    Ok(Listed::of("rules.json", &bytes, Audience::Public))
}

/// Writes a block's files, whole or not at all in each folder: both parts staged (the
/// production file and its signature on the secret medium, mode 0600; the commitment, its
/// signature, the public keys, the manifest and its signature in the output folder), then the
/// secret part moved into place, then the public one (the commitment, then the manifest last),
/// so a commitment never appears before its production file and both signatures, nor the
/// manifest before the files it lists. Refuses before staging anything if a name holds other
/// bytes. Returns the SHA-256 of the production file, of the commitment and of the manifest, by
/// name.
fn write_block(
    ctx: &mut Ctx,
    f: &Folders,
    secret: &[(&str, Vec<u8>)],
    (commit_name, commit): (&str, &CommitFile),
    manifest: &[(&str, Vec<u8>)],
) -> Result<BTreeMap<String, Hash32>> {
    let public = [(commit_name, urne_verify::draw::files::to_bytes(commit))];
    publish::refuse_taken(&f.secret, secret, "--secret-out")?;
    publish::refuse_taken(&f.out, &public, "--out")?;
    publish::refuse_taken(&f.out, manifest, "--out")?;
    let hsm = ctx.hsm()?;
    let keys = (
        &hsm.public_key(KeyRole::Result)?,
        &hsm.public_key(KeyRole::Audit)?,
    );
    let s = publish::stage_signed(hsm, &f.secret, secret, &[], None, true)?;
    let mut p = publish::stage_signed(hsm, &f.out, &public, &[], Some(keys), false)?;
    p.stage_after(hsm, manifest)?;
    let mut written = s.publish()?;
    written.extend(p.publish()?);
    Ok(written)
}

/// The block's signed commitment (spec/formats.md §5.B9), for the trail as it stands.
fn commit_file(
    ctx: &mut Ctx,
    rules: &GameRules,
    (id, attempt, r): (&BlockId, Attempt, &randomness::Fixed),
    made: &Made,
) -> Result<CommitFile> {
    let canonical = id.canonical();
    let checkpoint = ctx.checkpoint()?;
    let history = ctx.history()?;
    let (fixed, refused) = crate::cmd::randomness::evidence(
        &ctx.audit()?.events()?,
        (&format!("block {canonical}"), attempt),
        (r.entropy_seq, r.contribution_seq),
    )?;
    let software = ctx.software()?;
    let (rk, ak) = (
        ctx.hsm()?.public_key(KeyRole::Result)?,
        ctx.hsm()?.public_key(KeyRole::Audit)?,
    );
    let stem = files::stem(&canonical);
    let commit = CommitFile {
        format: COMMIT_FORMAT.into(),
        version: 2,
        block: canonical.clone(),
        game: id.game().into(),
        price_cents: id.price_cents(),
        emission: id.emission().into(),
        number: id.number(),
        attempt: attempt.get(),
        rules_sha256: *rules.sha256(),
        unofficial_rules: urne_verify::rules::official::standing(id.game(), rules.sha256()).mark(),
        block_size: rules.block_size(),
        tiers: made.counts.clone(),
        outcomes_root: made.root,
        seed_commitment: made.seed_commitment,
        entropy_commitment: Some(r.entropy_commitment),
        contribution: Some(r.contribution.clone()),
        entropy_refused: Some(refused),
        fixed: Some(fixed),
        tickets_file: format!("{stem}.tickets.csv"),
        tickets_sha256: made.csv_sha,
        generated_at: crate::edge::clock::now_rfc3339(),
        audit_checkpoint: checkpoint,
        result_key_id: keys::key_id(&rk),
        audit_key_id: keys::key_id(&ak),
        software,
        pkcs11: Some(ctx.pkcs11_identity()?),
        history: Some(history),
    };
    Ok(commit)
}

/// A kill after the commitment was moved into place but before it was recorded leaves it whole in
/// the output folder (its production file was placed before it, on the secret medium): the
/// resumed run records it as it is (when it is this very block's, with a valid signature)
/// instead of writing another commitment, and returns its SHA-256. Whether the production file
/// is on the secret medium given now is the caller's to make sure of.
fn placed_before(
    out: &Path,
    commit_name: &str,
    made: &Made,
    rk: &[u8; 32],
    expected: &CommitFile,
) -> Option<Hash32> {
    let read = |n: &str| fsio::read_in(out, n).ok();
    let commit_bytes = read(commit_name)?;
    let sig = read(&format!("{commit_name}.sig"))?;
    if !urne_verify::crypto::ed25519::verify(rk, &commit_bytes, &sig) {
        return None;
    }
    let c: CommitFile = serde_json::from_slice(&commit_bytes).ok()?;
    // Everything that names this block's attempt and its outcomes must be what was just
    // recomputed from the recorded entropy; only the time, checkpoint and software may differ.
    let same = c.block == expected.block
        && c.attempt == expected.attempt
        && c.rules_sha256 == expected.rules_sha256
        && c.tiers == expected.tiers
        && c.outcomes_root == made.root
        && c.seed_commitment == made.seed_commitment
        && c.tickets_file == expected.tickets_file
        && c.tickets_sha256 == made.csv_sha
        && c.result_key_id == expected.result_key_id;
    if !same {
        return None;
    }
    note!(
        "{}",
        crate::msg!(
            crate::msg::catalogue::SCR_RESUME_BLOCK_PLACED,
            block = expected.block
        )
    );
    Some(sha256(&commit_bytes))
}
