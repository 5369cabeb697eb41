//! The sittings' rules (spec/formats.md §6.2, spec/appliance.md §9.1): one open at a time, numbered from 1 without gaps;
//! a resume and a close name the open one.

use super::*;
use serde_json::json;
use urne_verify::crypto::Hash32;
use urne_verify::events::kinds::Kind;

pub(super) fn events(records: &[(Kind, serde_json::Value)]) -> Vec<Event> {
    records
        .iter()
        .enumerate()
        .map(|(i, (k, v))| Event {
            seq: i as u64 + 1,
            ts: "2018-12-11T09:00:00.000000Z".into(),
            kind: k.name().into(),
            payload: v.to_string(),
            prev_hash: Hash32::ZERO,
            hash: Hash32::ZERO,
        })
        .collect()
}

fn opened(n: u32) -> (Kind, serde_json::Value) {
    (
        Kind::SittingOpened,
        json!({"number": n, "kind": "sitting", "place": "Paris",
            "commissaire": {"name": "Maître Claire Dupont", "office": "Étude Dupont"},
            "present": [{"name": "Jean Martin", "role": "opérateur"}], "lang": "fr",
            "plan": [{"action": "draw", "subject": "2018-12-01", "detail": ""}]}),
    )
}

fn resumed(n: u32) -> (Kind, serde_json::Value) {
    (Kind::SittingResumed, json!({"number": n, "plan": []}))
}

fn closed(n: u32) -> (Kind, serde_json::Value) {
    (Kind::SittingClosed, json!({"number": n}))
}

fn state(records: &[(Kind, serde_json::Value)]) -> Result<Sittings, String> {
    Trail::from_events(&events(records))
        .map(|t| t.sittings())
        .map_err(|e| e.reason)
}

#[test]
fn sittings_open_resume_and_close_in_turn() {
    assert_eq!(
        state(&[]),
        Ok(Sittings {
            last: 0,
            open: false
        })
    );
    assert_eq!(
        state(&[opened(1), resumed(1)]),
        Ok(Sittings {
            last: 1,
            open: true
        })
    );
    assert_eq!(
        state(&[opened(1), closed(1), opened(2)]),
        Ok(Sittings {
            last: 2,
            open: true
        })
    );
    assert_eq!(
        state(&[opened(1), resumed(1), closed(1)]),
        Ok(Sittings {
            last: 1,
            open: false
        })
    );
}

#[test]
fn a_sitting_out_of_turn_is_a_broken_trail() {
    let e = state(&[opened(1), opened(2)]).unwrap_err();
    assert!(e.contains("sitting 1 is still open"), "{e}");
    let e = state(&[opened(2)]).unwrap_err();
    assert!(e.contains("does not follow sitting 0"), "{e}");
    let e = state(&[opened(1), closed(1), opened(3)]).unwrap_err();
    assert!(e.contains("does not follow sitting 1"), "{e}");
    for bad in [
        vec![resumed(1)],
        vec![closed(1)],
        vec![opened(1), closed(2)],
        vec![opened(1), closed(1), closed(1)],
        vec![opened(1), closed(1), resumed(1)],
    ] {
        let e = state(&bad).unwrap_err();
        assert!(e.contains("is not the open sitting"), "{e}");
    }
}

#[test]
fn a_sitting_record_with_a_member_added_or_missing_does_not_parse() {
    let mut extra = opened(1);
    extra.1["extra"] = json!(1);
    assert!(state(&[extra]).is_err());
    let mut missing = opened(1);
    missing.1.as_object_mut().unwrap().remove("plan");
    assert!(state(&[missing]).is_err());
    let mut kind = opened(1);
    kind.1["kind"] = json!("party");
    assert!(state(&[kind]).is_err());
}
