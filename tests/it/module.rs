//! The code that answers for the HSM (issue 11, item 2), against real SoftHSM and the real
//! binary: a loader told to bring in other code is refused at start; the module is hashed from
//! the descriptor it is loaded from, pinned if the configuration says so, and recorded in
//! `software.start` with every file mapped in the process (spec/formats.md §6.2).

use crate::common::*;
use crate::draws::{rules, seal, simulate};
use crate::native::*;
use serde_json::Value;
use std::path::Path;

/// The `software.start` payloads of the trail, in order.
fn starts(env: &Env) -> Vec<Value> {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let mut q = c
        .prepare("SELECT payload FROM events WHERE kind = 'software.start' ORDER BY seq")
        .unwrap();
    q.query_map([], |r| r.get::<_, String>(0))
        .unwrap()
        .map(|p| serde_json::from_str(&p.unwrap()).unwrap())
        .collect()
}

/// The `mapped` entry whose path is `p` (as the kernel names it: symbolic links resolved).
fn mapped<'a>(pkcs11: &'a Value, p: &Path) -> Option<&'a Value> {
    let want = std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    pkcs11["mapped"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| Path::new(m["path"].as_str().unwrap()) == want)
}

pub(crate) fn seal_args(export: &Path) -> Vec<String> {
    vec![
        "seal".into(),
        "--rules".into(),
        rules(),
        "--entries".into(),
        export.display().to_string(),
    ]
}

fn refused_under(env: &Env, args: &[String], var: &str, value: &Path) {
    let out = env.cmd().args(args).env(var, value).output().unwrap();
    let err = assert_fails(&out, 3, "unsafe-process");
    assert_names(&err, &[var]);
}

/// (a) `LD_PRELOAD` of a `RAND_bytes` stub (the attack on the genuine SoftHSM), `LD_AUDIT` and
/// `LD_LIBRARY_PATH`, set at all (even empty), are refused before the token is touched: exit 3,
/// and nothing is recorded or created.
#[test]
fn a_loader_told_to_bring_in_code_is_refused_at_start_and_nothing_is_recorded() {
    let stub = rand_stub();
    let empty = Path::new("");
    let cases: [(&str, &Path); 5] = [
        ("LD_PRELOAD", stub),
        ("LD_PRELOAD", empty),
        ("LD_AUDIT", stub),
        ("LD_LIBRARY_PATH", Path::new("/tmp")),
        ("LD_LIBRARY_PATH", empty),
    ];
    let fresh = Env::without_keys();
    let init = vec!["keys".to_string(), "init".to_string()];
    for (var, value) in cases {
        refused_under(&fresh, &init, var, value);
        assert!(!fresh.db().exists(), "{var}: no trail was created");
    }
    // The same ways in without a variable: the loader started as the command, `ld.so
    // --preload LIB urne …`.
    let ld_so = Path::new("/lib64/ld-linux-x86-64.so.2");
    if ld_so.is_file() {
        let out = fresh
            .cmd_of(ld_so)
            .arg("--preload")
            .arg(stub)
            .arg(URNE)
            .args(&init)
            .output()
            .unwrap();
        assert_fails(&out, 3, "unsafe-process");
        assert!(!fresh.db().exists());
    }
    // The token was not touched: keys init still finds it empty and initialises it.
    fresh.ok(&["keys", "init"]);

    let env = Env::new();
    let export = simulate(&env, "2018-12-01", 300, 1, &[]);
    let before = event_total(&env);
    for (var, value) in cases {
        refused_under(&env, &seal_args(&export), var, value);
        assert_eq!(event_total(&env), before, "{var}: nothing recorded");
    }
    seal(&env, &export);
}

/// (b) The forwarding module loads and works (keys init and a seal through it, its
/// `C_GenerateRandom` answering from the queue), and `software.start` names it: its configured
/// path and the hash of its bytes, SoftHSM's `C_GetInfo` and token, and the mapped files
/// include both the forwarding module and `libsofthsm2.so`, each with its hash, and urne's own
/// executable with the hash `software` states.
#[test]
fn the_forwarding_module_works_and_software_start_records_it() {
    let nonce: Vec<u8> = (1..=32).collect();
    let env = {
        // The knobs are read at each call: queue the answers to keys init's four requests, the
        // ids (8 bytes each) of the result key pair, the audit key pair and the sealing key,
        // then the trail's nonce (32).
        let env = Env::forwarding(false);
        env.fwd_queue_random(&[
            &[7u8, 1, 2, 3, 4, 5, 6, 9],
            &[7u8, 1, 2, 3, 4, 5, 6, 10],
            &[7u8, 1, 2, 3, 4, 5, 6, 11],
            &nonce,
        ]);
        env.ok(&["keys", "init"]);
        pin_producer(&env, Path::new(URNE), &[]);
        env
    };
    assert!(
        env.fwd_log()
            .contains(&format!("random 32 file {}", hex::encode(&nonce))),
        "the trail's nonce came from the forwarding module:\n{}",
        env.fwd_log()
    );
    assert_eq!(std::fs::read_to_string(env.fwd_random()).unwrap(), "");
    let export = simulate(&env, "2018-12-01", 300, 1, &[]);
    seal(&env, &export);
    assert!(env.fwd_log().contains("sign ok"));

    let all = starts(&env);
    assert_eq!(all.len(), 3, "keys init, keys producer and seal");
    let fwd_sha = sha256_file(&env.fwd_module());
    let softhsm_sha = sha256_file(Path::new(SOFTHSM));
    for s in &all {
        let p = &s["pkcs11"];
        assert_eq!(p["module_path"], env.fwd_module().display().to_string());
        assert_eq!(p["module_sha256"], fwd_sha.as_str());
        assert_eq!(p["manufacturer"], "SoftHSM");
        assert_eq!(p["token"]["label"], "urne-dev");
        for k in ["serial", "model", "firmware"] {
            assert!(!p["token"][k].as_str().unwrap().is_empty(), "{k}");
        }
        let m = mapped(p, &env.fwd_module()).expect("the forwarding module is mapped");
        assert_eq!(
            (&m["status"], &m["sha256"]),
            (&"present".into(), &fwd_sha.as_str().into())
        );
        let m = mapped(p, Path::new(SOFTHSM)).expect("libsofthsm2.so is mapped");
        assert_eq!(m["sha256"], softhsm_sha.as_str());
        let m = mapped(p, Path::new(URNE)).expect("urne itself is mapped");
        assert_eq!(m["sha256"], s["software"]["executable_sha256"]);
        let names: Vec<&str> = p["mapped"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["path"].as_str().unwrap())
            .collect();
        assert!(names.iter().any(|n| n.contains("libc.so")), "{names:?}");
        assert!(names.iter().all(|n| n.starts_with('/')), "{names:?}");
    }

    // The module's C_Sign failing (the knob the lead's tests use): the command stops, exit 3.
    env.fwd_set_sign_fail(true);
    let other = simulate(&env, "2018-12-08", 300, 2, &[]);
    let out = env.cmd().args(seal_args(&other)).output().unwrap();
    assert_fails(&out, 3, "hsm-unavailable");
    assert!(env.fwd_log().contains("sign failed"));
    env.fwd_set_sign_fail(false);
    seal(&env, &other);
}

/// Writes `module_sha256` into the environment's configuration (`None`: removes it).
fn pin(env: &Env, sha: Option<&str>) {
    let p = env.path("urne.json");
    let mut cfg: Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
    let o = cfg.as_object_mut().unwrap();
    match sha {
        Some(h) => o.insert("module_sha256".into(), h.into()),
        None => o.remove("module_sha256"),
    };
    std::fs::write(&p, serde_json::to_vec_pretty(&cfg).unwrap()).unwrap();
}

/// (c) A pinned hash that is not the module's is refused before the module is loaded, naming
/// both hashes (exit 3, nothing recorded); the matching pin works and `urne hsm info` says so;
/// a pin that is not a SHA-256 is a bad configuration (exit 2).
#[test]
fn a_pinned_module_hash_must_be_the_modules() {
    let env = Env::new();
    let export = simulate(&env, "2018-12-01", 300, 1, &[]);
    let real = sha256_file(Path::new(SOFTHSM));
    let wrong = hex::encode(urne_verify::crypto::sha256(b"another module"));
    pin(&env, Some(&wrong));
    let before = event_total(&env);
    for args in [
        vec!["hsm".to_string(), "info".to_string()],
        seal_args(&export),
    ] {
        let out = env.cmd().args(&args).output().unwrap();
        let err = assert_fails(&out, 3, "module-refused");
        // Both digests, and the setting that pins the module.
        assert_names(&err, &[&real, &wrong, "module_sha256"]);
    }
    assert_eq!(event_total(&env), before, "nothing recorded");
    // The pin applies to the module the environment names too.
    let out = env
        .cmd()
        .args(["hsm", "info"])
        .env("URNE_HSM_MODULE", SOFTHSM)
        .output()
        .unwrap();
    assert_fails(&out, 3, "module-refused");

    pin(&env, Some(&real));
    let info = env.ok(&["hsm", "info"]);
    // Its SHA-256 under the label that says it is pinned, in groups of four digits.
    assert_eq!(
        hash_under(&info, "SHA-256 (the configuration's module_sha256):"),
        real,
        "{info}"
    );
    seal(&env, &export);
    let s = starts(&env);
    assert_eq!(s.last().unwrap()["pkcs11"]["module_sha256"], real.as_str());

    pin(&env, Some("ABCD"));
    assert_fails(&env.urne(&["hsm", "info"]), 2, "config-invalid");
    pin(&env, None);
    let info = env.ok(&["hsm", "info"]);
    assert_eq!(hash_under(&info, "SHA-256 (not pinned"), real, "{info}");
}

/// The SHA-256 `urne hsm info` shows under the line holding `label`, its groups joined.
fn hash_under(info: &str, label: &str) -> String {
    let mut lines = info.lines().skip_while(|l| !l.contains(label)).skip(1);
    (0..2)
        .filter_map(|_| lines.next())
        .flat_map(str::split_whitespace)
        .collect()
}

/// (d) The module recorded is the module loaded: the forwarding module renames other bytes
/// over its own file at `C_Initialize`, after urne hashed it and loaded it from that descriptor.
/// `software.start` still names the bytes loaded (not what the path now holds), and the mapped
/// entry says the file is deleted, with the loaded bytes' hash. The next command, which opens
/// the path anew, gets the other bytes and refuses them. (The race before loading, the path
/// swapped between the hash and the load, is the unit test
/// `the_module_loaded_is_the_one_hashed_even_if_the_path_is_swapped` in
/// `src/edge/hsm/module.rs`.)
#[test]
fn the_module_recorded_is_the_one_loaded_even_if_its_file_is_swapped() {
    let env = Env::forwarding(true);
    let loaded = sha256_file(&env.fwd_module());
    let swap = env.path("other.so");
    std::fs::copy(rand_stub(), &swap).unwrap();
    let export = simulate(&env, "2018-12-01", 300, 1, &[]);
    let out = env
        .cmd()
        .args(seal_args(&export))
        .env("URNE_TEST_FWD_SWAP_FROM", &swap)
        .env("URNE_TEST_FWD_SWAP_TO", env.fwd_module())
        .output()
        .unwrap();
    // The marks are read back after each mark by a new process of urne loading the module under
    // the hash this command loaded: the swapped file is refused there, before it is given the
    // PIN, and the command stops.
    assert_fails(&out, 3, "module-refused");
    assert!(env.fwd_log().contains("swapped"), "{}", env.fwd_log());
    let now = sha256_file(&env.fwd_module());
    assert_ne!(now, loaded);
    let s = starts(&env);
    let p = &s.last().unwrap()["pkcs11"];
    assert_eq!(p["module_sha256"], loaded.as_str());
    let m = mapped(p, &env.fwd_module()).expect("the loaded module is mapped");
    assert_eq!(m["status"], "deleted");
    assert_eq!(m["sha256"], loaded.as_str());
    let out = env.urne(&["hsm", "info"]);
    assert_fails(&out, 3, "module-refused");
}

/// What the start check cannot refuse, it records: a copy of urne patched to load a library
/// itself (here libfaketime, as the clock tests do) runs, and its `software.start` names another
/// executable than urne's and lists the library among the mapped files.
#[test]
fn a_binary_patched_to_load_a_library_runs_but_is_recorded() {
    let env = Env::new();
    let export = simulate(&env, "2018-12-01", 300, 1, &[]);
    let out = env
        .cmd_of(faketime_urne())
        .args(seal_args(&export))
        .env("FAKETIME", "+0")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s = starts(&env);
    let last = s.last().unwrap();
    assert_eq!(last["command"], "seal");
    assert_ne!(
        last["software"]["executable_sha256"],
        sha256_file(Path::new(URNE)).as_str()
    );
    let m = mapped(&last["pkcs11"], Path::new(LIBFAKETIME)).expect("libfaketime is recorded");
    assert_eq!(m["sha256"], sha256_file(Path::new(LIBFAKETIME)).as_str());
}
