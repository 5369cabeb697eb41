//! `urne void`: a witnessed annulment of the current attempt of a day (SPEC.md §4.6). The next
//! attempt needs its own seal, carries the next attempt number and names the voided one. The
//! void is announced by a signed void notice, an output of its own (`void_notice`).

use super::ctx::Ctx;
use super::inputs;
use super::void_notice;
use crate::error::{Error, Result};
use std::path::Path;
use urne_core::draw::records::VoidRecord;
use urne_core::void_notice::Subject;

/// `urne void --day D --reason TEXT [--out DIR]`.
pub fn run(ctx: &mut Ctx, day: &str, reason: &str, out: Option<&Path>) -> Result<()> {
    inputs::check_day(day)?;
    inputs::check_reason(reason, "void")?;
    ctx.begin()?;
    void_begun(ctx, day, reason, out)
}

/// The void, on a trail already begun (`urne void`, or a step of `urne ceremony`).
pub fn void_begun(ctx: &mut Ctx, day: &str, reason: &str, out: Option<&Path>) -> Result<()> {
    let events = ctx.audit()?.events()?;
    // A void recorded by an interrupted run is announced before anything else is done.
    if let Some(u) = void_notice::first_unannounced(&events)? {
        if u.subject != Subject::Day(day.to_string()) {
            return Err(void_notice::unannounced_error(&u));
        }
        return void_notice::resume(ctx, &u, reason, out);
    }
    let st = inputs::day_state(&events, day)?;
    if st.seal.is_none() && !st.carried {
        return Err(Error::refused(
            format!(
                "day {day} has nothing to void (attempt {} is not sealed)",
                st.attempt
            ),
            "only a sealed or drawn attempt can be voided; an attempt is voided once, and its void notice was written when it was",
        ));
    }
    let stage = stage_of(ctx, day, &st)?;
    let ev = ctx.record(VoidRecord {
        day: day.to_string(),
        attempt: st.attempt,
        reason: reason.to_string(),
        stage: stage.to_string(),
    })?;
    let note = ctx.checkpoint()?;
    say!(
        "VOIDED: day {day}, attempt {} ({stage}), audit event #{}",
        st.attempt,
        ev.seq
    );
    say!("reason: {reason}");
    say!(
        "the next attempt is {}; it needs its own seal",
        st.attempt + 1
    );
    say!("audit checkpoint:\n{note}");
    void_notice::announce(ctx, ev.seq, out)
}

/// The stage the attempt reached, as the void states it: the trail's, except that a
/// contribution typed and kept by an interrupted draw (SPEC.md §4.4.1) counts as recorded: the
/// outcome was fixed then, and a void must not make it look as if it came before.
fn stage_of(
    ctx: &mut Ctx,
    day: &str,
    st: &urne_core::state::day::DayState,
) -> Result<&'static str> {
    if let (Some((_, e)), None) = (&st.entropy, &st.contribution) {
        let key = format!("day {day} attempt {}", st.attempt);
        if ctx
            .audit()?
            .kept_contribution(&key, &e.entropy_commitment)?
            .is_some()
        {
            return Ok("contribution recorded (draw interrupted)");
        }
    }
    Ok(st.stage())
}
