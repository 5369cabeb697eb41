//! File-system edge: outputs appear whole or not at all, and nothing planted in an output folder
//! is ever followed or overwritten.
//!
//! Every output is first written into a fresh staging folder inside its output folder
//! (`.urne-staging-<pid>-<n>`, made with `create_dir`, which fails on any existing name, a
//! symlink included: urne then picks the next name; mode 0700). Each file is created there with
//! `create_new` (O_CREAT|O_EXCL: refused on any existing name, a dangling symlink included, so
//! no symlink is ever followed; std only, no O_NOFOLLOW needed on top) and synced. Then each file
//! is moved into place, in the order the caller gives, by a hard link (`link(2)` fails when the
//! target name exists, whatever it is: nothing is replaced) and the removal of its staging name;
//! then the folder is synced and the staging folder removed. A staging folder left by a killed
//! command is removed by the next command that writes into the same folder.

use crate::error::{Error, Result, io_error};
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The name prefix of a staging folder (SPEC.md §4.7, §5.B9).
pub const STAGING_PREFIX: &str = ".urne-staging-";

/// A staging folder inside an output folder, holding files not yet published.
pub struct Staging {
    out: PathBuf,
    dir: PathBuf,
    names: Vec<String>,
    published: bool,
    /// Files created only their owner can read (mode 0600): a secret output.
    private: bool,
}

impl Staging {
    /// Removes the leftovers of interrupted commands in `out` (created if missing), then makes
    /// a fresh staging folder there.
    pub fn new(out: &Path) -> Result<Staging> {
        ensure_dir(out)?;
        clear_leftovers(out);
        let pid = std::process::id();
        for n in 0..1000u32 {
            let dir = out.join(format!("{STAGING_PREFIX}{pid}-{n}"));
            match make_private_dir(&dir) {
                Ok(()) => {
                    return Ok(Staging {
                        out: out.to_path_buf(),
                        dir,
                        names: vec![],
                        published: false,
                        private: false,
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(io_error("create staging folder", &dir, e)),
            }
        }
        Err(Error::refused(
            format!("no free staging folder name in {}", out.display()),
            "remove the .urne-staging-* entries from the output folder",
        ))
    }

    /// Every file staged from now on is created with mode 0600 (a secret output, e.g. a block's
    /// production file); the final name is a link to the same file, so it keeps that mode.
    pub fn private(mut self) -> Staging {
        self.private = true;
        self
    }

    /// Writes `bytes` as the staged file `name` (created new, synced).
    pub fn write(&mut self, name: &str, bytes: &[u8]) -> Result<()> {
        self.write_with(name, |f| f.write_all(bytes))
    }

    /// Writes the staged file `name` through `fill` (created new, synced).
    pub fn write_with(
        &mut self,
        name: &str,
        fill: impl FnOnce(&mut File) -> std::io::Result<()>,
    ) -> Result<()> {
        check_name(name)?;
        let p = self.dir.join(name);
        let private = self.private;
        let res = (|| {
            let mut o = OpenOptions::new();
            o.write(true).create_new(true);
            #[cfg(unix)]
            if private {
                std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
            }
            let mut f = o.open(&p)?;
            fill(&mut f)?;
            f.sync_all()
        })();
        match res {
            Ok(()) => {
                self.names.push(name.to_string());
                Ok(())
            }
            Err(e) => Err(io_error("write", &self.out.join(name), e)),
        }
    }

    /// Moves every staged file into the output folder in the order of `order` (which must list
    /// exactly the staged files), never replacing an existing name, then removes the staging
    /// folder. A final name that already holds the very same bytes (a regular file) is kept as it
    /// is: a run resumed after a kill rewrites identical files. A final name that holds anything
    /// else is refused (exit 4); files moved before it stay, each complete.
    pub fn publish(mut self, order: &[&str]) -> Result<()> {
        let mut want: Vec<&str> = order.to_vec();
        want.sort_unstable();
        let mut have: Vec<&str> = self.names.iter().map(String::as_str).collect();
        have.sort_unstable();
        if want != have {
            return Err(Error::internal(
                "publish order does not list the staged files",
                "this is a defect; nothing was published",
            ));
        }
        for name in order {
            let (staged, fin) = (self.dir.join(name), self.out.join(name));
            if place(&staged, &fin)? == Placed::Linked {
                fs::remove_file(&staged).map_err(|e| io_error("remove", &staged, e))?;
            }
        }
        sync_dir(&self.out);
        fs::remove_dir(&self.dir).map_err(|e| io_error("remove", &self.dir, e))?;
        sync_dir(&self.out);
        self.published = true;
        Ok(())
    }
}

impl Drop for Staging {
    /// On an error before publication the staged files and their folder are removed.
    fn drop(&mut self) {
        if !self.published {
            for n in &self.names {
                let _ = fs::remove_file(self.dir.join(n));
            }
            let _ = fs::remove_dir(&self.dir);
        }
    }
}

/// A staged file's name: one plain component, never a staging name.
fn check_name(name: &str) -> Result<()> {
    if name.is_empty() || name.contains('/') || name == ".." || name.starts_with(STAGING_PREFIX) {
        return Err(Error::internal(
            format!("bad output file name {name:?}"),
            "this is a defect",
        ));
    }
    Ok(())
}

/// A folder only its owner can enter; fails if the name exists (whatever it is).
fn make_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut b = fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    b.create(dir)
}

/// How a staged file reached its final name.
#[derive(PartialEq, Eq)]
enum Placed {
    /// Hard-linked (the staged name is still there, to be removed).
    Linked,
    /// Renamed (file systems without hard links), or already there with the same bytes.
    Moved,
}

/// Puts `staged` at `fin` without replacing anything: a hard link, which fails if the name
/// exists (a file, a directory or a symlink: nothing is ever written through a planted link).
fn place(staged: &Path, fin: &Path) -> Result<Placed> {
    match fs::hard_link(staged, fin) {
        Ok(()) => Ok(Placed::Linked),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            if same_regular_file_bytes(fin, staged) {
                fs::remove_file(staged).map_err(|e| io_error("remove", staged, e))?;
                return Ok(Placed::Moved);
            }
            if remove_orphan_signature(fin)? {
                fs::hard_link(staged, fin).map_err(|e| exists_or_io(fin, e))?;
                return Ok(Placed::Linked);
            }
            Err(already_exists(fin))
        }
        Err(e) if no_hard_links(&e) => rename_if_absent(staged, fin),
        Err(e) => Err(io_error("publish", fin, e)),
    }
}

/// The file system has no hard links (FAT and exFAT USB media answer EPERM, others ENOTSUP).
fn no_hard_links(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::Unsupported
    )
}

/// The fallback where hard links do not exist: a rename, only if nothing has the final name.
/// Those file systems have no symbolic links either, so no link can be planted there; what is
/// left is a file created under that name between the check and the rename, by someone writing
/// into the output folder at that very moment.
fn rename_if_absent(staged: &Path, fin: &Path) -> Result<Placed> {
    match fs::symlink_metadata(fin) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            fs::rename(staged, fin).map_err(|e| io_error("publish", fin, e))?;
            Ok(Placed::Moved)
        }
        Ok(_) => Err(already_exists(fin)),
        Err(e) => Err(io_error("publish", fin, e)),
    }
}

/// A `X.sig` whose `X` is absent is the signature of a file a killed command never published:
/// the resumed command replaces it (a regular file only, never through a symlink; said on stderr).
fn remove_orphan_signature(fin: &Path) -> Result<bool> {
    let name = fin.to_string_lossy();
    let Some(signed) = name.strip_suffix(".sig") else {
        return Ok(false);
    };
    let is_file = fs::symlink_metadata(fin).is_ok_and(|m| m.file_type().is_file());
    if !is_file || fs::symlink_metadata(signed).is_ok() {
        return Ok(false);
    }
    fs::remove_file(fin).map_err(|e| io_error("remove", fin, e))?;
    note!(
        "note: removed {}, the signature of a file an interrupted command never published",
        fin.display()
    );
    Ok(true)
}

fn exists_or_io(fin: &Path, e: std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::AlreadyExists {
        already_exists(fin)
    } else {
        io_error("publish", fin, e)
    }
}

fn already_exists(p: &Path) -> Error {
    Error::refused(
        format!("{} already exists", p.display()),
        "outputs are never overwritten: give an empty --out folder",
    )
}

/// True when `a` is a regular file (not a symlink) with exactly the bytes of `b`.
fn same_regular_file_bytes(a: &Path, b: &Path) -> bool {
    let regular = fs::symlink_metadata(a).is_ok_and(|m| m.file_type().is_file());
    regular && matches!((fs::read(a), fs::read(b)), (Ok(x), Ok(y)) if x == y)
}

/// True when `p` exists as anything but a regular file holding exactly `bytes`.
pub fn exists_other_than(p: &Path, bytes: &[u8]) -> bool {
    match fs::symlink_metadata(p) {
        Err(_) => false,
        Ok(m) => !m.file_type().is_file() || fs::read(p).map_or(true, |x| x != bytes),
    }
}

fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// The staging folders (names) found directly in `dir`.
pub fn staging_leftovers(dir: &Path) -> Vec<String> {
    let Ok(rd) = fs::read_dir(dir) else {
        return vec![];
    };
    let mut v: Vec<String> = rd
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(STAGING_PREFIX))
        .collect();
    v.sort();
    v
}

/// Removes the staging folders left in `out` by killed commands (not those of a running urne
/// process, named by their pid): only a real folder, not a symlink, and only the files directly
/// inside it. Says so on stderr.
pub fn clear_leftovers(out: &Path) {
    for name in staging_leftovers(out) {
        let p = out.join(&name);
        if staging_pid_running(&name) {
            continue;
        }
        let is_dir = fs::symlink_metadata(&p).is_ok_and(|m| m.file_type().is_dir());
        if !is_dir {
            note!(
                "note: {} is not a staging folder urne made (not a folder); left untouched",
                p.display()
            );
            continue;
        }
        if let Ok(rd) = fs::read_dir(&p) {
            for e in rd.filter_map(|e| e.ok()) {
                if e.file_type().is_ok_and(|t| !t.is_dir()) {
                    let _ = fs::remove_file(e.path());
                }
            }
        }
        match fs::remove_dir(&p) {
            Ok(()) => note!(
                "note: removed {}, the staging folder of an interrupted command (its files were never published)",
                p.display()
            ),
            Err(e) => note!(
                "note: could not remove the staging folder {}: {e}",
                p.display()
            ),
        }
    }
}

/// True when the staging folder's name carries the pid of another running process.
fn staging_pid_running(name: &str) -> bool {
    let pid = name
        .strip_prefix(STAGING_PREFIX)
        .and_then(|r| r.split('-').next())
        .and_then(|p| p.parse::<u32>().ok());
    match pid {
        Some(p) if p != std::process::id() => Path::new(&format!("/proc/{p}")).exists(),
        _ => false,
    }
}

/// Writes `bytes` to `path` whole or not at all (staged in its folder); refuses to replace
/// anything already there.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with(path, |f| f.write_all(bytes))
}

/// Writes `path` through `fill`, whole or not at all (staged in its folder).
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> Result<()> {
    let (dir, name) = split(path)?;
    if fs::symlink_metadata(path).is_ok() {
        return Err(already_exists(path));
    }
    let mut st = Staging::new(&dir)?;
    st.write_with(&name, fill)?;
    st.publish(&[name.as_str()])
}

/// A file path's folder and name.
pub fn split(path: &Path) -> Result<(PathBuf, String)> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| Error::bad_input(format!("{} is not a file name", path.display()), ""))?;
    Ok((dir, name))
}

/// Creates the output folder (and parents) if missing.
pub fn ensure_dir(dir: &Path) -> Result<()> {
    fs::create_dir_all(dir).map_err(|e| io_error("create folder", dir, e))
}

/// `p` as the file system resolves it: made absolute against the working directory, its longest
/// existing ancestor with every symbolic link followed (`canonicalize`), and the components that
/// do not exist yet appended, `.` and `..` among them taken lexically (as `create_dir_all` would
/// take them). Two folders given in different spellings, or through a link, compare equal.
pub fn resolve(p: &Path) -> Result<PathBuf> {
    let abs = if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir()
            .map_err(|e| io_error("read the working directory for", p, e))?
            .join(p)
    };
    let comps: Vec<std::path::Component> = abs.components().collect();
    // The root always resolves, so some prefix does.
    let (mut out, rest) = (1..=comps.len())
        .rev()
        .find_map(|k| {
            let prefix: PathBuf = comps[..k].iter().collect();
            fs::canonicalize(prefix).ok().map(|r| (r, &comps[k..]))
        })
        .unwrap_or_else(|| (abs.clone(), &comps[comps.len()..]));
    for c in rest {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::Normal(n) => out.push(n),
            _ => {}
        }
    }
    Ok(out)
}

/// The device (file system) holding `p` or, when `p` does not exist yet, its nearest existing
/// ancestor.
pub fn device_of(p: &Path) -> Option<u64> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        p.ancestors()
            .find_map(|a| fs::metadata(a).ok())
            .map(|m| m.dev())
    }
    #[cfg(not(unix))]
    {
        let _ = p;
        None
    }
}

/// Reads a whole (small) file.
pub fn read(path: &Path) -> Result<Vec<u8>> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    read_within(path, urne_core::verify::folder::limits::of(&name))
}

/// Reads a whole regular file of at most `limit` bytes (SPEC.md §1.6): a FIFO, a device, a
/// folder or a larger file is refused from its metadata, never read.
pub fn read_within(path: &Path, limit: u64) -> Result<Vec<u8>> {
    use urne_core::verify::folder::read_bounded;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let folder = crate::edge::folder::DiskFolder::new(dir);
    // Never blocks on a FIFO, never reads past the limit of the file's kind (SPEC.md §1.6).
    match read_bounded(&folder, &name, limit) {
        Ok(Some(b)) => Ok(b),
        Ok(None) => fs::read(path).map_err(|e| io_error("read", path, e)),
        Err(f) => Err(Error::bad_input(
            f.what,
            "give the regular file urne or production wrote, not a device, a FIFO or a larger file",
        )),
    }
}

/// Refuses (exit 4) when `out` exists and holds anything but staging leftovers.
pub fn check_empty_or_absent(out: &Path) -> Result<()> {
    if out.exists() {
        let empty = fs::read_dir(out)
            .map_err(|e| io_error("read", out, e))?
            .filter_map(|e| e.ok())
            .all(|e| e.file_name().to_string_lossy().starts_with(STAGING_PREFIX));
        if !empty {
            return Err(Error::refused(
                format!("{} already exists and is not empty", out.display()),
                "outputs are never overwritten: give a new or empty --out folder (after an interrupted draw, run it again with the same --out: an output it left whole there is recorded as published)",
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fallback_without_hard_links_never_replaces_a_name() {
        let d = tempfile::tempdir().unwrap();
        let staged = d.path().join("staged");
        let fin = d.path().join("result.json");
        fs::write(&staged, b"new").unwrap();
        // Something already has the name: a file, or a (dangling) symlink: refused, untouched.
        fs::write(&fin, b"old").unwrap();
        assert!(rename_if_absent(&staged, &fin).is_err());
        assert_eq!(fs::read(&fin).unwrap(), b"old");
        fs::remove_file(&fin).unwrap();
        std::os::unix::fs::symlink(d.path().join("elsewhere"), &fin).unwrap();
        assert!(rename_if_absent(&staged, &fin).is_err());
        assert!(!d.path().join("elsewhere").exists());
        fs::remove_file(&fin).unwrap();
        // The name is free: the staged file moves there.
        assert!(rename_if_absent(&staged, &fin).unwrap() == Placed::Moved);
        assert_eq!(fs::read(&fin).unwrap(), b"new");
        assert!(!staged.exists());
    }

    #[test]
    fn a_folder_resolves_the_same_however_spelled_and_through_links() {
        let d = tempfile::tempdir().unwrap();
        let real = fs::canonicalize(d.path()).unwrap();
        fs::create_dir(real.join("pub")).unwrap();
        std::os::unix::fs::symlink(real.join("pub"), real.join("link")).unwrap();
        // Existing, through a link, and not existing yet (`.` and `..` taken lexically).
        assert_eq!(resolve(&real.join("link")).unwrap(), real.join("pub"));
        assert_eq!(
            resolve(&real.join("link/new/./x/../y")).unwrap(),
            real.join("pub/new/y")
        );
        assert_eq!(
            resolve(&real.join("absent/../pub/")).unwrap(),
            real.join("pub")
        );
        assert!(
            resolve(&real.join("link/m"))
                .unwrap()
                .starts_with(real.join("pub"))
        );
    }

    #[test]
    fn a_file_system_without_hard_links_is_recognised() {
        // What link(2) answers on FAT and exFAT (EPERM) and elsewhere (ENOTSUP); an existing
        // name is not such a case.
        assert!(no_hard_links(&std::io::Error::from_raw_os_error(1)));
        assert!(no_hard_links(&std::io::Error::from_raw_os_error(95)));
        assert!(!no_hard_links(&std::io::Error::from_raw_os_error(17)));
    }
}
