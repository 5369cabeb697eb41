//! The minutes' items read from a range of the trail (spec/appliance.md §9.2): the draws, blocks,
//! reveals and voids of the events in the range, each read with its own earlier events (a
//! seal, an entropy recorded before the range), the refusals and interruptions, the software,
//! and the integrity conclusion. Shared by a sitting's minutes and a lone draw's.

use super::{
    Block, Checkpoint, Context, Draw, DrawResult, Fixed, Incident, Integrity, Keys, MinutesError,
    Picked, Reveal, Software, Stamp, Timing, Void,
};
use chrono::{DateTime, NaiveDate, Utc};
use chrono_tz::Tz;
use urne_verify::audit::Event;
use urne_verify::block::BlockId;
use urne_verify::events::kinds::{self, Record};
use urne_verify::sitting::Step;
use urne_verify::values::{Attempt, Day};

/// One event of the trail with its typed record and its time.
pub(super) struct Parsed {
    /// Its sequence number and time.
    pub at: Stamp,
    /// Its record.
    pub r: Record,
}

/// Every event of the trail, parsed; an event that does not parse stops the minutes.
pub(super) fn parse_all(events: &[Event]) -> Result<Vec<Parsed>, MinutesError> {
    events
        .iter()
        .map(|e| {
            let r = kinds::parse(e)?;
            let at = DateTime::parse_from_rfc3339(&e.ts)
                .map_err(|err| kinds::malformed(e, format!("its time does not parse: {err}")))?
                .with_timezone(&Utc);
            Ok(Parsed {
                at: Stamp { seq: e.seq, at },
                r,
            })
        })
        .collect()
}

/// What the range holds, before the header (who, where) is added.
pub(super) struct Work {
    pub titles: Vec<String>,
    pub time_zone: Tz,
    pub draws: Vec<Draw>,
    pub blocks: Vec<Block>,
    pub reveals: Vec<Reveal>,
    pub voids: Vec<Void>,
    pub keys: Option<Keys>,
    pub incidents: Vec<Incident>,
    pub software: Vec<Software>,
    pub integrity: Integrity,
}

/// The range `lo..=hi` of `all` (indices), whose process at its start is `opener` (an index
/// into `all`).
pub(super) struct Range {
    pub lo: usize,
    pub hi: usize,
    pub opener: Option<usize>,
    pub key_ceremony: bool,
}

/// Reads the range's work.
pub(super) fn collect(all: &[Parsed], g: &Range, ctx: &dyn Context) -> Work {
    let upto = &all[..=g.hi];
    let inside = &all[g.lo..=g.hi];
    let draws = draws(inside, upto, ctx);
    let blocks = blocks(inside, upto, ctx);
    let time_zone = draws
        .iter()
        .filter_map(|d| d.seal.as_ref())
        .find_map(|s| ctx.draw_rules(&s.value.rules_sha256))
        .map_or(
            chrono_tz::Europe::Paris,
            urne_verify::rules::draw::DrawRules::time_zone,
        );
    let draws: Vec<Draw> = draws
        .into_iter()
        .map(|d| with_timing(d, upto, ctx, time_zone))
        .collect();
    // A key ceremony's minutes state the trail from its first event (spec/appliance.md §9.1):
    // the refusals and processes before its opening too.
    let opener = g.opener.map(|i| all[i].at.seq);
    let (mut incidents, first) = if g.key_ceremony {
        let first = keys_before_opening(all, g);
        let skip = [opener, first.as_ref().map(first_process)];
        (incidents(&all[..=g.hi], &skip), first)
    } else {
        (incidents(inside, &[opener]), None)
    };
    incidents.extend(first);
    // The work still planned when the sitting was taken up again, without what was done by then.
    for i in &mut incidents {
        if let Incident::Resumed { at, plan } = i {
            let before = all.iter().take_while(|p| p.at.seq < at.seq).count();
            plan.retain(|st| !already_done(&all[..before], st));
        }
    }
    incidents.extend(resumed(&draws, &blocks, upto, all[g.lo].at.seq));
    incidents.extend(other_modules(all, g));
    incidents.sort_by_key(|i| i.at().seq);
    Work {
        titles: titles(&draws, &blocks, ctx),
        time_zone,
        reveals: reveals(inside),
        voids: voids(inside),
        keys: keys(inside, upto, g.key_ceremony),
        incidents,
        software: software(all, g),
        integrity: integrity(all, ctx),
        draws,
        blocks,
    }
}

/// The draws (day, attempt) any event of the range belongs to, in order of appearance, each
/// read from the trail up to the range's end.
fn draws(inside: &[Parsed], upto: &[Parsed], ctx: &dyn Context) -> Vec<Draw> {
    let mut keys: Vec<(Day, Attempt)> = vec![];
    for p in inside {
        let key = match &p.r {
            Record::DrawSeal(r) => (r.day, r.attempt),
            Record::DrawLate(r) => (r.day, r.attempt),
            Record::DrawEntropy(r) => (r.day, r.attempt),
            Record::DrawContribution(r) => (r.day, r.attempt),
            Record::DrawResult(r) => (r.day, r.attempt),
            Record::DrawPublished(r) => (r.day, r.attempt),
            _ => continue,
        };
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    keys.into_iter()
        .map(|(day, attempt)| draw(upto, day, attempt, ctx))
        .collect()
}

/// One draw, read from `upto`.
pub(super) fn draw(upto: &[Parsed], day: Day, attempt: Attempt, ctx: &dyn Context) -> Draw {
    let mut d = Draw {
        operation: String::new(),
        day,
        attempt,
        seal: None,
        prize_cents: None,
        timing: None,
        entropy_commitment: None,
        contribution: None,
        entropy: None,
        result: None,
        files: std::collections::BTreeMap::new(),
        published: None,
        earlier_voids: vec![],
    };
    let mut picks = vec![];
    for p in upto {
        let at = p.at;
        match &p.r {
            Record::DrawSeal(r) if r.day == day && r.attempt == attempt => {
                d.operation.clone_from(&r.operation);
                d.seal = Some(Fixed {
                    at,
                    value: r.clone(),
                });
            }
            Record::DrawEntropy(r) if r.day == day && r.attempt == attempt => {
                d.entropy_commitment = Some(Fixed {
                    at,
                    value: r.entropy_commitment,
                });
            }
            Record::DrawContribution(r) if r.day == day && r.attempt == attempt => {
                d.contribution = Some(Fixed {
                    at,
                    value: r.contribution.clone(),
                });
            }
            Record::DrawResult(r) if r.day == day && r.attempt == attempt => {
                picks = std::iter::once(r.winner)
                    .chain(r.reserves.iter().copied())
                    .collect();
                d.result = Some(DrawResult {
                    at,
                    seed: r.seed,
                    picks: vec![],
                });
            }
            Record::DrawPublished(r) if r.day == day && r.attempt == attempt => {
                d.files.clone_from(&r.files);
                d.published = Some(at);
            }
            Record::DrawVoid(r) if r.day == day && r.attempt < attempt => {
                d.earlier_voids
                    .push((r.attempt.get(), r.reason.clone(), at.seq));
            }
            _ => {}
        }
    }
    let set = d.seal.as_ref().map(|s| s.value.set_sha256);
    if d.result.is_some()
        && let Some(ec) = &d.entropy_commitment
    {
        d.entropy = ctx.draw_entropy(&ec.value);
    }
    if let Some(res) = &mut d.result {
        res.picks = (0u32..)
            .zip(picks)
            .map(|(rank, p)| Picked {
                rank,
                leaf: p.leaf,
                entry: p.entry,
                pseudonym: set.and_then(|s| ctx.pseudonym(&s, p.leaf)),
            })
            .collect();
    }
    d
}

/// The draw's date against its draw date (D-8), and its prize, from its rules and its events.
pub(super) fn with_timing(mut d: Draw, upto: &[Parsed], ctx: &dyn Context, tz: Tz) -> Draw {
    let late = upto.iter().find_map(|p| match &p.r {
        Record::DrawLate(r) if r.day == d.day && r.attempt == d.attempt => Some((p.at.seq, r)),
        _ => None,
    });
    let day = Some(d.day.date());
    let rules = d
        .seal
        .as_ref()
        .and_then(|s| ctx.draw_rules(&s.value.rules_sha256));
    let period = rules.zip(day).and_then(|(r, day)| r.period_for(day));
    d.prize_cents = period.map(|p| p.prize_cents);
    let when = d
        .entropy_commitment
        .as_ref()
        .map(|f| f.at)
        .or(d.result.as_ref().map(|r| r.at))
        .map(|s| s.at.with_timezone(&tz).date_naive());
    let date = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok();
    let drawn_on = late.and_then(|(_, r)| date(&r.today)).or(when);
    let draw_date = period
        .map(|p| p.draw_date)
        .or(late.and_then(|(_, r)| date(&r.draw_date)));
    if let (Some(drawn_on), Some(draw_date)) = (drawn_on, draw_date) {
        d.timing = Some(Timing {
            drawn_on,
            draw_date,
            period: period.map(|p| p.id.clone()),
            grace_days: rules.map(urne_verify::rules::draw::DrawRules::draw_grace_days),
            late_event: late.map(|(seq, _)| seq),
        });
    }
    d
}

/// The blocks (id, attempt) any event of the range belongs to, each read from `upto`.
fn blocks(inside: &[Parsed], upto: &[Parsed], ctx: &dyn Context) -> Vec<Block> {
    let mut keys: Vec<(BlockId, Attempt)> = vec![];
    let mut add = |k: (BlockId, Attempt)| {
        if !keys.contains(&k) {
            keys.push(k);
        }
    };
    for p in inside {
        match &p.r {
            Record::BlockEntropy(r) => add((r.block.clone(), r.attempt)),
            Record::BlockContribution(r) => {
                r.blocks
                    .iter()
                    .for_each(|b| add((b.block.clone(), b.attempt)));
            }
            Record::BlockGenerated(r) => add((r.block.clone(), r.attempt)),
            Record::BlockPublished(r) => add((r.block.clone(), r.attempt)),
            _ => {}
        }
    }
    keys.into_iter()
        .map(|(b, attempt)| block(upto, &b, attempt, ctx))
        .collect()
}

/// One block's attempt, read from `upto`.
fn block(upto: &[Parsed], id: &BlockId, attempt: Attempt, ctx: &dyn Context) -> Block {
    let mut b = Block {
        block: id.clone(),
        attempt,
        rules_sha256: None,
        entropy_commitment: None,
        contribution: None,
        generated: None,
        counts: None,
        files: std::collections::BTreeMap::new(),
        published: None,
    };
    for p in upto {
        let at = p.at;
        match &p.r {
            Record::BlockEntropy(r) if r.block == *id && r.attempt == attempt => {
                b.rules_sha256 = Some(r.rules_sha256);
                b.entropy_commitment = Some(Fixed {
                    at,
                    value: r.entropy_commitment,
                });
            }
            Record::BlockContribution(r)
                if r.blocks
                    .iter()
                    .any(|x| x.block == *id && x.attempt == attempt) =>
            {
                b.contribution = Some(Fixed {
                    at,
                    value: r.contribution.clone(),
                });
            }
            Record::BlockGenerated(r) if r.block == *id && r.attempt == attempt => {
                b.generated = Some(Fixed {
                    at,
                    value: r.clone(),
                });
            }
            Record::BlockPublished(r) if r.block == *id && r.attempt == attempt => {
                b.files.clone_from(&r.files);
                b.published = Some(at);
            }
            _ => {}
        }
    }
    let rules = b.rules_sha256.and_then(|h| ctx.game_rules(&h));
    let price = id.price_cents();
    if let Some(rules) = rules
        && rules.price_index(price).is_some()
    {
        b.counts = Some(urne_verify::block::counts::expected_counts(rules, price));
    }
    b
}

/// The reveals of the range, each with the time its sales closed, as recorded.
fn reveals(inside: &[Parsed]) -> Vec<Reveal> {
    inside
        .iter()
        .filter_map(|p| match &p.r {
            Record::BlockRevealed(r) => Some(Reveal {
                at: p.at,
                block: r.block.clone(),
                attempt: r.attempt,
                entropy: r.entropy.clone(),
                seed: r.seed,
                sales_closed_at: Some(r.sales_closed_at.clone()),
            }),
            _ => None,
        })
        .collect()
}

/// The voids of the range.
fn voids(inside: &[Parsed]) -> Vec<Void> {
    inside
        .iter()
        .filter_map(|p| match &p.r {
            Record::DrawVoid(r) => Some(Void {
                at: p.at,
                block: false,
                subject: r.day.to_string(),
                attempt: r.attempt,
                stage: Some(r.stage.clone()),
                reason: r.reason.clone(),
            }),
            Record::BlockVoid(r) => Some(Void {
                at: p.at,
                block: true,
                subject: r.block.to_string(),
                attempt: r.attempt,
                stage: None,
                reason: r.reason.clone(),
            }),
            _ => None,
        })
        .collect()
}

/// The keys generated and exported in the range; for a key ceremony, the keys generated
/// before it when the range has none (`urne keys init` writes them with the trail).
fn keys(inside: &[Parsed], upto: &[Parsed], key_ceremony: bool) -> Option<Keys> {
    let generated = |ps: &[Parsed]| {
        ps.iter().rev().find_map(|p| match &p.r {
            Record::KeysGenerated(r) => Some(Fixed {
                at: p.at,
                value: r.clone(),
            }),
            _ => None,
        })
    };
    let mut g = generated(inside);
    if g.is_none() && key_ceremony {
        g = generated(upto);
    }
    let exported: Vec<_> = inside
        .iter()
        .filter_map(|p| match &p.r {
            Record::KeysExported(r) => Some(Fixed {
                at: p.at,
                value: r.clone(),
            }),
            _ => None,
        })
        .collect();
    (g.is_some() || !exported.is_empty() || key_ceremony).then_some(Keys {
        generated: g,
        exported,
        pinned: None,
    })
}

/// The process that generated the keys of a [`Incident::KeysBeforeOpening`].
fn first_process(i: &Incident) -> u64 {
    match i {
        Incident::KeysBeforeOpening { process, .. } => *process,
        _ => 0,
    }
}

/// A key ceremony whose keys were generated by another process than the one that opened its
/// sitting: the keys' event, that process's start, the opener's, and the first refusal recorded
/// between the keys and the opening.
fn keys_before_opening(all: &[Parsed], g: &Range) -> Option<Incident> {
    let opener = g.opener?;
    let k = all[..g.lo]
        .iter()
        .position(|p| matches!(p.r, Record::KeysGenerated(_)))?;
    let process = all[..k]
        .iter()
        .rposition(|p| matches!(p.r, Record::SoftwareStart(_)))?;
    if process == opener {
        return None;
    }
    let cause = all[k..g.lo]
        .iter()
        .find(|p| matches!(p.r, Record::CommandFailed(_)))
        .map(|p| p.at.seq);
    Some(Incident::KeysBeforeOpening {
        at: all[k].at,
        process: all[process].at.seq,
        opener: all[opener].at.seq,
        cause,
    })
}

/// The refusals, the processes started (but those of `skip`: the one at the range's start,
/// and for a key ceremony the one that generated its keys, stated otherwise) and the resumes of
/// the range.
fn incidents(inside: &[Parsed], skip: &[Option<u64>]) -> Vec<Incident> {
    inside
        .iter()
        .filter_map(|p| {
            let at = p.at;
            Some(match &p.r {
                Record::CommandFailed(r) => Incident::Failed {
                    at,
                    command: r.command.clone(),
                    class: r.class.clone(),
                    error: r.error.clone(),
                },
                Record::InputRejected(r) => Incident::Rejected {
                    at,
                    file: r.file.clone(),
                    sha256: r.sha256,
                    reason: r.reason.clone(),
                },
                Record::EntropyRefused(r) => Incident::EntropyRefused {
                    at,
                    purpose: r.purpose.clone(),
                    attempt: r.attempt,
                    commitment: r.entropy_commitment,
                    reason: r.reason.clone(),
                },
                Record::SoftwareStart(r) if !skip.contains(&Some(at.seq)) => Incident::Process {
                    at,
                    command: r.command.clone(),
                },
                Record::SittingResumed(r) => Incident::Resumed {
                    at,
                    plan: r.plan.clone(),
                },
                _ => return None,
            })
        })
        .collect()
}

/// What happened between the previous sitting's close (`from`) and this sitting's opening (`lo`)
/// that touches its work and is no act (spec/appliance.md §9.2): every refusal recorded then
/// (`command.failed`, `input.rejected`, `entropy.refused`), and every run of `urne ceremony`
/// but the one that opened the sitting (`opener`) that recorded nothing after its start.
pub(super) fn between(
    all: &[Parsed],
    from: usize,
    lo: usize,
    opener: Option<usize>,
) -> Vec<Incident> {
    let starts: Vec<Option<u64>> = all[from..lo]
        .iter()
        .filter(|p| matches!(p.r, Record::SoftwareStart(_)))
        .map(|p| Some(p.at.seq))
        .collect();
    let mut out: Vec<Incident> = incidents(&all[from..lo], &starts)
        .into_iter()
        .filter(|i| {
            matches!(
                i,
                Incident::Failed { .. }
                    | Incident::Rejected { .. }
                    | Incident::EntropyRefused { .. }
            )
        })
        .collect();
    for i in from..lo {
        let Record::SoftwareStart(r) = &all[i].r else {
            continue;
        };
        let next_is_start = all
            .get(i + 1)
            .is_some_and(|p| matches!(p.r, Record::SoftwareStart(_)));
        if r.command == "ceremony" && Some(i) != opener && i + 1 < lo && next_is_start {
            out.push(Incident::StoppedBeforeOpening { at: all[i].at });
        }
    }
    out
}

/// The draws and generations finished by a later process than the one that recorded their
/// entropy: a `software.start` between the entropy's event and the result's.
fn resumed(draws: &[Draw], blocks: &[Block], upto: &[Parsed], opened: u64) -> Vec<Incident> {
    let last_start = |from: u64, to: u64| {
        upto.iter()
            .filter(|p| p.at.seq > from && p.at.seq < to)
            .filter(|p| matches!(p.r, Record::SoftwareStart(_)))
            .map(|p| p.at.seq)
            .next_back()
    };
    let mut out = vec![];
    let mut check = |block: bool,
                     subject: &str,
                     attempt,
                     e: Option<u64>,
                     c: Option<u64>,
                     end: Option<Stamp>| {
        let (Some(e), Some(end)) = (e, end) else {
            return;
        };
        if end.seq < opened {
            return;
        }
        if let Some(start) = last_start(e, end.seq) {
            out.push(Incident::RandomnessResumed {
                at: end,
                block,
                subject: subject.to_string(),
                attempt,
                entropy_seq: e,
                contribution_seq: c.filter(|c| *c < start),
                before_sitting: e < opened,
            });
        }
    };
    for d in draws {
        let e = d.entropy_commitment.as_ref().map(|f| f.at.seq);
        let c = d.contribution.as_ref().map(|f| f.at.seq);
        check(
            false,
            &d.day.to_string(),
            d.attempt,
            e,
            c,
            d.result.as_ref().map(|r| r.at),
        );
    }
    for b in blocks {
        let e = b.entropy_commitment.as_ref().map(|f| f.at.seq);
        let c = b.contribution.as_ref().map(|f| f.at.seq);
        check(
            true,
            &b.block.to_string(),
            b.attempt,
            e,
            c,
            b.generated.as_ref().map(|g| g.at),
        );
    }
    out
}

/// The operations' titles: the rules' `title` up to its first `:`, each once.
fn titles(draws: &[Draw], blocks: &[Block], ctx: &dyn Context) -> Vec<String> {
    let short = |t: &str| t.split(':').next().unwrap_or(t).trim().to_string();
    let mut out: Vec<String> = vec![];
    let of_draws = draws.iter().map(|d| {
        d.seal
            .as_ref()
            .and_then(|s| ctx.draw_rules(&s.value.rules_sha256))
            .map_or_else(|| d.operation.clone(), |r| short(r.title()))
    });
    let of_blocks = blocks.iter().map(|b| {
        b.rules_sha256
            .and_then(|h| ctx.game_rules(&h))
            .map_or_else(|| b.block.game().to_string(), |r| short(r.title()))
    });
    for t in of_draws.chain(of_blocks) {
        if !t.is_empty() && !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

/// The software of the process at the range's start, then of every later process whose
/// software or HSM differs from the one before it.
fn software(all: &[Parsed], g: &Range) -> Vec<Software> {
    let first = g.opener.into_iter().map(|i| &all[i]);
    let later = all[g.lo..=g.hi]
        .iter()
        .filter(|p| g.opener.is_none_or(|i| all[i].at.seq < p.at.seq));
    let mut out: Vec<Software> = vec![];
    for p in first.chain(later) {
        let Record::SoftwareStart(r) = &p.r else {
            continue;
        };
        let same = out
            .last()
            .is_some_and(|s| s.software == r.software && s.pkcs11 == r.pkcs11);
        if !same {
            out.push(Software {
                at: p.at,
                command: r.command.clone(),
                software: r.software.clone(),
                pkcs11: r.pkcs11.clone(),
            });
        }
    }
    out
}

/// The processes of the sitting whose PKCS#11 module is not the one of the trail's first
/// `software.start` (the key ceremony's), once per module: the commissaire is told, since the
/// module answers for the HSM (docs/threat-model.md). None for the key ceremony itself.
fn other_modules(all: &[Parsed], g: &Range) -> Vec<Incident> {
    let Some((first_seq, first)) = all.iter().find_map(|p| match &p.r {
        Record::SoftwareStart(r) => Some((p.at.seq, r.pkcs11.module_sha256)),
        _ => None,
    }) else {
        return vec![];
    };
    let mut seen = vec![first];
    let mut out = vec![];
    for s in software(all, g) {
        let sha = s.pkcs11.module_sha256;
        if !seen.contains(&sha) {
            seen.push(sha);
            out.push(Incident::OtherModule {
                at: s.at,
                path: s.pkcs11.module_path.clone(),
                sha256: sha,
                key_ceremony: (first_seq, first),
            });
        }
    }
    out
}

/// The trail's identity (event 1) and the checkpoint the caller gives.
fn integrity(all: &[Parsed], ctx: &dyn Context) -> Integrity {
    let (trail, audit_key_id) = match all.first().map(|p| &p.r) {
        Some(Record::TrailCreated(t)) => (Some(t.trail), Some(t.audit_key_id.clone())),
        Some(Record::TrailRestarted(t)) => (Some(t.trail), Some(t.audit_key_id.clone())),
        _ => (None, None),
    };
    Integrity {
        trail,
        audit_key_id,
        checkpoint: ctx.checkpoint().and_then(checkpoint),
    }
}

/// A signed note's size and root (its second and third lines), with its text.
pub(super) fn checkpoint(text: &str) -> Option<Checkpoint> {
    use base64::Engine;
    let mut lines = text.lines().skip(1);
    let size = lines.next()?.parse().ok()?;
    let root = base64::engine::general_purpose::STANDARD
        .decode(lines.next()?)
        .ok()?;
    Some(Checkpoint {
        size,
        root: urne_verify::crypto::Hash32::try_from(root.as_slice()).ok()?,
        text: text.to_string(),
    })
}

/// The attempt `r` does the planned step `st` for (a draw's result, a block generated or
/// revealed, a void), if it does.
pub(super) fn does(r: &Record, st: &Step) -> Option<urne_verify::values::Attempt> {
    let (same, attempt) = match (st.action.as_str(), r) {
        ("draw", Record::DrawResult(x)) => (x.day == st.subject, x.attempt),
        ("generate", Record::BlockGenerated(x)) => (x.block == st.subject, x.attempt),
        ("reveal", Record::BlockRevealed(x)) => (x.block == st.subject, x.attempt),
        ("void", Record::DrawVoid(x)) => (x.day == st.subject, x.attempt),
        ("void", Record::BlockVoid(x)) => (x.block == st.subject, x.attempt),
        _ => return None,
    };
    same.then_some(attempt)
}

/// Whether the planned step `st` was already done in `before` (a day drawn, a block generated
/// or revealed, a void) and its attempt not voided since: a plan recorded when a sitting is
/// taken up again is stated without it (no stale plan, spec/appliance.md §9.2).
pub(super) fn already_done(before: &[Parsed], st: &Step) -> bool {
    let voided = |a: urne_verify::values::Attempt| {
        before.iter().any(|p| match &p.r {
            Record::DrawVoid(x) => x.day == st.subject && x.attempt == a,
            Record::BlockVoid(x) => x.block == st.subject && x.attempt == a,
            _ => false,
        })
    };
    before
        .iter()
        .any(|p| does(&p.r, st).is_some_and(|a| st.action == "void" || !voided(a)))
}
