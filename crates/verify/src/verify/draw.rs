//! Verification of a daily draw (spec/formats.md §8.2), step by step in the order the spec numbers them.

use super::{FailureClass as C, VResult, fail};
use crate::crypto::{Hash32, merkle};
use crate::draw::files::{BundleFile, CommitmentRef, Placed, ProofFile, PublicPlaced, ResultFile};
use crate::draw::{self, AccountEntries, Commitment, Leaf, SeedInputs};
use crate::values::{Attempt, Day, KeyId};

/// Parses the commitment reference of a published file (`{root, leaves, entries}`, spec/formats.md §4.7).
pub fn commitment_of(c: &CommitmentRef) -> VResult<Commitment> {
    Ok(Commitment {
        root: c.root,
        leaves: c.leaves,
        entries: c.entries,
    })
}

/// spec/formats.md §8.2 step 2: the published leaves (`leaves.bin`, already signature-checked) are the bundle's
/// and hash to its commitment.
pub fn verify_leaves(b: &BundleFile, leaves_bytes: &[u8]) -> VResult<Vec<Leaf>> {
    if crate::crypto::sha256(leaves_bytes) != b.leaves_sha256 {
        return Err(fail(
            C::Inconsistent,
            format!("{} is not the leaves file the bundle names", b.leaves_file),
        ));
    }
    let leaves = draw::decode_leaves(leaves_bytes).ok_or_else(|| {
        fail(C::Malformed, "leaves.bin is not whole 33-byte leaves in strictly increasing pseudonym order with entries >= 1")
    })?;
    if leaves.is_empty() {
        return Err(fail(
            C::Inconsistent,
            "the bundle has no leaves: a day without entries is never drawn (spec/formats.md §4.5)",
        ));
    }
    let claimed = commitment_of(&b.core.commitment)?;
    let got = draw::commit_encoded(leaves_bytes);
    if got != claimed {
        return Err(fail(
            C::CommitmentMismatch,
            format!(
                "the published leaves give root {} ({} leaves, {} entries), the commitment says {} ({} leaves, {} entries)",
                got.root,
                got.leaves,
                got.entries,
                b.core.commitment.root,
                claimed.leaves,
                claimed.entries
            ),
        ));
    }
    if b.core.figures.entries != got.entries || b.core.figures.accounts_with_entries != got.leaves {
        return Err(fail(
            C::Inconsistent,
            "figures.entries and figures.accounts_with_entries are not the committed leaves' sum and count",
        ));
    }
    Ok(leaves)
}

/// spec/formats.md §8.2 step 4: the winner and reserves follow from the seed (already checked, step 3) and the
/// leaves.
pub fn verify_selection(b: &BundleFile, leaves: &[Leaf], seed: &Hash32) -> VResult<()> {
    verify_selection_in(b, leaves, &draw::Ranges::of(leaves), seed)
}

/// [`verify_selection`] with the leaves' ranges computed already ([`draw::Ranges::of`] of
/// `leaves`; ranges of a different count of leaves fail).
pub fn verify_selection_in(
    b: &BundleFile,
    leaves: &[Leaf],
    ranges: &draw::Ranges,
    seed: &Hash32,
) -> VResult<()> {
    if ranges.len() != leaves.len() {
        return Err(fail(
            C::Inconsistent,
            format!(
                "the entry ranges are of {} leaves, the set has {}",
                ranges.len(),
                leaves.len()
            ),
        ));
    }
    let sel = ranges
        .select(seed, b.core.reserves_wanted as usize)
        .ok_or_else(|| {
            fail(
                C::DrawMismatch,
                "the day has no entries, so no draw can exist",
            )
        })?;
    let mut want = vec![sel.winner];
    want.extend(sel.reserves.iter().copied());
    let mut got_picks = vec![&b.winner];
    got_picks.extend(b.reserves.iter());
    if want.len() != got_picks.len() {
        return Err(fail(
            C::DrawMismatch,
            format!(
                "recomputed {} reserves, the bundle lists {}",
                want.len() - 1,
                got_picks.len() - 1
            ),
        ));
    }
    // Every index below is in range: `select` picks leaves of `leaves` (so `w.leaf` fits a
    // usize), and at most `reserves_wanted + 1` of them, a u32 plus one (so `rank` fits a u32).
    #[allow(clippy::cast_possible_truncation)]
    for (rank, (w, g)) in want.iter().zip(got_picks).enumerate() {
        let leaf = &leaves[w.leaf as usize];
        let expect = PublicPlaced {
            rank: rank as u32,
            pseudonym: leaf.pseudonym,
            entries: leaf.entries,
            entry: w.entry,
            leaf: w.leaf,
        };
        if &expect != g {
            return Err(fail(
                C::DrawMismatch,
                format!(
                    "{} recomputes to pseudonym {} (entry {}), the bundle says {} (entry {})",
                    rank_name(rank),
                    expect.pseudonym,
                    expect.entry,
                    g.pseudonym,
                    g.entry
                ),
            ));
        }
    }
    Ok(())
}

fn rank_name(rank: usize) -> String {
    if rank == 0 {
        "the winner".into()
    } else {
        format!("reserve {rank}")
    }
}

/// spec/formats.md §8.2 step 3: seed = H(committed inputs, contribution, entropy); checks the published seed,
/// and that the members of the core are those of its version (spec/formats.md §7.2): the `witness` in version
/// 1; the entropy commitment, the contribution (spec/appliance.md §4.4.1 grammar), the refused requests and the
/// order evidence in version 2.
pub fn recompute_seed(core: &crate::draw::files::DrawCore, version: u32) -> VResult<Hash32> {
    let (rules, export) = (core.rules_sha256, core.export.sha256);
    let commitment = commitment_of(&core.commitment)?;
    check_members(core, version)?;
    let entropy = lower_hex(&core.entropy)
        .ok_or_else(|| fail(C::Malformed, "entropy is not lowercase hex"))?;
    if entropy.len() != 48 {
        return Err(fail(
            C::Inconsistent,
            format!("the entropy has {} bytes; a draw's has 48", entropy.len()),
        ));
    }
    if let Some(ec) = core.entropy_commitment
        && crate::randomness::entropy_commitment(&entropy) != ec
    {
        return Err(fail(
            C::DrawMismatch,
            "the published entropy is not the one its commitment (recorded before the contribution) names",
        ));
    }
    let seed = draw::draw_seed(&SeedInputs {
        operation: &core.operation,
        day: &core.day,
        attempt: core.attempt,
        rules_sha256: &rules,
        export_sha256: &export,
        commitment: &commitment,
        contribution: core.contribution_text(),
        entropy: &entropy,
        version,
    });
    if seed != core.seed {
        return Err(fail(
            C::DrawMismatch,
            "the published seed does not follow from the committed inputs, the contribution and the entropy",
        ));
    }
    Ok(seed)
}

/// The core's members are those of its version (spec/formats.md §4.7, §7.2), and a version-2 contribution
/// follows the grammar of spec/formats.md §4.4.1.
fn check_members(core: &crate::draw::files::DrawCore, version: u32) -> VResult<()> {
    let v2 = [
        core.entropy_commitment.is_some(),
        core.contribution.is_some(),
        core.entropy_refused.is_some(),
        core.fixed.is_some(),
    ];
    let ok = match version {
        1 => core.witness.is_some() && v2.iter().all(|p| !p),
        _ => core.witness.is_none() && v2.iter().all(|p| *p),
    };
    if !ok {
        return Err(fail(
            C::Malformed,
            format!(
                "the draw core does not have the members of version {version} (version 1: witness; version 2: entropy_commitment, contribution, entropy_refused, fixed)"
            ),
        ));
    }
    if let Some(c) = &core.contribution {
        crate::randomness::contribution::check(c)
            .map_err(|r| fail(C::Malformed, format!("contribution: {r}")))?;
    }
    // spec/formats.md §4.7: attempts and event numbers start at 1 [M-312], [M-313], [M-315].
    if core.attempt == 0 {
        return Err(fail(C::Malformed, "attempt is 0 (attempts start at 1)"));
    }
    if core.voided_attempts.iter().any(|v| v.audit_seq == 0) {
        return Err(fail(C::Malformed, "a voided attempt's audit_seq is 0"));
    }
    refused_seqs_from_1(core.entropy_refused.as_deref().unwrap_or_default())
}

/// Every `entropy_refused[].audit_seq` is at least 1 (spec/formats.md §4.7) [malformed] [M-315].
pub(super) fn refused_seqs_from_1(refused: &[crate::draw::files::RefusedEntropy]) -> VResult<()> {
    if refused.iter().any(|x| x.audit_seq == 0) {
        return Err(fail(C::Malformed, "an entropy_refused audit_seq is 0"));
    }
    Ok(())
}

/// spec/formats.md §4.7: `voided_attempts` lists exactly the attempts 1 … `attempt` - 1, in order,
/// each voided by an event of the output's checkpoint (`audit_seq` at most its size)
/// (inconsistent; M-314).
pub fn check_voided(core: &crate::draw::files::DrawCore, size: u64) -> VResult<()> {
    let listed: Vec<u32> = core.voided_attempts.iter().map(|v| v.attempt).collect();
    if !listed.iter().copied().eq(1..core.attempt) {
        return Err(fail(
            C::Inconsistent,
            format!(
                "voided_attempts lists attempts {listed:?}; attempt {} follows exactly the attempts 1 to {}",
                core.attempt,
                core.attempt.saturating_sub(1)
            ),
        ));
    }
    if core.voided_attempts.iter().any(|v| v.audit_seq > size) {
        return Err(fail(
            C::Inconsistent,
            format!(
                "a voided attempt's audit_seq lies beyond the output's checkpoint (size {size})"
            ),
        ));
    }
    Ok(())
}

/// spec/formats.md §3.3, §4.7: the refused requests were recorded before the entropy that was
/// used: their `audit_seq` increasing and below the `draw.entropy` (`block.entropy`) event's
/// `seq` [inconsistent] [M-316].
pub(super) fn refused_before_entropy(
    refused: &[crate::draw::files::RefusedEntropy],
    entropy_seq: u64,
) -> VResult<()> {
    let seqs: Vec<u64> = refused.iter().map(|x| x.audit_seq).collect();
    if seqs.windows(2).any(|w| w[0] >= w[1]) || seqs.last().is_some_and(|s| *s >= entropy_seq) {
        return Err(fail(
            C::Inconsistent,
            format!(
                "entropy_refused's audit_seq {seqs:?} are not increasing and below the entropy event's seq {entropy_seq}"
            ),
        ));
    }
    Ok(())
}

/// spec/formats.md §8.2 step 5 (version 2): the order in which the randomness became fixed (spec/formats.md §3.3): the
/// `draw.entropy` event, then the `draw.contribution` event, both in the tree of the output's
/// checkpoint, saying what the core says.
pub fn verify_fixed(
    core: &crate::draw::files::DrawCore,
    cp: &crate::audit::chain::Checkpoint,
) -> VResult<()> {
    use crate::draw::records::{ContributionRecord, EntropyRecord};
    let Some(f) = &core.fixed else {
        return Ok(());
    };
    f.check(cp.size, &cp.root, ("draw.entropy", "draw.contribution"))
        .map_err(|m| fail(C::Inconsistent, format!("randomness order: {m}")))?;
    refused_before_entropy(
        core.entropy_refused.as_deref().unwrap_or_default(),
        f.entropy.seq,
    )?;
    let bad = |what: &str| fail(C::Inconsistent, format!("randomness order: {what}"));
    let e: EntropyRecord = serde_json::from_str(&f.entropy.payload)
        .map_err(|err| bad(&format!("the entropy event does not parse: {err}")))?;
    let c: ContributionRecord = serde_json::from_str(&f.contribution.payload)
        .map_err(|err| bad(&format!("the contribution event does not parse: {err}")))?;
    let same_draw = |op: &str, day: Day, attempt: Attempt| {
        op == core.operation && day == core.day && attempt == core.attempt
    };
    if !same_draw(&e.operation, e.day, e.attempt) || e.commitment_root != core.commitment.root {
        return Err(bad("the entropy event is of another draw"));
    }
    if !same_draw(&c.operation, c.day, c.attempt) {
        return Err(bad("the contribution event is of another draw"));
    }
    if Some(e.entropy_commitment) != core.entropy_commitment
        || c.entropy_commitment != e.entropy_commitment
    {
        return Err(bad("the events name another entropy commitment"));
    }
    if Some(c.contribution.as_str()) != core.contribution.as_deref() {
        return Err(bad("the contribution recorded is not the one published"));
    }
    Ok(())
}

/// spec/formats.md §8.2 step 6: result.json tells the same draw as the bundle.
pub fn verify_result_against_bundle(r: &ResultFile, b: &BundleFile) -> VResult<()> {
    if r.core != b.core {
        return Err(fail(
            C::Inconsistent,
            "result.json and bundle.json describe different draws",
        ));
    }
    if r.audit_checkpoint != b.audit_checkpoint
        || r.software != b.software
        || r.pkcs11 != b.pkcs11
        || r.drawn_at != b.drawn_at
        || r.result_key_id != b.result_key_id
        || r.audit_key_id != b.audit_key_id
    {
        return Err(fail(
            C::Inconsistent,
            "result.json and bundle.json name different checkpoints, software, times or keys",
        ));
    }
    if r.entries != b.core.commitment.entries || r.accounts != b.core.commitment.leaves {
        return Err(fail(
            C::Inconsistent,
            "result.json's entries/accounts differ from the commitment",
        ));
    }
    let pairs =
        std::iter::once((&r.winner, &b.winner)).chain(r.reserves.iter().zip(b.reserves.iter()));
    if r.reserves.len() != b.reserves.len() {
        return Err(fail(
            C::Inconsistent,
            "result.json and bundle.json list different numbers of reserves",
        ));
    }
    for (rp, bp) in pairs {
        if rp.rank != bp.rank
            || rp.pseudonym != bp.pseudonym
            || rp.entries != bp.entries
            || rp.entry != bp.entry
            || rp.leaf != bp.leaf
        {
            return Err(fail(
                C::Inconsistent,
                format!(
                    "{} differs between result.json and bundle.json",
                    rank_name(rp.rank as usize)
                ),
            ));
        }
    }
    Ok(())
}

/// spec/formats.md §8.2 step 8 (auditor mode): from the entry list recomputed from the signed export, the
/// pseudonyms and leaves are exactly the bundle's, and each account named in result.json is the
/// one behind its pseudonym.
pub fn verify_against_entries(
    list: &[AccountEntries],
    published: &[Leaf],
    b: &BundleFile,
    r: Option<&ResultFile>,
) -> VResult<()> {
    let leaves = draw::public_leaves(&b.core.operation, &b.core.day, list);
    if leaves.len() != published.len() {
        return Err(fail(
            C::CommitmentMismatch,
            format!(
                "the export gives {} accounts with entries, the seal committed {}",
                leaves.len(),
                published.len()
            ),
        ));
    }
    for (i, ((leaf, _), p)) in leaves.iter().zip(published).enumerate() {
        if leaf != p {
            return Err(fail(
                C::CommitmentMismatch,
                format!("leaf {i} recomputed from the export differs from the committed one"),
            ));
        }
    }
    if let Some(r) = r {
        let all: Vec<&Placed> = std::iter::once(&r.winner)
            .chain(r.reserves.iter())
            .collect();
        for p in all {
            let (leaf, account) = usize::try_from(p.leaf)
                .ok()
                .and_then(|i| leaves.get(i))
                .ok_or_else(|| fail(C::DrawMismatch, "a pick names a leaf outside the set"))?;
            let account = Hash32(*account);
            if account != p.account || leaf.pseudonym != p.pseudonym {
                return Err(fail(
                    C::DrawMismatch,
                    format!(
                        "{} is account {}, not {}",
                        rank_name(p.rank as usize),
                        account,
                        p.account
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// What a published draw says of its seal, for a proof checked against it (spec/formats.md §8.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishedSeal {
    /// The draw's operation.
    pub operation: String,
    /// Its day.
    pub day: String,
    /// Its attempt.
    pub attempt: u32,
    /// Its commitment.
    pub commitment: CommitmentRef,
}

/// spec/formats.md §8.3, after the signature: the proof is an inclusion proof of a version this verifier knows
/// (malformed), by the result key given (inconsistent), its pseudonym follows from the account
/// and the salt and its leaf is in the committed tree (commitment-mismatch). The published
/// draw, when there is one, is compared after: [`published_is_the_proofs`].
pub fn verify_proof(p: &ProofFile, result_key_id: &KeyId) -> VResult<()> {
    if p.format != crate::draw::files::PROOF_FORMAT || p.version != 1 {
        return Err(fail(C::Malformed, "not an urne inclusion proof version 1"));
    }
    if p.attempt == 0 {
        return Err(fail(
            C::Malformed,
            "the proof's attempt is 0 (attempts start at 1)",
        ));
    }
    if p.result_key_id != *result_key_id {
        return Err(fail(
            C::Inconsistent,
            format!(
                "the proof names result key {}, the key given is {result_key_id}",
                p.result_key_id
            ),
        ));
    }
    let pseudonym = draw::pseudonym(&p.salt, &p.account.0);
    if pseudonym != p.pseudonym {
        return Err(fail(
            C::CommitmentMismatch,
            "the pseudonym does not follow from the account and the salt",
        ));
    }
    let c = commitment_of(&p.commitment)?;
    let leaf = merkle::leaf_hash(
        &Leaf {
            pseudonym,
            entries: p.entries,
        }
        .bytes(),
    );
    if !merkle::verify_inclusion(&leaf, p.leaf, c.leaves, &p.path, &c.root) {
        return Err(fail(
            C::CommitmentMismatch,
            "the inclusion path does not lead to the committed root",
        ));
    }
    Ok(())
}

/// spec/formats.md §8.3, last step: the published draw's operation, day, attempt and commitment are the
/// proof's (commitment-mismatch).
pub fn published_is_the_proofs(p: &ProofFile, s: &PublishedSeal) -> VResult<()> {
    if s.operation != p.operation
        || s.day != p.day
        || s.attempt != p.attempt
        || s.commitment != p.commitment
    {
        return Err(fail(
            C::CommitmentMismatch,
            format!(
                "the proof is of {} day {} attempt {}; the published draw is of {} day {} attempt {}, or has another commitment",
                p.operation, p.day, p.attempt, s.operation, s.day, s.attempt
            ),
        ));
    }
    Ok(())
}

/// Lowercase hex (spec/formats.md §4.7: every hash and the entropy), decoded; `None` otherwise (an
/// uppercase digit included).
pub fn lower_hex(s: &str) -> Option<Vec<u8>> {
    if !s
        .bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        return None;
    }
    hex::decode(s).ok()
}
