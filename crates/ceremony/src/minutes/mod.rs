//! The minutes (procès-verbal) a *commissaire de justice* signs (spec/appliance.md §9.2): of a sitting,
//! of the key ceremony, and of a day drawn alone (`pv.html`). Built from the trail's events
//! alone, plus the few things the trail's payloads do not hold, which the appliance reads from
//! its store ([`Context`]); rendered as one self-contained HTML file made to be printed on A4.
//!
//! ## API
//!
//! - [`Minutes::from_trail`]`(events, number, &ctx)`: the minutes of sitting `number`, from
//!   its `sitting.opened` to its `sitting.closed` (or to the end of the trail while it is still
//!   open). `events` is the whole trail, in order: a draw resumed in the sitting is read with its
//!   seal and its entropy even when they were recorded before the sitting opened.
//! - [`Minutes::for_draw`]`(events, day, attempt, &ctx)`: the minutes of one draw made outside
//!   a sitting (the lone draw's `pv.html`): no place and no persons known, lines left to fill
//!   by hand.
//! - [`html::render`]`(&minutes, lang)`: the HTML text (French by default: [`Lang::Fr`]).
//! - [`Context`]: what the appliance gives that the trail's payloads do not hold: the rules
//!   sealed with a day (title, time zone, draw date and days of grace of D-8, prize), the game
//!   rules of a block (title, prize counts), the pseudonyms of the picked leaves (from the sealed
//!   set's blob), the final checkpoint's text. [`Given`] is a plain implementation;
//!   [`Minutes::picked_leaves`] names the leaves whose pseudonyms are needed.
//!
//! Everything in the model is a plain value the renderer reads; the model never holds an
//! account (the picks are named by their pseudonym only, D-14, D-15).

mod acts;
mod build;
mod collect;
mod context;
mod corrections;
pub mod html;
mod lone;
mod markup;
pub mod outside;
mod pinned;
pub mod pv;
mod standing;
pub mod words;

pub use acts::{Act, ActOutput, OutsideAct, Stamp};
pub use context::{Context, Given};

use chrono::NaiveDate;
use chrono_tz::Tz;
use std::collections::BTreeMap;
use urne_verify::block::BlockId;
use urne_verify::block::files::TierCount;
use urne_verify::block::records::GeneratedRecord;
use urne_verify::crypto::Hash32;
use urne_verify::draw::records::SealRecord;
use urne_verify::events::kinds::MalformedRecord;
use urne_verify::events::payloads::{KeysExported, KeysGenerated};
use urne_verify::sitting::{Commissaire, Person, Step};
use urne_verify::software::{Pkcs11Identity, SoftwareIdentity};
use urne_verify::values::{Attempt, Day, KeyId};

/// The language of the minutes (spec/appliance.md §9.1 `lang`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    /// French, the default: what the commissaire signs.
    #[default]
    Fr,
    /// English.
    En,
}

impl Lang {
    /// The language of a sitting's `lang` (`fr`, `en`); French for anything else.
    pub fn from_code(code: &str) -> Lang {
        if code == "en" { Lang::En } else { Lang::Fr }
    }

    /// The language's code, as HTML's `lang` attribute spells it.
    pub fn code(self) -> &'static str {
        match self {
            Lang::Fr => "fr",
            Lang::En => "en",
        }
    }

    /// `fr` in French, `en` in English.
    pub fn pick<'a>(self, fr: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Fr => fr,
            Lang::En => en,
        }
    }
}

/// What the minutes are of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MinutesKind {
    /// A sitting of the operation's work (draws, blocks, reveals, voids).
    Sitting,
    /// The key ceremony.
    KeyCeremony,
    /// One draw made outside any sitting (`pv.html`).
    LoneDraw,
}

/// Why minutes cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MinutesError {
    /// An event of the trail is not a well-formed record, or its time does not parse.
    #[error(transparent)]
    Malformed(#[from] MalformedRecord),
    /// The trail has no `sitting.opened` with that number.
    #[error("the trail has no sitting {0}")]
    NoSitting(u32),
    /// The trail has no event of that draw.
    #[error("the trail records no draw of day {day} attempt {attempt}")]
    NoDraw {
        /// The day.
        day: Day,
        /// The attempt.
        attempt: Attempt,
    },
}

/// What became of a step of the plan, read from the trail (spec/appliance.md §9.2): the minutes say when
/// a planned step was found done before the sitting, or was not done at it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepDone {
    /// Done during the sitting (the minutes state it below), or a step of no day or block.
    InSitting,
    /// Done before the sitting opened, and not again during it: its last such event.
    Before {
        /// The event's sequence number.
        seq: u64,
        /// The attempt it was done for.
        attempt: Attempt,
    },
    /// Not done during the sitting: declined, refused, or left when the sitting closed.
    NotDone,
}

/// The minutes: everything spec/appliance.md §9.2 lists, read from the trail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Minutes {
    /// What they are of.
    pub kind: MinutesKind,
    /// The sitting's number (none for a lone draw).
    pub number: Option<u32>,
    /// The sitting's language.
    pub lang: Lang,
    /// The time zone dates are written in (the rules', D-1; Europe/Paris without rules).
    pub time_zone: Tz,
    /// The operations' titles, each once, in the trail's order (the rules' `title` up to its
    /// first `:`; the operation's id when its rules were not given).
    pub titles: Vec<String>,
    /// The place (empty when not known: a lone draw).
    pub place: String,
    /// The town the minutes are made in (`Fait à <town>`; empty when not recorded: a lone
    /// draw, or a sitting opened before the town was asked, whose minutes say the place).
    pub town: String,
    /// The commissaire de justice (none for a lone draw).
    pub commissaire: Option<Commissaire>,
    /// The other persons present.
    pub present: Vec<Person>,
    /// The first event covered: `sitting.opened`, or the lone draw's first event.
    pub opened: Stamp,
    /// `sitting.closed`, when the sitting is closed.
    pub closed: Option<Stamp>,
    /// The last event covered.
    pub last: Stamp,
    /// The acts done outside any sitting between the previous sitting's close and this one's
    /// opening (M-270); empty but for an ordinary sitting.
    pub outside: Vec<OutsideAct>,
    /// The work planned when the sitting opened.
    pub plan: Vec<Step>,
    /// What became of each step of `plan` (same order).
    pub plan_done: Vec<StepDone>,
    /// Each draw, in the trail's order.
    pub draws: Vec<Draw>,
    /// Each block generated (or begun), in the trail's order.
    pub blocks: Vec<Block>,
    /// Each reveal.
    pub reveals: Vec<Reveal>,
    /// Each void.
    pub voids: Vec<Void>,
    /// The key ceremony's keys.
    pub keys: Option<Keys>,
    /// Every refusal and interruption, in the trail's order.
    pub incidents: Vec<Incident>,
    /// The software and HSM identity of the first process, then every change of it.
    pub software: Vec<Software>,
    /// The integrity conclusion.
    pub integrity: Integrity,
}

/// A draw's randomness, as it became fixed (spec/formats.md §3.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixed<T> {
    /// The event that recorded it.
    pub at: Stamp,
    /// The value: an entropy commitment, a contribution.
    pub value: T,
}

/// One draw (a day's attempt) of the minutes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draw {
    /// The operation's id.
    pub operation: String,
    /// The day, `YYYY-MM-DD`.
    pub day: Day,
    /// The attempt.
    pub attempt: Attempt,
    /// The seal it was drawn from (its figures, commitment, export, rules).
    pub seal: Option<Fixed<SealRecord>>,
    /// The day's prize in cents, from its rules (D-10).
    pub prize_cents: Option<u64>,
    /// The draw's date against its draw date (D-8), when known.
    pub timing: Option<Timing>,
    /// The entropy commitment, with the event that fixed it.
    pub entropy_commitment: Option<Fixed<Hash32>>,
    /// The commissaire's contribution, with the event that recorded it.
    pub contribution: Option<Fixed<String>>,
    /// The HSM's entropy, hex, when the caller gives it (the lone draw's own process knows it;
    /// the trail keeps it sealed).
    pub entropy: Option<String>,
    /// The seed and the picks.
    pub result: Option<DrawResult>,
    /// The files published, by name, with their SHA-256 (`draw.published`'s `files`; for a
    /// lone draw's `pv.html`, what the caller gives).
    pub files: BTreeMap<String, Hash32>,
    /// The `draw.published` event.
    pub published: Option<Stamp>,
    /// The day's earlier attempts, voided: attempt, reason, the `draw.void` event.
    pub earlier_voids: Vec<(u32, String, u64)>,
}

/// A draw's seed and picks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawResult {
    /// The `draw.result` event.
    pub at: Stamp,
    /// The seed.
    pub seed: Hash32,
    /// The winner (rank 0), then the reserves in rank order.
    pub picks: Vec<Picked>,
}

/// A winner or a reserve, by its leaf.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picked {
    /// 0 for the winner, 1, 2, … for the reserves.
    pub rank: u32,
    /// The leaf's index in pseudonym order.
    pub leaf: u64,
    /// The entry that picked it.
    pub entry: u64,
    /// The leaf's pseudonym (from the sealed set: [`Context::pseudonym`]).
    pub pseudonym: Option<Hash32>,
}

/// A draw's date against its draw date (D-8).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Timing {
    /// The date of the draw, in the rules' time zone.
    pub drawn_on: NaiveDate,
    /// The period's draw date.
    pub draw_date: NaiveDate,
    /// The period's id, when the rules were given.
    pub period: Option<String>,
    /// The days of grace after the draw date (the rules' `draw_grace_days`), when known.
    pub grace_days: Option<u32>,
    /// The `draw.late` event, when the appliance recorded the draw as late.
    pub late_event: Option<u64>,
}

impl Timing {
    /// After the draw date plus its days of grace (recorded, or computed from the rules).
    pub fn is_late(&self) -> bool {
        self.late_event.is_some()
            || self
                .grace_days
                .is_some_and(|g| self.drawn_on > self.draw_date + chrono::Days::new(u64::from(g)))
    }

    /// Before the draw date.
    pub fn is_early(&self) -> bool {
        self.drawn_on < self.draw_date
    }

    /// After the draw date, within its days of grace.
    pub fn is_postponed(&self) -> bool {
        !self.is_late() && self.drawn_on > self.draw_date
    }
}

/// One block's attempt generated (or begun) in the minutes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// The block's canonical id.
    pub block: BlockId,
    /// The attempt.
    pub attempt: Attempt,
    /// The game rules' SHA-256 (`block.entropy`).
    pub rules_sha256: Option<Hash32>,
    /// The entropy commitment, with its event.
    pub entropy_commitment: Option<Fixed<Hash32>>,
    /// The contribution, with its event.
    pub contribution: Option<Fixed<String>>,
    /// What the block commits to, with its event.
    pub generated: Option<Fixed<GeneratedRecord>>,
    /// The prize counts (from the game rules, G-3), when given.
    pub counts: Option<Vec<TierCount>>,
    /// The files published, by name.
    pub files: BTreeMap<String, Hash32>,
    /// The `block.published` event.
    pub published: Option<Stamp>,
}

/// A block revealed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reveal {
    /// The `block.revealed` event.
    pub at: Stamp,
    /// The block's canonical id.
    pub block: BlockId,
    /// The attempt revealed.
    pub attempt: Attempt,
    /// The HSM's entropy, hex.
    pub entropy: String,
    /// The block's seed.
    pub seed: Hash32,
    /// The time its sales closed, RFC 3339, as recorded (`block.revealed`'s `sales_closed_at`,
    /// else the plan's `detail` of the reveal).
    pub sales_closed_at: Option<String>,
}

/// A day's or a block's attempt voided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Void {
    /// The `draw.void` or `block.void` event.
    pub at: Stamp,
    /// True for a block, false for a day.
    pub block: bool,
    /// The day or the block's canonical id.
    pub subject: String,
    /// The attempt voided.
    pub attempt: Attempt,
    /// The stage it had reached (a day's; a block's is not recorded).
    pub stage: Option<String>,
    /// The reason given.
    pub reason: String,
}

/// The key ceremony's keys and trail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keys {
    /// The keys generated in the token, with the event.
    pub generated: Option<Fixed<KeysGenerated>>,
    /// Each export of the public keys.
    pub exported: Vec<Fixed<KeysExported>>,
    /// Production's keys a seal trusts when the range ends (the trail's last `producer.keys`).
    pub pinned: Option<Fixed<urne_verify::events::payloads::ProducerKeys>>,
}

/// A refusal or an interruption.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Incident {
    /// A command stopped on an error (`command.failed`).
    Failed {
        /// The event.
        at: Stamp,
        /// The command.
        command: String,
        /// The error's class.
        class: String,
        /// The message.
        error: String,
    },
    /// An input file refused (`input.rejected`).
    Rejected {
        /// The event.
        at: Stamp,
        /// The file as given.
        file: String,
        /// Its SHA-256, when it could be read.
        sha256: Option<Hash32>,
        /// Why.
        reason: String,
    },
    /// Entropy refused and never used (`entropy.refused`).
    EntropyRefused {
        /// The event.
        at: Stamp,
        /// What it was for (`day D`, `block B`).
        purpose: String,
        /// The attempt.
        attempt: u32,
        /// The refused value's entropy commitment.
        commitment: Hash32,
        /// Why.
        reason: String,
    },
    /// Another process started inside the sitting (`software.start`).
    Process {
        /// The event.
        at: Stamp,
        /// The command it ran.
        command: String,
    },
    /// A process of the sitting ran another PKCS#11 module than the key ceremony's (the trail's
    /// first `software.start`): a vendor's update, or a module that is not the vendor's.
    OtherModule {
        /// The `software.start` of the process.
        at: Stamp,
        /// The module's path and SHA-256 in that process.
        path: String,
        /// Its SHA-256.
        sha256: Hash32,
        /// The key ceremony's module's SHA-256, and the event that recorded it.
        key_ceremony: (u64, Hash32),
    },
    /// Production's keys pinned by another process than a sitting's: for a sitting, while it was
    /// open (a pin before its opening is an act done outside any sitting, [`OutsideAct`]); for a
    /// lone draw, since the previous sitting.
    ProducerKeys {
        /// The event.
        at: Stamp,
        /// The key ids pinned.
        keys: Vec<KeyId>,
        /// The key ids they replace (empty: the first pin).
        previous: Vec<KeyId>,
    },
    /// The appliance's clock corrected (`clock.corrected`, spec/appliance.md §6.6) since the previous
    /// sitting: the events before it were dated by a clock set ahead.
    ClockCorrected {
        /// The event.
        at: Stamp,
        /// The last time the wrong clock gave (the time of the event before it).
        wrong: String,
        /// The date and time confirmed at the terminal.
        confirmed: String,
        /// Why, as typed.
        reason: String,
    },
    /// A clock far ahead of the trail confirmed at the terminal (`clock.confirmed`, spec/appliance.md
    /// §6.6) since the previous sitting.
    ClockConfirmed {
        /// The event.
        at: Stamp,
        /// The time of the trail's last event before it.
        previous: String,
        /// The date and time confirmed at the terminal.
        confirmed: String,
    },
    /// An event dated more than 31 days after the event before it, which no `clock.confirmed`
    /// states (spec/appliance.md §9.2, §6.6): the clock may have been set ahead, and its confirmation, if
    /// any was made, was lost with a killed run.
    ClockJumped {
        /// The event dated far after the one before it.
        at: Stamp,
        /// The event before it.
        previous: Stamp,
    },
    /// The key ceremony's keys generated by an earlier process than the one that opened its
    /// sitting: a first attempt stopped before the opening (spec/appliance.md §9.1, §9.2).
    KeysBeforeOpening {
        /// The `keys.generated` event.
        at: Stamp,
        /// The `software.start` of the process that generated them.
        process: u64,
        /// The `software.start` of the process that opened the sitting.
        opener: u64,
        /// The first refusal recorded between the keys and the opening (`command.failed`):
        /// why the attempt stopped, when the trail says.
        cause: Option<u64>,
    },
    /// A run of `urne ceremony` between the previous sitting and this one that recorded nothing
    /// but its start: stopped before it opened a sitting (a refusal there, such as the watch
    /// refused three times, is not recorded, spec/appliance.md §9.1).
    StoppedBeforeOpening {
        /// Its `software.start`.
        at: Stamp,
    },
    /// The sitting taken up again (`sitting.resumed`).
    Resumed {
        /// The event.
        at: Stamp,
        /// The work planned from then on.
        plan: Vec<Step>,
    },
    /// A draw or a generation finished by a later process, with the randomness an earlier one
    /// recorded.
    RandomnessResumed {
        /// The event that finished it (`draw.result`, `block.generated`).
        at: Stamp,
        /// True for a block.
        block: bool,
        /// The day or the block.
        subject: String,
        /// The attempt.
        attempt: Attempt,
        /// The event that recorded the entropy.
        entropy_seq: u64,
        /// The event that recorded the contribution, when it was recorded before the process
        /// that finished it started.
        contribution_seq: Option<u64>,
        /// Whether the entropy was recorded before the sitting opened.
        before_sitting: bool,
    },
}

impl Incident {
    /// The event the incident is about.
    pub fn at(&self) -> Stamp {
        match self {
            Incident::Failed { at, .. }
            | Incident::Rejected { at, .. }
            | Incident::EntropyRefused { at, .. }
            | Incident::Process { at, .. }
            | Incident::OtherModule { at, .. }
            | Incident::ProducerKeys { at, .. }
            | Incident::ClockCorrected { at, .. }
            | Incident::ClockConfirmed { at, .. }
            | Incident::ClockJumped { at, .. }
            | Incident::KeysBeforeOpening { at, .. }
            | Incident::StoppedBeforeOpening { at }
            | Incident::Resumed { at, .. }
            | Incident::RandomnessResumed { at, .. } => *at,
        }
    }
}

/// The software and the HSM of one process (`software.start`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Software {
    /// The event.
    pub at: Stamp,
    /// The command.
    pub command: String,
    /// The software.
    pub software: SoftwareIdentity,
    /// The PKCS#11 module and the token.
    pub pkcs11: Pkcs11Identity,
}

/// The checkpoint covering the minutes' last event, as the commissaire copies it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    /// The number of events it covers.
    pub size: u64,
    /// Its root.
    pub root: Hash32,
    /// The signed note's text.
    pub text: String,
}

/// The integrity conclusion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Integrity {
    /// The trail's identity (event 1's `trail`).
    pub trail: Option<Hash32>,
    /// The audit key's id (event 1's `audit_key_id`).
    pub audit_key_id: Option<KeyId>,
    /// The checkpoint, when the caller gives its text.
    pub checkpoint: Option<Checkpoint>,
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod tests_html;

#[cfg(test)]
mod tests_pinned;

#[cfg(test)]
mod tests_outside;
