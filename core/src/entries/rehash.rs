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
