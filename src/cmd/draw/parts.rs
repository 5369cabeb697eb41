//! The values a draw goes through, phase by phase (shared by `draw` and its outputs).

use urne_ceremony::state::day::DayState;
use urne_verify::crypto::Hash32;
use urne_verify::draw::files::Placed;
use urne_verify::draw::records::{EntropyRecord, ResultRecord, SealRecord};
use urne_verify::draw::{Commitment, Ranges, SealedSet};
use urne_verify::rules::draw::{DrawRules, Period};
use urne_verify::values::Day;

/// A sealed, not yet published day as the trail holds it, with its sealed rules.
pub(super) struct Sealed {
    pub day: Day,
    /// The trail as read before the draw recorded anything.
    pub events: crate::edge::store::Events,
    pub st: DayState,
    pub seal: SealRecord,
    pub rules_hash: Hash32,
    pub rules_bytes: Vec<u8>,
    pub rules: DrawRules,
    pub period: Period,
}

/// The sealed set and the commitment the seal recorded for it.
pub(super) struct Committed {
    pub set: SealedSet,
    pub c: Commitment,
    /// The leaves' entry ranges, computed before the contribution: the draw and its own check
    /// select from them.
    pub ranges: Ranges,
}

/// The computed draw: its seed and the recorded outcome.
pub(super) struct Drawn {
    pub seed: Hash32,
    pub result: ResultRecord,
}

/// The files of the result folder, built and checked, not yet written.
pub(super) struct Outputs {
    /// The checkpoint the result and the bundle carry.
    pub checkpoint: String,
    pub files: Vec<(&'static str, Vec<u8>)>,
    pub placed: Vec<Placed>,
}

/// The draw's randomness as the trail fixed it, in this order: the entropy (event
/// `entropy_seq`, its commitment signed in that event's checkpoint), then the contribution
/// (event `contribution_seq`).
pub(super) struct Randomness {
    pub entropy_seq: u64,
    pub record: EntropyRecord,
    pub entropy: Vec<u8>,
    pub contribution_seq: u64,
    pub contribution: String,
    /// Whether this run showed the rules, the commitment and the entropy commitment before the
    /// contribution was typed (the result's screen then does not print them again).
    pub shown: bool,
}

impl Sealed {
    /// What the draw publishes: its day's attempt (spec/formats.md §6.7).
    pub(super) fn subject(&self) -> urne_verify::audit::history::Subject {
        urne_verify::audit::history::Subject::Draw {
            day: self.day,
            attempt: self.st.attempt,
        }
    }
}
