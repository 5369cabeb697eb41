//! The trail deleted, or replaced by a copy, while a command runs (spec/appliance.md §6.6, last sentence
//! of "Before acting"): a seal whose trail is no longer the file it opened must not report
//! success. Deterministic: the export's signature is a named pipe, which the seal opens after
//! it began (the trail opened, checked, its `software.start` recorded and marked); the trail is
//! touched while the seal waits there, then the signature is written and the seal goes on.

use super::{DAY, draw_args, kind_count, seal_args};
use crate::common::*;
use crate::draws::simulate;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::mpsc;
use std::time::Duration;

/// Seals `export` on `env`'s token and, once the seal opened the export's signature (it has
/// begun), calls `meanwhile`; then lets it read the signature and waits for it. The seal must
/// not succeed, nor print SEALED.
fn seal_while(env: &Env, export: &Path, what: &str, meanwhile: impl FnOnce()) -> Output {
    let sig = PathBuf::from(format!("{}.sig", export.display()));
    let bytes = std::fs::read(&sig).unwrap();
    std::fs::remove_file(&sig).unwrap();
    assert!(Command::new("mkfifo").arg(&sig).status().unwrap().success());
    let child = env
        .cmd()
        .args(seal_args(export))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The pipe opens for writing when the seal opens it for reading.
    let (opened, go) = (mpsc::channel(), mpsc::channel::<()>());
    let (fifo, given) = (sig.clone(), bytes.clone());
    let writer = std::thread::spawn(move || {
        let mut f = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
        opened.0.send(()).unwrap();
        if go.1.recv().is_ok() {
            f.write_all(&given).unwrap();
        }
    });
    if opened.1.recv_timeout(Duration::from_mins(1)).is_err() {
        let _ = std::fs::File::open(&sig); // unblocks the writer
        let o = child.wait_with_output().unwrap();
        panic!(
            "the seal never read its signature: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    meanwhile();
    go.0.send(()).unwrap();
    writer.join().unwrap();
    let o = child.wait_with_output().unwrap();
    // The signature back as a file, for the next seal of this export.
    std::fs::remove_file(&sig).unwrap();
    std::fs::write(&sig, bytes).unwrap();
    assert!(
        !o.status.success(),
        "a seal whose trail was {what} reported success"
    );
    assert!(
        !String::from_utf8_lossy(&o.stdout).contains("SEALED"),
        "SEALED printed"
    );
    o
}

/// What the trail at the path says afterwards: replaced by the copy taken before the seal began,
/// it is older than the token's last mark (the seal's `software.start`).
fn after_replaced(env: &Env, export: &Path) {
    assert_eq!(
        kind_count(&env.db(), "draw.seal"),
        0,
        "the copy holds no seal"
    );
    assert_fails(
        &env.urne(
            &seal_args(export)
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
        ),
        7,
        "trail-older",
    );
    assert_eq!(kind_count(&env.db(), "draw.entropy"), 0);
}

/// Deleted: there is no trail at the path, none was created, and every command refuses.
fn after_deleted(env: &Env) {
    assert!(!env.db().exists(), "no trail was created in its place");
    assert_fails(&env.urne(&draw_args("out")), 7, "trail-missing");
    assert!(!env.path("out").exists());
}

/// Replaced by a copy of itself, then (on a fresh token) deleted, while a seal runs; returns
/// both outputs after checking what each left.
fn replaced_then_deleted() -> (Output, Output) {
    let env = Env::new();
    let export = simulate(&env, DAY, 300, 43, &[]);
    std::fs::copy(env.db(), env.path("copy.db")).unwrap();
    let replaced = seal_while(&env, &export, "replaced", || {
        std::fs::rename(env.path("copy.db"), env.db()).unwrap();
    });
    after_replaced(&env, &export);
    let fresh = Env::new();
    let deleted = seal_while(&fresh, &export, "deleted", || {
        std::fs::remove_file(fresh.db()).unwrap();
    });
    after_deleted(&fresh);
    (replaced, deleted)
}

#[test]
fn a_trail_deleted_or_replaced_during_a_seal_never_lets_it_report_success() {
    let (replaced, deleted) = replaced_then_deleted();
    for (what, o) in [("replaced", replaced), ("deleted", deleted)] {
        let code = o.status.code().expect("an exit code, not a signal");
        let err = assert_fails(&o, code, "trail-changed");
        eprintln!("trail {what} during a seal: exit {code}, {err}");
    }
}

/// spec/appliance.md §6.6: a trail deleted or replaced while a command runs is exit 7, naming what
/// happened. Today SQLite refuses the seal's first write into the moved file
/// (`SQLITE_READONLY_DBMOVED`) and urne reports a storage failure instead (exit 5, "cannot store
/// data: attempt to write a readonly database", with a hint about the disk and permissions): the
/// error of the write in `append_inner` (src/edge/store/append.rs) is not checked against
/// `check_still_in_place` first.
#[test]
fn a_trail_deleted_or_replaced_during_a_seal_is_exit_7_naming_what_happened() {
    let (replaced, deleted) = replaced_then_deleted();
    assert_fails(&replaced, 7, "trail-changed");
    assert_fails(&deleted, 7, "trail-changed");
}

#[test]
fn an_event_edited_under_a_running_seal_is_refused_and_nothing_is_signed_over_it() {
    // Tier (a) races the check: once the seal has begun (checked the trail, recorded its start),
    // an earlier event's payload is edited in place, its stored hash kept. The seal must not
    // sign or record anything over it: its next read recomputes the chain.
    let env = Env::new();
    let export = simulate(&env, DAY, 300, 1, &[]);
    let before = std::cell::Cell::new(0);
    let o = seal_while(&env, &export, "edited", || {
        let c = rusqlite::Connection::open(env.db()).unwrap();
        before.set(
            c.query_row("SELECT COUNT(*) FROM events", [], |r| r.get::<_, i64>(0))
                .unwrap(),
        );
        c.execute_batch(
            "DROP TRIGGER events_no_update; UPDATE events SET payload = replace(payload, 'true', 'false') WHERE kind = 'keys.generated';",
        )
        .unwrap();
        // The trigger put back, as urne makes it: urne refuses any other schema.
        c.execute_batch(urne::edge::store::SCHEMA).unwrap();
    });
    assert_fails(&o, 7, "trail-changed");
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let after: i64 = c
        .query_row("SELECT COUNT(*) FROM events", [], |r| r.get(0))
        .unwrap();
    assert_eq!(
        after,
        before.get(),
        "nothing was appended over the edited event"
    );
    assert_eq!(kind_count(&env.db(), "draw.seal"), 0);
}

#[test]
fn a_trigger_planted_under_a_running_seal_is_refused_before_its_next_write() {
    // Tier (a) plants the trigger after the seal checked the trail (as they would while a draw
    // waits for the commissaire's contribution): every write checks the schema again inside its
    // transaction, so the seal stops before its next append and the trigger never runs.
    let env = Env::new();
    let export = simulate(&env, DAY, 300, 1, &[]);
    let before = std::cell::Cell::new(0);
    let o = seal_while(&env, &export, "given a trigger", || {
        let c = rusqlite::Connection::open(env.db()).unwrap();
        before.set(
            c.query_row("SELECT COUNT(*) FROM events", [], |r| r.get::<_, i64>(0))
                .unwrap(),
        );
        c.execute_batch(
            "CREATE TRIGGER veto BEFORE INSERT ON events WHEN NEW.kind = 'draw.seal' BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END;",
        )
        .unwrap();
    });
    let err = assert_fails(&o, 7, "trail-broken");
    assert!(
        err.contains(
            "is not as urne makes it: it holds a trigger `veto` on `events` that urne did not make"
        ),
        "{err}"
    );
    assert!(!err.contains("disk I/O error"), "the trigger ran: {err}");
    let after: i64 = rusqlite::Connection::open(env.db())
        .unwrap()
        .query_row("SELECT COUNT(*) FROM events", [], |r| r.get(0))
        .unwrap();
    assert_eq!(after, before.get(), "nothing was recorded");
}
