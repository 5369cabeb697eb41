//! The verification's small parts (`verify/mod.rs`): which classes are verification failures,
//! a report extended by another, and `--expect-day` / `--expect-block` decided on a report.

use super::{Expect, FailureClass as C, Report};

#[test]
fn usage_and_unreadable_are_not_verification_failures() {
    for c in [
        C::BadSignature,
        C::Malformed,
        C::CommitmentMismatch,
        C::DrawMismatch,
        C::Inconsistent,
        C::Fork,
    ] {
        assert!(c.is_verification(), "{c:?}");
    }
    assert!(!C::Usage.is_verification());
    assert!(!C::Unreadable.is_verification());
    assert_eq!(C::Usage.name(), "usage");
    assert_eq!(C::Unreadable.name(), "unreadable");
    assert_eq!(C::Fork.name(), "fork");
}

fn report(days: &[&str], blocks: &[&str]) -> Report {
    Report {
        days: days.iter().map(|d| (*d).to_string()).collect(),
        blocks: blocks.iter().map(|b| (*b).to_string()).collect(),
        ..Report::default()
    }
}

#[test]
fn a_report_extended_keeps_both_in_order() {
    let mut a = Report {
        checks: vec!["a".into()],
        subjects: vec!["s".into()],
        partial: vec!["p".into()],
        notes: vec!["n".into()],
        ..report(&["d1"], &["b1"])
    };
    a.extend(Report {
        checks: vec!["b".into()],
        subjects: vec!["t".into()],
        partial: vec!["q".into()],
        notes: vec!["m".into()],
        ..report(&["d2"], &["b2"])
    });
    assert_eq!(a.checks, ["a", "b"]);
    assert_eq!(a.subjects, ["s", "t"]);
    assert_eq!(a.partial, ["p", "q"]);
    assert_eq!(a.notes, ["n", "m"]);
    assert_eq!(a.days, ["d1", "d2"]);
    assert_eq!(a.blocks, ["b1", "b2"]);
}

#[test]
fn an_expected_day_is_every_output_s_and_there_is_one() {
    let day = Expect {
        day: Some("2018-12-22".into()),
        block: None,
    };
    assert_eq!(day.check(&report(&["2018-12-22"], &[])), Ok(()));
    assert_eq!(
        day.check(&report(&["2018-12-22", "2018-12-22"], &[])),
        Ok(())
    );
    let class = |r: Report| day.check(&r).unwrap_err();
    let e = class(report(&["2018-12-22", "2018-12-23"], &[]));
    assert_eq!(e.class, C::Inconsistent);
    assert_eq!(
        e.what,
        "these outputs are of day 2018-12-23, not of day 2018-12-22 (--expect-day)"
    );
    for r in [
        report(&[], &[]),
        report(&["2018-12-22"], &["b"]),
        report(&[], &["b"]),
    ] {
        assert_eq!(
            class(r).what,
            "nothing verified here is of day 2018-12-22 alone (--expect-day)"
        );
    }
    assert_eq!(Expect::default().check(&report(&["x"], &["y"])), Ok(()));
}

#[test]
fn an_expected_block_is_every_output_s_and_there_is_one() {
    let block = Expect {
        day: None,
        block: Some("b1".into()),
    };
    assert_eq!(block.check(&report(&[], &["b1"])), Ok(()));
    let class = |r: Report| block.check(&r).unwrap_err();
    let e = class(report(&[], &["b1", "b2"]));
    assert_eq!(e.class, C::Inconsistent);
    assert_eq!(
        e.what,
        "these outputs are of block b2, not of block b1 (--expect-block)"
    );
    for r in [
        report(&[], &[]),
        report(&["d"], &["b1"]),
        report(&["d"], &[]),
    ] {
        assert_eq!(
            class(r).what,
            "nothing verified here is of block b1 alone (--expect-block)"
        );
    }
}
