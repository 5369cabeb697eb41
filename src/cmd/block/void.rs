//! `urne block void`: a witnessed annulment of a block's current attempt, so that its identity
//! may be generated again as the next attempt; announced by a signed void notice (spec/appliance.md §5.B9,
//! §4.6). Nothing is recorded before what is about to be voided was shown and the block id typed
//! back at the terminal.

use super::common::{block_state, parse_block_arg};
use crate::cmd::confirm::Terminal;
use crate::cmd::ctx::Ctx;
use crate::cmd::void::{VoidShown, confirm_void};
use crate::cmd::void_notice;
use crate::error::{Error, Kind, Result};
use crate::msg;
use crate::msg::catalogue::sitting as S;
use std::path::Path;
use urne_verify::block::records::VoidRecord;
use urne_verify::void_notice::Subject;

/// `urne block void --block ID --reason TEXT [--out DIR]`.
pub(super) fn void(ctx: &mut Ctx, block_arg: &str, reason: &str, out: Option<&Path>) -> Result<()> {
    let id = parse_block_arg(block_arg, &msg!(S::REC_BLOCK_ID))?;
    crate::cmd::inputs::check_reason(reason, "void")?;
    // The notice's folder is judged before anything is recorded (spec/formats.md §6.7).
    let subject = Subject::Block(id.clone());
    ctx.begin_checked(|events| void_notice::refuse_out(events, &subject, out))?;
    run_in_sitting(ctx, block_arg, reason, out, &mut Terminal::Own)
}

/// The void of the block `block_arg` on a context that has begun (by `urne block void`, or by
/// the sitting that runs it with its own `term`): an interrupted void is announced as it is;
/// otherwise what is about to be voided is shown and the block id typed back
/// ([`confirm_void`]) before `block.void` is recorded.
pub fn run_in_sitting(
    ctx: &mut Ctx,
    block_arg: &str,
    reason: &str,
    out: Option<&Path>,
    term: &mut Terminal,
) -> Result<()> {
    let id = parse_block_arg(block_arg, &msg!(S::REC_BLOCK_ID))?;
    let canonical = id.canonical();
    let events = ctx.audit()?.events()?;
    // A void recorded by an interrupted run is announced before anything else is done.
    if let Some(u) = void_notice::first_unannounced(&events)? {
        if u.subject != Subject::Block(id.clone()) {
            return Err(void_notice::unannounced_error(&u));
        }
        return void_notice::resume(ctx, &u, reason, out);
    }
    // A sitting closed but not published holds a void back too (spec/formats.md §9.3): it would fall
    // in no sitting's minutes.
    void_notice::refuse_if_unpublished(&events)?;
    let st = block_state(&events, &id)?;
    if st.entropy.is_none() && !st.carried {
        return Err(Error::new(
            Kind::NothingToVoid,
            msg!(S::ERR_BLOCK_NOTHING_TO_VOID, block = canonical),
            msg!(S::REC_BLOCK_NOTHING_TO_VOID),
        ));
    }
    term.check("void")?;
    confirm_void(
        term,
        &VoidShown {
            kind: "block",
            subject: canonical.clone(),
            attempt: st.attempt,
            stage: st.stage().to_string(),
            published: st.published.as_ref().map(|p| p.out.clone()),
            winner: None,
            reason: reason.to_string(),
        },
    )?;
    let ev = ctx.record(VoidRecord {
        block: id.clone(),
        attempt: st.attempt,
        reason: reason.to_string(),
    })?;
    let lang = crate::text::lang();
    say!(
        "{} {canonical}, {} {} ({}, {} #{}) ; {} {}",
        lang.t("ANNULÉ : bloc", "VOIDED: block"),
        lang.t("tentative", "attempt"),
        st.attempt,
        urne_ceremony::minutes::words::stage(st.stage(), lang.core()),
        lang.t("événement du journal", "audit event"),
        ev.seq,
        lang.t(
            "il peut être généré à nouveau, tentative",
            "it may be generated again as attempt"
        ),
        st.attempt.get().saturating_add(1)
    );
    void_notice::announce(ctx, ev.seq, out)
}
