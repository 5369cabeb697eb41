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
        subjects: vec![super::Verified::words("s")],
        partial: vec!["p".into()],
        notes: vec!["n".into()],
        ..report(&["d1"], &["b1"])
    };
    a.extend(Report {
        checks: vec!["b".into()],
        subjects: vec![super::Verified::words("t")],
        partial: vec!["q".into()],
        notes: vec!["m".into()],
        whole: true,
        ..report(&["d2"], &["b2"])
    });
    assert_eq!(a.checks, ["a", "b"]);
    assert!(a.whole, "outputs verified together stay so once joined");
    assert_eq!(
        a.subjects
            .iter()
            .map(|s| s.words.as_str())
            .collect::<Vec<_>>(),
        ["s", "t"]
    );
    assert_eq!(a.partial, ["p", "q"]);
    assert_eq!(a.notes, ["n", "m"]);
    assert_eq!(a.days, ["d1", "d2"]);
    assert_eq!(a.blocks, ["b1", "b2"]);
}

#[test]
fn an_expected_day_is_every_output_s_and_there_is_one() {
    let day = Expect {
        day: Some("2018-12-22".parse().unwrap()),
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
    let b1 = crate::values::BlockId::parse("noel/100/e1/1").unwrap();
    let block = Expect {
        day: None,
        block: Some(b1.clone()),
    };
    assert_eq!(block.check(&report(&[], &["noel/100/e1/1"])), Ok(()));
    let class = |r: Report| block.check(&r).unwrap_err();
    let e = class(report(&[], &["noel/100/e1/1", "noel/100/e1/2"]));
    assert_eq!(e.class, C::Inconsistent);
    assert_eq!(
        e.what,
        "these outputs are of block noel/100/e1/2, not of block noel/100/e1/1 (--expect-block)"
    );
    for r in [
        report(&[], &[]),
        report(&["d"], &["noel/100/e1/1"]),
        report(&["d"], &[]),
    ] {
        assert_eq!(
            class(r).what,
            "nothing verified here is of block noel/100/e1/1 alone (--expect-block)"
        );
    }
}

#[test]
fn a_sittings_report_names_it_lists_its_outputs_and_says_what_it_did_not_verify() {
    // sitting-valid: sitting 1 alone, listing two outputs (a draw and its void notice).
    let v = super::tests_vectors::vector("sitting-valid");
    let r = super::tests_vectors::run(&v).unwrap();
    assert_eq!(
        r.subjects
            .iter()
            .map(|s| s.words.as_str())
            .collect::<Vec<_>>(),
        ["sitting 1 (sitting, version 2)"]
    );
    assert!(
        r.checks.iter().any(|c| c.starts_with("history:")),
        "{:?}",
        r.checks
    );
    // What the publish-once check compares (spec/formats.md §8.4): the sitting's number in its trail.
    let subject =
        "sitting 1 of the trail bd158a82c57847079f7b25363a2c7ec3f29fc48ec1440655439d57abe4772449";
    assert_eq!(r.outputs.len(), 1);
    assert_eq!(
        r.outputs[0]
            .subject
            .as_ref()
            .map(ToString::to_string)
            .as_deref(),
        Some(subject)
    );
    assert_eq!(r.published.len(), 1);
    assert_eq!(r.published[0].subject.to_string(), subject);
    assert_eq!(r.sittings.len(), 1);
    assert_eq!((r.sittings[0].number, r.sittings[0].outputs.len()), (1, 2));
    // The outputs it lists are said to be unverified here (and, from the history, its
    // predecessor to be elsewhere).
    assert!(
        r.notes
            .iter()
            .any(|n| n.contains("the 2 output(s) sitting 1 lists are not verified here")),
        "{:?}",
        r.notes
    );
}
