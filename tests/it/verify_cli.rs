//! The `urne-verify` binary (crates/verify-cli), what third parties install (issue 24, item 1):
//! the keys are required (`--keys DIR`, else a usage error, exit 2); with them it verifies a real
//! draw folder and an audit export as `urne verify` does, the same first lines, and names the
//! key ids it used; a tampered file fails with its class (spec/formats.md §8.1). `vectors.rs` runs it
//! over every vector.

use crate::common::*;
use crate::draws::{seal, simulate};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The `urne-verify` binary of this build, beside `urne` (built once per test run with the
/// same profile, so that it is never an older build's).
pub(crate) fn exe() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let target = Path::new(URNE).parent().unwrap();
            // scripts/test has just built the whole workspace as the tests resolve it
            // (`cargo build --workspace --all-targets`): that binary, not another variant of
            // the crates built by `-p urne-verify-cli` alone.
            if std::env::var_os("URNE_WORKSPACE_BUILT").is_some() {
                return target.join("urne-verify");
            }
            let release = target.file_name().is_some_and(|n| n == "release");
            let mut c = Command::new(env!("CARGO"));
            c.current_dir(root()).args([
                "build",
                "--quiet",
                "-p",
                "urne-verify-cli",
                "--bin",
                "urne-verify",
            ]);
            if release {
                c.arg("--release");
            }
            let out = c.output().unwrap();
            assert!(
                out.status.success(),
                "cargo build -p urne-verify-cli failed:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            target.join("urne-verify")
        })
        .clone()
}

/// `urne-verify ARGS` run in `env`'s folder, with none of the appliance's variables.
fn run(env: &Env, args: &[&str]) -> Output {
    let mut c = Command::new(exe());
    scrub(&mut c);
    c.current_dir(env.path("")).args(args).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A day drawn into `out`, its public keys exported to `keys`, the trail to `audit.jsonl`.
fn drawn() -> (Env, PathBuf) {
    let env = Env::new();
    let export = simulate(&env, "2018-12-22", 500, 7, &[]);
    seal(&env, &export);
    env.draw_ok("2018-12-22", "out");
    env.ok(&["keys", "export", "--out", "keys"]);
    env.ok(&["audit", "export", "--out", "audit.jsonl"]);
    (env, export)
}

fn key_id(env: &Env, pem: &str) -> String {
    let pem = std::fs::read_to_string(env.path(pem)).unwrap();
    urne_verify::crypto::keys::key_id(
        &urne_verify::crypto::keys::public_key_from_pem(&pem).unwrap(),
    )
}

// MUST: M-341
#[test]
fn the_urne_verify_binary_requires_the_keys_verifies_a_draw_and_an_audit_export_and_names_its_keys()
{
    let (env, export) = drawn();
    // Without --keys: a usage error, whatever the folder holds (never its own keys), from both
    // urne-verify and `urne verify` (spec/formats.md §8.1 [M-341]).
    std::fs::copy(
        env.path("keys/result.pub.pem"),
        env.path("out/result.pub.pem"),
    )
    .unwrap();
    std::fs::copy(
        env.path("keys/audit.pub.pem"),
        env.path("out/audit.pub.pem"),
    )
    .unwrap();
    for args in [&["out"][..], &["audit.jsonl"], &["out/result.json"]] {
        let urne: Vec<&str> = std::iter::once("verify")
            .chain(args.iter().copied())
            .collect();
        let o = env.urne(&urne);
        let err = assert_fails(&o, 2, "keys-invalid");
        assert!(err.starts_with("no --keys"), "urne verify: {err}");
        assert!(o.stdout.is_empty(), "urne verify: {}", stdout(&o));
        let o = run(&env, args);
        let err = assert_fails(&o, 2, "keys-invalid");
        assert!(err.starts_with("no --keys"), "{err}");
        let all = String::from_utf8_lossy(&o.stderr);
        assert!(
            all.lines().any(|l| l.starts_with("hint: pass --keys DIR")),
            "{all}"
        );
        assert!(o.stdout.is_empty(), "{}", stdout(&o));
    }
    std::fs::remove_file(env.path("out/result.pub.pem")).unwrap();
    std::fs::remove_file(env.path("out/audit.pub.pem")).unwrap();
    let (result, audit) = (
        key_id(&env, "keys/result.pub.pem"),
        key_id(&env, "keys/audit.pub.pem"),
    );
    // A draw folder: exit 0, the verdict `urne verify` prints, then the key ids used.
    let o = run(&env, &["out", "--keys", "keys"]);
    assert!(
        o.status.success(),
        "{}{}",
        stdout(&o),
        String::from_utf8_lossy(&o.stderr)
    );
    let urne = env.ok(&["verify", "out", "--keys", "keys"]);
    let ours = stdout(&o);
    assert_eq!(
        ours, urne,
        "urne-verify and urne verify print the same verdict"
    );
    let last = ours.lines().last().unwrap();
    assert!(
        last.starts_with(&format!(
            "keys: result key {result}, audit key {audit} (from keys"
        )) && last.ends_with("compare them with the key ceremony's minutes"),
        "{ours}"
    );
    // Auditor mode: production's key named explicitly, else a usage error.
    let export = export.to_str().unwrap();
    let auditor = ["out", "--keys", "keys", "--export", export];
    let urne: Vec<&str> = std::iter::once("verify").chain(auditor).collect();
    for o in [run(&env, &auditor), env.urne(&urne)] {
        assert_fails(&o, 2, "no-producer-key");
        assert_names(&hint_of(&o), &["--producer-key"]);
    }
    // A producer key file that is not there: the same id from both (spec/appliance.md §10).
    let missing = [
        "out",
        "--keys",
        "keys",
        "--export",
        export,
        "--producer-key",
        "none.pem",
    ];
    let urne: Vec<&str> = std::iter::once("verify").chain(missing).collect();
    for o in [run(&env, &missing), env.urne(&urne)] {
        assert_fails(&o, 2, "no-such-file");
    }
    // A checkpoint or a key that is a FIFO: refused at once, never waited on, the same id from
    // both (spec/formats.md §1.6; `timeout` turns a wait into exit 124, which fails here).
    assert!(
        Command::new("mkfifo")
            .arg(env.path("held.note"))
            .status()
            .unwrap()
            .success()
    );
    for flag in ["--checkpoint", "--producer-key"] {
        let mut args = vec!["out", "--keys", "keys", flag, "held.note"];
        if flag == "--producer-key" {
            args.extend(["--export", export]);
        }
        let mut c = Command::new("timeout");
        scrub(&mut c);
        let o = c
            .current_dir(env.path(""))
            .arg("20")
            .arg(exe())
            .args(&args)
            .output()
            .unwrap();
        assert_fails(&o, 2, "not-regular-file");
        let urne: Vec<&str> = std::iter::once("verify").chain(args).collect();
        assert_fails(&env.urne(&urne), 2, "not-regular-file");
    }
    let producer = root().join("tests/fixtures/keys/test-producer.pub.pem");
    let producer = producer.to_str().unwrap();
    let o = run(
        &env,
        &[
            "out",
            "--keys",
            "keys",
            "--export",
            export,
            "--producer-key",
            producer,
        ],
    );
    assert!(
        o.status.success(),
        "{}{}",
        stdout(&o),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        stdout(&o).contains(&format!("producer key {}", test_producer_key_id())),
        "{}",
        stdout(&o)
    );
    // An audit export: anchored by the key given (exit 0, never UNANCHORED), its key id named.
    let o = run(&env, &["audit.jsonl", "--keys", "keys"]);
    let ours = stdout(&o);
    assert!(
        o.status.success(),
        "{ours}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(ours.starts_with("VERIFIED: the audit trail of "), "{ours}");
    assert!(
        ours.contains(&format!("keys: audit key {audit} (from keys")),
        "{ours}"
    );
    let urne = env.ok(&["verify", "audit.jsonl", "--keys", "keys"]);
    assert_eq!(
        ours, urne,
        "urne-verify and urne verify print the same verdict"
    );
}

#[test]
fn a_tampered_output_or_a_foreign_key_fails_with_its_class_as_urne_verify_says() {
    let (env, _) = drawn();
    // The result's bytes changed: its signature no longer holds.
    let r = env.path("out/result.json");
    let mut bytes = std::fs::read(&r).unwrap();
    bytes.push(b' ');
    std::fs::write(&r, bytes).unwrap();
    let o = run(&env, &["out", "--keys", "keys"]);
    let err = assert_fails(&o, 1, "verification-failed");
    assert!(
        err.starts_with("verification failed (bad-signature)"),
        "{err}"
    );
    let urne = env.urne(&["verify", "out", "--keys", "keys"]);
    assert_eq!(
        String::from_utf8_lossy(&urne.stderr).lines().next(),
        Some(format!("error[verification-failed]: {err}").as_str()),
        "the same error line as urne verify"
    );
    // Another appliance's keys: the audit export's checkpoints fail under them.
    let other = Env::new();
    other.ok(&["keys", "export", "--out", "keys"]);
    let foreign = other.path("keys");
    let o = run(&env, &["audit.jsonl", "--keys", foreign.to_str().unwrap()]);
    let err = assert_fails(&o, 1, "trail-verification-failed");
    assert!(err.starts_with("verification failed ("), "{err}");
}

/// A name given on the command line reaches the `error:` line escaped, from both binaries: no
/// control sequence on the operator's screen, never a second line under the one `error:` line.
#[test]
fn a_control_character_in_a_path_is_escaped_in_the_error_line() {
    let env = Env::new();
    env.ok(&["keys", "export", "--out", "keys"]);
    let path = "no\u{1b}[31mdir\nVERIFIED: forged";
    let urne = env.urne(&["verify", path, "--keys", "keys"]);
    for o in [urne, run(&env, &[path, "--keys", "keys"])] {
        let err = assert_fails(&o, 2, "not-an-output");
        assert!(err.contains("no\\u{1b}[31mdir\\nVERIFIED: forged"), "{err}");
        let all = String::from_utf8_lossy(&o.stderr);
        assert!(!all.contains('\u{1b}'), "{all}");
        assert!(!all.lines().any(|l| l.starts_with("VERIFIED")), "{all}");
        assert!(o.stdout.is_empty());
    }
}

/// A command line that does not parse is refused as every other usage mistake, by both
/// binaries: one `error[usage]:` line, one `hint:` line, exit 2, nothing verified or written
/// (spec/appliance.md §10): a day that is no calendar date, a block id that is not canonical
/// (spec/formats.md §8.1), an unknown option, a missing argument. `--help` is no mistake.
#[test]
fn a_command_line_that_does_not_parse_is_one_usage_line_and_a_hint() {
    let env = Env::new();
    env.ok(&["keys", "export", "--out", "keys"]);
    let bad: [&[&str]; 4] = [
        &["out", "--keys", "keys", "--expect-day", "2018-02-30"],
        &[
            "out",
            "--keys",
            "keys",
            "--expect-block",
            "noel/0100/2015-12/3",
        ],
        &["out", "--keys", "keys", "--bogus"],
        &["--keys", "keys"],
    ];
    for args in bad {
        let mut appliance = vec!["verify"];
        appliance.extend_from_slice(args);
        for o in [env.urne(&appliance), run(&env, args)] {
            assert_fails(&o, 2, "usage");
            let all = String::from_utf8_lossy(&o.stderr);
            let lines: Vec<&str> = all.lines().collect();
            assert_eq!(lines.len(), 2, "{args:?}: {all}");
            assert!(lines[1].starts_with("hint: "), "{args:?}: {all}");
            assert!(o.stdout.is_empty(), "{args:?}");
        }
    }
    for o in [env.urne(&["verify", "--help"]), run(&env, &["--help"])] {
        assert_eq!(o.status.code(), Some(0));
        assert!(stdout(&o).contains("--expect-day"));
    }
}

/// spec/formats.md §5.B9 [M-404]: after the reveal anyone derives a ticket's proof with
/// `urne-verify BLOCKDIR --ticket-proof P`, from the public folder alone (no production file):
/// the row is the committed one, the proof (standard output only, unsigned) verifies against the
/// folder and nothing else vouches for it; a folder not revealed gives none.
#[test]
fn anyone_derives_a_ticket_s_proof_from_the_reveal_and_it_verifies_against_the_commitment() {
    let v = crate::vectors::vector("block-folder-v2-valid");
    let tmp = crate::vectors::materialise("block-folder-v2-valid", &v);
    let dir = tmp.path();
    let csv = std::fs::read_dir(dir.join("block"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".tickets.csv"))
        .unwrap();
    let rows = std::fs::read_to_string(&csv).unwrap();
    std::fs::remove_file(&csv).unwrap();
    std::fs::remove_file(format!("{}.sig", csv.display())).unwrap();
    let derive = |p: &str| {
        let mut c = Command::new(exe());
        scrub(&mut c);
        c.current_dir(dir)
            .args(["block", "--keys", "keys", "--ticket-proof", p])
            .output()
            .unwrap()
    };
    let o = derive("42");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let proof: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        proof["row"].as_str().unwrap(),
        rows.lines().nth(43).unwrap()
    );
    std::fs::write(dir.join("t.json"), &o.stdout).unwrap();
    let check = |args: &[&str]| {
        let mut c = Command::new(exe());
        scrub(&mut c);
        c.current_dir(dir).args(args).output().unwrap()
    };
    let ok = check(&["t.json", "--keys", "keys", "--published", "block"]);
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    assert!(stdout(&ok).starts_with("VERIFIED: the ticket proof of position 42 of block "));
    assert_fails(&check(&["t.json", "--keys", "keys"]), 2, "usage");
    // Another ticket's row under this position's path fails.
    let mut bad = proof.clone();
    bad["row"] = serde_json::json!(rows.lines().nth(44).unwrap().replacen("43,", "42,", 1));
    std::fs::write(dir.join("b.json"), serde_json::to_vec(&bad).unwrap()).unwrap();
    let err = assert_fails(
        &check(&["b.json", "--keys", "keys", "--published", "block"]),
        1,
        "verification-failed",
    );
    assert_class(&err, "commitment-mismatch");
    // Out of the block, or before the reveal: a usage mistake, nothing printed.
    let o = derive("100");
    assert_fails(&o, 2, "usage");
    assert!(o.stdout.is_empty());
    for f in std::fs::read_dir(dir.join("block")).unwrap() {
        let p = f.unwrap().path();
        if p.to_string_lossy().contains(".reveal.json") {
            std::fs::remove_file(p).unwrap();
        }
    }
    let o = derive("42");
    let err = assert_fails(&o, 2, "usage");
    assert!(err.contains("not revealed"), "{err}");
}

/// A release manifest `SHA256SUMS` of `commit` listing `urne` as its `bin/urne`, signed by
/// `key` into `dir` (spec/formats.md §8.8).
fn release(env: &Env, dir: &str, commit: &str, urne: &str, key: &ed25519_dalek::SigningKey) {
    use ed25519_dalek::Signer;
    let other = "ab".repeat(32);
    let mut lines = [
        format!("{urne}  bin/urne"),
        format!("{other}  bin/urne-import"),
        format!("{other}  bin/urne-verify"),
        format!("{other}  urne-src-{commit}.tar.gz"),
    ];
    // Sorted by name, bytewise (spec/formats.md §8.8), not by hash.
    lines.sort_by(|a, b| a[66..].cmp(&b[66..]));
    let text = lines.join("\n") + "\n";
    std::fs::create_dir_all(env.path(dir)).unwrap();
    std::fs::write(env.path(&format!("{dir}/SHA256SUMS")), &text).unwrap();
    std::fs::write(
        env.path(&format!("{dir}/SHA256SUMS.sig")),
        key.sign(text.as_bytes()).to_bytes(),
    )
    .unwrap();
}

// MUST: M-410, M-412, M-414, M-415, M-417, M-418
#[test]
fn an_output_of_this_build_is_released_only_by_a_signed_manifest_listing_its_executable() {
    let (env, _) = drawn();
    // The draw names this build's urne: the SHA-256 of the test binary that made it.
    let bundle: serde_json::Value =
        serde_json::from_slice(&std::fs::read(env.path("out/bundle.json")).unwrap()).unwrap();
    let exe = urne_verify::crypto::sha256(&std::fs::read(urne_bin()).unwrap()).to_string();
    assert_eq!(bundle["software"]["executable_sha256"], exe.as_str());
    let rev = bundle["software"]["source_revision"]
        .as_str()
        .unwrap()
        .to_string();
    // A throwaway release key, published apart from the release.
    let key = ed25519_dalek::SigningKey::from_bytes(&[0x52; 32]);
    std::fs::write(
        env.path("release-key.pem"),
        urne_verify::crypto::keys::public_key_to_pem(&key.verifying_key().to_bytes()),
    )
    .unwrap();
    let with = |manifest: &str, path: &str| {
        vec![
            path.to_string(),
            "--keys".into(),
            "keys".into(),
            "--release".into(),
            format!("{manifest}/SHA256SUMS"),
            "--release-key".into(),
            "release-key.pem".into(),
        ]
    };
    let both = |args: &[String]| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let cli = run(&env, &args);
        let urne: Vec<&str> = std::iter::once("verify")
            .chain(args.iter().copied())
            .collect();
        let appliance = env.urne(&urne);
        assert_eq!(
            (stdout(&cli), cli.status.code()),
            (stdout(&appliance), appliance.status.code()),
            "urne-verify and urne verify judge the software alike"
        );
        cli
    };
    let line = |o: &Output, start: &str| {
        stdout(o)
            .lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no {start} line in:\n{}", stdout(o)))
            .to_string()
    };
    let draw =
        "software: the draw of chanceux-noel-2018 day 2018-12-22 attempt 1 (version 2) in out: ";
    // Without --release, nothing of it (spec/formats.md §8.8 [M-418]).
    let plain = run(&env, &["out", "--keys", "keys"]);
    assert!(plain.status.success());
    assert!(!stdout(&plain).contains("software: "), "{}", stdout(&plain));
    if let Some(commit) = rev.strip_suffix("-modified") {
        // A build of a modified tree is of no release, even one of its commit that lists its
        // executable.
        release(&env, "r", commit, &exe, &key);
        let o = both(&with("r", "out"));
        assert_fails(&o, 9, "software-not-released");
        assert!(line(&o, draw).ends_with(&format!(
            "NOT RELEASED: no release given is of source revision {rev}"
        )));
    } else {
        // Released: the manifest of its revision lists this executable.
        release(&env, "r", &rev, &exe, &key);
        let o = both(&with("r", "out"));
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(
            line(&o, draw),
            format!(
                "{draw}urne 0.1.0 {rev}, executable {exe}: released (bin/urne of release {rev})"
            )
        );
        assert!(line(&o, "release: ").starts_with(&format!(
            "release: {rev} in r/SHA256SUMS, signed by release key "
        )));
        assert!(
            stdout(&o).lines().last().unwrap().starts_with("keys: "),
            "the keys line ends the verdict"
        );
        // The trail's software.start events name the same executable: one line for them all.
        let o = both(&with("r", "audit.jsonl"));
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let trail = line(&o, "software: ");
        assert!(
            trail.starts_with("software: ")
                && trail.contains(" software.start events from seq ")
                && trail.ends_with(&format!(
                    "executable {exe}: released (bin/urne of release {rev})"
                )),
            "{trail}"
        );
        // A manifest of the same revision listing another binary: built another way, exit 9,
        // the verdict printed first.
        release(&env, "another", &rev, &"11".repeat(32), &key);
        let o = both(&with("another", "out"));
        let err = assert_fails(&o, 9, "software-not-released");
        assert!(err.starts_with("software not released: "), "{err}");
        assert!(stdout(&o).starts_with("VERIFIED: "), "{}", stdout(&o));
        assert!(line(&o, draw).ends_with(&format!(
            "NOT RELEASED: built another way (release {rev} lists bin/urne {})",
            "11".repeat(32)
        )));
    }
    // A manifest signed by another key: refused before anything is verified (exit 2).
    let other = ed25519_dalek::SigningKey::from_bytes(&[0x53; 32]);
    release(&env, "forged", &"0".repeat(40), &exe, &other);
    let o = both(&with("forged", "out"));
    let err = assert_fails(&o, 2, "release-invalid");
    assert!(
        err.starts_with("release manifest refused (bad-signature): forged/SHA256SUMS"),
        "{err}"
    );
    assert!(o.stdout.is_empty(), "{}", stdout(&o));
}
