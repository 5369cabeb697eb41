//! What outputs publish (spec/formats.md §8.4): one history publishes each thing once. The
//! verifier keys the check on these values, never on their words; [`fmt::Display`] gives the
//! words its messages print.

use crate::crypto::Hash32;
use crate::values::BlockId;
use crate::values::{Attempt, Day};
use std::fmt;

/// What a void annulled an attempt of.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Voided {
    /// A day.
    Day(Day),
    /// A block.
    Block(BlockId),
}

impl fmt::Display for Voided {
    /// `day D` or `block B`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Voided::Day(d) => write!(f, "day {d}"),
            Voided::Block(b) => write!(f, "block {b}"),
        }
    }
}

/// What an output publishes, as a verifier keys it: one history publishes each once
/// (spec/formats.md §8.4). Unlike [`crate::audit::history::Subject`] (the trail's record, which the appliance writes
/// before the output exists), it is read from the output itself: a draw names its operation, a
/// reveal its seed commitment, a void notice what it voids, a sitting its trail (a trail made by a
/// witnessed restart numbers its sittings from 1 again, spec/appliance.md §9.1). [`fmt::Display`]
/// gives it in words, as messages print it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Publishes {
    /// A day's attempt drawn (`bundle.json`, `result.json`).
    Draw {
        /// The rules' operation.
        operation: String,
        /// The day, `YYYY-MM-DD`.
        day: String,
        /// The attempt.
        attempt: u32,
    },
    /// A block's attempt committed (`S.commit.json`).
    Commitment {
        /// The block id.
        block: String,
        /// The attempt.
        attempt: u32,
    },
    /// A block's seed revealed (`S.reveal.json`), known by its commitment's seed commitment.
    Reveal {
        /// The block id.
        block: String,
        /// The seed commitment of the commitment revealed.
        seed_commitment: Hash32,
    },
    /// A day's or a block's attempt voided (`void-notice.json`).
    Void {
        /// The day or the block.
        of: Voided,
        /// The attempt, checked to count from 1 (spec/formats.md §4.6 step 2).
        attempt: Attempt,
    },
    /// A sitting's minutes (`sitting.json`), once per trail (spec/formats.md §9.4).
    Sitting {
        /// The sitting's number on its trail.
        number: u32,
        /// The trail's identity.
        trail: Hash32,
    },
}

impl Publishes {
    /// Whether `self` is a draw or a block commitment whose attempt `void` (a [`Publishes::Void`])
    /// voids: the same day or block, the same attempt.
    pub fn is_voided_by(&self, void: &Publishes) -> bool {
        use Voided as Of;
        match (self, void) {
            (
                Publishes::Draw { day, attempt, .. },
                Publishes::Void {
                    of: Of::Day(d),
                    attempt: a,
                },
            ) => day == d && *attempt == a.get(),
            (
                Publishes::Commitment { block, attempt },
                Publishes::Void {
                    of: Of::Block(b),
                    attempt: a,
                },
            ) => block == b && *attempt == a.get(),
            _ => false,
        }
    }
}

impl fmt::Display for Publishes {
    /// `the draw of OPERATION day DAY attempt N`, `the commitment of block B attempt N`, `the
    /// reveal of block B seed commitment H`, `the void of day D attempt N` (or `of block B`),
    /// `sitting N of the trail T`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Publishes::Draw {
                operation,
                day,
                attempt,
            } => write!(f, "the draw of {operation} day {day} attempt {attempt}"),
            Publishes::Commitment { block, attempt } => {
                write!(f, "the commitment of block {block} attempt {attempt}")
            }
            Publishes::Reveal {
                block,
                seed_commitment,
            } => write!(
                f,
                "the reveal of block {block} seed commitment {seed_commitment}"
            ),
            Publishes::Void { of, attempt } => write!(f, "the void of {of} attempt {attempt}"),
            Publishes::Sitting { number, trail } => {
                write!(f, "sitting {number} of the trail {trail}")
            }
        }
    }
}
