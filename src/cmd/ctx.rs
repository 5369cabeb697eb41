//! The context every command runs in: the configuration, the audit trail (opened and begun
//! with `software.start` by [`Ctx::begin`]) and the HSM session (opened on first use).

use crate::cli::Global;
use crate::edge::binding::{self, TokenTrail};
use crate::edge::config::{self, Config};
use crate::edge::hsm::Hsm;
use crate::edge::identity::{self, SoftwareIdentity};
use crate::edge::store::{AuditLog, Binding, FreshMarks};
use crate::error::{Error, Exit, Result};
use urne_ceremony::token::{MarkFailure, check_against_marks};
use urne_verify::audit::Event;
use urne_verify::audit::chain::PrefixRoots;
use urne_verify::audit::history::{History, OutputPublished, history_of};
use urne_verify::crypto::Hash32;
use urne_verify::events::kinds::{self, Record};
use urne_verify::events::payloads::{ClockCorrected, CommandFailed, SoftwareStart};
use urne_verify::verify::trail::{AuditKey, verify_trail};

/// What a command may need: configuration, audit trail, HSM session. The trail is opened by
/// [`Ctx::begin`], the HSM session on first use.
pub struct Ctx {
    /// The options every command understands.
    pub global: Global,
    /// The command's name as the trail records it (e.g. `block generate`).
    pub command_name: String,
    audit: Option<AuditLog>,
    hsm: Option<Hsm>,
    /// How the trail reads the token's marks back after each mark, given to it once it is
    /// opened (SPEC.md §6.6).
    fresh: Option<Box<dyn FreshMarks>>,
    software: Option<SoftwareIdentity>,
    /// The command only reads the trail ([`Ctx::check_to_read`]): not even its failure is
    /// recorded.
    reads_only: bool,
    /// The exit of a command that did its work but whose verdict is weaker than success
    /// ([`Exit::Unanchored`]); `Success` otherwise.
    pub outcome: Exit,
}

impl Ctx {
    /// A context for the command `command_name` (as the trail records it), nothing opened yet.
    pub fn new(command_name: &str, global: Global) -> Ctx {
        Ctx {
            global,
            command_name: command_name.to_string(),
            audit: None,
            hsm: None,
            fresh: None,
            software: None,
            reads_only: false,
            outcome: Exit::Success,
        }
    }

    /// urne's configuration (the `--config` file, else the default one).
    pub fn config(&self) -> Result<Config> {
        Config::load(self.global.config.as_deref())
    }

    /// The software identity (executable hash computed once).
    pub fn software(&mut self) -> Result<SoftwareIdentity> {
        if self.software.is_none() {
            self.software = Some(identity::current()?);
        }
        Ok(self.software.clone().expect("set just above"))
    }

    /// Begins a command that changes anything (SPEC.md §6.5, §6.6): logs in to the token, reads
    /// the trail the token is bound to, opens the appliance's database (never creating one),
    /// checks that it is that trail, that its chain and every checkpoint verify under the
    /// token's audit key with one checkpoint per event, that every blob it names is there, and
    /// that it extends the token's last mark; only then records `software.start`. A failure
    /// leaves the trail exactly as it is (nothing is recorded, not even the failure). Called
    /// once, before the command's first use of the trail.
    ///
    /// A clock far ahead of the trail's last event is confirmed by a person at the terminal
    /// first (SPEC.md §6.6, `cmd::watch::check_not_far_ahead`), or nothing is recorded; the
    /// confirmation is recorded (`clock.confirmed`) right after `software.start`.
    pub fn begin(&mut self) -> Result<()> {
        self.begin_checked(|_| Ok(()))
    }

    /// [`Ctx::begin`], with `refuse` run on the checked trail before anything is recorded (before
    /// the clock's confirmation too): a refusal of the command's input that needs the trail to be
    /// decided (an output folder that is neither new nor the one a stopped run recorded, SPEC.md
    /// §6.7) records nothing, not even `software.start`.
    pub fn begin_checked(&mut self, refuse: impl FnOnce(&[Event]) -> Result<()>) -> Result<()> {
        let sw = self.software()?;
        let mut log = self.open_checked(ClockRule::NotBehind)?;
        let events = log.events()?;
        refuse(&events)?;
        let confirmed = crate::cmd::watch::check_not_far_ahead(&events, &self.command_name)?;
        drop(events);
        let hsm = self.hsm.as_ref().expect("opened by open_checked");
        self.record_start(&mut log, sw)?;
        if let Some(c) = confirmed {
            log.record(hsm, c)?;
        }
        self.audit = Some(log);
        Ok(())
    }

    /// Begins `urne clock correct` (SPEC.md §6.6): the check of [`Ctx::begin`], except that the
    /// clock MUST be earlier than the trail's last event (else there is nothing to correct, exit
    /// 4); `confirm` is given that event and returns the correction once a person has confirmed
    /// the date and time at the terminal. The correction is recorded first, dated by the clock
    /// (the one event that may be earlier than the one before it, §6.4 (5)), then
    /// `software.start`. Nothing is recorded when `confirm` fails.
    pub fn begin_correction(
        &mut self,
        confirm: impl FnOnce(&[Event], &Event) -> Result<ClockCorrected>,
    ) -> Result<Event> {
        let sw = self.software()?;
        let mut log = self.open_checked(ClockRule::Behind)?;
        let events = log.events()?;
        let last = events.last().ok_or_else(|| {
            Error::internal(
                "a checked trail holds no event",
                "this is a defect in urne; keep the audit trail and report it",
            )
        })?;
        let correction = confirm(&events, last)?;
        let hsm = self.hsm.as_ref().expect("opened by open_checked");
        let recorded = log.record(hsm, correction)?;
        self.record_start(&mut log, sw)?;
        self.audit = Some(log);
        Ok(recorded)
    }

    /// Records this process's `software.start` (SPEC.md §6.2): the command, the software and the
    /// code that answers for the HSM.
    fn record_start(&self, log: &mut AuditLog, software: SoftwareIdentity) -> Result<()> {
        let hsm = self.hsm.as_ref().expect("opened by open_checked");
        log.record(
            hsm,
            SoftwareStart {
                command: self.command_name.clone(),
                software,
                pkcs11: hsm.pkcs11_identity()?,
            },
        )?;
        Ok(())
    }

    /// For a command that appends nothing (`urne audit backup`): logs in and checks the trail
    /// against the token exactly as [`Ctx::begin`] does, without recording `software.start`.
    pub fn check_only(&mut self) -> Result<()> {
        let log = self.open_checked(ClockRule::NotBehind)?;
        self.audit = Some(log);
        Ok(())
    }

    /// For a command that only reads the trail (`urne status`, `urne show`): the check of
    /// [`Ctx::check_only`], and nothing recorded afterwards, not even the command's failure.
    pub fn check_to_read(&mut self) -> Result<()> {
        self.reads_only = true;
        self.check_only()
    }

    /// Login, the token's trail, the database opened (never created) and checked (SPEC.md
    /// §6.5, §6.6), bound, and its head marked if a crash left it past the last mark.
    fn open_checked(&mut self, clock: ClockRule) -> Result<AuditLog> {
        if self.audit.is_some() {
            return Err(Error::internal(
                format!("the command {} began twice", self.command_name),
                "this is a defect in urne; keep the audit trail and report it",
            ));
        }
        let db = self.global.db.clone();
        self.hsm()?;
        let hsm = self.hsm.as_ref().expect("opened above");
        let tt = binding::read(hsm)?.ok_or_else(|| no_trail(hsm))?;
        let mut log = AuditLog::open_for_append(&db)?.ok_or_else(|| missing_trail(&db, &tt))?;
        let checked = check_before_acting(&log, &tt, clock)?;
        log.bind(Binding {
            trail: tt.object.trail,
            audit_key: tt.audit_key,
            marking: true,
        });
        if let Some(fresh) = self.fresh.take() {
            log.read_marks_afresh(fresh);
        }
        if checked.events > checked.marked {
            // A command killed between an append and its mark: the head verified, mark it now.
            log.mark_head(hsm)?;
        }
        // Two lines, each within 80 columns short of a long path: the identity is 64 digits.
        note!("audit trail {}: {} events", db.display(), checked.events);
        note!("  trail {}", tt.object.trail);
        Ok(log)
    }

    /// Installs the trail `urne keys init` created and put in place (it is checked by
    /// construction: this process wrote every event of it).
    pub fn install(&mut self, mut log: AuditLog) {
        if let Some(fresh) = self.fresh.take() {
            log.read_marks_afresh(fresh);
        }
        self.audit = Some(log);
    }

    /// The audit trail the command began with [`Ctx::begin`] (an internal error before that).
    pub fn audit(&mut self) -> Result<&mut AuditLog> {
        let name = &self.command_name;
        self.audit.as_mut().ok_or_else(|| {
            Error::internal(
                format!("the command {name} used the audit trail before it began"),
                "this is a defect in urne; keep the audit trail and report it",
            )
        })
    }

    /// The HSM session (configuration, module, token by label, PIN, login), opened on first use.
    /// A loader told to bring in other code, a module refused or a token missing is refused
    /// before the PIN is asked for (`edge::loader`, `Hsm::open_asking`).
    pub fn hsm(&mut self) -> Result<&Hsm> {
        if self.hsm.is_none() {
            crate::edge::loader::check_environment()?;
            let cfg = self.config()?;
            // The token is found before the PIN is asked for.
            let pin_file = self.global.pin_file.clone();
            let (hsm, pin) = Hsm::open_asking(&cfg, || config::read_pin_from(pin_file.as_deref()))?;
            self.fresh = hsm.fresh_reader(pin)?;
            self.hsm = Some(hsm);
        }
        Ok(self.hsm.as_ref().expect("set just above"))
    }

    /// The code that answers for the HSM (the token opened if needed): the module's path and
    /// hash, `C_GetInfo`, the token's `C_GetTokenInfo`, and every file mapped in the process, as
    /// `software.start` records it (SPEC.md §6.2). Measured once per command: the same value
    /// every time, so an output that states it states what `software.start` recorded.
    pub fn pkcs11_identity(&mut self) -> Result<urne_verify::software::Pkcs11Identity> {
        self.hsm()?.pkcs11_identity()
    }

    /// The audit trail (begun) and the HSM (opened if needed) together.
    pub fn both(&mut self) -> Result<(&mut AuditLog, &Hsm)> {
        self.audit()?;
        self.hsm()?;
        Ok((
            self.audit.as_mut().expect("checked above"),
            self.hsm.as_ref().expect("opened above"),
        ))
    }

    /// Records a decision (SPEC.md §6.2), signed and marked as it is appended.
    pub fn record(&mut self, r: impl Into<Record>) -> Result<Event> {
        let (log, hsm) = self.both()?;
        log.record(hsm, r)
    }

    /// Records a decision with content-addressed blobs.
    pub fn record_with_blobs(&mut self, r: impl Into<Record>, blobs: &[&[u8]]) -> Result<Event> {
        let (log, hsm) = self.both()?;
        log.record_with_blobs(hsm, r, blobs)
    }

    /// Records a fact no decision rests on (a folder published, a proof issued).
    pub fn record_evidence(&mut self, r: impl Into<Record>) -> Result<Event> {
        let (log, hsm) = self.both()?;
        log.record_evidence(hsm, r)
    }

    /// The latest checkpoint (every append signs one over the whole trail).
    pub fn checkpoint(&mut self) -> Result<String> {
        self.audit()?.latest_note()
    }

    /// The history a new output states (SPEC.md §6.7), for a checkpoint over the whole trail as
    /// it stands: the trail, the last output published before it, and the consistency proof
    /// from that output's checkpoint to the trail's head.
    pub fn history(&mut self) -> Result<History> {
        let log = self.audit()?;
        let trail = log.trail().ok_or_else(|| {
            Error::internal(
                "an output was made before the trail was checked",
                "this is a defect in urne; keep the audit trail and report it",
            )
        })?;
        let events = log.events()?;
        let last = events.iter().rev().find_map(|e| match kinds::parse(e) {
            Ok(Record::OutputPublished(p)) => Some(p),
            Ok(Record::DrawPublished(p)) => p.output,
            Ok(Record::BlockPublished(p)) => p.output,
            _ => None,
        });
        history_of(trail, &events, last.as_ref()).map_err(|why| {
            Error::incident(
                format!("audit trail: {why}"),
                "the trail was altered: keep the database as evidence and run `urne audit verify`",
            )
        })
    }

    /// What the trail records of an output whose primary file is `file` (SHA-256 `sha256`),
    /// carrying the checkpoint `note`: the next output names it as its predecessor.
    pub fn output_record(
        &mut self,
        file: &str,
        sha256: Hash32,
        note: &str,
    ) -> Result<OutputPublished> {
        let audit_key = self.hsm()?.public_key(crate::edge::hsm::KeyRole::Audit)?;
        let cp = urne_verify::audit::chain::verify_note(note, &audit_key).map_err(|e| {
            Error::internal(
                format!("the checkpoint of {file} does not verify: {e}"),
                "this is a defect in urne; keep the audit trail and report it",
            )
        })?;
        Ok(OutputPublished {
            file: file.to_string(),
            sha256,
            checkpoint_size: cp.size,
            checkpoint_root: cp.root,
        })
    }

    /// Before a command reports success: its trail is still the file it opened, with the head
    /// it appended (SPEC.md §6.6). A no-op for commands that did not begin.
    pub fn finish(&mut self) -> Result<()> {
        match &self.audit {
            Some(log) => log.check_still_in_place(),
            None => Ok(()),
        }
    }

    /// Records that the command stopped on an error, if it had begun (after login and the
    /// check: refusals before that go to standard error only, SPEC.md §6.5), unless the error is
    /// about the trail itself or a refusal of input that records nothing ([`Error::unrecorded`]).
    pub(crate) fn record_failure(&mut self, e: &Error) {
        if e.untouched || e.unrecorded || self.reads_only {
            return;
        }
        if let (Some(log), Some(hsm)) = (self.audit.as_mut(), self.hsm.as_ref()) {
            let _ = log.record_evidence(
                hsm,
                CommandFailed {
                    command: self.command_name.clone(),
                    class: e.class().to_string(),
                    error: e.message.clone(),
                },
            );
        }
    }
}

/// What the check before acting requires of the appliance's clock (SPEC.md §6.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ClockRule {
    /// Not earlier than the trail's last event: every command but the correction.
    NotBehind,
    /// Earlier than the trail's last event: `urne clock correct`, which has something to
    /// correct only then.
    Behind,
}

/// What the check before acting found: the trail's size and the token's last mark (0: none).
struct Checked {
    events: u64,
    marked: u64,
}

/// The token has keys but no trail, or nothing at all.
fn no_trail(hsm: &Hsm) -> Error {
    let keys = hsm.keys_present().unwrap_or_default();
    Error::trail(
        Exit::Refused,
        if keys.is_empty() {
            "the token holds no urne trail and no keys: it was never initialised".to_string()
        } else {
            "the token holds urne's keys but no trail: it was initialised by urne version 1, or its initialisation was interrupted".to_string()
        },
        "initialise a token with `urne keys init` (docs/ceremony.md); an interrupted `urne keys init` resumes when run again",
    )
}

/// There is no database where the trail should be.
fn missing_trail(db: &std::path::Path, tt: &TokenTrail) -> Error {
    Error::incident(
        format!(
            "no audit trail at {}: this token's {}",
            db.display(),
            tt.describe()
        ),
        "urne never creates a trail except at `urne keys init`: give the appliance's database with --db or URNE_DB, or put back a backup whose head is the token's last mark (docs/ceremony.md, \"urne refuses the trail\")",
    )
}

/// Verify before acting (SPEC.md §6.5, §6.6), in this order: the database is the token's trail;
/// its chain, and one checkpoint per event under the token's audit key; every event is a
/// well-formed record and every blob it names is stored and intact; it extends the token's last
/// mark (each an incident, exit 7); then the clock against the trail's last event (exit 5 when set
/// back; exit 4 for `urne clock correct` with nothing to correct). Nothing is recorded on failure.
fn check_before_acting(log: &AuditLog, tt: &TokenTrail, clock: ClockRule) -> Result<Checked> {
    let path = log.path();
    let events = log.events()?;
    let first = first_trail(&events, path)?;
    if first != Some(tt.object.trail) {
        return Err(Error::incident(
            match first {
                Some(other) => format!(
                    "the audit trail {} is another trail ({other}), not this token's ({})",
                    path.display(),
                    tt.object.trail
                ),
                None => format!(
                    "the audit trail {} names no trail identity (a version-1 trail, or not urne's): this token's {}",
                    path.display(),
                    tt.describe()
                ),
            },
            "give the database of this token's trail with --db or URNE_DB; a token has one trail and a trail one token",
        ));
    }
    let broken = |seq: u64, reason: String| {
        Error::incident(
            format!(
                "audit trail {}: it fails at event {seq}: {reason}; nothing was done",
                path.display()
            ),
            "the trail was altered: keep the database as evidence, run `urne audit verify`, and act on no output until it is explained",
        )
    };
    let stored = log.checkpoints()?;
    verify_trail(&events, &stored, &[], AuditKey::Given(tt.audit_key))
        .map_err(|f| broken(f.seq, f.reason))?;
    let malformed = |m: kinds::MalformedRecord| {
        Error::incident(
            format!("audit trail {}: {m}; nothing was done", path.display()),
            "the trail holds what urne does not write there: keep the database as evidence, run `urne audit verify`, and act on no output until it is explained",
        )
    };
    // Every event a record of its kind, in an order urne can write (SPEC.md §6.2).
    urne_ceremony::state::Trail::from_events(&events).map_err(malformed)?;
    for e in &events {
        let r = kinds::parse(e).map_err(malformed)?;
        for b in r.blobs() {
            if !log.has_blob(&b)? {
                return Err(broken(
                    e.seq,
                    format!("the data {b} it names is missing from the database"),
                ));
            }
        }
    }
    let hashes: Vec<_> = events.iter().map(|e| e.hash).collect();
    let roots = PrefixRoots::new(&hashes);
    let last = check_against_marks(
        &tt.object.trail,
        &tt.marks,
        first,
        events.len() as u64,
        |s| roots.root_at(s).unwrap_or_default(),
    )
    .map_err(|f| mark_refusal(path, &f))?;
    // The clock last: a date planted in the trail is an altered trail (exit 7), not a clock set
    // back (exit 5); only a trail known to be the token's can date the clock.
    match clock {
        ClockRule::NotBehind => check_clock_not_behind(&events, path)?,
        ClockRule::Behind => check_clock_behind(&events, path)?,
    }
    Ok(Checked {
        events: events.len() as u64,
        marked: last.map_or(0, |m| m.size),
    })
}

/// The identity the trail's event 1 names (`trail.created` or `trail.restarted`); `None` for a
/// trail that names none (version 1, or not urne's). An event 1 of those kinds that does not
/// parse is a broken trail, not another one (exit 7).
fn first_trail(events: &[Event], path: &std::path::Path) -> Result<Option<Hash32>> {
    Ok(match events.first().map(|e| (e, kinds::parse(e))) {
        Some((e, Ok(Record::TrailCreated(t)))) if e.seq == 1 => Some(t.trail),
        Some((e, Ok(Record::TrailRestarted(t)))) if e.seq == 1 => Some(t.trail),
        // A trail's first event that does not parse as its kind is a broken trail, not another.
        Some((e, Err(m))) if e.kind == "trail.created" || e.kind == "trail.restarted" => {
            return Err(Error::incident(
                format!("audit trail {}: {m}; nothing was done", path.display()),
                "the trail holds what urne does not write there: keep the database as evidence, run `urne audit verify`, and act on no output until it is explained",
            ));
        }
        _ => None,
    })
}

/// The appliance's clock is not earlier than the trail's last event: events are dated by that
/// clock, and a clock set back would date them out of order (and let a day look unended). Its
/// environment is wrong: exit 5, recorded nowhere (the trail is left as it is, SPEC.md §6.6).
/// When the clock is right, it is the trail's last events that a clock set ahead dated: the
/// witnessed `urne clock correct` says so in the trail.
fn check_clock_not_behind(events: &[Event], path: &std::path::Path) -> Result<()> {
    let now = crate::edge::clock::now_rfc3339();
    match events.last() {
        // Both in the one fixed format urne writes (RFC 3339 UTC, microseconds): ordered as text.
        Some(last) if now < last.ts => Err(Error::trail(
            Exit::Internal,
            format!(
                "the appliance's clock ({now}) is earlier than the last event of the audit trail {} ({}): the clock was set back, or the trail's last events were dated by a clock set ahead",
                path.display(),
                last.ts
            ),
            "check the appliance's clock (UTC) against the commissaire's watch: if it is wrong, set it right; if it is right, record the correction with `urne clock correct --reason TEXT` at the console, in front of the commissaire (docs/ceremony.md); say so in the minutes; nothing was done",
        )),
        _ => Ok(()),
    }
}

/// `urne clock correct` has something to correct: the clock is earlier than the trail's last
/// event (else exit 4, recorded nowhere).
fn check_clock_behind(events: &[Event], path: &std::path::Path) -> Result<()> {
    let now = crate::edge::clock::now_rfc3339();
    match events.last() {
        Some(last) if now < last.ts => Ok(()),
        last => Err(Error::trail(
            Exit::Refused,
            format!(
                "the appliance's clock ({now}) is not earlier than the last event of the audit trail {} ({}): there is no clock to correct",
                path.display(),
                last.map_or("none", |e| e.ts.as_str())
            ),
            "`urne clock correct` records the correction of a clock that dated events ahead of the time and was then set right; nothing was done",
        )),
    }
}

/// The refusal for a database that does not extend the token's last mark.
fn mark_refusal(path: &std::path::Path, f: &MarkFailure) -> Error {
    let hint = "urne accepts only the trail the token last marked: put back the database (or a backup whose head is the last mark) and keep this file as evidence (docs/ceremony.md, \"urne refuses the trail\")";
    let msg = match f {
        MarkFailure::Older { events, marked } => format!(
            "the audit trail {} holds {events} events but the token marked {marked}: it is an older copy, or events were removed from its end",
            path.display()
        ),
        MarkFailure::Diverged { marked } => format!(
            "the first {marked} events of the audit trail {} are not the ones the token marked: another history of this trail (a fork)",
            path.display()
        ),
        MarkFailure::ConflictingMarks { size } => format!(
            "the token holds two different marks of size {size}: two histories were written under this trail (a fork)"
        ),
        MarkFailure::OtherTrail { .. } => format!(
            "the audit trail {} is not this token's trail",
            path.display()
        ),
    };
    Error::incident(msg, hint)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Exit;

    #[test]
    fn the_trail_is_used_only_after_begin_and_begin_never_creates_one() {
        let dir = tempfile::tempdir().unwrap();
        let global = Global {
            db: dir.path().join("audit.db"),
            config: Some(dir.path().join("no-such-config.json")),
            pin_file: None,
        };
        let mut ctx = Ctx::new("seal", global);
        assert_eq!(ctx.audit().err().unwrap().exit, Exit::Internal);
        // No token reachable: begin fails before the trail is opened, and creates nothing.
        assert!(ctx.begin().is_err());
        assert!(ctx.audit().is_err());
        assert!(!dir.path().join("audit.db").exists());
    }
}
