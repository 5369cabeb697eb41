//! The registry of the trail's event kinds (spec/formats.md §6.2): every kind urne writes, its name in
//! the trail, and the type of its payload, defined once. The appliance writes every event as a
//! [`Record`] (so its payload is the type's serialisation) and reads every event back through
//! [`parse`]: an unknown kind, or a known kind whose payload does not parse as its type, is a
//! [`MalformedRecord`] naming the event's sequence number and kind.
//!
//! Adding a kind is one line of the `registry!` invocation below (variant, name, payload type);
//! the state machine (`state`) matches every [`Record`] without a wildcard, so the compiler then
//! asks what the new kind does to a day or a block.

use super::payloads::{
    ClockConfirmed, ClockCorrected, CommandFailed, EntropyRefused, InputRejected, KeysExported,
    KeysGenerated, ProducerKeys, SoftwareStart, TrailCreated, TrailRestarted,
};
use crate::audit::chain::Event;
use crate::block::records as block;
use crate::draw::records as draw;

/// An event of the trail that is not a well-formed record of a kind urne writes, or that no
/// trail urne writes could hold at that place (the trail was altered, or written by other
/// software): commands stop on it rather than guess.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("audit event {seq} ({kind}) is not a well-formed record: {reason}")]
pub struct MalformedRecord {
    /// The event's sequence number.
    pub seq: u64,
    /// The event's kind, as stored.
    pub kind: String,
    /// What does not parse or cannot follow, in the parser's or the state machine's words.
    pub reason: String,
}

/// Defines [`Kind`], [`Record`] and their conversions from one list of `Variant = "name" =>
/// PayloadType` entries.
macro_rules! registry {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal => $ty:ty ),* $(,)?) => {
        /// Every event kind urne writes (spec/formats.md §6.2).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Kind {
            $( $(#[$doc])* $variant, )*
        }

        impl Kind {
            /// Every kind, in the registry's order.
            pub const ALL: &'static [Kind] = &[$(Kind::$variant),*];

            /// The kind's name, as the trail stores it.
            pub fn name(self) -> &'static str {
                match self {
                    $( Kind::$variant => $name, )*
                }
            }

            /// The kind named `name`, if urne writes it.
            pub fn from_name(name: &str) -> Option<Kind> {
                match name {
                    $( $name => Some(Kind::$variant), )*
                    _ => None,
                }
            }
        }

        /// An event's payload, typed by its kind.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum Record {
            $( $(#[$doc])* $variant($ty), )*
        }

        impl Record {
            /// The record's kind.
            pub fn kind(&self) -> Kind {
                match self {
                    $( Record::$variant(_) => Kind::$variant, )*
                }
            }

            /// The payload as stored: the type's JSON serialisation, fields in their order.
            pub fn payload(&self) -> String {
                match self {
                    $( Record::$variant(r) => encode(r), )*
                }
            }

            /// Parses `payload` as the payload of `kind`.
            fn parse_as(kind: Kind, payload: &str) -> Result<Record, serde_json::Error> {
                match kind {
                    $( Kind::$variant => serde_json::from_str(payload).map(Record::$variant), )*
                }
            }
        }

        $(
            impl From<$ty> for Record {
                fn from(r: $ty) -> Record {
                    Record::$variant(r)
                }
            }
        )*
    };
}

registry! {
    /// A trail was created, bound to its token (event 1 of a version-2 trail).
    TrailCreated = "trail.created" => TrailCreated,
    /// A trail was restarted in front of the commissaire (event 1 of the new trail).
    TrailRestarted = "trail.restarted" => TrailRestarted,
    /// A command that changes anything has begun.
    SoftwareStart = "software.start" => SoftwareStart,
    /// The keys were generated in the token.
    KeysGenerated = "keys.generated" => KeysGenerated,
    /// The public keys were exported.
    KeysExported = "keys.exported" => KeysExported,
    /// Production's keys that a seal trusts were pinned (or replaced).
    ProducerKeys = "producer.keys" => ProducerKeys,
    /// A command stopped on an error.
    CommandFailed = "command.failed" => CommandFailed,
    /// An input file was refused.
    InputRejected = "input.rejected" => InputRejected,
    /// A day was sealed.
    DrawSeal = "draw.seal" => draw::SealRecord,
    /// A draw made after its draw date (D-8).
    DrawLate = "draw.late" => draw::LateRecord,
    /// A draw's entropy and its commitment, before the contribution exists.
    DrawEntropy = "draw.entropy" => draw::EntropyRecord,
    /// The commissaire's contribution to a draw, before anything is computed from it.
    DrawContribution = "draw.contribution" => draw::ContributionRecord,
    /// A draw's seed and picks.
    DrawResult = "draw.result" => draw::ResultRecord,
    /// A draw's outputs were published.
    DrawPublished = "draw.published" => draw::PublishedRecord,
    /// A day's attempt was voided.
    DrawVoid = "draw.void" => draw::VoidRecord,
    /// An inclusion proof was issued for an account.
    DrawProof = "draw.proof" => draw::ProofRecord,
    /// Every account's inclusion proof of a sealed attempt was issued, in one file.
    DrawProofs = "draw.proofs" => draw::ProofsRecord,
    /// A block's entropy (sealed, by hash) and its commitment, before the contribution exists.
    BlockEntropy = "block.entropy" => block::EntropyRecord,
    /// The commissaire's contribution to the blocks of one generation.
    BlockContribution = "block.contribution" => block::ContributionRecord,
    /// What a generated block commits to.
    BlockGenerated = "block.generated" => block::GeneratedRecord,
    /// A block's commitment and production file were published.
    BlockPublished = "block.published" => block::PublishedRecord,
    /// A block's entropy and seed were revealed.
    BlockRevealed = "block.revealed" => block::RevealedRecord,
    /// A block's attempt was voided.
    BlockVoid = "block.void" => block::VoidRecord,
    /// A ticket proof was issued.
    BlockProof = "block.proof" => block::ProofRecord,
    /// An output (a reveal, a void notice) was placed: the next one names it.
    OutputPublished = "output.published" => crate::audit::history::OutputPublished,
    /// An output about to be moved into its folder: where, and its files' SHA-256.
    OutputPlacing = "output.placing" => crate::audit::history::OutputPlacing,
    /// Entropy the trail had already seen, refused and never used.
    EntropyRefused = "entropy.refused" => EntropyRefused,
    /// A sitting was opened in front of the commissaire (spec/appliance.md §9.1).
    SittingOpened = "sitting.opened" => crate::sitting::OpenedRecord,
    /// An open sitting was taken up again after an interruption.
    SittingResumed = "sitting.resumed" => crate::sitting::ResumedRecord,
    /// A sitting's work ended; its minutes follow.
    SittingClosed = "sitting.closed" => crate::sitting::ClosedRecord,
    /// The clock that dated the events before it was wrong (ahead); a person confirmed the true
    /// time at the terminal, and the events from this one on are dated by the corrected clock.
    ClockCorrected = "clock.corrected" => ClockCorrected,
    /// A clock far ahead of the trail's last event, confirmed by a person at the terminal.
    ClockConfirmed = "clock.confirmed" => ClockConfirmed,
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The JSON text of a payload. The payload types hold strings, integers, booleans, hashes and
/// maps with string keys only, which always serialise.
fn encode<T: serde::Serialize>(r: &T) -> String {
    serde_json::to_string(r).expect("a payload type always serialises")
}

impl Kind {
    /// Whether a record of this kind names blobs ([`Record::blobs`] is empty for every other
    /// kind): a reader that needs only the blobs a trail names parses only these events.
    pub fn names_blobs(self) -> bool {
        matches!(
            self,
            Kind::DrawSeal | Kind::DrawEntropy | Kind::BlockEntropy
        )
    }
}

impl Record {
    /// The blobs the record names (spec/formats.md §6.2: data stored beside the events, content-addressed
    /// by SHA-256): a seal's sealed set and rules file, a block's entropy.
    pub fn blobs(&self) -> Vec<crate::crypto::Hash32> {
        if !self.kind().names_blobs() {
            return vec![];
        }
        match self {
            Record::DrawSeal(r) => vec![r.set_sha256, r.rules_sha256],
            Record::DrawEntropy(r) => vec![r.entropy_blob],
            Record::BlockEntropy(r) => vec![r.entropy_blob],
            _ => vec![],
        }
    }
}

/// The error for event `e`, for `reason`.
pub fn malformed(e: &Event, reason: impl Into<String>) -> MalformedRecord {
    MalformedRecord {
        seq: e.seq,
        kind: e.kind.clone(),
        reason: reason.into(),
    }
}

/// Parses event `e` into its typed record: its kind must be one urne writes and its payload
/// must parse as that kind's type.
pub fn parse(e: &Event) -> Result<Record, MalformedRecord> {
    let kind = Kind::from_name(&e.kind).ok_or_else(|| malformed(e, "unknown event kind"))?;
    Record::parse_as(kind, &e.payload).map_err(|err| malformed(e, err.to_string()))
}

#[cfg(test)]
mod tests;
