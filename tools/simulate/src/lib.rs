//! Test and demo tool (not part of the appliance): writes a signed daily entry export in
//! production's format (entry-export-v1) with a realistic mix of plays, and beside it an
//! `.expected.json` oracle in the shape of production's reference generator (`gen-entries`).
//!
//! The oracle is computed here, from what was generated, by this tool's own statement of the rules
//! (D-3 … D-6, D-13, module `operation`): it does not call `urne_verify::entries`, so the tests that compare the two are a
//! real cross-check. It never touches the HSM or the audit trail.
//!
//! ```text
//! urne-simulate --day 2018-12-01 --plays 10000 --key test-producer.key.pem --out DIR
//! urne-simulate --day 2018-12-22 --plays 5000000 --key … --out DIR     # benchmark size
//! urne-simulate --day 2018-12-01 --break duplicate-id --key … --out DIR
//! urne-simulate --day 2018-12-05 --generated-at 2018-12-06T00:00:00+01:00 \
//!     --status-as-of 2018-12-06T00:00:00+01:00 --key … --out DIR   # the header's dates
//! ```
//!
//! Exit codes: 0 written, 2 bad arguments or unreadable key, 1 could not write.
//!
//! One job per module: `args` (the command line), `operation` (this tool's statement of the
//! rules), `rng` (the generator), `stamp` (how instants are written), `record` (a record and its
//! line), `generate` (the day's records), `breaks` (the `--break` kinds), `export` (writing and
//! signing the export), `oracle` (`.expected.json`), `progress`.

#![forbid(unsafe_code)]

mod args;
mod breaks;
mod export;
mod generate;
mod operation;
mod oracle;
mod progress;
mod record;
mod rng;
mod stamp;

use clap::Parser;
use ed25519_dalek::SigningKey;

use urne_verify::crypto::keys::private_seed_from_pem;

use crate::args::{Args, parse_day};
use crate::export::write_export;
use crate::operation::{OPERATION, PERIODS};

/// Prints `error:` and `hint:` lines on stderr; the exit code of bad arguments.
fn fail(error: &str, hint: &str) -> u8 {
    eprintln!("error: {error}\nhint: {hint}");
    2
}

/// Runs the simulator on a command line (`args[0]` is the program name) and returns its exit
/// code: 0 written, 2 bad arguments or unreadable key, 1 could not write. The binary is this
/// function; the integration tests of the appliance call it directly.
#[expect(
    clippy::missing_panics_doc,
    reason = "its one `expect` looks up a day already checked to be in the operation"
)]
pub fn run<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let a = match Args::try_parse_from(args) {
        Ok(a) => a,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };

    // 1. Arguments become a checked configuration before any work.
    let Some(day) = parse_day(&a.day) else {
        return fail(
            &format!("--day {:?} is not a day of {OPERATION}", a.day),
            "give a date YYYY-MM-DD from 2018-12-01 to 2018-12-24 (rule D-2)",
        );
    };
    let tranche = PERIODS
        .iter()
        .find(|(f, l, _)| (*f..=*l).contains(&day))
        .map(|p| p.2)
        .expect("day checked");
    if a.plays > u64::from(u32::MAX) / 2 {
        return fail("--plays is too large", "use at most 2,000,000,000 plays");
    }
    let n_accounts = a.accounts.unwrap_or((a.plays / 5).max(1));
    if n_accounts == 0 || n_accounts > u64::from(u32::MAX) / 2 {
        return fail(
            "--accounts must be between 1 and 2,000,000,000",
            "leave it out to use plays / 5",
        );
    }
    let n_excl = a.exclusions.unwrap_or(n_accounts / 200);
    let pem = match std::fs::read_to_string(&a.key) {
        Ok(p) => p,
        Err(e) => {
            return fail(
                &format!("cannot read the key {}: {e}", a.key.display()),
                "give the producer's PEM private key, e.g. tests/fixtures/keys/test-producer.key.pem",
            );
        }
    };
    let producer = match private_seed_from_pem(&pem) {
        Ok(seed) => SigningKey::from_bytes(&seed),
        Err(e) => {
            return fail(
                &format!("{} is not an Ed25519 private key: {e}", a.key.display()),
                "give a PEM 'PRIVATE KEY' (PKCS#8 Ed25519), as `openssl genpkey -algorithm ed25519` writes",
            );
        }
    };
    if let Err(e) = std::fs::create_dir_all(&a.out) {
        return fail(
            &format!("cannot create {}: {e}", a.out.display()),
            "give a folder you can write to",
        );
    }
    match write_export(&a, day, tranche, n_accounts, n_excl, &producer) {
        Ok(path) => {
            println!("{}", path.display());
            0
        }
        Err(e) => {
            eprintln!(
                "error: cannot write the export: {e}\nhint: check free space and permissions in {}",
                a.out.display()
            );
            1
        }
    }
}
