//! The clock does not decide alone (issue 11, "the clock"): the appliance's clock is someone at
//! the machine's to set (tier a). A day is sealed only once it has ended, and a clock set back
//! behind the trail's last event is refused before anything is done. The clock is moved with
//! libfaketime (Debian's `faketime`, installed by scripts/lib.sh), as an insider would.

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
    let export = simulate(&env, "2018-12-04", 200, 3, &[]);
    let seal = |when: &str| {
        at(
            &env,
            when,
            &[
                "seal",
                "--rules",
                root()
                    .join("rules/chanceux-noel-2018.json")
                    .to_str()
                    .unwrap(),
                "--entries",
                export.to_str().unwrap(),
            ],
        )
    };
    // 2018-12-04 at 22:59:59 UTC is 23:59:59 in Paris (D-1): the day has not ended.
    let before = event_total(&env);
    let err = assert_fails(&seal("2018-12-04 22:59:59"), 4);
    assert!(err.contains("has not ended yet"), "{err}");
    assert!(!err.contains("SEALED"));
    // A clock set back behind the trail's last event: refused before anything, nothing recorded.
    let now = event_total(&env);
    let err = assert_fails(&seal("2018-12-03 12:00:00"), 4);
    assert!(err.contains("the clock was set back"), "{err}");
    assert_eq!(event_total(&env), now, "nothing recorded");
    // At midnight in Paris (23:00:00 UTC), the day has ended and seals.
    let o = seal("2018-12-04 23:00:00");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(event_total(&env) > before);
}
