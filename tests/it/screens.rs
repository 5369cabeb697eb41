//! A screen made to be copied (issue 13, item 4): the French screens of `urne seal` and `urne
//! draw`, as the commissaire reads them at the sitting, fit an 80-column console, show every
//! hash in groups of four, print the commitment once, mark what is copied, and name the winner
//! by pseudonym (its account is never before it: it is not on the screen at all).

use crate::common::*;
use crate::draws::{rules, simulate};

/// French: the language of the sitting, whatever the tests' environment says.
const FR: &str = "fr_FR.UTF-8";

/// `hex` as the screens print it: groups of four digits, eight to a line.
pub(crate) fn grouped_lines(hex: &str) -> Vec<String> {
    hex.as_bytes()
        .chunks(32)
        .map(|l| {
            l.chunks(4)
                .map(|g| std::str::from_utf8(g).unwrap())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// Every line within 80 columns, and no hex run longer than a group (a hash printed whole).
fn assert_copyable(screen: &str) {
    for l in screen.lines() {
        assert!(l.chars().count() <= 80, "wider than 80 columns: {l:?}");
        for w in l.split(|c: char| !c.is_ascii_hexdigit()) {
            assert!(w.len() < 16, "a hex value not in groups of four: {l:?}");
        }
    }
}

fn json(p: &std::path::Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

#[test]
fn the_french_screens_of_seal_and_draw_are_made_to_be_copied() {
    let env = Env::new();
    let export = simulate(&env, "2018-12-05", 300, 7, &[]);
    let o = env
        .cmd()
        .env("LANG", FR)
        .args(["seal", "--rules", &rules(), "--entries"])
        .arg(&export)
        .output()
        .unwrap();
    let seal = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "{seal}");
    assert!(
        seal.starts_with("SCELLÉ : chanceux-noel-2018, jour du 2018-12-05"),
        "{seal}"
    );
    assert!(
        seal.contains("[ ] À VÉRIFIER SUR LES MINUTES IMPRIMÉES"),
        "{seal}"
    );
    assert!(
        !seal.contains("▶ À ÉCRIRE À LA MAIN"),
        "nothing of a seal by hand: {seal}"
    );
    assert!(
        seal.contains("Point de contrôle du journal d'audit"),
        "{seal}"
    );
    assert!(
        seal.contains("Règlement de l'opération (SHA-256)"),
        "{seal}"
    );
    assert!(
        seal.contains("\u{a0}€ par participation"),
        "amounts in euros: {seal}"
    );
    // The checkpoint's own lines follow the page, printed as they are (copied whole).
    let page = seal.split("réécrit.\n").next().unwrap();
    assert!(page.len() < seal.len(), "{seal}");
    assert_copyable(page);
    let root = grouped_lines(seal_root(&env).as_str());
    assert_eq!(seal.matches(&root[0]).count(), 1, "{seal}");

    let mut c = env.command_for(&["draw", "--day", "2018-12-05", "--out", "out"]);
    let o = c.env("LANG", FR).output().unwrap();
    let draw = String::from_utf8_lossy(&o.stdout).replace("\r\n", "\n");
    assert!(o.status.success(), "{draw}");
    // From what the draw shows the commissaire on (the trail's opening line before it is the
    // operator's, ctx.rs).
    let full = draw.clone();
    let draw = draw[draw
        .find("[ ] À VÉRIFIER")
        .expect("what is checked, marked")..]
        .to_string();
    assert_copyable(&draw);
    let r = json(&env.path("out/result.json"));
    let root = r["commitment"]["root"].as_str().unwrap();
    // The commitment once, grouped, before the contribution is asked for; the seed once.
    let first = &grouped_lines(root)[0];
    assert_eq!(draw.matches(first.as_str()).count(), 1, "{draw}");
    assert!(draw.find(first.as_str()) < draw.find("tapez votre contribution"));
    let seed = r["seed"].as_str().unwrap();
    assert_eq!(draw.matches(&grouped_lines(seed)[0]).count(), 1, "{draw}");
    for p in ["entropy_commitment", "entropy"] {
        let v = r[p].as_str().unwrap();
        assert_eq!(draw.matches(&grouped_lines(v)[0]).count(), 1, "{p}: {draw}");
    }
    // The entropy commitment and the winner, by hand; the rest, to check on the minutes.
    let by_hand = draw.matches("▶ À ÉCRIRE À LA MAIN, MAINTENANT").count();
    assert_eq!(by_hand, 2, "{draw}");
    let winner_at = draw.find("Gagnant (lot de").unwrap();
    let hand_at = draw[..winner_at].rfind("▶ À ÉCRIRE À LA MAIN").unwrap();
    assert!(!draw[hand_at..winner_at].contains("À VÉRIFIER"), "{draw}");
    assert!(draw[winner_at..].contains("[ ] À VÉRIFIER"), "{draw}");
    assert!(draw.contains("Graine du tirage"), "{draw}");
    // The winner by pseudonym, right under its label; no account before it (nor at all).
    let winner = &r["winner"];
    let pseudonym = grouped_lines(winner["pseudonym"].as_str().unwrap());
    let at = draw.find("Gagnant (lot de").expect("the winner's line");
    let after: Vec<&str> = draw[at..].lines().skip(1).take(2).collect();
    assert_eq!(after[0].trim(), pseudonym[0], "{draw}");
    assert_eq!(after[1].trim(), pseudonym[1], "{draw}");
    for p in std::iter::once(winner).chain(r["reserves"].as_array().unwrap()) {
        let account = grouped_lines(p["account"].as_str().unwrap());
        assert!(
            !draw.contains(&account[0]),
            "an account on the screen: {draw}"
        );
    }
    assert!(draw.contains("Suppléant n°\u{a0}1 — pseudonyme"), "{draw}");
    assert!(draw.contains("Pour la production"), "{draw}");
    // Drawn in 2026 for a day of 2018: the D-8 lateness said in words.
    let late = full
        .find("Attention : tirage tardif (D-8)")
        .expect("the D-8 warning");
    assert_copyable(full[late..].split("\n\n").next().unwrap());
    assert!(full[late..].contains("figurera aux minutes"), "{full}");
    // The published files' SHA-256, grouped.
    let pv = sha256_hex(&std::fs::read(env.path("out/pv.html")).unwrap());
    let pv_at = draw.find("  pv.html\n").expect("pv.html listed");
    assert!(draw[pv_at..].contains(&grouped_lines(&pv)[0]), "{draw}");
}

/// The commitment the seal recorded.
fn seal_root(env: &Env) -> String {
    let c = rusqlite::Connection::open(env.db()).unwrap();
    c.query_row(
        "SELECT json_extract(payload, '$.commitment.root') FROM events WHERE kind = 'draw.seal'",
        [],
        |r| r.get(0),
    )
    .unwrap()
}

fn sha256_hex(b: &[u8]) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(b))
}

/// `urne ceremony --out pub` (nothing planned: it logs in, then says so, exit 2) at a
/// pseudo-terminal, `answers` typed at each PIN prompt, in order. With `ahead`, urne starts one
/// second after `sh` printed `ready`, and `ahead` is typed then, before urne runs (typed ahead of
/// the PIN prompt).
fn pin_typed(env: &Env, ahead: Option<&str>, answers: &[&str]) -> (Option<i32>, String) {
    let mut c = env.cmd_of(&root().join("scripts/pty-type"));
    c.env_remove("URNE_PIN")
        .env("LANG", FR)
        .args(["--timeout", "30"]);
    if let Some(a) = ahead {
        c.args(["--expect", "ready", "--send", a]);
    }
    for a in answers {
        c.args(["--expect", "code PIN de l'HSM", "--send", a]);
    }
    c.arg("--");
    if ahead.is_some() {
        c.args([
            "sh",
            "-c",
            "echo ready; sleep 1; exec \"$0\" ceremony --out pub",
        ])
        .arg(urne_bin());
    } else {
        c.arg(urne_bin()).args(["ceremony", "--out", "pub"]);
    }
    let o = c.output().unwrap();
    let screen = String::from_utf8_lossy(&o.stdout).replace("\r\n", "\n");
    (o.status.code(), screen)
}

/// Issue 25, item 4: an empty PIN is asked again without using one of the three tries (three
/// empty lines, then the PIN, log in), and a PIN typed before its prompt is discarded, never
/// given to the token (the token refuses nothing: the PIN typed at the prompt logs in).
#[test]
fn an_empty_pin_uses_no_try_and_a_pin_typed_ahead_is_discarded() {
    let env = Env::new();
    let pin = env.pin();
    let (code, screen) = pin_typed(&env, None, &["", "", "", &pin]);
    assert_eq!(code, Some(2), "{screen}");
    screen_error(&screen, "nothing-planned");
    assert_eq!(
        screen
            .matches("Aucun code PIN tapé (aucun essai n'est compté)")
            .count(),
        3,
        "{screen}"
    );
    assert!(!screen.contains("L'HSM a refusé ce code PIN"), "{screen}");
    let (code, screen) = pin_typed(&env, Some("0000"), &[&pin]);
    assert_eq!(code, Some(2), "{screen}");
    screen_error(&screen, "nothing-planned");
    assert!(!screen.contains("L'HSM a refusé ce code PIN"), "{screen}");
}

/// Issue 25, item 4: with several blocks, several entropy commitments are on the screen, and the
/// type-back names the one it wants: the first shown, by its block.
#[test]
fn the_type_back_names_the_commitment_it_wants_among_several() {
    let env = Env::new();
    let rules = crate::block_cli::small_rules(&env);
    let first = "Engagement sur l'aléa du HSM, fixé avant la contribution";
    let o = env
        .cmd_of(&root().join("scripts/pty-type"))
        .env("LANG", FR)
        .args(["--timeout", "60", "--expect", TYPE_BACK, "--send-match"])
        .args(["--on", CONTRIBUTION_PROMPT, "--send", CONTRIBUTION])
        .args(["--on", YES_NO, "--send", "oui", "--"])
        .arg(urne_bin())
        .args(["block", "generate", "--rules"])
        .arg(&rules)
        .args(["--unofficial-rules", "--price", "100", "--emission", "t1"])
        .args(["--first", "1", "--blocks", "2", "--out", "out"])
        .args(["--secret-out", "out-secret"])
        .output()
        .unwrap();
    let screen = String::from_utf8_lossy(&o.stdout).replace("\r\n", "\n");
    assert!(o.status.success(), "{screen}");
    // Both commitments shown, the first block's first.
    let one = screen
        .find("test-small-game/100/t1/1 tentative 1")
        .expect(&screen);
    let two = screen
        .find("test-small-game/100/t1/2 tentative 1")
        .expect(&screen);
    assert!(screen.find(first).unwrap() < one && one < two, "{screen}");
    // The prompt names the one it wants: the first, block 1's.
    let from = screen
        .find("Commissaire : pour attester qu'ils")
        .expect(&screen);
    let prompt: Vec<&str> = screen[from..].lines().take(4).collect();
    assert_eq!(
        prompt[1..],
        [
            "prenez le PREMIER engagement ci-dessus, celui du",
            &format!(
                "  bloc test-small-game/100/t1/1 tentative 1 (événement d'audit n°\u{a0}{})",
                seq_of(&env, "block.entropy")
            ),
            "et tapez ses 8 premiers caractères (ses deux premiers groupes), puis Entrée :",
        ],
        "{screen}"
    );
    for l in prompt {
        assert!(l.chars().count() <= 80, "wider than 80 columns: {l:?}");
    }
}
