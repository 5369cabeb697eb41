//! `urne void`: a witnessed annulment of the current attempt of a day (spec/appliance.md §4.6). The next
//! attempt needs its own seal, carries the next attempt number and names the voided one. The
//! void is announced by a signed void notice, an output of its own (`void_notice`). Nothing is
//! recorded before what is about to be voided was shown and the day typed back at the terminal.

use super::confirm::{self, Terminal};
use super::ctx::Ctx;
use super::inputs;
use super::randomness;
use super::void_notice;
use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::cmd as mc;
use std::path::Path;
use urne_verify::draw::records::VoidRecord;
use urne_verify::values::{Attempt, Day};
use urne_verify::void_notice::Subject;

/// `urne void --day D --reason TEXT [--out DIR]`.
pub fn run(ctx: &mut Ctx, day: &str, reason: &str, out: Option<&Path>) -> Result<()> {
    let d = inputs::check_day(day)?;
    inputs::check_reason(reason, "void")?;
    // The notice's folder is judged before anything is recorded (spec/formats.md §6.7).
    let subject = Subject::Day(d);
    ctx.begin_checked(|events| void_notice::refuse_out(events, &subject, out))?;
    run_in_sitting(ctx, day, reason, out, &mut Terminal::Own)
}

/// The void of `day` on a context that has begun (by `run`, or by the sitting that runs it with
/// its own `term`): an interrupted void is announced as it is; otherwise what is about to be
/// voided is shown and the day typed back ([`confirm_void`]) before `draw.void` is recorded.
pub fn run_in_sitting(
    ctx: &mut Ctx,
    day: &str,
    reason: &str,
    out: Option<&Path>,
    term: &mut Terminal,
) -> Result<()> {
    let day = inputs::check_day(day)?;
    let events = ctx.audit()?.events()?;
    // A void recorded by an interrupted run is announced before anything else is done.
    if let Some(u) = void_notice::first_unannounced(&events)? {
        if u.subject != Subject::Day(day) {
            return Err(void_notice::unannounced_error(&u));
        }
        return void_notice::resume(ctx, &u, reason, out);
    }
    // A sitting closed but not published holds a void back too (spec/formats.md §9.3): it would fall
    // in no sitting's minutes.
    void_notice::refuse_if_unpublished(&events)?;
    let st = inputs::day_state(&events, day)?;
    if st.seal.is_none() && !st.carried {
        return Err(Error::new(
            Kind::NothingToVoid,
            crate::msg!(mc::ERR_VOID_NOTHING, day = day, attempt = st.attempt),
            crate::msg!(mc::REC_VOID_NOTHING),
        ));
    }
    term.check("void")?;
    let stage = stage_of(ctx, day, &st)?;
    let shown = day_shown(ctx, day, &st, stage, reason)?;
    confirm_void(term, &shown)?;
    let ev = ctx.record(VoidRecord {
        day,
        attempt: st.attempt,
        reason: reason.to_string(),
        stage: stage.to_string(),
    })?;
    let note = ctx.checkpoint()?;
    let lang = crate::text::lang();
    let stage_words = urne_ceremony::minutes::words::stage(stage, lang.core());
    say!(
        "{} {day}, {} {} ({stage_words}), {} #{}",
        lang.t("ANNULÉ : jour", "VOIDED: day"),
        lang.t("tentative", "attempt"),
        st.attempt,
        lang.t("événement du journal", "audit event"),
        ev.seq
    );
    say!("{} {reason}", lang.t("motif :", "reason:"));
    say!(
        "{} {} ; {}",
        lang.t("la tentative suivante est la", "the next attempt is"),
        st.attempt.get().saturating_add(1),
        lang.t("elle sera scellée à nouveau", "it needs its own seal")
    );
    say!(
        "{}\n{note}",
        lang.t("point de contrôle du journal :", "audit checkpoint:")
    );
    void_notice::announce(ctx, ev.seq, out)
}

/// What a void shows before it is confirmed.
pub struct VoidShown {
    /// `day` or `block`.
    pub kind: &'static str,
    /// The day (`YYYY-MM-DD`) or the block's canonical id: what is typed back.
    pub subject: String,
    /// The attempt voided.
    pub attempt: Attempt,
    /// The stage it reached, in the words of the void notice.
    pub stage: String,
    /// Where its outputs were published, if they were.
    pub published: Option<String>,
    /// For a drawn day, the winner's pseudonym (hex).
    pub winner: Option<String>,
    /// The reason given.
    pub reason: String,
}

/// Shows what is about to be voided and requires the day or the block id typed back at `term`
/// (three tries; otherwise exit 2, nothing recorded). A sitting calls it with its own terminal.
pub fn confirm_void(term: &mut Terminal, v: &VoidShown) -> Result<()> {
    let lang = crate::text::lang();
    let day = v.kind == "day";
    let mut lines = vec![
        (
            if day {
                lang.t("jour", "day")
            } else {
                lang.t("bloc", "block")
            },
            v.subject.clone(),
        ),
        (lang.t("tentative", "attempt"), v.attempt.to_string()),
        (
            lang.t("étape atteinte", "stage reached"),
            urne_ceremony::minutes::words::stage(&v.stage, lang.core()),
        ),
        (
            lang.t("publié", "published"),
            v.published.as_ref().map_or_else(
                || lang.t("non", "no").to_string(),
                |o| format!("{} {o}", lang.t("oui, dans", "yes, in")),
            ),
        ),
    ];
    if let Some(w) = &v.winner {
        lines.push((
            lang.t("gagnant (pseudonyme)", "winner (pseudonym)"),
            randomness::grouped(w),
        ));
    }
    lines.push((lang.t("motif", "reason"), v.reason.clone()));
    confirm::typed_back(
        term,
        &confirm::Shown {
            title: lang.t("ANNULATION :", "ABOUT TO VOID:"),
            step: "void",
            lines,
            noun: if day { "the day" } else { "the block id" },
            want: v.subject.clone(),
        },
    )
}

/// What the void of `day`'s current attempt `st` shows: its stage, where it was published and,
/// when drawn, the winner's pseudonym (read from the sealed set).
fn day_shown(
    ctx: &mut Ctx,
    day: Day,
    st: &urne_ceremony::state::day::DayState,
    stage: &str,
    reason: &str,
) -> Result<VoidShown> {
    let winner = match (&st.seal, &st.result) {
        (Some((_, seal)), Some((_, r))) => {
            let set = inputs::sealed_set(ctx, seal)?;
            usize::try_from(r.winner.leaf)
                .ok()
                .and_then(|i| set.leaves.get(i))
                .map(|l| l.pseudonym.to_string())
        }
        _ => None,
    };
    Ok(VoidShown {
        kind: "day",
        subject: day.to_string(),
        attempt: st.attempt,
        stage: stage.to_string(),
        published: st.published.as_ref().map(|(_, p)| p.out.clone()),
        winner,
        reason: reason.to_string(),
    })
}

/// The stage the attempt reached, as the void states it: the trail's, except that a
/// contribution typed and kept by an interrupted draw (spec/appliance.md §4.4.1) counts as recorded: the
/// outcome was fixed then, and a void must not make it look as if it came before.
fn stage_of(
    ctx: &mut Ctx,
    day: Day,
    st: &urne_ceremony::state::day::DayState,
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
