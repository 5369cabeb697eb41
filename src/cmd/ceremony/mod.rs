//! `urne ceremony`: one sitting in front of the commissaire de justice (D-9: every draw in the
//! presence and under the control of the bailiff; spec/appliance.md §9), in one
//! process, so one login: the PIN first (before anything is asked of the commissaire), then the
//! sitting opened (place, commissaire, those present, recorded as `sitting.opened`) or an open
//! one taken up again (`sitting.resumed`), then the planned work in order, one confirmation per
//! irreversible step (the days the rules schedule for today, or those given; an emission's
//! blocks), then voids and redraws decided at the sitting, and last the sitting closed and its
//! signed minutes published (`close`). Every step's events are the trail's, so a sitting
//! interrupted by a crash is finished by running `urne ceremony` again.

mod args;
mod close;
mod minutes;
mod open;
mod plan;
mod steps;

use super::ctx::Ctx;
use crate::cmd::term::Lang;
use crate::error::{Kind, Result};
pub use args::{BlocksArgs, CeremonyArgs};
pub use close::place_pending_only;

/// `urne ceremony`.
pub fn run(ctx: &mut Ctx, a: &CeremonyArgs) -> Result<()> {
    // Nothing typed is shown until the PIN has been asked: a PIN typed ahead is never on screen.
    crate::edge::tty::hold_echo();
    let lang = Lang::resolve(a.lang);
    // The seals, draws, blocks and confirmations the sitting runs speak its language.
    crate::text::set_lang(lang);
    // The sitting is typed at the console: refused before the PIN when it cannot be.
    super::randomness::need_terminal()?;
    refuse_pin_given(ctx)?;
    if a.key_ceremony {
        let (number, lang) = open::key_ceremony(ctx, a, lang)?;
        crate::text::set_lang(lang);
        crate::cmd::producer::at_key_ceremony(ctx, &a.producer_keys, lang)?;
        super::keys::export_begun(ctx, &a.out.join("keys"))?;
        return close::close(ctx, number, lang, &a.out);
    }
    let prepared = plan::prepare(ctx, a, lang)?;
    note!(
        "{}",
        lang.t(
            "Séance : l'opérateur saisit d'abord le code de l'HSM, à l'invite qui suit.",
            "Sitting: the operator first types the HSM's code, at the prompt that follows."
        )
    );
    // The minutes of a sitting closed but not published go under --out: a folder they cannot
    // go into is refused on the checked trail, before anything is recorded (spec/appliance.md §6.7).
    // A sitting checks the whole trail, every checkpoint's signature included (spec/appliance.md
    // §6.6), before the commissaire sees anything.
    ctx.opening.whole_check = true;
    ctx.begin_checked(|events| close::refuse_out(events, &a.out))?;
    let published = close::publish_pending(ctx, &a.out)?;
    if prepared.steps.is_empty() && !open::is_open(ctx)? {
        // Nothing planned: only a sitting closed by a killed run had to be published.
        return if published {
            Ok(())
        } else {
            Err(plan::nothing_planned(lang))
        };
    }
    let (number, lang, goes_on) = open::open_or_resume(ctx, a, lang, &prepared)?;
    // A sitting taken up again keeps the language it was opened in.
    crate::text::set_lang(lang);
    if !goes_on {
        return close::close(ctx, number, lang, &a.out);
    }
    let outcome = steps::run_all(ctx, a, lang, &prepared);
    match outcome {
        Ok(()) => close::close(ctx, number, lang, &a.out),
        Err(e) => {
            // A step's failure that ends the sitting: the sitting stays open, and the next
            // `urne ceremony` takes it up again.
            Err(e)
        }
    }
}

/// Refuses (exit 2) a PIN given ahead (`URNE_PIN`, `--pin-file`): at a sitting the operator
/// types it at urne's own prompt, in front of the commissaire, and nothing else knows it.
fn refuse_pin_given(ctx: &Ctx) -> Result<()> {
    let from = if ctx.global.pin_file.is_some() {
        "--pin-file"
    } else if std::env::var_os("URNE_PIN").is_some_and(|p| !p.is_empty()) {
        "URNE_PIN"
    } else {
        return Ok(());
    };
    Err(crate::error::Error::new(
        Kind::PinNotPrompted,
        crate::msg!(
            crate::msg::catalogue::sitting::ERR_SITTING_PIN_GIVEN,
            from = from
        ),
        crate::msg!(crate::msg::catalogue::sitting::REC_SITTING_PIN_GIVEN),
    ))
}
