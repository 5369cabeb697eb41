//! Duplicate play ids (a play id is unique in the file, spec/formats.md §4.1.1), found by sorting.
//!
//! A first pass keeps a 64-bit [`fingerprint`] of each play's id (8 bytes per play in memory).
//! Equal ids have equal fingerprints, so when no two fingerprints are equal no id is repeated.
//! Otherwise (a duplicate, or, rarely, two ids whose fingerprints collide) the file is read once
//! more, hash-checked again: on that confirming pass the ids behind the repeated fingerprints (the
//! [`Suspects`]) are kept in full and compared, so the outcome is exactly that of comparing every
//! id.

use std::collections::HashSet;

use sha2::{Digest, Sha256};

use super::error::{ExportErrorKind, LineErr};
use super::sorted::merged;

/// Fingerprints seen more than once on a first pass.
pub(super) type Suspects = HashSet<u64>;

/// A play id's key (`id_key`, as two big-endian words: integers compare faster than byte
/// arrays when sorting) and its line.
pub(super) type IdLine = (u64, u64, u32);

/// What one worker keeps of the play ids it saw.
#[derive(Default)]
pub(super) struct PlayIds {
    /// The `fingerprint` of each play's id (first pass); sorted once the worker is done.
    pub(super) fingerprints: Vec<u64>,
    /// On a confirming pass, the id and line of each play whose id's fingerprint is a suspect;
    /// sorted once the worker is done.
    pub(super) ids: Vec<IdLine>,
}

impl PlayIds {
    /// Keeps the play id `id` on `line`: its fingerprint on a first pass, the id itself on a
    /// confirming pass if its fingerprint is a suspect.
    #[inline]
    pub(super) fn add(&mut self, id: &[u8], line: u32, suspects: Option<&Suspects>) {
        let id = id_line(id, line);
        match suspects {
            None => self.fingerprints.push(fingerprint(&id)),
            Some(s) => {
                if s.contains(&fingerprint(&id)) {
                    self.ids.push(id);
                }
            }
        }
    }

    /// Sorts both lists (each worker sorts its own; the finish only merges them).
    pub(super) fn sort(&mut self) {
        self.fingerprints.sort_unstable();
        self.ids.sort_unstable();
    }
}

/// The key of play id `id` (see [`id_key`]) as two big-endian words, with its line.
#[inline]
fn id_line(id: &[u8], line: u32) -> IdLine {
    let k = id_key(id);
    let w = |i: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&k[i..i + 8]);
        u64::from_be_bytes(b)
    };
    (w(0), w(8), line)
}

/// A fixed-size key for a play id, for duplicate detection by sorting.
///
/// Ids of at most 15 bytes are stored as they are (zero-padded, length in the last byte: ids
/// never contain NUL, so this is injective and the id can be shown in an error). Longer ids are
/// stored as the first 15 bytes of SHA-256(id) with 0xFF in the last byte (never a length, so a
/// long id never meets a short one). Soundness: two different ids get equal keys only if two long
/// ids collide on 120 bits of SHA-256, with probability below n²/2^121 (< 10^-22 for 10^7 plays);
/// and even then the effect is a valid file wrongly refused, never an invalid file accepted:
/// equal ids always get equal keys, so every real duplicate is found.
#[inline]
fn id_key(b: &[u8]) -> [u8; 16] {
    let mut k = [0u8; 16];
    if b.len() <= 15 {
        k[..b.len()].copy_from_slice(b);
        // Exact: the length is at most 15 here.
        #[allow(clippy::cast_possible_truncation)]
        let len = b.len() as u8;
        k[15] = len;
    } else {
        k[..15].copy_from_slice(&Sha256::digest(b)[..15]);
        k[15] = 0xFF;
    }
    k
}

/// A 64-bit fingerprint of a play id's key, to look for duplicates by sorting integers: equal
/// keys always give equal fingerprints (different keys rarely do, and then the full keys decide).
#[inline]
fn fingerprint(k: &IdLine) -> u64 {
    let h = (k.0.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ k.1).wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 29)
}

/// The id stored in a key, when it was short enough to be stored.
fn id_from_key(k: &IdLine) -> Option<String> {
    let mut b = [0u8; 16];
    b[..8].copy_from_slice(&k.0.to_be_bytes());
    b[8..].copy_from_slice(&k.1.to_be_bytes());
    let k = &b;
    let n = usize::from(k[15]);
    (n <= 15).then(|| String::from_utf8_lossy(&k[..n]).into_owned())
}

/// The fingerprints that occur more than once in the sorted `lists`.
pub(super) fn repeated_fingerprints(lists: &[Vec<u64>]) -> Suspects {
    let mut prev: Option<u64> = None;
    merged(lists)
        .filter(|&f| prev.replace(f) == Some(f))
        .collect()
}

/// The duplicate play id on the smallest line, if any (as its line and error), among `ids`
/// (each list sorted by (key, line)): merged, the plays of one id are consecutive, the first in
/// the file first.
pub(super) fn first_duplicate_id(ids: &[Vec<IdLine>]) -> Option<LineErr> {
    let mut first: Option<LineErr> = None;
    let mut first_of_run: Option<IdLine> = None;
    let mut reported = false;
    for x in merged(ids) {
        match first_of_run {
            Some(f) if (f.0, f.1) == (x.0, x.1) => {
                if !reported && first.as_ref().is_none_or(|(l, _)| u64::from(x.2) < *l) {
                    first = Some((
                        u64::from(x.2),
                        ExportErrorKind::DuplicatePlayId {
                            id: id_from_key(&f),
                            first_line: u64::from(f.2),
                        },
                    ));
                }
                reported = true;
            }
            _ => {
                first_of_run = Some(x);
                reported = false;
            }
        }
    }
    first
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entries::testkit::{export, play, refusal, tally};

    #[test]
    fn the_duplicate_reported_is_the_one_on_the_smallest_line_whatever_the_ids_order() {
        // Id key (1, 0) is played on lines 5 and 8, key (2, 0) on lines 2 and 3: the ids sort
        // (1, 0) first, but the file's first duplicate is line 3.
        let ids = vec![vec![(1, 0, 5), (1, 0, 8), (2, 0, 2), (2, 0, 3)]];
        let (line, kind) = first_duplicate_id(&ids).unwrap();
        assert_eq!(line, 3);
        assert!(
            matches!(kind, ExportErrorKind::DuplicatePlayId { first_line: 2, .. }),
            "{kind:?}"
        );
        // And the other way round: the id sorted first has the earlier duplicate, which a later
        // id's duplicate does not replace.
        let ids = vec![vec![(1, 0, 2), (1, 0, 3), (2, 0, 5), (2, 0, 8)]];
        assert_eq!(first_duplicate_id(&ids).map(|e| e.0), Some(3));
        assert_eq!(first_duplicate_id(&[vec![(1, 0, 5), (2, 0, 2)]]), None);
    }

    #[test]
    fn ids_whose_fingerprints_collide_are_not_duplicates() {
        // Two different 15-byte ids with equal fingerprints, found by search: the file is read
        // again, the ids are compared in full, and the tally is the one without the collision.
        const CHARS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-";
        let a = b"p0000000q000000";
        let key_a = id_line(a, 2);
        let target = key_a.0.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ key_a.1;
        let mut b = None;
        'search: for i in 0..CHARS.len().pow(4) {
            let mut w0 = *b"q0000000";
            let mut k = i;
            for c in &mut w0[4..] {
                *c = CHARS[k % CHARS.len()];
                k /= CHARS.len();
            }
            let w0 = u64::from_be_bytes(w0);
            let w1 = (target ^ w0.wrapping_mul(0x9E37_79B9_7F4A_7C15)).to_be_bytes();
            if w1[7] == 15 && w1[..7].iter().all(|c| CHARS.contains(c)) {
                let mut id = w0.to_be_bytes().to_vec();
                id.extend_from_slice(&w1[..7]);
                b = Some(String::from_utf8(id).unwrap());
                break 'search;
            }
        }
        let b = b.expect("a colliding id exists in the search space");
        let a = std::str::from_utf8(a).unwrap();
        assert_ne!(a, b);
        assert_eq!(
            fingerprint(&id_line(a.as_bytes(), 2)),
            fingerprint(&id_line(b.as_bytes(), 3))
        );
        let at = "2018-12-05T10:00:00+01:00";
        let colliding = tally(&export(
            "2018-12-05",
            &[play(a, 1, at, 1000, "web"), play(&b, 2, at, 1000, "web")],
        ))
        .unwrap();
        let plain = tally(&export(
            "2018-12-05",
            &[
                play(a, 1, at, 1000, "web"),
                play("other", 2, at, 1000, "web"),
            ],
        ))
        .unwrap();
        assert_eq!(colliding.plays, 2);
        assert_eq!(colliding.entries, plain.entries);
        assert_eq!(colliding.total_entries, plain.total_entries);
        // ... while a real duplicate among them is still found, at its second line.
        let e = refusal(&export(
            "2018-12-05",
            &[
                play(a, 1, at, 1000, "web"),
                play(&b, 2, at, 1000, "web"),
                play(a, 3, at, 1000, "web"),
            ],
        ));
        assert_eq!(
            e.to_string(),
            format!(r#"line 4: duplicate play id "{a}" (first on line 2)"#)
        );
    }
}
