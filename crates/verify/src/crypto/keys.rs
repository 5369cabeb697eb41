//! Ed25519 public keys as third parties handle them (spec/formats.md §1.3, §1.4): the paths under
//! `crypto::keys` that callers use, re-exported from [`super::ed25519`], where key ids, PEM
//! parsing and the one strict verifier live.

pub use super::ed25519::{
    KeyError, key_id, private_seed_from_pem, public_key_from_pem, public_key_to_pem, verify,
};
