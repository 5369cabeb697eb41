//! Which files may be mapped in urne's process (issue 22, "A clean process"): those of the
//! dependency closure of urne's executable and of the PKCS#11 module, read from their ELF
//! dynamic sections (`edge::elf`), and nothing else.
//!
//! A file mapped in the process is accepted when it is one of the roots (the executable, the
//! module: known by device and inode, from the descriptors they were read from), or when some
//! accepted object needs it: a `DT_NEEDED` path, or a `DT_NEEDED` name in a folder the loader
//! searches (the system's library folders, or a `DT_RUNPATH`/`DT_RPATH` folder of an accepted
//! object), names that very file (same device and inode, through any links). A file mapped only
//! as data (never executable) is also accepted when it was mapped before urne's `main` began.
//! Anything else refuses the command (exit 3): a provider or engine loaded by
//! OpenSSL, an NSS or gconv module, a library redirected by an edited `/etc/ld.so.cache` into
//! another folder, code loaded from a deleted file or a `memfd`, and executable memory that no
//! file backs (a library that copied itself out of its file's mapping to leave the maps).
//! Checked when the process starts using the token (before the module is loaded), after
//! `C_Initialize` and after login (`edge::hsm`).
//!
//! These are checks from inside the process: code already running in it can defeat them, and
//! they are evidence, not a wall. A library replaced in place in a system folder keeps its name
//! and folder: that is the disk's binaries, measured by `software.start` (spec/formats.md §6.2) and left
//! to the sealed image (docs/threat-model.md, "The clean process").

use crate::edge::elf::{self, Dynamic};
use crate::edge::maps::{MapsEntry, dev_parts, parse_maps};
use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::edge as m;
use std::collections::BTreeSet;
use std::fs::File;
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// When the mapped files are checked (for the refusal's wording).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Before the module is loaded: the executable's own libraries.
    Start,
    /// After the module's `C_Initialize`.
    Initialised,
    /// After login.
    LoggedIn,
}

impl Stage {
    fn words(self) -> String {
        match self {
            Stage::Start => crate::msg!(m::ERR_CLOSURE_AT_START),
            Stage::Initialised => crate::msg!(m::ERR_CLOSURE_AT_INITIALISED),
            Stage::LoggedIn => crate::msg!(m::ERR_CLOSURE_AT_LOGGED_IN),
        }
    }
}

/// The system's library folders, where the loader finds a needed name that no run path names
/// (glibc's trusted folders on Debian: the multiarch ones and `/lib`, `/usr/lib`), as real
/// paths (`/lib` is a link to `/usr/lib` on a merged system).
pub fn system_dirs() -> BTreeSet<PathBuf> {
    let triple = format!("{}-linux-gnu", std::env::consts::ARCH);
    let mut dirs = BTreeSet::new();
    for d in ["/lib", "/usr/lib", "/lib64", "/usr/lib64"] {
        for p in [PathBuf::from(d), Path::new(d).join(&triple)] {
            if let Ok(real) = std::fs::canonicalize(&p) {
                dirs.insert(real);
            }
        }
    }
    dirs
}

/// A root of the closure: a file urne opened itself and whose bytes it measured (the executable,
/// the module).
#[derive(Debug, Clone)]
pub struct Root {
    /// Device (major, minor) and inode, as `/proc/self/maps` shows them.
    pub dev: (u64, u64),
    /// The inode on that device.
    pub inode: u64,
    /// Its dynamic section (`None`: not readable as an ELF object, so it needs nothing).
    pub dynamic: Option<Dynamic>,
    /// The folder `$ORIGIN` stands for in its run paths.
    pub origin: PathBuf,
}

impl Root {
    /// The root for the file open as `f`, found in the folder `origin`.
    pub fn of(f: &File, origin: PathBuf) -> Result<Root> {
        let md = f.metadata().map_err(|e| {
            Error::new(
                Kind::UnsafeProcess,
                crate::msg!(m::ERR_CLOSURE_METADATA, e = e),
                crate::msg!(m::REC_PROC_MOUNTED_NOTHING_DONE),
            )
        })?;
        Ok(Root {
            dev: dev_parts(md.dev()),
            inode: md.ino(),
            dynamic: dynamic_of(f),
            origin,
        })
    }

    /// urne's own executable (`/proc/self/exe`).
    pub fn executable() -> Result<Root> {
        let f = File::open("/proc/self/exe").map_err(|e| {
            Error::new(
                Kind::SystemFailed,
                crate::msg!(m::ERR_CLOSURE_EXE, e = e),
                crate::msg!(m::REC_PROC_MOUNTED),
            )
        })?;
        let origin = std::fs::read_link("/proc/self/exe")
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf))
            .unwrap_or_default();
        Root::of(&f, origin)
    }
}

/// The dynamic section of the file open as `f`, read by offset (never the whole file: the
/// executable of a debug build is 100 MB).
fn dynamic_of(f: &File) -> Option<Dynamic> {
    let len = f.metadata().ok()?.len();
    elf::dynamic_from(&|off, n| {
        let end = off.checked_add(u64::try_from(n).ok()?)?;
        if end > len {
            return None;
        }
        let mut buf = vec![0u8; n];
        f.read_exact_at(&mut buf, off).ok()?;
        Some(buf)
    })
}

/// What the accepted objects need: paths named outright, and names, each with the folders the
/// loader searches for it (the run paths of the object that needs it, then the system's).
#[derive(Default)]
struct Needs {
    paths: BTreeSet<PathBuf>,
    names: Vec<(String, Vec<PathBuf>)>,
    system: Vec<PathBuf>,
}

impl Needs {
    fn add(&mut self, d: &Dynamic, origin: &Path) {
        let mut dirs: Vec<PathBuf> = d
            .search
            .iter()
            .map(|s| {
                PathBuf::from(
                    s.replace("${ORIGIN}", &origin.to_string_lossy())
                        .replace("$ORIGIN", &origin.to_string_lossy()),
                )
            })
            .collect();
        dirs.extend(self.system.iter().cloned());
        for n in &d.needed {
            if n.contains('/') {
                self.paths.insert(PathBuf::from(n));
            } else {
                self.names.push((n.clone(), dirs.clone()));
            }
        }
    }

    /// Whether the file mapped as `e` is needed: a needed path, or a needed name in a folder
    /// searched for it, names that very file (device and inode, through any links, as the
    /// loader opened it).
    fn wants(&self, e: &MapsEntry) -> bool {
        let is_it = |p: &Path| {
            std::fs::metadata(p).is_ok_and(|md| dev_parts(md.dev()) == e.dev && md.ino() == e.inode)
        };
        self.paths.iter().any(|p| is_it(p))
            || self
                .names
                .iter()
                .any(|(n, dirs)| dirs.iter().any(|d| is_it(&d.join(n))))
    }
}

/// One mapped file (all its mappings): executable if any of them is.
fn mapped_files(maps: &str) -> Vec<MapsEntry> {
    let mut files: Vec<MapsEntry> = vec![];
    for e in parse_maps(maps) {
        match files
            .iter_mut()
            .find(|f| f.dev == e.dev && f.inode == e.inode)
        {
            Some(f) => f.exec |= e.exec,
            None => files.push(e),
        }
    }
    files
}

/// The dynamic section of the mapped file `e`, read from its path if the path still names it.
fn read_dynamic(e: &MapsEntry) -> Option<Dynamic> {
    if e.deleted {
        return None;
    }
    let f = File::open(&e.path).ok()?;
    let md = f.metadata().ok()?;
    (dev_parts(md.dev()) == e.dev && md.ino() == e.inode && md.is_file()).then_some(())?;
    dynamic_of(&f)
}

/// The files mapped in `maps` that the closure of `roots` does not account for, by path. A file
/// mapped only as data (no executable mapping: libfaketime's shared memory, say) is accounted
/// for when it was already mapped in `start` (the maps when urne's `main` began).
pub fn unaccounted(
    maps: &str,
    start: &str,
    roots: &[Root],
    system: &BTreeSet<PathBuf>,
) -> Vec<String> {
    let mut needs = Needs {
        system: system.iter().cloned().collect(),
        ..Needs::default()
    };
    for r in roots {
        if let Some(d) = &r.dynamic {
            needs.add(d, &r.origin);
        }
    }
    let at_start = mapped_files(start);
    let mut pending: Vec<MapsEntry> = mapped_files(maps)
        .into_iter()
        .filter(|e| !roots.iter().any(|r| r.dev == e.dev && r.inode == e.inode))
        .filter(|e| {
            e.exec
                || !at_start
                    .iter()
                    .any(|s| s.dev == e.dev && s.inode == e.inode)
        })
        .collect();
    loop {
        let before = pending.len();
        let mut still = vec![];
        for e in pending {
            if !e.deleted && needs.wants(&e) {
                if let Some(d) = read_dynamic(&e) {
                    let origin = Path::new(&e.path)
                        .parent()
                        .map(Path::to_path_buf)
                        .unwrap_or_default();
                    needs.add(&d, &origin);
                }
            } else {
                still.push(e);
            }
        }
        pending = still;
        if pending.len() == before {
            break;
        }
    }
    pending.into_iter().map(|e| e.path).collect()
}

/// The modules this process has loaded (a process may open the token more than once: each
/// load's closure stays accounted for).
static LOADED: Mutex<Vec<Root>> = Mutex::new(Vec::new());

/// Refuses (exit 3) a process in which a file is mapped that neither urne's executable nor the
/// module (`module`: its open file and the folder it was configured in), nor a module loaded
/// earlier in this process, needs. The module given is remembered as loaded.
pub fn check(module: Option<(&File, &Path)>, stage: Stage) -> Result<()> {
    let mut roots = vec![Root::executable()?];
    let mut loaded = LOADED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((f, origin)) = module {
        let root = Root::of(f, origin.to_path_buf())?;
        if !loaded
            .iter()
            .any(|r| r.dev == root.dev && r.inode == root.inode)
        {
            loaded.push(root);
        }
    }
    roots.extend(loaded.iter().cloned());
    drop(loaded);
    let maps = std::fs::read_to_string("/proc/self/maps").map_err(|e| {
        Error::new(
            Kind::SystemFailed,
            crate::msg!(m::ERR_CLOSURE_MAPS, e = e),
            crate::msg!(m::REC_PROC_MOUNTED),
        )
    })?;
    let start = &crate::edge::process::start().maps;
    let mut extra = crate::edge::maps::anonymous_code(&maps);
    extra.extend(unaccounted(&maps, start, &roots, &system_dirs()));
    if extra.is_empty() {
        return Ok(());
    }
    Err(Error::new(
        Kind::UnsafeProcess,
        if extra.len() == 1 {
            crate::msg!(
                m::ERR_CLOSURE_EXTRA_ONE,
                stage = stage.words(),
                files = extra.join(", ")
            )
        } else {
            crate::msg!(
                m::ERR_CLOSURE_EXTRA_MANY,
                stage = stage.words(),
                files = extra.join(", ")
            )
        },
        crate::msg!(m::REC_CLOSURE_EXTRA),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_is_its_own_executables_closure() {
        let me = Root::executable().unwrap();
        let maps = std::fs::read_to_string("/proc/self/maps").unwrap();
        assert_eq!(
            unaccounted(&maps, "", &[me], &system_dirs()),
            Vec::<String>::new()
        );
    }

    #[test]
    fn a_library_no_root_needs_is_unaccounted_and_one_needed_by_name_is_not() {
        let me = Root::executable().unwrap();
        let maps = std::fs::read_to_string("/proc/self/maps").unwrap();
        // The same maps, with no root: every library is unaccounted for.
        let none = unaccounted(&maps, "", &[], &system_dirs());
        assert!(none.iter().any(|p| p.contains("libc.so")), "{none:?}");
        // With the executable but no system folder: its needed names are not where it may look.
        let no_dirs = unaccounted(&maps, "", std::slice::from_ref(&me), &BTreeSet::new());
        assert!(no_dirs.iter().any(|p| p.contains("libc.so")), "{no_dirs:?}");
        // A mapping of a file that does not exist any more is never accounted for.
        let gone = format!(
            "{maps}7f00-7f10 r-xp 00000000 fe:00 4242 /nonexistent/libc.so.6\n7f10-7f20 r-xp 00000000 fe:00 4243 /usr/lib/x.so (deleted)\n"
        );
        let out = unaccounted(&gone, "", std::slice::from_ref(&me), &system_dirs());
        assert_eq!(out, ["/nonexistent/libc.so.6", "/usr/lib/x.so"]);
        // A data mapping (not executable) is accounted for when it was there at the start, and
        // not when it appeared later.
        let data = "7f20-7f30 rw-s 00000000 00:19 777 /dev/shm/data\n";
        let later = format!("{maps}{data}");
        assert_eq!(
            unaccounted(&later, "", std::slice::from_ref(&me), &system_dirs()),
            ["/dev/shm/data"]
        );
        assert!(unaccounted(&later, data, std::slice::from_ref(&me), &system_dirs()).is_empty());
        // Executable, it is code: refused even if it was there at the start.
        let code = "7f20-7f30 r-xp 00000000 00:19 778 /dev/shm/code\n";
        let later = format!("{maps}{code}");
        assert_eq!(
            unaccounted(&later, code, &[me], &system_dirs()),
            ["/dev/shm/code"]
        );
    }

    #[test]
    fn the_system_folders_are_real_paths() {
        let dirs = system_dirs();
        assert!(dirs.iter().all(|d| d.is_absolute() && d.is_dir()));
        let libc_dir =
            std::fs::canonicalize(format!("/lib/{}-linux-gnu", std::env::consts::ARCH)).unwrap();
        assert!(dirs.contains(&libc_dir));
    }
}
