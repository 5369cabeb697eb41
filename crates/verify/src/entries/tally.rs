//! Pass 2: parse and validate every line of an export (spec/formats.md §4.1.1), re-hash it, and apply
//! D-1, D-3 … D-6 and D-13 (spec/formats.md §4.1). One read of the file goes through:
//!
//! - [`super::rehash`]: every byte read is hashed; the file must be the one pass 1 verified;
//! - [`super::header`]: line 1;
//! - [`super::chunks`]: the threads, reading line-aligned chunks and parsing them
//!   ([`super::record`], [`super::fast`], [`super::fields`]) into per-worker sums
//!   ([`super::counting`]);
//! - [`super::merge`]: the workers' results merged, the whole-file checks, the entries.
//!
//! Memory grows with the number of accounts, plus 8 bytes per play for duplicate-id detection
//! (a 64-bit fingerprint of each id, see [`super::play_ids`]); never with the bytes of the file.

use std::io::Read;

use super::chunks::parse_records;
use super::counting::Ctx;
use super::error::{ExportError, ExportErrorKind};
use super::header::read_header;
use super::merge::{Pass, finish};
use super::play_ids::Suspects;
use super::rehash::HashingReader;
use super::results::{DayTally, VerifiedExport};
use crate::rules::draw::DrawRules;

/// How to run the tally. The result (the tally, or the error) never depends on these.
#[derive(Clone, Debug, Default)]
pub struct TallyOptions {
    /// Parsing threads besides the reading one; 0 (the default) picks the machine's available
    /// parallelism, at most 4.
    pub threads: usize,
}

/// Pass 2 with default options (see [`tally_export_with`]). `open` opens the file: it is called
/// once, or twice when two play ids may be equal. `verified` is what [`super::verify_export`]
/// returned for the same file: the bytes read here must have the same SHA-256 and size, or the
/// file is refused ([`ExportErrorKind::FileChanged`]). `rules` are the operation's rules: the
/// header must name their operation and a day of one of their periods.
pub fn tally_export<R: Read>(
    open: impl FnMut() -> std::io::Result<R>,
    verified: &VerifiedExport,
    rules: &DrawRules,
) -> Result<DayTally, ExportError> {
    tally_export_with(open, verified, rules, &TallyOptions::default())
}

/// Pass 2: parses, validates and tallies the export, on `opts.threads` parsing threads. A
/// failure to open or read the file is [`ExportErrorKind::Io`]; every other refusal names the
/// rule of entry-export-v1 (spec/formats.md §4.1.1) the file breaks, on the earliest line that breaks
/// one (see the module's notes for the order).
///
/// Duplicate play ids are looked for on 64-bit fingerprints of the ids (8 bytes per play in
/// memory). Equal ids have equal fingerprints, so when no two fingerprints are equal no id is
/// repeated and the tally is done. Otherwise (a duplicate, or, rarely, two ids whose
/// fingerprints collide) the file is read once more, hash-checked again, and the ids behind the
/// repeated fingerprints are compared in full: the outcome is exactly that of comparing every id.
pub fn tally_export_with<R: Read>(
    mut open: impl FnMut() -> std::io::Result<R>,
    verified: &VerifiedExport,
    rules: &DrawRules,
    opts: &TallyOptions,
) -> Result<DayTally, ExportError> {
    let mut reopen = || open().map_err(|e| ExportError::file(ExportErrorKind::Io(e.to_string())));
    match read_pass(reopen()?, verified, rules, opts, None)? {
        Pass::Done(t) => Ok(*t),
        Pass::Confirm(suspects) => {
            match read_pass(reopen()?, verified, rules, opts, Some(&suspects))? {
                Pass::Done(t) => Ok(*t),
                // Invariant: a pass given suspects compares ids in full and never asks again.
                Pass::Confirm(_) => unreachable!("a confirming pass decides"),
            }
        }
    }
}

/// One read of the file: parse, tally, and check the bytes are the verified ones.
fn read_pass(
    reader: impl Read,
    verified: &VerifiedExport,
    rules: &DrawRules,
    opts: &TallyOptions,
    suspects: Option<&Suspects>,
) -> Result<Pass, ExportError> {
    let mut src = HashingReader::new(reader);
    let result = run(&mut src, verified, rules, opts, suspects);
    if let Err(e) = &result
        && matches!(e.kind, ExportErrorKind::Io(_))
    {
        return result;
    }
    // On an error, read the rest anyway: if these are not the verified bytes, that is the
    // truthful reason (whatever failed to parse was never verified).
    let (sha, size) = src.check_rest(verified)?;
    match result? {
        Pass::Done(mut t) => {
            t.sha256 = sha;
            t.size = size;
            Ok(Pass::Done(t))
        }
        Pass::Confirm(suspects) => Ok(Pass::Confirm(suspects)),
    }
}

/// The header, then every record on the worker threads, then the merge.
fn run<R: Read>(
    src: &mut HashingReader<R>,
    verified: &VerifiedExport,
    rules: &DrawRules,
    opts: &TallyOptions,
    suspects: Option<&Suspects>,
) -> Result<Pass, ExportError> {
    let (header, pending) = read_header(src, verified, rules)?;
    let (day_start, day_end) = rules.day_bounds(header.day).ok_or_else(|| {
        ExportError::at(
            1,
            ExportErrorKind::DayNotInOperation(header.day.to_string()),
        )
    })?;
    let ctx = Ctx {
        rules,
        day: header.day,
        day_start,
        day_end,
        suspects,
    };
    let threads = match opts.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get().min(4)),
        n => n,
    };
    let (parts, tail_err) = parse_records(src, pending, &ctx, threads, header.plays);
    finish(header, &ctx, parts, tail_err)
}

#[cfg(test)]
mod classes_tests;
#[cfg(test)]
mod limits_tests;
#[cfg(test)]
mod tests;
