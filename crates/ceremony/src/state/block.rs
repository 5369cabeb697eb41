//! The state machine of one block identity (spec/formats.md §5.B3, §6.2): its attempts, each given
//! entropy once, generated once from it, published after it was generated, revealed once after
//! it was published, and voided only once it has entropy; a void starts the next attempt.

use super::attempts::Attempts;
use urne_verify::block::records::{
    ContributedBlock, EntropyRecord, GeneratedRecord, PublishedRecord, RevealedRecord, VoidRecord,
};
use urne_verify::crypto::Hash32;
use urne_verify::values;

/// What the trail holds for one attempt of a block.
#[derive(Debug, Clone, Default)]
struct Attempt {
    entropy: Option<(u64, EntropyRecord)>,
    contribution: Option<(u64, String)>,
    generated: Option<GeneratedRecord>,
    published: Option<PublishedRecord>,
    revealed: Option<RevealedRecord>,
    /// Generated (or revealed) under the trail this one replaced (spec/appliance.md §6.8).
    carried: bool,
}

/// Every attempt of one block identity, the last one current.
#[derive(Debug)]
pub struct BlockHistory {
    /// Its attempts, the last one current.
    attempts: Attempts<Attempt>,
    voided: Vec<(u64, VoidRecord)>,
}

impl Default for BlockHistory {
    fn default() -> BlockHistory {
        BlockHistory {
            attempts: Attempts::new("block"),
            voided: vec![],
        }
    }
}

impl BlockHistory {
    /// `block.entropy`: the current attempt, without entropy yet.
    pub(super) fn entropy(&mut self, seq: u64, r: EntropyRecord) -> Result<(), String> {
        let at = self.attempts.current(r.attempt)?;
        if at.carried {
            return Err("the attempt was generated under the trail this one replaced".into());
        }
        if at.entropy.is_some() {
            return Err("the attempt's entropy is already recorded".into());
        }
        at.entropy = Some((seq, r));
        Ok(())
    }

    /// `block.contribution` (for this block): the current attempt, with its entropy (whose
    /// commitment it names), without a contribution yet.
    pub(super) fn contribution(
        &mut self,
        seq: u64,
        b: &ContributedBlock,
        contribution: &str,
    ) -> Result<(), String> {
        let at = self.attempts.current(b.attempt)?;
        let Some((_, e)) = &at.entropy else {
            return Err(format!("block {} has no entropy recorded", b.block));
        };
        if e.entropy_commitment != b.entropy_commitment {
            return Err(format!(
                "it names another entropy commitment than block {}'s",
                b.block
            ));
        }
        if let Some((first, _)) = &at.contribution {
            return Err(format!(
                "block {}'s contribution is already recorded (event {first})",
                b.block
            ));
        }
        urne_verify::randomness::contribution::check(contribution).map_err(|e| e.to_string())?;
        at.contribution = Some((seq, contribution.to_string()));
        Ok(())
    }

    /// `block.generated`: the current attempt, with its entropy, not generated yet.
    pub(super) fn generated(&mut self, r: GeneratedRecord) -> Result<(), String> {
        let at = self.attempts.current(r.attempt)?;
        if at.entropy.is_none() {
            return Err("no entropy is recorded for the attempt".into());
        }
        if at.contribution.is_none() {
            return Err("no contribution is recorded for the attempt".into());
        }
        if at.generated.is_some() {
            return Err("the attempt is already generated".into());
        }
        at.generated = Some(r);
        Ok(())
    }

    /// `block.published`: a generated attempt (a publication is recorded whatever happened
    /// since, so it may follow a void; the last one counts).
    pub(super) fn published(&mut self, r: PublishedRecord) -> Result<(), String> {
        let at = self.attempts.any(r.attempt)?;
        if at.generated.is_none() {
            return Err("the attempt is not generated".into());
        }
        at.published = Some(r);
        Ok(())
    }

    /// `block.revealed`: the current attempt, generated and published, not revealed yet.
    pub(super) fn revealed(&mut self, r: RevealedRecord) -> Result<(), String> {
        let at = self.attempts.current(r.attempt)?;
        if at.generated.is_none() || at.published.is_none() {
            return Err("the attempt is not generated and published".into());
        }
        if at.revealed.is_some() {
            return Err("the attempt is already revealed".into());
        }
        at.revealed = Some(r);
        Ok(())
    }

    /// `block.void`: the current attempt, with its entropy; the next attempt starts.
    pub(super) fn void(&mut self, seq: u64, r: VoidRecord) -> Result<(), String> {
        let at = self.attempts.current(r.attempt)?;
        if at.entropy.is_none() && !at.carried {
            return Err("the attempt has no entropy".into());
        }
        if r.attempt.next().is_none() {
            return Err(format!("attempt {} cannot be voided", r.attempt));
        }
        self.voided.push((seq, r));
        self.attempts.open_next();
        Ok(())
    }

    /// `trail.restarted` (spec/appliance.md §6.8): attempt `attempt` was generated or revealed (it may
    /// only be voided: its entropy stayed in the trail replaced) or voided (the next is open).
    pub(super) fn carry(&mut self, attempt: values::Attempt, stage: &str) -> Result<(), String> {
        match stage {
            "generated" | "revealed" => {
                self.attempts.carry_to(attempt)?.carried = true;
                Ok(())
            }
            "voided" => {
                self.attempts
                    .carry_to(attempt.next().ok_or("attempt overflow")?)?;
                Ok(())
            }
            other => Err(format!("a block cannot be carried as {other:?}")),
        }
    }

    /// The block's state: its current attempt and the voids before it.
    pub(super) fn state(&self) -> BlockState {
        let at = self.attempts.last().clone();
        BlockState {
            attempt: self.attempts.number(),
            voided: self.voided.clone(),
            entropy: at.entropy,
            contribution: at.contribution,
            generated: at.generated,
            published: at.published,
            revealed: at.revealed,
            carried: at.carried,
            entropies: self
                .attempts
                .all()
                .iter()
                .filter_map(|a| a.entropy.clone().map(|(_, e)| e))
                .collect(),
        }
    }
}

/// The state of one block identity, derived from the trail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockState {
    /// The current attempt (1 + the number of voids).
    pub attempt: values::Attempt,
    /// The block's voids, in order, with their events' sequence numbers.
    pub voided: Vec<(u64, VoidRecord)>,
    /// The current attempt's recorded entropy, with its event's sequence number.
    pub entropy: Option<(u64, EntropyRecord)>,
    /// The current attempt's recorded contribution, with its event's sequence number.
    pub contribution: Option<(u64, String)>,
    /// The current attempt's `block.generated` record.
    pub generated: Option<GeneratedRecord>,
    /// The current attempt's `block.published` record.
    pub published: Option<PublishedRecord>,
    /// The current attempt's `block.revealed` record.
    pub revealed: Option<RevealedRecord>,
    /// The current attempt was generated under the trail this one replaced (spec/appliance.md §6.8).
    pub carried: bool,
    /// Every `block.entropy` record of this block, of any attempt, in trail order.
    entropies: Vec<EntropyRecord>,
}

impl BlockState {
    /// A block the trail never names: attempt 1, nothing recorded.
    pub fn new() -> BlockState {
        BlockState {
            attempt: values::Attempt::FIRST,
            voided: vec![],
            entropy: None,
            contribution: None,
            generated: None,
            published: None,
            revealed: None,
            carried: false,
            entropies: vec![],
        }
    }

    /// The stage the current attempt has reached, in words (what a void notice states of the
    /// attempt it voids, spec/appliance.md §4.6).
    pub fn stage(&self) -> &'static str {
        if self.carried {
            "generated under the trail this one replaced"
        } else if self.revealed.is_some() {
            "revealed"
        } else if self.published.is_some() {
            "generated and published"
        } else if self.generated.is_some() {
            "generated (outputs not yet written)"
        } else if self.contribution.is_some() {
            "contribution recorded (generation interrupted)"
        } else if self.entropy.is_some() {
            "entropy recorded (generation interrupted; no contribution recorded)"
        } else {
            "not generated"
        }
    }

    /// The rules hash recorded with the current attempt's entropy: that of the block's first
    /// `block.entropy` record (of any attempt) with the same entropy hash, as the reveal has
    /// always looked it up. In a trail urne wrote, it is the current attempt's own record.
    pub fn entropy_rules_sha256(&self) -> Option<Hash32> {
        let eh = self.entropy.as_ref()?.1.entropy_commitment;
        self.entropies
            .iter()
            .find(|r| r.entropy_commitment == eh)
            .map(|r| r.rules_sha256)
    }
}

impl Default for BlockState {
    fn default() -> BlockState {
        BlockState::new()
    }
}
