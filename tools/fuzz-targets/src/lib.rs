//! The bodies of urne's fuzz targets (issue 12, docs/testing.md "Fuzzing"), as library functions
//! that take the fuzzer's bytes and panic when a property does not hold. Two callers:
//!
//! - `fuzz/fuzz_targets/*.rs` (cargo-fuzz, nightly, libFuzzer): one line each, calling the
//!   function of the same name here (`scripts/fuzz` runs them);
//! - `tests/replay.rs` (stable, plain `cargo test`): every file of `fuzz/corpus/<target>/`
//!   through the same function, so the committed corpora are a regression suite.
//!
//! The targets, and the property each asserts:
//!
//! - [`export::export`]: production's export reader (`urne_verify::entries`, spec/formats.md §4.1.1)
//!   against a reference built on `serde_json` and chrono (`export::oracle`): the same
//!   accept/refuse decision and, when accepted, the same tally; and the same outcome on one
//!   parsing thread as on three.
//! - [`tickets::tickets`]: the `tickets.csv` reader (spec/formats.md §5.B6, §5.B8) on a reduced rules
//!   file: never a panic, the same outcome on 1, 2 and 3 threads, an accepted file's root is the
//!   root of its rows, and a row parsed, written and parsed again is the same row.
//! - [`checkpoint::checkpoint`]: the checkpoint note parser (spec/formats.md §6.3, C2SP
//!   tlog-checkpoint): a note it accepts is exactly the note urne writes for that size and root
//!   (so `+5`, `007` or a line ended by CR are not sizes it accepts).
//! - [`outputs::outputs`]: every output file's reader (the serde structs of spec/formats.md §4.7, §4.8,
//!   §5.B9, §4.6, the audit export's events, `keys.json`; the two rules files): never a panic,
//!   and a value parsed, written (spec/formats.md §1.5) and parsed again is the same value.
//! - [`folder::folder`]: `verify` on a draw or block folder built from fuzzed files, each
//!   signed by the fixed test result key, so that parsing is reached: never a panic.
//!
//! Keys are fixed test keys ([`keys`]), never used for anything else.

#![forbid(unsafe_code)]

pub mod checkpoint;
pub mod export;
pub mod folder;
pub mod keys;
pub mod outputs;
pub mod tickets;

/// A target, or a reader of the `outputs` target: it takes the input bytes.
pub type Target = fn(&[u8]);

/// The targets by name, as `fuzz/corpus/<name>/` and `fuzz/fuzz_targets/<name>.rs` name them.
pub const TARGETS: [(&str, Target); 5] = [
    ("export", export::export),
    ("tickets", tickets::tickets),
    ("checkpoint", checkpoint::checkpoint),
    ("outputs", outputs::outputs),
    ("folder", folder::folder),
];
pub mod seeds;
