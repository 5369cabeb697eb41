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
    /// The voids of block attempts whose commitment is not among the outputs (one output folder
    /// imported: the database may hold the commitment).
    pub block_voids: Vec<(BlockId, Attempt, Void)>,
    /// The head of the outputs' linear history: its signed audit checkpoint (note text), with
    /// its size.
    pub checkpoint: Option<(u64, String)>,
}

/// Works out the state from a report of outputs verified together, checking what production
/// needs: version-2 outputs only (their history is what ties them to the chain), no lone result
/// but beside its draw's bundle, each result that counts bound to an export production sent,
/// official rules, a `result.json` with the accounts for every draw.
///
/// # Errors
/// Unofficial rules ([`Kind::NotOfficial`]), an export production did not send
/// ([`Kind::UnknownExport`]), a draw without its `result.json`, a version-1 output or a lone
/// result ([`Kind::Incomplete`]), two attempts of a day that count, or two outputs of one
/// attempt that differ ([`Kind::Fork`]).
pub fn work_out(
    report: &Report,
    exports: &Exports,
    audit_key: &[u8; 32],
) -> Result<State, ImportError> {
    official(report)?;
    let mut days: BTreeMap<(String, Day), DayState> = BTreeMap::new();
    let mut blocks: BTreeMap<(BlockId, Attempt), BlockState> = BTreeMap::new();
    let mut block_voids: Vec<(BlockId, Attempt, Void)> = vec![];
    let mut lones: Vec<&ResultFile> = vec![];
    let mut notes: Vec<&str> = vec![];
    for v in &report.subjects {
        match &v.value {
            Value::Draw { bundle, result } => {
                version_2(bundle.version, &v.words)?;
                notes.push(&bundle.audit_checkpoint);
                let result = with_accounts(result.as_deref(), &v.words)?;
                add_draw(&mut days, result)?;
            }
            Value::Result(result) => lones.push(result),
            Value::Block { commitment, reveal } => {
                version_2(commitment.version, &v.words)?;
                notes.push(&commitment.audit_checkpoint);
                if let Some(r) = reveal {
                    notes.push(&r.audit_checkpoint);
                }
                add_block(&mut blocks, commitment, reveal.as_deref())?;
            }
            Value::Commitment(commitment) => {
                version_2(commitment.version, &v.words)?;
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
    for r in lones {
        lone_beside_its_bundle(&days, r)?;
    }
    let mut out = State {
        checkpoint: head(report, &notes, audit_key),
        ..State::default()
    };
    for (block, attempt, void) in block_voids {
        match blocks.get_mut(&(block.clone(), attempt)) {
            Some(b) => {
                b.status = BlockStatus::Void;
                b.void = Some(void);
            }
            None => out.block_voids.push((block, attempt, void)),
        }
    }
    official_days(&mut days);
    for (_, mut d) in days {
        d.status = status_of(&d)?;
        if let Some(c) = d.counts() {
            bound_to_an_export_sent(c, exports)?;
        }
        out.days.push(d);
    }
    out.blocks = blocks.into_values().collect();
    Ok(out)
}

/// A draw folder's `result.json`, which names the accounts production pays.
fn with_accounts<'a>(
    result: Option<&'a ResultFile>,
    words: &str,
) -> Result<&'a ResultFile, ImportError> {
    result.ok_or_else(|| {
        ImportError::new(
            Kind::Incomplete,
            format!(
                "{words}: the folder has no result.json, which names the accounts production pays"
            ),
            "import the medium production receives, whose draw folders hold result.json",
        )
    })
}

/// Version-1 outputs carry no history: nothing ties them to the chain the import follows.
fn version_2(version: u32, words: &str) -> Result<(), ImportError> {
    if version == 2 {
        return Ok(());
    }
    Err(ImportError::new(
        Kind::Incomplete,
        format!(
            "{words}: a version-{version} output carries no history, which the import needs to place it on the appliance's one history"
        ),
        "import the outputs of an appliance that writes version 2 (every output since the trail's history, spec/formats.md §6.7)",
    ))
}

/// A lone `result.json` takes no part in the linear history (spec/formats.md §8.5): it is
/// imported only beside its draw folder's bundle, which does, and must be that draw's.
fn lone_beside_its_bundle(
    days: &BTreeMap<(String, Day), DayState>,
    r: &ResultFile,
) -> Result<(), ImportError> {
    let (day, attempt) = (checked_day(&r.core.day)?, checked_attempt(r.core.attempt)?);
    let drawn = days
        .get(&(r.core.operation.clone(), day))
        .and_then(|d| d.draws.get(&attempt));
    match drawn {
        Some(d) if *d == draw_of(r, day, attempt) => Ok(()),
        Some(_) => Err(ImportError::new(
            Kind::Fork,
            format!(
                "a lone result.json of {} day {day} attempt {attempt} is not the draw its folder publishes",
                r.core.operation
            ),
            "the outputs are of two histories: import nothing and keep the medium as evidence",
        )),
        None => Err(ImportError::new(
            Kind::Incomplete,
            format!(
                "a lone result.json of {} day {day} attempt {attempt}, without its draw folder: its history cannot be placed on the appliance's",
                r.core.operation
            ),
            "import the whole publications medium, whose draw folders hold bundle.json and result.json",
        )),
    }
}

/// The result that counts must be of an export production sent; a voided attempt's export is
/// recorded, not required (a void may be for that very reason).
fn bound_to_an_export_sent(d: &Draw, exports: &Exports) -> Result<(), ImportError> {
    if exports.contains(&d.export_sha256) {
        return Ok(());
    }
    Err(ImportError::new(
        Kind::UnknownExport,
        format!(
            "the draw of {} day {} attempt {} was made from the export of SHA-256 {}, which is not on production's list of the exports it sent",
            d.operation, d.day, d.attempt, d.export_sha256
        ),
        "the result is of another export than production's: import nothing; compare the export's SHA-256 in the minutes with production's records",
    ))
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

fn draw_of(result: &ResultFile, day: Day, attempt: Attempt) -> Draw {
    let core: &DrawCore = &result.core;
    let mut placed = vec![result.winner.clone()];
    placed.extend(result.reserves.iter().cloned());
    Draw {
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
    }
}

fn add_draw(
    days: &mut BTreeMap<(String, Day), DayState>,
    result: &ResultFile,
) -> Result<(), ImportError> {
    let core: &DrawCore = &result.core;
    let day = checked_day(&core.day)?;
    let attempt = checked_attempt(core.attempt)?;
    let draw = draw_of(result, day, attempt);
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
        if *seen != draw {
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

/// Adds every day of the official operation's periods (D-2: each period's days, first to last;
/// rules/chanceux-noel-2018.json) that no
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

/// The head of the outputs' linear history (spec/formats.md §6.7): the checkpoint of the version-2
/// output no other output names as its predecessor (after a witnessed restart, the new trail's,
/// whatever the old trail's sizes), as the note text of one of `notes` (the version-2 outputs'
/// checkpoints) verified under the audit key.
fn head(report: &Report, notes: &[&str], audit_key: &[u8; 32]) -> Option<(u64, String)> {
    let named: Vec<(u64, Hash32)> = report
        .outputs
        .iter()
        .filter_map(|o| {
            o.history
                .predecessor
                .map(|p| (p.checkpoint_size, p.checkpoint_root))
        })
        .collect();
    let head = report
        .outputs
        .iter()
        .map(|o| (o.checkpoint.size, o.checkpoint.root))
        .find(|c| !named.contains(c))?;
    notes.iter().find_map(|n| {
        let c = urne_verify::audit::chain::verify_note(n, audit_key).ok()?;
        ((c.size, c.root) == head).then(|| (c.size, (*n).to_string()))
    })
}
