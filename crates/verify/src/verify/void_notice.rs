//! `urne verify DIR` on a folder holding a void notice (`void-notice.json`, spec/formats.md §4.6): its
//! signature, its members, its checkpoint under the audit key, the key ids, the void event under
//! that checkpoint, and its history (spec/formats.md §6.7). The notice is an output of its own: it is returned
//! for the checks across outputs (spec/formats.md §8.4). Stops at the first failure.

use super::folder::Folder;
use super::history;
use super::signed::{Keys, read_signed};
use super::{FailureClass as C, Report, VResult, fail, parse_named};
use crate::audit::chain;
use crate::values::{Attempt, KeyId};
use crate::void_notice::{FILE_NAME, FORMAT, Subject, VERSION, VoidNotice};

/// Verifies the void notice `dir/void-notice.json` under `keys` (spec/formats.md §4.6), in the order of its
/// steps. Returns the checks done and the notice as an output, or the first failure.
pub fn verify_void_notice(f: &dyn Folder, keys: &Keys) -> VResult<Report> {
    let mut done = vec![];
    // 1. The signature, before anything is parsed.
    let bytes = read_signed(f, FILE_NAME, &keys.result)?;
    done.push(format!("{FILE_NAME} signature"));
    // 2. Its members, its format and version, and what it is the notice of.
    let n: VoidNotice = parse_named(FILE_NAME, &bytes)?;
    if n.format != FORMAT || n.version != VERSION {
        return Err(fail(
            C::Malformed,
            format!("{FILE_NAME} is not an {FORMAT} version {VERSION}"),
        ));
    }
    let (what, attempt) = check_subject(&n)?;

    // 3. Its checkpoint is the audit key's.
    let cp = chain::verify_note(&n.audit_checkpoint, &keys.audit).map_err(|e| {
        fail(
            super::note_class(&e, C::BadSignature),
            format!("{FILE_NAME} audit_checkpoint: {e}"),
        )
    })?;
    done.push("audit checkpoint signature".into());
    // 4. The keys it names are the ones used, and its checkpoint covers the void event.
    if n.result_key_id != KeyId::of(&keys.result) || n.audit_key_id != KeyId::of(&keys.audit) {
        return Err(fail(
            C::Inconsistent,
            format!("{FILE_NAME}: result_key_id or audit_key_id is not the id of the key given"),
        ));
    }
    if n.void_seq > cp.size {
        return Err(fail(
            C::Inconsistent,
            format!(
                "{FILE_NAME}: its checkpoint ({} events) does not cover the void event {}",
                cp.size, n.void_seq
            ),
        ));
    }
    super::draw_folder::one_time_format("voided_at", &n.voided_at)?;
    // 5. Its history leads to its checkpoint.
    let name = f.show(FILE_NAME);
    let subject = super::Publishes::Void {
        of: what.clone(),
        attempt,
    };
    let output =
        history::versioned_output(&name, n.version, &bytes, Some(&n.history), &cp)?.map(|o| {
            history::Output {
                subject: Some(subject.clone()),
                ..o
            }
        });
    done.push(format!(
        "{what}, attempt {} voided at audit event {} ({}): the notice's checkpoint covers it and extends its predecessor's (RFC 6962 consistency)",
        attempt, n.void_seq, n.stage
    ));
    Ok(Report {
        checks: done,
        outputs: output.into_iter().collect(),
        // The first line of `urne verify`, in the words of the Python verifier's.
        subjects: vec![super::Verified {
            words: format!(
                "the void notice of {what} attempt {} (version {})",
                attempt, n.version
            ),
            value: super::Value::VoidNotice(Box::new(n.clone())),
        }],
        published: vec![super::Published {
            subject,
            checkpoint: cp.clone(),
            name: f.show(FILE_NAME),
        }],
        days: n.day.iter().cloned().collect(),
        blocks: n.block.iter().cloned().collect(),
        ..Report::default()
    })
}

/// Step 2, the subject: exactly one of `day` and `block`; a day `YYYY-MM-DD`, a block canonical
/// and of the game `operation` names; `attempt` and `void_seq` from 1 [M-312]. Returns it and the
/// attempt.
pub(super) fn check_subject(n: &VoidNotice) -> VResult<(Subject, Attempt)> {
    let malformed = |why: String| fail(C::Malformed, format!("{FILE_NAME}: {why}"));
    let attempt = Attempt::new(n.attempt)
        .filter(|_| n.void_seq != 0)
        .ok_or_else(|| malformed("attempt and void_seq count from 1".into()))?;
    let what = n.subject().map_err(malformed)?;
    if let Subject::Block(id) = &what
        && id.game() != n.operation
    {
        return Err(fail(
            C::Inconsistent,
            format!(
                "{FILE_NAME}: operation {:?} is not the game of block {id}",
                n.operation
            ),
        ));
    }
    Ok((what, attempt))
}
