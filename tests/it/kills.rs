//! A kill -9 at any moment of `urne seal`, `urne block reveal` or `urne void` (issue 10, "Done
//! when", second bullet; the same for `block generate` and `draw` is in `outputs`): the trail
//! still verifies, the next run completes or is refused as already done (exit 4), and what comes
//! out is what an unkilled run gives: one seal per attempt with the export's commitment, one
//! reveal per block that matches its commitment, one void per attempt, announced by one recorded
//! void notice, after which the day is sealed and drawn again. `URNE_KILL_RUNS` sets the number of kills per command (8 by default;
//! `scripts/crash` runs more and prints the figures).

use crate::block_cli::small_rules;
use crate::common::*;
use crate::draws::{seal, simulate};
use crate::outputs::*;
use std::time::Instant;

const DEFAULT_RUNS: usize = 8;

/// The trail passes `urne audit verify` (exit 0).
fn audit_ok(env: &Env) {
    env.ok(&["audit", "verify"]);
}

/// How many events of `kind` have `field` equal to `value` in their payload.
fn count_where(env: &Env, kind: &str, field: &str, value: &serde_json::Value) -> usize {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let mut st = c
        .prepare("SELECT payload FROM events WHERE kind = ?1")
        .unwrap();
    st.query_map([kind], |r| r.get::<_, String>(0))
        .unwrap()
        .map(|p| serde_json::from_str::<serde_json::Value>(&p.unwrap()).unwrap())
        .filter(|v| &v[field] == value)
        .count()
}

/// Re-runs `args` after a kill: it completes, or is refused as already done (exit 4) when
/// `done` says the kill came after the command's work was recorded. True when refused.
fn rerun(env: &Env, args: &[&str], done: bool) -> bool {
    let o = env.urne(args);
    if done && o.status.code() == Some(4) {
        return true;
    }
    assert!(
        o.status.success(),
        "urne {args:?} after a kill ({:?}): {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    false
}

const DAY: &str = "2018-12-04";

fn seal_args(export: &str) -> Vec<String> {
    let rules = root().join("rules/chanceux-noel-2018.json");
    [
        "seal",
        "--rules",
        rules.to_str().unwrap(),
        "--entries",
        export,
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn a_kill_at_any_moment_of_a_seal_leaves_one_seal_with_the_same_commitment() {
    let env = Env::new();
    let export = simulate(&env, DAY, 3000, 31, &[]);
    let a = seal_args(export.to_str().unwrap());
    let args: Vec<&str> = a.iter().map(String::as_str).collect();
    let t = Instant::now();
    env.ok(&args);
    let span = t.elapsed().as_millis() as u64 * 12 / 10;
    let commitment = last_payload(&env, "draw.seal")["commitment"].clone();
    let mut d = Delays::new();
    let (mut sealed, mut refused, mut done) = (0, 0, 0);
    let runs = kill_runs_or(DEFAULT_RUNS);
    for i in 0..runs {
        let attempt = serde_json::json!(i + 2);
        env.ok(&["void", "--day", DAY, "--reason", "kill test run"]);
        if run_and_kill(&env, &args, d.below(span)) {
            done += 1;
        }
        audit_ok(&env);
        let before = count_where(&env, "draw.seal", "attempt", &attempt);
        sealed += before;
        refused += usize::from(rerun(&env, &args, before == 1));
        audit_ok(&env);
        assert_eq!(count_where(&env, "draw.seal", "attempt", &attempt), 1);
        assert_eq!(count(&env, "draw.seal"), i + 2, "one seal per attempt");
        let p = last_payload(&env, "draw.seal");
        assert_eq!(p["attempt"], attempt);
        assert_eq!(p["commitment"], commitment, "the export's commitment");
    }
    assert_eq!(count(&env, "draw.entropy"), 0, "a seal asks for no entropy");
    env.ok(&["draw", "--day", DAY, "--witness", "w", "--out", "out"]);
    eprintln!(
        "seal: {runs} kills; {sealed} had recorded the seal (the re-run refused {refused} of them \
         as already sealed), {done} had finished; every attempt sealed once with the same \
         commitment and the trail verified after every kill; SoftHSM's token folder put back \
         after {} kills so far",
        TOKEN_RESTORES.load(std::sync::atomic::Ordering::Relaxed)
    );
}

#[test]
fn a_kill_at_any_moment_of_a_void_leaves_one_void_and_the_day_sealed_and_drawn_again() {
    let env = Env::new();
    let export = simulate(&env, DAY, 400, 32, &[]);
    seal(&env, &export);
    let args = ["void", "--day", DAY, "--reason", "kill test run"];
    // The timing void, and the attempt it opens.
    let t = Instant::now();
    env.ok(&args);
    let span = t.elapsed().as_millis() as u64 * 12 / 10;
    seal(&env, &export);
    let mut d = Delays::new();
    let (mut voided, mut refused, mut done) = (0, 0, 0);
    let runs = kill_runs_or(DEFAULT_RUNS);
    for i in 0..runs {
        let attempt = serde_json::json!(i + 2);
        if i % 2 == 1 {
            // Every other attempt is drawn before its void.
            env.ok(&[
                "draw",
                "--day",
                DAY,
                "--witness",
                "w",
                "--out",
                &format!("d{i}"),
            ]);
        }
        if run_and_kill(&env, &args, d.below(span)) {
            done += 1;
        }
        audit_ok(&env);
        let before = count_where(&env, "draw.void", "attempt", &attempt);
        voided += before;
        refused += usize::from(rerun(&env, &args, before == 1));
        audit_ok(&env);
        assert_eq!(count_where(&env, "draw.void", "attempt", &attempt), 1);
        assert_eq!(count(&env, "draw.void"), i + 2, "one void per attempt");
        // Its notice is in place and recorded once (written, or recorded as the kill left it).
        let notice = format!("void-{DAY}-attempt-{}/void-notice.json", i + 2);
        assert!(env.path(&notice).exists(), "{notice}");
        let file = serde_json::json!(notice);
        assert_eq!(count_where(&env, "output.published", "file", &file), 1);
        seal(&env, &export);
        assert_eq!(last_payload(&env, "draw.seal")["attempt"], i + 3);
    }
    let r = env.ok(&["draw", "--day", DAY, "--witness", "w", "--out", "last"]);
    let res: serde_json::Value =
        serde_json::from_slice(&std::fs::read(env.path("last/result.json")).unwrap()).unwrap();
    assert_eq!(res["attempt"], runs + 2, "{r}");
    env.ok(&["keys", "export", "--out", "keys"]);
    env.ok(&["verify", "last", "--keys", "keys"]);
    // Every draw and every void notice of the run, together: one linear history, no gap.
    let all = env.ok(&["verify", env.dir.path().to_str().unwrap(), "--keys", "keys"]);
    assert!(all.contains("one linear history"), "{all}");
    eprintln!(
        "void: {runs} kills; {voided} had recorded the void (the re-run refused {refused} of them \
         as already void and announced the others), {done} had finished; every attempt voided \
         once with one recorded notice, then sealed and drawn again, the trail verified after \
         every kill, and every draw and notice form one history; SoftHSM's token folder put back after {} \
         kills so far",
        TOKEN_RESTORES.load(std::sync::atomic::Ordering::Relaxed)
    );
}

#[test]
fn a_kill_at_any_moment_of_a_reveal_leaves_one_reveal_that_matches_the_commitment() {
    let env = Env::new();
    let rules = small_rules(&env);
    env.ok(&["keys", "export", "--out", "keys"]);
    let result_pub = env.path("keys/result.pub.pem");
    let runs = kill_runs_or(DEFAULT_RUNS);
    let blocks = (runs + 1).to_string();
    let mut g = generate_args(&rules, "1", "out");
    let n = g.iter().position(|a| *a == "--blocks").unwrap();
    g[n + 1] = &blocks;
    env.ok(&g);
    let id = |n: usize| format!("{GAME}/100/t1/{n}");
    let t = Instant::now();
    env.ok(&["block", "reveal", "--block", &id(runs + 1), "--out", "out"]);
    let span = t.elapsed().as_millis() as u64 * 12 / 10;
    let mut d = Delays::new();
    let (mut recorded, mut partial, mut done) = (0, 0, 0);
    for i in 1..=runs {
        let b = id(i);
        let args = ["block", "reveal", "--block", &b, "--out", "out"];
        if run_and_kill(&env, &args, d.below(span)) {
            done += 1;
        }
        audit_ok(&env);
        assert_whole(&env.path("out"), &result_pub);
        let name = format!("{}.reveal.json", b.replace('/', "_"));
        let file = env.path("out").join(&name);
        partial += usize::from(!file.exists() && has_any(&env, &name));
        let bv = serde_json::json!(b);
        let before = count_where(&env, "block.revealed", "block", &bv);
        recorded += before;
        rerun(&env, &args, file.exists());
        audit_ok(&env);
        assert_eq!(count_where(&env, "block.revealed", "block", &bv), 1);
        let rv: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        let p = last_payload(&env, "block.revealed");
        assert_eq!((&rv["entropy"], &rv["seed"]), (&p["entropy"], &p["seed"]));
        assert_whole(&env.path("out"), &result_pub);
    }
    assert_eq!(count(&env, "block.revealed"), runs + 1);
    let v = env.ok(&["verify", "out", "--keys", "keys"]);
    assert!(v.contains("recomputed from the revealed seed"), "{v}");
    eprintln!(
        "block reveal: {runs} kills; {recorded} had recorded the reveal, {partial} left a staged \
         reveal file, {done} had finished; every re-run wrote the recorded seed once and the \
         folder verifies; SoftHSM's token folder put back after {} kills so far",
        TOKEN_RESTORES.load(std::sync::atomic::Ordering::Relaxed)
    );
}

/// A staging folder under `out` holds `name`.
fn has_any(env: &Env, name: &str) -> bool {
    std::fs::read_dir(env.path("out")).is_ok_and(|rd| {
        rd.filter_map(|e| e.ok())
            .any(|e| e.path().is_dir() && e.path().join(name).exists())
    })
}
