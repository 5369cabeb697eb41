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
    let err = assert_fails(&seal("2018-12-04 22:59:59"), 4);
    assert!(err.contains("has not ended yet"), "{err}");
    assert!(!err.contains("SEALED"));
    // A clock set back behind the trail's last event: refused before anything, nothing recorded.
    let now = event_total(&env);
    let err = assert_fails(&seal("2018-12-03 12:00:00"), 5);
    assert!(err.contains("the clock was set back"), "{err}");
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
            "its generated_at 2018-12-05T23:59:59+01:00 is before the end of its day 2018-12-05 (2018-12-06T00:00:00+01:00 in Europe/Paris)",
        ),
        (
            export(12, "2018-12-06T00:00:00+01:00", "2018-12-05T22:59:59Z"),
            "its status_as_of 2018-12-05T22:59:59Z is before the end of its day",
        ),
        // Dated one second after the appliance's clock.
        (
            export(13, "2018-12-06T08:00:01+01:00", "2018-12-06T08:00:00+01:00"),
            "its generated_at 2018-12-06T08:00:01+01:00 is later than the appliance's clock (2018-12-06T08:00:00+01:00)",
        ),
        (
            export(14, "2018-12-06T07:30:00+01:00", "2018-12-07T07:30:00+01:00"),
            "its status_as_of 2018-12-07T07:30:00+01:00 is later than the appliance's clock",
        ),
    ];
    for (i, (file, why)) in refused.iter().enumerate() {
        let err = assert_fails(&at(&env, now, &seal_args(file)), 2);
        assert!(err.contains(why), "{err}");
        assert!(err.contains(&file.display().to_string()), "{err}");
        assert_eq!(kind_total(&env, "input.rejected"), i as i64 + 1, "recorded");
    }
    assert_eq!(kind_total(&env, "draw.seal"), 0, "nothing sealed");
    // Made at midnight exactly, its status as of the clock's second: sealed.
    let genuine = export(15, "2018-12-06T00:00:00+01:00", "2018-12-06T08:00:00+01:00");
    let o = at(&env, now, &seal_args(&genuine));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(kind_total(&env, "draw.seal"), 1);
    env.ok(&["audit", "verify"]);
}
