//! A release (spec/formats.md §8.8): its manifest `SHA256SUMS`, read with its signature checked
//! under the release keys given before it is parsed, and each software record of the outputs
//! verified judged against the releases given: the released `bin/urne` of its source revision,
//! a binary built another way, or a revision not released.
//!
//! Pure, as the rest of verification: the manifest is read through a [`Folder`] (its `.sig`
//! beside it, nothing followed), the release keys are given as raw keys by the caller, and what
//! comes out is typed values; the verdict's words are `verdict.rs`'s.

use super::folder::{Entry, Folder, limits, read_bounded};
use super::{Failure, FailureClass, Report, Value, fail};
use crate::crypto::{Hash32, keys};
use crate::software::{SoftwareIdentity, Started};
use crate::values::{Commit, KeyId};

/// The bare binaries every release lists (spec/formats.md §8.8 [M-409]); the first is the
/// appliance's, whose SHA-256 the outputs state.
pub const BINARIES: [&str; 3] = ["bin/urne", "bin/urne-verify", "bin/urne-import"];

/// What every source archive's name begins with at the release's root.
const ARCHIVE_PREFIX: &str = "urne-src-";
/// What it ends with.
const ARCHIVE_SUFFIX: &str = ".tar.gz";

/// A release manifest as parsed (spec/formats.md §8.8): its source revision, the SHA-256 of its
/// `bin/urne`, and every file it lists, in its order (bytewise by name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    /// The commit its source archive `urne-src-<commit>.tar.gz` names.
    pub commit: Commit,
    /// The SHA-256 of its `bin/urne`.
    pub urne: Hash32,
    /// Every file it lists: name and SHA-256.
    pub files: Vec<(String, Hash32)>,
}

/// What is wrong with one line of a manifest.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineFault {
    /// Not `<64 lowercase hex>  <name>`.
    #[error("not `<sha256>  <name>` (64 lowercase hex digits, two spaces, a name)")]
    Shape,
    /// A name with an empty component, a `.` or `..`, or a byte outside 0x21–0x7E (or `\`).
    #[error("{0:?} is not a name relative to the release's root")]
    Name(String),
    /// A name not after the one before it, bytewise.
    #[error("{name:?} comes after {before:?}: the names are not in bytewise order")]
    Order {
        /// This line's name.
        name: String,
        /// The name of the line before it.
        before: String,
    },
    /// A name listed on an earlier line.
    #[error("{0:?} is listed twice")]
    Twice(String),
}

/// Why a manifest is `malformed` (spec/formats.md §8.8 [M-409]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ManifestError {
    /// The file does not end with an LF (or is empty).
    #[error("it does not end with an LF (or is empty)")]
    NoFinalLf,
    /// A line that is not a manifest's.
    #[error("line {line}: {fault}")]
    Line {
        /// Its number, from 1.
        line: usize,
        /// What is wrong with it.
        fault: LineFault,
    },
    /// No source archive at the root.
    #[error("it lists no source archive urne-src-<commit>.tar.gz")]
    NoArchive,
    /// A name at the root that starts `urne-src-` but is not `urne-src-<commit>.tar.gz`.
    #[error("{0:?} is not a source archive's name urne-src-<40 lowercase hex digits>.tar.gz")]
    ArchiveName(String),
    /// Two names at the root that start `urne-src-`.
    #[error("it lists two source archives, {0:?} and {1:?}")]
    TwoArchives(String, String),
    /// One of the three binaries is not listed.
    #[error("it does not list {0}")]
    MissingBinary(&'static str),
}

/// Whether `name` is a name relative to the release's root (spec/formats.md §8.8): components
/// of bytes 0x21–0x7E other than `/` and `\`, none empty, `.` or `..`.
fn is_name(name: &str) -> bool {
    name.split('/').all(|c| {
        !c.is_empty()
            && c != "."
            && c != ".."
            && c.bytes().all(|b| (0x21..=0x7e).contains(&b) && b != b'\\')
    })
}

/// Parses a manifest's bytes (spec/formats.md §8.8 [M-409]), once its signature held.
///
/// # Errors
/// The first thing that is not a manifest's, as [`ManifestError`].
pub fn parse_manifest(bytes: &[u8]) -> Result<Manifest, ManifestError> {
    let Some(body) = bytes.strip_suffix(b"\n") else {
        return Err(ManifestError::NoFinalLf);
    };
    let mut files: Vec<(String, Hash32)> = vec![];
    for (i, raw) in body.split(|b| *b == b'\n').enumerate() {
        let at = |fault| ManifestError::Line { line: i + 1, fault };
        let text = std::str::from_utf8(raw).map_err(|_| at(LineFault::Shape))?;
        let (hash, name) = text
            .split_at_checked(64)
            .and_then(|(h, rest)| Some((Hash32::from_hex(h)?, rest.strip_prefix("  ")?)))
            .ok_or_else(|| at(LineFault::Shape))?;
        if !is_name(name) {
            return Err(at(LineFault::Name(name.into())));
        }
        // In bytewise order, a name listed twice is on the line after its first.
        if let Some((before, _)) = files.last() {
            if before.as_str() == name {
                return Err(at(LineFault::Twice(name.into())));
            }
            if before.as_bytes() > name.as_bytes() {
                return Err(at(LineFault::Order {
                    name: name.into(),
                    before: before.clone(),
                }));
            }
        }
        files.push((name.to_string(), hash));
    }
    let mut archives = files
        .iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| n.starts_with(ARCHIVE_PREFIX) && !n.contains('/'));
    let archive = match (archives.next(), archives.next()) {
        (None, _) => return Err(ManifestError::NoArchive),
        (Some(a), Some(b)) => return Err(ManifestError::TwoArchives(a.into(), b.into())),
        (Some(a), None) => a,
    };
    let commit = archive
        .strip_prefix(ARCHIVE_PREFIX)
        .and_then(|r| r.strip_suffix(ARCHIVE_SUFFIX))
        .and_then(|c| c.parse::<Commit>().ok())
        .ok_or_else(|| ManifestError::ArchiveName(archive.into()))?;
    let listed = |bin: &'static str| {
        files
            .iter()
            .find(|(n, _)| n == bin)
            .map(|(_, h)| *h)
            .ok_or(ManifestError::MissingBinary(bin))
    };
    let urne = listed(BINARIES[0])?;
    for bin in &BINARIES[1..] {
        listed(bin)?;
    }
    Ok(Manifest {
        commit,
        urne,
        files,
    })
}

/// A release given whose manifest verified under a release key (spec/formats.md §8.8).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Release {
    /// The manifest as the user named it, for messages and the `release:` line.
    pub path: String,
    /// The id of the release key its signature verified under.
    pub key: KeyId,
    /// What it lists.
    pub manifest: Manifest,
}

/// Why a release given is refused: exit 2, nothing verified (spec/formats.md §8.8 [M-412],
/// [M-413]). Each variant has its class, which the refusal's words name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReleaseError {
    /// No file at the path given.
    #[error("{path}: no such file")]
    Missing {
        /// The manifest as given.
        path: String,
    },
    /// The manifest or its signature cannot be read.
    #[error("{path}: {what}")]
    Unreadable {
        /// The manifest as given.
        path: String,
        /// Why.
        what: String,
    },
    /// A missing `.sig`, one of another size, or a signature that verifies under no release
    /// key given ([M-410]); or a manifest or `.sig` that is not a regular file within its limit.
    #[error("{path}: {what}")]
    BadSignature {
        /// The manifest as given.
        path: String,
        /// What does not hold.
        what: String,
    },
    /// A manifest that does not parse ([M-409]).
    #[error("{path}: {error}")]
    Malformed {
        /// The manifest as given.
        path: String,
        /// What is wrong.
        error: ManifestError,
    },
    /// Two releases of one source revision listing different `bin/urne` ([M-413]).
    #[error(
        "{first} and {second} are both of source revision {commit} and list different bin/urne: one revision is one binary"
    )]
    Disagree {
        /// The first manifest given.
        first: String,
        /// The other.
        second: String,
        /// Their revision.
        commit: Commit,
    },
}

impl ReleaseError {
    /// The class its refusal names (spec/formats.md §8.8 [M-412]).
    pub fn class(&self) -> FailureClass {
        match self {
            ReleaseError::Missing { .. } | ReleaseError::Unreadable { .. } => {
                FailureClass::Unreadable
            }
            ReleaseError::BadSignature { .. } => FailureClass::BadSignature,
            ReleaseError::Malformed { .. } => FailureClass::Malformed,
            ReleaseError::Disagree { .. } => FailureClass::Inconsistent,
        }
    }
}

/// Reads the manifest `name` of `folder` and its `name.sig` (spec/formats.md §1.6, §8.8): the
/// signature checked under each of `release_keys` before the manifest is parsed [M-410].
/// `shown` names it in messages.
///
/// # Errors
/// A [`ReleaseError`]: missing, unreadable, a signature that holds under no key given, a
/// manifest that does not parse.
pub fn read_release(
    folder: &dyn Folder,
    name: &str,
    shown: &str,
    release_keys: &[[u8; 32]],
) -> Result<Release, ReleaseError> {
    let path = shown.to_string();
    let bad = |what: String| ReleaseError::BadSignature {
        path: path.clone(),
        what,
    };
    let read = |n: &str, limit| match read_bounded(folder, n, limit) {
        Ok(b) => Ok(b),
        Err(f) if f.class == FailureClass::Unreadable => Err(ReleaseError::Unreadable {
            path: path.clone(),
            what: f.what,
        }),
        Err(f) => Err(bad(f.what)),
    };
    let bytes = read(name, limits::RELEASE_MANIFEST)?
        .ok_or_else(|| ReleaseError::Missing { path: path.clone() })?;
    let sig_name = format!("{name}.sig");
    // A signature of another size is bad-signature (spec/formats.md §1.4), read or not.
    if let Entry::File(size) = folder.entry(&sig_name)
        && size != limits::SIG
    {
        return Err(bad(format!(
            "{sig_name} has {size} bytes, not the 64 of an Ed25519 signature"
        )));
    }
    let sig = read(&sig_name, limits::SIG)?
        .ok_or_else(|| bad(format!("no signature file {sig_name} beside it")))?;
    let Some(key) = release_keys.iter().find(|k| keys::verify(k, &bytes, &sig)) else {
        return Err(bad(format!(
            "its signature {sig_name} does not verify under the release key{} given ({})",
            if release_keys.len() == 1 { "" } else { "s" },
            KeyId::join(&release_keys.iter().map(KeyId::of).collect::<Vec<_>>())
        )));
    };
    let manifest = parse_manifest(&bytes).map_err(|error| ReleaseError::Malformed {
        path: path.clone(),
        error,
    })?;
    Ok(Release {
        path,
        key: KeyId::of(key),
        manifest,
    })
}

/// The releases given, each verified, no two of one source revision listing different
/// `bin/urne` (spec/formats.md §8.8 [M-413]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Releases(Vec<Release>);

/// What a software record is against the releases given (spec/formats.md §8.8 [M-414]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Standing {
    /// The released `bin/urne` of its source revision.
    Released {
        /// The release's revision.
        commit: Commit,
    },
    /// Its source revision is released, with another `bin/urne`.
    BuiltAnotherWay {
        /// The release's revision.
        commit: Commit,
        /// The SHA-256 of the released `bin/urne`.
        released: Hash32,
    },
    /// No release given is of its source revision.
    NotReleased,
}

impl Releases {
    /// The releases `given`, in their order.
    ///
    /// # Errors
    /// [`ReleaseError::Disagree`] for two of one revision with different binaries.
    pub fn new(given: Vec<Release>) -> Result<Releases, ReleaseError> {
        for (i, r) in given.iter().enumerate() {
            if let Some(other) = given[..i].iter().find(|o| {
                o.manifest.commit == r.manifest.commit && o.manifest.urne != r.manifest.urne
            }) {
                return Err(ReleaseError::Disagree {
                    first: other.path.clone(),
                    second: r.path.clone(),
                    commit: r.manifest.commit.clone(),
                });
            }
        }
        Ok(Releases(given))
    }

    /// The releases, in the order given.
    pub fn iter(&self) -> impl Iterator<Item = &Release> {
        self.0.iter()
    }

    /// What `software` is against these releases: its `source_revision` compared byte for byte
    /// with each release's commit, then its `executable_sha256` with that release's `bin/urne`.
    pub fn judge(&self, software: &SoftwareIdentity) -> Standing {
        match self
            .0
            .iter()
            .find(|r| r.manifest.commit.as_str() == software.source_revision)
        {
            None => Standing::NotReleased,
            Some(r) if r.manifest.urne == software.executable_sha256 => Standing::Released {
                commit: r.manifest.commit.clone(),
            },
            Some(r) => Standing::BuiltAnotherWay {
                commit: r.manifest.commit.clone(),
                released: r.manifest.urne,
            },
        }
    }
}

/// A software record of the outputs verified and what states it: the words of its output's
/// first line (spec/formats.md §8.8), or, for an exported trail, its `software.start` events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stated {
    /// What states it, as the `software:` line names it before ` in <path>`.
    pub what: String,
    /// The software.
    pub software: SoftwareIdentity,
}

/// Every software record of `report`'s outputs, in the order of their first lines: a draw's
/// bundle (its result states the same, spec/formats.md §8.2 step 6), a lone result, a block's
/// or a lone commitment's, and each distinct software of an exported trail's `software.start`
/// events, in the order of their first event.
///
/// # Errors
/// A `software.start` payload that does not parse: `malformed`.
pub fn stated(report: &Report) -> Result<Vec<Stated>, Failure> {
    let mut out = vec![];
    for s in &report.subjects {
        let one = |software: &SoftwareIdentity| Stated {
            what: s.words.clone(),
            software: software.clone(),
        };
        match &s.value {
            Value::Draw { bundle, .. } => out.push(one(&bundle.software)),
            Value::Result(r) => out.push(one(&r.software)),
            Value::Block { commitment: c, .. } | Value::Commitment(c) => {
                out.push(one(&c.software));
            }
            Value::AuditTrail { events, software } => out.extend(trail_stated(*events, software)?),
            Value::VoidNotice(_) | Value::Sitting(_) | Value::KeyExport(_) => {}
        }
    }
    Ok(out)
}

/// An exported trail's software records, one per distinct software in the order of its first
/// event: `<n> software.start events from seq <first> to <last> of the audit trail of <events>
/// events`.
fn trail_stated(events: u64, started: &[Started]) -> Result<Vec<Stated>, Failure> {
    let mut seen: Vec<(&SoftwareIdentity, u64, u64, u64)> = vec![];
    for s in started {
        let software = s.software.as_ref().map_err(|e| {
            fail(
                FailureClass::Malformed,
                format!(
                    "event {} (software.start) of the audit trail: its payload does not parse: {e}",
                    s.seq
                ),
            )
        })?;
        match seen.iter_mut().find(|(w, ..)| *w == software) {
            Some((_, n, _, last)) => {
                *n += 1;
                *last = s.seq;
            }
            None => seen.push((software, 1, s.seq, s.seq)),
        }
    }
    Ok(seen
        .into_iter()
        .map(|(software, n, first, last)| Stated {
            what: format!(
                "{n} software.start event{} from seq {first} to {last} of the audit trail of {events} events",
                if n == 1 { "" } else { "s" }
            ),
            software: software.clone(),
        })
        .collect())
}

/// A software record judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judged {
    /// The record and what states it.
    pub stated: Stated,
    /// What it is against the releases given.
    pub standing: Standing,
}

/// Every software record of `report` judged against `releases` (spec/formats.md §8.8 [M-414]),
/// in the order of the outputs' first lines.
///
/// # Errors
/// As [`stated`].
pub fn judge_all(report: &Report, releases: &Releases) -> Result<Vec<Judged>, Failure> {
    Ok(stated(report)?
        .into_iter()
        .map(|stated| Judged {
            standing: releases.judge(&stated.software),
            stated,
        })
        .collect())
}

/// The failure of class `not-released` (exit 9, spec/formats.md §8.8 [M-417]) when any record
/// of `judged` is not released, naming how many and the first.
pub fn not_released(judged: &[Judged]) -> Option<Failure> {
    let bad: Vec<&Judged> = judged
        .iter()
        .filter(|j| !matches!(j.standing, Standing::Released { .. }))
        .collect();
    let first = bad.first()?;
    let why = match &first.standing {
        Standing::BuiltAnotherWay { commit, .. } => {
            format!("built another way than release {commit}")
        }
        _ => format!(
            "of source revision {}, which no release given is",
            first.stated.software.source_revision
        ),
    };
    Some(fail(
        FailureClass::NotReleased,
        format!(
            "{} of the {} software records verified {} not the released bin/urne of {} source revision; the first, {}, is {why}",
            bad.len(),
            judged.len(),
            if bad.len() == 1 { "is" } else { "are" },
            if bad.len() == 1 { "its" } else { "their" },
            first.stated.what
        ),
    ))
}

#[cfg(test)]
mod tests;
