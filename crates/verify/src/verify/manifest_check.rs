//! The manifest of a version-2 output, checked (spec/formats.md §8.2 step 9, spec/formats.md §5.B10 step 2, spec/formats.md §8.5): it
//! names the output, lists exactly the files of its kind, and every listed file present is the
//! one listed; a listed public file absent makes the verification partial.

use super::signed::Keys;
use super::{FailureClass as C, Report, VResult, fail, parse_named};
use crate::crypto::Hash32;
use crate::draw::files::DrawCore;
use crate::manifest::{self, Audience, Manifest};
use crate::values::KeyId;

/// `the draw of OPERATION day DAY attempt N (version V)`.
pub(super) fn subject(core: &DrawCore, version: u32) -> String {
    format!("{} (version {version})", super::draw_publishes(core))
}

/// Step 9 on a manifest `bytes` of the draw `core` (of `version`), the files of the folder
/// being `present` (size and SHA-256).
pub(super) fn check_manifest(
    name: &str,
    bytes: &[u8],
    (core, version): (&DrawCore, u32),
    keys: &Keys,
    present: impl Fn(&str) -> Option<(u64, Hash32)>,
    r: &mut Report,
) -> VResult<()> {
    if version == 1 {
        return Err(fail(
            C::Malformed,
            "a version-1 draw folder has no manifest.json",
        ));
    }
    let m = parse_manifest(name, bytes)?;
    let same = m.operation == core.operation
        && m.day.as_deref() == Some(core.day.as_str())
        && m.block.is_none()
        && m.attempt == core.attempt
        && m.result_key_id == KeyId::of(&keys.result);
    if !same {
        return Err(fail(
            C::Inconsistent,
            format!(
                "{name} is not the manifest of {} (or names another result key)",
                subject(core, version)
            ),
        ));
    }
    let expected: Vec<(String, Audience)> = manifest::DRAW_FILES
        .iter()
        .map(|(n, a)| ((*n).to_string(), *a))
        .collect();
    if !m.lists_exactly(&expected) {
        return Err(fail(
            C::Inconsistent,
            format!("{name} does not list exactly a draw's files (spec/formats.md §4.7)"),
        ));
    }
    check_listed(&m, name, present, r)?;
    r.checks.push(format!(
        "{name}: every file present is the one listed (size and SHA-256)"
    ));
    Ok(())
}

/// Parses a signature-checked manifest (malformed).
pub(super) fn parse_manifest(name: &str, bytes: &[u8]) -> VResult<Manifest> {
    let m: Manifest = parse_named(name, bytes)?;
    if m.format != manifest::FORMAT || m.version != manifest::VERSION {
        return Err(fail(
            C::Malformed,
            format!(
                "{name} is not an {} version {}",
                manifest::FORMAT,
                manifest::VERSION
            ),
        ));
    }
    let malformed = |why: &str| Err(fail(C::Malformed, format!("{name}: {why}")));
    if m.day.is_some() == m.block.is_some() {
        return malformed("exactly one of day and block is not null");
    }
    if let Some(d) = &m.day
        && d.parse::<crate::values::Day>().is_err()
    {
        return malformed("day is not a date YYYY-MM-DD");
    }
    if let Some(b) = &m.block
        && crate::values::BlockId::parse(b).is_err()
    {
        return malformed("block is not a canonical block id");
    }
    if m.attempt == 0 {
        return malformed("attempt counts from 1");
    }
    let sorted = m
        .files
        .windows(2)
        .all(|w| w[0].name.as_bytes() < w[1].name.as_bytes());
    if !sorted {
        return malformed("files are not sorted by name, each name once");
    }
    Ok(m)
}

/// Every file `m` lists that is `present` (its size and SHA-256) must have the listed size and SHA-256
/// (inconsistent); a public one absent is a `partial:` line, a production one a note.
pub(super) fn check_listed(
    m: &Manifest,
    name: &str,
    present: impl Fn(&str) -> Option<(u64, Hash32)>,
    r: &mut Report,
) -> VResult<()> {
    for l in &m.files {
        match present(&l.name) {
            Some((size, sha)) if size == l.size && sha == l.sha256 => {}
            Some(_) => {
                return Err(fail(
                    C::Inconsistent,
                    format!(
                        "{} is not the file {name} lists (size or SHA-256 differ): it is another output's",
                        l.name
                    ),
                ));
            }
            None if l.audience == Audience::Public => r.partial.push(format!(
                "{} (listed in {name}) is not in the folder: not checked",
                l.name
            )),
            None => r.notes.push(format!(
                "{} (for production, listed in {name}) is not here: not checked",
                l.name
            )),
        }
    }
    Ok(())
}
