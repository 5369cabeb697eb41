//! Block identity and seed derivation (spec/formats.md §5.B2, §5.B3).

use crate::crypto::{Hash32, tagged_hash};
use crate::rules::game::GameRules;

/// Label of the block seed hash (spec/formats.md §5.B3).
pub const SEED_LABEL: &str = "urne/v1/block-seed";
/// Label of the seed commitment hash (spec/formats.md §5.B3).
pub const SEED_COMMITMENT_LABEL: &str = "urne/v1/block-seed-commitment";
/// Label of the grid key hash (spec/formats.md §5.B3).
pub const GRID_KEY_LABEL: &str = "urne/v1/block-grid-key";
/// Fewest entropy bytes a block seed may be derived from (spec/formats.md §5.B3): the seed is 256 bits.
pub const MIN_ENTROPY_BYTES: usize = 32;

/// A block's secret 32-byte seed (spec/formats.md §5.B3). Everything about the block follows from it.
pub type Seed = Hash32;

pub use crate::values::{BlockId, BlockIdError};

impl BlockId {
    /// Checks that the block belongs to `rules`: same game id, and a G-2 price point.
    pub fn check_rules(&self, rules: &GameRules) -> Result<(), BlockIdError> {
        if self.game() != rules.game() {
            return Err(BlockIdError::WrongGame {
                found: self.game().to_string(),
                rules: rules.game().into(),
            });
        }
        if rules.price_index(self.price_cents()).is_none() {
            return Err(BlockIdError::Price(self.price_cents()));
        }
        Ok(())
    }
}

/// The block seed (spec/formats.md §5.B3): `tagged_hash("urne/v1/block-seed", [canonical id, rules SHA-256,
/// entropy])`. Binding the id and the rules hash means one entropy value can never produce the
/// same deck for two blocks or under two rule sets (design principle 1).
///
/// # Panics
/// If `entropy` is shorter than [`MIN_ENTROPY_BYTES`] (a caller bug: the HSM request is 32 bytes).
pub fn block_seed(id: &BlockId, rules_sha256: &Hash32, entropy: &[u8]) -> Seed {
    assert!(
        entropy.len() >= MIN_ENTROPY_BYTES,
        "block entropy must be at least {MIN_ENTROPY_BYTES} bytes"
    );
    tagged_hash(
        SEED_LABEL,
        &[id.canonical().as_bytes(), rules_sha256, entropy],
    )
}

/// Label of the version-2 block seed (spec/formats.md §5.B3).
pub const SEED_LABEL_V2: &str = "urne/v2/block-seed";

/// The block seed of version 2 (spec/formats.md §5.B3): `tagged_hash("urne/v2/block-seed", [canonical id,
/// rules SHA-256, contribution, entropy])`: the commissaire's contribution (spec/formats.md §4.4.1), typed after
/// the entropy was fixed, is bound too, so whoever controls the entropy source alone cannot
/// choose the deck. `contribution` `None` is version 1's seed ([`block_seed`]).
///
/// # Panics
/// As [`block_seed`].
pub fn block_seed_of(
    id: &BlockId,
    rules_sha256: &Hash32,
    contribution: Option<&str>,
    entropy: &[u8],
) -> Seed {
    let Some(c) = contribution else {
        return block_seed(id, rules_sha256, entropy);
    };
    assert!(
        entropy.len() >= MIN_ENTROPY_BYTES,
        "block entropy must be at least {MIN_ENTROPY_BYTES} bytes"
    );
    tagged_hash(
        SEED_LABEL_V2,
        &[
            id.canonical().as_bytes(),
            rules_sha256,
            c.as_bytes(),
            entropy,
        ],
    )
}

/// The seed commitment published at generation (spec/formats.md §5.B3; design principle 4).
pub fn seed_commitment(seed: &Seed) -> Hash32 {
    tagged_hash(SEED_COMMITMENT_LABEL, &[seed])
}

/// The key of the per-ticket grid streams (spec/formats.md §5.B3, §5.B5).
pub fn grid_key(seed: &Seed) -> Hash32 {
    tagged_hash(GRID_KEY_LABEL, &[seed])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_depends_on_id_rules_and_entropy() {
        let entropy = [9u8; 32];
        let rules = Hash32([1u8; 32]);
        let id = BlockId::new("g", 50, "e", 1).unwrap();
        let next = BlockId::new("g", 50, "e", 2).unwrap();
        let dearer = BlockId::new("g", 100, "e", 1).unwrap();
        let seed = block_seed(&id, &rules, &entropy);
        assert_ne!(seed, block_seed(&next, &rules, &entropy));
        assert_ne!(seed, block_seed(&dearer, &rules, &entropy));
        assert_ne!(seed, block_seed(&id, &Hash32([2u8; 32]), &entropy));
        assert_ne!(seed, block_seed(&id, &rules, &[8u8; 32]));
        let v2 = block_seed_of(&id, &rules, Some("6 2 5 1 4 4 3 6"), &entropy);
        assert_ne!(seed, v2);
        assert_ne!(
            v2,
            block_seed_of(&id, &rules, Some("6 2 5 1 4 4 3 5"), &entropy)
        );
        assert_eq!(seed, block_seed_of(&id, &rules, None, &entropy));
        assert_ne!(seed_commitment(&seed), grid_key(&seed));
        assert_ne!(seed_commitment(&seed), seed);
    }
}
