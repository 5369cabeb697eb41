//! The daily draw, pure core (spec/formats.md §4): from a day's canonical entry list to per-day keyed
//! pseudonyms, the Merkle commitment, the seed, and the winner and ordered reserves. Nothing
//! here touches a file, the HSM, the database or the clock; the appliance's `seal` and `draw`
//! commands call it at the ceremony, and [`crate::verify`] calls exactly the same functions to
//! recompute a draw.

use crate::crypto::drbg::DrbgStream;
use crate::crypto::{Hash32, merkle, tagged_hash};
use sha2::{Digest, Sha256};

pub mod figures;
pub mod files;
pub mod proofs;
pub mod records;
pub mod split;

/// Personalization string of the daily-draw DRBG (spec/formats.md §4.5).
pub const DRBG_PERSONALIZATION: &[u8] = b"urne/v1/daily-draw";

/// One account's entries for the day (D-3, D-4), in the canonical list sorted by account bytes:
/// the tally's own type (one definition, in `entries`).
pub use crate::entries::AccountEntries;

/// A public leaf: a per-day pseudonym and its number of entries (D-14, D-15: no account id).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leaf {
    /// The account's pseudonym for the day (spec/formats.md §4.2); leaves are sorted by it.
    pub pseudonym: Hash32,
    /// The account's entries that day, 1 to the daily cap (D-4); leaf `i` holds the entries
    /// numbered from the sum of the entries of leaves `0..i` (spec/formats.md §4.3).
    pub entries: u8,
}

impl Leaf {
    /// Leaf data hashed into the commitment (spec/formats.md §4.3) and written to `leaves.bin` (spec/formats.md §4.7):
    /// `pseudonym (32 bytes) || entries (1 byte)`.
    pub fn bytes(&self) -> [u8; 33] {
        let mut b = [0u8; 33];
        b[..32].copy_from_slice(&self.pseudonym);
        b[32] = self.entries;
        b
    }
}

/// The canonical binary form of an entry list (spec/formats.md §4.1): for each account in ascending
/// byte order, `account (32 bytes) || entries (1 byte)`.
pub fn encode_list(list: &[AccountEntries]) -> Vec<u8> {
    let mut out = Vec::with_capacity(list.len() * 33);
    for a in list {
        out.extend_from_slice(&a.account);
        out.push(a.entries);
    }
    out
}

/// Parses [`encode_list`]'s output, checking the canonical order (strictly ascending accounts)
/// and entry counts (at least 1); `None` otherwise.
///
/// # Panics
/// Never: each chunk it splits an account from is 33 bytes long.
pub fn decode_list(bytes: &[u8]) -> Option<Vec<AccountEntries>> {
    if !bytes.len().is_multiple_of(33) {
        return None;
    }
    let list: Vec<AccountEntries> = bytes
        .chunks_exact(33)
        .map(|c| AccountEntries {
            account: c[..32].try_into().expect("33-byte chunk"),
            entries: c[32],
        })
        .collect();
    let ordered = list.windows(2).all(|w| w[0].account < w[1].account);
    (ordered && list.iter().all(|a| a.entries > 0)).then_some(list)
}

/// `H("urne/v1/entry-list", operation, day, encode_list(list))` (spec/formats.md §4.2).
pub fn list_digest(operation: &str, day: &str, list: &[AccountEntries]) -> Hash32 {
    list_digest_of(
        operation,
        day,
        list.len(),
        list.iter().map(|a| (&a.account, a.entries)),
    )
}

/// [`list_digest`] of the `n` accounts and entries `list` yields, in canonical order.
fn list_digest_of<'a>(
    operation: &str,
    day: &str,
    n: usize,
    list: impl Iterator<Item = (&'a [u8; 32], u8)>,
) -> Hash32 {
    let mut d = ListDigest::new(operation, day, n);
    for (account, entries) in list {
        d.push(account, entries);
    }
    d.finish()
}

/// [`list_digest`] fed one account at a time, in canonical (ascending account) order: the
/// streamed equivalent of `tagged_hash` with three parts, for a list of tens of MB that is
/// never held whole (`urne proof --all`, which merges it from sorted runs).
#[derive(Debug, Clone)]
pub struct ListDigest(Sha256);

impl ListDigest {
    /// The digest of a list of `n` accounts of `operation`'s `day`, none pushed yet.
    pub fn new(operation: &str, day: &str, n: usize) -> ListDigest {
        let mut h = Sha256::new();
        h.update(b"urne/v1/entry-list\0");
        for p in [operation.as_bytes(), day.as_bytes()] {
            h.update((p.len() as u64).to_be_bytes());
            h.update(p);
        }
        h.update((n as u64 * 33).to_be_bytes());
        ListDigest(h)
    }

    /// The next account of the list and its entries.
    pub fn push(&mut self, account: &[u8; 32], entries: u8) {
        self.0.update(account);
        self.0.update([entries]);
    }

    /// The digest (it holds only if exactly the `n` accounts given to [`ListDigest::new`] were
    /// pushed, in order).
    pub fn finish(self) -> Hash32 {
        Hash32(self.0.finalize().into())
    }
}

/// The day's pseudonym key: `H("urne/v1/pseudonym-key", list_digest)`. Whoever holds the whole
/// entry list (the appliance, production, the commissaire with the signed export) can compute it;
/// the public cannot, so pseudonyms cannot be linked across days (spec/formats.md §4.2).
pub fn pseudonym_key(list_digest: &Hash32) -> Hash32 {
    tagged_hash("urne/v1/pseudonym-key", &[list_digest])
}

/// An account's salt for the day: `H("urne/v1/account-salt", key, account)`. Given to that
/// account's holder in an inclusion proof; reveals nothing about other accounts.
pub fn account_salt(key: &Hash32, account: &[u8; 32]) -> Hash32 {
    tagged_hash("urne/v1/account-salt", &[key, account])
}

/// [`account_salt`] for many accounts under one key. The first 64-byte block of the hashed
/// message (label, 0x00, the key's length prefix, the key, and the first three bytes of the
/// account's length prefix, which are zero) is the same for every account, so it is compressed
/// once, and each salt costs one compression instead of two.
struct Salter(Sha256);

impl Salter {
    fn new(key: &Hash32) -> Salter {
        let mut h = Sha256::new();
        h.update(b"urne/v1/account-salt\0");
        h.update(32u64.to_be_bytes());
        h.update(key);
        h.update([0u8; 3]);
        Salter(h)
    }

    fn salt(&self, account: &[u8; 32]) -> Hash32 {
        let mut h = self.0.clone();
        h.update(&32u64.to_be_bytes()[3..]);
        h.update(account);
        Hash32(h.finalize().into())
    }
}

/// An account's pseudonym for the day: `H("urne/v1/pseudonym", salt, account)`.
pub fn pseudonym(salt: &Hash32, account: &[u8; 32]) -> Hash32 {
    tagged_hash("urne/v1/pseudonym", &[salt, account])
}

/// The public leaves of a day (spec/formats.md §4.2, §4.3), sorted by pseudonym (the draw order), each with its
/// account: what a verifier in auditor mode compares with the published leaves (spec/formats.md §8.2 step 8).
pub fn public_leaves(operation: &str, day: &str, list: &[AccountEntries]) -> Vec<(Leaf, [u8; 32])> {
    let mut out = Vec::with_capacity(list.len());
    for_each_leaf(&sorted_runs(operation, day, list), |x| out.push(*x));
    out
}

/// The leaves in sorted runs. A pure function of the list, computed on two threads for large
/// days: each half is hashed and sorted on its own thread, and [`for_each_leaf`] merges the two
/// runs (the result does not depend on how the work is split: pseudonyms are distinct, so the
/// order is total).
fn sorted_runs(operation: &str, day: &str, list: &[AccountEntries]) -> Vec<Vec<(Leaf, [u8; 32])>> {
    let salter = Salter::new(&pseudonym_key(&list_digest(operation, day, list)));
    let leaf_of = |a: &AccountEntries| {
        let salt = salter.salt(&a.account);
        (
            Leaf {
                pseudonym: pseudonym(&salt, &a.account),
                entries: a.entries,
            },
            a.account,
        )
    };
    let run = |part: &[AccountEntries]| {
        let mut v: Vec<(Leaf, [u8; 32])> = part.iter().map(leaf_of).collect();
        v.sort_unstable_by(|a, b| by_pseudonym(&a.0, &b.0));
        v
    };
    if list.len() < 50_000 {
        return vec![run(list)];
    }
    let (a, b) = list.split_at(list.len() / 2);
    std::thread::scope(|s| {
        let h = s.spawn(|| run(b));
        let left = run(a);
        vec![left, h.join().expect("pseudonym thread")]
    })
}

/// Calls `f` on every leaf of `runs` (each sorted by pseudonym), in pseudonym order.
fn for_each_leaf(runs: &[Vec<(Leaf, [u8; 32])>], mut f: impl FnMut(&(Leaf, [u8; 32]))) {
    let empty = Vec::new();
    let (left, right) = match runs {
        [] => (&empty, &empty),
        [one] => (one, &empty),
        [l, r] => (l, r),
        _ => unreachable!("at most two runs"),
    };
    let (mut i, mut j) = (0, 0);
    while i < left.len() && j < right.len() {
        if by_pseudonym(&left[i].0, &right[j].0).is_lt() {
            f(&left[i]);
            i += 1;
        } else {
            f(&right[j]);
            j += 1;
        }
    }
    left[i..].iter().chain(&right[j..]).for_each(f);
}

/// What the seal stores and publishes, made in one pass over the leaves: the sealed set's storage
/// form ([`SealedSet::encode`]) and `leaves.bin` ([`encode_leaves`]).
pub struct SealEncodings {
    /// The sealed set as stored (spec/formats.md §6.2): for each leaf in leaf order
    /// `pseudonym || entries || account`, 65 bytes.
    pub set: Vec<u8>,
    /// The bytes of `leaves.bin` (spec/formats.md §4.7): for each leaf in leaf order `pseudonym || entries`.
    pub leaves: Vec<u8>,
}

/// [`SealedSet::from_list`] followed by both encodings, without the intermediate set (a large
/// day's set is tens of MB).
pub fn seal_encodings(operation: &str, day: &str, list: &[AccountEntries]) -> SealEncodings {
    let mut e = SealEncodings {
        set: Vec::with_capacity(list.len() * 65),
        leaves: Vec::with_capacity(list.len() * 33),
    };
    for_each_leaf(&sorted_runs(operation, day, list), |(l, a)| {
        let b = l.bytes();
        e.set.extend_from_slice(&b);
        e.set.extend_from_slice(a);
        e.leaves.extend_from_slice(&b);
    });
    e
}

/// Byte order of pseudonyms, deciding on the first eight bytes as one integer (almost always
/// enough: pseudonyms are hash outputs) before comparing the rest.
fn by_pseudonym(a: &Leaf, b: &Leaf) -> std::cmp::Ordering {
    let head = |l: &Leaf| u64::from_be_bytes(l.pseudonym[..8].try_into().expect("8 bytes"));
    head(a)
        .cmp(&head(b))
        .then_with(|| a.pseudonym.cmp(&b.pseudonym))
}

/// A sealed day as the appliance keeps it: the public leaves in pseudonym order, and the account
/// behind each (kept only inside the appliance, to name winners to production).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SealedSet {
    /// The public leaves, in strictly ascending pseudonym order (spec/formats.md §4.3).
    pub leaves: Vec<Leaf>,
    /// `accounts[i]` is the 32-byte account behind `leaves[i]`.
    pub accounts: Vec<[u8; 32]>,
}

impl SealedSet {
    /// Builds the set from a canonical entry list (spec/formats.md §4.2, §4.3).
    pub fn from_list(operation: &str, day: &str, list: &[AccountEntries]) -> SealedSet {
        let mut set = SealedSet {
            leaves: Vec::with_capacity(list.len()),
            accounts: Vec::with_capacity(list.len()),
        };
        for_each_leaf(&sorted_runs(operation, day, list), |(l, a)| {
            set.leaves.push(*l);
            set.accounts.push(*a);
        });
        set
    }

    /// Storage form (the sealed set of spec/formats.md §6.2): for each leaf in order,
    /// `pseudonym (32) || entries (1) || account (32)`.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.leaves.len() * 65);
        for (l, a) in self.leaves.iter().zip(&self.accounts) {
            out.extend_from_slice(&l.pseudonym);
            out.push(l.entries);
            out.extend_from_slice(a);
        }
        out
    }

    /// Parses [`SealedSet::encode`]'s output, checking pseudonym order (strictly ascending) and
    /// entry counts (at least 1); `None` otherwise.
    ///
    /// # Panics
    /// Never: each chunk it splits a pseudonym and an account from is 65 bytes long.
    pub fn decode(bytes: &[u8]) -> Option<SealedSet> {
        if !bytes.len().is_multiple_of(65) {
            return None;
        }
        let mut set = SealedSet::with_capacity(bytes.len() / 65);
        set.extend_encoded(bytes);
        set.well_formed().then_some(set)
    }

    /// An empty set with room for `n` leaves, for a caller that reads the storage form in
    /// pieces ([`SealedSet::extend_encoded`], then [`SealedSet::well_formed`]).
    pub fn with_capacity(n: usize) -> SealedSet {
        SealedSet {
            leaves: Vec::with_capacity(n),
            accounts: Vec::with_capacity(n),
        }
    }

    /// Appends the whole 65-byte records of `bytes` (storage form, [`SealedSet::encode`]); a
    /// trailing part of a record is ignored (the caller keeps it for the next piece).
    ///
    /// # Panics
    /// Never: each chunk it splits a pseudonym and an account from is 65 bytes long.
    pub fn extend_encoded(&mut self, bytes: &[u8]) {
        for c in bytes.chunks_exact(65) {
            self.leaves.push(Leaf {
                pseudonym: c[..32].try_into().expect("65-byte chunk"),
                entries: c[32],
            });
            self.accounts
                .push(c[33..].try_into().expect("65-byte chunk"));
        }
    }

    /// Pseudonyms strictly ascending and every leaf with at least one entry, as
    /// [`SealedSet::decode`] checks.
    pub fn well_formed(&self) -> bool {
        self.leaves
            .windows(2)
            .all(|w| w[0].pseudonym < w[1].pseudonym)
            && self.leaves.iter().all(|l| l.entries > 0)
    }

    /// The day's pseudonym key (spec/formats.md §4.2) from the set alone: the list digest hashed
    /// in account order through a permutation of the leaves (4 bytes a leaf), not a second copy
    /// of the list as [`SealedSet::list`] makes.
    ///
    /// # Panics
    /// Never for a set of at most 2^32 leaves (a day has at most 2^24, spec/formats.md §1.6).
    pub fn pseudonym_key(&self, operation: &str, day: &str) -> Hash32 {
        let n = self.accounts.len();
        let mut order: Vec<u32> = (0..u32::try_from(n).expect("at most 2^24 leaves")).collect();
        order.sort_unstable_by_key(|&i| self.accounts[i as usize]);
        pseudonym_key(&list_digest_of(
            operation,
            day,
            n,
            order
                .iter()
                .map(|&i| (&self.accounts[i as usize], self.leaves[i as usize].entries)),
        ))
    }

    /// The canonical entry list (sorted by account) the set was made from.
    pub fn list(&self) -> Vec<AccountEntries> {
        let mut l: Vec<AccountEntries> = self
            .leaves
            .iter()
            .zip(&self.accounts)
            .map(|(l, a)| AccountEntries {
                account: *a,
                entries: l.entries,
            })
            .collect();
        l.sort_unstable();
        l
    }
}

/// A [`SealedSet`] read from its storage form in pieces of any size (a stored set read without a
/// second whole copy of it in memory): [`SealedSetReader::push`] each piece in order, then
/// [`SealedSetReader::finish`] checks it as [`SealedSet::decode`] does.
#[derive(Debug)]
pub struct SealedSetReader {
    set: SealedSet,
    carry: Vec<u8>,
}

impl SealedSetReader {
    /// A reader expecting about `n` leaves.
    pub fn new(n: usize) -> SealedSetReader {
        SealedSetReader {
            set: SealedSet::with_capacity(n),
            carry: Vec::with_capacity(65),
        }
    }

    /// The next piece of the storage form.
    pub fn push(&mut self, mut piece: &[u8]) {
        if !self.carry.is_empty() {
            let take = (65 - self.carry.len()).min(piece.len());
            self.carry.extend_from_slice(&piece[..take]);
            piece = &piece[take..];
            if self.carry.len() == 65 {
                self.set.extend_encoded(&self.carry);
                self.carry.clear();
            }
        }
        let whole = piece.len() / 65 * 65;
        self.set.extend_encoded(&piece[..whole]);
        self.carry.extend_from_slice(&piece[whole..]);
    }

    /// The set, when the pieces were whole records, in pseudonym order, each with an entry;
    /// `None` otherwise.
    pub fn finish(self) -> Option<SealedSet> {
        (self.carry.is_empty() && self.set.well_formed()).then_some(self.set)
    }
}

/// The seal's commitment (spec/formats.md §4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Commitment {
    /// RFC 6962 root (spec/formats.md §2.4) over the leaves in pseudonym order.
    pub root: Hash32,
    /// The number of leaves: the accounts with at least one entry.
    pub leaves: u64,
    /// The sum of the leaves' entries: `E`, the range the selection draws from (spec/formats.md §4.5).
    pub entries: u64,
}

/// The public leaves file `leaves.bin` (spec/formats.md §4.7): the 33-byte leaf data of every leaf, in
/// leaf order, concatenated.
pub fn encode_leaves(leaves: &[Leaf]) -> Vec<u8> {
    let mut out = Vec::with_capacity(leaves.len() * 33);
    for l in leaves {
        out.extend_from_slice(&l.bytes());
    }
    out
}

/// Parses `leaves.bin`; `None` unless it is whole leaves in strictly increasing pseudonym order,
/// each with at least one entry (spec/formats.md §8.2 step 2).
///
/// # Panics
/// Never: each chunk it splits a pseudonym from is 33 bytes long.
pub fn decode_leaves(bytes: &[u8]) -> Option<Vec<Leaf>> {
    if !bytes.len().is_multiple_of(33) {
        return None;
    }
    let leaves: Vec<Leaf> = bytes
        .chunks_exact(33)
        .map(|c| Leaf {
            pseudonym: c[..32].try_into().expect("33-byte chunk"),
            entries: c[32],
        })
        .collect();
    let ordered = leaves.windows(2).all(|w| w[0].pseudonym < w[1].pseudonym);
    (ordered && leaves.iter().all(|l| l.entries > 0)).then_some(leaves)
}

/// The RFC 6962 leaf hash of every leaf, in leaf order.
pub fn leaf_hashes(leaves: &[Leaf]) -> Vec<Hash32> {
    leaf_hashes_encoded(&encode_leaves(leaves))
}

/// [`leaf_hashes`] of leaves given as `leaves.bin` bytes (whole 33-byte leaves, as
/// [`encode_leaves`] makes them); two threads for large days.
///
/// # Panics
/// Only if the second hashing thread panicked (its panic is re-raised).
pub fn leaf_hashes_encoded(leaves_bin: &[u8]) -> Vec<Hash32> {
    debug_assert!(leaves_bin.len().is_multiple_of(33));
    let hash = |b: &[u8]| -> Vec<Hash32> { b.chunks_exact(33).map(merkle::leaf_hash).collect() };
    let n = leaves_bin.len() / 33;
    if n < 1 << 16 {
        return hash(leaves_bin);
    }
    let (a, b) = leaves_bin.split_at(n / 2 * 33);
    std::thread::scope(|s| {
        let h = s.spawn(|| hash(b));
        let mut out = hash(a);
        out.extend(h.join().expect("leaf hashing thread"));
        out
    })
}

/// The seal's commitment (spec/formats.md §4.3) to leaves given as `leaves.bin` bytes.
pub fn commit_encoded(leaves_bin: &[u8]) -> Commitment {
    Commitment {
        root: merkle::root_par(&leaf_hashes_encoded(leaves_bin)),
        leaves: (leaves_bin.len() / 33) as u64,
        entries: leaves_bin.chunks_exact(33).map(|c| u64::from(c[32])).sum(),
    }
}

/// Everything the seed depends on (spec/formats.md §4.4), in the order it is hashed.
#[derive(Debug, Clone)]
pub struct SeedInputs<'a> {
    /// The rules' operation id (UTF-8).
    pub operation: &'a str,
    /// The day drawn, `YYYY-MM-DD`.
    pub day: &'a str,
    /// The attempt: 1, plus one for each voided attempt of the day (spec/formats.md §4.6).
    pub attempt: u32,
    /// SHA-256 of the rules file's bytes (raw, not hex).
    pub rules_sha256: &'a Hash32,
    /// SHA-256 of the export file's bytes (raw, not hex).
    pub export_sha256: &'a Hash32,
    /// The seal's commitment (spec/formats.md §4.3): its root, leaf count and entry count are hashed.
    pub commitment: &'a Commitment,
    /// The commissaire's contribution (spec/formats.md §4.4.1; the `witness` of version 1).
    pub contribution: &'a str,
    /// The HSM's entropy (spec/appliance.md §3.1: 48 bytes).
    pub entropy: &'a [u8],
    /// The format version: 1 (label `urne/v1/draw-seed`) or 2 (`urne/v2/draw-seed`).
    pub version: u32,
}

/// The draw's seed (spec/formats.md §4.4): `seed = H(label, operation, day, u32be(attempt), rules_sha256,
/// export_sha256, root, u64be(leaves), u64be(entries), contribution, entropy)`, the tagged hash
/// of spec/formats.md §1.2, where `label` is `urne/v2/draw-seed` in version 2 and `urne/v1/draw-seed` in
/// version 1 (whose contribution was the `witness`).
pub fn draw_seed(i: &SeedInputs) -> Hash32 {
    tagged_hash(
        if i.version == 1 {
            "urne/v1/draw-seed"
        } else {
            "urne/v2/draw-seed"
        },
        &[
            i.operation.as_bytes(),
            i.day.as_bytes(),
            &i.attempt.to_be_bytes(),
            i.rules_sha256,
            i.export_sha256,
            &i.commitment.root,
            &i.commitment.leaves.to_be_bytes(),
            &i.commitment.entries.to_be_bytes(),
            i.contribution.as_bytes(),
            i.entropy,
        ],
    )
}

/// One pick: the entry drawn and the leaf (account) that holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pick {
    /// Index of the entry in `[0, entries)`: leaf `i` holds the entries numbered from the sum of
    /// the entries of leaves `0..i`.
    pub entry: u64,
    /// Index of the leaf in pseudonym order.
    pub leaf: u64,
}

/// The outcome of a draw: the winner, then the reserves in order, all distinct accounts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// The first pick: the winner (rank 0).
    pub winner: Pick,
    /// The next picks, in order: the reserves of ranks 1, 2, …
    pub reserves: Vec<Pick>,
}

/// Draws the winner and up to `reserves` reserves (spec/formats.md §4.5): repeatedly take
/// `e = uniform(entries)` from the DRBG stream; the leaf holding entry `e` is picked unless it
/// was picked already, in which case `e` is discarded and the next value is drawn. Every entry
/// has the same chance, so an account with 3 entries is 3 times as likely to win (D-3, D-4,
/// D-7). Stops when `reserves` reserves are picked or every leaf is. Returns `None` when the day
/// has no entries.
pub fn select(leaves: &[Leaf], seed: &Hash32, reserves: usize) -> Option<Selection> {
    Ranges::of(leaves).select(seed, reserves)
}

/// The entry numbers each leaf holds, as [`select`] reads them: leaf `i` holds the entries from
/// `ends[i-1]` (0 for the first leaf) to `ends[i]`, exclusive. Computed once from the leaves (one
/// pass over them: 24 MB for 5,000,000 plays), it draws from any seed without reading them
/// again: the appliance makes it before the commissaire's contribution exists, and its own
/// check of the outputs draws from it too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ranges {
    ends: Vec<u64>,
}

impl Ranges {
    /// The ranges of `leaves`, in their order.
    #[must_use]
    pub fn of(leaves: &[Leaf]) -> Ranges {
        let mut acc = 0u64;
        let ends = leaves
            .iter()
            .map(|l| {
                acc += u64::from(l.entries);
                acc
            })
            .collect();
        Ranges { ends }
    }

    /// How many leaves the ranges are of.
    #[must_use]
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether they are of no leaf.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// [`select`] on the leaves these ranges are of.
    #[must_use]
    pub fn select(&self, seed: &Hash32, reserves: usize) -> Option<Selection> {
        let total = self.ends.last().copied().unwrap_or(0);
        if total == 0 {
            return None;
        }
        let mut stream = DrbgStream::new(seed.as_bytes(), DRBG_PERSONALIZATION);
        let wanted = (reserves + 1).min(self.ends.len());
        let mut picked: Vec<Pick> = Vec::with_capacity(wanted);
        let mut taken = std::collections::BTreeSet::new();
        while picked.len() < wanted {
            let e = stream.uniform(total);
            // The leaf whose range [ends[i-1], ends[i]) contains e.
            let leaf = self.ends.partition_point(|&end| end <= e) as u64;
            if taken.insert(leaf) {
                picked.push(Pick { entry: e, leaf });
            }
        }
        let winner = picked.remove(0);
        Some(Selection {
            winner,
            reserves: picked,
        })
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod tests_mutants;
