//! The foundation: keys generated in a real SoftHSM token, HSM failures, and the audit trail's
//! tamper evidence (issue: appliance foundation).

use crate::common::*;
use rusqlite::Connection;

#[test]
fn keys_are_generated_in_the_token_sensitive_and_non_extractable() {
    let env = Env::new();
    let info = env.ok(&["hsm", "info"]);
    assert_eq!(
        info.matches("CKA_LOCAL=true CKA_NEVER_EXTRACTABLE=true CKA_ALWAYS_SENSITIVE=true CKA_SENSITIVE=true CKA_EXTRACTABLE=false").count(),
        2,
        "{info}"
    );
    assert!(info.contains("Ed25519 key generation (CKM_EC_EDWARDS_KEY_PAIR_GEN): present"));
    // The attributes were recorded in the audit trail when the keys were made.
    let show = env.ok(&["audit", "show"]);
    assert!(show.contains("keys.generated"));
    // The two key pairs' private keys, and the sealing key (spec/appliance.md §6.9).
    assert_eq!(
        show.matches("\"never_extractable\": true").count(),
        3,
        "{show}"
    );
    assert!(show.contains("\"seal_key\""), "{show}");
}

#[test]
fn a_second_keys_init_is_refused_and_changes_no_key() {
    let env = Env::new();
    env.ok(&["keys", "export", "--out", "before"]);
    let before = event_total(&env);
    let out = env.urne(&["keys", "init"]);
    assert_fails(&out, 4, "token-initialised");
    env.ok(&["keys", "export", "--out", "after"]);
    for f in ["result.pub.pem", "audit.pub.pem"] {
        assert_eq!(
            std::fs::read(env.path("before").join(f)).unwrap(),
            std::fs::read(env.path("after").join(f)).unwrap()
        );
    }
    // The refusal came before any trail was begun: on standard error only (spec/appliance.md §6.5); the
    // trail holds the export that followed and nothing else.
    assert_eq!(
        event_total(&env),
        before + 2,
        "software.start and keys.exported"
    );
    assert!(!env.ok(&["audit", "show"]).contains("command.failed"));
}

#[test]
fn exported_pem_keys_verify_token_signatures_with_openssl() {
    use base64::Engine;
    let env = Env::new();
    env.ok(&["keys", "export", "--out", "pub"]);
    let p = env.path("pub");
    // keys.json is signed in the token by the result key.
    assert!(openssl_verify(
        &p.join("result.pub.pem"),
        &p.join("keys.json"),
        &p.join("keys.json.sig")
    ));
    // ... and not by the audit key (one key, one use), and not over other bytes.
    assert!(!openssl_verify(
        &p.join("audit.pub.pem"),
        &p.join("keys.json"),
        &p.join("keys.json.sig")
    ));
    std::fs::write(p.join("tampered.json"), b"{}\n").unwrap();
    assert!(!openssl_verify(
        &p.join("result.pub.pem"),
        &p.join("tampered.json"),
        &p.join("keys.json.sig")
    ));
    // An audit checkpoint is signed in the token by the audit key: check its body with openssl.
    let conn = Connection::open(env.db()).unwrap();
    let note: String = conn
        .query_row(
            "SELECT note FROM checkpoints ORDER BY size DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let (body, sigline) = note.split_once("\n\n").unwrap();
    std::fs::write(p.join("cp.body"), format!("{body}\n")).unwrap();
    let blob = base64::engine::general_purpose::STANDARD
        .decode(sigline.trim().rsplit(' ').next().unwrap())
        .unwrap();
    std::fs::write(p.join("cp.sig"), &blob[4..]).unwrap();
    assert!(openssl_verify(
        &p.join("audit.pub.pem"),
        &p.join("cp.body"),
        &p.join("cp.sig")
    ));
}

/// Runs a command that needs the HSM under a broken setting; checks exit 3, one error line,
/// and that nothing changed: no keys made, no output written, trail still intact.
fn hsm_failure_changes_nothing(
    setup: impl Fn(&mut std::process::Command),
    id: &str,
    values: &[&str],
) {
    let env = Env::without_keys();
    for args in [
        &["keys", "init"][..],
        &["keys", "export", "--out", "out"][..],
    ] {
        let mut c = env.cmd();
        setup(&mut c);
        let out = c.args(args).output().unwrap();
        let err = assert_fails(&out, 3, id);
        assert_names(&err, values);
        assert!(!env.path("out").exists());
    }
    // The token still has no keys, and no trail was created.
    // Issue 25, item 4: said as a new token, never as one an older urne initialised.
    let info = env.ok(&["hsm", "info"]);
    assert!(
        info.contains("keys:\n  none: the token is new (no keys yet); run `urne keys init`"),
        "{info}"
    );
    assert!(!info.contains("older urne"), "{info}");
    let fr = env
        .cmd()
        .env("LANG", "fr_FR.UTF-8")
        .args(["hsm", "info"])
        .output()
        .unwrap();
    let fr = String::from_utf8_lossy(&fr.stdout);
    assert!(
        fr.contains("aucune : le jeton est neuf (pas encore de clé) ; lancez `urne keys init`"),
        "{fr}"
    );
    assert!(
        !env.db().exists(),
        "no command but keys init creates a trail"
    );
}

#[test]
fn a_wrong_pin_is_refused_with_exit_3_and_changes_nothing() {
    hsm_failure_changes_nothing(
        |c| {
            c.env("URNE_PIN", "not-the-pin");
        },
        "pin-incorrect",
        &[],
    );
}

#[test]
fn a_wrong_token_label_is_refused_with_exit_3_and_lists_the_tokens() {
    hsm_failure_changes_nothing(
        |c| {
            c.env("URNE_HSM_TOKEN", "no-such-token");
        },
        "token-not-found",
        // The label asked for, and the tokens there are.
        &["\"no-such-token\"", "\"urne-dev\""],
    );
}

#[test]
fn a_missing_token_is_refused_with_exit_3() {
    let empty = tempfile::tempdir().unwrap();
    let conf = empty.path().join("softhsm2.conf");
    std::fs::create_dir(empty.path().join("tokens")).unwrap();
    std::fs::write(
        &conf,
        format!(
            "directories.tokendir = {}\n",
            empty.path().join("tokens").display()
        ),
    )
    .unwrap();
    hsm_failure_changes_nothing(
        move |c| {
            c.env("SOFTHSM2_CONF", &conf);
        },
        "token-not-found",
        &["none"],
    );
}

#[test]
fn a_missing_module_is_refused_with_exit_3() {
    hsm_failure_changes_nothing(
        |c| {
            c.env("URNE_HSM_MODULE", "/nonexistent/libpkcs11.so");
        },
        "module-refused",
        &["/nonexistent/libpkcs11.so"],
    );
}

#[test]
fn no_pin_and_no_terminal_is_refused_with_exit_3() {
    let env = Env::new();
    let out = env
        .cmd()
        .env_remove("URNE_PIN")
        .args(["keys", "export", "--out", "o"])
        .output()
        .unwrap();
    assert_fails(&out, 3, "pin-missing");
}

// ---- the audit trail -------------------------------------------------------------------------

/// A trail with some history: keys init + three exports (each records events and a checkpoint).
fn trail() -> Env {
    let env = Env::new();
    for i in 0..3 {
        env.ok(&["keys", "export", "--out", &format!("k{i}")]);
    }
    env.ok(&["audit", "verify", "--keys", "audit-keys", "--strict"]);
    env
}

fn count(env: &Env) -> i64 {
    Connection::open(env.db())
        .unwrap()
        .query_row("SELECT COUNT(*) FROM events", [], |r| r.get(0))
        .unwrap()
}

#[test]
fn an_append_decided_on_a_stale_read_of_the_trail_is_refused_and_writes_nothing() {
    // A writer that does not take the lock (two contexts in one process): A reads the trail (and decides from what it read), B appends,
    // then A's decision must not be recorded. (Real SQLite file, two connections, each begun as
    // a command begins: logged in, checked against the token; in a child process, as SoftHSM
    // reads its configuration once per process.)
    if std::env::var("URNE_TEST_STALE_READ").is_ok() {
        return stale_read_scenario();
    }
    let env = trail();
    let out = env
        .cmd_of(&std::env::current_exe().unwrap())
        .args([
            "foundation::an_append_decided_on_a_stale_read_of_the_trail_is_refused_and_writes_nothing",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("URNE_TEST_STALE_READ", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success() && String::from_utf8_lossy(&out.stdout).contains("SCENARIO DONE"),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    env.ok(&["audit", "verify", "--keys", "audit-keys"]);
}

fn count_db() -> i64 {
    Connection::open(std::env::var("URNE_DB").unwrap())
        .unwrap()
        .query_row("SELECT COUNT(*) FROM events", [], |r| r.get(0))
        .unwrap()
}

fn stale_read_scenario() {
    let mut a = begun("a");
    let payload = serde_json::json!({"command": "test", "class": "internal", "error": "test"});
    // A's own appends after its read go on: they advance what A knows.
    {
        let (log, hsm) = a.both().unwrap();
        log.append(hsm, "command.failed", &payload).unwrap();
        log.append(hsm, "command.failed", &payload).unwrap();
    }
    let mut b = begun("b");
    {
        let (log, hsm) = b.both().unwrap();
        log.append(hsm, "command.failed", &payload).unwrap();
    }
    let n = count_db();
    // A reads again: what B added is not read (nothing is decided from events this process did
    // not verify or append itself).
    let e = a.audit().unwrap().events().unwrap_err();
    assert_eq!(e.kind, urne::error::Kind::TrailChanged, "{}", e.message);
    let (log, hsm) = a.both().unwrap();
    let e = log.append(hsm, "command.failed", &payload).unwrap_err();
    assert_eq!(e.kind, urne::error::Kind::TrailChanged, "{}", e.message);
    let e = log
        .append_with_blobs(hsm, "command.failed", &payload, &[b"data"])
        .unwrap_err();
    assert_eq!(e.kind, urne::error::Kind::TrailChanged, "{}", e.message);
    assert_eq!(count_db(), n, "nothing was written");
    let blobs: i64 = Connection::open(std::env::var("URNE_DB").unwrap())
        .unwrap()
        .query_row(
            "SELECT COUNT(*) FROM blobs WHERE data = x'64617461'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(blobs, 0, "no blob either");
    // The record of a failure is kept all the same, and does not make A's view current again.
    log.append_evidence(hsm, "command.failed", &payload)
        .unwrap();
    assert_eq!(count_db(), n + 1);
    assert!(log.append(hsm, "command.failed", &payload).is_err());
    // A command that reads the trail now acts on it.
    let mut c = begun("c");
    let (log, hsm) = c.both().unwrap();
    log.append(hsm, "command.failed", &payload).unwrap();
    // A payload that fails after its blobs were written (the seal's HSM signature failing)
    // leaves nothing behind: no event, no blob.
    let n = count_db();
    let e = log
        .append_with_blobs_then(hsm, "command.failed", &[b"sealed set"], |_| {
            Err(urne::error::Error::new(
                urne::error::Kind::HsmUnavailable,
                "the token refused to sign",
                "",
            ))
        })
        .unwrap_err();
    assert_eq!(e.kind, urne::error::Kind::HsmUnavailable);
    assert_eq!(count_db(), n);
    let sealed_blobs = || -> i64 {
        Connection::open(std::env::var("URNE_DB").unwrap())
            .unwrap()
            .query_row(
                "SELECT COUNT(*) FROM blobs WHERE data = CAST('sealed set' AS BLOB)",
                [],
                |r| r.get(0),
            )
            .unwrap()
    };
    assert_eq!(sealed_blobs(), 0);
    // ... and the same append with its payload goes through, blob and all.
    log.append_with_blobs_then(hsm, "command.failed", &[b"sealed set"], |stored| {
        assert_eq!(stored, [urne_verify::crypto::sha256(b"sealed set")]);
        Ok(payload.clone())
    })
    .unwrap();
    assert_eq!(count_db(), n + 1);
    assert_eq!(sealed_blobs(), 1);
    println!("SCENARIO DONE");
}

/// Opens the trail as an attacker would: triggers dropped (put back when it closes).
fn attacker(env: &Env) -> Insider {
    let c = Insider::open(&env.db());
    c.execute_batch(
        "DROP TRIGGER events_no_update; DROP TRIGGER events_no_delete; DROP TRIGGER events_link;
         DROP TRIGGER checkpoints_no_update; DROP TRIGGER checkpoints_no_delete;",
    )
    .unwrap();
    c
}

fn verify_fails_at(env: &Env, extra: &[&str], seq: i64) {
    let mut args = vec!["audit", "verify", "--keys", "audit-keys"];
    args.extend_from_slice(extra);
    let out = env.urne(&args);
    let err = assert_fails(&out, 1, "trail-verification-failed");
    assert_event(&err, seq);
}

#[test]
fn update_and_delete_are_refused_by_the_database() {
    let env = trail();
    let c = Connection::open(env.db()).unwrap();
    let e = c
        .execute("UPDATE events SET kind = 'x' WHERE seq = 2", [])
        .unwrap_err();
    assert!(e.to_string().contains("append-only"), "{e}");
    let e = c
        .execute("DELETE FROM events WHERE seq = 2", [])
        .unwrap_err();
    assert!(e.to_string().contains("append-only"), "{e}");
    let e = c.execute("DELETE FROM checkpoints", []).unwrap_err();
    assert!(e.to_string().contains("append-only"), "{e}");
    let e = c
        .execute(
            "INSERT INTO events (seq, ts, kind, payload, prev_hash, hash) VALUES (999, 't', 'k', '{}', zeroblob(32), randomblob(32))",
            [],
        )
        .unwrap_err();
    assert!(e.to_string().contains("does not extend the chain"), "{e}");
    env.ok(&["audit", "verify", "--keys", "audit-keys", "--strict"]);
}

#[test]
fn editing_any_event_is_detected_at_its_sequence_number() {
    let env = trail();
    let n = count(&env);
    for seq in [1, n / 2, n] {
        let env = trail();
        attacker(&env)
            .execute(
                "UPDATE events SET payload = replace(payload, '\"', '''') WHERE seq = ?1",
                [seq],
            )
            .unwrap();
        verify_fails_at(&env, &[], seq);
    }
}

#[test]
fn deleting_an_event_is_detected_at_its_sequence_number() {
    let env = trail();
    attacker(&env)
        .execute("DELETE FROM events WHERE seq = 3", [])
        .unwrap();
    verify_fails_at(&env, &[], 3);
}

#[test]
fn swapping_two_events_is_detected_at_the_first() {
    let env = trail();
    let c = attacker(&env);
    c.execute_batch(
        "UPDATE events SET seq = -1 WHERE seq = 2;
         UPDATE events SET seq = 2 WHERE seq = 5;
         UPDATE events SET seq = 5 WHERE seq = -1;",
    )
    .unwrap();
    drop(c);
    verify_fails_at(&env, &[], 2);
}

#[test]
fn an_appended_forged_event_is_detected() {
    // Garbage hash: the chain breaks at the new event.
    let env = trail();
    let n = count(&env);
    attacker(&env)
        .execute(
            "INSERT INTO events (seq, ts, kind, payload, prev_hash, hash)
             SELECT seq + 1, ts, 'draw.result', '{\"winner\":\"me\"}', hash, randomblob(32)
             FROM events WHERE seq = ?1",
            [n],
        )
        .unwrap();
    verify_fails_at(&env, &[], n + 1);

    // A well-chained forgery (the attacker recomputes the hash): no signed checkpoint covers it.
    let env = trail();
    let n = count(&env).cast_unsigned();
    let c = attacker(&env);
    let (ts, prev): (String, Vec<u8>) = c
        .query_row(
            "SELECT ts, hash FROM events WHERE seq = ?1",
            [n.cast_signed()],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let prev = urne_verify::crypto::Hash32::try_from(prev.as_slice()).unwrap();
    let payload = "{\"winner\":\"me\"}";
    let h = urne_verify::audit::chain::event_hash(&prev, n + 1, &ts, "draw.result", payload);
    c.execute(
        "INSERT INTO events (seq, ts, kind, payload, prev_hash, hash) VALUES (?1, ?2, 'draw.result', ?3, ?4, ?5)",
        rusqlite::params![(n + 1).cast_signed(), ts, payload, prev.as_slice(), h.as_slice()],
    )
    .unwrap();
    drop(c);
    verify_fails_at(&env, &["--strict"], (n + 1).cast_signed());
}

#[test]
fn truncation_past_a_held_checkpoint_is_detected() {
    let env = trail();
    let n = count(&env);
    // The user holds the latest checkpoint (as shipped with a result).
    let note: String = Connection::open(env.db())
        .unwrap()
        .query_row(
            "SELECT note FROM checkpoints ORDER BY size DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    std::fs::write(env.path("held.note"), note).unwrap();
    env.ok(&["audit", "verify", "--checkpoint", "held.note"]);
    // The attacker cuts the trail back and removes the checkpoints that covered the tail.
    let c = attacker(&env);
    c.execute("DELETE FROM events WHERE seq > ?1", [n - 3])
        .unwrap();
    c.execute("DELETE FROM checkpoints WHERE size > ?1", [n - 3])
        .unwrap();
    drop(c);
    // Without the held checkpoint the shortened trail looks consistent ...
    env.ok(&["audit", "verify", "--keys", "audit-keys"]);
    // ... with it, the cut is found.
    verify_fails_at(&env, &["--checkpoint", "held.note"], n - 2);
}

#[test]
fn a_rewritten_history_fails_the_signed_checkpoint() {
    // The attacker edits an event and recomputes every later hash: the chain is consistent, but
    // the signed checkpoints no longer match.
    let env = trail();
    let c = attacker(&env);
    let rows: Vec<(i64, String, String, String)> = {
        let mut st = c
            .prepare("SELECT seq, ts, kind, payload FROM events ORDER BY seq")
            .unwrap();
        st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .unwrap()
            .map(|r| r.unwrap())
            .collect()
    };
    let mut prev = urne_verify::crypto::Hash32::ZERO;
    for (seq, ts, kind, payload) in rows {
        let payload = if kind == "keys.generated" {
            payload.replace("true", "false")
        } else {
            payload
        };
        let h =
            urne_verify::audit::chain::event_hash(&prev, seq.cast_unsigned(), &ts, &kind, &payload);
        c.execute(
            "UPDATE events SET payload = ?1, prev_hash = ?2, hash = ?3 WHERE seq = ?4",
            rusqlite::params![payload, prev.as_slice(), h.as_slice(), seq],
        )
        .unwrap();
        prev = h;
    }
    drop(c);
    let out = env.urne(&["audit", "verify", "--keys", "audit-keys"]);
    assert_fails(&out, 1, "trail-verification-failed");
}

/// Child mode of the crash test: append events as fast as possible until killed.
fn append_forever() -> ! {
    let mut ctx = begun("append forever");
    let (log, hsm) = ctx.both().unwrap();
    let mut i = 0u64;
    loop {
        log.append(
            hsm,
            "command.failed",
            &serde_json::json!({ "command": "append forever", "class": "internal", "error": format!("{i} {}", "x".repeat(2000)) }),
        )
        .unwrap();
        i += 1;
    }
}

#[test]
fn a_kill_in_the_middle_of_appending_leaves_a_trail_that_verifies() {
    if std::env::var("URNE_TEST_APPEND_FOREVER").is_ok() {
        append_forever();
    }
    let env = Env::new();
    let before = count(&env);
    for round in 0..4 {
        let mut child = env
            .cmd_of(&std::env::current_exe().unwrap())
            .args([
                "foundation::a_kill_in_the_middle_of_appending_leaves_a_trail_that_verifies",
                "--exact",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("URNE_TEST_APPEND_FOREVER", "1")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Killed once it is appending (it has appended at least one event: on a loaded machine
        // its start alone can take longer than any fixed delay), at a moment that varies.
        let start = count(&env);
        let t = std::time::Instant::now();
        while count(&env) == start && t.elapsed() < std::time::Duration::from_mins(1) {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        std::thread::sleep(std::time::Duration::from_millis(10 + 37 * round));
        child.kill().unwrap(); // SIGKILL: no cleanup, no destructor, mid-transaction
        child.wait().unwrap();
        env.ok(&["audit", "verify", "--keys", "audit-keys"]);
    }
    assert!(
        count(&env) > before,
        "the child appended nothing: the test proved nothing"
    );
    // The appliance carries on appending (and signing) after the crash.
    env.ok(&["keys", "export", "--out", "after-crash"]);
    env.ok(&["audit", "verify", "--keys", "audit-keys", "--strict"]);
}

#[test]
fn the_schema_is_created_in_one_transaction() {
    // A database in which the schema cannot be completed (a view stands where the blobs table
    // goes, and a BEFORE trigger cannot be made on a view): opening it fails, and none of the
    // schema is left behind, so no half-made trail can be mistaken for one.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("audit.db");
    let c = rusqlite::Connection::open(&db).unwrap();
    c.execute_batch("CREATE VIEW blobs AS SELECT 1 AS sha256;")
        .unwrap();
    drop(c);
    let err = urne::edge::store::AuditLog::create_schema(&db)
        .err()
        .expect("refused");
    assert_eq!(err.kind, urne::error::Kind::StoreFailed, "{}", err.message);
    let c = rusqlite::Connection::open(&db).unwrap();
    let tables: Vec<String> = c
        .prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger') ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(tables.is_empty(), "left behind: {tables:?}");
}
