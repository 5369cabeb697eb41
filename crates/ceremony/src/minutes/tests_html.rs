//! What the HTML of a sitting's minutes says, and how: dates in words in Paris time, numbers
//! and amounts with their separators, hashes grouped and each value once, the incidents, the
//! software's changes, "Fait à … le …", the signatures, A4 pages numbered, no external resource.

#![allow(
    clippy::too_many_lines,
    reason = "a test is one scenario told in order (the state it builds, then each check); cut, its steps would read out of sequence"
)]

use super::tests::{given, h, sitting};
use super::*;

fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

#[test]
fn a_sittings_minutes_are_written_for_a_french_bailiff() {
    let m = Minutes::from_trail(&sitting(0x01), 1, &given()).unwrap();
    let html = html::render(&m, Lang::Fr);
    assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"fr\">"));
    assert!(html.contains("<h1>Procès-verbal de la séance n°\u{a0}1</h1>"));
    assert!(html.contains(
        "Opérations\u{a0}: <strong>Chanceux Noël</strong> ; <strong>Le Noël de la chance</strong>"
    ));
    assert!(html.contains("ouverte le 11 décembre 2018 à 10 h 01 et close le 11 décembre 2018 à 12 h 40 (heure de Paris"), "{html}");
    assert!(html.contains("Maître Claire Dupont<br>SELARL Dupont &amp; Associés"));
    assert!(html.contains("<tr><th>opérateur</th><td>Jean Martin</td></tr>"));
    assert!(html.contains("tirage du jour du 1er décembre 2018"));
    // No UTC ISO time anywhere: the plan's and the reveal's sales close are in words.
    assert!(!html.contains("T22:59") && !html.contains("2018-12-11T") && !html.contains("(UTC)"));
    assert_eq!(
        count(&html, "ventes closes le 10 décembre 2018 à 23 h 59"),
        1
    );
    assert!(
        html.contains("<td>le 10 décembre 2018 à 23 h 59</td>"),
        "the reveal's sales close"
    );
    // Numbers and amounts.
    // A figure, to check against the seal's screen, has its box to tick.
    assert!(html.contains("<td><span class=\"tick\"></span>123\u{202f}456</td>"));
    assert!(html.contains("lot de 5\u{202f}000\u{a0}€ (D-10)"));
    assert!(html.contains("1\u{202f}234\u{202f}567 octets"));
    assert!(html.contains("629\u{202f}698 tickets perdants"));
    // Hashes grouped by four, never whole; the winner's pseudonym once, no account.
    for n in [0x10, 0x31, 0x55, 0x93, 0xaa, 0xc7] {
        assert!(!html.contains(&h(n).to_string()), "{n:#x} ungrouped");
        assert!(
            html.contains(&words::grouped(&h(n).to_string())),
            "{n:#x} grouped"
        );
    }
    assert_eq!(count(&html, &words::grouped(&h(0xc7).to_string())), 1);
    assert_eq!(
        count(&html, &words::grouped(&"ab".repeat(48))),
        1,
        "the reveal's entropy"
    );
    // The randomness in the order it became fixed, with its events.
    // What the commissaire wrote by hand is said to be, and every value has its box to tick.
    assert!(html.contains("Engagement sur l'aléa du HSM, fixé avant la contribution — écrit à la main (événement d'audit n°\u{a0}6, le 11 décembre 2018 à 10 h 05)"));
    assert!(html.contains("saisie ensuite — écrit à la main (événement d'audit n°\u{a0}7"));
    assert!(html.contains("Gagnant (lot de"));
    assert!(html.contains("D-10) — écrit à la main</th>"), "{html}");
    assert!(html.contains("coche la case de chaque valeur"));
    let ticks = count(&html, "<span class=\"tick\"></span>");
    assert!(
        ticks >= count(&html, "<code class=\"h\">") / 2 && ticks > 10,
        "{ticks} boxes"
    );
    assert!(!html.contains("<td><span class=\"tick\"></span>le 10"));
    assert!(html.contains("4 2 6 1 3 5 5 2"));
    // Incidents, voids, no D-8 text for draws made on their date.
    // The seal made before the sitting opened, outside it, has its section first (M-270).
    assert!(
        html.contains("<h2>1. Actes faits hors séance</h2>"),
        "{html}"
    );
    assert!(html.contains("<h2>6. Anomalies / incidents</h2>"), "{html}");
    assert!(html.contains("Fichier refusé"));
    assert!(html.contains(
        "Interruption : un autre processus de l'appareil a démarré, commande <code>ceremony</code>"
    ));
    assert!(html.contains("Reprise de la séance après interruption"));
    assert!(html.contains(
        "Tirage interrompu après l'inscription de l'aléa : tirage du jour du 2 décembre 2018"
    ));
    assert!(html.contains("Aléa du HSM refusé et jamais utilisé"));
    assert!(html.contains("Commande refusée ou interrompue sur erreur"));
    // urne's words recorded in the trail (here in English, by a command run in English) are
    // quoted as recorded, so that the French around them stays French.
    assert!(
        html.contains(
            "(HSM) ; message enregistré : «\u{a0}the token returned entropy the trail has already seen\u{a0}»"
        ),
        "{html}"
    );
    assert!(
        html.contains("; motif enregistré : «\u{a0}the signature does not verify\u{a0}»"),
        "{html}"
    );
    assert!(!html.contains(") : the token returned"), "{html}");
    assert!(
        html.contains("Motif : wrong export, see the operator&#39;s statement")
            || html.contains("Motif : wrong export, see the operator's statement")
    );
    assert!(
        !html.contains("Tirage tardif")
            && !html.contains("Tirage anticipé")
            && !html.contains("Tirage reporté")
    );
    // The software once; the integrity conclusion; where and when, and the signatures.
    assert_eq!(count(&html, "/usr/lib/softhsm/libsofthsm2.so"), 1);
    assert!(!html.contains("Changement"));
    assert!(html.contains("<pre class=\"note\">urne-audit/aabb\n27\n"));
    assert!(html.contains("Fait à Paris, 12 rue de la Paix, le 11 décembre 2018."));
    assert!(html.contains(
        "<div>Le commissaire de justice<br>Maître Claire Dupont<br><small>signature</small></div>"
    ));
    let end = html.find("<div class=\"end\">").unwrap();
    assert!(html.find("Conclusion sur l'intégrité").unwrap() < end);
    assert!(
        end < html.find("Identité du journal d'audit").unwrap(),
        "the checkpoint is kept with the signatures"
    );
    // Printed on A4, pages numbered, self-contained.
    assert!(html.contains("@page{size:A4;"));
    assert!(html.contains("content:\"page \" counter(page) \" / \" counter(pages)"));
    for external in ["http://", "https://", "src=", "<link", "@import", "url("] {
        assert!(!html.contains(external), "{external}");
    }
}

#[test]
fn a_change_of_software_is_stated_with_only_what_changed() {
    let m = Minutes::from_trail(&sitting(0x02), 1, &given()).unwrap();
    let html = html::render(&m, Lang::Fr);
    assert!(html.contains(
        "<strong>Changement</strong> le 11 décembre 2018 à 10 h 20 (événement d'audit n°\u{a0}13"
    ));
    assert_eq!(
        count(&html, "/usr/lib/softhsm/libsofthsm2.so"),
        1,
        "the module did not change"
    );
    assert!(html.contains(&words::grouped(&h(0x02).to_string())));
}

#[test]
fn the_minutes_in_english() {
    let m = Minutes::from_trail(&sitting(0x01), 1, &given()).unwrap();
    let html = html::render(&m, Lang::En);
    assert!(html.contains("<html lang=\"en\">"));
    assert!(html.contains("<h1>Minutes of sitting no.\u{a0}1</h1>"));
    assert!(html.contains(
        "opened on 11 December 2018 at 10:01 and closed on 11 December 2018 at 12:40 (Paris time"
    ));
    assert!(html.contains("prize of €5,000 (D-10)"));
    assert!(html.contains("Done at Paris, 12 rue de la Paix, on 11 December 2018."));
    assert!(!html.contains("Procès-verbal"));
}

#[test]
fn a_planned_step_found_done_before_the_sitting_or_left_undone_is_said_so() {
    use super::tests::{opened, published, result, sw, trail, trail_created};
    use urne_verify::sitting::SittingKind;
    // The plan of `opened` (1 and 2 December drawn, a block generated, one revealed): the 1st
    // drawn before the sitting, the 2nd drawn at it, the blocks not touched.
    let events = trail(vec![
        ("09:00", trail_created()),
        ("09:01", sw(0x01).into()),
        ("09:02", result("2018-12-01", 2, 0x31)),
        ("09:03", published("2018-12-01", 2)),
        ("10:00", sw(0x01).into()),
        ("10:01", opened(1, SittingKind::Sitting)),
        ("10:02", result("2018-12-02", 1, 0x32)),
        ("10:03", published("2018-12-02", 1)),
        (
            "10:30",
            urne_verify::sitting::ClosedRecord { number: 1 }.into(),
        ),
    ]);
    let m = Minutes::from_trail(&events, 1, &given()).unwrap();
    assert_eq!(
        m.plan_done,
        [
            StepDone::Before {
                seq: 3,
                attempt: urne_verify::values::Attempt::new(2).unwrap()
            },
            StepDone::InSitting,
            StepDone::NotDone,
            StepDone::NotDone
        ]
    );
    let html = html::render(&m, Lang::Fr);
    assert!(html.contains("tirage du jour du 1er décembre 2018 — étape trouvée déjà faite avant l'ouverture de la séance, et non refaite (tentative n°\u{a0}2, événement du journal n°\u{a0}3)"), "{html}");
    assert_eq!(
        count(&html, "— étape non effectuée au cours de la séance"),
        2
    );
    let html = html::render(&m, Lang::En);
    assert!(html.contains("step not carried out during the sitting"));
}

#[test]
fn a_process_with_another_pkcs11_module_than_the_key_ceremonys_is_an_incident() {
    use super::tests::{opened, sw, trail, trail_created};
    use urne_verify::sitting::SittingKind;
    let mut other = sw(0x01);
    other.pkcs11.module_sha256 = h(0x44);
    other.pkcs11.module_path = "/opt/other/libpkcs11.so".into();
    let events = trail(vec![
        ("09:00", trail_created()),
        ("09:01", sw(0x01).into()),
        ("10:00", other.clone().into()),
        ("10:01", opened(1, SittingKind::Sitting)),
        ("10:05", other.into()),
        (
            "10:30",
            urne_verify::sitting::ClosedRecord { number: 1 }.into(),
        ),
    ]);
    let m = Minutes::from_trail(&events, 1, &given()).unwrap();
    let found: Vec<_> = m
        .incidents
        .iter()
        .filter_map(|i| match i {
            Incident::OtherModule {
                at, key_ceremony, ..
            } => Some((at.seq, *key_ceremony)),
            _ => None,
        })
        .collect();
    // Once, at the sitting's own process, against the trail's first module (event 2).
    assert_eq!(found, [(3, (2, h(0x33)))]);
    let html = html::render(&m, Lang::Fr);
    assert!(
        html.contains(
            "Module PKCS#11 autre que celui du premier processus du journal (la cérémonie des clés"
        ),
        "{html}"
    );
    assert!(html.contains("/opt/other/libpkcs11.so"));
    // The same module throughout: nothing said.
    let events = trail(vec![
        ("09:00", trail_created()),
        ("09:01", sw(0x01).into()),
        ("10:00", sw(0x02).into()),
        ("10:01", opened(1, SittingKind::Sitting)),
        (
            "10:30",
            urne_verify::sitting::ClosedRecord { number: 1 }.into(),
        ),
    ]);
    let m = Minutes::from_trail(&events, 1, &given()).unwrap();
    assert!(
        !m.incidents
            .iter()
            .any(|i| matches!(i, Incident::OtherModule { .. }))
    );
}

// MUST: M-419
#[test]
fn the_minutes_say_how_to_check_the_executable_and_the_module_against_the_signed_release() {
    let m = Minutes::from_trail(&sitting(0x01), 1, &given()).unwrap();
    let rev = "0123456789abcdef0123456789abcdef01234567";
    for (lang, sentence) in [
        (
            Lang::Fr,
            "Sur un appareil qui lui appartient (jamais sur cet appareil), le commissaire de justice compare l'empreinte SHA-256 de l'exécutable ci-dessus avec la ligne",
        ),
        (
            Lang::En,
            "On a device of their own (never on this appliance), the commissaire compares the executable's SHA-256 above with the line",
        ),
    ] {
        let html = html::render(&m, lang);
        for want in [
            sentence,
            &format!("<code>urne-src-{rev}.tar.gz</code>"),
            "grep &#39; bin/urne$&#39; SHA256SUMS",
            "<code>urne-verify --release SHA256SUMS --release-key release-key.pem</code>",
            "<code>openssl pkeyutl -verify -pubin -inkey release-key.pem -rawin -in SHA256SUMS -sigfile SHA256SUMS.sig</code>",
            // The two hashes it speaks of, above it.
            &words::grouped(&h(0x01).to_string()),
            &words::grouped(&h(0x33).to_string()),
        ] {
            let want = want.replace("&#39;", "'");
            assert!(html.contains(&want), "{lang:?}: {want:?}");
        }
        assert!(!html.contains("Attention :") && !html.contains("Warning:"));
    }
    // A revision that is no commit is no release: the minutes say so.
    let mut m = m;
    m.software[0].software.source_revision = format!("{rev}-modified");
    let html = html::render(&m, Lang::En);
    assert!(html.contains(&format!(
        "<code>{rev}-modified</code> is the revision of no published release"
    )));
    assert!(html.contains(&format!("<code>urne-src-{rev}-modified.tar.gz</code>")));
}
