//! A generation's randomness (spec/formats.md §3, §4.4.1, §5.B3): every block of the run gets its
//! entropy first (requested once, recorded sealed with its commitment), then one contribution of
//! the commissaire's covers every block of the run that has none yet, typed after all their
//! entropy commitments were recorded and shown. A run interrupted after either resumes with
//! exactly what was recorded (a block's entropy only under the rules file recorded with it).

use super::common::block_state;
use crate::cmd::ctx::Ctx;
use crate::cmd::randomness as shared;
use crate::error::{Error, Kind, Result};
use crate::msg;
use crate::msg::catalogue::sitting as S;
use urne_verify::block::BlockId;
use urne_verify::block::records::{ContributedBlock, ContributionRecord, EntropyRecord};
use urne_verify::crypto::{Hash32, sha256};
use urne_verify::randomness::entropy_commitment;
use urne_verify::rules::game::GameRules;

/// One block's randomness as the trail fixed it: the entropy (event `entropy_seq`), then the
/// contribution (event `contribution_seq`).
pub(super) struct Fixed {
    /// The `block.entropy` event.
    pub entropy_seq: u64,
    /// Its entropy commitment.
    pub entropy_commitment: Hash32,
    /// The entropy itself (never written in clear).
    pub entropy: Vec<u8>,
    /// The `block.contribution` event.
    pub contribution_seq: u64,
    /// The commissaire's contribution.
    pub contribution: String,
}

/// Fixes the randomness of every block of `ids`, in order: entropy, then the contribution.
pub(super) fn fix(ctx: &mut Ctx, rules: &GameRules, ids: &[BlockId]) -> Result<Vec<Fixed>> {
    let before = ctx.audit()?.events()?;
    for id in ids {
        if block_state(&before, id)?.contribution.is_none() {
            shared::need_terminal()?;
        }
    }
    let mut entropies = vec![];
    for id in ids {
        entropies.push(entropy_of(ctx, rules, id)?);
    }
    // The entropies are vouched for by the token before their commitments are shown.
    ctx.vouch(crate::edge::store::Vouch::ReadBack)?;
    let events = ctx.audit()?.events()?;
    let mut contributed: Vec<Option<(u64, String)>> = vec![];
    let mut missing = vec![];
    for (id, (_, r)) in ids.iter().zip(&entropies) {
        let st = block_state(&events, id)?;
        if st.contribution.is_none() {
            missing.push(ContributedBlock {
                block: id.clone(),
                attempt: r.attempt,
                entropy_commitment: r.entropy_commitment,
            });
        }
        contributed.push(st.contribution);
    }
    if !missing.is_empty() {
        let (seq, c) = contribute(ctx, &entropies, missing)?;
        for slot in contributed.iter_mut().filter(|s| s.is_none()) {
            *slot = Some((seq, c.clone()));
        }
    }
    let mut out = vec![];
    for ((seq, r), c) in entropies.into_iter().zip(contributed) {
        let (contribution_seq, contribution) =
            c.ok_or_else(|| Error::new(Kind::Defect, msg!(S::ERR_BLOCK_NO_CONTRIBUTION_LEFT), ""))?;
        let secret = format!("block {} attempt {}", r.block, r.attempt);
        let entropy =
            shared::recorded_entropy(ctx, &secret, &r.entropy_blob, &r.entropy_commitment)?;
        out.push(Fixed {
            entropy_seq: seq,
            entropy_commitment: r.entropy_commitment,
            entropy,
            contribution_seq,
            contribution,
        });
    }
    Ok(out)
}

/// One block's entropy: the one recorded for its current attempt (under the same rules file
/// only: the seed binds the rules' hash, spec/formats.md §5.B3), or fresh, recorded before anything.
fn entropy_of(ctx: &mut Ctx, rules: &GameRules, id: &BlockId) -> Result<(u64, EntropyRecord)> {
    let canonical = id.canonical();
    let events = ctx.audit()?.events()?;
    let st = block_state(&events, id)?;
    if let Some((seq, r)) = st.entropy {
        if r.rules_sha256 != *rules.sha256() {
            return Err(Error::new(
                Kind::RulesDiffer,
                msg!(
                    S::ERR_BLOCK_ENTROPY_OTHER_RULES,
                    block = canonical,
                    recorded = r.rules_sha256,
                    given = rules.sha256()
                ),
                msg!(S::REC_BLOCK_ENTROPY_OTHER_RULES),
            ));
        }
        note!(
            "{}",
            crate::msg!(
                crate::msg::catalogue::SCR_RESUME_BLOCK_ENTROPY,
                block = canonical,
                seq = seq
            )
        );
        return Ok((seq, r));
    }
    let purpose = format!("block {canonical}");
    let entropy = shared::fresh_entropy(ctx, &events, &purpose, st.attempt)?;
    let secret = format!("block {canonical} attempt {}", st.attempt);
    let stored = shared::stored_form(ctx, &secret, &entropy)?;
    let r = EntropyRecord {
        block: id.clone(),
        attempt: st.attempt,
        rules_sha256: *rules.sha256(),
        entropy_commitment: entropy_commitment(&entropy),
        entropy_blob: sha256(&stored),
    };
    // Marked, and the marks read back, once every block's entropy is recorded, before their
    // commitments are shown (`fix`).
    let e = ctx.record_with_blobs_as(r.clone(), &[&stored], crate::edge::store::Vouch::Later)?;
    Ok((e.seq, r))
}

/// The commissaire's contribution for the blocks `missing`, after their entropy commitments
/// were recorded and are shown; recorded as one `block.contribution` event.
fn contribute(
    ctx: &mut Ctx,
    entropies: &[(u64, EntropyRecord)],
    missing: Vec<ContributedBlock>,
) -> Result<(u64, String)> {
    let shown: Vec<(String, Hash32)> = missing
        .iter()
        .map(|b| {
            let seq = entropies
                .iter()
                .find(|(_, r)| r.block == b.block)
                .map_or(0, |(s, _)| *s);
            (
                crate::text::attempt_label(("bloc", "block"), &b.block, b.attempt, seq),
                b.entropy_commitment,
            )
        })
        .collect();
    // Kept per block (spec/formats.md §4.4.1): a block whose contribution was kept keeps it, whatever
    // other blocks a later run names with it.
    let keys: Vec<(String, Hash32)> = missing
        .iter()
        .map(|b| {
            (
                format!("block {} attempt {}", b.block, b.attempt),
                b.entropy_commitment,
            )
        })
        .collect();
    let c = shared::take_contribution(ctx, &keys, &shown)?;
    // Marked before anything is computed from it (as a draw's contribution).
    let e = ctx.record_as(
        ContributionRecord {
            blocks: missing,
            contribution: c.clone(),
        },
        crate::edge::store::Vouch::Mark,
    )?;
    Ok((e.seq, c))
}
