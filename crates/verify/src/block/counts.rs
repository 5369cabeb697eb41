//! The tier counts a block commitment lists (spec/formats.md §5.B9 `tiers`): per tier 10, 9, …, 4 then 0
//! (losing), the units and the prize at the block's price (G-3).

use super::files::TierCount;
use crate::rules::game::GameRules;

/// Tiers in the order a commitment lists them: 10, 9, …, 4, then 0.
fn listed_tiers() -> impl Iterator<Item = u8> {
    (4..=10u8).rev().chain([0u8])
}

/// The counts of the tiers of a block (`tiers` in sale order) at `price` cents, in the order a
/// commitment lists them. `price` must be a price point of `rules` (checked with the block's
/// identity, G-2).
///
/// # Panics
/// If `price` is not a price point of `rules`, or a tier is above 10 (caller bugs: both were
/// checked when the block's identity and deck were made).
pub fn tier_counts(rules: &GameRules, price: u64, tiers: &[u8]) -> Vec<TierCount> {
    let idx = rules.price_index(price).expect("checked price");
    let mut counts = [0u32; 11];
    for &t in tiers {
        counts[usize::from(t)] += 1;
    }
    let mut out = vec![];
    for t in listed_tiers() {
        out.push(TierCount {
            tier: t,
            units: counts[usize::from(t)],
            prize_cents: rules.prize_cents(t, idx).unwrap_or(0),
        });
    }
    out
}

/// The counts G-3 requires of every block at `price` cents (the rules' prize table), in the
/// order a commitment lists them: what spec/formats.md §5.B10 step 2 compares a commitment's `tiers` with.
///
/// # Panics
/// If `price` is not a price point of `rules` (a caller bug: check the block's identity first,
/// [`BlockId::check_rules`](super::id::BlockId::check_rules)).
pub fn expected_counts(rules: &GameRules, price: u64) -> Vec<TierCount> {
    let idx = rules.price_index(price).expect("checked price");
    listed_tiers()
        .map(|t| TierCount {
            tier: t,
            units: rules.units_of_tier(t),
            prize_cents: rules.prize_cents(t, idx).unwrap_or(0),
        })
        .collect()
}
