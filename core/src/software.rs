//! The exact software that made a result (design principle 6): version, source revision, and the
//! SHA-256 of the running executable, bound into every output. The appliance measures it
//! (`src/edge/identity.rs`); here it is only a record.

use crate::crypto::Hash32;
use serde::{Deserialize, Serialize};

/// Name, version, source revision and executable hash of the software that made a result.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct SoftwareIdentity {
    /// The package name (`urne`).
    pub name: String,
    /// The package version.
    pub version: String,
    /// The git revision built from (`-modified` if the tree was not clean).
    pub source_revision: String,
    /// SHA-256 of the executable file.
    pub executable_sha256: Hash32,
}
