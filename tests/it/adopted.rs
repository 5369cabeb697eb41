//! One output per attempt, recorded or adopted, never two (issue 22 item 4, spec/appliance.md §6.7), for
//! the draw and for a sitting's minutes, deterministically: a run stopped right after its output
//! was placed and before its publication was recorded (the child hooks below, which run urne's
//! own code through its library and stop there), then the re-runs. The same --out records the
//! output found whole as published (one publication event, the files unchanged byte for byte,
//! `urne verify` passes, no second folder); another --out, or a part of the output, is refused
//! (exit 4) naming the recorded folder, and records nothing. A fresh attempt's --out that is not
//! empty is refused recording nothing too, and a reveal is refused in another folder than the
//! one its placing recorded. (The void notice's: `tests/it/void_notice.rs`.)

use crate::block_cli::small_rules;
use crate::common::*;
use crate::draws::{seal, simulate};
use crate::outputs::{GAME, count, generate_args, last_payload};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Output;

const DAY: &str = "2018-12-04";

/// Every entry of the folder `dir`, by name, with its bytes.
fn files_of(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            (name, std::fs::read(e.path()).unwrap())
        })
        .collect()
}

/// The folders of the env holding a file named `primary`, at any depth below `under`.
fn holding(under: &Path, primary: &str) -> Vec<String> {
    let mut found = vec![];
    for e in std::fs::read_dir(under).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() && !p.is_symlink() {
            if p.join(primary).exists() {
                found.push(p.display().to_string());
            }
            found.extend(holding(&p, primary));
        }
    }
    found
}

/// The child hook `hook` of this test binary, with `var` set to `value`: on a pseudo-terminal
/// where the commissaire types the contribution when `typed` (as `urne draw` asks for it).
fn child(env: &Env, hook: &str, (var, value): (&str, &str), typed: bool) -> Output {
    let mut c = if typed {
        let mut c = env.cmd_of(&root().join("scripts/pty-type"));
        c.args(["--on", TYPE_BACK, "--send-match"])
            .args(["--on", CONTRIBUTION_PROMPT, "--send", CONTRIBUTION])
            .args(["--on", YES_NO, "--send", "oui", "--"])
            .arg(std::env::current_exe().unwrap());
        c
    } else {
        env.cmd_of(&std::env::current_exe().unwrap())
    };
    let o = c
        .args([hook, "--exact", "--nocapture", "--test-threads=1"])
        .env(var, value)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{hook}:\n{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

#[test]
fn a_draw_placed_by_a_stopped_run_is_adopted_whole_once_and_never_placed_twice() {
    let env = Env::new();
    let export = simulate(&env, DAY, 300, 43, &[]);
    seal(&env, &export);
    env.ok(&["keys", "export", "--out", "keys"]);
    // A fresh attempt: an --out holding anything is refused, and nothing is recorded (not even
    // the command's start): its folder is judged before anything is.
    std::fs::create_dir(env.path("full")).unwrap();
    std::fs::write(env.path("full/notes.txt"), b"kept\n").unwrap();
    let total = event_total(&env);
    assert_fails(&env.draw(DAY, "full"), 4, "output-folder-not-empty");
    assert_eq!(event_total(&env), total, "a refused --out records nothing");
    // A run stopped after its folder was placed whole, before `draw.published` was recorded.
    child(
        &env,
        "adopted::draw_place_only_child_hook",
        ("URNE_TEST_DRAW_PLACE_ONLY", &format!("{DAY} d1")),
        true,
    );
    let d1 = env.path("d1");
    assert!(d1.join("manifest.json").exists(), "placed whole");
    assert_eq!(count(&env, "output.placing"), 1);
    assert_eq!(count(&env, "draw.published"), 0, "placed, not recorded");
    let placed = files_of(&d1);
    let results = count(&env, "draw.result");
    // (b) Another --out: refused, naming the recorded folder; nothing recorded or written.
    let total = event_total(&env);
    let o = env.draw(DAY, "other");
    let err = assert_fails(&o, 4, "output-conflict");
    assert_names(&err, &["d1"]);
    assert_names(&hint_of(&o), &["--out d1"]);
    assert_eq!(event_total(&env), total, "the refusal records nothing");
    assert!(!env.path("other").exists());
    // (c) A part of the output (one file gone): refused, nothing recorded; put back, unchanged.
    std::fs::rename(d1.join("pv.html"), env.path("pv.html.aside")).unwrap();
    let err = assert_fails(&env.draw(DAY, "d1"), 4, "output-conflict");
    assert_names(&err, &["d1"]);
    assert_eq!(event_total(&env), total, "the refusal records nothing");
    std::fs::rename(env.path("pv.html.aside"), d1.join("pv.html")).unwrap();
    assert_eq!(files_of(&d1), placed);
    // (a) The same --out: the folder found whole is recorded as published, as it is.
    let shown = env.draw_ok(DAY, "d1");
    assert!(shown.contains("was already whole in place"), "{shown}");
    assert_eq!(count(&env, "draw.published"), 1);
    assert_eq!(count(&env, "output.placing"), 1, "nothing placed again");
    assert_eq!(count(&env, "draw.result"), results, "the result drawn once");
    assert_eq!(files_of(&d1), placed, "not rewritten");
    let p = last_payload(&env, "draw.published");
    let bundle = urne_verify::crypto::sha256(&placed["bundle.json"]).to_string();
    assert_eq!(p["output"]["sha256"], bundle.as_str());
    assert_eq!(p["out"], "d1");
    env.ok(&["verify", "d1", "--keys", "keys"]);
    assert_eq!(
        holding(env.dir.path(), "bundle.json"),
        [d1.display().to_string()],
        "one folder"
    );
    // Once: the day is drawn.
    assert_fails(&env.draw(DAY, "d1"), 4, "day-already-drawn");
    assert_eq!(count(&env, "draw.published"), 1);
    env.ok(&["audit", "verify", "--keys", "audit-keys"]);
}

/// The child side of the test above: the draw of the day and folder `URNE_TEST_DRAW_PLACE_ONLY`
/// (`DAY OUT`) through urne's own code, stopped once its output is placed, before its publication
/// is recorded (what a kill between the two leaves); does nothing unless that variable is set.
#[test]
fn draw_place_only_child_hook() {
    let Ok(spec) = std::env::var("URNE_TEST_DRAW_PLACE_ONLY") else {
        return;
    };
    let (day, out) = spec.split_once(' ').unwrap();
    let mut ctx = begun("draw");
    let a = urne::cmd::draw::DrawArgs {
        day: day.parse().unwrap(),
        out: out.into(),
    };
    urne::cmd::draw::place_only(&mut ctx, &a)
        .map_err(|e| e.message)
        .unwrap();
}

/// `urne ceremony --out OUT`, the PIN typed at its prompt: with nothing planned and no sitting
/// open, it publishes a closed sitting's minutes only.
fn ceremony(env: &Env, out: &str) -> Output {
    let mut o = env
        .cmd_of(&root().join("scripts/pty-type"))
        .env_remove("URNE_PIN")
        .env("LANG", "fr_FR.UTF-8")
        .args(["--timeout", "60"])
        .args(["--expect", "code PIN de l'HSM", "--send", &env.pin(), "--"])
        .arg(URNE)
        .args(["ceremony", "--out", out])
        .output()
        .unwrap();
    o.stderr = o.stdout.clone();
    o
}

#[test]
fn the_minutes_placed_by_a_stopped_run_are_adopted_whole_once_and_never_placed_twice() {
    let env = Env::new();
    env.ok(&["keys", "export", "--out", "keys"]);
    // A sitting closed by a run stopped after its minutes were placed under pub/, before their
    // publication was recorded.
    child(
        &env,
        "adopted::minutes_place_only_child_hook",
        ("URNE_TEST_MINUTES_PLACE_ONLY", "pub"),
        false,
    );
    let dir = env.path("pub/sitting-001");
    assert!(dir.join("sitting.json").exists(), "placed whole");
    assert_eq!(count(&env, "output.placing"), 1);
    assert_eq!(count(&env, "output.published"), 0, "placed, not recorded");
    let placed = files_of(&dir);
    // (b) Another publications folder: refused, naming the recorded folder; nothing recorded.
    let total = event_total(&env);
    let err = assert_fails(&ceremony(&env, "pub2"), 4, "output-conflict");
    assert_names(&err, &["pub/sitting-001"]);
    assert_eq!(event_total(&env), total, "the refusal records nothing");
    assert!(!env.path("pub2").exists());
    // (c) A part of the output (the minutes gone): refused, nothing recorded.
    std::fs::rename(dir.join("minutes.html"), env.path("minutes.aside")).unwrap();
    let err = assert_fails(&ceremony(&env, "pub"), 4, "output-conflict");
    assert_names(&err, &["pub/sitting-001"]);
    assert_eq!(event_total(&env), total, "the refusal records nothing");
    std::fs::rename(env.path("minutes.aside"), dir.join("minutes.html")).unwrap();
    assert_eq!(files_of(&dir), placed);
    // (a) The same publications folder: the minutes found whole are recorded as they are.
    let o = ceremony(&env, "pub");
    let shown = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{shown}");
    assert!(
        // The sitting speaks French (LANG): said in French.
        shown.contains("était déjà complet dans pub/sitting-001"),
        "{shown}"
    );
    // The minutes' SHA-256 to write by hand on the paper copy, as a close that did not stop
    // shows it (spec/appliance.md §9.4).
    let minutes = urne_verify::crypto::sha256(&placed["minutes.html"]).to_string();
    let grouped = urne_ceremony::minutes::words::grouped(&minutes);
    let by_hand = shown
        .find("▶ À ÉCRIRE À LA MAIN")
        .expect("the minutes' hash, by hand");
    assert!(shown[by_hand..].contains(&grouped[..39]), "{shown}");
    assert_eq!(count(&env, "output.published"), 1);
    assert_eq!(count(&env, "output.placing"), 1, "nothing placed again");
    assert_eq!(files_of(&dir), placed, "not rewritten");
    let p = last_payload(&env, "output.published");
    assert_eq!(p["file"], "sitting-001/sitting.json");
    let sha = urne_verify::crypto::sha256(&placed["sitting.json"]).to_string();
    assert_eq!(p["sha256"], sha.as_str());
    env.ok(&["verify", "pub/sitting-001", "--keys", "keys"]);
    assert_eq!(
        holding(env.dir.path(), "sitting.json"),
        [dir.display().to_string()],
        "one folder"
    );
    // Once: nothing is left to publish, and nothing is planned.
    assert_fails(&ceremony(&env, "pub"), 2, "nothing-planned");
    assert_eq!(count(&env, "output.published"), 1);
    env.ok(&["audit", "verify", "--keys", "audit-keys"]);
}

/// The child side of the test above: a sitting opened and closed through urne's own records,
/// then its minutes placed under the publications folder `URNE_TEST_MINUTES_PLACE_ONLY` through
/// urne's own code, their publication not recorded (what a kill between the two leaves); does
/// nothing unless that variable is set.
#[test]
fn minutes_place_only_child_hook() {
    use urne_verify::sitting::{ClosedRecord, Commissaire, OpenedRecord, Person, SittingKind};
    let Ok(out) = std::env::var("URNE_TEST_MINUTES_PLACE_ONLY") else {
        return;
    };
    let mut ctx = begun("ceremony");
    ctx.record(OpenedRecord {
        number: 1,
        kind: SittingKind::Sitting,
        place: "Paris".into(),
        town: "Paris".into(),
        commissaire: Commissaire {
            name: "Maître Claire Dupont".into(),
            office: "Étude Dupont".into(),
        },
        present: vec![Person {
            name: "Jean Martin".into(),
            role: "opérateur".into(),
        }],
        lang: "fr".into(),
        plan: vec![],
    })
    .map_err(|e| e.message)
    .unwrap();
    ctx.record(ClosedRecord { number: 1 })
        .map_err(|e| e.message)
        .unwrap();
    let placed = urne::cmd::ceremony::place_pending_only(&mut ctx, Path::new(&out))
        .map_err(|e| e.message)
        .unwrap();
    assert!(placed);
}

#[test]
fn a_reveal_run_again_into_another_folder_than_its_recorded_placing_is_refused() {
    let env = Env::new();
    let rules = small_rules(&env);
    env.ok(&generate_args(&rules, "1", "out"));
    let block = format!("{GAME}/100/t1/1");
    let name = format!("{}.reveal.json", block.replace('/', "_"));
    // A run stopped while placing the block's reveal recorded its folder, r1.
    let placing = serde_json::json!({
        "out": "r1",
        "file": name,
        "subject": {"reveal": {"block": block, "attempt": 1}},
        "files": {name.clone(): "00".repeat(32)},
    });
    append_as_urne(&env, &[("output.placing", placing)]);
    let total = event_total(&env);
    let closed = sales_close(&env, &block);
    let args = |out: &'static str| {
        [
            "block",
            "reveal",
            "--block",
            &block,
            "--sales-closed-at",
            &closed,
            "--out",
            out,
        ]
        .map(String::from)
    };
    let a = args("r2");
    let o = env.urne(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let err = assert_fails(&o, 4, "output-conflict");
    assert_names(&err, &["r1"]);
    assert_eq!(count(&env, "block.revealed"), 0, "nothing revealed");
    assert_eq!(count(&env, "output.published"), 0);
    assert!(!env.path("r2").exists());
    assert_eq!(event_total(&env), total, "the refusal records nothing");
}
