//! One urne command at a time on a trail (spec/appliance.md §6.5): every command that opens the audit trail
//! or the token takes an exclusive lock on the trail's folder before anything else, the PKCS#11
//! module included (two logins at once can make SoftHSM's token look gone), and holds it until
//! the process ends. A second command finds the lock taken and stops at once with exit 6, having
//! done nothing: it never reports a trail that "fails", or no token, because another command was
//! writing.
//!
//! The lock is `flock(2)` on the folder, opened read-only: it creates no file (nothing to plant or
//! leave behind), it is released by the kernel when the process ends however it ends (a kill
//! included), and it is independent of SQLite's own POSIX locks on the database. The folder, not
//! the database, so that `keys init` and `trail restart`, which create the database, are locked
//! the same way. The token's marks read back by a child urne process (`Hsm::serve_fresh_read`)
//! run under the parent's lock and do not take it.

use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::edge as m;
use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

/// The lock, held while this value lives (the descriptor's close releases it).
#[derive(Debug)]
pub struct TrailLock {
    _folder: File,
}

/// The folder whose lock stands for the trail at `db`: its parent (the working directory for a
/// bare name).
pub fn folder_of(db: &Path) -> PathBuf {
    match db.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Takes the lock for the trail at `db`, or refuses with exit 6 when another process holds it.
/// A folder that is not there is not locked: the command then fails on the trail itself, with
/// that failure's own message. A folder there that cannot be opened to be locked (no read
/// permission) is refused (exit 5): no command runs on a trail it could not lock.
pub fn take(db: &Path) -> Result<Option<TrailLock>> {
    let folder = folder_of(db);
    let f = match open_folder(&folder) {
        Ok(f) => f,
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            return Ok(None);
        }
        Err(e) => {
            return Err(Error::new(
                Kind::SystemFailed,
                crate::msg!(m::ERR_LOCK_OPEN, path = db.display(), e = e),
                crate::msg!(m::REC_LOCK_OPEN),
            ));
        }
    };
    // SAFETY: flock on a descriptor this function owns; no memory is passed.
    let r = unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if r == 0 {
        return Ok(Some(TrailLock { _folder: f }));
    }
    let e = std::io::Error::last_os_error();
    if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
        return Err(busy_held_by(db, holder(&f)));
    }
    Err(Error::new(
        Kind::SystemFailed,
        crate::msg!(m::ERR_LOCK_FAILED, path = db.display(), e = e),
        crate::msg!(m::REC_LOCK_FAILED),
    ))
}

fn open_folder(folder: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_DIRECTORY | libc::O_CLOEXEC | libc::O_NOCTTY)
        .open(folder)
}

/// The refusal of a command that finds the lock taken (exit 6): nothing was read or recorded.
pub fn busy(db: &Path) -> Error {
    busy_held_by(db, None)
}

/// [`busy`], naming the process that holds the lock when `/proc/locks` says which: anyone who
/// can open the folder can lock it, and a process that is not urne's is named as such.
fn busy_held_by(db: &Path, holder: Option<Holder>) -> Error {
    let (message, hint) = match holder {
        Some(h) if h.name != "urne" => (
            crate::msg!(
                m::ERR_LOCK_HELD_BY_OTHER,
                pid = h.pid,
                name = format_args!("{:?}", h.name),
                path = db.display()
            ),
            crate::msg!(m::REC_LOCK_HELD_BY_OTHER),
        ),
        Some(h) => (
            crate::msg!(m::ERR_LOCK_HELD_BY_URNE, path = db.display(), pid = h.pid),
            crate::msg!(m::REC_LOCK_BUSY),
        ),
        None => (
            crate::msg!(m::ERR_LOCK_BUSY, path = db.display()),
            crate::msg!(m::REC_LOCK_BUSY),
        ),
    };
    Error::trail(Kind::Busy, message, hint)
}

/// The process that holds a `flock(2)` lock.
#[derive(Debug)]
struct Holder {
    pid: u32,
    /// Its command name (`/proc/PID/comm`).
    name: String,
}

/// Who holds the `flock` lock on `f`, from `/proc/locks` (the device and inode of `f`); `None`
/// when it cannot be told (the file unreadable, the holder gone meanwhile).
fn holder(f: &File) -> Option<Holder> {
    use std::os::unix::fs::MetadataExt;
    let m = f.metadata().ok()?;
    let (major, minor) = (libc::major(m.dev()), libc::minor(m.dev()));
    let locks = std::fs::read_to_string("/proc/locks").ok()?;
    let pid = holder_in(&locks, major, minor, m.ino())?;
    let name = std::fs::read_to_string(format!("/proc/{pid}/comm")).ok()?;
    Some(Holder {
        pid,
        name: name.trim_end_matches('\n').to_string(),
    })
}

/// The pid of the `FLOCK` line of `locks` (the text of `/proc/locks`: `N: FLOCK ADVISORY WRITE
/// PID MAJ:MIN:INODE START END`, the device's numbers in hex) on that device and inode.
fn holder_in(locks: &str, major: u32, minor: u32, ino: u64) -> Option<u32> {
    let want = format!("{major:02x}:{minor:02x}:{ino}");
    locks.lines().find_map(|line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        // A waiting request (`->` after the number) holds nothing.
        (f.len() >= 6 && f[1] == "FLOCK" && f[5] == want)
            .then(|| f[4].parse().ok())
            .flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_the_same_folder_is_refused_with_exit_6_until_the_first_is_dropped() {
        let d = tempfile::tempdir().unwrap();
        let db = d.path().join("urne-audit.db");
        let first = take(&db).unwrap().expect("a folder that opens is locked");
        let e = take(&db).unwrap_err();
        assert_eq!(e.kind, Kind::Busy);
        assert!(e.untouched);
        // Another name in the same folder is the same lock.
        let other = d.path().join("other.db");
        assert_eq!(take(&other).unwrap_err().kind, Kind::Busy);
        drop(first);
        assert!(take(&db).unwrap().is_some());
    }

    #[test]
    fn the_holder_is_found_in_proc_locks_and_named() {
        let locks = "1: POSIX  ADVISORY  WRITE 40 08:01:77 0 EOF\n\
                     2: FLOCK  ADVISORY  WRITE 4242 fd:01:1234 0 EOF\n\
                     2: -> FLOCK  ADVISORY  WRITE 99 fd:01:1234 0 EOF\n";
        assert_eq!(holder_in(locks, 0xfd, 1, 1234), Some(4242));
        assert_eq!(holder_in(locks, 8, 1, 77), None, "a POSIX lock is SQLite's");
        assert_eq!(holder_in(locks, 0xfd, 1, 1235), None);
        // This process's own lock, found through /proc/locks.
        let d = tempfile::tempdir().unwrap();
        let db = d.path().join("urne-audit.db");
        let _held = take(&db).unwrap().unwrap();
        let f = open_folder(d.path()).unwrap();
        if std::path::Path::new("/proc/locks").exists() {
            let h = holder(&f).expect("our own lock is listed");
            assert_eq!(h.pid, std::process::id());
            let e = busy_held_by(&db, Some(h));
            assert_eq!(e.kind, Kind::Busy);
            assert!(
                e.message
                    .starts_with(m::ERR_LOCK_HELD_BY_OTHER.fixed(crate::msg::lang())[0]),
                "{}",
                e.message
            );
        }
    }

    #[test]
    fn a_bare_name_is_locked_in_the_working_directory_and_a_missing_folder_not_at_all() {
        assert_eq!(folder_of(Path::new("urne-audit.db")), PathBuf::from("."));
        assert_eq!(folder_of(Path::new("a/b.db")), PathBuf::from("a"));
        let d = tempfile::tempdir().unwrap();
        assert!(
            take(&d.path().join("missing/urne-audit.db"))
                .unwrap()
                .is_none()
        );
    }
}
