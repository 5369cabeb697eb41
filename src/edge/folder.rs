//! The verifier's view of a folder on disk (`urne_core::verify::folder::Folder`): names, and
//! the bytes of regular files within their limits. Metadata follows symbolic links; a name that
//! is not a regular file is never opened, and a regular file is opened without blocking and
//! checked again on its descriptor, so a file swapped for a FIFO meanwhile is refused, not
//! waited on. Reads stop one byte past the limit.

use std::fs::File;
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use urne_core::verify::folder::{Entry, Folder, ReadError};

/// A folder on disk.
#[derive(Debug, Clone)]
pub struct DiskFolder {
    dir: PathBuf,
}

impl DiskFolder {
    /// The folder `dir`.
    pub fn new(dir: &Path) -> Self {
        DiskFolder {
            dir: dir.to_path_buf(),
        }
    }

    fn open_regular(&self, name: &str) -> std::io::Result<File> {
        let f = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
            .open(self.dir.join(name))?;
        if !f.metadata()?.is_file() {
            return Err(std::io::Error::other("not a regular file"));
        }
        Ok(f)
    }
}

impl Folder for DiskFolder {
    fn names(&self) -> Result<Vec<String>, ReadError> {
        let rd = std::fs::read_dir(&self.dir)
            .map_err(|e| ReadError(format!("cannot list {}: {e}", self.dir.display())))?;
        let mut names = vec![];
        for e in rd {
            let e = e.map_err(|e| ReadError(format!("cannot list {}: {e}", self.dir.display())))?;
            // A name that is not UTF-8 is refused, never skipped: skipping it could hide an
            // output (a fork's second draw) from the checks across outputs.
            let n = e.file_name().into_string().map_err(|n| {
                ReadError(format!(
                    "{} holds a name that is not UTF-8 ({}): it cannot be verified",
                    self.dir.display(),
                    n.to_string_lossy().escape_default()
                ))
            })?;
            names.push(n);
        }
        names.sort();
        Ok(names)
    }

    fn entry(&self, name: &str) -> Entry {
        match std::fs::metadata(self.dir.join(name)) {
            Err(_) => Entry::Missing,
            Ok(m) if m.is_file() => Entry::File(m.len()),
            Ok(m) if m.is_dir() => Entry::Folder,
            Ok(m) => Entry::Other(kind(&m.file_type())),
        }
    }

    fn read(&self, name: &str, limit: u64) -> Result<Vec<u8>, ReadError> {
        let err = |e: std::io::Error| ReadError(format!("cannot read {}: {e}", self.show(name)));
        let f = self.open_regular(name).map_err(err)?;
        let mut bytes = vec![];
        f.take(limit.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(err)?;
        if bytes.len() as u64 > limit {
            return Err(ReadError(format!(
                "{} grew past {limit} bytes while it was read",
                self.show(name)
            )));
        }
        Ok(bytes)
    }

    fn open(&self, name: &str) -> std::io::Result<Box<dyn Read + Send + '_>> {
        Ok(Box::new(self.open_regular(name)?))
    }

    fn sub(&self, name: &str) -> Option<Box<dyn Folder + '_>> {
        let p = self.dir.join(name);
        p.is_dir()
            .then(|| Box::new(DiskFolder::new(&p)) as Box<dyn Folder>)
    }

    fn show(&self, name: &str) -> String {
        if name.is_empty() {
            self.dir.display().to_string()
        } else {
            self.dir.join(name).display().to_string()
        }
    }
}

fn kind(t: &std::fs::FileType) -> &'static str {
    if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_block_device() || t.is_char_device() {
        "a device"
    } else {
        "not a regular file"
    }
}
