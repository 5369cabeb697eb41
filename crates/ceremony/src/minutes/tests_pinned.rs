//! Production's keys in the minutes (spec/appliance.md §9.2, M-241): the set in force at the sitting's
//! end, and each pin recorded outside any sitting since the previous one as an incident; a pin at
//! the key ceremony, in its sitting, is no incident.

#![allow(clippy::many_single_char_names)]

use super::tests::{
    contribution, entropy, given, lone_draw, opened, result, seal, sw, trail, trail_created,
};
use super::*;
use urne_verify::events::kinds::Record;
use urne_verify::events::payloads::{KeysGenerated, PinnedKey, ProducerKeys, TokenRecord};
use urne_verify::sitting::{ClosedRecord, SittingKind};
use urne_verify::values::KeyId;

fn key_id(k: &[u8; 32]) -> KeyId {
    KeyId::of(k)
}

fn pin(b: u8, previous: &[u8]) -> Record {
    ProducerKeys {
        keys: vec![PinnedKey {
            key_id: key_id(&[b; 32]),
            public_key: Hash32([b; 32]),
        }],
        previous: previous.iter().map(|p| key_id(&[*p; 32])).collect(),
    }
    .into()
}

fn generated() -> Record {
    KeysGenerated {
        token: TokenRecord {
            module: "/usr/lib/softhsm/libsofthsm2.so".into(),
            library: "Implementation of PKCS11".into(),
            library_version: "2.6".into(),
            cryptoki_version: "2.40".into(),
            token_label: "urne".into(),
            manufacturer: "SoftHSM project".into(),
            model: "SoftHSM v2".into(),
            serial: "1234abcd".into(),
        },
        keys: vec![],
        seal_key: None,
    }
    .into()
}

fn pin_incidents(m: &Minutes) -> Vec<(u64, Vec<KeyId>, Vec<KeyId>)> {
    m.incidents
        .iter()
        .filter_map(|i| match i {
            Incident::ProducerKeys { at, keys, previous } => {
                Some((at.seq, keys.clone(), previous.clone()))
            }
            _ => None,
        })
        .collect()
}

fn outside_pins(m: &Minutes) -> Vec<(u64, Vec<KeyId>, Vec<KeyId>)> {
    m.outside
        .iter()
        .filter_map(|o| match &o.act {
            Act::ProducerKeys { keys, previous } => {
                Some((o.at.seq, keys.clone(), previous.clone()))
            }
            _ => None,
        })
        .collect()
}

/// The `software.start` of a process running `command`.
fn process(command: &str) -> Record {
    let mut s = sw(0x01);
    s.command = command.into();
    s.into()
}

#[test]
fn the_pin_in_force_is_stated_and_a_pin_outside_a_sitting_is_an_incident() {
    let (a, b, c, d) = (
        key_id(&[1; 32]),
        key_id(&[2; 32]),
        key_id(&[3; 32]),
        key_id(&[4; 32]),
    );
    let events = trail(vec![
        ("08:00", trail_created()),
        ("08:00", process("keys init")),
        ("08:00", generated()),
        ("08:01", process("ceremony")),
        ("08:01", opened(1, SittingKind::KeyCeremony)),
        ("08:05", pin(1, &[])),
        ("08:15", ClosedRecord { number: 1 }.into()),
        // Between sittings, by `urne keys producer`: an incident of sitting 2.
        ("09:00", process("keys producer")),
        ("09:00", pin(2, &[1])),
        ("10:00", process("ceremony")),
        ("10:00", opened(2, SittingKind::Sitting)),
        // While sitting 2 is open, by another process: an incident too.
        ("10:10", process("keys producer")),
        ("10:10", pin(3, &[2])),
        ("10:30", ClosedRecord { number: 2 }.into()),
        // After sitting 2's close: sitting 3's.
        ("11:00", process("keys producer")),
        ("11:00", pin(4, &[3])),
        ("12:00", process("ceremony")),
        ("12:00", opened(3, SittingKind::Sitting)),
        ("12:30", ClosedRecord { number: 3 }.into()),
    ]);
    let kc = Minutes::from_trail(&events, 1, &given()).unwrap();
    assert!(pin_incidents(&kc).is_empty(), "pinned at the key ceremony");
    let k = kc.keys.as_ref().unwrap();
    assert_eq!(
        k.pinned.as_ref().map(|p| (p.at.seq, p.value.ids())),
        Some((6, vec![a.clone()]))
    );
    let html = html::render(&kc, Lang::Fr);
    assert!(html.contains("Clés de production de confiance"), "{html}");
    assert!(html.contains(". Clés</h2>"), "{html}");
    assert!(html.contains(a.as_str()));

    let s2 = Minutes::from_trail(&events, 2, &given()).unwrap();
    // The pin before sitting 2 opened is an act done outside any sitting (M-270), stated there
    // and not again as an incident; the one made while it was open is an incident.
    assert_eq!(
        pin_incidents(&s2),
        vec![(13, vec![c.clone()], vec![b.clone()])]
    );
    assert_eq!(
        outside_pins(&s2),
        vec![(9, vec![b.clone()], vec![a.clone()])]
    );
    let p = s2.keys.as_ref().and_then(|k| k.pinned.as_ref()).unwrap();
    assert_eq!((p.at.seq, p.value.ids()), (13, vec![c.clone()]));
    let html = html::render(&s2, Lang::Fr);
    assert!(
        html.contains("Clés de production épinglées hors séance"),
        "{html}"
    );
    let en = html::render(&s2, Lang::En);
    assert!(en.contains("pinned outside any sitting") && en.contains(b.as_str()));

    let s3 = Minutes::from_trail(&events, 3, &given()).unwrap();
    assert!(pin_incidents(&s3).is_empty());
    assert_eq!(outside_pins(&s3), vec![(16, vec![d], vec![c])]);
    let fr = html::render(&s3, Lang::Fr);
    assert!(fr.contains("Clés de production épinglées :"), "{fr}");
}

#[test]
fn a_sittings_minutes_without_keys_or_a_pin_have_no_keys_section() {
    let m = Minutes::from_trail(&super::tests::sitting(0x01), 1, &given()).unwrap();
    assert!(m.keys.is_none(), "{:?}", m.keys);
    assert!(!html::render(&m, Lang::Fr).contains(". Clés</h2>"));
}

#[test]
fn minutes_of_a_trail_without_a_pin_say_no_seal_is_possible() {
    let events = trail(vec![
        ("08:00", trail_created()),
        ("08:00", sw(0x01).into()),
        ("08:00", generated()),
        ("08:01", opened(1, SittingKind::KeyCeremony)),
        ("08:15", ClosedRecord { number: 1 }.into()),
    ]);
    let m = Minutes::from_trail(&events, 1, &given()).unwrap();
    assert!(m.keys.as_ref().unwrap().pinned.is_none());
    let html = html::render(&m, Lang::Fr);
    assert!(
        html.contains("Aucune clé de production n'est épinglée"),
        "{html}"
    );
}

#[test]
fn a_lone_draws_minutes_state_the_pin_in_force_and_a_pin_made_outside_a_sitting() {
    let (a, b) = (key_id(&[0xa1; 32]), key_id(&[0xb2; 32]));
    let events = trail(vec![
        ("2018-12-01T08:00:00.000000Z", trail_created()),
        ("2018-12-01T08:00:01.000000Z", process("ceremony")),
        (
            "2018-12-01T08:00:02.000000Z",
            opened(1, SittingKind::KeyCeremony),
        ),
        ("2018-12-01T08:00:03.000000Z", pin(0xa1, &[])),
        (
            "2018-12-01T08:00:04.000000Z",
            ClosedRecord { number: 1 }.into(),
        ),
        ("2018-12-02T08:00:00.000000Z", process("keys")),
        ("2018-12-02T08:00:01.000000Z", pin(0xb2, &[0xa1])),
        ("2018-12-02T08:01:00.000000Z", process("seal")),
        ("2018-12-02T08:01:01.000000Z", seal("2018-12-01", 1, 0x21)),
        ("2018-12-02T09:00:00.000000Z", process("draw")),
        (
            "2018-12-02T09:00:01.000000Z",
            entropy("2018-12-01", 1, 0x10),
        ),
        (
            "2018-12-02T09:00:02.000000Z",
            contribution("2018-12-01", 1, "1 2 3 4 5 6 1 2"),
        ),
        ("2018-12-02T09:00:03.000000Z", result("2018-12-01", 1, 0x31)),
    ]);
    let m = lone_draw(&events, "2018-12-01", 1).unwrap();
    let k = m
        .keys
        .as_ref()
        .expect("a lone draw's minutes state the keys pinned");
    assert_eq!(
        k.pinned.as_ref().map(|p| (p.at.seq, p.value.ids())),
        Some((7, vec![b.clone()]))
    );
    assert_eq!(pin_incidents(&m), vec![(7, vec![b.clone()], vec![a])]);
    let html = html::render(&m, Lang::Fr);
    assert!(html.contains("Clés de production de confiance"), "{html}");
    assert!(
        html.contains("Clés de production épinglées hors séance"),
        "{html}"
    );
    // Without any pin (a version-1 trail), no keys section.
    let bare = trail(vec![
        ("2018-12-02T08:01:00.000000Z", sw(0x01).into()),
        ("2018-12-02T08:01:01.000000Z", seal("2018-12-01", 1, 0x21)),
        (
            "2018-12-02T09:00:01.000000Z",
            entropy("2018-12-01", 1, 0x10),
        ),
        ("2018-12-02T09:00:03.000000Z", result("2018-12-01", 1, 0x31)),
    ]);
    let m = lone_draw(&bare, "2018-12-01", 1).unwrap();
    assert!(m.keys.is_none(), "{:?}", m.keys);
    assert!(!html::render(&m, Lang::Fr).contains(". Clés</h2>"));
}

fn corrected(wrong: &str) -> Record {
    urne_verify::events::payloads::ClockCorrected {
        wrong: wrong.into(),
        confirmed: "2018-12-11T09:40:00.000000Z".into(),
        reason: "clock set ten years ahead".into(),
    }
    .into()
}

/// spec/appliance.md §9.2, §6.6 (M-252): a clock confirmed far ahead, then corrected, since the previous
/// sitting, outside any sitting, are incidents of the next sitting's minutes (and of a lone
/// draw's), each with both times.
#[test]
fn a_clock_corrected_since_the_previous_sitting_is_an_incident_with_both_times() {
    let ahead = "2028-12-11T09:30:00.000000Z";
    let events = trail(vec![
        ("08:00", trail_created()),
        ("08:00", process("ceremony")),
        ("08:01", opened(1, SittingKind::KeyCeremony)),
        ("08:15", ClosedRecord { number: 1 }.into()),
        (ahead, process("keys export")),
        (
            ahead,
            urne_verify::events::payloads::ClockConfirmed {
                previous: "2018-12-11T08:15:00.000000Z".into(),
                confirmed: "2028-12-11T10:30:00.000000Z".into(),
            }
            .into(),
        ),
        ("09:41", corrected(ahead)),
        ("09:41", process("clock correct")),
        ("10:00", process("ceremony")),
        ("10:00", opened(2, SittingKind::Sitting)),
        ("10:30", ClosedRecord { number: 2 }.into()),
    ]);
    let first = Minutes::from_trail(&events, 1, &given()).unwrap();
    assert!(!first.incidents.iter().any(|i| matches!(
        i,
        Incident::ClockCorrected { .. } | Incident::ClockConfirmed { .. }
    )));
    let m = Minutes::from_trail(&events, 2, &given()).unwrap();
    let found: Vec<_> = m
        .incidents
        .iter()
        .filter_map(|i| match i {
            Incident::ClockCorrected {
                at,
                wrong,
                confirmed,
                ..
            } => Some((at.seq, wrong.as_str(), confirmed.as_str())),
            Incident::ClockConfirmed {
                at,
                previous,
                confirmed,
            } => Some((at.seq, previous.as_str(), confirmed.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(
        found,
        vec![
            (
                6,
                "2018-12-11T08:15:00.000000Z",
                "2028-12-11T10:30:00.000000Z"
            ),
            (7, ahead, "2018-12-11T09:40:00.000000Z")
        ]
    );
    let fr = html::render(&m, Lang::Fr);
    for want in [
        "Horloge de l'appareil corrigée (urne clock correct)",
        "jusqu'à l'événement d'audit n°\u{a0}6",
        "plus de 31 jours après le dernier événement du journal",
        "11 décembre 2028",
        "confirmées au terminal",
        "à la montre : le 11 décembre 2018 à 10",
        "clock set ten years ahead",
    ] {
        assert!(fr.contains(want), "{want:?} not in {fr}");
    }
    let en = html::render(&m, Lang::En);
    assert!(en.contains("were dated by a clock set ahead"), "{en}");
    // The gap is confirmed: it is not stated a second time.
    assert!(
        !m.incidents
            .iter()
            .any(|i| matches!(i, Incident::ClockJumped { .. }))
    );
}

/// spec/appliance.md §9.2, §6.6 (M-252): an event dated more than 31 days after the one before it with no
/// `clock.confirmed` (a run killed before it recorded its confirmation) is an incident of the
/// next minutes all the same: the gap itself.
#[test]
fn a_gap_of_more_than_31_days_unconfirmed_is_an_incident_of_the_next_minutes() {
    let ahead = "2028-12-11T09:30:00.000000Z";
    let events = trail(vec![
        ("08:00", trail_created()),
        ("08:00", process("ceremony")),
        ("08:01", opened(1, SittingKind::KeyCeremony)),
        ("08:15", ClosedRecord { number: 1 }.into()),
        (ahead, process("keys export")),
        ("09:41", corrected(ahead)),
        ("09:41", process("clock correct")),
        ("10:00", process("ceremony")),
        ("10:00", opened(2, SittingKind::Sitting)),
        ("10:30", ClosedRecord { number: 2 }.into()),
    ]);
    let m = Minutes::from_trail(&events, 2, &given()).unwrap();
    let jumps: Vec<_> = m
        .incidents
        .iter()
        .filter_map(|i| match i {
            Incident::ClockJumped { at, previous } => Some((at.seq, previous.seq)),
            _ => None,
        })
        .collect();
    assert_eq!(jumps, vec![(5, 4)]);
    let fr = html::render(&m, Lang::Fr);
    assert!(
        fr.contains("3653 jours après l'événement précédent"),
        "{fr}"
    );
    assert!(fr.contains("Aucune confirmation de l'horloge"), "{fr}");
    // 31 days exactly is not a gap the minutes state.
    let events = trail(vec![
        ("08:00", trail_created()),
        ("08:00", process("ceremony")),
        ("08:01", opened(1, SittingKind::KeyCeremony)),
        ("08:15", ClosedRecord { number: 1 }.into()),
        ("2019-01-11T08:15:00.000000Z", process("ceremony")),
        (
            "2019-01-11T08:16:00.000000Z",
            opened(2, SittingKind::Sitting),
        ),
        (
            "2019-01-11T08:30:00.000000Z",
            ClosedRecord { number: 2 }.into(),
        ),
    ]);
    let m = Minutes::from_trail(&events, 2, &given()).unwrap();
    assert!(
        !m.incidents
            .iter()
            .any(|i| matches!(i, Incident::ClockJumped { .. }))
    );
}
