//! `urne-verify`: the verifier third parties install (production, auditors, the regulator). It
//! checks urne's published outputs with the public keys it is given, and nothing else: it links
//! the `urne-verify` library and clap only, reads the files it is named, writes nothing, and
//! can never produce a result.
//!
//! It verifies what `urne verify` verifies (spec/formats.md §8), with one rule more: the keys are
//! required. `--keys DIR` names them explicitly, wherever it points; they are never taken from
//! the folder verified, the PATH or an appliance's configuration, and the verdict prints the
//! key ids used, to be compared with the key ceremony's minutes. Auditor mode (`--export`) names
//! production's key explicitly too (`--producer-key PEM`). The verdict is the library's
//! (`urne_verify::verify::verdict`), so it reads as `urne verify`'s; the exit codes are the same
//! (spec/formats.md §8.1): 0 verified, 1 a verification failure (with its class), 2 a usage mistake or
//! an unreadable file.

#![forbid(unsafe_code)]

use clap::Parser;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use urne_verify::crypto::keys::{key_id, public_key_from_pem};
use urne_verify::verify::disk::DiskFolder;
use urne_verify::verify::draw_folder::Auditor;
use urne_verify::verify::folder::{Folder, limits, read_bounded};
use urne_verify::verify::lone::{verify_lone_commitment, verify_lone_result};
use urne_verify::verify::outputs::{check_held, is_output, verify_output, verify_outputs};
use urne_verify::verify::proof::verify_proof_file;
use urne_verify::verify::signed::{self, Keys};
use urne_verify::verify::trail::AuditKey;
use urne_verify::verify::trail_export::verify_trail_export;
use urne_verify::verify::verdict::{self, Line, keys_line, printable};
use urne_verify::verify::{Expect, Failure, Report};

/// The largest producer key file read (a PEM public key is about 113 bytes).
const KEY_FILE_LIMIT: u64 = 64 * 1024;

/// Verify urne's published outputs with the public keys you were given.
///
/// PATH is an output folder (a draw, a block, a void notice, a sitting), a folder of such
/// folders (a whole operation's publications, verified output by output and then as one linear
/// history of the trail: a fork fails), a proof file, production's lone result.json or a lone
/// block commitment, or an exported audit trail (FILE.jsonl of `urne audit export`).
///
/// The keys are required: --keys DIR holding result.pub.pem and audit.pub.pem, obtained
/// independently of the outputs (the key ceremony's publication). They are never taken from the
/// folder verified. The verdict ends with their key ids: compare them with the key ceremony's
/// minutes.
///
/// Exit 0 when all holds (`partial:` lines name what could not be checked from the files
/// given), 1 naming the first thing that does not (`verification failed (CLASS): …`), 2 for a
/// usage mistake or an unreadable file.
#[derive(Debug, Parser)]
#[command(name = "urne-verify", version)]
struct Args {
    /// An output folder, a folder of output folders, a proof file, a lone result.json or
    /// block commitment, or an exported audit trail (FILE.jsonl).
    path: PathBuf,
    /// Folder with result.pub.pem and audit.pub.pem obtained independently (required).
    #[arg(long, value_name = "DIR")]
    keys: Option<PathBuf>,
    /// Auditor mode: the signed export the draw was sealed from (FILE.jsonl.sig beside it); the
    /// entries are recomputed from it. Needs --producer-key.
    #[arg(long, value_name = "FILE.jsonl")]
    export: Option<PathBuf>,
    /// Production's export key trusted for --export (PEM; repeatable; required with --export).
    #[arg(long = "producer-key", value_name = "PEM")]
    producer_keys: Vec<PathBuf>,
    /// For a proof file: the published draw folder whose commitment it must match.
    #[arg(long, value_name = "DIR")]
    published: Option<PathBuf>,
    /// A signed checkpoint held outside the appliance, such as the one copied into the minutes
    /// (repeatable): outputs must extend it (spec/formats.md §8.4), an audit export must hold it (spec/formats.md §6.4).
    #[arg(long, value_name = "FILE")]
    checkpoint: Vec<PathBuf>,
    /// For an audit export: also fail when the last events are not yet covered by a signed
    /// checkpoint.
    #[arg(long)]
    strict: bool,
    /// The day (YYYY-MM-DD) the outputs must be of: folder names are not signed (spec/formats.md §8.1).
    #[arg(long = "expect-day", value_name = "YYYY-MM-DD")]
    expect_day: Option<String>,
    /// The block (canonical id) the outputs must be of (spec/formats.md §8.1).
    #[arg(long = "expect-block", value_name = "ID")]
    expect_block: Option<String>,
}

/// What stopped the verifier, by identity: its stable id, printed in the `error[<id>]:` line, and
/// its exit code, a property of the kind. The ids are the appliance's for the same failures
/// (spec/appliance.md §10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// An output does not verify (exit 1; the message names the class of spec/formats.md §8.1).
    VerificationFailed,
    /// An exported trail does not verify (exit 1).
    TrailVerificationFailed,
    /// Arguments that do not go together (exit 2).
    Usage,
    /// The verdict could not be written to standard output (exit 2).
    StdoutClosed,
    /// No `--keys`, or keys that do not load (exit 2).
    KeysInvalid,
    /// A path that is not an output, or not one output where one is needed (exit 2).
    NotAnOutput,
    /// Auditor mode without production's public key (exit 2).
    NoProducerKey,
    /// A producer key file that does not read as a public key (exit 2).
    ProducerKeyInvalid,
    /// A file that cannot be read (exit 2).
    VerifyInput,
    /// A file named to be read is not there (exit 2).
    NoSuchFile,
}

impl Kind {
    #[cfg(test)]
    const ALL: &'static [Kind] = &[
        Kind::VerificationFailed,
        Kind::TrailVerificationFailed,
        Kind::Usage,
        Kind::StdoutClosed,
        Kind::KeysInvalid,
        Kind::NotAnOutput,
        Kind::NoProducerKey,
        Kind::ProducerKeyInvalid,
        Kind::VerifyInput,
        Kind::NoSuchFile,
    ];

    /// The stable id printed in the `error[<id>]:` line.
    fn id(self) -> &'static str {
        match self {
            Kind::VerificationFailed => "verification-failed",
            Kind::TrailVerificationFailed => "trail-verification-failed",
            Kind::Usage => "usage",
            Kind::StdoutClosed => "stdout-closed",
            Kind::KeysInvalid => "keys-invalid",
            Kind::NotAnOutput => "not-an-output",
            Kind::NoProducerKey => "no-producer-key",
            Kind::ProducerKeyInvalid => "producer-key-invalid",
            Kind::VerifyInput => "verify-input",
            Kind::NoSuchFile => "no-such-file",
        }
    }

    /// The exit code: 1 when a verification ran and found what does not hold, 2 when nothing
    /// was verified.
    fn code(self) -> u8 {
        match self {
            Kind::VerificationFailed | Kind::TrailVerificationFailed => 1,
            _ => 2,
        }
    }
}

/// Why nothing was verified (exit 2) or what does not hold (exit 1), as `error[<id>]:` and `hint:`.
#[derive(Debug)]
struct Refused {
    kind: Kind,
    message: String,
    hint: String,
}

impl Refused {
    fn new(kind: Kind, message: impl Into<String>, hint: impl Into<String>) -> Self {
        Refused {
            kind,
            message: message.into(),
            hint: hint.into(),
        }
    }
}

impl From<Failure> for Refused {
    fn from(f: Failure) -> Self {
        let r = verdict::refusal(f);
        let kind = if r.verification {
            Kind::VerificationFailed
        } else {
            Kind::VerifyInput
        };
        Refused::new(kind, r.message, r.hint)
    }
}

type Outcome<T> = Result<T, Refused>;

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args).and_then(|lines| print(&lines)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(r) => {
            let mut e = std::io::stderr().lock();
            let _ = writeln!(e, "error[{}]: {}", r.kind.id(), printable(&r.message));
            let _ = writeln!(e, "hint: {}", r.hint);
            ExitCode::from(r.kind.code())
        }
    }
}

/// Prints the verdict: its lines on standard output, the notes on standard error. A verdict
/// that cannot be written is not a verdict (exit 2).
fn print(lines: &[Line]) -> Outcome<()> {
    let mut out = std::io::stdout().lock();
    for l in lines {
        match l {
            Line::Out(s) => writeln!(out, "{s}").map_err(|e| {
                Refused::new(
                    Kind::StdoutClosed,
                    format!("cannot write to standard output: {e}"),
                    "the verdict was not written; run it again with standard output to a terminal or a file with room",
                )
            })?,
            Line::Note(s) => {
                let _ = writeln!(std::io::stderr().lock(), "{s}");
            }
        }
    }
    out.flush().map_err(|e| {
        Refused::new(
            Kind::StdoutClosed,
            format!("cannot write to standard output: {e}"),
            "the verdict was not written",
        )
    })
}

/// The verdict on `a.path`, as lines.
#[expect(
    clippy::case_sensitive_file_extension_comparisons,
    reason = "output names are exact (spec/formats.md §4.7): `urne verify` recognises `.jsonl` alike"
)]
fn run(a: &Args) -> Outcome<Vec<Line>> {
    let Some(keys_dir) = a.keys.as_deref() else {
        return Err(Refused::new(
            Kind::KeysInvalid,
            "no --keys: urne-verify checks outputs only against public keys given explicitly",
            "pass --keys DIR holding result.pub.pem and audit.pub.pem obtained independently of the outputs (the key ceremony's publication), never the folder verified",
        ));
    };
    check_expect(a)?;
    let name = a
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if a.path.is_file() {
        if name.ends_with(".jsonl") {
            return verify_trail_file(a, keys_dir);
        }
        let keys = load_keys(keys_dir)?;
        let mut lines = if name == "result.json" || name.ends_with(".commit.json") {
            verify_lone(a, &name, &keys)?
        } else {
            verify_proof(a, &name, &keys)?
        };
        lines.push(keys_line(&keys, &[]));
        return Ok(lines);
    }
    if !a.path.is_dir() {
        return Err(Refused::new(
            Kind::NotAnOutput,
            format!(
                "{} is neither a folder of outputs nor an output file",
                a.path.display()
            ),
            "give an output folder of `urne draw`, `urne block generate` or `urne ceremony`, a folder of such folders, a proof, result.json, a block commitment or an exported trail",
        ));
    }
    let keys = load_keys(keys_dir)?;
    let (report, producer) = verify_folder(a, &keys)?;
    let mut lines = verdict::report_lines(&a.path.display().to_string(), &report);
    lines.push(keys_line(&keys, &producer));
    Ok(lines)
}

/// `--expect-day` and `--expect-block` as `urne verify` takes them.
fn check_expect(a: &Args) -> Outcome<()> {
    if a.expect_day.is_some() && a.expect_block.is_some() {
        return Err(Refused::new(
            Kind::Usage,
            "--expect-day and --expect-block together: an output is a day's or a block's",
            "give the one that names the output you verify",
        ));
    }
    let name = a.path.file_name().unwrap_or_default().to_string_lossy();
    let output = name == "result.json" || name.ends_with(".commit.json");
    if a.path.is_file() && (a.expect_day.is_some() || a.expect_block.is_some()) && !output {
        return Err(Refused::new(
            Kind::Usage,
            "--expect-day and --expect-block check an output folder, a result.json or a block commitment, not a proof or an audit export",
            "leave them out",
        ));
    }
    Ok(())
}

fn expect(a: &Args) -> Expect {
    Expect {
        day: a.expect_day.clone(),
        block: a.expect_block.clone(),
    }
}

/// The public keys of `--keys DIR`.
fn load_keys(dir: &Path) -> Outcome<Keys> {
    signed::load_keys(&DiskFolder::open(dir)).map_err(|f| {
        Refused::new(
            Kind::KeysInvalid,
            f.what,
            "pass --keys DIR holding result.pub.pem and audit.pub.pem (from `urne keys export`)",
        )
    })
}

/// An output folder, or a folder of outputs: its report, and the producer keys of auditor mode.
fn verify_folder(a: &Args, keys: &Keys) -> Outcome<(Report, Vec<[u8; 32]>)> {
    let folder = DiskFolder::open(&a.path);
    let mut producer = vec![];
    let report = if is_output(&folder) {
        let export = a.export.as_deref().map(DiskFolder::of_file);
        let auditor = match &export {
            Some((f, n)) => {
                producer = producer_keys(a)?;
                Some(Auditor {
                    folder: f,
                    name: n.clone(),
                    producer_keys: producer.clone(),
                })
            }
            None => None,
        };
        verify_output(&folder, keys, auditor.as_ref(), &expect(a))?
    } else {
        if a.export.is_some() || a.expect_day.is_some() || a.expect_block.is_some() {
            return Err(Refused::new(
                Kind::NotAnOutput,
                format!(
                    "{} is not one output: --export, --expect-day and --expect-block check one output",
                    a.path.display()
                ),
                "give the output's own folder",
            ));
        }
        verify_outputs(&folder, keys, &expect(a))?
    };
    check_held(&report.outputs, &held(a)?, keys)?;
    Ok((report, producer))
}

/// The producer keys given for `--export`: at least one, or a usage error (exit 2).
fn producer_keys(a: &Args) -> Outcome<Vec<[u8; 32]>> {
    let hint =
        "pass --producer-key PEM (production's export key, obtained from production) with --export";
    if a.producer_keys.is_empty() {
        return Err(Refused::new(
            Kind::NoProducerKey,
            "auditor mode needs production's public key: no trusted producer key",
            hint,
        ));
    }
    a.producer_keys
        .iter()
        .map(|p| {
            let pem = read_input(p, KEY_FILE_LIMIT)?;
            public_key_from_pem(&String::from_utf8_lossy(&pem)).map_err(|e| {
                Refused::new(
                    Kind::ProducerKeyInvalid,
                    format!(
                        "auditor mode needs production's public key: producer key {}: {e}",
                        p.display()
                    ),
                    hint,
                )
            })
        })
        .collect()
}

/// A file named on the command line (a key, a checkpoint), read through its links, at most
/// `limit` bytes.
fn read_input(p: &Path, limit: u64) -> Outcome<Vec<u8>> {
    let unreadable = |e: &dyn std::fmt::Display| {
        Refused::new(
            Kind::VerifyInput,
            format!("cannot read {}: {e}", p.display()),
            "check the path and its permissions; nothing was verified",
        )
    };
    let f = std::fs::File::open(p).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            // As `urne verify` says it (spec/appliance.md §10).
            Refused::new(
                Kind::NoSuchFile,
                format!("no such file: {}", p.display()),
                "check the path (relative paths are from the working directory) and that the medium is mounted",
            )
        } else {
            unreadable(&e)
        }
    })?;
    let mut bytes = vec![];
    f.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| unreadable(&e))?;
    if bytes.len() as u64 > limit {
        return Err(unreadable(&format!("larger than {limit} bytes")));
    }
    Ok(bytes)
}

/// The checkpoints held outside the appliance, as (name, text).
fn held(a: &Args) -> Outcome<Vec<(String, String)>> {
    a.checkpoint
        .iter()
        .map(|p| {
            let bytes = read_input(p, limits::NOTE)?;
            // Not UTF-8: it cannot be a note the audit key signed; it fails its signature
            // check (spec/formats.md §8.4).
            Ok((
                p.display().to_string(),
                String::from_utf8_lossy(&bytes).into_owned(),
            ))
        })
        .collect()
}

/// Production's lone `result.json`, or a lone block commitment (spec/formats.md §8.5).
fn verify_lone(a: &Args, name: &str, keys: &Keys) -> Outcome<Vec<Line>> {
    let (folder, _) = DiskFolder::of_file(&a.path);
    let report = if name == "result.json" {
        verify_lone_result(&folder, name, keys)
    } else {
        verify_lone_commitment(&folder, name, keys)
    }
    .and_then(|r| expect(a).check(&r).map(|()| r))?;
    check_held(&report.outputs, &held(a)?, keys)?;
    Ok(verdict::report_lines(
        &a.path.display().to_string(),
        &report,
    ))
}

/// A proof file: an account's inclusion proof (spec/formats.md §8.3) or a ticket proof (spec/formats.md §5.B9).
fn verify_proof(a: &Args, name: &str, keys: &Keys) -> Outcome<Vec<Line>> {
    let published = a.published.as_deref().map(DiskFolder::open);
    let published = published.as_ref().map(|p| p as &dyn Folder);
    let (folder, _) = DiskFolder::of_file(&a.path);
    let proven = verify_proof_file(&folder, name, published, keys)?;
    Ok(verdict::proof_lines(
        &a.path.display().to_string(),
        &proven,
        a.published.is_some(),
    ))
}

/// An exported audit trail (`urne audit export`, spec/formats.md §6.4), checked under the audit key of
/// `--keys DIR`: anchored by that key, never by the key the trail records itself.
fn verify_trail_file(a: &Args, keys_dir: &Path) -> Outcome<Vec<Line>> {
    let key = signed::load_key(&DiskFolder::open(keys_dir), "audit.pub.pem").map_err(|f| {
        Refused::new(
            Kind::KeysInvalid,
            f.what,
            "give the folder written by `urne keys export` (it holds audit.pub.pem)",
        )
    })?;
    let held: Vec<(PathBuf, String)> = held(a)?
        .into_iter()
        .map(|(p, t)| (PathBuf::from(p), t))
        .collect();
    let (folder, name) = DiskFolder::of_file(&a.path);
    // An exported trail is an output like any other: not a regular file, or over its limit,
    // is `malformed` (spec/formats.md §1.6).
    let bytes = read_bounded(&folder, &name, limits::AUDIT_EXPORT)
        .map_err(|f| {
            if f.class.is_verification() {
                // An exported trail that cannot be read as one fails as a trail, as in `urne
                // verify` (spec/appliance.md §10).
                Refused {
                    kind: Kind::TrailVerificationFailed,
                    ..Refused::from(f)
                }
            } else {
                Refused::new(
                    Kind::VerifyInput,
                    f.what,
                    "check the path and its permissions",
                )
            }
        })?
        .ok_or_else(|| {
            Refused::new(
                Kind::NoSuchFile,
                format!("cannot read {}: no such file", a.path.display()),
                "check the path and its permissions",
            )
        })?;
    let r = verify_trail_export(
        &a.path.display().to_string(),
        &bytes,
        &held,
        AuditKey::Given(key),
        a.strict,
    )
    .map_err(|f| Refused {
        kind: Kind::TrailVerificationFailed,
        message: format!("verification failed ({}): {}", f.class.name(), f.what),
        hint: "the exported trail was altered, truncated or signed under another key: keep it as evidence and compare it with the checkpoints exported with results".into(),
    })?;
    let mut lines =
        verdict::report_lines(&a.path.display().to_string(), &verdict::trail_report(&r));
    if held.is_empty() {
        lines.push(Line::Note(verdict::cut_short_note(r.events)));
    }
    lines.push(Line::Out(printable(&format!(
        "keys: audit key {} (from {}): compare it with the key ceremony's minutes",
        key_id(&key),
        keys_dir.join("audit.pub.pem").display()
    ))));
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::Kind;

    /// Every id is kebab-case and names one kind; exit 1 is a verification that ran, and its
    /// id says so.
    #[test]
    fn ids_are_unique_kebab_case() {
        let mut seen = std::collections::BTreeSet::new();
        for k in Kind::ALL {
            let id = k.id();
            assert!(
                !id.is_empty()
                    && !id.starts_with('-')
                    && !id.ends_with('-')
                    && !id.contains("--")
                    && id.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{id}"
            );
            assert!(seen.insert(id), "{id} twice");
            assert_eq!(k.code() == 1, id.ends_with("verification-failed"), "{id}");
        }
    }
}
