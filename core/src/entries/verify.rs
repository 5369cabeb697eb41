//! Pass 1: the export's detached signature, checked over the exact bytes before anything is
//! parsed (design principle 5), in one streaming pass that also yields the file's SHA-256 and
//! size. Memory does not grow with the file: the file is read in fixed blocks.
//!
//! Verification is pure Ed25519 (RFC 8032 §5.1.7) with the checks of ed25519-dalek's
//! `verify_strict`: S must be canonical (< L), R and A must decode to points that are not of small
//! order, and the recomputed R must equal the signature's R byte for byte (so a non-canonical R
//! never verifies). We also refuse a non-canonical encoding of A. The SHA-512 of R || A || M is
//! streamed through OpenSSL's SHA-512 (see `StrictStream`).

use std::io::Read;
use std::sync::Arc;
use std::sync::mpsc;

use super::error::{ExportError, ExportErrorKind};
use super::read::{BLOCK, fill};
use super::results::VerifiedExport;
use crate::crypto::keys::key_id;

/// True if `bytes` is the canonical encoding of a field element y (y < p = 2^255 - 19), ignoring
/// the sign bit of x.
fn y_is_canonical(bytes: &[u8; 32]) -> bool {
    let mut y = *bytes;
    y[31] &= 0x7f;
    // p = 0x7fff…ffed (little-endian: ed ff … ff 7f). y >= p iff y[1..31] are all 0xff,
    // y[31] == 0x7f and y[0] >= 0xed.
    !(y[31] == 0x7f && y[1..31].iter().all(|&b| b == 0xff) && y[0] >= 0xed)
}

/// A streaming strict verifier for one key, or None when the key or signature fails the checks
/// that need no message (then the signature cannot verify under this key).
///
/// The SHA-512 of `R || A || M` is computed by OpenSSL's libcrypto (assembly, about twice the
/// speed of the sha2 crate on this hardware); the curve equation is checked with
/// curve25519-dalek exactly as ed25519-dalek's `verify_strict` does: `R == [S]B - [k]A`
/// compared as encodings, with `k = SHA-512(R || A || M) mod L`, cofactorless. The tests compare
/// every outcome with `verify_strict`.
pub(crate) struct StrictStream {
    digest: openssl::sha::Sha512,
    a: curve25519_dalek::EdwardsPoint,
    r: [u8; 32],
    s: curve25519_dalek::Scalar,
}

impl StrictStream {
    pub(crate) fn new(key: &[u8; 32], sig: &[u8; 64]) -> Option<StrictStream> {
        use curve25519_dalek::edwards::CompressedEdwardsY;
        if !y_is_canonical(key) {
            return None;
        }
        let a = CompressedEdwardsY(*key).decompress()?;
        if a.is_small_order() {
            return None;
        }
        // R must decode to a point not of small order (as verify_strict checks).
        let r: [u8; 32] = sig[..32].try_into().ok()?;
        if CompressedEdwardsY(r).decompress()?.is_small_order() {
            return None;
        }
        // S must be canonical (< L).
        let s_bytes: [u8; 32] = sig[32..].try_into().ok()?;
        let s = Option::<curve25519_dalek::Scalar>::from(
            curve25519_dalek::Scalar::from_canonical_bytes(s_bytes),
        )?;
        let mut digest = openssl::sha::Sha512::new();
        digest.update(&r);
        digest.update(key);
        Some(StrictStream { digest, a, r, s })
    }

    pub(crate) fn update(&mut self, chunk: &[u8]) {
        self.digest.update(chunk);
    }

    pub(crate) fn finish(self) -> bool {
        let wide: [u8; 64] = self.digest.finish();
        let k = curve25519_dalek::Scalar::from_bytes_mod_order_wide(&wide);
        let minus_a = -self.a;
        let r = curve25519_dalek::EdwardsPoint::vartime_double_scalar_mul_basepoint(
            &k, &minus_a, &self.s,
        );
        r.compress().to_bytes() == self.r
    }
}

/// Strict pure-Ed25519 verification of `msg` in one call, with OpenSSL's SHA-512 (used where
/// messages are large, e.g. the appliance checking its HSM's signature of a 64 MB tickets file).
pub fn verify_strict_fast(key: &[u8; 32], sig: &[u8; 64], msg: &[u8]) -> bool {
    match StrictStream::new(key, sig) {
        None => false,
        Some(mut s) => {
            s.update(msg);
            s.finish()
        }
    }
}

/// Strict pure-Ed25519 verification of `msg`, fed to the streaming verifier in small pieces
/// (the same path as `verify_export`; used to test it against `verify_strict`).
pub fn verify_strict_stream(key: &[u8; 32], sig: &[u8; 64], msg: &[u8]) -> bool {
    match StrictStream::new(key, sig) {
        None => false,
        Some(mut s) => {
            for c in msg.chunks(7) {
                s.update(c);
            }
            s.finish()
        }
    }
}

/// Pass 1: checks the raw 64-byte detached signature `sig` over the exact bytes read from
/// `reader`, against each trusted producer key, and returns the file's SHA-256, size and the key
/// that verified. Reads the file once, in fixed-size blocks (SHA-256 on a second thread).
pub fn verify_export(
    mut reader: impl Read,
    sig: &[u8],
    trusted: &[[u8; 32]],
) -> Result<VerifiedExport, ExportError> {
    let sig: &[u8; 64] = sig
        .try_into()
        .map_err(|_| ExportError::file(ExportErrorKind::SignatureLength(sig.len())))?;
    if trusted.is_empty() {
        return Err(ExportError::file(ExportErrorKind::NoTrustedKey));
    }
    let mut streams: Vec<([u8; 32], StrictStream)> = trusted
        .iter()
        .filter_map(|k| StrictStream::new(k, sig).map(|s| (*k, s)))
        .collect();
    // No trusted key can accept this signature whatever the bytes are: nothing to read.
    if streams.is_empty() {
        return Err(ExportError::file(ExportErrorKind::BadSignature));
    }

    // This thread reads each block and hands it to a second thread for SHA-512 (the Ed25519
    // hash, the slower of the two), then computes SHA-256 over it itself; the block comes back
    // for reuse once the second thread is done with it. SHA-512 is the critical path, so that
    // thread does nothing else.
    type Block = Arc<(Vec<u8>, usize)>;
    let (to_verifier, verifier_in) = mpsc::sync_channel::<Block>(2);
    let (give_back, returned) = mpsc::channel::<Block>();
    let mut size: u64 = 0;
    // OpenSSL's SHA-256 for the whole-file hash (about twice the sha2 crate's speed here).
    let mut sha = openssl::sha::Sha256::new();
    let (read, streams) = std::thread::scope(|s| {
        let verifier = s.spawn(move || {
            for block in verifier_in {
                for (_, st) in streams.iter_mut() {
                    st.update(&block.0[..block.1]);
                }
                // The reader may have stopped listening (on an I/O error): ignore.
                let _ = give_back.send(block);
            }
            streams
        });
        let mut allocated = 0;
        let read = loop {
            let reclaim = |b: Block| Arc::try_unwrap(b).map(|(v, _)| v).ok();
            let mut buf = match returned.try_recv().ok().and_then(reclaim) {
                Some(b) => b,
                None if allocated < 3 => {
                    allocated += 1;
                    vec![0u8; BLOCK]
                }
                None => returned
                    .recv()
                    .ok()
                    .and_then(reclaim)
                    .unwrap_or_else(|| vec![0u8; BLOCK]),
            };
            let n = match fill(&mut reader, &mut buf) {
                Ok(n) => n,
                Err(e) => break Err(e),
            };
            if n == 0 {
                break Ok(());
            }
            size += n as u64;
            let block = Arc::new((buf, n));
            if to_verifier.send(Arc::clone(&block)).is_err() {
                break Err(ExportError::file(ExportErrorKind::Io(
                    "verifying thread stopped".into(),
                )));
            }
            sha.update(&block.0[..n]);
        };
        drop(to_verifier);
        // Invariant: the verifying thread does not panic (it only hashes and sends).
        (read, verifier.join().expect("verifying thread"))
    });
    read?;
    let sha256: [u8; 32] = sha.finish();

    for (key, st) in streams {
        if st.finish() {
            return Ok(VerifiedExport {
                sha256,
                size,
                key,
                key_id: key_id(&key),
            });
        }
    }
    Err(ExportError::file(ExportErrorKind::BadSignature))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ed25519_dalek::{Signer, SigningKey};

    /// A tiny deterministic generator for test data (splitmix64).
    fn splitmix(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn strict(key: &[u8; 32], sig: &[u8; 64], msg: &[u8]) -> bool {
        crate::crypto::keys::verify(key, msg, sig)
    }

    #[test]
    fn streaming_verify_agrees_with_verify_strict() {
        let mut st = 7u64;
        for i in 0..300 {
            let mut seed = [0u8; 32];
            seed.iter_mut().for_each(|b| *b = splitmix(&mut st) as u8);
            let sk = SigningKey::from_bytes(&seed);
            let pk = sk.verifying_key().to_bytes();
            let len = (splitmix(&mut st) % 600) as usize;
            let mut msg: Vec<u8> = (0..len).map(|_| splitmix(&mut st) as u8).collect();
            let mut sig = sk.sign(&msg).to_bytes();
            assert!(strict(&pk, &sig, &msg));
            assert!(verify_strict_stream(&pk, &sig, &msg));
            // Tamper with the message, the signature or the key: both must agree, every time.
            match i % 4 {
                0 if !msg.is_empty() => {
                    let j = (splitmix(&mut st) as usize) % msg.len();
                    msg[j] ^= 1 << (i % 8);
                }
                1 => sig[(splitmix(&mut st) as usize) % 64] ^= 0x20,
                2 => msg.push(0),
                _ => sig[63] |= 0xf0, // S >= L: non-canonical
            }
            let other = SigningKey::from_bytes(&[i as u8; 32])
                .verifying_key()
                .to_bytes();
            for key in [pk, other] {
                assert_eq!(
                    strict(&key, &sig, &msg),
                    verify_strict_stream(&key, &sig, &msg),
                    "case {i}"
                );
            }
            assert!(!verify_strict_stream(&pk, &sig, &msg) || i % 4 == 0 && msg.is_empty());
        }
    }

    #[test]
    fn small_order_key_and_r_are_refused() {
        // The identity point (y = 1) as key, and as R, with S = 0: this "signature" satisfies the
        // cofactorless equation for every message under the identity key; strict checks refuse it.
        let mut identity = [0u8; 32];
        identity[0] = 1;
        let mut sig = [0u8; 64];
        sig[..32].copy_from_slice(&identity);
        assert!(!verify_strict_stream(&identity, &sig, b"anything"));
        assert!(!strict(&identity, &sig, b"anything"));
        let sk = SigningKey::from_bytes(&[9u8; 32]);
        assert!(!verify_strict_stream(
            &sk.verifying_key().to_bytes(),
            &sig,
            b"x"
        ));
    }

    #[test]
    fn non_canonical_key_encoding_is_refused() {
        let mut y = [0xffu8; 32];
        y[31] = 0x7f;
        y[0] = 0xee; // p + 1: non-canonical encoding of y = 1
        assert!(!y_is_canonical(&y));
        y[0] = 0xec; // p - 1: canonical
        assert!(y_is_canonical(&y));
    }

    #[test]
    fn verify_export_reads_in_blocks_and_reports_hash_and_size() {
        let sk = SigningKey::from_bytes(&[3u8; 32]);
        let pk = sk.verifying_key().to_bytes();
        let other = SigningKey::from_bytes(&[4u8; 32])
            .verifying_key()
            .to_bytes();
        let msg: Vec<u8> = (0..(BLOCK * 2 + 12345))
            .map(|i| (i * 7 % 251) as u8)
            .collect();
        let sig = sk.sign(&msg).to_bytes();
        let v = verify_export(&msg[..], &sig, &[other, pk]).unwrap();
        assert_eq!(v.key, pk);
        assert_eq!(v.sha256, crate::crypto::sha256(&msg));
        assert_eq!(v.size, msg.len() as u64);
        assert_eq!(v.key_id, key_id(&pk));
        let e = verify_export(&msg[..msg.len() - 1], &sig, &[pk]).unwrap_err();
        assert_eq!(e.kind, ExportErrorKind::BadSignature);
        let e = verify_export(&msg[..], &sig, &[other]).unwrap_err();
        assert_eq!(e.kind, ExportErrorKind::BadSignature);
        let e = verify_export(&msg[..], &sig[..63], &[pk]).unwrap_err();
        assert_eq!(e.kind, ExportErrorKind::SignatureLength(63));
    }
}
