//! A lost trail is an incident, not a reset (issue 10 item 6, spec/appliance.md §6.8): a backup whose
//! head is the token's last mark can be put back, and only until the next append; anything else
//! goes through a witnessed `urne trail restart`, which carries forward what the published
//! outputs show and is stated by every later output.

use crate::common::*;
use crate::draws::{seal, simulate};

/// A draw, the contribution typed at the prompt on a terminal.
fn draw(env: &Env, day: &str, out: &str) {
    let o = draw_typed(env, day, "3 5 2 6 dés du commissaire", out);
    assert!(
        o.status.success(),
        "draw {day}: {}",
        String::from_utf8_lossy(&o.stdout)
    );
    let r: serde_json::Value =
        serde_json::from_slice(&std::fs::read(env.path(out).join("result.json")).unwrap()).unwrap();
    assert_eq!(r["contribution"], "3 5 2 6 dés du commissaire");
}

#[test]
fn a_backup_at_the_last_mark_is_restorable_until_the_next_append() {
    let env = Env::new();
    let e1 = simulate(&env, "2018-12-04", 200, 1, &[]);
    seal(&env, &e1);
    let before = event_total(&env);
    let out = env.ok(&["audit", "backup", "--out", "backup.db"]);
    assert!(out.contains("the token's last mark"), "{out}");
    assert_eq!(event_total(&env), before, "a backup appends nothing");
    // Refuses to replace a file.
    assert_fails(
        &env.urne(&["audit", "backup", "--out", "backup.db"]),
        4,
        "output-exists",
    );
    // Lost, then put back: accepted, the day draws.
    std::fs::remove_file(env.db()).unwrap();
    std::fs::copy(env.path("backup.db"), env.db()).unwrap();
    draw(&env, "2018-12-04", "d1");
    // After an append, the same backup is an older copy.
    std::fs::copy(env.db(), env.path("current.db")).unwrap();
    std::fs::copy(env.path("backup.db"), env.db()).unwrap();
    assert_fails(
        &env.urne(&["keys", "export", "--out", "k"]),
        7,
        "trail-older",
    );
    std::fs::copy(env.path("current.db"), env.db()).unwrap();
    env.ok(&["keys", "export", "--out", "k"]);
}

#[test]
fn a_witnessed_restart_carries_forward_what_was_published_and_every_later_output_says_so() {
    let env = Env::new();
    env.ok(&["keys", "export", "--out", "keys"]);
    let e1 = simulate(&env, "2018-12-04", 200, 1, &[]);
    let e2 = simulate(&env, "2018-12-05", 200, 2, &[]);
    seal(&env, &e1);
    seal(&env, &e2);
    draw(&env, "2018-12-04", "pub/d04");
    // The database is lost; only the published outputs remain.
    std::fs::rename(env.db(), env.path("lost.db")).unwrap();
    assert_fails(
        &env.urne(&["keys", "export", "--out", "k2"]),
        7,
        "trail-missing",
    );
    // A restart needs a reason, and never replaces a file.
    assert_fails(
        &env.urne(&["trail", "restart", "--reason", "short"]),
        2,
        "reason-too-short",
    );
    std::fs::write(env.db(), b"not a trail").unwrap();
    assert_fails(
        &env.urne(&[
            "trail",
            "restart",
            "--reason",
            "disque perdu pendant la séance",
            "--outputs",
            "pub",
        ]),
        4,
        "output-exists",
    );
    std::fs::remove_file(env.db()).unwrap();
    let out = env.ok(&[
        "trail",
        "restart",
        "--reason",
        "disque perdu pendant la séance",
        "--outputs",
        "pub",
    ]);
    assert!(out.contains("TRAIL RESTARTED"), "{out}");
    assert!(out.contains("day 2018-12-04 attempt 1: drawn"), "{out}");
    // The new trail pins none of production's keys (spec/appliance.md §4.1.0): a seal is refused until
    // they are pinned again, their ids typed.
    assert!(out.contains("none pinned in the new trail"), "{out}");
    pin_producer(&env, std::path::Path::new(URNE), &[]);
    // The day drawn under the old trail is never drawn again without a void.
    assert_fails(&env.draw("2018-12-04", "again"), 4, "day-already-drawn");
    assert!(!env.path("again").exists());
    // Day 2 was sealed in the lost trail only: it is sealed again, then drawn; its output
    // states the restart, and together with day 1's it is one history of two linked trails.
    seal(&env, &e2);
    draw(&env, "2018-12-05", "pub/d05");
    let b: serde_json::Value =
        serde_json::from_slice(&std::fs::read(env.path("pub/d05/bundle.json")).unwrap()).unwrap();
    let d04: serde_json::Value =
        serde_json::from_slice(&std::fs::read(env.path("pub/d04/bundle.json")).unwrap()).unwrap();
    assert_eq!(
        b["history"]["restart"]["previous_trail"], d04["history"]["trail"],
        "{b}"
    );
    assert_ne!(b["history"]["trail"], d04["history"]["trail"]);
    env.ok(&["verify", "pub", "--keys", "keys"]);
    let py = std::process::Command::new("python3")
        .arg(root().join("verifier/urne_verify.py"))
        .arg(env.path("pub"))
        .arg("--keys")
        .arg(env.path("keys"))
        .output()
        .unwrap();
    assert!(
        py.status.success(),
        "{}",
        String::from_utf8_lossy(&py.stderr)
    );
    // After a void, day 1 may be drawn again, as attempt 2.
    env.ok(&[
        "void",
        "--day",
        "2018-12-04",
        "--reason",
        "tirage refait après la reprise",
    ]);
    seal(&env, &e1);
    draw(&env, "2018-12-04", "d04b");
    let r: serde_json::Value =
        serde_json::from_slice(&std::fs::read(env.path("d04b/result.json")).unwrap()).unwrap();
    assert_eq!(r["attempt"], 2);
    // A second restart is refused while the database is in place.
    assert_fails(
        &env.urne(&[
            "trail",
            "restart",
            "--reason",
            "une deuxième reprise pour voir",
        ]),
        4,
        "output-exists",
    );
}

/// A `urne keys export` started on the copy `db` of the trail (tier (a): two copies of one
/// database, one token) and held at its first append by a write lock on that copy, taken before
/// it starts: it has logged in and passed the check against the token (its stderr says so) when
/// this returns, and appends as soon as the lock is released.
struct Held {
    child: std::process::Child,
    lock: rusqlite::Connection,
    stderr: std::thread::JoinHandle<String>,
}

fn start_held(env: &Env, db: &str) -> Held {
    let lock = rusqlite::Connection::open(env.path(db)).unwrap();
    lock.execute_batch("BEGIN IMMEDIATE").unwrap();
    let mut child = env
        .cmd()
        .env("URNE_DB", env.path(db))
        .args([
            "keys",
            "export",
            "--out",
            &format!("keys-{}", db.replace('/', "-")),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let (wait, stderr) = watch_check(child.stderr.take().unwrap());
    if wait
        .recv_timeout(std::time::Duration::from_mins(2))
        .is_err()
    {
        let _ = child.kill();
        panic!(
            "{db}: the command never passed its check: {}",
            stderr.join().unwrap()
        );
    }
    Held {
        child,
        lock,
        stderr,
    }
}

impl Held {
    fn release(&self) {
        self.lock.execute_batch("ROLLBACK").unwrap();
    }

    fn finish(self) -> (Option<i32>, String) {
        let mut child = self.child;
        let status = child.wait().unwrap();
        (status.code(), self.stderr.join().unwrap())
    }
}

/// Afterwards, neither copy is the token's trail any more (the token holds a mark of each
/// history): every command refuses both, and the witnessed restart goes on.
fn both_refused_then_restart(env: &Env) {
    // Each mark replaces the ones of its history before it (M-397), so the two histories need
    // not hold marks of one size: the copy whose history the token's greatest mark extends
    // finds the other's mark beside it (a fork, M-394); the other copy is shorter than that
    // greatest mark (an older copy, M-137) or finds it off its history (a fork). Exit 7 both.
    let mut classes = vec![];
    for c in ["copy-a/a.db", "copy-b/b.db"] {
        let o = env
            .cmd()
            .env("URNE_DB", env.path(c))
            .args([
                "keys",
                "export",
                "--out",
                &format!("k-{}", c.replace('/', "-")),
            ])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(7), "{c}: {err}");
        let class = ["trail-fork", "trail-older"]
            .into_iter()
            .find(|k| err.contains(&format!("error[{k}]")))
            .unwrap_or_else(|| panic!("{c}: {err}"));
        classes.push(class);
    }
    assert!(classes.contains(&"trail-fork"), "{classes:?}");
    let o = env
        .cmd()
        .env("URNE_DB", env.path("c.db"))
        .args([
            "trail",
            "restart",
            "--reason",
            "deux copies utilisées en même temps",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = env
        .cmd()
        .env("URNE_DB", env.path("c.db"))
        .args(["keys", "export", "--out", "k2"])
        .output()
        .unwrap();
    assert!(o.status.success(), "the restarted trail works");
}

/// A read transaction on a database, held by another process (python3's sqlite3) until
/// [`Reader::stop`]: a writer's commit waits for it.
struct Reader(std::process::Child);

impl Reader {
    fn start(db: &std::path::Path) -> Reader {
        use std::io::BufRead;
        let mut child = std::process::Command::new("python3")
            .args([
                "-c",
                "import sqlite3, sys\n\
                 c = sqlite3.connect(sys.argv[1], isolation_level=None)\n\
                 c.execute('BEGIN'); c.execute('SELECT count(*) FROM events').fetchall()\n\
                 print('reading', flush=True); sys.stdin.read(); c.execute('COMMIT')",
            ])
            .arg(db)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.as_mut().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line, "reading\n");
        Reader(child)
    }

    fn stop(mut self) {
        drop(self.0.stdin.take());
        assert!(self.0.wait().unwrap().success());
    }
}

/// Two copies of the trail, each in a folder of its own: urne's lock on the trail's folder
/// (spec/appliance.md §6.5) keeps two commands on copies in one folder from running at once; copies in two
/// folders are what an insider uses to get past it, which the token's marks must catch.
fn two_copies(env: &Env) {
    for c in ["copy-a/a.db", "copy-b/b.db"] {
        let p = env.path(c);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::copy(env.db(), p).unwrap();
    }
}

#[test]
fn a_copy_whose_command_marks_while_the_other_is_between_its_signature_and_its_mark_is_refused() {
    // Tier (a), the order that hid the other copy's marks from SoftHSM's session (spec/appliance.md
    // §6.6, docs/threat-model.md): both commands pass their check; A signs its first event and
    // is held at its commit (a reader on a.db), B then appends, marks and finishes; only then
    // does A commit and mark. A's own session never lists B's marks (creating its mark absorbed
    // B's change to the token's generation counter); read back afresh, they are there.
    let env = Env::new();
    two_copies(&env);
    let a = start_held(&env, "copy-a/a.db");
    let b = start_held(&env, "copy-b/b.db");
    let reader = Reader::start(&env.path("copy-a/a.db"));
    a.release();
    // A is at its commit (past its signature) when it holds the lock that keeps new readers
    // out (SQLite's PENDING lock; the reader is another process, since SQLite does not check
    // the locks of other processes for a connection whose process already reads the file).
    let probe = rusqlite::Connection::open(env.path("copy-a/a.db")).unwrap();
    probe.busy_timeout(std::time::Duration::ZERO).unwrap();
    let mut a = a;
    let t0 = std::time::Instant::now();
    while probe
        .query_row("SELECT count(*) FROM events", [], |r| r.get::<_, i64>(0))
        .is_ok()
    {
        if a.child.try_wait().unwrap().is_some() || t0.elapsed().as_secs() > 30 {
            let _ = a.child.kill();
            panic!("A never reached its commit: {:?}", a.finish());
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    b.release();
    let (code, err) = b.finish();
    assert_eq!(code, Some(0), "B acted alone: {err}");
    reader.stop();
    let (code, err) = a.finish();
    // A must not act after B did.
    assert_failed(code, &err, 7, "trail-fork");
    assert!(!env.path("keys-a.db").exists(), "A exported nothing");
    both_refused_then_restart(&env);
}

#[test]
fn two_copies_of_the_trail_used_at_once_cannot_both_act() {
    // Tier (a): two copies of the database, two commands started on them at once, both past
    // their check against the token, then released together. Both append and mark; after
    // marking, each reads the token's marks back afresh: at most one may go on, and the token
    // then records the fork, which every later command refuses.
    let env = Env::new();
    two_copies(&env);
    let held = [
        start_held(&env, "copy-a/a.db"),
        start_held(&env, "copy-b/b.db"),
    ];
    for h in &held {
        h.release();
    }
    let outs: Vec<(Option<i32>, String)> = held.into_iter().map(Held::finish).collect();
    let ok = outs.iter().filter(|(c, _)| *c == Some(0)).count();
    assert!(ok <= 1, "both copies acted");
    for (code, err) in outs.iter().filter(|(c, _)| *c != Some(0)) {
        // SoftHSM 2.6 rewrites its token.object at every login and writes the bytes after it
        // unlocks the file: a process reading it at that moment finds it empty and takes the
        // token as gone for the rest of its life (exit 3). It did not act either.
        if *code == Some(3) {
            continue;
        }
        assert_failed(*code, err, 7, "trail-fork");
    }
    // When both marked, the token records two histories and both are refused until a
    // witnessed restart; when one stopped before marking (SoftHSM failing it), the other goes on.
    let marked: Vec<&str> = ["copy-a/a.db", "copy-b/b.db"]
        .into_iter()
        .filter(|c| {
            let o = env
                .cmd()
                .env("URNE_DB", env.path(c))
                .args([
                    "keys",
                    "export",
                    "--out",
                    &format!("k-{}", c.replace('/', "-")),
                ])
                .output()
                .unwrap();
            if !o.status.success() {
                assert_eq!(
                    o.status.code(),
                    Some(7),
                    "{}",
                    String::from_utf8_lossy(&o.stderr)
                );
            }
            o.status.success()
        })
        .collect();
    assert!(marked.len() <= 1, "two copies accepted: {marked:?}");
    if marked.is_empty() {
        both_refused_then_restart(&env);
    }
}

/// A witnessed restart made from another folder (so without the lock of a command running on
/// the trail it replaces): the command on the replaced trail stops at its first mark after the
/// restart (exit 7, it appends nothing more), and since that mark goes beyond the restart's
/// `previous_mark_size`, every command on the new trail refuses it as an incident (exit 7)
/// until the next witnessed restart (spec/appliance.md §6.8).
#[test]
fn a_command_on_a_trail_restarted_meanwhile_stops_at_its_next_mark_and_the_new_trail_says_so() {
    let env = Env::new();
    let held = start_held(&env, "audit.db");
    let before = event_total(&env);
    std::fs::create_dir_all(env.path("new")).unwrap();
    let o = env
        .cmd()
        .env("URNE_DB", env.path("new/c.db"))
        .args([
            "trail",
            "restart",
            "--reason",
            "base perdue, commande en cours",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    held.release();
    let (code, err) = held.finish();
    // The command on the replaced trail stops, naming the trail it appended to and the new one.
    let err = assert_failed(code, &err, 7, "trail-changed");
    let (replaced, _) = crate::trail::trail_of(&env.db());
    let (new, _) = crate::trail::trail_of(&env.path("new/c.db"));
    assert_names(&err, &[&replaced, &new]);
    assert_eq!(event_total(&env), before + 1, "one event, then it stopped");
    assert!(!env.path("keys-audit.db").exists(), "it exported nothing");
    let on_new = |out: &str| {
        env.cmd()
            .env("URNE_DB", env.path("new/c.db"))
            .args(["keys", "export", "--out", out])
            .output()
            .unwrap()
    };
    let err = assert_fails(&on_new("k1"), 7, "trail-fork");
    // The replaced trail appended to after the restart, and the restarted one's database.
    assert_names(&err, &[&replaced, "new/c.db"]);
    // The next witnessed restart, made knowing it, goes on.
    let o = env
        .cmd()
        .env("URNE_DB", env.path("new/d.db"))
        .args(["trail", "restart", "--reason", "trail remplacée prolongée"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = env
        .cmd()
        .env("URNE_DB", env.path("new/d.db"))
        .args(["keys", "export", "--out", "k2"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Blocks carried by a restart (spec/appliance.md §6.8 [M-141]): the restart lists each from its
/// verified outputs (stage `generated`, the SHA-256 of the commitment file; `revealed` for one
/// whose reveal was published), and under the new
/// trail it is neither generated again nor revealed (its entropy stayed in the replaced trail);
/// voided in front of the commissaire, it is generated again as attempt 2, and the outputs of
/// both trails verify as one history.
#[test]
fn a_restart_carries_a_generated_block_which_is_only_voided_then_generated_again() {
    use crate::block_cli::small_rules;
    use crate::outputs::{GAME, generate_args, last_payload};
    let env = Env::new();
    env.ok(&["keys", "export", "--out", "keys"]);
    let rules = small_rules(&env);
    env.ok(&generate_args(&rules, "1", "pub/b1"));
    let block = format!("{GAME}/100/t1/1");
    // Block 2 generated and revealed before the loss: carried as `revealed`.
    env.ok(&generate_args(&rules, "2", "pub/b2"));
    let b2 = format!("{GAME}/100/t1/2");
    let closed = sales_close(&env, &b2);
    let o = typed_back(
        &env,
        &b2,
        &[
            "block",
            "reveal",
            "--block",
            &b2,
            "--sales-closed-at",
            &closed,
            "--out",
            "pub/b2",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let commit = env.path(&format!("pub/b1/{}.commit.json", block.replace('/', "_")));
    let sha = crate::native::sha256_file(&commit);
    std::fs::rename(env.db(), env.path("lost.db")).unwrap();
    let out = env.ok(&[
        "trail",
        "restart",
        "--reason",
        "disque perdu pendant la séance",
        "--outputs",
        "pub",
    ]);
    assert!(
        out.contains(&format!("block {block} attempt 1: generated")),
        "{out}"
    );
    assert!(
        out.contains(&format!("block {b2} attempt 1: revealed")),
        "{out}"
    );
    let carried = &last_payload(&env, "trail.restarted")["blocks"];
    assert_eq!(carried.as_array().map(Vec::len), Some(2), "{carried}");
    assert_eq!(carried[1]["block"], b2.as_str());
    assert_eq!(carried[1]["stage"], "revealed");
    assert_eq!(carried[0]["block"], block.as_str());
    assert_eq!(carried[0]["attempt"], 1);
    assert_eq!(carried[0]["stage"], "generated");
    assert_eq!(carried[0]["output"], sha.as_str());
    // Not generated again, not revealed: only voided.
    assert_fails(
        &env.urne(&generate_args(&rules, "1", "again")),
        4,
        "block-already-generated",
    );
    assert!(!env.path("again").exists());
    let reveal = env.urne(&[
        "block",
        "reveal",
        "--block",
        &block,
        "--sales-closed-at",
        "2015-12-31T23:59:59+01:00",
        "--out",
        "pub/b1",
    ]);
    assert_fails(&reveal, 4, "block-not-generated");
    let o = typed_back(
        &env,
        &block,
        &[
            "block",
            "void",
            "--block",
            &block,
            "--reason",
            "ses tirages sont restés dans la piste perdue",
            "--out",
            "pub/void-b1",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    env.ok(&generate_args(&rules, "1", "pub/b1-attempt-2"));
    let p = last_payload(&env, "block.published");
    assert_eq!(p["attempt"], 2, "{p}");
    env.ok(&["verify", "pub", "--keys", "keys"]);
}

/// `urne ARGS` on a pseudo-terminal, `typed` typed back when the confirmation asks.
fn typed_back(env: &Env, typed: &str, args: &[&str]) -> std::process::Output {
    let mut c = env.cmd_of(&root().join("scripts/pty-type"));
    c.args(["--expect", CONFIRM, "--send", typed])
        .arg("--")
        .arg(URNE)
        .args(args);
    c.output().unwrap()
}
