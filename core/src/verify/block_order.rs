//! The order in which a block's randomness became fixed (SPEC.md §3.3, §5.B10 step 2): the
//! `block.entropy` event of the block's attempt, then a `block.contribution` event naming it,
//! both in the tree of the commitment's checkpoint, saying what the commitment says.

use super::{FailureClass as C, VResult, fail};
use crate::audit::chain;
use crate::block::files::CommitFile;

/// §5.B10 step 2 (version 2, the members checked at the parse): its contribution follows
/// §4.4.1, and its randomness became fixed in order (§3.3): the `block.entropy` event
/// of this block and attempt, then a `block.contribution` event naming it, both in the tree of
/// the commitment's checkpoint.
pub fn check_randomness(name: &str, c: &CommitFile, cp: &chain::Checkpoint) -> VResult<()> {
    use crate::block::records::{ContributionRecord, EntropyRecord};
    let (Some(f), Some(contribution), Some(ec)) = (&c.fixed, &c.contribution, c.entropy_commitment)
    else {
        return Ok(());
    };
    crate::randomness::contribution::check(contribution)
        .map_err(|r| fail(C::Malformed, format!("{name}: contribution: {r}")))?;
    let bad = |what: String| fail(C::Inconsistent, format!("{name}: randomness order: {what}"));
    f.check(cp.size, &cp.root, ("block.entropy", "block.contribution"))
        .map_err(bad)?;
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
