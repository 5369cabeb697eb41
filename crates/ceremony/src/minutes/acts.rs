//! The model of the acts done outside any sitting (spec/appliance.md §9.2, M-270), and the event stamp
//! every item of the minutes carries: plain values, read by `outside` from the trail, written
//! in words by the renderers.

use chrono::{DateTime, Utc};
use urne_verify::block::BlockId;
use urne_verify::crypto::Hash32;
use urne_verify::values::{Attempt, Day};

/// An event, by its sequence number and its time (RFC 3339 UTC in the trail).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    /// The event's sequence number.
    pub seq: u64,
    /// Its time.
    pub at: DateTime<Utc>,
}

/// One act done outside any sitting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutsideAct {
    /// The event that records it.
    pub at: Stamp,
    /// What it is.
    pub act: Act,
    /// Its output, when it was published.
    pub output: Option<ActOutput>,
}

/// What an act done outside any sitting is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Act {
    /// A day's attempt sealed (`draw.seal`).
    Seal {
        /// The day, `YYYY-MM-DD`.
        day: Day,
        /// The attempt.
        attempt: Attempt,
    },
    /// A day's attempt drawn (`draw.result`).
    Draw {
        /// The day.
        day: Day,
        /// The attempt.
        attempt: Attempt,
    },
    /// A day's or a block's attempt voided (`draw.void`, `block.void`).
    Void {
        /// True for a block.
        block: bool,
        /// The day or the block's canonical id.
        subject: String,
        /// The attempt.
        attempt: Attempt,
        /// The reason given.
        reason: String,
    },
    /// A block's attempt generated (`block.generated`).
    Generated {
        /// The block's canonical id.
        block: BlockId,
        /// The attempt.
        attempt: Attempt,
    },
    /// A block's attempt revealed (`block.revealed`).
    Revealed {
        /// The block's canonical id.
        block: BlockId,
        /// The attempt.
        attempt: Attempt,
    },
    /// Production's keys pinned (`producer.keys`).
    ProducerKeys {
        /// The key ids pinned.
        keys: Vec<String>,
        /// The key ids they replace (empty: the first pin).
        previous: Vec<String>,
    },
}

/// An act's output, as its publication's record states it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActOutput {
    /// The publication's event.
    pub seq: u64,
    /// The folder, as the operator gave it.
    pub folder: String,
    /// The output's primary file, by name.
    pub file: String,
    /// Its SHA-256.
    pub sha256: Hash32,
}
