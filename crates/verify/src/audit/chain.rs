//! Pure audit-chain logic (spec/formats.md §6): how an event's hash commits to the previous event, its
//! sequence number and its exact content; the RFC 6962 tree over event hashes; the C2SP
//! signed-note checkpoint that the HSM's audit key signs; and verification of a whole chain.
//! Storage (`SQLite`) is the appliance's (`src/edge/store.rs`); this file could ship alone to
//! auditors.

use crate::crypto::{Hash32, keys, merkle, tagged_hash};
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;

/// Label of the event hash (spec/formats.md §6.1).
pub const EVENT_LABEL: &str = "urne/v1/audit-event";

/// One audit event as stored (spec/formats.md §6.1), and as `urne audit export` writes it (spec/formats.md §6.4).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Event {
    /// Sequence number: 1, 2, 3, … without gaps.
    pub seq: u64,
    /// RFC 3339 UTC time with microseconds, from the appliance's clock.
    pub ts: String,
    /// What happened (`software.start`, `keys.generated`, `input.rejected`, `seal`, …).
    pub kind: String,
    /// Details as a JSON text; hashed exactly as stored.
    pub payload: String,
    /// The previous event's hash ([`Hash32::ZERO`] for event 1), lowercase hex in an export
    /// (spec/formats.md §6.1, §6.4).
    pub prev_hash: Hash32,
    /// This event's hash, [`event_hash`] of the fields above (spec/formats.md §6.1).
    pub hash: Hash32,
}

/// `H("urne/v1/audit-event", prev_hash, u64be(seq), ts, kind, payload)` with the length-prefixed
/// tagged hash of spec/formats.md §1.2.
pub fn event_hash(prev: &Hash32, seq: u64, ts: &str, kind: &str, payload: &str) -> Hash32 {
    tagged_hash(
        EVENT_LABEL,
        &[
            prev,
            &seq.to_be_bytes(),
            ts.as_bytes(),
            kind.as_bytes(),
            payload.as_bytes(),
        ],
    )
}

/// RFC 6962 root over the first events' hashes (leaf data = the 32-byte event hash, spec/formats.md §6.3).
pub fn tree_root(hashes: &[Hash32]) -> Hash32 {
    let leaves: Vec<Hash32> = hashes.iter().map(|h| merkle::leaf_hash(h)).collect();
    merkle::root(&leaves)
}

/// Which trail a checkpoint is of (spec/formats.md §6.3, §6.10): an official one, whose origin line
/// is `urne-audit/<key id>`, or a rehearsal token's, whose origin line is
/// `urne-rehearsal/<key id>`. The audit key signs the origin line with the rest of the body, so
/// no one without the token turns one into the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Origin {
    /// An official token's trail.
    #[default]
    Official,
    /// A rehearsal token's trail (`urne keys init --rehearsal`, spec/appliance.md §6.10): never an
    /// official result.
    Rehearsal,
}

impl Origin {
    /// The origin line's prefix before `/<key id>`.
    pub fn prefix(self) -> &'static str {
        match self {
            Origin::Official => "urne-audit",
            Origin::Rehearsal => "urne-rehearsal",
        }
    }
}

/// How the labels of a rehearsal token's keys begin (`urne-rehearsal-result`,
/// `urne-rehearsal-audit`, spec/appliance.md §6.10; spec/formats.md §6.10): a key export listing
/// such a label is a rehearsal's.
pub const REHEARSAL_LABEL_PREFIX: &str = "urne-rehearsal-";

/// The checkpoint origin line (and key name) for an audit key: `urne-audit/<key id>` (spec/formats.md §1.3,
/// §6.3).
pub fn origin(audit_key: &[u8; 32]) -> String {
    origin_of(Origin::Official, audit_key)
}

/// The checkpoint origin line of a trail of `kind` under `audit_key`: `urne-audit/<key id>` or
/// `urne-rehearsal/<key id>` (spec/formats.md §6.3, §6.10).
pub fn origin_of(kind: Origin, audit_key: &[u8; 32]) -> String {
    format!("{}/{}", kind.prefix(), keys::key_id(audit_key))
}

/// The body of a C2SP tlog-checkpoint (spec/formats.md §6.3): `origin\nsize\nbase64(root)\n`. This is what is
/// signed.
pub fn checkpoint_body(audit_key: &[u8; 32], size: u64, root: &Hash32) -> String {
    checkpoint_body_of(Origin::Official, audit_key, size, root)
}

/// [`checkpoint_body`] for a trail of `kind` (spec/formats.md §6.10: a rehearsal's origin line).
pub fn checkpoint_body_of(kind: Origin, audit_key: &[u8; 32], size: u64, root: &Hash32) -> String {
    format!(
        "{}\n{size}\n{}\n",
        origin_of(kind, audit_key),
        B64.encode(root)
    )
}

/// C2SP signed-note key id (spec/formats.md §6.3): `SHA-256(name || 0x0A || 0x01 || pk)[..4]`.
pub fn note_key_id(name: &str, pk: &[u8; 32]) -> [u8; 4] {
    let mut m = name.as_bytes().to_vec();
    m.push(0x0a);
    m.push(0x01);
    m.extend_from_slice(pk);
    let h = crate::crypto::sha256(&m);
    [h[0], h[1], h[2], h[3]]
}

/// The full signed note (spec/formats.md §6.3): body, blank line, signature line `— name base64(keyid || sig)`.
/// The key name is `urne-audit/<id>` of the audit key, or `urne-rehearsal/<id>` when the body is a
/// rehearsal's (spec/formats.md §6.10).
pub fn signed_note(audit_key: &[u8; 32], body: &str, sig: &[u8; 64]) -> String {
    let rehearsal = origin_of(Origin::Rehearsal, audit_key);
    let name = if body.starts_with(&format!("{rehearsal}\n")) {
        rehearsal
    } else {
        origin(audit_key)
    };
    let mut blob = note_key_id(&name, audit_key).to_vec();
    blob.extend_from_slice(sig);
    format!("{body}\n\u{2014} {name} {}\n", B64.encode(blob))
}

/// A checkpoint whose signature has been verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    /// The number of events the checkpoint covers (the tree size).
    pub size: u64,
    /// The RFC 6962 root over the first `size` event hashes (spec/formats.md §6.3).
    pub root: Hash32,
}

/// Why a checkpoint note does not verify, by kind, so a verifier can classify it (spec/formats.md §8.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoteErrorKind {
    /// The note does not parse as a tlog checkpoint (body, blank line, signature lines).
    Malformed,
    /// The note's origin names another audit key than the one given.
    OtherKey,
    /// No signature by the audit key, or one that does not verify.
    BadSignature,
    /// A checkpoint of a rehearsal token's trail, its signature good (spec/formats.md §6.10): never
    /// an official result.
    Rehearsal,
}

/// Why a checkpoint note does not verify: its kind and what, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteError {
    /// The kind of failure.
    pub kind: NoteErrorKind,
    /// What does not hold.
    pub what: String,
}

impl std::fmt::Display for NoteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.what)
    }
}

fn note_error(kind: NoteErrorKind, what: impl Into<String>) -> NoteError {
    NoteError {
        kind,
        what: what.into(),
    }
}

/// Parses a signed note and verifies its signature under `audit_key` (spec/formats.md §6.3), as an
/// official checkpoint: a rehearsal's, its signature good, is [`NoteErrorKind::Rehearsal`]
/// (spec/formats.md §6.10).
pub fn verify_note(note: &str, audit_key: &[u8; 32]) -> Result<Checkpoint, NoteError> {
    match verify_note_as(note, audit_key, Origin::Rehearsal) {
        Ok(_) => Err(note_error(
            NoteErrorKind::Rehearsal,
            format!(
                "the checkpoint is a rehearsal token's (origin {:?}): RÉPÉTITION — SANS VALEUR / REHEARSAL — NO VALUE, never an official result",
                origin_of(Origin::Rehearsal, audit_key)
            ),
        )),
        Err(_) => verify_note_as(note, audit_key, Origin::Official),
    }
}

/// [`verify_note`] for a checkpoint of a trail of `kind`: the appliance checking its own trail,
/// whose token says which it is (spec/appliance.md §6.10).
pub fn verify_note_as(
    note: &str,
    audit_key: &[u8; 32],
    kind: Origin,
) -> Result<Checkpoint, NoteError> {
    use NoteErrorKind::{BadSignature, Malformed, OtherKey};
    let (body, sigs) = note
        .split_once("\n\n")
        .ok_or_else(|| note_error(Malformed, "not a signed note (no blank line)"))?;
    let body = format!("{body}\n");
    let mut lines = body.lines();
    let org = lines
        .next()
        .ok_or_else(|| note_error(Malformed, "empty note"))?;
    // Decimal without sign or leading zeros (spec/formats.md §6.3): `+5` and `007` are not sizes.
    let size: u64 = lines
        .next()
        .filter(|l| {
            !l.is_empty()
                && l.bytes().all(|b| b.is_ascii_digit())
                && (l.len() == 1 || !l.starts_with('0'))
        })
        .and_then(|l| l.parse().ok())
        .ok_or_else(|| note_error(Malformed, "bad tree size line"))?;
    let root: Hash32 = lines
        .next()
        .and_then(|l| B64.decode(l).ok())
        .and_then(|v| Hash32::try_from(v.as_slice()).ok())
        .ok_or_else(|| note_error(Malformed, "bad root hash line"))?;
    // Exactly the body urne writes for that size and root (spec/formats.md §6.3): no fourth line, no
    // CR, the size in decimal without sign or leading zero, the root in padded base64.
    if lines.next().is_some() || body != format!("{org}\n{size}\n{}\n", B64.encode(root)) {
        return Err(note_error(
            Malformed,
            "the checkpoint's body is not its three lines as spec/formats.md §6.3 writes them",
        ));
    }
    if org != origin_of(kind, audit_key) {
        return Err(note_error(
            OtherKey,
            format!(
                "checkpoint origin {org:?} is not that of the audit key {:?}",
                origin_of(kind, audit_key)
            ),
        ));
    }
    let want_id = note_key_id(org, audit_key);
    let (name, blob) = one_signature_line(sigs)?;
    if name != org || blob.len() != 68 || blob[..4] != want_id {
        return Err(note_error(
            BadSignature,
            "no signature by the audit key on this checkpoint",
        ));
    }
    if keys::verify(audit_key, body.as_bytes(), &blob[4..]) {
        return Ok(Checkpoint { size, root });
    }
    Err(note_error(
        BadSignature,
        "the checkpoint signature does not verify under the audit key",
    ))
}

/// The one signature line of a checkpoint note (the text after its blank line): C2SP
/// signed-note's `— <name> <base64>`, the blob at least a 4-byte key hash (a line of another
/// form makes the note malformed), and exactly one, ending with LF (spec/formats.md §6.3): urne's
/// checkpoint carries the audit key's signature alone, and a second line, of any key, would
/// make two notes of one checkpoint, which outputs compare byte for byte.
fn one_signature_line(sigs: &str) -> Result<(&str, Vec<u8>), NoteError> {
    use NoteErrorKind::Malformed;
    let mut found = Vec::new();
    for line in sigs.split_terminator('\n') {
        let sig = line
            .strip_prefix("\u{2014} ")
            .and_then(|rest| rest.split_once(' '))
            .and_then(|(name, b64)| Some((name, B64.decode(b64).ok()?)))
            .filter(|(name, blob)| !name.is_empty() && blob.len() > 4)
            .ok_or_else(|| {
                note_error(
                    Malformed,
                    "a signature line is not `— <name> <base64 signature>` (C2SP signed-note)",
                )
            })?;
        found.push(sig);
    }
    if found.len() != 1 {
        return Err(note_error(
            Malformed,
            "a checkpoint carries exactly one signature line, the audit key's (spec/formats.md §6.3)",
        ));
    }
    if !sigs.ends_with('\n') {
        return Err(note_error(
            Malformed,
            "the checkpoint's signature line does not end with LF (spec/formats.md §6.3)",
        ));
    }
    Ok(found.remove(0))
}

/// The RFC 6962 root of every prefix of a list of event hashes (spec/formats.md §6.3: the tree a checkpoint of
/// size `s` signs is the one over the first `s` events), computed in one pass in O(n log n): the
/// perfect subtrees of the prefix (its binary decomposition, largest first) are kept, and each
/// prefix's root folds them right to left, which is the split of RFC 9162 §2.1.1.
#[derive(Debug, Clone)]
pub struct PrefixRoots {
    /// `roots[s]` is the root over the first `s` events (`roots[0]`: the empty tree), or, for
    /// [`PrefixRoots::at`], the roots of the sizes asked for only, by size.
    roots: Roots,
    /// The number of events.
    len: usize,
    /// The right edge of the tree over all the events, once they are all pushed.
    frontier: Frontier,
}

#[derive(Debug, Clone)]
enum Roots {
    Every(Vec<Hash32>),
    Some(std::collections::BTreeMap<u64, Hash32>),
}

impl PrefixRoots {
    /// The roots of every prefix of `hashes` (event hashes, hashed as leaves here).
    pub fn new(hashes: &[Hash32]) -> PrefixRoots {
        let mut frontier = Frontier::default();
        let mut roots = Vec::with_capacity(hashes.len() + 1);
        roots.push(merkle::root(&[]));
        for h in hashes {
            frontier.push(h);
            roots.push(frontier.root());
        }
        PrefixRoots {
            roots: Roots::Every(roots),
            len: hashes.len(),
            frontier,
        }
    }

    /// The roots of the prefixes of `hashes` of the sizes in `sizes` only (those up to the
    /// number of events; [`PrefixRoots::root_at`] is `None` for any other size): one pass of
    /// O(n + k log n) hashes for k sizes, where [`PrefixRoots::new`] folds a root at every size.
    pub fn at(hashes: &[Hash32], sizes: impl IntoIterator<Item = u64>) -> PrefixRoots {
        let wanted: std::collections::BTreeSet<u64> = sizes.into_iter().collect();
        let mut roots = std::collections::BTreeMap::new();
        if wanted.contains(&0) {
            roots.insert(0, merkle::root(&[]));
        }
        let mut frontier = Frontier::default();
        for h in hashes {
            frontier.push(h);
            if wanted.contains(&frontier.size()) {
                roots.insert(frontier.size(), frontier.root());
            }
        }
        PrefixRoots {
            roots: Roots::Some(roots),
            len: hashes.len(),
            frontier,
        }
    }

    /// The number of events.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no events.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The root over the first `size` events, if there are that many (and, for
    /// [`PrefixRoots::at`], if `size` was asked for).
    pub fn root_at(&self, size: u64) -> Option<Hash32> {
        match &self.roots {
            Roots::Every(roots) => usize::try_from(size)
                .ok()
                .and_then(|s| roots.get(s))
                .copied(),
            Roots::Some(roots) => roots.get(&size).copied(),
        }
    }

    /// The right edge of the tree over every event (to append to it without hashing them again).
    pub fn frontier(&self) -> &Frontier {
        &self.frontier
    }
}

/// The right edge of the tree over a trail's events (RFC 9162 §2.1.1): the roots of its perfect
/// subtrees, largest first, from which the root over every event so far is folded right to left.
/// An append adds one event in O(log n) hashes instead of hashing the whole trail again.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Frontier {
    /// (number of leaves, root) of each perfect subtree, left to right.
    nodes: Vec<(u64, Hash32)>,
    /// The number of events.
    size: u64,
}

impl Frontier {
    /// The frontier over `hashes` (event hashes, hashed as leaves here).
    pub fn of(hashes: &[Hash32]) -> Frontier {
        let mut f = Frontier::default();
        for h in hashes {
            f.push(h);
        }
        f
    }

    /// Adds one event by its hash.
    pub fn push(&mut self, hash: &Hash32) {
        let mut node = (1u64, merkle::leaf_hash(hash.as_slice()));
        while let Some(&(size, left)) = self.nodes.last() {
            if size != node.0 {
                break;
            }
            self.nodes.pop();
            node = (size * 2, merkle::node_hash(&left, &node.1));
        }
        self.nodes.push(node);
        self.size += 1;
    }

    /// The number of events.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The root over every event so far ([`tree_root`]).
    pub fn root(&self) -> Hash32 {
        let mut it = self.nodes.iter().rev();
        let Some(&(_, mut root)) = it.next() else {
            return merkle::root(&[]);
        };
        for (_, left) in it {
            root = merkle::node_hash(left, &root);
        }
        root
    }
}

/// Why a chain does not verify: the first sequence number that fails, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainFailure {
    /// The first sequence number that cannot be vouched for.
    pub seq: u64,
    /// What is wrong there, in words (as `urne audit verify` reports it).
    pub reason: String,
}

/// Checks that `events` (in storage order) are exactly 1, 2, 3, … each linking to the previous
/// hash and hashing to its stored value (spec/formats.md §6.4, check 1). Returns the first failure.
pub fn verify_chain(events: &[Event]) -> Result<(), ChainFailure> {
    let altered = first_altered(events);
    let mut prev = Hash32::ZERO;
    for (i, e) in events.iter().enumerate() {
        let want = i as u64 + 1;
        out_of_number(e.seq, want).map_or(Ok(()), Err)?;
        if e.prev_hash != prev {
            return Err(ChainFailure {
                seq: want,
                reason: "its previous-hash does not match the hash of the event before it".into(),
            });
        }
        if altered == Some(i) {
            return Err(ChainFailure {
                seq: want,
                reason: ALTERED.into(),
            });
        }
        prev = e.hash;
    }
    Ok(())
}

/// Why an event whose content does not recompute its stored hash fails.
const ALTERED: &str = "its content does not match its hash (the event was altered)";

/// The failure of an event numbered `seq` where event `want` should stand, if they differ.
fn out_of_number(seq: u64, want: u64) -> Option<ChainFailure> {
    (seq != want).then(|| ChainFailure {
        seq: want,
        reason: if seq > want {
            format!("event {want} is missing (next stored event is {seq})")
        } else {
            format!("event {seq} appears out of order")
        },
    })
}

/// An event's number and stored hash, its content unread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Link {
    /// The event's sequence number.
    pub seq: u64,
    /// The event's hash, as stored.
    pub hash: Hash32,
}

impl Link {
    /// The link of an event.
    pub fn of(e: &Event) -> Link {
        Link {
            seq: e.seq,
            hash: e.hash,
        }
    }
}

/// Checks that `links` (in storage order) are numbered exactly 1, 2, 3, …: of check 1 of
/// spec/formats.md §6.4, what a reader of the stored hashes alone can check. Each hash, and the
/// previous hash each event states, is recomputed by whoever reads the event's content
/// ([`check_content`]); a reader that holds a signed root over the hashes (the token's mark,
/// spec/appliance.md §6.6 [M-136]) knows them to be the ones that root covers.
pub fn verify_numbers(links: &[Link]) -> Result<(), ChainFailure> {
    links
        .iter()
        .enumerate()
        .find_map(|(i, l)| out_of_number(l.seq, i as u64 + 1))
        .map_or(Ok(()), Err)
}

/// Checks that event `e`, read by number, is the one `link` (the link stored at its number,
/// `None`: there is none) says, its content recomputing the link's hash: what a reader of the
/// links checks of each event whose content it reads.
pub fn check_content(e: &Event, link: Option<&Link>) -> Result<(), ChainFailure> {
    match link {
        Some(l)
            if l.seq == e.seq
                && l.hash == e.hash
                && event_hash(&e.prev_hash, e.seq, &e.ts, &e.kind, &e.payload) == e.hash =>
        {
            Ok(())
        }
        _ => Err(ChainFailure {
            seq: e.seq,
            reason: ALTERED.into(),
        }),
    }
}

/// The index of the first event whose content does not recompute its stored hash, if any: on two
/// threads for a long trail (each event's hash depends only on its own row, the previous hash as
/// stored included; the links are checked in order by [`verify_chain`]).
fn first_altered(events: &[Event]) -> Option<usize> {
    const ALONE: usize = 2_000;
    let altered = |events: &[Event]| {
        events
            .iter()
            .position(|e| event_hash(&e.prev_hash, e.seq, &e.ts, &e.kind, &e.payload) != e.hash)
    };
    if events.len() < ALONE {
        return altered(events);
    }
    let half = events.len() / 2;
    let (first, second) = events.split_at(half);
    std::thread::scope(|s| {
        let later = s.spawn(|| altered(second));
        let here = altered(first);
        // A panic in a hash is a defect; hash the rest here rather than lose it.
        let later = later.join().unwrap_or_else(|_| altered(second));
        here.or(later.map(|i| half + i))
    })
}

/// Checks a verified checkpoint against the chain: the chain must be at least as long, and the
/// tree over its first `size` events must have the signed root. On failure, names the first
/// sequence number that cannot be vouched for (spec/formats.md §6.4, checks 2 and 3).
pub fn check_against(
    cp: &Checkpoint,
    roots: &PrefixRoots,
    last_good: u64,
) -> Result<(), ChainFailure> {
    let events = roots.len() as u64;
    // The events the checkpoint covers, when the chain holds them all.
    let Some(root) = roots.root_at(cp.size) else {
        return Err(ChainFailure {
            seq: events + 1,
            reason: format!(
                "the trail holds {events} events but a signed checkpoint covers {}: events {}..{} were removed",
                cp.size,
                events + 1,
                cp.size
            ),
        });
    };
    if root != cp.root {
        return Err(ChainFailure {
            seq: last_good + 1,
            reason: format!(
                "events {}..{} do not match the signed checkpoint at size {} (history was rewritten)",
                last_good + 1,
                cp.size,
                cp.size
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests_mutants;

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(n: u64) -> Vec<Event> {
        let mut prev = Hash32::ZERO;
        (1..=n)
            .map(|seq| {
                let (ts, kind, payload) = (
                    "2026-01-01T00:00:00.000000Z",
                    "test",
                    format!("{{\"n\":{seq}}}"),
                );
                let hash = event_hash(&prev, seq, ts, kind, &payload);
                let e = Event {
                    seq,
                    ts: ts.into(),
                    kind: kind.into(),
                    payload,
                    prev_hash: prev,
                    hash,
                };
                prev = hash;
                e
            })
            .collect()
    }

    #[test]
    fn an_intact_chain_verifies() {
        assert_eq!(verify_chain(&chain(5)), Ok(()));
    }

    #[test]
    fn editing_any_event_is_detected_at_its_sequence_number() {
        for i in 0..5 {
            let mut c = chain(5);
            c[i].payload.push(' ');
            assert_eq!(verify_chain(&c).unwrap_err().seq, i as u64 + 1);
        }
    }

    #[test]
    fn deleting_or_swapping_events_is_detected() {
        let mut c = chain(5);
        c.remove(2);
        assert_eq!(verify_chain(&c).unwrap_err().seq, 3);
        let mut c = chain(5);
        c.swap(1, 3);
        assert_eq!(verify_chain(&c).unwrap_err().seq, 2);
    }

    #[test]
    fn truncation_past_a_checkpoint_is_detected() {
        let c = chain(5);
        let hashes: Vec<Hash32> = c.iter().map(|e| e.hash).collect();
        let cp = Checkpoint {
            size: 5,
            root: tree_root(&hashes),
        };
        assert!(check_against(&cp, &PrefixRoots::new(&hashes), 0).is_ok());
        assert_eq!(
            check_against(&cp, &PrefixRoots::new(&hashes[..3]), 0)
                .unwrap_err()
                .seq,
            4
        );
    }

    #[test]
    fn prefix_roots_are_the_roots_of_every_prefix() {
        let hashes: Vec<Hash32> = (0u8..70).map(|i| Hash32([i; 32])).collect();
        let roots = PrefixRoots::new(&hashes);
        assert_eq!(roots.len(), 70);
        for s in 0..=70 {
            assert_eq!(
                roots.root_at(s as u64),
                Some(tree_root(&hashes[..s])),
                "{s}"
            );
        }
        assert_eq!(roots.root_at(71), None);
    }

    #[test]
    fn a_frontier_grown_one_event_at_a_time_has_the_root_of_the_whole_tree() {
        let hashes: Vec<Hash32> = (0u8..70).map(|i| Hash32([i; 32])).collect();
        let mut f = Frontier::default();
        assert_eq!(f.root(), tree_root(&[]));
        for (i, h) in hashes.iter().enumerate() {
            f.push(h);
            assert_eq!(f.size(), i as u64 + 1);
            assert_eq!(f.root(), tree_root(&hashes[..=i]), "{i}");
            assert_eq!(Frontier::of(&hashes[..=i]), f);
        }
    }

    #[test]
    fn a_signed_note_verifies_only_under_its_key() {
        use ed25519_dalek::Signer;
        let sk = ed25519_dalek::SigningKey::from_bytes(&[5u8; 32]);
        let pk = sk.verifying_key().to_bytes();
        let body = checkpoint_body(&pk, 3, &Hash32([1u8; 32]));
        let sig = sk.sign(body.as_bytes()).to_bytes();
        let note = signed_note(&pk, &body, &sig);
        assert_eq!(
            verify_note(&note, &pk).unwrap(),
            Checkpoint {
                size: 3,
                root: Hash32([1u8; 32])
            }
        );
        let other = ed25519_dalek::SigningKey::from_bytes(&[6u8; 32])
            .verifying_key()
            .to_bytes();
        assert!(verify_note(&note, &other).is_err());
        assert!(verify_note(&note.replace("\n3\n", "\n4\n"), &pk).is_err());
    }
}
