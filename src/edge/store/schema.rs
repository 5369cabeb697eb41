//! The database as a whole (spec/appliance.md §6.5): the fixed list of urne's schema rows, derived from
//! the statements that make them ([`urne_schema`]), the settings stored in the file, the
//! settings set on every connection ([`configure`]), and the checks every path that opens a
//! trail runs before it reads an event ([`check_file`], [`check_structure`]).

use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::edge as m;
use rusqlite::{Connection, OptionalExtension};
use std::path::Path;

/// The statements that make a trail's tables and triggers (spec/appliance.md §6.5). The database's whole
/// schema must be exactly what they and [`PENDING_SCHEMA`] make ([`check_file`]): the fixed
/// list of schema rows is derived from them ([`urne_schema`]), so the two cannot drift. Their
/// text is what every earlier version stored: changing one byte refuses every existing trail.
pub const SCHEMA: &str = r"
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
";

/// A SQLite failure on the trail at `path`, as the operator sees it: exit 5, but a file that is
/// not an SQLite database or whose pages are damaged is a trail urne did not leave so, an
/// incident (exit 7, spec/appliance.md §6.6).
#[expect(
    clippy::needless_pass_by_value,
    reason = "an error conversion, as `map_err` hands the error over: by value, like `From`"
)]
pub(super) fn db_err(path: &Path, what: &crate::msg::Msg, e: rusqlite::Error) -> Error {
    use rusqlite::ErrorCode::{DatabaseCorrupt, NotADatabase};
    let message = crate::msg!(
        m::ERR_DB,
        path = path.display(),
        what = crate::msg!(what),
        e = e
    );
    if matches!(e.sqlite_error_code(), Some(NotADatabase | DatabaseCorrupt)) {
        return Error::new(Kind::TrailBroken, message, crate::msg!(m::REC_DB_DAMAGED));
    }
    Error::new(Kind::StoreFailed, message, crate::msg!(m::REC_DB_FAILED))
}

/// The table of contributions kept before their event (`pending.rs`, spec/formats.md §4.4.1). Made with
/// the rest by [`AuditLog::create`] since this version; a trail made by an earlier urne gets it
/// when it first keeps a contribution, so the table may be absent, never different.
pub const PENDING_SCHEMA: &str = "CREATE TABLE IF NOT EXISTS pending_contributions (
    purpose TEXT NOT NULL,
    entropy_commitment TEXT NOT NULL,
    contribution TEXT NOT NULL,
    typed_at TEXT NOT NULL,
    PRIMARY KEY (purpose, entropy_commitment)
) STRICT;";

/// The table [`PENDING_SCHEMA`] makes.
pub(super) const PENDING_TABLE: &str = "pending_contributions";

/// What the settings stored in the file itself read in a trail urne made (`PRAGMA name`, as
/// text). A journal in write-ahead mode (`wal`) would persist in the file and change how
/// transactions lock and what a copy of the file holds; the page size is the one the trail was
/// created with ([`AuditLog::create_schema`]); the others urne never sets. The connection's own
/// settings are not stored: [`configure`] sets them on every connection.
pub(super) const FILE_PRAGMAS: [(&str, &str); 6] = [
    ("journal_mode", "delete"),
    ("page_size", "65536"),
    ("auto_vacuum", "0"),
    ("encoding", "UTF-8"),
    ("application_id", "0"),
    ("user_version", "0"),
];

/// One row of the schema table (`sqlite_schema`) as compared: its type, name, table and SQL
/// text exactly as stored (none for the indexes SQLite makes for a PRIMARY KEY or UNIQUE
/// column). The root page is where the row's b-tree lies, which differs from file to file.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct SchemaRow {
    /// The row's `type`: table, index, view or trigger.
    pub kind: String,
    /// The object's name.
    pub name: String,
    /// The table it belongs to (`tbl_name`; its own name for a table).
    pub table: String,
    /// The SQL that created it, exactly as stored.
    pub sql: Option<String>,
}

impl std::fmt::Display for SchemaRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.name == self.table {
            write!(f, "{} `{}`", self.kind, self.name)
        } else {
            write!(f, "{} `{}` on `{}`", self.kind, self.name, self.table)
        }
    }
}

/// urne's schema rows: every row of a trail's schema table (its tables, the indexes SQLite makes
/// for their keys, its triggers), as [`SCHEMA`] and [`PENDING_SCHEMA`] make them, read back from
/// a database in memory made with them (so the SQL text is exactly what SQLite stores). Made
/// once per process.
pub fn urne_schema() -> Result<&'static [SchemaRow]> {
    static ROWS: std::sync::OnceLock<Vec<SchemaRow>> = std::sync::OnceLock::new();
    if let Some(rows) = ROWS.get() {
        return Ok(rows);
    }
    let made = (|| {
        let conn = Connection::open_in_memory()?;
        conn.execute_batch(SCHEMA)?;
        conn.execute_batch(PENDING_SCHEMA)?;
        schema_rows(&conn)
    })()
    .map_err(|e| {
        Error::new(
            Kind::Defect,
            crate::msg!(m::ERR_SCHEMA_IN_MEMORY, e = e),
            crate::msg!(m::REC_DEFECT_REPORT),
        )
    })?;
    Ok(ROWS.get_or_init(|| made))
}

/// Every row of the schema table of `conn`'s database, sorted.
pub(super) fn schema_rows(conn: &Connection) -> rusqlite::Result<Vec<SchemaRow>> {
    let mut st = conn.prepare("SELECT type, name, tbl_name, sql FROM main.sqlite_schema")?;
    let mut rows = st
        .query_map([], |r| {
            Ok(SchemaRow {
                kind: r.get(0)?,
                name: r.get(1)?,
                table: r.get(2)?,
                sql: r.get(3)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    rows.sort();
    Ok(rows)
}

/// The settings urne relies on, set on every connection before it reads anything (none of them
/// is stored in the file): SQLite's defensive mode (no writable schema, no change to its own
/// tables), a schema trusted for nothing (a function with side effects cannot run from a
/// trigger, view or index, should one ever be in the file), views off (urne uses none), page
/// cells checked for size as they are read, triggers that do not fire recursively, and a wait of
/// up to 10 s for another command's lock.
pub(super) fn configure(conn: &Connection, path: &Path) -> Result<()> {
    use rusqlite::config::DbConfig;
    let fail = |e| db_err(path, &m::ERR_DB_CONFIGURE, e);
    for (flag, on) in [
        (DbConfig::SQLITE_DBCONFIG_DEFENSIVE, true),
        (DbConfig::SQLITE_DBCONFIG_TRUSTED_SCHEMA, false),
        (DbConfig::SQLITE_DBCONFIG_ENABLE_VIEW, false),
    ] {
        if conn.set_db_config(flag, on).map_err(fail)? != on {
            return Err(Error::new(
                Kind::StoreFailed,
                crate::msg!(
                    m::ERR_DB_SETTING,
                    path = path.display(),
                    flag = format_args!("{flag:?}")
                ),
                crate::msg!(m::REC_DEFECT_REPORT),
            ));
        }
    }
    conn.execute_batch(
        "PRAGMA trusted_schema = OFF; PRAGMA cell_size_check = ON; PRAGMA recursive_triggers = OFF; PRAGMA foreign_keys = ON;",
    )
    .map_err(fail)?;
    conn.busy_timeout(std::time::Duration::from_secs(10))
        .map_err(fail)
}

/// The check of the database itself, before any event is read from it and inside every write
/// transaction (spec/appliance.md §6.5): its schema table holds exactly urne's rows ([`urne_schema`]; the
/// kept contributions' table may be absent, in a trail made by an earlier urne), and its stored
/// settings are [`FILE_PRAGMAS`]. Anything else (a trigger, view, index or table urne did not
/// make, SQLite's own `sqlite_stat1` or `sqlite_sequence` included; one of urne's changed or
/// missing; a journal in WAL mode) refuses the trail, exit 5, recording nothing in it.
pub(crate) fn check_file(conn: &Connection, path: &Path) -> Result<()> {
    // A schema SQLite cannot read (or a lock held too long) is reported as such, and nothing
    // is recorded in the trail either.
    let unreadable = |e: rusqlite::Error| Error {
        untouched: true,
        ..db_err(path, &m::ERR_DB_READ_SCHEMA, e)
    };
    let found = schema_rows(conn).map_err(unreadable)?;
    let want = urne_schema()?;
    let without_pending: Vec<&SchemaRow> =
        want.iter().filter(|r| r.table != PENDING_TABLE).collect();
    let has_pending = found.iter().any(|r| r.table == PENDING_TABLE);
    let want: Vec<&SchemaRow> = if has_pending {
        want.iter().collect()
    } else {
        without_pending
    };
    if let Some(what) = schema_difference(&found, &want) {
        return Err(not_urnes(path, &what));
    }
    for (name, value) in FILE_PRAGMAS {
        let got: rusqlite::types::Value = conn
            .query_row(&format!("PRAGMA {name}"), [], |r| r.get(0))
            .map_err(unreadable)?;
        let got = match got {
            rusqlite::types::Value::Integer(i) => i.to_string(),
            rusqlite::types::Value::Text(t) => t,
            other => format!("{other:?}"),
        };
        // A trail being built in memory (`AuditLog::create_in_memory`) has a journal in
        // memory; the file it is written to has none until it is opened.
        let in_memory = conn.path().is_none_or(str::is_empty);
        if name == "journal_mode" && in_memory && got == "memory" {
            continue;
        }
        if !got.eq_ignore_ascii_case(value) {
            return Err(not_urnes(
                path,
                &crate::msg!(m::ERR_SCHEMA_PRAGMA, name = name, got = got, value = value),
            ));
        }
    }
    Ok(())
}

/// SQLite's integrity check of the tables a command decides from, each with its indexes (spec/appliance.md
/// §6.5): every b-tree well formed, every index holding exactly its table's rows (a key index
/// edited by hand, or pointed at another's pages, could refuse a chosen insert as a duplicate),
/// every row of its declared types. Run when the trail is opened, after [`check_file`]. Not on
/// `blobs`, whose pages hold every sealed set (gigabytes after a year of draws): a blob's content
/// is hashed whenever it is read.
pub(super) fn check_structure(conn: &Connection, path: &Path) -> Result<()> {
    let unreadable = |e: rusqlite::Error| Error {
        untouched: true,
        ..db_err(path, &m::ERR_DB_CHECK_STRUCTURE, e)
    };
    for table in ["events", "checkpoints", PENDING_TABLE] {
        let present = conn
            .query_row(
                "SELECT 1 FROM main.sqlite_schema WHERE type = 'table' AND name = ?1",
                [table],
                |_| Ok(()),
            )
            .optional()
            .map_err(unreadable)?
            .is_some();
        if !present {
            continue;
        }
        let mut st = conn
            .prepare(&format!("PRAGMA main.integrity_check({table})"))
            .map_err(unreadable)?;
        let found = st
            .query_map([], |r| r.get::<_, String>(0))
            .map_err(unreadable)?
            .collect::<rusqlite::Result<Vec<String>>>()
            .map_err(unreadable)?;
        if found != ["ok"] {
            let what = match found.first() {
                Some(f) => crate::msg!(m::ERR_SCHEMA_INTEGRITY, table = table, found = f),
                None => crate::msg!(m::ERR_SCHEMA_INTEGRITY_NOTHING, table = table),
            };
            return Err(not_urnes(path, &what));
        }
    }
    Ok(())
}

/// The first difference between the rows `found` and urne's `want` (both sorted), in words.
pub(super) fn schema_difference(found: &[SchemaRow], want: &[&SchemaRow]) -> Option<String> {
    for row in found {
        match want
            .iter()
            .find(|w| w.kind == row.kind && w.name == row.name)
        {
            None => {
                // SQLite reserves the names `sqlite_*` to its own tables.
                let extra = match row.name.as_str() {
                    _ if row.kind == "index" => &m::ERR_SCHEMA_EXTRA_INDEX,
                    "sqlite_stat1" | "sqlite_stat4" => &m::ERR_SCHEMA_EXTRA_STAT,
                    "sqlite_sequence" => &m::ERR_SCHEMA_EXTRA_SEQUENCE,
                    _ => &m::ERR_SCHEMA_EXTRA,
                };
                return Some(crate::msg!(extra, row = row));
            }
            Some(w) if *w != row => {
                return Some(match row.sql.as_deref() {
                    Some(s) => {
                        crate::msg!(m::ERR_SCHEMA_CHANGED, row = w, sql = format_args!("{s:?}"))
                    }
                    None => crate::msg!(m::ERR_SCHEMA_CHANGED_NO_SQL, row = w),
                });
            }
            Some(_) => {}
        }
    }
    want.iter()
        .find(|w| !found.contains(w))
        .map(|w| crate::msg!(m::ERR_SCHEMA_MISSING, row = w))
}

/// The refusal of a database that is not as urne makes it (spec/appliance.md §6.5): reported, never
/// recorded in the trail.
pub(super) fn not_urnes(path: &Path, what: &str) -> Error {
    Error::new(
        Kind::TrailBroken,
        crate::msg!(m::ERR_SCHEMA_NOT_URNES, path = path.display(), what = what),
        crate::msg!(m::REC_SCHEMA_NOT_URNES),
    )
}
