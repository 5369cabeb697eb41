//! The exact software that made a result (design principle 6): version, source revision, and
//! the SHA-256 of the running executable, recorded at the start of every command that changes
//! anything and bound into every output.

use crate::error::{Error, Kind, Result};
use sha2::{Digest, Sha256};
use std::io::Read;
pub use urne_verify::software::SoftwareIdentity;

/// Reads the running executable and hashes it.
pub fn current() -> Result<SoftwareIdentity> {
    let exe = std::env::current_exe().map_err(|e| {
        Error::new(
            Kind::SystemFailed,
            crate::msg!(crate::msg::catalogue::edge::ERR_SELF_LOCATE, e = e),
            crate::msg!(crate::msg::catalogue::edge::REC_SELF_LOCATE),
        )
    })?;
    let mut f = std::fs::File::open(&exe)
        .map_err(|e| crate::error::io_error(crate::error::Io::Read, &exe, e))?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f
            .read(&mut buf)
            .map_err(|e| crate::error::io_error(crate::error::Io::Read, &exe, e))?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    let executable_sha256 = urne_verify::crypto::Hash32(h.finalize().into());
    // The executable is mapped in the process: its measurement (software.start) reuses this hash.
    crate::edge::loader::remember(&f, executable_sha256);
    Ok(SoftwareIdentity {
        name: env!("CARGO_PKG_NAME").to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        source_revision: env!("URNE_SOURCE_REVISION").to_string(),
        executable_sha256,
    })
}
