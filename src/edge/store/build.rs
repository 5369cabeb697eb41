//! A new trail built before it is put in place (`urne keys init`, `urne trail restart`): in
//! memory, then written whole under a temporary name (`.<db>.init-<pid>`,
//! `.<db>.restart-<pid>`) and linked into place, every step relative to the trail folder's
//! descriptor (`edge::dir`, issue 22 item 3): the temporary file is created with
//! `O_CREAT|O_EXCL|O_NOFOLLOW` and synced, linked (`linkat`, which never replaces a name; on a
//! file system without hard links `renameat2(RENAME_NOREPLACE)`) and removed (`unlinkat`). A
//! temporary file a killed run left is removed by the next run: only a regular file with exactly
//! that name pattern and the pid of no running process, never through a link.

use super::{AuditLog, Binding, DB_MODE, check_file, configure, db_err};
use crate::edge::dir::{Dir, Kind};
use crate::edge::{fsio, staging};
use crate::error::{Error, Io, Result, io_error};
use crate::msg::catalogue::edge as m;
use rusqlite::Connection;
use std::io::Write;
use std::path::Path;

/// The commands that build a trail under a temporary name, by the tag of that name.
const TAGS: [(&str, &str); 2] = [
    ("init", "urne keys init"),
    ("restart", "urne trail restart"),
];

impl AuditLog {
    /// A new trail's database in memory, with urne's schema; `shown` names it in messages (the
    /// path it will be put at). [`AuditLog::place`] writes it there.
    pub fn create_in_memory(shown: &Path) -> Result<AuditLog> {
        let conn = Connection::open_in_memory().map_err(|e| db_err(shown, &m::ERR_DB_OPEN, e))?;
        configure(&conn, shown)?;
        conn.execute_batch(&format!(
            "PRAGMA page_size = 65536; BEGIN IMMEDIATE;\n{}\n{}\nCOMMIT;",
            super::SCHEMA,
            super::PENDING_SCHEMA
        ))
        .map_err(|e| db_err(shown, &m::ERR_DB_CREATE_SCHEMA, e))?;
        check_file(&conn, shown)?;
        let mut log = AuditLog::from_conn(conn, shown);
        log.file_id = None;
        Ok(log)
    }

    /// Writes a trail built in memory to `fin` (never replacing a file there), through the
    /// folder's descriptor (see the module's text; `tag` names the temporary file: `init` or
    /// `restart`), and opens it there, marking switched on.
    pub fn place(mut self, fin: &Path, tag: &str) -> Result<AuditLog> {
        let binding = self.binding;
        let fresh = self.fresh.take();
        let (dir, name) = trail_folder(fin)?;
        clear_temporaries(&dir, &name);
        let tmp = temporary_name(&name, tag);
        let written = write_image(&mut self, &dir, &tmp);
        drop(self);
        if let Err(e) = written.and_then(|()| link_into_place(&dir, &tmp, &name, fin)) {
            let _ = dir.unlink(&tmp);
            return Err(e);
        }
        dir.sync().map_err(|e| io_error(Io::SyncFolderOf, fin, e))?;
        let mut log = AuditLog::open_for_append(fin)?.ok_or_else(|| {
            Error::new(
                crate::error::Kind::TrailChanged,
                crate::msg!(m::ERR_BUILD_VANISHED, path = fin.display()),
                crate::msg!(m::REC_BUILD_AGAIN, command = command_of(tag)),
            )
        })?;
        log.binding = binding.map(|b| Binding { marking: true, ..b });
        log.fresh = fresh;
        Ok(log)
    }
}

/// The folder of the trail `db`, held by its descriptor (a symbolic link in its path refused,
/// exit 4; a missing folder, exit 2), and the trail's name in it. `keys init` and `trail
/// restart` check it before they change anything in the token.
pub fn trail_folder(db: &Path) -> Result<(Dir, String)> {
    let (dir_path, name) = fsio::split(db)?;
    let dir = fsio::existing_folder(&dir_path)?.ok_or_else(|| {
        Error::new(
            crate::error::Kind::NoTrailFolder,
            crate::msg!(m::ERR_BUILD_NO_FOLDER, path = dir_path.display()),
            crate::msg!(m::REC_BUILD_NO_FOLDER),
        )
    })?;
    Ok((dir, name))
}

/// The temporary name of the trail `name` while `tag`'s command writes it.
fn temporary_name(name: &str, tag: &str) -> String {
    format!(".{name}.{tag}-{}", std::process::id())
}

fn command_of(tag: &str) -> &'static str {
    TAGS.iter()
        .find(|(t, _)| *t == tag)
        .map_or("urne keys init", |(_, c)| c)
}

/// The whole database, new at `tmp` in `dir` (mode [`DB_MODE`] whatever the umask), synced.
fn write_image(log: &mut AuditLog, dir: &Dir, tmp: &str) -> Result<()> {
    let shown = dir.show(tmp);
    let image = log
        .conn
        .serialize(rusqlite::MAIN_DB)
        .map_err(|e| db_err(&shown, &m::ERR_DB_COPY, e))?;
    (|| {
        let mut f = dir.create_new(tmp, DB_MODE)?;
        f.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(DB_MODE))?;
        f.write_all(&image)?;
        f.sync_all()
    })()
    .map_err(|e| io_error(Io::CreateTrail, &shown, e))
}

/// Gives `tmp` the name `name` in `dir` without replacing anything, then removes `tmp`.
fn link_into_place(dir: &Dir, tmp: &str, name: &str, fin: &Path) -> Result<()> {
    let exists = || {
        Error::new(
            crate::error::Kind::OutputExists,
            crate::msg!(m::ERR_BUILD_EXISTS, path = fin.display()),
            crate::msg!(m::REC_BUILD_EXISTS),
        )
    };
    match dir.link_into(tmp, dir, name) {
        Ok(()) => dir
            .unlink(tmp)
            .map_err(|e| io_error(Io::Remove, &dir.show(tmp), e)),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(exists()),
        Err(e) if staging::no_hard_links(&e) => match dir.rename_noreplace(tmp, dir, name) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(exists()),
            Err(e) => Err(staging::rename_error(fin, e)),
        },
        Err(e) => Err(io_error(Io::PutTrail, fin, e)),
    }
}

/// Removes the temporary files of the trail at `db` that killed runs of `urne keys init` or
/// `urne trail restart` left (see [`clear_temporaries`]).
pub fn clear_temporaries_of(db: &Path) {
    let Ok((dir, name)) = fsio::split(db) else {
        return;
    };
    if let Ok(Some(dir)) = fsio::existing_folder(&dir) {
        clear_temporaries(&dir, &name);
    }
}

/// Removes, relative to `dir`, the temporary files of the trail `name` that killed runs left:
/// `.<name>.<tag>-<pid>` (or an earlier urne's journal of one, `-journal` after it), a regular
/// file, `<pid>` no running process's. Anything else is left; a link is never followed.
pub fn clear_temporaries(dir: &Dir, name: &str) {
    for n in dir.names().unwrap_or_default() {
        let Some(n) = n.to_str() else { continue };
        let Some((tag, pid)) = temporary_of(n, name) else {
            continue;
        };
        if pid != std::process::id() && staging::pid_running(pid) {
            continue;
        }
        let shown = dir.show(n);
        if dir.kind(n).ok().flatten() != Some(Kind::File) {
            note!(
                "{}",
                crate::msg!(m::SCR_BUILD_NOT_A_FILE, path = shown.display())
            );
            continue;
        }
        match dir.unlink(n) {
            Ok(()) => note!(
                "{}",
                crate::msg!(
                    m::SCR_BUILD_REMOVING,
                    path = shown.display(),
                    command = command_of(tag)
                )
            ),
            Err(e) => note!(
                "{}",
                crate::msg!(m::SCR_BUILD_CANNOT_REMOVE, path = shown.display(), e = e)
            ),
        }
    }
}

/// The tag and pid of `n` when it is a temporary name of the trail `name`.
fn temporary_of(n: &str, name: &str) -> Option<(&'static str, u32)> {
    let rest = n.strip_prefix('.')?.strip_prefix(name)?.strip_prefix('.')?;
    TAGS.iter().find_map(|(tag, _)| {
        let pid = rest.strip_prefix(tag)?.strip_prefix('-')?;
        let pid = pid.strip_suffix("-journal").unwrap_or(pid);
        let digits = !pid.is_empty() && pid.len() <= 10 && pid.bytes().all(|b| b.is_ascii_digit());
        digits
            .then(|| pid.parse().ok())
            .flatten()
            .map(|p| (*tag, p))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn only_the_temporaries_a_killed_run_left_are_removed_never_through_a_link() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path();
        let dir = Dir::open(p).unwrap();
        fs::create_dir(p.join("sentinel")).unwrap();
        fs::write(p.join("sentinel/key"), b"secret").unwrap();
        let running = std::process::id();
        // A parent process of this one is running (pid 1 always is).
        for n in [
            ".audit.db.init-4000000".to_string(),
            ".audit.db.restart-4000001".to_string(),
            ".audit.db.init-4000002-journal".to_string(),
            format!(".audit.db.restart-{running}"),
        ] {
            fs::write(p.join(n), b"left").unwrap();
        }
        for n in [
            ".audit.db.restart-1",
            ".audit.db.restart-4000003x",
            ".audit.db.restart-",
            ".other.db.init-4000000",
            "audit.db.init-4000000",
            ".audit.db.backup-4000000",
        ] {
            fs::write(p.join(n), b"kept").unwrap();
        }
        std::os::unix::fs::symlink(p.join("sentinel/key"), p.join(".audit.db.init-4000004"))
            .unwrap();
        std::os::unix::fs::symlink(p.join("sentinel"), p.join(".audit.db.restart-4000005"))
            .unwrap();
        clear_temporaries(&dir, "audit.db");
        let mut left: Vec<String> = dir
            .names()
            .unwrap()
            .into_iter()
            .map(|n| n.into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [
                ".audit.db.backup-4000000",
                ".audit.db.init-4000004",
                ".audit.db.restart-",
                ".audit.db.restart-1",
                ".audit.db.restart-4000003x",
                ".audit.db.restart-4000005",
                ".other.db.init-4000000",
                "audit.db.init-4000000",
                "sentinel",
            ]
        );
        assert_eq!(fs::read(p.join("sentinel/key")).unwrap(), b"secret");
    }

    #[test]
    fn a_trail_built_in_memory_is_put_in_place_through_the_folder_never_replacing_a_file() {
        use std::os::unix::fs::PermissionsExt;
        let t = tempfile::tempdir().unwrap();
        let fin = t.path().join("audit.db");
        let log = AuditLog::create_in_memory(&fin).unwrap();
        let log = log.place(&fin, "restart").unwrap();
        assert_eq!(log.events().unwrap().len(), 0);
        drop(log);
        assert_eq!(
            fs::metadata(&fin).unwrap().permissions().mode() & 0o777,
            DB_MODE
        );
        // Nothing else left in the folder; a second placement is refused, the file kept.
        let names: Vec<_> = fs::read_dir(t.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
        let before = fs::read(&fin).unwrap();
        let Err(e) = AuditLog::create_in_memory(&fin)
            .unwrap()
            .place(&fin, "init")
        else {
            panic!("placed over a file");
        };
        assert_eq!(e.kind, crate::error::Kind::OutputExists, "{}", e.message);
        assert_eq!(fs::read(&fin).unwrap(), before);
        assert_eq!(fs::read_dir(t.path()).unwrap().count(), 1);
        // A folder reached through a link is refused; nothing made where it leads.
        fs::create_dir(t.path().join("real")).unwrap();
        std::os::unix::fs::symlink(t.path().join("real"), t.path().join("link")).unwrap();
        let through = t.path().join("link/audit.db");
        let Err(e) = AuditLog::create_in_memory(&through)
            .unwrap()
            .place(&through, "init")
        else {
            panic!("placed through a link");
        };
        assert_eq!(e.kind, crate::error::Kind::SymbolicLink, "{}", e.message);
        assert_eq!(fs::read_dir(t.path().join("real")).unwrap().count(), 0);
    }
}
