//! A block's production file (`S.tickets.csv`, spec/formats.md §5.B6), from the secret medium:
//! matched to its block by the commitment's `tickets_sha256`, then every row checked against the
//! official game's rules, and the outcomes root and tier counts recomputed and compared with the
//! commitment (spec/formats.md §5.B8). Only then are its bytes loaded (`COPY`), the same bytes.

use crate::error::{ImportError, Kind};
use crate::state::BlockState;
use std::path::{Path, PathBuf};
use urne_verify::block::tickets::verify_tickets_bytes;
use urne_verify::crypto::{Hash32, sha256};
use urne_verify::rules::game::GameRules;
use urne_verify::values::{Attempt, BlockId};

/// A production file checked against its block's commitment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tickets {
    /// The block.
    pub block: BlockId,
    /// The block's attempt whose commitment the file is.
    pub attempt: Attempt,
    /// Where it was read.
    pub path: PathBuf,
    /// Its exact bytes (the header line first).
    pub bytes: Vec<u8>,
    /// Its rows.
    pub rows: u32,
}

/// The production files found under `dirs` (and their subfolders, one level down, as urne's
/// `--secret-out` writes them), each checked against the block commitment among the outputs
/// that names it (its `tickets_file`) and whose `tickets_sha256` is its SHA-256; and the files
/// no commitment among the outputs names (another medium's blocks: not loaded), by path.
///
/// # Errors
/// A folder that cannot be read ([`Kind::Usage`]); a file a commitment names whose bytes are
/// not that commitment's, or do not verify against it ([`Kind::VerificationFailed`]).
pub fn read(
    dirs: &[PathBuf],
    blocks: &[BlockState],
) -> Result<(Vec<Tickets>, Vec<PathBuf>), ImportError> {
    let mut files = vec![];
    for d in dirs {
        find(d, 2, &mut files)?;
    }
    files.sort();
    let rules = GameRules::noel_de_la_chance_2015();
    let mut out: Vec<Tickets> = vec![];
    let mut others = vec![];
    for path in files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let named: Vec<&BlockState> = blocks
            .iter()
            .filter(|b| b.commitment.tickets_file == name)
            .collect();
        if named.is_empty() {
            others.push(path);
            continue;
        }
        let bytes = std::fs::read(&path).map_err(|e| {
            ImportError::new(
                Kind::Usage,
                format!("{}: {e}", path.display()),
                "give --tickets the secret medium's folder of production files",
            )
        })?;
        let h = sha256(&bytes);
        let Some(b) = named.into_iter().find(|b| b.commitment.tickets_sha256 == h) else {
            return Err(mismatch(
                &path,
                &format!(
                    "its SHA-256 {h} is not the tickets_sha256 of the commitment that names it"
                ),
            ));
        };
        if out
            .iter()
            .any(|t| t.block == b.block && t.attempt == b.attempt)
        {
            continue; // the same file twice (two copies on the medium): loaded once
        }
        check(&path, &bytes, b, &rules)?;
        out.push(Tickets {
            block: b.block.clone(),
            attempt: b.attempt,
            rows: b.commitment.block_size,
            path,
            bytes,
        });
    }
    Ok((out, others))
}

/// The rows, the outcomes root and the tier counts of `bytes` against `b`'s commitment.
fn check(path: &Path, bytes: &[u8], b: &BlockState, rules: &GameRules) -> Result<(), ImportError> {
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let s = verify_tickets_bytes(bytes, rules, b.commitment.price_cents, threads)
        .map_err(|e| mismatch(path, &e.to_string()))?;
    if s.outcomes_root != b.commitment.outcomes_root {
        return Err(mismatch(
            path,
            &format!(
                "its outcomes root {} is not block {}'s committed {}",
                s.outcomes_root, b.block, b.commitment.outcomes_root
            ),
        ));
    }
    for t in &b.commitment.tiers {
        let found = s.tier_counts.get(usize::from(t.tier)).copied().unwrap_or(0);
        if found != t.units {
            return Err(mismatch(
                path,
                &format!(
                    "it holds {found} tickets of tier {}; block {}'s commitment says {}",
                    t.tier, b.block, t.units
                ),
            ));
        }
    }
    Ok(())
}

fn mismatch(path: &Path, what: &str) -> ImportError {
    ImportError::new(
        Kind::VerificationFailed,
        format!(
            "verification failed (commitment-mismatch): production file {}: {what}",
            path.display()
        ),
        "this is not the production file the appliance committed to: sell nothing from it, keep it as evidence",
    )
}

/// The `*.tickets.csv` regular files of `dir`, and of its subfolders down to `depth` levels
/// (links not followed).
fn find(dir: &Path, depth: u32, out: &mut Vec<PathBuf>) -> Result<(), ImportError> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        ImportError::new(
            Kind::Usage,
            format!("--tickets {}: {e}", dir.display()),
            "give --tickets the secret medium's folder of production files",
        )
    })?;
    for e in entries.flatten() {
        let Ok(t) = e.file_type() else { continue };
        let p = e.path();
        if t.is_dir() && depth > 0 {
            find(&p, depth - 1, out)?;
        } else if t.is_file() && e.file_name().to_string_lossy().ends_with(".tickets.csv") {
            out.push(p);
        }
    }
    Ok(())
}

/// The SHA-256 of a production file's bytes, for messages.
#[must_use]
pub fn digest(t: &Tickets) -> Hash32 {
    sha256(&t.bytes)
}
