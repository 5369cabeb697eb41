//! `urne status`: what the trail records, on one screen: every day it names (current attempt,
//! stage, voided attempts, a draw late by D-8), every block (generated, revealed, voided), and
//! whether a sitting is open (spec/appliance.md §9.1); with `--rules`, the operation's days not yet
//! sealed or drawn, by period, and whether their draw date (D-8) has come. The state is the
//! trail's own state machine (`urne_ceremony::state::Trail`). It appends nothing, but logs in and
//! checks the trail against the token as `urne audit backup` does ([`Ctx::check_to_read`]): a copy,
//! an older trail or an altered one is refused, never shown as the operation's state.

use super::ctx::Ctx;
use super::inputs;
use crate::error::Result;
use crate::text::{Lang, Screen, WIDTH, date};
use std::collections::BTreeSet;
use std::path::Path;
use urne_ceremony::minutes::pv::DrawDay;
use urne_ceremony::state::Trail;
use urne_ceremony::state::block::BlockState;
use urne_ceremony::state::day::DayState;
use urne_verify::rules::draw::DrawRules;
use urne_verify::rules::official::Admission;
use urne_verify::values::{Attempt, Day};

/// `urne status [--rules FILE] [--lang fr|en]`.
pub fn run(ctx: &mut Ctx, rules: Option<&Path>, admit: Admission, lang: Lang) -> Result<()> {
    // The rules file is read before the PIN is asked for.
    let rules = rules.map(|p| inputs::load_rules(p, admit)).transpose()?;
    ctx.check_to_read()?;
    let log = ctx.audit()?;
    let events = log.events()?;
    let trail_id = log.trail();
    let trail = Trail::from_events(&events).map_err(|e| inputs::altered(&e.to_string()))?;
    let late = urne_ceremony::state::late_attempts(&events);
    let mut s = Screen::new(lang);
    s.line(&format!(
        "{} {} : {} {}",
        lang.t("Journal d'audit", "Audit trail"),
        ctx.global.db.display(),
        crate::text::count(events.len() as u64, lang),
        lang.t("événements", "events")
    ));
    if let Some(t) = trail_id {
        s.hash(
            lang.t("Identité du journal", "Trail identity"),
            &t.to_string(),
        );
    }
    sitting(&mut s, &trail);
    producer(&mut s, &trail);
    if let Some((r, _)) = &rules {
        // With the rules, the operation's summary by period fits one screen (80x24); every
        // day and block in detail is `urne status` alone's.
        let today = crate::edge::clock::now_utc()
            .with_timezone(&r.time_zone())
            .date_naive();
        operation(&mut s, &trail, r, today);
        s.line(lang.t(
            "Chaque jour et chaque bloc en détail : urne status (sans --rules).",
            "Every day and block in detail: urne status (without --rules).",
        ));
    } else {
        days(&mut s, &trail, &late);
        blocks(&mut s, &trail);
    }
    ctx.finish()?;
    s.print();
    Ok(())
}

/// Whether a sitting is open (spec/appliance.md §9.1).
fn sitting(s: &mut Screen, trail: &Trail) {
    let lang = s.lang;
    let st = trail.sittings();
    let text = match (st.last, st.open) {
        (0, _) => lang.t("Séance : aucune", "Sitting: none yet").to_string(),
        (n, true) => format!(
            "{} {} {}",
            lang.t("Séance :", "Sitting:"),
            crate::text::number(n, lang),
            lang.t(
                "ouverte (`urne ceremony` la reprend)",
                "open (`urne ceremony` takes it up again)"
            )
        ),
        (n, false) => format!(
            "{} {}, {}",
            lang.t(
                "Séance : aucune ouverte (la dernière,",
                "Sitting: none open (the last,"
            ),
            crate::text::number(n, lang),
            lang.t("est close)", "is closed)")
        ),
    };
    s.line(&text);
}

/// Production's keys pinned in the trail, the only ones a seal trusts (spec/appliance.md §4.1.0).
fn producer(s: &mut Screen, trail: &Trail) {
    let lang = s.lang;
    let text = match trail.producer_keys() {
        Some(p) => format!(
            "{} {}",
            lang.t(
                "Clés de production épinglées :",
                "Production's keys pinned:"
            ),
            super::inputs::pin_words(&p.ids())
        ),
        None => lang
            .t(
                "Clés de production : aucune épinglée (aucun scellé possible)",
                "Production's keys: none pinned (no seal is possible)",
            )
            .to_string(),
    };
    s.line(&text);
}

/// A row of a table: `key` in a column of `width`, the attempt, then `state` wrapped under its
/// column; a key too long for its column has the rest of the row on the next line.
fn row(s: &mut Screen, key: &str, width: usize, attempt: &str, state: &str) {
    let col = 2 + width + 2 + 5 + 2;
    let lines = crate::text::wrap(state, WIDTH - col);
    let head = format!("  {key:<width$}  {attempt:>5}  ");
    if head.chars().count() > col {
        s.indented(2, key);
        s.indented(col, &format!("{} {state}", attempt.trim()));
        return;
    }
    for (i, l) in lines.iter().enumerate() {
        if i == 0 {
            s.laid_out(&format!("{head}{l}"));
        } else {
            s.indented(col, l);
        }
    }
}

/// A day's current attempt, in words.
fn day_stage(st: &DayState, lang: Lang) -> &'static str {
    if st.carried {
        lang.t(
            "tiré sous le journal remplacé",
            "drawn under the trail this one replaced",
        )
    } else if st.published.is_some() {
        lang.t("tiré et publié", "drawn and published")
    } else if st.result.is_some() {
        lang.t(
            "tiré, sorties non écrites (relancer urne draw)",
            "drawn, outputs not written (run urne draw again)",
        )
    } else if st.contribution.is_some() {
        lang.t(
            "contribution inscrite, tirage interrompu",
            "contribution recorded, draw interrupted",
        )
    } else if st.entropy.is_some() {
        lang.t(
            "aléa inscrit, tirage interrompu",
            "entropy recorded, draw interrupted",
        )
    } else if st.seal.is_some() {
        lang.t("scellé, à tirer", "sealed, to draw")
    } else {
        lang.t("à sceller", "to seal")
    }
}

/// "attempt 1 voided", "attempts 1, 2 voided".
fn voided(attempts: &[u32], lang: Lang) -> Option<String> {
    let list = attempts
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    match attempts.len() {
        0 => None,
        1 => Some(format!(
            "{} {list} {}",
            lang.t("tentative", "attempt"),
            lang.t("annulée", "voided")
        )),
        _ => Some(format!(
            "{} {list} {}",
            lang.t("tentatives", "attempts"),
            lang.t("annulées", "voided")
        )),
    }
}

/// Every day the trail names.
fn days(s: &mut Screen, trail: &Trail, late: &BTreeSet<(Day, Attempt)>) {
    let lang = s.lang;
    let all: Vec<_> = trail.days().collect();
    s.heading(&format!("{} ({})", lang.t("Jours", "Days"), all.len()));
    if all.is_empty() {
        s.indented(2, lang.t("aucun jour scellé", "no day sealed yet"));
        return;
    }
    row(
        s,
        lang.t("jour", "day"),
        10,
        lang.t("tent.", "att."),
        lang.t("état", "state"),
    );
    for (day, st) in all {
        let mut words = vec![day_stage(&st, lang).to_string()];
        if late.contains(&(day, st.attempt)) {
            words.push(lang.t("en retard (D-8)", "late (D-8)").to_string());
        }
        let attempts: Vec<u32> = st.voided.iter().map(|v| v.attempt).collect();
        words.extend(voided(&attempts, lang));
        row(
            s,
            &day.to_string(),
            10,
            &st.attempt.to_string(),
            &words.join(" ; "),
        );
    }
}

/// A block's current attempt, in words.
fn block_stage(st: &BlockState, lang: Lang) -> &'static str {
    if st.carried {
        lang.t(
            "généré sous le journal remplacé (ne peut qu'être annulé)",
            "generated under the trail this one replaced (can only be voided)",
        )
    } else if st.revealed.is_some() {
        lang.t("révélé", "revealed")
    } else if st.published.is_some() {
        lang.t("généré et publié", "generated and published")
    } else if st.generated.is_some() {
        lang.t(
            "généré, sorties non écrites (relancer urne block generate)",
            "generated, outputs not written (run urne block generate again)",
        )
    } else if st.contribution.is_some() || st.entropy.is_some() {
        lang.t(
            "génération interrompue (relancer urne block generate)",
            "generation interrupted (run urne block generate again)",
        )
    } else {
        lang.t("à générer", "to generate")
    }
}

/// Every block the trail names.
fn blocks(s: &mut Screen, trail: &Trail) {
    let lang = s.lang;
    let all: Vec<_> = trail.blocks().collect();
    s.heading(&format!("{} ({})", lang.t("Blocs", "Blocks"), all.len()));
    if all.is_empty() {
        s.indented(2, lang.t("aucun bloc généré", "no block generated yet"));
        return;
    }
    row(
        s,
        lang.t("bloc", "block"),
        40,
        lang.t("tent.", "att."),
        lang.t("état", "state"),
    );
    for (id, st) in all {
        let mut words = vec![block_stage(&st, lang).to_string()];
        let attempts: Vec<u32> = st.voided.iter().map(|(_, v)| v.attempt.get()).collect();
        words.extend(voided(&attempts, lang));
        row(s, id, 40, &st.attempt.to_string(), &words.join(" ; "));
    }
}

/// With the rules: by period, the days not yet sealed and those sealed but not drawn, and
/// whether the period's draw date (D-8) has come (`today`, in the rules' time zone).
fn operation(s: &mut Screen, trail: &Trail, rules: &DrawRules, today: chrono::NaiveDate) {
    let lang = s.lang;
    s.heading(&format!(
        "{} {} ({})",
        lang.t("Opération", "Operation"),
        rules.operation(),
        lang.t(
            "jours à sceller ou à tirer, D-8",
            "days to seal or to draw, D-8"
        )
    ));
    let mut not_ended = false;
    for p in rules.periods() {
        let (mut to_seal, mut to_draw) = (vec![], vec![]);
        for d in p.first_day.iter_days().take_while(|d| *d <= p.last_day) {
            let Some(day) = Day::of(d) else { continue };
            let st = trail.day_state(day);
            if st.carried || st.published.is_some() {
                continue;
            }
            if st.seal.is_some() {
                to_draw.push(d);
            } else {
                to_seal.push(d);
            }
        }
        let when = DrawDay {
            today,
            draw_date: p.draw_date,
            grace_days: rules.draw_grace_days(),
        };
        let due = if to_seal.is_empty() && to_draw.is_empty() {
            lang.t("tous tirés", "all drawn").to_string()
        } else if when.is_late() {
            format!(
                "{} {} {})",
                lang.t("en retard (D-8 + plus de", "late (D-8 + more than"),
                rules.draw_grace_days(),
                lang.t("jours", "days")
            )
        } else if when.is_early() {
            format!(
                "{} {}",
                lang.t("pas avant le", "not before"),
                date(p.draw_date, lang)
            )
        } else {
            lang.t("à tirer maintenant", "due now").to_string()
        };
        s.indented(
            2,
            &format!(
                "{}, {} {}{}{due}",
                p.id,
                lang.t("tirage prévu le", "draw date"),
                date(p.draw_date, lang),
                lang.t(" : ", ": ")
            ),
        );
        list(s, lang.t("à sceller :", "to seal:"), &to_seal, today);
        list(
            s,
            lang.t("scellés, à tirer :", "sealed, to draw:"),
            &to_draw,
            today,
        );
        not_ended |= to_seal.iter().chain(&to_draw).any(|d| *d >= today);
    }
    if not_ended {
        s.indented(
            2,
            lang.t(
                "* pas encore terminé (heure de Paris) : ne peut être scellé",
                "* not ended yet (Paris time): cannot be sealed",
            ),
        );
    }
}

/// A list of days after its label, on one line (more when it is long): runs of consecutive days
/// written `FIRST…LAST`, a day that has not ended yet marked `*` (a run is all ended or not).
fn list(s: &mut Screen, label: &str, days: &[chrono::NaiveDate], today: chrono::NaiveDate) {
    if days.is_empty() {
        return;
    }
    let mut runs: Vec<(chrono::NaiveDate, chrono::NaiveDate)> = vec![];
    for d in days {
        match runs.last_mut() {
            Some((_, last)) if last.succ_opt() == Some(*d) && (*last >= today) == (*d >= today) => {
                *last = *d;
            }
            _ => runs.push((*d, *d)),
        }
    }
    let star = |d: chrono::NaiveDate| if d >= today { "*" } else { "" };
    let words: Vec<String> = runs
        .iter()
        .flat_map(|&(first, last)| {
            if first == last {
                vec![format!("{first}{}", star(first))]
            } else if last.pred_opt() == Some(first) {
                vec![
                    format!("{first}{}", star(first)),
                    format!("{last}{}", star(last)),
                ]
            } else {
                vec![format!("{first}…{last}{}", star(last))]
            }
        })
        .collect();
    let mut line = label.to_string();
    for w in words {
        if line.chars().count() + 1 + w.chars().count() > 74 {
            s.indented(4, &line);
            line = format!("  {w}");
        } else {
            line = format!("{line} {w}");
        }
    }
    s.indented(4, &line);
}
