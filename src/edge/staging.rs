//! Staging folders (spec/appliance.md §4.7, §5.B9): an output is written whole into a fresh staging folder
//! inside its output folder (`.urne-staging-<pid>-<n>`, `<n>` 64 random bits, made with
//! `mkdirat`, which fails on any existing name, a link included: urne then picks another name;
//! mode 0700), opened by its own descriptor relative to the output folder's (`O_NOFOLLOW`) and
//! checked on it: a folder of urne's user that neither group nor others may write in, or refused. Each file is created there with `O_CREAT|O_EXCL|O_NOFOLLOW`, written, and its
//! write-back to the medium started (`sync_file_range`), without waiting. When the output is
//! published, every staged file is first made durable (`fsync` each: on ext4 the later ones find their
//! data written already and their metadata in the journal commit the first one waited for), then
//! each is moved into place, in the order the caller gives, by a hard link (`linkat`, which fails
//! when the target name exists, whatever it is: nothing is replaced) and the removal of its
//! staging name; then the folder is synced (the names in place durable before the caller records
//! the output as published) and the staging folder removed (not synced: an empty staging folder
//! a power cut brings back is a leftover as any other). A staging folder left
//! by a killed command is removed by the next command that writes into the same folder: opened
//! relative to the output folder's descriptor (a link there is left alone), its files removed
//! relative to its own descriptor, then the folder itself (`unlinkat(AT_REMOVEDIR)`, which a link
//! swapped in meanwhile fails). Every step is relative to a descriptor (`edge::dir`): a link
//! exchanged for any of these names at any moment is never followed (issue 22, item 3).

use crate::edge::dir::{Dir, Kind};
use crate::error::{Error, Io, Result, io_error};
use crate::msg::catalogue::edge as m;
use std::fs::File;
use std::io::Write;
use std::path::Path;

/// The name prefix of a staging folder, so that a leftover one is known for what it is.
pub const STAGING_PREFIX: &str = ".urne-staging-";

/// The suffix of every file inside a staging folder (see [`staged_name`]).
pub const STAGED_SUFFIX: &str = ".staged";

/// A staging folder inside an output folder, holding files not yet published.
pub struct Staging {
    out: Dir,
    dir: Dir,
    /// The staging folder's name in `out`.
    name: String,
    names: Vec<String>,
    /// The staged files written, their write-back started but not waited for: each is made
    /// durable before the first file is moved into place ([`Staging::publish`]).
    unsynced: Vec<(String, File)>,
    published: bool,
    /// Files created only their owner can read (mode 0600): a secret output.
    private: bool,
    /// Scratch files made so far (each fallback name used once).
    scratches: u32,
}

impl Staging {
    /// Removes the leftovers of interrupted commands in `out`, then makes a fresh staging
    /// folder there.
    pub fn new(out: &Dir) -> Result<Staging> {
        clear_leftovers(out);
        let out = out
            .try_clone()
            .map_err(|e| io_error(Io::Open, out.path(), e))?;
        let pid = std::process::id();
        for _ in 0..1000u32 {
            let name = format!("{STAGING_PREFIX}{pid}-{:016x}", unpredictable()?);
            match out.mkdir(&name, STAGING_MODE) {
                Ok(()) => {
                    let dir = out
                        .sub(&name)
                        .map_err(|e| io_error(Io::OpenStaging, &out.show(&name), e))?;
                    check_made(&dir)?;
                    return Ok(Staging {
                        out,
                        dir,
                        name,
                        names: vec![],
                        unsynced: vec![],
                        published: false,
                        private: false,
                        scratches: 0,
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(io_error(Io::CreateStaging, &out.show(&name), e)),
            }
        }
        Err(Error::new(
            crate::error::Kind::StagingRefused,
            crate::msg!(m::ERR_STAGING_NO_FREE_NAME, path = out.path().display()),
            crate::msg!(m::REC_STAGING_NO_FREE_NAME),
        ))
    }

    /// Refuses (exit 4) unless the folder at `path` is still the output folder this staging
    /// folder is in (the same file system and inode): one moved or replaced at that path since
    /// the staging began would receive nothing while the trail recorded the path.
    pub fn check_still_at(&self, path: &Path) -> Result<()> {
        // Opened without following a link in its path (`Dir::open`): a link is refused too.
        let now = Dir::open(path).ok().and_then(|d| d.id().ok());
        if now.is_some() && now == self.out.id().ok() {
            return Ok(());
        }
        Err(Error::new(
            crate::error::Kind::OutputConflict,
            crate::msg!(m::ERR_STAGING_FOLDER_REPLACED, path = path.display()),
            crate::msg!(m::REC_STAGING_FOLDER_REPLACED),
        ))
    }

    /// Every file staged from now on is created with mode 0600 (a secret output, e.g. a block's
    /// production file); the final name is a link to the same file, so it keeps that mode.
    #[must_use]
    pub fn private(mut self) -> Staging {
        self.private = true;
        self
    }

    /// A scratch file in the staging folder (mode 0600, which no name reaches: [`Dir::scratch`]),
    /// for work too large for memory; gone when closed, never published.
    pub fn scratch(&mut self) -> Result<File> {
        self.scratches += 1;
        let fallback = format!(".scratch-{}", self.scratches);
        self.dir
            .scratch(&fallback)
            .map_err(|e| io_error(Io::Write, &self.dir.show(&fallback), e))
    }

    /// Writes `bytes` as the staged file `name` (created new, its write-back started; made
    /// durable before it is moved into place).
    pub fn write(&mut self, name: &str, bytes: &[u8]) -> Result<()> {
        self.write_with(name, |f| f.write_all(bytes))
    }

    /// Writes the staged file `name` through `fill` (created new, its write-back started; made
    /// durable before it is moved into place).
    pub fn write_with(
        &mut self,
        name: &str,
        fill: impl FnOnce(&mut File) -> std::io::Result<()>,
    ) -> Result<()> {
        check_name(name)?;
        let mode = if self.private { 0o600 } else { 0o666 };
        let res = (|| {
            let mut f = self.dir.create_new(&staged_name(name), mode)?;
            fill(&mut f)?;
            start_write_back(&f);
            Ok(f)
        })();
        match res {
            Ok(f) => {
                self.names.push(name.to_string());
                self.unsynced.push((name.to_string(), f));
                Ok(())
            }
            Err(e) => Err(io_error(Io::Write, &self.out.show(name), e)),
        }
    }

    /// Makes every file staged so far durable (`fsync` each, in the order written): their
    /// write-back was started as each was written, so the waits overlap instead of following
    /// one another.
    pub fn sync_files(&mut self) -> Result<()> {
        for (name, f) in self.unsynced.drain(..) {
            f.sync_all()
                .map_err(|e| io_error(Io::Sync, &self.out.show(&name), e))?;
        }
        Ok(())
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
            return Err(Error::new(
                crate::error::Kind::Defect,
                crate::msg!(m::ERR_STAGING_ORDER),
                crate::msg!(m::REC_DEFECT_NOTHING_PUBLISHED),
            ));
        }
        // Every file is durable before the first one appears under its final name: a power
        // cut never leaves a name in place on a file not wholly on the medium.
        self.sync_files()?;
        for name in order {
            if place(&self.dir, &self.out, name)? == Placed::Linked {
                let staged = staged_name(name);
                self.dir
                    .unlink(&staged)
                    .map_err(|e| io_error(Io::Remove, &self.dir.show(&staged), e))?;
            }
        }
        // The names in place are durable before the caller records the output as published.
        self.out
            .sync()
            .map_err(|e| io_error(Io::Sync, self.out.path(), e))?;
        // Its removal is not synced: after a power cut, the empty staging folder it brings back
        // is a leftover, cleared by the next command writing here (§4.7).
        self.out
            .rmdir(&self.name)
            .map_err(|e| io_error(Io::Remove, self.dir.path(), e))?;
        self.published = true;
        Ok(())
    }
}

impl Drop for Staging {
    /// On an error before publication the staged files and their folder are removed.
    fn drop(&mut self) {
        if !self.published {
            for n in &self.names {
                let _ = self.dir.unlink(&staged_name(n));
            }
            let _ = self.out.rmdir(&self.name);
        }
    }
}

/// Starts writing `f`'s data back to its medium (`sync_file_range` with
/// `SYNC_FILE_RANGE_WRITE`) without waiting for it, so that the `fsync` of [`Staging::publish`]
/// finds it written or under way. Only a hint: a failure here (a file system that does not
/// support it) is left to that `fsync`, which reports any error of the medium.
fn start_write_back(f: &File) {
    use std::os::fd::AsRawFd;
    // SAFETY: a valid descriptor, alive for the call; no memory is passed.
    let _ = unsafe { libc::sync_file_range(f.as_raw_fd(), 0, 0, libc::SYNC_FILE_RANGE_WRITE) };
}

/// The mode a staging folder is made with: its owner's only.
const STAGING_MODE: u32 = 0o700;

/// 64 bits from the kernel's random source (`getrandom`): the staging folder's name cannot be
/// guessed before it is made.
fn unpredictable() -> Result<u64> {
    let mut b = [0u8; 8];
    // SAFETY: a buffer of `b.len()` bytes, alive for the call.
    let n = unsafe { libc::getrandom(b.as_mut_ptr().cast(), b.len(), 0) };
    if n != b.len().cast_signed() {
        return Err(Error::new(
            crate::error::Kind::SystemFailed,
            crate::msg!(m::ERR_STAGING_RANDOM, e = std::io::Error::last_os_error()),
            crate::msg!(m::REC_STAGING_RANDOM),
        ));
    }
    Ok(u64::from_ne_bytes(b))
}

/// The staging folder just made and opened (relative to its output folder, never through a
/// link) is one only urne's user can change: a folder it owns that neither group nor others may
/// write in (`mkdirat` gave it 0700 less the umask; a FAT or exFAT medium shows the mount's
/// owner and mode instead, 0755 with the usual `dmask=022`). Anything else (the name taken by
/// someone's folder between the two calls, or a medium mounted so that others may write in it)
/// is refused, exit 4, and left as it is.
fn check_made(dir: &Dir) -> Result<()> {
    let (uid, mode) = dir
        .owner_mode()
        .map_err(|e| io_error(Io::ExamineStaging, dir.path(), e))?;
    // SAFETY: geteuid has no preconditions.
    made_by(uid, mode, unsafe { libc::geteuid() })
        .then_some(())
        .ok_or_else(|| {
            Error::new(
                crate::error::Kind::StagingRefused,
                crate::msg!(
                    m::ERR_STAGING_NOT_OURS,
                    path = dir.path().display(),
                    uid = uid,
                    mode = format_args!("{:o}", mode & 0o7777)
                ),
                crate::msg!(m::REC_STAGING_NOT_OURS),
            )
        })
}

/// A folder (`mode`: `st_mode`) of `euid` that neither group nor others may write in.
fn made_by(uid: u32, mode: u32, euid: u32) -> bool {
    mode & libc::S_IFMT == libc::S_IFDIR && uid == euid && mode & 0o022 == 0
}

/// A staged file's name: one plain component, never a staging name.
fn check_name(name: &str) -> Result<()> {
    if name.is_empty() || name.contains('/') || name == ".." || name.starts_with(STAGING_PREFIX) {
        return Err(Error::new(
            crate::error::Kind::Defect,
            crate::msg!(m::ERR_STAGING_BAD_NAME, name = format_args!("{name:?}")),
            crate::msg!(m::REC_DEFECT),
        ));
    }
    Ok(())
}

/// How a staged file reached its final name.
#[derive(Debug, PartialEq, Eq)]
enum Placed {
    /// Hard-linked (the staged name is still there, to be removed).
    Linked,
    /// Renamed (file systems without hard links), or already there with the same bytes.
    Moved,
}

/// Puts `staged`'s file `name` at `name` in `out` without replacing anything: a hard link,
/// which fails if the name exists (a file, a folder or a link: nothing is ever written through a
/// planted link).
fn place(staged: &Dir, out: &Dir, name: &str) -> Result<Placed> {
    let from = staged_name(name);
    match staged.link_into(&from, out, name) {
        Ok(()) => Ok(Placed::Linked),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            if same_regular_file_bytes((out, name), (staged, &from)) {
                staged
                    .unlink(&from)
                    .map_err(|e| io_error(Io::Remove, &staged.show(&from), e))?;
                return Ok(Placed::Moved);
            }
            if remove_orphan_signature(out, name)? {
                staged
                    .link_into(&from, out, name)
                    .map_err(|e| exists_or_io(&out.show(name), e))?;
                return Ok(Placed::Linked);
            }
            Err(already_exists(&out.show(name)))
        }
        Err(e) if no_hard_links(&e) => rename_if_absent(staged, out, name),
        Err(e) => Err(io_error(Io::Publish, &out.show(name), e)),
    }
}

/// What a staged file is named inside its staging folder: its final name and
/// [`STAGED_SUFFIX`], so that a staging folder a kill left behind holds no file under an
/// output's name (no `result.json` beside its valid `.sig`) that a reader, or a verifier given
/// that folder, could take for an output (issue 23, item 3). The final name is given when the
/// file is linked into the output folder.
fn staged_name(name: &str) -> String {
    format!("{name}{STAGED_SUFFIX}")
}

/// The file system has no hard links (FAT and exFAT USB media answer EPERM, others ENOTSUP).
pub fn no_hard_links(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::Unsupported
    )
}

/// The fallback where hard links do not exist: a rename that never replaces a name
/// (`renameat2` with `RENAME_NOREPLACE`, which FAT and exFAT support).
fn rename_if_absent(staged: &Dir, out: &Dir, name: &str) -> Result<Placed> {
    staged
        .rename_noreplace(&staged_name(name), out, name)
        .map_err(|e| exists_or_io(&out.show(name), e))?;
    Ok(Placed::Moved)
}

/// A `X.sig` whose `X` is absent is the signature of a file a killed command never published:
/// the resumed command replaces it (a regular file only, never through a link; said on stderr).
fn remove_orphan_signature(out: &Dir, name: &str) -> Result<bool> {
    let Some(signed) = name.strip_suffix(".sig").filter(|s| !s.is_empty()) else {
        return Ok(false);
    };
    let is_file = matches!(out.kind(name), Ok(Some(Kind::File)));
    if !is_file || !matches!(out.kind(signed), Ok(None)) {
        return Ok(false);
    }
    out.unlink(name)
        .map_err(|e| io_error(Io::Remove, &out.show(name), e))?;
    note!(
        "{}",
        crate::msg!(m::SCR_STAGING_ORPHAN_SIG, path = out.show(name).display())
    );
    Ok(true)
}

fn exists_or_io(fin: &Path, e: std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::AlreadyExists {
        already_exists(fin)
    } else {
        rename_error(fin, e)
    }
}

/// A move that never replaces a name (`renameat2` with `RENAME_NOREPLACE`) failed: EINVAL is
/// a file system without that flag (exFAT through FUSE, some network file systems), said as
/// such (exit 5, as any other failure of the medium); anything else as the I/O error it is.
pub fn rename_error(fin: &Path, e: std::io::Error) -> Error {
    if e.raw_os_error() == Some(libc::EINVAL) {
        return Error::new(
            crate::error::Kind::NoSafeRename,
            crate::msg!(m::ERR_STAGING_NO_SAFE_RENAME, path = fin.display(), e = e),
            crate::msg!(m::REC_STAGING_NO_SAFE_RENAME),
        );
    }
    io_error(Io::Publish, fin, e)
}

/// The error for an output file that already exists: outputs are never overwritten.
pub fn already_exists(p: &Path) -> Error {
    Error::new(
        crate::error::Kind::OutputExists,
        crate::msg!(m::ERR_OUTPUT_EXISTS, path = p.display()),
        crate::msg!(m::REC_OUTPUT_EXISTS),
    )
}

/// True when `name` in `a` is a regular file (not a link) with exactly the bytes of `name` in
/// `b`.
fn same_regular_file_bytes((a, an): (&Dir, &str), (b, bn): (&Dir, &str)) -> bool {
    matches!((a.read(an, u64::MAX), b.read(bn, u64::MAX)), (Ok(x), Ok(y)) if x == y)
}

/// True when `name` in `dir` exists as anything but a regular file holding exactly `bytes`
/// (examined and read without following a link).
pub fn exists_other_than(dir: &Dir, name: &str, bytes: &[u8]) -> bool {
    match dir.kind(name) {
        Ok(None) => false,
        Ok(Some(Kind::File)) => dir
            .read(name, bytes.len() as u64)
            .map_or(true, |x| x != bytes),
        _ => true,
    }
}

/// The staging folders (names) found directly in `dir`.
pub fn staging_leftovers(dir: &Dir) -> Vec<String> {
    let Ok(names) = dir.names() else {
        return vec![];
    };
    names
        .into_iter()
        .filter_map(|n| n.into_string().ok())
        .filter(|n| n.starts_with(STAGING_PREFIX))
        .collect()
}

/// Removes the staging folders left in `out` by killed commands (not those of a running urne
/// process, named by their pid): only a real folder, opened relative to `out` without following
/// a link, and only the files directly inside it, removed relative to that folder's descriptor.
/// Says so on stderr.
pub fn clear_leftovers(out: &Dir) {
    for name in staging_leftovers(out) {
        let p = out.show(&name);
        if staging_pid_running(&name) {
            continue;
        }
        let st = match out.sub(&name) {
            Ok(st) => st,
            Err(e) if matches!(e.raw_os_error(), Some(libc::ELOOP | libc::ENOTDIR)) => {
                note!(
                    "{}",
                    crate::msg!(m::SCR_STAGING_NOT_A_FOLDER, path = p.display())
                );
                continue;
            }
            Err(e) => {
                note!(
                    "{}",
                    crate::msg!(m::SCR_STAGING_CANNOT_OPEN, path = p.display(), e = e)
                );
                continue;
            }
        };
        for n in st.names().unwrap_or_default() {
            // A folder inside is left (unlink refuses it), and so the staging folder too.
            if let Some(n) = n.to_str() {
                let _ = st.unlink(n);
            }
        }
        match out.rmdir(&name) {
            Ok(()) => note!(
                "{}",
                crate::msg!(m::SCR_STAGING_REMOVED, path = p.display())
            ),
            Err(e) => note!(
                "{}",
                crate::msg!(m::SCR_STAGING_CANNOT_REMOVE, path = p.display(), e = e)
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
        Some(p) if p != std::process::id() => pid_running(p),
        _ => false,
    }
}

/// True when a process has the pid `pid`.
pub fn pid_running(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

#[cfg(test)]
mod tests;
