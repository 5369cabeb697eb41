//! Production's case (spec/formats.md §8.5): a lone `result.json` (what production imports) or a lone
//! block commitment, checked for what it proves alone. What needs the other files of the output
//! (the leaves for the selection, the rules file for the counts, the production file) is named in
//! `partial:` lines, never passed over in silence.

use super::block_folder::{commitment_evidence, identity, parse_commitment};
use super::draw::recompute_seed;
use super::draw_folder::{Header, checkpoint_and_history, step7_rules};
use super::folder::Folder;
use super::manifest_check::check_manifest;
use super::signed::{Keys, read_signed, read_signed_opt};
use super::{FailureClass as C, Report, VResult, fail, parse_named};
use crate::crypto::sha256;
use crate::draw::files::{RESULT_FORMAT, ResultFile};
use crate::manifest;

/// Verifies the lone `result.json` named `name` in `f` (spec/formats.md §8.5): the signatures of it and of
/// `rules.json`, `checkpoint.note` and `manifest.json` when beside it (step 1); its parse and
/// members; the entropy, its commitment and the seed (spec/formats.md §8.2 step 3); the audit checkpoint, the key
/// ids, `checkpoint.note`, the history and the order evidence (step 5); `rules.json` (step 7);
/// the manifest (step 9, with the result in place of the bundle). The selection is not
/// recomputed (no leaves): a `partial:` line says so.
pub fn verify_lone_result(f: &dyn Folder, name: &str, keys: &Keys) -> VResult<Report> {
    let mut r = Report::default();
    let bytes = read_signed(f, name, &keys.result)?;
    let rules = read_signed_opt(f, "rules.json", &keys.result)?;
    let note = read_signed_opt(f, "checkpoint.note", &keys.result)?;
    // [M-317]: a version-1 result has no manifest, whatever its signature.
    let manifest = if super::draw_folder::declares_version_1(&bytes) {
        super::folder::read_bounded(
            f,
            manifest::DRAW_FILE,
            super::folder::limits::of(manifest::DRAW_FILE),
        )?
    } else {
        read_signed_opt(f, manifest::DRAW_FILE, &keys.result)?
    };
    // The draw's other files beside it are signature-checked too, and then checked against
    // the manifest: none is passed over in silence.
    let pv = read_signed_opt(f, "pv.html", &keys.result)?;
    let leaves = read_signed_opt(f, "leaves.bin", &keys.result)?;
    r.checks.push(format!("{name} signature"));
    let res: ResultFile = parse_named(name, &bytes)?;
    if res.format != RESULT_FORMAT || !(1..=2).contains(&res.version) {
        return Err(fail(
            C::Malformed,
            format!("{name} is not an urne-draw-result version 1 or 2"),
        ));
    }
    r.days.push(res.core.day.clone());
    if res.pkcs11.is_some() != (res.version == 2) {
        return Err(fail(
            C::Malformed,
            format!("{name}: pkcs11 is a member of version 2, and only of version 2"),
        ));
    }
    recompute_seed(&res.core, res.version)?;
    r.checks
        .push("seed recomputed from the committed inputs, the contribution and the entropy".into());
    let h = Header {
        version: res.version,
        core: &res.core,
        audit_checkpoint: &res.audit_checkpoint,
        result_key_id: &res.result_key_id,
        audit_key_id: &res.audit_key_id,
        drawn_at: &res.drawn_at,
    };
    // Its history is checked alone; it does not join the chain across outputs (the chain names
    // its bundle, which is not here), only the check that each thing is published once.
    let _ = checkpoint_and_history(&h, &bytes, note.as_deref(), keys, &f.show(name), &mut r)?;
    step7_rules(rules.as_deref(), &res.core, &mut r)?;
    super::standing::of_draw(name, &res.core, res.version, &mut r)?;
    let present = |n: &str| -> Option<&[u8]> {
        match n {
            "result.json" => Some(&bytes),
            "rules.json" => rules.as_deref(),
            "checkpoint.note" => note.as_deref(),
            "pv.html" => pv.as_deref(),
            "leaves.bin" => leaves.as_deref(),
            _ => None,
        }
    };
    let files = LoneFiles { present: &present };
    manifest_of_result(manifest.as_deref(), &res, keys, &files, &mut r)?;
    r.partial.push(
        "the selection was not recomputed and the commitment not checked against the leaves (no bundle.json and leaves.bin)".into(),
    );
    r.subjects.push(super::Verified {
        words: super::manifest_check::subject(&res.core, res.version),
        value: super::Value::Result(Box::new(res)),
    });
    Ok(r)
}

/// The files beside a lone result.
struct LoneFiles<'a> {
    present: &'a dyn Fn(&str) -> Option<&'a [u8]>,
}

/// spec/formats.md §8.5's step 9: a manifest beside a lone result is checked as spec/formats.md §8.2 step 9 says; none is a
/// `partial:` line in version 2.
fn manifest_of_result(
    bytes: Option<&[u8]>,
    res: &ResultFile,
    keys: &Keys,
    files: &LoneFiles<'_>,
    r: &mut Report,
) -> VResult<()> {
    let Some(bytes) = bytes else {
        if res.version == 2 {
            r.partial.push("no manifest".into());
        }
        return Ok(());
    };
    check_manifest(
        manifest::DRAW_FILE,
        bytes,
        (&res.core, res.version),
        keys,
        |n| (files.present)(n).map(|b| (b.len() as u64, sha256(b))),
        r,
    )
}

/// Verifies the lone block commitment `name` in `f` (spec/formats.md §8.5): spec/formats.md §5.B10 steps 1–2 but the rules file
/// and the manifest: its signature, its parse, block id and members, its key ids, its audit
/// checkpoint, its contribution, its order evidence and its history alone.
pub fn verify_lone_commitment(f: &dyn Folder, name: &str, keys: &Keys) -> VResult<Report> {
    let mut r = Report::default();
    let bytes = read_signed(f, name, &keys.result)?;
    r.checks.push(format!("{name} signature"));
    let c = parse_commitment(name, &bytes)?;
    identity(name, &c)?;
    r.blocks.push(c.block.clone());
    super::standing::of_commitment(name, &c, &mut r)?;
    let output = commitment_evidence(name, &f.show(name), (&bytes, &c), keys, &mut r.published)?;
    r.outputs.extend(output);
    r.checks
        .push("key ids, audit checkpoint signature, randomness order and history".into());
    let file = name.rsplit('/').next().unwrap_or(name);
    r.partial.push(format!(
        "the rules and the production file were not checked ({file} alone)"
    ));
    if c.version == 2 {
        r.partial.push("no manifest".into());
    }
    r.subjects.push(super::Verified {
        words: super::block_folder::block_words(&c),
        value: super::Value::Commitment(Box::new(c)),
    });
    Ok(r)
}
