//! SQLite edge of the audit trail: one database file, STRICT tables, triggers that refuse UPDATE
//! and DELETE and any insert that does not extend the chain, every append in an IMMEDIATE
//! transaction with `synchronous=FULL` (durable before the command goes on). The triggers are
//! guard rails; the evidence is the hash chain plus the signed checkpoints (`audit::chain`).

use crate::error::{Error, Exit, Result};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use std::path::{Path, PathBuf};
use urne_core::audit::chain::{self, Event};
use urne_core::audit::kinds::{Kind, Record};
use urne_core::crypto::Hash32;

const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS events (
  seq        INTEGER PRIMARY KEY,
  ts         TEXT    NOT NULL,
  kind       TEXT    NOT NULL,
  payload    TEXT    NOT NULL,
  prev_hash  BLOB    NOT NULL CHECK (length(prev_hash) = 32),
  hash       BLOB    NOT NULL UNIQUE CHECK (length(hash) = 32)
) STRICT;
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'audit trail is append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'audit trail is append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_link BEFORE INSERT ON events
BEGIN
  SELECT RAISE(ABORT, 'audit trail: the event does not extend the chain')
  WHERE NEW.seq IS NOT COALESCE((SELECT MAX(seq) FROM events), 0) + 1
     OR NEW.prev_hash IS NOT COALESCE((SELECT hash FROM events WHERE seq = NEW.seq - 1), zeroblob(32));
END;
CREATE TABLE IF NOT EXISTS blobs (
  sha256  BLOB PRIMARY KEY CHECK (length(sha256) = 32),
  data    BLOB NOT NULL
) STRICT;
CREATE TRIGGER IF NOT EXISTS blobs_no_update BEFORE UPDATE ON blobs
BEGIN SELECT RAISE(ABORT, 'audit trail is append-only'); END;
CREATE TRIGGER IF NOT EXISTS blobs_no_delete BEFORE DELETE ON blobs
BEGIN SELECT RAISE(ABORT, 'audit trail is append-only'); END;
CREATE TABLE IF NOT EXISTS checkpoints (
  size  INTEGER PRIMARY KEY,
  note  TEXT    NOT NULL
) STRICT;
CREATE TRIGGER IF NOT EXISTS checkpoints_no_update BEFORE UPDATE ON checkpoints
BEGIN SELECT RAISE(ABORT, 'audit trail is append-only'); END;
CREATE TRIGGER IF NOT EXISTS checkpoints_no_delete BEFORE DELETE ON checkpoints
BEGIN SELECT RAISE(ABORT, 'audit trail is append-only'); END;
"#;

/// The open audit database.
///
/// A command decides from the trail as it read it (a day sealed or not, entropy recorded or
/// not) and then appends. So that two commands run at once cannot both act on the same state
/// (two seals of one day, two entropies for one draw), the first full read ([`AuditLog::events`])
/// fixes the head this process saw; every later append checks, inside its write transaction, that
/// the head is still that one (advanced only by this process's own appends), and is refused
/// otherwise. Records of facts that no decision rests on (a failure, a refusal, a folder published,
/// a proof issued: [`AuditLog::append_evidence`]) are never refused.
pub struct AuditLog {
    conn: Connection,
    path: PathBuf,
    /// The head (sequence number, 0 when empty) this process last knew: set by the first full
    /// read, advanced by its own appends; `None` before any read.
    view: std::cell::Cell<Option<u64>>,
}

fn db_err(path: &Path, what: &str, e: rusqlite::Error) -> Error {
    Error::new(
        Exit::Internal,
        format!("audit trail {}: {what}: {e}", path.display()),
        "check the disk and the file's permissions; run `urne audit verify` before going on",
    )
}

/// An event payload as stored: serialised once, hashed exactly as stored.
fn encode_payload(payload: &serde_json::Value) -> Result<String> {
    serde_json::to_string(payload)
        .map_err(|e| Error::internal(format!("cannot encode an audit payload: {e}"), ""))
}

/// The sequence number the next event takes and the hash it links to (the head's; 32 zero
/// bytes for event 1), read inside the append's transaction.
fn next_link(tx: &rusqlite::Transaction, path: &Path) -> Result<(u64, Hash32)> {
    let head: Option<(i64, Vec<u8>)> = tx
        .query_row(
            "SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()
        .map_err(|e| db_err(path, "cannot read the chain head", e))?;
    Ok(match head {
        Some((s, h)) => (
            s as u64 + 1,
            <Hash32>::try_from(h.as_slice()).map_err(|_| {
                Error::internal(
                    "audit trail: the chain head is malformed",
                    "run `urne audit verify`",
                )
            })?,
        ),
        None => (1, Hash32::ZERO),
    })
}

impl AuditLog {
    /// Opens (creating if needed) the audit database at `path`.
    pub fn open(path: &Path) -> Result<AuditLog> {
        let conn = Connection::open(path).map_err(|e| db_err(path, "cannot open", e))?;
        // 64 KiB pages (taken only when the file is created): a seal stores its sealed set, tens
        // of MB for a large day, as one blob, and larger pages write it in a third less time.
        conn.execute_batch(
            "PRAGMA page_size = 65536; PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;",
        )
        .map_err(|e| db_err(path, "cannot configure", e))?;
        conn.busy_timeout(std::time::Duration::from_secs(10))
            .map_err(|e| db_err(path, "cannot configure", e))?;
        // The schema in one transaction: a kill or an error half-way leaves no half-made trail
        // (SQLite's DDL is transactional; the journal undoes an interrupted creation).
        if let Err(e) = conn.execute_batch(&format!("BEGIN IMMEDIATE;\n{SCHEMA}\nCOMMIT;")) {
            let _ = conn.execute_batch("ROLLBACK;");
            return Err(db_err(path, "cannot create the schema", e));
        }
        Ok(AuditLog {
            conn,
            path: path.to_path_buf(),
            view: std::cell::Cell::new(None),
        })
    }

    /// Opens an existing audit database without creating or writing anything of urne's (for
    /// verification). It is opened read-write all the same: after a crash SQLite must roll back
    /// the interrupted transaction from its journal before anyone can read the file.
    pub fn open_existing(path: &Path) -> Result<AuditLog> {
        if !path.is_file() {
            return Err(Error::bad_input(
                format!("no audit trail at {}", path.display()),
                "pass --db FILE or set URNE_DB to the appliance's audit database",
            ));
        }
        let conn = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE)
            .map_err(|e| db_err(path, "cannot open", e))?;
        Ok(AuditLog {
            conn,
            path: path.to_path_buf(),
            view: std::cell::Cell::new(None),
        })
    }

    /// Appends one event durably and returns it. `payload` is serialised once to JSON and hashed
    /// exactly as stored. The commands write typed records ([`AuditLog::record`] and its
    /// siblings); this untyped form is for tests that build trails by hand.
    pub fn append(&mut self, kind: &str, payload: &serde_json::Value) -> Result<Event> {
        self.append_with_blobs(kind, payload, &[])
    }

    /// Appends one event together with content-addressed blobs (stored in the same transaction;
    /// the event's payload names them by SHA-256, so the chain binds their content). Used for
    /// data too large for an event (a sealed entry list) or secret until a reveal (block entropy).
    pub fn append_with_blobs(
        &mut self,
        kind: &str,
        payload: &serde_json::Value,
        blobs: &[&[u8]],
    ) -> Result<Event> {
        let payload = encode_payload(payload)?;
        self.append_inner(kind, blobs, true, |_| Ok(payload))
    }

    /// [`AuditLog::append_with_blobs`] for a payload still being computed: inside the one write
    /// transaction, the blobs are written first, then `payload` is called with the SHA-256 of
    /// each blob, under which it is stored (it may wait for other threads: the seal writes its
    /// sealed set while the HSM signs), then the event is appended and everything committed at
    /// once. If `payload` fails, nothing is written.
    pub fn append_with_blobs_then(
        &mut self,
        kind: &str,
        blobs: &[&[u8]],
        payload: impl FnOnce(&[Hash32]) -> Result<serde_json::Value>,
    ) -> Result<Event> {
        self.append_inner(kind, blobs, true, |hashes| {
            encode_payload(&payload(hashes)?)
        })
    }

    /// Appends the record of a fact no decision rests on (a failure, a refusal, a folder
    /// published, a proof issued) whatever was appended since this process read the trail: the
    /// evidence of what happened is kept even when another command ran at the same time.
    pub fn append_evidence(&mut self, kind: &str, payload: &serde_json::Value) -> Result<Event> {
        let payload = encode_payload(payload)?;
        self.append_inner(kind, &[], false, |_| Ok(payload))
    }

    /// Appends one typed event durably (its payload is the record's serialisation, SPEC.md
    /// §6.2), refused if the trail changed since this process read it.
    pub fn record(&mut self, r: impl Into<Record>) -> Result<Event> {
        self.record_with_blobs(r, &[])
    }

    /// [`AuditLog::record`] with content-addressed blobs, as [`AuditLog::append_with_blobs`].
    pub fn record_with_blobs(&mut self, r: impl Into<Record>, blobs: &[&[u8]]) -> Result<Event> {
        let r = r.into();
        let payload = r.payload();
        self.append_inner(r.kind().name(), blobs, true, |_| Ok(payload))
    }

    /// [`AuditLog::record_with_blobs`] for a record still being computed, as
    /// [`AuditLog::append_with_blobs_then`]; the record must be of `kind`.
    pub fn record_with_blobs_then(
        &mut self,
        kind: Kind,
        blobs: &[&[u8]],
        record: impl FnOnce(&[Hash32]) -> Result<Record>,
    ) -> Result<Event> {
        self.append_inner(kind.name(), blobs, true, |hashes| {
            let r = record(hashes)?;
            if r.kind() != kind {
                return Err(Error::internal(
                    format!("a {} record was made for a {kind} event", r.kind()),
                    "this is a defect in urne; nothing was recorded",
                ));
            }
            Ok(r.payload())
        })
    }

    /// Appends the typed record of a fact no decision rests on, as
    /// [`AuditLog::append_evidence`].
    pub fn record_evidence(&mut self, r: impl Into<Record>) -> Result<Event> {
        let r = r.into();
        let payload = r.payload();
        self.append_inner(r.kind().name(), &[], false, |_| Ok(payload))
    }

    fn append_inner(
        &mut self,
        kind: &str,
        blobs: &[&[u8]],
        check_view: bool,
        payload: impl FnOnce(&[Hash32]) -> Result<String>,
    ) -> Result<Event> {
        let path = self.path.clone();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| db_err(&path, "cannot begin an append", e))?;
        let (seq, prev) = next_link(&tx, &path)?;
        if check_view
            && let Some(seen) = self.view.get()
            && seen + 1 != seq
        {
            // Dropping `tx` rolls the transaction back: nothing is written.
            return Err(Error::refused(
                format!(
                    "the audit trail changed while this command ran: it knew of {seen} events and finds {} (another urne command recorded events in between); this command's decision was not recorded",
                    seq - 1
                ),
                "run one urne command at a time: check with `urne audit show` what the other command did, then run this one again",
            ));
        }
        let mut hashes = Vec::with_capacity(blobs.len());
        for b in blobs {
            let h = urne_core::crypto::sha256(b);
            hashes.push(h);
            tx.execute(
                "INSERT OR IGNORE INTO blobs (sha256, data) VALUES (?1, ?2)",
                params![h.as_slice(), b],
            )
            .map_err(|e| db_err(&path, "cannot store data", e))?;
        }
        // Dropping `tx` on an error rolls the blobs back too.
        let payload = payload(&hashes)?;
        let ts = crate::edge::clock::now_rfc3339();
        let hash = chain::event_hash(&prev, seq, &ts, kind, &payload);
        tx.execute(
            "INSERT INTO events (seq, ts, kind, payload, prev_hash, hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![seq as i64, ts, kind, payload, prev.as_slice(), hash.as_slice()],
        )
        .map_err(|e| db_err(&path, "cannot append", e))?;
        tx.commit()
            .map_err(|e| db_err(&path, "cannot commit an append", e))?;
        // Advance the view over this process's own append, unless someone else appended since:
        // then the view stays behind and every later checked append is refused.
        if let Some(seen) = self.view.get()
            && seen + 1 == seq
        {
            self.view.set(Some(seq));
        }
        Ok(Event {
            seq,
            ts,
            kind: kind.to_string(),
            payload,
            prev_hash: prev,
            hash,
        })
    }

    /// Every event in sequence order, as stored (no checking).
    pub fn events(&self) -> Result<Vec<Event>> {
        let mut st = self
            .conn
            .prepare("SELECT seq, ts, kind, payload, prev_hash, hash FROM events ORDER BY seq")
            .map_err(|e| db_err(&self.path, "cannot read events", e))?;
        let rows = st
            .query_map([], |r| {
                let prev: Vec<u8> = r.get(4)?;
                let hash: Vec<u8> = r.get(5)?;
                Ok(Event {
                    seq: r.get::<_, i64>(0)? as u64,
                    ts: r.get(1)?,
                    kind: r.get(2)?,
                    payload: r.get(3)?,
                    prev_hash: prev.as_slice().try_into().unwrap_or(Hash32::ZERO),
                    hash: hash.as_slice().try_into().unwrap_or(Hash32::ZERO),
                })
            })
            .map_err(|e| db_err(&self.path, "cannot read events", e))?;
        let events = rows
            .collect::<std::result::Result<Vec<Event>, _>>()
            .map_err(|e| db_err(&self.path, "cannot read events", e))?;
        if self.view.get().is_none() {
            self.view.set(Some(events.last().map_or(0, |e| e.seq)));
        }
        Ok(events)
    }

    /// A stored blob, checked against its hash.
    pub fn blob(&self, sha256: &Hash32) -> Result<Vec<u8>> {
        let missing = || {
            Error::internal(
                format!("audit trail: data {} is missing", hex::encode(sha256)),
                "the database was altered: run `urne audit verify` and investigate",
            )
        };
        let rowid: i64 = self
            .conn
            .query_row(
                "SELECT rowid FROM blobs WHERE sha256 = ?1",
                [sha256.as_slice()],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| db_err(&self.path, "cannot read data", e))?
            .ok_or_else(missing)?;
        // Read straight into one buffer (no intermediate copy of the whole value).
        let blob = self
            .conn
            .blob_open(rusqlite::MAIN_DB, "blobs", "data", rowid, true)
            .map_err(|e| db_err(&self.path, "cannot read data", e))?;
        let mut data = vec![0u8; blob.len()];
        blob.read_at_exact(&mut data, 0)
            .map_err(|e| db_err(&self.path, "cannot read data", e))?;
        drop(blob);
        // Checked before anyone parses it. OpenSSL's SHA-256: blobs can be tens of MB (a sealed
        // set) and are hashed on every read.
        if &urne_core::crypto::sha256(&data) != sha256 {
            return Err(Error::internal(
                format!(
                    "audit trail: data {} does not match its hash",
                    hex::encode(sha256)
                ),
                "the database was altered: run `urne audit verify` and investigate",
            ));
        }
        Ok(data)
    }

    /// Hashes of blobs whose content does not match (for `audit verify`).
    pub fn corrupt_blobs(&self) -> Result<Vec<Hash32>> {
        let mut st = self
            .conn
            .prepare("SELECT sha256, data FROM blobs")
            .map_err(|e| db_err(&self.path, "cannot read data", e))?;
        let rows = st
            .query_map([], |r| {
                Ok((r.get::<_, Vec<u8>>(0)?, r.get::<_, Vec<u8>>(1)?))
            })
            .map_err(|e| db_err(&self.path, "cannot read data", e))?;
        let mut bad = vec![];
        for row in rows {
            let (h, d) = row.map_err(|e| db_err(&self.path, "cannot read data", e))?;
            if urne_core::crypto::sha256(&d).as_slice() != h.as_slice() {
                bad.push(h.as_slice().try_into().unwrap_or(Hash32::ZERO));
            }
        }
        Ok(bad)
    }

    /// Stored checkpoints (size, signed note), by size.
    pub fn checkpoints(&self) -> Result<Vec<(u64, String)>> {
        let mut st = self
            .conn
            .prepare("SELECT size, note FROM checkpoints ORDER BY size")
            .map_err(|e| db_err(&self.path, "cannot read checkpoints", e))?;
        let rows = st
            .query_map([], |r| Ok((r.get::<_, i64>(0)? as u64, r.get(1)?)))
            .map_err(|e| db_err(&self.path, "cannot read checkpoints", e))?;
        rows.collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|e| db_err(&self.path, "cannot read checkpoints", e))
    }

    /// Signs a checkpoint over every event so far with the HSM's audit key and stores it.
    /// Returns the signed note. Does nothing new if the latest checkpoint already covers the head.
    pub fn checkpoint(&mut self, hsm: &crate::edge::hsm::Hsm) -> Result<String> {
        let events = self.events()?;
        let size = events.len() as u64;
        if let Some((s, note)) = self.checkpoints()?.into_iter().last()
            && s == size
        {
            return Ok(note);
        }
        let hashes: Vec<Hash32> = events.iter().map(|e| e.hash).collect();
        let root = chain::tree_root(&hashes);
        let pk = hsm.public_key(crate::edge::hsm::KeyRole::Audit)?;
        let body = chain::checkpoint_body(&pk, size, &root);
        let sig = hsm.sign(crate::edge::hsm::KeyRole::Audit, body.as_bytes())?;
        let note = chain::signed_note(&pk, &body, &sig);
        self.conn
            .execute(
                "INSERT INTO checkpoints (size, note) VALUES (?1, ?2)",
                params![size as i64, note],
            )
            .map_err(|e| db_err(&self.path, "cannot store a checkpoint", e))?;
        Ok(note)
    }
}
