//! Tests of the daily draw core: list and set encodings, pseudonyms, the seal's encodings and
//! the selection's fairness.

use super::*;

fn list(n: usize) -> Vec<AccountEntries> {
    let mut l: Vec<AccountEntries> = (0..n)
        .map(|i| AccountEntries {
            account: crate::crypto::sha256(format!("acct-{i}").as_bytes()).0,
            entries: u8::try_from(i % 3).unwrap() + 1,
        })
        .collect();
    l.sort();
    l
}

#[test]
fn list_encoding_round_trips_and_is_strict() {
    let l = list(10);
    assert_eq!(decode_list(&encode_list(&l)).unwrap(), l);
    let mut bad = encode_list(&l);
    bad.swap(0, 33); // breaks the order
    assert!(decode_list(&bad).is_none());
}

#[test]
fn seal_encodings_and_commit_encoded_agree_with_the_set() {
    // Both sizes: one run (small day), two merged runs (large day).
    for n in [0, 1, 7, 1000, 70_000] {
        let l = list(n);
        let set = SealedSet::from_list("op", "2018-12-01", &l);
        let e = seal_encodings("op", "2018-12-01", &l);
        assert_eq!(e.set, set.encode(), "{n}");
        assert_eq!(e.leaves, encode_leaves(&set.leaves), "{n}");
        // The commitment, recomputed on one thread leaf by leaf.
        let hashes: Vec<Hash32> = set
            .leaves
            .iter()
            .map(|l| merkle::leaf_hash(&l.bytes()))
            .collect();
        let c = commit_encoded(&e.leaves);
        assert_eq!(c.root, merkle::root(&hashes), "{n}");
        assert_eq!(c.leaves, n as u64);
        assert_eq!(
            c.entries,
            set.leaves.iter().map(|l| u64::from(l.entries)).sum::<u64>()
        );
        assert_eq!(leaf_hashes(&set.leaves), hashes);
        assert_eq!(SealedSet::decode(&e.set).as_ref(), Some(&set));
        let pl = public_leaves("op", "2018-12-01", &l);
        assert!(pl.iter().map(|x| x.0).eq(set.leaves.iter().copied()));
        assert!(pl.iter().map(|x| x.1).eq(set.accounts.iter().copied()));
    }
}

#[test]
fn the_salter_gives_account_salt() {
    let mut st = [9u8; 32];
    for _ in 0..200 {
        st = crate::crypto::sha256(&st).0;
        let key = crate::crypto::sha256(&[&st[..], b"k"].concat());
        let s = Salter::new(&key);
        assert_eq!(s.salt(&st), account_salt(&key, &st));
    }
}

#[test]
fn pseudonyms_differ_between_days_for_the_same_account() {
    let l = list(5);
    let a = public_leaves("op", "2018-12-01", &l);
    let b = public_leaves("op", "2018-12-02", &l);
    assert!(
        a.iter()
            .all(|x| b.iter().all(|y| x.0.pseudonym != y.0.pseudonym))
    );
}

#[test]
fn select_picks_distinct_accounts_in_range() {
    let l = list(50);
    let leaves: Vec<Leaf> = public_leaves("op", "d", &l)
        .into_iter()
        .map(|x| x.0)
        .collect();
    let s = select(&leaves, &Hash32([3u8; 32]), 5).unwrap();
    let mut all = vec![s.winner.leaf];
    all.extend(s.reserves.iter().map(|p| p.leaf));
    let mut dedup = all.clone();
    dedup.sort_unstable();
    dedup.dedup();
    assert_eq!(dedup.len(), 6);
    assert!(all.iter().all(|&i| i < 50));
}

#[test]
fn select_stops_when_every_account_is_picked() {
    let leaves = vec![
        Leaf {
            pseudonym: Hash32([1; 32]),
            entries: 3,
        },
        Leaf {
            pseudonym: Hash32([2; 32]),
            entries: 1,
        },
    ];
    let s = select(&leaves, &Hash32([9u8; 32]), 5).unwrap();
    assert_eq!(s.reserves.len(), 1);
    assert!(select(&[], &Hash32([9u8; 32]), 5).is_none());
}

#[test]
fn winners_are_drawn_in_proportion_to_entries() {
    // Accounts with 1, 2 and 3 entries (each kind 10 times); over many seeds each kind must
    // win in proportion 1:2:3. Chi-square with 2 degrees of freedom, threshold 13.8
    // (p = 0.001); the seeds are fixed so the test is deterministic.
    let leaves: Vec<Leaf> = (0..30u8)
        .map(|i| Leaf {
            pseudonym: crate::crypto::sha256(&[i]),
            entries: i % 3 + 1,
        })
        .collect();
    let n = 6000u32;
    let mut wins = [0f64; 3];
    for s in 0..n {
        let seed = crate::crypto::sha256(&s.to_be_bytes());
        let w = select(&leaves, &seed, 0).unwrap().winner;
        let leaf = &leaves[usize::try_from(w.leaf).unwrap()];
        wins[usize::from(leaf.entries - 1)] += 1.0;
    }
    let expected = [
        f64::from(n) / 6.0,
        f64::from(n) * 2.0 / 6.0,
        f64::from(n) * 3.0 / 6.0,
    ];
    let chi2: f64 = (0..3)
        .map(|k| (wins[k] - expected[k]).powi(2) / expected[k])
        .sum();
    assert!(chi2 < 13.8, "chi2 {chi2}, wins {wins:?}");
    // The same statistic rejects a draw that ignores entry counts (uniform over accounts).
    let uniform = [f64::from(n) / 3.0; 3];
    let chi2_bad: f64 = (0..3)
        .map(|k| (uniform[k] - expected[k]).powi(2) / expected[k])
        .sum();
    assert!(chi2_bad > 13.8);
}

/// A stored set read in pieces of any size, records cut anywhere, is the set decoded whole; a
/// cut record at the end, or a set out of order, is refused as `decode` refuses it.
#[test]
fn a_sealed_set_read_in_pieces_of_any_size_is_the_one_decoded_whole() {
    let set = SealedSet::from_list("op", "2018-12-01", &list(50));
    let bytes = set.encode();
    for size in [1, 7, 64, 65, 66, 130, 1000, bytes.len()] {
        let mut r = SealedSetReader::new(50);
        for piece in bytes.chunks(size) {
            r.push(piece);
        }
        assert_eq!(r.finish().as_ref(), Some(&set), "pieces of {size}");
    }
    let mut r = SealedSetReader::new(50);
    r.push(&bytes[..bytes.len() - 1]);
    assert!(r.finish().is_none());
    let mut swapped = bytes[65..130].to_vec();
    swapped.extend_from_slice(&bytes[..65]);
    let mut r = SealedSetReader::new(2);
    r.push(&swapped);
    assert!(r.finish().is_none());
}
