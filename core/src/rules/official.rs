//! The official rules files, pinned (issue 11, "inputs pinned"; SPEC.md §4.4, §5.B1): the SHA-256
//! of each rules file the regulation's operations use is fixed in the appliance, so a doctored
//! file that keeps an official operation or game id (another cap, another tranche) is refused
//! rather than bound into a result. Files of other ids (reduced test games) are not official and
//! are said to be so.

use crate::crypto::Hash32;

/// Official rules files: the operation or game id they declare, and the SHA-256 of their bytes.
pub const OFFICIAL: &[(&str, &str)] = &[
    (
        "chanceux-noel-2018",
        "4219ce2a0d422719e3288cf9603b4732d516544f05f8b0ba090426be0025f410",
    ),
    (
        "noel-de-la-chance-2015",
        "1a86436de6b84c4e799371906e36f27b30f2229b593196f587394127adc5274e",
    ),
];

/// What a rules file is, by the id it declares and the SHA-256 of its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// The official file of that id.
    Official,
    /// An id that no official file has (a reduced test game, say).
    Unofficial,
    /// An official id, other bytes: the pinned SHA-256 is given.
    Doctored(Hash32),
}

/// The standing of a rules file declaring `id` whose bytes hash to `sha256`.
pub fn standing(id: &str, sha256: &Hash32) -> Standing {
    match OFFICIAL.iter().find(|(i, _)| *i == id) {
        None => Standing::Unofficial,
        Some((_, h)) => match Hash32::from_hex(h) {
            Some(pinned) if pinned == *sha256 => Standing::Official,
            Some(pinned) => Standing::Doctored(pinned),
            None => Standing::Unofficial,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crypto::sha256;

    #[test]
    fn the_shipped_rules_files_are_the_pinned_ones_and_a_changed_byte_is_doctored() {
        let draw = include_bytes!("../../../rules/chanceux-noel-2018.json");
        let game = include_bytes!("../../../rules/noel-de-la-chance-2015.json");
        assert_eq!(
            standing("chanceux-noel-2018", &sha256(draw)),
            Standing::Official
        );
        assert_eq!(
            standing("noel-de-la-chance-2015", &sha256(game)),
            Standing::Official
        );
        let mut other = draw.to_vec();
        other[10] ^= 1;
        assert!(matches!(
            standing("chanceux-noel-2018", &sha256(&other)),
            Standing::Doctored(_)
        ));
        assert_eq!(
            standing("test-small-game", &sha256(&other)),
            Standing::Unofficial
        );
        for (_, h) in OFFICIAL {
            assert!(Hash32::from_hex(h).is_some(), "{h}");
        }
    }
}
