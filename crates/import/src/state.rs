//! The state of every day and block, worked out from the outputs verified (never from folder
//! names): for a day, the attempt that counts, the attempts voided and the days of the
//! operation not drawn; for a block, each attempt committed, revealed or voided. A day's attempt
//! is void when a void notice among the outputs voids it, or a later attempt names it among its
//! `voided_attempts` (spec/formats.md §4.6); the attempt that counts is the one drawn that no void
//! cancels, and there is at most one.

use crate::error::{ImportError, Kind};
use crate::exports::Exports;
use std::collections::BTreeMap;
use urne_verify::block::files::{CommitFile, RevealFile};
use urne_verify::crypto::Hash32;
use urne_verify::draw::files::{DrawCore, Placed, ResultFile};
use urne_verify::values::{Attempt, BlockId, Day};
use urne_verify::verify::{Report, Value};

/// A day's attempt drawn, as its signed result states it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draw {
    /// The rules' operation.
    pub operation: String,
    /// The day drawn.
    pub day: Day,
    /// The attempt.
    pub attempt: Attempt,
    /// The export it was sealed from (its SHA-256, which production's list must hold).
    pub export_sha256: Hash32,
    /// The rules file's SHA-256.
    pub rules_sha256: Hash32,
    /// The seal's commitment root.
    pub commitment_root: Hash32,
    /// The draw seed.
    pub seed: Hash32,
    /// The day's prize in cents.
    pub prize_cents: u64,
    /// When it was drawn, as the result states it.
    pub drawn_at: String,
    /// The result's signed audit checkpoint (note text).
    pub audit_checkpoint: String,
    /// The winner (rank 0) and the reserves, with their accounts.
    pub placed: Vec<Placed>,
}

/// A void, as its notice or a later attempt states it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Void {
    /// The reason given, as recorded.
    pub reason: String,
}

/// What became of a day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DayStatus {
    /// Drawn: an attempt counts.
    Drawn(Attempt),
    /// Its attempts are void and none counts yet (a redraw is awaited).
    Voided,
    /// No attempt published (a day not yet drawn, or not on this medium).
    NotDrawn,
}

/// A day of the operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayState {
    /// The operation.
    pub operation: String,
    /// The day.
    pub day: Day,
    /// What became of it.
    pub status: DayStatus,
    /// Every attempt published, by number.
    pub draws: BTreeMap<Attempt, Draw>,
    /// Every attempt voided, by number (drawn or not: a void before the draw voids the seal).
    pub voids: BTreeMap<Attempt, Void>,
}

impl DayState {
    /// The attempt that counts, drawn.
    #[must_use]
    pub fn counts(&self) -> Option<&Draw> {
        match self.status {
            DayStatus::Drawn(a) => self.draws.get(&a),
            _ => None,
        }
    }
}

/// What became of a block's attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockStatus {
    /// Committed: on sale, its order secret.
    Committed,
    /// Its seed revealed, after its sales closed.
    Revealed,
    /// Voided: never to be sold.
    Void,
}

/// A block's attempt committed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockState {
    /// The block.
    pub block: BlockId,
    /// The attempt.
    pub attempt: Attempt,
    /// What became of it.
    pub status: BlockStatus,
    /// Its signed commitment.
    pub commitment: CommitFile,
    /// Its reveal, once published.
    pub reveal: Option<RevealFile>,
    /// Its void, when voided.
    pub void: Option<Void>,
}

/// The state of everything the outputs verified publish.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct State {
    /// Every day of the operations drawn, and of the official operation's periods, in order.
    pub days: Vec<DayState>,
    /// Every block attempt committed, in order.
    pub blocks: Vec<BlockState>,
    /// The latest signed audit checkpoint among the outputs (note text), with its size.
    pub checkpoint: Option<(u64, String)>,
}

/// Works out the state from a report of outputs verified together, checking what production
/// needs: each result bound to an export production sent, official rules, a `result.json` with
/// the accounts for every draw.
///
/// # Errors
/// Unofficial rules ([`Kind::NotOfficial`]), an export production did not send
/// ([`Kind::UnknownExport`]), a draw without its `result.json` ([`Kind::Incomplete`]), two
/// attempts of a day that count, or two outputs of one attempt that differ ([`Kind::Fork`]).
pub fn work_out(
    report: &Report,
    exports: &Exports,
    audit_key: &[u8; 32],
) -> Result<State, ImportError> {
    official(report)?;
    let mut days: BTreeMap<(String, Day), DayState> = BTreeMap::new();
    let mut blocks: BTreeMap<(BlockId, Attempt), BlockState> = BTreeMap::new();
    let mut block_voids: Vec<(BlockId, Attempt, Void)> = vec![];
    let mut notes: Vec<&str> = vec![];
    for v in &report.subjects {
        match &v.value {
            Value::Draw { bundle, result } => {
                notes.push(&bundle.audit_checkpoint);
                let Some(result) = result else {
                    return Err(ImportError::new(
                        Kind::Incomplete,
                        format!(
                            "{}: the folder has no result.json, which names the accounts production pays",
                            v.words
                        ),
                        "import the medium production receives, whose draw folders hold result.json",
                    ));
                };
                add_draw(&mut days, result, exports)?;
            }
            Value::Result(result) => {
                notes.push(&result.audit_checkpoint);
                add_draw(&mut days, result, exports)?;
            }
            Value::Block { commitment, reveal } => {
                notes.push(&commitment.audit_checkpoint);
                if let Some(r) = reveal {
                    notes.push(&r.audit_checkpoint);
                }
                add_block(&mut blocks, commitment, reveal.as_deref())?;
            }
            Value::Commitment(commitment) => {
                notes.push(&commitment.audit_checkpoint);
                add_block(&mut blocks, commitment, None)?;
            }
            Value::VoidNotice(n) => {
                notes.push(&n.audit_checkpoint);
                let attempt = checked_attempt(n.attempt)?;
                let void = Void {
                    reason: n.reason.clone(),
                };
                if let Some(d) = &n.day {
                    let day = checked_day(d)?;
                    day_entry(&mut days, &n.operation, day)
                        .voids
                        .insert(attempt, void);
                } else if let Some(b) = &n.block {
                    block_voids.push((checked_block(b)?, attempt, void));
                }
            }
            Value::Sitting(s) => notes.push(&s.audit_checkpoint),
            Value::KeyExport(_) | Value::AuditTrail { .. } => {}
        }
    }
    for (block, attempt, void) in block_voids {
        if let Some(b) = blocks.get_mut(&(block, attempt)) {
            b.status = BlockStatus::Void;
            b.void = Some(void);
        }
    }
    official_days(&mut days);
    let mut out = State {
        checkpoint: latest(&notes, audit_key),
        ..State::default()
    };
    for (_, mut d) in days {
        d.status = status_of(&d)?;
        out.days.push(d);
    }
    out.blocks = blocks.into_values().collect();
    Ok(out)
}

/// Outputs made under rules that are not the regulation's are never imported (spec/formats.md §7.4).
fn official(report: &Report) -> Result<(), ImportError> {
    if !report.unofficial.is_empty() {
        return Err(ImportError::new(
            Kind::NotOfficial,
            format!(
                "outputs made under rules that are not the regulation's: {}",
                report.unofficial.join(", ")
            ),
            "production imports the results of the official rules only; a test or rehearsal medium is never imported",
        ));
    }
    Ok(())
}

fn checked_attempt(n: u32) -> Result<Attempt, ImportError> {
    Attempt::new(n).ok_or_else(|| not_as_verified(&format!("attempt {n}")))
}

fn checked_day(d: &str) -> Result<Day, ImportError> {
    d.parse().map_err(|_| not_as_verified(&format!("day {d}")))
}

fn checked_block(b: &str) -> Result<BlockId, ImportError> {
    BlockId::parse(b).map_err(|_| not_as_verified(&format!("block {b}")))
}

/// A value the verification checked that does not parse: a defect, reported, never a panic.
fn not_as_verified(what: &str) -> ImportError {
    ImportError::new(
        Kind::VerificationFailed,
        format!("{what}: not as its verification checked it"),
        "report this to urne's maintainers with the medium",
    )
}

fn day_entry<'a>(
    days: &'a mut BTreeMap<(String, Day), DayState>,
    operation: &str,
    day: Day,
) -> &'a mut DayState {
    days.entry((operation.to_string(), day))
        .or_insert_with(|| DayState {
            operation: operation.to_string(),
            day,
            status: DayStatus::NotDrawn,
            draws: BTreeMap::new(),
            voids: BTreeMap::new(),
        })
}

fn add_draw(
    days: &mut BTreeMap<(String, Day), DayState>,
    result: &ResultFile,
    exports: &Exports,
) -> Result<(), ImportError> {
    let core: &DrawCore = &result.core;
    let day = checked_day(&core.day)?;
    let attempt = checked_attempt(core.attempt)?;
    if !exports.contains(&core.export.sha256) {
        return Err(ImportError::new(
            Kind::UnknownExport,
            format!(
                "the draw of {} day {day} attempt {attempt} was made from the export of SHA-256 {}, which is not on production's list of the exports it sent",
                core.operation, core.export.sha256
            ),
            "the result is of another export than production's: import nothing; compare the export's SHA-256 in the minutes with production's records",
        ));
    }
    let mut placed = vec![result.winner.clone()];
    placed.extend(result.reserves.iter().cloned());
    let draw = Draw {
        operation: core.operation.clone(),
        day,
        attempt,
        export_sha256: core.export.sha256,
        rules_sha256: core.rules_sha256,
        commitment_root: core.commitment.root,
        seed: core.seed,
        prize_cents: core.prize_cents,
        drawn_at: result.drawn_at.clone(),
        audit_checkpoint: result.audit_checkpoint.clone(),
        placed,
    };
    let d = day_entry(days, &core.operation, day);
    for v in &core.voided_attempts {
        d.voids.insert(
            checked_attempt(v.attempt)?,
            Void {
                reason: v.reason.clone(),
            },
        );
    }
    if let Some(seen) = d.draws.get(&attempt) {
        if seen.seed != draw.seed || seen.commitment_root != draw.commitment_root {
            return Err(ImportError::new(
                Kind::Fork,
                format!(
                    "two different draws of {} day {day} attempt {attempt} among the outputs",
                    core.operation
                ),
                "the outputs are of two histories: import nothing and keep the medium as evidence",
            ));
        }
        return Ok(());
    }
    d.draws.insert(attempt, draw);
    Ok(())
}

fn add_block(
    blocks: &mut BTreeMap<(BlockId, Attempt), BlockState>,
    commitment: &CommitFile,
    reveal: Option<&RevealFile>,
) -> Result<(), ImportError> {
    let block = checked_block(&commitment.block)?;
    let attempt = checked_attempt(commitment.attempt)?;
    let key = (block.clone(), attempt);
    if let Some(seen) = blocks.get_mut(&key) {
        if seen.commitment != *commitment {
            return Err(ImportError::new(
                Kind::Fork,
                format!(
                    "two different commitments of block {block} attempt {attempt} among the outputs"
                ),
                "the outputs are of two histories: import nothing and keep the medium as evidence",
            ));
        }
        if seen.reveal.is_none() && reveal.is_some() {
            seen.reveal = reveal.cloned();
            seen.status = BlockStatus::Revealed;
        }
        return Ok(());
    }
    blocks.insert(
        key,
        BlockState {
            block,
            attempt,
            status: if reveal.is_some() {
                BlockStatus::Revealed
            } else {
                BlockStatus::Committed
            },
            commitment: commitment.clone(),
            reveal: reveal.cloned(),
            void: None,
        },
    );
    Ok(())
}

/// Adds every day of the official operation's periods (rules/chanceux-noel-2018.json) that no
/// output names, as not drawn.
fn official_days(days: &mut BTreeMap<(String, Day), DayState>) {
    let rules = urne_verify::rules::draw::DrawRules::chanceux_noel_2018();
    let operation = rules.operation().to_string();
    for p in rules.periods() {
        let mut d = p.first_day;
        while d <= p.last_day {
            if let Some(day) = Day::of(d) {
                day_entry(days, &operation, day);
            }
            let Some(next) = d.succ_opt() else { break };
            d = next;
        }
    }
}

/// A day's status: the attempt drawn that no void cancels, at most one.
fn status_of(d: &DayState) -> Result<DayStatus, ImportError> {
    let standing: Vec<Attempt> = d
        .draws
        .keys()
        .filter(|a| !d.voids.contains_key(a))
        .copied()
        .collect();
    match standing[..] {
        [] if d.voids.is_empty() => Ok(DayStatus::NotDrawn),
        [] => Ok(DayStatus::Voided),
        [a] => Ok(DayStatus::Drawn(a)),
        _ => Err(ImportError::new(
            Kind::Fork,
            format!(
                "{} day {}: attempts {} are each drawn and none is voided",
                d.operation,
                d.day,
                standing
                    .iter()
                    .map(|a| a.get().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            "a day has one result: import nothing and keep the medium as evidence",
        )),
    }
}

/// The latest checkpoint (the largest size) among `notes`, each verified under the audit key.
fn latest(notes: &[&str], audit_key: &[u8; 32]) -> Option<(u64, String)> {
    notes
        .iter()
        .filter_map(|n| {
            urne_verify::audit::chain::verify_note(n, audit_key)
                .ok()
                .map(|c| (c.size, (*n).to_string()))
        })
        .max_by_key(|(s, _)| *s)
}
