//! The steps of spec/formats.md §8.2 in `verify/draw.rs`, one by one, on the files of the shared vectors
//! (`draw-valid-public`, `draw-v2-valid`) parsed with the core's own types: each change names
//! the class SPEC.md gives and, where two checks give the same class, what failed.

use super::FailureClass as C;
use super::draw::{
    lower_hex, recompute_seed, verify_fixed, verify_leaves, verify_result_against_bundle,
    verify_selection, verify_selection_in,
};
use super::tests_kit::{keys, load};
use super::tests_vectors::at;
use crate::audit::chain;
use crate::crypto::{Hash32, sha256};
use crate::draw::files::{BundleFile, ResultFile};

/// The bundle, the leaves' bytes and the result of the vector `name`'s draw folder.
fn files(name: &str) -> (BundleFile, Vec<u8>, ResultFile) {
    let root = load(name);
    let d = at(&root, "draw");
    (
        serde_json::from_slice(&d.files["bundle.json"]).unwrap(),
        d.files["leaves.bin"].clone(),
        serde_json::from_slice(&d.files["result.json"]).unwrap(),
    )
}

fn class<T: std::fmt::Debug>(r: super::VResult<T>) -> (C, String) {
    let f = r.unwrap_err();
    (f.class, f.what)
}

#[test]
fn the_genuine_leaves_verify_and_give_every_leaf() {
    let (b, leaves, _) = files("draw-valid-public");
    let got = verify_leaves(&b, &leaves).unwrap();
    assert_eq!(got.len(), 6);
    assert_eq!(got.iter().map(|l| u64::from(l.entries)).sum::<u64>(), 10);
    assert_eq!(got[0].pseudonym, b.winner.pseudonym);
}

#[test]
fn figures_that_are_not_the_leaves_are_inconsistent() {
    let (b, leaves, _) = files("draw-valid-public");
    let want = "figures.entries and figures.accounts_with_entries are not the committed leaves' sum and count";
    for (entries, accounts) in [(11, 6), (9, 6), (10, 5), (10, 7)] {
        let mut x = b.clone();
        x.core.figures.entries = entries;
        x.core.figures.accounts_with_entries = accounts;
        assert_eq!(
            class(verify_leaves(&x, &leaves)),
            (C::Inconsistent, want.into()),
            "{entries} {accounts}"
        );
    }
}

#[test]
fn each_way_the_leaves_fail_has_its_class() {
    let (b, leaves, _) = files("draw-valid-public");
    // Another leaves file than the bundle names.
    let mut other = leaves.clone();
    other[40] ^= 1;
    assert_eq!(class(verify_leaves(&b, &other)).0, C::Inconsistent);
    // The file the bundle names, but not whole leaves, or not in order, or empty.
    let named = |bytes: &[u8]| {
        let mut x = b.clone();
        x.leaves_sha256 = sha256(bytes);
        x
    };
    let short = &leaves[..leaves.len() - 1];
    assert_eq!(class(verify_leaves(&named(short), short)).0, C::Malformed);
    let mut swapped = leaves[33..66].to_vec();
    swapped.extend_from_slice(&leaves[..33]);
    swapped.extend_from_slice(&leaves[66..]);
    assert_eq!(
        class(verify_leaves(&named(&swapped), &swapped)).0,
        C::Malformed
    );
    let (c, what) = class(verify_leaves(&named(&[]), &[]));
    assert_eq!(c, C::Inconsistent);
    assert!(what.contains("no leaves"), "{what}");
    // The leaves of another commitment: root, count or sum.
    let mut x = b.clone();
    x.core.commitment.root = Hash32([0; 32]);
    assert_eq!(class(verify_leaves(&x, &leaves)).0, C::CommitmentMismatch);
    let mut x = b.clone();
    x.core.commitment.entries = 11;
    assert_eq!(class(verify_leaves(&x, &leaves)).0, C::CommitmentMismatch);
    let mut x = b.clone();
    x.core.commitment.leaves = 7;
    assert_eq!(class(verify_leaves(&x, &leaves)).0, C::CommitmentMismatch);
}

#[test]
fn the_selection_recomputes_exactly() {
    let (b, bytes, _) = files("draw-valid-public");
    let leaves = verify_leaves(&b, &bytes).unwrap();
    assert_eq!(verify_selection(&b, &leaves, &b.core.seed), Ok(()));
    // Another seed, a reserve missing, one too many wanted, a pick changed in any field.
    assert_eq!(
        class(verify_selection(&b, &leaves, &Hash32([1; 32]))).0,
        C::DrawMismatch
    );
    let mut x = b.clone();
    x.reserves.pop();
    assert_eq!(
        class(verify_selection(&x, &leaves, &b.core.seed)),
        (
            C::DrawMismatch,
            "recomputed 5 reserves, the bundle lists 4".into()
        )
    );
    let mut x = b.clone();
    x.core.reserves_wanted = 4;
    assert_eq!(
        class(verify_selection(&x, &leaves, &b.core.seed)).1,
        "recomputed 4 reserves, the bundle lists 5"
    );
    for i in 0..6 {
        for field in 0..4 {
            let mut x = b.clone();
            let pick = if i == 0 {
                &mut x.winner
            } else {
                &mut x.reserves[i - 1]
            };
            match field {
                0 => pick.rank += 1,
                1 => pick.entries += 1,
                2 => pick.entry += 1,
                _ => pick.pseudonym = Hash32([9; 32]),
            }
            let (got, what) = class(verify_selection(&x, &leaves, &b.core.seed));
            assert_eq!(got, C::DrawMismatch);
            let who = if i == 0 {
                "the winner".to_string()
            } else {
                format!("reserve {i}")
            };
            assert!(what.starts_with(&who), "{what}");
        }
    }
    // No leaves with entries: no draw.
    assert_eq!(
        class(verify_selection(&b, &[], &b.core.seed)).0,
        C::DrawMismatch
    );
    // Ranges computed once draw the same; ranges of other leaves are refused.
    let ranges = crate::draw::Ranges::of(&leaves);
    assert_eq!(ranges.len(), leaves.len());
    assert_eq!(
        verify_selection_in(&b, &leaves, &ranges, &b.core.seed),
        Ok(())
    );
    assert_eq!(
        class(verify_selection_in(&b, &leaves, &ranges, &Hash32([1; 32]))).0,
        C::DrawMismatch
    );
    let fewer = crate::draw::Ranges::of(&leaves[1..]);
    assert_eq!(
        class(verify_selection_in(&b, &leaves, &fewer, &b.core.seed)).0,
        C::Inconsistent
    );
    assert!(crate::draw::Ranges::of(&[]).is_empty());
    assert!(!ranges.is_empty());
}

#[test]
fn the_seed_recomputes_and_its_inputs_are_checked() {
    let (b, _, _) = files("draw-valid-public");
    assert_eq!(recompute_seed(&b.core, 1), Ok(b.core.seed));
    let mut x = b.core.clone();
    x.seed = Hash32([0; 32]);
    assert_eq!(class(recompute_seed(&x, 1)).0, C::DrawMismatch);
    let mut x = b.core.clone();
    x.entropy = x.entropy.to_uppercase();
    assert_eq!(class(recompute_seed(&x, 1)).0, C::Malformed);
    for len in [32, 47, 49, 64] {
        let mut x = b.core.clone();
        x.entropy = "ab".repeat(len);
        assert_eq!(
            class(recompute_seed(&x, 1)),
            (
                C::Inconsistent,
                format!("the entropy has {len} bytes; a draw's has 48")
            )
        );
    }
    // Version 1 has a witness and none of version 2's members.
    assert_eq!(class(recompute_seed(&b.core, 2)).0, C::Malformed);
    let mut x = b.core.clone();
    x.witness = None;
    assert_eq!(class(recompute_seed(&x, 1)).0, C::Malformed);
    let mut x = b.core.clone();
    x.entropy_commitment = Some(Hash32([0; 32]));
    assert_eq!(class(recompute_seed(&x, 1)).0, C::Malformed);
    let mut x = b.core.clone();
    x.contribution = Some("1 2 3".into());
    assert_eq!(class(recompute_seed(&x, 1)).0, C::Malformed);
    let mut x = b.core.clone();
    x.entropy_refused = Some(vec![]);
    assert_eq!(class(recompute_seed(&x, 1)).0, C::Malformed);
}

#[test]
fn a_version_2_seed_needs_every_member_and_its_entropy_commitment() {
    let (b, _, _) = files("draw-v2-valid");
    assert_eq!(recompute_seed(&b.core, 2), Ok(b.core.seed));
    assert_eq!(class(recompute_seed(&b.core, 1)).0, C::Malformed);
    let strip: [fn(&mut crate::draw::files::DrawCore); 5] = [
        |c| c.entropy_commitment = None,
        |c| c.contribution = None,
        |c| c.entropy_refused = None,
        |c| c.fixed = None,
        |c| c.witness = Some("w".into()),
    ];
    for (i, s) in strip.iter().enumerate() {
        let mut x = b.core.clone();
        s(&mut x);
        assert_eq!(class(recompute_seed(&x, 2)).0, C::Malformed, "{i}");
    }
    let mut x = b.core.clone();
    x.entropy_commitment = Some(Hash32([0; 32]));
    assert_eq!(class(recompute_seed(&x, 2)).0, C::DrawMismatch);
    let mut x = b.core.clone();
    x.contribution = Some("not a contribution\u{7}".into());
    assert_eq!(class(recompute_seed(&x, 2)).0, C::Malformed);
}

#[test]
fn the_randomness_order_names_this_draw() {
    let root = load("draw-v2-valid");
    let k = keys(&root);
    let (b, _, _) = files("draw-v2-valid");
    let cp = chain::verify_note(&b.audit_checkpoint, &k.audit).unwrap();
    assert_eq!(verify_fixed(&b.core, &cp), Ok(()));
    let bad = "randomness order: the entropy event is of another draw";
    let changes: [fn(&mut crate::draw::files::DrawCore); 4] = [
        |c| c.operation.push('x'),
        |c| c.day = "2018-12-23".into(),
        |c| c.attempt += 1,
        |c| c.commitment.root = Hash32([0; 32]),
    ];
    for (i, change) in changes.iter().enumerate() {
        let mut x = b.core.clone();
        change(&mut x);
        assert_eq!(
            class(verify_fixed(&x, &cp)),
            (C::Inconsistent, bad.into()),
            "{i}"
        );
    }
    let mut x = b.core.clone();
    x.entropy_commitment = Some(Hash32([0; 32]));
    assert_eq!(
        class(verify_fixed(&x, &cp)).1,
        "randomness order: the events name another entropy commitment"
    );
    let mut x = b.core.clone();
    x.contribution = Some("6 6 6".into());
    assert_eq!(
        class(verify_fixed(&x, &cp)).1,
        "randomness order: the contribution recorded is not the one published"
    );
    // Another checkpoint: the events are not in its tree.
    let other = chain::Checkpoint {
        size: cp.size,
        root: Hash32([0; 32]),
    };
    assert_eq!(class(verify_fixed(&b.core, &other)).0, C::Inconsistent);
    // Version 1 has no order evidence: nothing to check.
    let (v1, _, _) = files("draw-valid-public");
    assert_eq!(verify_fixed(&v1.core, &other), Ok(()));
}

#[test]
fn a_result_that_differs_from_the_bundle_in_anything_is_inconsistent() {
    let (b, _, r) = files("draw-valid-public");
    assert_eq!(verify_result_against_bundle(&r, &b), Ok(()));
    let changes: [fn(&mut ResultFile); 15] = [
        |r| r.core.day = "2018-12-23".into(),
        |r| r.audit_checkpoint.push(' '),
        |r| r.software.version.push('x'),
        |r| r.drawn_at.push(' '),
        |r| r.result_key_id.push('0'),
        |r| r.audit_key_id.push('0'),
        |r| r.entries += 1,
        |r| r.accounts += 1,
        |r| {
            r.reserves.pop();
        },
        |r| r.winner.rank += 1,
        |r| r.winner.pseudonym = Hash32([0; 32]),
        |r| r.winner.entries += 1,
        |r| r.winner.entry += 1,
        |r| r.winner.leaf += 1,
        |r| r.reserves[4].leaf += 1,
    ];
    for (i, change) in changes.iter().enumerate() {
        let mut x = r.clone();
        change(&mut x);
        assert_eq!(
            class(verify_result_against_bundle(&x, &b)).0,
            C::Inconsistent,
            "change {i}"
        );
    }
    let mut x = r.clone();
    x.reserves[2].entry += 1;
    assert_eq!(
        class(verify_result_against_bundle(&x, &b)).1,
        "reserve 3 differs between result.json and bundle.json"
    );
    // Version 2: the PKCS#11 identity too.
    let (b2, _, r2) = files("draw-v2-valid");
    assert_eq!(verify_result_against_bundle(&r2, &b2), Ok(()));
    let mut x = r2.clone();
    x.pkcs11 = None;
    assert_eq!(
        class(verify_result_against_bundle(&x, &b2)).0,
        C::Inconsistent
    );
    // A reserve more in the result only.
    let mut x = r.clone();
    x.reserves.push(x.reserves[0].clone());
    assert_eq!(
        class(verify_result_against_bundle(&x, &b)).1,
        "result.json and bundle.json list different numbers of reserves"
    );
}

#[test]
fn hex_is_lowercase_hex() {
    assert_eq!(lower_hex("00af19"), Some(vec![0, 0xaf, 0x19]));
    assert_eq!(lower_hex(""), Some(vec![]));
    for s in ["0A", "0g", "0`", "0/", "0:", "abc", " 0"] {
        assert_eq!(lower_hex(s), None, "{s}");
    }
}
