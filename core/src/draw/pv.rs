//! The minutes annex `pv.html` (French, printable): what a *procès-verbal* of an electronic draw
//! must state (arrêté du 5 décembre 2022, art. 11): entries in total, exclusions by reason,
//! participants, the anonymised outcome, anomalies, verifications performed and the integrity
//! conclusion; every hash the commissaire copies; the software identity; signature blocks.
//! Pure: built from the result and the list of anomalies and verifications, whose French wording
//! is here too ([`anomalies`], [`checks`]); the appliance supplies only the time and the values.

use super::files::{Figures, ResultFile, VoidedAttempt};
use chrono::NaiveDate;
use std::fmt::Write;

/// The date of a ceremony against its period's draw date (D-8), as the minutes judge it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawDay {
    /// The ceremony's date in the rules' time zone (read from the appliance's clock).
    pub today: NaiveDate,
    /// The draw date of the day's period.
    pub draw_date: NaiveDate,
    /// Days of grace after the draw date (the rules' `draw_grace_days`).
    pub grace_days: u32,
}

impl DrawDay {
    /// Drawn after the draw date plus its days of grace (D-8).
    pub fn is_late(&self) -> bool {
        self.today > self.draw_date + chrono::Days::new(u64::from(self.grace_days))
    }

    /// Drawn before the draw date (D-8).
    pub fn is_early(&self) -> bool {
        self.today < self.draw_date
    }
}

/// The minutes' anomalies, in order: a draw late or early against its draw date (D-8), then
/// every voided attempt of the day.
pub fn anomalies(when: &DrawDay, voided: &[VoidedAttempt]) -> Vec<String> {
    let mut anomalies = vec![];
    if when.is_late() {
        anomalies.push(format!(
            "Tirage effectué le {}, au-delà de la date prévue ({}) augmentée du délai de {} jours (D-8).",
            when.today, when.draw_date, when.grace_days
        ));
    } else if when.is_early() {
        anomalies.push(format!(
            "Tirage effectué le {}, avant la date prévue du {} (D-8).",
            when.today, when.draw_date
        ));
    }
    for v in voided {
        anomalies.push(format!(
            "Tentative n° {} annulée (événement d'audit n° {}) : {}",
            v.attempt, v.audit_seq, v.reason
        ));
    }
    anomalies
}

/// The minutes' list of the verifications the appliance made before signing a draw's outputs.
pub fn checks(producer_key_id: &str) -> Vec<String> {
    vec![
        format!("Signature Ed25519 de l'export vérifiée avec la clé du producteur {producer_key_id} avant lecture."),
        "Chaque ligne de l'export contrôlée selon le format entry-export-v1 ; règles D-3 à D-6 et D-13 appliquées.".to_string(),
        "Engagement (racine de Merkle) recalculé à partir de la liste scellée avant le tirage.".to_string(),
        "Aléa du HSM contrôlé (non constant, jamais vu), inscrit au journal d'audit et son engagement signé avant la saisie de la contribution du commissaire de justice.".to_string(),
        "Contribution du commissaire de justice affichée, confirmée et inscrite au journal d'audit avant tout calcul.".to_string(),
        "Tirage recalculé par le vérificateur intégré à partir de bundle.json avant signature.".to_string(),
        "Chaîne du journal d'audit prolongée et point de contrôle signé par la clé d'audit du HSM.".to_string(),
    ]
}

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// An amount the French way: `5\u{202f}000\u{a0}€`, `10,50\u{a0}€`.
fn eur(cents: u64) -> String {
    let euros = cents / 100;
    let mut s = euros.to_string();
    // A narrow no-break space before every group of three digits, from the right.
    let mut i = s.len();
    while i > 3 {
        i -= 3;
        s.insert(i, '\u{202f}');
    }
    if cents.is_multiple_of(100) {
        format!("{s}\u{a0}€")
    } else {
        format!("{s},{:02}\u{a0}€", cents % 100)
    }
}

/// Hashes of the files the minutes refer to (the minutes cannot contain their own hash).
pub struct PvFiles<'a> {
    /// SHA-256 (hex) of `result.json`.
    pub result_sha256: &'a str,
    /// SHA-256 (hex) of `bundle.json`.
    pub bundle_sha256: &'a str,
    /// SHA-256 (hex) of the sealed rules file.
    pub rules_sha256: &'a str,
}

/// Renders the minutes annex.
pub fn render(r: &ResultFile, files: &PvFiles, anomalies: &[String], checks: &[String]) -> String {
    let mut h = String::new();
    head(&mut h, r);
    participations(&mut h, &r.core.figures);
    outcome(&mut h, r);
    hashes(&mut h, r, files);
    software(&mut h, r);
    let mut all = anomalies.to_vec();
    for x in r.core.entropy_refused.iter().flatten() {
        all.push(format!(
            "Aléa du HSM refusé et jamais utilisé (événement d'audit n° {}, engagement {}) : {}",
            x.audit_seq, x.entropy_commitment, x.reason
        ));
    }
    findings(&mut h, &all, checks);
    conclusion(&mut h);
    h
}

/// A table row: the label `k` (escaped) and the HTML value `v`.
fn row(h: &mut String, k: &str, v: &str) {
    // Writing to a String cannot fail.
    let _ = writeln!(h, "<tr><th>{}</th><td>{v}</td></tr>", esc(k));
}

/// `s` (escaped) as code: hashes, keys and ids the commissaire copies.
fn code<T: std::fmt::Display + ?Sized>(s: &T) -> String {
    format!("<code>{}</code>", esc(&s.to_string()))
}

/// The document head, the title and the ceremony, with any voided attempts.
fn head(h: &mut String, r: &ResultFile) {
    let c = &r.core;
    h.push_str("<!DOCTYPE html>\n<html lang=\"fr\">\n<head>\n<meta charset=\"utf-8\">\n");
    let _ = writeln!(
        h,
        "<title>Procès-verbal de tirage électronique, {} du {}</title>",
        esc(&c.operation),
        esc(&c.day)
    );
    h.push_str("<style>body{font-family:serif;max-width:50em;margin:2em auto;line-height:1.4}\
table{border-collapse:collapse;width:100%;margin:.5em 0 1.2em}th,td{border:1px solid #444;padding:.3em .5em;text-align:left;vertical-align:top}\
th{width:40%;font-weight:normal;background:#f2f2f2}code{font-family:monospace;word-break:break-all;font-size:.92em}\
.sig{display:flex;gap:2em;margin-top:2em}.sig div{flex:1;border-top:1px solid #000;padding-top:.3em;min-height:6em}\
@media print{body{margin:0}}</style>\n</head>\n<body>\n");
    let _ = writeln!(
        h,
        "<h1>Annexe au procès-verbal de tirage électronique</h1>\n<p>Opération <strong>{}</strong>, tirage du jour <strong>{}</strong> \
(tentative n°\u{a0}{}), réalisé le {} (UTC) par l'appareil de tirage <em>urne</em> en présence et sous le contrôle du commissaire de justice (D-9).</p>",
        esc(&c.operation),
        esc(&c.day),
        c.attempt,
        esc(&r.drawn_at)
    );
    if !c.voided_attempts.is_empty() {
        h.push_str("<p><strong>Tentatives annulées pour ce jour :</strong></p><ul>\n");
        for v in &c.voided_attempts {
            let _ = writeln!(
                h,
                "<li>tentative n°\u{a0}{} annulée (événement d'audit n°\u{a0}{}) : {}</li>",
                v.attempt,
                v.audit_seq,
                esc(&v.reason)
            );
        }
        h.push_str("</ul>\n");
    }
}

/// 1. The figures of the day (D-2 … D-6, D-13).
fn participations(h: &mut String, f: &Figures) {
    h.push_str("<h2>1. Participations</h2>\n<table>\n");
    row(
        h,
        "Période, tranche",
        &format!(
            "{}, {} par participation (D-2, D-3)",
            esc(&f.period),
            eur(f.tranche_cents)
        ),
    );
    row(h, "Mises enregistrées dans l'export", &f.plays.to_string());
    row(
        h,
        "Mises prises en compte (en ligne, D-3, D-5)",
        &f.counting_plays.to_string(),
    );
    row(
        h,
        "Mises en point de vente, non prises en compte (D-3)",
        &f.retail_plays.to_string(),
    );
    row(
        h,
        "Mises d'abonnement souscrit hors période, non prises en compte (D-5)",
        &f.subscription_plays_refused.to_string(),
    );
    row(
        h,
        "Comptes ayant des mises prises en compte",
        &f.accounts_with_counting_plays.to_string(),
    );
    row(
        h,
        "Comptes exclus ayant joué, par motif (D-6, D-13)",
        &format!(
            "clôturé : {} ; mineur : {} ; fraude : {}",
            f.excluded_accounts_with_plays.closed,
            f.excluded_accounts_with_plays.minor,
            f.excluded_accounts_with_plays.fraud
        ),
    );
    row(
        h,
        "Exclusions transmises, par motif",
        &format!(
            "clôturé : {} ; mineur : {} ; fraude : {}",
            f.exclusion_records.closed, f.exclusion_records.minor, f.exclusion_records.fraud
        ),
    );
    row(
        h,
        "Participants (comptes ayant au moins une participation)",
        &f.accounts_with_entries.to_string(),
    );
    row(
        h,
        "Participations au tirage (plafond de 3 par jour, D-4)",
        &format!("<strong>{}</strong>", f.entries),
    );
    h.push_str("</table>\n");
}

/// 2. The anonymised outcome (D-10, D-14, D-15).
fn outcome(h: &mut String, r: &ResultFile) {
    let c = &r.core;
    h.push_str("<h2>2. Résultat anonymisé</h2>\n<p>Chaque participation a la même chance ; les comptes sont désignés par un pseudonyme propre à ce jour (D-14, D-15).</p>\n<table>\n");
    row(
        h,
        &format!("Gagnant (lot de {}, D-10)", eur(c.prize_cents)),
        &code(&r.winner.pseudonym),
    );
    for p in &r.reserves {
        row(
            h,
            &format!("Suppléant n°\u{a0}{}", p.rank),
            &code(&p.pseudonym),
        );
    }
    h.push_str("</table>\n");
}

/// 3. The hashes the commissaire copies.
fn hashes(h: &mut String, r: &ResultFile, files: &PvFiles) {
    let c = &r.core;
    h.push_str("<h2>3. Empreintes à recopier</h2>\n<table>\n");
    row(h, "Export de production (SHA-256)", &code(&c.export.sha256));
    row(
        h,
        "Clé du producteur de l'export",
        &code(&c.export.producer_key_id),
    );
    row(
        h,
        "Règlement de l'opération (SHA-256)",
        &code(files.rules_sha256),
    );
    row(
        h,
        "Engagement (racine de Merkle des participations)",
        &code(&c.commitment.root),
    );
    if let (Some(ec), Some(f)) = (&c.entropy_commitment, &c.fixed) {
        row(
            h,
            &format!(
                "Engagement sur l'aléa du HSM, fixé avant la contribution (événement d'audit n°\u{a0}{})",
                f.entropy.seq
            ),
            &code(ec),
        );
    }
    let contribution_label = match &c.fixed {
        Some(f) => format!(
            "Contribution du commissaire de justice, saisie ensuite (événement d'audit n°\u{a0}{})",
            f.contribution.seq
        ),
        None => "Contribution du commissaire de justice".to_string(),
    };
    row(h, &contribution_label, &code(&c.contribution_text()));
    row(h, "Aléa du module matériel (HSM)", &code(&c.entropy));
    row(h, "Graine du tirage", &code(&c.seed));
    row(h, "result.json (SHA-256)", &code(files.result_sha256));
    row(h, "bundle.json (SHA-256)", &code(files.bundle_sha256));
    row(h, "Clé de signature des résultats", &code(&r.result_key_id));
    row(
        h,
        "Clé de signature du journal d'audit",
        &code(&r.audit_key_id),
    );
    row(
        h,
        "Point de contrôle du journal d'audit",
        &format!("<pre>{}</pre>", esc(&r.audit_checkpoint)),
    );
    h.push_str("</table>\n");
}

/// 4. The software identity.
fn software(h: &mut String, r: &ResultFile) {
    h.push_str("<h2>4. Logiciel</h2>\n<table>\n");
    row(
        h,
        "Version",
        &esc(&format!("{} {}", r.software.name, r.software.version)),
    );
    row(
        h,
        "Révision des sources",
        &code(&r.software.source_revision),
    );
    row(
        h,
        "Exécutable (SHA-256)",
        &code(&r.software.executable_sha256),
    );
    if let Some(p) = &r.pkcs11 {
        row(
            h,
            "Module PKCS#11 du HSM (SHA-256)",
            &format!("{} {}", esc(&p.module_path), code(&p.module_sha256)),
        );
        row(
            h,
            "Jeton (modèle, numéro de série)",
            &esc(&format!("{}, {}", p.token.model, p.token.serial)),
        );
    }
    h.push_str("</table>\n");
}

/// 5. Anomalies, and 6. the verifications performed.
fn findings(h: &mut String, anomalies: &[String], checks: &[String]) {
    h.push_str("<h2>5. Anomalies</h2>\n");
    if anomalies.is_empty() {
        h.push_str("<p>Aucune anomalie constatée par l'appareil.</p>\n");
    } else {
        h.push_str("<ul>\n");
        for a in anomalies {
            let _ = writeln!(h, "<li>{}</li>", esc(a));
        }
        h.push_str("</ul>\n");
    }
    h.push_str("<h2>6. Vérifications effectuées</h2>\n<ul>\n");
    for v in checks {
        let _ = writeln!(h, "<li>{}</li>", esc(v));
    }
    h.push_str("</ul>\n");
}

/// 7. The integrity conclusion, and the signature blocks.
fn conclusion(h: &mut String) {
    h.push_str("<h2>7. Conclusion sur l'intégrité</h2>\n<p>Les participations ont été figées et leur empreinte affichée avant toute demande d'aléa ; \
la contribution du commissaire de justice a été recueillie après l'affichage de l'engagement ; l'aléa du module matériel a été demandé une seule fois \
et inscrit au journal d'audit avant tout calcul. Toute personne peut recalculer ce tirage à partir de bundle.json (commande <code>urne verify</code> \
ou vérificateur indépendant) et vérifier chaque signature avec <code>openssl pkeyutl -verify -rawin</code>.</p>\n");
    h.push_str("<p>Observations du commissaire de justice :</p>\n<div style=\"border:1px solid #000;min-height:6em\"></div>\n");
    h.push_str("<div class=\"sig\"><div>Le commissaire de justice<br>Nom, date, signature</div><div>L'opérateur<br>Nom, date, signature</div><div>Témoin<br>Nom, date, signature</div></div>\n");
    h.push_str("</body>\n</html>\n");
}

#[cfg(test)]
mod tests {
    #[test]
    fn amounts_are_written_the_french_way() {
        assert_eq!(super::eur(500_000), "5\u{202f}000\u{a0}€");
        assert_eq!(super::eur(1050), "10,50\u{a0}€");
        assert_eq!(super::eur(99_900), "999\u{a0}€");
        assert_eq!(super::eur(123_456_789), "1\u{202f}234\u{202f}567,89\u{a0}€");
        assert_eq!(super::esc("<a&b>"), "&lt;a&amp;b&gt;");
    }

    #[test]
    fn a_draw_is_late_only_after_its_days_of_grace() {
        let d = |s: &str| chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap();
        let when = |today: &str| super::DrawDay {
            today: d(today),
            draw_date: d("2018-12-10"),
            grace_days: 2,
        };
        let voided = [super::VoidedAttempt {
            attempt: 1,
            reason: "wrong export".into(),
            audit_seq: 7,
        }];
        for (today, late, early) in [
            ("2018-12-09", false, true),
            ("2018-12-10", false, false),
            ("2018-12-12", false, false),
            ("2018-12-13", true, false),
        ] {
            assert_eq!(
                (when(today).is_late(), when(today).is_early()),
                (late, early)
            );
            let a = super::anomalies(&when(today), &voided);
            assert_eq!(a.len(), 1 + usize::from(late || early), "{today}");
            assert!(a.last().unwrap().starts_with("Tentative n° 1 annulée"));
        }
        assert!(super::anomalies(&when("2018-12-13"), &[])[0].contains("délai de 2 jours"));
    }
}
