//! Block secrets never rest on the appliance (issue 11 item 4 and its "Done when", second bullet;
//! issue 13, "Secret and public together"; spec/appliance.md §3.4, §5.B9): the production file goes only to
//! the separate secret medium (`--secret-out`), which must stand apart from the public output
//! folder; the output folders are checked before any entropy is asked for; and a scan of every
//! file on the appliance right before a reveal finds neither the entropy, nor the seed, nor the
//! grid key, nor the production file's rows. The reveal then reproduces the block, and both
//! verifiers accept the folder with and without the production file.

use crate::block_cli::small_rules;
use crate::common::*;
use crate::outputs::{GAME, count};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn generate(env: &Env, rules: &Path, first: &str, blocks: &str, out: &str, secret: &str) -> Output {
    env.urne(&[
        "block",
        "generate",
        "--rules",
        rules.to_str().unwrap(),
        "--unofficial-rules",
        "--price",
        "100",
        "--emission",
        "t1",
        "--first",
        first,
        "--blocks",
        blocks,
        "--out",
        out,
        "--secret-out",
        secret,
    ])
}

fn stem(n: u32) -> String {
    format!("{GAME}_100_t1_{n}")
}

fn python(env: &Env, args: &[&str]) -> Output {
    let mut c = Command::new("python3");
    scrub(&mut c);
    c.arg(root().join("verifier/urne_verify.py"))
        .args(args)
        .current_dir(env.dir.path())
        .output()
        .expect("python3 (with the package cryptography) runs the independent verifier")
}

/// Both verifiers accept `dir`; returns urne's report.
fn both_accept(env: &Env, dir: &str) -> String {
    let u = env.ok(&["verify", dir, "--keys", "keys"]);
    let p = python(env, &[dir, "--keys", "keys"]);
    assert!(
        p.status.success(),
        "python verifier on {dir}:\n{}{}",
        String::from_utf8_lossy(&p.stdout),
        String::from_utf8_lossy(&p.stderr)
    );
    u
}

/// Every regular file under `dir` (symbolic links not followed), but those under `skip`.
fn files_under(dir: &Path, skip: &[PathBuf]) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = vec![];
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().map(Result::unwrap) {
            let p = e.path();
            let t = e.file_type().unwrap();
            if skip.iter().any(|s| p.starts_with(s)) {
                continue;
            }
            if t.is_dir() {
                stack.push(p);
            } else if t.is_file() {
                out.push((p.clone(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && hay.windows(needle.len()).any(|w| w == needle)
}

/// The secrets of a revealed block, each under a name: its entropy, seed and grid key (raw,
/// lowercase and uppercase hex), and its production file (whole, and its first data rows and
/// its top prize's row, each without its LF).
fn secrets_of(reveal: &Path, csv: &[u8]) -> Vec<(String, Vec<u8>)> {
    let r: serde_json::Value = serde_json::from_slice(&std::fs::read(reveal).unwrap()).unwrap();
    let entropy = hex::decode(r["entropy"].as_str().unwrap()).unwrap();
    let seed = hex::decode(r["seed"].as_str().unwrap()).unwrap();
    assert_eq!((entropy.len(), seed.len()), (48, 32));
    let seed32 = urne_verify::crypto::Hash32(seed.clone().try_into().unwrap());
    let grid_key = urne_verify::block::grid_key(&seed32).0.to_vec();
    let mut v = vec![];
    for (what, raw) in [("entropy", entropy), ("seed", seed), ("grid key", grid_key)] {
        v.push((format!("{what} (hex)"), hex::encode(&raw).into_bytes()));
        v.push((
            format!("{what} (HEX)"),
            hex::encode_upper(&raw).into_bytes(),
        ));
        v.push((format!("{what} (raw)"), raw));
    }
    let text = std::str::from_utf8(csv).unwrap();
    let rows: Vec<&str> = text.lines().skip(1).collect();
    for (i, row) in rows.iter().take(3).enumerate() {
        v.push((format!("production row {i}"), row.as_bytes().to_vec()));
    }
    let top = rows
        .iter()
        .find(|l| l.split(',').nth(1) == Some("10"))
        .unwrap();
    v.push(("top prize's row".into(), top.as_bytes().to_vec()));
    v.push(("production file".into(), csv.to_vec()));
    v
}

#[test]
fn nothing_from_which_the_order_follows_rests_on_the_appliance_before_the_reveal() {
    let env = Env::new();
    let rules = small_rules(&env);
    env.ok(&["keys", "export", "--out", "keys"]);
    // The separate medium: a folder outside everything the appliance holds.
    let medium = tempfile::tempdir().unwrap();
    let secret = medium.path().join("blocks");
    let o = generate(&env, &rules, "1", "2", "out", secret.to_str().unwrap());
    let shown = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{shown}");
    assert!(shown.contains("production file"), "{shown}");
    // The production files are on the medium only, mode 0600, each with its signature.
    for n in [1, 2] {
        assert!(!env.path(&format!("out/{}.tickets.csv", stem(n))).exists());
        let csv = secret.join(format!("{}.tickets.csv", stem(n)));
        let mode = std::fs::metadata(&csv).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{csv:?}: mode {mode:o}");
        assert!(openssl_verify(
            &env.path("keys/result.pub.pem"),
            &csv,
            &secret.join(format!("{}.tickets.csv.sig", stem(n)))
        ));
    }
    let mut names: Vec<String> = std::fs::read_dir(&secret)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names.len(),
        4,
        "production files and signatures only: {names:?}"
    );
    // What else urne writes on the appliance before a reveal: the trail's export and backup.
    env.ok(&["audit", "export", "--out", "audit.jsonl"]);
    env.ok(&["audit", "backup", "--out", "backup.db"]);
    // The appliance's files just before the reveal: the environment's folder (database and its
    // journal, outputs, configuration, everything), the token folder excepted.
    let appliance = files_under(env.dir.path(), &[env.path("tokens")]);
    assert!(appliance.iter().any(|(p, _)| p == &env.db()));
    assert!(appliance.iter().any(|(p, _)| p.ends_with("audit.jsonl")));
    for (p, _) in &appliance {
        let name = p.file_name().unwrap().to_string_lossy();
        if name.starts_with("audit.db") {
            let mode = std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "{p:?}: mode {mode:o}");
        }
    }
    // The reveal publishes entropy and seed: now they can be looked for.
    for n in [1, 2] {
        let id = format!("{GAME}/100/t1/{n}");
        let closed = sales_close(&env, &id);
        env.ok(&[
            "block",
            "reveal",
            "--block",
            &id,
            "--sales-closed-at",
            &closed,
            "--out",
            "out",
        ]);
    }
    let mut found = vec![];
    for n in [1, 2] {
        let csv = std::fs::read(secret.join(format!("{}.tickets.csv", stem(n)))).unwrap();
        let reveal = env.path(&format!("out/{}.reveal.json", stem(n)));
        let secrets = secrets_of(&reveal, &csv);
        // The scan can find them: the reveal holds the hex, the medium the rows.
        let rv = std::fs::read(&reveal).unwrap();
        assert!(contains(&rv, &secrets[0].1) && contains(&rv, &secrets[3].1));
        assert!(secrets[9..].iter().all(|(_, s)| contains(&csv, s)));
        for (what, needle) in &secrets {
            for (p, bytes) in &appliance {
                if contains(bytes, needle) {
                    found.push(format!("block {n}'s {what} in {}", p.display()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "secrets on the appliance's disk: {found:#?}"
    );
    // The reveal reproduces each block: without the production file (recomputed from the seed),
    // and with it brought from the medium (byte-identical to the recomputed one).
    let v = both_accept(&env, "out");
    assert_eq!(
        v.matches("revealed: every ticket recomputed").count(),
        2,
        "{v}"
    );
    for n in [1, 2] {
        for ext in ["tickets.csv", "tickets.csv.sig"] {
            let name = format!("{}.{ext}", stem(n));
            std::fs::copy(secret.join(&name), env.path("out").join(&name)).unwrap();
        }
    }
    let v = both_accept(&env, "out");
    assert_eq!(
        v.matches("production file identical to the block recomputed")
            .count(),
        2,
        "{v}"
    );
}

/// Runs `urne block generate` with `out` and `secret`, which must be refused as standing
/// together (exit 2) before anything is recorded or created; returns the error line.
fn refused_apart(env: &Env, rules: &Path, out: &str, secret: &str) -> String {
    let before = std::fs::read(env.db()).unwrap();
    let o = generate(env, rules, "1", "1", out, secret);
    let err = assert_fails(&o, 2, "secret-out-misplaced");
    let all = String::from_utf8_lossy(&o.stderr);
    assert!(
        all.contains("separate secret medium") && all.contains("removable medium"),
        "{all}"
    );
    assert_eq!(std::fs::read(env.db()).unwrap(), before, "nothing recorded");
    err
}

#[test]
fn the_secret_medium_must_stand_apart_from_the_public_folder_and_the_trail() {
    let env = Env::new();
    let rules = small_rules(&env);
    let elsewhere = tempfile::tempdir().unwrap();
    let far = |p: &str| elsewhere.path().join(p).display().to_string();
    // The same folder, however spelled; inside it; around it.
    // Each names both folders as given.
    let err = refused_apart(&env, &rules, "out", "out");
    assert_names(&err, &["--secret-out out", "--out out"]);
    refused_apart(&env, &rules, "./out/", "out/../out");
    let err = refused_apart(&env, &rules, "out", "out/secret");
    assert_names(&err, &["--secret-out out/secret", "--out out"]);
    let err = refused_apart(&env, &rules, "medium/out", "medium");
    assert_names(&err, &["--secret-out medium", "--out medium/out"]);
    // Through a symbolic link: the folders as the file system resolves them.
    std::fs::create_dir(env.path("public")).unwrap();
    std::os::unix::fs::symlink(env.path("public"), env.path("link")).unwrap();
    let err = refused_apart(&env, &rules, "public", "link/medium");
    assert_names(&err, &["--secret-out link/medium", "--out public"]);
    // A folder that holds the audit database is the appliance's own disk: the database named.
    let err = refused_apart(&env, &rules, &far("out"), ".");
    let db = std::fs::canonicalize(env.db()).unwrap();
    assert_names(&err, &["--secret-out .", &db.display().to_string()]);
    for p in ["out", "medium", "public/medium"] {
        assert!(!env.path(p).exists(), "{p} created");
    }
    // Without --secret-out, block generate does not run.
    let o = env.urne_direct(&[
        "block",
        "generate",
        "--rules",
        rules.to_str().unwrap(),
        "--unofficial-rules",
        "--price",
        "100",
        "--emission",
        "t1",
        "--out",
        "out",
    ]);
    // The argument parser's own usage error (it has no id): the option it names is tested.
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--secret-out"));
    // Apart but on the database's file system: done, with a warning.
    let o = generate(&env, &rules, "1", "1", "out", &far("medium"));
    let shown = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{shown}");
    assert!(
        shown.contains("warning: --secret-out")
            && shown.contains("file system of the audit database"),
        "{shown}"
    );
    assert_eq!(count(&env, "block.published"), 1);
}

#[test]
fn output_folders_are_checked_before_any_entropy_is_asked_for() {
    let env = Env::new();
    let rules = small_rules(&env);
    env.ok(&["keys", "export", "--out", "keys"]);
    let o = generate(&env, &rules, "1", "1", "out", "medium");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    env.ok(&[
        "block",
        "void",
        "--block",
        &format!("{GAME}/100/t1/1"),
        "--reason",
        "printer jam during transfer",
    ]);
    let entropy = count(&env, "block.entropy");
    // Regenerated into the folders of the voided attempt, or into either of them: refused, no
    // entropy drawn (issue 13: it used to fail after its entropy was drawn and recorded).
    for (out, secret, there) in [
        ("out", "medium", "out"),
        ("out2", "medium", "medium"),
        ("out", "medium2", "out"),
    ] {
        let o = generate(&env, &rules, "1", "1", out, secret);
        let err = assert_fails(&o, 4, "output-conflict");
        // The folder where the voided attempt's file already is.
        assert_names(&err, &[&format!("{there}/")]);
        assert_eq!(count(&env, "block.entropy"), entropy, "no entropy drawn");
    }
    // A secret medium that is not a folder: refused before the entropy too.
    std::fs::write(env.path("not-a-folder"), b"x").unwrap();
    let o = generate(&env, &rules, "1", "1", "out3", "not-a-folder");
    assert_names(&assert_fails(&o, 4, "output-conflict"), &["not-a-folder"]);
    assert_eq!(count(&env, "block.entropy"), entropy);
    // New folders: attempt 2, and the voided attempt's files are left as they were.
    let before = std::fs::read(env.path(&format!("medium/{}.tickets.csv", stem(1)))).unwrap();
    let o = generate(&env, &rules, "1", "1", "out4", "medium4");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    let c: serde_json::Value = serde_json::from_slice(
        &std::fs::read(env.path(&format!("out4/{}.commit.json", stem(1)))).unwrap(),
    )
    .unwrap();
    assert_eq!(c["attempt"], 2);
    assert_eq!(
        std::fs::read(env.path(&format!("medium/{}.tickets.csv", stem(1)))).unwrap(),
        before
    );
    both_accept(&env, "out4");
}

#[test]
fn a_commitment_placed_but_not_recorded_resumes_and_its_production_file_goes_to_the_medium_given_now()
 {
    // Through the forwarding module, signing fails as soon as the commitment is in place: the
    // run stops after both parts of the output were placed, before their publication was
    // recorded (what a kill at that moment leaves).
    let env = Env::forwarding(true);
    let rules = small_rules(&env);
    env.ok(&["keys", "export", "--out", "keys"]);
    let commit = env.path(&format!("out/{}.commit.json", stem(1)));
    let args = [
        "block",
        "generate",
        "--rules",
        rules.to_str().unwrap(),
        "--unofficial-rules",
        "--price",
        "100",
        "--emission",
        "t1",
        "--out",
        "out",
        "--secret-out",
        "medium",
    ];
    let o = env
        .command_for(&args)
        .env("URNE_TEST_FWD_SIGN_FAIL", &commit)
        .output()
        .unwrap();
    assert!(
        !o.status.success(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(commit.exists());
    let csv = env.path(&format!("medium/{}.tickets.csv", stem(1)));
    assert!(
        csv.exists(),
        "the production file was placed before the commitment"
    );
    assert_eq!(count(&env, "block.published"), 0);
    // The medium is handed over; the run is resumed with a new, empty one: the production file
    // is written there (recomputed from the recorded entropy: the very same bytes), and the
    // commitment in place is recorded as it is.
    let first = std::fs::read(&csv).unwrap();
    let commit_bytes = std::fs::read(&commit).unwrap();
    let mut a = args.to_vec();
    *a.last_mut().unwrap() = "medium2";
    let shown = env.ok(&a);
    assert!(shown.contains("resuming block"), "{shown}");
    assert_eq!(count(&env, "block.published"), 1);
    assert_eq!(count(&env, "block.entropy"), 1);
    let again = std::fs::read(env.path(&format!("medium2/{}.tickets.csv", stem(1)))).unwrap();
    assert_eq!(again, first);
    assert_eq!(std::fs::read(&commit).unwrap(), commit_bytes);
    let c: serde_json::Value = serde_json::from_slice(&commit_bytes).unwrap();
    assert_eq!(
        c["tickets_sha256"].as_str().unwrap(),
        hex::encode(urne_verify::crypto::sha256(&again).0)
    );
    both_accept(&env, "out");
    for ext in ["tickets.csv", "tickets.csv.sig"] {
        let name = format!("{}.{ext}", stem(1));
        std::fs::copy(env.path("medium2").join(&name), env.path("out").join(&name)).unwrap();
    }
    let v = both_accept(&env, "out");
    assert!(
        v.contains("production file (every row, counts, root)"),
        "{v}"
    );
}
