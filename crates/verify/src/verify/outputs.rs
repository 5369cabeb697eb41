//! `urne verify DIR`, whatever `DIR` holds (spec/formats.md §8.4): one output (a draw folder, a block
//! folder, a void notice, alone or beside one of them; a lone `result.json`), or a folder whose
//! immediate subfolders are outputs. Each output is verified alone, then the version-2 outputs
//! together as one linear history, and the checkpoints held outside the appliance against it.

use super::block_folder::{block_commitments, verify_block_folder};
use super::draw_folder::{Auditor, verify_draw_folder};
use super::folder::{Entry, Folder};
use super::lone::verify_lone_result;
use super::signed::Keys;
use super::sitting::{check_listed, verify_sitting};
use super::void_notice::verify_void_notice;
use super::{Expect, FailureClass as C, Report, VResult, fail, history};
use crate::audit::chain;
use crate::sitting::FILE_NAME as SITTING;
use crate::void_notice::FILE_NAME as VOID_NOTICE;

pub use super::folder::STAGING_PREFIX;

/// Whether `f` is one output: a draw's (`bundle.json`), a block folder, a void notice's, a
/// sitting's, or production's lone `result.json`.
pub fn is_output(f: &dyn Folder) -> bool {
    [
        "bundle.json",
        VOID_NOTICE,
        SITTING,
        "result.json",
        KEYS_FILE,
    ]
    .iter()
    .any(|n| f.entry(n) != Entry::Missing)
        || block_commitments(f).is_ok_and(|c| !c.is_empty())
}

/// Verifies the one output `f` (and the void notice beside it, if any): its report.
pub fn verify_output(
    f: &dyn Folder,
    keys: &Keys,
    auditor: Option<&Auditor>,
    expect: &Expect,
) -> VResult<Report> {
    let mut r = Report::default();
    let commits = block_commitments(f).map_err(|e| fail(C::Unreadable, e.0))?;
    let is_draw = f.entry("bundle.json") != Entry::Missing;
    if auditor.is_some() && !is_draw {
        return Err(fail(
            C::Usage,
            format!(
                "{} is not a draw folder: --export checks a draw",
                f.show("")
            ),
        ));
    }
    // Every kind of output the folder holds is verified (a folder is never judged by one of
    // them alone).
    if is_draw {
        r.extend(verify_draw_folder(f, keys, auditor)?);
    } else if f.entry("result.json") != Entry::Missing {
        r.extend(verify_lone_result(f, "result.json", keys)?);
    }
    if !commits.is_empty() {
        r.extend(verify_block_folder(f, &commits, keys)?);
    }
    if f.entry(VOID_NOTICE) != Entry::Missing {
        r.extend(verify_void_notice(f, keys)?);
    }
    if f.entry(SITTING) != Entry::Missing {
        r.extend(verify_sitting(f, keys)?);
    }
    if f.entry(KEYS_FILE) != Entry::Missing {
        r.extend(verify_key_export(f, keys)?);
    }
    for n in f.names().map_err(|e| fail(C::Unreadable, e.0))? {
        if n.starts_with(STAGING_PREFIX) {
            r.notes.push(format!(
                "{} is the staging folder of an interrupted command: its files are not outputs and are not checked",
                f.show(&n)
            ));
        }
    }
    let notes = history::check_linear(&r.outputs, false)?;
    r.notes.extend(notes);
    super::check_once(&r.published)?;
    expect.check(&r)?;
    Ok(r)
}

/// The key export's listing (`urne keys export`, spec/formats.md §8.6).
const KEYS_FILE: &str = "keys.json";

/// spec/formats.md §8.6: a key export (a folder holding `keys.json`, as `urne keys export` and the
/// key ceremony write it): `keys.json` signed by the result key [bad-signature] [M-322]; parsed,
/// each role's `file` its PEM's name [malformed] [M-323]; each `key_id` that of its `public_key`,
/// each key the one given [inconsistent] [M-324]; the PEM files beside it those keys
/// [inconsistent] [M-325]; no key labelled as a rehearsal token's (spec/formats.md §6.10)
/// [rehearsal] [M-382].
fn verify_key_export(f: &dyn Folder, keys: &Keys) -> VResult<Report> {
    use crate::crypto::keys::{key_id, public_key_from_pem};
    let bytes = super::signed::read_signed(f, KEYS_FILE, &keys.result)?;
    let k: crate::events::payloads::ExportedKeys = super::parse_named(KEYS_FILE, &bytes)?;
    let mut r = Report::default();
    r.checks.push(format!("{KEYS_FILE} signature"));
    let bad = |why: String| Err(fail(C::Inconsistent, format!("{KEYS_FILE}: {why}")));
    for (role, e, given) in [
        ("result", &k.result, &keys.result),
        ("audit", &k.audit, &keys.audit),
    ] {
        let pem_name = format!("{role}.pub.pem");
        if e.file != pem_name {
            return Err(fail(
                C::Malformed,
                format!("{KEYS_FILE}: the {role} key's file is not {pem_name}"),
            ));
        }
        if e.key_id != key_id(&e.public_key.0) {
            return bad(format!("the {role} key's key_id is not its public key's"));
        }
        if e.public_key.0 != *given {
            return bad(format!(
                "the {role} key {} is not the {role} key given ({})",
                e.key_id,
                key_id(given)
            ));
        }
        let pem = super::folder::read_bounded(f, &pem_name, super::folder::limits::PEM)?;
        let pem = pem.and_then(|b| String::from_utf8(b).ok());
        if pem.and_then(|t| public_key_from_pem(&t).ok()) != Some(e.public_key.0) {
            return bad(format!(
                "{} is not the {role} key it lists",
                f.show(&pem_name)
            ));
        }
    }
    r.checks
        .push("each key's id, the keys given, the PEM files beside it".into());
    // spec/formats.md §6.10: the keys of a rehearsal token bear its labels, which `keys.json`
    // states signed: a rehearsal's keys are never an official appliance's [rehearsal] [M-382].
    for (role, e) in [("result", &k.result), ("audit", &k.audit)] {
        if e.label
            .starts_with(crate::audit::chain::REHEARSAL_LABEL_PREFIX)
        {
            return Err(fail(
                C::Rehearsal,
                format!(
                    "{KEYS_FILE}: the {role} key is labelled {:?}, a rehearsal token's: RÉPÉTITION — SANS VALEUR / REHEARSAL — NO VALUE, never an official appliance's keys",
                    e.label
                ),
            ));
        }
    }
    r.subjects.push(super::Verified {
        words: format!(
            "the key export of result key {} and audit key {}",
            k.result.key_id, k.audit.key_id
        ),
        value: super::Value::KeyExport(Box::new(k)),
    });
    Ok(r)
}

/// Verifies a folder whose immediate subfolders are outputs (a whole operation's publications,
/// spec/formats.md §8.4): each alone, then together one linear history of one trail in which every predecessor
/// is present. A symbolic link in it (to a folder or to anything) is never followed: it is
/// `malformed`, as where an output folder is expected it could hide one (a fork's second draw).
pub fn verify_outputs(f: &dyn Folder, keys: &Keys, expect: &Expect) -> VResult<Report> {
    let mut r = Report::default();
    let mut n = 0;
    for name in f.names().map_err(|e| fail(C::Unreadable, e.0))? {
        if f.entry(&name) == Entry::Link {
            return Err(fail(
                C::Malformed,
                format!(
                    "{} is a symbolic link: a folder of outputs holds none (one could hide an output), it is not followed",
                    f.show(&name)
                ),
            ));
        }
        let Some(sub) = f.sub(&name) else {
            say_of_file(f, &name, &mut r);
            continue;
        };
        if !say_of_folder(f, &name, sub.as_ref(), &mut r)? {
            continue;
        }
        let one = verify_output(sub.as_ref(), keys, None, expect)?;
        r.days.extend(one.days.iter().cloned());
        r.blocks.extend(one.blocks.iter().cloned());
        r.published.extend(one.published.iter().cloned());
        r.checks
            .push(format!("{}: {} checks", f.show(&name), one.checks.len()));
        r.subjects.extend(one.subjects);
        r.partial.extend(
            one.partial
                .into_iter()
                .map(|p| format!("{}: {p}", f.show(&name))),
        );
        r.outputs.extend(one.outputs);
        r.sittings.extend(one.sittings);
        n += 1;
    }
    if n == 0 {
        return Err(fail(
            C::Usage,
            format!(
                "{} holds no urne outputs (no bundle.json, no block commitment, no void notice, no sitting.json, no result.json, no folder of outputs)",
                f.show("")
            ),
        ));
    }
    // Every output a sitting lists is among them (spec/formats.md §9.4), then one linear history.
    check_listed(&r.sittings, &r.outputs)?;
    let notes = history::check_linear(&r.outputs, true)?;
    r.notes.extend(notes);
    super::check_once(&r.published)?;
    r.whole = true;
    r.checks.push(format!(
        "one linear history: {} version-2 outputs of one trail (or of trails linked by witnessed restarts), each extending the one before it",
        r.outputs.len()
    ));
    Ok(r)
}

/// `--checkpoint NOTE` for outputs (spec/formats.md §8.4): each note held outside the appliance (`(name,
/// text)`) verifies under the audit key (bad-signature) and lies on the history of `outputs`
/// (fork, inconsistent). Version-1 outputs carry no history to check it against (usage).
pub fn check_held(
    outputs: &[history::Output],
    held: &[(String, String)],
    keys: &Keys,
) -> VResult<()> {
    if held.is_empty() {
        return Ok(());
    }
    if outputs.is_empty() {
        return Err(fail(
            C::Usage,
            "these outputs are version 1: they carry no history to check a checkpoint against; check it against the exported trail (urne verify AUDIT.jsonl --checkpoint NOTE)",
        ));
    }
    for (name, note) in held {
        let cp = chain::verify_note(note, &keys.audit).map_err(|e| {
            fail(
                super::note_class(&e, C::BadSignature),
                format!("checkpoint {name}: {e}"),
            )
        })?;
        history::check_held(outputs, name, &cp)?;
    }
    Ok(())
}

/// What a folder of outputs says of a file beside its output folders: an exported audit trail
/// is verified on its own (§6.4), never silently taken for checked with the outputs; anything
/// else is no output and said nothing of.
fn say_of_file(f: &dyn Folder, name: &str, r: &mut Report) {
    let jsonl = std::path::Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("jsonl"));
    if jsonl && matches!(f.entry(name), Entry::File(_)) {
        let shown = f.show(name);
        r.notes.push(format!(
            "{shown} is an exported audit trail: it is not one of the outputs and is not checked with them; verify it on its own (urne-verify {shown} --keys KEYS)"
        ));
    }
}

/// Whether the subfolder `name` of a folder of outputs is an output to verify; of one that is
/// not, what is said (spec/formats.md §8.4 [M-213]): a staging folder is a note (and a `partial:`
/// line when it holds an output's files), a folder of signed files without a primary file a
/// `partial:` line.
fn say_of_folder(f: &dyn Folder, name: &str, sub: &dyn Folder, r: &mut Report) -> VResult<bool> {
    if name.starts_with(STAGING_PREFIX) {
        r.notes.push(format!(
            "{} is the staging folder of an interrupted command: its files are not outputs and are not checked",
            f.show(name)
        ));
        if is_output(sub) {
            r.partial.push(format!(
                "{} holds an output's files under a staging name: not verified",
                f.show(name)
            ));
        }
        return Ok(false);
    }
    if is_output(sub) {
        return Ok(true);
    }
    let signed = sub
        .names()
        .map_err(|e| fail(C::Unreadable, e.0))?
        .iter()
        .any(|n| n.rsplit('.').next() == Some("sig"));
    if signed {
        r.partial.push(format!(
            "{} holds signed files but no output's primary file (bundle.json, result.json, a block commitment, a void notice, sitting.json, keys.json): not verified",
            f.show(name)
        ));
    }
    Ok(false)
}
