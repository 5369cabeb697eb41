//! The tier counts a block commitment lists (SPEC.md §5.B9 `tiers`): per tier 10, 9, …, 4 then 0
//! (losing), the units and the prize at the block's price (G-3).

use super::files::TierCount;
use crate::rules::game::GameRules;

/// Tiers in the order a commitment lists them: 10, 9, …, 4, then 0.
fn listed_tiers() -> impl Iterator<Item = u8> {
    (4..=10u8).rev().chain([0u8])
}

/// The counts of the tiers of a block (`tiers` in sale order) at `price` cents. `price` must be
/// a price point of `rules` (checked with the block's identity, G-2).
pub fn tier_counts(rules: &GameRules, price: u64, tiers: &[u8]) -> Vec<TierCount> {
    let idx = rules.price_index(price).expect("checked price");
    let mut counts = [0u32; 11];
    for &t in tiers {
        counts[t as usize] += 1;
    }
    let mut out = vec![];
    for t in listed_tiers() {
        out.push(TierCount {
            tier: t,
            units: counts[t as usize],
            prize_cents: rules.prize_cents(t, idx).unwrap_or(0),
        });
    }
    out
}

/// The counts G-3 requires of every block at `price` cents (the rules' prize table). `price`
/// must be a price point of `rules`.
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
