//! The official rules file, compiled in for tests, and reduced rules built from it.

use super::figures::G3_TABLE;
use super::model::GameRules;
use super::reduced::reduced_rules_json;

/// The bytes of `rules/noel-de-la-chance-2015.json`.
pub(crate) const OFFICIAL: &[u8] =
    include_bytes!("../../../../../rules/noel-de-la-chance-2015.json");

/// Reduced rules of `n` units with about the official proportions (at least one of each tier).
pub(crate) fn small_rules(n: u32) -> GameRules {
    let official = GameRules::from_json(OFFICIAL).unwrap();
    let units = G3_TABLE
        .map(|(_, u, _)| u32::try_from((u64::from(u) * u64::from(n) / 800_000).max(1)).unwrap());
    GameRules::from_json(&reduced_rules_json(&official, "noel-test", n, units)).unwrap()
}
