//! `urne verify DIR` on a folder holding a sitting's output (`sitting.json`, spec/formats.md §9.3): its
//! signature, its members, its checkpoint under the audit key, the key ids, the sitting's events
//! and the outputs it lists under that checkpoint, the files it lists (`checkpoint.note`,
//! `minutes.html`: signature, size and SHA-256; never the wording of the minutes), and its
//! history (spec/formats.md §6.7), in the order of spec/formats.md §9.4. The sitting is an output of its own: it is returned for
//! the checks across outputs (spec/formats.md §8.4), where every output it lists must be present
//! ([`check_listed`]). Stops at the first failure.

use super::folder::Folder;
use super::history;
use super::signed::{Keys, read_signed, read_signed_opt};
use super::{Failure, FailureClass as C, Listing, Report, VResult, fail, parse_named};
use crate::audit::chain::{self, Checkpoint};
use crate::crypto::{Hash32, sha256};
use crate::manifest::Audience;
use crate::sitting::{
    FILE_NAME, FORMAT, MINUTES, SittingFile, SittingKind, SittingOutput, VERSION,
};
use crate::values::KeyId;

/// The sitting's copy of its audit checkpoint (spec/formats.md §9.3).
pub const NOTE: &str = "checkpoint.note";

/// Verifies the sitting `dir/sitting.json` under `keys` (spec/formats.md §9.4), in the order of its
/// steps. Returns the checks done, the sitting as an output and what it lists, or the first
/// failure.
pub fn verify_sitting(f: &dyn Folder, keys: &Keys) -> VResult<Report> {
    let mut done = vec![];
    let bytes = check_signature(f, keys)?;
    done.push(format!("{FILE_NAME} signature"));
    let s = parse_sitting(&bytes)?;
    let cp = check_checkpoint(&s, keys)?;
    done.push("audit checkpoint signature".into());
    check_events(&s, keys, &cp)?;
    done.push(format!(
        "sitting {} ({}) at {}: opened at audit event {} ({}), closed at audit event {} ({}), covered by its checkpoint ({} events); {} output(s) published between them",
        s.number,
        kind_name(s.kind),
        s.place,
        s.opened_seq,
        s.opened_at,
        s.closed_seq,
        s.closed_at,
        cp.size,
        s.outputs.len()
    ));
    check_files(f, &s, keys)?;
    done.push(format!(
        "{NOTE} and {MINUTES}: signatures, sizes and SHA-256 as listed, {NOTE} is the audit checkpoint (the wording of the minutes is not checked)"
    ));
    let name = f.show(FILE_NAME);
    let subject = published_subject(&s);
    let output =
        history::versioned_output(&name, s.version, &bytes, Some(&s.history), &cp)?.map(|o| {
            history::Output {
                subject: Some(subject.clone()),
                ..o
            }
        });
    done.push("history: its checkpoint extends its predecessor's (RFC 6962 consistency)".into());
    let mut notes = vec![];
    if !s.outputs.is_empty() {
        notes.push(format!(
            "{name}: the {} output(s) sitting {} lists are not verified here: verify the folder of outputs that holds them (spec/formats.md §9.4)",
            s.outputs.len(),
            s.number
        ));
    }
    Ok(Report {
        checks: done,
        outputs: output.into_iter().collect(),
        subjects: vec![super::Verified {
            words: format!(
                "sitting {} ({}, version {})",
                s.number,
                kind_name(s.kind),
                s.version
            ),
            value: super::Value::Sitting(Box::new(s.clone())),
        }],
        notes,
        published: vec![super::Published {
            subject,
            checkpoint: cp,
            name: name.clone(),
        }],
        sittings: vec![Listing {
            name,
            number: s.number,
            outputs: s.outputs,
        }],
        ..Report::default()
    })
}

/// What a sitting publishes, once per trail (spec/formats.md §8.4, §9.4): its number on its trail (a
/// trail made by a witnessed restart numbers its sittings from 1 again, spec/appliance.md §9.1).
fn published_subject(s: &SittingFile) -> super::Publishes {
    super::Publishes::Sitting {
        number: s.number,
        trail: s.history.trail,
    }
}

/// `sitting` or `key-ceremony`, as spec/appliance.md §9.1 spells them.
fn kind_name(k: SittingKind) -> &'static str {
    match k {
        SittingKind::Sitting => "sitting",
        SittingKind::KeyCeremony => "key-ceremony",
    }
}

/// spec/formats.md §9.4: the signature of `sitting.json` under the result key, before it is parsed
/// (bad-signature, also for a missing `.sig`; missing, the file is no sitting: malformed).
fn check_signature(f: &dyn Folder, keys: &Keys) -> VResult<Vec<u8>> {
    read_signed(f, FILE_NAME, &keys.result)
}

/// spec/formats.md §9.4 (spec/formats.md §1.5): every member present, none added, of its type; `format`
/// `"urne-sitting"`, `version` 2; `number` and `opened_seq` at least 1, `opened_seq` before
/// `closed_seq`, the outputs in the trail's order (each `audit_seq` larger than the one before)
/// (malformed).
fn parse_sitting(bytes: &[u8]) -> VResult<SittingFile> {
    let s: SittingFile = parse_named(FILE_NAME, bytes)?;
    let malformed = |why: String| Err(fail(C::Malformed, format!("{FILE_NAME}: {why}")));
    if s.format != FORMAT || s.version != VERSION {
        return malformed(format!("it is not an {FORMAT} version {VERSION}"));
    }
    if s.number == 0 || s.opened_seq == 0 {
        return malformed("number and opened_seq count from 1".into());
    }
    if s.opened_seq >= s.closed_seq {
        return malformed(format!(
            "opened_seq {} is not before closed_seq {}",
            s.opened_seq, s.closed_seq
        ));
    }
    if s.outputs
        .windows(2)
        .any(|w| w[0].audit_seq >= w[1].audit_seq)
    {
        return malformed("outputs are not in the trail's order (audit_seq increasing)".into());
    }
    Ok(s)
}

/// spec/formats.md §9.4: `audit_checkpoint` verifies under the audit key (spec/formats.md §6.3) (bad-signature).
fn check_checkpoint(s: &SittingFile, keys: &Keys) -> VResult<Checkpoint> {
    chain::verify_note(&s.audit_checkpoint, &keys.audit).map_err(|e| {
        fail(
            super::note_class(&e, C::BadSignature),
            format!("{FILE_NAME} audit_checkpoint: {e}"),
        )
    })
}

/// spec/formats.md §9.4: the key ids are those of the keys used, the checkpoint covers `closed_seq`,
/// and every output's `audit_seq` lies strictly between `opened_seq` and `closed_seq`
/// (inconsistent).
fn check_events(s: &SittingFile, keys: &Keys, cp: &Checkpoint) -> VResult<()> {
    let bad = |why: String| Err(fail(C::Inconsistent, format!("{FILE_NAME}: {why}")));
    if s.result_key_id != KeyId::of(&keys.result) || s.audit_key_id != KeyId::of(&keys.audit) {
        return bad("result_key_id or audit_key_id is not the id of the key given".into());
    }
    if s.closed_seq > cp.size {
        return bad(format!(
            "its checkpoint ({} events) does not cover the sitting's close (audit event {})",
            cp.size, s.closed_seq
        ));
    }
    super::draw_folder::one_time_format("opened_at", &s.opened_at)?;
    super::draw_folder::one_time_format("closed_at", &s.closed_at)?;
    if let Some(o) = s
        .outputs
        .iter()
        .find(|o| o.audit_seq <= s.opened_seq || o.audit_seq >= s.closed_seq)
    {
        return bad(format!(
            "{} was published at audit event {}, not between the sitting's opening ({}) and close ({})",
            o.file, o.audit_seq, s.opened_seq, s.closed_seq
        ));
    }
    Ok(())
}

/// spec/formats.md §9.4: `files` lists exactly `checkpoint.note` then `minutes.html`, both `public`
/// (inconsistent); each is present with its signature (bad-signature) and that size and
/// SHA-256 (inconsistent); `checkpoint.note` is `audit_checkpoint` byte for byte
/// (inconsistent).
fn check_files(f: &dyn Folder, s: &SittingFile, keys: &Keys) -> VResult<()> {
    let bad = |why: String| fail(C::Inconsistent, format!("{FILE_NAME}: {why}"));
    let names: Vec<(&str, Audience)> = s.files.iter().map(|l| (&*l.name, l.audience)).collect();
    if names != [(NOTE, Audience::Public), (MINUTES, Audience::Public)] {
        return Err(bad(format!(
            "files must list {NOTE} and {MINUTES}, both public, and nothing else"
        )));
    }
    for l in &s.files {
        let bytes = read_signed_opt(f, &l.name, &keys.result)?
            .ok_or_else(|| bad(format!("{} is listed but not in the folder", l.name)))?;
        check_listed_file(&l.name, &bytes, l.size, &l.sha256).map_err(bad)?;
        if l.name == NOTE && bytes != s.audit_checkpoint.as_bytes() {
            return Err(bad(format!(
                "{NOTE} is not its audit_checkpoint byte for byte"
            )));
        }
    }
    Ok(())
}

/// A listed file's bytes have the listed size and SHA-256.
pub(super) fn check_listed_file(
    name: &str,
    bytes: &[u8],
    size: u64,
    sha: &Hash32,
) -> Result<(), String> {
    if bytes.len() as u64 != size || sha256(bytes) != *sha {
        return Err(format!(
            "{name} ({} bytes, SHA-256 {}) is not the file listed ({size} bytes, SHA-256 {sha})",
            bytes.len(),
            sha256(bytes)
        ));
    }
    Ok(())
}

/// spec/formats.md §9.4, in a folder of outputs (spec/formats.md §8.4): every output a sitting lists is among
/// `outputs` (the SHA-256 of its primary file) (inconsistent): a publication medium that lost
/// one of a sitting's outputs does not verify.
///
/// # Errors
/// The first output listed and absent.
pub fn check_listed(sittings: &[Listing], outputs: &[history::Output]) -> VResult<()> {
    for s in sittings {
        if let Some(o) = s
            .outputs
            .iter()
            .find(|o| !outputs.iter().any(|x| x.sha256 == o.sha256))
        {
            return Err(missing(s, o));
        }
    }
    Ok(())
}

fn missing(s: &Listing, o: &SittingOutput) -> Failure {
    fail(
        C::Inconsistent,
        format!(
            "{}: sitting {} lists {} (SHA-256 {}, published at audit event {}), which is not among these outputs",
            s.name, s.number, o.file, o.sha256, o.audit_seq
        ),
    )
}
