//! The command line: its arguments and the breaks it can ask for.
//!
//! The doc comments of [`Args`]' fields are its `--help` text, and the variant names of [`Break`]
//! its `--break` values: they are part of the tool's interface (no doc comments on the variants,
//! which clap would print as help).

use std::path::PathBuf;

use clap::{Parser, ValueEnum};

/// The 16 ways gen-entries can break a file; each must be refused by the appliance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Break {
    BadSignature,
    WrongKey,
    Truncated,
    CountMismatch,
    DuplicateId,
    WrongDay,
    BadJson,
    BadUtf8,
    NegativeStake,
    UnknownType,
    BadAccount,
    MissingField,
    DuplicateExclusion,
    WrongOperation,
    NoHeader,
    Crlf,
}

/// Write a signed daily entry export (entry-export-v1) and its expected tally, for tests, demos
/// and benchmarks. Not part of the appliance.
#[derive(Parser, Debug)]
#[command(name = "urne-simulate", version)]
pub(crate) struct Args {
    /// The day, YYYY-MM-DD, a day of the operation (2018-12-01 … 2018-12-24).
    #[arg(long)]
    pub(crate) day: String,
    /// Distinct accounts [default: plays / 5].
    #[arg(long)]
    pub(crate) accounts: Option<u64>,
    /// Play records to write.
    #[arg(long, default_value_t = 10_000)]
    pub(crate) plays: u64,
    /// Excluded accounts [default: accounts / 200].
    #[arg(long)]
    pub(crate) exclusions: Option<u64>,
    /// Seed of the generator: the same arguments always write the same bytes.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Producer private key (PEM PKCS#8 Ed25519), e.g. tests/fixtures/keys/test-producer.key.pem.
    #[arg(long)]
    pub(crate) key: PathBuf,
    /// Folder to write into (created if missing).
    #[arg(long)]
    pub(crate) out: PathBuf,
    /// Write an invalid export of this kind instead.
    #[arg(long = "break", value_enum)]
    pub(crate) brk: Option<Break>,
    /// Leave per-account entries out of .expected.json (for very large days).
    #[arg(long)]
    pub(crate) no_detail: bool,
    /// The header's `generated_at`, as written (RFC 3339 with offset).
    #[arg(long, default_value = GENERATED_AT)]
    pub(crate) generated_at: String,
    /// The header's `status_as_of`, as written (RFC 3339 with offset).
    #[arg(long, default_value = GENERATED_AT)]
    pub(crate) status_as_of: String,
}

/// When production made the exports, by default: after the last day of the operation ended.
pub(crate) const GENERATED_AT: &str = "2018-12-26T07:30:00+01:00";

/// The day of December 2018 if `s` is YYYY-MM-DD and a day of the operation.
pub(crate) fn parse_day(s: &str) -> Option<u32> {
    let rest = s.strip_prefix("2018-12-")?;
    if rest.len() != 2 || !rest.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let d: u32 = rest.parse().ok()?;
    (1..=24).contains(&d).then_some(d)
}
