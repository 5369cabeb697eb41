//! `urne block reveal`: the block's recorded entropy and seed, published once the block closed.

use super::common::{block_state, parse_block_arg};
use crate::cmd::ctx::Ctx;
use crate::cmd::inputs::altered;
use crate::edge::hsm::KeyRole;
use crate::edge::publish;
use crate::error::{Error, Result, io_error};
use std::path::Path;
use urne_core::audit::kinds::{self, Record};
use urne_core::block::files::{self, REVEAL_FORMAT, RevealFile};
use urne_core::block::records::{GeneratedRecord, RevealedRecord};
use urne_core::block::{self, BlockId};
use urne_core::crypto::{Hash32, keys, sha256};

/// `urne block reveal`: load the block's recorded entropy -> record the reveal -> publish the
/// signed reveal file.
pub(super) fn reveal(ctx: &mut Ctx, block_arg: &str, out: &Path) -> Result<()> {
    let id = parse_block_arg(
        block_arg,
        "give the block's canonical id, e.g. noel-de-la-chance-2015/100/E1/1",
    )?;
    ctx.begin()?;
    let rv = load_reveal(ctx, &id)?;
    let name = format!("{}.reveal.json", files::stem(&rv.canonical));
    if rv.revealed && out.join(&name).exists() {
        return adopt_reveal(ctx, &rv, out, &name);
    }
    if !rv.revealed {
        ctx.record(RevealedRecord {
            block: rv.canonical.clone(),
            attempt: rv.attempt,
            entropy: hex::encode(&rv.entropy),
            seed: rv.seed,
        })?;
    }
    let canonical = rv.canonical.clone();
    let (r, name) = publish_reveal(ctx, rv, out)?;
    say!("REVEALED: block {canonical}");
    say!("  entropy  {}", r.entropy);
    say!("  seed     {}", r.seed);
    say!("  written  {}", out.join(&name).display());
    say!(
        "anyone can now recompute the block: urne verify {}",
        out.display()
    );
    Ok(())
}

/// A reveal whose file is already in place (a run killed after placing it, before recording
/// it as the output the next one names): when it is this block's, with the recorded entropy and
/// a valid signature, it is recorded as it is, once; anything else is refused.
fn adopt_reveal(ctx: &mut Ctx, rv: &Revealing, out: &Path, name: &str) -> Result<()> {
    let rk = ctx.hsm()?.public_key(KeyRole::Result)?;
    let bytes = std::fs::read(out.join(name)).map_err(|e| io_error("read", &out.join(name), e))?;
    let sig = std::fs::read(out.join(format!("{name}.sig"))).unwrap_or_default();
    let file: Option<RevealFile> = serde_json::from_slice(&bytes).ok();
    let ours = urne_core::crypto::ed25519::verify(&rk, &bytes, &sig)
        && file.as_ref().is_some_and(|f| {
            f.block == rv.canonical && f.entropy == hex::encode(&rv.entropy) && f.seed == rv.seed
        });
    let Some(file) = file.filter(|_| ours) else {
        return Err(Error::refused(
            format!(
                "{} exists and is not this block's signed reveal",
                out.join(name).display()
            ),
            "block reveal never replaces a file: move it away and keep it as evidence",
        ));
    };
    let sha = sha256(&bytes);
    let events = ctx.audit()?.events()?;
    let recorded = events.iter().any(|e| {
        matches!(kinds::parse(e), Ok(Record::OutputPublished(p)) if p.file == name && p.sha256 == sha)
    });
    if !recorded {
        let output = ctx.output_record(name, sha, &file.audit_checkpoint)?;
        ctx.record_evidence(output)?;
        note!(
            "resuming block {}: its reveal was already in place; recording it as published",
            rv.canonical
        );
    }
    say!(
        "REVEALED: block {} (already; its reveal is {})",
        rv.canonical,
        out.join(name).display()
    );
    Ok(())
}

/// A generated block about to be revealed: its recorded entropy and the seed made from it.
struct Revealing {
    canonical: String,
    attempt: u32,
    revealed: bool,
    /// The `block.generated` record.
    generated: GeneratedRecord,
    entropy: Vec<u8>,
    rules_sha: Hash32,
    seed: Hash32,
}

/// Load state: the block must be generated and published; its entropy and the rules it was
/// generated under, read back from the trail, give the seed.
fn load_reveal(ctx: &mut Ctx, id: &BlockId) -> Result<Revealing> {
    let canonical = id.canonical();
    let events = ctx.audit()?.events()?;
    crate::cmd::void_notice::refuse_if_unannounced(&events)?;
    let st = block_state(&events, &canonical)?;
    if st.carried {
        return Err(Error::refused(
            format!(
                "block {canonical} was generated under the trail this one replaced: its secret entropy stayed in that trail"
            ),
            "it cannot be revealed from this trail: void it in front of the commissaire (urne block void) and generate it again",
        ));
    }
    let Some(g) = st.generated.clone().filter(|_| st.published.is_some()) else {
        return Err(Error::refused(
            format!("block {canonical} has not been generated"),
            "only a generated block can be revealed",
        ));
    };
    let (blob, ec) = st
        .entropy
        .as_ref()
        .map(|(_, r)| (r.entropy_blob, r.entropy_commitment))
        .ok_or_else(|| {
            altered(&format!(
                "block {canonical} was generated, but no entropy is recorded"
            ))
        })?;
    let (_, contribution) = st.contribution.clone().ok_or_else(|| {
        altered(&format!(
            "block {canonical} was generated, but no contribution is recorded"
        ))
    })?;
    let secret = format!("block {canonical} attempt {}", st.attempt);
    let entropy = crate::cmd::randomness::recorded_entropy(ctx, &secret, &blob, &ec)?;
    let rules_sha = st.entropy_rules_sha256().ok_or_else(|| {
        altered(&format!(
            "block {canonical}: no rules hash is recorded with its entropy"
        ))
    })?;
    let seed = block::block_seed_of(id, &rules_sha, Some(&contribution), &entropy);
    Ok(Revealing {
        canonical,
        attempt: st.attempt,
        revealed: st.revealed.is_some(),
        generated: g,
        entropy,
        rules_sha,
        seed,
    })
}

/// Publish: the signed reveal file, then a checkpoint. Returns it and its file name.
fn publish_reveal(ctx: &mut Ctx, rv: Revealing, out: &Path) -> Result<(RevealFile, String)> {
    let checkpoint = ctx.checkpoint()?;
    let history = ctx.history()?;
    let hsm = ctx.hsm()?;
    let rk = hsm.public_key(KeyRole::Result)?;
    let ak = hsm.public_key(KeyRole::Audit)?;
    let g = &rv.generated;
    let r = RevealFile {
        format: REVEAL_FORMAT.into(),
        version: 2,
        block: rv.canonical.clone(),
        rules_sha256: rv.rules_sha,
        entropy: hex::encode(&rv.entropy),
        seed: rv.seed,
        seed_commitment: g.seed_commitment,
        outcomes_root: g.outcomes_root,
        revealed_at: crate::edge::clock::now_rfc3339(),
        audit_checkpoint: checkpoint,
        result_key_id: keys::key_id(&rk),
        history: Some(history),
    };
    let name = format!("{}.reveal.json", files::stem(&rv.canonical));
    let bytes = urne_core::draw::files::to_bytes(&r);
    let sha = sha256(&bytes);
    publish::write_signed(ctx.hsm()?, out, &[(name.as_str(), bytes)], &[], (&rk, &ak))?;
    let output = ctx.output_record(&name, sha, &r.audit_checkpoint)?;
    ctx.record_evidence(output)?;
    Ok((r, name))
}
