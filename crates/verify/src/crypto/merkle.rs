//! RFC 6962 / RFC 9162 Merkle tree hash (spec/formats.md §2.4): leaves hashed as `SHA-256(0x00 || d)`,
//! interior nodes as `SHA-256(0x01 || left || right)`, split at the largest power of two below
//! the size. Used for the daily entry commitment, the block commitment and audit checkpoints,
//! so that one entry, one ticket or one audit event can be proven without revealing the rest;
//! RFC 9162 §2.1.4 consistency proofs show that a later tree extends an earlier one.

use super::hash::{Hash32, sha256_short};
use sha2::{Digest, Sha256};

/// `SHA-256(0x00 || data)`.
pub fn leaf_hash(data: &[u8]) -> Hash32 {
    sha256_short(&[&[0x00], data])
}

/// `SHA-256(0x01 || left || right)`.
pub fn node_hash(left: &Hash32, right: &Hash32) -> Hash32 {
    sha256_short(&[&[0x01], left, right])
}

/// Largest power of two strictly below `n` (n >= 2).
fn split(n: usize) -> usize {
    1usize << (usize::BITS - 1 - (n - 1).leading_zeros())
}

/// The Merkle tree hash of a list of leaf hashes (RFC 9162 §2.1.1). The empty tree hashes to
/// `SHA-256("")`.
pub fn root(leaves: &[Hash32]) -> Hash32 {
    match leaves.len() {
        0 => Hash32(Sha256::digest(b"").into()),
        1 => leaves[0],
        n => {
            let k = split(n);
            node_hash(&root(&leaves[..k]), &root(&leaves[k..]))
        }
    }
}

/// [`root`] computed on two threads for large trees: the two subtrees under the root are
/// independent (RFC 9162 §2.1.1), so the result is the same.
///
/// # Panics
/// Only if the other thread panicked, which [`root`] cannot: it hashes in-range slices.
pub fn root_par(leaves: &[Hash32]) -> Hash32 {
    if leaves.len() < 1 << 16 {
        return root(leaves);
    }
    let k = split(leaves.len());
    let (l, r) = leaves.split_at(k);
    let (lr, rr) = std::thread::scope(|s| {
        let h = s.spawn(|| root(l));
        let rr = root(r);
        (h.join().expect("merkle thread"), rr)
    });
    node_hash(&lr, &rr)
}

/// The inclusion path of leaf `index` (RFC 9162 §2.1.3.1), bottom-up.
pub fn inclusion_path(index: usize, leaves: &[Hash32]) -> Vec<Hash32> {
    let n = leaves.len();
    if n <= 1 || index >= n {
        return vec![];
    }
    let k = split(n);
    if index < k {
        let mut p = inclusion_path(index, &leaves[..k]);
        p.push(root(&leaves[k..]));
        p
    } else {
        let mut p = inclusion_path(index - k, &leaves[k..]);
        p.push(root(&leaves[..k]));
        p
    }
}

/// Verifies an inclusion path (RFC 9162 §2.1.3.2).
pub fn verify_inclusion(
    leaf: &Hash32,
    index: u64,
    size: u64,
    path: &[Hash32],
    root: &Hash32,
) -> bool {
    if index >= size {
        return false;
    }
    let (mut fnn, mut sn, mut r) = (index, size - 1, *leaf);
    for p in path {
        if sn == 0 {
            return false;
        }
        if fnn & 1 == 1 || fnn == sn {
            r = node_hash(p, &r);
            while fnn & 1 == 0 && fnn != 0 {
                fnn >>= 1;
                sn >>= 1;
            }
        } else {
            r = node_hash(&r, p);
        }
        fnn >>= 1;
        sn >>= 1;
    }
    sn == 0 && &r == root
}

/// The consistency proof `PROOF(m, D[n])` of RFC 9162 §2.1.4.1: the hashes that show the tree
/// over the first `m` of `leaves` (leaf hashes, as for [`root`]) to be a prefix of the tree over
/// all `n = leaves.len()` of them, in the RFC's order, checked by [`verify_consistency`].
///
/// RFC 9162 defines the proof for `0 < m < n`. For `m == n` it is empty (the RFC's
/// `SUBPROOF(m, D[m], true) = {}`): equal roots are the whole proof. For `m == 0` it is empty
/// too, but that is not a proof: the empty tree (`SHA-256("")`) is a prefix of every tree, so
/// there is nothing to show, and [`verify_consistency`] rejects `m == 0`; a caller with no
/// earlier tree has no consistency to check. For `m > n` it is empty (no such prefix).
pub fn consistency_proof(m: usize, leaves: &[Hash32]) -> Vec<Hash32> {
    let mut out = Vec::new();
    if 0 < m && m < leaves.len() {
        subproof(m, leaves, true, &mut out);
    }
    out
}

/// RFC 9162 §2.1.4.1 `SUBPROOF(m, leaves, whole)` appended to `out`, for `0 < m <= leaves.len()`;
/// `whole` is the RFC's `b`: the subtree over these first `m` leaves is the one whose root the
/// verifier already holds.
fn subproof(m: usize, leaves: &[Hash32], whole: bool, out: &mut Vec<Hash32>) {
    let n = leaves.len();
    if m == n {
        if !whole {
            out.push(root(leaves));
        }
        return;
    }
    let k = split(n);
    if m <= k {
        subproof(m, &leaves[..k], whole, out);
        out.push(root(&leaves[k..]));
    } else {
        subproof(m - k, &leaves[k..], false, out);
        out.push(root(&leaves[..k]));
    }
}

/// Verifies a consistency proof (RFC 9162 §2.1.4.2): true if `proof` shows the tree of size `m`
/// with root `root_m` to be a prefix of the tree of size `n` with root `root_n`.
///
/// Before the RFC's algorithm (which covers `0 < m < n`): `m == n` holds only with an empty
/// proof and `root_m == root_n`; `m == 0` is always false (the empty tree is a prefix of every
/// tree, nothing is proven, see [`consistency_proof`]); `m > n` is false. The sizes are only as
/// good as whatever binds them to their roots (a signed checkpoint): the RFC algorithm checks
/// the shape of the proof for the sizes it is given, nothing more.
pub fn verify_consistency(
    m: u64,
    n: u64,
    root_m: &Hash32,
    root_n: &Hash32,
    proof: &[Hash32],
) -> bool {
    if m == 0 || m > n {
        return false;
    }
    if m == n {
        return proof.is_empty() && root_m == root_n;
    }
    // Step 1: an empty path fails.
    if proof.is_empty() {
        return false;
    }
    // Step 2: if m is an exact power of 2, root_m is the path's first value.
    let (first, rest) = if m.is_power_of_two() {
        (root_m, proof)
    } else {
        (&proof[0], &proof[1..])
    };
    // Steps 3 and 4.
    let (mut fnn, mut sn) = (m - 1, n - 1);
    while fnn & 1 == 1 {
        fnn >>= 1;
        sn >>= 1;
    }
    // Steps 5 and 6.
    let (mut fr, mut sr) = (*first, *first);
    for c in rest {
        if sn == 0 {
            return false;
        }
        if fnn & 1 == 1 || fnn == sn {
            fr = node_hash(c, &fr);
            sr = node_hash(c, &sr);
            while fnn & 1 == 0 && fnn != 0 {
                fnn >>= 1;
                sn >>= 1;
            }
        } else {
            sr = node_hash(&sr, c);
        }
        fnn >>= 1;
        sn >>= 1;
    }
    // Step 7.
    &fr == root_m && &sr == root_n && sn == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The transparency-dev / RFC 6962 reference leaves and roots for sizes 1..=8.
    const LEAVES: [&str; 8] = [
        "",
        "00",
        "10",
        "2021",
        "3031",
        "40414243",
        "5051525354555657",
        "606162636465666768696a6b6c6d6e6f",
    ];
    const ROOTS: [&str; 8] = [
        "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
        "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
        "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
        "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
        "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
        "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
    ];

    fn leaves() -> Vec<Hash32> {
        LEAVES
            .iter()
            .map(|h| leaf_hash(&hex::decode(h).unwrap()))
            .collect()
    }

    #[test]
    fn matches_rfc6962_reference_roots() {
        let l = leaves();
        for n in 1..=8 {
            assert_eq!(hex::encode(root(&l[..n])), ROOTS[n - 1], "size {n}");
        }
        assert_eq!(
            hex::encode(root(&[])),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn the_two_thread_root_is_the_root() {
        let l: Vec<Hash32> = (0u32..70_001)
            .map(|i| leaf_hash(&i.to_be_bytes()))
            .collect();
        assert_eq!(root_par(&l), root(&l));
    }

    #[test]
    fn every_inclusion_path_verifies_and_a_wrong_one_does_not() {
        let l = leaves();
        for n in 1..=8 {
            let r = root(&l[..n]);
            for i in 0..n {
                let p = inclusion_path(i, &l[..n]);
                assert!(verify_inclusion(&l[i], i as u64, n as u64, &p, &r));
                if n > 1 {
                    let j = (i + 1) % n;
                    assert!(!verify_inclusion(&l[j], i as u64, n as u64, &p, &r));
                }
            }
        }
    }

    fn hashes(n: usize) -> Vec<Hash32> {
        (0..n)
            .map(|i| leaf_hash(format!("leaf {i}").as_bytes()))
            .collect()
    }

    fn flip(h: &Hash32, bit: usize) -> Hash32 {
        let mut b = *h;
        b.0[bit / 8 % 32] ^= 1 << (bit % 8);
        b
    }

    /// Every way to spoil a genuine (m, n) proof that the RFC algorithm must reject (sizes
    /// changed are another matter: a proof can fit other sizes of the same shape).
    fn assert_spoiled_proofs_fail(m: usize, n: usize, rm: &Hash32, rn: &Hash32, p: &[Hash32]) {
        let (m64, n64) = (m as u64, n as u64);
        let no = |pr: &[Hash32], a: &Hash32, b: &Hash32| {
            assert!(!verify_consistency(m64, n64, a, b, pr), "({m}, {n})");
        };
        for i in 0..p.len() {
            for bit in [0, 131, 255] {
                let mut q = p.to_vec();
                q[i] = flip(&q[i], bit);
                no(&q, rm, rn);
            }
        }
        for cut in 0..p.len() {
            no(&p[..cut], rm, rn);
            no(&p[cut + 1..], rm, rn);
        }
        for extra in [*rm, *rn, Hash32([0; 32]), p[0]] {
            no(&[p, &[extra]].concat(), rm, rn);
            no(&[&[extra], p].concat(), rm, rn);
        }
        if p.len() > 1 {
            let mut q = p.to_vec();
            q.swap(0, p.len() - 1);
            no(&q, rm, rn);
        }
        no(p, &flip(rm, 7), rn);
        no(p, rm, &flip(rn, 7));
        no(p, rn, rm);
        assert!(
            !verify_consistency(n64, m64, rn, rm, p),
            "({n}, {m}) swapped"
        );
        assert!(
            !verify_consistency(n64, m64, rm, rn, p),
            "({n}, {m}) swapped"
        );
    }

    #[test]
    fn every_consistency_proof_up_to_40_leaves_verifies_and_every_spoiled_one_does_not() {
        let l = hashes(40);
        let mut checked = 0;
        for n in 1..=40 {
            let rn = root(&l[..n]);
            for m in 1..=n {
                let rm = root(&l[..m]);
                let p = consistency_proof(m, &l[..n]);
                assert!(
                    verify_consistency(m as u64, n as u64, &rm, &rn, &p),
                    "({m}, {n})"
                );
                if m == n {
                    assert!(p.is_empty());
                    assert!(!verify_consistency(m as u64, n as u64, &rm, &rn, &[rn]));
                    assert!(!verify_consistency(
                        m as u64,
                        n as u64,
                        &rm,
                        &flip(&rn, 1),
                        &[]
                    ));
                    continue;
                }
                assert!(!p.is_empty() && p.len() <= 2 * 6, "({m}, {n}): {}", p.len());
                assert_spoiled_proofs_fail(m, n, &rm, &rn, &p);
                // A tree of n leaves whose first m are not those of the size-m tree.
                let mut other = l[..n].to_vec();
                other[m - 1] = flip(&other[m - 1], 0);
                let po = consistency_proof(m, &other);
                assert!(!verify_consistency(
                    m as u64,
                    n as u64,
                    &rm,
                    &root(&other),
                    &po
                ));
                checked += 1;
            }
        }
        assert_eq!(checked, 40 * 39 / 2);
    }

    #[test]
    fn the_empty_tree_and_sizes_beyond_n_have_no_consistency_proof() {
        let l = hashes(5);
        let empty = root(&[]);
        assert!(consistency_proof(0, &l).is_empty());
        assert!(consistency_proof(6, &l).is_empty());
        assert!(consistency_proof(0, &[]).is_empty());
        assert!(!verify_consistency(0, 5, &empty, &root(&l), &[]));
        assert!(!verify_consistency(0, 0, &empty, &empty, &[]));
        assert!(!verify_consistency(0, 1, &empty, &l[0], &[l[0]]));
        assert!(!verify_consistency(6, 5, &root(&l), &root(&l), &[]));
        // Sizes near u64::MAX: no overflow, just a false.
        let p = consistency_proof(3, &l);
        assert!(!verify_consistency(
            u64::MAX - 1,
            u64::MAX,
            &l[0],
            &l[1],
            &p
        ));
        assert!(!verify_consistency(
            3,
            u64::MAX,
            &root(&l[..3]),
            &root(&l),
            &p
        ));
    }

    /// The RFC 6962 reference consistency proofs for the reference leaves (certificate-
    /// transparency's merkle tree tests; transparency-dev/merkle's reference data).
    #[test]
    fn matches_rfc6962_reference_consistency_proofs() {
        let l = leaves();
        let cases: [(usize, usize, &[&str]); 4] = [
            (1, 1, &[]),
            (
                1,
                8,
                &[
                    "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
                    "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                    "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
                ],
            ),
            (
                6,
                8,
                &[
                    "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
                    "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
                    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
                ],
            ),
            (
                2,
                5,
                &[
                    "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                    "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
                ],
            ),
        ];
        for (m, n, want) in cases {
            let p = consistency_proof(m, &l[..n]);
            assert_eq!(
                p.iter().map(hex::encode).collect::<Vec<_>>(),
                want,
                "({m}, {n})"
            );
            let (rm, rn) = (ROOTS[m - 1], ROOTS[n - 1]);
            let rm = Hash32(hex::decode(rm).unwrap().try_into().unwrap());
            let rn = Hash32(hex::decode(rn).unwrap().try_into().unwrap());
            assert!(verify_consistency(m as u64, n as u64, &rm, &rn, &p));
        }
    }

    /// Larger trees, sizes and spoilings from a fixed `SplitMix64` sequence.
    #[test]
    fn random_consistency_proofs_verify_and_spoiled_ones_do_not() {
        let mut state = 0x7572_6e65_u64;
        let mut next = |bound: u64| {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (z ^ (z >> 31)) % bound
        };
        let all = hashes(3000);
        for _ in 0..60 {
            let n = usize::try_from(next(3000) + 1).unwrap();
            let m = usize::try_from(next(n as u64) + 1).unwrap();
            let (rm, rn) = (root(&all[..m]), root(&all[..n]));
            let proof = consistency_proof(m, &all[..n]);
            assert!(
                verify_consistency(m as u64, n as u64, &rm, &rn, &proof),
                "({m}, {n})"
            );
            if m < n {
                let mut q = proof.clone();
                let i = usize::try_from(next(proof.len() as u64)).unwrap();
                q[i] = flip(&q[i], usize::try_from(next(256)).unwrap());
                assert!(
                    !verify_consistency(m as u64, n as u64, &rm, &rn, &q),
                    "({m}, {n})"
                );
                assert!(!verify_consistency(
                    m as u64,
                    n as u64,
                    &rm,
                    &rn,
                    &proof[1..]
                ));
            }
        }
    }

    /// The shared vectors (tests/vectors/merkle-consistency.json, schema in its README), which
    /// the independent verifier runs too (`verifier/run_vectors.py`).
    #[test]
    fn passes_the_shared_consistency_vectors() {
        let file: serde_json::Value = serde_json::from_str(include_str!(
            "../../../../tests/vectors/merkle-consistency.json"
        ))
        .unwrap();
        let hash = |x: &serde_json::Value| {
            Hash32(
                hex::decode(x.as_str().unwrap())
                    .unwrap()
                    .try_into()
                    .unwrap(),
            )
        };
        let cases = file["cases"].as_array().unwrap();
        let (mut valid, mut invalid) = (0, 0);
        for c in cases {
            let what = c["description"].as_str().unwrap();
            let (m, n) = (c["m"].as_u64().unwrap(), c["n"].as_u64().unwrap());
            let (rm, rn) = (hash(&c["root_m"]), hash(&c["root_n"]));
            let proof: Vec<Hash32> = c["proof"].as_array().unwrap().iter().map(hash).collect();
            let want = c["valid"].as_bool().unwrap();
            assert_eq!(verify_consistency(m, n, &rm, &rn, &proof), want, "{what}");
            let data = c["leaves"].as_array().unwrap();
            if want && n == data.len() as u64 {
                let leaf_hashes: Vec<Hash32> = data
                    .iter()
                    .map(|d| leaf_hash(&hex::decode(d.as_str().unwrap()).unwrap()))
                    .collect();
                let m = usize::try_from(m).unwrap();
                assert_eq!(root(&leaf_hashes[..m]), rm, "{what}");
                assert_eq!(root(&leaf_hashes), rn, "{what}");
                assert_eq!(consistency_proof(m, &leaf_hashes), proof, "{what}");
            }
            if want {
                valid += 1;
            } else {
                invalid += 1;
            }
        }
        assert!(
            valid >= 20 && invalid >= 80,
            "{valid} valid, {invalid} invalid"
        );
    }
}
