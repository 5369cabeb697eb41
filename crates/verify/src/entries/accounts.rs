//! Counting cents per account during the tally: an open-addressing table (linear probing) keyed
//! by the 32-byte account id.
//!
//! Why not `HashMap`: with about a million accounts the table does not fit in any cache, so each
//! play costs one memory access to its account's slot; this table makes that the only cost (a
//! slot holds the key and the sum side by side, keys are compared as four words, and the hash is
//! a few multiplications). A slot is empty when its sum is 0: only counting plays are added, and
//! their stake is at least 1 cent, so an occupied slot never holds 0.
//!
//! Account ids come from a signed producer file; a poor spread of ids would only slow the tally
//! down, never change it (every key is compared in full).

/// One slot: an account id and its counting cents (0: empty).
#[derive(Clone, Copy)]
struct Slot {
    key: [u64; 4],
    sum: u64,
}

const EMPTY: Slot = Slot {
    key: [0; 4],
    sum: 0,
};

/// Additions are applied in batches of this many: the slots of a whole batch are loaded first,
/// independently of each other, so their cache misses overlap instead of following one another.
const BATCH: usize = 16;

/// Counting cents per account.
pub(crate) struct AccountSums {
    slots: Vec<Slot>,
    /// `slots.len() - 1` (the length is a power of two).
    mask: usize,
    len: usize,
    /// Additions not applied yet: (key, hash, cents).
    pending: Vec<([u64; 4], u64, u64)>,
}

impl Default for AccountSums {
    fn default() -> Self {
        AccountSums::with_capacity(0)
    }
}

/// The account as four big-endian words: comparing the words in order compares the ids byte by
/// byte, so a sort by words is the canonical account order.
pub(crate) fn words(account: &[u8; 32]) -> [u64; 4] {
    let w = |i: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&account[8 * i..8 * i + 8]);
        u64::from_be_bytes(b)
    };
    [w(0), w(1), w(2), w(3)]
}

/// The account id of [`words`]' output.
pub(crate) fn account_of(key: &[u64; 4]) -> [u8; 32] {
    let mut a = [0u8; 32];
    for (c, w) in a.chunks_exact_mut(8).zip(key) {
        c.copy_from_slice(&w.to_be_bytes());
    }
    a
}

/// Mixes all four words (ids may share long prefixes, as sequential test ids do).
fn hash(k: &[u64; 4]) -> u64 {
    const M: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = (k[0] ^ k[2].rotate_left(32)).wrapping_mul(M);
    h = (h ^ k[1] ^ k[3].rotate_left(17)).wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 32)
}

impl AccountSums {
    /// A table that holds `n` accounts before it first grows.
    pub(crate) fn with_capacity(n: usize) -> Self {
        // Load factor at most 1/2.
        let cap = (n.saturating_mul(2)).next_power_of_two().max(1 << 10);
        AccountSums {
            slots: vec![EMPTY; cap],
            mask: cap - 1,
            len: 0,
            pending: Vec::with_capacity(BATCH),
        }
    }

    /// Number of accounts in the table.
    #[cfg(test)]
    pub(crate) fn len(&mut self) -> usize {
        self.flush();
        self.len
    }

    /// Adds `cents` (at least 1) to `account`'s sum (applied at the latest by `drain_into`).
    pub(crate) fn add(&mut self, account: &[u8; 32], cents: u64) {
        debug_assert!(cents > 0);
        let key = words(account);
        self.pending.push((key, hash(&key), cents));
        if self.pending.len() == BATCH {
            self.flush();
        }
    }

    /// Applies the pending additions: their slots loaded first, then each added.
    // `h as usize` keeps the hash's low bits (all of them on 64-bit targets), and only the bits
    // under `mask` (a usize) are used: on a 32-bit target the truncation drops only bits the mask
    // drops anyway, so the slot is the same.
    #[allow(clippy::cast_possible_truncation)]
    fn flush(&mut self) {
        // Load every slot of the batch first (independent loads: the misses overlap) ...
        let mut touch = 0u64;
        for (_, h, _) in &self.pending {
            touch ^= self.slots[(*h as usize) & self.mask].sum;
        }
        std::hint::black_box(touch);
        // ... then apply the additions, from cache.
        let mut pending = std::mem::take(&mut self.pending);
        for (key, h, cents) in pending.drain(..) {
            self.add_now(key, h, cents);
        }
        self.pending = pending;
    }

    /// Adds `cents` to `key`'s slot (hash `h`), taking an empty slot if the key is new.
    // The slot index is the hash cast to usize, masked: see `flush` for why the cast is exact.
    #[allow(clippy::cast_possible_truncation)]
    fn add_now(&mut self, key: [u64; 4], h: u64, cents: u64) {
        let mut i = (h as usize) & self.mask;
        loop {
            let s = &mut self.slots[i];
            if s.sum == 0 {
                *s = Slot { key, sum: cents };
                self.len += 1;
                if self.len * 2 > self.slots.len() {
                    self.grow();
                }
                return;
            }
            if s.key == key {
                s.sum += cents;
                return;
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Doubles the table and re-inserts every account (load factor back under 1/2).
    // The slot index is the hash cast to usize, masked: see `flush` for why the cast is exact.
    #[allow(clippy::cast_possible_truncation)]
    fn grow(&mut self) {
        let bigger = vec![EMPTY; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, bigger);
        self.mask = self.slots.len() - 1;
        for s in old.into_iter().filter(|s| s.sum != 0) {
            let mut i = (hash(&s.key) as usize) & self.mask;
            while self.slots[i].sum != 0 {
                i = (i + 1) & self.mask;
            }
            self.slots[i] = s;
        }
    }

    /// Every (account as big-endian words, cents), in ascending account order.
    pub(crate) fn into_sorted(mut self) -> Vec<([u64; 4], u64)> {
        self.flush();
        let mut out: Vec<([u64; 4], u64)> = Vec::with_capacity(self.len);
        out.extend(
            self.slots
                .into_iter()
                .filter(|s| s.sum != 0)
                .map(|s| (s.key, s.sum)),
        );
        // Keys are distinct: an unstable sort is deterministic.
        out.sort_unstable_by_key(|a| a.0);
        out
    }
}

/// A set of accounts, as [`words`]: the accounts of the plays that do not count (retail,
/// subscription refused), which `figures.excluded_accounts_with_plays` needs besides the accounts
/// with counting cents (spec/appliance.md §4.7: an excluded account with a play record of any class).
///
/// Such plays are a minority, so a list is enough: one push per play, sorted and deduplicated
/// whenever it has doubled since it last was (and at the end), so it never holds more than twice
/// its distinct accounts plus [`COMPACT_MIN`], whatever the number of plays.
#[derive(Default)]
pub(crate) struct AccountSet {
    list: Vec<[u64; 4]>,
    /// The length at which the list is next sorted and deduplicated (at least `COMPACT_MIN`).
    compact_at: usize,
}

/// The shortest list [`AccountSet`] sorts before the end.
const COMPACT_MIN: usize = 1 << 16;

impl AccountSet {
    /// Adds `account` (a second time changes nothing).
    #[inline]
    pub(crate) fn add(&mut self, account: &[u8; 32]) {
        self.list.push(words(account));
        if self.list.len() >= self.compact_at.max(COMPACT_MIN) {
            self.compact();
        }
    }

    /// Sorts and deduplicates the list.
    fn compact(&mut self) {
        self.list.sort_unstable();
        self.list.dedup();
        self.compact_at = self.list.len() * 2;
    }

    /// Every account once, in ascending account order.
    pub(crate) fn into_sorted(mut self) -> Vec<[u64; 4]> {
        self.compact();
        self.list
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn agrees_with_a_hash_map() {
        let mut st = 1u64;
        let mut next = || {
            st = st.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = st;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z ^ (z >> 27)
        };
        let mut table = AccountSums::with_capacity(0);
        let mut map: HashMap<[u8; 32], u64> = HashMap::new();
        for i in 0..50_000u64 {
            let r = next();
            let mut account = [0u8; 32];
            // A mix of ids that share long prefixes (sequential) and random ones.
            if i % 2 == 0 {
                account[24..].copy_from_slice(&(r % 3000).to_be_bytes());
            } else {
                account[..8].copy_from_slice(&(r % 7000).to_le_bytes());
                account[31] = u8::try_from(r >> 60).unwrap();
            }
            let cents = 1 + r % 1000;
            table.add(&account, cents);
            *map.entry(account).or_insert(0) += cents;
        }
        assert_eq!(table.len(), map.len());
        let from_table: Vec<([u8; 32], u64)> = table
            .into_sorted()
            .into_iter()
            .map(|(k, c)| (account_of(&k), c))
            .collect();
        let mut from_map: Vec<_> = map.into_iter().collect();
        from_map.sort_unstable();
        assert_eq!(from_table, from_map);
    }

    #[test]
    fn account_set_keeps_each_account_once_and_stays_small() {
        let mut set = AccountSet::default();
        let mut reference = std::collections::BTreeSet::new();
        for i in 0..300_000u32 {
            // 1,000 distinct accounts, each added about 300 times, in no order.
            let n = i.wrapping_mul(2_654_435_761) % 1000;
            let mut account = [0u8; 32];
            account[..4].copy_from_slice(&n.to_le_bytes());
            account[31] = 7;
            set.add(&account);
            reference.insert(account);
            assert!(set.list.len() <= COMPACT_MIN + 2 * 1000);
        }
        let got: Vec<[u8; 32]> = set.into_sorted().iter().map(account_of).collect();
        assert_eq!(got, reference.into_iter().collect::<Vec<_>>());
    }
}
