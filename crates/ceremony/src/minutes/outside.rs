//! The acts done outside any sitting (spec/appliance.md §9.2, M-270): every seal, draw (its result),
//! void, block generated, block revealed and pin of production's keys recorded after the
//! previous sitting closed (the key ceremony's close, before the first ordinary sitting) and
//! before this sitting opened — a PIN holder's lone `urne draw` at night, say. The next
//! sitting's minutes list them in a section of their own, each with its event, its time and its
//! output when it was published (the folder and the primary file's SHA-256, from the
//! publication's record), and `urne ceremony` shows them at the opening, before the plan is
//! confirmed. A clock's correction stays an incident (`corrections`), stated once.

use super::collect::{self, Parsed};
use super::{Act, ActOutput, Lang, MinutesError, OutsideAct, words};
use chrono_tz::Tz;
use std::fmt::Write;
use urne_verify::audit::Event;
use urne_verify::audit::history::Subject;
use urne_verify::crypto::Hash32;
use urne_verify::events::kinds::Record;
use urne_verify::values::{Attempt, KeyId};

/// The acts done since the trail's last `sitting.closed` (before a sitting is opened: what its
/// opening shows). Fails when an event does not parse.
pub fn since_last_sitting(events: &[Event]) -> Result<Vec<OutsideAct>, MinutesError> {
    let all = collect::parse_all(events)?;
    Ok(acts(&all, start(&all, all.len()), all.len()))
}

/// The index just after the last `sitting.closed` of `all[..lo]` (0 when none).
pub(super) fn start(all: &[Parsed], lo: usize) -> usize {
    all[..lo]
        .iter()
        .rposition(|p| matches!(p.r, Record::SittingClosed(_)))
        .map_or(0, |i| i + 1)
}

/// The acts recorded in `all[from..to]`, each with its output published up to the trail's end.
pub(super) fn acts(all: &[Parsed], from: usize, to: usize) -> Vec<OutsideAct> {
    let after = &all[from..];
    all[from..to]
        .iter()
        .filter_map(|p| {
            let act = act(&p.r)?;
            let output = output(after, &act, p.at.seq);
            Some(OutsideAct {
                at: p.at,
                act,
                output,
            })
        })
        .collect()
}

/// The act a record states, if it is one.
fn act(r: &Record) -> Option<Act> {
    Some(match r {
        Record::DrawSeal(r) => Act::Seal {
            day: r.day,
            attempt: r.attempt,
        },
        Record::DrawResult(r) => Act::Draw {
            day: r.day,
            attempt: r.attempt,
        },
        Record::DrawVoid(r) => Act::Void {
            block: false,
            subject: r.day.to_string(),
            attempt: r.attempt,
            reason: r.reason.clone(),
        },
        Record::BlockVoid(r) => Act::Void {
            block: true,
            subject: r.block.to_string(),
            attempt: r.attempt,
            reason: r.reason.clone(),
        },
        Record::BlockGenerated(r) => Act::Generated {
            block: r.block.clone(),
            attempt: r.attempt,
        },
        Record::BlockRevealed(r) => Act::Revealed {
            block: r.block.clone(),
            attempt: r.attempt,
        },
        Record::ProducerKeys(r) => Act::ProducerKeys {
            keys: r.ids(),
            previous: r.previous.clone(),
        },
        _ => return None,
    })
}

/// The output of `act` (recorded at event `seq`), found in `after`: a draw's or a block's
/// publication record; a reveal's or a void notice's `output.placing` followed by its
/// `output.published`.
fn output(after: &[Parsed], act: &Act, seq: u64) -> Option<ActOutput> {
    let found = after.iter().find_map(|p| {
        let hit = match (act, &p.r) {
            (Act::Draw { day, attempt }, Record::DrawPublished(r))
                if r.day == *day && r.attempt == *attempt =>
            {
                published(&r.out, &r.files, r.output.as_ref())
            }
            (Act::Generated { block, attempt }, Record::BlockPublished(r))
                if r.block == *block && r.attempt == *attempt =>
            {
                published(&r.out, &r.files, r.output.as_ref())
            }
            _ => None,
        };
        hit.map(|h| (p.at.seq, h))
    });
    let found = found.or_else(|| placed(after, act, seq));
    found.map(|(seq, (folder, file, sha256))| ActOutput {
        seq,
        folder,
        file,
        sha256,
    })
}

/// A publication record's folder, primary file and its SHA-256 (version 1: its first file).
fn published(
    out: &str,
    files: &std::collections::BTreeMap<String, Hash32>,
    output: Option<&urne_verify::audit::history::OutputPublished>,
) -> Option<(String, String, Hash32)> {
    let (file, sha256) = match output {
        Some(o) => (o.file.clone(), o.sha256),
        None => files.iter().next().map(|(f, h)| (f.clone(), *h))?,
    };
    Some((out.to_string(), file, sha256))
}

/// A reveal's or a void notice's output: its `output.placing`, then the `output.published` of
/// the same primary file.
fn placed(after: &[Parsed], act: &Act, seq: u64) -> Option<(u64, (String, String, Hash32))> {
    let i = after.iter().position(|p| match (&p.r, act) {
        (Record::OutputPlacing(o), Act::Revealed { block, attempt }) => {
            o.subject
                == Subject::Reveal {
                    block: block.clone(),
                    attempt: *attempt,
                }
        }
        (Record::OutputPlacing(o), Act::Void { .. }) => {
            o.subject == Subject::VoidNotice { void_seq: seq }
        }
        _ => false,
    })?;
    let Record::OutputPlacing(o) = &after[i].r else {
        return None;
    };
    after[i + 1..].iter().find_map(|p| match &p.r {
        Record::OutputPublished(x) if x.file == o.file => {
            Some((p.at.seq, (o.out.clone(), x.file.clone(), x.sha256)))
        }
        _ => None,
    })
}

/// What the act is, in words, as plain text (`tirage du jour du 1er décembre 2018, tentative
/// n° 1`).
pub fn what(act: &Act, lang: Lang) -> String {
    let t = |fr, en| lang.pick(fr, en);
    let attempt = |n: Attempt| format!("{}{n}", t("tentative n°\u{a0}", "attempt no. "));
    match act {
        Act::Seal { day, attempt: n } => format!(
            "{} {}, {}",
            t("Scellement du jour du", "Seal of the day of"),
            words::day_of(*day, lang),
            attempt(*n)
        ),
        Act::Draw { day, attempt: n } => format!(
            "{} {}, {}",
            t("Tirage du jour du", "Draw of the day of"),
            words::day_of(*day, lang),
            attempt(*n)
        ),
        Act::Void {
            block,
            subject,
            attempt: n,
            reason,
        } => {
            let of = if *block {
                format!("{} {subject}", t("du bloc", "of block"))
            } else {
                format!(
                    "{} {}",
                    t("du jour du", "of the day of"),
                    words::day(subject, lang)
                )
            };
            format!(
                "{} {of}, {} ({} {reason})",
                t("Annulation", "Void"),
                attempt(*n),
                t("motif :", "reason:")
            )
        }
        Act::Generated { block, attempt: n } => format!(
            "{} {block}, {}",
            t("Génération du bloc", "Generation of block"),
            attempt(*n)
        ),
        Act::Revealed { block, attempt: n } => format!(
            "{} {block}, {}",
            t("Révélation du bloc", "Reveal of block"),
            attempt(*n)
        ),
        Act::ProducerKeys { keys, previous } => {
            let prev = if previous.is_empty() {
                t("premier épinglage", "first pin").to_string()
            } else {
                format!("{} {}", t("remplacent", "replacing"), KeyId::join(previous))
            };
            format!(
                "{} {} ({prev})",
                t(
                    "Clés de production épinglées :",
                    "Production's keys pinned:"
                ),
                KeyId::join(keys)
            )
        }
    }
}

/// One act as a line of text (the opening's screen): its time in `tz`, its event, what it is,
/// and where its output was published; the output's SHA-256 is the screen's to print, grouped
/// under it (`a.output`).
pub fn line(a: &OutsideAct, lang: Lang, tz: Tz) -> String {
    let t = |fr, en| lang.pick(fr, en);
    let mut s = format!(
        "{} ({} {}) — {}",
        words::date_time(a.at.at, tz, lang),
        t("événement d'audit n°", "audit event no."),
        a.at.seq,
        what(&a.act, lang)
    );
    if let Some(o) = &a.output {
        let _ = write!(
            s,
            " ; {} {}/{}, {} {}",
            t("publié dans", "published in"),
            o.folder.trim_end_matches('/'),
            o.file,
            t("événement n°", "event no."),
            o.seq
        );
    }
    s
}
