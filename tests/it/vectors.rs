//! The shared test vectors of `tests/vectors/` (SPEC.md; schema in tests/vectors/README.md), run
//! through the real `urne verify` (a `history-` vector's folder of outputs and held checkpoints,
//! SPEC.md §8.4, and an `audit-verify` vector's exported trail too, SPEC.md §6.4):
//! every vector declares what it expects, valid or the class of
//! failure, so a parse error cannot pass for a signature failure. The independent verifier runs
//! the same files (verifier/run_vectors.py).

use crate::common::*;

#[test]
fn urne_verify_passes_every_draw_history_block_and_audit_vector() {
    let dir = root().join("tests/vectors");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if !["draw-", "history-", "block-", "audit-"]
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
        let audit = name.starts_with("audit-");
        assert_eq!(
            v["command"],
            if audit { "audit-verify" } else { "verify" },
            "{name}"
        );
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
        let a = &v["args"];
        let mut c = std::process::Command::new(URNE);
        scrub(&mut c);
        c.current_dir(tmp.path())
            .arg("verify")
            .arg(a["path"].as_str().unwrap());
        for (flag, key) in [
            ("--keys", "keys"),
            ("--export", "export"),
            ("--published", "published"),
        ] {
            if let Some(s) = a.get(key).and_then(|x| x.as_str()) {
                c.args([flag, s]);
            }
        }
        for k in a
            .get("producer_keys")
            .and_then(|x| x.as_array())
            .into_iter()
            .flatten()
        {
            c.args(["--producer-key", k.as_str().unwrap()]);
        }
        for k in a
            .get("checkpoints")
            .and_then(|x| x.as_array())
            .into_iter()
            .flatten()
        {
            c.args(["--checkpoint", k.as_str().unwrap()]);
        }
        if a.get("strict").and_then(serde_json::Value::as_bool) == Some(true) {
            c.arg("--strict");
        }
        let out = c.output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        match v["expect"].as_str().unwrap() {
            "valid" => assert!(out.status.success(), "{name}: expected valid, got:\n{err}"),
            class => {
                assert_eq!(
                    out.status.code(),
                    Some(1),
                    "{name}: expected exit 1 ({class}), got:\n{err}"
                );
                assert!(
                    err.contains(&format!("verification failed ({class})")),
                    "{name}: expected class {class}, got:\n{err}"
                );
            }
        }
        n += 1;
    }
    assert!(n >= 74, "only {n} vectors found");
}
