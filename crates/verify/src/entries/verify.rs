//! Pass 1: the export's detached signature, checked over the exact bytes before anything is
//! parsed (design principle 5), in one streaming pass that also yields the file's SHA-256 and
//! size. Memory does not grow with the file: the file is read in fixed blocks.
//!
//! Verification is the strict pure Ed25519 of spec/formats.md §1.4 ([`crate::crypto::ed25519`]), the
//! same code as every one-shot verification, fed the file block by block.

use std::io::Read;
use std::sync::Arc;
use std::sync::mpsc;

use sha2::{Digest, Sha256};

use super::error::{ExportError, ExportErrorKind};
use super::read::{BLOCK, check_export_size, fill};
use super::results::VerifiedExport;
use crate::crypto::ed25519::StrictVerifier;

/// Pass 1: checks the raw 64-byte detached signature `sig` (the `.sig` file's bytes) over the
/// exact bytes read from `reader`, against each trusted producer key (raw 32-byte Ed25519 public
/// keys), and returns the file's SHA-256, size and the key that verified. Reads the file once, to
/// its end, in fixed-size blocks (SHA-512 on a second thread); parses nothing.
///
/// Refusals, all for the file as a whole: [`ExportErrorKind::SignatureLength`] when `sig` is
/// not 64 bytes, [`ExportErrorKind::NoTrustedKey`] when `trusted` is empty,
/// [`ExportErrorKind::BadSignature`] when no trusted key verifies the signature under the strict
/// rules of spec/formats.md §1.4 (a signature no key can accept is refused before the file is read),
/// [`ExportErrorKind::TooLarge`] as soon as more than [`super::MAX_EXPORT_BYTES`] bytes were read
/// (a caller with the file's metadata checks them first, [`super::check_export_metadata`]), and
/// [`ExportErrorKind::Io`] when the reader fails.
pub fn verify_export(
    reader: impl Read,
    sig: &[u8],
    trusted: &[[u8; 32]],
) -> Result<VerifiedExport, ExportError> {
    verify_export_hashing(reader, sig, trusted).map_err(|r| r.error)
}

/// A refusal of [`verify_export_hashing`]: why, and the SHA-256 of the bytes it read when it
/// read the whole file (a signature that no trusted key verifies over them), which a caller
/// records as the refused file's hash without reading the file again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// Why the file was refused.
    pub error: ExportError,
    /// SHA-256 of the exact bytes read, when the whole file was read.
    pub sha256: Option<[u8; 32]>,
}

impl From<ExportError> for Refused {
    fn from(error: ExportError) -> Refused {
        Refused {
            error,
            sha256: None,
        }
    }
}

/// [`verify_export`], whose refusal ([`Refused`]) carries the SHA-256 of the bytes read when the
/// whole file was read: the signature did not verify over them.
pub fn verify_export_hashing(
    mut reader: impl Read,
    sig: &[u8],
    trusted: &[[u8; 32]],
) -> Result<VerifiedExport, Refused> {
    let sig: &[u8; 64] = sig
        .try_into()
        .map_err(|_| ExportError::file(ExportErrorKind::SignatureLength(sig.len())))?;
    if trusted.is_empty() {
        return Err(ExportError::file(ExportErrorKind::NoTrustedKey).into());
    }
    let verifiers: Verifiers = trusted
        .iter()
        .filter_map(|k| StrictVerifier::new(k, sig).map(|s| (*k, s)))
        .collect();
    // No trusted key can accept this signature whatever the bytes are: nothing to read.
    if verifiers.is_empty() {
        return Err(ExportError::file(ExportErrorKind::BadSignature).into());
    }
    let (sha256, size, verifiers) = read_all(&mut reader, verifiers)?;
    for (key, v) in verifiers {
        if v.finish() {
            return Ok(VerifiedExport {
                sha256,
                size,
                key,
                key_id: crate::values::KeyId::of(&key),
            });
        }
    }
    Err(Refused {
        error: ExportError::file(ExportErrorKind::BadSignature),
        sha256: Some(sha256),
    })
}

/// A block of the file (buffer, bytes used), shared by the two threads while both hash it.
type Block = Arc<(Vec<u8>, usize)>;

/// Each trusted key that may verify the signature, with its verifier.
type Verifiers = Vec<([u8; 32], StrictVerifier)>;

/// Reads the whole file once, feeding every block to `verifiers`; returns the file's SHA-256 and
/// size, and the verifiers, fed.
///
/// This thread reads each block and hands it to a second thread for SHA-512 (the Ed25519 hash,
/// the slower of the two), then computes SHA-256 over it itself; the block comes back for reuse
/// once the second thread is done with it. SHA-512 is the critical path, so that thread does
/// nothing else.
fn read_all(
    reader: &mut impl Read,
    verifiers: Verifiers,
) -> Result<([u8; 32], u64, Verifiers), ExportError> {
    let (to_verifier, verifier_in) = mpsc::sync_channel::<Block>(2);
    let (give_back, returned) = mpsc::channel::<Block>();
    let mut size: u64 = 0;
    let mut sha = Sha256::new();
    let (read, verifiers) = std::thread::scope(|s| {
        let verifier = s.spawn(move || feed_verifiers(verifier_in, &give_back, verifiers));
        let mut allocated = 0;
        let read = loop {
            let mut buf = next_buffer(&returned, &mut allocated);
            let n = match fill(reader, &mut buf) {
                Ok(n) => n,
                Err(e) => break Err(e),
            };
            if n == 0 {
                break Ok(());
            }
            size += n as u64;
            // A file that grew past the limit after its metadata were checked (or whose
            // metadata were not): refused as soon as the limit is crossed.
            if let Err(e) = check_export_size(size) {
                break Err(e);
            }
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
    Ok((sha.finalize().into(), size, verifiers))
}

/// The verifying thread: feeds each block to every verifier, then gives the block back.
fn feed_verifiers(
    blocks: mpsc::Receiver<Block>,
    give_back: &mpsc::Sender<Block>,
    mut verifiers: Verifiers,
) -> Verifiers {
    for block in blocks {
        for (_, v) in &mut verifiers {
            v.update(&block.0[..block.1]);
        }
        // The reader may have stopped listening (on an I/O error): ignore.
        let _ = give_back.send(block);
    }
    verifiers
}

/// A block buffer: one given back by the verifying thread, else a new one while fewer than three
/// exist, else the next one given back.
fn next_buffer(returned: &mpsc::Receiver<Block>, allocated: &mut usize) -> Vec<u8> {
    let reclaim = |b: Block| Arc::try_unwrap(b).map(|(v, _)| v).ok();
    match returned.try_recv().ok().and_then(reclaim) {
        Some(b) => b,
        None if *allocated < 3 => {
            *allocated += 1;
            vec![0u8; BLOCK]
        }
        None => returned
            .recv()
            .ok()
            .and_then(reclaim)
            .unwrap_or_else(|| vec![0u8; BLOCK]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ed25519_dalek::{Signer, SigningKey};

    #[test]
    fn verify_export_reads_in_blocks_and_reports_hash_and_size() {
        let sk = SigningKey::from_bytes(&[3u8; 32]);
        let pk = sk.verifying_key().to_bytes();
        let other = SigningKey::from_bytes(&[4u8; 32])
            .verifying_key()
            .to_bytes();
        // Exact: every value is below 251.
        #[allow(clippy::cast_possible_truncation)]
        let msg: Vec<u8> = (0..(BLOCK * 2 + 12345))
            .map(|i| (i * 7 % 251) as u8)
            .collect();
        let sig = sk.sign(&msg).to_bytes();
        let v = verify_export(&msg[..], &sig, &[other, pk]).unwrap();
        assert_eq!(v.key, pk);
        assert_eq!(v.sha256, crate::crypto::sha256(&msg).0);
        assert_eq!(v.size, msg.len() as u64);
        assert_eq!(v.key_id, crate::crypto::keys::key_id(&pk));
        let e = verify_export(&msg[..msg.len() - 1], &sig, &[pk]).unwrap_err();
        assert_eq!(e.kind, ExportErrorKind::BadSignature);
        let e = verify_export(&msg[..], &sig, &[other]).unwrap_err();
        assert_eq!(e.kind, ExportErrorKind::BadSignature);
        let e = verify_export(&msg[..], &sig[..63], &[pk]).unwrap_err();
        assert_eq!(e.kind, ExportErrorKind::SignatureLength(63));
    }

    /// A signature refused over the whole file comes with the hash of the bytes read; one
    /// refused before the file is read, without.
    #[test]
    fn a_signature_refused_over_the_whole_file_comes_with_its_hash() {
        let sk = SigningKey::from_bytes(&[3u8; 32]);
        let pk = sk.verifying_key().to_bytes();
        // Exact: every value is below 251.
        #[allow(clippy::cast_possible_truncation)]
        let msg: Vec<u8> = (0..(BLOCK + 777)).map(|i| (i * 11 % 251) as u8).collect();
        let sig = sk.sign(&msg).to_bytes();
        let r = verify_export_hashing(&msg[1..], &sig, &[pk]).unwrap_err();
        assert_eq!(r.error.kind, ExportErrorKind::BadSignature);
        assert_eq!(r.sha256, Some(crate::crypto::sha256(&msg[1..]).0));
        // No key can accept this signature (S not canonical): refused before reading.
        let mut bad = sig;
        bad[63] = 0xff;
        let r = verify_export_hashing(&msg[..], &bad, &[pk]).unwrap_err();
        assert_eq!(
            (r.error.kind, r.sha256),
            (ExportErrorKind::BadSignature, None)
        );
        let r = verify_export_hashing(&msg[..], &sig[..63], &[pk]).unwrap_err();
        assert_eq!(r.sha256, None);
        assert_eq!(
            verify_export_hashing(&msg[..], &sig, &[pk]).unwrap().size,
            msg.len() as u64
        );
    }

    /// The signature pass never holds more than three blocks of its own making (what bounds its
    /// memory whatever the file's size): a block given back is used again, one the verifying
    /// thread still holds is not, and past three the pass waits for one given back.
    #[test]
    fn at_most_three_blocks_are_allocated_then_one_given_back_is_waited_for() {
        let (give_back, returned) = mpsc::channel::<Block>();
        let mut allocated = 0;
        let a = next_buffer(&returned, &mut allocated);
        assert_eq!((a.len(), allocated), (BLOCK, 1));
        // Given back and no longer shared: reused, nothing allocated.
        let mut a = a;
        a[0] = 7;
        give_back.send(Arc::new((a, 1))).unwrap();
        let a = next_buffer(&returned, &mut allocated);
        assert_eq!((a[0], allocated), (7, 1));
        // Given back but still shared (the verifying thread holds it): a new one.
        let shared = Arc::new((a, 1));
        give_back.send(Arc::clone(&shared)).unwrap();
        let _b = next_buffer(&returned, &mut allocated);
        let _c = next_buffer(&returned, &mut allocated);
        assert_eq!(allocated, 3);
        drop(shared);
        // At three: the pass waits for a block given back, and allocates no fourth.
        let waiter = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(50));
            let mut d = vec![0u8; BLOCK];
            d[0] = 9;
            give_back.send(Arc::new((d, 1))).unwrap();
        });
        let d = next_buffer(&returned, &mut allocated);
        assert_eq!((d[0], allocated), (9, 3));
        waiter.join().unwrap();
        // The verifying thread gone: a new buffer, still not counted (the pass is ending).
        let e = next_buffer(&returned, &mut allocated);
        assert_eq!((e.len(), allocated), (BLOCK, 3));
    }
}
