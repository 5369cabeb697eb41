//! Irreversible steps ask first (spec/appliance.md §4.6, §5.B9), with the real binary on a
//! pseudo-terminal (`scripts/pty-type`): `urne void` and `urne block void` show what they are
//! about to void and record nothing until the day or block id is typed back; `urne block reveal`
//! requires the moment the block's sales closed, refuses one in the future or before the block
//! was generated, records and states it; a voided block regenerated into the same folder is
//! refused before any entropy is drawn; the progress bar of a generation ends its line.

use crate::block_cli::small_rules;
use crate::common::*;
use crate::draws::{seal, simulate};
use crate::outputs::{GAME, count, generate_args, last_payload};
use std::process::Output;

const DAY: &str = "2018-12-04";

/// `urne ARGS` on a pseudo-terminal, the commissaire typing `typed` (one line each time the
/// confirmation is asked) and answering the contribution's prompts as [`Env::urne`] does.
/// What the terminal showed is both `stdout` and `stderr`.
fn typing(env: &Env, typed: &[&str], args: &[&str]) -> Output {
    let mut c = env.cmd_of(&root().join("scripts/pty-type"));
    c.args(["--on", TYPE_BACK, "--send-match"])
        .args(["--on", CONTRIBUTION_PROMPT, "--send", CONTRIBUTION])
        .args(["--on", YES_NO, "--send", "oui"]);
    for t in typed {
        c.args(["--expect", CONFIRM, "--send", t]);
    }
    let mut o = c.arg("--").arg(URNE).args(args).output().unwrap();
    o.stderr = o.stdout.clone();
    o
}

/// Whether `screen` has a line `label`, spaces, `value`.
fn row(screen: &str, label: &str, value: &str) -> bool {
    screen.lines().any(|l| {
        l.trim()
            .strip_prefix(label)
            .and_then(|rest| rest.strip_suffix(value))
            .is_some_and(|gap| !gap.is_empty() && gap.trim().is_empty())
    })
}

fn shown(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A sealed and drawn day (folder `d1`).
fn drawn() -> Env {
    let env = Env::new();
    let export = simulate(&env, DAY, 300, 41, &[]);
    seal(&env, &export);
    env.draw_ok(DAY, "d1");
    env
}

/// One generated block of the reduced rules (number 1, folder `out`), the keys exported.
fn generated() -> (Env, String) {
    let env = Env::new();
    let rules = small_rules(&env);
    env.ok(&["keys", "export", "--out", "keys"]);
    env.ok(&generate_args(&rules, "1", "out"));
    (env, format!("{GAME}/100/t1/1"))
}

#[test]
fn a_void_shows_the_drawn_day_and_is_recorded_once_the_day_is_typed_back() {
    let env = drawn();
    let winner = last_payload(&env, "draw.result")["winner"]["leaf"]
        .as_u64()
        .unwrap();
    let leaves = std::fs::read(env.path("d1/leaves.bin")).unwrap();
    let at = usize::try_from(winner).unwrap() * 33;
    let pseudonym = hex::encode(&leaves[at..at + 32]);
    let reason = "printer jam, minutes 4";
    let o = typing(&env, &[DAY], &["void", "--day", DAY, "--reason", reason]);
    let screen = shown(&o);
    assert_eq!(o.status.code(), Some(0), "{screen}");
    let before = screen.split("To confirm").next().unwrap();
    for want in [
        "ABOUT TO VOID",
        "drawn and published",
        "yes, in d1",
        &format!("{} {}", &pseudonym[..4], &pseudonym[4..8]),
        &format!("{} {}", &pseudonym[56..60], &pseudonym[60..]),
        reason,
        "This cannot be undone.",
    ] {
        assert!(before.contains(want), "{want:?} not shown:\n{screen}");
    }
    assert!(
        row(before, "day", DAY) && row(before, "attempt", "1"),
        "{screen}"
    );
    assert!(row(before, "published", "yes, in d1"), "{screen}");
    assert!(
        screen.contains(&format!("type the day ({DAY})")),
        "{screen}"
    );
    assert_eq!(count(&env, "draw.void"), 1);
    assert!(
        env.path(&format!("void-{DAY}-attempt-1/void-notice.json"))
            .exists()
    );
    // An attempt is voided once: the next run has nothing to void and asks nothing.
    let o = typing(&env, &[], &["void", "--day", DAY, "--reason", reason]);
    assert_eq!(o.status.code(), Some(4), "{}", shown(&o));
}

#[test]
fn a_void_typed_back_wrong_three_times_records_nothing() {
    let env = drawn();
    let events = event_total(&env);
    let args = ["void", "--day", DAY, "--reason", "printer jam, minutes 4"];
    let o = typing(&env, &["2018-12-4", "2018-12-05", "yes"], &args);
    let err = assert_fails(&o, 2, "not-confirmed");
    assert_names(&err, &["3"]);
    assert_eq!(shown(&o).matches("refused: that is not the day").count(), 3);
    assert_eq!(count(&env, "draw.void"), 0, "nothing voided");
    assert!(!env.path(&format!("void-{DAY}-attempt-1")).exists());
    // The run is in the trail as a command that started and stopped, and nothing else.
    assert_eq!(event_total(&env), events + 2);
    assert_eq!(last_payload(&env, "command.failed")["class"], "bad-input");
    // The block void asks the same.
    let (env, b) = generated();
    let args = [
        "block",
        "void",
        "--block",
        &b,
        "--reason",
        "misprinted roll",
    ];
    let o = typing(&env, &[&b.replace("/1", "/2"), "", GAME], &args);
    assert_fails(&o, 2, "not-confirmed");
    let screen = shown(&o);
    assert!(screen.contains("generated and published"), "{screen}");
    assert!(screen.contains("yes, in out"), "{screen}");
    assert_eq!(count(&env, "block.void"), 0, "nothing voided");
    let o = typing(&env, &[&b], &args);
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    assert_eq!(count(&env, "block.void"), 1);
}

#[test]
fn a_void_or_a_reveal_without_a_terminal_is_refused_before_it_is_recorded() {
    let env = drawn();
    let o = env.urne_direct(&["void", "--day", DAY, "--reason", "printer jam, minutes 4"]);
    assert_fails(&o, 2, "not-a-terminal");
    assert_eq!(count(&env, "draw.void"), 0);
    let (env, b) = generated();
    let closed = sales_close(&env, &b);
    for args in [
        &[
            "block",
            "void",
            "--block",
            &b,
            "--reason",
            "misprinted roll",
        ][..],
        &[
            "block",
            "reveal",
            "--block",
            &b,
            "--sales-closed-at",
            &closed,
            "--out",
            "out",
        ],
    ] {
        assert_fails(&env.urne_direct(args), 2, "not-a-terminal");
    }
    assert_eq!(count(&env, "block.void") + count(&env, "block.revealed"), 0);
}

/// `urne block reveal --block B --sales-closed-at T --out out`, typing `typed`.
fn reveal(env: &Env, b: &str, t: &str, typed: &[&str]) -> Output {
    let args = [
        "block",
        "reveal",
        "--block",
        b,
        "--sales-closed-at",
        t,
        "--out",
        "out",
    ];
    typing(env, typed, &args)
}

#[test]
fn a_reveal_is_refused_when_the_sales_close_is_in_the_future_or_before_the_generation() {
    let (env, b) = generated();
    let reveal_file = env.path(&format!("out/{}.reveal.json", b.replace('/', "_")));
    for (t, id) in [
        ("2999-12-31T23:59:59+01:00", "sales-close-in-future"),
        ("2015-12-31T23:59:59+01:00", "sales-close-before-generation"),
    ] {
        let o = reveal(&env, &b, t, &[]);
        let err = assert_fails(&o, 4, id);
        assert_names(&err, &[&b]);
        assert!(
            !shown(&o).contains("ABOUT TO REVEAL"),
            "refused before asking"
        );
        assert_eq!(count(&env, "block.revealed"), 0, "{t}: nothing revealed");
        assert!(!reveal_file.exists());
    }
    // A moment a microsecond before the block's publication is before its generation too.
    let published = chrono::DateTime::parse_from_rfc3339(&sales_close(&env, &b)).unwrap();
    let earlier = (published - chrono::Duration::microseconds(1))
        .format("%Y-%m-%dT%H:%M:%S%.6fZ")
        .to_string();
    assert_fails(
        &reveal(&env, &b, &earlier, &[]),
        4,
        "sales-close-before-generation",
    );
    // Not RFC 3339 with its offset: bad input.
    for t in [
        "2015-12-31T23:59:59",
        "2015-12-31 23:59:59+01:00",
        "31/12/2015",
    ] {
        assert_fails(&reveal(&env, &b, t, &[]), 2, "bad-date-time");
    }
    assert_eq!(count(&env, "block.revealed"), 0);
}

#[test]
fn a_reveal_typed_back_records_and_states_the_sales_close_and_verifies() {
    let (env, b) = generated();
    // The publication's moment, stated by production in Paris time (+01:00 in winter).
    let published = sales_close(&env, &b);
    let utc = chrono::DateTime::parse_from_rfc3339(&published).unwrap();
    let paris = utc
        .with_timezone(&chrono::FixedOffset::east_opt(3600).unwrap())
        .to_rfc3339_opts(chrono::SecondsFormat::Micros, false);
    assert!(paris.ends_with("+01:00"), "{paris}");
    // A typo in the block number is refused; the id typed right reveals.
    let other = b.replace("/1", "/2");
    let o = reveal(&env, &b, &paris, &[&other, &b]);
    let screen = shown(&o);
    assert_eq!(o.status.code(), Some(0), "{screen}");
    let before = screen.split("To confirm").next().unwrap();
    for want in ["ABOUT TO REVEAL", &b, "seed commitment", "outcomes root"] {
        assert!(before.contains(want), "{want:?} not shown:\n{screen}");
    }
    // Issue 25, item 4: typed in Paris time, shown back in Paris time, with its offset (the
    // reveal records UTC).
    let shown_back = utc
        .with_timezone(&chrono_tz::Europe::Paris)
        .format("%Y-%m-%d %H:%M:%S, Paris time (UTC+01:00)")
        .to_string();
    assert!(row(before, "generated at", &shown_back), "{screen}");
    assert!(row(before, "sales closed at", &shown_back), "{screen}");
    assert!(!before.contains(&published), "{screen}");
    assert!(
        screen.contains("refused: that is not the block id"),
        "{screen}"
    );
    assert!(
        screen.contains(&format!(
            "  {:<40}{published}",
            "Close of the block's sales"
        )),
        "{screen}"
    );
    let p = last_payload(&env, "block.revealed");
    assert_eq!(p["sales_closed_at"], published.as_str());
    let file = env.path(&format!("out/{}.reveal.json", b.replace('/', "_")));
    let r: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(r["sales_closed_at"], published.as_str());
    let keys: Vec<&str> = r.as_object().unwrap().keys().map(String::as_str).collect();
    let at = keys.iter().position(|k| *k == "sales_closed_at").unwrap();
    assert_eq!(
        keys[at + 1],
        "revealed_at",
        "stated just before revealed_at"
    );
    let v = env.urne(&["verify", "out", "--keys", "keys"]);
    assert_eq!(v.status.code(), Some(0), "{}", shown(&v));
    // Run again: already revealed, nothing asked, nothing recorded twice.
    let o = reveal(&env, &b, &paris, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    assert_eq!(count(&env, "block.revealed"), 1);
}

#[test]
fn a_voided_block_regenerated_into_its_folders_is_refused_before_any_entropy() {
    let (env, b) = generated();
    let o = typing(
        &env,
        &[&b],
        &[
            "block",
            "void",
            "--block",
            &b,
            "--reason",
            "misprinted roll",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", shown(&o));
    let entropies = count(&env, "block.entropy");
    let rules = small_rules(&env);
    let o = env.urne(&generate_args(&rules, "1", "out"));
    let err = assert_fails(&o, 4, "output-conflict");
    assert_names(&err, &[&b, "attempt 2"]);
    assert!(
        shown(&o).contains("no entropy was asked for"),
        "{}",
        shown(&o)
    );
    assert_eq!(count(&env, "block.entropy"), entropies, "no entropy drawn");
    assert_eq!(count(&env, "entropy.refused"), 0);
    // Into new folders, attempt 2 is generated.
    env.ok(&generate_args(&rules, "1", "out2"));
    assert_eq!(count(&env, "block.entropy"), entropies + 1);
    assert_eq!(last_payload(&env, "block.published")["attempt"], 2);
}

#[test]
fn the_progress_bar_of_a_generation_ends_its_line() {
    let env = Env::new();
    let rules = small_rules(&env);
    let mut g = generate_args(&rules, "1", "out");
    let n = g.iter().position(|a| *a == "--blocks").unwrap();
    g[n + 1] = "3";
    let screen = env.ok(&g);
    let bars: Vec<&str> = screen
        .split(['\n', '\r'])
        .filter(|l| l.contains("blocks generated"))
        .collect();
    assert!(
        bars.len() >= 4,
        "a bar before each block and at the end:\n{screen}"
    );
    for l in &bars {
        assert!(
            l.trim_end().ends_with("blocks generated"),
            "something ran into the bar: {l:?}"
        );
    }
    assert!(screen.contains("3/3 blocks generated\r\n"), "{screen:?}");
    assert_eq!(screen.matches("GENERATED: block").count(), 3);
    for line in screen.lines() {
        assert!(
            !(line.contains("blocks generated") && line.contains("GENERATED")),
            "{line:?}"
        );
    }
}
