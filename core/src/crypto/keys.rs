//! Ed25519 public keys as third parties handle them (SPEC.md §2.5): PEM SubjectPublicKeyInfo
//! (RFC 8410), key ids (first 16 hex digits of SHA-256 over the raw 32-byte key, as in the entry
//! export format), and verification of detached pure-Ed25519 signatures (RFC 8032).

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use ed25519_dalek::{Signature, VerifyingKey};

/// DER prefix of an Ed25519 SubjectPublicKeyInfo: SEQUENCE { SEQUENCE { OID 1.3.101.112 }, BIT STRING }.
const SPKI_PREFIX: [u8; 12] = [
    0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
];
/// DER prefix of an Ed25519 PKCS#8 private key (RFC 8410 §7), used only by the test simulator.
const PKCS8_PREFIX: [u8; 16] = [
    0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
];

/// Why a key or signature could not be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum KeyError {
    #[error("not a PEM {0} block")]
    NotPem(&'static str),
    #[error("PEM body is not valid base64")]
    BadBase64,
    #[error("not an Ed25519 key (unexpected DER)")]
    NotEd25519,
    #[error("the key is not a valid Ed25519 point")]
    BadPoint,
}

/// First 16 lowercase hex digits of SHA-256 over the raw 32-byte public key.
pub fn key_id(raw: &[u8; 32]) -> String {
    hex::encode(&super::sha256(raw)[..8])
}

fn pem_body(pem: &str, label: &'static str) -> Result<Vec<u8>, KeyError> {
    let begin = format!("-----BEGIN {label}-----");
    let end = format!("-----END {label}-----");
    let start = pem.find(&begin).ok_or(KeyError::NotPem(label))? + begin.len();
    let stop = pem[start..].find(&end).ok_or(KeyError::NotPem(label))? + start;
    let b64: String = pem[start..stop]
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    B64.decode(b64).map_err(|_| KeyError::BadBase64)
}

fn pem_wrap(label: &str, der: &[u8]) -> String {
    let b = B64.encode(der);
    let mut s = format!("-----BEGIN {label}-----\n");
    for line in b.as_bytes().chunks(64) {
        s.push_str(std::str::from_utf8(line).expect("base64 is ASCII"));
        s.push('\n');
    }
    s.push_str(&format!("-----END {label}-----\n"));
    s
}

/// Parses a PEM `PUBLIC KEY` holding an Ed25519 SubjectPublicKeyInfo into the raw 32 bytes.
pub fn public_key_from_pem(pem: &str) -> Result<[u8; 32], KeyError> {
    let der = pem_body(pem, "PUBLIC KEY")?;
    if der.len() != 44 || der[..12] != SPKI_PREFIX {
        return Err(KeyError::NotEd25519);
    }
    let raw: [u8; 32] = der[12..].try_into().map_err(|_| KeyError::NotEd25519)?;
    VerifyingKey::from_bytes(&raw).map_err(|_| KeyError::BadPoint)?;
    Ok(raw)
}

/// The PEM `PUBLIC KEY` (SPKI) of a raw Ed25519 key, as `openssl pkey -pubin` reads it.
pub fn public_key_to_pem(raw: &[u8; 32]) -> String {
    let mut der = SPKI_PREFIX.to_vec();
    der.extend_from_slice(raw);
    pem_wrap("PUBLIC KEY", &der)
}

/// Parses a PEM `PRIVATE KEY` (PKCS#8 Ed25519) into its 32-byte seed. Test tooling only: the
/// appliance's own keys never exist outside the HSM.
pub fn private_seed_from_pem(pem: &str) -> Result<[u8; 32], KeyError> {
    let der = pem_body(pem, "PRIVATE KEY")?;
    if der.len() != 48 || der[..16] != PKCS8_PREFIX {
        return Err(KeyError::NotEd25519);
    }
    der[16..].try_into().map_err(|_| KeyError::NotEd25519)
}

/// Verifies a detached pure Ed25519 signature (RFC 8032 §5.1.7, strict: rejects non-canonical
/// encodings and small-order keys) over exactly `msg`.
pub fn verify(raw_key: &[u8; 32], msg: &[u8], sig: &[u8]) -> bool {
    let Ok(key) = VerifyingKey::from_bytes(raw_key) else {
        return false;
    };
    let Ok(sig) = Signature::from_slice(sig) else {
        return false;
    };
    key.verify_strict(msg, &sig).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEST_PUB: &str = include_str!("../../../tests/fixtures/keys/test-producer.pub.pem");
    const TEST_KEY: &str = include_str!("../../../tests/fixtures/keys/test-producer.key.pem");

    #[test]
    fn pem_round_trips_and_matches_the_private_key() {
        let raw = public_key_from_pem(TEST_PUB).unwrap();
        assert_eq!(public_key_from_pem(&public_key_to_pem(&raw)).unwrap(), raw);
        let seed = private_seed_from_pem(TEST_KEY).unwrap();
        let sk = ed25519_dalek::SigningKey::from_bytes(&seed);
        assert_eq!(sk.verifying_key().to_bytes(), raw);
    }

    #[test]
    fn signatures_verify_only_over_the_exact_bytes() {
        use ed25519_dalek::Signer;
        let sk = ed25519_dalek::SigningKey::from_bytes(&private_seed_from_pem(TEST_KEY).unwrap());
        let pk = sk.verifying_key().to_bytes();
        let sig = sk.sign(b"hello").to_bytes();
        assert!(verify(&pk, b"hello", &sig));
        assert!(!verify(&pk, b"hellp", &sig));
        assert!(!verify(&pk, b"hello", &sig[..63]));
    }

    #[test]
    fn rejects_non_ed25519_pem() {
        assert_eq!(
            public_key_from_pem("nothing"),
            Err(KeyError::NotPem("PUBLIC KEY"))
        );
    }
}
