//! Verify before acting (spec/appliance.md §6.5, §6.6): a command's check that the database is the token's
//! trail, whole and as the token last marked it, then that the clock is not behind it; nothing is
//! recorded when it fails. [`super::ctx::Ctx`] runs it after login, before `software.start`.

use crate::edge::binding::TokenTrail;
use crate::edge::hsm::Hsm;
use crate::edge::store::AuditLog;
use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::cmd as mc;
use urne_ceremony::token::{MarkFailure, check_against_marks, last_mark};
use urne_verify::audit::Event;
use urne_verify::audit::chain::PrefixRoots;
use urne_verify::crypto::Hash32;
use urne_verify::events::kinds::{self, Record};
use urne_verify::verify::trail::{AuditKey, verify_trail_vouched};

/// What the check before acting requires of the appliance's clock (spec/appliance.md §6.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ClockRule {
    /// Not earlier than the trail's last event: every command but the correction.
    NotBehind,
    /// Earlier than the trail's last event: `urne clock correct`, which has something to
    /// correct only then.
    Behind,
}

/// What the check before acting found: the trail's size and the token's last mark (0: none).
pub(super) struct Checked {
    pub(super) events: u64,
    pub(super) marked: u64,
}

/// The token has keys but no trail, or nothing at all.
pub(super) fn no_trail(hsm: &Hsm) -> Error {
    let keys = hsm.keys_present().unwrap_or_default();
    Error::trail(
        Kind::TokenNotInitialised,
        if keys.is_empty() {
            crate::msg!(mc::ERR_BEFORE_NEVER_INITIALISED)
        } else {
            crate::msg!(mc::ERR_BEFORE_KEYS_NO_TRAIL)
        },
        crate::msg!(mc::REC_BEFORE_NOT_INITIALISED),
    )
}

/// There is no database where the trail should be.
pub(super) fn missing_trail(db: &std::path::Path, tt: &TokenTrail) -> Error {
    Error::new(
        Kind::TrailMissing,
        crate::msg!(
            mc::ERR_BEFORE_NO_TRAIL,
            path = db.display(),
            trail = tt.describe()
        ),
        crate::msg!(mc::REC_BEFORE_NO_TRAIL),
    )
}

/// Verify before acting (spec/appliance.md §6.5, §6.6), in this order: the database is the token's trail;
/// its chain, and one checkpoint per event under the token's audit key; every event is a
/// well-formed record and every blob it names is stored and intact; it extends the token's last
/// mark (each an incident, exit 7); then the clock against the trail's last event (exit 5 when set
/// back; exit 4 for `urne clock correct` with nothing to correct). Nothing is recorded on failure.
pub(super) fn check_before_acting(
    log: &AuditLog,
    tt: &TokenTrail,
    clock: ClockRule,
    whole: bool,
) -> Result<Checked> {
    let path = log.path();
    let events = log.events()?;
    let first = first_trail(&events, path)?;
    if first != Some(tt.object.trail) {
        return Err(not_tokens(path, first, tt));
    }
    check_replaced_trail_stopped(&events, tt, path)?;
    let broken = |seq: u64, reason: String| {
        Error::new(
            Kind::TrailBroken,
            crate::msg!(
                mc::ERR_BEFORE_BROKEN,
                path = path.display(),
                seq = seq,
                reason = reason
            ),
            crate::msg!(mc::REC_BEFORE_BROKEN),
        )
    };
    let key = AuditKey::Token(tt.audit_key, tt.origin);
    // The token's last mark vouches for the trail up to its size once the events' root there is
    // the mark's (checked below): the checkpoints' signatures up to it are checked again only
    // when the whole trail is asked for (the opening of a sitting), and their notes are not
    // even read (each must still be there, one per event). A fork the token records is refused
    // below either way.
    let vouched = match last_mark(&tt.object.trail, &tt.marks) {
        Ok(Some(m)) if !whole => m.size,
        _ => 0,
    };
    let stored = log.checkpoints_from(vouched)?;
    verify_trail_vouched(&events, &stored, key, vouched).map_err(|f| broken(f.seq, f.reason))?;
    let malformed = |m: kinds::MalformedRecord| {
        Error::new(
            Kind::TrailBroken,
            crate::msg!(mc::ERR_BEFORE_MALFORMED, path = path.display(), what = m),
            crate::msg!(mc::REC_BEFORE_MALFORMED),
        )
    };
    // Every event a record of its kind, in an order urne can write (spec/formats.md §6.2).
    // Each event parsed once: the blobs its record names are gathered as it is applied.
    let mut named = vec![];
    urne_ceremony::state::Trail::from_events_seen(&events, |e, r| {
        named.extend(r.blobs().into_iter().map(|b| (e.seq, b)));
    })
    .map_err(malformed)?;
    let stored_blobs = log.blob_hashes()?;
    if let Some((seq, b)) = named.iter().find(|(_, b)| !stored_blobs.contains(b)) {
        return Err(broken(*seq, crate::msg!(mc::ERR_BEFORE_WHY_BLOB, hash = b)));
    }
    let hashes: Vec<_> = events.iter().map(|e| e.hash).collect();
    // The roots at the sizes of the trail's marks only, and the tree's right edge, which the
    // command's first append extends.
    let roots = PrefixRoots::at(
        &hashes,
        tt.marks
            .iter()
            .filter(|m| m.trail == tt.object.trail)
            .map(|m| m.size),
    );
    let last = check_against_marks(
        &tt.object.trail,
        &tt.marks,
        first,
        events.len() as u64,
        |s| roots.root_at(s).unwrap_or_default(),
    )
    .map_err(|f| mark_refusal(path, &f))?;
    log.keep_frontier(roots.frontier().clone());
    // The clock last: a date planted in the trail is an altered trail (exit 7), not a clock set
    // back (exit 5); only a trail known to be the token's can date the clock.
    match clock {
        ClockRule::NotBehind => check_clock_not_behind(&events, path)?,
        ClockRule::Behind => check_clock_behind(&events, path)?,
    }
    Ok(Checked {
        events: events.len() as u64,
        marked: last.map_or(0, |m| m.size),
    })
}

/// On a restarted trail, the trail it replaced stopped where the restart says (spec/appliance.md §6.8): the
/// token holds no mark of it beyond the restart's `previous_mark_size`. A command still running on the replaced trail when the restart was made (from
/// another folder, so without that command's lock) stops at its next mark, but may have appended
/// one event and marked it: that is an incident, which every later command refuses (exit 7).
fn check_replaced_trail_stopped(
    events: &[Event],
    tt: &TokenTrail,
    path: &std::path::Path,
) -> Result<()> {
    let Some(Ok(Record::TrailRestarted(r))) = events.first().map(kinds::parse) else {
        return Ok(());
    };
    // Marks of that size with other roots (two copies used at once before the restart) are
    // what the restart saw and named on standard error; only a larger one came after it.
    let beyond = tt
        .marks
        .iter()
        .find(|m| m.trail == r.previous_trail && m.size > r.previous_mark_size);
    match beyond {
        None => Ok(()),
        Some(m) => Err(Error::new(
            Kind::TrailFork,
            crate::msg!(
                mc::ERR_BEFORE_REPLACED_APPENDED,
                previous = r.previous_trail,
                size = m.size,
                root = m.root,
                path = path.display(),
                stated_size = r.previous_mark_size,
                stated_root = r.previous_mark_root
            ),
            crate::msg!(mc::REC_BEFORE_REPLACED_APPENDED),
        )),
    }
}

/// The identity the trail's event 1 names (`trail.created` or `trail.restarted`); `None` for a
/// trail that names none (version 1, or not urne's). An event 1 of those kinds that does not
/// parse is a broken trail, not another one (exit 7).
fn first_trail(events: &[Event], path: &std::path::Path) -> Result<Option<Hash32>> {
    Ok(match events.first().map(|e| (e, kinds::parse(e))) {
        Some((e, Ok(Record::TrailCreated(t)))) if e.seq == 1 => Some(t.trail),
        Some((e, Ok(Record::TrailRestarted(t)))) if e.seq == 1 => Some(t.trail),
        // A trail's first event that does not parse as its kind is a broken trail, not another.
        Some((e, Err(m))) if e.kind == "trail.created" || e.kind == "trail.restarted" => {
            return Err(Error::new(
                Kind::TrailBroken,
                crate::msg!(mc::ERR_BEFORE_MALFORMED, path = path.display(), what = m),
                crate::msg!(mc::REC_BEFORE_MALFORMED),
            ));
        }
        _ => None,
    })
}

/// The appliance's clock is not earlier than the trail's last event: events are dated by that
/// clock, and a clock set back would date them out of order (and let a day look unended). Its
/// environment is wrong: exit 5, recorded nowhere (the trail is left as it is, spec/appliance.md §6.6).
/// When the clock is right, it is the trail's last events that a clock set ahead dated: the
/// witnessed `urne clock correct` says so in the trail.
fn check_clock_not_behind(events: &[Event], path: &std::path::Path) -> Result<()> {
    let now = crate::edge::clock::now_rfc3339();
    match events.last() {
        // Both in the one fixed format urne writes (RFC 3339 UTC, microseconds): ordered as text.
        Some(last) if now < last.ts => Err(Error::trail(
            Kind::ClockWentBack,
            crate::msg!(
                mc::ERR_BEFORE_CLOCK_BACK,
                now = now,
                path = path.display(),
                last = last.ts
            ),
            crate::msg!(mc::REC_BEFORE_CLOCK_BACK),
        )),
        _ => Ok(()),
    }
}

/// `urne clock correct` has something to correct: the clock is earlier than the trail's last
/// event (else exit 4, recorded nowhere).
fn check_clock_behind(events: &[Event], path: &std::path::Path) -> Result<()> {
    let now = crate::edge::clock::now_rfc3339();
    match events.last() {
        Some(last) if now < last.ts => Ok(()),
        last => Err(Error::trail(
            Kind::ClockCorrectionRefused,
            crate::msg!(
                mc::ERR_BEFORE_CLOCK_RIGHT,
                now = now,
                path = path.display(),
                last = last.map_or_else(|| crate::msg!(mc::ERR_BEFORE_NO_EVENT), |e| e.ts.clone())
            ),
            crate::msg!(mc::REC_BEFORE_CLOCK_RIGHT),
        )),
    }
}

/// The refusal of a trail that is not the token's: another trail, or none named (exit 7).
fn not_tokens(path: &std::path::Path, first: Option<Hash32>, tt: &TokenTrail) -> Error {
    Error::new(
        Kind::TrailNotTokens,
        match first {
            Some(other) => crate::msg!(
                mc::ERR_BEFORE_OTHER_TRAIL,
                path = path.display(),
                other = other,
                trail = tt.object.trail
            ),
            None => crate::msg!(
                mc::ERR_BEFORE_NO_IDENTITY,
                path = path.display(),
                trail = tt.describe()
            ),
        },
        crate::msg!(mc::REC_BEFORE_NOT_TOKENS),
    )
}

/// The refusal for a database that does not extend the token's last mark.
fn mark_refusal(path: &std::path::Path, f: &MarkFailure) -> Error {
    let hint = crate::msg!(mc::REC_BEFORE_MARK);
    let (kind, msg) = match f {
        MarkFailure::Older { events, marked } => (
            Kind::TrailOlder,
            crate::msg!(
                mc::ERR_BEFORE_OLDER,
                path = path.display(),
                events = events,
                marked = marked
            ),
        ),
        MarkFailure::Diverged { marked } => (
            Kind::TrailFork,
            crate::msg!(
                mc::ERR_BEFORE_DIVERGED,
                marked = marked,
                path = path.display()
            ),
        ),
        MarkFailure::ConflictingMarks { size } => (
            Kind::TrailFork,
            crate::msg!(mc::ERR_BEFORE_CONFLICTING_MARKS, size = size),
        ),
        MarkFailure::OffHistory { size } => (
            Kind::TrailFork,
            crate::msg!(
                mc::ERR_BEFORE_OFF_HISTORY,
                size = size,
                path = path.display()
            ),
        ),
        MarkFailure::OtherTrail { .. } => (
            Kind::TrailNotTokens,
            crate::msg!(mc::ERR_BEFORE_NOT_TOKENS, path = path.display()),
        ),
    };
    Error::new(kind, msg, hint)
}
