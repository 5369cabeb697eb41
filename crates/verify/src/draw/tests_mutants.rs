//! Mutation-testing kills for the draw module (docs/testing.md, "Mutation testing").

use super::*;

#[test]
fn an_entry_list_with_an_account_twice_does_not_decode() {
    let a = AccountEntries {
        account: [1; 32],
        entries: 2,
    };
    let b = AccountEntries {
        account: [2; 32],
        entries: 1,
    };
    let ok = encode_list(&[a, b]);
    assert_eq!(decode_list(&ok).map(|l| l.len()), Some(2));
    assert_eq!(decode_list(&encode_list(&[a, a])), None);
    assert_eq!(decode_list(&encode_list(&[b, a])), None);
    // An account with no entries is never in the list.
    let none = AccountEntries {
        account: [3; 32],
        entries: 0,
    };
    assert_eq!(decode_list(&encode_list(&[a, b, none])), None);
}

#[test]
fn the_merge_of_two_runs_visits_every_leaf_in_pseudonym_order_whichever_ends_first() {
    let leaf = |b: u8| {
        (
            Leaf {
                pseudonym: Hash32([b; 32]),
                entries: 1,
            },
            [b; 32],
        )
    };
    let seen = |runs: &[Vec<(Leaf, [u8; 32])>]| {
        let mut v = vec![];
        for_each_leaf(runs, |(l, _)| v.push(l.pseudonym.0[0]));
        v
    };
    // The left run ends first, then the right one.
    assert_eq!(seen(&[vec![leaf(1)], vec![leaf(2), leaf(3)]]), [1, 2, 3]);
    assert_eq!(
        seen(&[vec![leaf(1), leaf(4)], vec![leaf(2), leaf(3)]]),
        [1, 2, 3, 4]
    );
    assert_eq!(seen(&[vec![leaf(5)]]), [5]);
    assert!(seen(&[]).is_empty());
}

#[test]
fn a_sealed_set_decodes_only_in_strict_pseudonym_order_with_entries_and_lists_its_accounts() {
    // Each leaf as stored: pseudonym (32 bytes), entries (1), account (32).
    let stored = |leaves: &[(u8, u8, u8)]| {
        let mut b = vec![];
        for &(p, n, a) in leaves {
            b.extend_from_slice(&[p; 32]);
            b.push(n);
            b.extend_from_slice(&[a; 32]);
        }
        b
    };
    let set = SealedSet::decode(&stored(&[(1, 2, 9), (2, 1, 8)])).unwrap();
    assert_eq!(set.leaves[1].pseudonym, Hash32([2; 32]));
    // The canonical list, sorted by account.
    assert_eq!(
        set.list(),
        [
            AccountEntries {
                account: [8; 32],
                entries: 1
            },
            AccountEntries {
                account: [9; 32],
                entries: 2
            }
        ]
    );
    // Two leaves of one pseudonym, leaves out of order, a leaf without entries: refused.
    assert!(SealedSet::decode(&stored(&[(1, 2, 9), (1, 1, 8)])).is_none());
    assert!(SealedSet::decode(&stored(&[(2, 2, 9), (1, 1, 8)])).is_none());
    assert!(SealedSet::decode(&stored(&[(1, 0, 9), (2, 1, 8)])).is_none());
    assert!(SealedSet::decode(&stored(&[(1, 1, 9), (2, 0, 8)])).is_none());
    assert!(SealedSet::decode(&stored(&[(1, 1, 9)])[..64]).is_none());
    // leaves.bin (pseudonym and entries): the same order, strictly.
    let bin = |leaves: &[(u8, u8)]| {
        let mut b = vec![];
        for &(p, n) in leaves {
            b.extend_from_slice(&[p; 32]);
            b.push(n);
        }
        b
    };
    assert_eq!(
        decode_leaves(&bin(&[(1, 2), (2, 1)])).map(|l| l.len()),
        Some(2)
    );
    assert!(decode_leaves(&bin(&[(1, 2), (1, 1)])).is_none());
    assert!(decode_leaves(&bin(&[(2, 2), (1, 1)])).is_none());
    assert!(decode_leaves(&bin(&[(1, 0)])).is_none());
}
