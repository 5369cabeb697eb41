//! Production's daily entry exports (spec/formats.md §4.1; format `entry-export-v1`, spec/formats.md §4.1.1): the
//! signature check, the strict parse, and the D-1, D-3 … D-6 / D-13 tally that turns one day's
//! plays into entries.
//!
//! Two passes over the same bytes, because inputs are verified before they are parsed (design
//! principle 5):
//!
//! 1. [`verify_export`] streams the file once: strict pure Ed25519 (RFC 8032, spec/formats.md §1.4)
//!    against the trusted producer keys, plus SHA-256 and size. Nothing is parsed. The result,
//!    a [`VerifiedExport`], names the key that verified and the exact bytes (by hash and size).
//! 2. [`tally_export`] streams it again, parses and validates every line exactly as the format
//!    says, recomputes SHA-256 and refuses the file if it is not the one that was verified, and
//!    computes the entries: a [`DayTally`], whose [`DayTally::entries`] is the canonical entry
//!    list of spec/formats.md §4.1 ([`AccountEntries`], ascending by account bytes). (A third read, hash-checked
//!    the same way, happens only when two play ids may be equal: see [`tally_export_with`].)
//!
//! A refusal is an [`ExportError`]: the rule broken ([`ExportErrorKind`], with a stable
//! [`name`](ExportErrorKind::name)) and the 1-based line it applies to, if any.
//!
//! This module is pure: it reads from the readers it is given (opened by the caller's function
//! for each pass), names no file and reads no clock.
//! Its results do not depend on record order or thread count: entries come out sorted by account
//! bytes, and the error reported is always the one on the earliest line.
//!
//! # Example
//!
//! A one-play export, signed (here with a throwaway key standing for production's), verified,
//! then tallied. With a file, the reader of pass 1 is the opened file and `open` is
//! `|| std::fs::File::open(path)`.
//!
//! ```
//! use ed25519_dalek::{Signer, SigningKey};
//! use urne_verify::crypto::keys::key_id;
//! use urne_verify::entries::{tally_export, verify_export};
//! use urne_verify::rules::draw::DrawRules;
//!
//! let producer = SigningKey::from_bytes(&[7; 32]);
//! let public = producer.verifying_key().to_bytes();
//! let header = format!(
//!     r#"{{"format":"draw-entries","version":1,"operation":"chanceux-noel-2018","day":"2018-12-05","producer":"{}","generated_at":"2018-12-06T07:30:00+01:00","status_as_of":"2018-12-06T07:30:00+01:00","plays":1,"exclusions":0}}"#,
//!     key_id(&public)
//! );
//! let play = format!(
//!     r#"{{"type":"play","id":"p-1","account":"{}","at":"2018-12-05T10:00:00+01:00","stake_cents":2500,"channel":"web","game":"loto","subscription":null}}"#,
//!     "ab".repeat(32)
//! );
//! let export = format!("{header}\n{play}\n").into_bytes();
//! let sig = producer.sign(&export).to_bytes();
//!
//! let rules = DrawRules::chanceux_noel_2018();
//! let verified = verify_export(&export[..], &sig, &[public])?;
//! let tally = tally_export(|| Ok(&export[..]), &verified, &rules)?;
//! // 2,500 cents in tranches of 1,000 (period P1): two entries (D-3), under the cap of 3 (D-4).
//! assert_eq!(tally.period_id, "P1");
//! assert_eq!((tally.entries.len(), tally.total_entries), (1, 2));
//! assert_eq!(tally.entries[0].account, [0xab; 32]);
//! # Ok::<(), urne_verify::entries::ExportError>(())
//! ```
//!
//! # How the reader applies spec/formats.md §4.1.1
//!
//! The points a re-implementation needs to refuse the same files for the same reasons, beyond
//! the format's own text:
//!
//! - **Order of refusals.** The file's metadata first when the caller has them (not a regular
//!   file, too large: [`check_export_metadata`]). The signature (pass 1; a wrong signature
//!   length, no trusted key, or no key that verifies; more bytes than an export may hold). Then,
//!   in pass 2: if the bytes read are not the verified ones, [`ExportErrorKind::FileChanged`],
//!   whatever else is wrong; otherwise the error on the smallest line (line 1 is the header; a
//!   duplicate play id or exclusion is reported on its second line); and only when every line is
//!   valid, the header's counts ([`ExportErrorKind::CountMismatch`], plays before exclusions, not
//!   tied to a line), then the number of accounts with entries
//!   ([`ExportErrorKind::TooManyAccountsWithEntries`]).
//! - **Lines.** No CR anywhere: a line ending in CR LF is refused ([`ExportErrorKind::Crlf`]),
//!   a CR anywhere else in a line, between JSON tokens included, too
//!   ([`ExportErrorKind::CarriageReturn`]); so is a last line without LF, and a line that is
//!   not UTF-8. An empty line, or one that is not exactly one JSON object (RFC 8259; its
//!   whitespace is space, tab and LF only), is [`ExportErrorKind::InvalidJson`]. A line is parsed
//!   as JSON in full before any of its fields is looked at.
//! - **Limits** ([`MAX_EXPORT_BYTES`], [`MAX_LINE`], [`MAX_DEPTH`],
//!   [`MAX_ACCOUNTS_WITH_ENTRIES`]), rules of the format that every reader applies the same way:
//!   a file of more than 2^34 bytes is refused ([`ExportErrorKind::TooLarge`]; from its metadata
//!   before it is read, [`check_export_metadata`]); every line is at most 2^20 bytes without its
//!   LF, wherever it lies in the file ([`ExportErrorKind::LineTooLong`]); objects and arrays nest
//!   at most 64 levels, the line's object being level 1 ([`ExportErrorKind::InvalidJson`]); at
//!   most 2^24 accounts have entries (one day's leaves,
//!   [`ExportErrorKind::TooManyAccountsWithEntries`]). A reader limit: a play on line 2^32 or
//!   later is refused ([`ExportErrorKind::TooManyLines`]).
//! - **Keys and strings** are compared after JSON unescaping: `"\u0074ype"` is the key `type`
//!   (and a duplicate of it), `"p\u002d1"` is the id `p-1`. A key twice in one object is refused
//!   at any depth, inside unknown fields too. Unknown members are ignored but must be valid
//!   JSON. `game` counts Unicode scalar values (1-64); `id` and `account` are ASCII.
//! - **Integers.** `stake_cents`, `plays` and `exclusions` must be JSON numbers without
//!   fraction or exponent (`1000.0` and `1e3` are refused: [`ExportErrorKind::WrongType`]);
//!   `version` must be written `1`. A negative count or stake is out of range.
//! - **Fields, in order.** The header: `format` (its absence means line 1 is not a header,
//!   [`ExportErrorKind::MissingHeader`]), `version`, `operation`, `day` (a date, then a day of
//!   one of the rules' periods), `producer`, `generated_at`, `status_as_of`, `plays`,
//!   `exclusions`. A record: `type`; then for a play `id`, `account`, `at`, `stake_cents`,
//!   `channel`, `game`, `subscription` (`null`, or an object whose `subscribed_at` is required
//!   and whose other members are ignored), and last the day of `at` (D-1,
//!   [`ExportErrorKind::PlayNotOnDay`]); for an exclusion `account`, then `reason` (one of the
//!   rules' `exclusion_reasons`). The first field that fails is the one reported.
//! - **Instants** (`at`, `subscribed_at`, `generated_at`, `status_as_of`): RFC 3339 `date-time`
//!   with a numeric offset or `Z`, as [`rfc3339::parse_unix`] reads them (`T` and `Z` in either
//!   case, a fraction of a second dropped, offsets up to ±23:59, no leap second).
//! - **Exclusions** apply to the account whatever their position in the file, before or after its
//!   plays.
//! - **Classes.** Each play is in one class, tested in this order: retail (its `channel` is not
//!   one of the rules' `online_channels`, whatever its name, D-3), subscription refused (D-5),
//!   else counting. [`DayTally::excluded_accounts_with_plays_by_reason`] counts the excluded
//!   accounts with at least one play of any class (spec/formats.md §4.7).

mod accounts;
mod chunks;
mod counting;
mod error;
mod fast;
mod fields;
mod header;
mod json;
mod limits;
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
pub use limits::{MAX_ACCOUNTS_WITH_ENTRIES, MAX_DEPTH, MAX_EXPORT_BYTES, MAX_LINE};
pub use read::{check_export_metadata, check_export_size};
pub use results::{AccountEntries, DayTally, VerifiedExport};
pub use tally::{TallyOptions, tally_export, tally_export_with};
pub use verify::{Refused, verify_export, verify_export_hashing};
