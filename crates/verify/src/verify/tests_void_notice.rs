//! A void notice in a history (spec/formats.md §4.6, §8.4), from mutation testing's survivors
//! (docs/testing.md): one history holds one void of an attempt, and a block's notice reports
//! its block.

use super::FailureClass as C;
use super::folder::MemFolder;
use super::tests_kit::{dir, edit, keys, load};
use super::tests_vectors::at;

#[test]
fn two_void_notices_of_one_attempt_in_one_history_are_a_fork() {
    let mut root = load("history-valid-void-notice");
    let k = keys(&root);
    let mut other: MemFolder = at(&root, "pub/V").clone();
    edit(&mut other, "void-notice.json", |n| {
        n["reason"] = "une autre raison, procès-verbal n° 13".into();
    });
    dir(&mut root, "pub").folders.insert("W".into(), other);
    let e = super::outputs::verify_outputs(at(&root, "pub"), &k, &super::Expect::default())
        .unwrap_err();
    assert_eq!(e.class, C::Fork, "{}", e.what);
    assert!(
        e.what
            .contains("both publish the void of day 2018-12-23 attempt 1"),
        "{}",
        e.what
    );
}

#[test]
fn a_block_void_notice_reports_its_block() {
    let root = load("history-valid-void-notice");
    let k = keys(&root);
    let mut v: MemFolder = at(&root, "pub/V").clone();
    edit(&mut v, "void-notice.json", |n| {
        n["day"] = serde_json::Value::Null;
        n["block"] = "noel-de-la-chance-2015/100/e1/3".into();
        n["operation"] = "noel-de-la-chance-2015".into();
    });
    let r = super::void_notice::verify_void_notice(&v, &k).unwrap();
    assert_eq!(r.blocks, ["noel-de-la-chance-2015/100/e1/3"]);
    assert!(r.days.is_empty());
}
