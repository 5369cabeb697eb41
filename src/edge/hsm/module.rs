//! The PKCS#11 module as a file (issue 11, "Know the code that answers for the HSM"): opened
//! once, hashed from that open descriptor, checked against the configuration's pin, and loaded
//! from the same descriptor (`/proc/self/fd/N`), so that the code loaded is the code hashed
//! whatever happens to the path in between (no check-then-open race). The descriptor stays open
//! while the module is loaded. After `C_Initialize`, [`measure`] gathers the identity that
//! `software.start` records (spec/formats.md §6.2).

use crate::edge::config::Config;
use crate::edge::loader::{self, KnownFile};
use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::edge as m;
use cryptoki::context::Pkcs11;
use cryptoki::slot::Slot;
use sha2::{Digest, Sha256};
use std::fs::File;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};
use urne_verify::crypto::Hash32;
use urne_verify::software::{Pkcs11Identity, Pkcs11Token};

/// The module's file, open for as long as the module is loaded.
#[derive(Debug)]
pub struct ModuleFile {
    file: File,
    /// The path as configured.
    pub path: PathBuf,
    /// SHA-256 of the bytes read from `file` before it was loaded.
    pub sha256: Hash32,
}

impl ModuleFile {
    /// Opens `path` (read-only, close-on-exec: `File::open`) and hashes it from the descriptor.
    pub fn open(path: &Path) -> Result<ModuleFile> {
        let missing = |message: String| {
            Error::new(
                Kind::ModuleRefused,
                message,
                crate::msg!(m::REC_MODULE_MISSING),
            )
        };
        let shown = path.display();
        let file = File::open(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => {
                missing(crate::msg!(m::ERR_MODULE_ABSENT, path = shown))
            }
            _ => missing(crate::msg!(m::ERR_MODULE_OPEN, path = shown, e = e)),
        })?;
        let md = file
            .metadata()
            .map_err(|e| missing(crate::msg!(m::ERR_MODULE_READ, path = shown, e = e)))?;
        if !md.is_file() {
            return Err(missing(crate::msg!(
                m::ERR_MODULE_NOT_REGULAR,
                path = shown
            )));
        }
        let sha256 = hash_at(&file)
            .map_err(|e| missing(crate::msg!(m::ERR_MODULE_READ, path = shown, e = e)))?;
        Ok(ModuleFile {
            file,
            path: path.to_path_buf(),
            sha256,
        })
    }

    /// The path through which the loader opens this very descriptor's file.
    pub fn fd_path(&self) -> PathBuf {
        PathBuf::from(format!("/proc/self/fd/{}", self.file.as_raw_fd()))
    }

    /// Refuses a module whose hash is not the configuration's pin (before it is loaded: no code
    /// of it runs).
    pub fn check_pin(&self, cfg: &Config) -> Result<()> {
        match cfg.module_sha256 {
            Some(pin) if pin != self.sha256 => Err(Error::new(
                Kind::ModuleRefused,
                match &cfg.source {
                    Some(source) => crate::msg!(
                        m::ERR_MODULE_PIN,
                        path = self.path.display(),
                        sha = self.sha256,
                        config = source.display(),
                        pin = pin
                    ),
                    None => crate::msg!(
                        m::ERR_MODULE_PIN_NO_FILE,
                        path = self.path.display(),
                        sha = self.sha256,
                        pin = pin
                    ),
                },
                crate::msg!(m::REC_MODULE_PIN),
            )),
            _ => Ok(()),
        }
    }

    /// Refuses (exit 3) a process in which a file is mapped that neither urne's executable nor
    /// this module needs (`edge::closure`).
    ///
    /// The module was loaded from `/proc/self/fd/N`, so `$ORIGIN` in its run paths stands for
    /// `/proc/self/fd` for the loader, as it does here (never for the folder the configuration
    /// names, which the insider chooses).
    pub fn check_mapped(&self, stage: crate::edge::closure::Stage) -> Result<()> {
        let origin = Path::new("/proc/self/fd");
        crate::edge::closure::check(Some((&self.file, origin)), stage)
    }

    /// Loads the module from the descriptor (`dlopen` of `/proc/self/fd/N`).
    pub fn load(&self) -> Result<Pkcs11> {
        Pkcs11::new(self.fd_path()).map_err(|e| {
            Error::new(
                Kind::ModuleRefused,
                crate::msg!(m::ERR_MODULE_LOAD, path = self.path.display(), e = e),
                crate::msg!(m::REC_MODULE_LOAD),
            )
        })
    }

    /// The file as the mapped-object measurement knows it, its bytes read again from the
    /// descriptor: refused if they differ from those hashed before loading (the file was written
    /// in place while loaded).
    fn rehashed(&self) -> Result<KnownFile> {
        let changed = |message: String| {
            Error::new(
                Kind::ModuleRefused,
                message,
                crate::msg!(m::REC_MODULE_CHANGED),
            )
        };
        let shown = self.path.display();
        let md = self
            .file
            .metadata()
            .map_err(|e| changed(crate::msg!(m::ERR_MODULE_REREAD, path = shown, e = e)))?;
        let now = hash_at(&self.file)
            .map_err(|e| changed(crate::msg!(m::ERR_MODULE_UNREAD, path = shown, e = e)))?;
        if now != self.sha256 {
            return Err(changed(crate::msg!(
                m::ERR_MODULE_CHANGED,
                path = shown,
                then = self.sha256,
                now = now
            )));
        }
        Ok(KnownFile {
            dev: md.dev(),
            inode: md.ino(),
            sha256: now,
        })
    }
}

/// SHA-256 of a file's bytes, read from its descriptor by offset (its position is not used).
fn hash_at(f: &File) -> std::io::Result<Hash32> {
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut off = 0u64;
    loop {
        let n = f.read_at(&mut buf, off)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
        off += n as u64;
    }
    Ok(Hash32(h.finalize().into()))
}

/// The identity of the code answering for the HSM, measured now (after `C_Initialize`): the
/// module file, `C_GetInfo`, `C_GetTokenInfo` of urne's slot, and every file mapped in the
/// process.
pub(super) fn measure(pkcs11: &Pkcs11, slot: Slot, module: &ModuleFile) -> Result<Pkcs11Identity> {
    let fail = |function: &str, e: cryptoki::error::Error| {
        Error::new(
            Kind::HsmUnavailable,
            crate::msg!(m::ERR_P11_FUNCTION, function = function, e = e),
            crate::msg!(m::REC_HSM_CHECK_TOKEN),
        )
    };
    let lib = pkcs11
        .get_library_info()
        .map_err(|e| fail("C_GetInfo", e))?;
    let tok = pkcs11
        .get_token_info(slot)
        .map_err(|e| fail("C_GetTokenInfo", e))?;
    let known = module.rehashed()?;
    let mapped = loader::mapped_objects(&[known])?;
    Ok(Pkcs11Identity {
        module_path: module.path.display().to_string(),
        module_sha256: module.sha256,
        manufacturer: lib.manufacturer_id().to_string(),
        library: lib.library_description().to_string(),
        library_version: lib.library_version().to_string(),
        cryptoki_version: lib.cryptoki_version().to_string(),
        token: Pkcs11Token {
            label: tok.label().to_string(),
            manufacturer: tok.manufacturer_id().to_string(),
            model: tok.model().to_string(),
            serial: tok.serial_number().to_string(),
            firmware: tok.firmware_version().to_string(),
        },
        mapped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOFTHSM: &str = crate::edge::config::DEFAULT_MODULE;

    fn cfg(pin: Option<Hash32>) -> Config {
        let mut c = Config::load(Some(Path::new("hsm-config/urne.json"))).unwrap();
        c.module_sha256 = pin;
        c
    }

    #[test]
    fn the_module_is_hashed_from_its_descriptor_and_a_pin_must_match() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m.so");
        std::fs::write(&p, b"not a module").unwrap();
        let m = ModuleFile::open(&p).unwrap();
        assert_eq!(m.sha256, urne_verify::crypto::sha256(b"not a module"));
        assert!(m.check_pin(&cfg(None)).is_ok());
        assert!(m.check_pin(&cfg(Some(m.sha256))).is_ok());
        let other = urne_verify::crypto::sha256(b"other");
        let e = m.check_pin(&cfg(Some(other))).unwrap_err();
        assert_eq!(e.kind, Kind::ModuleRefused);
        assert!(e.message.contains(&m.sha256.to_string()), "{}", e.message);
        assert!(e.message.contains(&other.to_string()), "{}", e.message);
        // Not an ELF object: refused at load, with exit 3, no panic.
        assert_eq!(m.load().unwrap_err().kind, Kind::ModuleRefused);
        assert_eq!(
            ModuleFile::open(&dir.path().join("none")).unwrap_err().kind,
            Kind::ModuleRefused
        );
        assert_eq!(
            ModuleFile::open(dir.path()).unwrap_err().kind,
            Kind::ModuleRefused
        );
    }

    /// The race a check-then-open would lose: the module is opened and hashed, then someone
    /// renames other bytes over its path, then it is loaded. What is loaded is what was hashed
    /// (the path now holds no module at all, yet the load succeeds), and the measurement after
    /// loading still knows the loaded file by its descriptor.
    #[test]
    fn the_module_loaded_is_the_one_hashed_even_if_the_path_is_swapped() {
        if !Path::new(SOFTHSM).is_file() {
            note!("SoftHSM is not installed: skipped");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("module.so");
        std::fs::copy(SOFTHSM, &p).unwrap();
        let m = ModuleFile::open(&p).unwrap();
        assert_eq!(
            m.sha256,
            urne_verify::crypto::sha256(&std::fs::read(SOFTHSM).unwrap())
        );
        let swap = dir.path().join("swap");
        std::fs::write(&swap, b"someone else's bytes").unwrap();
        std::fs::rename(&swap, &p).unwrap();
        assert!(
            Pkcs11::new(&p).is_err(),
            "the path no longer holds a module"
        );
        let pkcs11 = m.load().expect("loaded from the descriptor");
        let known = m.rehashed().unwrap();
        assert_eq!(known.sha256, m.sha256);
        let mapped = loader::mapped_objects(&[known]).unwrap();
        let entry = mapped
            .iter()
            .find(|o| Path::new(&o.path) == p)
            .expect("the loaded module is mapped under its path");
        assert_eq!(entry.status, urne_verify::software::MappedStatus::Deleted);
        assert_eq!(entry.sha256, Some(m.sha256));
        drop(pkcs11);
    }
}
