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
use urne_verify::audit::chain;
use urne_verify::audit::chain::PrefixRoots;
use urne_verify::crypto::Hash32;
use urne_verify::events::kinds::{self, Record};
use urne_verify::verify::trail::{
    AuditKey, check_recorded_key, verify_marked_head, verify_trail_vouched,
};

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
    /// The token's last anchor of the trail (0: none), and the `sitting.closed` events after it
    /// (spec/appliance.md §6.6 [M-397]).
    pub(super) anchored: u64,
    pub(super) closes: Vec<u64>,
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
///
/// A trail exactly as the token last marked it (the common case: every command marks before it
/// ends) is checked from its links and the few events the check needs ([`read_marked`]): what a
/// command reads of the rest later is recomputed against the hashes the mark vouched for
/// ([`AuditLog::events`]). The whole trail is read otherwise, and for a sitting's opening.
pub(super) fn check_before_acting(
    log: &AuditLog,
    tt: &TokenTrail,
    clock: ClockRule,
    whole: bool,
) -> Result<Checked> {
    let path = log.path();
    // The token's last mark vouches for the trail up to its size once the events' root there is
    // the mark's (checked below): the checkpoints' signatures up to it are checked again only
    // when the whole trail is asked for (the opening of a sitting), and their notes are not
    // even read (each must still be there, one per event). A fork the token records is refused
    // below either way.
    let vouched = match last_mark(&tt.object.trail, &tt.marks) {
        Ok(Some(m)) if !whole => m.size,
        _ => 0,
    };
    let read = match vouched {
        0 => None,
        _ => read_marked(log, tt, vouched)?,
    };
    let links_only = read.is_some();
    let read = match read {
        Some(read) => read,
        None => read_whole(log, tt, vouched)?,
    };
    let stored_blobs = log.blob_hashes()?;
    if let Some(n) = read.named.iter().find(|n| !stored_blobs.contains(&n.blob)) {
        let why = crate::msg!(mc::ERR_BEFORE_WHY_BLOB, hash = n.blob, kind = n.kind);
        return Err(broken(path, n.seq, &why));
    }
    let roots = &read.roots;
    let last = check_against_marks(
        &tt.object.trail,
        &tt.marks,
        Some(tt.object.trail),
        read.hashes.len() as u64,
        |s| roots.root_at(s).unwrap_or_default(),
    )
    .map_err(|f| mark_refusal(path, &f))?;
    // The clock last: a date planted in the trail is an altered trail (exit 7), not a clock set
    // back (exit 5); only a trail known to be the token's can date the clock.
    let head = read.head.as_slice();
    match clock {
        ClockRule::NotBehind => check_clock_not_behind(head, path)?,
        ClockRule::Behind => check_clock_behind(head, path)?,
    }
    let events = read.hashes.len() as u64;
    if links_only {
        log.adopt_links(read.hashes)?;
    }
    // After the hashes are known: the first append extends this edge.
    log.keep_frontier(read.roots.frontier().clone());
    Ok(Checked {
        events,
        marked: last.map_or(0, |m| m.size),
        anchored: anchored(tt),
        closes: read.closes,
    })
}

/// What the check before acting read of the trail, once it is known to be the token's and its
/// chain and checkpoints verify.
struct Read {
    /// Every event's hash, in order.
    hashes: Vec<Hash32>,
    /// The roots at the sizes of the trail's marks (and of the head), and the tree's right
    /// edge, which the command's first append extends.
    roots: PrefixRoots,
    /// The blobs the records checked name.
    named: Vec<Named>,
    /// The last event, its content recomputed (none: an empty trail).
    head: Option<Event>,
    /// The `sitting.closed` events after the token's last anchor of the trail.
    closes: Vec<u64>,
}

/// A blob a record names, with its event's sequence number and kind.
struct Named {
    seq: u64,
    kind: kinds::Kind,
    blob: Hash32,
}

impl Named {
    /// The blobs `r`, the record of event `seq`, names.
    fn of(seq: u64, r: &Record) -> impl Iterator<Item = Named> + use<> {
        let kind = r.kind();
        r.blobs()
            .into_iter()
            .map(move |blob| Named { seq, kind, blob })
    }
}

/// The size of the token's last anchor of its trail (0: none).
fn anchored(tt: &TokenTrail) -> u64 {
    tt.anchors
        .iter()
        .filter(|m| m.trail == tt.object.trail)
        .map(|m| m.size)
        .max()
        .unwrap_or(0)
}

/// The sequence numbers of the `sitting.closed` events among `events`.
fn closes<'a>(events: impl Iterator<Item = &'a Event>) -> Vec<u64> {
    events
        .filter(|e| e.kind == kinds::Kind::SittingClosed.name())
        .map(|e| e.seq)
        .collect()
}

/// The sizes of the token's marks of its trail.
fn mark_sizes(tt: &TokenTrail) -> impl Iterator<Item = u64> + '_ {
    tt.marks
        .iter()
        .filter(|m| m.trail == tt.object.trail)
        .map(|m| m.size)
}

/// The refusal of a trail whose event `seq` does not verify (exit 7).
fn broken(path: &std::path::Path, seq: u64, reason: &str) -> Error {
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
}

/// The refusal of a trail whose event is not a record urne writes where it stands (exit 7).
fn malformed(path: &std::path::Path, m: &kinds::MalformedRecord) -> Error {
    Error::new(
        Kind::TrailBroken,
        crate::msg!(mc::ERR_BEFORE_MALFORMED, path = path.display(), what = m),
        crate::msg!(mc::REC_BEFORE_MALFORMED),
    )
}

/// The check of the whole trail, every event read (spec/appliance.md §6.6 [M-136], [M-395]).
fn read_whole(log: &AuditLog, tt: &TokenTrail, vouched: u64) -> Result<Read> {
    let path = log.path();
    let events = log.events()?;
    let first = first_trail(&events, path)?;
    if first != Some(tt.object.trail) {
        return Err(not_tokens(path, first, tt));
    }
    check_replaced_trail_stopped(&events, tt, path)?;
    let key = AuditKey::Token(tt.audit_key, tt.origin);
    let stored = log.checkpoints_from(vouched)?;
    verify_trail_vouched(&events, &stored, key, vouched)
        .map_err(|f| broken(path, f.seq, &f.reason))?;
    let named = records_checked(&events, vouched).map_err(|m| malformed(path, &m))?;
    let hashes: Vec<Hash32> = events.iter().map(|e| e.hash).collect();
    let after = anchored(tt);
    Ok(Read {
        closes: closes(events.iter().filter(|e| e.seq > after)),
        roots: PrefixRoots::at(&hashes, mark_sizes(tt)),
        hashes,
        named,
        head: events.last().cloned(),
    })
}

/// The check of a trail that holds exactly the events the token's last mark (of size
/// `vouched`) covers (spec/appliance.md §6.6 [M-136]): every event's number and stored hash are
/// read, and the content of event 1 (the trail's identity and audit key), of the head (its time),
/// of the events after the token's last anchor (the closes a mark anchors) and of the events
/// whose records name blobs, each recomputing its hash. The root of the hashes at the mark's size must then be the mark's (the caller checks
/// it), so every other event's content is the one the mark covers or recomputes no hash: a
/// command that reads it later recomputes it ([`AuditLog::events`]). `None`: the trail does
/// not hold exactly that many events, or the token holds no anchor of it yet (the events after
/// the last anchor are then all of them), and is read whole.
fn read_marked(log: &AuditLog, tt: &TokenTrail, vouched: u64) -> Result<Option<Read>> {
    let path = log.path();
    // With no anchor yet, the events after the last anchor are every event: the trail is read
    // whole, once (and kept for the command's later reads).
    let after = anchored(tt);
    if after == 0 {
        return Ok(None);
    }
    let links = log.links()?;
    if links.len() as u64 != vouched {
        return Ok(None);
    }
    let blob_kinds: Vec<&str> = kinds::Kind::ALL
        .iter()
        .filter(|k| k.names_blobs())
        .map(|k| k.name())
        .collect();
    // The events after the token's last anchor are read too, for the closes a mark anchors.
    let rows = log.rows_of(vouched, after, &blob_kinds)?;
    for e in &rows {
        let link = usize::try_from(e.seq)
            .ok()
            .and_then(|s| links.get(s.wrapping_sub(1)));
        chain::check_content(e, link).map_err(|f| broken(path, f.seq, &f.reason))?;
    }
    let first = first_trail(&rows, path)?;
    if first != Some(tt.object.trail) {
        return Err(not_tokens(path, first, tt));
    }
    check_replaced_trail_stopped(&rows, tt, path)?;
    chain::verify_numbers(&links).map_err(|f| broken(path, f.seq, &f.reason))?;
    check_recorded_key(&rows, &tt.audit_key).map_err(|f| broken(path, f.seq, &f.reason))?;
    let hashes: Vec<Hash32> = links.iter().map(|l| l.hash).collect();
    // Every event has its own checkpoint (sizes 1 … n, each once): else read whole, which
    // names the first without one.
    if log.checkpoints_in(vouched)? != vouched {
        return Ok(None);
    }
    let stored = log.checkpoints_from_size(vouched)?;
    let roots = PrefixRoots::at(&hashes, mark_sizes(tt).chain([vouched]));
    verify_marked_head(&roots, &stored, &tt.audit_key, tt.origin)
        .map_err(|f| broken(path, f.seq, &f.reason))?;
    let mut named = vec![];
    for e in rows
        .iter()
        .filter(|e| blob_kinds.contains(&e.kind.as_str()))
    {
        let r = kinds::parse(e).map_err(|m| malformed(path, &m))?;
        named.extend(Named::of(e.seq, &r));
    }
    let closes = closes(rows.iter().filter(|e| e.seq > after));
    let head = rows.into_iter().rfind(|e| e.seq == vouched);
    Ok(Some(Read {
        hashes,
        roots,
        named,
        head,
        closes,
    }))
}

/// The records of the trail checked before acting (spec/appliance.md §6.6 [M-136]), and the blobs
/// they name, each with its event's sequence number. With no mark to vouch for the trail
/// (`vouched` 0: the whole check, or no mark yet), every event must be a record of its kind in an
/// order urne can write (spec/formats.md §6.2), each parsed once. With one, the events up to it
/// are the ones a command of urne's checked, appended and had the token mark (their root is the
/// mark's, and every event's content recomputes its hash): of those, only the records that name
/// blobs are read, for the blobs; the events after it are parsed as records. A command that
/// decides from the trail's state reads it from every event, in order, and refuses one that cannot
/// follow (exit 7) before it decides.
fn records_checked(
    events: &[Event],
    vouched: u64,
) -> std::result::Result<Vec<Named>, kinds::MalformedRecord> {
    let mut named = vec![];
    if vouched == 0 {
        urne_ceremony::state::Trail::from_events_seen(events, |e, r| {
            named.extend(Named::of(e.seq, r));
        })?;
        return Ok(named);
    }
    for e in events {
        let names_blobs = kinds::Kind::from_name(&e.kind).is_some_and(kinds::Kind::names_blobs);
        if e.seq > vouched || names_blobs {
            let r = kinds::parse(e)?;
            named.extend(Named::of(e.seq, &r));
        }
    }
    Ok(named)
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
