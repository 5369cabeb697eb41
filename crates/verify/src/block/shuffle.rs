//! The draw of a block: its deck of outcomes and the Fisher–Yates shuffle (spec/formats.md §5.B4). The
//! shuffle is the draw (G-3): it decides which position of the sale order wins what.

use super::id::Seed;
use crate::crypto::drbg::DrbgStream;
use crate::rules::game::{GameRules, LOSING_TIER, MAX_WINNING_MATCHES, MIN_WINNING_MATCHES};

/// Personalization string of the shuffle's DRBG (spec/formats.md §5.B4 step 2; the DRBG and its stream are
/// spec/formats.md §2.1 and §2.2).
pub const SHUFFLE_PERSONALIZATION: &[u8] = b"urne/v1/block-shuffle";

/// The deck before the shuffle, in canonical order (spec/formats.md §5.B4): every losing unit (tier 0, G-8), then
/// the G-3 units of tier 4, then tier 5, … up to tier 10. Its length is the block size (G-1).
pub fn initial_deck(rules: &GameRules) -> Vec<u8> {
    let mut deck = Vec::with_capacity(rules.block_size() as usize);
    deck.resize(rules.losing_units() as usize, LOSING_TIER);
    for tier in MIN_WINNING_MATCHES..=MAX_WINNING_MATCHES {
        let n = deck.len() + rules.units_of_tier(tier) as usize;
        deck.resize(n, tier);
    }
    deck
}

/// Fisher–Yates from the last position down (spec/formats.md §5.B4 step 3): for i = n-1 … 1, j = uniform(i+1)
/// (spec/formats.md §2.3), swap. Every permutation of the deck is equally likely given a uniform `uniform`.
pub fn fisher_yates<T>(deck: &mut [T], stream: &mut DrbgStream) {
    for i in (1..deck.len()).rev() {
        // j <= i < deck.len() <= u64::MAX: the index and the conversion are in range.
        #[allow(clippy::cast_possible_truncation)]
        let j = stream.uniform(i as u64 + 1) as usize;
        deck.swap(i, j);
    }
}

/// The tiers of the block in sale order (position 0 first): the canonical deck shuffled with
/// `DrbgStream::new(seed, "urne/v1/block-shuffle")`.
pub fn shuffled_tiers(rules: &GameRules, seed: &Seed) -> Vec<u8> {
    let mut deck = initial_deck(rules);
    let mut stream = DrbgStream::new(seed.as_bytes(), SHUFFLE_PERSONALIZATION);
    fisher_yates(&mut deck, &mut stream);
    deck
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shuffled_block_holds_the_rules_counts_in_another_order() {
        let rules = GameRules::from_json(include_bytes!(
            "../../../../rules/noel-de-la-chance-2015.json"
        ))
        .unwrap();
        let deck = initial_deck(&rules);
        let seed = crate::crypto::Hash32([7u8; 32]);
        let tiers = shuffled_tiers(&rules, &seed);
        assert_eq!(tiers.len(), rules.block_size() as usize);
        assert_ne!(tiers, deck, "shuffled");
        let mut sorted = tiers.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, deck, "the same tiers, each as often (G-3)");
    }

    #[test]
    fn fisher_yates_is_a_permutation() {
        let mut v: Vec<u32> = (0..1000).collect();
        fisher_yates(&mut v, &mut DrbgStream::new(&[5u8; 32], b"t"));
        let mut s = v.clone();
        s.sort_unstable();
        assert_eq!(s, (0..1000).collect::<Vec<_>>());
        assert_ne!(v, s);
    }

    #[test]
    fn fisher_yates_reaches_all_six_orders_of_three_evenly() {
        // 6000 shuffles from one stream: every order of 3 items appears; χ² with 5 df under
        // 20.52 (p = 0.001).
        let mut counts = std::collections::BTreeMap::new();
        let mut stream = DrbgStream::new(&[3u8; 32], b"t");
        for _ in 0..6000 {
            let mut v = [0u8, 1, 2];
            fisher_yates(&mut v, &mut stream);
            *counts.entry(v).or_insert(0u32) += 1;
        }
        assert_eq!(counts.len(), 6);
        let chi2: f64 = counts
            .values()
            .map(|&c| (f64::from(c) - 1000.0).powi(2) / 1000.0)
            .sum();
        assert!(chi2 < 20.52, "χ² = {chi2}");
    }
}
