//! The classes of plays (spec/appliance.md §4.1.1: retail, subscription refused, counting, tested in that
//! order) and `figures.excluded_accounts_with_plays` (spec/appliance.md §4.7: excluded accounts with a play record
//! of any class), end to end through pass 2.

use crate::entries::read::BLOCK;
use crate::entries::testkit::{
    channel_play, entries_of, excl, export, play, rules_with_online, tally, tally_with,
};
use crate::rules::draw::DrawRules;

/// A subscription taken out before the participation period (D-5: never counts).
const OUTSIDE: &str = "2017-06-01T12:00:00Z";
/// A subscription taken out inside the participation period.
const INSIDE: &str = "2018-12-02T00:00:00Z";

#[test]
fn an_excluded_account_is_counted_whatever_the_class_of_its_plays() {
    let t = tally(&export(
        "2018-12-05",
        &[
            // Closed, its only play retail.
            excl(1, "closed"),
            channel_play("r", 1, 5000, "retail", None),
            // Minor, its only play a refused subscription.
            excl(2, "minor"),
            channel_play("s", 2, 5000, "web", Some(OUTSIDE)),
            // Fraud, only counting plays (one with a subscription taken out inside the period).
            excl(3, "fraud"),
            channel_play("c1", 3, 5000, "web", None),
            channel_play("c2", 3, 700, "app", Some(INSIDE)),
            // Closed, no play at all: not counted.
            excl(4, "closed"),
            // Not excluded: the only entries.
            channel_play("n", 5, 2000, "tablet", None),
        ],
    ))
    .unwrap();
    assert_eq!(t.excluded_accounts_with_plays_by_reason, [1, 1, 1]);
    assert_eq!(t.excluded_accounts_with_plays(), 3);
    assert_eq!(t.exclusions_by_reason, [2, 1, 1]);
    assert_eq!(
        (t.plays, t.counting_plays, t.retail_plays),
        (5, 3, 1),
        "plays, counting, retail"
    );
    assert_eq!(t.subscription_plays_refused, 1);
    // Counting plays only: account 3 (excluded) and 5.
    assert_eq!(t.accounts_with_counting_plays, 2);
    assert_eq!([1, 2, 3, 5].map(|a| entries_of(&t, a)), [0, 0, 0, 2]);
    assert_eq!((t.accounts_with_entries, t.total_entries), (1, 2));
}

#[test]
fn an_excluded_account_with_plays_of_every_class_is_counted_once() {
    let t = tally(&export(
        "2018-12-05",
        &[
            channel_play("a", 1, 5000, "retail", None),
            channel_play("b", 1, 5000, "web", Some(OUTSIDE)),
            channel_play("c", 1, 5000, "web", None),
            channel_play("d", 1, 10, "retail", Some(OUTSIDE)),
            excl(1, "minor"),
            excl(2, "fraud"),
            channel_play("e", 2, 10, "retail", None),
            channel_play("f", 2, 10, "retail", None),
        ],
    ))
    .unwrap();
    assert_eq!(t.excluded_accounts_with_plays_by_reason, [0, 1, 1]);
    assert_eq!((t.retail_plays, t.subscription_plays_refused), (4, 1));
    assert_eq!(t.total_entries, 0);
}

#[test]
fn retail_is_tested_before_the_subscription() {
    // A retail play with a subscription taken out outside the period is retail, not refused.
    let t = tally(&export(
        "2018-12-05",
        &[channel_play("a", 1, 5000, "retail", Some(OUTSIDE))],
    ))
    .unwrap();
    assert_eq!((t.retail_plays, t.subscription_plays_refused), (1, 0));
}

#[test]
fn a_channel_outside_the_rules_online_channels_is_retail() {
    // D-3: retail is "not one of the rules' online channels", not the name `retail`.
    let rules = rules_with_online(&["web", "mobile", "tablet"]);
    let records = [
        excl(1, "fraud"),
        channel_play("a", 1, 5000, "app", None),
        channel_play("b", 2, 5000, "app", Some(OUTSIDE)),
        channel_play("c", 3, 5000, "retail", None),
        channel_play("d", 4, 2000, "web", None),
        // The same in a layout the fast path declines (the general reader decides).
        channel_play("e", 5, 5000, "app", None).replace(",\"game\"", ", \"game\""),
    ];
    let data = export("2018-12-05", &records);
    for threads in [1, 3] {
        let t = tally_with(&data, &rules, threads).unwrap();
        assert_eq!(t.plays, 5);
        assert_eq!(t.retail_plays, 4, "app and retail plays are retail");
        assert_eq!(t.subscription_plays_refused, 0);
        assert_eq!(t.counting_plays, 1);
        assert_eq!(t.excluded_accounts_with_plays_by_reason, [0, 0, 1]);
        assert_eq!([2, 4, 5].map(|a| entries_of(&t, a)), [0, 2, 0]);
    }
    // Under the shipped rules, `app` is online: those plays count (or are refused for their
    // subscription).
    let t = tally_with(&data, &DrawRules::chanceux_noel_2018(), 1).unwrap();
    assert_eq!(
        (
            t.retail_plays,
            t.subscription_plays_refused,
            t.counting_plays
        ),
        (1, 1, 3)
    );
    assert_eq!([2, 4, 5].map(|a| entries_of(&t, a)), [0, 2, 3]);
}

#[test]
fn excluded_accounts_with_plays_do_not_depend_on_chunks_or_threads() {
    // Enough plays for several chunks, and more uncounted plays in one worker than its list
    // holds before it is first deduplicated: the excluded accounts' only plays are far apart
    // (so in different workers' lists), and the figures are the same on any thread count.
    let mut recs: Vec<String> = (0..80_000u32)
        .map(|i| {
            let channel = if i % 10 == 0 { "web" } else { "retail" };
            #[allow(clippy::cast_possible_truncation)] // i % 200 < 256
            let account = 10 + (i % 200) as u8;
            channel_play(&format!("p{i}"), account, 1000, channel, None)
        })
        .collect();
    recs[100] = channel_play("only-retail", 1, 5000, "retail", None);
    recs[79_000] = channel_play("only-refused", 2, 5000, "mobile", Some(OUTSIDE));
    recs[40_000] = channel_play("only-counting", 3, 5000, "web", None);
    for (a, r) in [(1, "closed"), (2, "minor"), (3, "fraud"), (4, "closed")] {
        recs.push(excl(a, r));
    }
    // Accounts 10, 20, … 200 play on the web only, the others at retail only: exclude one that
    // never counts (11) and one that does (10).
    recs.push(excl(11, "minor"));
    recs.push(excl(10, "fraud"));
    let data = export("2018-12-05", &recs);
    assert!(data.len() > 3 * BLOCK);
    let rules = DrawRules::chanceux_noel_2018();
    let one = tally_with(&data, &rules, 1).unwrap();
    assert_eq!(one.excluded_accounts_with_plays_by_reason, [1, 2, 2]);
    assert_eq!(one.subscription_plays_refused, 1);
    for threads in [2, 3, 5] {
        assert_eq!(
            tally_with(&data, &rules, threads).unwrap(),
            one,
            "{threads}"
        );
    }
}

#[test]
fn a_play_with_a_subscription_inside_the_period_counts() {
    let t = tally(&export(
        "2018-12-05",
        &[
            channel_play("a", 1, 1000, "web", Some(INSIDE)),
            play("b", 2, "2018-12-05T10:00:00+01:00", 1000, "web"),
        ],
    ))
    .unwrap();
    assert_eq!(
        (t.counting_plays, t.retail_plays, t.total_entries),
        (2, 0, 2)
    );
    assert_eq!(t.excluded_accounts_with_plays(), 0);
}
