//! Tests written from the survivors of mutation testing (docs/testing.md, "Mutation testing")
//! in the reading of signed files and manifests: which other files of a folder tell "the keys
//! are right and this file was altered" from "these are another appliance's outputs" (spec/formats.md §1.4),
//! a manifest's day and file list read strictly (spec/formats.md §4.7), and which sets of trails are one history
//! (spec/appliance.md §6.8, spec/formats.md §8.4).

use super::FailureClass as C;
use super::folder::MemFolder;
use super::history::{Output, check_linear};
use super::manifest_check::parse_manifest;
use super::signed::read_signed_opt;
use super::tests_kit::{dir, json, key, load, put_signed};
use crate::audit::chain::Checkpoint;
use crate::audit::history::{History, Restart};
use crate::crypto::Hash32;
use ed25519_dalek::Signer;

/// A folder holding `result.json` naming another result key, signed by another key (it does not
/// verify under the vectors' result key), and `other` signed by the vectors' result key.
fn altered_with(other: &str) -> MemFolder {
    let mut f = MemFolder::default();
    let bytes = br#"{"result_key_id": "0123456789abcdef"}"#.to_vec();
    let sig = key("not ours").sign(&bytes).to_bytes().to_vec();
    f.files.insert("result.json".into(), bytes);
    f.files.insert("result.json.sig".into(), sig);
    if !other.is_empty() {
        put_signed(&mut f, other, b"{}".to_vec());
    }
    f
}

fn class_with(other: &str) -> C {
    let k = key("result").verifying_key().to_bytes();
    read_signed_opt(&altered_with(other), "result.json", &k)
        .unwrap_err()
        .class
}

#[test]
fn another_output_file_that_verifies_says_the_file_was_altered() {
    for other in [
        "bundle.json",
        "checkpoint.note",
        "leaves.bin",
        "pv.html",
        "rules.json",
        "manifest.json",
        "void-notice.json",
        "sitting.json",
        "minutes.html",
        "b.commit.json",
        "b.manifest.json",
        "b.reveal.json",
    ] {
        assert_eq!(class_with(other), C::BadSignature, "{other}");
    }
}

#[test]
fn no_other_output_file_that_verifies_says_the_keys_are_another_appliances() {
    // Nothing else, or only files that are no output's (whatever signs them).
    for other in ["", "notes.txt", "result.json.bak", "commit.json.txt"] {
        assert_eq!(class_with(other), C::Usage, "{other:?}");
    }
}

#[test]
fn a_manifests_day_is_a_full_date_and_its_files_each_appear_once() {
    let root = load("draw-v2-valid");
    let draw = super::tests_vectors::at(&root, "draw");
    let bytes = &draw.files["manifest.json"];
    assert!(parse_manifest("manifest.json", bytes).is_ok());
    let with = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut v = json(draw, "manifest.json");
        edit(&mut v);
        parse_manifest("manifest.json", &serde_json::to_vec(&v).unwrap())
    };
    // A date chrono reads, but not YYYY-MM-DD.
    let e = with(&|v| v["day"] = "2018-12-1".into()).unwrap_err();
    assert_eq!(e.class, C::Malformed, "{}", e.what);
    // One file listed twice.
    let e = with(&|v| {
        let first = v["files"][0].clone();
        v["files"].as_array_mut().unwrap().insert(0, first);
    })
    .unwrap_err();
    assert_eq!(e.class, C::Malformed, "{}", e.what);
    assert!(e.what.contains("each name once"), "{}", e.what);
}

/// An output of trail `trail`, first of it (no predecessor), at a checkpoint of `size` events and
/// root `root`, stating `restart` (the trail it replaced, the mark's size and root).
fn output(name: &str, trail: u8, restart: Option<(u8, u64, u8)>, size: u64, root: u8) -> Output {
    Output {
        name: name.into(),
        sha256: crate::crypto::sha256(name.as_bytes()),
        history: History {
            trail: Hash32([trail; 32]),
            predecessor: None,
            consistency: vec![],
            restart: restart.map(|(t, s, r)| Restart {
                previous_trail: Hash32([t; 32]),
                previous_mark_size: s,
                previous_mark_root: Hash32([r; 32]),
            }),
        },
        checkpoint: Checkpoint {
            size,
            root: Hash32([root; 32]),
        },
        subject: None,
    }
}

fn linear(outputs: &[Output]) -> Result<(), String> {
    check_linear(outputs, false).map(|_| ()).map_err(|f| {
        assert_eq!(f.class, C::Fork, "{}", f.what);
        f.what
    })
}

#[test]
fn trails_linked_by_restarts_are_one_history_and_any_other_set_of_trails_is_not() {
    // A, replaced by B at its mark of 5 events, replaced by C at B's mark of 3.
    let (a, b, c) = (
        output("a", 1, None, 5, 0xa5),
        output("b", 2, Some((1, 5, 0xa5)), 3, 0xb3),
        output("c", 3, Some((2, 3, 0xb3)), 2, 0xc2),
    );
    assert_eq!(linear(&[a.clone(), b.clone(), c.clone()]), Ok(()));
    assert_eq!(linear(&[a.clone(), b.clone()]), Ok(()));
    // Two trails nothing links: two histories.
    let other = output("other", 4, None, 2, 0xd2);
    let e = linear(&[a.clone(), other]).unwrap_err();
    assert!(e.contains("not one chain of witnessed restarts"), "{e}");
    // Two trails both replacing A.
    let twin = output("twin", 5, Some((1, 5, 0xa5)), 2, 0xe2);
    let e = linear(&[a.clone(), b.clone(), twin]).unwrap_err();
    assert!(e.contains("not one chain of witnessed restarts"), "{e}");
}

#[test]
fn an_output_of_a_replaced_trail_beyond_the_restarts_mark_is_a_fork() {
    let b = output("b", 2, Some((1, 5, 0xa5)), 3, 0xb3);
    for (size, root) in [(6, 0xa6), (5, 0x00)] {
        let a = output("a", 1, None, size, root);
        let e = linear(&[a, b.clone()]).unwrap_err();
        assert!(e.contains("beyond the last mark"), "{size}: {e}");
    }
    assert_eq!(linear(&[output("a", 1, None, 4, 0xa4), b]), Ok(()));
}

#[test]
fn outputs_of_one_trail_stating_different_restarts_are_a_fork() {
    let one = output("one", 2, Some((1, 5, 0xa5)), 3, 0xb3);
    let two = output("two", 2, Some((1, 4, 0xa4)), 4, 0xb4);
    let e = linear(&[one, two]).unwrap_err();
    assert!(e.contains("state different restarts"), "{e}");
}

#[test]
fn a_refused_export_is_classed_by_why() {
    use super::draw_folder::export_class;
    use crate::entries::ExportErrorKind as K;
    assert_eq!(export_class(&K::Io("gone".into())), C::Unreadable);
    assert_eq!(export_class(&K::TooLarge), C::Malformed);
    assert_eq!(export_class(&K::NotAFile), C::Malformed);
    assert_eq!(export_class(&K::BadSignature), C::BadSignature);
    assert_eq!(export_class(&K::NoTrustedKey), C::BadSignature);
    assert_eq!(export_class(&K::SignatureLength(63)), C::BadSignature);
}

#[test]
fn a_memory_folder_reads_a_file_within_its_limit_only() {
    use super::folder::Folder;
    let f = MemFolder::of([("a".to_string(), vec![0u8; 10])]);
    assert_eq!(f.read("a", 10).unwrap().len(), 10);
    assert!(f.read("a", 9).is_err());
    assert!(f.read("b", 10).is_err());
}

#[test]
fn files_a_draws_manifest_does_not_list_are_noted_and_the_others_are_not() {
    let mut root = load("draw-v2-valid");
    let extra = [
        "notes.txt",
        "result.json.bak",
        "draw.pdf",
        "sitting.json",
        "manifest.json.old",
    ];
    let silent = [
        "stray.sig",
        "other.pub.pem",
        ".urne-staging-1",
        "void-notice.json",
    ];
    for n in extra.iter().chain(&silent) {
        dir(&mut root, "draw")
            .files
            .insert((*n).to_string(), b"x".to_vec());
    }
    let r = super::tests_kit::verify_draw(&root).unwrap();
    let noted: Vec<&String> = r
        .notes
        .iter()
        .filter(|n| n.contains("is not a file of this draw"))
        .collect();
    for n in extra {
        assert!(noted.iter().any(|m| m.contains(n)), "{n}: {noted:?}");
    }
    for n in silent
        .iter()
        .chain(["manifest.json", "result.json", "pv.html"].iter())
    {
        assert!(
            !noted.iter().any(|m| m.contains(&format!("/{n} "))),
            "{n}: {noted:?}"
        );
    }
    assert_eq!(noted.len(), extra.len(), "{noted:?}");
}

#[test]
fn a_subfolder_with_signed_files_but_no_output_is_partial_and_one_without_is_not() {
    let mut root = load("history-valid-pair");
    let keys = super::tests_kit::keys(&root);
    let publ = dir(&mut root, "pub");
    let mut misc = MemFolder::default();
    misc.files.insert("readme.txt".into(), b"notes".to_vec());
    misc.files.insert("photo.jpg".into(), b"jpg".to_vec());
    publ.folders.insert("misc".into(), misc);
    let at = super::tests_vectors::at;
    let r =
        super::outputs::verify_outputs(at(&root, "pub"), &keys, &super::Expect::default()).unwrap();
    assert!(r.partial.is_empty(), "{:?}", r.partial);
    let mut signed = MemFolder::default();
    signed.files.insert("x.json".into(), b"{}".to_vec());
    signed.files.insert("x.json.sig".into(), vec![0; 64]);
    dir(&mut root, "pub")
        .folders
        .insert("signed".into(), signed);
    let r =
        super::outputs::verify_outputs(at(&root, "pub"), &keys, &super::Expect::default()).unwrap();
    assert_eq!(r.partial.len(), 1, "{:?}", r.partial);
    assert!(r.partial[0].contains("holds signed files but no output's primary file"));
}

#[test]
fn two_reveals_of_one_block_in_one_history_are_a_fork() {
    let mut root = load("block-folder-v2-valid");
    let keys = super::tests_kit::keys(&root);
    let block = root.folders["block"].clone();
    let mut other = block.clone();
    super::tests_kit::edit(&mut other, "noel-test_100_2015-12_3.reveal.json", |v| {
        v["revealed_at"] = "2016-01-15T08:00:01.000000Z".into();
    });
    let mut publ = MemFolder::default();
    publ.folders.insert("b1".into(), block);
    publ.folders.insert("b2".into(), other);
    root.folders.insert("pub".into(), publ);
    let at = super::tests_vectors::at;
    let e = super::outputs::verify_outputs(at(&root, "pub"), &keys, &super::Expect::default())
        .unwrap_err();
    assert_eq!(e.class, C::Fork, "{}", e.what);
    assert!(
        e.what
            .contains("both publish the reveal of block noel-test/100/2015-12/3"),
        "{}",
        e.what
    );
}

#[test]
fn a_sitting_lists_outputs_that_must_all_be_among_the_outputs_given() {
    use crate::sitting::SittingOutput;
    let listed = |n: u8| SittingOutput {
        audit_seq: u64::from(n),
        file: format!("f{n}"),
        sha256: Hash32([n; 32]),
    };
    let s = super::Listing {
        name: "sitting-002/sitting.json".into(),
        number: 2,
        outputs: vec![listed(1), listed(2)],
    };
    let given = |ns: &[u8]| -> Vec<Output> {
        ns.iter()
            .map(|n| {
                let mut o = output(&format!("o{n}"), 1, None, 3, 0x33);
                o.sha256 = Hash32([*n; 32]);
                o
            })
            .collect()
    };
    let check = super::sitting::check_listed;
    assert!(check(std::slice::from_ref(&s), &given(&[1, 2, 9])).is_ok());
    let e = check(std::slice::from_ref(&s), &given(&[1, 9])).unwrap_err();
    assert_eq!(e.class, C::Inconsistent);
    assert!(e.what.contains("lists f2"), "{}", e.what);
    assert!(check(&[s], &given(&[9])).is_err());
}

#[test]
fn the_audit_key_and_identity_a_trail_records_are_read_from_its_first_events() {
    use super::trail::{recorded_audit_key, recorded_audit_key_at, trail_identity};
    let ev = |seq: u64, kind: &str, payload: serde_json::Value| crate::audit::Event {
        seq,
        ts: "2018-12-10T09:00:00.000000Z".into(),
        kind: kind.into(),
        payload: payload.to_string(),
        prev_hash: Hash32::ZERO,
        hash: Hash32::ZERO,
    };
    let (k, t) = (Hash32([0xaa; 32]), Hash32([0x77; 32]));
    let first = |kind| {
        ev(
            1,
            kind,
            serde_json::json!({"trail": t.to_string(), "audit_public_key": k.to_string()}),
        )
    };
    for kind in ["trail.created", "trail.restarted"] {
        let events = [first(kind)];
        assert_eq!(recorded_audit_key_at(&events), Some((1, k.0)), "{kind}");
        assert_eq!(trail_identity(&events), Some(t), "{kind}");
    }
    // A version-1 trail: the audit key of its first keys.generated, found by its role.
    let generated = ev(
        3,
        "keys.generated",
        serde_json::json!({"keys": [
            {"role": "result", "public_key": Hash32([0x11; 32]).to_string()},
            {"role": "audit", "public_key": Hash32([0x22; 32]).to_string()}]}),
    );
    let v1 = [ev(1, "software.start", serde_json::json!({})), generated];
    assert_eq!(recorded_audit_key_at(&v1), Some((3, [0x22; 32])));
    assert_eq!(recorded_audit_key(&v1), Some([0x22; 32]));
    assert_eq!(trail_identity(&v1), None);
    // A trail.created that is not event 1 names nothing.
    let late = [
        ev(1, "software.start", serde_json::json!({})),
        first("trail.created"),
    ];
    assert_eq!(trail_identity(&late), None);
    assert_eq!(recorded_audit_key_at(&late), None);
}

#[test]
fn a_file_a_sitting_lists_has_both_the_listed_size_and_sha256() {
    use super::sitting::check_listed_file;
    let b = b"minutes".to_vec();
    let sha = crate::crypto::sha256(&b);
    assert!(check_listed_file("m", &b, 7, &sha).is_ok());
    assert!(
        check_listed_file("m", b"minuteS", 7, &sha).is_err(),
        "same size"
    );
    assert!(
        check_listed_file("m", &b, 8, &sha).is_err(),
        "same bytes, size listed wrong"
    );
}

#[test]
fn a_trail_report_counts_its_checkpoints_and_strict_names_the_first_uncovered_event() {
    use super::trail::{AuditKey, TrailReport};
    use super::trail_export::verify_trail_export;
    let root = load("audit-v2-valid");
    let bytes = &root.files["audit.jsonl"];
    let key =
        super::signed::load_key(super::tests_vectors::at(&root, "keys"), "audit.pub.pem").unwrap();
    let last = super::trail_export::parse_trail_export("audit.jsonl", bytes)
        .unwrap()
        .checkpoints
        .last()
        .unwrap()
        .1
        .clone();
    let held = [("held.note".into(), last)];
    let r = verify_trail_export("audit.jsonl", bytes, &held, AuditKey::Given(key), true).unwrap();
    assert_eq!((r.covered, r.checkpoints as u64), (r.events, r.events + 1));
    assert!(r.trail.is_some());
    // Strict: covered to the end passes; two events after the last checkpoint fail at the first.
    let report = |events, covered| TrailReport {
        events,
        covered,
        ..r.clone()
    };
    assert!(report(5, 5).check_strict().is_ok());
    let f = report(5, 3).check_strict().unwrap_err();
    assert_eq!((f.class, f.seq), (C::Inconsistent, 4));
    assert!(f.reason.contains("events 4..5"), "{}", f.reason);
}

#[test]
fn an_event_time_is_exactly_urnes_27_characters_and_a_real_date() {
    use super::trail::is_one_time_format as is_event_time;
    assert!(is_event_time("2018-12-10T09:00:00.123456Z"));
    assert!(is_event_time("2020-02-29T23:59:59.999999Z"));
    // Proleptic Gregorian: year 0000 is a leap year (as the Python verifier agrees).
    assert!(is_event_time("0000-02-29T00:00:00.000000Z"));
    for bad in [
        "2018-12-10 09:00:00.123456Z",
        "2018-12-10T09:00:00,123456Z",
        "2018-12-10T09:00:00.123456+",
        "2018/12-10T09:00:00.123456Z",
        "2018-12-10T09-00:00.123456Z",
        "2018-12-10T09:00:00.12345aZ",
        "2018-12-10T09:00:00.1234567Z",
        "2018-12-10T09:00:00.12345Z",
        "2018-12-10T09:00:00Z",
        "2018-12-32T09:00:00.123456Z",
        "2019-02-29T09:00:00.123456Z",
        "2018-13-10T09:00:00.123456Z",
        "2018-12-10T24:00:00.123456Z",
        "2018-12-10T09:60:00.123456Z",
        "2018-12-10T09:00:60.123456Z",
    ] {
        assert!(!is_event_time(bad), "{bad}");
    }
}

#[test]
fn event_times_may_repeat_but_never_go_back() {
    let ev = |seq: u64, ts: &str| crate::audit::Event {
        seq,
        ts: ts.into(),
        kind: "command.failed".into(),
        payload: "{}".into(),
        prev_hash: Hash32::ZERO,
        hash: Hash32::ZERO,
    };
    let (t1, t2) = ("2018-12-10T09:00:00.000001Z", "2018-12-10T09:00:00.000002Z");
    let times = super::trail::step5_times;
    assert!(times(&[ev(1, t1), ev(2, t1), ev(3, t2)]).is_ok());
    let f = times(&[ev(1, t2), ev(2, t1)]).unwrap_err();
    assert_eq!((f.class, f.seq), (C::Inconsistent, 2));
}

#[test]
fn only_a_clock_correction_naming_the_time_before_it_may_go_back() {
    let ev = |seq: u64, ts: &str, kind: &str, payload: &str| crate::audit::Event {
        seq,
        ts: ts.into(),
        kind: kind.into(),
        payload: payload.into(),
        prev_hash: Hash32::ZERO,
        hash: Hash32::ZERO,
    };
    let failed = r#"{"command":"seal","class":"refused","error":"x"}"#;
    let (start, ahead, right) = (
        "2018-12-10T09:00:00.000000Z",
        "2028-12-10T09:00:00.000000Z",
        "2018-12-10T09:05:00.000000Z",
    );
    let correction = |wrong: &str, confirmed: &str| {
        format!(r#"{{"wrong":"{wrong}","confirmed":"{confirmed}","reason":"clock set ahead"}}"#)
    };
    let good = correction(ahead, "2018-12-10T09:04:00.000000Z");
    let trail = |third: &str, payload: &str, fourth: &str| {
        vec![
            ev(1, start, "command.failed", failed),
            ev(2, ahead, "command.failed", failed),
            ev(3, right, third, payload),
            ev(4, fourth, "command.failed", failed),
        ]
    };
    let times = super::trail::step5_times;
    assert!(times(&trail("clock.corrected", &good, right)).is_ok());
    let fails_at = |t: Vec<crate::audit::Event>, seq: u64, why: &str| {
        let f = times(&t).unwrap_err();
        assert_eq!((f.class, f.seq), (C::Inconsistent, seq), "{}", f.reason);
        assert!(f.reason.contains(why), "{}", f.reason);
    };
    // The same time going back, in any other event: the clock was set back.
    fails_at(
        trail("command.failed", failed, right),
        3,
        "no clock.corrected",
    );
    // A correction naming another time than the event before it.
    let other = correction("2028-12-10T09:00:00.000001Z", "2018-12-10T09:04:00.000000Z");
    fails_at(
        trail("clock.corrected", &other, right),
        3,
        "corrects the clock from",
    );
    // A correction whose confirmed time is not urne's, or that is not a correction's payload.
    let odd = correction(ahead, "2018-12-10 09:04");
    fails_at(trail("clock.corrected", &odd, right), 3, "confirmed time");
    fails_at(trail("clock.corrected", failed, right), 3, "not one");
    // Only the correction goes back: the event after it is never earlier than it.
    fails_at(
        trail("clock.corrected", &good, "2018-12-10T09:04:59.999999Z"),
        4,
        "no clock.corrected",
    );
}

#[test]
fn a_checkpoint_line_with_any_event_field_is_malformed() {
    use super::trail_export::parse_trail_export;
    let h = Hash32::ZERO.to_string();
    let base = r#"{"type":"checkpoint","size":1,"note":"n""#;
    let ev = format!(
        r#"{{"type":"event","seq":1,"ts":"t","kind":"k","payload":"{{}}","prev_hash":"{h}","hash":"{h}"}}"#
    );
    assert!(parse_trail_export("t", format!("{ev}\n{base}}}\n").as_bytes()).is_ok());
    for field in [
        r#""seq":1"#.to_string(),
        r#""ts":"t""#.into(),
        r#""kind":"k""#.into(),
        r#""payload":"{}""#.into(),
        format!(r#""prev_hash":"{h}""#),
        format!(r#""hash":"{h}""#),
    ] {
        let line = format!("{ev}\n{base},{field}}}\n");
        let e = parse_trail_export("t", line.as_bytes()).unwrap_err();
        assert_eq!(e.class, C::Malformed, "{field}");
        assert!(
            e.what.contains("with an event field"),
            "{field}: {}",
            e.what
        );
    }
}

#[test]
fn a_trail_export_line_of_the_limit_is_read_and_one_byte_more_is_not() {
    use super::trail_export::{MAX_LINE, parse_trail_export};
    let line = |len: usize| {
        let base = r#"{"type":"checkpoint","size":1,"note":"n"}"#;
        // Blanks inside the object keep it JSON and make the line `len` bytes long.
        let mut l = base[..base.len() - 1].to_string();
        l.push_str(&" ".repeat(len - base.len()));
        l.push_str("}\n");
        l
    };
    let h = Hash32::ZERO.to_string();
    let ev = format!(
        r#"{{"type":"event","seq":1,"ts":"t","kind":"k","payload":"{{}}","prev_hash":"{h}","hash":"{h}"}}"#
    );
    assert!(parse_trail_export("t", format!("{ev}\n{}", line(MAX_LINE)).as_bytes()).is_ok());
    let e =
        parse_trail_export("t", format!("{ev}\n{}", line(MAX_LINE + 1)).as_bytes()).unwrap_err();
    assert!(e.what.contains("longer than"), "{}", e.what);
}

#[test]
fn a_void_notice_of_another_format_or_version_is_malformed() {
    let root = load("history-valid-void-notice");
    let keys = super::tests_kit::keys(&root);
    let v = super::tests_vectors::at(&root, "pub/V");
    assert!(super::void_notice::verify_void_notice(v, &keys).is_ok());
    for (member, value) in [
        ("version", serde_json::json!(1)),
        ("format", serde_json::json!("urne-void")),
    ] {
        let mut f = v.clone();
        super::tests_kit::edit(&mut f, "void-notice.json", |n| n[member] = value.clone());
        let e = super::void_notice::verify_void_notice(&f, &keys).unwrap_err();
        assert_eq!(e.class, C::Malformed, "{member}: {}", e.what);
    }
    // Its checkpoint (9 events) covers the void event: at 9 it still does, at 10 not.
    let with_seq = |seq: u64| {
        let mut f = v.clone();
        super::tests_kit::edit(&mut f, "void-notice.json", |n| n["void_seq"] = seq.into());
        super::void_notice::verify_void_notice(&f, &keys)
    };
    assert!(with_seq(9).is_ok());
    let e = with_seq(10).unwrap_err();
    assert_eq!(e.class, C::Inconsistent, "{}", e.what);
    assert!(
        e.what.contains("does not cover the void event 10"),
        "{}",
        e.what
    );
    // Each key id it names must be the given key's, one at a time.
    for member in ["result_key_id", "audit_key_id"] {
        let mut f = v.clone();
        super::tests_kit::edit(&mut f, "void-notice.json", |n| {
            n[member] = "0123456789abcdef".into();
        });
        let e = super::void_notice::verify_void_notice(&f, &keys).unwrap_err();
        assert_eq!(e.class, C::Inconsistent, "{member}: {}", e.what);
    }
}

#[test]
fn a_void_notices_report_states_what_it_voided() {
    let root = load("history-valid-void-notice");
    let keys = super::tests_kit::keys(&root);
    let v = super::tests_vectors::at(&root, "pub/V");
    let r = super::void_notice::verify_void_notice(v, &keys).unwrap();
    assert_eq!(
        r.subjects
            .iter()
            .map(|s| s.words.as_str())
            .collect::<Vec<_>>(),
        ["the void notice of day 2018-12-23 attempt 1 (version 2)"]
    );
    assert_eq!(
        r.subjects[0].voidable(),
        None,
        "no void cancels a void notice"
    );
    assert!(
        matches!(&r.subjects[0].value, super::Value::VoidNotice(n) if n.attempt == 1),
        "{:?}",
        r.subjects[0].value
    );
    assert_eq!(r.days, ["2018-12-23"]);
    assert!(r.blocks.is_empty());
    assert_eq!(r.published.len(), 1);
    assert_eq!(
        r.published[0].subject.to_string(),
        "the void of day 2018-12-23 attempt 1"
    );
    assert!(
        r.checks
            .iter()
            .any(|c| c.contains("voided at audit event 7")),
        "{:?}",
        r.checks
    );
    assert_eq!(r.outputs.len(), 1);
}

#[test]
fn a_void_notices_subject_is_checked_member_by_member() {
    use super::void_notice::check_subject;
    let root = load("history-valid-void-notice");
    let v = super::tests_vectors::at(&root, "pub/V");
    let notice = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut n = json(v, "void-notice.json");
        edit(&mut n);
        let n: crate::void_notice::VoidNotice = serde_json::from_value(n).unwrap();
        check_subject(&n)
    };
    assert_eq!(notice(&|_| {}).unwrap().0.to_string(), "day 2018-12-23");
    for member in ["attempt", "void_seq"] {
        let e = notice(&|n| n[member] = 0.into()).unwrap_err();
        assert_eq!(e.class, C::Malformed, "{member}");
    }
    let block = |operation: &'static str| {
        move |n: &mut serde_json::Value| {
            n["day"] = serde_json::Value::Null;
            n["block"] = "noel-de-la-chance-2015/100/e1/3".into();
            n["operation"] = operation.into();
        }
    };
    assert_eq!(
        notice(&block("noel-de-la-chance-2015"))
            .unwrap()
            .0
            .to_string(),
        "block noel-de-la-chance-2015/100/e1/3"
    );
    let e = notice(&block("chanceux-noel-2018")).unwrap_err();
    assert_eq!(e.class, C::Inconsistent, "{}", e.what);
}
