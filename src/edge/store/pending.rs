//! The commissaire's contribution, kept durably the moment it is confirmed (spec/formats.md §4.4.1):
//! before any computation or PKCS#11 call follows it, in a table of the trail's database beside
//! the events (not part of the chain). The `draw.contribution` / `block.contribution` event that
//! records it is appended next (which calls the token to sign its checkpoint); a command killed,
//! or a module that fails that call, in between leaves the contribution here, and the resumed
//! command shows it and uses exactly it (after the commissaire confirms it is theirs), never a
//! new one. It names the entropy commitment it follows, so it cannot serve another entropy.

use super::{AuditLog, PENDING_SCHEMA, db_err};
use crate::error::Result;
use crate::msg::catalogue::edge as m;
use rusqlite::{OptionalExtension, Transaction, TransactionBehavior};
use urne_verify::crypto::Hash32;

impl AuditLog {
    /// Keeps `contribution`, typed for `purpose` (e.g. `day 2018-12-04 attempt 1`) after the
    /// entropy commitment `ec` was shown, durably (its own transaction, `synchronous=FULL`).
    /// A contribution already kept for them stays as it is. In one IMMEDIATE transaction in
    /// which the database is checked to be exactly urne's (spec/appliance.md §6.5) before the row is
    /// written, so that nothing urne did not make runs on that write. The table is made there
    /// if the trail was made by an earlier urne, which made it only now.
    pub fn keep_contribution(&self, purpose: &str, ec: &Hash32, contribution: &str) -> Result<()> {
        let path = self.path.clone();
        // Rolled back when dropped on an error.
        let tx = Transaction::new_unchecked(&self.conn, TransactionBehavior::Immediate)
            .map_err(|e| db_err(&path, &m::ERR_DB_BEGIN_KEEP, e))?;
        tx.execute_batch(PENDING_SCHEMA)
            .map_err(|e| db_err(&path, &m::ERR_DB_PREPARE_KEEP, e))?;
        super::check_file(&tx, &path)?;
        tx.execute(
            "INSERT OR IGNORE INTO pending_contributions VALUES (?1, ?2, ?3, ?4)",
            (
                purpose,
                ec.to_string(),
                contribution,
                crate::edge::clock::now_rfc3339(),
            ),
        )
        .map_err(|e| db_err(&path, &m::ERR_DB_KEEP, e))?;
        tx.commit().map_err(|e| db_err(&path, &m::ERR_DB_KEEP, e))
    }

    /// The contribution kept for `purpose` after the entropy commitment `ec`, if any.
    pub fn kept_contribution(&self, purpose: &str, ec: &Hash32) -> Result<Option<String>> {
        let path = self.path.clone();
        let table: Option<String> = self
            .conn
            .query_row(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'pending_contributions'",
                [],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| db_err(&path, &m::ERR_DB_READ, e))?;
        if table.is_none() {
            return Ok(None);
        }
        self.conn
            .query_row(
                "SELECT contribution FROM pending_contributions WHERE purpose = ?1 AND entropy_commitment = ?2",
                (purpose, ec.to_string()),
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| db_err(&path, &m::ERR_DB_READ_KEPT, e))
    }
}
