//! Block identity and seed derivation (spec/formats.md §5.B2, §5.B3).

use crate::crypto::{Hash32, tagged_hash};
use crate::rules::game::{GameRules, is_slug};
use std::fmt;

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

/// Why a block identity was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BlockIdError {
    /// The text is not the canonical string of a block id (spec/formats.md §5.B2): four `/`-separated parts,
    /// decimals without sign or leading zeros, a `number` that fits a u32. Holds the text.
    #[error("block id {0:?} is not `game/price_cents/emission/number` (§5.B2)")]
    Syntax(String),
    /// The emission is not 1–32 of `a-z 0-9 -` not starting with `-` (spec/formats.md §5.B2). Holds it.
    #[error(
        "emission {0:?} must be 1..=32 lowercase letters, digits and '-', not starting with '-' (§5.B2)"
    )]
    Emission(String),
    /// The game id is not 1–64 of `a-z 0-9 -` not starting with `-` (spec/formats.md §5.B1, §5.B2). Holds it.
    #[error("game {0:?} must be lowercase letters, digits and '-' (§5.B2)")]
    Game(String),
    /// The block is another game's than the rules file's (spec/formats.md §5.B2).
    #[error("block is for game {found:?} but the rules are for {rules:?}")]
    WrongGame {
        /// The block's game id.
        found: String,
        /// The rules file's game id.
        rules: String,
    },
    /// The block's price is not one of the rules' price points (G-2, spec/formats.md §5.B2). Holds it, in cents.
    #[error("price {0} cents is not a price point of the game (G-2)")]
    Price(u64),
}

/// Identity of one block: game, price point (G-2; each price has its own blocks), emission and
/// block number within the emission (G-1). Fields are private: a value has passed [`BlockId::new`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BlockId {
    game: String,
    price_cents: u64,
    emission: String,
    number: u32,
}

fn is_emission(s: &str) -> bool {
    s.len() <= 32 && is_slug(s)
}

impl BlockId {
    /// A block id; checks the charset of `game` and `emission`. Whether the game and price
    /// belong to a rules file is [`BlockId::check_rules`].
    pub fn new(
        game: &str,
        price_cents: u64,
        emission: &str,
        number: u32,
    ) -> Result<BlockId, BlockIdError> {
        if !is_slug(game) {
            return Err(BlockIdError::Game(game.into()));
        }
        if !is_emission(emission) {
            return Err(BlockIdError::Emission(emission.into()));
        }
        Ok(BlockId {
            game: game.into(),
            price_cents,
            emission: emission.into(),
            number,
        })
    }

    /// Parses the canonical form `game/price_cents/emission/number` (decimal, no leading zeros,
    /// no sign). Only the exact canonical spelling is accepted, so parse ∘ canonical = identity.
    pub fn parse(s: &str) -> Result<BlockId, BlockIdError> {
        let syntax = || BlockIdError::Syntax(s.into());
        let parts: Vec<&str> = s.split('/').collect();
        let [game, price, emission, number] = parts[..] else {
            return Err(syntax());
        };
        let dec = |t: &str| -> Option<u64> {
            if t.is_empty()
                || !t.bytes().all(|b| b.is_ascii_digit())
                || (t.len() > 1 && t.starts_with('0'))
            {
                return None;
            }
            t.parse().ok()
        };
        let price = dec(price).ok_or_else(syntax)?;
        let number = dec(number)
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(syntax)?;
        BlockId::new(game, price, emission, number)
    }

    /// Checks that the block belongs to `rules`: same game id, and a G-2 price point.
    pub fn check_rules(&self, rules: &GameRules) -> Result<(), BlockIdError> {
        if self.game != rules.game() {
            return Err(BlockIdError::WrongGame {
                found: self.game.clone(),
                rules: rules.game().into(),
            });
        }
        if rules.price_index(self.price_cents).is_none() {
            return Err(BlockIdError::Price(self.price_cents));
        }
        Ok(())
    }

    /// The canonical string (spec/formats.md §5.B2), e.g. `noel-de-la-chance-2015/100/2015-12/7`.
    pub fn canonical(&self) -> String {
        format!(
            "{}/{}/{}/{}",
            self.game, self.price_cents, self.emission, self.number
        )
    }

    /// The game id (a rules file's `game`, spec/formats.md §5.B1).
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The price of the block's tickets in cents: one of the game's price points (G-2).
    pub fn price_cents(&self) -> u64 {
        self.price_cents
    }

    /// The emission the block belongs to (1–32 of `a-z 0-9 -`, e.g. `2015-12`).
    pub fn emission(&self) -> &str {
        &self.emission
    }

    /// The block's number within its emission (G-1).
    pub fn number(&self) -> u32 {
        self.number
    }
}

impl fmt::Display for BlockId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.canonical())
    }
}

impl std::str::FromStr for BlockId {
    type Err = BlockIdError;

    /// [`BlockId::parse`]: the canonical spelling only.
    fn from_str(s: &str) -> Result<BlockId, BlockIdError> {
        BlockId::parse(s)
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
    fn canonical_form_round_trips_and_is_the_only_spelling() {
        let id = BlockId::new("noel-de-la-chance-2015", 100, "2015-12", 7).unwrap();
        assert_eq!(id.canonical(), "noel-de-la-chance-2015/100/2015-12/7");
        assert_eq!(BlockId::parse(&id.canonical()).unwrap(), id);
        assert_eq!(id.to_string().parse::<BlockId>(), Ok(id.clone()));
        assert_eq!(
            id.to_string(),
            id.canonical(),
            "Display is the canonical form"
        );
        // A single 0 is a number, not a leading zero.
        let zero = BlockId::parse("noel/0/e/0").unwrap();
        assert_eq!((zero.price_cents(), zero.number()), (0, 0));
        for bad in [
            "noel/0100/e/7",
            "noel/100/e/07",
            "noel/+100/e/7",
            "noel/100/e/7/",
            "noel/100/E/7",
            "noel/100/e",
            "noel/100/e/4294967296",
            "noel/100//7",
        ] {
            assert!(BlockId::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn emission_charset_is_checked() {
        for bad in ["", "-a", "A", "a b", "a/b", "é", &"a".repeat(33)] {
            assert_eq!(
                BlockId::new("g", 50, bad, 1),
                Err(BlockIdError::Emission(bad.into()))
            );
        }
        assert!(BlockId::new("g", 50, &"a".repeat(32), 1).is_ok());
    }

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
