//! `urne audit verify | show | export` (SPEC.md §6.4). Read-only: these never change the trail.

use super::ctx::Ctx;
use crate::cli::AuditCommand;
use crate::edge::fsio;
use crate::edge::store::AuditLog;
use crate::error::{Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use urne_core::crypto::keys;
use urne_core::verify::trail::{recorded_audit_key, verify_trail};

pub fn run(ctx: &mut Ctx, c: AuditCommand) -> Result<()> {
    match c {
        AuditCommand::Verify {
            checkpoint,
            audit_key,
            strict,
        } => verify(ctx, &checkpoint, audit_key.as_deref(), strict),
        AuditCommand::Show { last } => show(ctx, last),
        AuditCommand::Export { out } => export(ctx, &out),
    }
}

fn verify(ctx: &mut Ctx, held: &[PathBuf], audit_key: Option<&Path>, strict: bool) -> Result<()> {
    let log = AuditLog::open_existing(&ctx.global.db)?;
    let events = log.events()?;
    let stored = log.checkpoints()?;
    let mut held_notes = vec![];
    for p in held {
        let bytes = fsio::read(p)?;
        let text = String::from_utf8(bytes).map_err(|_| {
            Error::bad_input(
                format!("{} is not a text checkpoint", p.display()),
                "give a signed checkpoint note as written by urne",
            )
        })?;
        held_notes.push((p.clone(), text));
    }
    let key = match audit_key {
        Some(p) => Some(
            keys::public_key_from_pem(&String::from_utf8_lossy(&fsio::read(p)?)).map_err(|e| {
                Error::bad_input(
                    format!("{}: {e}", p.display()),
                    "give the audit.pub.pem written by `urne keys export`",
                )
            })?,
        ),
        None => recorded_audit_key(&events),
    };
    let report = verify_trail(&events, &stored, &held_notes, key).map_err(|f| {
        Error::verification(
            format!("audit trail fails at event {}: {}", f.seq, f.reason),
            "the trail was altered or truncated: keep this database as evidence and compare it with the checkpoints exported with results",
        )
    })?;
    let corrupt = log.corrupt_blobs()?;
    if let Some(h) = corrupt.first() {
        let user = events
            .iter()
            .find(|e| e.payload.contains(&hex::encode(h)))
            .map(|e| e.seq)
            .unwrap_or(0);
        return Err(Error::verification(
            format!(
                "audit trail fails at event {user}: the data it references ({}) was altered",
                hex::encode(h)
            ),
            "keep this database as evidence",
        ));
    }
    if strict {
        report.check_strict().map_err(|f| {
            Error::verification(
                format!("audit trail fails at event {}: {}", f.seq, f.reason),
                "run any signing command (e.g. `urne keys export`) to checkpoint them, or investigate if they were not recorded by urne",
            )
        })?;
    }
    println!(
        "audit trail intact: {} events, hash chain verified, {} checkpoint(s) verified{}",
        report.events,
        report.checkpoints,
        match key {
            Some(k) => format!(" with audit key {}", keys::key_id(&k)),
            None => String::new(),
        }
    );
    if report.covered < report.events {
        println!(
            "note: events {}..{} are chained but not yet covered by a signed checkpoint",
            report.covered + 1,
            report.events
        );
    }
    Ok(())
}

fn show(ctx: &mut Ctx, last: Option<usize>) -> Result<()> {
    let log = AuditLog::open_existing(&ctx.global.db)?;
    let events = log.events()?;
    let skip = last.map(|n| events.len().saturating_sub(n)).unwrap_or(0);
    let mut out = std::io::stdout().lock();
    for e in &events[skip..] {
        let _ = writeln!(out, "#{:<5} {}  {}", e.seq, e.ts, e.kind);
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(&e.payload) {
            for line in serde_json::to_string_pretty(&v)
                .unwrap_or_default()
                .lines()
                .skip(1)
            {
                if line != "}" {
                    let _ = writeln!(out, "        {}", line.trim_start());
                }
            }
        }
        let _ = writeln!(out, "        hash {}", hex::encode(e.hash));
    }
    for (size, _) in log.checkpoints()? {
        if size as usize > skip {
            let _ = writeln!(out, "checkpoint signed at size {size}");
        }
    }
    Ok(())
}

fn export(ctx: &mut Ctx, out: &Path) -> Result<()> {
    let log = AuditLog::open_existing(&ctx.global.db)?;
    let events = log.events()?;
    let cps = log.checkpoints()?;
    fsio::write_atomic_with(out, |f| {
        let mut w = std::io::BufWriter::new(f);
        for e in &events {
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
    println!(
        "{} events and {} checkpoints written to {}",
        events.len(),
        cps.len(),
        out.display()
    );
    Ok(())
}
