//! Reading an export in fixed blocks, for both passes, and the longest line a pass accepts.

use std::io::Read;

use super::error::{ExportError, ExportErrorKind};

/// Bytes read at a time.
pub(super) const BLOCK: usize = 4 << 20;

/// Longest line accepted (a resource limit; a valid record is a few hundred bytes).
pub(super) const MAX_LINE: usize = 1 << 20;

/// Reads into `dst` until it is full or the file ends; returns how many bytes were read.
/// (Buffers are allocated and zeroed once, then reused: no per-block memset.)
pub(super) fn fill(reader: &mut impl Read, dst: &mut [u8]) -> Result<usize, ExportError> {
    let mut n = 0;
    while n < dst.len() {
        match reader.read(&mut dst[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(ExportError::file(ExportErrorKind::Io(e.to_string()))),
        }
    }
    Ok(n)
}
