//! Ed25519 as third parties handle it (spec/formats.md §1.3, §1.4): key ids, public keys as PEM
//! `SubjectPublicKeyInfo` (RFC 8410), and the one strict verifier of detached pure-Ed25519
//! signatures (RFC 8032 §5.1.7), used in one call ([`verify`], [`verify_strict`]) and streamed
//! over a 1 GB export (`StrictVerifier`, by `entries::verify_export`): both are the same code,
//! so they make the same checks.
//!
//! Strict means, as spec/formats.md §1.4 requires: `S < L`; `A` and `R` canonically encoded (y < p,
//! and no sign bit on x = 0: decoding and encoding again gives the same bytes); `A` and `R` not
//! of small order (spec/formats.md §1.4 lists `A`; `R` too, as ed25519-dalek's `verify_strict`: no
//! genuine signature has one); and the recomputed `R` equal to the signature's `R` byte for
//! byte (the **cofactorless** equation `R == [S]B - [k]A` compared as encodings, with
//! `k = SHA-512(R || A || M) mod L` over the bytes as given), so a non-canonical `R` never
//! verifies and a signature that holds only in the cofactored equation `[8][S]B == [8]R +
//! [8][k]A` is refused. Mixed-order `A` and `R` (not small, not in the prime-order subgroup) are
//! not refused. The tests compare every outcome with ed25519-dalek's `verify_strict`, which
//! makes the same checks except the one on `A`'s encoding (it accepts y >= p), and run the edge
//! vectors of `tests/vectors/ed25519-*.json` (Chalkias, Garillot, Nikolaenko 2020; Wycheproof).
//!
//! SHA-512 is OpenSSL's (assembly, about 1.4 times the sha2 crate's speed on the bench machine,
//! measured: crates/verify/Cargo.toml); the curve arithmetic is curve25519-dalek's.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use curve25519_dalek::edwards::{CompressedEdwardsY, EdwardsPoint};
use curve25519_dalek::scalar::Scalar;

use super::hash::sha256;

/// DER prefix of an Ed25519 `SubjectPublicKeyInfo`: SEQUENCE { SEQUENCE { OID 1.3.101.112 }, BIT STRING }.
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
    /// The text holds no PEM block with this label.
    #[error("not a PEM {0} block")]
    NotPem(&'static str),
    /// The PEM body is not base64.
    #[error("PEM body is not valid base64")]
    BadBase64,
    /// The DER is not an Ed25519 key.
    #[error("not an Ed25519 key (unexpected DER)")]
    NotEd25519,
    /// The 32 bytes are not the canonical encoding of a curve point (RFC 8032 §5.1.3).
    #[error("the key is not a valid Ed25519 point")]
    BadPoint,
}

/// The key id of a raw 32-byte public key (spec/formats.md §1.3): the first 16 lowercase hex digits of
/// its SHA-256.
pub fn key_id(raw: &[u8; 32]) -> String {
    hex::encode(&sha256(raw)[..8])
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
    s.push_str("-----END ");
    s.push_str(label);
    s.push_str("-----\n");
    s
}

/// Parses a PEM `PUBLIC KEY` holding an Ed25519 `SubjectPublicKeyInfo` into the raw 32 bytes. The
/// key must be the canonical encoding of a curve point (RFC 8032 §5.1.3; spec/formats.md §1.4).
pub fn public_key_from_pem(pem: &str) -> Result<[u8; 32], KeyError> {
    let der = pem_body(pem, "PUBLIC KEY")?;
    if der.len() != 44 || der[..12] != SPKI_PREFIX {
        return Err(KeyError::NotEd25519);
    }
    let raw: [u8; 32] = der[12..].try_into().map_err(|_| KeyError::NotEd25519)?;
    decode_point(&raw).ok_or(KeyError::BadPoint)?;
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

/// True if `bytes` is the canonical encoding of a field element y (y < p = 2^255 - 19), ignoring
/// the sign bit of x.
fn y_is_canonical(bytes: &[u8; 32]) -> bool {
    let mut y = *bytes;
    y[31] &= 0x7f;
    // p = 0x7fff…ffed (little-endian: ed ff … ff 7f). y >= p iff y[1..31] are all 0xff,
    // y[31] == 0x7f and y[0] >= 0xed.
    !(y[31] == 0x7f && y[1..31].iter().all(|&b| b == 0xff) && y[0] >= 0xed)
}

/// The point a 32-byte string encodes, if it is a canonical encoding (RFC 8032 §5.1.3: y < p,
/// a point with that y exists, and the sign bit is not set on x = 0). curve25519-dalek alone
/// would also decode y >= p and a "negative" x = 0 (the encodings `01 00 … 80` and
/// `ec ff … ff`, of the points of order 1 and 2): the point encoded again must give the same
/// bytes.
fn decode_point(bytes: &[u8; 32]) -> Option<EdwardsPoint> {
    if !y_is_canonical(bytes) {
        return None;
    }
    CompressedEdwardsY(*bytes)
        .decompress()
        .filter(|p| p.compress().as_bytes() == bytes)
}

/// A canonical encoding of a point that is not of small order (spec/formats.md §1.4, for `A` and `R`).
fn strict_point(bytes: &[u8; 32]) -> Option<EdwardsPoint> {
    decode_point(bytes).filter(|p| !p.is_small_order())
}

/// The strict verification of one signature under one key, fed the message in pieces.
///
/// [`StrictVerifier::new`] makes every check that needs no message; the message then goes
/// through SHA-512 as it comes, and [`StrictVerifier::finish`] checks the curve equation.
pub(crate) struct StrictVerifier {
    digest: openssl::sha::Sha512,
    a: EdwardsPoint,
    r: [u8; 32],
    s: Scalar,
}

impl StrictVerifier {
    /// `None` when `key` or `sig` fails a check that needs no message (then the signature
    /// cannot verify under this key, whatever the message).
    pub(crate) fn new(key: &[u8; 32], sig: &[u8; 64]) -> Option<StrictVerifier> {
        let a = strict_point(key)?;
        let r: [u8; 32] = sig[..32].try_into().ok()?;
        strict_point(&r)?;
        // S must be canonical (< L).
        let s_bytes: [u8; 32] = sig[32..].try_into().ok()?;
        let s = Option::<Scalar>::from(Scalar::from_canonical_bytes(s_bytes))?;
        let mut digest = openssl::sha::Sha512::new();
        digest.update(&r);
        digest.update(key);
        Some(StrictVerifier { digest, a, r, s })
    }

    /// The next bytes of the message.
    pub(crate) fn update(&mut self, chunk: &[u8]) {
        self.digest.update(chunk);
    }

    /// Whether the signature verifies over the whole message fed.
    pub(crate) fn finish(self) -> bool {
        let wide: [u8; 64] = self.digest.finish();
        let k = Scalar::from_bytes_mod_order_wide(&wide);
        let minus_a = -self.a;
        let r = EdwardsPoint::vartime_double_scalar_mul_basepoint(&k, &minus_a, &self.s);
        r.compress().to_bytes() == self.r
    }
}

/// Strict pure-Ed25519 verification of `sig` over exactly `msg` under `key` (spec/formats.md §1.4).
pub fn verify_strict(key: &[u8; 32], sig: &[u8; 64], msg: &[u8]) -> bool {
    match StrictVerifier::new(key, sig) {
        None => false,
        Some(mut v) => {
            v.update(msg);
            v.finish()
        }
    }
}

/// [`verify_strict`] with the signature as a slice: false unless it holds exactly 64 bytes.
pub fn verify(raw_key: &[u8; 32], msg: &[u8], sig: &[u8]) -> bool {
    match <&[u8; 64]>::try_from(sig) {
        Ok(sig) => verify_strict(raw_key, sig, msg),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests;
