//! Every account's inclusion proof of a sealed day in one run (spec/formats.md §4.8, "every
//! proof of a day"): the pseudonym key and the tree's levels are computed once, then each
//! account's proof is read from them in leaf order, so that the whole day costs O(n) hashes and
//! nothing grows with the proofs already made. The appliance writes them, one line each.

use super::files::{CommitmentRef, PROOF_FORMAT, ProofFile};
use super::{Leaf, SealedSet, account_salt};
use crate::crypto::merkle::{self, PathLevels};
use crate::crypto::{Hash32, keys};
use crate::values::{Attempt, Day};

/// The proofs of every account of one sealed set, made on demand in leaf order.
#[derive(Debug)]
pub struct AllProofs<'a> {
    set: &'a SealedSet,
    operation: String,
    day: Day,
    attempt: Attempt,
    commitment: CommitmentRef,
    key: Hash32,
    levels: PathLevels,
    result_key_id: String,
}

impl<'a> AllProofs<'a> {
    /// The proofs of `set`, sealed for `operation`'s `day` and `attempt` under `commitment`,
    /// naming the result key `result_key` (spec/formats.md §4.8).
    pub fn new(
        set: &'a SealedSet,
        operation: &str,
        day: Day,
        attempt: Attempt,
        commitment: CommitmentRef,
        result_key: &[u8; 32],
    ) -> AllProofs<'a> {
        let key = set.pseudonym_key(operation, &day.to_string());
        let levels = PathLevels::new(set.leaves.len(), |i| leaf_hash(&set.leaves[i]));
        AllProofs {
            set,
            operation: operation.to_string(),
            day,
            attempt,
            commitment,
            key,
            levels,
            result_key_id: keys::key_id(result_key),
        }
    }

    /// The number of proofs: one per leaf.
    pub fn len(&self) -> usize {
        self.set.leaves.len()
    }

    /// Whether the set has no leaf.
    pub fn is_empty(&self) -> bool {
        self.set.leaves.is_empty()
    }

    /// The root the levels give, which a caller compares with the seal's commitment before
    /// anything is written.
    pub fn root(&self) -> Hash32 {
        self.levels.root(|i| leaf_hash(&self.set.leaves[i]))
    }

    /// The proof of leaf `i` (`i < len()`), as `urne proof --day D --account A` makes it.
    pub fn proof(&self, i: usize) -> ProofFile {
        let leaf = self.set.leaves[i];
        ProofFile {
            format: PROOF_FORMAT.into(),
            version: 1,
            operation: self.operation.clone(),
            day: self.day.to_string(),
            attempt: self.attempt.get(),
            account: Hash32(self.set.accounts[i]),
            salt: account_salt(&self.key, &self.set.accounts[i]),
            pseudonym: leaf.pseudonym,
            entries: leaf.entries,
            leaf: i as u64,
            commitment: self.commitment.clone(),
            path: self.levels.path(i, |j| leaf_hash(&self.set.leaves[j])),
            result_key_id: self.result_key_id.clone(),
        }
    }
}

fn leaf_hash(l: &Leaf) -> Hash32 {
    merkle::leaf_hash(&l.bytes())
}

/// One proof as a line of the file of every proof (spec/formats.md §4.8): the object's compact
/// JSON (no whitespace, members in their order), then LF.
///
/// # Panics
/// Never: a proof's members are strings, integers and lists, which always serialise.
pub fn line(p: &ProofFile) -> Vec<u8> {
    let mut b = serde_json::to_vec(p).expect("a proof serialises");
    b.push(b'\n');
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::{self, AccountEntries};
    use crate::verify::draw::verify_proof;

    fn set(n: u8) -> SealedSet {
        let list: Vec<AccountEntries> = (0..n)
            .map(|i| AccountEntries {
                account: [i.wrapping_mul(37).wrapping_add(1); 32],
                entries: 1 + i % 3,
            })
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        SealedSet::from_list("op", "2018-12-01", &list)
    }

    /// Every proof made in one run is the one the single proof makes (its salt from the list's
    /// key, its path from the leaves) and verifies; the file's lines are one object each.
    #[test]
    fn every_proof_of_one_run_is_the_single_proofs_and_verifies() {
        let rk = [7u8; 32];
        for n in [1u8, 2, 3, 5, 8, 13] {
            let s = set(n);
            let leaves = draw::leaf_hashes(&s.leaves);
            let c = CommitmentRef {
                root: merkle::root(&leaves),
                leaves: u64::from(n),
                entries: s.leaves.iter().map(|l| u64::from(l.entries)).sum(),
            };
            let day: Day = "2018-12-01".parse().unwrap();
            let all = AllProofs::new(&s, "op", day, Attempt::FIRST, c.clone(), &rk);
            assert_eq!(all.root(), c.root);
            let key = draw::pseudonym_key(&draw::list_digest("op", "2018-12-01", &s.list()));
            for i in 0..all.len() {
                let p = all.proof(i);
                assert_eq!(p.salt, draw::account_salt(&key, &s.accounts[i]));
                assert_eq!(p.path, merkle::inclusion_path(i, &leaves));
                verify_proof(&p, &crate::values::KeyId::of(&rk)).unwrap();
                let l = line(&p);
                assert_eq!(l.iter().filter(|&&b| b == b'\n').count(), 1);
                assert_eq!(serde_json::from_slice::<ProofFile>(&l).unwrap(), p);
            }
        }
    }
}
