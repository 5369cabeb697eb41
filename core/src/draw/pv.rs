//! The minutes annex `pv.html` (French, printable): what a *procès-verbal* of an electronic draw
//! must state (arrêté du 5 décembre 2022, art. 11): entries in total, exclusions by reason,
//! participants, the anonymised outcome, anomalies, verifications performed and the integrity
//! conclusion; every hash the commissaire copies; the software identity; signature blocks.
//! Pure: built from the result and the list of anomalies and verifications.

use super::files::ResultFile;

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn eur(cents: u64) -> String {
    let euros = cents / 100;
    let mut s = euros.to_string();
    let mut i = s.len() as isize - 3;
    while i > 0 {
        s.insert(i as usize, '\u{202f}');
        i -= 3;
    }
    if cents.is_multiple_of(100) {
        format!("{s}\u{a0}€")
    } else {
        format!("{s},{:02}\u{a0}€", cents % 100)
    }
}

/// Hashes of the files the minutes refer to (the minutes cannot contain their own hash).
pub struct PvFiles<'a> {
    pub result_sha256: &'a str,
    pub bundle_sha256: &'a str,
    pub rules_sha256: &'a str,
}

/// Renders the minutes annex.
pub fn render(r: &ResultFile, files: &PvFiles, anomalies: &[String], checks: &[String]) -> String {
    let c = &r.core;
    let f = &c.figures;
    let mut h = String::new();
    let row = |h: &mut String, k: &str, v: &str| {
        h.push_str(&format!("<tr><th>{}</th><td>{}</td></tr>\n", esc(k), v));
    };
    let code = |s: &str| format!("<code>{}</code>", esc(s));
    h.push_str("<!DOCTYPE html>\n<html lang=\"fr\">\n<head>\n<meta charset=\"utf-8\">\n");
    h.push_str(&format!(
        "<title>Procès-verbal de tirage électronique, {} du {}</title>\n",
        esc(&c.operation),
        esc(&c.day)
    ));
    h.push_str("<style>body{font-family:serif;max-width:50em;margin:2em auto;line-height:1.4}\
table{border-collapse:collapse;width:100%;margin:.5em 0 1.2em}th,td{border:1px solid #444;padding:.3em .5em;text-align:left;vertical-align:top}\
th{width:40%;font-weight:normal;background:#f2f2f2}code{font-family:monospace;word-break:break-all;font-size:.92em}\
.sig{display:flex;gap:2em;margin-top:2em}.sig div{flex:1;border-top:1px solid #000;padding-top:.3em;min-height:6em}\
@media print{body{margin:0}}</style>\n</head>\n<body>\n");
    h.push_str(&format!(
        "<h1>Annexe au procès-verbal de tirage électronique</h1>\n<p>Opération <strong>{}</strong>, tirage du jour <strong>{}</strong> \
(tentative n°\u{a0}{}), réalisé le {} (UTC) par l'appareil de tirage <em>urne</em> en présence et sous le contrôle du commissaire de justice (D-9).</p>\n",
        esc(&c.operation),
        esc(&c.day),
        c.attempt,
        esc(&r.drawn_at)
    ));
    if !c.voided_attempts.is_empty() {
        h.push_str("<p><strong>Tentatives annulées pour ce jour :</strong></p><ul>\n");
        for v in &c.voided_attempts {
            h.push_str(&format!(
                "<li>tentative n°\u{a0}{} annulée (événement d'audit n°\u{a0}{}) : {}</li>\n",
                v.attempt,
                v.audit_seq,
                esc(&v.reason)
            ));
        }
        h.push_str("</ul>\n");
    }
    h.push_str("<h2>1. Participations</h2>\n<table>\n");
    row(
        &mut h,
        "Période, tranche",
        &format!(
            "{}, {} par participation (D-2, D-3)",
            esc(&f.period),
            eur(f.tranche_cents)
        ),
    );
    row(
        &mut h,
        "Mises enregistrées dans l'export",
        &f.plays.to_string(),
    );
    row(
        &mut h,
        "Mises prises en compte (en ligne, D-3, D-5)",
        &f.counting_plays.to_string(),
    );
    row(
        &mut h,
        "Mises en point de vente, non prises en compte (D-3)",
        &f.retail_plays.to_string(),
    );
    row(
        &mut h,
        "Mises d'abonnement souscrit hors période, non prises en compte (D-5)",
        &f.subscription_plays_refused.to_string(),
    );
    row(
        &mut h,
        "Comptes ayant des mises prises en compte",
        &f.accounts_with_counting_plays.to_string(),
    );
    row(
        &mut h,
        "Comptes exclus ayant joué, par motif (D-6, D-13)",
        &format!(
            "clôturé : {} ; mineur : {} ; fraude : {}",
            f.excluded_accounts_with_plays.closed,
            f.excluded_accounts_with_plays.minor,
            f.excluded_accounts_with_plays.fraud
        ),
    );
    row(
        &mut h,
        "Exclusions transmises, par motif",
        &format!(
            "clôturé : {} ; mineur : {} ; fraude : {}",
            f.exclusion_records.closed, f.exclusion_records.minor, f.exclusion_records.fraud
        ),
    );
    row(
        &mut h,
        "Participants (comptes ayant au moins une participation)",
        &f.accounts_with_entries.to_string(),
    );
    row(
        &mut h,
        "Participations au tirage (plafond de 3 par jour, D-4)",
        &format!("<strong>{}</strong>", f.entries),
    );
    h.push_str("</table>\n");

    h.push_str("<h2>2. Résultat anonymisé</h2>\n<p>Chaque participation a la même chance ; les comptes sont désignés par un pseudonyme propre à ce jour (D-14, D-15).</p>\n<table>\n");
    row(
        &mut h,
        &format!("Gagnant (lot de {}, D-10)", eur(c.prize_cents)),
        &code(&r.winner.pseudonym),
    );
    for p in &r.reserves {
        row(
            &mut h,
            &format!("Suppléant n°\u{a0}{}", p.rank),
            &code(&p.pseudonym),
        );
    }
    h.push_str("</table>\n");

    h.push_str("<h2>3. Empreintes à recopier</h2>\n<table>\n");
    row(
        &mut h,
        "Export de production (SHA-256)",
        &code(&c.export.sha256),
    );
    row(
        &mut h,
        "Clé du producteur de l'export",
        &code(&c.export.producer_key_id),
    );
    row(
        &mut h,
        "Règlement de l'opération (SHA-256)",
        &code(files.rules_sha256),
    );
    row(
        &mut h,
        "Engagement (racine de Merkle des participations)",
        &code(&c.commitment.root),
    );
    row(
        &mut h,
        "Contribution du commissaire de justice",
        &code(&c.witness),
    );
    row(&mut h, "Aléa du module matériel (HSM)", &code(&c.entropy));
    row(&mut h, "Graine du tirage", &code(&c.seed));
    row(&mut h, "result.json (SHA-256)", &code(files.result_sha256));
    row(&mut h, "bundle.json (SHA-256)", &code(files.bundle_sha256));
    row(
        &mut h,
        "Clé de signature des résultats",
        &code(&r.result_key_id),
    );
    row(
        &mut h,
        "Clé de signature du journal d'audit",
        &code(&r.audit_key_id),
    );
    row(
        &mut h,
        "Point de contrôle du journal d'audit",
        &format!("<pre>{}</pre>", esc(&r.audit_checkpoint)),
    );
    h.push_str("</table>\n");

    h.push_str("<h2>4. Logiciel</h2>\n<table>\n");
    row(
        &mut h,
        "Version",
        &esc(&format!("{} {}", r.software.name, r.software.version)),
    );
    row(
        &mut h,
        "Révision des sources",
        &code(&r.software.source_revision),
    );
    row(
        &mut h,
        "Exécutable (SHA-256)",
        &code(&r.software.executable_sha256),
    );
    h.push_str("</table>\n");

    h.push_str("<h2>5. Anomalies</h2>\n");
    if anomalies.is_empty() {
        h.push_str("<p>Aucune anomalie constatée par l'appareil.</p>\n");
    } else {
        h.push_str("<ul>\n");
        for a in anomalies {
            h.push_str(&format!("<li>{}</li>\n", esc(a)));
        }
        h.push_str("</ul>\n");
    }
    h.push_str("<h2>6. Vérifications effectuées</h2>\n<ul>\n");
    for v in checks {
        h.push_str(&format!("<li>{}</li>\n", esc(v)));
    }
    h.push_str("</ul>\n");
    h.push_str("<h2>7. Conclusion sur l'intégrité</h2>\n<p>Les participations ont été figées et leur empreinte affichée avant toute demande d'aléa ; \
la contribution du commissaire de justice a été recueillie après l'affichage de l'engagement ; l'aléa du module matériel a été demandé une seule fois \
et inscrit au journal d'audit avant tout calcul. Toute personne peut recalculer ce tirage à partir de bundle.json (commande <code>urne verify</code> \
ou vérificateur indépendant) et vérifier chaque signature avec <code>openssl pkeyutl -verify -rawin</code>.</p>\n");
    h.push_str("<p>Observations du commissaire de justice :</p>\n<div style=\"border:1px solid #000;min-height:6em\"></div>\n");
    h.push_str("<div class=\"sig\"><div>Le commissaire de justice<br>Nom, date, signature</div><div>L'opérateur<br>Nom, date, signature</div><div>Témoin<br>Nom, date, signature</div></div>\n");
    h.push_str("</body>\n</html>\n");
    h
}

#[cfg(test)]
mod tests {
    #[test]
    fn amounts_are_written_the_french_way() {
        assert_eq!(super::eur(500000), "5\u{202f}000\u{a0}€");
        assert_eq!(super::eur(1050), "10,50\u{a0}€");
        assert_eq!(super::esc("<a&b>"), "&lt;a&amp;b&gt;");
    }
}
