//! Daily draws end to end with the real binary, a real SoftHSM token and real signed exports:
//! seal, draw, verify, prove, void (rules D-1 … D-15, design principles 1–3).

use crate::common::*;
use crate::outputs::last_payload;
use std::path::{Path, PathBuf};

pub(crate) fn rules() -> String {
    root()
        .join("rules/chanceux-noel-2018.json")
        .display()
        .to_string()
}

/// A signed export of `day` made by the project's simulator in `env`'s folder.
pub(crate) fn simulate(env: &Env, day: &str, plays: u32, seed: u32, extra: &[&str]) -> PathBuf {
    let out = env.path(&format!("exports-{seed}"));
    let mut args: Vec<std::ffi::OsString> = ["urne-simulate", "--day", day, "--plays"]
        .iter()
        .map(Into::into)
        .collect();
    args.push(plays.to_string().into());
    args.push("--seed".into());
    args.push(seed.to_string().into());
    args.push("--key".into());
    args.push(
        root()
            .join("tests/fixtures/keys/test-producer.key.pem")
            .into(),
    );
    args.push("--out".into());
    args.push(out.clone().into());
    args.extend(extra.iter().map(Into::into));
    let code = urne_simulate::run(args);
    assert_eq!(code, 0, "urne-simulate failed (its error is above)");
    out.join(format!("entries-chanceux-noel-2018-{day}.jsonl"))
}

pub(crate) fn seal(env: &Env, export: &Path) -> String {
    env.ok(&[
        "seal",
        "--rules",
        &rules(),
        "--entries",
        export.to_str().unwrap(),
    ])
}

/// The commitment the seal's screen shows (in groups of four, on the lines under its label).
fn commitment_of(seal_out: &str) -> String {
    let mut lines = seal_out
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("Commitment: Merkle root"))
        .skip(1);
    let two: Vec<&str> = lines.by_ref().take(2).collect();
    let c = two.concat().replace(' ', "");
    assert!(
        c.len() == 64 && c.bytes().all(|b| b.is_ascii_hexdigit()),
        "{seal_out}"
    );
    c
}

fn json(p: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

fn events(env: &Env, kind: &str) -> usize {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    c.query_row("SELECT COUNT(*) FROM events WHERE kind = ?1", [kind], |r| {
        r.get::<_, i64>(0)
    })
    .map(|n| usize::try_from(n).unwrap())
    .unwrap()
}

/// The payload of the (only) seal event in the trail.
fn seal_event(env: &Env) -> serde_json::Value {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let p: String = c
        .query_row(
            "SELECT payload FROM events WHERE kind = 'draw.seal'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    serde_json::from_str(&p).unwrap()
}

/// A drawn day: env, export, output folder.
fn drawn_day(day: &str) -> (Env, PathBuf, PathBuf) {
    let env = Env::new();
    let export = simulate(&env, day, 3000, 11, &[]);
    seal(&env, &export);
    env.draw_ok(day, "out");
    env.ok(&["keys", "export", "--out", "keys"]);
    let out = env.path("out");
    (env, export, out)
}

#[test]
fn a_sealed_day_draws_and_verifies_in_public_and_auditor_modes() {
    let (env, export, out) = drawn_day("2018-12-22"); // P4: 15 EUR tranche
    for f in [
        "result.json",
        "bundle.json",
        "pv.html",
        "rules.json",
        "checkpoint.note",
    ] {
        assert!(
            out.join(f).exists() && out.join(format!("{f}.sig")).exists(),
            "{f}"
        );
        assert!(
            openssl_verify(
                &env.path("keys/result.pub.pem"),
                &out.join(f),
                &out.join(format!("{f}.sig"))
            ),
            "{f}"
        );
    }
    let r = json(&out.join("result.json"));
    assert_eq!(r["operation"], "chanceux-noel-2018");
    assert_eq!(r["day"], "2018-12-22");
    assert_eq!(r["attempt"], 1);
    assert_eq!(r["prize_cents"], 2_000_000); // D-10, P4
    assert_eq!(r["figures"]["tranche_cents"], 1500); // D-3, P4
    assert_eq!(r["reserves"].as_array().unwrap().len(), 5);
    let mut accounts: Vec<&str> = std::iter::once(&r["winner"])
        .chain(r["reserves"].as_array().unwrap())
        .map(|p| p["account"].as_str().unwrap())
        .collect();
    accounts.sort_unstable();
    accounts.dedup();
    assert_eq!(
        accounts.len(),
        6,
        "winner and reserves are distinct accounts"
    );
    // The public bundle names no account (D-14, D-15).
    let bundle = std::fs::read_to_string(out.join("bundle.json")).unwrap();
    for a in &accounts {
        assert!(!bundle.contains(a));
    }
    env.ok(&["verify", "out", "--keys", "keys"]);
    env.ok(&[
        "verify",
        "out",
        "--keys",
        "keys",
        "--export",
        export.to_str().unwrap(),
        "--producer-key",
        producer_pub().as_str(),
    ]);
    env.ok(&[
        "audit",
        "verify",
        "--strict",
        "--checkpoint",
        "out/checkpoint.note",
    ]);
}

#[test]
fn a_day_cannot_be_drawn_twice() {
    let (env, _, out) = drawn_day("2018-12-01");
    let before = std::fs::read(out.join("result.json")).unwrap();
    let n_entropy = events(&env, "draw.entropy");
    let o = env.draw("2018-12-01", "out2");
    assert_fails(&o, 4, "day-already-drawn");
    assert!(!env.path("out2").exists(), "nothing written");
    assert_eq!(
        events(&env, "draw.entropy"),
        n_entropy,
        "no new entropy was asked for"
    );
    assert_eq!(std::fs::read(out.join("result.json")).unwrap(), before);
    assert!(
        env.ok(&["audit", "show", "--last", "3"])
            .contains("command.failed")
    );
    env.ok(&["audit", "verify", "--keys", "audit-keys", "--strict"]);
}

/// spec/appliance.md §6.5 [M-272]: one command at a time. Draw A holds the trail's lock while it waits for
/// the commissaire at the type-back prompt; a draw B of the same day, and any other command
/// meanwhile, stops at once with exit 6 ("another urne command holds the audit trail"), having
/// read and recorded nothing, never a trail that "fails" or a missing token. A then finishes.
#[test]
fn two_draws_of_one_day_at_once_never_both_record_entropy() {
    use std::io::{BufRead, Write};
    let env = Env::new();
    let export = simulate(&env, "2018-12-02", 500, 4, &[]);
    seal(&env, &export);
    let line = format!("exec {URNE} draw --day 2018-12-02 --out outA");
    let mut a = env
        .cmd_of(Path::new("script"))
        .args(["-q", "-e", "-c", &line, "/dev/null"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("script (util-linux) runs urne on a terminal");
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let stdout = a.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        for l in std::io::BufReader::new(stdout).lines() {
            let Ok(l) = l else { break };
            let _ = tx.send(l);
        }
    });
    let mut seen = String::new();
    loop {
        if let Ok(l) = rx.recv_timeout(std::time::Duration::from_mins(1)) {
            seen.push_str(&l);
            seen.push('\n');
            if l.contains("its first 8 characters") {
                break;
            }
        } else {
            let _ = a.kill();
            panic!("draw A never asked for the commitment typed back:\n{seen}");
        }
    }
    // A recorded the entropy and waits at the prompt, holding the lock.
    assert_eq!(events(&env, "draw.entropy"), 1);
    let before = std::fs::read(env.db()).unwrap();
    let busy = |o: std::process::Output, what: &str| {
        // The busy id, and no other error line: not a broken trail or a missing token.
        assert_fails(&o, 6, "busy");
        let _ = what;
    };
    busy(env.draw("2018-12-02", "outB"), "draw B");
    busy(env.urne(&["status"]), "status");
    busy(env.urne(&["audit", "show"]), "audit show");
    busy(
        env.urne(&["audit", "verify", "--keys", "audit-keys"]),
        "audit verify",
    );
    assert_eq!(
        std::fs::read(env.db()).unwrap(),
        before,
        "B read and recorded nothing"
    );
    assert!(!env.path("outB").exists());
    let mut stdin = a.stdin.take().unwrap();
    let group = type_back_group(&seen).expect("the commitment was shown");
    stdin
        .write_all(format!("{group}\na witness\noui\n").as_bytes())
        .unwrap();
    drop(stdin);
    let status = a.wait().unwrap();
    reader.join().unwrap();
    seen.extend(rx.try_iter().map(|l| l + "\n"));
    assert_eq!(status.code(), Some(0), "{seen}");
    assert_eq!(events(&env, "draw.entropy"), 1);
    assert_eq!(events(&env, "draw.contribution"), 1);
    assert_eq!(events(&env, "draw.result"), 1);
    // The lock is released with A: B now finds the day drawn (exit 4, the ceremony's state).
    assert_fails(&env.draw("2018-12-02", "outB"), 4, "day-already-drawn");
    env.ok(&["keys", "export", "--out", "keys"]);
    env.ok(&["verify", "outA", "--keys", "keys"]);
    env.ok(&["audit", "verify", "--keys", "audit-keys", "--strict"]);
}

#[test]
fn a_sealed_set_altered_in_the_database_is_never_drawn_from() {
    // Someone with write access to the database (triggers dropped) changes one byte of the
    // stored sealed set: the draw refuses before any entropy is asked for.
    let env = Env::new();
    let export = simulate(&env, "2018-12-04", 300, 6, &[]);
    seal(&env, &export);
    let seal_ev = seal_event(&env);
    let c = Insider::open(&env.db());
    let h = hex::decode(seal_ev["set_sha256"].as_str().unwrap()).unwrap();
    let mut data: Vec<u8> = c
        .query_row("SELECT data FROM blobs WHERE sha256 = ?1", [&h], |r| {
            r.get(0)
        })
        .unwrap();
    data[100] ^= 1;
    c.execute_batch("DROP TRIGGER blobs_no_update").unwrap();
    assert_eq!(
        c.execute(
            "UPDATE blobs SET data = ?1 WHERE sha256 = ?2",
            rusqlite::params![data, h]
        )
        .unwrap(),
        1
    );
    drop(c);
    let o = env.draw("2018-12-04", "out");
    assert_fails(&o, 7, "trail-broken");
    assert_eq!(events(&env, "draw.entropy"), 0, "no entropy was asked for");
    assert!(!env.path("out").exists());
    // And the audit check names the altered data.
    let o = env.urne(&["audit", "verify", "--keys", "audit-keys"]);
    assert_fails(&o, 1, "trail-verification-failed");
}

#[test]
fn an_unknown_or_impossible_event_of_another_day_stops_the_draw() {
    // Well-chained events urne never writes there (appended with the library, as an insider
    // with the database could): a kind the registry does not know, and an entropy for a day
    // that was never sealed. Either stops the draw of a sealed day (exit 5) before any entropy.
    for (kind, payload) in [
        (
            "draw.redraw",
            serde_json::json!({"day": "2018-12-04"}),
            // An unknown event kind.
        ),
        (
            "draw.entropy",
            serde_json::json!({"operation": "chanceux-noel-2018", "day": "2018-12-09",
                "attempt": 1, "commitment_root": "00".repeat(32),
                "entropy_commitment": "ab".repeat(32), "entropy_blob": "cd".repeat(32)}),
            // The attempt is not sealed.
        ),
    ] {
        let env = Env::new();
        let export = simulate(&env, "2018-12-04", 300, 6, &[]);
        seal(&env, &export);
        let ev = append_as_urne(&env, &[(kind, payload)]).remove(0);
        let o = env.draw("2018-12-04", "out");
        let err = assert_fails(&o, 7, "trail-broken");
        assert_event(&err, &ev["seq"]);
        assert_names(&err, &[kind]);
        assert_eq!(
            events(&env, "draw.entropy"),
            usize::from(kind == "draw.entropy")
        );
        assert!(!env.path("out").exists());
    }
}

#[test]
fn a_seal_record_altered_in_the_database_is_an_error_not_a_panic() {
    // Someone with write access to the database (triggers dropped) breaks a hash recorded in
    // the seal's event (uppercase hex): the chain no longer verifies, so the draw and the proof
    // stop before they record or decide anything (exit 5), naming the event, and the trail is left
    // exactly as it was (no software.start, no command.failed, no checkpoint).
    let env = Env::new();
    let export = simulate(&env, "2018-12-04", 300, 6, &[]);
    seal(&env, &export);
    let set_sha256 = seal_event(&env)["set_sha256"].as_str().unwrap().to_string();
    tamper_payload(&env, "draw.seal", &set_sha256, &set_sha256.to_uppercase());
    let before = event_total(&env);
    let o = env.draw("2018-12-04", "out");
    let err = assert_fails(&o, 7, "trail-broken");
    assert_event(&err, seq_of(&env, "draw.seal"));
    assert_eq!(events(&env, "draw.entropy"), 0, "no entropy was asked for");
    assert!(!env.path("out").exists());
    let account = "00".repeat(32);
    let o = env.urne(&[
        "proof",
        "--day",
        "2018-12-04",
        "--account",
        &account,
        "--out",
        "p.json",
    ]);
    let err = assert_fails(&o, 7, "trail-broken");
    assert_event(&err, seq_of(&env, "draw.seal"));
    assert_eq!(
        event_total(&env),
        before,
        "nothing was recorded on the altered trail"
    );
}

#[test]
fn a_day_cannot_be_sealed_twice_and_an_unsealed_day_cannot_be_drawn() {
    let env = Env::new();
    let o = env.draw("2018-12-03", "o");
    assert_fails(&o, 4, "day-not-sealed");
    let export = simulate(&env, "2018-12-03", 500, 3, &[]);
    seal(&env, &export);
    let o = env.urne(&[
        "seal",
        "--rules",
        &rules(),
        "--entries",
        export.to_str().unwrap(),
    ]);
    assert_fails(&o, 4, "day-already-sealed");
}

#[test]
fn the_same_export_in_another_line_order_gives_the_same_commitment() {
    use ed25519_dalek::Signer;
    let env = Env::new();
    let export = simulate(&env, "2018-12-08", 2000, 5, &[]);
    let c1 = commitment_of(&seal(&env, &export));
    // Reverse the record lines (the header stays first) and re-sign as production would.
    let text = std::fs::read_to_string(&export).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[1..].reverse();
    let reordered = lines.join("\n") + "\n";
    assert_ne!(reordered, text);
    let env2 = Env::new();
    let dir = env2.path("reordered");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(export.file_name().unwrap());
    std::fs::write(&p, &reordered).unwrap();
    let seed = urne_verify::crypto::keys::private_seed_from_pem(
        &std::fs::read_to_string(root().join("tests/fixtures/keys/test-producer.key.pem")).unwrap(),
    )
    .unwrap();
    let sig = ed25519_dalek::SigningKey::from_bytes(&seed).sign(reordered.as_bytes());
    std::fs::write(format!("{}.sig", p.display()), sig.to_bytes()).unwrap();
    let c2 = commitment_of(&seal(&env2, &p));
    assert_eq!(c1, c2);
}

#[test]
fn a_draw_interrupted_after_its_entropy_was_recorded_resumes_to_the_same_outcome() {
    // The draw is killed at the commissaire's prompt: its entropy and commitment are recorded,
    // no contribution exists yet. The next run asks the token for nothing, shows the same
    // commitment, takes the contribution, and the minutes list the interruption.
    let env = Env::new();
    let export = simulate(&env, "2018-12-15", 2000, 8, &[]);
    seal(&env, &export);
    let o = env
        .cmd_of(&root().join("scripts/pty-type"))
        .args(["--timeout", "2", "--expect", TYPE_BACK, "--send-match"])
        .args(["--expect", CONTRIBUTION_PROMPT, "--send", "x"])
        .args(["--expect", "never shown", "--send", "", "--"])
        .arg(URNE)
        .args(["draw", "--day", "2018-12-15", "--out", "out"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(124), "killed at the prompt");
    assert_eq!(events(&env, "draw.entropy"), 1);
    assert_eq!(events(&env, "draw.contribution"), 0);
    // Nothing of the output in place: at most the staging folder of `leaves.bin`, staged before
    // the prompt (spec/appliance.md §4.7), which the next run removes.
    let leftovers = staging_only(&env.path("out"));
    let first = String::from_utf8_lossy(&o.stdout).into_owned();
    let o = env.draw_ok("2018-12-15", "out");
    assert!(
        o.contains("Winner (") && o.contains("no new entropy is requested"),
        "{o}"
    );
    assert_eq!(
        events(&env, "draw.entropy"),
        1,
        "no new entropy was requested"
    );
    for gone in leftovers {
        assert!(
            !env.path("out").join(gone).exists(),
            "the leftover is removed"
        );
    }
    let r = json(&env.path("out/result.json"));
    let ec = r["entropy_commitment"].as_str().unwrap();
    let grouped = |t: &str| t.replace([' ', '\n', '\r'], "");
    assert!(
        grouped(&first).contains(ec),
        "the same commitment was shown first:\n{first}"
    );
    assert_eq!(r["contribution"], CONTRIBUTION);
    assert!(r.get("witness").is_none());
    let pv = std::fs::read_to_string(env.path("out/pv.html")).unwrap();
    assert!(
        pv.contains("Tirage interrompu après l'inscription de l'aléa"),
        "{pv}"
    );
    env.ok(&["keys", "export", "--out", "keys"]);
    env.ok(&[
        "verify",
        "out",
        "--keys",
        "keys",
        "--export",
        export.to_str().unwrap(),
        "--producer-key",
        producer_pub().as_str(),
    ]);
}

#[test]
fn a_trail_refused_between_the_contribution_and_the_result_is_fixed_and_the_draw_resumed() {
    // docs/ceremony.md: a trail refused (exit 5) after `draw.contribution` and before
    // `draw.result` is never voided to draw again: `urne void` is refused with it, and once the
    // cause is fixed the same `urne draw` resumes with the recorded entropy and contribution.
    let env = Env::new();
    let day = "2018-12-16";
    let export = simulate(&env, day, 500, 9, &[]);
    seal(&env, &export);
    // Stopped at the commissaire's prompt: the entropy and its commitment are recorded.
    let o = env
        .cmd_of(&root().join("scripts/pty-type"))
        .args(["--timeout", "2", "--expect", TYPE_BACK, "--send-match"])
        .args(["--expect", CONTRIBUTION_PROMPT, "--send", "x"])
        .args(["--expect", "never shown", "--send", "", "--"])
        .arg(URNE)
        .args(["draw", "--day", day, "--out", "out"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(124), "stopped at the prompt");
    let entropy = last_payload(&env, "draw.entropy");
    // The contribution recorded through urne's own append path (what the stopped run would
    // have recorded next), and no result.
    let contribution = "6 6 1 3 2 5 4 4";
    let recorded = append_as_urne(
        &env,
        &[(
            "draw.contribution",
            serde_json::json!({
                "operation": entropy["operation"],
                "day": day,
                "attempt": 1,
                "entropy_commitment": entropy["entropy_commitment"],
                "contribution": contribution,
            }),
        )],
    );
    let seq = recorded[0]["seq"].as_u64().unwrap();
    // The trail refused (exit 5): a trigger planted in the database.
    let c = rusqlite::Connection::open(env.db()).unwrap();
    c.execute_batch("CREATE TRIGGER planted AFTER INSERT ON events BEGIN SELECT 1; END;")
        .unwrap();
    assert_fails(&env.draw(day, "out"), 7, "trail-broken");
    let o = env.urne(&["void", "--day", day, "--reason", "trail refused"]);
    assert_fails(&o, 7, "trail-broken");
    assert_eq!(events(&env, "draw.void"), 0);
    // The cause fixed, the same draw resumes with what was recorded.
    c.execute_batch("DROP TRIGGER planted").unwrap();
    drop(c);
    let shown = env.draw_ok(day, "out");
    assert!(shown.contains("no new entropy is requested"), "{shown}");
    assert!(
        shown.contains(&format!(
            "contribution recorded at audit event #{seq} is used"
        )),
        "{shown}"
    );
    assert!(!shown.contains("type your contribution"), "{shown}");
    assert_eq!(events(&env, "draw.entropy"), 1);
    assert_eq!(events(&env, "draw.contribution"), 1);
    assert_eq!(events(&env, "draw.result"), 1);
    let r = json(&env.path("out/result.json"));
    assert_eq!(r["entropy_commitment"], entropy["entropy_commitment"]);
    assert_eq!(r["contribution"], contribution);
    env.ok(&["audit", "verify", "--keys", "audit-keys"]);
}

#[test]
fn a_kill_at_any_moment_of_a_draw_never_changes_its_outcome() {
    // Kill `urne draw` at various moments, then run it again: it either finds nothing recorded
    // (and draws), or completes the recorded draw. Never a second entropy for one attempt.
    let env = Env::new();
    let export = simulate(&env, "2018-12-02", 3000, 12, &[]);
    seal(&env, &export);
    for ms in [5u64, 40, 120] {
        let mut child = env
            .command_for(&["draw", "--day", "2018-12-02", "--out", "out"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(ms));
        kill_child(&mut child);
        assert!(events(&env, "draw.entropy") <= 1);
        if env.path("out/result.json").exists() {
            break;
        }
        // A partially written output folder is completed on the next run.
        let _ = std::fs::remove_dir_all(env.path("out"));
    }
    if !env.path("out/result.json").exists() {
        let o = env.draw("2018-12-02", "out");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    assert_eq!(events(&env, "draw.entropy"), 1);
    env.ok(&["keys", "export", "--out", "keys"]);
    env.ok(&[
        "verify",
        "out",
        "--keys",
        "keys",
        "--export",
        export.to_str().unwrap(),
        "--producer-key",
        producer_pub().as_str(),
    ]);
    env.ok(&["audit", "verify", "--keys", "audit-keys"]);
}

#[test]
fn a_one_byte_change_to_any_output_file_fails_verify() {
    let (env, export, out) = drawn_day("2018-12-07");
    let files: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with(".pem"))
        .collect();
    assert!(files.len() >= 10);
    for f in files {
        let p = out.join(&f);
        let orig = std::fs::read(&p).unwrap();
        let mut bad = orig.clone();
        let i = bad.len() / 2;
        bad[i] ^= 0x01;
        std::fs::write(&p, &bad).unwrap();
        let o = env.urne(&["verify", "out", "--keys", "keys"]);
        assert_fails(&o, 1, "verification-failed");
        std::fs::write(&p, &orig).unwrap();
    }
    env.ok(&[
        "verify",
        "out",
        "--keys",
        "keys",
        "--export",
        export.to_str().unwrap(),
        "--producer-key",
        producer_pub().as_str(),
    ]);
    // Verifying with another appliance's keys is a usage mistake naming both keys (exit 2),
    // never a success (spec/formats.md §8.1).
    let other = Env::new();
    other.ok(&["keys", "export", "--out", "keys"]);
    let o = env.urne(&[
        "verify",
        "out",
        "--keys",
        other.path("keys").to_str().unwrap(),
    ]);
    let err = assert_fails(&o, 2, "verify-input");
    let id = |env: &Env| {
        let pem = std::fs::read_to_string(env.path("keys/result.pub.pem")).unwrap();
        urne_verify::crypto::keys::key_id(
            &urne_verify::crypto::keys::public_key_from_pem(&pem).unwrap(),
        )
    };
    assert_names(&err, &[&id(&env), &id(&other)]);
    // The hint names them too: which keys to fetch, which were given.
    let stderr = String::from_utf8_lossy(&o.stderr);
    let hint = stderr
        .lines()
        .find(|l| l.starts_with("hint:"))
        .unwrap_or_else(|| panic!("no hint: {stderr}"));
    assert!(
        hint.contains(&format!("result key id is {}", id(&env)))
            && hint.contains(&format!("the key given is {}", id(&other))),
        "{hint}"
    );
}

#[test]
fn a_swapped_winner_fails_verify_even_if_re_signed() {
    use ed25519_dalek::Signer;
    // An attacker holding the result key could re-sign a bundle with another winner: the
    // recomputation still catches it.
    let (env, _, out) = drawn_day("2018-12-09");
    let mut b = json(&out.join("bundle.json"));
    let r1 = b["reserves"][0].clone();
    let w = b["winner"].clone();
    b["winner"]["pseudonym"] = r1["pseudonym"].clone();
    b["winner"]["entry"] = r1["entry"].clone();
    b["winner"]["leaf"] = r1["leaf"].clone();
    b["winner"]["entries"] = r1["entries"].clone();
    assert_ne!(w, b["winner"]);
    let mut bytes = serde_json::to_vec_pretty(&b).unwrap();
    bytes.push(b'\n');
    let fake = env.path("fake");
    std::fs::create_dir_all(&fake).unwrap();
    std::fs::write(fake.join("bundle.json"), &bytes).unwrap();
    // Sign with a software key and verify against it: the signature holds, the draw does not.
    let sk = ed25519_dalek::SigningKey::from_bytes(&[42u8; 32]);
    std::fs::write(fake.join("bundle.json.sig"), sk.sign(&bytes).to_bytes()).unwrap();
    std::fs::create_dir_all(env.path("fakekeys")).unwrap();
    std::fs::write(
        env.path("fakekeys/result.pub.pem"),
        urne_verify::crypto::keys::public_key_to_pem(&sk.verifying_key().to_bytes()),
    )
    .unwrap();
    std::fs::copy(
        env.path("keys/audit.pub.pem"),
        env.path("fakekeys/audit.pub.pem"),
    )
    .unwrap();
    let mut b2 = b.clone();
    b2["result_key_id"] = urne_verify::crypto::keys::key_id(&sk.verifying_key().to_bytes()).into();
    let mut bytes = serde_json::to_vec_pretty(&b2).unwrap();
    bytes.push(b'\n');
    std::fs::write(fake.join("bundle.json"), &bytes).unwrap();
    std::fs::write(fake.join("bundle.json.sig"), sk.sign(&bytes).to_bytes()).unwrap();
    let leaves = std::fs::read(out.join("leaves.bin")).unwrap();
    std::fs::write(fake.join("leaves.bin"), &leaves).unwrap();
    std::fs::write(fake.join("leaves.bin.sig"), sk.sign(&leaves).to_bytes()).unwrap();
    let o = env.urne(&["verify", "fake", "--keys", "fakekeys"]);
    assert_fails(&o, 1, "verification-failed");
}

#[test]
fn a_voided_draw_is_redrawn_as_attempt_2_naming_the_void() {
    let (env, export, _) = drawn_day("2018-12-04");
    env.ok(&[
        "void",
        "--day",
        "2018-12-04",
        "--reason",
        "power cut during publication, minutes 12",
    ]);
    // A new attempt needs its own seal.
    let o = env.draw("2018-12-04", "out2");
    assert_fails(&o, 4, "day-not-sealed");
    seal(&env, &export);
    env.draw_ok("2018-12-04", "out2");
    let r = json(&env.path("out2/result.json"));
    assert_eq!(r["attempt"], 2);
    assert_eq!(r["voided_attempts"][0]["attempt"], 1);
    assert!(
        r["voided_attempts"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("power cut")
    );
    env.ok(&["verify", "out2", "--keys", "keys"]);
    assert!(
        std::fs::read_to_string(env.path("out2/pv.html"))
            .unwrap()
            .contains("annulée")
    );
}

#[test]
fn an_inclusion_proof_verifies_and_a_forged_one_does_not() {
    let (env, _, out) = drawn_day("2018-12-05");
    let r = json(&out.join("result.json"));
    let acct = r["reserves"][2]["account"].as_str().unwrap().to_string();
    env.ok(&[
        "proof",
        "--day",
        "2018-12-05",
        "--account",
        &acct,
        "--out",
        "proof.json",
    ]);
    env.ok(&[
        "verify",
        "proof.json",
        "--keys",
        "keys",
        "--published",
        "out",
    ]);
    // The same proof again into the same file: refused, even though its bytes would be equal.
    let again = env.urne(&[
        "proof",
        "--day",
        "2018-12-05",
        "--account",
        &acct,
        "--out",
        "proof.json",
    ]);
    let err = assert_fails(&again, 4, "output-exists");
    assert_names(&err, &["proof.json"]);
    // Another account claiming the same salt fails.
    let mut p = json(&env.path("proof.json"));
    p["account"] = r["winner"]["account"].clone();
    std::fs::write(
        env.path("forged.json"),
        serde_json::to_vec_pretty(&p).unwrap(),
    )
    .unwrap();
    std::fs::copy(env.path("proof.json.sig"), env.path("forged.json.sig")).unwrap();
    assert_fails(
        &env.urne(&["verify", "forged.json", "--keys", "keys"]),
        1,
        "verification-failed",
    );
    // An account with no entry gets no proof.
    let o = env.urne(&[
        "proof",
        "--day",
        "2018-12-05",
        "--account",
        &"0".repeat(64),
        "--out",
        "p2.json",
    ]);
    assert_fails(&o, 2, "no-such-account");
}

/// Issue 27 item 4, spec/formats.md §4.8 (every proof of a day) and §8.3: `urne proof --all`
/// writes one unsigned proof per account, each of which verifies alone against the published
/// draw; the file is recorded once (`draw.proofs`), never written over anything, and a line
/// altered or of another draw fails with the class §8.3 gives.
#[test]
fn every_account_s_proof_in_one_run_verifies_line_by_line_against_the_published_draw() {
    let (env, _, out) = drawn_day("2018-12-07");
    let before = events(&env, "draw.proofs");
    let shown = env.ok(&[
        "proof",
        "--day",
        "2018-12-07",
        "--all",
        "--out",
        "all.jsonl",
    ]);
    assert!(shown.contains("publications medium"), "{shown}");
    assert_eq!(events(&env, "draw.proofs"), before + 1);
    let text = std::fs::read_to_string(env.path("all.jsonl")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let r = json(&out.join("result.json"));
    assert_eq!(lines.len() as u64, r["accounts"].as_u64().unwrap());
    assert!(!env.path("all.jsonl.sig").exists());
    // The file's hash and count are what the trail records.
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let payload: String = c
        .query_row(
            "SELECT payload FROM events WHERE kind = 'draw.proofs'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let payload: serde_json::Value = serde_json::from_str(&payload).unwrap();
    assert_eq!(payload["count"], lines.len());
    assert_eq!(
        payload["file_sha256"],
        hex::encode(urne_verify::crypto::sha256(text.as_bytes()))
    );
    // The whole file verifies against the published folder, and names the winner's line.
    let v = env.ok(&[
        "verify",
        "all.jsonl",
        "--keys",
        "keys",
        "--published",
        "out",
    ]);
    assert!(
        v.starts_with(&format!(
            "VERIFIED: {} inclusion proofs in the draw of chanceux-noel-2018 day 2018-12-07 attempt 1 in all.jsonl",
            lines.len()
        )),
        "{v}"
    );
    assert!(v.contains("the winner line"), "{v}");
    // Each line alone, saved as a file, is a proof: it needs the published folder.
    let winner = r["winner"]["account"].as_str().unwrap();
    let mut found = 0;
    for (i, l) in lines.iter().enumerate() {
        let p: serde_json::Value = serde_json::from_str(l).unwrap();
        assert_eq!(p["leaf"], i);
        if p["account"] == winner || i == 0 {
            let f = format!("line-{i}.json");
            std::fs::write(env.path(&f), l).unwrap();
            let v = env.ok(&["verify", &f, "--keys", "keys", "--published", "out"]);
            let first = v.lines().next().unwrap();
            if p["account"] == winner {
                found += 1;
                assert!(first.ends_with(": the winner"), "{first}");
            }
            let err = assert_fails(&env.urne(&["verify", &f, "--keys", "keys"]), 2, "usage");
            assert!(err.contains("--published"), "{err}");
        }
    }
    assert_eq!(found, 1);
    // Without the published folder, the whole file is a usage mistake too.
    assert_fails(
        &env.urne(&["verify", "all.jsonl", "--keys", "keys"]),
        2,
        "usage",
    );
    // A line altered (another entries count) fails, naming its line.
    let mut bad: Vec<String> = lines.iter().map(|l| (*l).to_string()).collect();
    let mut p: serde_json::Value = serde_json::from_str(&bad[1]).unwrap();
    p["entries"] = serde_json::json!(p["entries"].as_u64().unwrap() % 3 + 1 + 3);
    bad[1] = serde_json::to_string(&p).unwrap();
    std::fs::write(env.path("bad.jsonl"), bad.join("\n") + "\n").unwrap();
    let err = assert_fails(
        &env.urne(&[
            "verify",
            "bad.jsonl",
            "--keys",
            "keys",
            "--published",
            "out",
        ]),
        1,
        "verification-failed",
    );
    assert_class(&err, "commitment-mismatch");
    assert!(err.contains("line 2"), "{err}");
    // The file is never written over, even by the same run.
    let again = env.urne(&[
        "proof",
        "--day",
        "2018-12-07",
        "--all",
        "--out",
        "all.jsonl",
    ]);
    assert_fails(&again, 4, "output-exists");
    assert_eq!(events(&env, "draw.proofs"), before + 1);
    // --all and --account together: a usage mistake.
    let acct = winner.to_string();
    let o = env.urne(&[
        "proof",
        "--day",
        "2018-12-07",
        "--all",
        "--account",
        &acct,
        "--out",
        "x.jsonl",
    ]);
    assert_fails(&o, 2, "usage");
    assert!(!env.path("x.jsonl").exists());
    // The trail with its new event still verifies, exported.
    env.ok(&["audit", "export", "--out", "audit.jsonl"]);
    let v = env.ok(&["verify", "audit.jsonl", "--keys", "keys"]);
    assert!(v.starts_with("VERIFIED: the audit trail of"), "{v}");
}

#[test]
fn a_late_draw_is_recorded_as_an_anomaly_d8() {
    // Every 2018 day is long past its draw date + 30 days by the ceremony's clock.
    let (env, _, out) = drawn_day("2018-12-06");
    assert_eq!(events(&env, "draw.late"), 1);
    assert!(
        std::fs::read_to_string(out.join("pv.html"))
            .unwrap()
            .contains("D-8")
    );
}

const BREAKS: [&str; 16] = [
    "bad-signature",
    "wrong-key",
    "truncated",
    "count-mismatch",
    "duplicate-id",
    "wrong-day",
    "bad-json",
    "bad-utf8",
    "negative-stake",
    "unknown-type",
    "bad-account",
    "missing-field",
    "duplicate-exclusion",
    "wrong-operation",
    "no-header",
    "crlf",
];

#[test]
fn every_broken_export_is_refused_and_nothing_of_it_is_kept() {
    let env = Env::new();
    for (i, kind) in BREAKS.iter().enumerate() {
        let export = simulate(
            &env,
            "2018-12-10",
            400,
            100 + u32::try_from(i).unwrap(),
            &["--break", kind],
        );
        let o = env.urne(&[
            "seal",
            "--rules",
            &rules(),
            "--entries",
            export.to_str().unwrap(),
        ]);
        // The signature is checked over the whole file first: what changes the signed bytes
        // fails it; what production signed as it is fails the format's checks.
        let id = if matches!(*kind, "bad-signature" | "truncated" | "wrong-key") {
            "export-bad-signature"
        } else {
            "export-malformed"
        };
        assert_fails(&o, 2, id);
    }
    // An unsigned export (no .sig) is refused too.
    let export = simulate(&env, "2018-12-10", 400, 99, &[]);
    std::fs::remove_file(format!("{}.sig", export.display())).unwrap();
    assert_fails(
        &env.urne(&[
            "seal",
            "--rules",
            &rules(),
            "--entries",
            export.to_str().unwrap(),
        ]),
        2,
        "export-unsigned",
    );
    assert_eq!(
        events(&env, "draw.seal"),
        0,
        "nothing of a refused file is kept"
    );
    assert_eq!(
        events(&env, "input.rejected"),
        BREAKS.len() + 1,
        "each refusal is on record"
    );
    // Each refusal records the file's hash.
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let n: i64 = c
        .query_row("SELECT COUNT(*) FROM events WHERE kind = 'input.rejected' AND json_extract(payload, '$.sha256') IS NOT NULL", [], |r| r.get(0))
        .unwrap();
    assert_eq!(usize::try_from(n).unwrap(), BREAKS.len() + 1);
    // The file's own hash, whichever pass refused it (a signature refused over the whole file
    // records the hash that pass computed, without reading the file again).
    let mut q = c
        .prepare("SELECT json_extract(payload, '$.file'), json_extract(payload, '$.sha256') FROM events WHERE kind = 'input.rejected'")
        .unwrap();
    let rows: Vec<(String, String)> = q
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for (file, sha) in rows {
        let bytes = std::fs::read(&file).unwrap();
        assert_eq!(
            sha,
            urne_verify::crypto::sha256(&bytes).to_string(),
            "{file}"
        );
    }
    // The day is still open: a valid export of it seals.
    let good = simulate(&env, "2018-12-10", 400, 98, &[]);
    seal(&env, &good);
    env.ok(&["audit", "verify", "--keys", "audit-keys", "--strict"]);
}

#[test]
fn a_refused_rules_file_is_an_input_error() {
    let env = Env::new();
    let export = simulate(&env, "2018-12-10", 100, 1, &[]);
    let bad = env.path("bad-rules.json");
    let mut r = json(&root().join("rules/chanceux-noel-2018.json"));
    r["daily_cap"] = 0.into();
    std::fs::write(&bad, serde_json::to_vec(&r).unwrap()).unwrap();
    let o = env.urne(&[
        "seal",
        "--rules",
        bad.to_str().unwrap(),
        "--entries",
        export.to_str().unwrap(),
    ]);
    assert_fails(&o, 2, "rules-refused");
}

#[test]
fn the_contribution_comes_only_from_the_terminal_after_the_entropy_is_fixed() {
    let env = Env::new();
    let export = simulate(&env, "2018-12-05", 300, 6, &[]);
    seal(&env, &export);
    // Not on the command line.
    let o = env.urne_direct(&[
        "draw",
        "--day",
        "2018-12-05",
        "--witness",
        "x",
        "--out",
        "o",
    ]);
    assert_eq!(o.status.code(), Some(2));
    // Not from a pipe: refused before any entropy is requested.
    let mut child = env
        .cmd()
        .args(["draw", "--day", "2018-12-05", "--out", "o"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, b"4 2 6 1 3 5 5 2\noui\n").unwrap();
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    assert_fails(&o, 2, "not-a-terminal");
    assert_eq!(events(&env, "draw.entropy"), 0, "nothing recorded");
    // Its `leaves.bin`, staged before the contribution, is removed, and so is the output
    // folder the draw made for it (spec/appliance.md §4.7).
    assert!(
        !env.path("o").exists(),
        "the staged files and their folder removed"
    );
    // At the terminal: a contribution out of the grammar is refused and typed again; the one
    // confirmed is recorded after the entropy commitment and before the result.
    // Text typed ahead (before the commitment is on screen) is never taken: the commitment's
    // first 8 characters are asked first, and typed ahead they cannot be.
    let o = env
        .cmd_of(&root().join("scripts/pty-type"))
        .args(["--expect", "audit trail", "--send", "typed ahead 6 6 1 2"])
        .args(["--expect", TYPE_BACK, "--send-match"])
        .args([
            "--expect",
            CONTRIBUTION_PROMPT,
            "--send",
            "abc\u{202e}defgh",
        ])
        .args(["--expect", CONTRIBUTION_PROMPT, "--send", "6 6 1 2 3 4 5 5"])
        .args(["--expect", YES_NO, "--send", "non"])
        .args([
            "--expect",
            CONTRIBUTION_PROMPT,
            "--send",
            "le 5 décembre à 10 h",
        ])
        .args(["--expect", YES_NO, "--send", "oui", "--"])
        .arg(URNE)
        .args(["draw", "--day", "2018-12-05", "--out", "o"])
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{shown}");
    assert!(shown.contains("U+202E"), "{shown}");
    assert!(
        shown.contains("not the commitment's first 8 characters"),
        "{shown}"
    );
    let seq = |kind: &str| {
        let c = rusqlite::Connection::open(env.db()).unwrap();
        c.query_row("SELECT seq FROM events WHERE kind = ?1", [kind], |r| {
            r.get::<_, i64>(0)
        })
        .unwrap()
    };
    assert!(seq("draw.entropy") < seq("draw.contribution"));
    assert!(seq("draw.contribution") < seq("draw.result"));
    let shown_at = |t: &str| shown.find(t).unwrap();
    assert!(shown_at("TO WRITE BY HAND, NOW") < shown_at("type your contribution"));
    let r = json(&env.path("o/result.json"));
    assert_eq!(r["contribution"], "le 5 décembre à 10 h");
    assert_eq!(r["fixed"]["entropy"]["seq"], seq("draw.entropy"));
    assert_eq!(r["fixed"]["contribution"]["seq"], seq("draw.contribution"));
    env.ok(&["keys", "export", "--out", "keys"]);
    env.ok(&["verify", "o", "--keys", "keys"]);
}

/// The names in `dir` (none when it does not exist), each of them a staging folder
/// (spec/appliance.md §4.7): nothing under an output's name.
fn staging_only(dir: &std::path::Path) -> Vec<String> {
    let Ok(names) = std::fs::read_dir(dir) else {
        return vec![];
    };
    let names: Vec<String> = names
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    for n in &names {
        assert!(n.starts_with(".urne-staging-"), "{n} in {}", dir.display());
    }
    names
}
