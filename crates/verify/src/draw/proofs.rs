//! The lines of the file of every proof of a day (spec/formats.md §4.8, "every proof of a
//! day"): one inclusion proof a line, each checkable alone against the published signed result.
//! The appliance makes them in one streaming run (`urne proof --day D --all`).

use super::files::ProofFile;

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
    use crate::crypto::{Hash32, keys, merkle};
    use crate::draw::{self, AccountEntries, SealedSet, files::CommitmentRef};
    use crate::verify::draw::verify_proof;

    /// A line is the proof's compact JSON and one LF: it parses back to the same proof, which
    /// verifies alone, for every leaf of sets of several sizes.
    #[test]
    fn a_line_is_one_proof_that_verifies_alone() {
        let rk = [7u8; 32];
        for n in [1u8, 2, 3, 5, 8, 13] {
            let list: Vec<AccountEntries> = (0..n)
                .map(|i| AccountEntries {
                    account: [i.wrapping_mul(37).wrapping_add(1); 32],
                    entries: 1 + i % 3,
                })
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            let s = SealedSet::from_list("op", "2018-12-01", &list);
            let leaves = draw::leaf_hashes(&s.leaves);
            let commitment = CommitmentRef {
                root: merkle::root(&leaves),
                leaves: u64::from(n),
                entries: s.leaves.iter().map(|l| u64::from(l.entries)).sum(),
            };
            let key = draw::pseudonym_key(&draw::list_digest("op", "2018-12-01", &s.list()));
            for i in 0..s.leaves.len() {
                let p = ProofFile {
                    format: super::super::files::PROOF_FORMAT.into(),
                    version: 1,
                    operation: "op".into(),
                    day: "2018-12-01".into(),
                    attempt: 1,
                    account: Hash32(s.accounts[i]),
                    salt: draw::account_salt(&key, &s.accounts[i]),
                    pseudonym: s.leaves[i].pseudonym,
                    entries: s.leaves[i].entries,
                    leaf: i as u64,
                    commitment: commitment.clone(),
                    path: merkle::inclusion_path(i, &leaves),
                    result_key_id: keys::key_id(&rk),
                };
                verify_proof(&p, &crate::values::KeyId::of(&rk)).unwrap();
                let l = line(&p);
                assert_eq!(l.iter().filter(|&&b| b == b'\n').count(), 1);
                assert_eq!(l.last(), Some(&b'\n'));
                assert!(!l.contains(&b' '));
                assert_eq!(serde_json::from_slice::<ProofFile>(&l).unwrap(), p);
            }
        }
    }
}
