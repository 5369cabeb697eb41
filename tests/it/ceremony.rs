//! A whole sitting, as the operator and the commissaire live it (issue 13): `urne ceremony` on a
//! pseudo-terminal, every answer typed at its prompt (the PIN too), the appliance's clock on
//! the sitting's date under libfaketime for the whole sequence: the key ceremony on 10
//! December 2018, then on 11 December the seven days of period 1 (D-8) sealed from production's
//! exports and drawn, a void decided at the sitting and the day drawn again, an emission's
//! block generated, and the sitting closed with its signed output.

use crate::common::*;
use crate::draws::simulate;
use crate::native::faketime_urne;
use std::path::Path;
use std::process::{Command, Output};

pub(crate) const RULES: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/rules/chanceux-noel-2018.json");
const GAME: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/rules/noel-de-la-chance-2015.json"
);

/// The sitting's language: French, the default (the tests' environment is English).
const FR: &str = "fr_FR.UTF-8";

/// The messages of urne's catalogue found on `screen` in the other language than `lang` (issue
/// 25, item 3): each fixed part of a message, of 16 characters or more, that its words in
/// `lang` do not hold too.
fn other_language(screen: &str, lang: urne::msg::Lang) -> Vec<String> {
    let other = match lang {
        urne::msg::Lang::Fr => urne::msg::Lang::En,
        urne::msg::Lang::En => urne::msg::Lang::Fr,
    };
    let mut found = vec![];
    for m in urne::msg::catalogue::all() {
        for part in m.fixed(other) {
            if part.chars().count() >= 16 && !m.words(lang).contains(part) && screen.contains(part)
            {
                found.push(format!("{}: {part:?}", m.id));
            }
        }
    }
    found
}

#[test]
fn a_message_of_the_other_language_is_found_on_a_screen() {
    use urne::msg::Lang::{En, Fr};
    let en = "error[block-already-generated]: block x was already generated (attempt 1); a block identity is generated once";
    // Both fixed parts of the message, around its values.
    assert_eq!(
        other_language(en, Fr).len(),
        2,
        "{:?}",
        other_language(en, Fr)
    );
    assert!(other_language(en, En).is_empty());
    let fr =
        "clé de signature des résultats \"urne-result\" générée dans le jeton : identifiant 9a0d";
    assert!(!other_language(fr, En).is_empty());
    assert!(other_language(fr, Fr).is_empty());
}

/// `urne ARGS` under libfaketime, the clock started at `when` (UTC) and running.
pub(crate) fn at(env: &Env, when: &str) -> Command {
    let mut c = env.cmd_of(faketime_urne());
    c.env("TZ", "UTC")
        .env("FAKETIME", format!("@{when}"))
        .env("LANG", FR);
    c
}

/// `urne keys init` on `day` at 09:00 UTC, then production's TEST key pinned a minute later (its
/// id typed, as `scripts/dev-hsm` does).
pub(crate) fn init_at(env: &Env, day: &str) {
    let o = at(env, &format!("{day} 09:00:00"))
        .args(["keys", "init"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let later = format!("@{day} 09:01:00");
    pin_producer(
        env,
        faketime_urne(),
        &[("TZ", "UTC"), ("FAKETIME", &later), ("LANG", FR)],
    );
}

/// The commissaire's watch at `when` (UTC, as libfaketime's start): Paris time, to the minute.
fn watch(when: &str) -> String {
    chrono::NaiveDateTime::parse_from_str(when, "%Y-%m-%d %H:%M:%S")
        .unwrap()
        .and_utc()
        .with_timezone(&chrono_tz::Europe::Paris)
        .format("%Y-%m-%d %H:%M")
        .to_string()
}

/// The commissaire's watch now (a test run on the real clock): the test reads the clock urne
/// reads, as the commissaire's watch would.
#[allow(clippy::disallowed_methods)]
fn watch_now() -> String {
    watch(&chrono::Utc::now().format("%Y-%m-%d %H:%M:%S").to_string())
}

/// What the commissaire's watch answers, each time it is asked (`scripts/pty-type --on`).
const WATCH: &str = "(?:à votre montre|at your watch)";

/// The sitting typed at a pseudo-terminal: `steps` answered in order (`--expect`), `rules` each
/// time their prompt appears (`--on`); the PIN typed at its prompt, not taken from `URNE_PIN`.
pub(crate) fn sitting(env: &Env, when: &str, steps: &[(&str, &str)], args: &[&str]) -> Output {
    let mut o = sitting_command(env, when, steps, args).output().unwrap();
    o.stderr = o.stdout.clone();
    o
}

/// The command of [`sitting`], to run it otherwise (in a private mount namespace: tests/it/planted.rs).
pub(crate) fn sitting_command(
    env: &Env,
    when: &str,
    steps: &[(&str, &str)],
    args: &[&str],
) -> Command {
    let mut c = env.cmd_of(&root().join("scripts/pty-type"));
    c.env_remove("URNE_PIN")
        .env("LANG", FR)
        .env("TZ", "UTC")
        .env("FAKETIME", format!("@{when}"))
        .args(["--timeout", "120"]);
    c.args(["--expect", "code PIN de l'HSM", "--send", &env.pin()])
        .args(["--on", WATCH, "--send", &watch(when)])
        .args([
            "--on",
            PRODUCER_ID_PROMPT,
            "--send",
            &format!("{}\n", test_producer_key_id()),
        ]);
    for (prompt, answer) in steps {
        c.args(["--expect", prompt, "--send", answer]);
    }
    c.args(["--on", "Procéder à cette étape", "--send", "oui"])
        .args(["--on", TYPE_BACK, "--send-match"])
        .args([
            "--on",
            CONTRIBUTION_PROMPT,
            "--send",
            "dés 5 2 6 3, Maître Dupont",
        ])
        .args(["--on", YES_NO, "--send", "oui"])
        .args(["--on", CLOSE_PROMPT, "--send", "oui"])
        .args(["--on", SAME_EXPORT_PROMPT, "--send", "oui"])
        .args(["--on", CONFIRM, "--send-match", "--"])
        .arg(faketime_urne())
        .arg("ceremony")
        .args(args);
    c
}

/// The key ceremony, a sitting of its own, at `when` (UTC), its output under `publ`.
pub(crate) fn key_ceremony(env: &Env, when: &str, publ: &Path) -> Output {
    let who = [
        (
            "Lieu de la séance",
            "Étude Dupont, 12 rue de la Paix, Paris",
        ),
        ("Ville où le procès-verbal", "Paris"),
        ("Nom du commissaire", "Maître Claire Dupont"),
        ("Office", "SELARL Dupont, commissaires de justice à Paris"),
        ("ligne vide pour finir", ""),
        ("exactes", "oui"),
    ];
    let args = ["--key-ceremony", "--out", publ.to_str().unwrap()];
    sitting(env, when, &who, &args)
}

/// Production's export of `day`, made at midnight in Paris as the day ended.
pub(crate) fn export(env: &Env, day: &str, seed: u32) {
    let d = chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d").unwrap();
    let midnight = format!("{}T00:00:00+01:00", d.succ_opt().unwrap());
    let dated = ["--generated-at", &midnight, "--status-as-of", &midnight];
    let made = simulate(env, day, 300, seed, &dated);
    let dir = env.path("exports");
    std::fs::create_dir_all(&dir).unwrap();
    for ext in ["", ".sig"] {
        let from = Path::new(&format!("{}{ext}", made.display())).to_path_buf();
        let name = from.file_name().unwrap().to_owned();
        std::fs::rename(&from, dir.join(name)).unwrap();
    }
}

/// The kinds of the trail's events after the first `n`, in order.
fn kinds_after(env: &Env, n: i64) -> Vec<String> {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    c.prepare("SELECT kind FROM events WHERE seq > ?1 ORDER BY seq")
        .unwrap()
        .query_map([n], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// The kinds of the trail's sitting events, in order.
fn sitting_kinds(env: &Env) -> Vec<String> {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    c.prepare("SELECT kind FROM events WHERE kind LIKE 'sitting.%' ORDER BY seq")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

fn json(p: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

#[test]
fn a_whole_sitting_drawn_voided_redrawn_and_closed_with_its_minutes() {
    let env = Env::without_keys();
    let publ = env.path("pub");
    // The key ceremony, a sitting of its own, on 10 December.
    let o = key_ceremony(&env, "2018-12-10 09:00:00", &publ);
    let keys = String::from_utf8_lossy(&o.stdout).replace("\r\n", "\n");
    assert!(o.status.success(), "the key ceremony failed:\n{keys}");
    assert!(keys.find("code PIN de l'HSM").unwrap() < keys.find("Lieu de la séance").unwrap());
    assert!(keys.contains("CKA_NEVER_EXTRACTABLE=true"), "{keys}");
    // keys init and keys export speak the sitting's language (issue 25, item 3).
    for want in [
        "clé de signature des résultats \"urne-result\" générée dans le jeton : identifiant",
        "clé de scellement \"urne-seal\" générée dans le jeton : AES-256",
        "point de contrôle signé :",
        "clé de signature du journal d'audit : ",
    ] {
        assert!(keys.contains(want), "{want:?} not on screen:\n{keys}");
    }
    for english in [
        "generated in the token",
        "key id",
        "audit trail",
        "checkpoint signed",
    ] {
        assert!(!keys.contains(english), "{english:?} on screen:\n{keys}");
    }
    assert!(
        keys.contains("conforme : clé de production épinglée"),
        "{keys}"
    );
    assert!(publ.join("keys/audit.pub.pem").is_file());
    let k = json(&publ.join("sitting-001/sitting.json"));
    assert_eq!(k["kind"], "key-ceremony");
    assert_eq!(k["outputs"], serde_json::json!([]));
    // A block of an earlier emission, generated on its own on 10 December, sold out that day.
    let earlier = "noel-de-la-chance-2015/100/noel-2018-a/1";
    let o = env
        .cmd_of(&root().join("scripts/pty-type"))
        .env("TZ", "UTC")
        .env("FAKETIME", "@2018-12-10 10:00:00")
        .args(["--on", TYPE_BACK, "--send-match"])
        .args(["--on", CONTRIBUTION_PROMPT, "--send", "bloc : 6 1 4 2 2 5"])
        .args(["--on", YES_NO, "--send", "oui", "--"])
        .arg(faketime_urne())
        .args(["block", "generate", "--rules", GAME, "--price", "100"])
        .args(["--emission", "noel-2018-a", "--out"])
        .arg(publ.join("blocks"))
        .arg("--secret-out")
        .arg(env.path("secret-a"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    let days: Vec<String> = (1..=7).map(|d| format!("2018-12-0{d}")).collect();
    for (i, d) in days.iter().enumerate() {
        export(&env, d, 40 + u32::try_from(i).unwrap());
    }
    let (exports, secret) = (env.path("exports"), env.path("secret"));
    let identity = [
        (
            "Lieu de la séance",
            "Étude Dupont, 12 rue de la Paix, Paris",
        ),
        ("Ville où le procès-verbal", "Paris"),
        ("Nom du commissaire", "Maître Claire Dupont"),
        ("Office", "SELARL Dupont, commissaires de justice à Paris"),
        ("ligne vide pour finir", "Jean Martin, opérateur"),
        ("Jean Martin", "Anne Petit, représentante de la société"),
        ("Anne Petit", ""),
        ("exactes", "oui"),
        // The earlier block's reveal: the commissaire types the sales close from production's
        // statement, once wrong (refused, asked again), then right.
        ("clôture des ventes du bloc", "2018-12-10 23:58"),
        ("clôture des ventes du bloc", "2018-12-10  23:59"),
        // After the plan: 2018-12-03 voided (production sent a corrected export) and drawn again.
        ("Votre choix", "1"),
        ("Jour \\(AAAA-MM-JJ\\)", "2018-12-03"),
        (
            "Motif de l'annulation",
            "export corrigé reçu de la production",
        ),
        ("Votre choix", "2"),
        ("Jour \\(AAAA-MM-JJ\\)", "2018-12-03"),
        // The emission's block voided (its printing failed), from the same menu; its number
        // typed wrong first (a block never generated: asked again, nothing recorded).
        ("Votre choix", "3"),
        (
            "Bloc \\(identifiant",
            "noel-de-la-chance-2015/100/noel-2018/7",
        ),
        (
            "Bloc \\(identifiant",
            "noel-de-la-chance-2015/100/noel-2018/1",
        ),
        ("Motif de l'annulation", "impression du lot défectueuse"),
        ("Votre choix", "4"),
    ];
    let o = sitting(
        &env,
        "2018-12-11 09:00:00",
        &identity,
        &[
            "--out",
            publ.to_str().unwrap(),
            "--rules",
            RULES,
            "--exports",
            exports.to_str().unwrap(),
            "--game-rules",
            GAME,
            "--price",
            "100",
            "--emission",
            "noel-2018",
            "--secret-out",
            secret.to_str().unwrap(),
            "--reveal",
            earlier,
            "--sales-closed-at",
            "2018-12-10T23:59:59+01:00",
        ],
    );
    let screen = String::from_utf8_lossy(&o.stdout).replace("\r\n", "\n");
    assert!(o.status.success(), "the sitting failed:\n{screen}");
    // The PIN was asked first, before anything of the commissaire, and never shown.
    let pin_at = screen.find("code PIN de l'HSM").unwrap();
    assert!(pin_at < screen.find("Lieu de la séance").unwrap());
    assert!(!screen.contains(&env.pin()), "the PIN was echoed");
    assert!(screen.contains("Séance n° 2 ouverte"), "{screen}");
    // The seven days the rules schedule for 11 December (D-8), on time: no lateness.
    for d in &days {
        assert!(
            screen.contains(&format!(
                "TIRÉ : chanceux-noel-2018, jour du {d} (tentative n°\u{a0}1)"
            )),
            "{d} not drawn:\n{screen}"
        );
    }
    assert!(!screen.contains("tirage tardif"), "{screen}");
    assert!(
        screen.contains("ANNULÉ : jour 2018-12-03, tentative 1 (tiré et publié)"),
        "{screen}"
    );
    assert!(screen.contains("ANNULATION :"), "{screen}");
    assert!(screen.contains("TIRÉ : chanceux-noel-2018, jour du 2018-12-03 (tentative n°\u{a0}2)"));
    assert!(screen.contains("MINUTES DE LA SÉANCE n° 2"), "{screen}");
    // Every output under the publications folder, and the sitting's own.
    for d in &days {
        assert!(publ.join(format!("draw-{d}/bundle.json")).is_file(), "{d}");
    }
    assert!(
        publ.join("void-2018-12-03-attempt-1/void-notice.json")
            .is_file()
    );
    assert!(publ.join("draw-2018-12-03-attempt-2/bundle.json").is_file());
    assert!(
        secret.read_dir().unwrap().count() > 0,
        "the production file on its medium"
    );
    let s = json(&publ.join("sitting-002/sitting.json"));
    assert_eq!(s["format"], "urne-sitting");
    assert_eq!(s["number"], 2);
    assert_eq!(s["place"], "Étude Dupont, 12 rue de la Paix, Paris");
    assert_eq!(s["commissaire"]["name"], "Maître Claire Dupont");
    assert_eq!(s["present"][1]["role"], "représentante de la société");
    // 7 draws, the void notice, the redraw, the block, its void notice, the earlier block's
    // reveal.
    assert_eq!(s["outputs"].as_array().unwrap().len(), 12, "{s:#}");
    assert!(
        screen.contains("ANNULÉ : bloc noel-de-la-chance-2015/100/noel-2018/1, tentative 1"),
        "{screen}"
    );
    assert!(
        publ.join("void-noel-de-la-chance-2015_100_noel-2018_1-attempt-1/void-notice.json")
            .is_file()
    );
    assert!(
        screen.contains(&format!("BLOC RÉVÉLÉ : {earlier}")),
        "{screen}"
    );
    assert!(screen.contains("refusé : ce n'est pas la clôture donnée à l'appareil"));
    let reveal = json(&publ.join("blocks/noel-de-la-chance-2015_100_noel-2018-a_1.reveal.json"));
    assert!(
        reveal["sales_closed_at"]
            .as_str()
            .unwrap()
            .starts_with("2018-12-10T22:59:59")
    );
    assert!(
        s["opened_at"]
            .as_str()
            .unwrap()
            .starts_with("2018-12-11T09:")
    );
    let note = std::fs::read_to_string(publ.join("sitting-002/checkpoint.note")).unwrap();
    assert_eq!(s["audit_checkpoint"], note.as_str());
    assert!(
        screen.contains(&note),
        "the checkpoint to copy is on screen"
    );
    for f in ["minutes.html", "checkpoint.note", "sitting.json"] {
        let p = publ.join("sitting-002").join(f);
        let sig = publ.join("sitting-002").join(format!("{f}.sig"));
        assert!(
            openssl_verify(&publ.join("sitting-002/result.pub.pem"), &p, &sig),
            "{f}"
        );
    }
    // Each output verifies; the trail holds the sitting's events, and is whole.
    for d in &days {
        let draw = publ.join(format!("draw-{d}"));
        let out = env.urne(&[
            "verify",
            draw.to_str().unwrap(),
            "--keys",
            draw.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{d}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    // The minutes' SHA-256 to write on the paper copy, printed by urne at the close.
    let bytes = std::fs::read(publ.join("sitting-002/minutes.html")).unwrap();
    let sha = hex::encode(urne_verify::crypto::sha256(&bytes));
    assert!(screen.contains("minutes.html (SHA-256, à écrire sur l'exemplaire papier)"));
    // The trail checked before the sitting acts, in the sitting's language.
    assert!(screen.contains("piste d'audit "), "{screen}");
    assert!(!screen.contains("audit trail"), "{screen}");
    // No message of urne's in English, on the key ceremony's screens or the sitting's.
    for s in [&keys, &screen] {
        let english = other_language(s, urne::msg::Lang::Fr);
        assert!(english.is_empty(), "{english:?} on screen:\n{s}");
    }
    assert!(
        screen.contains(&format!("{} {}", &sha[..4], &sha[4..8])),
        "{sha} not on screen:\n{screen}"
    );
    // The minutes of the whole sitting, read from the trail (spec/appliance.md §9.2).
    let html = std::fs::read_to_string(publ.join("sitting-002/minutes.html"))
        .unwrap()
        .replace(['\u{a0}', '\u{202f}'], " ");
    for want in [
        "Procès-verbal de la séance n° 2",
        "Étude Dupont, 12 rue de la Paix, Paris",
        "Maître Claire Dupont",
        "Anne Petit",
        "Jour du 1er décembre 2018",
        "Jour du 7 décembre 2018",
        "Jour du 3 décembre 2018 — tentative n° 2",
        "export corrigé reçu de la production",
        "impression du lot défectueuse",
        "Clôture des ventes du bloc",
        "le 10 décembre 2018 à 23 h 59",
        "le 11 décembre 2018 à 10 h",
    ] {
        assert!(html.contains(want), "the minutes lack {want:?}");
    }
    // The key ceremony's minutes and the sitting's say how the commissaire checks the
    // executable's and the module's SHA-256 against the signed release (spec/formats.md §8.8
    // [M-419]), the revision of this build named.
    let bundle = std::fs::read_dir(&publ)
        .unwrap()
        .map(|e| e.unwrap().path().join("bundle.json"))
        .find(|p| p.exists())
        .expect("a draw among the outputs");
    let revision = json(&bundle)["software"]["source_revision"]
        .as_str()
        .unwrap()
        .to_string();
    for n in ["001", "002"] {
        let html = std::fs::read_to_string(publ.join(format!("sitting-{n}/minutes.html"))).unwrap();
        for want in [
            "Vérifier le logiciel.",
            "urne-verify --release SHA256SUMS --release-key release-key.pem",
            "openssl pkeyutl -verify -pubin -inkey release-key.pem -rawin -in SHA256SUMS -sigfile SHA256SUMS.sig",
        ] {
            assert!(html.contains(want), "sitting-{n}'s minutes lack {want:?}");
        }
        assert!(
            html.contains(&format!("urne-src-{revision}.tar.gz")),
            "sitting-{n}'s minutes do not name the release of {revision}"
        );
    }
    // Both verifiers check the sitting's output against the keys of the key ceremony, and the
    // whole publications folder as one history (spec/formats.md §8.4, §9.4).
    let keys = publ.join("keys");
    for (what, path) in [
        ("the sitting", publ.join("sitting-002")),
        ("the medium", publ.clone()),
    ] {
        let args = [path.to_str().unwrap(), "--keys", keys.to_str().unwrap()];
        let out = env.cmd().arg("verify").args(args).output().unwrap();
        let shown = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "urne verify {what}: {shown}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let py = Command::new("python3")
            .arg(root().join("verifier/urne_verify.py"))
            .args(args)
            .output()
            .unwrap();
        assert!(
            py.status.success(),
            "urne_verify.py {what}: {}{}",
            String::from_utf8_lossy(&py.stdout),
            String::from_utf8_lossy(&py.stderr)
        );
        // spec/formats.md §8.6 [M-322]: the medium's keys/ is an output of its own, so the whole
        // medium verifies without a partial: line, in both verifiers.
        for out in [shown.as_ref(), String::from_utf8_lossy(&py.stdout).as_ref()] {
            assert!(!out.contains("\npartial:"), "{what}: {out}");
        }
    }
    let kinds = sitting_kinds(&env);
    assert_eq!(
        kinds,
        [
            "sitting.opened",
            "sitting.closed",
            "sitting.opened",
            "sitting.closed"
        ]
    );
    // The block typed wrong was asked again before its reason: no refusal recorded.
    assert!(
        screen.contains("refusé : le bloc noel-de-la-chance-2015/100/noel-2018/7 n'a rien"),
        "{screen}"
    );
    assert_eq!(kind_count(&env, "command.failed"), 0, "{screen}");
    anchor(&env);
    let o = at(&env, "2018-12-11 12:00:00")
        .args(["audit", "verify", "--keys", "audit-keys"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The identity answers of a sitting opened at the terminal.
const WHO: [(&str, &str); 6] = [
    ("Lieu de la séance", "Mairie de Lyon, salle des fêtes"),
    ("Ville où le procès-verbal", "Lyon"),
    ("Nom du commissaire", "Maître Paul Leroy"),
    ("Office", "Étude Leroy, commissaire de justice à Lyon"),
    ("ligne vide pour finir", ""),
    ("exactes", "oui"),
];

#[test]
fn a_sitting_killed_mid_draw_is_taken_up_again_and_closed_once() {
    let env = Env::without_keys();
    init_at(&env, "2018-12-10");
    for (i, d) in ["2018-12-01", "2018-12-02", "2018-12-03"]
        .iter()
        .enumerate()
    {
        export(&env, d, 60 + u32::try_from(i).unwrap());
    }
    let (exports, publ) = (env.path("exports"), env.path("pub"));
    let args = [
        "--out",
        publ.to_str().unwrap(),
        "--rules",
        RULES,
        "--exports",
        exports.to_str().unwrap(),
        "--day",
        "2018-12-01",
        "--day",
        "2018-12-02",
        "--day",
        "2018-12-03",
    ];
    // The first day is drawn; the second's entropy is fixed, and then nobody answers: the helper
    // kills urne (SIGKILL, as a power cut) after 5 s without a prompt answered.
    let mut c = env.cmd_of(&root().join("scripts/pty-type"));
    c.env_remove("URNE_PIN")
        .env("LANG", FR)
        .env("TZ", "UTC")
        .env("FAKETIME", "@2018-12-11 09:00:00")
        .args(["--on", WATCH, "--send", &watch("2018-12-11 09:00:00")])
        .args([
            "--timeout",
            "5",
            "--expect",
            "code PIN de l'HSM",
            "--send",
            &env.pin(),
        ]);
    for (prompt, answer) in WHO {
        c.args(["--expect", prompt, "--send", answer]);
    }
    c.args(["--expect", "Procéder à cette étape", "--send", "oui"])
        .args(["--expect", TYPE_BACK, "--send-match"])
        .args(["--expect", CONTRIBUTION_PROMPT, "--send", "pile face pile"])
        .args(["--expect", YES_NO, "--send", "oui"])
        .args(["--expect", "Procéder à cette étape", "--send", "oui"])
        .args(["--expect", "never shown", "--send", "", "--"])
        .arg(faketime_urne())
        .arg("ceremony")
        .args(args);
    let o = c.output().unwrap();
    let first = String::from_utf8_lossy(&o.stdout).replace("\r\n", "\n");
    assert_eq!(o.status.code(), Some(124), "{first}");
    assert!(
        first.contains("TIRÉ : chanceux-noel-2018, jour du 2018-12-01"),
        "{first}"
    );
    assert!(!first.contains("TIRÉ : chanceux-noel-2018, jour du 2018-12-02"));
    // Run again: the open sitting is taken up again (no identity asked), the first day left,
    // the second drawn with the entropy fixed before the kill, the third drawn, and one close.
    let o = sitting(
        &env,
        "2018-12-11 10:30:00",
        &[("mêmes personnes", "oui"), ("Votre choix", "4")],
        &args,
    );
    let again = String::from_utf8_lossy(&o.stdout).replace("\r\n", "\n");
    assert!(o.status.success(), "{again}");
    assert!(
        again.contains("REPRISE DE LA SÉANCE n° 1 (ouverte le 11 décembre 2018 à 10 h 00)"),
        "{again}"
    );
    assert!(
        again.contains("Commissaire de justice : Maître Paul Leroy"),
        "{again}"
    );
    assert!(!again.contains("Lieu de la séance"), "{again}");
    // The day drawn before the kill is named as done, never as a step still to do: the steps
    // left are numbered without it (issue 25).
    assert!(
        again.contains("Déjà fait, non refait :\n  – tirage du jour 2018-12-01 (tentative 1)\n"),
        "{again}"
    );
    assert!(!again.contains("Étape 1/3"), "{again}");
    assert!(!again.contains("est déjà tiré"), "{again}");
    assert!(
        again.contains("Étape 1/2 — tirage du jour 2018-12-02"),
        "{again}"
    );
    assert!(
        again.contains("Étape 2/2 — tirage du jour 2018-12-03"),
        "{again}"
    );
    assert!(again.contains("TIRÉ : chanceux-noel-2018, jour du 2018-12-02 (tentative n°\u{a0}1)"));
    assert!(again.contains("TIRÉ : chanceux-noel-2018, jour du 2018-12-03 (tentative n°\u{a0}1)"));
    let s = json(&publ.join("sitting-001/sitting.json"));
    assert_eq!(s["place"], "Mairie de Lyon, salle des fêtes");
    assert_eq!(s["outputs"].as_array().unwrap().len(), 3, "{s:#}");
    let kinds = sitting_kinds(&env);
    assert_eq!(
        kinds,
        ["sitting.opened", "sitting.resumed", "sitting.closed"]
    );
}

#[test]
fn a_sitting_closed_but_not_published_holds_everything_back_until_it_is() {
    // What a run killed between `sitting.closed` and its output leaves, appended as urne would.
    let env = Env::new();
    let opened = sitting_opened();
    append_as_urne(
        &env,
        &[
            ("sitting.opened", opened),
            ("sitting.closed", serde_json::json!({"number": 1})),
        ],
    );
    let export = simulate(&env, "2018-12-01", 200, 7, &[]);
    let o = env.urne_direct(&[
        "seal",
        "--rules",
        RULES,
        "--entries",
        export.to_str().unwrap(),
    ]);
    let err = assert_fails(&o, 4, "not-published");
    assert_names(&err, &["sitting 1"]);
    assert_names(&hint_of(&o), &["urne ceremony"]);
    // A void too (it would fall in no sitting's minutes), of a day or of a block.
    for args in [
        [
            "void",
            "--day",
            "2018-12-01",
            "--reason",
            "une raison suffisante",
        ],
        [
            "block",
            "void",
            "--block",
            "noel-de-la-chance-2015/100/e1/1",
            "--reason",
        ],
    ] {
        let mut c = env.cmd();
        c.args(args);
        if args[0] == "block" {
            c.arg("une raison suffisante");
        }
        let o = c.output().unwrap();
        let err = assert_fails(&o, 4, "not-published");
        assert_names(&err, &["sitting 1"]);
    }
    // `urne ceremony` with nothing planned publishes it, and then the seal goes through.
    let publ = env.path("pub");
    let mut c = env.cmd_of(&root().join("scripts/pty-type"));
    c.env_remove("URNE_PIN")
        .env("LANG", FR)
        .args(["--expect", "code PIN de l'HSM", "--send", &env.pin(), "--"])
        .arg(URNE)
        .args(["ceremony", "--out", publ.to_str().unwrap()]);
    let o = c.output().unwrap();
    let shown = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{shown}");
    assert!(shown.contains("MINUTES DE LA SÉANCE n° 1"), "{shown}");
    assert_eq!(json(&publ.join("sitting-001/sitting.json"))["number"], 1);
    env.ok(&[
        "seal",
        "--rules",
        RULES,
        "--entries",
        export.to_str().unwrap(),
    ]);
    // Nothing left to publish and nothing planned: refused, plainly.
    let o = c.output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("rien n'est prévu"));
}

#[test]
fn a_sitting_held_in_english_speaks_and_writes_english() {
    // `--lang en` (the environment French): the prompts, the screens and the minutes in English.
    let env = Env::without_keys();
    init_at(&env, "2018-12-08");
    export(&env, "2018-12-01", 71);
    let (exports, publ) = (env.path("exports"), env.path("pub"));
    let mut c = env.cmd_of(&root().join("scripts/pty-type"));
    c.env_remove("URNE_PIN")
        .env("LANG", FR)
        .env("TZ", "UTC")
        .env("FAKETIME", "@2018-12-09 09:00:00")
        .args(["--on", WATCH, "--send", &watch("2018-12-09 09:00:00")])
        .args(["--expect", "HSM user PIN", "--send", &env.pin()])
        .args([
            "--expect",
            "Commissaire: is this correct\\? Type yes or no:",
            "--send",
            "yes",
        ])
        .args(["--on", "Carry out this step", "--send", "yes"])
        .args(["--on", TYPE_BACK, "--send-match"])
        .args(["--on", CONTRIBUTION_PROMPT, "--send", "dice 3 3 1 6"])
        .args(["--on", YES_NO, "--send", "yes"])
        .args(["--on", CLOSE_PROMPT, "--send", "yes"])
        .args([
            "--expect",
            r"Your choice \(1, 2, 3 or 4\)",
            "--send",
            "4",
            "--",
        ])
        .arg(faketime_urne())
        .args(["ceremony", "--lang", "en", "--out", publ.to_str().unwrap()])
        .args(["--rules", RULES, "--exports", exports.to_str().unwrap()])
        .args([
            "--day",
            "2018-12-01",
            "--town",
            "Lyon",
            "--place",
            "Town hall, Lyon",
        ])
        .args([
            "--commissaire",
            "Maître Paul Leroy",
            "--office",
            "Étude Leroy",
        ])
        .args(["--present", "Jean Martin, operator"]);
    let o = c.output().unwrap();
    let screen = String::from_utf8_lossy(&o.stdout).replace("\r\n", "\n");
    assert!(o.status.success(), "{screen}");
    // No message of urne's in French, though the environment's language is.
    let french = other_language(&screen, urne::msg::Lang::En);
    assert!(french.is_empty(), "{french:?} on screen:\n{screen}");
    for want in [
        "OPENING OF THE SITTING",
        "DRAWN: chanceux-noel-2018",
        "MINUTES OF SITTING no. 1",
    ] {
        assert!(screen.contains(want), "{want:?} not on screen:\n{screen}");
    }
    for french in ["Séance", "TIRÉ", "Tapez", "code PIN"] {
        assert!(!screen.contains(french), "{french:?} on screen:\n{screen}");
    }
    let html = std::fs::read_to_string(publ.join("sitting-001/minutes.html")).unwrap();
    assert!(html.contains("Minutes of sitting no."), "{html}");
    assert!(html.contains("<html lang=\"en\""), "{html}");
    assert!(!html.contains("Procès-verbal"), "{html}");
}

#[test]
fn a_key_ceremony_killed_at_its_questions_is_opened_when_run_again() {
    let env = Env::without_keys();
    let publ = env.path("pub");
    let args = ["--key-ceremony", "--out", publ.to_str().unwrap()];
    // The keys generated and the trail created, then nobody answers the first question: killed.
    let mut c = env.cmd_of(&root().join("scripts/pty-type"));
    c.env_remove("URNE_PIN")
        .env("LANG", FR)
        .env("TZ", "UTC")
        .env("FAKETIME", "@2018-12-10 09:00:00")
        .args(["--timeout", "5"])
        .args(["--expect", "code PIN de l'HSM", "--send", &env.pin()])
        .args(["--expect", "never shown", "--send", "", "--"])
        .arg(faketime_urne())
        .arg("ceremony")
        .args(args);
    let o = c.output().unwrap();
    let first = String::from_utf8_lossy(&o.stdout).replace("\r\n", "\n");
    assert_eq!(o.status.code(), Some(124), "{first}");
    assert!(first.contains("Lieu de la séance"), "{first}");
    assert!(env.db().is_file());
    // Run again: the key ceremony's sitting is opened on the trail the first run created.
    let who = [
        ("Lieu de la séance", "Étude Dupont, Paris"),
        ("Ville où le procès-verbal", "Paris"),
        ("Nom du commissaire", "Maître Claire Dupont"),
        ("Office", "SELARL Dupont"),
        ("ligne vide pour finir", ""),
        ("exactes", "oui"),
    ];
    let o = sitting(&env, "2018-12-10 09:10:00", &who, &args);
    let again = String::from_utf8_lossy(&o.stdout).replace("\r\n", "\n");
    assert!(o.status.success(), "{again}");
    let k = json(&publ.join("sitting-001/sitting.json"));
    assert_eq!(k["kind"], "key-ceremony");
    assert!(publ.join("keys/audit.pub.pem").is_file());
    // And once held, never again.
    let o = sitting(&env, "2018-12-10 09:20:00", &[], &args);
    assert_eq!(
        o.status.code(),
        Some(4),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    screen_error(&String::from_utf8_lossy(&o.stdout), "key-ceremony-held");
}

#[test]
fn a_key_ceremony_stops_when_the_key_pinned_is_not_the_one_production_states() {
    let env = Env::without_keys();
    let publ = env.path("pub");
    let mut c = env.cmd_of(&root().join("scripts/pty-type"));
    c.env_remove("URNE_PIN")
        .env("LANG", FR)
        .env("TZ", "UTC")
        .env("FAKETIME", "@2018-12-10 09:00:00")
        .args(["--timeout", "60"])
        .args(["--expect", "code PIN de l'HSM", "--send", &env.pin()])
        .args(["--on", WATCH, "--send", &watch("2018-12-10 09:00:00")])
        .args(["--on", "exactes", "--send", "oui"])
        .args([
            "--on",
            PRODUCER_ID_PROMPT,
            "--send",
            "0123 4567 89ab cdef\n",
            "--",
        ])
        .arg(faketime_urne())
        .args([
            "ceremony",
            "--key-ceremony",
            "--out",
            publ.to_str().unwrap(),
        ])
        .args([
            "--town",
            "Paris",
            "--place",
            "Étude Dupont, Paris",
            "--commissaire",
            "Maître Claire Dupont",
        ])
        .args([
            "--office",
            "SELARL Dupont",
            "--present",
            "Jean Martin, opérateur",
        ]);
    let o = c.output().unwrap();
    let screen = String::from_utf8_lossy(&o.stdout).replace("\r\n", "\n");
    assert_eq!(o.status.code(), Some(4), "{screen}");
    let refused = "refusé : ces identifiants ne sont pas ceux des clés de production données";
    assert_eq!(screen.matches(refused).count(), 3, "{screen}");
    assert!(screen.contains("rien n'a été épinglé"), "{screen}");
    // Nothing pinned, nothing exported, the sitting left open, the refusal recorded.
    assert!(!publ.join("keys").exists());
    assert_eq!(sitting_kinds(&env), ["sitting.opened"]);
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let pins: i64 = c
        .query_row(
            "SELECT count(*) FROM events WHERE kind = 'producer.keys'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(pins, 0);
    // An ordinary sitting does not take up the open key ceremony (the same morning: a clock
    // more than 31 days after the trail would first ask for the watch, spec/appliance.md §6.6).
    let mut c = env.cmd_of(&root().join("scripts/pty-type"));
    c.env_remove("URNE_PIN")
        .env("LANG", FR)
        .env("TZ", "UTC")
        .env("FAKETIME", "@2018-12-10 09:30:00")
        .args(["--timeout", "60"])
        .args(["--expect", "code PIN de l'HSM", "--send", &env.pin(), "--"])
        .arg(faketime_urne())
        .args(["ceremony", "--out", publ.to_str().unwrap()]);
    let o = c.output().unwrap();
    let screen = String::from_utf8_lossy(&o.stdout).replace("\r\n", "\n");
    assert_eq!(o.status.code(), Some(4), "{screen}");
    screen_error(&screen, "key-sitting");
}

#[test]
fn a_secret_medium_inside_the_publications_folder_is_refused_before_the_pin() {
    let env = Env::new();
    let publ = env.path("pub");
    let secret = publ.join("production");
    let o = env
        .cmd_of(&root().join("scripts/pty-type"))
        .env_remove("URNE_PIN")
        .env("LANG", FR)
        .args(["--expect", "code PIN de l'HSM", "--send", &env.pin(), "--"])
        .arg(URNE)
        .args([
            "ceremony",
            "--out",
            publ.to_str().unwrap(),
            "--game-rules",
            GAME,
        ])
        .args(["--price", "100", "--emission", "e1", "--secret-out"])
        .arg(&secret)
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(2), "{shown}");
    let err = screen_error(&shown, "secret-out-misplaced");
    assert_names(&err, &[&secret.display().to_string()]);
    assert!(
        !shown.contains("code PIN"),
        "asked for the PIN first:\n{shown}"
    );
    assert!(!secret.exists());
}

#[test]
fn a_ceremony_refuses_a_pin_given_ahead() {
    // At a sitting the PIN is typed at urne's prompt: URNE_PIN and --pin-file are refused.
    let env = Env::new();
    std::fs::write(env.path("pin-file"), format!("{}\n", env.pin())).unwrap();
    for (pin_env, pin_file) in [(true, false), (false, true)] {
        let mut c = env.cmd_of(&root().join("scripts/pty-type"));
        if !pin_env {
            c.env_remove("URNE_PIN");
        }
        c.env("LANG", FR).arg("--").arg(URNE);
        if pin_file {
            c.args(["--pin-file", "pin-file"]);
        }
        let o = c.args(["ceremony", "--out", "pub"]).output().unwrap();
        let shown = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(2), "{shown}");
        screen_error(&shown, "pin-not-prompted");
    }
}

#[test]
fn a_sitting_taken_up_again_without_the_same_persons_is_closed_at_once() {
    // A sitting left open (its process gone), taken up again: the commissaire answers that those
    // present are not the same; it is closed with no other work, its minutes published.
    let env = Env::new();
    let opened = serde_json::json!({"number": 1, "kind": "sitting", "place": "Paris",
        "commissaire": {"name": "Maître Claire Dupont", "office": "Étude Dupont"},
        "present": [{"name": "Jean Martin", "role": "opérateur"}], "lang": "fr", "plan": []});
    append_as_urne(&env, &[("sitting.opened", opened)]);
    let publ = env.path("pub");
    let o = env
        .cmd_of(&root().join("scripts/pty-type"))
        .env_remove("URNE_PIN")
        .env("LANG", FR)
        // Typed ahead, before the PIN's prompt: never shown, never taken for the PIN.
        .args([
            "--expect",
            "saisit d'abord le code",
            "--send",
            "TAPE-EN-AVANCE",
        ])
        .args(["--expect", "code PIN de l'HSM", "--send", &env.pin()])
        .args(["--on", WATCH, "--send", &watch_now()])
        .args(["--expect", "mêmes personnes", "--send", "non", "--"])
        .arg(URNE)
        .args(["ceremony", "--out", publ.to_str().unwrap()])
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{shown}");
    // Never shown. (On a loaded machine the text can arrive after the prompt flushed what was
    // typed ahead: it is then read, unseen, as a PIN the token refuses, and the PIN asked again.)
    assert!(!shown.contains("TAPE-EN-AVANCE"), "echoed:\n{shown}");
    assert!(
        shown.contains("Présent : Jean Martin, opérateur"),
        "{shown}"
    );
    assert!(shown.contains("MINUTES DE LA SÉANCE n° 1"), "{shown}");
    assert!(!shown.contains("Votre choix"), "{shown}");
    let kinds = sitting_kinds(&env);
    assert_eq!(
        kinds,
        ["sitting.opened", "sitting.resumed", "sitting.closed"]
    );
    assert_eq!(json(&publ.join("sitting-001/sitting.json"))["number"], 1);
}

#[test]
fn the_days_due_by_d8_follow_the_date_in_paris_not_in_utc() {
    // 10 December 2018 at 23:30 UTC is already 11 December in Paris: period 1's seven days are
    // due (D-8); an hour earlier it is still 10 December there, and nothing is.
    let env = Env::without_keys();
    init_at(&env, "2018-12-10");
    let args = |when: &str| {
        let mut c = env.cmd_of(&root().join("scripts/pty-type"));
        c.env_remove("URNE_PIN")
            .env("LANG", FR)
            .env("TZ", "UTC")
            .env("FAKETIME", format!("@{when}"))
            .args(["--on", WATCH, "--send", &watch(when)])
            .args(["--timeout", "5"])
            .args(["--expect", "code PIN de l'HSM", "--send", &env.pin()])
            .args(["--expect", "exactes", "--send", "oui"])
            .args(["--expect", "never shown", "--send", "", "--"])
            .arg(faketime_urne())
            .args(["ceremony", "--out", "pub", "--rules", RULES])
            .args([
                "--town",
                "Paris",
                "--place",
                "Paris",
                "--commissaire",
                "Maître Claire Dupont",
            ])
            .args(["--office", "Étude Dupont"]);
        let o = c.output().unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).replace("\r\n", "\n"),
        )
    };
    let (code, before) = args("2018-12-10 22:30:00");
    assert_eq!(code, Some(2), "{before}");
    assert!(
        before.contains("n'a sa date de tirage le 2018-12-10 (D-8)"),
        "{before}"
    );
    assert!(
        before.contains("rien n'est prévu pour cette séance"),
        "{before}"
    );
    let (code, after) = args("2018-12-10 23:30:00");
    assert_eq!(code, Some(124), "{after}");
    assert!(
        after.contains("Étape 1/7 — tirage du jour 2018-12-01"),
        "{after}"
    );
    assert!(!after.contains("n'a sa date de tirage"), "{after}");
}

#[test]
fn a_clock_more_than_five_minutes_from_the_commissaires_watch_stops_the_sitting() {
    let env = Env::without_keys();
    init_at(&env, "2018-12-10");
    // The appliance says 11 December 10:00 in Paris; the commissaire's watch says 11:00.
    let before = event_total(&env);
    let o = env
        .cmd_of(&root().join("scripts/pty-type"))
        .env_remove("URNE_PIN")
        .env("LANG", FR)
        .env("TZ", "UTC")
        .env("FAKETIME", "@2018-12-11 09:00:00")
        .args(["--expect", "code PIN de l'HSM", "--send", &env.pin()])
        .args(["--expect", "exactes", "--send", "oui"])
        .args(["--on", WATCH, "--send", "2018-12-11 11:00", "--"])
        .arg(faketime_urne())
        .args([
            "ceremony",
            "--out",
            "pub",
            "--rules",
            RULES,
            "--day",
            "2018-12-01",
        ])
        .args([
            "--town",
            "Paris",
            "--place",
            "Paris",
            "--commissaire",
            "Maître Claire Dupont",
        ])
        .args(["--office", "Étude Dupont"])
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(4), "{shown}");
    // Asked three times, as every prompt, then refused.
    assert_eq!(shown.matches("à votre montre").count(), 3, "{shown}");
    // The appliance's clock and the commissaire's watch.
    let err = screen_error(&shown, "clock-disagrees");
    assert_names(&err, &["2018-12-11 10:00", "2018-12-11 11:00"]);
    assert!(sitting_kinds(&env).is_empty(), "a sitting was opened");
    // Refused, nothing recorded (spec/appliance.md §9.1): the process's start, which the trail's check
    // records before the watch is asked, and not the refusal.
    assert_eq!(kinds_after(&env, before), ["software.start"]);
    // Five minutes apart (to the minute typed) is within the tolerance: the sitting opens.
    let o = env
        .cmd_of(&root().join("scripts/pty-type"))
        .env_remove("URNE_PIN")
        .env("LANG", FR)
        .env("TZ", "UTC")
        .env("FAKETIME", "@2018-12-11 09:10:00")
        .args(["--timeout", "5"])
        .args(["--expect", "code PIN de l'HSM", "--send", &env.pin()])
        .args(["--expect", "exactes", "--send", "oui"])
        .args(["--expect", WATCH, "--send", "2018-12-11 10:15"])
        .args(["--expect", "never shown", "--send", "", "--"])
        .arg(faketime_urne())
        .args([
            "ceremony",
            "--out",
            "pub",
            "--rules",
            RULES,
            "--day",
            "2018-12-01",
        ])
        .args([
            "--town",
            "Paris",
            "--place",
            "Paris",
            "--commissaire",
            "Maître Claire Dupont",
        ])
        .args(["--office", "Étude Dupont"])
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(124), "{shown}");
    assert!(shown.contains("Séance n° 1 ouverte"), "{shown}");
    assert_eq!(sitting_kinds(&env), ["sitting.opened"]);
}

/// The number of the trail's events of `kind`.
fn kind_count(env: &Env, kind: &str) -> usize {
    kinds_after(env, 0).iter().filter(|k| *k == kind).count()
}

/// Issue 25, item 4: the menu checks what it is asked to act on before asking anything else,
/// and asks before the irreversible. The close asked and refused (`non`): the sitting goes on.
/// A day typed to be voided that has nothing to void (never sealed) is asked again before the
/// reason, and a day typed to be drawn that is not the operation's is asked again: neither is
/// recorded anywhere. A redraw from the very export the voided attempt sealed is
/// said and asked: `non` leaves it undone (nothing sealed), `oui` seals and draws it.
#[test]
fn the_menu_checks_before_it_asks_and_asks_before_the_irreversible() {
    const DAY: &str = "Jour \\(AAAA-MM-JJ\\)";
    let env = Env::without_keys();
    init_at(&env, "2018-12-10");
    export(&env, "2018-12-01", 70);
    let (exports, publ) = (env.path("exports"), env.path("pub"));
    let args = [
        "--out",
        publ.to_str().unwrap(),
        "--rules",
        RULES,
        "--exports",
        exports.to_str().unwrap(),
        "--day",
        "2018-12-01",
    ];
    let mut steps = WHO.to_vec();
    steps.extend([
        ("Votre choix", "4"),
        (CLOSE_PROMPT, "non"),
        ("Votre choix", "1"),
        (DAY, "2018-12-02"),
        (DAY, "2018-12-01"),
        (
            "Motif de l'annulation",
            "le commissaire demande un nouveau tirage",
        ),
        ("Votre choix", "2"),
        (DAY, "2018-11-30"),
        (DAY, "2018-12-01"),
        (SAME_EXPORT_PROMPT, "non"),
        ("Votre choix", "2"),
        (DAY, "2018-12-01"),
        (SAME_EXPORT_PROMPT, "oui"),
        ("Votre choix", "4"),
        (CLOSE_PROMPT, "oui"),
    ]);
    let o = sitting(&env, "2018-12-11 09:00:00", &steps, &args);
    let screen = String::from_utf8_lossy(&o.stdout).replace("\r\n", "\n");
    assert!(o.status.success(), "{screen}");
    // Recorded: the day's two seals (the first attempt's, the redraw's: none for the `non`), one
    // void, no refusal; the sitting closed once.
    assert_eq!(kind_count(&env, "draw.seal"), 2, "{screen}");
    assert_eq!(kind_count(&env, "draw.void"), 1, "{screen}");
    assert_eq!(kind_count(&env, "draw.published"), 2, "{screen}");
    assert_eq!(kind_count(&env, "command.failed"), 0, "{screen}");
    assert_eq!(kind_count(&env, "input.rejected"), 0, "{screen}");
    assert_eq!(sitting_kinds(&env), ["sitting.opened", "sitting.closed"]);
    assert!(publ.join("draw-2018-12-01-attempt-2/bundle.json").is_file());
    // What the screen said of the redraw: the voided attempt's seal and the export's SHA-256.
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let (seq, sha): (i64, String) = c
        .query_row(
            "SELECT seq, json_extract(payload, '$.export.sha256') FROM events \
             WHERE kind = 'draw.seal' ORDER BY seq LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert!(screen.contains(&in_fours(&sha)[..39]), "{screen}");
    // The screen's lines joined (a long line is wrapped at a space).
    let flat = screen.lines().map(str::trim).collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(&format!("(scellé à l'événement d'audit n°\u{a0}{seq})")),
        "{screen}"
    );
    assert!(
        flat.contains("refusé : le jour 2018-12-02 n'a rien à annuler"),
        "{screen}"
    );
}
