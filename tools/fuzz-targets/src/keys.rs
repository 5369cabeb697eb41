//! The fixed test keys the targets sign with: the producer key of the test fixtures
//! (`tests/fixtures/keys/test-producer.key.pem`) and the result, audit and producer keys of the
//! test vectors (`verifier/make_vectors.py`: the seed is SHA-256 of `urne test vector key: NAME`), so
//! that the vectors' folders, checkpoints included, verify under them.

use ed25519_dalek::{Signer, SigningKey};
use std::sync::OnceLock;
use urne_verify::crypto::{keys, sha256};

const PRODUCER_PEM: &str = include_str!("../../../tests/fixtures/keys/test-producer.key.pem");

/// A test vector key by name (`verifier/make_vectors.py`, `key(name)`).
fn vector_key(name: &str) -> SigningKey {
    SigningKey::from_bytes(&sha256(format!("urne test vector key: {name}").as_bytes()).0)
}

/// The producer key of the test fixtures (signs exports).
///
/// # Panics
/// Never: the fixture is compiled in and is a valid PKCS#8 Ed25519 key.
pub fn producer() -> &'static SigningKey {
    static K: OnceLock<SigningKey> = OnceLock::new();
    K.get_or_init(|| {
        SigningKey::from_bytes(&keys::private_seed_from_pem(PRODUCER_PEM).expect("fixture key"))
    })
}

/// The test vectors' result key (signs every output file).
pub fn result() -> &'static SigningKey {
    static K: OnceLock<SigningKey> = OnceLock::new();
    K.get_or_init(|| vector_key("result"))
}

/// The test vectors' producer key (signs the exports of the auditor-mode vectors).
pub fn vector_producer() -> &'static SigningKey {
    static K: OnceLock<SigningKey> = OnceLock::new();
    K.get_or_init(|| vector_key("producer"))
}

/// The test vectors' audit key (signs checkpoints).
pub fn audit() -> &'static SigningKey {
    static K: OnceLock<SigningKey> = OnceLock::new();
    K.get_or_init(|| vector_key("audit"))
}

/// The raw public key of `k`.
pub fn public(k: &SigningKey) -> [u8; 32] {
    k.verifying_key().to_bytes()
}

/// The raw 64-byte signature of `msg` by `k`.
pub fn sign(k: &SigningKey, msg: &[u8]) -> [u8; 64] {
    k.sign(msg).to_bytes()
}
