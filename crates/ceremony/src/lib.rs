//! # urne-ceremony
//!
//! What the urne appliance decides and records at a ceremony but a third party never needs to
//! verify its outputs. It depends on [`urne_verify`] (the formats, records and event registry
//! it reads) and nothing depends on it but the appliance: an auditor builds `urne-verify` alone.
//!
//! ## Module map
//!
//! - [`minutes`]: the minutes a commissaire de justice signs, of a sitting, of the key ceremony
//!   and of a lone draw (`pv.html`), read from the trail and rendered as printable HTML (spec/appliance.md §9.2);
//!   `minutes::pv` also judges a ceremony's date against D-8.
//! - [`token`]: what the token keeps of the trail (spec/appliance.md §6.6): the trail's identity, the byte formats
//!   of the `urne-trail` and `urne-mark` objects, the current trail among a chain of restarts
//!   (spec/appliance.md §6.8), and the check that a database is the token's trail and extends its last mark.
//! - [`sealed`]: a secret sealed by the token (spec/appliance.md §6.9): the box's JSON and byte forms and its
//!   additional data (sealing and opening are the appliance's).
//! - [`state`]: the state machine of days (`state::day`) and blocks (`state::block`), read from
//!   the whole trail through the registry, failing closed (spec/formats.md §4.6, §6.2); the sittings, and a
//!   sitting closed whose output the trail does not yet record (`state::sittings`, spec/formats.md §9.3).
//! - [`void_statement`]: what a void notice states of a void, read from the trail alone, and
//!   which voids the trail does not yet record as announced (spec/formats.md §4.6, §5.B9).
//!
//! ## What it never does
//!
//! The same as `urne-verify`: no unsafe code (`#![forbid(unsafe_code)]`), no HSM, database,
//! command line, terminal, clock or environment; every input is an argument.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod minutes;
pub mod sealed;
pub mod state;
pub mod token;
pub mod void_statement;
