//! The state machine of one day (spec/formats.md §4.6, §6.2): its attempts, each sealed once, given
//! entropy once after its seal, drawn once after its entropy, published after it was drawn, and
//! voided only once sealed; a void starts the next attempt.

use super::attempts::Attempts;
use urne_verify::draw::files::VoidedAttempt;
use urne_verify::draw::records::{
    ContributionRecord, EntropyRecord, PublishedRecord, ResultRecord, SealRecord, VoidRecord,
};
use urne_verify::values;

/// What the trail holds for one attempt of a day.
#[derive(Debug, Clone, Default)]
struct Attempt {
    seal: Option<(u64, SealRecord)>,
    entropy: Option<(u64, EntropyRecord)>,
    contribution: Option<(u64, ContributionRecord)>,
    result: Option<(u64, ResultRecord)>,
    published: Option<(u64, PublishedRecord)>,
    /// Drawn under the trail this one replaced (spec/appliance.md §6.8), of this operation: it may only
    /// be voided.
    carried: Option<String>,
}

/// Every attempt of one day, the last one current.
#[derive(Debug)]
pub struct DayHistory {
    /// Its attempts, the last one current.
    attempts: Attempts<Attempt>,
    voided: Vec<VoidedAttempt>,
}

impl Default for DayHistory {
    fn default() -> DayHistory {
        DayHistory {
            attempts: Attempts::new("day"),
            voided: vec![],
        }
    }
}

impl DayHistory {
    /// `draw.seal`: the current attempt, not sealed yet.
    pub(super) fn seal(&mut self, seq: u64, r: SealRecord) -> Result<(), String> {
        let at = self.attempts.current(r.attempt)?;
        if at.carried.is_some() {
            return Err("the attempt was drawn under the trail this one replaced".into());
        }
        if at.seal.is_some() {
            return Err("the attempt is already sealed".into());
        }
        at.seal = Some((seq, r));
        Ok(())
    }

    /// `draw.late`: the current attempt, sealed, before its entropy.
    pub(super) fn late(&mut self, attempt: values::Attempt) -> Result<(), String> {
        let at = self.attempts.current(attempt)?;
        if at.seal.is_none() {
            return Err("the attempt is not sealed".into());
        }
        if at.entropy.is_some() {
            return Err("the attempt's entropy is already recorded".into());
        }
        Ok(())
    }

    /// `draw.entropy`: the current attempt, sealed, without entropy yet.
    pub(super) fn entropy(&mut self, seq: u64, r: EntropyRecord) -> Result<(), String> {
        let at = self.attempts.current(r.attempt)?;
        if at.seal.is_none() {
            return Err("the attempt is not sealed".into());
        }
        if let Some((first, _)) = &at.entropy {
            return Err(format!(
                "the attempt's entropy is already recorded (event {first})"
            ));
        }
        at.entropy = Some((seq, r));
        Ok(())
    }

    /// `draw.contribution`: the current attempt, with its entropy (whose commitment it names),
    /// without a contribution yet.
    pub(super) fn contribution(&mut self, seq: u64, r: ContributionRecord) -> Result<(), String> {
        let at = self.attempts.current(r.attempt)?;
        let Some((_, e)) = &at.entropy else {
            return Err("no entropy is recorded for the attempt".into());
        };
        if e.entropy_commitment != r.entropy_commitment || e.operation != r.operation {
            return Err("it names another entropy commitment than the attempt's".into());
        }
        if let Some((first, _)) = &at.contribution {
            return Err(format!(
                "the attempt's contribution is already recorded (event {first})"
            ));
        }
        urne_verify::randomness::contribution::check(&r.contribution).map_err(|e| e.to_string())?;
        at.contribution = Some((seq, r));
        Ok(())
    }

    /// `draw.result`: the current attempt, with its entropy and contribution, not drawn yet.
    pub(super) fn result(&mut self, seq: u64, r: ResultRecord) -> Result<(), String> {
        let at = self.attempts.current(r.attempt)?;
        if at.entropy.is_none() {
            return Err("no entropy is recorded for the attempt".into());
        }
        if at.contribution.is_none() {
            return Err("no contribution is recorded for the attempt".into());
        }
        if let Some((first, _)) = &at.result {
            return Err(format!(
                "the attempt's result is already recorded (event {first})"
            ));
        }
        at.result = Some((seq, r));
        Ok(())
    }

    /// `draw.published`: a drawn attempt (a publication is recorded whatever happened since,
    /// so it may follow a void; the last one counts).
    pub(super) fn published(&mut self, seq: u64, r: PublishedRecord) -> Result<(), String> {
        let at = self.attempts.any(r.attempt)?;
        if at.result.is_none() {
            return Err("the attempt has no recorded result".into());
        }
        at.published = Some((seq, r));
        Ok(())
    }

    /// `draw.proof` and `draw.proofs`: a sealed attempt (recorded whatever happened since, like a
    /// publication).
    pub(super) fn proof(&mut self, attempt: values::Attempt) -> Result<(), String> {
        if self.attempts.any(attempt)?.seal.is_none() {
            return Err("the attempt is not sealed".into());
        }
        Ok(())
    }

    /// `draw.void`: the current attempt, sealed; the next attempt starts.
    pub(super) fn void(&mut self, seq: u64, r: VoidRecord) -> Result<(), String> {
        let at = self.attempts.current(r.attempt)?;
        if at.seal.is_none() && at.carried.is_none() {
            return Err("the attempt is not sealed".into());
        }
        if r.attempt.next().is_none() {
            return Err(format!("attempt {} cannot be voided", r.attempt));
        }
        self.voided.push(VoidedAttempt {
            attempt: r.attempt.get(),
            reason: r.reason,
            audit_seq: seq,
        });
        self.attempts.open_next();
        Ok(())
    }

    /// `trail.restarted` (spec/appliance.md §6.8): attempt `attempt` was drawn (`drawn`) or voided
    /// (`voided`: the next attempt is open) under the trail this one replaced.
    pub(super) fn carry(
        &mut self,
        operation: &str,
        attempt: values::Attempt,
        stage: &str,
    ) -> Result<(), String> {
        match stage {
            "drawn" => {
                self.attempts.carry_to(attempt)?.carried = Some(operation.to_string());
                Ok(())
            }
            "voided" => {
                self.attempts
                    .carry_to(attempt.next().ok_or("attempt overflow")?)?;
                Ok(())
            }
            other => Err(format!("a day cannot be carried as {other:?}")),
        }
    }

    /// The day's state: its current attempt and the voids before it.
    pub(super) fn state(&self) -> DayState {
        let at = self.attempts.last().clone();
        DayState {
            attempt: self.attempts.number(),
            voided: self.voided.clone(),
            seal: at.seal,
            entropy: at.entropy,
            contribution: at.contribution,
            result: at.result,
            published: at.published,
            carried: at.carried.is_some(),
            carried_operation: at.carried,
        }
    }
}

/// The state of one day, derived from the trail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayState {
    /// The current attempt (1 + the number of voids).
    pub attempt: values::Attempt,
    /// The voided attempts, in order.
    pub voided: Vec<VoidedAttempt>,
    /// The current attempt's seal, with its event's sequence number.
    pub seal: Option<(u64, SealRecord)>,
    /// The current attempt's recorded entropy, with its event's sequence number.
    pub entropy: Option<(u64, EntropyRecord)>,
    /// The current attempt's recorded contribution, with its event's sequence number.
    pub contribution: Option<(u64, ContributionRecord)>,
    /// The current attempt's recorded outcome, with its event's sequence number.
    pub result: Option<(u64, ResultRecord)>,
    /// The current attempt's publication, with its event's sequence number.
    pub published: Option<(u64, PublishedRecord)>,
    /// The current attempt was drawn under the trail this one replaced (spec/appliance.md §6.8).
    pub carried: bool,
    /// Then, the operation its published output names.
    pub carried_operation: Option<String>,
}

impl DayState {
    /// A day the trail never names: attempt 1, nothing recorded.
    pub fn new() -> DayState {
        DayState {
            attempt: values::Attempt::FIRST,
            voided: vec![],
            seal: None,
            entropy: None,
            contribution: None,
            result: None,
            published: None,
            carried: false,
            carried_operation: None,
        }
    }

    /// The stage the current attempt has reached, in words.
    pub fn stage(&self) -> &'static str {
        if self.carried {
            "drawn under the trail this one replaced"
        } else if self.published.is_some() {
            "drawn and published"
        } else if self.result.is_some() {
            "drawn (outputs not yet written)"
        } else if self.contribution.is_some() {
            "contribution recorded (draw interrupted)"
        } else if self.entropy.is_some() {
            "entropy recorded (draw interrupted; no contribution recorded)"
        } else if self.seal.is_some() {
            "sealed"
        } else {
            "not sealed"
        }
    }
}

impl Default for DayState {
    fn default() -> DayState {
        DayState::new()
    }
}
