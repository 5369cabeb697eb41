//! An attacker's review of rolling marks and anchors (spec/appliance.md §6.6, "How many marks the
//! token keeps" [M-397]): a sitting's close whose mark the token refused (or that a kill left
//! unmarked), then taken up by the next command, must still get its anchor; and the token must
//! keep a bounded number of objects whatever copies of the trail are run at once.
//!
//! Both tests start from what a close left unmarked leaves (a kill between the append of
//! `sitting.closed` and its mark, or a token that refused the mark for lack of room, M-396):
//! `sitting.closed` appended with its checkpoint, the token's last mark before it.

use crate::common::*;
use crate::marks::{pin_holder_destroys_marks, token_objects};
use std::fmt::Write as _;
use std::path::Path;

/// A sitting opened (marked) and closed, the close appended as urne appends it but not marked:
/// what a kill between its append and its mark, or a full token, leaves. Returns the close's
/// sequence number.
pub(crate) fn close_left_unmarked(env: &Env) -> i64 {
    run_child_hook(
        env,
        "anchors::unmarked_close_child_hook",
        "URNE_TEST_UNMARKED_CLOSE",
        "1",
    );
    let closed = seq_of(env, "sitting.closed");
    assert_eq!(closed, event_total(env), "the close is the head");
    closed
}

/// The child side of [`close_left_unmarked`]: does nothing unless `URNE_TEST_UNMARKED_CLOSE` is
/// set. Begins as a command does (the trail checked, `software.start` marked), appends
/// `sitting.opened` (marked), then `sitting.closed` with [`urne::edge::store::Vouch::Later`],
/// and ends without marking it, as a process killed right after that append.
#[test]
fn unmarked_close_child_hook() {
    if std::env::var("URNE_TEST_UNMARKED_CLOSE").is_err() {
        return;
    }
    let mut ctx = begun("test append");
    let (log, hsm) = ctx.both().map_err(|e| e.message).unwrap();
    let opened = sitting_opened();
    log.append(hsm, "sitting.opened", &opened)
        .map_err(|e| e.message)
        .unwrap();
    log.record_as(
        hsm,
        urne_verify::sitting::ClosedRecord { number: 1 },
        &[],
        urne::edge::store::Vouch::Later,
    )
    .map_err(|e| e.message)
    .unwrap();
    println!("CHILD OK");
}

/// The child side of the PIN holder's forged mark: does nothing unless `URNE_TEST_FORGE_MARK`
/// is set. Logs in with the PIN and creates an `urne-mark` over the database's head exactly as
/// urne creates a rolling mark (private, non-modifiable, destroyable, application `urne`), its
/// value computed from the database (the trail's identity in event 1, the root over every
/// event's hash), as `pkcs11-tool --write-object` would.
#[test]
fn forged_mark_child_hook() {
    use cryptoki::object::{Attribute, ObjectClass};
    use urne_verify::crypto::Hash32;

    if std::env::var("URNE_TEST_FORGE_MARK").is_err() {
        return;
    }
    let db = rusqlite::Connection::open(std::env::var("URNE_DB").unwrap()).unwrap();
    let first: String = db
        .query_row("SELECT payload FROM events WHERE seq = 1", [], |r| r.get(0))
        .unwrap();
    let first: serde_json::Value = serde_json::from_str(&first).unwrap();
    let trail = Hash32::from_hex(first["trail"].as_str().unwrap()).unwrap();
    let hashes: Vec<Hash32> = db
        .prepare("SELECT hash FROM events ORDER BY seq")
        .unwrap()
        .query_map([], |r| r.get::<_, Vec<u8>>(0))
        .unwrap()
        .map(|h| Hash32::try_from(h.unwrap().as_slice()).unwrap())
        .collect();
    let mark = urne_ceremony::token::Mark {
        trail,
        size: hashes.len() as u64,
        root: urne_verify::audit::chain::tree_root(&hashes),
    };
    let s = pin_holder_session();
    s.create_object(&[
        Attribute::Class(ObjectClass::DATA),
        Attribute::Token(true),
        Attribute::Private(true),
        Attribute::Modifiable(false),
        Attribute::Destroyable(true),
        Attribute::Label(b"urne-mark".to_vec()),
        Attribute::Application(b"urne".to_vec()),
        Attribute::Value(mark.encode()),
    ])
    .unwrap();
    println!("FORGED {}", mark.size);
    println!("CHILD OK");
}

/// `urne keys export` (a recording command with nothing to decide) on the trail at `db`.
fn export_on(env: &Env, db: &Path) -> std::process::Output {
    env.cmd()
        .env("URNE_DB", db)
        .args(["keys", "export", "--out", "k-older"])
        .output()
        .unwrap()
}

/// A copy of `env`'s trail at `to`, cut back to before the event `seq` (its events and
/// checkpoints from `seq` on deleted): tier (b)'s older copy.
pub(crate) fn cut_before(env: &Env, seq: i64, to: &Path) {
    std::fs::copy(env.db(), to).unwrap();
    let c = crate::trail::without_triggers(to, &["events_no_delete", "checkpoints_no_delete"]);
    c.execute("DELETE FROM events WHERE seq >= ?1", [seq])
        .unwrap();
    c.execute("DELETE FROM checkpoints WHERE size >= ?1", [seq])
        .unwrap();
}

#[test]
fn a_close_left_unmarked_gets_its_anchor_whatever_mark_a_pin_holder_made_over_it() {
    // The close's own mark did not happen (a kill, or a token a PIN holder filled: M-396). A
    // PIN holder (tier b) then creates a rolling mark over the head as urne would: the next
    // command finds the trail marked up to the close, and must still make the anchor, the
    // first mark urne makes over the close [M-397]; else a PIN holder who destroys every
    // rolling mark afterwards rolls the trail back behind the sitting's close.
    let env = Env::new();
    let closed = close_left_unmarked(&env);
    let forged = run_child_hook(
        &env,
        "anchors::forged_mark_child_hook",
        "URNE_TEST_FORGE_MARK",
        "1",
    );
    assert!(forged.contains(&format!("FORGED {closed}")), "{forged}");
    // The next command, and one more: each marks (and replaces the marks before its own).
    env.ok(&["keys", "export", "--out", "k1"]);
    env.ok(&["keys", "export", "--out", "k2"]);
    let (destroyed, kept) = pin_holder_destroys_marks(&env);
    let cut = env.path("cut.db");
    cut_before(&env, closed, &cut);
    let older = export_on(&env, &cut);
    assert_eq!(
        kept,
        1,
        "the close's anchor (destroyed {destroyed}, kept {kept}); a copy cut before the close \
         then exits {:?}:\n{}",
        older.status.code(),
        String::from_utf8_lossy(&older.stderr)
    );
    assert_fails(&older, 7, "trail-older");
}

/// Whether process `pid` holds a descriptor on `file`.
fn holds_open(pid: u32, file: &Path) -> bool {
    let Ok(rd) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return false;
    };
    rd.filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
        .any(|t| t == file)
}

/// Sends `signal` (`STOP`, `CONT`) to `pid`, as anyone at the machine can (tier a).
fn signal(pid: u32, signal: &str) {
    let st = std::process::Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(pid.to_string())
        .status()
        .unwrap();
    assert!(st.success(), "kill -{signal} {pid}");
}

#[test]
fn copies_started_before_a_close_is_marked_leave_no_anchor_of_their_own() {
    // Tier (a) starts urne on copies of the trail in folders of their own (so no lock keeps
    // them apart) and holds each one after it read the token's marks and before it read its
    // database (here: the copy locked by SQLite, then the process stopped, as anyone at the
    // machine can). The close is then marked by the next command on the real trail (its
    // anchor). Released one by one, each copy finds the close past the token's last mark as
    // it read it, marks it, and must not leave a second anchor: an anchor can never be
    // destroyed, so one per process held so would grow the token without bound [M-397].
    let env = Env::new();
    let closed = close_left_unmarked(&env);
    let mut held = vec![];
    for i in 0..3 {
        let copy = env.path(&format!("copy-{i}/x.db"));
        std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
        std::fs::copy(env.db(), &copy).unwrap();
        let lock = rusqlite::Connection::open(&copy).unwrap();
        lock.execute_batch("BEGIN EXCLUSIVE").unwrap();
        let child = env
            .cmd()
            .env("URNE_DB", &copy)
            .args(["keys", "export", "--out"])
            .arg(env.path(&format!("k-copy-{i}")))
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let start = std::time::Instant::now();
        while !holds_open(child.id(), &copy) {
            assert!(
                start.elapsed() < std::time::Duration::from_mins(1),
                "copy {i} never opened its database"
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        // Opened after the token's marks were read (ctx.rs, open_checked): hold it there.
        signal(child.id(), "STOP");
        held.push((child, lock));
    }
    // The real trail's next command marks the close: its anchor.
    env.ok(&["keys", "export", "--out", "k1"]);
    let objects = token_objects(&env);
    let mut shown = String::new();
    for (i, (child, lock)) in held.into_iter().enumerate() {
        lock.execute_batch("ROLLBACK").unwrap();
        drop(lock);
        signal(child.id(), "CONT");
        let o = child.wait_with_output().unwrap();
        let _ = writeln!(
            shown,
            "copy {i}: exit {:?}: {}",
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).trim()
        );
    }
    // The real trail goes on (no fork recorded: each copy holds the real history), and its
    // next mark replaces what the copies left but an anchor.
    env.ok(&["keys", "export", "--out", "k2"]);
    let after = token_objects(&env);
    let (_, kept) = pin_holder_destroys_marks(&env);
    assert_eq!(
        (after, kept),
        (objects, 1),
        "(token objects, anchors) after the copies ran; one anchor was made over the close \
         (seq {closed}):\n{shown}"
    );
}

#[test]
fn a_close_left_unmarked_gets_its_anchor_at_the_next_command() {
    // The control of the test above, without the PIN holder's mark: the next command marks
    // the close (M-396's way on) and that mark is the anchor, which outlives every rolling
    // mark, so a copy cut before the close is refused.
    let env = Env::new();
    let closed = close_left_unmarked(&env);
    env.ok(&["keys", "export", "--out", "k1"]);
    env.ok(&["keys", "export", "--out", "k2"]);
    let (_, kept) = pin_holder_destroys_marks(&env);
    assert_eq!(kept, 1, "the close's anchor");
    let cut = env.path("cut.db");
    cut_before(&env, closed, &cut);
    let older = export_on(&env, &cut);
    assert_fails(&older, 7, "trail-older");
}

#[test]
fn a_mark_does_not_ask_the_token_to_destroy_an_anchor() {
    // A sitting's close anchored, then a command that marks twice (its start and its end):
    // each mark replaces the rolling mark before it, and has no reason to ask the token to
    // destroy the anchor, which it cannot (CKR_ACTION_PROHIBITED). Before e253a25 every mark
    // asked again for every anchor of the trail (they stay in the marks the command found on
    // its history, and their handles left the session's cache at each refusal, so their
    // attributes were read again too): two calls per anchor and per mark, a cost that grew
    // with the number of sittings held (issue 26).
    let env = Env::forwarding(true);
    let opened = sitting_opened();
    append_as_urne(
        &env,
        &[
            ("sitting.opened", opened),
            ("sitting.closed", serde_json::json!({"number": 1})),
        ],
    );
    let refused = |env: &Env| env.fwd_log().matches("destroy refused").count();
    let before = refused(&env);
    env.ok(&["keys", "export", "--out", "k1"]);
    env.ok(&["keys", "export", "--out", "k2"]);
    let (_, kept) = pin_holder_destroys_marks(&env);
    assert_eq!(kept, 1, "the close's anchor");
    assert_eq!(
        refused(&env) - before - kept,
        0,
        "destroys the token refused during two commands (the PIN holder's own refusal aside)"
    );
}
