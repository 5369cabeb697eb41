//! `urne audit verify` stands outside the trail (issue 10, item 7; issue 23): without an audit
//! key or a held checkpoint it is never a success (`UNANCHORED:`, exit 8); with a key, a trail rewritten end to
//! end under another key fails; an exported trail verifies like the database, each tampering
//! with its class (spec/formats.md §6.4, §8.1), through `urne audit verify --file` and `urne verify`.

use crate::common::*;
use ed25519_dalek::{Signer, SigningKey};
use serde_json::Value;
use std::fmt::Write as _;
use urne_verify::audit::chain::{checkpoint_body, event_hash, signed_note, tree_root};
use urne_verify::crypto::{Hash32, keys};

/// A trail with checkpoints, its real audit key in `keys/`, exported to `audit.jsonl`.
fn exported() -> Env {
    let env = Env::new();
    env.ok(&["keys", "export", "--out", "keys"]);
    env.ok(&["keys", "export", "--out", "k1"]);
    env.ok(&["audit", "export", "--out", "audit.jsonl"]);
    env
}

fn lines(env: &Env, file: &str) -> Vec<Value> {
    std::fs::read_to_string(env.path(file))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn write(env: &Env, file: &str, lines: &[Value]) {
    let text: String = lines.iter().fold(String::new(), |mut text, l| {
        let _ = writeln!(text, "{l}");
        text
    });
    std::fs::write(env.path(file), text).unwrap();
}

fn real_key(env: &Env) -> [u8; 32] {
    keys::public_key_from_pem(&std::fs::read_to_string(env.path("keys/audit.pub.pem")).unwrap())
        .unwrap()
}

/// Recomputes every event hash in order, then rewrites every checkpoint with `sign(size, root)`.
fn rechain(lines: &mut [Value], sign: &dyn Fn(u64, &Hash32) -> String) {
    let mut prev = Hash32::ZERO;
    let mut hashes = vec![];
    for l in lines.iter_mut() {
        if l["type"] == "event" {
            let h = event_hash(
                &prev,
                l["seq"].as_u64().unwrap(),
                l["ts"].as_str().unwrap(),
                l["kind"].as_str().unwrap(),
                l["payload"].as_str().unwrap(),
            );
            l["prev_hash"] = prev.to_string().into();
            l["hash"] = h.to_string().into();
            hashes.push(h);
            prev = h;
        } else {
            let size = l["size"].as_u64().unwrap();
            let root = tree_root(&hashes[..usize::try_from(size).unwrap()]);
            l["note"] = sign(size, &root).into();
        }
    }
}

/// A note over `(size, root)` named for `named` and signed by `sk`.
fn note(sk: &SigningKey, named: &[u8; 32], size: u64, root: &Hash32) -> String {
    let body = checkpoint_body(named, size, root);
    signed_note(named, &body, &sk.sign(body.as_bytes()).to_bytes())
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// spec/formats.md §6.4 [M-271]: a trail checked against nothing but the key it records is never a
/// success: the first line says `UNANCHORED:` and the exit is 8, in urne's `audit verify` (the
/// database and an export), `verify` and the Python verifier; with an audit key or a held
/// checkpoint from outside, exit 0.
#[test]
fn without_an_anchor_the_verdict_says_unanchored_and_exits_8() {
    let env = exported();
    let py = root().join("verifier/urne_verify.py");
    let python = |args: &[&str]| {
        std::process::Command::new("python3")
            .arg(&py)
            .args(args)
            .current_dir(env.path(""))
            .output()
            .unwrap()
    };
    let unanchored = |args: &[&str], o: std::process::Output| {
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        assert_eq!(o.status.code(), Some(8), "{args:?}: {out}{}", stderr(&o));
        let first = out.lines().next().unwrap_or_default();
        assert!(
            first.starts_with("UNANCHORED: ")
                && first.contains("is consistent with itself only")
                && first.contains("rewritten end to end under another key"),
            "{args:?}: {out}"
        );
        assert!(
            !out.contains("VERIFIED") && !out.contains("intact"),
            "{out}"
        );
        assert!(!stderr(&o).contains("error["), "{}", stderr(&o));
    };
    for args in [
        &["audit", "verify"][..],
        &["audit", "verify", "--file", "audit.jsonl"],
    ] {
        unanchored(args, env.urne(args));
    }
    // `urne verify` of an export is never unanchored: it requires --keys (spec/formats.md §8.1).
    for f in ["audit.jsonl", "half.jsonl"] {
        assert_fails(&env.urne(&["verify", f]), 2, "keys-invalid");
    }
    unanchored(&["audit.jsonl"], python(&["audit.jsonl"]));
    // The cases found: a trail cut to half and one rewritten under another key are not passed
    // with exit 0 by a plain `urne audit verify`.
    let ls = lines(&env, "audit.jsonl");
    let events = ls.iter().filter(|l| l["type"] == "event").count() as u64;
    let half: Vec<Value> = ls
        .iter()
        .filter(|l| l["seq"].as_u64().or(l["size"].as_u64()).unwrap() <= events / 2)
        .cloned()
        .collect();
    write(&env, "half.jsonl", &half);
    let args = &["audit", "verify", "--file", "half.jsonl"][..];
    unanchored(args, env.urne(args));
    unanchored(&["half.jsonl"], python(&["half.jsonl"]));
    // Anchored: exit 0 and the usual first line.
    for args in [
        &["audit", "verify", "--audit-key", "keys/audit.pub.pem"][..],
        &["audit", "verify", "--keys", "keys"],
        &["audit", "verify", "--file", "audit.jsonl", "--keys", "keys"],
        &["verify", "audit.jsonl", "--keys", "keys"],
    ] {
        let o = env.urne(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert!(!String::from_utf8_lossy(&o.stdout).contains("UNANCHORED"));
    }
    let o = python(&["audit.jsonl", "--keys", "keys"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The key anchors against a rewrite, not against a copy cut short: the half trail verifies
    // under the real key, and every verdict without a held checkpoint says so on standard error
    // (a note of a verdict that holds, not a failure: its words are what is tested).
    let cut_short = |args: &[&str], o: std::process::Output| {
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let n = events / 2;
        assert!(
            stderr(&o).contains(&format!("note: a key proves who signed events 1..{n}"))
                && stderr(&o).contains("a copy cut short verifies too"),
            "{args:?}: {}",
            stderr(&o)
        );
    };
    for args in [
        &["audit", "verify", "--file", "half.jsonl", "--keys", "keys"][..],
        &["verify", "half.jsonl", "--keys", "keys"],
    ] {
        cut_short(args, env.urne(args));
    }
    cut_short(&["half.jsonl"], python(&["half.jsonl", "--keys", "keys"]));
    // A held checkpoint anchors too, and finds the half trail cut short.
    std::fs::write(
        env.path("held.note"),
        ls.iter().rfind(|l| l["type"] == "checkpoint").unwrap()["note"]
            .as_str()
            .unwrap(),
    )
    .unwrap();
    let o = env.urne(&["audit", "verify", "--checkpoint", "held.note"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("cut short"), "{}", stderr(&o));
    assert_fails(
        &env.urne(&[
            "audit",
            "verify",
            "--file",
            "half.jsonl",
            "--checkpoint",
            "held.note",
        ]),
        1,
        "trail-verification-failed",
    );
}

#[test]
fn a_trail_rewritten_end_to_end_under_another_key_fails_with_the_real_key() {
    let env = exported();
    let real = real_key(&env);
    let sk = SigningKey::from_bytes(&[42u8; 32]);
    let fake = sk.verifying_key().to_bytes();
    let mut ls = lines(&env, "audit.jsonl");
    for l in &mut ls {
        if l["kind"] == "keys.generated" || l["kind"] == "trail.created" {
            let p = l["payload"].as_str().unwrap();
            assert!(p.contains(&hex::encode(real)));
            l["payload"] = p.replace(&hex::encode(real), &hex::encode(fake)).into();
        }
    }
    rechain(&mut ls, &|size, root| note(&sk, &fake, size, root));
    write(&env, "rewritten.jsonl", &ls);
    std::fs::create_dir(env.path("fake")).unwrap();
    // Under its own recorded key, the rewrite is consistent with itself: never a success.
    let o = env.urne(&["audit", "verify", "--file", "rewritten.jsonl"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(8), "{out}");
    assert!(
        out.starts_with("UNANCHORED: ") && out.contains(&keys::key_id(&fake)),
        "{out}"
    );
    // Under the real key, it fails, naming both key ids.
    for args in [
        &[
            "audit",
            "verify",
            "--file",
            "rewritten.jsonl",
            "--audit-key",
            "keys/audit.pub.pem",
        ][..],
        &["verify", "rewritten.jsonl", "--keys", "keys"],
    ] {
        let err = assert_fails(&env.urne(args), 1, "trail-verification-failed");
        assert_names(&err, &[&keys::key_id(&real), &keys::key_id(&fake)]);
    }
    // The real export, under the real key, passes both ways.
    env.ok(&[
        "audit",
        "verify",
        "--file",
        "audit.jsonl",
        "--audit-key",
        "keys/audit.pub.pem",
        "--strict",
    ]);
    let out = env.ok(&["verify", "audit.jsonl", "--keys", "keys", "--strict"]);
    assert!(
        out.starts_with("VERIFIED: the audit trail of")
            && out.lines().next().unwrap().ends_with(" in audit.jsonl"),
        "{out}"
    );
}

#[test]
fn a_database_recording_another_audit_key_fails_naming_both() {
    let env = exported();
    // Another token's audit key, given as the real one.
    let other = Env::new();
    other.ok(&["keys", "export", "--out", "keys"]);
    std::fs::copy(other.path("keys/audit.pub.pem"), env.path("other.pem")).unwrap();
    let err = assert_fails(
        &env.urne(&["audit", "verify", "--audit-key", "other.pem"]),
        1,
        "trail-verification-failed",
    );
    let other_id = keys::key_id(&real_key(&other));
    assert_names(&err, &[&keys::key_id(&real_key(&env)), &other_id]);
}

/// `urne audit verify --file F --audit-key keys/audit.pub.pem` and `urne verify F --keys keys`:
/// both exit 1 naming `class`.
fn both_fail(env: &Env, file: &str, class: &str) {
    for args in [
        &[
            "audit",
            "verify",
            "--file",
            file,
            "--audit-key",
            "keys/audit.pub.pem",
        ][..],
        &["verify", file, "--keys", "keys"],
    ] {
        let err = assert_fails(&env.urne(args), 1, "trail-verification-failed");
        assert_class(&err, class);
    }
}

#[test]
fn each_tampering_of_an_exported_trail_has_its_class() {
    let env = exported();
    let real = real_key(&env);
    let ls = lines(&env, "audit.jsonl");
    let n_events = ls.iter().filter(|l| l["type"] == "event").count();
    // An edited event, hashes kept: the chain breaks.
    let mut t = ls.clone();
    t[1]["payload"] = t[1]["payload"].as_str().unwrap().replace('{', "{ ").into();
    write(&env, "edited.jsonl", &t);
    both_fail(&env, "edited.jsonl", "inconsistent");
    // The same edit, re-chained: the checkpoints' roots differ.
    let real_notes = ls.clone();
    rechain(&mut t, &|size, _| {
        real_notes.iter().find(|l| l["size"] == size).unwrap()["note"]
            .as_str()
            .unwrap()
            .to_string()
    });
    write(&env, "rechained.jsonl", &t);
    both_fail(&env, "rechained.jsonl", "inconsistent");
    // Truncated: the last events gone, the checkpoints kept (they cover more than the trail).
    let t: Vec<Value> = ls
        .iter()
        .enumerate()
        .filter(|(i, l)| l["type"] != "event" || *i < n_events - 2)
        .map(|(_, l)| l.clone())
        .collect();
    write(&env, "truncated.jsonl", &t);
    both_fail(&env, "truncated.jsonl", "inconsistent");
    // A checkpoint signed by another key under the audit key's name.
    let mut t = ls.clone();
    let sk = SigningKey::from_bytes(&[7u8; 32]);
    rechain(&mut t, &|size, root| note(&sk, &real, size, root));
    write(&env, "forged-checkpoint.jsonl", &t);
    both_fail(&env, "forged-checkpoint.jsonl", "bad-signature");
    // Malformed lines: a duplicate key, an unknown type, a missing field, an unknown field, no JSON.
    let text = std::fs::read_to_string(env.path("audit.jsonl")).unwrap();
    let first = text.lines().next().unwrap();
    for (name, line) in [
        ("dup", first.replacen("\"seq\":1", "\"seq\":1,\"seq\":1", 1)),
        ("type", first.replacen("\"event\"", "\"evnt\"", 1)),
        ("missing", first.replacen("\"seq\":1,", "", 1)),
        (
            "unknown",
            first.replacen("\"seq\":1", "\"seq\":1,\"extra\":0", 1),
        ),
        ("garbage", "{not json".to_string()),
    ] {
        assert_ne!(
            line, first,
            "{name}: the export's first line is not as expected"
        );
        let f = format!("malformed-{name}.jsonl");
        std::fs::write(env.path(&f), text.replacen(first, &line, 1)).unwrap();
        both_fail(&env, &f, "malformed");
    }
    // An unreadable file is bad usage (exit 2).
    assert_fails(
        &env.urne(&[
            "audit",
            "verify",
            "--file",
            "missing.jsonl",
            "--audit-key",
            "keys/audit.pub.pem",
        ]),
        2,
        "no-such-file",
    );
}
