//! Minutes that leave nothing out (issue 25, item 2), read as printed: the key ceremony's
//! minutes printed by headless Chromium and read back with `pdftotext` (tests/it/print.rs), after
//! a watch time typed wrong then right, and after a first attempt stopped once its keys were
//! generated (spec/appliance.md §9.1, §9.2).

use crate::common::*;
use crate::native::faketime_urne;
use crate::print::{print, text};
use std::path::Path;
use std::process::Output;

/// The sitting's language: French, the default (the tests' environment is English).
const FR: &str = "fr_FR.UTF-8";
/// The watch's prompt.
const WATCH: &str = "à votre montre";
/// Where the key ceremony is held, as `--place` gives it.
const PLACE: &str = "Salle des tirages, 126 rue Gallieni, 92100 Boulogne-Billancourt";

/// `urne ceremony --key-ceremony` at a pseudo-terminal, the appliance's clock at `when` (UTC),
/// the commissaire typing `watches` at the watch's prompts in order.
fn key_ceremony(env: &Env, when: &str, watches: &[&str]) -> (Output, String) {
    let publ = env.path("pub");
    let mut c = env.cmd_of(&root().join("scripts/pty-type"));
    c.env_remove("URNE_PIN")
        .env("LANG", FR)
        .env("TZ", "UTC")
        .env("FAKETIME", format!("@{when}"))
        .args(["--timeout", "60"])
        .args(["--expect", "code PIN de l'HSM", "--send", &env.pin()])
        .args(["--on", "exactes", "--send", "oui"])
        .args([
            "--on",
            PRODUCER_ID_PROMPT,
            "--send",
            &format!("{}\n", test_producer_key_id()),
        ]);
    for w in watches {
        c.args(["--expect", WATCH, "--send", w]);
    }
    let o = c
        .arg("--")
        .arg(faketime_urne())
        .args([
            "ceremony",
            "--key-ceremony",
            "--out",
            publ.to_str().unwrap(),
        ])
        .args([
            "--town",
            "Boulogne-Billancourt",
            "--place",
            PLACE,
            "--commissaire",
            "Maître Claire Dupont",
        ])
        .args([
            "--office",
            "SELARL Dupont",
            "--present",
            "Jean Martin, opérateur",
        ])
        .output()
        .unwrap();
    let screen = String::from_utf8_lossy(&o.stdout).replace("\r\n", "\n");
    (o, screen)
}

/// The kinds of the trail's events, in order, with their payloads.
fn trail(env: &Env) -> Vec<(String, serde_json::Value)> {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    c.prepare("SELECT kind, payload FROM events ORDER BY seq")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get::<_, String>(1)?)))
        .unwrap()
        .map(|r| {
            let (k, p) = r.unwrap();
            (k, serde_json::from_str(&p).unwrap())
        })
        .collect()
}

/// The key ceremony's minutes, printed, as text.
fn printed_minutes(env: &Env, dir: &Path, name: &str) -> String {
    let pdf = printed_pdf(env, dir, name);
    let n = crate::print::page_sizes(&pdf).len();
    text(&pdf, 1, n)
}

/// The key ceremony's minutes, printed.
fn printed_pdf(env: &Env, dir: &Path, name: &str) -> std::path::PathBuf {
    let html = std::fs::read_to_string(env.path("pub").join("sitting-001/minutes.html")).unwrap();
    print(dir, name, &html)
}

#[test]
fn a_watch_time_typed_wrong_is_asked_again_and_the_key_ceremonys_minutes_state_it() {
    let env = Env::without_keys();
    let dir = tempfile::tempdir().unwrap();
    // The appliance says 10:00 in Paris; the commissaire types 11:00, then 10:00.
    let (o, screen) = key_ceremony(
        &env,
        "2018-12-10 09:00:00",
        &["2018-12-10 11:00", "2018-12-10 10:00"],
    );
    assert!(o.status.success(), "{screen}");
    assert_eq!(screen.matches(WATCH).count(), 2, "{screen}");
    assert!(!screen.contains("error[clock-disagrees]"), "{screen}");
    // The refusal recorded once the clock agreed, after the opening.
    let t = trail(&env);
    let opened = t.iter().position(|(k, _)| k == "sitting.opened").unwrap();
    let failed: Vec<_> = t
        .iter()
        .enumerate()
        .filter(|(_, (k, _))| k == "command.failed")
        .collect();
    assert_eq!(failed.len(), 1, "{t:?}");
    assert!(failed[0].0 > opened);
    assert_eq!(failed[0].1.1["class"], "refused");
    let pdf = printed_minutes(&env, dir.path(), "watch-refused");
    // In French only: the keys' roles and the plan's step in words.
    for english in ["Clé result", "Clé audit", "1. keys", "(refused)"] {
        assert!(!pdf.contains(english), "{english:?} in the minutes:\n{pdf}");
    }
    for want in [
        "Clé de signature des résultats (urne-result)",
        "Clé de signature du journal d'audit (urne-audit)",
        "1. génération des clés de l'appareil dans le jeton",
    ] {
        assert!(pdf.contains(want), "{want:?} not in the minutes:\n{pdf}");
    }
    // Each public key begins on the line of its label, never above it.
    let words = words_of(&printed_pdf(&env, dir.path(), "watch-refused-words"));
    let labels: Vec<_> = words.iter().filter(|w| w.0 == "publique").collect();
    assert!(labels.len() >= 3, "{labels:?}");
    for l in labels {
        let hex = |w: &&(String, usize, f64, f64, f64)| {
            w.1 == l.1 && w.2 > l.2 && w.0.len() == 4 && w.0.bytes().all(|b| b.is_ascii_hexdigit())
        };
        assert!(
            words.iter().any(|w| hex(&w) && (w.3 - l.3).abs() < 2.0),
            "no group of hex on the line of {l:?}"
        );
        assert!(
            !words
                .iter()
                .any(|w| hex(&w) && w.4 <= l.3 + 0.5 && w.4 > l.3 - 10.0),
            "a group of hex on the line above {l:?}"
        );
    }
    for want in [
        "heure à la montre refusée",
        "l'horloge de l'appareil indiquait 2018-12-10 10:00",
        "la montre du commissaire 2018-12-10 11:00",
        "(essai 1 sur 3)",
        // The refusal's words, as recorded in the trail, quoted as such.
        "(refus) ; message enregistré :",
    ] {
        assert!(pdf.contains(want), "{want:?} not in the minutes:\n{pdf}");
    }
    assert!(!pdf.contains("Aucune anomalie"), "{pdf}");
    // "Fait à" the town, asked as such, not the place's address.
    assert!(
        pdf.contains("Fait à Boulogne-Billancourt, le 10 décembre 2018."),
        "{pdf}"
    );
    assert!(!pdf.contains("Fait à Salle des tirages"), "{pdf}");
}

#[test]
fn a_key_ceremony_stopped_after_its_keys_were_generated_has_minutes_that_say_so_and_why() {
    let env = Env::without_keys();
    let dir = tempfile::tempdir().unwrap();
    // Three times wrong: the attempt stops (exit 4) after the keys were generated, and the
    // refusal is recorded (the keys are dated by the same clock).
    let wrong = "2018-12-10 11:00";
    let (o, screen) = key_ceremony(&env, "2018-12-10 09:00:00", &[wrong, wrong, wrong]);
    assert_eq!(o.status.code(), Some(4), "{screen}");
    let err = screen_error(&screen, "clock-disagrees");
    assert_names(&err, &["2018-12-10 10:00", wrong]);
    // Its hint never says nothing was done: the keys exist and stay; it says what to run again.
    let hint = screen
        .lines()
        .find_map(|l| l.trim_end_matches('\r').strip_prefix("hint: "))
        .unwrap_or_else(|| panic!("no hint line:\n{screen}"));
    assert_names(hint, &["`urne ceremony`"]);
    assert!(
        !hint.contains("nothing was done") && !hint.contains("rien"),
        "{hint}"
    );
    let kinds: Vec<String> = trail(&env).into_iter().map(|(k, _)| k).collect();
    assert_eq!(
        kinds,
        [
            "trail.created",
            "software.start",
            "keys.generated",
            "command.failed"
        ]
    );
    // Run again at the right time: the sitting opens and closes.
    let (o, screen) = key_ceremony(&env, "2018-12-10 09:10:00", &["2018-12-10 10:10"]);
    assert!(o.status.success(), "{screen}");
    let pdf = printed_minutes(&env, dir.path(), "first-attempt");
    for want in [
        "Première tentative de la cérémonie arrêtée avant l'ouverture de la séance",
        "générées dans le jeton (événement d'audit n° 3)",
        "par un processus démarré à l'événement d'audit n° 2, qui s'est arrêté sans ouvrir la séance",
        "ouverte par une nouvelle exécution, démarrée à l'événement d'audit n° 5",
        "Motif de l'arrêt : voir l'événement d'audit n° 4",
        "(essai 3 sur 3)",
    ] {
        assert!(pdf.contains(want), "{want:?} not in the minutes:\n{pdf}");
    }
    assert!(!pdf.contains("Aucune anomalie"), "{pdf}");
}

/// The words of the PDF with their boxes: `(text, page, x_min, y_min, y_max)`, in points.
fn words_of(pdf: &Path) -> Vec<(String, usize, f64, f64, f64)> {
    let out = std::process::Command::new("pdftotext")
        .args(["-bbox", pdf.to_str().unwrap(), "-"])
        .output()
        .unwrap();
    let html = String::from_utf8(out.stdout).unwrap();
    let attr = |l: &str, a: &str| -> f64 {
        let v = l.split(&format!("{a}=\"")).nth(1).unwrap();
        v[..v.find('"').unwrap()].parse().unwrap()
    };
    let mut page = 0;
    let mut words = vec![];
    for l in html.lines().map(str::trim_start) {
        if l.starts_with("<page") {
            page += 1;
        } else if l.starts_with("<word") {
            let text = &l[l.find('>').unwrap() + 1..l.rfind("</word>").unwrap()];
            words.push((
                text.replace("&apos;", "'").replace("&amp;", "&"),
                page,
                attr(l, "xMin"),
                attr(l, "yMin"),
                attr(l, "yMax"),
            ));
        }
    }
    words
}

#[test]
fn the_printed_minutes_have_no_stale_plan_no_empty_heading_and_room_to_sign_and_initial() {
    use crate::print::{at, compose, day_draw, events, given, h, latest_note, payload};
    use serde_json::json;
    use urne_ceremony::minutes::{Lang, Minutes, html};
    let dir = tempfile::tempdir().unwrap();
    let env = Env::new();
    let export = crate::draws::simulate(&env, "2018-12-01", 400, 7, &[]);
    crate::draws::seal(&env, &export);
    env.draw_ok("2018-12-01", "out");
    let real = events(&env);
    let start = payload(&real, "software.start");
    let seal = payload(&real, "draw.seal");
    // A second process whose mapped files differ from the first's, their number the same.
    let mut other = start.clone();
    other["pkcs11"]["mapped"][0]["sha256"] = json!(h(0x99));
    let mut opened = crate::print::sitting_opened("sitting");
    opened["plan"] = json!(
        (1..=6)
            .map(|d| json!({"action": "draw", "subject": format!("2018-12-0{d}"), "detail": ""}))
            .collect::<Vec<_>>()
    );
    let mut r: Vec<(String, &str, serde_json::Value)> = vec![
        (
            at("08:00"),
            "trail.created",
            payload(&real, "trail.created"),
        ),
        (at("08:01"), "software.start", start.clone()),
    ];
    for d in 1..=6u8 {
        r.push((
            at(&format!("08:1{d}")),
            "draw.seal",
            crate::print::for_day(&seal, d, 1, &["set_sha256"]),
        ));
    }
    // Between the sittings: an export refused, and a run of urne ceremony that stopped before
    // the opening, recording nothing but its start (the watch refused three times, say).
    r.push((at("08:40"), "input.rejected", json!({"file": "/media/usb/entries-2018-12-07.jsonl", "sha256": h(0x4f), "reason": "export refusé : signature invalide"})));
    let mut ceremony = start.clone();
    ceremony["command"] = json!("ceremony");
    r.push((at("08:50"), "software.start", ceremony.clone()));
    r.push((at("09:00"), "software.start", ceremony));
    r.push((at("09:01"), "sitting.opened", opened));
    for d in 1..=3u8 {
        let m = 10 * u32::from(d);
        let hm: Vec<String> = (0..4).map(|i| format!("09:{:02}", m + i)).collect();
        r.extend(day_draw(&real, d, 1, [&hm[0], &hm[1], &hm[2], &hm[3]]));
    }
    // Day 3 voided, to be drawn again: still to do when the sitting is taken up again.
    r.push((
        at("09:50"),
        "draw.void",
        json!({"day": "2018-12-03", "attempt": 1, "reason": "export incomplet", "stage": "drawn"}),
    ));
    // Interrupted; taken up again by another process, which records the whole plan again.
    r.push((at("10:15"), "software.start", other));
    r.push((
        at("10:16"),
        "sitting.resumed",
        json!({"number": 1, "plan": (1..=6)
            .map(|d| json!({"action": "draw", "subject": format!("2018-12-0{d}"), "detail": ""}))
            .collect::<Vec<_>>()}),
    ));
    r.push((
        at("10:17"),
        "draw.seal",
        crate::print::for_day(&seal, 3, 2, &["set_sha256"]),
    ));
    r.extend(day_draw(&real, 3, 2, ["10:20", "10:21", "10:22", "10:23"]));
    for d in 4..=6u8 {
        let m = 10 * u32::from(d) - 10;
        let hm: Vec<String> = (0..4).map(|i| format!("10:{:02}", m + i)).collect();
        r.extend(day_draw(&real, d, 1, [&hm[0], &hm[1], &hm[2], &hm[3]]));
    }
    r.push((at("11:40"), "sitting.closed", json!({"number": 1})));
    let trail = compose(r);
    let m = Minutes::from_trail(&trail, 1, &given(&trail, latest_note(&env))).unwrap();
    let page = html::render(&m, Lang::Fr);

    // Printed as an operator who left the print dialog's "headers and footers" on would.
    let pdf = crate::print::print_with(dir.path(), "sitting", &page, &[]);
    let n = crate::print::page_sizes(&pdf).len();
    let all = text(&pdf, 1, n);
    // No stale plan: the days drawn before the interruption are not still to do, the voided
    // day is.
    let resumed = "travaux restant prévus : tirage du jour du 3 décembre 2018 ; tirage du jour du 4 décembre 2018 ; tirage du jour du 5 décembre 2018 ; tirage du jour du 6 décembre 2018";
    assert!(all.contains(resumed), "{all}");
    assert!(
        !all.contains("travaux restant prévus : tirage du jour du 1er"),
        "{all}"
    );
    // What happened between the sittings that touches this one's work.
    for want in [
        "Fichier refusé : /media/usb/entries-2018-12-07.jsonl",
        "Exécution de urne ceremony arrêtée avant l'ouverture d'une séance, sans rien inscrire d'autre que son démarrage",
    ] {
        assert!(all.contains(want), "{want:?} not in the minutes:\n{all}");
    }
    assert_eq!(
        all.matches("Exécution de urne ceremony arrêtée").count(),
        1,
        "{all}"
    );
    // No heading over an empty table: the change is said in words.
    assert!(
        all.contains("seule la liste des fichiers chargés dans le processus diffère"),
        "{all}"
    );
    // On every page: the minutes' title (in place of a browser's header: no date, no URL) and
    // the box for the initials.
    for p in 1..=n {
        let t = text(&pdf, p, p);
        assert!(t.contains("Paraphes :"), "page {p}: {t}");
        assert!(
            t.starts_with("Procès-verbal de la séance n° 1"),
            "page {p}: {t}"
        );
        assert!(!t.contains("file://"), "page {p}: {t}");
        assert!(!t.contains(" PM") && !t.contains(" AM"), "page {p}: {t}");
    }
    // A box for the minutes' own SHA-256, and the observations given a third of the page's text.
    assert!(
        all.contains("Empreinte SHA-256 du présent procès-verbal (minutes.html), recopiée de l'écran par le commissaire de justice"),
        "{all}"
    );
    let words = words_of(&pdf);
    let find = |w: &str| {
        words
            .iter()
            .find(|x| x.0 == w)
            .unwrap_or_else(|| panic!("no {w}"))
    };
    let obs = find("Observations");
    let sha = find("Empreinte");
    assert_eq!(obs.1, sha.1, "the observations and the box apart");
    // A4's text is 260 mm high (17 and 20 mm margins); a third of it is 86.7 mm, 245.7 pt.
    assert!(
        sha.3 - obs.4 >= 245.7,
        "the observations have {} pt",
        sha.3 - obs.4
    );
}
