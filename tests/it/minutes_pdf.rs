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
        .args(["--place", PLACE, "--commissaire", "Maître Claire Dupont"])
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
    let html = std::fs::read_to_string(env.path("pub").join("sitting-001/minutes.html")).unwrap();
    let pdf = print(dir, name, &html);
    let n = crate::print::page_sizes(&pdf).len();
    text(&pdf, 1, n)
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
    for want in [
        "heure à la montre refusée",
        "l'horloge de l'appareil indiquait 2018-12-10 10:00",
        "la montre du commissaire 2018-12-10 11:00",
        "(essai 1 sur 3)",
    ] {
        assert!(pdf.contains(want), "{want:?} not in the minutes:\n{pdf}");
    }
    assert!(!pdf.contains("Aucune anomalie"), "{pdf}");
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
