//! Command edges: one file per command (`seal`, `draw`, `void`, `proof`, `block`, `ticket`,
//! `verify`, `audit`, `keys`, `hsm`, `status`, `show`), and `inputs` for what several of them
//! read. Each turns validated arguments into calls on the pure core, the HSM and the audit trail,
//! as a short sequence of named phases, and prints what the operator must see.

pub mod audit;
mod before;
pub mod block;
pub mod ceremony;
pub mod clock;
pub mod confirm;
pub mod ctx;
pub mod draw;
mod export_refusal;
pub mod hsm;
pub mod inputs;
pub mod keys;
pub mod placing;
pub mod producer;
pub mod proof;
pub mod randomness;
pub mod seal;
pub mod show;
pub mod status;
pub mod term;
pub mod ticket;
pub mod trail;
pub mod verify;
pub mod void;
pub mod void_notice;
pub mod watch;

use crate::cli::{Cli, Command};
use crate::error::{Kind, Result};
use crate::msg::catalogue::cmd as mc;
pub use ctx::Ctx;
use urne_verify::rules::official::Admission;

fn command_name(c: &Command) -> &'static str {
    use crate::cli::{AuditCommand as A, HsmCommand as H, KeysCommand as K};
    match c {
        Command::Hsm(H::Info) => "hsm info",
        Command::Keys(K::Init { .. }) => "keys init",
        Command::Keys(K::Export { .. }) => "keys export",
        Command::Keys(K::Producer { .. }) => "keys producer",
        Command::Audit(A::Verify { .. }) => "audit verify",
        Command::Audit(A::Show { .. }) => "audit show",
        Command::Audit(A::Export { .. }) => "audit export",
        Command::Audit(A::Backup { .. }) => "audit backup",
        Command::Trail(_) => "trail restart",
        Command::Clock(_) => "clock correct",
        Command::Seal { .. } => "seal",
        Command::Draw { .. } => "draw",
        Command::Void { .. } => "void",
        Command::Proof { .. } => "proof",
        Command::Ceremony(_) => "ceremony",
        Command::Block(crate::cli::BlockCommand::Generate { .. }) => "block generate",
        Command::Block(crate::cli::BlockCommand::Reveal { .. }) => "block reveal",
        Command::Block(crate::cli::BlockCommand::Void { .. }) => "block void",
        Command::Ticket(_) => "ticket show",
        Command::Verify { .. } => "verify",
        Command::Status { .. } => "status",
        Command::Show { .. } => "show",
    }
}

/// Runs one command line; the exit of a command that did its work (0, or 8 for a trail verified
/// against itself only).
pub fn run(cli: Cli) -> Result<crate::error::Exit> {
    // One command at a time on the trail, taken before the token's module is loaded or the
    // database opened (spec/appliance.md §6.5); held until the process ends.
    let _lock = if holds_trail(&cli.command) {
        crate::edge::lock::take(&cli.global.db)?
    } else {
        None
    };
    let rehearsal = told_clock(&cli)?;
    let mut ctx = Ctx::new(command_name(&cli.command), cli.global);
    ctx.rehearsal = rehearsal;
    // A rehearsal's command opens the token first, which says whether it is a rehearsal
    // token (spec/appliance.md §6.10), even a command that would read the database alone; the
    // ceremony opens it at its own PIN prompt, before its first screen reads the clock.
    if rehearsal && !matches!(cli.command, Command::Ceremony(_)) {
        ctx.hsm()?;
    }
    let res = dispatch(&mut ctx, cli.command).and_then(|()| ctx.finish());
    if let Err(e) = &res {
        ctx.record_failure(e);
    }
    res.map(|()| ctx.outcome)
}

/// The told clock of a rehearsal (`--rehearsal-at`, spec/appliance.md §6.10), told to the
/// appliance's clock before anything reads it; whether the command was asked to be a rehearsal
/// (the told clock, or `keys init --rehearsal`). The token decides whether it may be
/// (`Ctx::hsm`): a command that never opens the token takes no told clock.
fn told_clock(cli: &Cli) -> Result<bool> {
    use crate::cli::KeysCommand as K;
    let init = matches!(cli.command, Command::Keys(K::Init { rehearsal: true }));
    let Some(text) = &cli.global.rehearsal_at else {
        return Ok(init);
    };
    let Some(at) = crate::edge::clock::parse_told(text) else {
        return Err(crate::error::Error::new(
            Kind::BadDateTime,
            crate::msg!(mc::ERR_REHEARSAL_AT, text = format!("{text:?}")),
            crate::msg!(mc::REC_REHEARSAL_AT),
        ));
    };
    if !holds_trail(&cli.command) {
        return Err(crate::error::Error::new(
            Kind::Usage,
            crate::msg!(mc::ERR_REHEARSAL_AT_FILES),
            crate::msg!(mc::REC_REHEARSAL_AT_FILES),
        ));
    }
    crate::edge::clock::tell(at);
    Ok(true)
}

/// Whether a command opens the audit trail or the token, and so takes the trail's lock: every
/// command but the verification of files (`verify`, `audit verify --file`) and `ticket show`.
fn holds_trail(c: &Command) -> bool {
    use crate::cli::AuditCommand as A;
    !matches!(
        c,
        Command::Verify { .. }
            | Command::Ticket(_)
            | Command::Audit(A::Verify { file: Some(_), .. })
    )
}

/// Calls the command's file.
fn dispatch(ctx: &mut Ctx, command: Command) -> Result<()> {
    match command {
        Command::Hsm(c) => hsm::run(ctx, &c),
        Command::Keys(c) => keys::run(ctx, c),
        Command::Audit(c) => audit::run(ctx, c),
        Command::Trail(crate::cli::TrailCommand::Restart { reason, outputs }) => {
            trail::restart(ctx, &reason, outputs.as_deref())
        }
        Command::Clock(crate::cli::ClockCommand::Correct { reason }) => {
            clock::correct(ctx, &reason)
        }
        Command::Seal {
            rules,
            unofficial_rules,
            entries,
            producer_keys,
        } => seal::run(
            ctx,
            seal::SealArgs {
                rules,
                entries,
                producer_keys,
                admission: Admission::from_option(unofficial_rules),
            },
        ),
        Command::Draw { day, out } => draw::run(
            ctx,
            &draw::DrawArgs {
                day: inputs::check_day(&day)?,
                out,
            },
        ),
        Command::Void { day, reason, out } => void::run(ctx, &day, &reason, out.as_deref()),
        Command::Proof {
            day,
            account,
            all,
            block,
            position,
            dir,
            out,
        } => proof::run(ctx, day, account, all, block, position, &dir, &out),
        Command::Ceremony(c) => ceremony::run(ctx, &ceremony_args(*c)),
        Command::Block(c) => block::run(ctx, c),
        Command::Ticket(c) => ticket::run(c),
        Command::Verify { args, pin_file: _ } => verify::run(&args),
        c @ (Command::Status { .. } | Command::Show { .. }) => reading(ctx, c),
    }
}

/// The commands that only read the trail: `urne status`, `urne show`.
fn reading(ctx: &mut Ctx, command: Command) -> Result<()> {
    use crate::text::Lang;
    match command {
        Command::Status {
            rules,
            unofficial_rules,
            lang,
        } => status::run(
            ctx,
            rules.as_deref(),
            Admission::from_option(unofficial_rules),
            Lang::resolve(lang),
        ),
        Command::Show {
            day,
            block,
            dir,
            lang,
        } => show::run(
            ctx,
            show::Subject::of(day, block)?,
            dir.as_deref(),
            Lang::resolve(lang),
        ),
        _ => Err(crate::error::Error::new(
            Kind::Defect,
            crate::msg!(mc::ERR_DISPATCH),
            crate::msg!(mc::REC_DEFECT_REPORT),
        )),
    }
}

/// The ceremony's options as the command takes them.
fn ceremony_args(c: crate::cli::CeremonyArgs) -> ceremony::CeremonyArgs {
    let blocks = match (c.game_rules, c.price, c.emission, c.secret_out) {
        (Some(rules), Some(price), Some(emission), Some(secret_out)) => {
            Some(ceremony::BlocksArgs {
                rules,
                price,
                emission,
                first: c.first,
                count: c.blocks,
                secret_out,
            })
        }
        _ => None,
    };
    ceremony::CeremonyArgs {
        out: c.out,
        lang: c.lang,
        place: c.place,
        town: c.town,
        commissaire: c.commissaire,
        office: c.office,
        present: c.present,
        rules: c.rules,
        admission: Admission::from_option(c.unofficial_rules),
        exports: c.exports,
        producer_keys: c.producer_keys,
        days: c.days,
        key_ceremony: c.key_ceremony,
        reveals: c.reveals,
        sales_closed_at: c.sales_closed_at.unwrap_or_default(),
        blocks,
    }
}
