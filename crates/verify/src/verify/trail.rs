//! Verification of the audit trail (spec/formats.md §6.4): the events are exactly 1 … n and chain, and
//! every checkpoint (stored with the trail or held by the user) verifies under the audit key
//! and has the root of the tree over the events it covers. The store (reading the events and
//! checking the blobs) is the caller's; an exported trail is parsed by [`super::trail_export`].

use super::{Failure, FailureClass, fail};
use crate::audit::Event;
use crate::audit::chain::{self, ChainFailure, NoteErrorKind};
use crate::crypto::{Hash32, keys, parse_hex32};
use crate::events::kinds::{self, Kind, Record};
use std::path::PathBuf;

/// The audit public key the trail records, with the sequence number of the event that records
/// it: a version-2 trail's `trail.created` (event 1), else the first `keys.generated` event.
pub fn recorded_audit_key_at(events: &[Event]) -> Option<(u64, [u8; 32])> {
    if let Some(e) = events
        .first()
        .filter(|e| e.kind == "trail.created" || e.kind == "trail.restarted")
    {
        let v: serde_json::Value = serde_json::from_str(&e.payload).ok()?;
        return v["audit_public_key"]
            .as_str()
            .and_then(parse_hex32)
            .map(|k| (e.seq, k));
    }
    let e = events.iter().find(|e| e.kind == "keys.generated")?;
    let v: serde_json::Value = serde_json::from_str(&e.payload).ok()?;
    v["keys"]
        .as_array()?
        .iter()
        .find_map(|k| {
            (k["role"] == "audit")
                .then(|| k["public_key"].as_str().and_then(parse_hex32))
                .flatten()
        })
        .map(|k| (e.seq, k))
}

/// The audit public key recorded by `keys init` (the first `keys.generated` event).
pub fn recorded_audit_key(events: &[Event]) -> Option<[u8; 32]> {
    recorded_audit_key_at(events).map(|(_, k)| k)
}

/// Why a trail does not verify: the class (spec/formats.md §8.1), the first sequence number that
/// cannot be vouched for, and what is wrong there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrailFailure {
    /// The class of failure (`inconsistent` for the chain, the roots and the key,
    /// `bad-signature` for a checkpoint signature, `malformed` for a note that does not parse).
    pub class: FailureClass,
    /// The first sequence number that cannot be vouched for.
    pub seq: u64,
    /// What is wrong, in words (as `urne audit verify` reports it).
    pub reason: String,
}

impl TrailFailure {
    /// As a verification [`Failure`]: `audit trail fails at event N: reason`, with its class.
    pub fn into_failure(self) -> Failure {
        fail(
            self.class,
            format!("audit trail fails at event {}: {}", self.seq, self.reason),
        )
    }

    fn inconsistent(f: ChainFailure) -> TrailFailure {
        TrailFailure {
            class: FailureClass::Inconsistent,
            seq: f.seq,
            reason: f.reason,
        }
    }
}

/// The outcome of checking a trail: how much is vouched for by signatures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrailReport {
    /// Events in the trail.
    pub events: u64,
    /// Checkpoints verified (stored and held).
    pub checkpoints: usize,
    /// Events covered by the largest verified checkpoint.
    pub covered: u64,
    /// The audit key the checkpoints were checked with, if one was known.
    pub key: Option<[u8; 32]>,
    /// The trail's identity, for a version-2 trail (spec/appliance.md §6.6).
    pub trail: Option<Hash32>,
    /// The software records of its `software.start` events, in order, for a release's check
    /// (spec/formats.md §8.8): taken from an exported trail only, empty otherwise.
    pub software: Vec<crate::software::Started>,
}

/// The identity a version-2 trail's event 1 names (`trail.created` or `trail.restarted`).
pub fn trail_identity(events: &[Event]) -> Option<Hash32> {
    let e = events.first().filter(|_| is_v2(events))?;
    let v: serde_json::Value = serde_json::from_str(&e.payload).ok()?;
    v["trail"].as_str().and_then(Hash32::from_hex)
}

impl TrailReport {
    /// `--strict` (spec/formats.md §6.4): events after the last checkpoint are a failure, at the first of them.
    pub fn check_strict(&self) -> Result<(), TrailFailure> {
        if self.covered < self.events {
            return Err(TrailFailure {
                class: FailureClass::Inconsistent,
                seq: self.covered + 1,
                reason: format!(
                    "events {}..{} are not covered by a signed checkpoint",
                    self.covered + 1,
                    self.events
                ),
            });
        }
        Ok(())
    }
}

/// With an audit key given from outside the trail: the key the trail itself records (its
/// `keys.generated` event), if any, must be that key. A trail rewritten end to end under
/// another key records the other key.
pub fn check_recorded_key(events: &[Event], given: &[u8; 32]) -> Result<(), TrailFailure> {
    match recorded_audit_key_at(events) {
        Some((seq, recorded)) if recorded != *given => Err(TrailFailure {
            class: FailureClass::Inconsistent,
            seq,
            reason: format!(
                "the trail records the audit key {} (event {seq}, {}), not the audit key given ({}): this trail was not written under that key",
                keys::key_id(&recorded),
                events
                    .get(usize::try_from(seq - 1).unwrap_or(0))
                    .map_or("", |e| e.kind.as_str()),
                keys::key_id(given)
            ),
        }),
        _ => Ok(()),
    }
}

/// Where the audit key that checks the checkpoints comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuditKey {
    /// Given from outside the trail (`urne keys export`, obtained independently): the key the
    /// trail records must be this one ([`check_recorded_key`]).
    Given([u8; 32]),
    /// The key the trail itself records: this proves nothing against a trail rewritten end
    /// to end under another key.
    Recorded,
    /// The token's own key, its checkpoints of the origin the token says (spec/formats.md §6.10):
    /// the appliance checking its own trail, a rehearsal token's included. Checked as
    /// [`AuditKey::Given`].
    Token([u8; 32], chain::Origin),
}

/// Verifies a trail (events + stored notes + externally held notes) as spec/formats.md §6.4 numbers
/// its steps: (1) the chain, then the audit key (given: the trail must record that one; else
/// the recorded one); (2) each stored checkpoint `(size, note)` in order (its `size` must be its
/// note's) and, in a version-2 trail, one per event; (3) each held one `(path, note)`; (5) in a
/// version-2 trail, the times. Step (4), the blobs, is the database's (`urne audit verify`).
/// Returns the first failure.
pub fn verify_trail(
    events: &[Event],
    stored: &[(u64, String)],
    held: &[(PathBuf, String)],
    audit_key: AuditKey,
) -> Result<TrailReport, TrailFailure> {
    verify_trail_from(events, stored, held, audit_key, 0)
}

/// [`verify_trail`] as the appliance checks its own trail before acting (spec/appliance.md
/// §6.6 [M-395]): the token's mark vouches for the first `vouched` events (the caller then
/// requires the events' root at that size to be the mark's), so the signatures of the stored
/// checkpoints before that size, which the token's audit key made when each was appended and
/// which the appliance checked then, are not checked again; each must still be there, one per
/// event, and the checkpoint at that size and every one after it verify. With `vouched` 0, it
/// is [`verify_trail`]: `urne audit verify`, a sitting's opening and a backup check every
/// signature.
///
/// # Errors
/// The first [`TrailFailure`], as [`verify_trail`].
pub fn verify_trail_vouched(
    events: &[Event],
    stored: &[(u64, String)],
    audit_key: AuditKey,
    vouched: u64,
) -> Result<TrailReport, TrailFailure> {
    verify_trail_from(events, stored, &[], audit_key, vouched)
}

/// The checkpoints of a version-2 trail whose every event the token's last mark vouches for, as
/// the appliance checks them before acting when its trail is exactly as the token last marked it
/// (spec/appliance.md §6.6 [M-395], [M-136]): `roots` are over the events' stored hashes (their
/// root at the mark's size, the head's, the caller requires to be the mark's), and each stored
/// checkpoint of the head's size or larger (`stored`) verifies under the token's audit key and
/// origin and has the root of the events it covers. That every event has its checkpoint, the
/// chain's numbers ([`chain::verify_numbers`]) and each event's content (recomputed by whoever reads
/// it) are the caller's.
///
/// # Errors
/// The first [`TrailFailure`], as [`verify_trail`].
pub fn verify_marked_head(
    roots: &chain::PrefixRoots,
    stored: &[(u64, String)],
    key: &[u8; 32],
    origin: chain::Origin,
) -> Result<(), TrailFailure> {
    let notes: Vec<Note> = stored.iter().map(stored_note).collect();
    let verified = verify_notes(&notes, key, Some(origin));
    check_verified(&notes, verified, roots).map(|_| ())
}

/// [`verify_trail`], the stored checkpoints' signatures checked from size `vouched` on.
fn verify_trail_from(
    events: &[Event],
    stored: &[(u64, String)],
    held: &[(PathBuf, String)],
    audit_key: AuditKey,
    vouched: u64,
) -> Result<TrailReport, TrailFailure> {
    let key = step1_chain_and_key(events, audit_key)?;
    let origin = match audit_key {
        AuditKey::Token(_, o) => Some(o),
        AuditKey::Given(_) | AuditKey::Recorded => None,
    };
    // The checkpoint at the mark's size is verified too: one signature under the key and origin
    // the token states now, over the root the mark vouches for (a token whose keys were
    // relabelled since states another origin, spec/appliance.md §6.10).
    let newer: Vec<(u64, String)> = stored
        .iter()
        .filter(|(size, _)| *size >= vouched)
        .cloned()
        .collect();
    let covered = steps2_3_checkpoints(events, &newer, held, key.as_ref(), origin)?;
    if is_v2(events) {
        check_every_event_signed(events.len() as u64, stored)?;
        step5_times(events)?;
    }
    Ok(TrailReport {
        events: events.len() as u64,
        checkpoints: stored.len() + held.len(),
        covered: covered.max(vouched.min(events.len() as u64)),
        key,
        trail: trail_identity(events),
        software: vec![],
    })
}

/// spec/formats.md §6.4 (1): the events are 1 … n, each hash recomputes and links to the previous one
/// (inconsistent); the audit key given, if any, is the one the trail records (inconsistent).
/// Returns the key the checkpoints are checked with.
fn step1_chain_and_key(
    events: &[Event],
    audit_key: AuditKey,
) -> Result<Option<[u8; 32]>, TrailFailure> {
    chain::verify_chain(events).map_err(TrailFailure::inconsistent)?;
    Ok(match audit_key {
        AuditKey::Given(k) | AuditKey::Token(k, _) => {
            check_recorded_key(events, &k)?;
            Some(k)
        }
        AuditKey::Recorded => recorded_audit_key(events),
    })
}

/// spec/formats.md §6.4 (2) and (3): every stored checkpoint, then every held one, verifies under the audit key
/// and has the root of the tree over the first `size` events. Returns how many events the
/// checkpoints cover.
fn steps2_3_checkpoints(
    events: &[Event],
    stored: &[(u64, String)],
    held: &[(PathBuf, String)],
    key: Option<&[u8; 32]>,
    origin: Option<chain::Origin>,
) -> Result<u64, TrailFailure> {
    let notes: Vec<Note> = stored
        .iter()
        .map(stored_note)
        .chain(
            held.iter()
                .map(|(p, n)| (format!("checkpoint {}", p.display()), n.as_str(), None)),
        )
        .collect();
    if notes.is_empty() {
        return Ok(0);
    }
    let Some(key) = key else {
        return Err(TrailFailure {
            class: FailureClass::BadSignature,
            seq: 1,
            reason: "checkpoints exist but no audit key is known to check them (no keys.generated event; pass --audit-key)".into(),
        });
    };
    let verified = verify_notes(&notes, key, origin);
    // The roots of the sizes the notes cover only (one pass over the events).
    let hashes: Vec<Hash32> = events.iter().map(|e| e.hash).collect();
    let roots = chain::PrefixRoots::at(
        &hashes,
        verified
            .iter()
            .filter_map(|v| v.as_ref().ok().map(|cp| cp.size)),
    );
    check_verified(&notes, verified, &roots)
}

/// Whether the trail is a version-2 trail (spec/appliance.md §6.6): its first event is `trail.created`
/// (or `trail.restarted`, spec/appliance.md §6.8).
pub fn is_v2(events: &[Event]) -> bool {
    events
        .first()
        .is_some_and(|e| e.kind == "trail.created" || e.kind == "trail.restarted")
}

/// A version-2 trail signs every event as it is appended (spec/appliance.md §6.6): the stored checkpoints
/// have exactly the sizes 1 … n. An event without its own checkpoint was not appended by urne (a
/// row inserted with sqlite3, however well chained), or its checkpoint was deleted.
fn check_every_event_signed(n: u64, stored: &[(u64, String)]) -> Result<(), TrailFailure> {
    let sizes: std::collections::BTreeSet<u64> = stored.iter().map(|(s, _)| *s).collect();
    match (1..=n).find(|s| !sizes.contains(s)) {
        None => Ok(()),
        Some(seq) => Err(TrailFailure {
            class: FailureClass::Inconsistent,
            seq,
            reason: format!(
                "event {seq} has no checkpoint of its own: a version-2 trail signs every event as it is appended, so this event was not appended by urne or its checkpoint was deleted"
            ),
        }),
    }
}

pub use crate::entries::rfc3339::is_one_time_format;

/// A version-2 trail's times (spec/formats.md §6.4 (5)): each in urne's one format (RFC 3339 UTC with
/// microseconds, a real date and time of day, so that text order is time order) and none earlier
/// than the event before it: the appliance refuses to append under a clock set back (spec/appliance.md §6.6), so a
/// time that goes back was not written by it. The one exception is a `clock.corrected` event,
/// which names as `wrong` the time of the event before it, exactly: the witnessed correction of a
/// clock that was set ahead (spec/formats.md §6.2). Only the correction itself may go back; the events after it
/// are again never earlier than the one before them, and it never goes back past the last time a
/// person witnessed ([`super::witnessed`], [M-254]).
pub(super) fn step5_times(events: &[Event]) -> Result<(), TrailFailure> {
    let mut prev: Option<&Event> = None;
    let mut witnessed = super::witnessed::Witnessed::default();
    for e in events {
        let bad = |reason: String| TrailFailure {
            class: FailureClass::Inconsistent,
            seq: e.seq,
            reason,
        };
        if !is_one_time_format(&e.ts) {
            return Err(bad(format!(
                "event {}'s time {:?} is not RFC 3339 UTC with microseconds, a real date and time of day",
                e.seq, e.ts
            )));
        }
        time_follows(prev, e).map_err(bad)?;
        if e.kind == Kind::ClockCorrected.name()
            && let Ok(Record::ClockCorrected(c)) = kinds::parse(e)
        {
            witnessed.admits(e, &c.confirmed).map_err(bad)?;
        }
        witnessed.see(e);
        prev = Some(e);
    }
    Ok(())
}

/// Whether the event `e` may follow `prev` in time (spec/formats.md §6.4 (5) [M-125]): never earlier,
/// but for a `clock.corrected` that states `prev`'s time as the wrong one. The appliance applies
/// it to each event before appending it, as the verifiers apply it to the trail.
pub fn time_follows(prev: Option<&Event>, e: &Event) -> Result<(), String> {
    if e.kind == Kind::ClockCorrected.name() {
        return check_correction(e, prev);
    }
    match prev {
        Some(p) if e.ts < p.ts => Err(format!(
            "event {}'s time {} is earlier than event {}'s ({}): the clock was set back, and no clock.corrected event states it",
            e.seq, e.ts, p.seq, p.ts
        )),
        _ => Ok(()),
    }
}

/// Whether the event `e` may be appended after `before` (spec/formats.md §6.4 (5) [M-125, M-254]): the
/// rule of [`time_follows`], and for a clock correction the bound of the last time a person
/// witnessed ([`super::witnessed`]). The appliance applies it before every append, as the
/// verifiers apply it to the trail: a correction the clock moved under after its watch check is
/// never appended to fail them.
pub fn may_follow(before: &[Event], e: &Event) -> Result<(), String> {
    time_follows(before.last(), e)?;
    if e.kind == Kind::ClockCorrected.name()
        && let Ok(Record::ClockCorrected(c)) = kinds::parse(e)
    {
        super::witnessed::Witnessed::of(before).admits(e, &c.confirmed)?;
    }
    Ok(())
}

/// A `clock.corrected` event (spec/formats.md §6.4 (5)): a record of its kind, after an event whose time
/// is the correction's `wrong`, exactly, with a `confirmed` time in urne's one format.
fn check_correction(e: &Event, prev: Option<&Event>) -> Result<(), String> {
    let Ok(Record::ClockCorrected(c)) = kinds::parse(e) else {
        return Err(format!(
            "event {} is a clock.corrected event whose payload is not one",
            e.seq
        ));
    };
    let Some(p) = prev else {
        return Err(format!("event {} corrects the clock of no event", e.seq));
    };
    if c.wrong != p.ts {
        return Err(format!(
            "event {} corrects the clock from {}, but event {}'s time is {}",
            e.seq, c.wrong, p.seq, p.ts
        ));
    }
    if !is_one_time_format(&c.confirmed) {
        return Err(format!(
            "event {}'s confirmed time {:?} is not RFC 3339 UTC with microseconds, a real date and time of day",
            e.seq, c.confirmed
        ));
    }
    Ok(())
}

/// A checkpoint to verify: what it is (in words), its note, and its size if it is a stored one
/// (which must be its note's).
type Note<'a> = (String, &'a str, Option<u64>);

/// A stored checkpoint `(size, note)` as a [`Note`].
fn stored_note((size, note): &(u64, String)) -> Note<'_> {
    (
        format!("stored checkpoint at size {size}"),
        note.as_str(),
        Some(*size),
    )
}

/// Each note `(what, note, declared size if stored)` verified under `key`, in order.
fn verify_notes(
    notes: &[Note],
    key: &[u8; 32],
    origin: Option<chain::Origin>,
) -> Vec<Result<chain::Checkpoint, chain::NoteError>> {
    // Official checkpoints, unless the token itself said which its trail's are: a
    // rehearsal's, verified as official, is the class `rehearsal` (spec/formats.md §6.10).
    notes
        .iter()
        .map(|(_, note, _)| match origin {
            Some(o) => chain::verify_note_as(note, key, o),
            None => chain::verify_note(note, key),
        })
        .collect()
}

/// Each note `(what, note, declared size if stored)`, `verified` as [`verify_notes`] says, is a
/// checkpoint of its declared size with the root `roots` give the events it covers; returns the
/// largest size covered.
fn check_verified(
    notes: &[Note],
    verified: Vec<Result<chain::Checkpoint, chain::NoteError>>,
    roots: &chain::PrefixRoots,
) -> Result<u64, TrailFailure> {
    let mut covered = 0u64;
    let mut last_good = 0u64;
    for ((what, _, declared), verified) in notes.iter().zip(verified) {
        let at = declared.unwrap_or(1).max(1);
        let cp = verified.map_err(|why| TrailFailure {
            class: match why.kind {
                NoteErrorKind::Malformed => FailureClass::Malformed,
                NoteErrorKind::OtherKey => FailureClass::Inconsistent,
                NoteErrorKind::BadSignature => FailureClass::BadSignature,
                NoteErrorKind::Rehearsal => FailureClass::Rehearsal,
            },
            seq: at,
            reason: format!("{what}: {why}"),
        })?;
        if declared.is_some_and(|s| s != cp.size) {
            return Err(TrailFailure {
                class: FailureClass::Inconsistent,
                seq: at,
                reason: format!("{what}: its note says size {}", cp.size),
            });
        }
        // The appliance signs a checkpoint after appending an event: a stored one of size 0
        // signs the empty tree, which proves nothing and which urne never stores [M-260].
        if declared.is_some() && cp.size == 0 {
            return Err(TrailFailure {
                class: FailureClass::Inconsistent,
                seq: at,
                reason: format!(
                    "{what}: a stored checkpoint covers at least one event; size 0 signs the empty tree, which the appliance never stores"
                ),
            });
        }
        chain::check_against(&cp, roots, last_good).map_err(|mut f| {
            f.reason = format!("{what}: {}", f.reason);
            TrailFailure::inconsistent(f)
        })?;
        if declared.is_some() {
            last_good = cp.size;
        }
        covered = covered.max(cp.size);
    }
    Ok(covered)
}
