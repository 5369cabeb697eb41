//! Signed outputs: files written atomically (`fsio`) beside their detached signature by the
//! HSM's result key (`hsm`), so that no unsigned output is ever left behind.

use crate::edge::fsio;
use crate::edge::hsm::{Hsm, KeyRole};
use crate::error::{Error, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use urne_core::crypto::{Hash32, keys, sha256};

/// Writes each output atomically into `out` with its detached signature by the result key, plus
/// the two public keys (when not there yet); returns each output's SHA-256 by name.
/// Refuses before writing anything if one of the outputs exists already.
pub fn write_signed(
    hsm: &Hsm,
    out: &Path,
    outputs: &[(&str, Vec<u8>)],
    result_key: &[u8; 32],
    audit_key: &[u8; 32],
) -> Result<BTreeMap<String, Hash32>> {
    fsio::ensure_dir(out)?;
    for (name, _) in outputs {
        if out.join(name).exists() {
            return Err(Error::refused(
                format!("{} already exists", out.join(name).display()),
                "outputs are never overwritten: give an empty --out folder",
            ));
        }
    }
    let mut written = BTreeMap::new();
    for (name, bytes) in outputs {
        // The HSM signs while the file is written and synced on another thread (a 64 MB
        // production file takes a few tenths of a second each way); if signing fails, the file
        // is removed again, so no unsigned output is left behind.
        let path = out.join(name);
        let (sig, wrote) = std::thread::scope(|s| {
            let w = s.spawn(|| fsio::write_atomic(&path, bytes, false));
            let sig = hsm.sign(KeyRole::Result, bytes);
            (sig, w.join().expect("writer thread"))
        });
        let sig = match (sig, wrote) {
            (Ok(sig), Ok(())) => sig,
            (Err(e), wrote) => {
                if wrote.is_ok() {
                    let _ = std::fs::remove_file(&path);
                }
                return Err(e);
            }
            (Ok(_), Err(e)) => return Err(e),
        };
        fsio::write_atomic(&out.join(format!("{name}.sig")), &sig, false)?;
        written.insert(name.to_string(), sha256(bytes));
    }
    for (name, k) in [("result.pub.pem", result_key), ("audit.pub.pem", audit_key)] {
        let pem = keys::public_key_to_pem(k);
        let p = out.join(name);
        if !p.exists() {
            fsio::write_atomic(&p, pem.as_bytes(), false)?;
        }
    }
    Ok(written)
}

/// Writes `bytes` to `path` and `sig` (already made) to `path.sig`, each atomically.
pub fn write_with_sig(path: &Path, bytes: &[u8], sig: &[u8]) -> Result<()> {
    fsio::write_atomic(path, bytes, false)?;
    fsio::write_atomic(
        &PathBuf::from(format!("{}.sig", path.display())),
        sig,
        false,
    )
}
