//! The public keys a verification trusts, and reading a published file only once its detached
//! signature (SPEC.md §1.4) holds: inputs are verified before they are parsed.

use super::{FailureClass as C, VResult, fail};
use crate::crypto::keys;
use std::path::{Path, PathBuf};

/// The public keys a verification trusts: the appliance's result key (signs every output) and
/// audit key (signs the trail's checkpoints, §6.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keys {
    /// The result key, raw 32-byte Ed25519.
    pub result: [u8; 32],
    /// The audit key, raw 32-byte Ed25519.
    pub audit: [u8; 32],
    /// The folder the keys were read from.
    pub source: PathBuf,
}

/// Why a public key file could not be used (the message names the file).
#[derive(Debug, thiserror::Error)]
pub enum KeyFileError {
    /// The file cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The key file.
        path: PathBuf,
        /// Why it cannot be read.
        source: std::io::Error,
    },
    /// The file is not an Ed25519 public key in PEM.
    #[error("{}: {source}", path.display())]
    Pem {
        /// The key file.
        path: PathBuf,
        /// What is wrong with it.
        source: keys::KeyError,
    },
}

/// Reads the PEM public key `dir/name` (as `urne keys export` writes it).
pub fn load_key(dir: &Path, name: &str) -> Result<[u8; 32], KeyFileError> {
    let path = dir.join(name);
    let pem = std::fs::read_to_string(&path).map_err(|source| KeyFileError::Read {
        path: path.clone(),
        source,
    })?;
    keys::public_key_from_pem(&pem).map_err(|source| KeyFileError::Pem { path, source })
}

/// Reads `result.pub.pem`, then `audit.pub.pem`, from `dir`.
pub fn load_keys(dir: &Path) -> Result<Keys, KeyFileError> {
    Ok(Keys {
        result: load_key(dir, "result.pub.pem")?,
        audit: load_key(dir, "audit.pub.pem")?,
        source: dir.to_path_buf(),
    })
}

/// Reads a file and checks its detached signature by the result key BEFORE returning its bytes
/// (inputs are verified before they are parsed).
pub fn read_signed(dir: &Path, name: &str, key: &[u8; 32]) -> VResult<Vec<u8>> {
    let p = dir.join(name);
    let bytes = std::fs::read(&p)
        .map_err(|e| fail(C::Malformed, format!("cannot read {}: {e}", p.display())))?;
    let sig = std::fs::read(dir.join(format!("{name}.sig"))).map_err(|_| {
        fail(
            C::BadSignature,
            format!("{name} has no signature file {name}.sig"),
        )
    })?;
    if !keys::verify(key, &bytes, &sig) {
        return Err(fail(
            C::BadSignature,
            format!(
                "the signature of {name} does not verify under the result key {}",
                keys::key_id(key)
            ),
        ));
    }
    Ok(bytes)
}
