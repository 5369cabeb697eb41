//! What the minutes need that the trail's payloads do not hold (spec/appliance.md §9.2): the appliance
//! reads it from its store (the rules' and the sealed sets' blobs, its last checkpoint) and
//! gives it through [`Context`]. Every method may answer `None`: the minutes then say less
//! (the operation's id for its title, no pseudonym, no counts), never something false.

use std::collections::BTreeMap;
use urne_verify::crypto::Hash32;
use urne_verify::rules::draw::DrawRules;
use urne_verify::rules::game::GameRules;

/// The inputs of the minutes that are not in the trail's payloads.
pub trait Context {
    /// The draw rules whose file has this SHA-256 (a seal's `rules_sha256`, a blob of the
    /// trail): their title, time zone, draw dates, days of grace and prizes.
    fn draw_rules(&self, sha256: &Hash32) -> Option<&DrawRules>;
    /// The game rules whose file has this SHA-256 (a `block.entropy`'s `rules_sha256`): their
    /// title and the counts of every block (G-3).
    fn game_rules(&self, sha256: &Hash32) -> Option<&GameRules>;
    /// The pseudonym of leaf `leaf` of the sealed set whose blob has this SHA-256 (a seal's
    /// `set_sha256`).
    fn pseudonym(&self, set_sha256: &Hash32, leaf: u64) -> Option<Hash32>;
    /// The text of the signed checkpoint covering the minutes' last event.
    fn checkpoint(&self) -> Option<&str>;
    /// The HSM's entropy (hex) of a draw whose result is recorded, found by its entropy
    /// commitment: the trail keeps it sealed by the token, which the appliance opens for the
    /// minutes (the entropy is public once the result is).
    fn draw_entropy(&self, entropy_commitment: &Hash32) -> Option<String>;
}

/// A [`Context`] given as plain values.
#[derive(Debug, Clone, Default)]
pub struct Given {
    /// Draw rules, found by their SHA-256.
    pub draw_rules: Vec<DrawRules>,
    /// Game rules, found by their SHA-256.
    pub game_rules: Vec<GameRules>,
    /// Pseudonyms, by sealed set and leaf (only the picked leaves are needed:
    /// `Minutes::picked_leaves`).
    pub pseudonyms: BTreeMap<(Hash32, u64), Hash32>,
    /// The checkpoint's text.
    pub checkpoint: Option<String>,
    /// The entropy (hex) of the draws drawn, by entropy commitment (only the draws of the
    /// minutes are needed: `Minutes::drawn_entropy_commitments`).
    pub entropies: BTreeMap<Hash32, String>,
}

impl Context for Given {
    fn draw_rules(&self, sha256: &Hash32) -> Option<&DrawRules> {
        self.draw_rules.iter().find(|r| r.sha256() == sha256.0)
    }

    fn game_rules(&self, sha256: &Hash32) -> Option<&GameRules> {
        self.game_rules.iter().find(|r| r.sha256() == sha256)
    }

    fn pseudonym(&self, set_sha256: &Hash32, leaf: u64) -> Option<Hash32> {
        self.pseudonyms.get(&(*set_sha256, leaf)).copied()
    }

    fn checkpoint(&self) -> Option<&str> {
        self.checkpoint.as_deref()
    }

    fn draw_entropy(&self, entropy_commitment: &Hash32) -> Option<String> {
        self.entropies.get(entropy_commitment).cloned()
    }
}
