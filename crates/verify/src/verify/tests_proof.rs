//! Ticket proofs (spec/formats.md §5.B9) on `block-proof-valid`, checked directly: a proof of another
//! version is malformed, and a published commitment that differs in any one of root, block size
//! or block is a commitment mismatch.

use super::FailureClass as C;
use super::proof::verify_ticket_proof;
use super::tests_kit::{keys, load};
use super::tests_vectors::at;
use crate::block::files::{CommitFile, TicketProofFile};
use crate::crypto::Hash32;

fn files() -> (TicketProofFile, CommitFile, super::signed::Keys) {
    let root = load("block-proof-valid");
    let p = serde_json::from_slice(&root.files["proof.json"]).unwrap();
    let c =
        serde_json::from_slice(&at(&root, "block").files["noel-test_100_2015-12_3.commit.json"])
            .unwrap();
    (p, c, keys(&root))
}

#[test]
fn a_ticket_proof_of_another_version_or_format_is_malformed() {
    let (proof, commit, ks) = files();
    assert_eq!(verify_ticket_proof(&proof, Some(&commit), &ks), Ok(()));
    assert_eq!(verify_ticket_proof(&proof, None, &ks), Ok(()));
    for version in [0, 2] {
        let mut x = proof.clone();
        x.version = version;
        let e = verify_ticket_proof(&x, None, &ks).unwrap_err();
        assert_eq!(
            (e.class, e.what.as_str()),
            (C::Malformed, "not an urne ticket proof v1")
        );
    }
    let mut x = proof.clone();
    x.format.push('x');
    assert_eq!(
        verify_ticket_proof(&x, None, &ks).unwrap_err().class,
        C::Malformed
    );
}

#[test]
fn a_published_commitment_that_differs_in_one_thing_is_a_mismatch() {
    let (proof, commit, ks) = files();
    let changes: [fn(&mut CommitFile); 3] = [
        |c| c.outcomes_root = Hash32([0; 32]),
        |c| c.block_size += 1,
        |c| c.block.push('0'),
    ];
    for (i, change) in changes.iter().enumerate() {
        let mut x = commit.clone();
        change(&mut x);
        let e = verify_ticket_proof(&proof, Some(&x), &ks).unwrap_err();
        assert_eq!(
            (e.class, e.what.as_str()),
            (
                C::CommitmentMismatch,
                "the proof's root is not the published commitment's"
            ),
            "{i}"
        );
    }
}
