//! Official, or said so in words (issue 23, item 1; spec/appliance.md §7.4): rules whose id is not a pinned
//! official regulation are refused unless `--unofficial-rules` says so; at a sitting the
//! commissaire types their id back; every output made under them carries
//! `"unofficial_rules": true`, its minutes say "règlement non officiel", and both verifiers name
//! them on the verdict's first line. The attack reproduced: the official game's table copied
//! under the id `noel-de-la-chance-20l5` (a letter l) with 85% fewer winning tickets.

use crate::common::*;
use crate::figures::{DAY, export, play, producer_id, producer_pub, python_verify, write_signed};
use serde_json::Value;
use std::path::PathBuf;
use std::process::Output;

/// The look-alike game id of the attack: `20l5`, a letter l.
const LOOKALIKE: &str = "noel-de-la-chance-20l5";

/// What the verdict's first line says of unofficial rules (spec/formats.md §8.1).
const WORDS: &str = "règlement non officiel / unofficial rules";

/// The attack's rules: the official game's table under [`LOOKALIKE`], 85% fewer winning tickets
/// (blocks of 2,000 tickets, so that the debug run stays short).
fn lookalike_rules(env: &Env) -> PathBuf {
    let official = urne_verify::rules::game::GameRules::from_json(
        &std::fs::read(root().join("rules/noel-de-la-chance-2015.json")).unwrap(),
    )
    .unwrap();
    let bytes = urne_verify::rules::game::reduced_rules_json(
        &official,
        LOOKALIKE,
        2000,
        [1, 1, 1, 6, 9, 37, 22],
    );
    let p = env.path("lookalike.json");
    std::fs::write(&p, bytes).unwrap();
    p
}

fn generate_args(rules: &str) -> Vec<&str> {
    vec![
        "block",
        "generate",
        "--rules",
        rules,
        "--price",
        "100",
        "--emission",
        "t1",
        "--out",
        "blocks",
        "--secret-out",
        "blocks-secret",
    ]
}

fn count(env: &Env, kind: &str) -> i64 {
    rusqlite::Connection::open(env.db())
        .unwrap()
        .query_row("SELECT COUNT(*) FROM events WHERE kind = ?1", [kind], |r| {
            r.get(0)
        })
        .unwrap()
}

fn json(p: PathBuf) -> Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

/// The first line of standard output of both verifiers on `args`, each having exited 0.
fn first_lines(env: &Env, args: &[&str]) -> (String, String) {
    let first = |o: Output, who: &str| {
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(
            o.status.success(),
            "{who}: {out}{}",
            String::from_utf8_lossy(&o.stderr)
        );
        out.lines().next().unwrap_or_default().to_string()
    };
    let mut urne = vec!["verify"];
    urne.extend(args);
    (
        first(env.urne_direct(&urne), "urne verify"),
        first(python_verify(env, args), "urne_verify.py"),
    )
}

#[test]
fn the_20l5_attack_is_refused_without_the_option_and_named_everywhere_with_it() {
    let env = Env::new();
    let rules = lookalike_rules(&env);
    let rules = rules.to_str().unwrap();
    let before = event_total(&env);
    let err = assert_fails(&env.urne(&generate_args(rules)), 2, "rules-not-official");
    assert_names(&err, &[LOOKALIKE]);
    let o = env.urne_direct(&generate_args(rules));
    assert_names(&hint_of(&o), &["--unofficial-rules"]);
    assert_eq!(count(&env, "block.entropy"), 0, "no entropy asked for");
    assert!(
        event_total(&env) > before,
        "the refusal is on record, as a doctored file's"
    );
    assert!(!env.path("blocks").exists());
    // Said so: generated, and every output says it.
    let mut args = generate_args(rules);
    args.push("--unofficial-rules");
    let shown = String::from_utf8_lossy(&env.urne(&args).stdout).into_owned();
    // The screen says so in its own language (English here), with the rules file's SHA-256.
    assert!(
        shown.contains("which is not an official regulation of this appliance: unofficial rules"),
        "{shown}"
    );
    let stem = format!("{LOOKALIKE}_100_t1_1");
    let commit = json(env.path(&format!("blocks/{stem}.commit.json")));
    assert_eq!(commit["unofficial_rules"], Value::Bool(true));
    env.ok(&["keys", "export", "--out", "keys"]);
    let (u, p) = first_lines(&env, &["blocks", "--keys", "keys"]);
    assert_eq!(u, p, "both verdicts open alike");
    assert!(
        u.starts_with(&format!(
            "VERIFIED ({WORDS}: {LOOKALIKE}): block {LOOKALIKE}/100/t1/1 attempt 1"
        )),
        "{u}"
    );
}

#[test]
fn a_draw_under_unofficial_rules_says_so_in_result_bundle_pv_and_verdicts() {
    let env = Env::new();
    let op = "chanceux-noel-20l8";
    let mut rules: Value = serde_json::from_slice(
        &std::fs::read(root().join("rules/chanceux-noel-2018.json")).unwrap(),
    )
    .unwrap();
    rules["operation"] = Value::String(op.into());
    let rules_path = env.path("lookalike-draw.json");
    std::fs::write(&rules_path, serde_json::to_vec_pretty(&rules).unwrap()).unwrap();
    let recs: Vec<String> = (100..110u32)
        .map(|n| play(&format!("n{n}"), n, 2000, "web", None))
        .collect();
    let exp = write_signed(&env.path("exports"), op, &export(op, &producer_id(), &recs));
    let seal = |more: &[&'static str]| {
        let mut a = vec![
            "seal",
            "--rules",
            rules_path.to_str().unwrap(),
            "--entries",
            exp.to_str().unwrap(),
        ];
        a.extend(more);
        env.urne(&a)
    };
    let err = assert_fails(&seal(&[]), 2, "rules-not-official");
    assert_names(&err, &[op]);
    assert_eq!(count(&env, "draw.seal"), 0);
    let o = seal(&["--unofficial-rules"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    env.draw_ok(DAY, "out");
    for f in ["result.json", "bundle.json"] {
        let v = json(env.path("out").join(f));
        assert_eq!(v["unofficial_rules"], Value::Bool(true), "{f}");
    }
    let pv = std::fs::read_to_string(env.path("out/pv.html")).unwrap();
    assert!(pv.contains("règlement non officiel"), "the PV says it");
    assert!(pv.contains(op));
    env.ok(&["keys", "export", "--out", "keys"]);
    let pem = producer_pub();
    let (u, p) = first_lines(
        &env,
        &[
            "out",
            "--keys",
            "keys",
            "--export",
            exp.to_str().unwrap(),
            "--producer-key",
            pem.to_str().unwrap(),
        ],
    );
    assert_eq!(u, p);
    assert!(
        u.starts_with(&format!(
            "VERIFIED ({WORDS}: {op}): the draw of {op} day {DAY}"
        )),
        "{u}"
    );
    // `urne status --rules` of these rules: the same option.
    assert_fails(
        &env.urne(&["status", "--rules", rules_path.to_str().unwrap()]),
        2,
        "rules-not-official",
    );
    env.ok(&[
        "status",
        "--rules",
        rules_path.to_str().unwrap(),
        "--unofficial-rules",
    ]);
}

/// `urne ceremony ARGS` on a pseudo-terminal, in English, the commissaire typing `id` back at
/// the unofficial rules' prompt (everything else answered as a sitting does).
fn sitting(env: &Env, args: &[&str], id: &str) -> Output {
    #[allow(clippy::disallowed_methods)]
    let watch = chrono::Utc::now()
        .with_timezone(&chrono_tz::Europe::Paris)
        .format("%Y-%m-%d %H:%M")
        .to_string();
    let mut c = env.cmd_of(&root().join("scripts/pty-type"));
    c.env_remove("URNE_PIN")
        .args(["--timeout", "60"])
        .args(["--on", "(?:HSM user PIN|code PIN de l'HSM)", "--send"])
        .arg(env.pin())
        .args(["--on", "(?:at your watch|à votre montre)", "--send", &watch])
        .args(["--on", UNOFFICIAL_PROMPT, "--send", id])
        .args(["--on", TYPE_BACK, "--send-match"])
        .args(["--on", CONTRIBUTION_PROMPT, "--send", CONTRIBUTION])
        .args([
            "--on",
            "(?:Type yes or no|Tapez oui ou non)",
            "--send",
            "yes",
        ])
        .args([
            "--on",
            r"(?:Your choice|Votre choix) \(1, 2, 3",
            "--send",
            "4",
        ])
        .arg("--")
        .arg(urne_bin())
        .arg("ceremony")
        .args(args);
    let mut o = c.output().unwrap();
    o.stderr = o.stdout.clone();
    o
}

#[test]
fn at_a_sitting_the_commissaire_types_the_unofficial_id_back_and_the_minutes_say_it() {
    let env = Env::new();
    let rules = lookalike_rules(&env);
    let mut args = vec![
        "--out",
        "pub",
        "--place",
        "Salle des essais, Paris",
        "--commissaire",
        "Maître Claire Dupont",
        "--office",
        "Étude Dupont",
        "--present",
        "Jean Martin, operator",
        "--game-rules",
        rules.to_str().unwrap(),
        "--price",
        "100",
        "--emission",
        "t1",
        "--secret-out",
        "medium",
    ];
    // Without the option: refused before the PIN is asked for.
    let o = sitting(&env, &args, LOOKALIKE);
    let shown = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(2), "{shown}");
    assert_names(&screen_error(&shown, "rules-not-official"), &[LOOKALIKE]);
    assert!(!shown.contains("HSM user PIN"), "{shown}");
    // The official id typed instead of the look-alike, three times: refused, no sitting opened.
    args.push("--unofficial-rules");
    let failed = count(&env, "command.failed");
    let o = sitting(&env, &args, "noel-de-la-chance-2015");
    let shown = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(2), "{shown}");
    assert!(shown.contains("UNOFFICIAL RULES"), "{shown}");
    assert!(shown.contains(&format!("expected {LOOKALIKE}")), "{shown}");
    assert_eq!(count(&env, "sitting.opened"), 0);
    assert_eq!(
        count(&env, "command.failed"),
        failed + 1,
        "recorded as refused"
    );
    // Typed back: the sitting runs, and its minutes say "règlement non officiel".
    let o = sitting(&env, &args, LOOKALIKE);
    let shown = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "{shown}");
    let minutes = std::fs::read_to_string(env.path("pub/sitting-001/minutes.html")).unwrap();
    assert!(minutes.contains("règlement non officiel"), "{minutes}");
    assert!(minutes.contains(LOOKALIKE));
    let stem = format!("{LOOKALIKE}_100_t1_1");
    let commit = json(env.path(&format!("pub/blocks/{stem}.commit.json")));
    assert_eq!(commit["unofficial_rules"], Value::Bool(true));
}
