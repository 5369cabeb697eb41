//! Acts done outside any sitting (spec/appliance.md §9.2, M-270): a lone `urne draw` run at night between
//! two sittings is shown at the next sitting's opening, before anything of it is confirmed, and
//! stated in that sitting's minutes with its output.

use crate::ceremony::{RULES, at, export, init_at, sitting};
use crate::common::*;
use crate::native::faketime_urne;

#[test]
fn a_lone_draw_between_two_sittings_is_shown_at_the_next_opening_and_in_its_minutes() {
    let env = Env::without_keys();
    init_at(&env, "2018-12-08");
    for (i, day) in ["2018-12-01", "2018-12-02", "2018-12-03"]
        .iter()
        .enumerate()
    {
        export(&env, day, 81 + u32::try_from(i).unwrap());
    }
    let (exports, publ) = (env.path("exports"), env.path("pub"));
    let (exports, publ) = (exports.to_str().unwrap(), publ.to_str().unwrap());
    let args = |day: &'static str| {
        vec![
            "--out",
            publ,
            "--rules",
            RULES,
            "--exports",
            exports,
            "--day",
            day,
            "--town",
            "Paris",
            "--place",
            "Étude Dupont, Paris",
            "--commissaire",
            "Maître Claire Dupont",
            "--office",
            "Étude Dupont",
        ]
    };
    let steps = [("exactes", "oui"), ("Votre choix", "4")];
    let o = sitting(&env, "2018-12-09 09:00:00", &steps, &args("2018-12-01"));
    let first = String::from_utf8_lossy(&o.stdout).replace("\r\n", "\n");
    assert!(o.status.success(), "sitting 1 failed:\n{first}");

    // At night, a PIN holder seals and draws 2018-12-02 alone.
    let entries = format!("{exports}/entries-chanceux-noel-2018-2018-12-02.jsonl");
    let o = at(&env, "2018-12-09 22:00:00")
        .args(["seal", "--rules", RULES, "--entries", &entries])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let night = env.path("night");
    let o = env
        .cmd_of(&root().join("scripts/pty-type"))
        .env("TZ", "UTC")
        .env("FAKETIME", "@2018-12-09 22:05:00")
        .args(["--on", TYPE_BACK, "--send-match"])
        .args(["--on", CONTRIBUTION_PROMPT, "--send", CONTRIBUTION])
        .args(["--on", YES_NO, "--send", "oui", "--"])
        .arg(faketime_urne())
        .args([
            "draw",
            "--day",
            "2018-12-02",
            "--out",
            night.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    let bundle = urne_verify::crypto::sha256(&std::fs::read(night.join("bundle.json")).unwrap());

    // The next morning's sitting shows it at its opening, before the identity is confirmed.
    let o = sitting(&env, "2018-12-10 09:00:00", &steps, &args("2018-12-03"));
    let screen = String::from_utf8_lossy(&o.stdout).replace("\r\n", "\n");
    assert!(o.status.success(), "sitting 2 failed:\n{screen}");
    let heading = "ACTES FAITS HORS SÉANCE DEPUIS LA SÉANCE PRÉCÉDENTE";
    let at_heading = screen.find(heading).unwrap_or_else(|| panic!("{screen}"));
    assert!(
        at_heading < screen.find("OUVERTURE DE LA SÉANCE").unwrap(),
        "{screen}"
    );
    let shown = &screen[at_heading..];
    for want in [
        "le 9 décembre 2018 à 23 h 05",
        "Scellement du jour du 2 décembre 2018, tentative n°\u{a0}1",
        "Tirage du jour du 2 décembre 2018, tentative n°\u{a0}1 ; publié dans",
        "bundle.json (SHA-256)",
    ] {
        let flat = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat(shown).contains(&flat(want)),
            "{want:?} not on screen:\n{screen}"
        );
    }
    // The output's SHA-256 grouped by four under its name, as on every screen.
    let grouped = urne_ceremony::minutes::words::grouped(&bundle.to_string());
    assert!(
        shown.contains(&grouped[..39]),
        "{grouped} not on screen:\n{screen}"
    );
    // Only what was done since sitting 1 closed: not the pin before it, nor sitting 1's draw.
    let block = &shown[..shown.find("OUVERTURE DE LA SÉANCE").unwrap()];
    for not in ["Clés de production épinglées", "1er décembre 2018"] {
        assert!(!block.contains(not), "{not:?} on screen:\n{screen}");
    }
    let first_flat = first.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        first_flat.contains("Clés de production épinglées"),
        "{first}"
    );
    let html = std::fs::read_to_string(publ.to_owned() + "/sitting-002/minutes.html").unwrap();
    assert!(html.contains(". Actes faits hors séance</h2>"), "{html}");
    assert!(
        html.contains("Tirage du jour du 2 décembre 2018, tentative n°\u{a0}1 ; publié dans"),
        "{html}"
    );
    assert_eq!(
        html.matches("Tirage du jour du 2 décembre 2018, tentative")
            .count(),
        1
    );
}
