//! Command edges: one file per command (`seal`, `draw`, `void`, `proof`, `block`, `ticket`,
//! `verify`, `audit`, `keys`, `hsm`), and `inputs` for what several of them read. Each turns
//! validated arguments into calls on the pure core, the HSM and the audit trail, as a short
//! sequence of named phases, and prints what the operator must see.

pub mod audit;
pub mod block;
pub mod draw;
pub mod hsm;
pub mod inputs;
pub mod keys;
pub mod proof;
pub mod seal;
pub mod ticket;
pub mod verify;
pub mod void;

use crate::cli::{Cli, Command, Global, TicketCommand};
use crate::edge::config::{self, Config};
use crate::edge::hsm::Hsm;
use crate::edge::identity::{self, SoftwareIdentity};
use crate::edge::store::AuditLog;
use crate::error::{Error, Result};
use serde_json::json;

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
        log.append(
            "software.start",
            &json!({ "command": self.command_name, "software": sw }),
        )?;
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
    fn record_failure(&mut self, e: &Error) {
        if let Some(log) = self.audit.as_mut() {
            let _ = log.append_evidence(
                "command.failed",
                &json!({ "command": self.command_name, "class": e.class(), "error": e.message }),
            );
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

fn command_name(c: &Command) -> &'static str {
    use crate::cli::{AuditCommand as A, HsmCommand as H, KeysCommand as K};
    match c {
        Command::Hsm(H::Info) => "hsm info",
        Command::Keys(K::Init) => "keys init",
        Command::Keys(K::Export { .. }) => "keys export",
        Command::Audit(A::Verify { .. }) => "audit verify",
        Command::Audit(A::Show { .. }) => "audit show",
        Command::Audit(A::Export { .. }) => "audit export",
        Command::Seal { .. } => "seal",
        Command::Draw { .. } => "draw",
        Command::Void { .. } => "void",
        Command::Proof { .. } => "proof",
        Command::Block(crate::cli::BlockCommand::Generate { .. }) => "block generate",
        Command::Block(crate::cli::BlockCommand::Reveal { .. }) => "block reveal",
        Command::Block(crate::cli::BlockCommand::Void { .. }) => "block void",
        Command::Ticket(_) => "ticket show",
        Command::Verify { .. } => "verify",
    }
}

/// Runs one command line.
pub fn run(cli: Cli) -> Result<()> {
    let mut ctx = Ctx {
        command_name: command_name(&cli.command).to_string(),
        global: cli.global,
        audit: None,
        hsm: None,
        software: None,
    };
    let res = dispatch(&mut ctx, cli.command);
    if let Err(e) = &res {
        ctx.record_failure(e);
    }
    res
}

/// Calls the command's file.
fn dispatch(ctx: &mut Ctx, command: Command) -> Result<()> {
    match command {
        Command::Hsm(c) => hsm::run(ctx, c),
        Command::Keys(c) => keys::run(ctx, c),
        Command::Audit(c) => audit::run(ctx, c),
        Command::Seal {
            rules,
            entries,
            producer_keys,
        } => seal::run(
            ctx,
            seal::SealArgs {
                rules,
                entries,
                producer_keys,
            },
        ),
        Command::Draw { day, witness, out } => draw::run(ctx, draw::DrawArgs { day, witness, out }),
        Command::Void { day, reason } => void::run(ctx, &day, &reason),
        Command::Proof {
            day,
            account,
            block,
            position,
            dir,
            out,
        } => proof::run(ctx, day, account, block, position, &dir, &out),
        Command::Block(c) => block::run(ctx, c),
        Command::Ticket(TicketCommand::Show {
            block: b,
            position,
            choice,
            dir,
            keys,
        }) => ticket::show(keys.as_deref(), &dir, &b, position, choice),
        Command::Verify {
            path,
            keys,
            export,
            producer_keys,
            published,
        } => verify::run(
            ctx,
            verify::VerifyArgs {
                path,
                keys,
                export,
                producer_keys,
                published,
            },
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Exit;

    #[test]
    fn the_trail_is_used_only_after_begin_and_begun_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut ctx = Ctx {
            global: Global {
                db: dir.path().join("audit.db"),
                config: None,
                pin_file: None,
            },
            command_name: "seal".into(),
            audit: None,
            hsm: None,
            software: None,
        };
        assert_eq!(ctx.audit().err().unwrap().exit, Exit::Internal);
        ctx.begin().unwrap();
        let events = ctx.audit().unwrap().events().unwrap();
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].kind, "software.start");
        assert_eq!(ctx.begin().unwrap_err().exit, Exit::Internal);
        assert_eq!(ctx.audit().unwrap().events().unwrap().len(), 1);
    }
}
