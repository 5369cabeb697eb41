//! urne, the appliance: the command line, the HSM (PKCS#11), the SQLite audit trail, the one
//! clock, files and configuration. Everything SPEC.md specifies (algorithms, formats,
//! verification) is in the pure core crate `urne-verify`; this crate calls into it and is the only
//! one that signs, stores or reads the time (docs/architecture.md).

// First, so that its macros (`say!`, `note!`) are in scope in every module after it.
#[macro_use]
pub mod out;
pub mod cli;
pub mod cmd;
pub mod edge;
pub mod error;
pub mod msg;
pub mod text;
