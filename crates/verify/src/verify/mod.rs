//! Third-party verification (design principle 2, spec/formats.md §8): recomputes draws and blocks from
//! published files and compares. Pure: it is given bytes, keys and the paths of the files to
//! check, never the HSM, the database, the configuration or a private key, so it can never
//! produce a result. It prints nothing: it returns the list of checks that held, or the first
//! [`Failure`].
//!
//! - [`signed`]: the public keys a verification trusts and signature-checked reads (spec/formats.md §1.4)
//! - [`draw`]: the recomputation of a daily draw, step by step (spec/formats.md §8.2, §8.3)
//! - [`draw_folder`]: `urne verify DIR` on a draw folder, public and auditor mode (spec/formats.md §8.2)
//! - [`block_folder`]: `urne verify DIR` on a block folder (spec/formats.md §5.B8, §5.B10)
//! - [`proof`]: `urne verify FILE` on an inclusion proof or a ticket proof (spec/formats.md §8.3, §5.B9)
//! - [`void_notice`]: `urne verify DIR` on a void notice (spec/formats.md §4.6)
//! - [`sitting`]: `urne verify DIR` on a sitting's output, its minutes and what it lists (spec/formats.md §9.4)
//! - [`history`]: one linear history across outputs, forks (spec/formats.md §6.7, §8.4)
//! - [`trail`]: the audit trail's events, chain and checkpoints (spec/formats.md §6.4)
//! - [`trail_export`]: the strict parser of an exported trail (`urne audit export`, spec/formats.md §6.4)
//! - [`release`]: a release's signed manifest and the outputs' software judged against it (spec/formats.md §8.8)
//!
//! The entry point for a downloaded draw folder is [`draw_folder::verify_draw_folder`] (with
//! an example).

pub mod block_folder;
pub mod block_order;
pub mod disk;
pub mod draw;
pub mod draw_folder;
pub mod folder;
pub mod history;
pub mod lone;
pub mod manifest_check;
pub mod outputs;
pub mod proof;
pub mod release;
pub mod signed;
pub mod sitting;
pub mod standing;
#[cfg(test)]
mod tests_once;
pub mod ticket_derive;
pub mod trail;
pub mod trail_export;
pub mod verdict;
pub mod void_notice;
pub mod witnessed;

pub use crate::subject::Publishes;

/// Why verification failed: the class of failure (for scripts and test vectors) and what,
/// precisely, does not hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The class of failure (spec/formats.md §8.1).
    pub class: FailureClass,
    /// What does not hold, in words.
    pub what: String,
    /// What to do about it, when this failure knows better than its class (a usage mistake that
    /// names the keys involved).
    pub hint: Option<String>,
}

impl Failure {
    /// This failure with `hint`.
    #[must_use]
    pub fn with_hint(self, hint: impl Into<String>) -> Self {
        Failure {
            hint: Some(hint.into()),
            ..self
        }
    }
}

/// Classes of failure, so a parse error cannot pass for a signature failure (spec/formats.md §8.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureClass {
    /// A signature is missing or does not verify under the given key.
    BadSignature,
    /// A file does not parse as its format says.
    Malformed,
    /// Committed data does not match its commitment (Merkle root, counts, hashes).
    CommitmentMismatch,
    /// Recomputing the draw or the block gives another outcome.
    DrawMismatch,
    /// Two files that must agree do not (result vs bundle, export vs seal).
    Inconsistent,
    /// Two outputs of one trail that cannot be one history (spec/formats.md §6.7, §8.4).
    Fork,
    /// An output of a rehearsal token (spec/formats.md §6.10): whatever else holds, never an
    /// official result.
    Rehearsal,
    /// With releases given (spec/formats.md §8.8): an output whose executable is not the
    /// released `urne` of its source revision (built another way, or not released). Every
    /// output verified; exit 9, not 1.
    NotReleased,
    /// Not a verification failure: the verification was asked wrongly (keys that are not the
    /// outputs' appliance's, auditor mode without a producer key, a path that is no output):
    /// exit 2 (spec/formats.md §8.1).
    Usage,
    /// Not a verification failure: a file could not be read (exit 2, spec/formats.md §8.1).
    Unreadable,
}

/// The class of a checkpoint that does not verify as an official one: `rehearsal` for a
/// rehearsal token's checkpoint (spec/formats.md §6.10), else `otherwise`.
pub(crate) fn note_class(
    e: &crate::audit::chain::NoteError,
    otherwise: FailureClass,
) -> FailureClass {
    if e.kind == crate::audit::chain::NoteErrorKind::Rehearsal {
        FailureClass::Rehearsal
    } else {
        otherwise
    }
}

impl FailureClass {
    /// The class's name as spec/formats.md §8.1 and the test vectors spell it (`bad-signature`, …).
    pub fn name(self) -> &'static str {
        match self {
            FailureClass::BadSignature => "bad-signature",
            FailureClass::Malformed => "malformed",
            FailureClass::CommitmentMismatch => "commitment-mismatch",
            FailureClass::DrawMismatch => "draw-mismatch",
            FailureClass::Inconsistent => "inconsistent",
            FailureClass::Fork => "fork",
            FailureClass::Rehearsal => "rehearsal",
            FailureClass::NotReleased => "not-released",
            FailureClass::Usage => "usage",
            FailureClass::Unreadable => "unreadable",
        }
    }

    /// Whether this is a verification failure (exit 1); usage and unreadable files are exit 2.
    pub fn is_verification(self) -> bool {
        !matches!(self, FailureClass::Usage | FailureClass::Unreadable)
    }
}

/// A [`Failure`] of `class`, saying `what`.
pub fn fail(class: FailureClass, what: impl Into<String>) -> Failure {
    Failure {
        class,
        what: what.into(),
        hint: None,
    }
}

/// The result of one verification step.
pub type VResult<T> = Result<T, Failure>;

/// What a verification that held checked, in order: one line per check, as `urne verify` prints
/// them after `VERIFIED:`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// The checks done, in the order they were done.
    pub checks: Vec<String>,
    /// The version-2 outputs found, each checked alone (spec/formats.md §6.7), for the checks across
    /// outputs ([`history::check_linear`], [`history::check_held`]).
    pub outputs: Vec<crate::audit::history::Output>,
    /// What was verified, one line per output (`the draw of … day … attempt …`), printed first.
    pub subjects: Vec<Verified>,
    /// Whether these outputs were verified together as a folder of outputs (a whole
    /// publications medium, spec/formats.md §8.4), not as one output: a draw or a block
    /// commitment no void notice among them voids is then not said to be alone (§8.1, M-398).
    pub whole: bool,
    /// What could not be checked from the files given (`partial:` lines, spec/formats.md §8.1).
    pub partial: Vec<String>,
    /// The ids of the rules verified outputs were made under that are not an official
    /// regulation, each once: the verdict's first line names them (spec/formats.md §7.4, §8.1 [M-296]).
    pub unofficial: Vec<String>,
    /// Remarks that change nothing (files ignored, predecessors published elsewhere).
    pub notes: Vec<String>,
    /// The days of the draws, lone results and day void notices verified (for `--expect-day`).
    pub days: Vec<String>,
    /// The blocks of the commitments and block void notices verified (for `--expect-block`).
    pub blocks: Vec<String>,
    /// What each output verified publishes, every version and lone results included, for the
    /// check that one history publishes each thing once (spec/formats.md §8.4).
    pub published: Vec<Published>,
    /// The outputs each sitting verified lists, for the check that a folder of outputs holds
    /// them all (spec/formats.md §9.4).
    pub sittings: Vec<Listing>,
}

/// One output verified (spec/formats.md §8.1): the words of the verdict's line that names it, and
/// its files as parsed once their every check held, so that production and players take the
/// values from here and never parse the bytes again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// `the draw of … (version 2)`, `block … attempt … (version …)`, `sitting …`, ….
    pub words: String,
    /// What was verified, as values.
    pub value: Value,
}

/// The verified contents of one output (spec/formats.md §4.7, §5.B7, §4.6, §9.3, §8.6, §6.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A draw folder: its bundle, and its result when the folder holds one (the winner's and the
    /// reserves' accounts are in the result only).
    Draw {
        /// `bundle.json`.
        bundle: Box<crate::draw::files::BundleFile>,
        /// `result.json`, when present.
        result: Option<Box<crate::draw::files::ResultFile>>,
    },
    /// A lone result (§8.5: not recomputed from the leaves).
    Result(Box<crate::draw::files::ResultFile>),
    /// A block of a block folder: its commitment, and its reveal when the folder holds one.
    Block {
        /// `S.commit.json`.
        commitment: Box<crate::block::files::CommitFile>,
        /// `S.reveal.json`, when present.
        reveal: Option<Box<crate::block::files::RevealFile>>,
    },
    /// A lone block commitment (§8.5: the rules and the production file not checked).
    Commitment(Box<crate::block::files::CommitFile>),
    /// A void notice.
    VoidNotice(Box<crate::void_notice::VoidNotice>),
    /// A sitting's `sitting.json`.
    Sitting(Box<crate::sitting::SittingFile>),
    /// A key export's `keys.json`.
    KeyExport(Box<crate::events::payloads::ExportedKeys>),
    /// An exported audit trail: its events, all chained.
    AuditTrail {
        /// How many events it holds.
        events: u64,
        /// Its `software.start` events' software records, in order (spec/formats.md §8.8).
        software: Vec<crate::software::Started>,
    },
}

#[cfg(test)]
impl Verified {
    /// An output of these words that no void cancels (an audit trail of no events), for the
    /// tests of the verdict's words.
    pub(crate) fn words(words: &str) -> Verified {
        Verified {
            words: words.into(),
            value: Value::AuditTrail {
                events: 0,
                software: vec![],
            },
        }
    }
}

impl Verified {
    /// What a void notice would cancel (spec/formats.md §8.1, M-398): a draw's attempt (a draw
    /// folder, a lone result) or a block's (a block, a lone commitment); `None` for the outputs no
    /// void cancels.
    pub fn voidable(&self) -> Option<Publishes> {
        match &self.value {
            Value::Draw { bundle, .. } => Some(draw_publishes(&bundle.core)),
            Value::Result(r) => Some(draw_publishes(&r.core)),
            Value::Block { commitment: c, .. } | Value::Commitment(c) => {
                Some(Publishes::Commitment {
                    block: c.block.clone(),
                    attempt: c.attempt,
                })
            }
            _ => None,
        }
    }
}

/// What the draw `core` publishes (spec/formats.md §8.4): its operation's day and attempt.
pub fn draw_publishes(core: &crate::draw::files::DrawCore) -> Publishes {
    Publishes::Draw {
        operation: core.operation.clone(),
        day: core.day.clone(),
        attempt: core.attempt,
    }
}

/// What an output publishes (`the draw of … day … attempt …`, `the commitment of block …`,
/// `the reveal of block …`, `the void of …`) and the checkpoint it was published under: two
/// outputs publishing one thing under two checkpoints are two histories (a fork); the same
/// checkpoint is the same output (a bundle and its result, two copies).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Published {
    /// What it publishes.
    pub subject: Publishes,
    /// Its checkpoint, verified under the audit key.
    pub checkpoint: crate::audit::chain::Checkpoint,
    /// Its primary file, for messages.
    pub name: String,
}

/// The outputs a sitting lists (spec/formats.md §9.3), kept for the check that a folder of outputs
/// holds them all ([`sitting::check_listed`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    /// The sitting's `sitting.json`, for messages.
    pub name: String,
    /// Its number.
    pub number: u32,
    /// Every output published during it, as it lists them.
    pub outputs: Vec<crate::sitting::SittingOutput>,
}

/// The void notice among `published` that voids the attempt `subject` is of (a draw or a block
/// commitment): that output verifies (it is what was published then) and is not the result
/// (spec/formats.md §8.1, §8.4, M-398).
pub fn void_of<'a>(subject: &Publishes, published: &'a [Published]) -> Option<&'a Publishes> {
    published
        .iter()
        .map(|p| &p.subject)
        .find(|v| matches!(v, Publishes::Void { .. }) && subject.is_voided_by(v))
}

/// One history publishes each thing once (spec/formats.md §8.4, every version): `fork` when two of
/// `published` publish one thing under different checkpoints.
///
/// # Errors
/// The first such pair.
pub fn check_once(published: &[Published]) -> VResult<()> {
    let mut seen: std::collections::BTreeMap<&Publishes, &Published> =
        std::collections::BTreeMap::new();
    for p in published {
        if let Some(other) = seen.insert(&p.subject, p)
            && other.checkpoint != p.checkpoint
        {
            return Err(fail(
                FailureClass::Fork,
                format!(
                    "{} and {} both publish {}, under different checkpoints: what is done once was done twice (a fork)",
                    other.name, p.name, p.subject
                ),
            ));
        }
    }
    Ok(())
}

impl Report {
    /// What the verdict's first line says after `VERIFIED`: `: ` alone, or ` (règlement non
    /// officiel / unofficial rules: ID, …): ` when any output verified was made under rules that
    /// are not an official regulation (spec/formats.md §8.1 [M-296]).
    pub fn first_mark(&self) -> String {
        if self.unofficial.is_empty() {
            ": ".into()
        } else {
            format!(
                " ({}: {}): ",
                crate::rules::official::WORDS,
                self.unofficial.join(", ")
            )
        }
    }

    /// Adds `other`'s lines and outputs after this report's.
    pub fn extend(&mut self, other: Report) {
        self.checks.extend(other.checks);
        self.outputs.extend(other.outputs);
        self.subjects.extend(other.subjects);
        self.whole |= other.whole;
        self.partial.extend(other.partial);
        for id in other.unofficial {
            if !self.unofficial.contains(&id) {
                self.unofficial.push(id);
            }
        }
        self.notes.extend(other.notes);
        self.days.extend(other.days);
        self.blocks.extend(other.blocks);
        self.published.extend(other.published);
        self.sittings.extend(other.sittings);
    }
}

/// What the user expects the outputs to be (`--expect-day`, `--expect-block`): folder names are
/// not signed, so a folder renamed as another day's would otherwise still verify (spec/formats.md §8.1).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Expect {
    /// The day every draw (and day void notice) verified must be of.
    pub day: Option<crate::values::Day>,
    /// The block every block output verified must be of.
    pub block: Option<crate::values::BlockId>,
}

impl Expect {
    /// Once the outputs of `r` verified (spec/formats.md §8.1): with a day expected, every draw, lone
    /// result and void notice verified is of that day, and there is one; with a block expected,
    /// every block commitment and void notice verified is of that block, and there is one.
    /// Otherwise `inconsistent`.
    ///
    /// # Errors
    /// An output of another day or block, or of none.
    pub fn check(&self, r: &Report) -> VResult<()> {
        let bad = |what: String| Err(fail(FailureClass::Inconsistent, what));
        // A sitting is of no day and no block (spec/formats.md §9.4).
        let expected = self
            .day
            .map(|d| d.to_string())
            .or(self.block.as_ref().map(ToString::to_string));
        if let (Some(s), Some(x)) = (r.sittings.first(), expected) {
            return bad(format!(
                "{} is sitting {}, of no day or block, not an output of {x} (--expect-day, --expect-block)",
                s.name, s.number
            ));
        }
        if let Some(d) = &self.day {
            if let Some(other) = r.days.iter().find(|x| d != *x) {
                return bad(format!(
                    "these outputs are of day {other}, not of day {d} (--expect-day)"
                ));
            }
            if r.days.is_empty() || !r.blocks.is_empty() {
                return bad(format!(
                    "nothing verified here is of day {d} alone (--expect-day)"
                ));
            }
        }
        if let Some(b) = &self.block {
            if let Some(other) = r.blocks.iter().find(|x| b != *x) {
                return bad(format!(
                    "these outputs are of block {other}, not of block {b} (--expect-block)"
                ));
            }
            if r.blocks.is_empty() || !r.days.is_empty() {
                return bad(format!(
                    "nothing verified here is of block {b} alone (--expect-block)"
                ));
            }
        }
        Ok(())
    }
}

/// Parses a signature-checked JSON file (spec/formats.md §1.5); a failure is `malformed`, named `name: …`.
fn parse_named<T: serde::de::DeserializeOwned>(name: &str, bytes: &[u8]) -> VResult<T> {
    serde_json::from_slice(bytes).map_err(|e| fail(FailureClass::Malformed, format!("{name}: {e}")))
}

/// Parses a signature-checked JSON file (spec/formats.md §1.5); a failure is `malformed`, with the parser's words.
fn parse<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> VResult<T> {
    serde_json::from_slice(bytes).map_err(|e| fail(FailureClass::Malformed, format!("{e}")))
}
#[cfg(test)]
mod tests_auditor;
#[cfg(test)]
mod tests_folder;
#[cfg(test)]
mod tests_kit;
#[cfg(test)]
mod tests_lone;
#[cfg(test)]
mod tests_marked;
#[cfg(test)]
mod tests_mutants;
#[cfg(test)]
mod tests_proof;
#[cfg(test)]
mod tests_report;
#[cfg(test)]
mod tests_steps;
#[cfg(test)]
mod tests_vectors;
#[cfg(test)]
mod tests_void_notice;
