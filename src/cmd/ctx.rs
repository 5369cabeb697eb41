//! The context every command runs in: the configuration, the audit trail (opened and begun
//! with `software.start` by [`Ctx::begin`]) and the HSM session (opened on first use).

use crate::cli::Global;
use crate::edge::config::{self, Config};
use crate::edge::hsm::Hsm;
use crate::edge::identity::{self, SoftwareIdentity};
use crate::edge::store::AuditLog;
use crate::error::{Error, Exit, Result};
use urne_core::audit::payloads::{CommandFailed, SoftwareStart};
use urne_core::verify::trail::{AuditKey, verify_trail};

/// What a command may need: configuration, audit trail, HSM session. The trail is opened by
/// [`Ctx::begin`], the HSM session on first use.
pub struct Ctx {
    /// The options every command understands.
    pub global: Global,
    /// The command's name as the trail records it (e.g. `block generate`).
    pub command_name: String,
    audit: Option<AuditLog>,
    hsm: Option<Hsm>,
    software: Option<SoftwareIdentity>,
}

impl Ctx {
    /// A context for the command `command_name` (as the trail records it), nothing opened yet.
    pub fn new(command_name: &str, global: Global) -> Ctx {
        Ctx {
            global,
            command_name: command_name.to_string(),
            audit: None,
            hsm: None,
            software: None,
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

    /// Begins a command that changes anything: opens the audit trail for writing and records
    /// `software.start` (version, source revision, executable hash, command) in it (SPEC.md
    /// §6.2). Called once, before the command's first use of the trail.
    pub fn begin(&mut self) -> Result<()> {
        if self.audit.is_some() {
            return Err(Error::internal(
                format!("the command {} began twice", self.command_name),
                "this is a defect in urne; keep the audit trail and report it",
            ));
        }
        let sw = self.software()?;
        let mut log = AuditLog::open(&self.global.db)?;
        check_before_acting(&log, &self.global.db)?;
        log.record(SoftwareStart {
            command: self.command_name.clone(),
            software: sw,
        })?;
        self.audit = Some(log);
        Ok(())
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

    /// The HSM session (configuration, PIN, token by label, login), opened on first use.
    pub fn hsm(&mut self) -> Result<&mut Hsm> {
        if self.hsm.is_none() {
            let cfg = self.config()?;
            let pin = config::read_pin(self.global.pin_file.as_deref())?;
            self.hsm = Some(Hsm::open(&cfg, &pin)?);
        }
        Ok(self.hsm.as_mut().expect("set just above"))
    }

    /// The audit trail (begun) and the HSM (opened if needed) together.
    pub fn both(&mut self) -> Result<(&mut AuditLog, &mut Hsm)> {
        self.audit()?;
        self.hsm()?;
        Ok((
            self.audit.as_mut().expect("checked above"),
            self.hsm.as_mut().expect("opened above"),
        ))
    }

    /// Signs a checkpoint over the whole trail with the audit key; returns the signed note.
    pub fn checkpoint(&mut self) -> Result<String> {
        let (log, hsm) = self.both()?;
        log.checkpoint(hsm)
    }

    /// Records that the command stopped on an error, if it had started changing anything, and
    /// signs a checkpoint over that record when the HSM is open.
    pub(crate) fn record_failure(&mut self, e: &Error) {
        if let Some(log) = self.audit.as_mut() {
            let _ = log.record_evidence(CommandFailed {
                command: self.command_name.clone(),
                class: e.class().to_string(),
                error: e.message.clone(),
            });
        } else {
            return;
        }
        // Sign a checkpoint over the failure record, opening the HSM if the command had not
        // (a refusal is evidence too); never retry after an HSM failure (a wrong PIN must not be
        // presented twice).
        if self.hsm.is_none() && e.exit != crate::error::Exit::Hsm {
            let _ = self.hsm();
        }
        if let (Some(log), Some(hsm)) = (self.audit.as_mut(), self.hsm.as_ref()) {
            let _ = log.checkpoint(hsm);
        }
    }
}

/// Verify before acting (issue 10 item 3, first part): the hash chain and every stored
/// checkpoint are checked before the command records or decides anything, with the audit key the
/// trail records (until the trail is bound to the token, that is the key there is). A trail that
/// fails is refused with exit 5 and left exactly as it is: no `software.start`, and, the trail
/// not being begun, no `command.failed` nor any checkpoint over events that did not verify.
fn check_before_acting(log: &AuditLog, path: &std::path::Path) -> Result<()> {
    let events = log.events()?;
    let stored = log.checkpoints()?;
    verify_trail(&events, &stored, &[], AuditKey::Recorded).map_err(|f| {
        Error::new(
            Exit::Internal,
            format!(
                "audit trail {}: it fails at event {}: {}; nothing was done",
                path.display(),
                f.seq,
                f.reason
            ),
            "the trail was altered: keep the database as evidence, run `urne audit verify`, and act on no output until it is explained",
        )
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Exit;

    #[test]
    fn the_trail_is_used_only_after_begin_and_begun_once() {
        let dir = tempfile::tempdir().unwrap();
        let global = Global {
            db: dir.path().join("audit.db"),
            config: None,
            pin_file: None,
        };
        let mut ctx = Ctx::new("seal", global);
        assert_eq!(ctx.audit().err().unwrap().exit, Exit::Internal);
        ctx.begin().unwrap();
        let events = ctx.audit().unwrap().events().unwrap();
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].kind, "software.start");
        assert_eq!(ctx.begin().unwrap_err().exit, Exit::Internal);
        assert_eq!(ctx.audit().unwrap().events().unwrap().len(), 1);
    }
}
