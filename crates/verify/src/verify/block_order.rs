//! The order in which a block's randomness became fixed (spec/formats.md §3.3, §5.B10 step 2): the
//! `block.entropy` event of the block's attempt, then a `block.contribution` event naming it,
//! both in the tree of the commitment's checkpoint, saying what the commitment says; and when,
//! by the reveal, the block's sales closed (spec/formats.md §5.B10 step 4).

use super::{FailureClass as C, VResult, fail};
use crate::audit::chain;
use crate::block::files::{CommitFile, RevealFile};

/// spec/formats.md §5.B10 step 2 (version 2, the members checked at the parse): its contribution follows
/// spec/formats.md §4.4.1, and its randomness became fixed in order (spec/formats.md §3.3): the `block.entropy` event
/// of this block and attempt, then a `block.contribution` event naming it, both in the tree of
/// the commitment's checkpoint.
pub fn check_randomness(name: &str, c: &CommitFile, cp: &chain::Checkpoint) -> VResult<()> {
    use crate::block::records::{ContributionRecord, EntropyRecord};
    // Every version's generated_at in the one time format (spec/formats.md §6.1) [M-320].
    super::draw_folder::one_time_format(&format!("{name}: generated_at"), &c.generated_at)?;
    let (Some(f), Some(contribution), Some(ec)) = (&c.fixed, &c.contribution, c.entropy_commitment)
    else {
        return Ok(());
    };
    crate::randomness::contribution::check(contribution)
        .map_err(|r| fail(C::Malformed, format!("{name}: contribution: {r}")))?;
    let bad = |what: String| fail(C::Inconsistent, format!("{name}: randomness order: {what}"));
    f.check(cp.size, &cp.root, ("block.entropy", "block.contribution"))
        .map_err(bad)?;
    super::draw::refused_before_entropy(
        c.entropy_refused.as_deref().unwrap_or_default(),
        f.entropy.seq,
    )
    .map_err(|e| fail(C::Inconsistent, format!("{name}: {}", e.what)))?;
    let e: EntropyRecord = serde_json::from_str(&f.entropy.payload)
        .map_err(|err| bad(format!("the entropy event does not parse: {err}")))?;
    let r: ContributionRecord = serde_json::from_str(&f.contribution.payload)
        .map_err(|err| bad(format!("the contribution event does not parse: {err}")))?;
    if e.block != c.block
        || e.attempt != c.attempt
        || e.rules_sha256 != c.rules_sha256
        || e.entropy_commitment != ec
    {
        return Err(bad("the entropy event is not this block's".into()));
    }
    let named = r
        .blocks
        .iter()
        .any(|b| b.block == c.block && b.attempt == c.attempt && b.entropy_commitment == ec);
    if !named || r.contribution != *contribution {
        return Err(bad(
            "the contribution event does not name this block's entropy, or not this contribution"
                .into(),
        ));
    }
    Ok(())
}

use super::trail::is_one_time_format;

/// A block commitment's `attempt` and `entropy_refused[].audit_seq` are at least 1
/// (spec/formats.md §4.7) [malformed] [M-312], [M-315].
pub(super) fn counted_from_1(name: &str, c: CommitFile) -> VResult<CommitFile> {
    if c.attempt == 0 {
        return Err(fail(
            C::Malformed,
            format!("{name}: attempt is 0 (attempts start at 1)"),
        ));
    }
    super::draw::refused_seqs_from_1(c.entropy_refused.as_deref().unwrap_or_default())?;
    Ok(c)
}

/// spec/formats.md §5.B10 step 4 (version 2): the reveal states when the block's sales closed, a date-time in
/// urne's one format, as are the reveal's `revealed_at` and the commitment's `generated_at`
/// [M-219]; the sales closed neither after the reveal nor before the commitment was generated
/// [M-220] (inconsistent). A version-1 reveal states no sales close (its members are checked at
/// the parse).
pub fn check_sales_close(rname: &str, r: &RevealFile, c: &CommitFile) -> VResult<()> {
    let Some(closed) = r.sales_closed_at.as_deref() else {
        // Version 1: its revealed_at in the one format too [M-320].
        let what = format!("{rname}: revealed_at");
        return super::draw_folder::one_time_format(&what, &r.revealed_at);
    };
    let bad = |what: String| fail(C::Inconsistent, format!("{rname}: {what}"));
    for (what, ts) in [
        ("sales_closed_at", closed),
        ("revealed_at", r.revealed_at.as_str()),
        ("the commitment's generated_at", c.generated_at.as_str()),
    ] {
        if !is_one_time_format(ts) {
            return Err(bad(format!(
                "{what} {ts:?} is not a date-time in RFC 3339 UTC with microseconds (spec/formats.md §6.1)"
            )));
        }
    }
    if closed > r.revealed_at.as_str() {
        return Err(bad(format!(
            "the sales closed ({closed}) after the block was revealed ({})",
            r.revealed_at
        )));
    }
    if closed < c.generated_at.as_str() {
        return Err(bad(format!(
            "the sales closed ({closed}) before the block was generated ({})",
            c.generated_at
        )));
    }
    Ok(())
}
