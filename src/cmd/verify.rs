//! `urne verify PATH`: third-party verification of published outputs (spec/formats.md §8). Needs no
//! HSM, no PIN, no audit trail and no private key, and writes nothing: it can never produce a
//! result (design principle 2). The checks are the library's (`urne_verify::verify`, step by step
//! as the spec numbers them); this command only reads files (within their limits, spec/formats.md
//! §1.6, through [`DiskFolder`]) and prints. The keys follow the rule of the `urne-verify` binary
//! (spec/formats.md §8.1): `--keys DIR` is required, never taken from the folder verified, the
//! appliance's token or its configuration, and auditor mode names production's key with
//! `--producer-key`; the verdict ends with the ids of the keys used.

use super::audit;
use crate::edge::folder::DiskFolder;
use crate::error::{Error, Kind, Result};
use std::path::{Path, PathBuf};
use urne_verify::verify::draw_folder::Auditor;
use urne_verify::verify::folder::Folder;
use urne_verify::verify::lone::{verify_lone_commitment, verify_lone_result};
use urne_verify::verify::outputs::{check_held, is_output, verify_output, verify_outputs};
use urne_verify::verify::proof::verify_proof_file;
use urne_verify::verify::signed;
use urne_verify::verify::trail::AuditKey;
use urne_verify::verify::verdict::{self, Line};
use urne_verify::verify::{Expect, Failure, Report};

pub use urne_verify::verify::signed::Keys;

/// The arguments of `urne verify`.
pub struct VerifyArgs {
    /// A draw or block folder, a folder of outputs, a proof file, a lone result or commitment,
    /// or an exported trail.
    pub path: PathBuf,
    /// The folder of the public keys obtained independently (required: a usage error without).
    pub keys: Option<PathBuf>,
    /// Auditor mode: the signed export the draw was sealed from.
    pub export: Option<PathBuf>,
    /// The producer keys trusted for `export` (required with it: never the configuration's).
    pub producer_keys: Vec<PathBuf>,
    /// For a proof file: the published folder whose commitment it must match.
    pub published: Option<PathBuf>,
    /// Checkpoints held outside the appliance.
    pub checkpoints: Vec<PathBuf>,
    /// For an audit export: events after the last checkpoint are a failure.
    pub strict: bool,
    /// The day or block the outputs must be of.
    pub expect: Expect,
}

/// The folder `--keys DIR` names: required, as by the `urne-verify` binary (a usage error, exit 2,
/// without it). Keys shipped with the outputs would show that the files agree with each other,
/// not that this appliance made them (spec/formats.md §8.1).
fn keys_dir(a: &VerifyArgs) -> Result<&Path> {
    a.keys.as_deref().ok_or_else(|| {
        Error::new(
            Kind::KeysInvalid,
            "no --keys: urne verify checks outputs only against public keys given explicitly",
            "pass --keys DIR holding result.pub.pem and audit.pub.pem obtained independently of the outputs (the key ceremony's publication, `urne keys export`), never the folder verified",
        )
    })
}

/// The public keys of `--keys DIR`.
pub fn load_keys(dir: &Path) -> Result<Keys> {
    signed::load_keys(&DiskFolder::open(dir)).map_err(|f| {
        Error::new(
            Kind::KeysInvalid,
            f.what,
            "pass --keys DIR holding result.pub.pem and audit.pub.pem (from `urne keys export`)",
        )
    })
}

/// A failure as the command's error: a verification failure (exit 1) names its class; a usage
/// mistake or an unreadable file is exit 2 (the words are the library's, `verdict::refusal`).
fn to_error(f: Failure) -> Error {
    let r = verdict::refusal(f);
    if r.verification {
        Error::new(Kind::VerificationFailed, r.message, r.hint)
    } else {
        Error::new(Kind::VerifyInput, r.message, r.hint)
    }
}

pub use urne_verify::verify::verdict::printable;

/// Prints the lines of a verdict: the verdict on standard output, the notes on standard error.
pub fn print_lines(lines: &[Line]) {
    for l in lines {
        match l {
            Line::Out(s) => say!("{s}"),
            Line::Note(s) => note!("{s}"),
        }
    }
}

/// What was verified first, then the checks and what could not be checked; the notes (remarks
/// that change nothing) on standard error (`verdict::report_lines`).
fn print_report(path: &Path, report: &Report, keys: &[verdict::Line]) {
    let mut lines = verdict::report_lines(&path.display().to_string(), report);
    lines.extend_from_slice(keys);
    print_lines(&lines);
}

/// `urne verify PATH`.
pub fn run(a: VerifyArgs) -> Result<()> {
    keys_dir(&a)?;
    let name = a
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if a.expect.day.is_some() && a.expect.block.is_some() {
        return Err(Error::new(
            Kind::Usage,
            "--expect-day and --expect-block together: an output is a day's or a block's",
            "give the one that names the output you verify",
        ));
    }
    if a.path.is_file() && (a.expect.day.is_some() || a.expect.block.is_some()) {
        let output = name == "result.json" || name.ends_with(".commit.json");
        if !output {
            return Err(Error::new(
                Kind::Usage,
                "--expect-day and --expect-block check an output folder, a result.json or a block commitment, not a proof or an audit export",
                "leave them out",
            ));
        }
    }
    if a.path.is_file() {
        if name.ends_with(".jsonl") {
            return verify_trail_file(&a);
        }
        if name == "result.json" || name.ends_with(".commit.json") {
            return verify_lone(&a, &name);
        }
        return verify_proof(&a, &name);
    }
    if !a.path.is_dir() {
        return Err(Error::new(
            Kind::NotAnOutput,
            format!(
                "{} is neither a folder of outputs nor an output file",
                a.path.display()
            ),
            "give the --out folder of `urne draw`, `urne block generate` or `urne ceremony`, a folder of such folders, a proof, result.json, a block commitment or an exported trail",
        ));
    }
    // The path given is opened once, through any link in it, and held; nothing below it is
    // followed (spec/formats.md §1.6).
    let folder = DiskFolder::open(&a.path);
    let keys = load_keys(keys_dir(&a)?)?;
    let mut producer = vec![];
    let report = if is_output(&folder) {
        let export = a.export.as_deref().map(export_folder).transpose()?;
        let auditor = match &export {
            Some((f, n)) => {
                producer = producer_keys(&a)?;
                Some(Auditor {
                    folder: f,
                    name: n.clone(),
                    producer_keys: producer.clone(),
                })
            }
            None => None,
        };
        verify_output(&folder, &keys, auditor.as_ref(), &a.expect).map_err(to_error)?
    } else {
        if a.export.is_some() || a.expect.day.is_some() || a.expect.block.is_some() {
            return Err(Error::new(
                Kind::NotAnOutput,
                format!(
                    "{} is not one output: --export, --expect-day and --expect-block check one output",
                    a.path.display()
                ),
                "give the output's own folder",
            ));
        }
        verify_outputs(&folder, &keys, &a.expect).map_err(to_error)?
    };
    check_held(&report.outputs, &held(&a)?, &keys).map_err(to_error)?;
    print_report(&a.path, &report, &[verdict::keys_line(&keys, &producer)]);
    Ok(())
}

/// The folder of the export and its name in it (the export read through its links, its `.sig`
/// not).
fn export_folder(e: &Path) -> Result<(DiskFolder, String)> {
    Ok(DiskFolder::of_file(e))
}

/// The producer keys given for `--export`: at least one, named on the command line (never the
/// configuration's: auditor mode names its key explicitly), or a usage error (exit 2).
fn producer_keys(a: &VerifyArgs) -> Result<Vec<[u8; 32]>> {
    let hint =
        "pass --producer-key PEM (production's export key, obtained from production) with --export";
    if a.producer_keys.is_empty() {
        return Err(Error::new(
            Kind::NoProducerKey,
            "auditor mode needs production's public key: no trusted producer key",
            hint,
        ));
    }
    super::inputs::key_files(&a.producer_keys).map_err(|e| {
        Error::new(
            e.kind,
            format!("auditor mode needs production's public key: {}", e.message),
            hint,
        )
    })
}

/// The checkpoints held outside the appliance, as (name, text).
fn held(a: &VerifyArgs) -> Result<Vec<(String, String)>> {
    Ok(audit::read_held(&a.checkpoints)?
        .into_iter()
        .map(|(p, t)| (p.display().to_string(), t))
        .collect())
}

/// Production's lone `result.json`, or a lone block commitment (spec/formats.md §8.5).
fn verify_lone(a: &VerifyArgs, name: &str) -> Result<()> {
    let keys = load_keys(keys_dir(a)?)?;
    let (folder, _) = DiskFolder::of_file(&a.path);
    let report = if name == "result.json" {
        verify_lone_result(&folder, name, &keys)
    } else {
        verify_lone_commitment(&folder, name, &keys)
    }
    .and_then(|r| a.expect.check(&r).map(|()| r))
    .map_err(to_error)?;
    check_held(&report.outputs, &held(a)?, &keys).map_err(to_error)?;
    print_report(&a.path, &report, &[verdict::keys_line(&keys, &[])]);
    Ok(())
}

/// An exported audit trail (`urne audit export`, spec/formats.md §6.4), recognised by its `.jsonl`
/// name as the Python verifier does, checked under the audit key of `--keys DIR` (a link there is
/// not followed, spec/formats.md §1.6): anchored by that key, never by the key the trail records.
fn verify_trail_file(a: &VerifyArgs) -> Result<()> {
    let dir = keys_dir(a)?;
    let key = audit::exported_audit_key(dir)?;
    let held = audit::read_held(&a.checkpoints)?;
    let r = audit::verify_export_file(&a.path, &held, AuditKey::Given(key), a.strict)?;
    print_report(&a.path, &verdict::trail_report(&r), &[]);
    if held.is_empty() {
        audit::note_cut_short(r.events);
    }
    say!(
        "{}",
        printable(&format!(
            "keys: audit key {} (from {}): compare it with the key ceremony's minutes",
            urne_verify::crypto::keys::key_id(&key),
            dir.join("audit.pub.pem").display()
        ))
    );
    Ok(())
}

/// A proof file: an account's inclusion proof (spec/formats.md §8.3) or a ticket proof
/// (spec/formats.md §5.B9).
fn verify_proof(a: &VerifyArgs, name: &str) -> Result<()> {
    let keys = load_keys(keys_dir(a)?)?;
    let published = a.published.as_deref().map(DiskFolder::open);
    let published = published.as_ref().map(|p| p as &dyn Folder);
    let (folder, _) = DiskFolder::of_file(&a.path);
    let proven = verify_proof_file(&folder, name, published, &keys).map_err(to_error)?;
    let mut lines = verdict::proof_lines(
        &a.path.display().to_string(),
        &proven,
        a.published.is_some(),
    );
    lines.push(verdict::keys_line(&keys, &[]));
    print_lines(&lines);
    Ok(())
}
