//! The database file as one consistent image, read in bounded chunks (`urne audit backup`):
//! inside one read transaction, which holds SQLite's shared lock, so that no other process can
//! commit meanwhile (the journal mode is DELETE: a committed transaction is wholly in the file),
//! read through SQLite's own descriptor of the file (`SQLITE_FCNTL_FILE_POINTER`, then the VFS's
//! `xRead`), never by opening its path again: the bytes are those of the file the command opened
//! and checked, and no second descriptor of it is closed under SQLite's locks.

use super::AuditLog;
use super::schema::db_err;
use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::edge as m;
use rusqlite::ffi;

/// The size of the chunks a snapshot is read in: what the backup holds in memory at once.
pub const CHUNK: usize = 1 << 20;

/// The database file inside a read transaction (see the module's text).
pub struct Snapshot<'a> {
    log: &'a AuditLog,
    file: *mut ffi::sqlite3_file,
    len: u64,
}

impl AuditLog {
    /// Runs `f` on the file as it stands inside one read transaction, which `f`'s reads of the
    /// trail (e.g. [`AuditLog::events`]) share: what they read is what the snapshot holds.
    pub fn with_snapshot<T>(&self, f: impl FnOnce(&Snapshot) -> Result<T>) -> Result<T> {
        let fail = |e| db_err(&self.path, &m::ERR_DB_COPY, e);
        self.conn.execute_batch("BEGIN DEFERRED;").map_err(fail)?;
        let r = (|| {
            // The first read takes the shared lock, held until the transaction ends.
            self.conn
                .query_row("SELECT count(*) FROM main.sqlite_schema", [], |_| Ok(()))
                .map_err(fail)?;
            let snap = self.snapshot()?;
            f(&snap)
        })();
        let _ = self.conn.execute_batch("ROLLBACK;");
        r
    }

    fn snapshot(&self) -> Result<Snapshot<'_>> {
        let mut file: *mut ffi::sqlite3_file = std::ptr::null_mut();
        // SAFETY: the connection's handle is valid while `self` is; the file control writes one
        // pointer into `file`, which outlives the call.
        let rc = unsafe {
            ffi::sqlite3_file_control(
                self.conn.handle(),
                c"main".as_ptr(),
                ffi::SQLITE_FCNTL_FILE_POINTER,
                (&raw mut file).cast(),
            )
        };
        // SAFETY: a non-null pointer SQLite returned is its open file, alive while the
        // connection is; its methods table is SQLite's.
        let size = (rc == ffi::SQLITE_OK && !file.is_null())
            .then(|| unsafe { (*file).pMethods.as_ref() }.and_then(|m| m.xFileSize))
            .flatten();
        let Some(size) = size else {
            return Err(self.copy_error(&crate::msg!(m::ERR_COPY_NO_DESCRIPTOR)));
        };
        let mut len: ffi::sqlite3_int64 = 0;
        // SAFETY: SQLite's own method on its own open file, and room for one size.
        let rc = unsafe { size(file, &raw mut len) };
        if rc != ffi::SQLITE_OK || len < 0 {
            return Err(self.copy_error(&crate::msg!(m::ERR_COPY_SIZE, rc = rc)));
        }
        Ok(Snapshot {
            log: self,
            file,
            len: len.cast_unsigned(),
        })
    }

    fn copy_error(&self, what: &str) -> Error {
        Error::new(
            Kind::StoreFailed,
            crate::msg!(m::ERR_COPY, path = self.path.display(), what = what),
            crate::msg!(m::REC_COPY),
        )
    }
}

impl Snapshot<'_> {
    /// The file's size in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True when the file is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Fills `buf` with the bytes at `offset` (all within the file).
    pub fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<()> {
        let end = offset.checked_add(buf.len() as u64);
        if end.is_none_or(|e| e > self.len) || buf.len() > CHUNK {
            return Err(self.log.copy_error(&crate::msg!(m::ERR_COPY_PAST_END)));
        }
        // SAFETY: the file pointer is SQLite's, alive while the connection (borrowed by `self`)
        // is; its methods table is SQLite's.
        let read = unsafe { (*self.file).pMethods.as_ref() }.and_then(|m| m.xRead);
        let Some(read) = read else {
            return Err(self.log.copy_error(&crate::msg!(m::ERR_COPY_NO_READ)));
        };
        // SAFETY: SQLite's own method on its own open file, writing at most `buf.len()` (at most
        // CHUNK, so it fits an int) bytes into `buf`.
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_possible_wrap,
            reason = "at most CHUNK bytes (checked above), which fits an int"
        )]
        let rc = unsafe {
            read(
                self.file,
                buf.as_mut_ptr().cast(),
                buf.len() as std::ffi::c_int,
                offset.cast_signed(),
            )
        };
        if rc != ffi::SQLITE_OK {
            return Err(self.log.copy_error(&crate::msg!(
                m::ERR_COPY_READ_AT,
                len = buf.len(),
                offset = offset,
                rc = rc
            )));
        }
        Ok(())
    }

    /// Writes the whole file to `w`, chunk by chunk.
    pub fn copy_to(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        let mut buf = vec![0u8; CHUNK];
        let mut offset = 0;
        while offset < self.len {
            let n = usize::try_from(self.len - offset).map_or(CHUNK, |left| left.min(CHUNK));
            self.read_at(offset, &mut buf[..n])
                .map_err(|e| std::io::Error::other(e.message))?;
            w.write_all(&buf[..n])?;
            offset += n as u64;
        }
        Ok(())
    }

    /// True when `r` holds exactly the file's bytes, compared chunk by chunk (at most `len` + 1
    /// bytes read from it).
    pub fn same_as(&self, r: &mut dyn std::io::Read) -> Result<bool> {
        let (mut mine, mut theirs) = (vec![0u8; CHUNK], vec![0u8; CHUNK]);
        let mut offset = 0;
        while offset < self.len {
            let n = usize::try_from(self.len - offset).map_or(CHUNK, |left| left.min(CHUNK));
            self.read_at(offset, &mut mine[..n])?;
            match r.read_exact(&mut theirs[..n]) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(false),
                Err(e) => {
                    return Err(self
                        .log
                        .copy_error(&crate::msg!(m::ERR_COPY_READ_BACK, e = e)));
                }
            }
            if mine[..n] != theirs[..n] {
                return Ok(false);
            }
            offset += n as u64;
        }
        // Nothing after the end.
        let mut one = [0u8; 1];
        loop {
            match r.read(&mut one) {
                Ok(0) => return Ok(true),
                Ok(_) => return Ok(false),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(self
                        .log
                        .copy_error(&crate::msg!(m::ERR_COPY_READ_BACK, e = e)));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rusqlite::Connection;

    #[test]
    fn a_snapshot_copies_and_compares_the_file_chunk_by_chunk() {
        let t = tempfile::tempdir().unwrap();
        let db = t.path().join("audit.db");
        let log = AuditLog::create(&db).unwrap();
        // More than two chunks, written by another connection (this test's own table).
        let other = Connection::open(&db).unwrap();
        other
            .execute_batch(
                "CREATE TABLE filler (b BLOB); INSERT INTO filler VALUES (randomblob(2500000));",
            )
            .unwrap();
        let on_disk = std::fs::read(&db).unwrap();
        assert!(on_disk.len() > 2 * CHUNK);
        log.with_snapshot(|snap| {
            assert_eq!(snap.len(), on_disk.len() as u64);
            let mut copy = vec![];
            snap.copy_to(&mut copy).unwrap();
            assert!(copy == on_disk, "the copy is the file");
            assert!(snap.same_as(&mut copy.as_slice())?);
            // One byte changed in the last chunk, one missing, one more: each told.
            let mut changed = copy.clone();
            *changed.last_mut().unwrap() ^= 1;
            assert!(!snap.same_as(&mut changed.as_slice())?);
            assert!(!snap.same_as(&mut &copy[..copy.len() - 1])?);
            let mut longer = copy.clone();
            longer.push(0);
            assert!(!snap.same_as(&mut longer.as_slice())?);
            assert!(snap.read_at(snap.len() - 1, &mut [0u8; 2]).is_err());
            // No other process commits while it is held.
            let busy =
                other.execute_batch("PRAGMA busy_timeout = 0; INSERT INTO filler VALUES (1);");
            assert!(busy.is_err(), "a write committed under the snapshot");
            Ok(())
        })
        .unwrap();
        other
            .execute_batch("INSERT INTO filler VALUES (1);")
            .unwrap();
    }
}
