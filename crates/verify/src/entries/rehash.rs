//! Pass 2 re-hashes every byte it reads, so it can refuse a file that is not the one pass 1
//! verified (design principle 5: only verified bytes are trusted, whatever they parse to).

use std::io::Read;

use sha2::{Digest, Sha256};

use super::error::{ExportError, ExportErrorKind};
use super::read::{BLOCK, fill};
use super::results::VerifiedExport;

/// A reader that hashes and counts what it reads.
pub(super) struct HashingReader<R> {
    inner: R,
    sha: Sha256,
    size: u64,
}

impl<R: Read> HashingReader<R> {
    /// Hashes everything read from `inner`.
    pub(super) fn new(inner: R) -> Self {
        HashingReader {
            inner,
            sha: Sha256::new(),
            size: 0,
        }
    }

    /// Fills `dst` (or reads to the end of the file), hashing what was read; 0 at end of file.
    pub(super) fn read_into(&mut self, dst: &mut [u8]) -> Result<usize, ExportError> {
        let n = fill(&mut self.inner, dst)?;
        self.sha.update(&dst[..n]);
        self.size += n as u64;
        Ok(n)
    }

    /// Reads the rest of the file and returns its SHA-256 and size if they are the verified
    /// file's; refuses it (`FileChanged`) otherwise.
    pub(super) fn check_rest(
        mut self,
        verified: &VerifiedExport,
    ) -> Result<([u8; 32], u64), ExportError> {
        let mut scratch = vec![0u8; BLOCK];
        while self.read_into(&mut scratch)? > 0 {}
        let sha: [u8; 32] = self.sha.finalize().into();
        if sha != verified.sha256 || self.size != verified.size {
            return Err(ExportError::file(ExportErrorKind::FileChanged {
                expected: hex::encode(verified.sha256),
                expected_size: verified.size,
                found: hex::encode(sha),
                found_size: self.size,
            }));
        }
        Ok((sha, self.size))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What pass 1 would have established about `bytes`.
    fn verified(bytes: &[u8]) -> VerifiedExport {
        VerifiedExport {
            sha256: crate::crypto::sha256(bytes).0,
            size: bytes.len() as u64,
            key: [7u8; 32],
            key_id: "0000000000000000".parse().unwrap(),
        }
    }

    /// More than one read block, so the rest spans several reads.
    fn file() -> Vec<u8> {
        // Exact: every value is below 251.
        #[allow(clippy::cast_possible_truncation)]
        (0..BLOCK + 4321).map(|i| (i * 13 % 251) as u8).collect()
    }

    #[test]
    fn the_rest_is_read_to_the_end_and_its_hash_and_size_returned() {
        let bytes = file();
        let mut r = HashingReader::new(&bytes[..]);
        let mut head = [0u8; 100];
        assert_eq!(r.read_into(&mut head).unwrap(), 100);
        assert_eq!(head[..], bytes[..100]);
        let (sha, size) = r.check_rest(&verified(&bytes)).unwrap();
        assert_eq!(sha, crate::crypto::sha256(&bytes).0);
        assert_eq!(size, bytes.len() as u64);
        // Nothing read before: the same.
        let got = HashingReader::new(&bytes[..]).check_rest(&verified(&bytes));
        assert_eq!(got.unwrap(), (sha, size));
    }

    #[test]
    fn other_bytes_of_the_same_size_are_refused() {
        let bytes = file();
        let mut other = bytes.clone();
        other[BLOCK + 1] ^= 1;
        let e = HashingReader::new(&other[..])
            .check_rest(&verified(&bytes))
            .unwrap_err();
        assert_eq!(
            e.kind,
            ExportErrorKind::FileChanged {
                expected: hex::encode(crate::crypto::sha256(&bytes).0),
                expected_size: bytes.len() as u64,
                found: hex::encode(crate::crypto::sha256(&other).0),
                found_size: other.len() as u64,
            }
        );
    }

    #[test]
    fn the_same_hash_with_another_size_is_refused() {
        // Only a size can tell these apart (a SHA-256 collision cannot be built for a test):
        // the size is checked on its own, not only through the hash.
        let bytes = file();
        let mut claimed = verified(&bytes);
        claimed.size += 1;
        let e = HashingReader::new(&bytes[..])
            .check_rest(&claimed)
            .unwrap_err();
        assert!(
            matches!(e.kind, ExportErrorKind::FileChanged { expected_size, found_size, .. }
                if expected_size == claimed.size && found_size == bytes.len() as u64),
            "{e:?}"
        );
        let e = HashingReader::new(&bytes[..bytes.len() - 1])
            .check_rest(&verified(&bytes))
            .unwrap_err();
        assert_eq!(e.kind.name(), "file-changed");
    }
}
