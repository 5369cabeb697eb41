#![doc = include_str!("../README.md")]
//!
//! ## Module map
//!
//! One line per module, with the sections of spec/formats.md it implements:
//!
//! - [`crypto`]: SHA-256 and the tagged hash, key ids, the one strict Ed25519 verifier and PEM
//!   keys, the `HMAC_DRBG` and unbiased integers, RFC 6962 Merkle trees (spec/formats.md §1.2–§1.4, §2.1–§2.4).
//! - [`rules`]: the operation rules of the daily draws (clauses D-1 … D-15) and the instant-game
//!   rules file (spec/formats.md §5.B1), validated at load and bound into results by their SHA-256.
//! - [`entries`]: production's signed daily export, `entry-export-v1`: signature check, strict
//!   parse, and the tally into the canonical entry list (spec/formats.md §4.1, §4.1.1).
//! - [`draw`]: the daily draw: figures, pseudonyms, commitment, seed, winner and reserves, the
//!   published files and proofs, the minutes annex, the trail records of a day
//!   (spec/formats.md §4.1–§4.8, §6.2).
//! - [`block`]: instant-game blocks: identity, seed, deck and shuffle, ticket grids,
//!   `tickets.csv`, commitments and the published files (spec/formats.md §5.B2–§5.B9).
//! - [`audit`]: audit-event hashing, the hash chain and the signed-note checkpoints, and an
//!   output's history (spec/formats.md §6.1, §6.3, §6.7).
//! - [`events`]: the registry of event kinds and their typed payloads (spec/formats.md §6.2): verifying an
//!   exported trail calls an unknown kind a broken trail, so the registry is the verifier's.
//! - [`subject`]: what an output publishes, the key of the checks that one history publishes each
//!   thing once (spec/formats.md §8.4), in words by `Display`.
//! - [`values`]: a day, a key id and an attempt as types, checked where the steps check them
//!   (spec/formats.md §1.3, §4.7).
//! - [`void_notice`]: the signed notice a void of a day or a block writes: its format and subject
//!   (spec/formats.md §4.6, §5.B9, §6.7).
//! - [`verify`]: third-party verification of draw folders, proofs, block folders, void notices
//!   and the audit trail (spec/formats.md §8.1–§8.3, §4.6, §5.B10, §6.4); the verdict in words
//!   (`verify::verdict`) and a folder on disk (`verify::disk`).
//! - [`software`]: the identity of the software bound into every output (spec/formats.md §4.7, §5.B9, §6.2).
//!
//! ## What it never does, and what enforces it
//!
//! - No unsafe code: `#![forbid(unsafe_code)]`.
//! - No HSM, database or command line: `cargo tree -p urne-verify` lists none of `cryptoki`
//!   (the HSM's interface), `rusqlite`, `clap` or `rpassword`.
//! - No clock: chrono is built without its `clock` feature, and clippy's `disallowed-methods`
//!   (`clippy.toml`) refuses `SystemTime::now` and chrono's `now`. Times are given by the
//!   caller.
//! - No environment or configuration: every input is an argument (bytes, keys, rules, times,
//!   or the path of a file or folder the caller names).
//! - No signing and no output: it has no signing function (it only parses a private key's PEM,
//!   for the export simulator and tests), prints nothing, and returns results and typed errors.
//!   The appliance signs, stores and talks to the operator.
//! - No dependence on scheduling: results that use threads (the export's tally, block
//!   generation) are the same whatever the thread count.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod audit;
pub mod block;
pub mod crypto;
pub mod draw;
pub mod entries;
pub mod events;
pub mod json;
pub mod manifest;
pub mod randomness;
pub mod rules;
pub mod sitting;
pub mod software;
pub mod subject;
pub mod values;
pub mod verify;
pub mod void_notice;

#[cfg(test)]
mod schemas;
