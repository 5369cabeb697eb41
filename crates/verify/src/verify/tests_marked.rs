//! The checkpoints of a trail the token's last mark vouches for whole ([`trail::verify_marked_head`],
//! spec/appliance.md §6.6 [M-136], [M-395]): the head's checkpoint, and any larger, verify under
//! the token's key and origin over the roots of the stored hashes.

use super::FailureClass;
use super::tests_kit::key;
use super::trail::verify_marked_head;
use crate::audit::chain::{self, Origin, PrefixRoots};
use crate::crypto::Hash32;
use ed25519_dalek::Signer;

/// `n` hashes standing for a trail's events.
fn hashes(n: u8) -> Vec<Hash32> {
    (1..=n).map(|i| Hash32([i; 32])).collect()
}

/// The stored checkpoint of `size` over `root`, signed by the key `who` under `origin`.
fn note(who: &str, origin: Origin, size: u64, root: &Hash32) -> (u64, String) {
    let k = key(who);
    let public = k.verifying_key().to_bytes();
    let body = chain::checkpoint_body_of(origin, &public, size, root);
    let sig = k.sign(body.as_bytes()).to_bytes();
    (size, chain::signed_note(&public, &body, &sig))
}

#[test]
fn the_heads_checkpoint_verifies_over_the_stored_hashes_and_nothing_else_does() {
    let h = hashes(5);
    let roots = PrefixRoots::at(&h, [5]);
    let audit = key("audit").verifying_key().to_bytes();
    let head_root = chain::tree_root(&h);
    let good = note("audit", Origin::Official, 5, &head_root);
    assert_eq!(
        verify_marked_head(
            &roots,
            std::slice::from_ref(&good),
            &audit,
            Origin::Official
        ),
        Ok(())
    );
    let class = |stored: &[(u64, String)], origin: Origin| {
        verify_marked_head(&roots, stored, &audit, origin)
            .map_err(|f| (f.class, f.seq))
            .unwrap_err()
    };
    // Another root at the head's size: the hashes are not the ones signed.
    let other = note("audit", Origin::Official, 5, &Hash32([9; 32]));
    assert_eq!(
        class(&[other], Origin::Official).0,
        FailureClass::Inconsistent
    );
    // Another key, another origin, a size the trail does not reach, a size the note does not say.
    let foreign = note("result", Origin::Official, 5, &head_root);
    assert_ne!(
        class(&[foreign], Origin::Official).0,
        FailureClass::Rehearsal
    );
    // A rehearsal's checkpoint where the token states an official trail: another origin.
    let rehearsal = note("audit", Origin::Rehearsal, 5, &head_root);
    assert_eq!(
        class(std::slice::from_ref(&rehearsal), Origin::Official).0,
        FailureClass::Inconsistent
    );
    assert_eq!(
        verify_marked_head(&roots, &[rehearsal], &audit, Origin::Rehearsal),
        Ok(())
    );
    let beyond = note("audit", Origin::Official, 7, &head_root);
    assert_eq!(
        class(&[beyond], Origin::Official),
        (FailureClass::Inconsistent, 6)
    );
    let (_, n5) = good;
    assert_eq!(
        class(&[(6, n5)], Origin::Official),
        (FailureClass::Inconsistent, 6)
    );
    // None at all: nothing to verify (that every event has its own is the caller's count).
    assert_eq!(
        verify_marked_head(&roots, &[], &audit, Origin::Official),
        Ok(())
    );
}
