//! The shared test vectors of `tests/vectors/` (SPEC.md; schema in tests/vectors/README.md), run
//! through the real `urne verify` (a `history-` vector's folder of outputs and held checkpoints,
//! spec/formats.md §8.4, and an `audit-verify` vector's exported trail too, spec/formats.md §6.4):
//! every vector declares what it expects (valid, partial, usage, or the class of failure), so a
//! parse error cannot pass for a signature failure. The independent verifier runs the same files
//! (`verifier/run_vectors.py`).

use crate::common::*;

/// Writes the file tree of the vector `v` into a new temporary folder.
pub(crate) fn materialise(name: &str, v: &serde_json::Value) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for (rel, content) in v["files"].as_object().unwrap() {
        let f = tmp.path().join(rel);
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        let bytes = match (content.get("utf8"), content.get("hex")) {
            (Some(t), None) => t.as_str().unwrap().as_bytes().to_vec(),
            (None, Some(h)) => hex::decode(h.as_str().unwrap()).unwrap(),
            _ => panic!("{name}: bad file entry {rel}"),
        };
        std::fs::write(f, bytes).unwrap();
    }
    tmp
}

/// The vector `tests/vectors/NAME.json`.
pub(crate) fn vector(name: &str) -> serde_json::Value {
    let p = root().join("tests/vectors").join(format!("{name}.json"));
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

/// The verifier a vector runs through: `urne verify`, or the `urne-verify` binary.
#[derive(Clone, Copy)]
pub(crate) enum Verifier {
    /// The appliance's `urne verify`.
    Urne,
    /// The third parties' `urne-verify` (crates/verify-cli).
    Cli,
}

/// The command line of the vector's `args` (tests/vectors/README.md).
fn command(dir: &std::path::Path, a: &serde_json::Value, by: Verifier) -> std::process::Command {
    let mut c = match by {
        Verifier::Urne => {
            let mut c = std::process::Command::new(URNE);
            c.arg("verify");
            c
        }
        Verifier::Cli => std::process::Command::new(crate::verify_cli::exe()),
    };
    scrub(&mut c);
    c.current_dir(dir).arg(a["path"].as_str().unwrap());
    for (flag, key) in [
        ("--keys", "keys"),
        ("--export", "export"),
        ("--published", "published"),
        ("--expect-day", "expect_day"),
        ("--expect-block", "expect_block"),
    ] {
        if let Some(s) = a.get(key).and_then(|x| x.as_str()) {
            c.args([flag, s]);
        }
    }
    for (flag, key) in [
        ("--producer-key", "producer_keys"),
        ("--checkpoint", "checkpoints"),
        ("--release", "release"),
        ("--release-key", "release_keys"),
    ] {
        for k in a.get(key).and_then(|x| x.as_array()).into_iter().flatten() {
            c.args([flag, k.as_str().unwrap()]);
        }
    }
    if a.get("strict").and_then(serde_json::Value::as_bool) == Some(true) {
        c.arg("--strict");
    }
    c
}

/// Runs one vector; panics naming it when urne does not do what it expects.
fn run_one(name: &str, v: &serde_json::Value, by: Verifier) {
    let audit = name.starts_with("audit-")
        || (name.starts_with("release-") && v["args"]["path"].as_str() == Some("audit.jsonl"));
    assert_eq!(
        v["command"],
        if audit && !name.starts_with("release-") {
            "audit-verify"
        } else {
            "verify"
        },
        "{name}"
    );
    let tmp = materialise(name, v);
    let out = command(tmp.path(), &v["args"], by).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let partial = stdout.lines().any(|l| l.starts_with("partial:"));
    match v["expect"].as_str().unwrap() {
        "valid" => assert!(
            out.status.success() && !partial,
            "{name}: expected valid (exit 0, no partial: line), got:\n{stdout}\n{err}"
        ),
        "partial" => assert!(
            out.status.success() && partial,
            "{name}: expected exit 0 with a partial: line, got:\n{stdout}\n{err}"
        ),
        // spec/formats.md §8.8 [M-417]: every output verified, one's software not released: exit 9.
        "not-released" => {
            let what = assert_fails(&out, 9, "software-not-released");
            assert!(
                what.starts_with("software not released: "),
                "{name}: {what}"
            );
        }
        // spec/formats.md §8.8 [M-412]: a release refused, nothing verified: exit 2.
        refused if refused.starts_with("release-") => {
            let what = assert_fails(&out, 2, "release-invalid");
            let class = &refused["release-".len()..];
            assert!(
                what.starts_with(&format!("release manifest refused ({class}): ")),
                "{name}: {what}"
            );
            assert!(stdout.is_empty(), "{name}: {stdout}");
        }
        // spec/formats.md §8.1: `error[<id>]: …` then `hint: …`, and never "verification failed".
        "usage" => assert!(
            out.status.code() == Some(2)
                && err.starts_with("error[")
                && err.lines().skip(1).any(|l| l.starts_with("hint: "))
                && !err.contains("verification failed"),
            "{name}: expected a usage error (exit 2) with a hint, got:\n{err}"
        ),
        class => {
            let id = if audit {
                "trail-verification-failed"
            } else {
                "verification-failed"
            };
            assert_class(&assert_fails(&out, 1, id), class);
        }
    }
    // spec/formats.md §8.8 [M-415]: the release: and software: lines, byte for byte, in order.
    if let Some(want) = v.get("software").and_then(|s| s.as_array()) {
        let got: Vec<&str> = stdout
            .lines()
            .filter(|l| l.starts_with("release: ") || l.starts_with("software: "))
            .collect();
        let want: Vec<&str> = want.iter().map(|w| w.as_str().unwrap()).collect();
        assert_eq!(got, want, "{name}: the release: and software: lines");
    }
}

#[test]
fn urne_verify_passes_every_draw_history_block_and_audit_vector() {
    run_all(Verifier::Urne);
}

/// The `urne-verify` binary accepts and refuses every vector as `urne verify` does (each names
/// its keys explicitly: `--keys`), with the same exit code and class.
#[test]
fn the_urne_verify_binary_passes_every_vector_as_urne_verify_does() {
    run_all(Verifier::Cli);
}

fn run_all(by: Verifier) {
    let dir = root().join("tests/vectors");
    let mut n = 0;
    let mut failed = vec![];
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if ![
            "draw-", "history-", "block-", "audit-", "sitting-", "keys-", "release-",
        ]
        .iter()
        .any(|p| name.starts_with(p))
            || !name.ends_with(".json")
        {
            continue;
        }
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
        if v.get("command").is_none() {
            continue; // block-small / block-full: computation vectors, run in blocks.rs
        }
        if let Err(e) = std::panic::catch_unwind(|| run_one(&name, &v, by)) {
            failed.push(
                e.downcast_ref::<String>()
                    .cloned()
                    .unwrap_or_else(|| name.clone()),
            );
        }
        n += 1;
    }
    assert!(
        failed.is_empty(),
        "{} vectors failed:\n{}",
        failed.len(),
        failed.join("\n---\n")
    );
    assert!(n >= 120, "only {n} vectors found");
}
