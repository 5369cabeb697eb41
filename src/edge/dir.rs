//! Folders held by a descriptor (issue 22, item 3): every operation urne makes in a folder it
//! writes in or cleans (outputs, staging, the secret medium, backups, exports, the minutes'
//! sitting folders, block folders) is made relative to a descriptor of that folder, never through
//! a path that a symbolic link swapped in at any moment could send elsewhere.
//!
//! A folder the operator names is opened one component at a time, from `/` for an absolute path
//! or from the working directory for a relative one, each component with
//! `O_DIRECTORY|O_NOFOLLOW` ([`Dir::open`]; [`Dir::open_or_create`] makes the missing ones with
//! `mkdirat`). A symbolic link anywhere in the path is refused ([`is_link_refused`]), except one
//! owned by root, in a folder owned by root that neither group nor others may write in, when
//! urne does not run as root: only root can replace it, and root is outside the threat model
//! (docs/threat-model.md); it is opened itself (`O_PATH|O_NOFOLLOW`), checked
//! on that descriptor and read from it (`readlinkat`), then its target is opened the same way.
//! urne run as root follows no link at all (every link is root's then). Below that
//! descriptor every name is one component, and every call refuses to follow a link: files are
//! created with `O_CREAT|O_EXCL|O_NOFOLLOW`, opened with `O_NOFOLLOW`, examined with
//! `fstatat(AT_SYMLINK_NOFOLLOW)`, removed with `unlinkat` (which removes a link, never what it
//! names), linked with `linkat` (flags 0: never follows), renamed with
//! `renameat2(RENAME_NOREPLACE)`, and listed through a duplicate of the descriptor. A name
//! exchanged for a symbolic link at any moment is then refused, or acted on as the link itself.

use std::ffi::{CStr, CString, OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Component, Path, PathBuf};

/// At most this many symbolic links (root's) are followed while a path is opened, as the kernel.
const MAX_LINKS: u32 = 40;

/// A folder held open: every operation below it is relative to its descriptor.
#[derive(Debug)]
pub struct Dir {
    fd: OwnedFd,
    /// The path it was opened by, for messages only (never opened again).
    path: PathBuf,
}

/// What a name in a folder is, the name itself examined (a link is never followed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A regular file.
    File,
    /// A folder.
    Dir,
    /// A symbolic link (not followed).
    Symlink,
    /// Anything else: a FIFO, a socket, a device.
    Other,
}

/// The error a symbolic link in a folder's path gets (not root's): see [`is_link_refused`].
#[derive(Debug)]
struct LinkRefused;

impl std::fmt::Display for LinkRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::msg!(
            crate::msg::catalogue::edge::ERR_FILE_LINK_IN_PATH
        ))
    }
}

impl std::error::Error for LinkRefused {}

/// True when `e` is the refusal of a symbolic link in a folder's path.
pub fn is_link_refused(e: &io::Error) -> bool {
    e.get_ref().is_some_and(<dyn std::error::Error + std::marker::Send + std::marker::Sync + 'static>::is::<LinkRefused>)
}

/// The folder `dir` could not be opened: a symbolic link in its path is refused (exit 4, one
/// wording for every command); anything else is the I/O error it is.
pub fn folder_error(dir: &Path, e: io::Error) -> crate::error::Error {
    if is_link_refused(&e) {
        return refused_link(dir);
    }
    crate::error::io_error(crate::error::Io::OpenFolder, dir, e)
}

/// The refusal of `path` because a symbolic link is in it (exit 4).
pub fn refused_link(path: &Path) -> crate::error::Error {
    crate::error::Error::new(
        crate::error::Kind::SymbolicLink,
        crate::msg!(
            crate::msg::catalogue::edge::ERR_FILE_SYMLINK,
            path = path.display()
        ),
        crate::msg!(crate::msg::catalogue::edge::REC_FILE_SYMLINK),
    )
}

impl Dir {
    /// Opens the folder `path` (see the module's text): each component a real folder or root's
    /// symbolic link.
    pub fn open(path: &Path) -> io::Result<Dir> {
        Dir::walk(path, false)
    }

    /// As [`Dir::open`], making the missing components (mode 0777 less the umask).
    pub fn open_or_create(path: &Path) -> io::Result<Dir> {
        Dir::walk(path, true)
    }

    fn walk(path: &Path, create: bool) -> io::Result<Dir> {
        let mut links = 0;
        let start = if path.is_absolute() { c"/" } else { c"." };
        let fd = walk_from(open_dir(None, start)?, path, create, &mut links)?;
        Ok(Dir {
            fd,
            path: path.to_path_buf(),
        })
    }

    /// The folder `path` opened by its path, every link in it followed: the folder of an input
    /// file the operator names, which urne only reads (never one it writes in or cleans).
    pub fn open_following(path: &Path) -> io::Result<Dir> {
        let c =
            CString::new(path.as_os_str().as_bytes()).map_err(|_| io::ErrorKind::InvalidInput)?;
        let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC;
        // SAFETY: a NUL-terminated path, alive for the call.
        let fd = owned(unsafe { libc::openat(libc::AT_FDCWD, c.as_ptr(), flags) })?;
        Ok(Dir {
            fd,
            path: path.to_path_buf(),
        })
    }

    /// The path it was opened by, for messages.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `name` in this folder, for messages.
    pub fn show(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// The folder `name` in this one, never through a link.
    pub fn sub(&self, name: &str) -> io::Result<Dir> {
        let fd = open_dir(Some(self.fd.as_fd()), &component(name)?)?;
        Ok(Dir {
            fd,
            path: self.path.join(name),
        })
    }

    /// A second descriptor of the same folder.
    pub fn try_clone(&self) -> io::Result<Dir> {
        Ok(Dir {
            fd: self.fd.try_clone()?,
            path: self.path.clone(),
        })
    }

    /// Makes the folder `name` (fails on any existing name, a link included).
    pub fn mkdir(&self, name: &str, mode: u32) -> io::Result<()> {
        let c = component(name)?;
        // SAFETY: a valid descriptor and a NUL-terminated name, both alive for the call.
        cvt(unsafe { libc::mkdirat(self.raw(), c.as_ptr(), mode as libc::mode_t) })
    }

    /// Creates the file `name`, new (fails on any existing name, a dangling link included), for
    /// writing.
    pub fn create_new(&self, name: &str, mode: u32) -> io::Result<File> {
        let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW;
        self.open_at(name, flags, mode)
    }

    /// A scratch file in this folder's file system, read and write, mode 0600, that no name
    /// reaches: made unnamed (`O_TMPFILE`) or, where the file system has no such files (FAT),
    /// created new as `fallback` (never through a link) and unlinked at once. It is gone when
    /// closed, whatever stops the process.
    pub fn scratch(&self, fallback: &str) -> io::Result<File> {
        // SAFETY: a valid descriptor and a NUL-terminated name, both alive for the call.
        let fd = unsafe {
            libc::openat(
                self.raw(),
                c".".as_ptr(),
                libc::O_TMPFILE | libc::O_RDWR | libc::O_CLOEXEC,
                0o600 as libc::c_uint,
            )
        };
        if fd >= 0 {
            return Ok(File::from(owned(fd)?));
        }
        let e = io::Error::last_os_error();
        if !matches!(
            e.raw_os_error(),
            Some(libc::EOPNOTSUPP | libc::EISDIR | libc::EINVAL)
        ) {
            return Err(e);
        }
        let flags = libc::O_RDWR | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW;
        let f = self.open_at(fallback, flags, 0o600)?;
        self.unlink(fallback)?;
        Ok(f)
    }

    /// Opens the regular file `name` for reading: never through a link, never blocking on a
    /// FIFO, and checked on its descriptor.
    pub fn open_regular(&self, name: &str) -> io::Result<File> {
        self.open_regular_with(name, false)
    }

    /// As [`Dir::open_regular`], a link at `name` followed when `follow` (an input's folder,
    /// [`Dir::open_following`]).
    pub fn open_regular_with(&self, name: &str, follow: bool) -> io::Result<File> {
        let nofollow = if follow { 0 } else { libc::O_NOFOLLOW };
        let flags = libc::O_RDONLY | nofollow | libc::O_NONBLOCK | libc::O_NOCTTY;
        let f = self.open_at(name, flags, 0)?;
        if !f.metadata()?.is_file() {
            return Err(io::Error::other(crate::msg!(
                crate::msg::catalogue::edge::ERR_FILE_NOT_REGULAR
            )));
        }
        Ok(f)
    }

    /// The whole regular file `name`, refused past `limit` bytes.
    pub fn read(&self, name: &str, limit: u64) -> io::Result<Vec<u8>> {
        use std::io::Read;
        let f = self.open_regular(name)?;
        let mut bytes = vec![];
        f.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
        if bytes.len() as u64 > limit {
            return Err(io::Error::other(crate::msg!(
                crate::msg::catalogue::edge::ERR_FILE_TOO_LARGE,
                limit = limit
            )));
        }
        Ok(bytes)
    }

    fn open_at(&self, name: &str, flags: libc::c_int, mode: u32) -> io::Result<File> {
        let c = component(name)?;
        // SAFETY: a valid descriptor and a NUL-terminated name, both alive for the call.
        let fd = unsafe {
            libc::openat(
                self.raw(),
                c.as_ptr(),
                flags | libc::O_CLOEXEC,
                mode as libc::c_uint,
            )
        };
        Ok(File::from(owned(fd)?))
    }

    /// What `name` is (the name itself: a link is a link), or `None` when nothing has it.
    pub fn kind(&self, name: &str) -> io::Result<Option<Kind>> {
        let Some(st) = self.stat(name, false)? else {
            return Ok(None);
        };
        Ok(Some(match st.st_mode & libc::S_IFMT {
            libc::S_IFREG => Kind::File,
            libc::S_IFDIR => Kind::Dir,
            libc::S_IFLNK => Kind::Symlink,
            _ => Kind::Other,
        }))
    }

    /// The status of `name` (`fstatat`; of the name itself unless `follow`), or `None` when
    /// nothing has it.
    pub fn stat(&self, name: &str, follow: bool) -> io::Result<Option<libc::stat>> {
        let c = component(name)?;
        let flags = if follow { 0 } else { libc::AT_SYMLINK_NOFOLLOW };
        let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
        // SAFETY: a valid descriptor, a NUL-terminated name and room for one `stat`.
        let r = unsafe { libc::fstatat(self.raw(), c.as_ptr(), st.as_mut_ptr(), flags) };
        match cvt(r) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        }
        // SAFETY: fstatat succeeded, so it filled the `stat`.
        Ok(Some(unsafe { st.assume_init() }))
    }

    /// Removes the name `name` (a file, or a link itself; never a folder).
    pub fn unlink(&self, name: &str) -> io::Result<()> {
        self.unlink_at(name, 0)
    }

    /// Removes the empty folder `name` (never through a link: a link there fails).
    pub fn rmdir(&self, name: &str) -> io::Result<()> {
        self.unlink_at(name, libc::AT_REMOVEDIR)
    }

    fn unlink_at(&self, name: &str, flags: libc::c_int) -> io::Result<()> {
        let c = component(name)?;
        // SAFETY: a valid descriptor and a NUL-terminated name, both alive for the call.
        cvt(unsafe { libc::unlinkat(self.raw(), c.as_ptr(), flags) })
    }

    /// Gives the file `name` a second name `to_name` in `to` (`linkat`, flags 0: a link at
    /// `name` is linked itself, never followed); fails when `to_name` exists, whatever it is.
    pub fn link_into(&self, name: &str, to: &Dir, to_name: &str) -> io::Result<()> {
        let (a, b) = (component(name)?, component(to_name)?);
        // SAFETY: valid descriptors and NUL-terminated names, all alive for the call.
        cvt(unsafe { libc::linkat(self.raw(), a.as_ptr(), to.raw(), b.as_ptr(), 0) })
    }

    /// Moves `name` to `to_name` in `to`, never replacing anything (`RENAME_NOREPLACE`).
    pub fn rename_noreplace(&self, name: &str, to: &Dir, to_name: &str) -> io::Result<()> {
        let (a, b) = (component(name)?, component(to_name)?);
        // SAFETY: valid descriptors and NUL-terminated names, all alive for the call.
        cvt(unsafe {
            libc::renameat2(
                self.raw(),
                a.as_ptr(),
                to.raw(),
                b.as_ptr(),
                libc::RENAME_NOREPLACE,
            )
        })
    }

    /// The names in this folder (not `.` and `..`), sorted, read through the descriptor.
    pub fn names(&self) -> io::Result<Vec<OsString>> {
        // A duplicate for the directory stream, which closes it; the duplicate shares the
        // reading position with this descriptor, hence the rewind.
        let dup = self.fd.try_clone()?;
        // SAFETY: `dup` is a valid descriptor of a folder; on success the stream owns it.
        let dirp = unsafe { libc::fdopendir(dup.as_raw_fd()) };
        if dirp.is_null() {
            return Err(io::Error::last_os_error());
        }
        std::mem::forget(dup);
        let stream = Stream(dirp);
        // SAFETY: `stream.0` is the open stream made above.
        unsafe { libc::rewinddir(stream.0) };
        let mut names = vec![];
        loop {
            // errno is cleared so that the end of the folder is told from an error.
            // SAFETY: the thread's own errno location.
            unsafe { *libc::__errno_location() = 0 };
            // SAFETY: `stream.0` is open; the entry it returns is valid until the next call.
            let ent = unsafe { libc::readdir(stream.0) };
            if ent.is_null() {
                let e = io::Error::last_os_error();
                if e.raw_os_error() == Some(0) {
                    break;
                }
                return Err(e);
            }
            // SAFETY: `d_name` of a returned entry is a NUL-terminated name.
            let name = unsafe { CStr::from_ptr((*ent).d_name.as_ptr()) };
            let b = name.to_bytes();
            if b != b"." && b != b".." {
                names.push(OsString::from_vec(b.to_vec()));
            }
        }
        names.sort();
        Ok(names)
    }

    /// Syncs the folder itself (its names) to the medium.
    pub fn sync(&self) -> io::Result<()> {
        // SAFETY: a valid descriptor.
        cvt(unsafe { libc::fsync(self.raw()) })
    }

    /// The owner and mode (`st_mode`: type and permission bits) of the folder itself, read on
    /// its descriptor.
    pub fn owner_mode(&self) -> io::Result<(u32, u32)> {
        let st = fstat(self.fd.as_fd())?;
        Ok((st.st_uid, st.st_mode))
    }

    /// The file system and inode of the folder.
    pub fn id(&self) -> io::Result<(u64, u64)> {
        use std::os::unix::fs::MetadataExt;
        let m = File::from(self.fd.try_clone()?).metadata()?;
        Ok((m.dev(), m.ino()))
    }

    fn raw(&self) -> libc::c_int {
        self.fd.as_raw_fd()
    }
}

/// An open directory stream, closed on drop.
struct Stream(*mut libc::DIR);

impl Drop for Stream {
    fn drop(&mut self) {
        // SAFETY: the stream was opened by fdopendir and is closed once, here.
        unsafe { libc::closedir(self.0) };
    }
}

/// Follows `path`'s components from the folder `cur`.
fn walk_from(mut cur: OwnedFd, path: &Path, create: bool, links: &mut u32) -> io::Result<OwnedFd> {
    for c in path.components() {
        cur = match c {
            Component::RootDir => open_dir(None, c"/")?,
            Component::CurDir => cur,
            Component::ParentDir => open_dir(Some(cur.as_fd()), c"..")?,
            Component::Normal(n) => step(&cur, n, create, links)?,
            Component::Prefix(_) => return Err(io::Error::from(io::ErrorKind::InvalidInput)),
        };
    }
    Ok(cur)
}

/// The folder `name` in `cur`: a real folder, made first when missing and `create`, or the
/// target of root's symbolic link.
fn step(cur: &OwnedFd, name: &OsStr, create: bool, links: &mut u32) -> io::Result<OwnedFd> {
    let c = CString::new(name.as_bytes()).map_err(|_| io::ErrorKind::InvalidInput)?;
    match open_dir(Some(cur.as_fd()), &c) {
        Ok(fd) => Ok(fd),
        Err(e) if e.kind() == io::ErrorKind::NotFound && create => {
            // SAFETY: a valid descriptor and a NUL-terminated name, both alive for the call.
            match cvt(unsafe { libc::mkdirat(cur.as_raw_fd(), c.as_ptr(), 0o777) }) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
            step(cur, name, false, links)
        }
        Err(e) if matches!(e.raw_os_error(), Some(libc::ELOOP | libc::ENOTDIR)) => {
            let Some(target) = root_link_target(cur, &c)? else {
                return Err(e);
            };
            *links += 1;
            if *links > MAX_LINKS {
                return Err(io::Error::from_raw_os_error(libc::ELOOP));
            }
            let base = if target.is_absolute() {
                open_dir(None, c"/")?
            } else {
                cur.try_clone()?
            };
            walk_from(base, &target, create, links)
        }
        Err(e) => Err(e),
    }
}

/// The target of the symbolic link `name` in `cur` when [`root_link_followed`] allows it;
/// `None` when `name` is no link nor folder; refused ([`is_link_refused`]) otherwise, a folder
/// included (the open that called this found no folder there: it was swapped meanwhile). Read from the link's own
/// descriptor, so the link checked is the link read.
fn root_link_target(cur: &OwnedFd, name: &CStr) -> io::Result<Option<PathBuf>> {
    let flags = libc::O_PATH | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    // SAFETY: a valid descriptor and a NUL-terminated name, both alive for the call.
    let link = owned(unsafe { libc::openat(cur.as_raw_fd(), name.as_ptr(), flags) })?;
    let st = fstat(link.as_fd())?;
    match st.st_mode & libc::S_IFMT {
        libc::S_IFLNK => {}
        // A folder now, where the open just found something else: swapped meanwhile.
        libc::S_IFDIR => return Err(io::Error::other(LinkRefused)),
        _ => return Ok(None),
    }
    // The folder holding the link, through the descriptor it was found by.
    let holder = fstat(cur.as_fd())?;
    // SAFETY: geteuid has no preconditions.
    let euid = unsafe { libc::geteuid() };
    if !root_link_followed(st.st_uid, holder.st_uid, holder.st_mode, euid) {
        return Err(io::Error::other(LinkRefused));
    }
    let mut buf = vec![0u8; libc::PATH_MAX as usize];
    // SAFETY: a valid descriptor of the link itself (empty name: the link), and a buffer of
    // `buf.len()` bytes.
    let n = unsafe {
        libc::readlinkat(
            link.as_raw_fd(),
            c"".as_ptr(),
            buf.as_mut_ptr().cast(),
            buf.len(),
        )
    };
    let n = usize::try_from(n).map_err(|_| io::Error::last_os_error())?;
    buf.truncate(n);
    Ok(Some(PathBuf::from(OsString::from_vec(buf))))
}

/// Whether a symbolic link in a folder's path is followed: only when urne is not root (`euid`),
/// the link is root's (`link_uid`), and so is the folder holding it (`holder_uid`), which no
/// group or other user may write in (`holder_mode`). Then only root can replace the link or put
/// another there: a user cannot make a link root's, but could move one of root's links into a
/// folder of their own (or into a shared one, such as `/tmp`), where it would lead anywhere.
pub(crate) fn root_link_followed(
    link_uid: u32,
    holder_uid: u32,
    holder_mode: u32,
    euid: u32,
) -> bool {
    euid != 0 && link_uid == 0 && holder_uid == 0 && holder_mode & 0o022 == 0
}

/// The status of what the descriptor `fd` holds.
fn fstat(fd: BorrowedFd<'_>) -> io::Result<libc::stat> {
    let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: a valid descriptor and room for one `stat`.
    cvt(unsafe { libc::fstat(fd.as_raw_fd(), st.as_mut_ptr()) })?;
    // SAFETY: fstat succeeded, so it filled the `stat`.
    Ok(unsafe { st.assume_init() })
}

/// Opens the folder `name` in `at` (or from the working directory / root for `None`), never
/// through a link.
fn open_dir(at: Option<BorrowedFd<'_>>, name: &CStr) -> io::Result<OwnedFd> {
    let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    let at = at.map_or(libc::AT_FDCWD, |fd| fd.as_raw_fd());
    // SAFETY: a valid descriptor (or AT_FDCWD) and a NUL-terminated name, alive for the call.
    owned(unsafe { libc::openat(at, name.as_ptr(), flags) })
}

/// One name in a folder: not empty, no `/`, not `.` or `..`, no NUL.
fn component(name: &str) -> io::Result<CString> {
    if name.is_empty() || name.contains('/') || name == "." || name == ".." {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            crate::msg!(
                crate::msg::catalogue::edge::ERR_FILE_NOT_ONE_NAME,
                name = format_args!("{name:?}")
            ),
        ));
    }
    CString::new(name).map_err(|_| io::ErrorKind::InvalidInput.into())
}

fn owned(fd: libc::c_int) -> io::Result<OwnedFd> {
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a descriptor just returned by the kernel, owned by no one else.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

fn cvt(r: libc::c_int) -> io::Result<()> {
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests;
