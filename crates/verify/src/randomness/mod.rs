//! Nobody chooses the outcome (spec/formats.md §3.2, §4.4.1, §5.B3, spec/rationale.md §7.3 item 2): the HSM's entropy is
//! fixed and committed to before the commissaire's contribution exists, and the contribution is
//! fixed before anything is computed from both. This module holds what draws and blocks share:
//! the contribution's grammar, the entropy commitment, and the evidence an output carries of
//! the order in which both became fixed (two events of the trail with their inclusion proofs).

pub mod contribution;
pub mod fixed;

use crate::crypto::{Hash32, tagged_hash};

/// Label of the entropy commitment (spec/formats.md §3.2).
pub const ENTROPY_COMMITMENT_LABEL: &str = "urne/v2/entropy-commitment";

/// `tagged_hash("urne/v2/entropy-commitment", [entropy])` (spec/formats.md §3.2): recorded, covered by a
/// signed checkpoint and shown before the commissaire's contribution is taken; also the one
/// hash by which every entropy the trail has seen, draws and blocks alike, is compared.
pub fn entropy_commitment(entropy: &[u8]) -> Hash32 {
    tagged_hash(ENTROPY_COMMITMENT_LABEL, &[entropy])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_entropy_commitment_is_the_tagged_hash_of_the_entropy() {
        let e: Vec<u8> = (0..48).collect();
        assert_eq!(
            entropy_commitment(&e),
            tagged_hash("urne/v2/entropy-commitment", &[&e])
        );
        assert_ne!(entropy_commitment(&e), crate::crypto::sha256(&e));
    }
}
