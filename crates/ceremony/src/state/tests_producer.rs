//! Production's pinned keys (spec/formats.md §6.2, `producer.keys`; spec/formats.md §4.3): a well-formed set that names
//! the set it replaces, and a seal whose export's key is not pinned cannot follow.

use super::tests_sitting::events;
use super::*;
use serde_json::json;
use urne_verify::crypto::{Hash32, keys};
use urne_verify::events::kinds::Kind;
use urne_verify::events::payloads::ProducerKeys;

/// A public key's 32 bytes (any bytes: the state checks ids, not points) and its id.
fn key(b: u8) -> (String, String) {
    let raw = [b; 32];
    (keys::key_id(&raw), Hash32(raw).to_string())
}

fn pin(set: &[u8], previous: &[u8]) -> (Kind, serde_json::Value) {
    let mut ks: Vec<(String, String)> = set.iter().map(|b| key(*b)).collect();
    ks.sort();
    let mut prev: Vec<String> = previous.iter().map(|b| key(*b).0).collect();
    prev.sort();
    let keys: Vec<_> = ks
        .iter()
        .map(|(id, pk)| json!({"key_id": id, "public_key": pk}))
        .collect();
    (Kind::ProducerKeys, json!({"keys": keys, "previous": prev}))
}

fn seal(key_id: &str) -> (Kind, serde_json::Value) {
    let mut s = super::tests::seal("2018-12-01", 1);
    s["export"]["producer_key_id"] = key_id.into();
    (Kind::DrawSeal, s)
}

fn pinned(records: &[(Kind, serde_json::Value)]) -> Result<Option<Vec<String>>, String> {
    Trail::from_events(&events(records))
        .map(|t| {
            t.producer_keys()
                .map(|p| p.ids().iter().map(ToString::to_string).collect())
        })
        .map_err(|e| e.reason)
}

#[test]
fn a_pin_replaces_the_set_it_names_and_a_seal_trusts_only_the_pinned_keys() {
    let (a, b) = (key(1).0, key(2).0);
    assert_eq!(pinned(&[]), Ok(None));
    assert_eq!(pinned(&[pin(&[1], &[])]), Ok(Some(vec![a.clone()])));
    let mut both = vec![a.clone(), b.clone()];
    both.sort();
    assert_eq!(
        pinned(&[pin(&[1], &[]), pin(&[1, 2], &[1])]),
        Ok(Some(both))
    );
    assert_eq!(
        pinned(&[pin(&[1], &[]), pin(&[2], &[1]), seal(&b)]),
        Ok(Some(vec![b.clone()]))
    );
    // A seal before any pin is a trail of before the pin (spec/formats.md §6.2): it follows.
    assert_eq!(pinned(&[seal("k")]), Ok(None));
    let e = pinned(&[pin(&[1], &[]), seal(&b)]).unwrap_err();
    assert!(e.contains("not among production's pinned keys"), "{e}");
    let e = pinned(&[pin(&[1], &[]), pin(&[2], &[1]), seal(&a)]).unwrap_err();
    assert!(e.contains(&a), "{e}");
}

#[test]
fn a_pin_that_is_not_a_set_or_names_another_set_cannot_follow() {
    // It must name the pinned set it replaces: none for the first, the current one after.
    let e = pinned(&[pin(&[1], &[2])]).unwrap_err();
    assert!(e.contains("replaces"), "{e}");
    let e = pinned(&[pin(&[1], &[]), pin(&[2], &[])]).unwrap_err();
    assert!(e.contains("replaces"), "{e}");
    let e = pinned(&[pin(&[1], &[]), pin(&[1], &[1])]).unwrap_err();
    assert!(e.contains("already pinned"), "{e}");
    // Empty, repeated, out of order, or an id that is not its key's.
    let empty = (Kind::ProducerKeys, json!({"keys": [], "previous": []}));
    assert!(pinned(&[empty]).unwrap_err().contains("empty"));
    let (id, pk) = key(1);
    let twice = (
        Kind::ProducerKeys,
        json!({"keys": [{"key_id": id, "public_key": pk}, {"key_id": id, "public_key": pk}],
            "previous": []}),
    );
    assert!(pinned(&[twice]).unwrap_err().contains("order"));
    let mut ids = [key(1), key(2)];
    ids.sort();
    ids.reverse();
    let backwards: Vec<_> = ids
        .iter()
        .map(|(id, pk)| json!({"key_id": id, "public_key": pk}))
        .collect();
    let backwards = (
        Kind::ProducerKeys,
        json!({"keys": backwards, "previous": []}),
    );
    assert!(pinned(&[backwards]).unwrap_err().contains("order"));
    let (_, other) = key(3);
    let wrong_id = (
        Kind::ProducerKeys,
        json!({"keys": [{"key_id": id, "public_key": other}], "previous": []}),
    );
    assert!(
        pinned(&[wrong_id])
            .unwrap_err()
            .contains("is not its key's")
    );
}

#[test]
fn a_pinned_set_gives_its_ids_and_raw_keys_in_order() {
    let set = ProducerKeys {
        keys: [1u8, 2]
            .iter()
            .map(|b| urne_verify::events::payloads::PinnedKey {
                key_id: key(*b).0.parse().unwrap(),
                public_key: Hash32([*b; 32]),
            })
            .collect(),
        previous: vec![],
    };
    assert_eq!(set.ids(), vec![key(1).0, key(2).0]);
    assert_eq!(set.public_keys(), vec![[1u8; 32], [2u8; 32]]);
}
