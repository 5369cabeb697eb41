//! Target `folder`: `verify` on a draw folder (`verify_draw_folder`, spec/formats.md §8.2, public or
//! auditor mode), a block folder (`verify_block_folder`, spec/formats.md §5.B10) or a void notice's folder
//! (`verify_void_notice`, spec/formats.md §4.6) built from fuzzed files.
//!
//! Input ([`decode`], [`encode`]): a mode byte (modulo 4: a draw folder, a block folder, a
//! draw folder in auditor mode with the folder's first `*.jsonl` file as the export, a void
//! notice's folder), then files, each
//! `name length (1 byte) || name || size (2 bytes, little-endian) || bytes`; a size past the end
//! of the input takes what is left. Names outside `[A-Za-z0-9._-]` (or starting with `.`) are
//! skipped; a later file of the same name replaces an earlier one.
//!
//! Every file that has no `.sig` among the input's files is signed here, so that the
//! verification goes past the signature checks and reaches the parsers: by the test result key,
//! or by the test vectors' producer key for an export (`*.jsonl`). The keys given to `verify` are the test
//! vectors' result and audit keys ([`crate::keys`]), so the checkpoints of the vectors' folders,
//! which the seeds are made of, verify.
//!
//! Property: `verify` never panics.

use crate::keys;
use std::collections::BTreeMap;
use urne_verify::verify::block_folder::{block_commitments, verify_block_folder};
use urne_verify::verify::draw_folder::{Auditor, verify_draw_folder};
use urne_verify::verify::folder::MemFolder;
use urne_verify::verify::signed::Keys;
use urne_verify::verify::void_notice::verify_void_notice;
use urne_verify::verify::{Failure, Report};

/// What kind of folder the files make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A draw folder, public mode.
    Draw,
    /// A draw folder, auditor mode (the first `*.jsonl` file is the export, if there is one).
    DrawAuditor,
    /// A block folder.
    Block,
    /// A void notice's folder.
    Void,
}

/// A folder's files, by name.
pub type Files = BTreeMap<String, Vec<u8>>;

fn valid_name(n: &[u8]) -> bool {
    !n.is_empty()
        && n[0] != b'.'
        && n.iter()
            .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// The folder kind and files an input stands for.
pub fn decode(data: &[u8]) -> Option<(Kind, Files)> {
    let (&mode, mut rest) = data.split_first()?;
    let kind = match mode % 4 {
        0 => Kind::Draw,
        1 => Kind::Block,
        2 => Kind::DrawAuditor,
        _ => Kind::Void,
    };
    let mut files = Files::new();
    while let Some((&n, r)) = rest.split_first() {
        let n = usize::from(n);
        if r.len() < n + 2 {
            break;
        }
        let (name, r) = r.split_at(n);
        let size = usize::from(u16::from_le_bytes([r[0], r[1]]));
        let r = &r[2..];
        let (bytes, r) = r.split_at(size.min(r.len()));
        rest = r;
        if valid_name(name)
            && let Ok(name) = String::from_utf8(name.to_vec())
        {
            files.insert(name, bytes.to_vec());
        }
    }
    Some((kind, files))
}

/// The input [`decode`] reads as `kind` and `files` (files over 65,535 bytes are cut).
///
/// # Panics
/// If a name is longer than 255 bytes.
pub fn encode(kind: Kind, files: &Files) -> Vec<u8> {
    let mut out = vec![match kind {
        Kind::Draw => 0,
        Kind::Block => 1,
        Kind::DrawAuditor => 2,
        Kind::Void => 3,
    }];
    for (name, bytes) in files {
        out.push(u8::try_from(name.len()).expect("a short name"));
        out.extend_from_slice(name.as_bytes());
        let size = u16::try_from(bytes.len()).unwrap_or(u16::MAX);
        out.extend_from_slice(&size.to_le_bytes());
        out.extend_from_slice(&bytes[..usize::from(size)]);
    }
    out
}

/// `files` with a signature beside every file that has none.
#[expect(
    clippy::case_sensitive_file_extension_comparisons,
    reason = "output names are exact (spec/formats.md §4.7): a name ending `.JSON` is none of them"
)]
pub fn signed(files: &Files) -> Files {
    let mut out = files.clone();
    for (name, bytes) in files {
        let sig = format!("{name}.sig");
        if name.ends_with(".sig") || files.contains_key(&sig) {
            continue;
        }
        let key = if name.ends_with(".jsonl") {
            keys::vector_producer()
        } else {
            keys::result()
        };
        out.insert(sig, keys::sign(key, bytes).to_vec());
    }
    out
}

/// Verifies `files` as a folder of `kind` under the test keys: the one place that turns files
/// into a folder (an in-memory one: the core reads no file itself).
///
/// # Panics
/// Never: the in-memory folder always lists.
#[expect(
    clippy::case_sensitive_file_extension_comparisons,
    reason = "output names are exact (spec/formats.md §4.7): a name ending `.JSON` is none of them"
)]
pub fn verify_files(kind: Kind, files: &Files) -> Result<Report, Failure> {
    let folder = MemFolder::of(files.iter().map(|(n, b)| (n.clone(), b.clone())));
    let keys = Keys {
        result: keys::public(keys::result()),
        audit: keys::public(keys::audit()),
        source: "fuzz".into(),
    };
    match kind {
        Kind::Block => {
            let commitments = block_commitments(&folder).expect("the folder lists");
            verify_block_folder(&folder, &commitments, &keys)
        }
        Kind::Void => verify_void_notice(&folder, &keys),
        Kind::Draw | Kind::DrawAuditor => {
            let export = files.keys().find(|n| n.ends_with(".jsonl"));
            let auditor = match (kind, export) {
                (Kind::DrawAuditor, Some(e)) => Some(Auditor {
                    folder: &folder,
                    name: e.clone(),
                    producer_keys: vec![keys::public(keys::vector_producer())],
                }),
                _ => None,
            };
            verify_draw_folder(&folder, &keys, auditor.as_ref())
        }
    }
}

/// The target.
pub fn folder(data: &[u8]) {
    let Some((kind, files)) = decode(data) else {
        return;
    };
    let _ = verify_files(kind, &signed(&files));
}
