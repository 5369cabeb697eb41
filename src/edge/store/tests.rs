//! The check of the database itself (spec/appliance.md §6.5): a trail holds exactly urne's schema rows and
//! file settings, on every path that opens it and inside every write.

use super::schema::*;
use super::*;
use crate::error::Kind;
use crate::msg::Msg;

/// `m`'s words in the screens' language with `row` in place, up to its next value: what every
/// refusal of that row begins with, whatever the language the tests run in.
fn said(m: &Msg, row: &str) -> String {
    let s = crate::msg!(m, row = row);
    s.split('{').next().unwrap_or_default().to_string()
}

/// A new trail's database in a temporary folder (closed), and the folder.
fn made() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("audit.db");
    drop(AuditLog::create(&db).unwrap());
    (dir, db)
}

/// `sql` run on the file at `db` as an insider would, with SQLite's command-line defaults (no
/// defensive mode).
fn plant(db: &Path, sql: &str) {
    Connection::open(db).unwrap().execute_batch(sql).unwrap();
}

/// Every way urne opens an existing trail refuses `db` with exit 5, as a refusal of the trail
/// itself (nothing recorded in it), with `want` in the message; the file is left as it was.
fn refused_everywhere(db: &Path, want: &str) {
    let want = want.trim_end();
    let before = std::fs::read(db).unwrap();
    let errors = [
        AuditLog::open_for_append(db)
            .err()
            .expect("open_for_append"),
        AuditLog::open_existing(db).err().expect("open_existing"),
    ];
    for e in errors {
        assert_eq!(e.kind, Kind::TrailBroken, "{}", e.message);
        assert!(e.untouched, "a refusal of the trail records nothing");
        assert!(e.message.contains(want), "{want:?} in {}", e.message);
    }
    assert!(std::fs::read(db).unwrap() == before, "the file was changed");
}

#[test]
fn urnes_schema_is_its_tables_their_key_indexes_and_its_triggers() {
    let rows: Vec<(&str, &str, &str)> = urne_schema()
        .unwrap()
        .iter()
        .map(|r| (r.kind.as_str(), r.name.as_str(), r.table.as_str()))
        .collect();
    assert_eq!(
        rows,
        [
            ("index", "sqlite_autoindex_blobs_1", "blobs"),
            ("index", "sqlite_autoindex_events_1", "events"),
            (
                "index",
                "sqlite_autoindex_pending_contributions_1",
                "pending_contributions"
            ),
            ("table", "blobs", "blobs"),
            ("table", "checkpoints", "checkpoints"),
            ("table", "events", "events"),
            ("table", "pending_contributions", "pending_contributions"),
            ("trigger", "blobs_no_delete", "blobs"),
            ("trigger", "blobs_no_update", "blobs"),
            ("trigger", "checkpoints_no_delete", "checkpoints"),
            ("trigger", "checkpoints_no_update", "checkpoints"),
            ("trigger", "events_link", "events"),
            ("trigger", "events_no_delete", "events"),
            ("trigger", "events_no_update", "events"),
        ]
    );
    // The SQL text as SQLite stores it: the statement from the object's name on, without
    // `IF NOT EXISTS`; the key indexes have none.
    let events = urne_schema()
        .unwrap()
        .iter()
        .find(|r| r.name == "events_link");
    let sql = events.unwrap().sql.as_deref().unwrap();
    assert!(
        sql.starts_with("CREATE TRIGGER events_link BEFORE INSERT ON events"),
        "{sql}"
    );
}

#[test]
fn a_new_trail_is_exactly_urnes_and_opens_on_every_path() {
    let (_dir, db) = made();
    let c = Connection::open(&db).unwrap();
    assert_eq!(schema_rows(&c).unwrap(), urne_schema().unwrap());
    drop(c);
    AuditLog::open_for_append(&db).unwrap().unwrap();
    AuditLog::open_existing(&db).unwrap();
}

#[test]
fn a_planted_trigger_view_index_or_table_is_refused() {
    for (sql, want) in [
        (
            "CREATE TRIGGER veto BEFORE INSERT ON events WHEN NEW.kind = 'draw.result' BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END;",
            said(&m::ERR_SCHEMA_EXTRA, "trigger `veto` on `events`"),
        ),
        (
            "CREATE TEMP TRIGGER t AFTER INSERT ON main.events BEGIN SELECT 1; END; CREATE VIEW v AS SELECT * FROM events;",
            said(&m::ERR_SCHEMA_EXTRA, "view `v`"),
        ),
        (
            "CREATE UNIQUE INDEX one_result ON events(kind) WHERE kind = 'draw.result';",
            said(&m::ERR_SCHEMA_EXTRA_INDEX, "index `one_result` on `events`"),
        ),
        (
            "CREATE TABLE x (a);",
            said(&m::ERR_SCHEMA_EXTRA, "table `x`"),
        ),
        (
            "ANALYZE;",
            said(&m::ERR_SCHEMA_EXTRA_STAT, "table `sqlite_stat1`"),
        ),
        (
            "CREATE TABLE x (a INTEGER PRIMARY KEY AUTOINCREMENT); INSERT INTO x VALUES (NULL); DROP TABLE x;",
            said(&m::ERR_SCHEMA_EXTRA_SEQUENCE, "table `sqlite_sequence`"),
        ),
    ] {
        let (_dir, db) = made();
        plant(&db, sql);
        refused_everywhere(&db, &want);
    }
}

#[test]
fn a_changed_or_missing_object_of_urnes_is_refused() {
    let (_dir, db) = made();
    plant(&db, "DROP TRIGGER events_link;");
    refused_everywhere(
        &db,
        &said(&m::ERR_SCHEMA_MISSING, "trigger `events_link` on `events`"),
    );

    // The same trigger under the same name, doing something else.
    let (_dir, db) = made();
    plant(
        &db,
        "DROP TRIGGER events_no_delete; CREATE TRIGGER events_no_delete BEFORE DELETE ON events BEGIN SELECT 1; END;",
    );
    refused_everywhere(
        &db,
        &said(
            &m::ERR_SCHEMA_CHANGED,
            "trigger `events_no_delete` on `events`",
        ),
    );

    // A table's SQL text edited in the schema table itself (a CHECK removed).
    let (_dir, db) = made();
    plant(
        &db,
        "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = replace(sql, 'CHECK (length(prev_hash) = 32)', '') WHERE name = 'events'; PRAGMA writable_schema = OFF;",
    );
    refused_everywhere(&db, &said(&m::ERR_SCHEMA_CHANGED, "table `events`"));

    // Even a change of white space is a change.
    let (_dir, db) = made();
    plant(
        &db,
        "DROP TRIGGER blobs_no_update; CREATE TRIGGER blobs_no_update BEFORE UPDATE ON blobs  BEGIN SELECT RAISE(ABORT, 'audit trail is append-only'); END;",
    );
    refused_everywhere(
        &db,
        &said(
            &m::ERR_SCHEMA_CHANGED,
            "trigger `blobs_no_update` on `blobs`",
        ),
    );
}

#[test]
fn a_trail_of_an_earlier_urne_without_the_contributions_table_is_accepted() {
    let (_dir, db) = made();
    plant(&db, "DROP TABLE pending_contributions;");
    let log = AuditLog::open_for_append(&db).unwrap().unwrap();
    assert_eq!(log.kept_contribution("p", &Hash32::ZERO).unwrap(), None);
    // Keeping a contribution makes the table, exactly urne's.
    log.keep_contribution("p", &Hash32::ZERO, "1234").unwrap();
    assert_eq!(
        log.kept_contribution("p", &Hash32::ZERO)
            .unwrap()
            .as_deref(),
        Some("1234")
    );
    drop(log);
    let c = Connection::open(&db).unwrap();
    assert_eq!(schema_rows(&c).unwrap(), urne_schema().unwrap());
}

#[test]
fn a_contributions_table_other_than_urnes_is_refused() {
    let (_dir, db) = made();
    plant(
        &db,
        "DROP TABLE pending_contributions; CREATE TABLE pending_contributions (purpose, entropy_commitment, contribution, typed_at);",
    );
    refused_everywhere(
        &db,
        &said(&m::ERR_SCHEMA_CHANGED, "table `pending_contributions`"),
    );
}

#[test]
fn file_settings_other_than_urnes_are_refused() {
    for (sql, name, got, value) in [
        (
            "PRAGMA journal_mode = WAL;",
            "journal_mode",
            "wal",
            "delete",
        ),
        ("PRAGMA user_version = 7;", "user_version", "7", "0"),
        ("PRAGMA application_id = 7;", "application_id", "7", "0"),
        (
            "PRAGMA auto_vacuum = FULL; VACUUM;",
            "auto_vacuum",
            "1",
            "0",
        ),
        (
            "PRAGMA page_size = 4096; VACUUM;",
            "page_size",
            "4096",
            "65536",
        ),
    ] {
        let (_dir, db) = made();
        plant(&db, sql);
        let want = crate::msg!(m::ERR_SCHEMA_PRAGMA, name = name, got = got, value = value);
        refused_everywhere(&db, &want);
    }
}

#[test]
fn an_object_planted_after_the_trail_was_opened_is_refused_at_the_next_write() {
    let (_dir, db) = made();
    let log = AuditLog::open_for_append(&db).unwrap().unwrap();
    plant(
        &db,
        "CREATE TRIGGER veto BEFORE INSERT ON pending_contributions BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END;",
    );
    let e = log
        .keep_contribution("p", &Hash32::ZERO, "1234")
        .expect_err("refused");
    assert_eq!(e.kind, Kind::TrailBroken, "{}", e.message);
    assert!(e.untouched);
    assert!(
        e.message.contains(&crate::msg!(
            m::ERR_SCHEMA_EXTRA,
            row = "trigger `veto` on `pending_contributions`"
        )),
        "{}",
        e.message
    );
    // Refused before the write: the planted trigger never ran.
    assert!(!e.message.contains("disk I/O error"), "{}", e.message);
    drop(log);
    let c = Connection::open(&db).unwrap();
    let kept: i64 = c
        .query_row("SELECT count(*) FROM pending_contributions", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(kept, 0);
}

#[test]
fn urnes_connections_are_defensive_and_trust_no_schema() {
    use rusqlite::config::DbConfig;
    let (_dir, db) = made();
    let log = AuditLog::open_existing(&db).unwrap();
    assert!(
        log.conn
            .db_config(DbConfig::SQLITE_DBCONFIG_DEFENSIVE)
            .unwrap()
    );
    assert!(
        !log.conn
            .db_config(DbConfig::SQLITE_DBCONFIG_TRUSTED_SCHEMA)
            .unwrap()
    );
    assert!(
        !log.conn
            .db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_VIEW)
            .unwrap()
    );
    // Defensive: the schema cannot be written through urne's connection.
    assert!(
        log.conn
            .execute_batch(
                "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = '' WHERE name = 'x';"
            )
            .is_err()
    );
}

#[test]
fn a_schema_sqlite_cannot_read_is_refused_and_nothing_is_recorded() {
    let (_dir, db) = made();
    plant(
        &db,
        "PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = 'CREATE TABLE events (' WHERE name = 'events'; PRAGMA writable_schema = OFF;",
    );
    let before = std::fs::read(&db).unwrap();
    for e in [
        AuditLog::open_for_append(&db)
            .err()
            .expect("open_for_append"),
        AuditLog::open_existing(&db).err().expect("open_existing"),
    ] {
        // A schema SQLite finds damaged (SQLITE_CORRUPT) is a planted one: an incident.
        assert_eq!(e.kind, Kind::TrailBroken, "{}", e.message);
        assert!(e.untouched, "a refusal of the trail records nothing");
    }
    assert!(
        std::fs::read(&db).unwrap() == before,
        "the file was changed"
    );
}

#[test]
fn a_key_index_pointed_at_another_tables_pages_is_refused() {
    // The schema's text unchanged, only where an index lies: two key indexes of one shape (a
    // 32-byte blob) swapped. The events' UNIQUE index would then answer from the blobs' keys.
    let (_dir, db) = made();
    plant(
        &db,
        "INSERT INTO events VALUES (1, 't', 'k', '{}', zeroblob(32), randomblob(32));
         INSERT INTO blobs VALUES (randomblob(32), x'00');
         PRAGMA writable_schema = ON;
         UPDATE sqlite_schema SET rootpage = (SELECT rootpage FROM sqlite_schema WHERE name = 'sqlite_autoindex_blobs_1') + (SELECT rootpage FROM sqlite_schema WHERE name = 'sqlite_autoindex_events_1') - rootpage
           WHERE name IN ('sqlite_autoindex_blobs_1', 'sqlite_autoindex_events_1');
         PRAGMA writable_schema = OFF;",
    );
    let c = Connection::open(&db).unwrap();
    assert_eq!(
        schema_rows(&c).unwrap(),
        urne_schema().unwrap(),
        "the text is urne's"
    );
    drop(c);
    let want = crate::msg!(m::ERR_SCHEMA_INTEGRITY, table = "events");
    refused_everywhere(&db, want.split('{').next().unwrap_or_default());
}
