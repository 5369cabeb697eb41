//! A whole sitting as the commissaire de justice follows it (issue 25, "Done when"): a rehearsal of
//! period 1 on its regulation date, 11 December 2018, at a console of 80x24: the seven days drawn,
//! one day's type-back mistyped three times (a refusal, recorded) and drawn again from the menu,
//! a void and a redraw with a day mistyped on the way, an emission of two blocks, the reveal of a
//! block sold out the day before, the close. Each value to write by hand was on the screen when
//! the person typed next (spec/appliance.md §9.4 [M-351]); the printed minutes hold every refusal,
//! speak French only and bear the rehearsal's mark on every page; no verifier takes the outputs
//! for official results.

use crate::common::*;
use crate::paced::{Seen, screens, shown_lines};
use crate::rehearsal::{export, printed, refused_as_rehearsal, watch};
use crate::screens::grouped_lines;
use std::path::Path;

const RULES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/rules/chanceux-noel-2018.json");
const GAME: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/rules/noel-de-la-chance-2015.json"
);
/// The key ceremony and the earlier block, on 10 December 2018 (Paris time).
const KEYS_AT: &str = "2018-12-10T10:00+01:00";
const BLOCK_AT: &str = "2018-12-10T11:00+01:00";
/// The sitting: period 1's draw date (D-8).
const SITTING_AT: &str = "2018-12-11T10:00+01:00";
/// The headings of the two kinds of values on a screen (spec/appliance.md §9.4).
const BY_HAND: &str = "▶ À ÉCRIRE À LA MAIN, MAINTENANT";
const TO_CHECK: &str = "[ ] À VÉRIFIER SUR LES MINUTES IMPRIMÉES";
/// The day whose type-back is mistyped three times.
const MISTYPED: &str = "2018-12-05";

/// Each block of values written by hand in the transcript: its heading's line and the lines
/// indented under it (a pause among them is kept, to be found).
fn by_hand_blocks(lines: &[String]) -> Vec<Vec<String>> {
    let mut blocks = vec![];
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with(BY_HAND) {
            let under = lines[i + 1..]
                .iter()
                .take_while(|l| l.starts_with("  ") && !l.trim().is_empty());
            blocks.push(std::iter::once(l).chain(under).cloned().collect());
        }
    }
    blocks
}

/// `urne ARGS --rehearsal-at TOLD` at a pseudo-terminal of 80x24, in French, each thing typed
/// recorded with its screen in `screens`: the PIN, the watch, the persons present, then `steps`
/// in order (`--expect`), and the sitting's other questions each time they come (`--on`).
fn at_console(
    env: &Env,
    told: &str,
    screens: &Path,
    steps: &[(&str, &str)],
    args: &[&str],
) -> std::process::Output {
    let who = [
        ("Lieu de la séance", "Salle des tirages, 126 rue Gallieni"),
        ("Ville où le procès-verbal", "Boulogne-Billancourt"),
        ("Nom du commissaire", "Maître Claire Dupont"),
        ("Office", "SELARL Dupont, commissaires de justice à Paris"),
        ("ligne vide pour finir", "Jean Martin, opérateur"),
        ("Jean Martin", ""),
        ("exactes", "oui"),
    ];
    let mut c = env.cmd_of(&root().join("scripts/pty-type"));
    c.env_remove("URNE_PIN")
        .env("LANG", "fr_FR.UTF-8")
        .args(["--timeout", "180", "--size", "80x24", "--screens"])
        .arg(screens)
        .args(["--expect", "code PIN de l'HSM", "--send", &env.pin()])
        .args([
            "--on",
            "(?:à votre montre|at your watch)",
            "--send",
            &watch(told),
        ])
        .args([
            "--on",
            PRODUCER_ID_PROMPT,
            "--send",
            &format!("{}\n", test_producer_key_id()),
        ]);
    for (prompt, answer) in who.iter().chain(steps) {
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
        .arg(URNE)
        .args(args)
        .args(["--rehearsal-at", told]);
    let mut o = c.output().unwrap();
    o.stderr = o.stdout.clone();
    o
}

/// The JSON of a file.
fn json(p: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

/// Words of urne's in English that no French screen or minutes may hold (the catalogue's
/// messages are checked apart, by their fixed words).
const ENGLISH: [&str; 14] = [
    " the ",
    " of the ",
    " was ",
    " were ",
    " is not ",
    " has no ",
    "attempt ",
    "drawn",
    "refused",
    "Entries",
    " and the ",
    "cannot ",
    "run the command",
    "Warning",
];

/// The fixed words of urne's English catalogue long enough to mean something on their own, and
/// not the same in French.
fn english_catalogue() -> Vec<&'static str> {
    urne::msg::catalogue::all()
        .flat_map(|m| {
            let fr = m.fixed(urne::msg::Lang::Fr);
            m.fixed(urne::msg::Lang::En)
                .into_iter()
                .filter(move |w| w.trim().len() >= 16 && !fr.contains(w))
        })
        .collect()
}

/// No English of urne's in `text` (a French sitting's screens or minutes): `what` names it.
fn french_only(text: &str, what: &str) {
    let text = text.replace(['\u{a0}', '\u{202f}'], " ");
    let found: Vec<&str> = text
        .lines()
        .filter(|l| {
            ENGLISH
                .iter()
                .copied()
                .chain(english_catalogue())
                .any(|w| l.contains(w))
        })
        .collect();
    assert!(found.is_empty(), "{what} holds English: {found:#?}");
}

#[test]
fn a_rehearsed_sitting_at_an_80x24_console_can_be_followed_copied_and_signed() {
    let env = Env::without_keys();
    let publ = env.path("pub");
    let p = publ.to_str().unwrap();
    // The key ceremony, rehearsed on 10 December 2018.
    let keys_screens = env.path("keys-screens.jsonl");
    let o = at_console(
        &env,
        KEYS_AT,
        &keys_screens,
        &[],
        &["ceremony", "--key-ceremony", "--out", p],
    );
    let shown = String::from_utf8_lossy(&o.stdout).replace("\r\n", "\n");
    assert!(o.status.success(), "the key ceremony failed:\n{shown}");
    // A block of an earlier emission, generated that day and sold out by midnight.
    let earlier = "noel-de-la-chance-2015/100/noel-2018-a/1";
    let o = env
        .cmd_of(&root().join("scripts/pty-type"))
        .env("LANG", "fr_FR.UTF-8")
        .args(["--on", TYPE_BACK, "--send-match"])
        .args(["--on", CONTRIBUTION_PROMPT, "--send", "bloc : 6 1 4 2 2 5"])
        .args(["--on", YES_NO, "--send", "oui", "--"])
        .arg(URNE)
        .args(["block", "generate", "--rules", GAME, "--price", "100"])
        .args(["--emission", "noel-2018-a", "--out"])
        .arg(publ.join("blocks"))
        .arg("--secret-out")
        .arg(env.path("secret-a"))
        .args(["--rehearsal-at", BLOCK_AT])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    let days: Vec<String> = (1..=7).map(|d| format!("2018-12-0{d}")).collect();
    for d in &days {
        export(&env, d);
    }
    // The sitting on 11 December.
    let sitting_screens = env.path("screens.jsonl");
    let mistyped_back = format!("(?s)jour du {MISTYPED}, tentative.*?8 premiers caractères");
    let again = "(?s)refusé : ce ne sont pas.*?8 premiers caractères";
    let steps = [
        // 2018-12-05: the commitment typed back wrong three times: the step is refused,
        // recorded, and the sitting goes on.
        (mistyped_back.as_str(), "0000 0000"),
        (again, "0000 0001"),
        (again, "0000 0002"),
        ("La séance continue-t-elle", "oui"),
        // The reveal: the sales close typed from production's statement.
        ("clôture des ventes du bloc", "2018-12-10 23:59"),
        // The menu: 2018-12-03 voided, its day mistyped first; drawn again; 2018-12-05 drawn.
        ("Votre choix", "1"),
        ("Jour \\(AAAA-MM-JJ\\)", "2018-12-30"),
        ("Jour \\(AAAA-MM-JJ\\)", "2018-12-03"),
        (
            "Motif de l'annulation",
            "export corrigé reçu de la production",
        ),
        ("Votre choix", "2"),
        ("Jour \\(AAAA-MM-JJ\\)", "2018-12-03"),
        ("Votre choix", "2"),
        ("Jour \\(AAAA-MM-JJ\\)", MISTYPED),
        ("Votre choix", "4"),
    ];
    let exports = env.path("exports");
    let secret = env.path("secret");
    let o = at_console(
        &env,
        SITTING_AT,
        &sitting_screens,
        &steps,
        &[
            "ceremony",
            "--out",
            p,
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
            "--blocks",
            "2",
            "--secret-out",
            secret.to_str().unwrap(),
            "--reveal",
            earlier,
            "--sales-closed-at",
            "2018-12-10T23:59:59+01:00",
        ],
    );
    let t = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(0), "the sitting failed:\n{t}");
    let seen = screens(&sitting_screens);
    let lines = shown_lines(&t);
    // Every screen fits the console, and the sitting paused rather than scroll.
    for s in &seen {
        assert!(s.screen.len() <= 24, "{:?}", s.screen);
        assert!(s.screen.iter().all(|l| l.chars().count() <= 80));
    }
    assert!(seen.iter().filter(|s| s.typed.is_empty()).count() > 10);
    // Each block of values to write by hand was whole on the screen when the person next typed
    // (or on the last screen, which stays).
    let last: Vec<String> = lines[lines.len().saturating_sub(24)..].to_vec();
    let blocks = by_hand_blocks(&lines);
    // Per draw (7 days, the redraw): the entropy commitment and the winner; the two blocks'
    // commitments (one screen); the minutes' SHA-256 at the close.
    assert!(blocks.len() >= 2 * 8 + 2, "{} blocks:\n{t}", blocks.len());
    for b in &blocks {
        let whole = |screen: &[String]| b.iter().all(|l| screen.contains(l));
        assert!(
            seen.iter().any(|s| whole(&s.screen)) || whole(&last),
            "never whole on a screen: {b:#?}"
        );
    }
    // The commitment typed back was under the heading to write by hand, on the screen.
    for s in seen.iter().filter(|s| {
        s.typed.len() == 9
            && s.typed.chars().all(|c| c.is_ascii_hexdigit() || c == ' ')
            && !s.typed.starts_with("0000")
    }) {
        assert!(
            s.screen.iter().any(|l| l.starts_with(BY_HAND)),
            "{:?}",
            s.screen
        );
        assert!(
            s.screen.iter().any(|l| l.contains(&s.typed)),
            "{:?}",
            s.screen
        );
    }
    // The contribution: asked with the words that say to write it by hand.
    let contributions: Vec<&Seen> = seen
        .iter()
        .filter(|s| s.typed.starts_with("dés 5 2 6 3"))
        .collect();
    assert!(contributions.len() >= 9, "{}", contributions.len());
    for s in contributions {
        assert!(
            s.screen
                .iter()
                .any(|l| l.starts_with("▶ À ÉCRIRE À LA MAIN : votre contribution")),
            "{:?}",
            s.screen
        );
    }
    // Each day's winner, as drawn: under the heading to write by hand, whole, on a screen.
    let mut drawn: Vec<String> = days.iter().map(|d| format!("draw-{d}")).collect();
    drawn.push("draw-2018-12-03-attempt-2".into());
    for folder in &drawn {
        let result = json(&publ.join(folder).join("result.json"));
        let pseudonym = result["winner"]["pseudonym"].as_str().unwrap();
        let want = grouped_lines(pseudonym);
        assert!(
            blocks
                .iter()
                .any(|b| b.iter().any(|l| l.starts_with("  Gagnant"))
                    && want.iter().all(|w| b.iter().any(|l| l.trim() == w))),
            "{folder}: the winner {pseudonym} is not among the values to write by hand"
        );
    }
    // The rest is labelled to check on the printed minutes, never to copy.
    assert!(t.contains(TO_CHECK));
    assert!(!t.contains("À RECOPIER AUX MINUTES"));
    // The minutes' SHA-256, to write on the paper copy, by hand.
    let minutes = publ.join("sitting-002/minutes.html");
    let sha = hex::encode(urne_verify::crypto::sha256(
        &std::fs::read(&minutes).unwrap(),
    ));
    let sha_lines = grouped_lines(&sha);
    assert!(
        blocks
            .iter()
            .any(|b| sha_lines.iter().all(|w| b.iter().any(|l| l.trim() == w))),
        "the minutes' SHA-256 is not to write by hand:\n{t}"
    );
    // One language on the screens: French, the sitting's.
    french_only(&t, "the screens");
    // The outputs: the seven days, the void, the redraw, two blocks, the reveal.
    for f in &drawn {
        assert!(publ.join(f).join("bundle.json").is_file(), "{f}");
    }
    assert!(
        publ.join("void-2018-12-03-attempt-1/void-notice.json")
            .is_file()
    );
    let s = json(&publ.join("sitting-002/sitting.json"));
    // 7 draws, the void notice, the redraw, two blocks, the reveal.
    assert_eq!(s["outputs"].as_array().unwrap().len(), 12, "{s:#}");
    // The printed minutes: every page marked, French only, the refusal and the void in it.
    let text = printed(env.dir.path(), &minutes);
    let pages: Vec<&str> = text
        .split('\u{c}')
        .filter(|p| !p.trim().is_empty())
        .collect();
    for (i, page) in pages.iter().enumerate() {
        assert!(
            page.contains("RÉPÉTITION — SANS VALEUR"),
            "page {} has no mark:\n{page}",
            i + 1
        );
    }
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    // What the draw's screen gave to check is in the minutes: the entropy of each draw too.
    assert_eq!(
        flat.matches("Aléa du module matériel (HSM)").count(),
        drawn.len() + 1
    );
    for want in [
        "export corrigé reçu de la production",
        "Jour du 3 décembre 2018 — tentative n° 2",
        "Jour du 5 décembre 2018",
        "Clôture des ventes du bloc",
        "noel-de-la-chance-2015/100/noel-2018/2",
    ] {
        assert!(flat.contains(want), "the minutes lack {want:?}:\n{text}");
    }
    // The refused step (2018-12-05's type-back) is in the minutes, as a refusal, in French.
    let c = rusqlite::Connection::open(env.db()).unwrap();
    let failed: i64 = c
        .query_row(
            "SELECT count(*) FROM events WHERE kind = 'command.failed'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(failed, 1, "one refusal recorded");
    assert!(
        flat.contains(&format!(
            "Commande refusée ou interrompue sur erreur : ceremony: Étape 5/9 — tirage du jour {MISTYPED}"
        )),
        "the refusal:\n{text}"
    );
    french_only(&text, "the minutes");
    // No verifier takes the rehearsal's outputs for official results.
    let keys = publ.join("keys");
    refused_as_rehearsal(&env, &publ.join("draw-2018-12-03-attempt-2"), &keys);
    refused_as_rehearsal(&env, &publ.join("sitting-002"), &keys);
    refused_as_rehearsal(&env, &publ, &keys);
}
