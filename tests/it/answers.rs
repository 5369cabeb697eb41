//! Honest answers (issue 23, item 3): what a command records and says is what happened, once.

use crate::common::*;
use crate::draws::{seal, simulate};
use crate::outputs::count;

/// `draw.late` (D-8) is recorded once per attempt: runs refused before the entropy (here: no
/// terminal for the commissaire's contribution, exit 2) and run again find it recorded already.
#[test]
fn a_late_draw_is_recorded_late_once_per_attempt() {
    let env = Env::new();
    let day = "2018-12-04";
    let export = simulate(&env, day, 300, 6, &[]);
    seal(&env, &export);
    for _ in 0..3 {
        let o = env.urne_direct(&["draw", "--day", day, "--out", "d1"]);
        assert_fails(&o, 2);
    }
    assert_eq!(count(&env, "draw.late"), 1, "one draw.late for attempt 1");
    env.draw_ok(day, "d1");
    assert_eq!(count(&env, "draw.late"), 1);
    // A new attempt is late again, once.
    env.ok(&[
        "void",
        "--day",
        day,
        "--reason",
        "a test of the late record",
    ]);
    seal(&env, &export);
    env.draw_ok(day, "d2");
    assert_eq!(count(&env, "draw.late"), 2);
}
