//! One output per subject, recorded or adopted, never two (spec/appliance.md §6.7, issue 22 item 4): an
//! output is recorded as `output.placing` (its folder, its subject, its files' SHA-256) before
//! the first of its files is moved into place, and its publication record follows. A run whose
//! subject has such a record not yet followed by its publication was killed in between: it
//! looks in the recorded folder only, records a complete output found there as published
//! (adopts it), places its output there again when nothing of it is there, and refuses (exit 4,
//! nothing published; nothing recorded, [M-256], but at a sitting, which records every refusal)
//! a folder holding part of it or another folder than the recorded one, so that a re-run never
//! publishes a second output of the same attempt.

use super::ctx::Ctx;
use crate::edge::fsio;
use crate::edge::hsm::KeyRole;
use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::cmd as mc;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use urne_verify::audit::Event;
use urne_verify::audit::history::OutputPlacing;
pub use urne_verify::audit::history::Subject;
use urne_verify::crypto::{Hash32, sha256};
use urne_verify::events::kinds::{self, Record};
use urne_verify::verify::folder::limits;

/// Where a run publishes its subject's output.
#[derive(Debug)]
pub enum Place {
    /// No run was placing it: into the folder given, which must be new or empty.
    Fresh,
    /// A killed run recorded the folder (the one given) and placed nothing of it there: there
    /// again, the output made now.
    Again,
    /// A killed run placed the whole output in the folder given: it is recorded as published
    /// as it is, and nothing is written.
    Adopt(OutputPlacing),
}

/// The last `output.placing` of `subject`, unless a publication record of its primary file
/// (`draw.published`, `block.published` or `output.published` naming its SHA-256) follows it.
pub fn pending(events: &[Event], subject: &Subject) -> Option<OutputPlacing> {
    let (at, p) = events
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, e)| match kinds::parse(e) {
            Ok(Record::OutputPlacing(p)) if &p.subject == subject => Some((i, p)),
            _ => None,
        })?;
    let sha = p.files.get(&p.file).copied();
    let published = events[at + 1..].iter().any(|e| {
        let output = match kinds::parse(e) {
            Ok(Record::OutputPublished(o)) => Some(o),
            Ok(Record::DrawPublished(r)) => r.output,
            Ok(Record::BlockPublished(r)) => r.output,
            _ => None,
        };
        output.is_some_and(|o| Some(o.sha256) == sha)
    });
    (!published).then_some(p)
}

/// Where the output of `subject` (not yet published) goes, given the folder `given`.
pub fn decide(events: &[Event], subject: &Subject, given: &Path) -> Result<Place> {
    let Some(p) = pending(events, subject) else {
        fsio::check_empty_or_absent(given)?;
        return Ok(Place::Fresh);
    };
    same_folder(&p, given)?;
    let recorded = PathBuf::from(&p.out);
    match found(&recorded, &p.files)? {
        Found::Whole => Ok(Place::Adopt(p)),
        Found::Nothing => Ok(Place::Again),
        Found::Part => Err(Error::new(
            Kind::OutputConflict,
            crate::msg!(
                mc::ERR_PLACING_PART,
                path = recorded.display(),
                subject = describe(subject)
            ),
            crate::msg!(mc::REC_PLACING_PART, path = recorded.display()),
        )),
    }
}

/// Refuses (exit 4) a folder `given` now when a stopped run was placing the output of `subject`
/// in another one (spec/appliance.md §6.7): that folder only takes it up.
pub fn refuse_elsewhere(events: &[Event], subject: &Subject, given: &Path) -> Result<()> {
    match pending(events, subject) {
        Some(p) => same_folder(&p, given),
        None => Ok(()),
    }
}

/// Refuses (exit 4) a folder `given` now that is not the one the placing `p` recorded (compared
/// once resolved).
pub fn same_folder(p: &OutputPlacing, given: &Path) -> Result<()> {
    let recorded = PathBuf::from(&p.out);
    if fsio::resolve(&recorded)? == fsio::resolve(given)? {
        return Ok(());
    }
    Err(Error::new(
        Kind::OutputConflict,
        crate::msg!(
            mc::ERR_PLACING_ELSEWHERE,
            subject = describe(&p.subject),
            path = recorded.display()
        ),
        crate::msg!(mc::REC_PLACING_ELSEWHERE, path = recorded.display()),
    ))
}

/// Records that the output of `subject`, whose files have the SHA-256 `files` and whose
/// primary file is `file`, is about to be moved into `out`.
pub fn record(
    ctx: &mut Ctx,
    out: &Path,
    subject: Subject,
    file: &str,
    files: &BTreeMap<String, Hash32>,
) -> Result<()> {
    ctx.record(OutputPlacing {
        out: out.display().to_string(),
        file: file.to_string(),
        subject,
        files: files.clone(),
    })?;
    Ok(())
}

/// The bytes of the adopted output's primary file, once its signature is checked under the
/// token's result key (the SHA-256 of every file was checked against the record already).
pub fn primary(ctx: &mut Ctx, p: &OutputPlacing) -> Result<Vec<u8>> {
    let dir = PathBuf::from(&p.out);
    let path = dir.join(&p.file);
    let bytes = fsio::read_in(&dir, &p.file)?;
    let sig = fsio::read_in(&dir, &format!("{}.sig", p.file)).unwrap_or_default();
    let rk = ctx.hsm()?.public_key(KeyRole::Result)?;
    let recorded = p.files.get(&p.file).copied();
    if recorded != Some(sha256(&bytes)) || !urne_verify::crypto::ed25519::verify(&rk, &bytes, &sig)
    {
        return Err(Error::new(
            Kind::OutputConflict,
            crate::msg!(
                mc::ERR_PLACING_NOT_SIGNED,
                path = path.display(),
                subject = describe(&p.subject)
            ),
            crate::msg!(mc::REC_PLACING_NOT_SIGNED),
        ));
    }
    Ok(bytes)
}

/// What a killed run left in the recorded folder.
enum Found {
    /// Every file of the output, each with its recorded SHA-256.
    Whole,
    /// Nothing but staging leftovers (or no folder at all).
    Nothing,
    /// Anything else.
    Part,
}

/// What the recorded folder `dir` holds, read through its descriptor (a symbolic link in its
/// path refused, exit 4; no file read through a link).
fn found(dir: &Path, files: &BTreeMap<String, Hash32>) -> Result<Found> {
    let Some(d) = fsio::existing_folder(dir)? else {
        return Ok(Found::Nothing);
    };
    let names = d
        .names()
        .map_err(|e| crate::error::io_error(crate::error::Io::Read, dir, e))?;
    if names
        .iter()
        .all(|n| n.to_string_lossy().starts_with(fsio::STAGING_PREFIX))
    {
        return Ok(Found::Nothing);
    }
    let whole = files.iter().all(|(name, sha)| {
        d.read(name, limits::of(name))
            .is_ok_and(|b| sha256(&b) == *sha)
    });
    Ok(if whole { Found::Whole } else { Found::Part })
}

/// The subject in words, for messages, in the screens' language.
pub fn describe(s: &Subject) -> String {
    match s {
        Subject::Draw { day, attempt } => {
            crate::msg!(mc::ERR_PLACING_DRAW, day = day, attempt = attempt)
        }
        Subject::Block { block, attempt } => {
            crate::msg!(mc::ERR_PLACING_BLOCK, block = block, attempt = attempt)
        }
        Subject::Reveal { block, attempt } => {
            crate::msg!(mc::ERR_PLACING_REVEAL, block = block, attempt = attempt)
        }
        Subject::VoidNotice { void_seq } => {
            crate::msg!(mc::ERR_PLACING_VOID_NOTICE, seq = void_seq)
        }
        Subject::Sitting { number } => crate::msg!(mc::ERR_PLACING_SITTING, number = number),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files() -> BTreeMap<String, Hash32> {
        [
            ("a.json".to_string(), sha256(b"a")),
            ("manifest.json".to_string(), sha256(b"m")),
        ]
        .into()
    }

    #[test]
    fn a_recorded_folder_is_whole_empty_or_a_part() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("out");
        assert!(matches!(found(&dir, &files()), Ok(Found::Nothing)));
        std::fs::create_dir(&dir).unwrap();
        std::fs::create_dir(dir.join(".urne-staging-1-0")).unwrap();
        assert!(matches!(found(&dir, &files()), Ok(Found::Nothing)));
        std::fs::write(dir.join("a.json.sig"), b"sig").unwrap();
        assert!(matches!(found(&dir, &files()), Ok(Found::Part)));
        std::fs::write(dir.join("a.json"), b"a").unwrap();
        assert!(matches!(found(&dir, &files()), Ok(Found::Part)));
        std::fs::write(dir.join("manifest.json"), b"other").unwrap();
        assert!(matches!(found(&dir, &files()), Ok(Found::Part)));
        std::fs::remove_file(dir.join("manifest.json")).unwrap();
        std::fs::write(dir.join("manifest.json"), b"m").unwrap();
        assert!(matches!(found(&dir, &files()), Ok(Found::Whole)));
        // A file of the output swapped for a link to the same bytes elsewhere is not read
        // through the link: the output is not whole there.
        std::fs::write(t.path().join("elsewhere"), b"m").unwrap();
        std::fs::remove_file(dir.join("manifest.json")).unwrap();
        std::os::unix::fs::symlink(t.path().join("elsewhere"), dir.join("manifest.json")).unwrap();
        assert!(matches!(found(&dir, &files()), Ok(Found::Part)));
        // The folder itself reached through a link: refused (exit 4), never read through it.
        let link = t.path().join("link");
        std::os::unix::fs::symlink(&dir, &link).unwrap();
        let e = found(&link, &files())
            .err()
            .expect("a link in the path is refused");
        assert_eq!(e.kind, crate::error::Kind::SymbolicLink);
    }

    #[test]
    fn another_folder_than_the_recorded_one_is_refused_with_exit_4() {
        let t = tempfile::tempdir().unwrap();
        let p = OutputPlacing {
            out: t.path().join("first").display().to_string(),
            file: "a.json".into(),
            subject: Subject::Draw {
                day: "2018-12-04".parse().unwrap(),
                attempt: urne_verify::values::Attempt::new(2).unwrap(),
            },
            files: files(),
        };
        assert!(same_folder(&p, &t.path().join("first")).is_ok());
        assert!(same_folder(&p, &t.path().join("x/../first")).is_ok());
        let e = same_folder(&p, &t.path().join("second")).unwrap_err();
        assert_eq!(e.kind, crate::error::Kind::OutputConflict);
    }
}
