//! Command edges: one file per subcommand group. Each turns validated arguments into calls on
//! the pure core, the HSM and the audit trail, and prints what the operator must see.

pub mod audit;
pub mod block;
pub mod day;
pub mod hsm;
pub mod keys;
pub mod verify;

use crate::cli::{Cli, Command, Global};
use crate::edge::config::{self, Config};
use crate::edge::hsm::Hsm;
use crate::edge::identity::{self, SoftwareIdentity};
use crate::edge::store::AuditLog;
use crate::error::Result;
use serde_json::json;

/// What a command may need, opened on demand: configuration, audit trail, HSM session.
pub struct Ctx {
    pub global: Global,
    pub command_name: String,
    audit: Option<AuditLog>,
    hsm: Option<Hsm>,
    software: Option<SoftwareIdentity>,
}

impl Ctx {
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

    /// The audit trail, opened for writing. The first call records `software.start` (version,
    /// source revision, executable hash, command): every command that changes anything calls it
    /// before doing anything else.
    pub fn audit(&mut self) -> Result<&mut AuditLog> {
        if self.audit.is_none() {
            let sw = self.software()?;
            let mut log = AuditLog::open(&self.global.db)?;
            log.append(
                "software.start",
                &json!({ "command": self.command_name, "software": sw }),
            )?;
            self.audit = Some(log);
        }
        Ok(self.audit.as_mut().expect("set just above"))
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

    /// The audit trail and the HSM together (both opened if needed).
    pub fn both(&mut self) -> Result<(&mut AuditLog, &mut Hsm)> {
        self.audit()?;
        self.hsm()?;
        Ok((
            self.audit.as_mut().expect("opened above"),
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
    fn record_failure(&mut self, e: &crate::error::Error) {
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
    let res = match cli.command {
        Command::Hsm(c) => hsm::run(&mut ctx, c),
        Command::Keys(c) => keys::run(&mut ctx, c),
        Command::Audit(c) => audit::run(&mut ctx, c),
        Command::Seal {
            rules,
            entries,
            producer_keys,
        } => day::seal(
            &mut ctx,
            day::SealArgs {
                rules,
                entries,
                producer_keys,
            },
        ),
        Command::Draw { day, witness, out } => {
            day::draw_day(&mut ctx, day::DrawArgs { day, witness, out })
        }
        Command::Void { day, reason } => day::void(&mut ctx, &day, &reason),
        Command::Proof {
            day,
            account,
            block,
            position,
            dir,
            out,
        } => match (day, account, block, position) {
            (Some(d), Some(a), None, None) => day::proof(&mut ctx, &d, &a, &out),
            (None, None, Some(b), Some(p)) => block::ticket_proof(&mut ctx, &dir, &b, p, &out),
            _ => Err(crate::error::Error::bad_input(
                "give either --day and --account, or --block and --position",
                "see urne proof --help",
            )),
        },
        Command::Block(crate::cli::BlockCommand::Generate {
            rules,
            price,
            emission,
            first,
            blocks,
            out,
        }) => block::generate(
            &mut ctx,
            block::GenerateArgs {
                rules,
                price,
                emission,
                first,
                blocks,
                out,
            },
        ),
        Command::Block(crate::cli::BlockCommand::Reveal { block: b, out }) => {
            block::reveal(&mut ctx, &b, &out)
        }
        Command::Block(crate::cli::BlockCommand::Void { block: b, reason }) => {
            block::void(&mut ctx, &b, &reason)
        }
        Command::Ticket(crate::cli::TicketCommand::Show {
            block: b,
            position,
            choice,
            dir,
            keys,
        }) => block::ticket_show(keys.as_deref(), &dir, &b, position, choice),
        Command::Verify {
            path,
            keys,
            export,
            producer_keys,
            published,
        } => verify::run(
            &mut ctx,
            verify::VerifyArgs {
                path,
                keys,
                export,
                producer_keys,
                published,
            },
        ),
    };
    if let Err(e) = &res {
        ctx.record_failure(e);
    }
    res
}
