//! The context every command runs in: the configuration, the audit trail (opened and begun
//! with `software.start` by [`Ctx::begin`]) and the HSM session (opened on first use).

use super::before::{ClockRule, check_before_acting, missing_trail, no_trail};
use crate::cli::Global;
use crate::edge::binding;
use crate::edge::config::{self, Config};
use crate::edge::hsm::Hsm;
use crate::edge::identity::{self, SoftwareIdentity};
use crate::edge::store::{AuditLog, Binding, FreshMarks, Vouch};
use crate::error::{Error, Exit, Kind, Result};
use crate::msg::catalogue::cmd as mc;
use urne_verify::audit::Event;
use urne_verify::audit::history::{History, OutputPublished, history_of};
use urne_verify::crypto::Hash32;
use urne_verify::events::kinds::{self, Record};
use urne_verify::events::payloads::{ClockCorrected, CommandFailed, SoftwareStart};

/// What a command may need: configuration, audit trail, HSM session. The trail is opened by
/// A refusal of the command's input that needs the trail's events ([`Ctx::begin_checked`]).
type Refusal<'a> = Box<dyn FnOnce(&[Event]) -> Result<()> + 'a>;

/// [`Ctx::begin`], the HSM session on first use.
pub struct Ctx {
    /// The options every command understands.
    pub global: Global,
    /// The command's name as the trail records it (e.g. `block generate`).
    pub command_name: String,
    audit: Option<AuditLog>,
    hsm: Option<Hsm>,
    /// How the trail reads the token's marks back after each mark, given to it once it is
    /// opened (spec/appliance.md §6.6).
    fresh: Option<Box<dyn FreshMarks>>,
    software: Option<SoftwareIdentity>,
    /// The command only reads the trail ([`Ctx::check_to_read`]): not even its failure is
    /// recorded.
    reads_only: bool,
    /// The exit of a command that did its work but whose verdict is weaker than success
    /// ([`Exit::Unanchored`]); `Success` otherwise.
    pub outcome: Exit,
    /// Whether the command was asked to be a rehearsal (a told clock, `keys init --rehearsal`,
    /// spec/appliance.md §6.10): refused by an official token when it is opened.
    pub rehearsal: bool,
    /// How the command begins its trail ([`Opening`]).
    pub opening: Opening,
}

/// How a command begins its trail (spec/appliance.md §6.6).
#[derive(Debug, Clone, Copy, Default)]
pub struct Opening {
    /// Whether the command's start may wait for its next record to be marked and read back
    /// ([`Vouch::Later`]): only for a command whose first act follows a read of the marks
    /// (`urne draw`), else its start is read back before it does anything.
    pub defer_start: bool,
    /// Whether the check before acting verifies every checkpoint's signature, not only those
    /// after the token's last mark (a sitting's opening).
    pub whole_check: bool,
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
            rehearsal: false,
            opening: Opening::default(),
        }
    }

    /// urne's configuration (the `--config` file, else the default one).
    pub fn config(&self) -> Result<Config> {
        Config::load(self.global.config.as_deref())
    }

    /// The software identity (executable hash computed once).
    #[expect(
        clippy::missing_panics_doc,
        reason = "its `expect` names what this function or `open_checked` set just before"
    )]
    pub fn software(&mut self) -> Result<SoftwareIdentity> {
        if self.software.is_none() {
            self.software = Some(identity::current()?);
        }
        Ok(self.software.clone().expect("set just above"))
    }

    /// Begins a command that changes anything (spec/appliance.md §6.5, §6.6): logs in to the token, reads
    /// the trail the token is bound to, opens the appliance's database (never creating one),
    /// checks that it is that trail, that its chain and every checkpoint verify under the
    /// token's audit key with one checkpoint per event, that every blob it names is there, and
    /// that it extends the token's last mark; only then records `software.start`. A failure
    /// leaves the trail exactly as it is (nothing is recorded, not even the failure). Called
    /// once, before the command's first use of the trail.
    ///
    /// A clock far ahead of the trail's last event is confirmed by a person at the terminal
    /// first (spec/appliance.md §6.6, `cmd::watch::check_not_far_ahead`), or nothing is recorded; the
    /// confirmation is recorded (`clock.confirmed`) right after `software.start`.
    pub fn begin(&mut self) -> Result<()> {
        self.begin_refusing(None)
    }

    /// [`Ctx::begin`], with `refuse` run on the checked trail before anything is recorded (before
    /// the clock's confirmation too): a refusal of the command's input that needs the trail to be
    /// decided (an output folder that is neither new nor the one a stopped run recorded, spec/formats.md
    /// §6.7) records nothing, not even `software.start`.
    pub fn begin_checked(&mut self, refuse: impl FnOnce(&[Event]) -> Result<()>) -> Result<()> {
        self.begin_refusing(Some(Box::new(refuse)))
    }

    /// [`Ctx::begin`], with [`Ctx::begin_checked`]'s refusal if any: the trail's events are read
    /// only for one (the far-ahead clock needs the last event only).
    fn begin_refusing(&mut self, refuse: Option<Refusal<'_>>) -> Result<()> {
        let sw = self.software()?;
        let mut log = self.open_checked(ClockRule::NotBehind)?;
        if let Some(refuse) = refuse {
            refuse(&log.events()?)?;
        }
        let confirmed =
            crate::cmd::watch::check_not_far_ahead(log.head_event()?.as_ref(), &self.command_name)?;
        let hsm = self.hsm.as_ref().expect("opened by open_checked");
        self.record_start(&mut log, sw)?;
        if let Some(c) = confirmed {
            // A person's confirmation, marked at once (with a start left to the next mark).
            log.record_as(hsm, c, &[], Vouch::Mark)?;
        }
        self.audit = Some(log);
        Ok(())
    }

    /// Begins `urne clock correct` (spec/appliance.md §6.6): the check of [`Ctx::begin`], except that the
    /// clock MUST be earlier than the trail's last event (else there is nothing to correct, exit
    /// 4); `confirm` is given that event and returns the correction once a person has confirmed
    /// the date and time at the terminal. The correction is recorded first, dated by the clock
    /// (the one event that may be earlier than the one before it, spec/formats.md §6.4 (5)), then
    /// `software.start`. Nothing is recorded when `confirm` fails.
    #[expect(
        clippy::missing_panics_doc,
        reason = "its `expect` names what this function or `open_checked` set just before"
    )]
    pub fn begin_correction(
        &mut self,
        confirm: impl FnOnce(&[Event], &Event) -> Result<ClockCorrected>,
    ) -> Result<Event> {
        let sw = self.software()?;
        let mut log = self.open_checked(ClockRule::Behind)?;
        let events = log.events()?;
        let last = events.last().ok_or_else(|| {
            Error::new(
                Kind::Defect,
                crate::msg!(mc::ERR_CTX_NO_EVENT),
                crate::msg!(crate::msg::catalogue::edge::REC_DEFECT_REPORT),
            )
        })?;
        let correction = confirm(&events, last)?;
        let hsm = self.hsm.as_ref().expect("opened by open_checked");
        let recorded = log.record(hsm, correction)?;
        self.record_start(&mut log, sw)?;
        self.audit = Some(log);
        Ok(recorded)
    }

    /// Records this process's `software.start` (spec/formats.md §6.2): the command, the software and the
    /// code that answers for the HSM.
    fn record_start(&self, log: &mut AuditLog, software: SoftwareIdentity) -> Result<()> {
        let hsm = self.hsm.as_ref().expect("opened by open_checked");
        // The command acts only once its trail is known to be the token's current one and no
        // other copy of it marked: the start is marked and the marks read back, unless the
        // command reads them back before its first act anyway (`defer_start`).
        log.record_as(
            hsm,
            SoftwareStart {
                command: self.command_name.clone(),
                software,
                pkcs11: hsm.pkcs11_identity()?,
            },
            &[],
            if self.opening.defer_start {
                Vouch::Later
            } else {
                Vouch::ReadBack
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

    /// Login, the token's trail, the database opened (never created) and checked (spec/appliance.md
    /// §6.5, §6.6), bound, and its head marked if a crash left it past the last mark.
    fn open_checked(&mut self, clock: ClockRule) -> Result<AuditLog> {
        if self.audit.is_some() {
            return Err(Error::new(
                Kind::Defect,
                crate::msg!(mc::ERR_CTX_BEGAN_TWICE, command = self.command_name),
                crate::msg!(crate::msg::catalogue::edge::REC_DEFECT_REPORT),
            ));
        }
        let db = self.global.db.clone();
        self.hsm()?;
        let hsm = self.hsm.as_ref().expect("opened above");
        let tt = binding::read(hsm)?.ok_or_else(|| no_trail(hsm))?;
        let mut log =
            AuditLog::open_for_append_checking(&db)?.ok_or_else(|| missing_trail(&db, &tt))?;
        let checked = check_before_acting(&log, &tt, clock, self.opening.whole_check);
        // The database's integrity check, run meanwhile: its refusal comes first.
        log.structure_checked()?;
        let checked = checked?;
        log.bind(Binding {
            trail: tt.object.trail,
            audit_key: tt.audit_key,
            marking: true,
            origin: hsm.origin(),
        })?;
        if let Some(fresh) = self.fresh.take() {
            log.read_marks_afresh(fresh);
        }
        // The check found every mark of the trail on its history.
        log.set_marked(
            checked.marked,
            tt.marks
                .iter()
                .filter(|m| m.trail == tt.object.trail)
                .copied(),
        );
        // The check found every anchor of the trail on its history too.
        log.set_anchored(checked.anchored, checked.closes);
        if checked.events > checked.marked {
            // A command killed between an append and its mark: the head verified, mark it now.
            log.mark_head(hsm)?;
        }
        // The path and the size, then the identity in groups of four digits, as every screen
        // prints a hash, under its label (each line within 80 columns short of a long path).
        note!(
            "{}",
            crate::msg!(
                crate::msg::catalogue::sitting::SCR_TRAIL_CHECKED,
                path = db.display(),
                events = checked.events
            )
        );
        note!(
            "  {}",
            crate::msg::catalogue::SCR_TRAIL_ID.words(crate::text::lang())
        );
        for l in crate::text::hash_lines(&tt.object.trail.to_string()) {
            note!("      {l}");
        }
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
            Error::new(
                Kind::Defect,
                crate::msg!(mc::ERR_CTX_NOT_BEGUN, command = name),
                crate::msg!(crate::msg::catalogue::edge::REC_DEFECT_REPORT),
            )
        })
    }

    /// The HSM session (configuration, module, token by label, PIN, login), opened on first use.
    /// A loader told to bring in other code, a module refused or a token missing is refused
    /// before the PIN is asked for (`edge::loader`, `Hsm::open_asking`).
    #[expect(
        clippy::missing_panics_doc,
        reason = "its `expect` names what this function or `open_checked` set just before"
    )]
    pub fn hsm(&mut self) -> Result<&Hsm> {
        if self.hsm.is_none() {
            crate::edge::loader::check_environment()?;
            let cfg = self.config()?;
            // The token is found before the PIN is asked for.
            let pin_file = self.global.pin_file.clone();
            let (hsm, pin) = Hsm::open_asking(&cfg, || config::read_pin_from(pin_file.as_deref()))?;
            self.fresh = hsm.fresh_reader(pin)?;
            // A rehearsal is held on a rehearsal token only (spec/appliance.md §6.10): the token
            // says what it is; a token without keys becomes one when its keys are generated.
            if self.rehearsal {
                hsm.make_rehearsal()?;
            }
            if hsm.is_rehearsal() {
                crate::text::set_rehearsal();
                rehearsal_banner();
            }
            self.hsm = Some(hsm);
        }
        Ok(self.hsm.as_ref().expect("set just above"))
    }

    /// Whether the token was opened and is a rehearsal token (spec/appliance.md §6.10).
    pub fn on_rehearsal_token(&self) -> bool {
        self.hsm.as_ref().is_some_and(Hsm::is_rehearsal)
    }

    /// The code that answers for the HSM (the token opened if needed): the module's path and
    /// hash, `C_GetInfo`, the token's `C_GetTokenInfo`, and every file mapped in the process, as
    /// `software.start` records it (spec/formats.md §6.2). Measured once per command: the same value
    /// every time, so an output that states it states what `software.start` recorded.
    pub fn pkcs11_identity(&mut self) -> Result<urne_verify::software::Pkcs11Identity> {
        self.hsm()?.pkcs11_identity()
    }

    /// The audit trail (begun) and the HSM (opened if needed) together.
    #[expect(
        clippy::missing_panics_doc,
        reason = "its `expect` names what this function or `open_checked` set just before"
    )]
    pub fn both(&mut self) -> Result<(&mut AuditLog, &Hsm)> {
        self.audit()?;
        self.hsm()?;
        Ok((
            self.audit.as_mut().expect("checked above"),
            self.hsm.as_ref().expect("opened above"),
        ))
    }

    /// Records a decision (spec/formats.md §6.2), signed and marked as it is appended.
    pub fn record(&mut self, r: impl Into<Record>) -> Result<Event> {
        let (log, hsm) = self.both()?;
        log.record(hsm, r)
    }

    /// Records a decision vouched for by the token as `vouch` says (spec/appliance.md §6.6): the
    /// caller does nothing that rests on it before the token has marked it (and read its marks
    /// back) as `Vouch` describes.
    pub fn record_as(&mut self, r: impl Into<Record>, vouch: Vouch) -> Result<Event> {
        let (log, hsm) = self.both()?;
        log.record_as(hsm, r, &[], vouch)
    }

    /// Records a fact no decision rests on, vouched for as `vouch` says.
    pub fn record_evidence_as(&mut self, r: impl Into<Record>, vouch: Vouch) -> Result<Event> {
        let (log, hsm) = self.both()?;
        log.record_evidence_as(hsm, r, vouch)
    }

    /// Has the token vouch for everything the command appended so far, as `vouch` says
    /// ([`AuditLog::vouch`]): before the command acts on it.
    pub fn vouch(&mut self, vouch: Vouch) -> Result<()> {
        match (&self.audit, &self.hsm) {
            (Some(log), Some(hsm)) => log.vouch(hsm, vouch),
            _ => Ok(()),
        }
    }

    /// [`Ctx::record_with_blobs`], vouched for as `vouch` says ([`Ctx::record_as`]).
    pub fn record_with_blobs_as(
        &mut self,
        r: impl Into<Record>,
        blobs: &[&[u8]],
        vouch: Vouch,
    ) -> Result<Event> {
        let (log, hsm) = self.both()?;
        log.record_as(hsm, r, blobs, vouch)
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

    /// The history a new output states (spec/formats.md §6.7), for a checkpoint over the whole trail as
    /// it stands: the trail, the last output published before it, and the consistency proof
    /// from that output's checkpoint to the trail's head.
    pub fn history(&mut self) -> Result<History> {
        let log = self.audit()?;
        let trail = log.trail().ok_or_else(|| {
            Error::new(
                Kind::Defect,
                crate::msg!(mc::ERR_CTX_OUTPUT_UNCHECKED),
                crate::msg!(crate::msg::catalogue::edge::REC_DEFECT_REPORT),
            )
        })?;
        // The last output the trail records as published: only the events after it are read.
        let last = log.find_back(|e| match kinds::parse(e) {
            Ok(Record::OutputPublished(p)) => Some(p),
            Ok(Record::DrawPublished(p)) => p.output,
            Ok(Record::BlockPublished(p)) => p.output,
            _ => None,
        })?;
        let first = log.event_at(1)?;
        history_of(trail, first.as_ref(), &log.hashes()?, last.as_ref()).map_err(|why| {
            Error::new(
                Kind::TrailBroken,
                crate::msg!(mc::ERR_INPUT_ALTERED, what = why),
                crate::msg!(mc::REC_CTX_HISTORY),
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
        let hsm = self.hsm()?;
        let audit_key = hsm.public_key(crate::edge::hsm::KeyRole::Audit)?;
        let cp = urne_verify::audit::chain::verify_note_as(note, &audit_key, hsm.origin())
            .map_err(|e| {
                Error::new(
                    Kind::SelfCheckFailed,
                    crate::msg!(mc::ERR_CTX_CHECKPOINT, file = file, e = e),
                    crate::msg!(crate::msg::catalogue::edge::REC_DEFECT_REPORT),
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
    /// it appended (spec/appliance.md §6.6). A no-op for commands that did not begin.
    pub fn finish(&mut self) -> Result<()> {
        // What the command appended since its last mark (its end's records) is marked, and the
        // marks read back, before it reports success: a copy used at once, or a restart made
        // meanwhile, stops it here (exit 7) rather than let it report success.
        self.vouch(Vouch::ReadBack)?;
        match &self.audit {
            Some(log) => log.check_still_in_place(),
            None => Ok(()),
        }
    }

    /// Records that the command stopped on an error, if it had begun (after login and the
    /// check: refusals before that go to standard error only, spec/appliance.md §6.5), unless the error is
    /// about the trail itself or a refusal of input that records nothing ([`Error::unrecorded`]).
    pub(crate) fn record_failure(&mut self, e: &Error) {
        if self.reads_only {
            return;
        }
        if e.untouched || e.unrecorded {
            // Nothing recorded of this refusal (of the trail itself, or of an input); what the
            // command appended before it is marked all the same (only what this process
            // verified or appended: a trail changed under it is marked as it knew it).
            let _ = self.vouch(Vouch::Mark);
            return;
        }
        if let (Some(log), Some(hsm)) = (self.audit.as_mut(), self.hsm.as_ref()) {
            // Marked (a failure is no act: the marks need not be read back).
            let _ = log.record_evidence_as(
                hsm,
                CommandFailed {
                    command: self.command_name.clone(),
                    class: e.class().to_string(),
                    error: e.message.clone(),
                },
                Vouch::Mark,
            );
        }
    }
}

/// The first line of every screen of a rehearsal token (spec/appliance.md §6.10): its mark, and
/// the told clock's time when one was told (Paris time).
fn rehearsal_banner() {
    let lang = crate::text::lang();
    let Some(mark) = crate::text::rehearsal_mark(lang) else {
        return;
    };
    if crate::edge::clock::is_told() {
        let at = crate::edge::clock::now_utc()
            .with_timezone(&chrono_tz::Europe::Paris)
            .format("%Y-%m-%d %H:%M");
        note!(
            "{mark} ({} ; {} {at}, {})",
            lang.t("jeton de répétition", "rehearsal token"),
            lang.t("horloge annoncée", "told clock"),
            lang.t("heure de Paris", "Paris time")
        );
    } else {
        note!(
            "{mark} ({})",
            lang.t("jeton de répétition", "rehearsal token")
        );
    }
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
            rehearsal_at: None,
        };
        let mut ctx = Ctx::new("seal", global);
        assert_eq!(ctx.audit().err().unwrap().exit(), Exit::Internal);
        // No token reachable: begin fails before the trail is opened, and creates nothing.
        assert!(ctx.begin().is_err());
        assert!(ctx.audit().is_err());
        assert!(!dir.path().join("audit.db").exists());
    }
}
