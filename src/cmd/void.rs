//! `urne void`: a witnessed annulment of the current attempt of a day (SPEC.md §4.6). The next
//! attempt needs its own seal, carries the next attempt number and names the voided one.

use super::ctx::Ctx;
use super::inputs;
use crate::error::{Error, Result};
use urne_core::draw::records::VoidRecord;

/// `urne void --day D --reason TEXT`.
pub fn run(ctx: &mut Ctx, day: &str, reason: &str) -> Result<()> {
    inputs::check_day(day)?;
    if reason.trim().len() < 5 {
        return Err(Error::bad_input(
            "a void needs a reason",
            "say why, in words the commissaire will sign: --reason \"…\"",
        ));
    }
    ctx.begin()?;
    let events = ctx.audit()?.events()?;
    let st = inputs::day_state(&events, day)?;
    if st.seal.is_none() && !st.carried {
        return Err(Error::refused(
            format!(
                "day {day} has nothing to void (attempt {} is not sealed)",
                st.attempt
            ),
            "only a sealed or drawn attempt can be voided",
        ));
    }
    let ev = ctx.record(VoidRecord {
        day: day.to_string(),
        attempt: st.attempt,
        reason: reason.to_string(),
        stage: st.stage().to_string(),
    })?;
    let note = ctx.checkpoint()?;
    println!(
        "VOIDED: day {day}, attempt {} ({}), audit event #{}",
        st.attempt,
        st.stage(),
        ev.seq
    );
    println!("reason: {reason}");
    println!(
        "the next attempt is {}; it needs its own seal",
        st.attempt + 1
    );
    println!("audit checkpoint:\n{note}");
    Ok(())
}
