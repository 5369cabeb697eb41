//! urne-core: the pure core of the urne draw appliance. Everything SPEC.md specifies lives here:
//! hashing, the HMAC_DRBG, Merkle trees, Ed25519 verification, the rules files, production's
//! export and its tally, the daily draw, instant-game blocks, every output file format, the
//! minutes text, audit-event hashing and checkpoints, and all third-party verification.
//!
//! It touches no HSM, no database and no clock, and reads no environment: it is given bytes,
//! keys and times, or the paths of files a caller names (verifying a folder). The appliance
//! (the `urne` binary) is the only place that signs, stores or reads the time. This crate is the
//! library production and auditors link to.

#![forbid(unsafe_code)]

pub mod audit;
pub mod block;
pub mod crypto;
pub mod draw;
pub mod entries;
pub mod rules;
pub mod software;
pub mod verify;
