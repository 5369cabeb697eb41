//! The acts done outside any sitting (spec/appliance.md §9.2, M-270): a lone seal, draw, generation and
//! void between two sittings are listed once in the next sitting's minutes, with their events and
//! their outputs; the acts of a sitting are not; the opening's list is the same.

use super::outside::since_last_sitting;
use super::tests::{BLOCK, contribution, entropy, given, h, opened, result, seal, trail};
use super::*;
use urne_verify::audit::Event;
use urne_verify::audit::history::{OutputPlacing, OutputPublished, Subject};
use urne_verify::block::records as block;
use urne_verify::draw::records as draw;
use urne_verify::events::kinds::Record;
use urne_verify::events::payloads::SoftwareStart;
use urne_verify::sitting::{ClosedRecord, SittingKind};

fn process(command: &str) -> Record {
    let mut s: SoftwareStart = super::tests::sw(0x01);
    s.command = command.into();
    s.into()
}

fn published_output(sha: u8) -> OutputPublished {
    OutputPublished {
        file: "bundle.json".into(),
        sha256: h(sha),
        checkpoint_size: 1,
        checkpoint_root: h(0xcc),
    }
}

fn night(hm: &str) -> String {
    format!("2018-12-11T{hm}:00.000000Z")
}

/// Key ceremony (1), sitting 2 (a draw in it), then at night a lone seal, draw (published), block
/// generation (published) and void (its notice placed and published), then sitting 3 (a void in
/// it).
fn events() -> Vec<Event> {
    let n: Vec<String> = [
        "21:00", "21:01", "21:10", "21:11", "21:12", "21:13", "21:14",
    ]
    .iter()
    .map(|t| night(t))
    .collect();
    let mut r: Vec<(&str, Record)> = vec![
        ("08:00", super::tests::trail_created()),
        ("08:00", process("ceremony")),
        ("08:01", opened(1, SittingKind::KeyCeremony)),
        ("08:10", ClosedRecord { number: 1 }.into()),
        ("09:00", process("ceremony")),
        ("09:01", opened(2, SittingKind::Sitting)),
        ("09:02", seal("2018-12-01", 1, 0x21)),
        ("09:03", entropy("2018-12-01", 1, 0x10)),
        ("09:04", contribution("2018-12-01", 1, "1 2 3 4 5 6 1 2")),
        ("09:05", result("2018-12-01", 1, 0x31)),
        ("09:30", ClosedRecord { number: 2 }.into()),
        // Outside any sitting, at night: events 12 to 26.
        (&n[0], process("seal")),
        (&n[1], seal("2018-12-02", 1, 0x22)),
        (&n[2], process("draw")),
        (&n[3], entropy("2018-12-02", 1, 0x11)),
        (&n[4], contribution("2018-12-02", 1, "6 5 4 3 2 1 1 2")),
        (&n[5], result("2018-12-02", 1, 0x32)),
        (
            &n[6],
            draw::PublishedRecord {
                day: "2018-12-02".parse().unwrap(),
                attempt: urne_verify::values::Attempt::new(1).unwrap(),
                out: "/media/usb/out/draw-2018-12-02".into(),
                files: [("bundle.json".to_string(), h(0x83))].into(),
                output: Some(published_output(0x83)),
            }
            .into(),
        ),
    ];
    r.extend(lone_block_and_void());
    r.extend([
        ("2018-12-12T09:00:00.000000Z", process("ceremony")),
        (
            "2018-12-12T09:01:00.000000Z",
            opened(3, SittingKind::Sitting),
        ),
        (
            "2018-12-12T09:10:00.000000Z",
            draw::VoidRecord {
                day: "2018-12-02".parse().unwrap(),
                attempt: urne_verify::values::Attempt::new(1).unwrap(),
                reason: "voided at the sitting".into(),
                stage: "drawn".into(),
            }
            .into(),
        ),
        (
            "2018-12-12T09:30:00.000000Z",
            ClosedRecord { number: 3 }.into(),
        ),
    ]);
    trail(r)
}

/// A lone generation (events 19 to 22) and a lone void with its notice (23 to 26).
fn lone_block_and_void() -> Vec<(&'static str, Record)> {
    vec![
        ("2018-12-11T22:00:00.000000Z", process("block generate")),
        (
            "2018-12-11T22:01:00.000000Z",
            block::EntropyRecord {
                block: BLOCK.parse().unwrap(),
                attempt: urne_verify::values::Attempt::new(1).unwrap(),
                rules_sha256: h(0x90),
                entropy_commitment: h(0x91),
                entropy_blob: h(0x92),
            }
            .into(),
        ),
        (
            "2018-12-11T22:02:00.000000Z",
            block::GeneratedRecord {
                block: BLOCK.parse().unwrap(),
                attempt: urne_verify::values::Attempt::new(1).unwrap(),
                outcomes_root: h(0x93),
                seed_commitment: h(0x94),
                tickets_sha256: h(0x95),
            }
            .into(),
        ),
        (
            "2018-12-11T22:03:00.000000Z",
            block::PublishedRecord {
                block: BLOCK.parse().unwrap(),
                attempt: urne_verify::values::Attempt::new(1).unwrap(),
                out: "/media/usb/out/blocks".into(),
                files: [("b.commit.json".to_string(), h(0x96))].into(),
                output: None,
            }
            .into(),
        ),
        ("2018-12-11T23:00:00.000000Z", process("void")),
        (
            "2018-12-11T23:01:00.000000Z",
            draw::VoidRecord {
                day: "2018-12-01".parse().unwrap(),
                attempt: urne_verify::values::Attempt::new(1).unwrap(),
                reason: "wrong export".into(),
                stage: "drawn".into(),
            }
            .into(),
        ),
        (
            "2018-12-11T23:02:00.000000Z",
            OutputPlacing {
                out: "/media/usb/out/void-2018-12-01".into(),
                file: "void.json".into(),
                subject: Subject::VoidNotice { void_seq: 24 },
                files: [("void.json".to_string(), h(0x97))].into(),
            }
            .into(),
        ),
        (
            "2018-12-11T23:03:00.000000Z",
            OutputPublished {
                file: "void.json".into(),
                ..published_output(0x97)
            }
            .into(),
        ),
    ]
}

fn out(seq: u64, folder: &str, file: &str, sha: u8) -> ActOutput {
    ActOutput {
        seq,
        folder: folder.into(),
        file: file.into(),
        sha256: h(sha),
    }
}

#[test]
fn acts_outside_a_sitting_are_listed_once_with_their_events_and_outputs() {
    let events = events();
    let m = Minutes::from_trail(&events, 3, &given()).unwrap();
    let got: Vec<(u64, Act, Option<ActOutput>)> = m
        .outside
        .iter()
        .map(|a| (a.at.seq, a.act.clone(), a.output.clone()))
        .collect();
    let (d2, a): (urne_verify::values::Day, _) = (
        "2018-12-02".parse().unwrap(),
        urne_verify::values::Attempt::FIRST,
    );
    assert_eq!(
        got,
        vec![
            (
                13,
                Act::Seal {
                    day: d2,
                    attempt: a
                },
                None
            ),
            (
                17,
                Act::Draw {
                    day: d2,
                    attempt: a
                },
                Some(out(
                    18,
                    "/media/usb/out/draw-2018-12-02",
                    "bundle.json",
                    0x83
                ))
            ),
            (
                21,
                Act::Generated {
                    block: BLOCK.parse().unwrap(),
                    attempt: urne_verify::values::Attempt::new(1).unwrap()
                },
                Some(out(22, "/media/usb/out/blocks", "b.commit.json", 0x96))
            ),
            (
                24,
                Act::Void {
                    block: false,
                    subject: "2018-12-01".into(),
                    attempt: urne_verify::values::Attempt::new(1).unwrap(),
                    reason: "wrong export".into()
                },
                Some(out(26, "/media/usb/out/void-2018-12-01", "void.json", 0x97))
            ),
        ]
    );
    // The void made in sitting 3 (event 29) is its own, not an act outside it.
    assert_eq!(m.voids.iter().map(|v| v.at.seq).collect::<Vec<_>>(), [29]);
    // Sitting 2 follows the key ceremony at once: nothing outside; its own draw is not listed.
    let s2 = Minutes::from_trail(&events, 2, &given()).unwrap();
    assert!(s2.outside.is_empty(), "{:?}", s2.outside);
    // The opening of sitting 3 shows the same list, read before it is opened.
    let before = since_last_sitting(&events[..27]).unwrap();
    assert_eq!(before, m.outside);
}

#[test]
fn the_minutes_state_the_acts_outside_a_sitting_in_french_and_english() {
    let m = Minutes::from_trail(&events(), 3, &given()).unwrap();
    let fr = html::render(&m, Lang::Fr);
    for s in [
        ". Actes faits hors séance</h2>",
        "hors de la présence du commissaire de justice",
        "le 11 décembre 2018 à 22 h 13 (événement d'audit n°\u{a0}17) — Tirage du jour du 2 décembre 2018, tentative n°\u{a0}1 ; publié dans <code>/media/usb/out/draw-2018-12-02/bundle.json</code> (événement d'audit n°\u{a0}18), SHA-256 <code class=\"h\">8383 8383",
        "Scellement du jour du 2 décembre 2018",
        "Génération du bloc noel-de-la-chance-2015/100/2015-12/1, tentative n°\u{a0}1 ; publié dans <code>/media/usb/out/blocks/b.commit.json</code>",
        "Annulation du jour du 1er décembre 2018, tentative n°\u{a0}1 (motif : wrong export) ; publié dans <code>/media/usb/out/void-2018-12-01/void.json</code> (événement d'audit n°\u{a0}26)",
    ] {
        assert!(fr.contains(s), "{s}\n{fr}");
    }
    assert_eq!(
        fr.matches("Tirage du jour du 2 décembre 2018, tentative")
            .count(),
        1
    );
    let en = html::render(&m, Lang::En);
    for s in [
        ". Acts done outside any sitting</h2>",
        "on 11 December 2018 at 22:13 (audit event no.\u{a0}17) — Draw of the day of 2 December 2018, attempt no. 1 ; published in <code>/media/usb/out/draw-2018-12-02/bundle.json</code>",
        "Void of the day of 1 December 2018, attempt no. 1 (reason: wrong export)",
    ] {
        assert!(en.contains(s), "{s}\n{en}");
    }
    let s2 = Minutes::from_trail(&events(), 2, &given()).unwrap();
    assert!(!html::render(&s2, Lang::Fr).contains("hors séance</h2>"));
}
