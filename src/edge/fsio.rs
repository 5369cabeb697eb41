//! File-system edge: outputs appear whole or not at all, and nothing planted in an output folder
//! is ever followed, overwritten or removed through a link.
//!
//! Every folder urne writes in or cleans is held by a descriptor (`edge::dir::Dir`): opened one
//! component at a time with `O_DIRECTORY|O_NOFOLLOW` (a symbolic link in its path is refused,
//! exit 4), and everything below it is relative to that descriptor (issue 22, item 3). Outputs
//! are staged whole in a staging folder there and moved into place (`edge::staging`).

use crate::edge::dir::{self, Dir};
pub use crate::edge::staging::{
    STAGING_PREFIX, Staging, already_exists, clear_leftovers, exists_other_than, staging_leftovers,
};
use crate::error::{Error, Io, Kind, Result, io_error};
use crate::msg::catalogue::edge as m;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

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
    write_new(path, false, fill)
}

/// As [`write_atomic_with`], the file readable by its owner only (mode 0600).
pub fn write_private_with(
    path: &Path,
    fill: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> Result<()> {
    write_new(path, true, fill)
}

fn write_new(
    path: &Path,
    private: bool,
    fill: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> Result<()> {
    let (dir, name) = split(path)?;
    let dir = out_folder(&dir)?;
    if !matches!(dir.kind(&name), Ok(None)) {
        return Err(already_exists(path));
    }
    let mut st = Staging::new(&dir)?;
    if private {
        st = st.private();
    }
    st.write_with(&name, fill)?;
    st.publish(&[name.as_str()])
}

/// The output folder `dir`, made if missing, held by its descriptor (see [`Dir`]): a symbolic
/// link in its path is refused (exit 4).
pub fn out_folder(dir: &Path) -> Result<Dir> {
    Dir::open_or_create(dir).map_err(|e| dir::folder_error(dir, e))
}

/// The existing folder `dir` held by its descriptor, `None` when nothing has that path; a
/// symbolic link in its path is refused (exit 4).
pub fn existing_folder(dir: &Path) -> Result<Option<Dir>> {
    match Dir::open(dir) {
        Ok(d) => Ok(Some(d)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(dir::folder_error(dir, e)),
    }
}

/// Reads the regular file `name` of the folder `dir` held by its descriptor (never through a
/// link), within the limit of its kind (spec/formats.md §1.6).
pub fn read_in(dir: &Path, name: &str) -> Result<Vec<u8>> {
    let path = dir.join(name);
    let d = Dir::open(dir).map_err(|e| dir::folder_error(dir, e))?;
    d.read(name, urne_verify::verify::folder::limits::of(name))
        .map_err(|e| io_error(Io::Read, &path, e))
}

/// True when something (anything: a link is not followed) has the name `name` in the folder
/// `dir`; false when `dir` does not exist.
pub fn name_taken(dir: &Path, name: &str) -> Result<bool> {
    Ok(existing_folder(dir)?.is_some_and(|d| !matches!(d.kind(name), Ok(None))))
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
        .ok_or_else(|| {
            Error::new(
                Kind::NotRegularFile,
                crate::msg!(m::ERR_FILE_NOT_A_NAME, path = path.display()),
                crate::msg!(m::REC_FILE_NOT_A_NAME),
            )
        })?;
    Ok((dir, name))
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
            .map_err(|e| io_error(Io::ReadWorkdir, p, e))?
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
    read_within(path, urne_verify::verify::folder::limits::of(&name))
}

/// Reads a whole regular file of at most `limit` bytes (spec/formats.md §1.6): a FIFO, a device, a
/// folder or a larger file is refused from its metadata, never read.
pub fn read_within(path: &Path, limit: u64) -> Result<Vec<u8>> {
    use urne_verify::verify::folder::read_bounded;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let folder = crate::edge::folder::DiskFolder::input(dir);
    // Never blocks on a FIFO, never reads past the limit of the file's kind (spec/formats.md §1.6).
    match read_bounded(&folder, &name, limit) {
        Ok(Some(b)) => Ok(b),
        Ok(None) => fs::read(path).map_err(|e| io_error(Io::Read, path, e)),
        Err(f) => Err(Error::new(
            Kind::NotRegularFile,
            f.what,
            crate::msg!(m::REC_FILE_NOT_REGULAR),
        )),
    }
}

/// Refuses (exit 4) when `out` exists and holds anything but staging leftovers (listed through
/// its descriptor; a symbolic link in its path is refused).
pub fn check_empty_or_absent(out: &Path) -> Result<()> {
    let Some(d) = existing_folder(out)? else {
        return Ok(());
    };
    let empty = d
        .names()
        .map_err(|e| io_error(Io::Read, out, e))?
        .iter()
        .all(|n| n.to_string_lossy().starts_with(STAGING_PREFIX));
    if !empty {
        return Err(Error::new(
            Kind::OutputFolderNotEmpty,
            crate::msg!(m::ERR_OUTPUT_NOT_EMPTY, path = out.display()),
            crate::msg!(m::REC_OUTPUT_NOT_EMPTY),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_folder_through_a_link_is_refused() {
        let d = tempfile::tempdir().unwrap();
        fs::create_dir(d.path().join("real")).unwrap();
        std::os::unix::fs::symlink(d.path().join("real"), d.path().join("link")).unwrap();
        let e = write_atomic(&d.path().join("link/f"), b"x").unwrap_err();
        assert_eq!(e.kind, crate::error::Kind::SymbolicLink, "{e:?}");
        assert!(!d.path().join("real/f").exists());
        assert!(out_folder(&d.path().join("link/new")).is_err());
        assert!(!d.path().join("real/new").exists());
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
}
