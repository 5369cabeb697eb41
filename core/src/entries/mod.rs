//! Production's daily entry exports (SPEC.md §4.1; format `entry-export-v1`, §4.1.1): the
//! signature check, the strict parse, and the D-1, D-3 … D-6 / D-13 tally that turns one day's
//! plays into entries.
//!
//! Two passes over the same bytes, because inputs are verified before they are parsed (design
//! principle 5):
//!
//! 1. [`verify_export`] streams the file once: strict pure Ed25519 (RFC 8032) against the trusted
//!    producer keys, plus SHA-256 and size. Nothing is parsed.
//! 2. [`tally_export`] streams it again, parses and validates every line exactly as the format
//!    says, recomputes SHA-256 and refuses the file if it is not the one that was verified, and
//!    computes the entries. (A third read, hash-checked the same way, happens only when two play
//!    ids may be equal: see [`tally_export_with`].)
//!
//! This module is pure: it reads from the readers it is given (opened by the caller's function
//! for each pass), names no file and reads no clock.
//! Its results do not depend on record order or thread count: entries come out sorted by account
//! bytes, and the error reported is always the one on the earliest line.

mod accounts;
mod chunks;
mod counting;
mod error;
mod fast;
mod fields;
mod header;
mod json;
mod merge;
mod play_ids;
mod read;
mod record;
mod rehash;
mod results;
pub mod rfc3339;
mod sorted;
mod tally;
#[cfg(test)]
mod testkit;
mod verify;

pub use error::{ExportError, ExportErrorKind};
pub use results::{AccountEntries, DayTally, VerifiedExport};
pub use tally::{TallyOptions, tally_export, tally_export_with};
pub use verify::verify_export;
