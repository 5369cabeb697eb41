//! What the commands read before they act: the operation's rules file, the trusted producer
//! keys, production's signed export (verified, then tallied), a day argument, a sealed set kept
//! in the trail, and one row of a block's production file.

use super::ctx::Ctx;
use crate::edge::fsio;
use crate::error::{Error, Result};
use std::io::BufReader;
use std::path::{Path, PathBuf};
use urne_core::audit::Event;
use urne_core::audit::payloads::InputRejected;
use urne_core::crypto::{Hash32, keys};
use urne_core::draw::SealedSet;
use urne_core::draw::records::SealRecord;
use urne_core::entries::{self, DayTally, VerifiedExport};
use urne_core::rules::draw::DrawRules;
use urne_core::state::{self, day::DayState};

/// The operation's rules file, parsed, and its exact bytes (they are sealed and published).
pub fn load_rules(path: &Path) -> Result<(DrawRules, Vec<u8>)> {
    let bytes = fsio::read(path)?;
    let rules = DrawRules::from_json(&bytes).map_err(|e| {
        Error::bad_input(
            format!("rules file {} is refused: {e}", path.display()),
            "use the operation's rules file shipped in rules/ (e.g. rules/chanceux-noel-2018.json)",
        )
    })?;
    check_official(path, rules.operation(), &bytes)?;
    Ok((rules, bytes))
}

/// A rules file declaring an official operation or game id must be the official file, whose
/// SHA-256 is fixed in the appliance; one of another id is said not to be official.
pub fn check_official(path: &Path, id: &str, bytes: &[u8]) -> Result<()> {
    use urne_core::rules::official::{Standing, standing};
    let sha = urne_core::crypto::sha256(bytes);
    match standing(id, &sha) {
        Standing::Official => {
            note!("rules {id}: the official file (SHA-256 {sha})");
            Ok(())
        }
        Standing::Unofficial => {
            note!(
                "note: {} declares {id}, which is not an official operation or game of this appliance (SHA-256 {sha})",
                path.display()
            );
            Ok(())
        }
        Standing::Doctored(pinned) => Err(Error::bad_input(
            format!(
                "rules file {} declares {id} but is not its official file: SHA-256 {sha}, the official one is {pinned}",
                path.display()
            ),
            "use the official rules file shipped in rules/; its SHA-256 is fixed in the appliance and printed in the minutes",
        )),
    }
}

/// The producer keys trusted for an export: those given, else the configuration's.
pub fn trusted_keys(ctx: &Ctx, given: &[PathBuf]) -> Result<Vec<[u8; 32]>> {
    let paths = if given.is_empty() {
        ctx.config()?.producer_keys
    } else {
        given.to_vec()
    };
    if paths.is_empty() {
        return Err(Error::bad_input(
            "no trusted producer key",
            "pass --producer-key PEM or list production's key under \"producer_keys\" in the configuration",
        ));
    }
    paths
        .iter()
        .map(|p| {
            let pem = fsio::read(p)?;
            keys::public_key_from_pem(&String::from_utf8_lossy(&pem)).map_err(|e| {
                Error::bad_input(
                    format!("producer key {}: {e}", p.display()),
                    "give production's Ed25519 public key as a PEM SubjectPublicKeyInfo file",
                )
            })
        })
        .collect()
}

fn file_sha256(path: &Path) -> Option<Hash32> {
    use sha2::{Digest, Sha256};
    use std::io::Read;
    let mut f = std::fs::File::open(path).ok()?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf).ok()?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Some(Hash32(h.finalize().into()))
}

fn open(path: &Path) -> Result<BufReader<std::fs::File>> {
    std::fs::File::open(path)
        .map(|f| BufReader::with_capacity(1 << 20, f))
        .map_err(|e| crate::error::io_error("read", path, e))
}

/// Records a refused export (with the file's hash) in the trail; returns the error to stop on
/// (exit 2).
pub fn reject(ctx: &mut Ctx, path: &Path, reason: String, hint: &str) -> Result<Error> {
    ctx.record_evidence(InputRejected {
        file: path.display().to_string(),
        sha256: file_sha256(path),
        reason: reason.clone(),
    })?;
    Ok(Error::bad_input(
        format!("export {} refused: {reason}", path.display()),
        hint,
    ))
}

/// Verifies and tallies a signed export: the signature first, then every line. Records the
/// refusal (with the file's hash) in the trail when the file is refused.
pub fn read_export(
    ctx: &mut Ctx,
    path: &Path,
    rules: &DrawRules,
    trusted: &[[u8; 32]],
) -> Result<(VerifiedExport, DayTally)> {
    let verified = verify_export(ctx, path, trusted)?;
    note!("reading and checking every line …");
    let t0 = std::time::Instant::now();
    // The file is opened again for each pass (a third only when two play ids may be equal).
    match entries::tally_export(|| std::fs::File::open(path), &verified, rules) {
        Ok(t) => {
            note!(
                "  {} plays checked in {:.1} s",
                t.plays,
                t0.elapsed().as_secs_f64()
            );
            Ok((verified, t))
        }
        Err(e) => Err(reject(
            ctx,
            path,
            e.to_string(),
            "the export does not follow entry-export-v1; ask production for a corrected export. Nothing of this file was kept",
        )?),
    }
}

/// The export's detached signature, checked over the whole file before any line is read.
fn verify_export(ctx: &mut Ctx, path: &Path, trusted: &[[u8; 32]]) -> Result<VerifiedExport> {
    let sig_path = PathBuf::from(format!("{}.sig", path.display()));
    if !path.is_file() {
        return Err(crate::error::io_error(
            "read",
            path,
            std::io::Error::from(std::io::ErrorKind::NotFound),
        ));
    }
    // A FIFO, a device or a file over the export's limit is refused from its metadata, never
    // read (SPEC.md §1.6); the signature is read within its own limit.
    if let Err(e) = std::fs::metadata(path)
        .map_err(|e| e.to_string())
        .and_then(|m| entries::check_export_metadata(&m).map_err(|e| e.to_string()))
    {
        return Err(reject(
            ctx,
            path,
            e,
            "give production's export file itself (a regular file within the limit of SPEC.md §1.6)",
        )?);
    }
    // The signature: at most one byte more than a signature, whatever the file is (the
    // operator's own input; a test pauses a seal on a FIFO here).
    let sig = match std::fs::File::open(&sig_path).and_then(|f| {
        use std::io::Read;
        let mut b = vec![];
        f.take(65).read_to_end(&mut b).map(|_| b)
    }) {
        Ok(s) => s,
        Err(_) => {
            return Err(reject(
                ctx,
                path,
                format!("its signature {} is missing", sig_path.display()),
                "production delivers FILE.jsonl with FILE.jsonl.sig beside it; an unsigned export is never used",
            )?);
        }
    };
    note!(
        "checking the producer's signature over {} …",
        path.display()
    );
    let t0 = std::time::Instant::now();
    match entries::verify_export(open(path)?, &sig, trusted) {
        Ok(v) => {
            note!(
                "  signature verified: {} MB in {:.1} s",
                v.size / 1_000_000,
                t0.elapsed().as_secs_f64()
            );
            Ok(v)
        }
        Err(e) => Err(reject(
            ctx,
            path,
            e.to_string(),
            "ask production for a correctly signed export; nothing of this file was used",
        )?),
    }
}

/// A day argument (YYYY-MM-DD).
pub fn check_day(day: &str) -> Result<chrono::NaiveDate> {
    chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d").map_err(|_| {
        Error::bad_input(
            format!("{day:?} is not a day (YYYY-MM-DD)"),
            "write the day as e.g. 2018-12-01",
        )
    })
}

/// A value in the trail that is not as urne records it (`what` says which, and how): the
/// database was altered, and the command stops.
pub fn altered(what: &str) -> Error {
    Error::trail(
        crate::error::Exit::Internal,
        format!("audit trail: {what}"),
        "the database was altered: run `urne audit verify` and investigate",
    )
}

/// The state of `day` read from the trail's `events`; a record that does not parse stops the
/// command.
pub fn day_state(events: &[Event], day: &str) -> Result<DayState> {
    state::day_state(events, day).map_err(|e| altered(&e.to_string()))
}

/// The sealed set of a seal, read back from the trail and checked against its recorded hash.
pub fn sealed_set(ctx: &mut Ctx, seal: &SealRecord) -> Result<SealedSet> {
    SealedSet::decode(&ctx.audit()?.blob(&seal.set_sha256)?).ok_or_else(|| {
        Error::internal(
            "the sealed set is malformed",
            "run `urne audit verify` and investigate before any draw",
        )
    })
}

/// The row of the ticket at `position` in a block's production file (`tickets.csv`).
pub fn find_row(csv: &Path, position: u32) -> Result<String> {
    use std::io::BufRead;
    let f = std::fs::File::open(csv).map_err(|e| crate::error::io_error("read", csv, e))?;
    let prefix = format!("{position},");
    for line in std::io::BufReader::with_capacity(1 << 20, f)
        .lines()
        .skip(1)
    {
        let line = line.map_err(|e| crate::error::io_error("read", csv, e))?;
        if line.starts_with(&prefix) {
            return Ok(line);
        }
    }
    Err(Error::bad_input(
        format!("no ticket at position {position} in {}", csv.display()),
        "positions are 0-based and below the block size",
    ))
}
