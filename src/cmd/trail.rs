//! `urne trail restart` (spec/appliance.md §6.8): a lost trail is an incident, not a reset. In front of
//! the commissaire, the token gets a new trail identity naming the one it replaces, and a new
//! database whose first event (`trail.restarted`) names the old trail and the token's last
//! mark of it, the reason, and what the outputs published under the old trail show was already
//! done, so that no day is drawn and no block generated twice without a void.

use super::ctx::Ctx;
use crate::edge::binding::{self, TokenTrail};
use crate::edge::folder::DiskFolder;
use crate::edge::hsm::{Hsm, KeyRole};
use crate::edge::store::{AuditLog, Binding};
use crate::error::{Error, Kind, Result};
use crate::msg;
use crate::msg::catalogue::cmd as mc;
use crate::msg::catalogue::sitting as S;
use std::path::{Path, PathBuf};
use urne_ceremony::token::{self, Mark, TrailObject};
use urne_verify::audit::history::Output;
use urne_verify::block::BlockId;
use urne_verify::crypto::Hash32;
use urne_verify::events::payloads::{CarriedBlock, CarriedDay, SoftwareStart, TrailRestarted};
use urne_verify::subject::Publishes;
use urne_verify::values::{Attempt, Day};
use urne_verify::verify::block_folder::{block_commitments, verify_block_folder};
use urne_verify::verify::draw_folder::verify_draw_folder;
use urne_verify::verify::history::check_linear;
use urne_verify::verify::signed::Keys;

/// `urne trail restart --reason TEXT [--outputs DIR]`.
pub fn restart(ctx: &mut Ctx, reason: &str, outputs: Option<&Path>) -> Result<()> {
    super::inputs::check_reason(reason, "restart")?;
    let sw = ctx.software()?;
    let db = ctx.global.db.clone();
    let command = ctx.command_name.clone();
    if db.exists() {
        return Err(Error::new(
            Kind::OutputExists,
            crate::msg!(mc::ERR_TRAIL_DB_EXISTS, path = db.display()),
            crate::msg!(mc::REC_TRAIL_DB_EXISTS),
        ));
    }
    // The trail's folder, checked before anything changes in the token.
    crate::edge::store::build::trail_folder(&db)?;
    let hsm = ctx.hsm()?;
    let tt = binding::read(hsm)?.ok_or_else(|| {
        Error::new(
            Kind::NothingToRestart,
            crate::msg!(mc::ERR_TRAIL_NONE),
            crate::msg!(mc::REC_TRAIL_NONE),
        )
    })?;
    if let Some(dir) = outputs.filter(|_| hsm.is_rehearsal()) {
        // A rehearsal's outputs carry rehearsal checkpoints, which no check takes as official
        // (spec/appliance.md §6.10): refused before anything is done.
        use crate::msg::catalogue::rehearsal as m;
        return Err(Error::new(
            Kind::NotTrailOutput,
            crate::msg!(m::ERR_RESTART_REHEARSAL_OUTPUTS, dir = dir.display()),
            crate::msg!(m::REC_RESTART_REHEARSAL_OUTPUTS),
        ));
    }
    let (old, old_mark, new, write_object) = trails(hsm, &tt)?;
    let audit_key = tt.audit_key;
    let keys = Keys {
        result: hsm.public_key(KeyRole::Result)?,
        audit: audit_key,
        source: "the token".to_string(),
    };
    let (days, blocks) = match outputs {
        Some(dir) => carried(dir, &keys, &ancestry(&tt, &old), &old_mark)?,
        None => (vec![], vec![]),
    };
    // The database is built in memory before the token learns of the new trail: a restart that
    // fails here leaves the token as it was, and nothing on disk.
    let mut log = AuditLog::create_in_memory(&db)?;
    if write_object {
        hsm.create_data_object(token::TRAIL_LABEL, &new.encode(), false)?;
    }
    log.bind(Binding {
        trail: new.trail,
        audit_key,
        marking: false,
        origin: hsm.origin(),
    })?;
    let record = TrailRestarted {
        trail: new.trail,
        audit_key_id: urne_verify::values::KeyId::of(&audit_key),
        audit_public_key: Hash32(audit_key),
        previous_trail: old,
        previous_mark_size: old_mark.size,
        previous_mark_root: old_mark.root,
        reason: reason.to_string(),
        days,
        blocks,
    };
    log.record(hsm, record.clone())?;
    log.record(
        hsm,
        SoftwareStart {
            command,
            software: sw,
            pkcs11: hsm.pkcs11_identity()?,
        },
    )?;
    let log = log.place(&db, "restart")?;
    log.mark_head(hsm)?;
    let note = log.latest_note()?;
    ctx.install(log);
    print_restart(&db, &record, &note);
    say!("{}", msg!(S::SCR_RESTART_NO_PIN));
    Ok(())
}

/// The replaced trail and the trails it replaced in turn, newest first (the token's chain of
/// `urne-trail` objects): outputs of any of them may be carried again.
fn ancestry(tt: &TokenTrail, old: &Hash32) -> Vec<Hash32> {
    let mut chain = vec![*old];
    while let Some(prev) = tt
        .objects
        .iter()
        .find(|o| Some(&o.trail) == chain.last())
        .and_then(|o| o.previous)
    {
        if chain.contains(&prev) {
            break;
        }
        chain.push(prev);
    }
    chain
}

/// The trail replaced, the token's last mark of it, and the new trail's identity: written into
/// the token now, or found there when an earlier run was interrupted before the new trail got
/// its first mark.
fn trails(hsm: &Hsm, tt: &TokenTrail) -> Result<(Hash32, Mark, TrailObject, bool)> {
    let resumed = tt
        .object
        .previous
        .filter(|_| tt.last_mark().ok().flatten().is_none());
    let (old, new) = if let Some(previous) = resumed {
        (previous, tt.object.clone())
    } else {
        let created = crate::edge::clock::now_rfc3339();
        let nonce = hsm.random(32)?;
        let new = TrailObject {
            trail: token::trail_id(&tt.audit_key, &nonce, &created),
            audit_key_id: urne_verify::values::KeyId::of(&tt.audit_key),
            created,
            previous: Some(tt.object.trail),
        };
        (tt.object.trail, new)
    };
    let old_mark = last_mark_even_forked(&old, &tt.marks).ok_or_else(|| {
        Error::new(
            Kind::NothingToRestart,
            crate::msg!(mc::ERR_TRAIL_NO_MARK, trail = old),
            crate::msg!(mc::REC_TRAIL_NO_MARK),
        )
    })?;
    Ok((old, old_mark, new, resumed.is_none()))
}

/// The last mark of `trail`; when the token holds two histories of it (marks of one size with
/// different roots, which only two copies of the trail used at once write), the largest size
/// with the smallest root, every other one being named on standard error for the minutes.
fn last_mark_even_forked(trail: &Hash32, marks: &[Mark]) -> Option<Mark> {
    let mine: Vec<&Mark> = marks.iter().filter(|m| &m.trail == trail).collect();
    let size = mine.iter().map(|m| m.size).max()?;
    let mut top: Vec<&Mark> = mine.into_iter().filter(|m| m.size == size).collect();
    top.sort_by_key(|m| m.root);
    for other in &top[1..] {
        note!(
            "{}",
            msg!(
                S::SCR_RESTART_OTHER_HISTORY,
                size = other.size,
                root = other.root
            )
        );
    }
    top.first().map(|m| **m)
}

/// What the outputs published under the old trail show done (spec/appliance.md §6.8): each output folder
/// under `dir` (or `dir` itself) verified under the token's keys, of the old trail, within its
/// last mark, one linear history; for each day and block, its last attempt's stage.
fn carried(
    dir: &Path,
    keys: &Keys,
    trails: &[Hash32],
    mark: &Mark,
) -> Result<(Vec<CarriedDay>, Vec<CarriedBlock>)> {
    let folders = output_folders(dir)?;
    let mut outputs: Vec<Output> = vec![];
    let mut days: std::collections::BTreeMap<Day, CarriedDay> = std::collections::BTreeMap::new();
    let mut blocks: std::collections::BTreeMap<String, CarriedBlock> =
        std::collections::BTreeMap::new();
    for f in &folders {
        let refused = |what: String| {
            Error::new(
                Kind::NotTrailOutput,
                crate::msg!(
                    mc::ERR_TRAIL_OUTPUT_REFUSED,
                    path = f.display(),
                    what = what
                ),
                crate::msg!(mc::REC_TRAIL_OUTPUTS),
            )
        };
        // What is carried is read from the outputs as they were verified (their subjects and
        // the SHA-256 of the bytes checked), never read again from the medium: a file swapped
        // after its check cannot carry another day or block.
        let folder = DiskFolder::open(f);
        let r = if f.join("bundle.json").exists() {
            verify_draw_folder(&folder, keys, None)
        } else {
            let commits = block_commitments(&folder).map_err(|e| refused(e.0))?;
            verify_block_folder(&folder, &commits, keys)
        }
        .map_err(|e| refused(format!("does not verify ({}): {}", e.class.name(), e.what)))?;
        if r.outputs.is_empty() {
            return Err(refused(
                "it names no trail (a version-1 output): it cannot be shown to be the replaced trail's"
                    .into(),
            ));
        }
        let revealed: Vec<&String> = r
            .outputs
            .iter()
            .filter_map(|o| match &o.subject {
                Some(Publishes::Reveal { block, .. }) => Some(block),
                _ => None,
            })
            .collect();
        for o in &r.outputs {
            carry(o, &revealed, &mut days, &mut blocks).map_err(&refused)?;
        }
        outputs.extend(r.outputs);
    }
    check_outputs(&outputs, trails, mark)?;
    Ok((days.into_values().collect(), blocks.into_values().collect()))
}

/// The outputs given are of the replaced trail (within the token's last mark of it) or of the
/// trails it replaced in turn, and one history.
fn check_outputs(outputs: &[Output], trails: &[Hash32], mark: &Mark) -> Result<()> {
    let old = &trails[0];
    for o in outputs {
        let of_old = o.history.trail == *old;
        if !trails.contains(&o.history.trail) || (of_old && o.checkpoint.size > mark.size) {
            return Err(Error::new(
                Kind::NotTrailOutput,
                crate::msg!(
                    mc::ERR_TRAIL_NOT_OUTPUT,
                    name = o.name,
                    trail = old,
                    size = mark.size
                ),
                crate::msg!(mc::REC_TRAIL_NOT_OUTPUT),
            ));
        }
    }
    check_linear(outputs, false).map_err(|f| {
        Error::new(
            Kind::NotOneHistory,
            crate::msg!(
                mc::ERR_TRAIL_NOT_ONE_HISTORY,
                class = f.class.name(),
                what = f.what
            ),
            crate::msg!(mc::REC_TRAIL_NOT_ONE_HISTORY),
        )
    })?;
    Ok(())
}

/// The day or block the verified output `o` shows done, kept if it is the highest attempt yet:
/// a draw is `drawn`, a block commitment `generated`, or `revealed` when its reveal is among
/// the verified outputs too. Other outputs carry nothing. The error is why the output cannot
/// be carried, in words.
fn carry(
    o: &Output,
    revealed: &[&String],
    days: &mut std::collections::BTreeMap<Day, CarriedDay>,
    blocks: &mut std::collections::BTreeMap<String, CarriedBlock>,
) -> std::result::Result<(), String> {
    match &o.subject {
        Some(Publishes::Draw {
            operation,
            day,
            attempt,
        }) => {
            // Verified: a day of its rules and an attempt from 1 (spec/formats.md §4.7).
            let day: Day = day.parse().map_err(|e| format!("{e}"))?;
            let attempt = Attempt::new(*attempt).ok_or("attempt 0")?;
            keep(
                days,
                day,
                attempt,
                |d| d.attempt,
                |attempt| CarriedDay {
                    operation: operation.clone(),
                    day,
                    attempt,
                    stage: "drawn".into(),
                    output: o.sha256,
                },
            );
        }
        Some(Publishes::Commitment { block, attempt }) => {
            let id = BlockId::parse(block).map_err(|e| format!("{e}"))?;
            let attempt = Attempt::new(*attempt).ok_or("attempt 0")?;
            let stage = if revealed.contains(&block) {
                "revealed"
            } else {
                "generated"
            };
            keep(
                blocks,
                block.clone(),
                attempt,
                |b| b.attempt,
                |attempt| CarriedBlock {
                    block: id,
                    attempt,
                    stage: stage.into(),
                    output: o.sha256,
                },
            );
        }
        _ => {}
    }
    Ok(())
}

/// Keeps, per day or block, the record of its highest attempt (`attempt_of` reads it).
fn keep<K: Ord, T>(
    map: &mut std::collections::BTreeMap<K, T>,
    key: K,
    attempt: Attempt,
    attempt_of: fn(&T) -> Attempt,
    make: impl FnOnce(Attempt) -> T,
) {
    if map.get(&key).is_none_or(|old| attempt_of(old) < attempt) {
        map.insert(key, make(attempt));
    }
}

/// `dir` itself when it is an output folder, else its immediate subfolders that are.
fn output_folders(dir: &Path) -> Result<Vec<PathBuf>> {
    let is_output = |d: &Path| {
        d.join("bundle.json").exists()
            || block_commitments(&DiskFolder::open(d)).is_ok_and(|c| !c.is_empty())
    };
    if is_output(dir) {
        return Ok(vec![dir.to_path_buf()]);
    }
    let mut subs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| crate::error::io_error(crate::error::Io::Read, dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir() && is_output(p))
        .collect();
    subs.sort();
    Ok(subs)
}

fn print_restart(db: &Path, r: &TrailRestarted, note: &str) {
    let stage = |s: &str| urne_ceremony::minutes::words::stage(s, crate::msg::lang().core());
    say!("{}", msg!(S::SCR_RESTART, path = db.display()));
    say!("{}", msg!(S::SCR_RESTART_NEW, trail = r.trail));
    say!(
        "{}",
        msg!(
            S::SCR_RESTART_REPLACES,
            trail = r.previous_trail,
            size = r.previous_mark_size,
            root = r.previous_mark_root
        )
    );
    say!("{}", msg!(S::SCR_RESTART_REASON, reason = r.reason));
    for d in &r.days {
        say!(
            "{}",
            msg!(
                S::SCR_RESTART_DAY,
                day = d.day,
                attempt = d.attempt,
                stage = stage(&d.stage),
                output = d.output
            )
        );
    }
    for b in &r.blocks {
        say!(
            "{}",
            msg!(
                S::SCR_RESTART_BLOCK,
                block = b.block,
                attempt = b.attempt,
                stage = stage(&b.stage),
                output = b.output
            )
        );
    }
    say!("{}\n{note}", msg!(S::SCR_RESTART_CHECKPOINT));
}
