//! File-system edge: atomic writes (write to a temporary file in the same folder, fsync, rename,
//! fsync the folder), so an output is either complete or absent, never half-written.

use crate::error::{Result, io_error};
use std::fs::{self, File};
use std::io::Write;
use std::path::Path;

/// Writes `bytes` to `path` atomically. Refuses to replace an existing file unless `overwrite`.
pub fn write_atomic(path: &Path, bytes: &[u8], overwrite: bool) -> Result<()> {
    write_atomic_with(path, overwrite, |f| f.write_all(bytes))
}

/// Writes through `fill` to a temporary file, then renames it to `path` atomically.
pub fn write_atomic_with(
    path: &Path,
    overwrite: bool,
    fill: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> Result<()> {
    if !overwrite && path.exists() {
        return Err(crate::error::Error::refused(
            format!("{} already exists", path.display()),
            "outputs are never overwritten: choose an empty --out folder",
        ));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let res = (|| -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        fill(&mut f)?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)?;
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if let Err(e) = res {
        let _ = fs::remove_file(&tmp);
        return Err(io_error("write", path, e));
    }
    Ok(())
}

/// Creates the output folder (and parents) if missing.
pub fn ensure_dir(dir: &Path) -> Result<()> {
    fs::create_dir_all(dir).map_err(|e| io_error("create folder", dir, e))
}

/// Reads a whole (small) file.
pub fn read(path: &Path) -> Result<Vec<u8>> {
    fs::read(path).map_err(|e| io_error("read", path, e))
}

/// A fresh staging folder beside `out` (same file system, so it can be renamed onto `out`).
/// Refuses at once if `out` exists and is not empty.
pub fn staging_dir(out: &Path) -> Result<std::path::PathBuf> {
    check_empty_or_absent(out)?;
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    ensure_dir(&parent)?;
    let staging = parent.join(format!(".{name}.partial-{}", std::process::id()));
    if staging.exists() {
        fs::remove_dir_all(&staging).map_err(|e| io_error("clear", &staging, e))?;
    }
    ensure_dir(&staging)?;
    Ok(staging)
}

/// Refuses (exit 4) when `out` exists and is not empty.
pub fn check_empty_or_absent(out: &Path) -> Result<()> {
    if out.exists() {
        let empty = fs::read_dir(out)
            .map_err(|e| io_error("read", out, e))?
            .next()
            .is_none();
        if !empty {
            return Err(crate::error::Error::refused(
                format!("{} already exists and is not empty", out.display()),
                "outputs are never overwritten: give a new or empty --out folder",
            ));
        }
    }
    Ok(())
}

/// Renames a complete staging folder onto `out` (absent or empty), then syncs the parent.
pub fn publish_dir(staging: &Path, out: &Path) -> Result<()> {
    check_empty_or_absent(out)?;
    if out.exists() {
        fs::remove_dir(out).map_err(|e| io_error("replace", out, e))?;
    }
    fs::rename(staging, out).map_err(|e| io_error("publish", out, e))?;
    if let Some(p) = out.parent()
        && let Ok(d) = File::open(if p.as_os_str().is_empty() {
            Path::new(".")
        } else {
            p
        })
    {
        let _ = d.sync_all();
    }
    Ok(())
}
