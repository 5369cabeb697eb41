//! The verifier of urne's published outputs as a command: its arguments ([`Args`]), what it checks
//! and the verdict it prints ([`run`]), and why it stops ([`Refused`], [`Kind`]). The
//! `urne-verify` binary third parties install is this library and `main`; the appliance's
//! `urne verify` runs it too, so the two cannot drift: same arguments, same rule on keys, same
//! verdict, same error ids and exit codes. It links the `urne-verify` library and clap only.
//!
//! The keys are required (spec/formats.md §8.1 [M-341]): `--keys DIR` names them explicitly,
//! wherever it points; they are never taken from the folder verified, the PATH or an appliance's
//! configuration, and the verdict ends with the key ids used, to be compared with the key
//! ceremony's minutes. Auditor mode (`--export`) names production's key explicitly too
//! (`--producer-key PEM`). Exit codes (spec/formats.md §8.1): 0 verified, 1 a verification failure
//! (with its class), 2 a usage mistake or an unreadable file.
//!
//! Files are opened through a [`Disk`]: [`PlainDisk`] here, the appliance's descriptor-held
//! folders in `urne verify`. Either way a name that is not a regular file is never read, and a
//! FIFO is refused, never waited on (spec/formats.md §1.6).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod kind;
pub mod usage;

pub use kind::{Kind, Refused};

use clap::Parser;
use std::path::{Path, PathBuf};
use urne_verify::crypto::keys::{key_id, public_key_from_pem};
use urne_verify::values::{BlockId, Day};
use urne_verify::verify::disk::DiskFolder;
use urne_verify::verify::draw_folder::Auditor;
use urne_verify::verify::folder::{Folder, limits, read_bounded};
use urne_verify::verify::lone::{verify_lone_commitment, verify_lone_result};
use urne_verify::verify::outputs::{check_held, is_output, verify_output, verify_outputs};
use urne_verify::verify::proof::{
    Proven, has_signature, is_proofs_file, unsigned_needs_published, verify_proof_file,
    verify_proofs_file,
};
use urne_verify::verify::release::{ReleaseError, Releases, judge_all, not_released, read_release};
use urne_verify::verify::signed::{self, Keys};
use urne_verify::verify::ticket_derive::derive_ticket_proof;
use urne_verify::verify::trail::AuditKey;
use urne_verify::verify::trail_export::verify_trail_export;
use urne_verify::verify::verdict::{self, Line, keys_line, printable};
use urne_verify::verify::{Expect, Report};

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
/// folder verified. The first line names what was verified, and the rules that are not an
/// official regulation when any output was made under such rules (`VERIFIED (règlement non
/// officiel / unofficial rules: ID): …`); an official rules id with other bytes than the pinned
/// ones fails. The verdict ends with the ids of the keys used: compare them with the key
/// ceremony's minutes.
///
/// Exit 0 when all holds (`partial:` lines name what could not be checked from the files
/// given), 1 naming the first thing that does not (`verification failed (CLASS): …`, `fork`
/// included), 2 for a usage mistake or an unreadable file. It writes nothing and can never
/// produce a result.
#[derive(Debug, Clone, Parser)]
#[command(name = "urne-verify", version)]
pub struct Args {
    /// An output folder, a folder of output folders, a proof file, a lone result.json or
    /// block commitment, or an exported audit trail (FILE.jsonl).
    pub path: PathBuf,
    /// Folder with result.pub.pem and audit.pub.pem obtained independently of the outputs (the
    /// key ceremony's publication, `urne keys export`). Required: never taken from the folder
    /// verified; the verdict ends with their key ids.
    #[arg(long, value_name = "DIR")]
    pub keys: Option<PathBuf>,
    /// Auditor mode: the signed export the draw was sealed from (FILE.jsonl.sig beside it); the
    /// entries are recomputed from it. Needs --producer-key.
    #[arg(long, value_name = "FILE.jsonl")]
    pub export: Option<PathBuf>,
    /// Production's export key trusted for --export (PEM; repeatable; required with --export).
    #[arg(long = "producer-key", value_name = "PEM")]
    pub producer_keys: Vec<PathBuf>,
    /// For a proof file: the published draw folder whose commitment it must match.
    #[arg(long, value_name = "DIR")]
    pub published: Option<PathBuf>,
    /// A signed checkpoint held outside the appliance, such as the one copied into the minutes
    /// (repeatable): outputs must extend it (spec/formats.md §8.4), an audit export must hold it
    /// (spec/formats.md §6.4).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Vec<PathBuf>,
    /// For an audit export: also fail when the last events are not yet covered by a signed
    /// checkpoint.
    #[arg(long)]
    pub strict: bool,
    /// The day (YYYY-MM-DD) the outputs must be of: folder names are not signed, so a folder
    /// renamed as another day's fails with this (spec/formats.md §8.1).
    #[arg(long = "expect-day", value_name = "YYYY-MM-DD")]
    pub expect_day: Option<Day>,
    /// The block (canonical id) the outputs must be of (spec/formats.md §8.1).
    #[arg(long = "expect-block", value_name = "ID")]
    pub expect_block: Option<BlockId>,
    /// With PATH a revealed block folder: after verifying it, print on standard output the
    /// (unsigned) proof of the ticket at position P, derived from the reveal (spec/formats.md
    /// §5.B9); --expect-block ID names the block when the folder holds several. Verify it with
    /// --published against the same folder.
    #[arg(long = "ticket-proof", value_name = "P")]
    pub ticket_proof: Option<u32>,
    /// A release's signed manifest (repeatable: one per release the outputs may come from),
    /// its SHA256SUMS.sig beside it: each output's software must be the released bin/urne of
    /// its source revision (spec/formats.md §8.8). One `release:` line per release and one
    /// `software:` line per output follow the verdict; exit 9 when an output's executable was
    /// built another way or its revision is not released. Needs --release-key.
    #[arg(long = "release", value_name = "SHA256SUMS")]
    pub releases: Vec<PathBuf>,
    /// The release key (PEM, repeatable) the manifests given with --release are signed with,
    /// published with the release and obtained independently of it: never taken from beside
    /// SHA256SUMS, and never an appliance key.
    #[arg(long = "release-key", value_name = "PEM")]
    pub release_keys: Vec<PathBuf>,
}

/// How the verifier opens the files and folders it is named.
pub trait Disk {
    /// The folder `dir`: links in its path followed (the user names it), none below it.
    fn folder(&self, dir: &Path) -> Box<dyn Folder>;
    /// The folder of the file `file` and the file's name in it: the file is read through its
    /// links, the files beside it (its `.sig`) are not (spec/formats.md §1.6).
    fn file(&self, file: &Path) -> (Box<dyn Folder>, String);
}

/// Files and folders opened by their paths ([`DiskFolder`] of the `urne-verify` library).
#[derive(Debug, Clone, Copy, Default)]
pub struct PlainDisk;

impl Disk for PlainDisk {
    fn folder(&self, dir: &Path) -> Box<dyn Folder> {
        Box::new(DiskFolder::open(dir))
    }

    fn file(&self, file: &Path) -> (Box<dyn Folder>, String) {
        let (f, name) = DiskFolder::of_file(file);
        (Box::new(f), name)
    }
}

type Outcome<T> = Result<T, Refused>;

/// The verdict on `a.path`, as lines (the caller prints them: [`Line::Out`] on standard output,
/// [`Line::Note`] on standard error), or why there is none. With releases given (`--release`,
/// spec/formats.md §8.8), they are read and checked first, and the verdict ends with each
/// output's software judged against them.
///
/// # Errors
///
/// A [`Refused`] whose kind says whether a verification ran and failed (exit 1), nothing was
/// verified (exit 2), or every output verified and one's software is not released (exit 9,
/// the verdict's lines in [`Refused::lines`]).
pub fn run(a: &Args, disk: &dyn Disk) -> Outcome<Vec<Line>> {
    let Some(keys_dir) = a.keys.as_deref() else {
        return Err(Refused::new(
            Kind::KeysInvalid,
            "no --keys: outputs are checked only against public keys given explicitly",
            "pass --keys DIR holding result.pub.pem and audit.pub.pem obtained independently of the outputs (the key ceremony's publication), never the folder verified",
        ));
    };
    check_expect(a)?;
    let releases = given_releases(a, disk, keys_dir)?;
    let verdict = verify_path(a, disk, keys_dir)?;
    match releases {
        None => Ok(verdict.into_lines()),
        Some(r) => judge_software(a, verdict, &r),
    }
}

/// A verdict before the release's check: its lines but the keys line, the keys line (none when
/// it is a note, `--ticket-proof`), the report whose outputs state their software (none for a
/// proof), and the kind of a failure of those outputs.
struct Verdict {
    lines: Vec<Line>,
    keys: Option<Line>,
    report: Option<Report>,
    failed: Kind,
}

impl Verdict {
    fn of(lines: Vec<Line>, keys: Line, report: Option<Report>) -> Verdict {
        Verdict {
            lines,
            keys: Some(keys),
            report,
            failed: Kind::VerificationFailed,
        }
    }

    fn into_lines(self) -> Vec<Line> {
        let mut lines = self.lines;
        lines.extend(self.keys);
        lines
    }
}

/// What `a.path` is, verified.
#[expect(
    clippy::case_sensitive_file_extension_comparisons,
    reason = "output names are exact (spec/formats.md §4.7): `urne verify` recognises `.jsonl` alike"
)]
fn verify_path(a: &Args, disk: &dyn Disk, keys_dir: &Path) -> Outcome<Verdict> {
    let name = a
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if a.path.is_file() {
        // A `.jsonl` is an exported trail, or the file of every proof of a day, by its first
        // line's `format` (spec/formats.md §4.8, §6.4).
        if name.ends_with(".jsonl") {
            let (folder, n) = disk.file(&a.path);
            if !is_proofs_file(&*folder, &n) {
                return verify_trail_file(a, disk, keys_dir);
            }
            let keys = load_keys(disk, keys_dir)?;
            let lines = verify_all_proofs(a, disk, &n, &keys)?;
            return Ok(Verdict::of(lines, keys_line(&keys, &[]), None));
        }
        let keys = load_keys(disk, keys_dir)?;
        if name == "result.json" || name.ends_with(".commit.json") {
            let report = verify_lone(a, disk, &name, &keys)?;
            let lines = verdict::report_lines(&a.path.display().to_string(), &report);
            return Ok(Verdict::of(lines, keys_line(&keys, &[]), Some(report)));
        }
        let lines = verify_proof(a, disk, &name, &keys)?;
        return Ok(Verdict::of(lines, keys_line(&keys, &[]), None));
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
    let keys = load_keys(disk, keys_dir)?;
    if let Some(position) = a.ticket_proof {
        return Ok(Verdict {
            lines: derive_ticket(a, disk, &keys, position)?,
            keys: None,
            report: None,
            failed: Kind::VerificationFailed,
        });
    }
    let (report, producer) = verify_folder(a, disk, &keys)?;
    let lines = verdict::report_lines(&a.path.display().to_string(), &report);
    Ok(Verdict::of(
        lines,
        keys_line(&keys, &producer),
        Some(report),
    ))
}

/// The releases given (`--release SHA256SUMS`, `--release-key PEM`, spec/formats.md §8.8),
/// each manifest's signature checked under the release keys before it is parsed, or `None`
/// without `--release`. Checked before anything is verified.
fn given_releases(a: &Args, disk: &dyn Disk, keys_dir: &Path) -> Outcome<Option<Releases>> {
    let usage = |what: &str, hint: &str| Err(Refused::new(Kind::Usage, what, hint));
    match (a.releases.is_empty(), a.release_keys.is_empty()) {
        (true, true) => return Ok(None),
        (true, false) => {
            return usage(
                "--release-key without --release: a release key checks a release's SHA256SUMS",
                "give the release's manifest with --release SHA256SUMS (its SHA256SUMS.sig beside it), or leave out --release-key",
            );
        }
        (false, true) => {
            return usage(
                "--release without --release-key: a release's SHA256SUMS is checked only under a release key given explicitly",
                "pass --release-key PEM, the release key published with the release and obtained independently of it (never the file beside SHA256SUMS)",
            );
        }
        (false, false) => {}
    }
    if a.ticket_proof.is_some() {
        return usage(
            "--release with --ticket-proof: a derived ticket proof states no software",
            "verify the block folder with --release on its own, then derive the proof",
        );
    }
    let keys = release_keys(a, disk, keys_dir)?;
    let refused = |e: ReleaseError| {
        Refused::new(
            Kind::ReleaseInvalid,
            format!("release manifest refused ({}): {e}", e.class().name()),
            "give the release's SHA256SUMS as published, with its SHA256SUMS.sig beside it, and the release key it was signed with (--release-key); nothing was verified",
        )
    };
    let mut given = vec![];
    for p in &a.releases {
        let (folder, name) = disk.file(p);
        given
            .push(read_release(&*folder, &name, &p.display().to_string(), &keys).map_err(refused)?);
    }
    Releases::new(given).map(Some).map_err(refused)
}

/// The release keys of `--release-key`, none of them an appliance key of `--keys DIR`
/// (spec/formats.md §8.8 [M-411]).
fn release_keys(a: &Args, disk: &dyn Disk, keys_dir: &Path) -> Outcome<Vec<[u8; 32]>> {
    let hint = "pass --release-key PEM, the release key published with the release (a SubjectPublicKeyInfo PEM), never an appliance key";
    let appliance = disk.folder(keys_dir);
    let mut keys = vec![];
    for p in &a.release_keys {
        let pem = read_input(disk, p, limits::PEM)?;
        let key = public_key_from_pem(&String::from_utf8_lossy(&pem)).map_err(|e| {
            Refused::new(
                Kind::ReleaseKeyInvalid,
                format!("release key {}: {e}", p.display()),
                hint,
            )
        })?;
        for role in ["result", "audit"] {
            if signed::load_key(&*appliance, &format!("{role}.pub.pem")).ok() == Some(key) {
                return Err(Refused::new(
                    Kind::ReleaseKeyInvalid,
                    format!(
                        "release key {} is the appliance's {role} key {}: a release is signed by a release key, never by an appliance key",
                        p.display(),
                        key_id(&key)
                    ),
                    hint,
                ));
            }
        }
        keys.push(key);
    }
    Ok(keys)
}

/// The release's check (spec/formats.md §8.8): the `release:` and `software:` lines before the
/// keys line; exit 9, with those lines, when any software is not released.
fn judge_software(a: &Args, v: Verdict, releases: &Releases) -> Outcome<Vec<Line>> {
    let judged = match &v.report {
        Some(r) => judge_all(r, releases).map_err(|f| Refused {
            kind: v.failed,
            ..Refused::from(f)
        })?,
        None => vec![],
    };
    let failure = not_released(&judged);
    let mut v = v;
    v.lines.extend(verdict::release_lines(
        &a.path.display().to_string(),
        releases,
        &judged,
    ));
    let lines = v.into_lines();
    match failure {
        None => Ok(lines),
        Some(f) => Err(Refused {
            lines,
            ..Refused::from(f)
        }),
    }
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
        day: a.expect_day,
        block: a.expect_block.clone(),
    }
}

/// The public keys of `--keys DIR`.
fn load_keys(disk: &dyn Disk, dir: &Path) -> Outcome<Keys> {
    signed::load_keys(&*disk.folder(dir)).map_err(|f| {
        Refused::new(
            Kind::KeysInvalid,
            f.what,
            "pass --keys DIR holding result.pub.pem and audit.pub.pem (from `urne keys export`)",
        )
    })
}

/// An output folder, or a folder of outputs: its report, and the producer keys of auditor mode.
fn verify_folder(a: &Args, disk: &dyn Disk, keys: &Keys) -> Outcome<(Report, Vec<[u8; 32]>)> {
    let folder = disk.folder(&a.path);
    let mut producer = vec![];
    let report = if is_output(&*folder) {
        let export = a.export.as_deref().map(|e| disk.file(e));
        let auditor = match &export {
            Some((f, n)) => {
                producer = producer_keys(a, disk)?;
                Some(Auditor {
                    folder: &**f,
                    name: n.clone(),
                    producer_keys: producer.clone(),
                })
            }
            None => None,
        };
        verify_output(&*folder, keys, auditor.as_ref(), &expect(a))?
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
        verify_outputs(&*folder, keys, &expect(a))?
    };
    check_held(&report.outputs, &held(a, disk)?, keys)?;
    Ok((report, producer))
}

/// The producer keys given for `--export`: at least one, or a usage error (exit 2).
fn producer_keys(a: &Args, disk: &dyn Disk) -> Outcome<Vec<[u8; 32]>> {
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
            let pem = read_input(disk, p, KEY_FILE_LIMIT)?;
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
/// `limit` bytes. A name that is not a regular file (a FIFO, a device, a folder) or a larger file
/// is refused without being read or waited on (spec/formats.md §1.6).
fn read_input(disk: &dyn Disk, p: &Path, limit: u64) -> Outcome<Vec<u8>> {
    let (folder, name) = disk.file(p);
    match read_bounded(&*folder, &name, limit) {
        Ok(Some(bytes)) => Ok(bytes),
        // As the appliance says it (spec/appliance.md §10).
        Ok(None) => Err(Refused::new(
            Kind::NoSuchFile,
            format!("no such file: {}", p.display()),
            "check the path (relative paths are from the working directory) and that the medium is mounted",
        )),
        Err(f) if f.class.is_verification() => Err(Refused::new(
            Kind::NotRegularFile,
            f.what,
            "give the regular file urne or production wrote, not a device, a FIFO or a larger file",
        )),
        Err(f) => Err(Refused::new(
            Kind::VerifyInput,
            format!("cannot read {}: {}", p.display(), f.what),
            "check the path and its permissions; nothing was verified",
        )),
    }
}

/// The checkpoints held outside the appliance, as (name, text).
fn held(a: &Args, disk: &dyn Disk) -> Outcome<Vec<(String, String)>> {
    a.checkpoint
        .iter()
        .map(|p| {
            let bytes = read_input(disk, p, limits::NOTE)?;
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
fn verify_lone(a: &Args, disk: &dyn Disk, name: &str, keys: &Keys) -> Outcome<Report> {
    let (folder, _) = disk.file(&a.path);
    let report = if name == "result.json" {
        verify_lone_result(&*folder, name, keys)
    } else {
        verify_lone_commitment(&*folder, name, keys)
    }
    .and_then(|r| expect(a).check(&r).map(|()| r))?;
    check_held(&report.outputs, &held(a, disk)?, keys)?;
    Ok(report)
}

/// A proof file: an account's inclusion proof (spec/formats.md §8.3) or a ticket proof (spec/formats.md §5.B9).
/// One with no signature beside it needs the published folder (a usage mistake without it).
fn verify_proof(a: &Args, disk: &dyn Disk, name: &str, keys: &Keys) -> Outcome<Vec<Line>> {
    let published = a.published.as_deref().map(|p| disk.folder(p));
    let (folder, _) = disk.file(&a.path);
    if published.is_none() && !has_signature(&*folder, name) {
        return Err(unsigned_without_published(&a.path));
    }
    let proven = verify_proof_file(&*folder, name, published.as_deref(), keys)?;
    Ok(verdict::proof_lines(
        &a.path.display().to_string(),
        &proven,
        a.published.is_some(),
    ))
}

/// `--ticket-proof P` on a revealed block folder (spec/formats.md §5.B9): the folder verified, then
/// the ticket's unsigned proof as the only standard output (the verdict's lines as notes).
fn derive_ticket(a: &Args, disk: &dyn Disk, keys: &Keys, position: u32) -> Outcome<Vec<Line>> {
    if a.export.is_some()
        || a.expect_day.is_some()
        || a.published.is_some()
        || !a.checkpoint.is_empty()
    {
        return Err(Refused::new(
            Kind::Usage,
            "--ticket-proof takes a revealed block folder, --keys and at most --expect-block",
            "leave out --export, --expect-day, --published and --checkpoint",
        ));
    }
    let folder = disk.folder(&a.path);
    let (proof, report) =
        derive_ticket_proof(&*folder, keys, a.expect_block.as_ref(), position).map_err(|f| {
            if f.class == urne_verify::verify::FailureClass::Usage {
                Refused::new(
                    Kind::Usage,
                    f.what,
                    "give a block folder with its reveal (S.reveal.json), a position in the block, and --expect-block ID when it holds several blocks",
                )
            } else {
                Refused::from(f)
            }
        })?;
    let mut lines: Vec<Line> = verdict::report_lines(&a.path.display().to_string(), &report)
        .into_iter()
        .map(|l| match l {
            Line::Out(s) | Line::Note(s) => Line::Note(s),
        })
        .collect();
    lines.push(Line::Note(keys_line_text(keys)));
    let json = String::from_utf8_lossy(&urne_verify::draw::files::to_bytes(&proof)).into_owned();
    lines.push(Line::Out(json.trim_end_matches('\n').to_string()));
    Ok(lines)
}

/// The keys line, as a note's text.
fn keys_line_text(keys: &Keys) -> String {
    match keys_line(keys, &[]) {
        Line::Out(s) | Line::Note(s) => s,
    }
}

/// The refusal of an unsigned proof (or the file of every proof of a day) without `--published`
/// (spec/formats.md §8.3): exit 2, nothing verified.
fn unsigned_without_published(path: &Path) -> Refused {
    Refused::new(
        Kind::Usage,
        unsigned_needs_published(&path.display().to_string()).what,
        "give --published DIR, the draw's (or block's) published folder, whose signed result.json or bundle.json (or commitment) the proof leads to",
    )
}

/// The file of every proof of a day (`urne proof --all`, spec/formats.md §4.8): every line
/// against the published draw, which it needs.
fn verify_all_proofs(a: &Args, disk: &dyn Disk, name: &str, keys: &Keys) -> Outcome<Vec<Line>> {
    let Some(published) = a.published.as_deref().map(|p| disk.folder(p)) else {
        return Err(unsigned_without_published(&a.path));
    };
    let (folder, _) = disk.file(&a.path);
    let all = verify_proofs_file(&*folder, name, &*published, keys)?;
    Ok(verdict::proof_lines(
        &a.path.display().to_string(),
        &Proven::All(all),
        true,
    ))
}

/// An exported audit trail (`urne audit export`, spec/formats.md §6.4), checked under the audit key of
/// `--keys DIR`: anchored by that key, never by the key the trail records itself.
fn verify_trail_file(a: &Args, disk: &dyn Disk, keys_dir: &Path) -> Outcome<Verdict> {
    let key = signed::load_key(&*disk.folder(keys_dir), "audit.pub.pem").map_err(|f| {
        Refused::new(
            Kind::KeysInvalid,
            f.what,
            "give the folder written by `urne keys export` (it holds audit.pub.pem)",
        )
    })?;
    let held: Vec<(PathBuf, String)> = held(a, disk)?
        .into_iter()
        .map(|(p, t)| (PathBuf::from(p), t))
        .collect();
    let (folder, name) = disk.file(&a.path);
    // An exported trail is an output like any other: not a regular file, or over its limit,
    // is `malformed` (spec/formats.md §1.6).
    let bytes = read_bounded(&*folder, &name, limits::AUDIT_EXPORT)
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
    .map_err(|f| {
        Refused::new(
            Kind::TrailVerificationFailed,
            format!("verification failed ({}): {}", f.class.name(), f.what),
            "the exported trail was altered, truncated or signed under another key: keep it as evidence and compare it with the checkpoints exported with results",
        )
    })?;
    let report = verdict::trail_report(&r);
    let mut lines = verdict::report_lines(&a.path.display().to_string(), &report);
    if held.is_empty() {
        lines.push(Line::Note(verdict::cut_short_note(r.events)));
    }
    let keys = Line::Out(printable(&format!(
        "keys: audit key {} (from {}): compare it with the key ceremony's minutes",
        key_id(&key),
        keys_dir.join("audit.pub.pem").display()
    )));
    Ok(Verdict {
        failed: Kind::TrailVerificationFailed,
        ..Verdict::of(lines, keys, Some(report))
    })
}
