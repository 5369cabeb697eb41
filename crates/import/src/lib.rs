//! urne-import: production's import of the appliance's publications (crates/import/README.md).
//!
//! Given a publications medium (a folder of outputs, or one output folder), the appliance's
//! public keys obtained from outside, and production's own list of the exports it sent, it
//! verifies everything with the `urne-verify` library (every output, one linear history, and
//! that history passing through the last checkpoint the database holds), requires the official
//! rules and each result bound to an export production sent, works out the state of every day
//! and block ([`state`]), checks each block's production file against its commitment
//! ([`tickets`]), and loads it all into `PostgreSQL` in one transaction ([`db`]); or, without a
//! database, says it as JSON Lines ([`lines`]). Every refusal loads nothing.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod cli;
pub mod db;
pub mod error;
pub mod exports;
pub mod lines;
pub mod state;
pub mod tickets;

pub use error::{ImportError, Kind};
pub use exports::Exports;

use std::path::{Path, PathBuf};
use urne_verify::verify::disk::DiskFolder;
use urne_verify::verify::outputs::{check_held, is_output, verify_output, verify_outputs};
use urne_verify::verify::signed::{Keys, load_keys};
use urne_verify::verify::{Expect, FailureClass, Report};

/// What to import.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The publications medium: a folder of outputs, or one output folder.
    pub medium: &'a Path,
    /// The folder of the appliance's public keys (`result.pub.pem`, `audit.pub.pem`), obtained
    /// independently of the medium.
    pub keys: &'a Path,
    /// The exports production sent.
    pub exports: &'a Exports,
    /// Folders of blocks' production files (the secret medium), possibly none.
    pub tickets: &'a [PathBuf],
    /// Signed checkpoints held outside the appliance (the minutes' copy), as (name, text): each
    /// must lie on the outputs' history (spec/formats.md §8.4). The first import into a database
    /// has nothing else to tie the medium to the history the commissaire witnessed.
    pub checkpoints: &'a [(String, String)],
}

/// Everything verified and worked out, ready to load.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The keys the outputs verified under.
    pub keys: Keys,
    /// The verification's report.
    pub report: Report,
    /// The state of every day and block.
    pub state: state::State,
    /// The production files, each checked against its commitment.
    pub tickets: Vec<tickets::Tickets>,
    /// The production files given that no commitment among the outputs names (not loaded).
    pub other_tickets: Vec<PathBuf>,
}

/// Verifies the medium and works out what it publishes; `held`: the database's last checkpoint,
/// which the outputs' history must pass through.
///
/// # Errors
/// Keys that do not load, a medium that does not verify, a history that does not pass through
/// `held`, unofficial rules, an export production did not send, a draw without its accounts, a
/// production file that is not its commitment's ([`ImportError`]'s kinds).
pub fn verify(r: &Request<'_>, held: Option<&str>) -> Result<Plan, ImportError> {
    let keys = load_keys(&DiskFolder::open(r.keys)).map_err(|f| {
        ImportError::new(
            Kind::Usage,
            format!("--keys {}: {}", r.keys.display(), f.what),
            "give the folder of the appliance's public keys (result.pub.pem, audit.pub.pem), from the key ceremony's publication",
        )
    })?;
    let folder = DiskFolder::open(r.medium);
    let report = if is_output(&folder) {
        verify_output(&folder, &keys, None, &Expect::default())
    } else {
        verify_outputs(&folder, &keys, &Expect::default())
    }
    .map_err(|f| ImportError::verification(&f))?;
    let mut notes: Vec<(String, String)> = r.checkpoints.to_vec();
    if let Some(h) = held {
        notes.push(("the database's last import".to_string(), h.to_string()));
    }
    if !notes.is_empty() {
        check_held(&report.outputs, &notes, &keys).map_err(|f| {
            if matches!(f.class, FailureClass::Fork | FailureClass::Inconsistent | FailureClass::Usage) {
                ImportError::new(
                    Kind::Fork,
                    format!(
                        "the medium's outputs are not on the history of the database's last import or of the checkpoint given: {}",
                        f.what
                    ),
                    "import the whole publications medium, later than the last import, with the checkpoint of the sitting's minutes; a medium of another history is never imported (keep it as evidence)",
                )
            } else {
                ImportError::verification(&f)
            }
        })?;
    }
    let state = state::work_out(&report, r.exports, &keys.audit)?;
    let (tickets, other_tickets) = tickets::read(r.tickets, &state.blocks)?;
    Ok(Plan {
        keys,
        report,
        state,
        tickets,
        other_tickets,
    })
}

/// Verifies and loads into the database `client` is connected to, in one transaction.
///
/// # Errors
/// As [`verify`], and the database's refusals ([`Kind::Database`], [`Kind::Fork`]).
pub fn import(
    client: &mut postgres::Client,
    r: &Request<'_>,
) -> Result<(Plan, db::Loaded), ImportError> {
    let held = db::last_checkpoint(client)?;
    let plan = verify(r, held.as_deref())?;
    let medium = r.medium.display().to_string();
    let result_key_id = urne_verify::values::KeyId::of(&plan.keys.result);
    let audit_key_id = urne_verify::values::KeyId::of(&plan.keys.audit);
    let loaded = db::load(
        client,
        &db::Import {
            medium: &medium,
            result_key_id: result_key_id.as_str(),
            audit_key_id: audit_key_id.as_str(),
            state: &plan.state,
            tickets: &plan.tickets,
            held: held.as_deref(),
        },
    )?;
    Ok((plan, loaded))
}
