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
use urne_core::verify::{Failure, Report};

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
    if a.path.join("bundle.json").exists() {
        return verify_draw_dir(ctx, &a);
    }
    verify_block_dir(&a)
}

/// A daily draw's folder (SPEC.md §8.2), in auditor mode with `--export`.
fn verify_draw_dir(ctx: &mut Ctx, a: &VerifyArgs) -> Result<()> {
    let dir = &a.path;
    let keys = load_keys(a.keys.as_deref(), dir)?;
    let auditor = a.export.as_ref().map(|export| Auditor {
        export: export.clone(),
        producer_keys: super::inputs::trusted_keys(ctx, &a.producer_keys).map_err(|e| e.message),
    });
    let report = verify_draw_folder(dir, &keys, auditor.as_ref()).map_err(to_error)?;
    print_report(dir, &report);
    Ok(())
}

/// A block folder (SPEC.md §5.B10).
fn verify_block_dir(a: &VerifyArgs) -> Result<()> {
    let dir = &a.path;
    let commits = block_commitments(dir).map_err(|e| crate::error::io_error("read", dir, e))?;
    if commits.is_empty() {
        return Err(Error::bad_input(
            format!(
                "{} holds no urne outputs (no bundle.json, no block commitment)",
                dir.display()
            ),
            "give the --out folder of `urne draw` or `urne block generate`",
        ));
    }
    let keys = load_keys(a.keys.as_deref(), dir)?;
    let report = verify_block_folder(dir, &commits, &keys).map_err(|f| {
        Error::verification(
            format!("verification failed ({}): {}", f.class.name(), f.what),
            "do not use these outputs; keep them as evidence",
        )
    })?;
    print_report(dir, &report);
    Ok(())
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
    print_report(&a.path, &Report { checks });
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
