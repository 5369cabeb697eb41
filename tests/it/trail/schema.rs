//! A trail holds exactly urne's schema (spec/appliance.md §6.5; issue 22, item 2). An insider of tier (a)
//! planted triggers on the events table with `sqlite3`: one that aborted with "disk I/O error"
//! every `draw.result` but the one naming their leaf (the only way on was a void and a new
//! attempt, until their leaf won), another that made every later command refuse the whole trail.
//! Every command and `urne audit verify` now refuse such a database before reading an event
//! (exit 7), recording nothing, and the planted trigger never runs.

use super::{DAY, all_refused, bytes, kind_count, sealed};
use crate::common::*;
use std::path::Path;

/// The insider's veto: every result but the one naming `leaf` fails as a disk would.
fn veto(leaf: &str) -> String {
    format!(
        "CREATE TRIGGER veto BEFORE INSERT ON events
         WHEN NEW.kind = 'draw.result' AND instr(NEW.payload, '{leaf}') = 0
         BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END;"
    )
}

/// The insider's poison: each event gets a checkpoint of a size the trail never reaches, so
/// every later command refuses the whole trail.
const POISON: &str = "CREATE TRIGGER poison AFTER INSERT ON events
     BEGIN INSERT INTO checkpoints (size, note) VALUES (NEW.seq + 1000000, 'poison'); END;";

/// `sql` run on the trail's file from outside urne (what `sqlite3 urne-audit.db` does).
fn plant(db: &Path, sql: &str) {
    rusqlite::Connection::open(db)
        .unwrap()
        .execute_batch(sql)
        .unwrap();
}

/// The refusal every command and every reader of the database gives for a trigger `name` on the
/// events table.
fn refusal(name: &str) -> String {
    format!(
        "is not as urne makes it: it holds a trigger `{name}` on `events` that urne did not make; nothing is read from it or recorded in it"
    )
}

/// The commands that only read the database refuse it too (exit 7), and leave it as it was.
fn readers_refuse(env: &Env, want: &str) {
    let before = bytes(&env.db());
    for args in [
        &["audit", "verify", "--keys", "audit-keys"][..],
        &["audit", "show"],
        &["audit", "export", "--out", "audit.jsonl"],
        &["audit", "backup", "--out", "backup.db"],
        &["status"],
    ] {
        let err = assert_fails(&env.urne(args), 7, "trail-broken");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    assert!(!env.path("audit.jsonl").exists() && !env.path("backup.db").exists());
    assert!(bytes(&env.db()) == before, "a reader changed the database");
}

#[test]
fn a_trigger_planted_to_veto_the_draw_is_refused_before_anything_is_read_or_recorded() {
    let (env, export) = sealed();
    plant(&env.db(), &veto(&"ab".repeat(32)));
    let before = bytes(&env.db());
    let o = env.draw(DAY, "out");
    let err = assert_fails(&o, 7, "trail-broken");
    assert!(err.contains(&refusal("veto")), "{err}");
    assert!(!err.contains("disk I/O error"), "the trigger ran: {err}");
    assert!(!env.path("out").exists(), "no output");
    assert!(bytes(&env.db()) == before, "nothing recorded");
    assert_eq!(
        kind_count(&env.db(), "draw.entropy"),
        0,
        "no entropy asked for"
    );
    all_refused(&env, &export, 7, "trail-broken", &[&refusal("veto")]);
    readers_refuse(&env, &refusal("veto"));
    // The trigger removed (in front of the commissaire, the database copied as evidence first),
    // the trail is accepted again as it was, and the day is drawn.
    plant(&env.db(), "DROP TRIGGER veto;");
    env.ok(&["audit", "verify", "--keys", "audit-keys", "--strict"]);
    env.draw_ok(DAY, "out");
    assert_eq!(kind_count(&env.db(), "draw.result"), 1);
}

#[test]
fn a_trigger_planted_to_make_every_command_refuse_the_trail_never_runs() {
    let (env, export) = sealed();
    plant(&env.db(), POISON);
    let before = bytes(&env.db());
    let err = assert_fails(
        &env.urne(&["keys", "export", "--out", "keys"]),
        7,
        "trail-broken",
    );
    assert!(err.contains(&refusal("poison")), "{err}");
    all_refused(&env, &export, 7, "trail-broken", &[&refusal("poison")]);
    readers_refuse(&env, &refusal("poison"));
    assert!(bytes(&env.db()) == before, "nothing recorded");
    // Nothing it would have written is there: removed, the trail is whole and goes on.
    plant(&env.db(), "DROP TRIGGER poison;");
    env.ok(&["audit", "verify", "--keys", "audit-keys", "--strict"]);
    env.ok(&["keys", "export", "--out", "keys"]);
    env.ok(&["audit", "verify", "--keys", "audit-keys", "--strict"]);
}

#[test]
fn a_view_index_or_table_planted_beside_the_trail_is_refused_by_every_command() {
    let (env, export) = sealed();
    for (sql, want, undo) in [
        (
            "CREATE VIEW results AS SELECT * FROM events WHERE kind = 'draw.result';",
            "it holds a view `results` that urne did not make",
            "DROP VIEW results;",
        ),
        (
            "CREATE UNIQUE INDEX one_result ON events(kind) WHERE kind = 'draw.result' AND instr(payload, 'ab') = 0;",
            "it holds an index `one_result` on `events` that urne did not make",
            "DROP INDEX one_result;",
        ),
        (
            "ANALYZE;",
            "it holds a table `sqlite_stat1` that urne did not make (SQLite makes it on ANALYZE)",
            "DROP TABLE sqlite_stat1; DROP TABLE IF EXISTS sqlite_stat4;",
        ),
        (
            "PRAGMA journal_mode = WAL;",
            "its journal_mode is wal, urne's is delete",
            "PRAGMA journal_mode = DELETE;",
        ),
    ] {
        plant(&env.db(), sql);
        all_refused(&env, &export, 7, "trail-broken", &[want]);
        let err = assert_fails(
            &env.urne(&["audit", "verify", "--keys", "audit-keys"]),
            7,
            "trail-broken",
        );
        assert!(err.contains(want), "{err}");
        plant(&env.db(), undo);
        env.ok(&["audit", "verify", "--keys", "audit-keys", "--strict"]);
    }
}
