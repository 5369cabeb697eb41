//! `urne status` and `urne show` with the real binary on a real SoftHSM token (issue 13, "Status
//! and show"): the days (sealed, drawn, voided, late by D-8, attempts) and blocks (generated,
//! revealed, voided) the trail records, the sitting, the operation's days still to seal; a day
//! and a block shown again as at the ceremony, hashes in groups of four on lines that fit 80
//! columns, each value once, winner and reserves by pseudonym only; French by default, English
//! with `--lang en` or `LANG=en…`; and both append nothing, not even their failures.

use crate::block_cli::small_rules;
use crate::common::*;
use crate::draws::{rules, seal, simulate};
use crate::outputs::generate_args;
use std::path::Path;

/// `urne ARGS` with `LANG` set to `lang` (the tests' own `LANG` is whatever the runner has).
fn run_lang(env: &Env, lang: &str, args: &[&str]) -> std::process::Output {
    env.cmd().env("LANG", lang).args(args).output().unwrap()
}

/// What `urne ARGS` printed, asserting success, every line within 80 columns.
fn screen(env: &Env, lang: &str, args: &[&str]) -> String {
    let o = run_lang(env, lang, args);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "urne {args:?} failed:\n{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for l in out.lines() {
        assert!(
            l.chars().count() <= 80,
            "a line wider than 80 columns: {l:?}"
        );
    }
    out
}

/// `hex` as the screen groups it: four digits, a space, eight groups a line.
fn grouped(hex: &str) -> Vec<String> {
    hex.as_bytes()
        .chunks(32)
        .map(|line| {
            line.chunks(4)
                .map(|g| String::from_utf8_lossy(g).into_owned())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

fn json(p: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

#[test]
fn status_lists_days_blocks_and_the_sitting_from_the_trail_and_appends_nothing() {
    let env = Env::new();
    let e1 = simulate(&env, "2018-12-01", 300, 1, &[]);
    let sealed = seal(&env, &e1);
    // Amounts on screen are in euros, never in cents.
    assert!(sealed.contains("€10.00 per entry"), "{sealed}");
    env.draw_ok("2018-12-01", "out1");
    let e3 = simulate(&env, "2018-12-03", 200, 3, &[]);
    seal(&env, &e3);
    env.ok(&[
        "void",
        "--day",
        "2018-12-03",
        "--reason",
        "export corrigé attendu",
    ]);
    let e5 = simulate(&env, "2018-12-05", 200, 5, &[]);
    seal(&env, &e5);
    let r = small_rules(&env);
    env.ok(&generate_args(&r, "1", "blocks"));
    let before = event_total(&env);

    let en = screen(&env, "en_GB.UTF-8", &["status"]);
    assert!(en.contains("Sitting: none yet"), "{en}");
    assert!(
        en.contains(&format!(
            "Production's keys pinned: {}",
            in_fours(&test_producer_key_id())
        )),
        "{en}"
    );
    assert!(en.contains("Days (3)"), "{en}");
    // Drawn in 2026 for a day of 2018: later than its draw date and 30 days of grace (D-8).
    assert!(
        en.contains("  2018-12-01      1  drawn and published ; late (D-8)"),
        "{en}"
    );
    assert!(
        en.contains("  2018-12-03      2  to seal ; attempt 1 voided"),
        "{en}"
    );
    assert!(en.contains("  2018-12-05      1  sealed, to draw"), "{en}");
    assert!(en.contains("Blocks (1)"), "{en}");
    let block_row = format!(
        "  {:<40}      1  generated and published",
        "test-small-game/100/t1/1"
    );
    assert!(en.contains(&block_row), "{en}");

    // French by default (and with --lang fr whatever LANG says).
    let fr = screen(&env, "C.UTF-8", &["status"]);
    assert!(fr.contains("tiré et publié ; en retard (D-8)"), "{fr}");
    assert!(fr.contains("à sceller ; tentative 1 annulée"), "{fr}");
    assert_eq!(screen(&env, "en_US.UTF-8", &["status", "--lang", "fr"]), fr);

    // With the rules: the days not yet sealed, by period, and whether they are due (D-8).
    let ops = screen(&env, "en_GB.UTF-8", &["status", "--rules", &rules()]);
    let p1 = ops
        .split("  P1, draw date 11 December 2018: ")
        .nth(1)
        .unwrap_or_else(|| panic!("{ops}"));
    let p1 = p1.split("  P2,").next().unwrap();
    assert!(p1.contains("late"), "{p1}");
    assert!(
        p1.contains("    to seal: 2018-12-02…2018-12-04 2018-12-06 2018-12-07\n"),
        "{p1}"
    );
    assert!(p1.contains("    sealed, to draw: 2018-12-05\n"), "{p1}");
    assert!(
        !p1.contains("2018-12-01"),
        "a drawn day is not to seal: {p1}"
    );
    assert!(
        ops.contains("    to seal: 2018-12-22…2018-12-24\n"),
        "{ops}"
    );
    // A summary that fits an 80x24 screen; the days and blocks in detail are status's alone.
    assert!(ops.lines().count() <= 22, "{ops}");
    assert!(!ops.contains("attempt 1 voided"), "{ops}");
    assert!(ops.contains("Every day and block in detail: urne status (without --rules)."));

    // Read-only: not one event more, not even for a refusal.
    let o = run_lang(&env, "C", &["show", "--day", "2018-12-07"]);
    assert_fails(&o, 4, "day-not-sealed");
    assert_eq!(event_total(&env), before);
}

#[test]
fn show_prints_a_drawn_day_again_as_the_minutes_state_it() {
    let env = Env::new();
    let e = simulate(&env, "2018-12-02", 300, 7, &[]);
    seal(&env, &e);
    env.draw_ok("2018-12-02", "out");
    let before = event_total(&env);
    let bundle = json(&env.path("out/bundle.json"));
    let result = json(&env.path("out/result.json"));
    let shown = screen(
        &env,
        "C",
        &[
            "show",
            "--day",
            "2018-12-02",
            "--dir",
            "out",
            "--lang",
            "en",
        ],
    );
    assert!(
        shown.starts_with(
            "Electronic draw, operation chanceux-noel-2018, day 2018-12-02 (attempt no. 1)"
        ),
        "{shown}"
    );
    let once = |hex: &str, label: &str| {
        let g = grouped(hex);
        assert_eq!(shown.matches(&g[0]).count(), 1, "{label} once: {shown}");
        let at = shown.find(&g[0]).unwrap();
        let before_value = &shown[..at];
        assert!(
            before_value.trim_end().ends_with(label),
            "{label} labels {hex}: {shown}"
        );
        for l in &g {
            assert!(
                shown.contains(&format!("      {l}\n")),
                "{label}: {l} in {shown}"
            );
        }
    };
    once(
        bundle["commitment"]["root"].as_str().unwrap(),
        "Commitment (Merkle root of the entries)",
    );
    once(bundle["seed"].as_str().unwrap(), "Draw seed");
    once(
        bundle["entropy"].as_str().unwrap(),
        "The hardware module's (HSM) entropy",
    );
    once(
        bundle["export"]["sha256"].as_str().unwrap(),
        "Production's export (SHA-256)",
    );
    once(
        bundle["winner"]["pseudonym"].as_str().unwrap(),
        "Winner (prize of €5,000.00, D-10)",
    );
    for (i, r) in bundle["reserves"].as_array().unwrap().iter().enumerate() {
        once(
            r["pseudonym"].as_str().unwrap(),
            &format!("Reserve no. {}", i + 1),
        );
    }
    let ec = bundle["entropy_commitment"].as_str().unwrap();
    assert_eq!(shown.matches(&grouped(ec)[0]).count(), 1, "{shown}");
    assert!(shown.contains("«4 2 6 1 3 5 5 2»"), "{shown}");
    // Never an account: the public minutes name winners by pseudonym only.
    for p in std::iter::once(&result["winner"]).chain(result["reserves"].as_array().unwrap()) {
        let account = p["account"].as_str().unwrap();
        assert!(
            !shown.contains(&grouped(account)[0]),
            "account {account} shown:\n{shown}"
        );
        assert!(!shown.contains(account));
    }
    // Every output file, checked in the folder; the rules file is the rules' hash, said once.
    assert_eq!(shown.matches("identical in out").count(), 7, "{shown}");
    assert!(
        shown.contains("rules.json : the same as « Operation's rules (SHA-256) »"),
        "{shown}"
    );
    // The figures, with thousands separators.
    let plays = format!("  {:<40}300\n", "Plays in the export");
    assert!(shown.contains(&plays), "{shown}");

    // A changed or missing file is said to be so.
    std::fs::write(env.path("out/pv.html"), b"not the minutes").unwrap();
    std::fs::remove_file(env.path("out/leaves.bin")).unwrap();
    let again = screen(
        &env,
        "C",
        &[
            "show",
            "--day",
            "2018-12-02",
            "--dir",
            "out",
            "--lang",
            "en",
        ],
    );
    assert_eq!(again.matches("identical in out").count(), 5, "{again}");
    assert!(again.contains("DIFFERENT, SHA-256"), "{again}");
    assert!(again.contains("MISSING from out"), "{again}");
    // French by default, in the minutes' words.
    let fr = screen(&env, "C", &["show", "--day", "2018-12-02"]);
    assert!(
        fr.contains("Engagement (racine de Merkle des participations)"),
        "{fr}"
    );
    assert!(
        fr.contains("Gagnant (lot de 5\u{202f}000,00\u{a0}€, D-10)"),
        "{fr}"
    );
    assert!(fr.contains("Suppléant n°\u{a0}5"), "{fr}");
    assert_eq!(event_total(&env), before);
}

#[test]
fn show_prints_a_block_commitment_and_its_reveal() {
    let env = Env::new();
    let r = small_rules(&env);
    env.ok(&generate_args(&r, "1", "blocks"));
    let id = "test-small-game/100/t1/1";
    let commit = json(&env.path("blocks/test-small-game_100_t1_1.commit.json"));
    let shown = screen(
        &env,
        "C",
        &["show", "--block", id, "--dir", "blocks", "--lang", "en"],
    );
    assert!(
        shown.starts_with(&format!("Block {id} (attempt no. 1)")),
        "{shown}"
    );
    assert!(shown.contains("State: generated and published"), "{shown}");
    for key in ["outcomes_root", "seed_commitment"] {
        let g = grouped(commit[key].as_str().unwrap());
        assert_eq!(shown.matches(&g[0]).count(), 1, "{key}: {shown}");
    }
    assert!(shown.contains("SECRET until the reveal"), "{shown}");
    // The prize counts, from the commitment published as recorded (G-3).
    let units = commit["tiers"][0]["units"].as_u64().unwrap();
    let prize = commit["tiers"][0]["prize_cents"].as_u64().unwrap();
    assert!(shown.contains("The block's prizes (G-3)"), "{shown}");
    let first = format!("winning {}", urne::text::eur(prize, urne::text::Lang::En));
    let row = shown
        .lines()
        .find(|l| l.contains(&first))
        .unwrap_or_else(|| panic!("{shown}"));
    assert!(row.ends_with(&format!(" {units}")), "{row}");
    assert!(!shown.contains("Reveal"), "{shown}");
    let closed = sales_close(&env, id);
    env.ok(&[
        "block",
        "reveal",
        "--block",
        id,
        "--sales-closed-at",
        &closed,
        "--out",
        "blocks",
    ]);
    let reveal = json(&env.path("blocks/test-small-game_100_t1_1.reveal.json"));
    let shown = screen(&env, "C", &["show", "--block", id, "--lang", "en"]);
    assert!(shown.contains("State: revealed"), "{shown}");
    let g = grouped(reveal["seed"].as_str().unwrap());
    assert!(
        shown.contains(&format!("  Block seed\n      {}\n", g[0])),
        "{shown}"
    );
    let st = screen(&env, "C", &["status", "--lang", "en"]);
    assert!(st.contains(&format!("  {id:<40}      1  revealed")), "{st}");
}

#[test]
fn status_needs_the_token_and_says_where_a_refused_pin_came_from() {
    let env = Env::new();
    // A wrong PIN from the environment: the hint names URNE_PIN.
    let o = env
        .cmd()
        .env("URNE_PIN", "000000")
        .arg("status")
        .output()
        .unwrap();
    assert_fails(&o, 3, "pin-incorrect");
    assert_names(&hint_of(&o), &["URNE_PIN"]);
    // From a file: the hint names the file.
    std::fs::write(env.path("wrong-pin"), "000000\n").unwrap();
    let o = env
        .cmd()
        .env_remove("URNE_PIN")
        .args(["--pin-file", "wrong-pin", "status"])
        .output()
        .unwrap();
    assert_fails(&o, 3, "pin-incorrect");
    assert_names(&hint_of(&o), &["--pin-file wrong-pin"]);
    // Typed at the prompt: the hint says to type it again, not to check URNE_PIN or a file.
    let o = env
        .cmd_of(&root().join("scripts/pty-type"))
        .env_remove("URNE_PIN")
        .env("LANG", "fr_FR.UTF-8")
        .args(["--on", "code PIN de l.HSM", "--send", "000000", "--"])
        .arg(URNE)
        .arg("status")
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(3), "{shown}");
    screen_error(&shown, "pin-incorrect");
    assert!(
        shown.contains("retapez soigneusement le code PIN"),
        "{shown}"
    );
    assert!(
        !shown.contains("URNE_PIN") && !shown.contains("--pin-file"),
        "{shown}"
    );
    // Typed at the prompt, a refused PIN is asked again, three times in all (nothing recorded).
    assert_eq!(shown.matches("code PIN de l'HSM").count(), 3, "{shown}");
    assert!(
        shown.contains("L'HSM a refusé ce code PIN (rien n'a été inscrit). Essais restants : 2"),
        "{shown}"
    );
    // The right PIN at the second prompt opens the token.
    let o = env
        .cmd_of(&root().join("scripts/pty-type"))
        .env_remove("URNE_PIN")
        .env("LANG", "en_US.UTF-8")
        .args(["--expect", "HSM user PIN", "--send", "000000"])
        .args(["--expect", "HSM user PIN", "--send", &env.pin(), "--"])
        .arg(URNE)
        .arg("status")
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{shown}");
    assert!(
        shown.contains("The HSM refused that PIN (nothing was recorded). Tries left: 2"),
        "{shown}"
    );
}

#[test]
fn status_says_whether_a_sitting_is_open() {
    let env = Env::new();
    let opened = serde_json::json!({"number": 1, "kind": "sitting", "place": "Paris",
        "commissaire": {"name": "Maître Claire Dupont", "office": "Étude Dupont"},
        "present": [{"name": "Jean Martin", "role": "opérateur"}], "lang": "fr",
        "plan": [{"action": "draw", "subject": "2018-12-01", "detail": ""}]});
    append_as_urne(&env, &[("sitting.opened", opened)]);
    let st = screen(&env, "C", &["status", "--lang", "en"]);
    assert!(
        st.contains("Sitting: no. 1 open (`urne ceremony` takes it up again)"),
        "{st}"
    );
    assert!(screen(&env, "C", &["status"]).contains("Séance : n°\u{a0}1 ouverte"));
    append_as_urne(
        &env,
        &[("sitting.closed", serde_json::json!({"number": 1}))],
    );
    let st = screen(&env, "C", &["status", "--lang", "en"]);
    assert!(
        st.contains("Sitting: none open (the last, no. 1, is closed)"),
        "{st}"
    );
}

/// Issue 25, item 4: `urne show --day D --dir FOLDER` on the folder of a voided attempt says so
/// (the attempt, its void's event, the current attempt) before the files it finds different;
/// on the current attempt's folder it says nothing of the kind.
#[test]
fn show_of_a_voided_attempts_folder_says_it_is_voided() {
    let env = Env::new();
    let e = simulate(&env, "2018-12-02", 300, 7, &[]);
    seal(&env, &e);
    env.draw_ok("2018-12-02", "out");
    env.ok(&[
        "void",
        "--day",
        "2018-12-02",
        "--reason",
        "a test of show on a voided folder",
    ]);
    let void = seq_of(&env, "draw.void");
    seal(&env, &e);
    env.draw_ok("2018-12-02", "out-2");
    let fr = screen(&env, "C", &["show", "--day", "2018-12-02", "--dir", "out"]);
    // The screen's lines joined (a long line is wrapped at a space).
    let fr = fr.lines().map(str::trim).collect::<Vec<_>>().join(" ");
    let note = format!(
        "ATTENTION : le dossier out est celui de la tentative n°\u{a0}1 (événement d'audit n°\u{a0}{void}), ANNULÉE :"
    );
    let at = fr.find(&note).expect(&fr);
    assert!(at < fr.find("DIFFÉRENT").expect(&fr), "{fr}");
    assert!(
        fr.contains("résultat en vigueur, qui est celui de la tentative n°\u{a0}2"),
        "{fr}"
    );
    let current = screen(
        &env,
        "C",
        &["show", "--day", "2018-12-02", "--dir", "out-2"],
    );
    assert!(!current.contains("ANNULÉE :"), "{current}");
    assert!(!current.contains("DIFFÉRENT"), "{current}");
}

/// Issue 25, item 4: the same for a block: `urne show --block ID --dir FOLDER` on the folder of
/// a voided attempt says so before the files it finds different.
#[test]
fn show_of_a_voided_blocks_folder_says_it_is_voided() {
    let env = Env::new();
    let r = small_rules(&env);
    env.ok(&generate_args(&r, "1", "blocks"));
    let id = "test-small-game/100/t1/1";
    env.ok(&[
        "block",
        "void",
        "--block",
        id,
        "--reason",
        "misprinted roll",
    ]);
    let void = seq_of(&env, "block.void");
    env.ok(&generate_args(&r, "1", "blocks-2"));
    let fr = screen(&env, "C", &["show", "--block", id, "--dir", "blocks"]);
    let fr = fr.lines().map(str::trim).collect::<Vec<_>>().join(" ");
    let note = format!(
        "ATTENTION : le dossier blocks est celui de la tentative n°\u{a0}1 (événement d'audit n°\u{a0}{void}), ANNULÉE :"
    );
    let at = fr.find(&note).expect(&fr);
    assert!(at < fr.find("DIFFÉRENT").expect(&fr), "{fr}");
    assert!(
        fr.contains("résultat en vigueur, qui est celui de la tentative n°\u{a0}2"),
        "{fr}"
    );
    let current = screen(&env, "C", &["show", "--block", id, "--dir", "blocks-2"]);
    assert!(!current.contains("ANNULÉE :"), "{current}");
    assert!(!current.contains("DIFFÉRENT"), "{current}");
}
