//! The minutes' model from synthetic trails (every kind of item, a resumed sitting, refusals,
//! a late draw, a key ceremony), and what the HTML says of it.

#![allow(clippy::many_single_char_names)]
#![allow(
    clippy::too_many_lines,
    reason = "a test is one scenario told in order (the state it builds, then each check); cut, its steps would read out of sequence"
)]

use super::*;
use urne_verify::audit::Event;
use urne_verify::block::records as block;
use urne_verify::draw::Pick;
use urne_verify::draw::files::{CommitmentRef, ExportRef, Figures};
use urne_verify::draw::records as draw;
use urne_verify::events::kinds::Record;
use urne_verify::events::payloads::{
    CommandFailed, EntropyRefused, ExportedKey, ExportedKeys, InputRejected, KeyRecord, KeyRole,
    KeysExported, KeysGenerated, SoftwareStart, TokenRecord, TrailCreated,
};
use urne_verify::rules::draw::DrawRules;
use urne_verify::rules::game::GameRules;
use urne_verify::sitting::{ClosedRecord, OpenedRecord, ResumedRecord, SittingKind};
use urne_verify::software::{Pkcs11Token, SoftwareIdentity};

pub(super) const BLOCK: &str = "noel-de-la-chance-2015/100/2015-12/1";
const EARLIER_BLOCK: &str = "noel-de-la-chance-2015/100/2015-11/1";

pub(super) fn h(n: u8) -> Hash32 {
    Hash32([n; 32])
}

pub(super) fn sw(exe: u8) -> SoftwareStart {
    SoftwareStart {
        command: "ceremony".into(),
        software: SoftwareIdentity {
            name: "urne".into(),
            version: "0.1.0".into(),
            source_revision: "0123456789abcdef0123456789abcdef01234567".into(),
            executable_sha256: h(exe),
        },
        pkcs11: Pkcs11Identity {
            module_path: "/usr/lib/softhsm/libsofthsm2.so".into(),
            module_sha256: h(0x33),
            manufacturer: "SoftHSM".into(),
            library: "Implementation of PKCS11".into(),
            library_version: "2.6".into(),
            cryptoki_version: "2.40".into(),
            token: Pkcs11Token {
                label: "urne".into(),
                manufacturer: "SoftHSM project".into(),
                model: "SoftHSM v2".into(),
                serial: "1234abcd".into(),
                firmware: "2.6".into(),
            },
            mapped: vec![],
        },
    }
}

/// A trail of `records`, each at its time (`HH:MM` on 11 December 2018, UTC, unless a full
/// RFC 3339 time is given).
pub(super) fn trail(records: Vec<(&str, Record)>) -> Vec<Event> {
    records
        .into_iter()
        .enumerate()
        .map(|(i, (ts, r))| Event {
            seq: i as u64 + 1,
            ts: if ts.len() == 5 {
                format!("2018-12-11T{ts}:00.000000Z")
            } else {
                ts.to_string()
            },
            kind: r.kind().name().into(),
            payload: r.payload(),
            prev_hash: Hash32::ZERO,
            hash: Hash32::ZERO,
        })
        .collect()
}

pub(super) fn rules() -> DrawRules {
    DrawRules::chanceux_noel_2018()
}

fn game() -> GameRules {
    GameRules::from_json(include_bytes!(
        "../../../../rules/noel-de-la-chance-2015.json"
    ))
    .unwrap()
}

pub(super) fn seal(day: &str, attempt: u32, set: u8) -> Record {
    draw::SealRecord {
        operation: "chanceux-noel-2018".into(),
        day: day.parse().unwrap(),
        attempt: urne_verify::values::Attempt::new(attempt).unwrap(),
        rules_sha256: Hash32(rules().sha256()),
        export_file: "/media/usb/export.jsonl".into(),
        export: ExportRef {
            sha256: h(0x44),
            size: 1_234_567,
            producer_key_id: "ed25519:0011223344556677".into(),
        },
        figures: Figures {
            period: "P1".into(),
            tranche_cents: 1000,
            plays: 123_456,
            counting_plays: 120_000,
            retail_plays: 3000,
            subscription_plays_refused: 456,
            accounts_with_counting_plays: 45_678,
            accounts_with_entries: 45_000,
            entries: 98_765,
            ..Figures::default()
        },
        commitment: CommitmentRef {
            root: h(0x55),
            leaves: 45_000,
            entries: 98_765,
        },
        set_sha256: h(set),
        leaves_sha256: h(0x66),
        leaves_sig: "00".repeat(64),
    }
    .into()
}

pub(super) fn entropy(day: &str, attempt: u32, ec: u8) -> Record {
    draw::EntropyRecord {
        operation: "chanceux-noel-2018".into(),
        day: day.parse().unwrap(),
        attempt: urne_verify::values::Attempt::new(attempt).unwrap(),
        commitment_root: h(0x55),
        entropy_commitment: h(ec),
        entropy_blob: h(0x77),
    }
    .into()
}

pub(super) fn contribution(day: &str, attempt: u32, text: &str) -> Record {
    draw::ContributionRecord {
        operation: "chanceux-noel-2018".into(),
        day: day.parse().unwrap(),
        attempt: urne_verify::values::Attempt::new(attempt).unwrap(),
        entropy_commitment: h(0x10),
        contribution: text.into(),
    }
    .into()
}

pub(super) fn result(day: &str, attempt: u32, seed: u8) -> Record {
    let pick = |leaf| Pick {
        entry: leaf * 2,
        leaf,
    };
    draw::ResultRecord {
        operation: "chanceux-noel-2018".into(),
        day: day.parse().unwrap(),
        attempt: urne_verify::values::Attempt::new(attempt).unwrap(),
        seed: h(seed),
        winner: pick(7),
        reserves: vec![pick(3), pick(11)],
    }
    .into()
}

pub(super) fn published(day: &str, attempt: u32) -> Record {
    draw::PublishedRecord {
        day: day.parse().unwrap(),
        attempt: urne_verify::values::Attempt::new(attempt).unwrap(),
        out: "/media/usb/out".into(),
        files: [
            ("bundle.json".to_string(), h(0x81)),
            ("pv.html".to_string(), h(0x82)),
        ]
        .into(),
        output: None,
    }
    .into()
}

pub(super) fn opened(number: u32, kind: SittingKind) -> Record {
    let step = |action: &str, subject: &str, detail: &str| Step {
        action: action.into(),
        subject: subject.into(),
        detail: detail.into(),
    };
    OpenedRecord {
        number,
        kind,
        place: "Paris, 12 rue de la Paix".into(),
        town: String::new(),
        commissaire: Commissaire {
            name: "Maître Claire Dupont".into(),
            office: "SELARL Dupont & Associés".into(),
        },
        present: vec![Person {
            name: "Jean Martin".into(),
            role: "opérateur".into(),
        }],
        lang: "fr".into(),
        plan: vec![
            step("draw", "2018-12-01", ""),
            step("draw", "2018-12-02", ""),
            step("generate", BLOCK, ""),
            step("reveal", EARLIER_BLOCK, "2018-12-10T22:59:00Z"),
        ],
    }
    .into()
}

pub(super) fn trail_created() -> Record {
    TrailCreated {
        trail: h(0xaa),
        audit_key_id: "aabbccddeeff0011".parse().unwrap(),
        audit_public_key: h(0xab),
    }
    .into()
}

fn block_records() -> Vec<(&'static str, Record)> {
    vec![
        (
            "10:30",
            block::EntropyRecord {
                block: BLOCK.parse().unwrap(),
                attempt: urne_verify::values::Attempt::new(1).unwrap(),
                rules_sha256: *game().sha256(),
                entropy_commitment: h(0x91),
                entropy_blob: h(0x92),
            }
            .into(),
        ),
        (
            "10:31",
            block::ContributionRecord {
                blocks: vec![block::ContributedBlock {
                    block: BLOCK.parse().unwrap(),
                    attempt: urne_verify::values::Attempt::new(1).unwrap(),
                    entropy_commitment: h(0x91),
                }],
                contribution: "1 2 3 4 5 6 1 2".into(),
            }
            .into(),
        ),
        (
            "10:40",
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
            "10:41",
            block::PublishedRecord {
                block: BLOCK.parse().unwrap(),
                attempt: urne_verify::values::Attempt::new(1).unwrap(),
                out: "/media/usb/blocks".into(),
                files: [("b.commit.json".to_string(), h(0x96))].into(),
                output: None,
            }
            .into(),
        ),
        (
            "10:45",
            block::RevealedRecord {
                block: EARLIER_BLOCK.parse().unwrap(),
                attempt: urne_verify::values::Attempt::new(1).unwrap(),
                entropy: "ab".repeat(48),
                seed: h(0x97),
                sales_closed_at: "2018-12-10T22:59:59.000000Z".into(),
            }
            .into(),
        ),
    ]
}

/// A sitting: two draws (the second interrupted after its entropy, the sitting resumed), a
/// refused input, a void, a block generated, an earlier block revealed, a refused entropy and
/// a failed command; a seal before it and a command after it.
pub(super) fn sitting(second_exe: u8) -> Vec<Event> {
    let mut r: Vec<(&str, Record)> = vec![
        ("08:00", trail_created()),
        ("08:01", sw(0x01).into()),
        ("08:02", seal("2018-12-01", 1, 0x21)),
        ("09:00", sw(0x01).into()),
        ("09:01", opened(1, SittingKind::Sitting)),
        ("09:05", entropy("2018-12-01", 1, 0x10)),
        ("09:06", contribution("2018-12-01", 1, "4 2 6 1 3 5 5 2")),
        ("09:07", result("2018-12-01", 1, 0x31)),
        ("09:08", published("2018-12-01", 1)),
        ("09:10", seal("2018-12-02", 1, 0x22)),
        (
            "09:11",
            InputRejected {
                file: "/media/usb/bad.jsonl".into(),
                sha256: Some(h(0x45)),
                reason: "the signature does not verify".into(),
            }
            .into(),
        ),
        ("09:12", entropy("2018-12-02", 1, 0x11)),
        ("09:20", sw(second_exe).into()),
        (
            "09:21",
            ResumedRecord {
                number: 1,
                plan: vec![],
            }
            .into(),
        ),
        ("09:22", contribution("2018-12-02", 1, "1 1 2 2 3 3 4 4")),
        ("09:23", result("2018-12-02", 1, 0x32)),
        ("09:24", published("2018-12-02", 1)),
        (
            "09:30",
            draw::VoidRecord {
                day: "2018-12-02".parse().unwrap(),
                attempt: urne_verify::values::Attempt::new(1).unwrap(),
                reason: "wrong export, see the operator's statement".into(),
                stage: "drawn".into(),
            }
            .into(),
        ),
    ];
    r.extend(block_records());
    r.extend([
        (
            "10:50",
            EntropyRefused {
                purpose: "day 2018-12-03".into(),
                attempt: 1,
                entropy_commitment: h(0x12),
                reason: "the token returned entropy the trail has already seen".into(),
            }
            .into(),
        ),
        (
            "10:51",
            CommandFailed {
                command: "draw".into(),
                class: "hsm".into(),
                error: "the token returned entropy the trail has already seen".into(),
            }
            .into(),
        ),
        ("11:40", ClosedRecord { number: 1 }.into()),
        ("12:00", sw(0x01).into()),
    ]);
    trail(r)
}

/// The lone draw minutes of `day`'s attempt `n`, read from `events` with [`given`].
pub(super) fn lone_draw(events: &[Event], day: &str, n: u32) -> Result<Minutes, MinutesError> {
    Minutes::for_draw(
        events,
        day.parse().unwrap(),
        urne_verify::values::Attempt::new(n).unwrap(),
        &given(),
    )
}

pub(super) fn given() -> Given {
    let mut pseudonyms = BTreeMap::new();
    for (set, base) in [(0x21u8, 0xc0u8), (0x22, 0xd0)] {
        for leaf in [7u8, 3, 11] {
            pseudonyms.insert((h(set), u64::from(leaf)), h(base + leaf));
        }
    }
    Given {
        draw_rules: vec![rules()],
        game_rules: vec![game()],
        pseudonyms,
        entropies: BTreeMap::new(),
        checkpoint: Some(
            "urne-audit/aabb\n27\nqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqo=\n\n\u{2014} urne-audit/aabb AAAA\n"
                .into(),
        ),
    }
}

#[test]
fn a_sitting_states_its_header_and_every_item() {
    let m = Minutes::from_trail(&sitting(0x01), 1, &given()).unwrap();
    assert_eq!(m.kind, MinutesKind::Sitting);
    assert_eq!((m.number, m.lang), (Some(1), Lang::Fr));
    assert_eq!(m.titles, ["Chanceux Noël", "Le Noël de la chance"]);
    assert_eq!(m.place, "Paris, 12 rue de la Paix");
    assert_eq!(m.present[0].role, "opérateur");
    assert_eq!(
        (m.opened.seq, m.closed.map(|c| c.seq), m.last.seq),
        (5, Some(26), 26)
    );
    assert_eq!(m.plan.len(), 4);
    let days: Vec<_> = m
        .draws
        .iter()
        .map(|d| (d.day.to_string(), d.attempt.get()))
        .collect();
    assert_eq!(
        days,
        [("2018-12-01".to_string(), 1), ("2018-12-02".to_string(), 1)]
    );
    let d = &m.draws[0];
    assert_eq!(
        d.seal.as_ref().unwrap().at.seq,
        3,
        "the seal made before the sitting is read"
    );
    assert_eq!(d.seal.as_ref().unwrap().value.figures.plays, 123_456);
    assert_eq!(d.prize_cents, Some(500_000));
    assert_eq!(
        d.entropy_commitment.as_ref().map(|f| (f.at.seq, f.value)),
        Some((6, h(0x10)))
    );
    assert_eq!(d.contribution.as_ref().map(|f| f.at.seq), Some(7));
    let r = d.result.as_ref().unwrap();
    assert_eq!((r.at.seq, r.seed), (8, h(0x31)));
    let picks: Vec<_> = r
        .picks
        .iter()
        .map(|p| (p.rank, p.leaf, p.pseudonym))
        .collect();
    assert_eq!(
        picks,
        [
            (0, 7, Some(h(0xc7))),
            (1, 3, Some(h(0xc3))),
            (2, 11, Some(h(0xcb)))
        ]
    );
    assert_eq!(d.files.len(), 2);
    assert_eq!(d.published.map(|p| p.seq), Some(9));
    let t = d.timing.as_ref().unwrap();
    assert_eq!(
        (t.drawn_on, t.draw_date),
        (t.draw_date, NaiveDate::from_ymd_opt(2018, 12, 11).unwrap())
    );
    assert!(!t.is_late() && !t.is_early() && !t.is_postponed());
    assert_eq!(m.voids.len(), 1);
    assert_eq!(
        (m.voids[0].subject.as_str(), m.voids[0].stage.as_deref()),
        ("2018-12-02", Some("drawn"))
    );
    assert_eq!(m.blocks.len(), 1);
    let b = &m.blocks[0];
    assert_eq!(b.generated.as_ref().unwrap().value.outcomes_root, h(0x93));
    let counts = b.counts.as_ref().unwrap();
    assert_eq!(
        counts.iter().map(|c| u64::from(c.units)).sum::<u64>(),
        800_000
    );
    assert_eq!(m.reveals.len(), 1);
    assert_eq!(
        m.reveals[0].sales_closed_at.as_deref(),
        Some("2018-12-10T22:59:59.000000Z"),
        "as recorded"
    );
    assert_eq!(m.keys, None);
    assert_eq!(m.integrity.trail, Some(h(0xaa)));
    assert_eq!(m.integrity.checkpoint.as_ref().map(|c| c.size), Some(27));
    assert_eq!(
        m.picked_leaves(),
        [
            (h(0x21), 7),
            (h(0x21), 3),
            (h(0x21), 11),
            (h(0x22), 7),
            (h(0x22), 3),
            (h(0x22), 11)
        ]
    );
}

#[test]
fn every_refusal_and_interruption_is_an_incident_in_the_trails_order() {
    let m = Minutes::from_trail(&sitting(0x01), 1, &given()).unwrap();
    let seqs: Vec<u64> = m.incidents.iter().map(|i| i.at().seq).collect();
    assert_eq!(seqs, [11, 13, 14, 16, 24, 25]);
    assert!(matches!(m.incidents[0], Incident::Rejected { .. }));
    assert!(matches!(&m.incidents[1], Incident::Process { command, .. } if command == "ceremony"));
    assert!(matches!(m.incidents[2], Incident::Resumed { .. }));
    assert_eq!(
        m.incidents[3],
        Incident::RandomnessResumed {
            at: m.draws[1].result.as_ref().unwrap().at,
            block: false,
            subject: "2018-12-02".into(),
            attempt: urne_verify::values::Attempt::new(1).unwrap(),
            entropy_seq: 12,
            contribution_seq: None,
            before_sitting: false,
        }
    );
    assert!(matches!(m.incidents[4], Incident::EntropyRefused { .. }));
    assert!(matches!(m.incidents[5], Incident::Failed { .. }));
    // The same software throughout: stated once; another executable is a change.
    assert_eq!(m.software.len(), 1);
    assert_eq!(
        m.software[0].at.seq, 4,
        "the process that opened the sitting"
    );
    let m = Minutes::from_trail(&sitting(0x02), 1, &given()).unwrap();
    assert_eq!(
        m.software.iter().map(|s| s.at.seq).collect::<Vec<_>>(),
        [4, 13]
    );
}

#[test]
fn a_sitting_still_open_runs_to_the_end_and_a_missing_one_is_an_error() {
    let mut events = sitting(0x01);
    events.truncate(20);
    let m = Minutes::from_trail(&events, 1, &given()).unwrap();
    assert_eq!((m.closed, m.last.seq), (None, 20));
    assert!(m.blocks[0].generated.is_none(), "generation not finished");
    assert_eq!(
        Minutes::from_trail(&events, 2, &given()),
        Err(MinutesError::NoSitting(2))
    );
    events[5].payload = "{}".into();
    assert!(
        matches!(Minutes::from_trail(&events, 1, &given()), Err(MinutesError::Malformed(e)) if e.seq == 6)
    );
    let mut events = sitting(0x01);
    events[6].ts = "11 December 2018".into();
    assert!(
        matches!(Minutes::from_trail(&events, 1, &given()), Err(MinutesError::Malformed(e)) if e.seq == 7)
    );
}

#[test]
fn without_the_context_the_minutes_say_less_never_something_else() {
    let m = Minutes::from_trail(&sitting(0x01), 1, &Given::default()).unwrap();
    assert_eq!(m.titles, ["chanceux-noel-2018", "noel-de-la-chance-2015"]);
    assert!(
        m.draws[0]
            .result
            .as_ref()
            .unwrap()
            .picks
            .iter()
            .all(|p| p.pseudonym.is_none())
    );
    assert_eq!(m.draws[0].prize_cents, None);
    assert_eq!(
        m.draws[0].timing, None,
        "no rules and no draw.late: no judgement"
    );
    assert_eq!(m.blocks[0].counts, None);
    assert_eq!(m.integrity.checkpoint, None);
    let html = html::render(&m, Lang::Fr);
    assert!(
        html.contains("feuille n°\u{a0}7"),
        "the pick named by its leaf"
    );
}

fn lone_late() -> Vec<Event> {
    trail(vec![
        ("2026-11-30T08:00:00.000000Z", trail_created()),
        ("2026-11-30T08:01:00.000000Z", sw(0x01).into()),
        ("2026-11-30T08:02:00.000000Z", seal("2018-12-06", 2, 0x21)),
        ("2026-12-01T09:14:00.000000Z", sw(0x01).into()),
        (
            "2026-12-01T09:14:01.000000Z",
            draw::LateRecord {
                day: "2018-12-06".parse().unwrap(),
                attempt: urne_verify::values::Attempt::new(2).unwrap(),
                draw_date: "2018-12-11".into(),
                today: "2026-12-01".into(),
            }
            .into(),
        ),
        (
            "2026-12-01T09:14:02.000000Z",
            entropy("2018-12-06", 2, 0x10),
        ),
        ("2026-12-01T09:15:00.000000Z", sw(0x01).into()),
        (
            "2026-12-01T09:16:00.000000Z",
            contribution("2018-12-06", 2, "6 6 6 1 1 1 2 2"),
        ),
        ("2026-12-01T09:16:30.000000Z", result("2018-12-06", 2, 0x31)),
    ])
}

#[test]
fn a_lone_draw_is_read_from_the_start_of_its_process_with_its_lateness() {
    let mut events = lone_late();
    // An earlier attempt of the day, voided.
    let void = draw::VoidRecord {
        day: "2018-12-06".parse().unwrap(),
        attempt: urne_verify::values::Attempt::new(1).unwrap(),
        reason: "power cut".into(),
        stage: "sealed".into(),
    };
    events = {
        let mut r: Vec<(String, Record)> = events
            .iter()
            .map(|e| (e.ts.clone(), urne_verify::events::kinds::parse(e).unwrap()))
            .collect();
        r.insert(2, ("2026-11-30T08:01:30.000000Z".into(), void.into()));
        trail(r.iter().map(|(t, r)| (t.as_str(), r.clone())).collect())
    };
    let m = lone_draw(&events, "2018-12-06", 2).unwrap();
    assert_eq!(m.kind, MinutesKind::LoneDraw);
    assert_eq!((m.opened.seq, m.last.seq), (5, 10));
    assert_eq!((m.place.as_str(), m.commissaire.is_none()), ("", true));
    let d = &m.draws[0];
    assert_eq!(d.earlier_voids, [(1, "power cut".to_string(), 3)]);
    let t = d.timing.as_ref().unwrap();
    assert_eq!(t.late_event, Some(6));
    assert_eq!(t.grace_days, Some(30));
    assert!(t.is_late() && !t.is_early());
    // The process started between the entropy and the contribution: both an interruption and
    // a draw resumed with the entropy recorded earlier.
    assert_eq!(m.incidents.len(), 2);
    assert!(matches!(
        &m.incidents[1],
        Incident::RandomnessResumed {
            entropy_seq: 7,
            contribution_seq: None,
            ..
        }
    ));
    let html = html::render(&m, Lang::Fr);
    assert!(
        html.contains("Tirage tardif (D-8) : ce tirage a eu lieu le 1er décembre 2026"),
        "{html}"
    );
    assert!(html.contains("au plus tard 30 jours après, soit le 10 janvier 2019"));
    assert!(html.contains("Tirage interrompu après l'inscription de l'aléa"));
    assert!(html.contains("Tentative n°\u{a0}1 annulée"));
    assert_eq!(
        lone_draw(&events, "2018-12-07", 1),
        Err(MinutesError::NoDraw {
            day: "2018-12-07".parse().unwrap(),
            attempt: urne_verify::values::Attempt::new(1).unwrap()
        })
    );
}

#[test]
fn a_draw_early_or_postponed_by_d8_is_said_so_and_one_on_its_date_is_not() {
    let at = |ts: &str| {
        let events = trail(vec![
            ("2018-12-01T08:00:00Z", sw(0x01).into()),
            ("2018-12-01T08:01:00Z", seal("2018-12-01", 1, 0x21)),
            (ts, sw(0x01).into()),
            (ts, entropy("2018-12-01", 1, 0x10)),
            (ts, contribution("2018-12-01", 1, "1 2 3 4 5 6 1 2")),
            (ts, result("2018-12-01", 1, 0x31)),
        ]);
        let m = lone_draw(&events, "2018-12-01", 1).unwrap();
        (
            m.draws[0].timing.clone().unwrap(),
            html::render(&m, Lang::Fr),
        )
    };
    let (t, html) = at("2018-12-10T22:59:00Z");
    assert!(
        t.is_early() && html.contains("Tirage anticipé (D-8)"),
        "{t:?}"
    );
    // 23 h UTC on the 10th is already the 11th in Paris: the draw date.
    let (t, html) = at("2018-12-10T23:00:00Z");
    assert!(!t.is_early() && !t.is_late() && !t.is_postponed());
    assert!(!html.contains("(D-8)"), "nothing when D-8 does not apply");
    let (t, html) = at("2019-01-10T12:00:00Z");
    assert!(t.is_postponed() && html.contains("Tirage reporté (D-8)"));
    assert!(html.contains("dans le délai de 30 jours"));
    // Computed from the rules even when no draw.late was recorded.
    let (t, html) = at("2019-01-11T12:00:00Z");
    assert!(t.is_late() && t.late_event.is_none() && html.contains("Tirage tardif (D-8)"));
}

#[test]
fn a_key_ceremony_states_the_keys_and_the_trail() {
    let key = |role, label: &str, id: u8| KeyRecord {
        role,
        label: label.into(),
        key_id: format!("{id:016x}").parse().unwrap(),
        public_key: h(id),
        local: true,
        never_extractable: true,
        always_sensitive: true,
        sensitive: true,
        extractable: false,
    };
    let exported = |k: &KeyRecord, file: &str| ExportedKey {
        file: file.into(),
        key_id: k.key_id.clone(),
        public_key: k.public_key,
        label: k.label.clone(),
        hardware_bound: true,
    };
    let keys = vec![
        key(KeyRole::Result, "urne-result", 0xe1),
        key(KeyRole::Audit, "urne-audit", 0xe2),
    ];
    let generated = KeysGenerated {
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
        keys: keys.clone(),
        seal_key: None,
    };
    let events = trail(vec![
        ("08:00", trail_created()),
        ("08:00", opened(1, SittingKind::KeyCeremony)),
        ("08:01", sw(0x01).into()),
        ("08:02", generated.into()),
        (
            "08:10",
            KeysExported {
                out: "/media/usb/keys".into(),
                keys: ExportedKeys {
                    result: exported(&keys[0], "result.pub.pem"),
                    audit: exported(&keys[1], "audit.pub.pem"),
                },
            }
            .into(),
        ),
        ("08:15", ClosedRecord { number: 1 }.into()),
    ]);
    let m = Minutes::from_trail(&events, 1, &given()).unwrap();
    assert_eq!(m.kind, MinutesKind::KeyCeremony);
    assert!(
        m.incidents.is_empty(),
        "the ceremony's own process is no interruption"
    );
    assert_eq!(m.software[0].at.seq, 3);
    let k = m.keys.as_ref().unwrap();
    assert_eq!(k.generated.as_ref().map(|g| g.at.seq), Some(4));
    assert_eq!(k.exported.len(), 1);
    let html = html::render(&m, Lang::Fr);
    assert!(html.contains("Procès-verbal de la cérémonie des clés"));
    assert!(html.contains("00000000000000e1") && html.contains("audit.pub.pem"));
    assert!(
        html.contains(&words::grouped(&h(0xaa).to_string())),
        "the trail's identity"
    );
    let en = html::render(&m, Lang::En);
    assert!(en.contains("Minutes of the key ceremony") && en.contains("lang=\"en\""));
}

#[test]
fn the_minutes_name_the_players_page_by_its_sha256() {
    // The page shipped with this software (README, "The player's page"): a player compares the
    // page they open with the SHA-256 the minutes print, grouped as every hash is.
    let m = Minutes::from_trail(&sitting(0x01), 1, &given()).unwrap();
    let sha = urne_verify::crypto::sha256(super::html::player_page()).to_string();
    let grouped = format!("<code class=\"h\">{}</code>", super::words::grouped(&sha));
    for (lang, words) in [
        (Lang::Fr, "Page de vérification des joueurs"),
        (Lang::En, "Players' verification page"),
    ] {
        let html = html::render(&m, lang);
        assert!(html.contains(words), "{lang:?}");
        assert!(html.contains("verifier/web/urne-check.html"));
        assert!(
            html.contains(&grouped),
            "{lang:?}: the page's SHA-256 is not in the minutes"
        );
    }
}
