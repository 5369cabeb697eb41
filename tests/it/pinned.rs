//! The official rules are pinned (issue 11, "inputs pinned"): a doctored rules file that keeps
//! an official operation or game id is refused before anything is sealed or generated; the
//! official files are accepted and said to be so.

use crate::common::*;
use crate::draws::simulate;

/// The official rules file with one figure changed, under the same operation or game id.
fn doctored(env: &Env, official: &str, from: &str, to: &str) -> std::path::PathBuf {
    let text = std::fs::read_to_string(root().join(official)).unwrap();
    assert!(text.contains(from), "{from} not in {official}");
    let p = env.path("doctored.json");
    std::fs::write(&p, text.replacen(from, to, 1)).unwrap();
    p
}

#[test]
fn a_doctored_rules_file_under_an_official_id_is_refused() {
    let env = Env::new();
    let export = simulate(&env, "2018-12-04", 200, 3, &[]);
    let before = event_total(&env);
    let rules = doctored(
        &env,
        "rules/chanceux-noel-2018.json",
        "\"tranche_cents\": 1000",
        "\"tranche_cents\": 1001",
    );
    let o = env.urne(&[
        "seal",
        "--rules",
        rules.to_str().unwrap(),
        "--entries",
        export.to_str().unwrap(),
    ]);
    let err = assert_fails(&o, 2, "rules-not-official");
    assert_names(
        &err,
        &["4219ce2a0d422719e3288cf9603b4732d516544f05f8b0ba090426be0025f410"],
    );
    assert_eq!(events(&env, "draw.seal"), 0);
    assert!(
        event_total(&env) > before,
        "the refusal is on record, after the check"
    );
    // The official file seals, and says it is the official one.
    let o = env.urne(&[
        "seal",
        "--rules",
        root()
            .join("rules/chanceux-noel-2018.json")
            .to_str()
            .unwrap(),
        "--entries",
        export.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The note on the screen that the file is the official one: its words are what is tested.
    assert!(String::from_utf8_lossy(&o.stderr).contains("the official file, SHA-256"));
    // A block of the official game from a doctored table: refused, no entropy asked for.
    let game = doctored(
        &env,
        "rules/noel-de-la-chance-2015.json",
        "\"block_size\": 800000",
        "\"block_size\":  800000",
    );
    let o = env.urne(&[
        "block",
        "generate",
        "--rules",
        game.to_str().unwrap(),
        "--price",
        "100",
        "--emission",
        "e1",
        "--first",
        "1",
        "--blocks",
        "1",
        "--out",
        "blocks",
        "--secret-out",
        "blocks-secret",
    ]);
    assert_fails(&o, 2, "rules-not-official");
    assert_eq!(events(&env, "block.entropy"), 0);
}

fn events(env: &Env, kind: &str) -> i64 {
    rusqlite::Connection::open(env.db())
        .unwrap()
        .query_row("SELECT COUNT(*) FROM events WHERE kind = ?1", [kind], |r| {
            r.get(0)
        })
        .unwrap()
}

#[test]
fn a_block_interrupted_after_its_entropy_resumes_only_under_the_rules_it_was_started_with() {
    // The state a kill leaves after the entropy was recorded: here the commissaire's
    // contribution is refused three times (too short), after the entropy was recorded. (The
    // output folders are checked before the entropy is asked for, so a file in the way no
    // longer makes a run stop after it.)
    let env = Env::new();
    let rules = crate::block_cli::small_rules(&env);
    let args = crate::outputs::generate_args(&rules, "1", "out");
    let o = env
        .cmd_of(&root().join("scripts/pty-type"))
        .args(["--on", TYPE_BACK, "--send-match"])
        .args(["--on", CONTRIBUTION_PROMPT, "--send", "x", "--"])
        .arg(URNE)
        .args(&args)
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert_eq!(events(&env, "block.entropy"), 1);
    assert_eq!(events(&env, "block.contribution"), 0);
    // A variant of the rules (same game, same table, other bytes): another seed, another deck.
    let variant = env.path("variant.json");
    let mut bytes = std::fs::read(&rules).unwrap();
    bytes.extend_from_slice(b"\n");
    std::fs::write(&variant, bytes).unwrap();
    let vargs = crate::outputs::generate_args(&variant, "1", "out2");
    assert_fails(&env.urne(&vargs), 4, "rules-differ");
    assert_eq!(events(&env, "block.entropy"), 1, "no new entropy");
    // Under the rules it was started with, it resumes and verifies.
    env.ok(&args);
    assert_eq!(events(&env, "block.entropy"), 1);
    env.ok(&["keys", "export", "--out", "keys"]);
    env.ok(&["verify", "out", "--keys", "keys"]);
}
