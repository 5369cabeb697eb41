//! `urne verify PATH`: third-party verification of published outputs (SPEC.md §8). Needs no
//! HSM, no PIN, no audit trail and no private key, and writes nothing: it can never produce a
//! result (design principle 2). The checks are the core's (`urne_core::verify`); this command
//! chooses which, passes what the configuration says (trusted producer keys), and prints.

use super::audit;
use super::ctx::Ctx;
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};
use urne_core::verify::block_folder::{block_commitments, verify_block_folder};
use urne_core::verify::draw_folder::{Auditor, verify_draw_folder};
use urne_core::verify::proof::{Proven, verify_proof_file};
use urne_core::verify::signed::{self, KeyFileError};
use urne_core::verify::trail::AuditKey;
use urne_core::verify::void_notice::verify_void_notice;
use urne_core::verify::{Failure, Report, history};
use urne_core::void_notice::FILE_NAME as VOID_NOTICE;

pub use urne_core::verify::signed::{Keys, read_signed};

/// The arguments of `urne verify`.
pub struct VerifyArgs {
    /// A draw or block folder, or a proof file.
    pub path: PathBuf,
    /// The folder of the public keys obtained independently (default: the ones in the folder).
    pub keys: Option<PathBuf>,
    /// Auditor mode: the signed export the draw was sealed from.
    pub export: Option<PathBuf>,
    /// The producer keys trusted for `export` (default: the configuration's).
    pub producer_keys: Vec<PathBuf>,
    /// For a proof file: the published folder whose commitment it must match.
    pub published: Option<PathBuf>,
    /// For an audit export: the checkpoints held outside the appliance.
    pub checkpoints: Vec<PathBuf>,
    /// For an audit export: events after the last checkpoint are a failure.
    pub strict: bool,
}

/// The public keys in `keys_dir`, else in `fallback` (the folder being verified, with a note
/// that this proves consistency, not origin).
pub fn load_keys(keys_dir: Option<&Path>, fallback: &Path) -> Result<Keys> {
    let dir = keys_dir.unwrap_or(fallback);
    if keys_dir.is_none() {
        eprintln!(
            "note: using the public keys found in {}; pass --keys DIR with keys obtained independently to rule out a substituted key",
            dir.display()
        );
    }
    signed::load_keys(dir).map_err(|e| match e {
        KeyFileError::Read { .. } => Error::bad_input(
            e.to_string(),
            "pass --keys DIR holding result.pub.pem and audit.pub.pem (from `urne keys export`)",
        ),
        KeyFileError::Pem { .. } => {
            Error::bad_input(e.to_string(), "give the PEM files `urne keys export` wrote")
        }
    })
}

fn to_error(f: Failure) -> Error {
    Error::verification(
        format!("verification failed ({}): {}", f.class.name(), f.what),
        "do not use these outputs; keep them as evidence and compare their hashes with the minutes",
    )
}

/// `VERIFIED: DIR` and the checks done.
fn print_report(dir: &Path, report: &Report) {
    println!("VERIFIED: {}", dir.display());
    for d in &report.checks {
        println!("  ok  {d}");
    }
}

/// `urne verify PATH`.
pub fn run(ctx: &mut Ctx, a: VerifyArgs) -> Result<()> {
    if a.path.is_file() && a.path.extension().is_some_and(|x| x == "jsonl") {
        return verify_trail_file(&a);
    }
    if a.path.is_file() {
        return verify_proof(&a);
    }
    if !a.path.is_dir() {
        return Err(Error::bad_input(
            format!(
                "{} is neither a folder of outputs nor a proof file",
                a.path.display()
            ),
            "give the --out folder of `urne draw` or `urne block generate`, or a proof file",
        ));
    }
    for name in crate::edge::fsio::staging_leftovers(&a.path) {
        eprintln!(
            "note: {} is the staging folder of an interrupted command: its files are not outputs and are not checked",
            a.path.join(name).display()
        );
    }
    if is_output(&a.path) {
        let (report, keys) = verify_one(ctx, &a, &a.path)?;
        let notes = history::check_linear(&report.outputs, false).map_err(to_error)?;
        check_held(&a, &keys, &report.outputs)?;
        print_report(&a.path, &report);
        print_notes(&notes);
        return Ok(());
    }
    verify_outputs_folder(ctx, &a)
}

/// Whether `dir` is one output folder: a draw's (`bundle.json`), a block folder, or a void
/// notice's (`void-notice.json`, alone or beside one of the others).
fn is_output(dir: &Path) -> bool {
    dir.join("bundle.json").exists() || has_blocks(dir) || dir.join(VOID_NOTICE).exists()
}

fn has_blocks(dir: &Path) -> bool {
    block_commitments(dir).is_ok_and(|c| !c.is_empty())
}

fn print_notes(notes: &[String]) {
    for n in notes {
        println!("  note {n}");
    }
}

/// One output folder, draw or block, and the void notice it holds, if any; returns its report
/// and the keys it was checked with.
fn verify_one(ctx: &mut Ctx, a: &VerifyArgs, dir: &Path) -> Result<(Report, Keys)> {
    let (mut report, keys) = if dir.join("bundle.json").exists() {
        verify_draw_dir(ctx, a, dir)?
    } else if has_blocks(dir) {
        verify_block_dir(a, dir)?
    } else if a.export.is_some() {
        return Err(Error::bad_input(
            format!(
                "{} is not a draw folder: --export checks a draw",
                dir.display()
            ),
            "give the draw's own folder with --export",
        ));
    } else {
        (Report::default(), load_keys(a.keys.as_deref(), dir)?)
    };
    if dir.join(VOID_NOTICE).exists() {
        let r = verify_void_notice(dir, &keys).map_err(to_error)?;
        report.checks.extend(r.checks);
        report.outputs.extend(r.outputs);
    }
    Ok((report, keys))
}

/// A folder whose immediate subfolders are outputs (a whole operation's publications, SPEC.md
/// §8.4): each verified, then together one linear history of one trail.
fn verify_outputs_folder(ctx: &mut Ctx, a: &VerifyArgs) -> Result<()> {
    let mut subs: Vec<PathBuf> = std::fs::read_dir(&a.path)
        .map_err(|e| crate::error::io_error("read", &a.path, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir() && is_output(p))
        .collect();
    subs.sort();
    if subs.is_empty() {
        return Err(Error::bad_input(
            format!(
                "{} holds no urne outputs (no bundle.json, no block commitment, no void notice, no folder of outputs)",
                a.path.display()
            ),
            "give the --out folder of `urne draw` or `urne block generate`, or a folder of such folders",
        ));
    }
    if a.export.is_some() {
        return Err(Error::bad_input(
            "--export checks one draw folder, not a folder of outputs",
            "give the draw's own folder with --export",
        ));
    }
    let mut all = vec![];
    let mut keys = None;
    let mut lines = vec![];
    for sub in &subs {
        let (report, k) = verify_one(ctx, a, sub)?;
        lines.push(format!("{}: {} checks", sub.display(), report.checks.len()));
        all.extend(report.outputs);
        keys.get_or_insert(k);
    }
    history::check_linear(&all, true).map_err(to_error)?;
    if let Some(k) = &keys {
        check_held(a, k, &all)?;
    }
    lines.push(format!(
        "one linear history: {} version-2 outputs of one trail (or of trails linked by witnessed restarts), each extending the one before it",
        all.len()
    ));
    print_report(
        &a.path,
        &Report {
            checks: lines,
            outputs: vec![],
        },
    );
    Ok(())
}

/// `--checkpoint NOTE` for outputs: each note held outside the appliance (copied into the
/// minutes) verifies under the audit key and lies on the history of the outputs (SPEC.md §8.4).
fn check_held(a: &VerifyArgs, keys: &Keys, outputs: &[history::Output]) -> Result<()> {
    if a.checkpoints.is_empty() {
        return Ok(());
    }
    if outputs.is_empty() {
        return Err(Error::bad_input(
            "these outputs are version 1: they carry no history to check a checkpoint against",
            "check the checkpoint against the exported trail: urne verify AUDIT.jsonl --checkpoint NOTE",
        ));
    }
    for (path, note) in audit::read_held(&a.checkpoints)? {
        let cp = urne_core::audit::chain::verify_note(&note, &keys.audit).map_err(|e| {
            to_error(urne_core::verify::fail(
                urne_core::verify::FailureClass::BadSignature,
                format!("checkpoint {}: {e}", path.display()),
            ))
        })?;
        history::check_held(outputs, &path.display().to_string(), &cp).map_err(to_error)?;
    }
    Ok(())
}

/// A daily draw's folder (SPEC.md §8.2), in auditor mode with `--export`.
fn verify_draw_dir(ctx: &mut Ctx, a: &VerifyArgs, dir: &Path) -> Result<(Report, Keys)> {
    let keys = load_keys(a.keys.as_deref(), dir)?;
    let auditor = a.export.as_ref().map(|export| Auditor {
        export: export.clone(),
        producer_keys: super::inputs::trusted_keys(ctx, &a.producer_keys).map_err(|e| e.message),
    });
    let report = verify_draw_folder(dir, &keys, auditor.as_ref()).map_err(to_error)?;
    Ok((report, keys))
}

/// A block folder (SPEC.md §5.B10).
fn verify_block_dir(a: &VerifyArgs, dir: &Path) -> Result<(Report, Keys)> {
    let commits = block_commitments(dir).map_err(|e| crate::error::io_error("read", dir, e))?;
    let keys = load_keys(a.keys.as_deref(), dir)?;
    let report = verify_block_folder(dir, &commits, &keys).map_err(|f| {
        Error::verification(
            format!("verification failed ({}): {}", f.class.name(), f.what),
            "do not use these outputs; keep them as evidence",
        )
    })?;
    Ok((report, keys))
}

/// An exported audit trail (`urne audit export`, SPEC.md §6.4), recognised by its `.jsonl`
/// name as the Python verifier does; the audit key is `--keys DIR`'s audit.pub.pem.
fn verify_trail_file(a: &VerifyArgs) -> Result<()> {
    let key = match &a.keys {
        Some(dir) => AuditKey::Given(audit::read_audit_key(&dir.join("audit.pub.pem"))?),
        None => {
            audit::note_recorded_key("pass --keys DIR holding audit.pub.pem");
            AuditKey::Recorded
        }
    };
    let held = audit::read_held(&a.checkpoints)?;
    let r = audit::verify_export_file(&a.path, &held, key, a.strict)?;
    let mut checks = vec![format!(
        "{} audit events chained (1..{})",
        r.events, r.events
    )];
    if let Some(k) = r.key {
        checks.push(format!(
            "{} checkpoint(s) verify under the audit key {}",
            r.checkpoints,
            urne_core::crypto::keys::key_id(&k)
        ));
    }
    if r.covered < r.events {
        checks.push(format!(
            "events {}..{} chained, not yet covered by a checkpoint",
            r.covered + 1,
            r.events
        ));
    }
    print_report(
        &a.path,
        &Report {
            checks,
            outputs: vec![],
        },
    );
    Ok(())
}

/// A proof file: an account's inclusion proof (SPEC.md §8.3) or a ticket proof (§5.B9).
fn verify_proof(a: &VerifyArgs) -> Result<()> {
    let dir = a.path.parent().map(Path::to_path_buf).unwrap_or_default();
    let keys = load_keys(a.keys.as_deref(), a.published.as_deref().unwrap_or(&dir))?;
    match verify_proof_file(&a.path, a.published.as_deref(), &keys).map_err(to_error)? {
        Proven::Ticket(p) => println!(
            "VERIFIED: ticket {} of block {} is in the committed outcomes (root {}): {}",
            p.position, p.block, p.outcomes_root, p.row
        ),
        Proven::Draw(p) => println!(
            "VERIFIED: account {} had {} entr{} in the sealed draw of {} (leaf {} of {}, commitment {}){}",
            p.account,
            p.entries,
            if p.entries == 1 { "y" } else { "ies" },
            p.day,
            p.leaf,
            p.commitment.leaves,
            p.commitment.root,
            if a.published.is_some() {
                ", the published one"
            } else {
                ""
            }
        ),
    }
    Ok(())
}
