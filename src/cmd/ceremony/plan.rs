//! The sitting's plan, checked before the PIN is asked: the rules load, every day is a day of
//! the operation, the exports' folder and the block folders are usable, and something is to be
//! done. The days default to those the rules schedule for today (D-8: the periods whose draw
//! date is today, in the rules' time zone).

use super::args::{BlocksArgs, CeremonyArgs};
use crate::cmd::block::GenerateArgs;
use crate::cmd::ctx::Ctx;
use crate::cmd::inputs;
use crate::cmd::term::Lang;
use crate::error::{Error, Kind, Result};
use crate::msg;
use crate::msg::catalogue::sitting as S;
use std::path::{Path, PathBuf};
use urne_verify::crypto::Hash32;
use urne_verify::rules::draw::DrawRules;
use urne_verify::rules::official::{self, Admission, Standing};
use urne_verify::sitting::Step;

/// The work of a sitting, checked.
pub(super) struct Prepared {
    /// The operation's rules and their file, when days are drawn.
    pub rules: Option<(DrawRules, PathBuf)>,
    /// The days to draw, in order.
    pub days: Vec<String>,
    /// The blocks to generate.
    pub blocks: Option<GenerateArgs>,
    /// The plan as recorded (spec/appliance.md §9.1).
    pub steps: Vec<Step>,
    /// The ids of the rules used that are not an official regulation (`--unofficial-rules`):
    /// the commissaire types each back at the opening (spec/appliance.md §7.4 [M-291]).
    pub unofficial: Vec<String>,
}

/// Checks everything that can be checked before the login.
pub(super) fn prepare(ctx: &Ctx, a: &CeremonyArgs, lang: Lang) -> Result<Prepared> {
    if a.out.exists() && !a.out.is_dir() {
        return Err(Error::new(
            Kind::NotAFolder,
            msg!(S::ERR_SITTING_OUT_NOT_FOLDER, path = a.out.display()),
            msg!(S::REC_SITTING_OUT_NOT_FOLDER),
        ));
    }
    let rules = match &a.rules {
        Some(p) => Some((inputs::load_rules(p, a.admission)?.0, p.clone())),
        None => None,
    };
    let mut unofficial = vec![];
    if let Some((r, _)) = &rules
        && official::standing(r.operation(), &Hash32(r.sha256())) == Standing::Unofficial
    {
        unofficial.push(r.operation().to_string());
    }
    if let Some(b) = &a.blocks {
        let (game, standing) = crate::cmd::block::rules_standing(&b.rules, a.admission)?;
        if standing == Standing::Unofficial && !unofficial.contains(&game) {
            unofficial.push(game);
        }
    }
    let days = days(a, rules.as_ref().map(|r| &r.0), lang)?;
    if let Some(d) = &a.exports
        && !d.is_dir()
    {
        return Err(Error::new(
            Kind::NoSuchFile,
            msg!(S::ERR_SITTING_NO_EXPORTS, path = d.display()),
            msg!(S::REC_SITTING_NO_EXPORTS),
        ));
    }
    let blocks = match &a.blocks {
        Some(b) => {
            let g = generate_args(b, &a.out, a.admission);
            crate::cmd::block::precheck(ctx, &g)?;
            // The secret medium stands apart from the whole publications folder, not only from
            // its blocks/ (a production file under sitting-NNN/ would be published with it).
            crate::cmd::block::precheck(
                ctx,
                &crate::cmd::block::GenerateArgs {
                    out: a.out.clone(),
                    ..generate_args(b, &a.out, a.admission)
                },
            )?;
            Some(g)
        }
        None => None,
    };
    let mut steps: Vec<Step> = days.iter().map(|d| step("draw", d, "")).collect();
    if let Some(b) = &a.blocks {
        for n in b.first..b.first.saturating_add(b.count) {
            steps.push(step(
                "generate",
                &format!("{}/{}/{}/{n}", game_of(&b.rules), b.price, b.emission),
                "",
            ));
        }
    }
    for b in &a.reveals {
        steps.push(step("reveal", b, &a.sales_closed_at));
    }
    Ok(Prepared {
        rules,
        days,
        blocks,
        steps,
        unofficial,
    })
}

fn step(action: &str, subject: &str, detail: &str) -> Step {
    Step {
        action: action.into(),
        subject: subject.into(),
        detail: detail.into(),
    }
}

/// The game id a block rules file declares, for the plan's words (the generation itself loads
/// and checks the file); the file's name when it cannot be read here.
fn game_of(p: &Path) -> String {
    std::fs::read(p)
        .ok()
        .and_then(|b| urne_verify::rules::game::GameRules::from_json(&b).ok())
        .map_or_else(|| p.display().to_string(), |r| r.game().to_string())
}

fn generate_args(b: &BlocksArgs, out: &Path, admission: Admission) -> GenerateArgs {
    GenerateArgs {
        admission,
        rules: b.rules.clone(),
        price: b.price,
        emission: b.emission.clone(),
        first: b.first,
        blocks: b.count,
        out: out.join("blocks"),
        secret_out: b.secret_out.clone(),
    }
}

/// The days given, each a day of the operation; else the days whose period's draw date is
/// today in the rules' time zone (D-1: Europe/Paris; D-8: the draw dates).
fn days(a: &CeremonyArgs, rules: Option<&DrawRules>, lang: Lang) -> Result<Vec<String>> {
    if !a.days.is_empty() && rules.is_none() {
        return Err(Error::new(
            Kind::Usage,
            msg!(S::ERR_SITTING_DAY_WITHOUT_RULES),
            msg!(S::REC_SITTING_DAY_WITHOUT_RULES),
        ));
    }
    let Some(rules) = rules else {
        return Ok(vec![]);
    };
    if a.days.is_empty() {
        let today = crate::edge::clock::now_utc()
            .with_timezone(&rules.time_zone())
            .date_naive();
        let mut out = vec![];
        for p in rules.periods().iter().filter(|p| p.draw_date == today) {
            out.extend(
                p.first_day
                    .iter_days()
                    .take_while(|d| *d <= p.last_day)
                    .map(|d| d.to_string()),
            );
        }
        if out.is_empty() {
            note!(
                "{} {today} (D-8).",
                lang.t(
                    "Aucun jour de l'opération n'a sa date de tirage le",
                    "No day of the operation has its draw date on"
                )
            );
        }
        return Ok(out);
    }
    let mut out: Vec<String> = vec![];
    for d in &a.days {
        let day = inputs::check_day(d)?;
        if rules.period_for(day.date()).is_none() {
            return Err(Error::new(
                Kind::DayNotInOperation,
                msg!(
                    S::ERR_SITTING_DAY_NOT_IN_OPERATION,
                    day = d,
                    operation = rules.operation()
                ),
                msg!(S::REC_SITTING_DAY_NOT_IN_OPERATION),
            ));
        }
        if !out.contains(d) {
            out.push(d.clone());
        }
    }
    Ok(out)
}

/// The export of `day` in the exports folder: `entries-<operation>-<day>.jsonl`.
pub(super) fn export_of(exports: Option<&Path>, operation: &str, day: &str) -> Result<PathBuf> {
    let Some(dir) = exports else {
        return Err(Error::new(
            Kind::Usage,
            msg!(S::ERR_SITTING_NO_EXPORTS_FOLDER, day = day),
            msg!(S::REC_SITTING_NO_EXPORTS_FOLDER),
        ));
    };
    let p = dir.join(format!("entries-{operation}-{day}.jsonl"));
    if p.is_file() {
        Ok(p)
    } else {
        Err(Error {
            hint: msg!(S::REC_SITTING_EXPORT_MISSING),
            ..crate::error::no_such_file(&p)
        })
    }
}

/// The refusal of a sitting with nothing to do: nothing planned, no sitting open to take up
/// again, no sitting output to publish.
pub(super) fn nothing_planned(lang: Lang) -> Error {
    Error::new(
        Kind::NothingPlanned,
        S::ERR_SITTING_NOTHING_PLANNED.fill(lang, &[]),
        S::REC_SITTING_NOTHING_PLANNED.fill(lang, &[]),
    )
}
