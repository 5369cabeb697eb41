//! Errors and help as testers met them (issue 13, "Errors and help"), with the real binary: a
//! day that is not a date is refused before anything else; a day outside the operation says so;
//! one rule, stated, for a reason; one wording for a missing file; `urne hsm info` finds the
//! token before it asks for the PIN; every option has a description; `verify --help` offers no
//! PIN; a hint's example block id is one urne accepts; `scripts/dev-hsm` never wipes a token
//! silently.

use crate::common::*;
use crate::draws::{rules, seal, simulate};
use clap::CommandFactory;
use std::process::{Command, Stdio};

/// `urne ARGS` with nothing configured: no token, no PIN, no database, no terminal.
fn bare(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    let mut c = Command::new(URNE);
    scrub(&mut c);
    c.args(args)
        .env("URNE_CONFIG", dir.join("no-such-config.json"))
        .env("URNE_DB", dir.join("no-such.db"))
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Every argument of every command, in clap's tree, the way `urne CMD --help` lists them.
fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) {
    for a in cmd.get_arguments() {
        if a.is_hide_set() {
            continue;
        }
        if a.get_help().is_none() && a.get_long_help().is_none() {
            missing.push(format!("{path} --{}", a.get_id()));
        }
    }
    for sc in cmd.get_subcommands() {
        walk(sc, &format!("{path} {}", sc.get_name()), missing);
    }
}

#[test]
fn every_option_of_every_command_has_a_description() {
    let mut cmd = urne::cli::Cli::command();
    // As parsed: the global options propagated into every command.
    cmd.build();
    let mut missing = vec![];
    walk(&cmd, "urne", &mut missing);
    assert!(
        missing.is_empty(),
        "options without a description: {missing:?}"
    );
    // The walk sees what --help shows: a command's own options and the global ones.
    let mut seen = vec![];
    walk_names(&cmd, "urne", &mut seen);
    assert!(seen.contains(&"urne void day".to_string()), "{seen:?}");
    assert!(
        seen.contains(&"urne ticket show position".to_string()),
        "{seen:?}"
    );
    assert!(seen.contains(&"urne seal pin_file".to_string()), "{seen:?}");
}

fn walk_names(cmd: &clap::Command, path: &str, seen: &mut Vec<String>) {
    for a in cmd.get_arguments() {
        seen.push(format!("{path} {}", a.get_id()));
    }
    for sc in cmd.get_subcommands() {
        walk_names(sc, &format!("{path} {}", sc.get_name()), seen);
    }
}

#[test]
fn verify_needs_no_pin_and_its_help_offers_none() {
    let dir = tempfile::tempdir().unwrap();
    let help = |args: &[&str]| String::from_utf8_lossy(&bare(dir.path(), args).stdout).into_owned();
    let v = help(&["verify", "--help"]);
    assert!(v.contains("--keys"), "{v}");
    assert!(
        !v.contains("--pin-file"),
        "verify --help offers a PIN:\n{v}"
    );
    assert!(help(&["seal", "--help"]).contains("--pin-file"));
    // Given out of habit, it is accepted and changes nothing (verify never logs in).
    let o = bare(
        dir.path(),
        &[
            "verify",
            "--pin-file",
            "no-such-pin",
            "no-such-folder",
            "--keys",
            "keys",
        ],
    );
    let err = assert_fails(&o, 2, "not-an-output");
    assert_names(&err, &["no-such-folder"]);
}

#[test]
fn a_day_that_is_not_a_date_is_refused_before_anything_else() {
    let dir = tempfile::tempdir().unwrap();
    // Nothing is configured: a refusal of the token or the PIN would be exit 3.
    for args in [
        &["draw", "--day", "2018-12-1", "--out", "x"][..],
        &[
            "void",
            "--day",
            "2018-12-1",
            "--reason",
            "une raison assez longue",
        ],
        &[
            "proof",
            "--day",
            "2018-12-1",
            "--account",
            &"a".repeat(64),
            "--out",
            "p",
        ],
        &["show", "--day", "2018-12-1"],
        &["show", "--day", "2018-02-30"],
        &["draw", "--day", "18-12-01", "--out", "x"],
    ] {
        let o = bare(dir.path(), args);
        assert_fails(&o, 2, "bad-date");
    }
    assert!(!dir.path().join("x").exists());
}

#[test]
fn a_day_outside_the_operation_is_named_as_such() {
    let env = Env::new();
    for args in [
        &["draw", "--day", "2018-11-30", "--out", "x"][..],
        &[
            "void",
            "--day",
            "2019-01-05",
            "--reason",
            "une raison assez longue",
        ],
        &["show", "--day", "2018-12-25"],
    ] {
        let err = assert_fails(&env.urne_direct(args), 2, "day-not-in-operation");
        // The day given, the operation and its days.
        let day = args[args.iter().position(|a| *a == "--day").unwrap() + 1];
        assert_names(&err, &[day, "chanceux-noel-2018", "1–24 December 2018"]);
    }
    // A day of the operation that is not sealed is still "not sealed".
    assert_fails(
        &env.urne_direct(&["draw", "--day", "2018-12-24", "--out", "x"]),
        4,
        "day-not-sealed",
    );
}

#[test]
fn a_reason_needs_ten_characters_and_says_so() {
    let env = Env::new();
    let e = simulate(&env, "2018-12-04", 100, 4, &[]);
    seal(&env, &e);
    for (args, what) in [
        (
            &["void", "--day", "2018-12-04", "--reason", "typo"][..],
            "void",
        ),
        (&["trail", "restart", "--reason", "short"], "restart"),
    ] {
        let err = assert_fails(&env.urne_direct(args), 2, "reason-too-short");
        assert_names(&err, &[what, "10"]);
    }
    // Characters, not bytes: five accented letters are ten bytes and too short; ten
    // characters are enough.
    let err = assert_fails(
        &env.urne_direct(&["void", "--day", "2018-12-04", "--reason", "ééééé"]),
        2,
        "reason-too-short",
    );
    assert_names(&err, &["5"]);
    env.ok(&["void", "--day", "2018-12-04", "--reason", "annulée éé"]);
}

#[test]
fn a_missing_export_and_a_missing_rules_file_are_said_the_same_way() {
    let env = Env::new();
    let e = simulate(&env, "2018-12-04", 100, 4, &[]);
    let export = e.to_str().unwrap();
    for (args, path) in [
        (
            vec!["seal", "--rules", "no-rules.json", "--entries", export],
            "no-rules.json",
        ),
        (
            vec!["seal", "--rules", &rules(), "--entries", "no-export.jsonl"],
            "no-export.jsonl",
        ),
        (vec!["status", "--rules", "no-rules.json"], "no-rules.json"),
    ] {
        let err = assert_fails(&env.urne_direct(&args), 2, "no-such-file");
        assert_eq!(err, format!("no such file: {path}"));
    }
}

#[test]
fn hsm_info_finds_the_token_before_it_asks_for_the_pin() {
    let env = Env::new();
    // No PIN anywhere and no terminal: were it asked for first, "no HSM user PIN was given".
    let o = env
        .cmd()
        .env_remove("URNE_PIN")
        .env("URNE_HSM_TOKEN", "no-such-token")
        .args(["hsm", "info"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = assert_fails(&o, 3, "token-not-found");
    assert_names(&err, &["\"no-such-token\""]);
    // With the token there, the PIN is what is missing.
    let o = env
        .cmd()
        .env_remove("URNE_PIN")
        .args(["hsm", "info"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_fails(&o, 3, "pin-missing");
}

#[test]
fn a_hints_example_block_id_is_one_urne_accepts() {
    let env = Env::new();
    let o = env.urne_direct(&["show", "--block", "noel-de-la-chance-2015/100/E1/1"]);
    assert_fails(&o, 2, "bad-block-id");
    let err = String::from_utf8_lossy(&o.stderr);
    let example = err
        .lines()
        .find_map(|l| l.strip_prefix("hint: ")?.split("e.g. ").nth(1))
        .unwrap_or_else(|| panic!("no example in the hint: {err}"));
    assert!(
        urne_verify::block::BlockId::parse(example).is_ok(),
        "{example}"
    );
    // Accepted by the binary too: a block the trail does not hold, not a malformed id.
    assert_fails(
        &env.urne_direct(&["show", "--block", example]),
        4,
        "block-not-generated",
    );
}

#[test]
fn dev_hsm_refuses_to_wipe_a_token_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let dev_hsm = |extra: &[&str]| {
        let mut c = Command::new(root().join("scripts/dev-hsm"));
        scrub(&mut c);
        c.arg(dir.path()).arg("--no-keys").args(extra);
        c.output().unwrap()
    };
    let first = dev_hsm(&[]);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let pin = std::fs::read(dir.path().join("pin")).unwrap();
    let again = dev_hsm(&[]);
    // scripts/dev-hsm is a script, not urne: its own `error:` line, exit 4.
    let err = String::from_utf8_lossy(&again.stderr);
    assert_eq!(again.status.code(), Some(4), "{err}");
    assert!(
        err.lines()
            .any(|l| l.starts_with("error: ") && l.contains("already holds a development token")),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&again.stderr).contains("--force"));
    assert_eq!(
        std::fs::read(dir.path().join("pin")).unwrap(),
        pin,
        "nothing was changed"
    );
    let forced = dev_hsm(&["--force"]);
    assert!(
        forced.status.success(),
        "{}",
        String::from_utf8_lossy(&forced.stderr)
    );
    assert_ne!(
        std::fs::read(dir.path().join("pin")).unwrap(),
        pin,
        "a new token"
    );
}
