//! Reading an export in fixed blocks, for both passes, and the checks of its size.

use std::io::Read;

use super::error::{ExportError, ExportErrorKind};
use super::limits::MAX_EXPORT_BYTES;

/// Bytes read at a time.
pub(super) const BLOCK: usize = 4 << 20;

/// The checks an export's metadata decides before a byte of it is read (or, for a FIFO, before
/// it is opened): a regular file (`std::fs::metadata` follows symbolic links) of at most
/// [`MAX_EXPORT_BYTES`] bytes. Refusals: [`ExportErrorKind::NotAFile`],
/// [`ExportErrorKind::TooLarge`].
pub fn check_export_metadata(meta: &std::fs::Metadata) -> Result<(), ExportError> {
    if !meta.is_file() {
        return Err(ExportError::file(ExportErrorKind::NotAFile));
    }
    check_export_size(meta.len())
}

/// An export of `size` bytes is refused ([`ExportErrorKind::TooLarge`]) above
/// [`MAX_EXPORT_BYTES`].
pub fn check_export_size(size: u64) -> Result<(), ExportError> {
    if size > MAX_EXPORT_BYTES {
        return Err(ExportError::file(ExportErrorKind::TooLarge));
    }
    Ok(())
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Error, ErrorKind};

    /// Gives `errors` first (one per read), then `data`.
    struct Flaky {
        errors: Vec<ErrorKind>,
        data: &'static [u8],
    }

    impl Read for Flaky {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if !self.errors.is_empty() {
                return Err(Error::from(self.errors.remove(0)));
            }
            let n = buf.len().min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    #[test]
    fn an_interrupted_read_is_tried_again_and_any_other_error_ends_the_read() {
        let mut dst = [0u8; 8];
        let mut r = Flaky {
            errors: vec![ErrorKind::Interrupted, ErrorKind::Interrupted],
            data: b"abc",
        };
        assert_eq!(fill(&mut r, &mut dst), Ok(3));
        assert_eq!(&dst[..3], b"abc");
        let mut r = Flaky {
            errors: vec![ErrorKind::Other],
            data: b"abc",
        };
        let e = fill(&mut r, &mut dst).unwrap_err();
        assert!(matches!(e.kind, ExportErrorKind::Io(_)), "{e:?}");
    }
}
