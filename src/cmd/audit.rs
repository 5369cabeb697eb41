//! `urne audit verify | show | export` (spec/formats.md §6.4). Read-only: these never change the trail.
//! `audit verify` checks the database or an exported trail (`--file`); the checks are the
//! core's (`urne_verify::verify::trail`, `trail_export`).

use super::ctx::Ctx;
use crate::cli::AuditCommand;
use crate::edge::folder::DiskFolder;
use crate::edge::fsio;
use crate::edge::store::AuditLog;
use crate::error::{Error, Kind, Result};
use crate::msg;
use crate::msg::catalogue as m;
use crate::msg::catalogue::cmd as mc;
use crate::msg::catalogue::sitting as S;
use std::io::Write;
use std::path::{Path, PathBuf};
use urne_verify::audit::Event;
use urne_verify::crypto::keys;
use urne_verify::events::kinds;
use urne_verify::verify::trail::{AuditKey, TrailReport, verify_trail};
use urne_verify::verify::trail_export::verify_trail_export;

/// `urne audit verify | show | export | backup`.
pub fn run(ctx: &mut Ctx, c: AuditCommand) -> Result<()> {
    match c {
        AuditCommand::Verify {
            file,
            checkpoint,
            audit_key,
            keys,
            strict,
        } => {
            let held = read_held(&checkpoint)?;
            let key = match (audit_key, keys) {
                (Some(p), _) => AuditKey::Given(read_audit_key(&p)?),
                (None, Some(dir)) => AuditKey::Given(exported_audit_key(&dir)?),
                (None, None) => AuditKey::Recorded,
            };
            // An anchor from outside the trail: a key, or a checkpoint signed by the real key.
            let anchored = matches!(key, AuditKey::Given(_)) || !held.is_empty();
            let report = match file {
                Some(f) => verify_export_file(&f, &held, key, strict)?,
                None => verify(ctx, &held, key, strict)?,
            };
            if anchored {
                print_intact(&report);
            } else {
                print_unanchored(&report);
                ctx.outcome = crate::error::Exit::Unanchored;
            }
            if held.is_empty() {
                note_cut_short(report.events);
            }
            Ok(())
        }
        AuditCommand::Show { last } => show(ctx, last),
        AuditCommand::Export { out } => export(ctx, &out),
        AuditCommand::Backup { out } => backup(ctx, &out),
    }
}

/// `urne audit backup --out FILE` (spec/appliance.md §6.6): the trail, checked against the token, copied
/// whole inside one read transaction (`AuditLog::with_snapshot`: the very state its events are
/// read from, no other process committing meanwhile), in chunks of [`CHUNK`](crate::edge::store::snapshot::CHUNK) bytes, written new
/// and private (mode 0600) through the output folder's descriptor without replacing anything
/// (`fsio`: staged, then linked into place; never through a symbolic link), then read back
/// through that descriptor and compared with the trail byte for byte, chunk by chunk, before the
/// read transaction ends. The copy on the medium is never opened as a database. Appends nothing,
/// so the copy stays restorable until the next command appends.
fn backup(ctx: &mut Ctx, out: &Path) -> Result<()> {
    let (dir, name) = fsio::split(out)?;
    if fsio::name_taken(&dir, &name)? {
        return Err(Error::new(
            Kind::OutputExists,
            crate::msg!(
                crate::msg::catalogue::edge::ERR_OUTPUT_EXISTS,
                path = out.display()
            ),
            crate::msg!(mc::REC_AUDIT_BACKUP_EXISTS),
        ));
    }
    // A backup is what gets put back: every checkpoint's signature is checked, not only those
    // after the token's last mark (spec/appliance.md §6.6, §6.8).
    ctx.opening.whole_check = true;
    ctx.check_only()?;
    let log = ctx.audit()?;
    let (trail, events, head) = log.with_snapshot(|snap| {
        // The events as this snapshot holds them (refused if another command appended since
        // the check): the head the copy has.
        let events = log.events_afresh()?;
        let head = urne_verify::audit::chain::tree_root(
            &events.iter().map(|e| e.hash).collect::<Vec<_>>(),
        );
        fsio::write_private_with(out, |f| snap.copy_to(f))?;
        let mut placed = fsio::existing_folder(&dir)?
            .ok_or_else(|| crate::error::no_such_file(out))?
            .open_regular(&name)
            .map_err(|e| crate::error::io_error(crate::error::Io::Read, out, e))?;
        if !snap.same_as(&mut placed)? {
            return Err(Error::new(
                Kind::StoreFailed,
                crate::msg!(mc::ERR_AUDIT_BACKUP_READBACK, path = out.display()),
                crate::msg!(mc::REC_AUDIT_BACKUP_READBACK),
            ));
        }
        Ok((log.trail().unwrap_or_default(), events.len(), head))
    })?;
    let lang = crate::text::lang();
    let mut s = crate::text::Screen::new(lang);
    s.heading(&crate::msg!(m::SCR_BACKUP, path = out.display()));
    s.field(
        m::SCR_BACKUP_EVENTS.words(lang),
        &crate::text::count(events as u64, lang),
    );
    s.hash(m::SCR_TRAIL_ID.words(lang), &trail.to_string());
    s.hash(m::SCR_BACKUP_ROOT.words(lang), &hex::encode(head));
    s.indented(2, m::SCR_BACKUP_USE.words(lang));
    s.print();
    Ok(())
}

/// What a trail checked against the key it records itself does not prove, and how to anchor it
/// (the first line of the verdict, exit 8; spec/formats.md §6.4).
pub use urne_verify::verify::verdict::UNANCHORED;

/// The checkpoint notes the user holds, as text.
pub fn read_held(held: &[PathBuf]) -> Result<Vec<(PathBuf, String)>> {
    let mut notes = vec![];
    for p in held {
        let bytes = fsio::read_within(p, urne_verify::verify::folder::limits::NOTE)?;
        // Not UTF-8: it cannot be a note the audit key signed; it fails its signature check
        // (spec/formats.md §8.4 [M-206]).
        let text = String::from_utf8_lossy(&bytes).into_owned();
        notes.push((p.clone(), text));
    }
    Ok(notes)
}

/// An audit public key (PEM) given on the command line.
pub fn read_audit_key(p: &Path) -> Result<[u8; 32]> {
    keys::public_key_from_pem(&String::from_utf8_lossy(&fsio::read(p)?)).map_err(|e| {
        Error::new(
            Kind::KeysInvalid,
            crate::msg!(
                mc::ERR_AUDIT_KEY,
                path = p.display(),
                e = super::inputs::key_error_words(&e, crate::msg::lang())
            ),
            crate::msg!(mc::REC_AUDIT_KEY),
        )
    })
}

/// An exported trail file (spec/formats.md §6.4), checked by the core; a failure names its class.
pub fn verify_export_file(
    path: &Path,
    held: &[(PathBuf, String)],
    key: AuditKey,
    strict: bool,
) -> Result<TrailReport> {
    // An exported trail is an output like any other: not a regular file, or over its limit,
    // is `malformed` (spec/formats.md §1.6).
    // The file given is read through its links (spec/formats.md §1.6).
    let (folder, name) = crate::edge::folder::DiskFolder::of_file(path);
    let bytes = urne_verify::verify::folder::read_bounded(
        &folder,
        &name,
        urne_verify::verify::folder::limits::AUDIT_EXPORT,
    )
    .map_err(|f| {
        if f.class.is_verification() {
            Error::new(
                Kind::TrailVerificationFailed,
                crate::msg!(
                    mc::ERR_AUDIT_VERIFICATION,
                    class = f.class.name(),
                    what = f.what
                ),
                crate::msg!(mc::REC_AUDIT_EXPORT_FILE),
            )
        } else {
            Error::new(Kind::VerifyInput, f.what, crate::msg!(mc::REC_AUDIT_PATH))
        }
    })?
    .ok_or_else(|| {
        crate::error::io_error(
            crate::error::Io::Read,
            path,
            std::io::Error::from(std::io::ErrorKind::NotFound),
        )
    })?;
    verify_trail_export(&path.display().to_string(), &bytes, held, key, strict).map_err(|f| {
        Error::new(
            Kind::TrailVerificationFailed,
            crate::msg!(
                mc::ERR_AUDIT_VERIFICATION,
                class = f.class.name(),
                what = f.what
            ),
            crate::msg!(if f.class == urne_verify::verify::FailureClass::Rehearsal {
                mc::REC_AUDIT_REHEARSAL
            } else {
                mc::REC_AUDIT_EXPORT_ALTERED
            }),
        )
    })
}

/// The audit key of the folder `urne keys export` wrote (its audit.pub.pem; a link there is
/// not followed, spec/formats.md §1.6).
pub fn exported_audit_key(dir: &Path) -> Result<[u8; 32]> {
    use urne_verify::verify::signed;
    signed::load_key(&DiskFolder::open(dir), "audit.pub.pem").map_err(|f| {
        Error::new(
            Kind::KeysInvalid,
            f.what,
            crate::msg!(mc::REC_AUDIT_KEYS_FOLDER),
        )
    })
}

/// The verdict on a trail checked against the key it records itself (exit 8): the first line
/// A key anchors a trail against a rewrite under another key, not against a copy cut short: only
/// a checkpoint held outside (or, before a command acts, the token's last mark) shows what is
/// missing (spec/formats.md §6.4). Said on standard error whenever no checkpoint is held.
pub fn note_cut_short(events: u64) {
    note!("{}", urne_verify::verify::verdict::cut_short_note(events));
}

/// says what that does not prove, then what did hold.
fn print_unanchored(report: &TrailReport) {
    say!("UNANCHORED: the audit trail is consistent with itself only: {UNANCHORED}");
    print_report(&S::SCR_AUDIT_SELF_CONSISTENT, report);
}

/// `audit trail intact: …` and, when the last events are not checkpointed yet, a note.
pub fn print_intact(report: &TrailReport) {
    print_report(&S::SCR_AUDIT_INTACT, report);
}

fn print_report(head: &crate::msg::Msg, report: &TrailReport) {
    say!(
        "{}",
        msg!(
            head,
            trail = report
                .trail
                .map_or_else(String::new, |t| msg!(S::SCR_AUDIT_REPORT_TRAIL, trail = t)),
            events = report.events,
            checkpoints = report.checkpoints,
            key = report.key.map_or_else(String::new, |k| msg!(
                S::SCR_AUDIT_REPORT_KEY,
                id = keys::key_id(&k)
            ))
        )
    );
    if report.covered < report.events {
        say!(
            "{}",
            msg!(
                S::SCR_AUDIT_UNCOVERED,
                from = report.covered + 1,
                to = report.events
            )
        );
    }
}

fn verify(
    ctx: &mut Ctx,
    held: &[(PathBuf, String)],
    key: AuditKey,
    strict: bool,
) -> Result<TrailReport> {
    // A rehearsal's trail, checked on its rehearsal token (`--rehearsal-at`, which opened it):
    // its checkpoints are a rehearsal's (spec/appliance.md §6.10); anywhere else they are the
    // class `rehearsal` (spec/formats.md §6.10).
    let key = match key {
        AuditKey::Given(k) if ctx.on_rehearsal_token() => {
            AuditKey::Token(k, urne_verify::audit::chain::Origin::Rehearsal)
        }
        other => other,
    };
    let log = AuditLog::open_existing(&ctx.global.db)?;
    let events = log.events()?;
    let stored = log.checkpoints()?;
    let report = verify_trail(&events, &stored, held, key).map_err(|f| {
        Error::new(
            Kind::TrailVerificationFailed,
            crate::msg!(mc::ERR_AUDIT_FAILS, seq = f.seq, reason = f.reason),
            crate::msg!(if f.class == urne_verify::verify::FailureClass::Rehearsal {
                mc::REC_AUDIT_REHEARSAL
            } else {
                mc::REC_AUDIT_ALTERED
            }),
        )
    })?;
    let corrupt = log.corrupt_blobs()?;
    if let Some(h) = corrupt.first() {
        let user = events
            .iter()
            .find(|e| e.payload.contains(&hex::encode(h)))
            .map_or(0, |e| e.seq);
        return Err(Error::new(
            Kind::TrailVerificationFailed,
            crate::msg!(
                mc::ERR_AUDIT_BLOB_ALTERED,
                seq = user,
                hash = hex::encode(h)
            ),
            crate::msg!(mc::REC_AUDIT_KEEP),
        ));
    }
    check_named_blobs(&log, &events)?;
    if strict {
        report.check_strict().map_err(|f| {
            Error::new(
                Kind::TrailVerificationFailed,
                crate::msg!(mc::ERR_AUDIT_FAILS, seq = f.seq, reason = f.reason),
                crate::msg!(mc::REC_AUDIT_STRICT),
            )
        })?;
    }
    Ok(report)
}

/// spec/formats.md §6.4 (4): every blob an event names (a seal's sealed set and rules, a block's entropy) is
/// stored. Events that are not well-formed records name none here (the appliance refuses them
/// before acting, spec/appliance.md §6.2).
fn check_named_blobs(log: &AuditLog, events: &[Event]) -> Result<()> {
    for e in events {
        let Ok(record) = kinds::parse(e) else {
            continue;
        };
        for b in record.blobs() {
            if !log.has_blob(&b)? {
                return Err(Error::new(
                    Kind::TrailVerificationFailed,
                    crate::msg!(mc::ERR_AUDIT_BLOB_MISSING, seq = e.seq, hash = b),
                    crate::msg!(mc::REC_AUDIT_BLOB_MISSING),
                ));
            }
        }
    }
    Ok(())
}

/// The trail a read-only command works on (spec/appliance.md §6.6): path, identity, events, on stderr.
fn print_trail_line(db: &Path, events: &[Event]) {
    let line = match urne_verify::verify::trail::trail_identity(events) {
        Some(t) => msg!(
            S::SCR_AUDIT_TRAIL,
            path = db.display(),
            trail = t,
            events = events.len()
        ),
        None => msg!(
            S::SCR_AUDIT_TRAIL_V1,
            path = db.display(),
            events = events.len()
        ),
    };
    note!("{line}");
}

fn show(ctx: &mut Ctx, last: Option<usize>) -> Result<()> {
    use std::fmt::Write as _;
    let log = AuditLog::open_existing(&ctx.global.db)?;
    let events = log.events()?;
    print_trail_line(&ctx.global.db, &events);
    let skip = last.map_or(0, |n| events.len().saturating_sub(n));
    // One text, written through `say_raw!`: a standard output that cannot be written (a full
    // disk, a closed pipe) makes the command fail (exit 2), never a silent success.
    let mut text = String::new();
    for e in &events[skip..] {
        let _ = writeln!(text, "#{:<5} {}  {}", e.seq, e.ts, e.kind);
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(&e.payload) {
            for line in serde_json::to_string_pretty(&v)
                .unwrap_or_default()
                .lines()
                .skip(1)
            {
                if line != "}" {
                    let _ = writeln!(text, "        {}", line.trim_start());
                }
            }
        }
        let _ = writeln!(text, "        hash {}", hex::encode(e.hash));
    }
    for (size, _) in log.checkpoints()? {
        if size > skip as u64 {
            let _ = writeln!(text, "{}", msg!(S::SCR_AUDIT_SHOW_CHECKPOINT, size = size));
        }
    }
    say_raw!("{text}");
    Ok(())
}

fn export(ctx: &mut Ctx, out: &Path) -> Result<()> {
    let log = AuditLog::open_existing(&ctx.global.db)?;
    let events = log.events()?;
    print_trail_line(&ctx.global.db, &events);
    let cps = log.checkpoints()?;
    fsio::write_atomic_with(out, |f| {
        let mut w = std::io::BufWriter::new(f);
        for e in events.iter() {
            let mut v = serde_json::to_value(e).expect("events serialise");
            v["type"] = "event".into();
            serde_json::to_writer(&mut w, &v)?;
            w.write_all(b"\n")?;
        }
        for (size, note) in &cps {
            serde_json::to_writer(
                &mut w,
                &serde_json::json!({"type": "checkpoint", "size": size, "note": note}),
            )?;
            w.write_all(b"\n")?;
        }
        w.flush()
    })?;
    say!(
        "{}",
        msg!(
            S::SCR_AUDIT_EXPORTED,
            events = events.len(),
            checkpoints = cps.len(),
            path = out.display()
        )
    );
    Ok(())
}
