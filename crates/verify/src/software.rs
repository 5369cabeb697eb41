//! The exact software that made a result (design principle 6): version, source revision, and the
//! SHA-256 of the running executable, bound into every output (the `software` object of
//! `result.json` and `bundle.json`, spec/formats.md §4.7, and of a block commitment, spec/formats.md §5.B9) and recorded
//! by the `software.start` event of the audit trail (spec/formats.md §6.2). The appliance measures it
//! (`src/edge/identity.rs`); here it is only a record. [`Pkcs11Identity`] is the same for the code
//! that answers for the HSM: the PKCS#11 module, the token, and every file mapped in the process
//! (measured by `src/edge/hsm/module.rs` and `src/edge/loader.rs`).

use crate::crypto::Hash32;
use serde::{Deserialize, Serialize};

/// Name, version, source revision and executable hash of the software that made a result, as
/// the JSON object `{name, version, source_revision, executable_sha256}` (fields in that order).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
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

/// The code that answered for the HSM in the process that made a record (spec/formats.md §6.2,
/// `software.start`): the PKCS#11 module as configured and as loaded, what the module and the
/// token say of themselves, and every file mapped in the process after `C_Initialize`. Members,
/// in this order: `module_path`, `module_sha256`, `manufacturer`, `library`, `library_version`,
/// `cryptoki_version`, `token`, `mapped`.
///
/// It is evidence, not a proof: a module that lies about itself, or a file changed in place
/// after it was mapped, is not caught by it (docs/threat-model.md, "The code that answers for
/// the HSM").
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Pkcs11Identity {
    /// The module's path as configured (`module`, or `URNE_HSM_MODULE`).
    pub module_path: String,
    /// SHA-256 of the module's bytes, read from the open file descriptor the module was then
    /// loaded from (never from the path a second time), lowercase hex.
    pub module_sha256: Hash32,
    /// `C_GetInfo`'s `manufacturerID`.
    pub manufacturer: String,
    /// `C_GetInfo`'s `libraryDescription`.
    pub library: String,
    /// `C_GetInfo`'s `libraryVersion`, `major.minor`.
    pub library_version: String,
    /// `C_GetInfo`'s `cryptokiVersion`, `major.minor`.
    pub cryptoki_version: String,
    /// What the token says of itself (`C_GetTokenInfo`).
    pub token: Pkcs11Token,
    /// Every file mapped in the process, once each, sorted by path.
    pub mapped: Vec<MappedObject>,
}

/// The token as `C_GetTokenInfo` describes it. Members, in this order: `label`, `manufacturer`,
/// `model`, `serial`, `firmware`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Pkcs11Token {
    /// `label`, without its padding.
    pub label: String,
    /// `manufacturerID`.
    pub manufacturer: String,
    /// `model`.
    pub model: String,
    /// `serialNumber`.
    pub serial: String,
    /// `firmwareVersion`, `major.minor`.
    pub firmware: String,
}

/// What was found at the path of a mapped file when it was measured.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum MappedStatus {
    /// The path names the very file that is mapped (same device and inode).
    Present,
    /// The kernel shows the mapped file as deleted (`(deleted)` in `/proc/self/maps`): removed,
    /// or replaced by a rename, after it was mapped.
    Deleted,
    /// The path now names another file than the one mapped.
    Replaced,
    /// The path is not a regular file (a device, a socket).
    Special,
    /// The file could not be opened or read.
    Unreadable,
}

/// One file mapped in the process. Members, in this order: `path`, `status`, `sha256`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct MappedObject {
    /// The path as the kernel shows it in `/proc/self/maps`, without the ` (deleted)` suffix.
    pub path: String,
    /// What the path held when it was measured.
    pub status: MappedStatus,
    /// SHA-256 of the mapped file's bytes, lowercase hex, when they could be read as the file
    /// that is mapped (through the kernel's link to the mapping, the module's own descriptor, or
    /// the path when it still names that file); `null` otherwise.
    #[serde(deserialize_with = "crate::json::nullable")]
    #[cfg_attr(
        test,
        schemars(required, schema_with = "crate::schemas::nullable::<Hash32>")
    )]
    pub sha256: Option<Hash32>,
}

/// The software a `software.start` event of an exported trail names (spec/formats.md §6.2,
/// §8.8): its event's `seq` and its payload's `software`, or why the payload does not give one
/// (the parser's words; only a release's check reads it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Started {
    /// The event's sequence number.
    pub seq: u64,
    /// The payload's `software`, or the parser's words.
    pub software: Result<SoftwareIdentity, String>,
}
