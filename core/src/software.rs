//! The exact software that made a result (design principle 6): version, source revision, and the
//! SHA-256 of the running executable, bound into every output (the `software` object of
//! `result.json` and `bundle.json`, SPEC.md §4.7, and of a block commitment, §5.B9) and recorded
//! by the `software.start` event of the audit trail (§6.2). The appliance measures it
//! (`src/edge/identity.rs`); here it is only a record.

use crate::crypto::Hash32;
use serde::{Deserialize, Serialize};

/// Name, version, source revision and executable hash of the software that made a result, as
/// the JSON object `{name, version, source_revision, executable_sha256}` (fields in that order).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct SoftwareIdentity {
    /// The package name of the appliance (`urne`).
    pub name: String,
    /// The appliance's package version (`Cargo.toml`'s `version`, e.g. `0.1.0`).
    pub version: String,
    /// The git commit the executable was built from (40 hex digits), with `-modified` appended
    /// if tracked files differed from it, or `unknown` when it was not built from a git
    /// checkout.
    pub source_revision: String,
    /// SHA-256 of the running executable file's bytes, lowercase hex: it names the exact binary,
    /// not only its source.
    pub executable_sha256: Hash32,
}
