//! The void notice (spec/formats.md §4.6): once `draw.void` or `block.void` is recorded, the signed
//! `void-notice.json` is published as an output of its own (staged and moved into place whole,
//! never replacing a file) and recorded by an `output.published` event, so that the next output
//! names it as its predecessor (spec/formats.md §6.7). Until every recorded void has its notice recorded,
//! nothing else is sealed, drawn, generated, revealed or voided: the void command, run again
//! after a kill, writes the notice, or records the one the killed run had put in place, in the
//! folder the killed run recorded (`output.placing`, spec/appliance.md §6.7) and never another.

use super::ctx::Ctx;
use super::inputs::altered;
use super::placing;
use crate::edge::hsm::KeyRole;
use crate::edge::publish;
use crate::error::{Error, Kind, Result};
use crate::msg::catalogue as m;
use crate::msg::catalogue::cmd as mc;
use std::path::{Path, PathBuf};
use urne_ceremony::void_statement::{self as vn, Unannounced, Voided};
use urne_verify::audit::Event;
use urne_verify::crypto::{Hash32, keys, sha256};
use urne_verify::void_notice::{FILE_NAME, Subject, VoidNotice};

/// The trail's first void whose notice is not recorded, if any.
pub fn first_unannounced(events: &[Event]) -> Result<Option<Unannounced>> {
    let all = vn::unannounced(events).map_err(|m| altered(&m.to_string()))?;
    Ok(all.into_iter().next())
}

/// Refuses (exit 4) while a recorded void has no recorded notice: nothing else is done before
/// it is announced.
pub fn refuse_if_unannounced(events: &[Event]) -> Result<()> {
    match first_unannounced(events)? {
        Some(u) => Err(unannounced_error(&u)),
        // A sitting closed but not published holds everything back the same way (spec/formats.md §9.3).
        None => refuse_if_unpublished(events),
    }
}

/// Refuses (exit 4) while a sitting is closed and its output not yet recorded (a command killed
/// between the two, spec/appliance.md §9.3).
pub fn refuse_if_unpublished(events: &[Event]) -> Result<()> {
    match urne_ceremony::state::sittings::unpublished(events)
        .map_err(|m| altered(&m.to_string()))?
    {
        Some((_, r, c)) => Err(Error::new(
            Kind::NotPublished,
            crate::msg!(
                mc::ERR_VOID_SITTING_UNPUBLISHED,
                number = r.number,
                seq = c.seq
            ),
            crate::msg!(mc::REC_VOID_SITTING_UNPUBLISHED),
        )),
        None => Ok(()),
    }
}

/// The refusal while the void `u` has no recorded notice.
pub fn unannounced_error(u: &Unannounced) -> Error {
    let again = match &u.subject {
        Subject::Day(d) => format!("urne void --day {d} --reason …"),
        Subject::Block(b) => format!("urne block void --block {b} --reason …"),
    };
    Error::new(
        Kind::NotPublished,
        crate::msg!(
            mc::ERR_VOID_UNANNOUNCED,
            subject = subject_words(&u.subject),
            attempt = u.attempt,
            seq = u.seq
        ),
        crate::msg!(mc::REC_VOID_UNANNOUNCED, again = again),
    )
}

/// `day D` or `block B`, in the screens' language.
fn subject_words(s: &Subject) -> String {
    match s {
        Subject::Day(d) => crate::msg!(mc::ERR_VOID_SUBJECT_DAY, day = d),
        Subject::Block(b) => crate::msg!(mc::ERR_VOID_SUBJECT_BLOCK, block = b),
    }
}

/// Refuses (exit 4, nothing recorded: run on the checked trail before anything is recorded) a
/// folder the notice of the unannounced void of `subject` cannot go into: when a stopped run
/// recorded where it was placing that notice, any other (`out`, or by default
/// `void-…-attempt-<n>`, spec/appliance.md §6.7).
pub fn refuse_out(events: &[Event], subject: &Subject, out: Option<&Path>) -> Result<()> {
    let Ok(Some(u)) = first_unannounced(events) else {
        return Ok(());
    };
    if &u.subject != subject {
        return Ok(());
    }
    let dir = out.map_or_else(
        || PathBuf::from(u.subject.default_folder(u.attempt)),
        Path::to_path_buf,
    );
    placing::refuse_elsewhere(
        events,
        &placing::Subject::VoidNotice { void_seq: u.seq },
        &dir,
    )
}

/// Announces the void `u` recorded by an earlier, interrupted run: its notice is written (or the
/// one in place recorded); nothing else is voided. `reason` is the one given now.
pub fn resume(ctx: &mut Ctx, u: &Unannounced, reason: &str, out: Option<&Path>) -> Result<()> {
    note!(
        "{}",
        crate::msg!(
            mc::SCR_VOID_RESUMED,
            subject = subject_words(&u.subject),
            attempt = u.attempt,
            seq = u.seq
        )
    );
    let events = ctx.audit()?.events()?;
    let v = vn::voided(&events, u.seq).map_err(|why| altered(&why))?;
    if v.reason != reason {
        let recorded = format!("{:?}", v.reason);
        note!(
            "{}",
            crate::msg!(mc::SCR_VOID_RESUMED_REASON, reason = recorded)
        );
    }
    let stage = urne_ceremony::minutes::words::stage(&v.stage, crate::msg::lang().core());
    say!(
        "{}",
        crate::msg!(
            mc::SCR_VOID_ALREADY,
            subject = subject_words(&v.subject),
            attempt = v.attempt,
            stage = stage,
            seq = v.seq
        )
    );
    announce(ctx, u.seq, out)
}

/// Publishes the notice of the void recorded by event `seq` into `out` (by default a new folder
/// `void-<day or block stem>-attempt-<n>` in the working directory) and records it; a notice of
/// this very void already in place (a run killed before recording it) is recorded as it is.
/// Prints the notice's path and SHA-256.
pub fn announce(ctx: &mut Ctx, seq: u64, out: Option<&Path>) -> Result<()> {
    let events = ctx.audit()?.events()?;
    let v = vn::voided(&events, seq).map_err(|why| altered(&why))?;
    let dir = out.map_or_else(
        || PathBuf::from(v.subject.default_folder(v.attempt)),
        Path::to_path_buf,
    );
    let path = dir.join(FILE_NAME);
    // A run stopped while placing this notice recorded its folder: only that one (spec/appliance.md §6.7).
    let subject = placing::Subject::VoidNotice { void_seq: v.seq };
    placing::refuse_elsewhere(&events, &subject, &dir)?;
    let sha = if crate::edge::fsio::name_taken(&dir, FILE_NAME)? {
        adopt(ctx, &v, &dir)?
    } else {
        let (sha, note) = place(ctx, &v, &dir)?;
        record(ctx, &v, sha, &note)?;
        sha
    };
    let lang = crate::text::lang();
    let mut s = crate::text::Screen::new(lang);
    s.heading(&crate::msg!(m::SCR_VOID_NOTICE, path = path.display()));
    s.hash(m::SCR_VOID_NOTICE_SHA.words(lang), &sha.to_string());
    s.print();
    Ok(())
}

/// Writes the signed notice of `v` into `dir` as one staged output, without recording it (what
/// a run killed between the two leaves). Returns its SHA-256 and the checkpoint it carries.
pub fn place(ctx: &mut Ctx, v: &Voided, dir: &Path) -> Result<(Hash32, String)> {
    let checkpoint = ctx.checkpoint()?;
    let history = ctx.history()?;
    let hsm = ctx.hsm()?;
    let rk = hsm.public_key(KeyRole::Result)?;
    let ak = hsm.public_key(KeyRole::Audit)?;
    let notice = v.notice(
        checkpoint.clone(),
        keys::key_id(&rk),
        keys::key_id(&ak),
        history,
    );
    let bytes = urne_verify::draw::files::to_bytes(&notice);
    let sha = sha256(&bytes);
    publish::refuse_taken(dir, &[(FILE_NAME, bytes.clone())], "--out")?;
    let files = [(FILE_NAME.to_string(), sha)].into();
    let subject = placing::Subject::VoidNotice { void_seq: v.seq };
    placing::record(ctx, dir, subject, FILE_NAME, &files)?;
    publish::write_signed(ctx.hsm()?, dir, &[(FILE_NAME, bytes)], &[], (&rk, &ak))?;
    Ok((sha, checkpoint))
}

/// Records the notice of `v` (SHA-256 `sha`, carrying the checkpoint `note`) as published.
fn record(ctx: &mut Ctx, v: &Voided, sha: Hash32, note: &str) -> Result<()> {
    let output = ctx.output_record(&v.recorded_name(), sha, note)?;
    ctx.record_evidence(output)?;
    Ok(())
}

/// A notice already in `dir` (a run killed after placing it, before recording it): when it is
/// the signed notice of this very void, naming the output the trail last recorded as its
/// predecessor, it is recorded as it is; anything else is refused and left in place.
fn adopt(ctx: &mut Ctx, v: &Voided, dir: &Path) -> Result<Hash32> {
    let path = dir.join(FILE_NAME);
    let rk = ctx.hsm()?.public_key(KeyRole::Result)?;
    let bytes = crate::edge::fsio::read_in(dir, FILE_NAME)?;
    let sig = crate::edge::fsio::read_in(dir, &format!("{FILE_NAME}.sig")).unwrap_or_default();
    let found: Option<VoidNotice> = serde_json::from_slice(&bytes).ok();
    let now = ctx.history()?;
    let ours = urne_verify::crypto::ed25519::verify(&rk, &bytes, &sig)
        && found.as_ref().is_some_and(|n| {
            v.is_stated_by(n)
                && n.history.trail == now.trail
                && n.history.predecessor == now.predecessor
        });
    let Some(n) = found.filter(|_| ours) else {
        return Err(Error::new(
            Kind::OutputConflict,
            crate::msg!(
                mc::ERR_VOID_NOTICE_CONFLICT,
                path = path.display(),
                subject = subject_words(&v.subject),
                attempt = v.attempt,
                seq = v.seq
            ),
            crate::msg!(mc::REC_VOID_NOTICE_CONFLICT),
        ));
    };
    let sha = sha256(&bytes);
    record(ctx, v, sha, &n.audit_checkpoint)?;
    note!(
        "{}",
        crate::msg!(
            m::SCR_RESUME_VOID_PLACED,
            subject = subject_words(&v.subject),
            attempt = v.attempt
        )
    );
    Ok(sha)
}
