//! Pass 2 end to end, on small exports built by the test kit: the rules of spec/formats.md §4.1 and
//! every refusal of spec/formats.md §4.1.1, at the line it applies to.

use super::*;
use crate::entries::read::BLOCK;
use crate::entries::testkit::{
    PRODUCER, acct, entries_of, excl, export, play, refusal, sub_play, tally,
};
use crate::entries::{ExportErrorKind, VerifiedExport};

#[test]
fn midnight_edges_follow_paris_time_whatever_the_offset() {
    // D-1: 2018-12-01 in Paris is [2018-11-30T23:00Z, 2018-12-01T23:00Z).
    for at in [
        "2018-12-01T00:00:00+01:00",
        "2018-11-30T23:00:00Z",
        "2018-11-30T23:30:00Z",
        "2018-11-30T18:00:00-05:00",
        "2018-12-01T23:59:59+01:00",
        "2018-12-01T22:59:59Z",
        "2018-12-01T17:59:59-05:00",
        "2018-12-01T22:59:59.999+00:00",
    ] {
        let t = tally(&export("2018-12-01", &[play("p1", 1, at, 1000, "web")]))
            .unwrap_or_else(|e| panic!("{at}: {e}"));
        assert_eq!(entries_of(&t, 1), 1, "{at}");
    }
    for at in [
        "2018-12-02T00:00:00+01:00",
        "2018-12-01T23:00:00Z",
        "2018-12-01T18:00:00-05:00",
        "2018-11-30T23:59:59+01:00",
        "2018-11-30T22:59:59Z",
        "2018-11-30T17:59:59-05:00",
    ] {
        let e = refusal(&export("2018-12-01", &[play("p1", 1, at, 1000, "web")]));
        assert_eq!(e.line, Some(2), "{at}");
        assert_eq!(e.kind.name(), "play-not-on-day", "{at}");
    }
}

#[test]
fn tranche_reached_exactly_counts() {
    // D-3: a tranche is €10 in P1–P3, in one or several plays.
    let t = tally(&export(
        "2018-12-10",
        &[
            play("a", 1, "2018-12-10T10:00:00+01:00", 999, "web"),
            play("b", 2, "2018-12-10T10:00:00+01:00", 1000, "web"),
            play("c", 3, "2018-12-10T10:00:00+01:00", 600, "web"),
            play("d", 3, "2018-12-10T11:00:00+01:00", 400, "mobile"),
            play("e", 4, "2018-12-10T11:00:00+01:00", 1999, "app"),
        ],
    ))
    .unwrap();
    assert_eq!(entries_of(&t, 1), 0);
    assert_eq!(entries_of(&t, 2), 1);
    assert_eq!(entries_of(&t, 3), 1);
    assert_eq!(entries_of(&t, 4), 1);
    // An account short of one tranche has no place in the entry list (spec/formats.md §4.1: accounts
    // with at least one entry), nor in the figures.
    assert_eq!(t.entries.len(), 3);
    assert!(t.entries.iter().all(|e| e.entries > 0));
    assert_eq!((t.accounts_with_entries, t.total_entries), (3, 3));
    assert_eq!(t.tranche_cents, 1000);
    assert_eq!(t.period_id, "P2");
}

#[test]
fn p4_tranche_is_fifteen_euros() {
    // D-3: €15 in P4.
    let t = tally(&export(
        "2018-12-22",
        &[
            play("a", 1, "2018-12-22T10:00:00+01:00", 1499, "web"),
            play("b", 2, "2018-12-22T10:00:00+01:00", 1500, "web"),
            play("c", 3, "2018-12-22T10:00:00+01:00", 2999, "web"),
            play("d", 4, "2018-12-22T10:00:00+01:00", 3000, "web"),
        ],
    ))
    .unwrap();
    assert_eq!(t.period_id, "P4");
    assert_eq!([1, 2, 3, 4].map(|a| entries_of(&t, a)), [0, 1, 1, 2]);
}

#[test]
fn daily_cap_is_three_entries() {
    // D-4: 4 tranches (and far more) give 3 entries.
    let t = tally(&export(
        "2018-12-03",
        &[
            play("a", 1, "2018-12-03T10:00:00+01:00", 4000, "web"),
            play("b", 2, "2018-12-03T10:00:00+01:00", 3000, "web"),
            play("c", 3, "2018-12-03T10:00:00+01:00", 100_000_000, "web"),
        ],
    ))
    .unwrap();
    assert_eq!([1, 2, 3].map(|a| entries_of(&t, a)), [3, 3, 3]);
    assert_eq!(t.total_entries, 9);
}

#[test]
fn subscriptions_count_only_if_taken_out_in_the_participation_period() {
    // D-5: [2018-12-01 00:00, 2018-12-25 00:00) Paris.
    let at = "2018-12-05T10:00:00+01:00";
    let t = tally(&export(
        "2018-12-05",
        &[
            sub_play("before", 1, at, 1000, "2018-11-30T23:59:59+01:00"),
            sub_play("start", 2, at, 1000, "2018-11-30T23:00:00Z"),
            sub_play("inside", 3, at, 1000, "2018-12-03T08:00:00-05:00"),
            sub_play("last", 4, at, 1000, "2018-12-24T23:59:59+01:00"),
            sub_play("end", 5, at, 1000, "2018-12-25T00:00:00+01:00"),
            sub_play("after", 6, at, 1000, "2019-01-10T00:00:00Z"),
            sub_play("long-ago", 7, at, 1000, "2017-06-01T12:00:00Z"),
        ],
    ))
    .unwrap();
    assert_eq!(
        [1, 2, 3, 4, 5, 6, 7].map(|a| entries_of(&t, a)),
        [0, 1, 1, 1, 0, 0, 0]
    );
    assert_eq!(t.subscription_plays_refused, 4);
    assert_eq!(t.counting_plays, 3);
}

#[test]
fn retail_never_counts() {
    // D-3: retail play does not count, whatever the stake.
    let t = tally(&export(
        "2018-12-05",
        &[
            play("r", 1, "2018-12-05T10:00:00+01:00", 50_000, "retail"),
            play("w", 1, "2018-12-05T10:00:00+01:00", 500, "web"),
            play("t", 2, "2018-12-05T10:00:00+01:00", 1000, "tablet"),
        ],
    ))
    .unwrap();
    assert_eq!(entries_of(&t, 1), 0);
    assert_eq!(entries_of(&t, 2), 1);
    assert_eq!(t.retail_plays, 1);
    assert_eq!(t.counting_plays, 2);
}

#[test]
fn excluded_accounts_get_no_entry() {
    // D-6, D-13: account 1 played and is closed; account 9 is excluded but did not play.
    let t = tally(&export(
        "2018-12-05",
        &[
            excl(1, "closed"),
            play("a", 1, "2018-12-05T10:00:00+01:00", 3000, "web"),
            play("b", 2, "2018-12-05T10:00:00+01:00", 3000, "web"),
            excl(9, "minor"),
            excl(3, "fraud"),
            play("c", 3, "2018-12-05T10:00:00+01:00", 300, "retail"),
        ],
    ))
    .unwrap();
    assert_eq!(entries_of(&t, 1), 0);
    assert_eq!(entries_of(&t, 2), 3);
    assert_eq!(t.exclusions_by_reason, [1, 1, 1]);
    // Account 3 had only a retail play: an excluded account with plays all the same (spec/formats.md
    // §4.7: a play record of any class).
    assert_eq!(t.excluded_accounts_with_plays_by_reason, [1, 0, 1]);
    assert_eq!(t.accounts_with_counting_plays, 2);
    assert_eq!(t.total_entries, 3);
}

#[test]
fn record_order_does_not_change_the_tally() {
    let mut recs = vec![
        excl(5, "closed"),
        play("a", 1, "2018-12-05T10:00:00+01:00", 1200, "web"),
        play("b", 2, "2018-12-05T10:00:00+01:00", 2000, "web"),
        play("c", 1, "2018-12-05T11:00:00+01:00", 900, "app"),
        play("d", 5, "2018-12-05T11:00:00+01:00", 9000, "app"),
        play("e", 3, "2018-12-05T11:00:00+01:00", 1000, "app"),
    ];
    let base = tally(&export("2018-12-05", &recs)).unwrap();
    for _ in 0..recs.len() {
        recs.rotate_left(1);
        recs.swap(0, 3);
        let t = tally(&export("2018-12-05", &recs)).unwrap();
        assert_eq!(t.entries, base.entries);
        assert_eq!(t.total_entries, 5);
    }
}

#[test]
fn duplicate_key_in_one_object_is_refused() {
    let line = format!(
        r#"{{"type":"play","id":"a","account":"{}","at":"2018-12-05T10:00:00+01:00","stake_cents":1000,"stake_cents":5000,"channel":"web","game":"loto","subscription":null}}"#,
        acct(1)
    );
    let e = refusal(&export("2018-12-05", &[line]));
    assert_eq!(
        e.to_string(),
        r#"line 2: the key "stake_cents" appears twice in one object"#
    );
    // Also for an unknown field, and inside the subscription object.
    let line = play("a", 1, "2018-12-05T10:00:00+01:00", 1000, "web")
        .replace(r#""game""#, r#""x":1,"x":2,"game""#);
    assert_eq!(
        refusal(&export("2018-12-05", &[line])).kind.name(),
        "duplicate-key"
    );
    let line = sub_play(
        "a",
        1,
        "2018-12-05T10:00:00+01:00",
        1000,
        "2018-12-02T00:00:00Z",
    )
    .replace(
        r#""subscribed_at""#,
        r#""note":"","note":"","subscribed_at""#,
    );
    assert_eq!(
        refusal(&export("2018-12-05", &[line])).kind.name(),
        "duplicate-key"
    );
}

#[test]
fn unknown_fields_are_ignored() {
    let line = play("a", 1, "2018-12-05T10:00:00+01:00", 1000, "web")
        .replace(r#""game""#, r#""future":{"deep":[1,{"k":null}]},"game""#);
    let mut data = export("2018-12-05", &[line]);
    data.splice(1..1, br#""comment":"hello","#.iter().copied());
    assert_eq!(entries_of(&tally(&data).unwrap(), 1), 1);
}

#[test]
fn crlf_is_refused() {
    let data = export(
        "2018-12-05",
        &[play("a", 1, "2018-12-05T10:00:00+01:00", 1000, "web")],
    );
    let text = String::from_utf8(data).unwrap().replace('\n', "\r\n");
    let e = refusal(text.as_bytes());
    assert_eq!((e.line, e.kind), (Some(1), ExportErrorKind::Crlf));
    // Only one record line in CRLF.
    let mut data = export(
        "2018-12-05",
        &[play("a", 1, "2018-12-05T10:00:00+01:00", 1000, "web")],
    );
    let n = data.len();
    data.insert(n - 1, b'\r');
    assert_eq!(refusal(&data).line, Some(2));
}

#[test]
fn missing_final_newline_is_refused() {
    let mut data = export(
        "2018-12-05",
        &[
            play("a", 1, "2018-12-05T10:00:00+01:00", 1000, "web"),
            play("b", 1, "2018-12-05T10:00:00+01:00", 1000, "web"),
        ],
    );
    data.pop();
    let e = refusal(&data);
    assert_eq!(
        (e.line, e.kind),
        (Some(3), ExportErrorKind::MissingFinalNewline)
    );
    let header_only = export("2018-12-05", &[]);
    assert_eq!(
        refusal(&header_only[..header_only.len() - 1]).kind,
        ExportErrorKind::MissingFinalNewline
    );
    assert_eq!(refusal(b"").kind, ExportErrorKind::Empty);
}

#[test]
fn header_is_checked_field_by_field() {
    let good = String::from_utf8(export("2018-12-05", &[])).unwrap();
    for (from, to, name) in [
        (
            r#""format":"draw-entries""#,
            r#""format":"draw-entry""#,
            "wrong-format",
        ),
        (r#""version":1"#, r#""version":2"#, "wrong-version"),
        (
            r#""day":"2018-12-05""#,
            r#""day":"2018-12-25""#,
            "day-not-in-operation",
        ),
        (
            r#""day":"2018-12-05""#,
            r#""day":"2018-12-5""#,
            "out-of-range",
        ),
        (PRODUCER, "fedcba9876543210", "wrong-producer"),
        (r#""plays":0"#, r#""plays":-1"#, "out-of-range"),
        (r#""plays":0"#, r#""plays":"0""#, "wrong-type"),
        (r#""exclusions":0"#, r#""exclusions":1"#, "count-mismatch"),
        (
            r#","status_as_of":"2018-12-26T07:30:00+01:00""#,
            "",
            "missing-field",
        ),
        (
            "2018-12-26T07:30:00+01:00",
            "2018-12-26 07:30",
            "out-of-range",
        ),
    ] {
        let bad = good.replacen(from, to, 1);
        assert_ne!(bad, good);
        assert_eq!(refusal(bad.as_bytes()).kind.name(), name, "{to}");
    }
    assert_eq!(tally(good.as_bytes()).unwrap().total_entries, 0);
}

#[test]
fn records_are_checked_field_by_field() {
    let ok = play("a", 1, "2018-12-05T10:00:00+01:00", 1000, "web");
    for (from, to, name) in [
        (r#""id":"a""#, r#""id":"""#, "out-of-range"),
        (r#""id":"a""#, r#""id":"a b""#, "out-of-range"),
        (r#""id":"a""#, r#""id":7"#, "wrong-type"),
        (r#","id":"a""#, "", "missing-field"),
        (
            r#""stake_cents":1000"#,
            r#""stake_cents":0"#,
            "out-of-range",
        ),
        (
            r#""stake_cents":1000"#,
            r#""stake_cents":100000001"#,
            "out-of-range",
        ),
        (
            r#""stake_cents":1000"#,
            r#""stake_cents":1000.0"#,
            "wrong-type",
        ),
        (
            r#""stake_cents":1000"#,
            r#""stake_cents":"1000""#,
            "wrong-type",
        ),
        (r#""channel":"web""#, r#""channel":"WEB""#, "out-of-range"),
        (r#""game":"loto""#, r#""game":"""#, "out-of-range"),
        (
            r#""subscription":null"#,
            r#""subscription":"x""#,
            "wrong-type",
        ),
        (
            r#""subscription":null"#,
            r#""subscription":{}"#,
            "missing-field",
        ),
        (r#","subscription":null"#, "", "missing-field"),
        (r#""type":"play""#, r#""type":"bonus""#, "unknown-type"),
        ("+01:00", "+0100", "out-of-range"),
    ] {
        let bad = ok.replacen(from, to, 1);
        assert_ne!(bad, ok);
        let e = refusal(&export("2018-12-05", &[bad]));
        assert_eq!((e.line, e.kind.name()), (Some(2), name), "{to}");
    }
    let e = refusal(&export(
        "2018-12-05",
        &[excl(1, "closed").replace("closed", "gone")],
    ));
    assert_eq!(e.kind.name(), "out-of-range");
}

#[test]
fn duplicates_are_reported_at_their_second_line() {
    let p = play("p-1", 1, "2018-12-05T10:00:00+01:00", 1000, "web");
    let e = refusal(&export(
        "2018-12-05",
        &[p.clone(), excl(2, "closed"), p.clone(), p],
    ));
    assert_eq!(
        e.to_string(),
        r#"line 4: duplicate play id "p-1" (first on line 2)"#
    );
    let long = "x".repeat(64);
    let p = play(&long, 1, "2018-12-05T10:00:00+01:00", 1000, "web");
    let e = refusal(&export("2018-12-05", &[p.clone(), p]));
    assert_eq!(
        e.to_string(),
        "line 3: duplicate play id (the same id as line 2)"
    );
    let e = refusal(&export(
        "2018-12-05",
        &[excl(2, "closed"), excl(2, "fraud")],
    ));
    assert_eq!((e.line, e.kind.name()), (Some(3), "duplicate-exclusion"));
    // The earliest line wins: a bad line before the duplicate is what is reported.
    let p = play("p-1", 1, "2018-12-05T10:00:00+01:00", 1000, "web");
    let e = refusal(&export("2018-12-05", &[p.clone(), "{".into(), p]));
    assert_eq!((e.line, e.kind.name()), (Some(3), "invalid-json"));
}

#[test]
fn not_utf8_is_refused() {
    let mut data = export(
        "2018-12-05",
        &[play("a", 1, "2018-12-05T10:00:00+01:00", 1000, "web")],
    );
    let i = data.len() - 5;
    data[i] = 0xff;
    assert_eq!(refusal(&data).kind, ExportErrorKind::NotUtf8);
}

#[test]
fn large_input_spanning_many_chunks_gives_the_same_result_on_any_thread_count() {
    let recs: Vec<String> = (0..40_000u32)
        .map(|i| {
            play(
                &format!("p{i}"),
                (i % 251) as u8,
                "2018-12-05T10:00:00Z",
                u64::from(50 + i % 300),
                if i % 33 == 0 { "retail" } else { "web" },
            )
        })
        .collect();
    let data = export("2018-12-05", &recs);
    assert!(data.len() > BLOCK);
    let v = VerifiedExport {
        sha256: crate::crypto::sha256(&data).0,
        size: data.len() as u64,
        key: [0; 32],
        key_id: PRODUCER.parse().unwrap(),
    };
    let rules = DrawRules::chanceux_noel_2018();
    let one =
        tally_export_with(|| Ok(&data[..]), &v, &rules, &TallyOptions { threads: 1 }).unwrap();
    for threads in [2, 3, 5] {
        let t = tally_export_with(|| Ok(&data[..]), &v, &rules, &TallyOptions { threads }).unwrap();
        assert_eq!(t, one);
    }
    assert_eq!(one.plays, 40_000);
    assert_eq!(one.accounts_with_entries, 251);
    assert!(one.entries.iter().all(|e| e.entries == 3));

    // Duplicates in chunks far apart (so in different workers' lists) are found, and the
    // one reported is the same whatever the thread count: the earliest second occurrence.
    let mut dup = recs.clone();
    dup[39_000] = dup[10].clone();
    dup[30_000] = dup[20_000].clone();
    let data = export("2018-12-05", &dup);
    let v = VerifiedExport {
        sha256: crate::crypto::sha256(&data).0,
        size: data.len() as u64,
        ..v
    };
    for threads in [1, 2, 3, 5] {
        let e =
            tally_export_with(|| Ok(&data[..]), &v, &rules, &TallyOptions { threads }).unwrap_err();
        assert_eq!(
            e.to_string(),
            r#"line 30002: duplicate play id "p20000" (first on line 20002)"#,
            "{threads} threads"
        );
    }
}
