//! RFC 6962 / RFC 9162 Merkle tree hash (SPEC.md §2.4): leaves hashed as `SHA-256(0x00 || d)`,
//! interior nodes as `SHA-256(0x01 || left || right)`, split at the largest power of two below
//! the size. Used for the daily entry commitment, the block commitment and audit checkpoints,
//! so that one entry, one ticket or one audit event can be proven without revealing the rest.

use super::hash::Hash32;
use sha2::{Digest, Sha256};

/// `SHA-256(0x00 || data)`.
pub fn leaf_hash(data: &[u8]) -> Hash32 {
    Hash32(
        Sha256::new()
            .chain_update([0x00])
            .chain_update(data)
            .finalize()
            .into(),
    )
}

/// `SHA-256(0x01 || left || right)`.
pub fn node_hash(left: &Hash32, right: &Hash32) -> Hash32 {
    Hash32(
        Sha256::new()
            .chain_update([0x01])
            .chain_update(left)
            .chain_update(right)
            .finalize()
            .into(),
    )
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
}
