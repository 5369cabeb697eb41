//! The verifier's view of a folder on disk (`urne_verify::verify::folder::Folder`): names, and
//! the bytes of regular files within their limits, read through the folder's descriptor
//! (`edge::dir`, issue 22 item 3).
//!
//! A folder read (`urne verify`'s folders and `--keys DIR`, the outputs a restart carries, a
//! proof's or a ticket's published folder: [`DiskFolder::open`]) is opened once by the path given,
//! links in that path followed (spec/formats.md §1.6: the user names it; urne only reads it), and held by
//! its descriptor; below it nothing is followed: a name is examined itself
//! (`fstatat(AT_SYMLINK_NOFOLLOW)`: a link is [`Entry::Link`], not a regular file, never read and
//! never a folder of outputs), a file opened with `O_NOFOLLOW`, a subfolder opened relative to
//! its folder. A file given to verify ([`DiskFolder::of_file`]: a lone output, a proof, an
//! export) is read through its own links too, the files beside it not. An input file the
//! operator names ([`DiskFolder::input`]: rules, a key, a checkpoint) is read by its path, links
//! followed. Either way a name that is not a regular file is never opened, and a regular file is
//! opened without blocking and checked again on its descriptor, so a file swapped for a FIFO
//! meanwhile is refused, not waited on. Reads stop one byte past the limit.

use crate::edge::dir::Dir;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use urne_verify::verify::folder::{Entry, Folder, ReadError, read_at_most};

/// A folder on disk.
#[derive(Debug)]
pub struct DiskFolder {
    /// The folder's descriptor, or why it could not be opened (nothing there, not a folder, no
    /// permission): then it lists as that error, and has no names.
    held: std::result::Result<Dir, String>,
    dir: PathBuf,
    /// Which links are followed below it.
    follow: Follow,
}

/// The symbolic links a [`DiskFolder`] follows below it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Follow {
    /// None (a folder read, spec/formats.md §1.6).
    Nothing,
    /// The one name the user gave (a file given to verify); none beside it.
    Only(String),
    /// All (an input's folder).
    All,
}

impl DiskFolder {
    /// The folder `dir`, opened by its path (links in it followed: the user names it, urne only
    /// reads it) and held by its descriptor; below it nothing is followed (spec/formats.md §1.6). A
    /// folder that cannot be opened lists as that error and has no names.
    pub fn open(dir: &Path) -> DiskFolder {
        DiskFolder::held(
            Dir::open_following(dir).map_err(|e| e.to_string()),
            dir,
            Follow::Nothing,
        )
    }

    /// The folder of the file `file` given to verify (a lone output, a proof, an export), and
    /// the file's name in it: the file is read through its links, the files beside it (its
    /// `.sig`, the keys) are not (spec/formats.md §1.6).
    pub fn of_file(file: &Path) -> (DiskFolder, String) {
        let dir = file
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut folder = DiskFolder::open(dir);
        folder.follow = Follow::Only(name.clone());
        (folder, name)
    }

    /// The folder of an input file the operator names, opened by its path, links followed.
    pub fn input(dir: &Path) -> DiskFolder {
        DiskFolder::held(
            Dir::open_following(dir).map_err(|e| e.to_string()),
            dir,
            Follow::All,
        )
    }

    fn held(held: std::result::Result<Dir, String>, dir: &Path, follow: Follow) -> DiskFolder {
        DiskFolder {
            held,
            dir: dir.to_path_buf(),
            follow,
        }
    }

    /// Whether a link at `name` is followed.
    fn follows(&self, name: &str) -> bool {
        match &self.follow {
            Follow::Nothing => false,
            Follow::Only(n) => n == name,
            Follow::All => true,
        }
    }

    fn open_regular(&self, name: &str) -> std::io::Result<File> {
        match &self.held {
            Ok(d) => d.open_regular_with(name, self.follows(name)),
            Err(e) => Err(std::io::Error::other(e.clone())),
        }
    }
}

impl Folder for DiskFolder {
    fn names(&self) -> std::result::Result<Vec<String>, ReadError> {
        let list = |e: &dyn std::fmt::Display| {
            ReadError(format!("cannot list {}: {e}", self.dir.display()))
        };
        let held = self.held.as_ref().map_err(|e| list(e))?;
        let mut names = vec![];
        for n in held.names().map_err(|e| list(&e))? {
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
        Ok(names)
    }

    fn entry(&self, name: &str) -> Entry {
        let Ok(held) = &self.held else {
            return Entry::Missing;
        };
        match held.stat(name, self.follows(name)) {
            Err(_) | Ok(None) => Entry::Missing,
            Ok(Some(st)) => match st.st_mode & libc::S_IFMT {
                libc::S_IFREG => Entry::File(st.st_size.cast_unsigned()),
                libc::S_IFDIR => Entry::Folder,
                libc::S_IFLNK => Entry::Link,
                libc::S_IFIFO => Entry::Other("a FIFO"),
                libc::S_IFSOCK => Entry::Other("a socket"),
                libc::S_IFBLK | libc::S_IFCHR => Entry::Other("a device"),
                _ => Entry::Other("not a regular file"),
            },
        }
    }

    fn read(&self, name: &str, limit: u64) -> std::result::Result<Vec<u8>, ReadError> {
        let f = self
            .open_regular(name)
            .map_err(|e| ReadError(format!("cannot read {}: {e}", self.show(name))))?;
        read_at_most(f, limit, &self.show(name))
    }

    fn open(&self, name: &str) -> std::io::Result<Box<dyn Read + Send + '_>> {
        Ok(Box::new(self.open_regular(name)?))
    }

    fn sub(&self, name: &str) -> Option<Box<dyn Folder + '_>> {
        let held = self.held.as_ref().ok()?;
        // Only an input's folder follows a link to a subfolder; a folder of outputs never does.
        let (sub, follow) = if self.follow == Follow::All {
            (Dir::open_following(&self.dir.join(name)).ok()?, Follow::All)
        } else {
            (held.sub(name).ok()?, Follow::Nothing)
        };
        Some(Box::new(DiskFolder::held(
            Ok(sub),
            &self.dir.join(name),
            follow,
        )))
    }

    fn show(&self, name: &str) -> String {
        if name.is_empty() {
            self.dir.display().to_string()
        } else {
            self.dir.join(name).display().to_string()
        }
    }
}
