//! A sitting's close killed (issue 22, item 4; the machinery and the other commands:
//! `kills_outputs`): each run a new sitting of `urne ceremony` at a pseudo-terminal, generating
//! one block, killed at a random moment of its close, then `urne ceremony --out` run again into
//! the same or another publications folder; the complete signed minutes (`sitting.json`) on the
//! media counted against the trail's `output.published`.

use crate::block_cli::small_rules;
use crate::common::*;
use crate::kills::{audit_ok, count_where, hex_sha256};
use crate::kills_outputs::*;
use crate::outputs::*;
use serde_json::{Value, json};
use std::io::Read;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The commissaire's watch now, Paris time to the minute (the clock urne reads, as the
/// commissaire's watch would).
#[allow(clippy::disallowed_methods)]
fn watch_now() -> String {
    chrono::Utc::now()
        .with_timezone(&chrono_tz::Europe::Paris)
        .format("%Y-%m-%d %H:%M")
        .to_string()
}

/// `urne ceremony ARGS` on a pseudo-terminal (the PIN typed at its prompt, every question
/// answered yes, the commissaire's watch and contribution typed, the sitting closed once its
/// plan is done: choice 4 among the other operations), in English.
fn ceremony_command(env: &Env, args: &[&str]) -> Command {
    let mut c = env.cmd_of(&root().join("scripts/pty-type"));
    c.env_remove("URNE_PIN")
        .args(["--timeout", "60"])
        .args([
            "--on",
            "(?:HSM user PIN|code PIN de l'HSM)",
            "--send",
            &env.pin(),
        ])
        .args(["--on", "(?:at your watch|à votre montre)", "--send"])
        .arg(watch_now())
        .args(["--on", TYPE_BACK, "--send-match"])
        .args(["--on", UNOFFICIAL_PROMPT, "--send-match"])
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
    c
}

/// `urne ceremony ARGS` run to its end; what the terminal showed is both outputs.
fn ceremony(env: &Env, args: &[&str]) -> Output {
    let mut o = ceremony_command(env, args).output().unwrap();
    o.stderr = o.stdout.clone();
    o
}

/// A sitting generating block `first` of the reduced game `rules`, its minutes under `out`.
fn sitting_args(rules: &Path, first: &str, out: &str, secret: &str) -> Vec<String> {
    [
        "--out",
        out,
        "--town",
        "Paris",
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
        "--unofficial-rules",
        "--price",
        "100",
        "--emission",
        "t1",
        "--first",
        first,
        "--blocks",
        "1",
        "--secret-out",
        secret,
    ]
    .map(String::from)
    .to_vec()
}

/// The heading a sitting's close starts with, in English or French.
const CLOSING: &[u8] = "CLOSING OF THE SITTING|CLÔTURE DE LA SÉANCE".as_bytes();

/// Runs the sitting `args` on a pseudo-terminal; once its close begins (its heading shown),
/// waits `after(close started)` and kills it (SIGKILL to urne, through the pty helper). Returns
/// how long the close ran when the command had exited first (or never showed its close).
fn kill_in_close(env: &Env, args: &[&str], after: impl FnOnce() -> Duration) -> Option<Duration> {
    let mut child = ceremony_command(env, args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let (mut seen, mut buf, mut sent) = (Vec::new(), [0u8; 4096], false);
        let rx = regex_lite(CLOSING);
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 {
                break;
            }
            seen.extend_from_slice(&buf[..n]);
            if !sent && rx(&seen) {
                sent = tx.send(Instant::now()).is_ok();
            }
        }
        seen
    });
    let Ok(start) = rx.recv_timeout(Duration::from_mins(2)) else {
        kill_child(&mut child);
        let seen = reader.join().unwrap();
        panic!(
            "the sitting never reached its close:\n{}",
            String::from_utf8_lossy(&seen)
        );
    };
    let delay = after();
    while start.elapsed() < delay {
        if child.try_wait().unwrap().is_some() {
            let _ = reader.join();
            return Some(start.elapsed());
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    if child.try_wait().unwrap().is_some() {
        let _ = reader.join();
        return Some(start.elapsed());
    }
    kill_child(&mut child);
    let _ = reader.join();
    None
}

/// Whether `seen` holds one of the `|`-separated alternatives of `pattern`.
fn regex_lite(pattern: &'static [u8]) -> impl Fn(&[u8]) -> bool {
    move |seen: &[u8]| {
        pattern
            .split(|b| *b == b'|')
            .any(|alt| seen.windows(alt.len()).any(|w| w == alt))
    }
}

/// How long a sitting's close ran in the timing sitting (from its heading to the end).
fn close_span(env: &Env, args: &[&str]) -> Duration {
    let took = kill_in_close(env, args, || Duration::from_mins(5));
    took.expect("the timing sitting ended")
}

/// Kills `urne ceremony` during a sitting's close `runs` times (the sitting generating one
/// block, each run a new sitting), at a random moment from its close's heading to 1.2 times the
/// close's length, and re-runs `urne ceremony --out` into the same or a new publications folder.
fn sitting_kills(runs: usize) -> Figures {
    let env = Env::new();
    let rules = small_rules(&env);
    env.ok(&["keys", "export", "--out", "keys"]);
    let result_pub = env.path("keys/result.pub.pem");
    let a = sitting_args(&rules, "1000", "out-p-timing", "sec-timing");
    let span = close_span(&env, &a.iter().map(String::as_str).collect::<Vec<_>>());
    let mut k = Killer::new(
        "a sitting's close (re-run into the same or a new folder)",
        span,
    );
    let span_ms = u64::try_from(span.as_millis()).unwrap() * 12 / 10;
    let (mut window, mut refused) = (0, 0);
    for i in 0..runs {
        let number = i + 2;
        let (first, out) = ((i + 1).to_string(), format!("out-p{i:03}"));
        let a = sitting_args(&rules, &first, &out, &format!("sec-{i:03}"));
        let args: Vec<&str> = a.iter().map(String::as_str).collect();
        k.kill_by(&env, |delays| {
            let delay = delays.below(span_ms);
            kill_in_close(&env, &args, || delay)
        });
        audit_ok(&env);
        let name = format!("sitting-{number:03}/sitting.json");
        let published = |env: &Env| count_where(env, "output.published", "file", &json!(name)) > 0;
        let file = env.path(&out).join(&name);
        let recorded = published_shas(&env, &["output.published"]);
        window += usize::from(
            signed(&file, &result_pub)
                && !recorded.contains(&hex_sha256(&std::fs::read(&file).unwrap())),
        );
        if published(&env) {
            // Done before the kill: nothing is left to publish, and nothing is planned.
            let o = ceremony(&env, &["--out", &out]);
            assert_eq!(
                o.status.code(),
                Some(2),
                "{}",
                String::from_utf8_lossy(&o.stdout)
            );
            k.rerun(true);
            continue;
        }
        let again = if i % 2 == 0 {
            out.clone()
        } else {
            format!("{out}-new")
        };
        let aside = format!("out-aside-p{i:03}");
        refused += rerun_until_done(&env, (&out, &again, &aside), &mut |o| {
            ceremony(&env, &["--out", o])
        });
        k.rerun(false);
        assert!(published(&env), "run {i}");
        audit_ok(&env);
    }
    let published = published_shas(&env, &["output.published"]);
    let mut outputs = vec![];
    for p in signed_outputs(&env, &result_pub, "sitting.json") {
        let bytes = std::fs::read(&p).unwrap();
        let s: Value = serde_json::from_slice(&bytes).unwrap();
        outputs.push((s["number"].to_string(), bytes));
        copy_whole(&env, &p);
    }
    // The blocks the minutes list, beside them.
    for p in signed_outputs(&env, &result_pub, ".commit.json") {
        copy_whole(&env, &p);
    }
    Figures::of(k, (&outputs, &published), (window, refused), &env)
}

#[test]
fn a_kill_in_a_sittings_close_leaves_no_orphan_and_no_second_minutes() {
    let r = sitting_kills(kill_runs().min(4));
    r.report(("minutes", "minutes"));
    r.assert_clean();
}

#[test]
#[ignore = "long: scripts/kill-outputs --command sitting"]
fn thirty_kills_of_a_sittings_close_leave_no_orphan_and_no_second_minutes() {
    let r = sitting_kills(kill_runs().max(30));
    r.report(("minutes", "minutes"));
    r.check();
}
