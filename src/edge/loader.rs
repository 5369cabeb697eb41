//! The dynamic loader's edge: what, besides urne's own code, runs in this process. Two things
//! (issue 11, "Know the code that answers for the HSM"):
//!
//! - [`check_environment`]: a command that opens the token refuses to start when the loader or a
//!   library was told to bring in code of someone's choosing: a variable of the code-loading
//!   kind in the environment the process started with (`edge::process`: every `LD_*`, glibc's
//!   secure-mode list, `OPENSSL_*`; set at all, even empty), or a `/etc/ld.so.preload` that
//!   names anything. An `LD_PRELOAD`ed `RAND_bytes` would otherwise answer for SoftHSM's
//!   generator unseen. A process started through the loader as a command (`ld.so --preload LIB
//!   urne …`, which does the same without any variable) is refused too, and so is a process in
//!   which a library is mapped that urne's executable does not need (`edge::closure`).
//! - [`mapped_objects`]: after `C_Initialize`, the SHA-256 of every file mapped in the process
//!   (`/proc/self/maps`), recorded in `software.start` (spec/formats.md §6.2).
//!
//! Both are checks from inside the process: code that is already in it (a preloaded library)
//! can lie to them. They refuse the plain ways in and leave evidence of the rest; they are not a
//! wall (docs/threat-model.md, "The code that answers for the HSM").

use crate::edge::maps::{MapsEntry, dev_parts, parse_maps};
use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::edge as m;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::Read;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::sync::Mutex;
use urne_verify::crypto::Hash32;
use urne_verify::software::{MappedObject, MappedStatus};

/// The system-wide preload list the loader reads before every program.
pub const PRELOAD_FILE: &str = "/etc/ld.so.preload";

/// Refuses (exit 3) when the process was started with a variable that loads code, when
/// `/etc/ld.so.preload` tells the loader to bring in code, when urne was started through the
/// loader, when libcrypto could not be told to load nothing (`edge::openssl`), or when a library
/// urne's executable does not need is mapped: called before the PKCS#11 module is opened, by
/// every command that opens the token. Everything it reads of the start was read by
/// `edge::process::clean` before the process was made non-dumpable.
pub fn check_environment() -> Result<()> {
    let start = crate::edge::process::start();
    crate::edge::process::check_started_clean(&start.environ_names)?;
    crate::edge::process::check_unobserved(start)?;
    crate::edge::process::check_openssl(start)?;
    check_preload_file(Path::new(PRELOAD_FILE))?;
    check_started_by_kernel(&start.auxv)?;
    crate::edge::closure::check(None, crate::edge::closure::Stage::Start)
}

/// `AT_BASE` in the auxiliary vector: where the kernel loaded the program's interpreter.
const AT_BASE: u64 = 7;

/// The value of `AT_BASE` in a `/proc/self/auxv` image (pairs of native-endian words).
fn at_base(auxv: &[u8]) -> Option<u64> {
    const W: usize = std::mem::size_of::<usize>();
    auxv.chunks_exact(2 * W).find_map(|pair| {
        let word = |b: &[u8]| {
            let mut v = [0u8; 8];
            v[..W].copy_from_slice(b);
            u64::from_ne_bytes(v)
        };
        (word(&pair[..W]) == AT_BASE).then(|| word(&pair[W..]))
    })
}

/// urne is linked dynamically, so the kernel starts it through its interpreter and `AT_BASE` is
/// that interpreter's address; it is 0 when the loader itself was the program started (`ld.so
/// --preload LIB urne …`, `--audit`, `--library-path`): the same ways in, without a variable.
fn check_started_by_kernel(auxv: &[u8]) -> Result<()> {
    if cfg!(target_feature = "crt-static") || at_base(auxv) != Some(0) {
        return Ok(());
    }
    Err(Error::new(
        Kind::UnsafeProcess,
        crate::msg!(m::ERR_LOADER_AS_COMMAND),
        crate::msg!(m::REC_LOADER_AS_COMMAND),
    ))
}

/// The refusal for a system-wide preload list that names anything (only blanks are allowed: the
/// loader ignores them). A list that exists but cannot be read is refused too.
pub fn check_preload_file(path: &Path) -> Result<()> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => {
            return Err(Error::new(
                Kind::UnsafeProcess,
                crate::msg!(
                    m::ERR_LOADER_PRELOAD_UNREADABLE,
                    path = path.display(),
                    e = e
                ),
                crate::msg!(m::REC_LOADER_PRELOAD_UNREADABLE),
            ));
        }
    };
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(());
    }
    let text = String::from_utf8_lossy(&bytes);
    let names: Vec<&str> = text.split_whitespace().take(3).collect();
    Err(Error::new(
        Kind::UnsafeProcess,
        crate::msg!(
            m::ERR_LOADER_PRELOAD,
            path = path.display(),
            names = format_args!(
                "{}{}",
                names.join(", "),
                if text.split_whitespace().count() > 3 {
                    ", …"
                } else {
                    ""
                }
            )
        ),
        crate::msg!(m::REC_LOADER_PRELOAD),
    ))
}

/// SHA-256 of a regular file's bytes; `None` if it is not one. Errors are read errors.
fn hash_regular(f: &mut File) -> std::io::Result<Option<Hash32>> {
    if !f.metadata()?.is_file() {
        return Ok(None);
    }
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(Some(Hash32(h.finalize().into())))
}

/// A file known by its device and inode, with the hash of its bytes as read from an open
/// descriptor of it (the PKCS#11 module, read from the descriptor it was loaded from; the
/// running executable, [`remember`]).
#[derive(Debug, Clone, Copy)]
pub struct KnownFile {
    /// The device it lies on.
    pub dev: u64,
    /// Its inode on that device.
    pub inode: u64,
    /// The SHA-256 of its bytes, read from the descriptor.
    pub sha256: Hash32,
}

/// Files this process has already hashed from a descriptor (the executable: 100 MB in a debug
/// build, not read twice per command).
static REMEMBERED: Mutex<Vec<KnownFile>> = Mutex::new(Vec::new());

/// Remembers that the file open as `f` has the SHA-256 `sha256` (read from `f`), for
/// [`mapped_objects`].
pub fn remember(f: &File, sha256: Hash32) {
    if let Ok(md) = f.metadata() {
        REMEMBERED
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(KnownFile {
                dev: md.dev(),
                inode: md.ino(),
                sha256,
            });
    }
}

/// Measures every file mapped in the process (spec/formats.md §6.2, `software.start`'s `mapped`): once
/// per path and inode, sorted by path. The hash is, in order of preference, that of `known` (the
/// module, from its own descriptor) or of a file this process already hashed from a descriptor
/// ([`remember`]), both matched by device and inode; else the bytes are read through the
/// kernel's link to the mapping (`/proc/self/map_files/`, which names the mapped file even when
/// deleted or replaced; it needs privileges the appliance may not have), or from the path when
/// it still names the mapped file.
pub fn mapped_objects(known: &[KnownFile]) -> Result<Vec<MappedObject>> {
    let mut known = known.to_vec();
    known.extend(
        REMEMBERED
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter(),
    );
    let text = std::fs::read_to_string("/proc/self/maps").map_err(|e| {
        Error::new(
            Kind::SystemFailed,
            crate::msg!(m::ERR_LOADER_MAPS, e = e),
            crate::msg!(m::REC_PROC_MOUNTED),
        )
    })?;
    let mut seen: BTreeMap<(String, (u64, u64), u64), MappedObject> = BTreeMap::new();
    for e in parse_maps(&text) {
        let key = (e.path.clone(), e.dev, e.inode);
        if seen.contains_key(&key) {
            continue;
        }
        let m = measure(&e, &known);
        seen.insert(key, m);
    }
    Ok(seen.into_values().collect())
}

/// Measures one mapping.
fn measure(e: &MapsEntry, known: &[KnownFile]) -> MappedObject {
    let by_known = known
        .iter()
        .find(|k| dev_parts(k.dev) == e.dev && k.inode == e.inode)
        .map(|k| k.sha256);
    let known_or_link = by_known.or_else(|| {
        File::open(format!("/proc/self/map_files/{}", e.range))
            .and_then(|mut f| hash_regular(&mut f))
            .ok()
            .flatten()
    });
    let (status, by_path) = if e.deleted {
        (MappedStatus::Deleted, None)
    } else {
        at_path(e, known_or_link.is_none())
    };
    MappedObject {
        path: e.path.clone(),
        status,
        sha256: known_or_link.or(by_path),
    }
}

/// What the path of a mapping holds now, and (if `hash`) the hash of its bytes when it is the
/// mapped file.
fn at_path(e: &MapsEntry, hash: bool) -> (MappedStatus, Option<Hash32>) {
    let mut f = match File::open(&e.path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (MappedStatus::Deleted, None),
        Err(_) => return (MappedStatus::Unreadable, None),
    };
    let Ok(md) = f.metadata() else {
        return (MappedStatus::Unreadable, None);
    };
    if dev_parts(md.dev()) != e.dev || md.ino() != e.inode {
        return (MappedStatus::Replaced, None);
    }
    if !md.is_file() {
        return (MappedStatus::Special, None);
    }
    if !hash {
        return (MappedStatus::Present, None);
    }
    match hash_regular(&mut f) {
        Ok(h) => (MappedStatus::Present, h),
        Err(_) => (MappedStatus::Unreadable, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_started_through_the_loader_is_refused() {
        const W: usize = std::mem::size_of::<usize>();
        let auxv = |pairs: &[(u64, u64)]| -> Vec<u8> {
            let mut v = vec![];
            for (t, x) in pairs {
                v.extend_from_slice(&t.to_ne_bytes()[..W]);
                v.extend_from_slice(&x.to_ne_bytes()[..W]);
            }
            v
        };
        assert_eq!(
            at_base(&auxv(&[(6, 4096), (7, 0x7f00), (0, 0)])),
            Some(0x7f00)
        );
        assert!(check_started_by_kernel(&auxv(&[(6, 4096), (7, 0x7f00), (0, 0)])).is_ok());
        let e = check_started_by_kernel(&auxv(&[(7, 0), (0, 0)])).unwrap_err();
        assert_eq!(e.kind, Kind::UnsafeProcess);
        // No auxiliary vector to read: nothing to conclude from it.
        assert!(check_started_by_kernel(&[]).is_ok());
        // This test process was started by the kernel.
        let me = std::fs::read("/proc/self/auxv").unwrap();
        assert!(check_started_by_kernel(&me).is_ok());
    }

    #[test]
    fn a_preload_list_naming_anything_is_refused_blank_or_missing_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("ld.so.preload");
        assert!(check_preload_file(&p).is_ok());
        std::fs::write(&p, "").unwrap();
        assert!(check_preload_file(&p).is_ok());
        std::fs::write(&p, " \n\t\n").unwrap();
        assert!(check_preload_file(&p).is_ok());
        std::fs::write(&p, "/lib/evil.so\n").unwrap();
        let e = check_preload_file(&p).unwrap_err();
        assert_eq!(e.kind, Kind::UnsafeProcess);
        assert!(e.message.contains("/lib/evil.so"), "{}", e.message);
        // A folder where the file should be cannot be read: refused, not ignored.
        let d = dir.path().join("dir");
        std::fs::create_dir(&d).unwrap();
        assert_eq!(
            check_preload_file(&d).unwrap_err().kind,
            Kind::UnsafeProcess
        );
    }

    #[test]
    fn this_process_maps_its_own_executable_and_measures_it() {
        let objects = mapped_objects(&[]).unwrap();
        let exe = std::env::current_exe().unwrap();
        let me = objects
            .iter()
            .find(|o| Path::new(&o.path) == exe)
            .expect("the test executable is mapped");
        assert_eq!(me.status, MappedStatus::Present);
        let bytes = std::fs::read(&exe).unwrap();
        assert_eq!(me.sha256, Some(urne_verify::crypto::sha256(&bytes)));
        let mut paths: Vec<&str> = objects.iter().map(|o| o.path.as_str()).collect();
        let n = paths.len();
        paths.dedup();
        assert_eq!(paths.len(), n, "one entry per path");
        assert!(objects.iter().all(|o| o.path.starts_with('/')));
    }
}
