//! `urne draw`: draws a sealed day's winner and reserves at the ceremony, or completes an
//! interrupted draw (design principles 1–3, rules D-1, D-7 … D-10). Phases, in this order and
//! once: load the sealed day from the trail -> checks (the day has ended, D-8 timing, the sealed
//! set against its hash) -> randomness (the HSM's entropy requested once and recorded, its
//! commitment signed and shown; only then the commissaire's contribution, typed, confirmed and
//! recorded: spec/formats.md §3, §4.4.1) -> compute (seed, winner and reserves, recorded) -> outputs
//! (result, bundle, minutes, checked by the verifier before signing) -> publish (the folder
//! whole or not at all, then its record).

mod outputs;
mod parts;

use outputs::{Placement, outputs, print_draw, publish};
use parts::{Committed, Drawn, Randomness, Sealed};

use super::ctx::Ctx;
use super::{inputs, placing, randomness};
use crate::error::{Error, Result};
use crate::msg::catalogue::cmd as mc;
use std::path::PathBuf;
use urne_ceremony::minutes::pv::{self, DrawDay};
use urne_verify::audit::Event;
use urne_verify::crypto::sha256;
use urne_verify::draw::records::{ContributionRecord, EntropyRecord, LateRecord, ResultRecord};
use urne_verify::draw::{self, Commitment, SeedInputs};
use urne_verify::events::kinds::Kind;
use urne_verify::rules::draw::DrawRules;
use urne_verify::values::Day;

/// What `urne draw` is given.
pub struct DrawArgs {
    /// The day to draw.
    pub day: Day,
    /// The folder the signed outputs are published into.
    pub out: PathBuf,
}

/// `urne draw`.
pub fn run(ctx: &mut Ctx, a: &DrawArgs) -> Result<()> {
    // The output's folder is judged on the checked trail, before anything is recorded: a
    // refusal of it records nothing (spec/appliance.md §6.7). It cannot be before the PIN: a folder that
    // is not empty is refused or adopted according to the trail.
    // Nothing is shown or placed before the draw's entropy, or its output's placing, is marked
    // and read back: its start is marked with them.
    ctx.opening.defer_start = true;
    ctx.begin_checked(|events| refuse_out(events, a))?;
    draw(ctx, a)
}

/// Refuses (exit 4, nothing recorded) an `--out` the draw of the day's current attempt could not
/// publish into: at a fresh attempt, a folder neither new nor empty; after a run stopped while
/// placing this attempt's output, another folder than the recorded one, or part of the output
/// there (spec/appliance.md §6.7, `placing::decide`). A day the draw refuses for another reason (not
/// sealed, drawn already, a void not announced) is left to that refusal, made as before.
fn refuse_out(events: &[Event], a: &DrawArgs) -> Result<()> {
    if super::void_notice::refuse_if_unannounced(events).is_err() {
        return Ok(());
    }
    let Ok(st) = inputs::day_state(events, a.day) else {
        return Ok(());
    };
    if st.carried || st.seal.is_none() || st.published.is_some() {
        return Ok(());
    }
    let subject = placing::Subject::Draw {
        day: a.day,
        attempt: st.attempt,
    };
    placing::decide(events, &subject, &a.out).map(|_| ())
}

/// The draw, on a trail already begun (`urne draw`, or a step of `urne ceremony`).
pub fn draw(ctx: &mut Ctx, a: &DrawArgs) -> Result<()> {
    let m = made(ctx, a)?;
    let written = publish(ctx, &m.s, (&a.out, m.place), &m.out)?;
    // Nothing is reported as drawn unless the trail is still the one it was recorded in.
    ctx.finish()?;
    print_draw((&m.s, &m.k, &m.entropy, &m.drawn), &m.out, &a.out, &written);
    Ok(())
}

/// What a run of `urne draw` killed after its output was placed and before `draw.published` was
/// recorded leaves (spec/appliance.md §6.7): every phase of [`draw`] on a trail already begun, the output
/// recorded as placing (`output.placing`) and placed whole in `a.out`, and not recorded as
/// published. For the tests only (the child hook of tests/it/outputs.rs, which reaches it through
/// urne's library): no command calls it, and it changes no outcome, since it draws what `urne
/// draw` draws (the trail's entropy, contribution and result, recorded once) and what it places
/// the next `urne draw` adopts whole or refuses, never replaces.
pub fn place_only(ctx: &mut Ctx, a: &DrawArgs) -> Result<()> {
    let m = made(ctx, a)?;
    match m.place {
        Placement::Adopt(_) => Ok(()),
        Placement::New(early) => outputs::place_new(ctx, &m.s, (&a.out, early), &m.out).map(|_| ()),
    }
}

/// A draw made, its output not yet placed.
struct Made {
    s: Sealed,
    k: Committed,
    entropy: Randomness,
    drawn: Drawn,
    out: parts::Outputs,
    place: Placement,
}

/// The phases of the draw up to its output made: load state, where the output goes (before any
/// entropy is asked for: a new or empty folder, or the one a stopped run of this attempt
/// recorded, spec/formats.md §6.7), checks, randomness, compute, outputs.
fn made(ctx: &mut Ctx, a: &DrawArgs) -> Result<Made> {
    let s = load_state(ctx, a.day)?;
    let place = placing::decide(&s.events, &s.subject(), &a.out)?;
    let anomalies = check_clock(ctx, &s)?;
    let (k, leaves) = load_set(ctx, &s)?;
    let place = match place {
        placing::Place::Adopt(p) => Placement::Adopt(p),
        placing::Place::Fresh | placing::Place::Again => {
            Placement::New(outputs::stage_early(ctx, &a.out, &leaves)?)
        }
    };
    let entropy = randomness(ctx, &s)?;
    let drawn = compute(ctx, &s, &k, &entropy)?;
    let out = outputs(ctx, &s, &k, &leaves, (&entropy, &drawn), &anomalies)?;
    Ok(Made {
        s,
        k,
        entropy,
        drawn,
        out,
        place,
    })
}

/// Load state: the day's seal (refused unless sealed and not yet published) and its rules,
/// read back from the trail.
fn load_state(ctx: &mut Ctx, day: Day) -> Result<Sealed> {
    let events = ctx.audit()?.events()?;
    crate::cmd::void_notice::refuse_if_unannounced(&events)?;
    let st = inputs::day_state(&events, day)?;
    if st.carried {
        return Err(Error::new(
            crate::error::Kind::DayAlreadyDrawn,
            crate::msg!(mc::ERR_DRAW_CARRIED, day = day, attempt = st.attempt),
            crate::msg!(mc::REC_DRAW_CARRIED),
        ));
    }
    let Some((_, seal)) = st.seal.clone() else {
        return Err(Error::new(
            crate::error::Kind::DayNotSealed,
            crate::msg!(mc::ERR_DRAW_NOT_SEALED, day = day, attempt = st.attempt),
            crate::msg!(mc::REC_DRAW_NOT_SEALED),
        ));
    };
    if st.published.is_some() || st.carried {
        return Err(Error::new(
            crate::error::Kind::DayAlreadyDrawn,
            crate::msg!(mc::ERR_DRAW_ALREADY, day = day, attempt = st.attempt),
            crate::msg!(mc::REC_DRAW_ALREADY),
        ));
    }
    let rules_hash = seal.rules_sha256;
    let rules_bytes = ctx.audit()?.blob(&rules_hash)?;
    let rules = DrawRules::from_json(&rules_bytes).map_err(|e| {
        Error::new(
            crate::error::Kind::RecordUnreadable,
            crate::msg!(mc::ERR_DRAW_RULES, e = e),
            crate::msg!(mc::REC_DRAW_RULES),
        )
    })?;
    let period = rules
        .period_for(day.date())
        .ok_or_else(|| {
            Error::new(
                crate::error::Kind::RecordUnreadable,
                crate::msg!(mc::ERR_DRAW_NO_PERIOD),
                crate::msg!(mc::REC_DRAW_NO_PERIOD),
            )
        })?
        .clone();
    Ok(Sealed {
        day,
        events,
        st,
        seal,
        rules_hash,
        rules_bytes,
        rules,
        period,
    })
}

/// Checks by the ceremony's clock: the day must have ended in Paris time (D-1); a draw late
/// against its draw date is recorded (D-8). Returns the minutes' anomalies.
fn check_clock(ctx: &mut Ctx, s: &Sealed) -> Result<Vec<String>> {
    let dayd = s.day.date();
    let now = crate::edge::clock::now_utc();
    let (_, day_end) = s.rules.day_bounds(dayd).ok_or_else(|| {
        Error::new(
            crate::error::Kind::RecordUnreadable,
            crate::msg!(mc::ERR_DRAW_NO_PERIOD),
            crate::msg!(mc::REC_DRAW_NO_PERIOD),
        )
    })?;
    if now.timestamp() < day_end {
        return Err(Error::new(
            crate::error::Kind::DayNotEnded,
            crate::msg!(
                mc::ERR_DRAW_DAY_NOT_ENDED,
                day = s.day,
                tz = s.rules.time_zone()
            ),
            crate::msg!(mc::REC_DRAW_DAY_NOT_ENDED),
        ));
    }
    let when = DrawDay {
        today: now.with_timezone(&s.rules.time_zone()).date_naive(),
        draw_date: s.period.draw_date,
        grace_days: s.rules.draw_grace_days(),
    };
    if when.is_late() {
        late_warning(&when);
        // Once per attempt: a run refused before the entropy (a contribution refused three
        // times, say) and run again finds it recorded already.
        let recorded = urne_ceremony::state::late_attempts(&ctx.audit()?.events()?)
            .contains(&(s.day, s.st.attempt));
        if s.st.entropy.is_none() && !recorded {
            // Marked with the entropy that follows it.
            ctx.record_as(
                LateRecord {
                    day: s.day,
                    attempt: s.st.attempt,
                    draw_date: when.draw_date.to_string(),
                    today: when.today.to_string(),
                },
                crate::edge::store::Vouch::Later,
            )?;
        }
    }
    Ok(pv::anomalies(&when, &s.st.voided))
}

/// Checks: the sealed set, against the hash the seal recorded (the commitment was computed from
/// exactly these bytes at the seal); a day without entries has nothing to draw. `leaves.bin` is
/// made from it here, before the contribution exists (it depends on the seal alone), and
/// checked against the hash the seal signed.
fn load_set(ctx: &mut Ctx, s: &Sealed) -> Result<(Committed, outputs::LeavesFile)> {
    let set = inputs::sealed_set(ctx, &s.seal)?;
    let c = Commitment {
        root: s.seal.commitment.root,
        leaves: s.seal.commitment.leaves,
        entries: s.seal.commitment.entries,
    };
    if c.entries == 0 {
        return Err(Error::new(
            crate::error::Kind::DayEmpty,
            crate::msg!(mc::ERR_DRAW_EMPTY, day = s.day),
            crate::msg!(mc::REC_DRAW_EMPTY),
        ));
    }
    let leaves = outputs::leaves_file(s, &set)?;
    let ranges = draw::Ranges::of(&set.leaves);
    Ok((Committed { set, c, ranges }, leaves))
}

/// Randomness (spec/formats.md §3, §4.4.1): the HSM's entropy requested once and recorded with its
/// commitment, then the commissaire's contribution typed and recorded; a draw interrupted after
/// either resumes with exactly what was recorded.
fn randomness(ctx: &mut Ctx, s: &Sealed) -> Result<Randomness> {
    if s.st.contribution.is_none() {
        randomness::need_terminal()?;
    }
    let purpose = format!("day {}", s.day);
    let secret = format!("day {} attempt {}", s.day, s.st.attempt);
    let (entropy_seq, record) = if let Some((seq, r)) = s.st.entropy.clone() {
        note!(
            "{}",
            crate::msg!(
                crate::msg::catalogue::SCR_RESUME_DRAW_ENTROPY,
                day = s.day,
                seq = seq
            )
        );
        (seq, r)
    } else {
        let entropy = randomness::fresh_entropy(ctx, &s.events, &purpose, s.st.attempt)?;
        let stored = randomness::stored_form(ctx, &secret, &entropy)?;
        let r = EntropyRecord {
            operation: s.seal.operation.clone(),
            day: s.day,
            attempt: s.st.attempt,
            commitment_root: s.seal.commitment.root,
            entropy_commitment: urne_verify::randomness::entropy_commitment(&entropy),
            entropy_blob: sha256(&stored),
        };
        let e = ctx.record_with_blobs(r.clone(), &[&stored])?;
        (e.seq, r)
    };
    let ec = record.entropy_commitment;
    let shown = s.st.contribution.is_none();
    let (contribution_seq, contribution) = if let Some((seq, c)) = s.st.contribution.clone() {
        note!(
            "{}",
            crate::msg!(
                crate::msg::catalogue::SCR_RESUME_CONTRIBUTION,
                seq = seq,
                contribution = c.contribution
            )
        );
        (seq, c.contribution)
    } else {
        // Nothing is shown before the token has vouched for this run's records and read its
        // marks back: done with the entropy just recorded, done here for an entropy recorded by
        // an earlier run (a draw taken up again at its contribution).
        ctx.vouch(crate::edge::store::Vouch::ReadBack)?;
        show_sealed(s);
        let shown = [(
            crate::text::attempt_label(("jour du", "day"), &s.day, s.st.attempt, entropy_seq),
            ec,
        )];
        let key = format!("{purpose} attempt {}", s.st.attempt);
        let c = randomness::take_contribution(ctx, &[(key, ec)], &shown)?;
        // Marked before anything is computed from it: no copy of the trail without it is
        // accepted again, so the contribution is never asked for twice (spec/appliance.md §6.6).
        let e = ctx.record_as(
            ContributionRecord {
                operation: s.seal.operation.clone(),
                day: s.day,
                attempt: s.st.attempt,
                entropy_commitment: ec,
                contribution: c.clone(),
            },
            crate::edge::store::Vouch::Mark,
        )?;
        (e.seq, c)
    };
    let entropy = randomness::recorded_entropy(ctx, &secret, &record.entropy_blob, &ec)?;
    Ok(Randomness {
        entropy_seq,
        record,
        entropy,
        contribution_seq,
        contribution,
        shown,
    })
}

/// The D-8 lateness, in words, when the draw is late against its draw date.
fn late_warning(when: &DrawDay) {
    let lang = crate::text::lang();
    let (today, planned) = (
        crate::text::date(when.today, lang),
        crate::text::date(when.draw_date, lang),
    );
    let g = when.grace_days;
    let text = match lang {
        crate::text::Lang::Fr => format!(
            "Attention : tirage tardif (D-8). L'article D-8 du règlement fixe le tirage de ce jour au {planned}, avec un délai de {g} jours ; ce tirage a lieu le {today}, au-delà de ce délai. Le retard est inscrit au journal d'audit et figurera aux minutes."
        ),
        crate::text::Lang::En => format!(
            "Warning: late draw (D-8). Clause D-8 of the rules sets this day's draw on {planned}, with {g} days of grace; this draw takes place on {today}, past them. The lateness is recorded in the audit trail and will be in the minutes."
        ),
    };
    for l in crate::text::wrap(&text, crate::text::WIDTH) {
        note!("{l}");
    }
}

/// Before the contribution, what the commissaire copies first: the sealed rules and the
/// commitment the draw is made on (issue 13, item 2), each once.
fn show_sealed(s: &Sealed) {
    let lang = crate::text::lang();
    let mut sc = crate::text::Screen::new(lang);
    sc.to_check(&format!(
        "{} {}, {} {} :",
        lang.t("Tirage du jour du", "Draw of the day of"),
        s.day,
        lang.t("tentative", "attempt"),
        crate::text::number(s.st.attempt, lang)
    ));
    outputs::sealed_lines(&mut sc, s);
    note!();
    sc.note();
}

/// Compute: the seed, then the winner and the reserves, recorded once (a resumed draw must
/// recompute exactly the recorded outcome).
fn compute(ctx: &mut Ctx, s: &Sealed, k: &Committed, e: &Randomness) -> Result<Drawn> {
    let export_hash = s.seal.export.sha256;
    let seed = draw::draw_seed(&SeedInputs {
        operation: &s.seal.operation,
        day: &s.day.to_string(),
        attempt: s.st.attempt.get(),
        rules_sha256: &s.rules_hash,
        export_sha256: &export_hash,
        commitment: &k.c,
        contribution: &e.contribution,
        entropy: &e.entropy,
        version: 2,
    });
    let reserves_wanted = s.rules.reserves_per_day();
    let sel = k
        .ranges
        .select(&seed, reserves_wanted as usize)
        .expect("entries > 0");
    let result = if let Some((_, r)) = s.st.result.clone() {
        if r.seed != seed || r.winner != sel.winner || r.reserves != sel.reserves {
            return Err(Error::new(
                crate::error::Kind::SelfCheckFailed,
                crate::msg!(mc::ERR_DRAW_RECOMPUTED),
                crate::msg!(mc::REC_DRAW_RECOMPUTED),
            ));
        }
        r
    } else {
        let seed_hex = seed.to_string();
        let seed_seen = s
            .events
            .iter()
            .any(|e| e.kind != Kind::DrawEntropy.name() && e.payload.contains(&seed_hex));
        if seed_seen {
            return Err(Error::new(
                crate::error::Kind::SeedReused,
                crate::msg!(mc::ERR_DRAW_SEED_REUSED),
                crate::msg!(mc::REC_DRAW_SEED_REUSED),
            ));
        }
        let r = ResultRecord {
            operation: s.seal.operation.clone(),
            day: s.day,
            attempt: s.st.attempt,
            seed,
            winner: sel.winner,
            reserves: sel.reserves.clone(),
        };
        // Nothing is shown or placed before its output's placing is recorded, marked and read
        // back (`placing::record`).
        ctx.record_as(r.clone(), crate::edge::store::Vouch::Later)?;
        r
    };
    Ok(Drawn { seed, result })
}
