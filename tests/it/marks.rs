//! When the token marks the trail (spec/appliance.md §6.6): before a command acts on what it
//! appended, not after every event [M-393], so the objects a command leaves in the token are
//! one per act, whatever the number of events; and a mark of another history beside the one a
//! database extends is a fork, whatever its size [M-394].

use crate::common::*;
use std::path::Path;

/// The objects in the token's folder (SoftHSM keeps one `.object` file per object).
pub(crate) fn token_objects(env: &Env) -> usize {
    fn count(dir: &Path) -> usize {
        std::fs::read_dir(dir).map_or(0, |rd| {
            rd.map(|e| e.unwrap().path())
                .map(|p| {
                    if p.is_dir() {
                        count(&p)
                    } else {
                        usize::from(p.extension().is_some_and(|x| x == "object"))
                    }
                })
                .sum()
        })
    }
    count(&env.path("tokens"))
}

/// The trail's events of `kind`.
fn kind_count_of(env: &Env, kind: &str) -> i64 {
    rusqlite::Connection::open(env.db())
        .unwrap()
        .query_row("SELECT COUNT(*) FROM events WHERE kind = ?1", [kind], |r| {
            r.get(0)
        })
        .unwrap()
}

/// What a command added: (events, marks made, token objects), the marks counted by the
/// forwarding module's log of `C_CreateObject`.
fn added(env: &Env, run: impl FnOnce()) -> (i64, usize, isize) {
    let made = |env: &Env| env.fwd_log().matches("create ok").count();
    let (events, marks, objects) = (event_total(env), made(env), token_objects(env));
    run();
    (
        event_total(env) - events,
        made(env) - marks,
        token_objects(env).cast_signed() - objects.cast_signed(),
    )
}

#[test]
fn a_draw_and_a_block_generation_mark_before_their_acts_and_leave_no_object_behind() {
    let env = Env::forwarding(true);
    let export = crate::draws::simulate(&env, crate::trail::DAY, 300, 41, &[]);
    crate::draws::seal(&env, &export);
    let before = token_objects(&env);
    // A draw (late, D-8): its start, lateness, entropy, contribution, result, output's placing
    // and publication. Marked: the entropy (with the start and the lateness) before its
    // commitment is shown, the contribution before the seed is computed, the placing (with the
    // result) before any file is placed, and the end (the publication) [M-393]. Each mark
    // replaces the one before it: the token holds no more objects than before [M-397].
    let (events, marks, objects) = added(&env, || {
        env.ok(&crate::trail::draw_args("out"));
    });
    assert_eq!(kind_count_of(&env, "draw.late"), 1);
    assert_eq!(
        (events, marks, objects),
        (7, 4, 0),
        "(events, marks, objects) of a draw"
    );
    // Three blocks in one run: its start, 3 entropies, the contribution, and for each block
    // its record, its commitment's placing and its publication. Marked: the start, the
    // entropies together, the contribution, each placing, the end.
    let rules = crate::block_cli::small_rules(&env);
    let (events, marks, objects) = added(&env, || {
        let o = crate::block_cli::generate(&env, &rules, "100", "1", "3", "blocks");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    });
    assert_eq!(
        (events, marks, objects),
        (14, 7, 0),
        "(events, marks, objects) of 3 blocks"
    );
    // Every later command finds the trail vouched for, and goes on; the token's objects stay
    // as many, whatever the trail's length.
    for i in 0..5 {
        env.ok(&["keys", "export", "--out", &format!("keys-{i}")]);
    }
    assert_eq!(token_objects(&env), before);
    assert!(env.fwd_log().contains("destroy ok"));
    assert!(!env.fwd_log().contains("destroy refused"));
}

#[test]
fn a_checkpoint_altered_before_the_last_mark_is_left_to_audit_verify_and_the_sitting() {
    // Tier (a) alters the signature of a stored checkpoint the token's last mark vouches for
    // (its events unchanged). An ordinary command does not check those signatures again
    // [M-395]: the mark vouches for the events, whose root it recomputes; nothing it decides
    // rests on an old checkpoint's bytes, and the head's checkpoint, which outputs carry, is
    // verified at every append. `urne audit verify` checks them all and refuses the trail.
    let (env, _) = crate::trail::sealed();
    env.ok(&["audit", "verify", "--keys", "audit-keys"]);
    alter_checkpoint(&env, 3);
    // The events are the token's: the command goes on, and marks its own.
    env.ok(&["keys", "export", "--out", "keys-2"]);
    // A backup, which is what gets put back, checks them all and refuses.
    assert_fails(
        &env.urne(&["audit", "backup", "--out", "backup.db"]),
        7,
        "trail-broken",
    );
    assert!(!env.path("backup.db").exists());
    let o = env.urne(&["audit", "verify", "--keys", "audit-keys"]);
    assert!(
        !o.status.success(),
        "audit verify refuses the altered checkpoint"
    );
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("size 3")
            || String::from_utf8_lossy(&o.stderr).contains("size 3"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn a_draw_taken_up_again_on_a_copy_stops_before_it_shows_the_commitment_again() {
    // The day's entropy recorded and marked, its contribution refused (too short): the draw is
    // taken up again at its contribution. Two copies of that trail, in two folders (so two
    // locks): B passes its check and is held at its first write; A draws the day in full; then
    // B goes on. B must read the token's marks back before it shows the commitment again and
    // asks for a contribution (M-393), find A's history there and stop (M-139), having asked
    // the commissaire for nothing.
    let (env, _) = crate::trail::sealed();
    let o = draw_typed(&env, crate::trail::DAY, "x", "out0");
    assert!(!o.status.success());
    assert_eq!(kind_count_of(&env, "draw.entropy"), 1);
    assert_eq!(kind_count_of(&env, "draw.contribution"), 0);
    for c in ["copy-a/a.db", "copy-b/b.db"] {
        let p = env.path(c);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::copy(env.db(), p).unwrap();
    }
    let draw_on = |db: &str, out: &str| {
        let mut c = env.cmd_of(&root().join("scripts/pty-type"));
        c.env("URNE_DB", env.path(db))
            .args(["--on", TYPE_BACK, "--send-match"])
            .args(["--on", CONTRIBUTION_PROMPT, "--send", CONTRIBUTION])
            .args(["--on", YES_NO, "--send", "oui", "--"])
            .arg(urne_bin())
            .args(["draw", "--day", crate::trail::DAY, "--out", out]);
        c
    };
    let lock = rusqlite::Connection::open(env.path("copy-b/b.db")).unwrap();
    lock.execute_batch("BEGIN IMMEDIATE").unwrap();
    let mut b = draw_on("copy-b/b.db", "out-b")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let (wait, screen) = watch_check(b.stdout.take().unwrap());
    if wait
        .recv_timeout(std::time::Duration::from_mins(2))
        .is_err()
    {
        let _ = b.kill();
        panic!("B never passed its check: {}", screen.join().unwrap());
    }
    let a = draw_on("copy-a/a.db", "out-a").output().unwrap();
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stdout));
    lock.execute_batch("ROLLBACK").unwrap();
    let status = b.wait().unwrap();
    let shown = screen.join().unwrap();
    assert_eq!(status.code(), Some(7), "{shown}");
    assert!(shown.contains("trail-fork"), "{shown}");
    let after_check = &shown[shown.find("audit trail ").unwrap()..];
    assert!(
        !regex_lite_contains(after_check, CONTRIBUTION_PROMPT),
        "B asked for a contribution before reading the marks back: {shown}"
    );
    assert!(!env.path("out-b").join("result.json").exists());
}

/// Whether `text` holds a match of the alternatives `(?:a|b)` of `pattern` (the prompts'
/// patterns are plain alternatives).
fn regex_lite_contains(text: &str, pattern: &str) -> bool {
    pattern
        .trim_start_matches("(?:")
        .trim_end_matches(')')
        .split('|')
        .any(|alt| text.contains(alt))
}

#[test]
fn a_token_that_refuses_a_new_mark_stops_the_command_before_it_acts() {
    // The token's storage full (the forwarding module answers C_CreateObject with
    // CKR_DEVICE_MEMORY): the command stops at its first mark, before it places anything, with
    // an error that says so; once the token has room, the next command marks what the refused
    // one recorded and goes on.
    let env = Env::forwarding(true);
    std::fs::write(env.path("fwd-full"), "").unwrap();
    let o = env.urne(&["keys", "export", "--out", "k"]);
    let err = assert_fails(&o, 3, "hsm-unavailable");
    assert!(err.contains("CKR_DEVICE_MEMORY"), "{err}");
    assert!(!env.path("k").join("keys.json").exists(), "nothing placed");
    std::fs::remove_file(env.path("fwd-full")).unwrap();
    env.ok(&["keys", "export", "--out", "k2"]);
    env.ok(&["keys", "export", "--out", "k3"]);
}

/// Tier (a) alters the signature of the stored checkpoint of size `size` (its events
/// unchanged): one base64 character of its signature line changed.
fn alter_checkpoint(env: &Env, size: i64) {
    let c = crate::trail::without_triggers(&env.db(), &["checkpoints_no_update"]);
    let note: String = c
        .query_row(
            "SELECT note FROM checkpoints WHERE size = ?1",
            [size],
            |r| r.get(0),
        )
        .unwrap();
    let sig_at = note.trim_end().rfind(' ').unwrap() + 10;
    let mut bytes = note.into_bytes();
    bytes[sig_at] = if bytes[sig_at] == b'A' { b'B' } else { b'A' };
    let altered = String::from_utf8(bytes).unwrap();
    c.execute(
        "UPDATE checkpoints SET note = ?1 WHERE size = ?2",
        rusqlite::params![altered, size],
    )
    .unwrap();
}

#[test]
fn a_sitting_refuses_a_checkpoint_altered_before_the_last_mark() {
    // The same alteration: a sitting checks every checkpoint's signature before its first
    // screen [M-395], so it is refused there (exit 7), with nothing recorded.
    let (env, _) = crate::trail::sealed();
    alter_checkpoint(&env, 3);
    let events = event_total(&env);
    let publ = env.path("pub");
    let o = env
        .cmd_of(&root().join("scripts/pty-type"))
        .env_remove("URNE_PIN")
        .env("LANG", "fr_FR.UTF-8")
        .args(["--timeout", "60"])
        .args(["--expect", "code PIN de l'HSM", "--send", &env.pin(), "--"])
        .arg(urne_bin())
        .args(["ceremony", "--out", publ.to_str().unwrap()])
        .output()
        .unwrap();
    let screen = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(7), "{screen}");
    assert!(screen.contains("trail-broken"), "{screen}");
    assert_eq!(event_total(&env), events, "nothing recorded");
}

/// Runs [`pin_holder_child_hook`] on `env`'s token: a PIN holder (tier b) destroys every
/// `urne-mark` the token lets them destroy. Returns (destroyed, kept).
pub(crate) fn pin_holder_destroys_marks(env: &Env) -> (usize, usize) {
    let out = run_child_hook(
        env,
        "marks::pin_holder_child_hook",
        "URNE_TEST_DESTROY_MARKS",
        "1",
    );
    let line = out
        .lines()
        .find_map(|l| l.split("MARKS ").nth(1))
        .unwrap_or_else(|| panic!("{out}"));
    let (destroyed, kept) = line.split_once(' ').unwrap();
    (destroyed.parse().unwrap(), kept.parse().unwrap())
}

/// The child side: does nothing unless `URNE_TEST_DESTROY_MARKS` is set. Logs in with the PIN
/// and calls `C_DestroyObject` on every private `urne-mark` data object, as `pkcs11-tool` would.
#[test]
fn pin_holder_child_hook() {
    use cryptoki::object::{Attribute, ObjectClass};

    if std::env::var("URNE_TEST_DESTROY_MARKS").is_err() {
        return;
    }
    let s = pin_holder_session();
    let marks = s
        .find_objects(&[
            Attribute::Class(ObjectClass::DATA),
            Attribute::Private(true),
            Attribute::Label(b"urne-mark".to_vec()),
        ])
        .unwrap();
    let (mut destroyed, mut kept) = (0, 0);
    for h in marks {
        match s.destroy_object(h) {
            Ok(()) => destroyed += 1,
            Err(_) => kept += 1,
        }
    }
    println!("MARKS {destroyed} {kept}");
    println!("CHILD OK");
}

#[test]
fn a_sittings_close_is_an_anchor_no_pin_holder_can_remove() {
    // The key ceremony, a sitting: its close is marked by an anchor, which the token keeps;
    // every later command's mark replaces the one before it, never the anchor [M-397].
    let env = Env::without_keys();
    let o = crate::ceremony::key_ceremony(&env, "2018-12-10 09:00:00", &env.path("pub"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    let closed: i64 = rusqlite::Connection::open(env.db())
        .unwrap()
        .query_row(
            "SELECT seq FROM events WHERE kind = 'sitting.closed'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let objects = token_objects(&env);
    for (i, minute) in ["10", "11", "12"].iter().enumerate() {
        let o = crate::ceremony::at(&env, &format!("2018-12-10 10:{minute}:00"))
            .args(["keys", "export", "--out", &format!("k{i}")])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    assert_eq!(token_objects(&env), objects, "one mark replaced another");
    // A trail cut back to before the sitting's close (tier a's older copy): refused.
    let cut = env.path("cut.db");
    crate::anchors::cut_before(&env, closed, &cut);
    let older = |env: &Env| {
        crate::ceremony::at(env, "2018-12-10 10:20:00")
            .env("URNE_DB", &cut)
            .args(["keys", "export", "--out", "k-older"])
            .output()
            .unwrap()
    };
    assert_fails(&older(&env), 7, "trail-older");
    // A PIN holder destroys every mark the token lets them: the last rolling one goes, the
    // anchor stays, and the cut trail is still refused.
    let (destroyed, kept) = pin_holder_destroys_marks(&env);
    assert_eq!((destroyed, kept), (1, 1), "(destroyed, kept)");
    assert_fails(&older(&env), 7, "trail-older");
    // The whole trail extends the anchor: accepted, and marked again.
    let o = crate::ceremony::at(&env, "2018-12-10 10:30:00")
        .args(["keys", "export", "--out", "k-after"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn a_draw_on_a_full_token_stops_before_its_commitment_and_resumes_with_the_same_entropy() {
    // The token refuses the draw's first mark, the one made over its entropy before the
    // commitment is shown [M-396]: the draw stops there (exit 3), having shown no commitment
    // and asked for no contribution. Once the token has room, the same command takes the
    // recorded entropy up (no second entropy) and draws.
    let env = Env::forwarding(true);
    let export = crate::draws::simulate(&env, crate::trail::DAY, 300, 41, &[]);
    crate::draws::seal(&env, &export);
    std::fs::write(env.path("fwd-full"), "").unwrap();
    let o = draw_typed(&env, crate::trail::DAY, CONTRIBUTION, "out");
    let screen = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(3), "{screen}");
    assert!(screen.contains("CKR_DEVICE_MEMORY"), "{screen}");
    assert!(
        !regex_lite_contains(&screen, CONTRIBUTION_PROMPT),
        "a contribution was asked for: {screen}"
    );
    assert!(
        !screen.contains("first 8 characters") && !screen.contains("8 premiers caractères"),
        "the commitment was shown: {screen}"
    );
    assert_eq!(kind_count_of(&env, "draw.entropy"), 1);
    assert!(!env.path("out").join("result.json").exists());
    std::fs::remove_file(env.path("fwd-full")).unwrap();
    let o = draw_typed(&env, crate::trail::DAY, CONTRIBUTION, "out");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    assert_eq!(kind_count_of(&env, "draw.entropy"), 1, "the same entropy");
    assert!(env.path("out").join("result.json").exists());
}
