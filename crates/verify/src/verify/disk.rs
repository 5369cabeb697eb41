//! A folder on disk as the verifier reads it ([`Folder`]), with the standard library only: what
//! the `urne-verify` binary and a program linking this library verify. The folder given is read
//! by its path, links in that path followed (spec/formats.md §1.6: the user names it); below it nothing
//! is followed: a name is examined itself (`symlink_metadata`: a link is [`Entry::Link`], never
//! read and never a folder of outputs), and a file read is checked again once open (a regular
//! file, the very file examined: same device and inode), so a name swapped for a link or another
//! file meanwhile is refused. A file given to verify ([`DiskFolder::of_file`]) is read through
//! its own links, the files beside it not. Reads stop one byte past the limit.
//!
//! The appliance reads its folders through held descriptors instead (`openat`, `O_NOFOLLOW`,
//! its `edge::folder`), which needs `unsafe` system calls this crate forbids; both refuse the
//! same names.

use super::folder::{Entry, Folder, ReadError, read_at_most};
use std::fs::{File, Metadata};
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// `O_NONBLOCK` where its value is the generic one (x86, Arm, RISC-V, POWER, s390x): a name
/// swapped for a FIFO after it was examined is then refused once open, not waited on.
#[cfg(all(
    target_os = "linux",
    any(
        target_arch = "x86",
        target_arch = "x86_64",
        target_arch = "arm",
        target_arch = "aarch64",
        target_arch = "riscv64",
        target_arch = "powerpc64",
        target_arch = "s390x"
    )
))]
const NONBLOCK: i32 = 0o4000;
#[cfg(not(all(
    target_os = "linux",
    any(
        target_arch = "x86",
        target_arch = "x86_64",
        target_arch = "arm",
        target_arch = "aarch64",
        target_arch = "riscv64",
        target_arch = "powerpc64",
        target_arch = "s390x"
    )
)))]
const NONBLOCK: i32 = 0;

/// A folder on disk, read by path.
#[derive(Debug, Clone)]
pub struct DiskFolder {
    dir: PathBuf,
    /// The one name below it whose links are followed (the file given to verify), if any.
    follow: Option<String>,
}

impl DiskFolder {
    /// The folder `dir` (links in its path followed); below it nothing is followed.
    pub fn open(dir: &Path) -> DiskFolder {
        DiskFolder {
            dir: dir.to_path_buf(),
            follow: None,
        }
    }

    /// The folder of the file `file` given to verify (a lone output, a proof, an export), and
    /// the file's name in it: the file is read through its links, the files beside it (its
    /// `.sig`) are not (spec/formats.md §1.6).
    pub fn of_file(file: &Path) -> (DiskFolder, String) {
        let dir = file
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let folder = DiskFolder {
            dir: dir.to_path_buf(),
            follow: Some(name.clone()),
        };
        (folder, name)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    fn stat(&self, name: &str) -> std::io::Result<Metadata> {
        if self.follow.as_deref() == Some(name) {
            std::fs::metadata(self.path(name))
        } else {
            std::fs::symlink_metadata(self.path(name))
        }
    }

    /// The regular file `name`, opened without blocking and checked again once open.
    fn open_regular(&self, name: &str) -> std::io::Result<File> {
        let before = self.stat(name)?;
        if !before.file_type().is_file() {
            return Err(std::io::Error::other("not a regular file"));
        }
        let f = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(NONBLOCK)
            .open(self.path(name))?;
        let after = f.metadata()?;
        if !after.file_type().is_file()
            || (after.dev(), after.ino()) != (before.dev(), before.ino())
        {
            return Err(std::io::Error::other(
                "it changed while it was opened (not the regular file examined)",
            ));
        }
        Ok(f)
    }
}

impl Folder for DiskFolder {
    fn names(&self) -> Result<Vec<String>, ReadError> {
        let list = |e: &dyn std::fmt::Display| {
            ReadError(format!("cannot list {}: {e}", self.dir.display()))
        };
        let mut names = vec![];
        for e in std::fs::read_dir(&self.dir).map_err(|e| list(&e))? {
            let n = e.map_err(|e| list(&e))?.file_name();
            // A name that is not UTF-8 is refused, never skipped: skipping it could hide an
            // output (a fork's second draw) from the checks across outputs.
            let n = n.into_string().map_err(|n| {
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
        let Ok(m) = self.stat(name) else {
            return Entry::Missing;
        };
        let t = m.file_type();
        if t.is_file() {
            Entry::File(m.len())
        } else if t.is_dir() {
            Entry::Folder
        } else if t.is_symlink() {
            Entry::Link
        } else if t.is_fifo() {
            Entry::Other("a FIFO")
        } else if t.is_socket() {
            Entry::Other("a socket")
        } else if t.is_block_device() || t.is_char_device() {
            Entry::Other("a device")
        } else {
            Entry::Other("not a regular file")
        }
    }

    fn read(&self, name: &str, limit: u64) -> Result<Vec<u8>, ReadError> {
        let f = self
            .open_regular(name)
            .map_err(|e| ReadError(format!("cannot read {}: {e}", self.show(name))))?;
        read_at_most(f, limit, &self.show(name))
    }

    fn open(&self, name: &str) -> std::io::Result<Box<dyn Read + Send + '_>> {
        Ok(Box::new(self.open_regular(name)?))
    }

    fn sub(&self, name: &str) -> Option<Box<dyn Folder + '_>> {
        // A subfolder is a folder below it, never a link to one.
        if !std::fs::symlink_metadata(self.path(name)).ok()?.is_dir() {
            return None;
        }
        Some(Box::new(DiskFolder::open(&self.path(name))))
    }

    fn show(&self, name: &str) -> String {
        if name.is_empty() {
            self.dir.display().to_string()
        } else {
            self.path(name).display().to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_below_the_folder_are_not_followed_and_the_file_given_is() {
        let dir = std::env::temp_dir().join(format!("urne-verify-disk-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("a.json"), b"{}").unwrap();
        std::os::unix::fs::symlink(dir.join("a.json"), dir.join("link.json")).unwrap();
        std::os::unix::fs::symlink(dir.join("sub"), dir.join("linked-sub")).unwrap();
        let f = DiskFolder::open(&dir);
        assert_eq!(
            f.names().unwrap(),
            ["a.json", "link.json", "linked-sub", "sub"]
        );
        assert_eq!(f.entry("a.json"), Entry::File(2));
        assert_eq!(f.entry("link.json"), Entry::Link);
        assert_eq!(f.entry("sub"), Entry::Folder);
        assert_eq!(f.entry("gone"), Entry::Missing);
        assert_eq!(f.read("a.json", 2).unwrap(), b"{}");
        assert!(f.read("a.json", 1).is_err());
        assert!(f.read("link.json", 10).is_err());
        assert!(f.sub("sub").is_some());
        assert!(f.sub("linked-sub").is_none());
        let (given, name) = DiskFolder::of_file(&dir.join("link.json"));
        assert_eq!(given.entry(&name), Entry::File(2));
        assert_eq!(given.read(&name, 10).unwrap(), b"{}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
