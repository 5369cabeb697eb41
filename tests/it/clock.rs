//! The clock does not decide alone (issue 11, item 7): the appliance's clock is someone at the
//! machine's to set (tier a). A day is sealed only once it has ended by the clock, and by the
//! export itself: its `generated_at` and `status_as_of` must lie between the end of its day and
//! the clock's now. A clock set back behind the trail's last event is refused before anything is
//! done (exit 5). The clock is moved with libfaketime
//! (Debian's `faketime`, installed by scripts/lib.sh), as an insider would: urne refuses
//! `LD_PRELOAD`, so a copy of urne made to load libfaketime itself (`native::faketime_urne`) runs.

use crate::common::*;
use crate::draws::simulate;
use crate::native::{LIBFAKETIME, faketime_urne};

/// `urne ARGS` with the appliance's clock stopped at `at` (`YYYY-MM-DD HH:MM:SS`, UTC). Stopped,
/// not started there (an absolute `FAKETIME`): a loaded machine must not tick past midnight
/// between the start of the process and the moment urne reads the clock. urne refuses to open
/// the token under `LD_PRELOAD` (the way `faketime(1)` works), so the binary run is a copy of
/// urne patched to load libfaketime itself (`native::faketime_urne`).
fn at(env: &Env, when: &str, args: &[&str]) -> std::process::Output {
    env.cmd_of(faketime_urne())
        .env("TZ", "UTC")
        .env("FAKETIME", when)
        .args(args)
        .output()
        .unwrap()
}

fn seal_args(export: &std::path::Path) -> Vec<&str> {
    vec![
        "seal",
        "--rules",
        RULES,
        "--entries",
        export.to_str().unwrap(),
    ]
}

const RULES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/rules/chanceux-noel-2018.json");

fn have_faketime() -> bool {
    std::path::Path::new(LIBFAKETIME).is_file()
}

#[test]
fn a_day_is_sealed_only_once_it_has_ended_and_a_clock_set_back_is_refused() {
    assert!(
        have_faketime(),
        "faketime is missing: scripts/lib.sh installs it"
    );
    let env = Env::without_keys();
    // The appliance initialised on 2018-12-04 at 09:00 UTC (10:00 in Paris).
    let o = at(&env, "2018-12-04 09:00:00", &["keys", "init"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    pin_producer(
        &env,
        faketime_urne(),
        &[("TZ", "UTC"), ("FAKETIME", "@2018-12-04 09:01:00")],
    );
    // Production made the export at midnight, Paris time, as the day ended.
    let midnight = "2018-12-05T00:00:00+01:00";
    let dated = ["--generated-at", midnight, "--status-as-of", midnight];
    let export = simulate(&env, "2018-12-04", 200, 3, &dated);
    let seal = |when: &str| at(&env, when, &seal_args(&export));
    // 2018-12-04 at 22:59:59 UTC is 23:59:59 in Paris (D-1): the day has not ended.
    let before = event_total(&env);
    assert_fails(&seal("2018-12-04 22:59:59"), 4, "day-not-ended");
    assert_eq!(kind_total(&env, "draw.seal"), 0, "nothing sealed");
    // A clock set back behind the trail's last event: refused before anything, nothing recorded.
    let now = event_total(&env);
    assert_fails(&seal("2018-12-03 12:00:00"), 5, "clock-went-back");
    assert_eq!(event_total(&env), now, "nothing recorded");
    // At midnight in Paris (23:00:00 UTC), the day has ended and seals.
    let o = seal("2018-12-04 23:00:00");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(event_total(&env) > before);
}

/// How many events of `kind` the trail holds.
fn kind_total(env: &Env, kind: &str) -> i64 {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    c.query_row("SELECT count(*) FROM events WHERE kind = ?1", [kind], |r| {
        r.get(0)
    })
    .unwrap()
}

#[test]
fn an_export_dated_before_its_day_ended_or_after_the_clock_is_refused() {
    assert!(
        have_faketime(),
        "faketime is missing: scripts/lib.sh installs it"
    );
    let env = Env::without_keys();
    let o = at(&env, "2018-12-05 09:00:00", &["keys", "init"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    pin_producer(
        &env,
        faketime_urne(),
        &[("TZ", "UTC"), ("FAKETIME", "@2018-12-05 09:01:00")],
    );
    // Day 2018-12-05 ends at 2018-12-06T00:00:00+01:00 (23:00:00 UTC); the seals below run at
    // 2018-12-06 07:00:00 UTC (08:00:00 in Paris), when the day has ended by the clock.
    let now = "2018-12-06 07:00:00";
    let export = |seed: u32, generated: &str, status: &str| {
        let dated = ["--generated-at", generated, "--status-as-of", status];
        simulate(&env, "2018-12-05", 200, seed, &dated)
    };
    let refused = [
        // Made one second before midnight: its day had not ended.
        (
            export(11, "2018-12-05T23:59:59+01:00", "2018-12-06T00:00:00+01:00"),
            // The field, its date, the day and when the day ended.
            &[
                "generated_at",
                "2018-12-05T23:59:59+01:00",
                "2018-12-05",
                "2018-12-06T00:00:00+01:00",
            ][..],
        ),
        (
            export(12, "2018-12-06T00:00:00+01:00", "2018-12-05T22:59:59Z"),
            &[
                "status_as_of",
                "2018-12-05T22:59:59Z",
                "2018-12-06T00:00:00+01:00",
            ][..],
        ),
        // Dated one second after the appliance's clock.
        (
            export(13, "2018-12-06T08:00:01+01:00", "2018-12-06T08:00:00+01:00"),
            // The field, its date and the appliance's clock.
            &[
                "generated_at",
                "2018-12-06T08:00:01+01:00",
                "2018-12-06T08:00:00+01:00",
            ][..],
        ),
        (
            export(14, "2018-12-06T07:30:00+01:00", "2018-12-07T07:30:00+01:00"),
            &[
                "status_as_of",
                "2018-12-07T07:30:00+01:00",
                "2018-12-06T08:00:00+01:00",
            ][..],
        ),
    ];
    for (i, (file, why)) in refused.iter().enumerate() {
        let err = assert_fails(&at(&env, now, &seal_args(file)), 2, "export-bad-dates");
        assert_names(&err, why);
        assert_names(&err, &[&file.display().to_string()]);
        assert_eq!(
            kind_total(&env, "input.rejected"),
            i64::try_from(i).unwrap() + 1,
            "recorded"
        );
    }
    assert_eq!(kind_total(&env, "draw.seal"), 0, "nothing sealed");
    // Made at midnight exactly, its status as of the clock's second: sealed.
    let genuine = export(15, "2018-12-06T00:00:00+01:00", "2018-12-06T08:00:00+01:00");
    let o = at(&env, now, &seal_args(&genuine));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(kind_total(&env, "draw.seal"), 1);
    anchor(&env);
    env.ok(&["audit", "verify", "--keys", "audit-keys"]);
}

/// The watch's prompt (`cmd::watch`), in either language, for `scripts/pty-type`.
const WATCH: &str = r"(?:your watch, Paris time|votre montre, heure de Paris) \((?:YYYY-MM-DD|AAAA-MM-JJ) HH:MM\) ?:";

/// `urne ARGS` at `when` (stopped, UTC) on a pseudo-terminal, the operator typing the PIN at its
/// prompt (none given ahead) and the commissaire `watch` at the watch's prompt each time it is
/// asked, as at the appliance's console. What the terminal showed is both `stdout` and `stderr`.
fn at_terminal(env: &Env, when: &str, watch: &str, args: &[&str]) -> std::process::Output {
    let mut o = env
        .cmd_of(&root().join("scripts/pty-type"))
        .env_remove("URNE_PIN")
        .env("TZ", "UTC")
        .env("FAKETIME", when)
        .args(["--timeout", "30", "--on", "HSM user PIN", "--send"])
        .arg(env.pin())
        .args(["--on", WATCH, "--send", watch, "--"])
        .arg(faketime_urne())
        .args(args)
        .output()
        .unwrap();
    o.stderr = o.stdout.clone();
    o
}

/// The last event's time, as stored.
fn last_ts(env: &Env) -> String {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    c.query_row("SELECT ts FROM events ORDER BY seq DESC LIMIT 1", [], |r| {
        r.get(0)
    })
    .unwrap()
}

/// Issue 22 item 5 (spec/appliance.md §6.6, M-250, M-251): a command with the clock ten years ahead is
/// refused without a terminal and asks for the watch at one; when someone confirms the wrong
/// time, the events are dated ten years ahead and the right clock is then refused as set back,
/// until `urne clock correct`, witnessed at the terminal, records the correction: the appliance
/// works again with the right clock, and both verifiers accept the trail. A clock set back
/// behind the correction is still refused, and a later correction never goes back past the
/// time the watch gave at this one.
#[test]
fn a_clock_far_ahead_is_confirmed_at_the_terminal_and_a_wrong_one_is_corrected_by_a_witnessed_event()
 {
    assert!(
        have_faketime(),
        "faketime is missing: scripts/lib.sh installs it"
    );
    let env = Env::without_keys();
    let o = at(&env, "2018-12-04 09:00:00", &["keys", "init"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    pin_producer(
        &env,
        faketime_urne(),
        &[("TZ", "UTC"), ("FAKETIME", "@2018-12-04 09:01:00")],
    );
    // A recording command a month after the trail's last event (within 31 days) asks nothing.
    let o = at(
        &env,
        "2019-01-04 09:00:00",
        &["keys", "export", "--out", "k0"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // Ten years ahead, without a terminal: refused before anything is recorded (exit 2).
    let ahead = "2029-01-04 09:02:00";
    let before = event_total(&env);
    assert_fails(
        &at(&env, ahead, &["keys", "export", "--out", "k1"]),
        2,
        "not-a-terminal",
    );
    assert_eq!(event_total(&env), before, "nothing recorded");
    // At a terminal, a watch that is not the clock: refused (exit 4), nothing recorded.
    let o = at_terminal(
        &env,
        ahead,
        "2019-01-04 10:02",
        &["keys", "export", "--out", "k1"],
    );
    assert_fails(&o, 4, "clock-disagrees");
    assert_eq!(event_total(&env), before, "nothing recorded");
    // Someone confirms the wrong time (the clock's own, Paris time): the events are dated 2029.
    let o = at_terminal(
        &env,
        ahead,
        "2029-01-04 10:02",
        &["keys", "export", "--out", "k1"],
    );
    let shown = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(0), "{shown}");
    assert!(
        shown.contains("3653 days after the audit trail's last event"),
        "{shown}"
    );
    assert!(event_total(&env) > before);
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let confirmed: String = c
        .query_row(
            "SELECT payload FROM events WHERE seq = ?1 AND kind = 'clock.confirmed'",
            [before + 2],
            |r| r.get(0),
        )
        .unwrap();
    let confirmed: serde_json::Value = serde_json::from_str(&confirmed).unwrap();
    assert_eq!(confirmed["confirmed"], "2029-01-04T09:02:00.000000Z");
    assert!(
        confirmed["previous"]
            .as_str()
            .unwrap()
            .starts_with("2019-01-04T09:00:00"),
        "{confirmed}"
    );
    let wrong = last_ts(&env);
    assert!(wrong.starts_with("2029-01-04T09:02:00"), "{wrong}");
    // The clock set right: every command refuses it as set back (exit 5), naming the correction.
    let right = "2019-01-04 09:10:00";
    let before = event_total(&env);
    let o = at(&env, right, &["keys", "export", "--out", "k2"]);
    assert_fails(&o, 5, "clock-went-back");
    let hint = String::from_utf8_lossy(&o.stderr);
    assert!(hint.contains("hint: check the appliance's clock"), "{hint}");
    assert!(
        hint.contains("`urne clock correct --reason TEXT`"),
        "{hint}"
    );
    let correct = [
        "clock",
        "correct",
        "--reason",
        "clock set ten years ahead by mistake",
    ];
    // The correction needs a terminal, and a watch that agrees with the clock.
    assert_fails(&at(&env, right, &correct), 2, "not-a-terminal");
    assert_fails(
        &at_terminal(&env, right, "2029-01-04 10:10", &correct),
        4,
        "clock-disagrees",
    );
    assert_eq!(event_total(&env), before, "nothing recorded");
    // Witnessed: the correction names the wrong time and the confirmed one, then the command's
    // software.start; the appliance works again with the right clock, no terminal needed.
    let o = at_terminal(&env, right, "2019-01-04 10:10", &correct);
    let shown = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(0), "{shown}");
    assert!(shown.contains("CLOCK CORRECTED"), "{shown}");
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let (kind, ts, payload): (String, String, String) = c
        .query_row(
            "SELECT kind, ts, payload FROM events WHERE seq = ?1",
            [before + 1],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!(kind, "clock.corrected");
    assert!(ts.starts_with("2019-01-04T09:10:00"), "{ts}");
    let p: serde_json::Value = serde_json::from_str(&payload).unwrap();
    assert_eq!(p["wrong"], wrong.as_str());
    assert_eq!(p["confirmed"], "2019-01-04T09:10:00.000000Z");
    assert_eq!(kind_total(&env, "clock.corrected"), 1);
    let o = at(
        &env,
        "2019-01-04 09:11:00",
        &["keys", "export", "--out", "k2"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // Nothing more to correct: refused (exit 4).
    assert_fails(
        &at_terminal(&env, "2019-01-04 09:12:00", "2019-01-04 10:12", &correct),
        4,
        "clock-correction-refused",
    );
    // A clock set back behind the correction is still refused (exit 5).
    assert_fails(
        &at(
            &env,
            "2019-01-04 09:05:00",
            &["keys", "export", "--out", "k3"],
        ),
        5,
        "clock-went-back",
    );
    // Both verifiers accept the trail: urne's on the database and the export, and Python's.
    let later = "2019-01-04 09:20:00";
    anchor(&env);
    for args in [
        &["audit", "verify", "--keys", "audit-keys"][..],
        &["audit", "export", "--out", "audit.jsonl"],
        &["verify", "audit.jsonl", "--keys", "k2"],
    ] {
        let o = at(&env, later, args);
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let py = std::process::Command::new("python3")
        .arg(root().join("verifier/urne_verify.py"))
        .arg(env.path("audit.jsonl"))
        .args(["--keys", env.path("k2").to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        py.status.success(),
        "{}",
        String::from_utf8_lossy(&py.stderr)
    );
    // Never back past a time a person witnessed (spec/formats.md §6.4 (5) [M-254]): the clock ahead
    // again by hours (no confirmation asked), then a correction to a time before the one the
    // watch gave at the last correction is refused (exit 4), nothing recorded.
    let o = at(
        &env,
        "2019-01-04 12:00:00",
        &["keys", "export", "--out", "k4"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let before = event_total(&env);
    assert_fails(
        &at_terminal(&env, "2019-01-04 09:08:00", "2019-01-04 10:08", &correct),
        4,
        "clock-correction-refused",
    );
    assert_eq!(event_total(&env), before, "nothing recorded");
    // To the watch's time since then: corrected.
    let o = at_terminal(&env, "2019-01-04 09:30:00", "2019-01-04 10:30", &correct);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert_eq!(kind_total(&env, "clock.corrected"), 2);
}
