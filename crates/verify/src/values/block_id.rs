//! A block's identity (spec/formats.md §5.B2): game, price point, emission and number, spelled
//! one way only (`game/price_cents/emission/number`). Here, below everything that names a block
//! (the trail's records, the outputs' subjects, the block formats), so that each of them holds
//! the type; what a block's identity derives (its seed, its check against the game rules) is
//! `crate::block::id`'s.

use std::fmt;

/// Game ids and symbol names: lowercase ASCII letters, digits and `-`, starting with a letter or
/// digit, 1..=64 bytes. Used in canonical strings, so one spelling only.
pub(crate) fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !s.starts_with('-')
}

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

impl PartialEq<String> for BlockId {
    /// A block id as a file states it (a string, typed where its step checks it) is this block:
    /// the canonical spelling is the only one (spec/formats.md §5.B2).
    fn eq(&self, other: &String) -> bool {
        BlockId::parse(other).is_ok_and(|b| b == *self)
    }
}

impl PartialEq<BlockId> for String {
    fn eq(&self, other: &BlockId) -> bool {
        other == self
    }
}

impl PartialEq<str> for BlockId {
    fn eq(&self, other: &str) -> bool {
        BlockId::parse(other).is_ok_and(|b| b == *self)
    }
}

impl serde::Serialize for BlockId {
    /// The canonical string (spec/formats.md §5.B2).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for BlockId {
    /// The canonical string only (spec/formats.md §5.B2): any other spelling does not parse.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<BlockId, D::Error> {
        let s = String::deserialize(d)?;
        BlockId::parse(&s).map_err(serde::de::Error::custom)
    }
}

impl std::str::FromStr for BlockId {
    type Err = BlockIdError;

    /// [`BlockId::parse`]: the canonical spelling only.
    fn from_str(s: &str) -> Result<BlockId, BlockIdError> {
        BlockId::parse(s)
    }
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
}
