//! The sitting's work, step by step: each planned step announced, confirmed (`oui`) or left
//! undone (`non`), then run on the sitting's one login; a step refused is recorded, shown, and
//! the commissaire decides whether the sitting goes on. After the plan, the voids and redraws
//! decided at the sitting, until it is closed.

use super::args::CeremonyArgs;
use super::plan::{self, Prepared};
use crate::cmd::ctx::Ctx;
use crate::cmd::term::{self, Lang};
use crate::cmd::{block, draw, inputs, seal};
use crate::error::{Error, Exit, Kind, Result};
use crate::msg;
use crate::msg::catalogue::sitting as S;
use std::path::PathBuf;
use urne_verify::values::Attempt;

/// Runs the plan, then the voids and redraws asked for; `Ok` when the sitting is to be closed.
pub(super) fn run_all(ctx: &mut Ctx, a: &CeremonyArgs, lang: Lang, p: &Prepared) -> Result<()> {
    let days = days_to_draw(ctx, lang, p)?;
    let n = days.len() + usize::from(p.blocks.is_some()) + a.reveals.len();
    let mut i = 0;
    for day in days {
        i += 1;
        let title = format!(
            "{} {i}/{n} — {} {day}",
            lang.t("Étape", "Step"),
            lang.t("tirage du jour", "draw of the day")
        );
        if !attempt(ctx, lang, &title, |ctx| draw_day(ctx, a, lang, p, day))? {
            return Ok(());
        }
    }
    if let Some(g) = &p.blocks {
        i += 1;
        let title = format!(
            "{} {i}/{n} — {} {} ({} {}, {} {} à {})",
            lang.t("Étape", "Step"),
            lang.t(
                "génération des blocs de l'émission",
                "generation of the blocks of emission"
            ),
            g.emission,
            lang.t("prix", "price"),
            crate::text::eur(g.price, lang),
            lang.t("blocs", "blocks"),
            g.first,
            g.first.saturating_add(g.blocks.saturating_sub(1))
        );
        if !attempt(ctx, lang, &title, |ctx| {
            if confirm_step(lang)? {
                block::generate_begun(ctx, g)
            } else {
                Ok(())
            }
        })? {
            return Ok(());
        }
    }
    for b in &a.reveals {
        i += 1;
        let title = format!(
            "{} {i}/{n} — {} {b}",
            lang.t("Étape", "Step"),
            lang.t("révélation du bloc", "reveal of block")
        );
        // The reveal shows the block and its sales close and asks for its id typed back.
        let blocks = a.out.join("blocks");
        if !attempt(ctx, lang, &title, |ctx| {
            // The commissaire types the sales close from production's written statement: the
            // operator's --sales-closed-at alone does not reveal a block.
            confirm_sales_close(lang, b, &a.sales_closed_at)?;
            block::reveal::run_in_sitting(
                ctx,
                b,
                &a.sales_closed_at,
                &blocks,
                &mut crate::cmd::confirm::Terminal::Own,
            )
        })? {
            return Ok(());
        }
    }
    menu(ctx, a, lang, p)
}

/// The planned days still to draw, in order. A day the trail shows drawn already (by an earlier
/// run of a sitting taken up again, or carried by a restart) is no step of the sitting: it is
/// named once, as done and not done again, and the steps are numbered without it.
fn days_to_draw<'a>(ctx: &mut Ctx, lang: Lang, p: &'a Prepared) -> Result<Vec<&'a String>> {
    let events = ctx.audit()?.events()?;
    let mut todo = vec![];
    let mut done = vec![];
    for day in &p.days {
        let st = match inputs::check_day(day) {
            Ok(d) => Some(inputs::day_state_any(&events, d)?),
            Err(_) => None,
        };
        match st {
            Some(st) if st.published.is_some() || st.carried => done.push((day, st.attempt)),
            _ => todo.push(day),
        }
    }
    if !done.is_empty() {
        note!(
            "{}",
            lang.t("Déjà fait, non refait :", "Already done, not done again:")
        );
        for (day, attempt) in done {
            note!(
                "  – {} {day} ({} {attempt})",
                lang.t("tirage du jour", "draw of the day"),
                lang.t("tentative", "attempt")
            );
        }
    }
    Ok(todo)
}

/// Runs one step under `title`; a failure is recorded and shown, and the commissaire says
/// whether the sitting goes on (`Ok(false)`: close it now). A failure of the trail itself, or
/// of the terminal, ends the sitting without closing it.
fn attempt(
    ctx: &mut Ctx,
    lang: Lang,
    title: &str,
    f: impl FnOnce(&mut Ctx) -> Result<()>,
) -> Result<bool> {
    term::heading(title);
    let saved = ctx.command_name.clone();
    ctx.command_name = format!("ceremony: {title}");
    let r = f(ctx);
    let r = r.and_then(|()| ctx.finish());
    if let Err(e) = &r {
        ctx.record_failure(e);
    }
    ctx.command_name = saved;
    let Err(e) = r else {
        return Ok(true);
    };
    if e.untouched || e.exit() == Exit::Internal || e.kind.is_terminal() {
        return Err(e);
    }
    note!("error[{}]: {}", e.kind.id(), e.message);
    if !e.hint.is_empty() {
        note!("hint: {}", e.hint);
    }
    note!(
        "{}",
        lang.t(
            "Ce refus est inscrit au journal d'audit et figurera aux minutes.",
            "This refusal is recorded in the audit trail and will be in the minutes."
        )
    );
    term::confirm(
        lang,
        lang.t("La séance continue-t-elle ?", "Does the sitting go on?"),
    )
}

/// `oui` to run the step now, `non` to leave it undone.
fn confirm_step(lang: Lang) -> Result<bool> {
    let go = term::confirm(
        lang,
        lang.t(
            "Procéder à cette étape (irréversible) ?",
            "Carry out this step (irreversible)?",
        ),
    )?;
    if !go {
        note!(
            "{}",
            lang.t("Étape non effectuée.", "Step not carried out.")
        );
    }
    Ok(go)
}

/// A day: sealed first when it is not (its export from the exports folder), then drawn into
/// `draw-<day>` (`draw-<day>-attempt-<n>` from the second attempt on) under the publications
/// folder. A day already drawn is said so and left.
fn draw_day(ctx: &mut Ctx, a: &CeremonyArgs, lang: Lang, p: &Prepared, day: &str) -> Result<()> {
    let day = inputs::check_day(day)?;
    let Some((rules, rules_file)) = &p.rules else {
        return Err(Error::new(
            Kind::Usage,
            msg!(S::ERR_SITTING_DRAW_WITHOUT_RULES),
            msg!(S::REC_SITTING_DRAW_WITHOUT_RULES),
        ));
    };
    let events = ctx.audit()?.events()?;
    let st = inputs::day_state(&events, day)?;
    if st.published.is_some() || st.carried {
        note!(
            "{} {day} {} {}).",
            lang.t("Le jour", "Day"),
            lang.t("est déjà tiré (tentative", "is already drawn (attempt"),
            st.attempt
        );
        note!(
            "{}",
            lang.t(
                "Rien n'est fait pour ce jour.",
                "Nothing is done for this day."
            )
        );
        return Ok(());
    }
    let same = if st.seal.is_none() && st.attempt > Attempt::FIRST {
        same_export_as_voided(&events, a, rules.operation(), day, &st)
    } else {
        None
    };
    if let Some((seq, sha)) = same {
        if !confirm_same_export(lang, day, &st, seq, &sha)? {
            return Ok(());
        }
    } else if !confirm_step(lang)? {
        return Ok(());
    }
    if st.seal.is_none() {
        let export = plan::export_of(a.exports.as_deref(), rules.operation(), &day.to_string())?;
        seal::seal(
            ctx,
            seal::SealArgs {
                rules: rules_file.clone(),
                entries: export,
                producer_keys: a.producer_keys.clone(),
                admission: a.admission,
            },
        )?;
    }
    let folder = if st.attempt > Attempt::FIRST {
        format!("draw-{day}-attempt-{}", st.attempt)
    } else {
        format!("draw-{day}")
    };
    draw::draw(
        ctx,
        &draw::DrawArgs {
            day,
            out: a.out.join(folder),
        },
    )
}

/// A new attempt of `day` about to be sealed from the very export its voided attempt sealed:
/// that seal's event and the export's SHA-256 (the file in the exports folder, whose bytes are
/// the same). `None` when the export differs or cannot be read (the seal says why).
fn same_export_as_voided(
    events: &[urne_verify::audit::Event],
    a: &CeremonyArgs,
    operation: &str,
    day: urne_verify::values::Day,
    st: &urne_ceremony::state::day::DayState,
) -> Option<(u64, String)> {
    use urne_verify::events::kinds::{self, Record};
    let path = plan::export_of(a.exports.as_deref(), operation, &day.to_string()).ok()?;
    let sha = urne_verify::crypto::sha256(&std::fs::read(path).ok()?);
    let voided = events.iter().rev().find_map(|e| match kinds::parse(e) {
        Ok(Record::DrawSeal(r)) if r.day == day && r.attempt != st.attempt => Some((e.seq, r)),
        _ => None,
    })?;
    (voided.1.export.sha256 == sha).then(|| (voided.0, sha.to_string()))
}

/// Says that a redraw re-seals the export its voided attempt sealed (same SHA-256: production
/// sent no new file) and asks whether to go on; `non` leaves the step undone, nothing recorded.
fn confirm_same_export(
    lang: Lang,
    day: urne_verify::values::Day,
    st: &urne_ceremony::state::day::DayState,
    seq: u64,
    sha: &str,
) -> Result<bool> {
    let mut s = crate::text::Screen::new(lang);
    s.line(&format!(
        "{} {day} {} {}{}",
        lang.t("Attention : l'export du jour", "Note: the export of day"),
        lang.t(
            "est le même que celui de la tentative annulée (scellé à l'événement d'audit",
            "is the one the voided attempt sealed (sealed at audit event"
        ),
        crate::text::number(seq, lang),
        lang.t(
            ") : même SHA-256, la production n'a pas envoyé de nouveau fichier.",
            "): the same SHA-256, production sent no new file."
        ),
    ));
    s.hash(lang.t("SHA-256 de l'export", "Export SHA-256"), sha);
    s.line(&format!(
        "{} {} {}",
        lang.t("La tentative", "Attempt"),
        st.attempt,
        lang.t(
            "scellera ces mêmes participations.",
            "will seal these same entries."
        )
    ));
    s.print();
    let go = term::confirm(
        lang,
        lang.t(
            "Sceller de nouveau ce même export et tirer (irréversible) ?",
            "Seal this same export again and draw the day (irreversible)?",
        ),
    )?;
    if !go {
        note!(
            "{}",
            lang.t("Étape non effectuée.", "Step not carried out.")
        );
    }
    Ok(go)
}

/// After the plan: a void, a redraw, or the close, as the commissaire decides.
fn menu(ctx: &mut Ctx, a: &CeremonyArgs, lang: Lang, p: &Prepared) -> Result<()> {
    loop {
        term::heading(lang.t("AUTRES OPÉRATIONS", "OTHER OPERATIONS"));
        note!(
            "  1  {}",
            lang.t(
                "annuler la tentative en cours d'un jour (scellé ou tiré)",
                "void a day's current attempt (sealed or drawn)"
            )
        );
        note!(
            "  2  {}",
            lang.t(
                "tirer un jour (nouvelle tentative après une annulation)",
                "draw a day (a new attempt after a void)"
            )
        );
        note!(
            "  3  {}",
            lang.t(
                "annuler un bloc (généré, pas encore révélé)",
                "void a block (generated, not yet revealed)"
            )
        );
        note!("  4  {}", lang.t("clore la séance", "close the sitting"));
        note!(
            "{}",
            lang.t(
                "Votre choix (1, 2, 3 ou 4) :",
                "Your choice (1, 2, 3 or 4):"
            )
        );
        let go_on = match term::read_line(lang)?.trim() {
            "1" => match ask_day_to_void(ctx, lang)? {
                Some(day) => {
                    let title = format!("{} {day}", lang.t("Annulation du jour", "Void of day"));
                    attempt(ctx, lang, &title, |ctx| void_day(ctx, a, lang, &day))?
                }
                None => true,
            },
            "2" => match ask_day_to_draw(ctx, lang)? {
                Some(day) => {
                    let title = format!("{} {day}", lang.t("Tirage du jour", "Draw of day"));
                    attempt(ctx, lang, &title, |ctx| draw_day(ctx, a, lang, p, &day))?
                }
                None => true,
            },
            "3" => match ask_block_to_void(ctx, lang)? {
                Some(id) => {
                    let title = format!("{} {id}", lang.t("Annulation du bloc", "Void of block"));
                    attempt(ctx, lang, &title, |ctx| void_block(ctx, a, lang, &id))?
                }
                None => true,
            },
            // The close is irreversible (the sitting's minutes are written and signed): asked.
            "4" => {
                if confirm_close(lang)? {
                    return Ok(());
                }
                true
            }
            _ => {
                note!(
                    "  {}",
                    lang.t("répondez 1, 2, 3 ou 4", "answer 1, 2, 3 or 4")
                );
                true
            }
        };
        if !go_on {
            return Ok(());
        }
    }
}

/// `oui` to close the sitting now; `non` returns to the menu.
fn confirm_close(lang: Lang) -> Result<bool> {
    let close = term::confirm(
        lang,
        lang.t(
            "Clore la séance (irréversible : ses minutes sont signées) ?",
            "Close the sitting (irreversible: its minutes are signed)?",
        ),
    )?;
    if !close {
        note!(
            "{}",
            lang.t("La séance n'est pas close.", "The sitting is not closed.")
        );
    }
    Ok(close)
}

/// The day to draw, typed at the menu and checked before anything is done (three tries): a day
/// that does not parse, or is not a day of the operation, is asked again and recorded nowhere.
/// `None` after three refusals: nothing was done.
fn ask_day_to_draw(ctx: &mut Ctx, lang: Lang) -> Result<Option<String>> {
    ask_day(ctx, lang, |ctx, day| {
        let events = ctx.audit()?.events()?;
        Ok(inputs::day_state(&events, day)
            .err()
            .map(|_| not_of_the_operation(lang, day)))
    })
}

/// The day to void, typed at the menu and checked before its reason is asked (three tries): a
/// typo is asked again and recorded nowhere. `None` after three refusals: nothing was done.
fn ask_day_to_void(ctx: &mut Ctx, lang: Lang) -> Result<Option<String>> {
    ask_day(ctx, lang, |ctx, day| not_voidable(ctx, lang, day))
}

/// A day typed at the menu, asked until `why_not` has nothing against it (three tries, each
/// refusal said and recorded nowhere); `None` after three refusals: nothing was done.
fn ask_day(
    ctx: &mut Ctx,
    lang: Lang,
    mut why_not: impl FnMut(&mut Ctx, urne_verify::values::Day) -> Result<Option<String>>,
) -> Result<Option<String>> {
    for _ in 0..3 {
        note!("{}", lang.t("Jour (AAAA-MM-JJ) :", "Day (YYYY-MM-DD):"));
        let d = term::read_line(lang)?.trim().to_string();
        let why = match inputs::check_day(&d) {
            Ok(day) if d.len() == 10 => why_not(ctx, day)?,
            _ => Some(
                lang.t("écrivez par exemple 2018-12-03", "write e.g. 2018-12-03")
                    .to_string(),
            ),
        };
        let Some(why) = why else {
            return Ok(Some(d));
        };
        refused(&format!("{} {why}", lang.t("refusé :", "refused:")));
    }
    nothing_done(lang);
    Ok(None)
}

/// `D is not a day of the operation`, in the sitting's words.
fn not_of_the_operation(lang: Lang, day: urne_verify::values::Day) -> String {
    format!(
        "{day} {}",
        lang.t(
            "n'est pas un jour de l'opération",
            "is not a day of the operation"
        )
    )
}

/// Why `day` (typed at the menu) cannot be voided now, in the sitting's words: not a day of
/// the operation, or its current attempt not sealed (never sealed, or voided already: the
/// void's own check, `cmd::void`). `None` when it can be, or when a void of it was recorded and
/// not yet announced (the void takes that up).
fn not_voidable(
    ctx: &mut Ctx,
    lang: Lang,
    day: urne_verify::values::Day,
) -> Result<Option<String>> {
    let events = ctx.audit()?.events()?;
    if crate::cmd::void_notice::first_unannounced(&events)?.is_some() {
        return Ok(None);
    }
    let Ok(st) = inputs::day_state(&events, day) else {
        return Ok(Some(not_of_the_operation(lang, day)));
    };
    if st.seal.is_none() && !st.carried {
        return Ok(Some(format!(
            "{} {day} {} {} {}",
            lang.t("le jour", "day"),
            lang.t(
                "n'a rien à annuler : sa tentative",
                "has nothing to void: its attempt"
            ),
            st.attempt,
            lang.t(
                "n'est pas scellée (jamais tirée, ou déjà annulée)",
                "is not sealed (never drawn, or already voided)"
            )
        )));
    }
    Ok(None)
}

/// The block to void, typed at the menu and checked before its reason is asked (three tries):
/// a block id that does not parse, or a block with nothing to void (never generated, or voided
/// already: the void's own check, `cmd::block::void`), is asked again and recorded nowhere.
/// `None` after three refusals: nothing was done.
fn ask_block_to_void(ctx: &mut Ctx, lang: Lang) -> Result<Option<String>> {
    for _ in 0..3 {
        note!(
            "{} {} :",
            lang.t("Bloc (identifiant, par exemple", "Block (its id, e.g."),
            format_args!("{})", inputs::BLOCK_ID_EXAMPLE)
        );
        let b = term::read_line(lang)?.trim().to_string();
        let Ok(id) = inputs::parse_block(&b) else {
            note!(
                "  {}",
                lang.t(
                    "refusé : ce n'est pas un identifiant de bloc",
                    "refused: that is not a block id"
                )
            );
            continue;
        };
        let events = ctx.audit()?.events()?;
        if crate::cmd::void_notice::first_unannounced(&events)?.is_some() {
            return Ok(Some(id.canonical()));
        }
        let st = urne_ceremony::state::block_state(&events, &id)
            .map_err(|e| inputs::altered(&e.to_string()))?;
        if st.entropy.is_some() || st.carried {
            return Ok(Some(id.canonical()));
        }
        refused(&format!(
            "{} {} {}",
            lang.t("refusé : le bloc", "refused: block"),
            id.canonical(),
            lang.t(
                "n'a rien à annuler (jamais généré, ou déjà annulé)",
                "has nothing to void (never generated, or already voided)"
            )
        ));
    }
    nothing_done(lang);
    Ok(None)
}

/// A refusal at the menu, indented and wrapped to an 80-column console.
fn refused(text: &str) {
    for l in crate::text::wrap(text, 76) {
        note!("  {l}");
    }
}

/// Three refusals at the menu: nothing was done, nothing recorded; the menu again.
fn nothing_done(lang: Lang) {
    note!(
        "  {}",
        lang.t(
            "aucune réponse valable après trois essais : rien n'est fait, retour au menu",
            "no valid answer after three tries: nothing is done, back to the menu"
        )
    );
}

/// A void decided at the sitting: the reason typed (at least 10 characters), what it voids
/// shown and the day typed back, then recorded and announced by its notice under the
/// publications folder.
fn void_day(ctx: &mut Ctx, a: &CeremonyArgs, lang: Lang, day: &str) -> Result<()> {
    let events = ctx.audit()?.events()?;
    let st = inputs::day_state(&events, inputs::check_day(day)?)?;
    note!(
        "{} {day}, {} {} : {}",
        lang.t("Jour", "Day"),
        lang.t("tentative", "attempt"),
        st.attempt,
        urne_ceremony::minutes::words::stage(st.stage(), lang.core())
    );
    let reason = ask_reason(lang)?;
    let out: PathBuf = a.out.join(format!("void-{day}-attempt-{}", st.attempt));
    // What it voids is shown and the day typed back before anything is recorded (`urne void`'s
    // own confirmation, at the sitting's terminal).
    crate::cmd::void::run_in_sitting(
        ctx,
        day,
        &reason,
        Some(&out),
        &mut crate::cmd::confirm::Terminal::Own,
    )
}

/// The reason for a void, typed as the minutes will state it (at least
/// [`inputs::MIN_REASON`] characters: asked again until it is).
fn ask_reason(lang: Lang) -> Result<String> {
    loop {
        let r = term::ask_text(
            lang,
            lang.t(
                "Motif de l'annulation, tel qu'il figurera aux minutes (10 caractères au moins) :",
                "Reason for the void, as the minutes will state it (at least 10 characters):",
            ),
        )?;
        if inputs::check_reason(&r, "void").is_ok() {
            return Ok(r);
        }
        note!(
            "  {}",
            lang.t(
                "refusé : 10 caractères au moins",
                "refused: at least 10 characters"
            )
        );
    }
}

/// A block's void decided at the sitting: the reason typed, what it voids shown and the block
/// id typed back (`urne block void`'s own confirmation), then recorded and announced by its
/// notice under the publications folder. The block may then be generated again, by a sitting
/// given its emission.
fn void_block(ctx: &mut Ctx, a: &CeremonyArgs, lang: Lang, id: &str) -> Result<()> {
    let reason = ask_reason(lang)?;
    let events = ctx.audit()?.events()?;
    let attempt = urne_ceremony::state::block_state(&events, &inputs::parse_block(id)?)
        .map_err(|e| inputs::altered(&e.to_string()))?
        .attempt;
    let out = a.out.join(format!(
        "void-{}-attempt-{attempt}",
        urne_verify::block::files::stem(id)
    ));
    crate::cmd::block::void::run_in_sitting(
        ctx,
        id,
        &reason,
        Some(&out),
        &mut crate::cmd::confirm::Terminal::Own,
    )
}

/// The sales close of `block` typed by the commissaire from production's written statement
/// (`AAAA-MM-JJ HH:MM`, Paris time; three tries) must be the one the operator gave
/// (`--sales-closed-at`, `given`): else the reveal is refused (exit 2), nothing recorded.
fn confirm_sales_close(lang: Lang, block: &str, given: &str) -> Result<()> {
    let Ok(at) = chrono::DateTime::parse_from_rfc3339(given) else {
        // Not a date-time: the reveal itself says so, with its hint.
        return Ok(());
    };
    let want = at
        .with_timezone(&chrono_tz::Europe::Paris)
        .format("%Y-%m-%d %H:%M")
        .to_string();
    for _ in 0..3 {
        // Three lines within 80 columns: the block's id may be long.
        note!(
            "{}\n  {block}\n{}",
            lang.t(
                "Commissaire : date et heure de clôture des ventes du bloc",
                "Commissaire: the date and time the sales closed of block"
            ),
            lang.t(
                "selon la déclaration de la production, heure de Paris (AAAA-MM-JJ HH:MM) :",
                "as production states them in writing, Paris time (YYYY-MM-DD HH:MM):"
            )
        );
        let typed = term::read_words(lang)?;
        if typed == want {
            return Ok(());
        }
        note!(
            "  {}",
            lang.t(
                "refusé : ce n'est pas la clôture donnée à l'appareil (--sales-closed-at)",
                "refused: that is not the close given to the appliance (--sales-closed-at)"
            )
        );
    }
    Err(Error::new(
        Kind::TypedMismatch,
        msg!(S::ERR_SITTING_SALES_CLOSE_TYPED, block = block, want = want),
        msg!(S::REC_SITTING_SALES_CLOSE_TYPED),
    ))
}
