//! The minutes as one self-contained HTML file (spec/appliance.md §9.2): no external resource, printed on
//! A4 with its pages numbered, French by default. The header (the operation, the place and the
//! times, those present, the plan), the work (`draw`, `blocks`, `keys`), the anomalies and
//! incidents, the software and the HSM, then the integrity conclusion kept on one page with
//! "Fait à … le …" and the signatures.

mod blocks;
mod draw;
mod incidents;
mod keys;
mod outside;
mod software;

use super::markup::{FILL, Html, STYLE, code, esc, hash, page_style};
use super::{Lang, Minutes, MinutesKind, StepDone, words};
use std::fmt::Write;

/// The players' page shipped with this software, whose SHA-256 the minutes print.
#[cfg(test)]
pub(crate) fn player_page() -> &'static [u8] {
    software::PLAYER_PAGE
}

/// The minutes' HTML text, in `lang`.
pub fn render(m: &Minutes, lang: Lang) -> String {
    let mut h = Html::new(lang, m.time_zone);
    head(&mut h, m);
    header(&mut h, m);
    outside::outside(&mut h, m);
    draw::draws(&mut h, m);
    blocks::blocks(&mut h, m);
    blocks::reveals(&mut h, m);
    blocks::voids(&mut h, m);
    keys::keys(&mut h, m);
    incidents::incidents(&mut h, m);
    software::software(&mut h, &m.software);
    conclusion(&mut h, m);
    h.raw("</body>\n</html>\n");
    h.s
}

/// The document's title.
fn title(h: &Html, m: &Minutes) -> String {
    let n = m.number.unwrap_or(0);
    match m.kind {
        MinutesKind::Sitting => format!(
            "{}\u{a0}{n}",
            h.t("Procès-verbal de la séance n°", "Minutes of sitting no.")
        ),
        MinutesKind::KeyCeremony => format!(
            "{} ({}\u{a0}{n})",
            h.t(
                "Procès-verbal de la cérémonie des clés",
                "Minutes of the key ceremony"
            ),
            h.t("séance n°", "sitting no.")
        ),
        MinutesKind::LoneDraw => h
            .t(
                "Procès-verbal de tirage électronique",
                "Minutes of an electronic draw",
            )
            .to_string(),
    }
}

/// Whether the minutes are a rehearsal's (spec/appliance.md §6.10): their checkpoint, which the
/// audit key signs, bears a rehearsal token's origin (spec/formats.md §6.10).
pub fn is_rehearsal(m: &Minutes) -> bool {
    m.integrity.checkpoint.as_ref().is_some_and(|c| {
        c.text
            .starts_with(urne_verify::audit::chain::Origin::Rehearsal.prefix())
    })
}

/// The mark of a rehearsal, in `lang`: on every screen heading and every printed page.
pub fn rehearsal_mark(lang: Lang) -> &'static str {
    lang.pick("RÉPÉTITION — SANS VALEUR", "REHEARSAL — NO VALUE")
}

/// The style a rehearsal's minutes add: the mark in the top margin of every page, and across
/// every page as a watermark (a fixed element repeats on each printed page).
fn rehearsal_style(mark: &str) -> String {
    format!(
        "@page{{@top-center{{content:\"{mark}\";font:bold 12pt sans-serif}}}}\
.rehearsal{{border:3px solid #000;text-align:center;font:bold 1.3em sans-serif;padding:.3em;margin:.4em 0 .8em}}\
.watermark{{position:fixed;top:40%;left:0;right:0;text-align:center;font:bold 40pt sans-serif;color:rgba(0,0,0,.13);transform:rotate(-30deg);z-index:-1;pointer-events:none}}"
    )
}

/// `<head>` with the style sheet, and the title; a rehearsal's marks (spec/appliance.md §6.10):
/// in the title, in the top margin and across every page, and above the heading.
fn head(h: &mut Html, m: &Minutes) {
    let t = esc(&title(h, m));
    let ops = if m.titles.is_empty() {
        String::new()
    } else {
        format!(" — {}", esc(&m.titles.join(" ; ")))
    };
    let page = page_style(&title(h, m), h.t("Paraphes :", "Initials:"));
    let (mark, style, banner) = if is_rehearsal(m) {
        let mark = rehearsal_mark(h.lang);
        (
            format!("{mark} — "),
            rehearsal_style(mark),
            format!(
                "<div class=\"watermark\" aria-hidden=\"true\">{mark}</div>\n<p class=\"rehearsal\">{mark}</p>\n"
            ),
        )
    } else {
        (String::new(), String::new(), String::new())
    };
    let _ = write!(
        h.s,
        "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<title>{mark}{t}{ops}</title>\n<style>{page}{STYLE}{style}</style>\n</head>\n<body>\n{banner}<h1>{t}</h1>\n",
        h.lang.code(),
    );
}

/// The operation, the place and times, those present, the plan.
fn header(h: &mut Html, m: &Minutes) {
    if !m.titles.is_empty() {
        let label = if m.titles.len() > 1 {
            h.t("Opérations", "Operations")
        } else {
            h.t("Opération", "Operation")
        };
        let titles: Vec<String> = m
            .titles
            .iter()
            .map(|t| format!("<strong>{}</strong>", esc(t)))
            .collect();
        h.p(&format!("{label}\u{a0}: {}", titles.join(" ; ")));
    }
    super::standing::header(h, m);
    let line = when_where(h, m);
    h.p(&line);
    persons(h, m);
    if !m.plan.is_empty() {
        let intro = h.t(
            "Travaux prévus à l'ouverture de la séance :",
            "Work planned when the sitting opened:",
        );
        h.p(&esc(intro));
        let items: Vec<String> = m
            .plan
            .iter()
            .zip(
                m.plan_done
                    .iter()
                    .chain(std::iter::repeat(&StepDone::InSitting)),
            )
            .map(|(s, done)| incidents::step(h, s) + &incidents::step_done(h, *done))
            .collect();
        h.raw("<ol>\n");
        for i in items {
            let _ = writeln!(h.s, "<li>{i}</li>");
        }
        h.raw("</ol>\n");
    }
    let ticks = h.t(
        "Le commissaire de justice coche la case de chaque valeur après l'avoir comparée à l'écran ; celles dont le libellé dit « écrit à la main », il les compare aussi à ce qu'il a écrit à la main pendant la séance, au moment où l'écran les montrait.",
        "The commissaire de justice ticks the box of each value once it is checked against the screen; those whose label says \"written by hand\" are also checked against what they wrote by hand during the sitting, when the screen showed them.",
    );
    h.p(&esc(ticks));
}

/// The time zone's name in words.
fn zone(h: &Html, m: &Minutes) -> String {
    if m.time_zone == chrono_tz::Europe::Paris {
        h.t("heure de Paris", "Paris time").to_string()
    } else {
        format!("{} {}", h.t("heure de", "time in"), m.time_zone)
    }
}

/// Where and when, in words.
fn when_where(h: &Html, m: &Minutes) -> String {
    let zone = zone(h, m);
    if m.kind == MinutesKind::LoneDraw {
        let result = m.draws.first().and_then(|d| d.result.as_ref());
        let at = result.map_or(m.last.at, |r| r.at.at);
        return format!(
            "{} {} ({zone}) {}",
            h.t("Tirage réalisé", "Draw made"),
            esc(&h.when(at)),
            esc(h.t(
                "par l'appareil de tirage urne, en présence et sous le contrôle du commissaire de justice (D-9), au lieu indiqué ci-dessous.",
                "by the urne draw appliance, in the presence and under the control of the commissaire de justice (D-9), at the place stated below."
            ))
        );
    }
    let mut s = format!(
        "{} <strong>{}</strong>, {} {}",
        h.t("Séance tenue à", "Sitting held at"),
        esc(&m.place),
        h.t("ouverte", "opened"),
        esc(&h.when(m.opened.at))
    );
    if let Some(c) = m.closed {
        let _ = write!(
            s,
            " {} {}",
            h.t("et close", "and closed"),
            esc(&h.when(c.at))
        );
    } else {
        let _ = write!(
            s,
            " ; {} {}",
            h.t(
                "non close au moment où ce procès-verbal est établi ; dernier événement",
                "not closed when these minutes were made; last event"
            ),
            esc(&h.when(m.last.at)),
        );
    }
    let _ = write!(
        s,
        " ({zone}{} {}\u{a0}{} {} {}).",
        h.t(" ; événements d'audit", "; audit events"),
        h.t("n°", "no."),
        h.n(m.opened.seq),
        h.t("à", "to"),
        h.n(m.last.seq)
    );
    s
}

/// Those present: the commissaire, then the others with their roles; lines to fill for a lone
/// draw.
fn persons(h: &mut Html, m: &Minutes) {
    h.table();
    if let Some(c) = &m.commissaire {
        let v = format!("{}<br>{}", esc(&c.name), esc(&c.office));
        h.rowt("Commissaire de justice", "Commissaire de justice", &v);
        for p in &m.present {
            h.row(&p.role, &esc(&p.name));
        }
    } else {
        h.rowt("Lieu", "Place", FILL);
        h.rowt(
            "Commissaire de justice (nom, étude)",
            "Commissaire de justice (name, office)",
            FILL,
        );
        h.rowt("Opérateur", "Operator", FILL);
        h.rowt(
            "Autres personnes présentes (nom, qualité)",
            "Others present (name, role)",
            FILL,
        );
    }
    h.end_table();
}

/// What the appliance verified before signing a draw's outputs.
const CHECKS: [(&str, &str); 5] = [
    (
        "la signature Ed25519 de l'export de production, avec la clé du producteur, avant de le lire ;",
        "the Ed25519 signature of the production export, with the producer's key, before reading it;",
    ),
    (
        "chaque ligne de l'export selon le format entry-export-v1, les règles D-3 à D-6 et D-13 appliquées ;",
        "every line of the export against the entry-export-v1 format, rules D-3 to D-6 and D-13 applied;",
    ),
    (
        "l'engagement, recalculé à partir de la liste scellée avant tout aléa ;",
        "the commitment, recomputed from the sealed list before any entropy;",
    ),
    (
        "l'aléa du HSM (jamais vu), inscrit au journal avec son engagement, signé, avant la saisie de la contribution ;",
        "the HSM's entropy (never seen before), recorded in the trail with its commitment, signed, before the contribution was typed;",
    ),
    (
        "le tirage, recalculé par le vérificateur intégré à partir de bundle.json avant toute signature.",
        "the draw, recomputed by the built-in verifier from bundle.json before anything was signed.",
    ),
];

/// The integrity conclusion, then the checkpoint, "Fait à … le …" and the signatures, kept
/// together.
fn conclusion(h: &mut Html, m: &Minutes) {
    h.h2("Conclusion sur l'intégrité", "Integrity conclusion");
    let text = h.t(
        "Chaque événement est inscrit au journal d'audit de l'appareil, chaîné au précédent par son empreinte et couvert par un point de contrôle signé par la clé d'audit du HSM. Le point de contrôle ci-dessous, recopié par le commissaire de justice, permet à un tiers de constater toute réécriture ultérieure du journal (urne audit verify, vérificateur indépendant).",
        "Every event is in the appliance's audit trail, chained to the one before by its hash and covered by a checkpoint signed by the HSM's audit key. The checkpoint below, copied by the commissaire de justice, lets a third party detect any later rewriting of the trail (urne audit verify, independent verifier).",
    );
    h.p(&esc(text));
    if m.draws.iter().any(|d| d.result.is_some()) {
        let intro = h.t(
            "Pour chaque tirage, l'appareil a vérifié :",
            "For each draw, the appliance verified:",
        );
        h.p(&esc(intro));
        let items: Vec<String> = CHECKS.iter().map(|(fr, en)| esc(h.t(fr, en))).collect();
        h.list(&items);
    }
    // From the checkpoint on, one block: the signatures never stand alone on a page.
    h.raw("<div class=\"end\">\n");
    integrity(h, m);
    let obs = h.t(
        "Observations du commissaire de justice :",
        "Observations of the commissaire de justice:",
    );
    h.p(&esc(obs));
    h.raw("<div class=\"obs\"></div>\n");
    own_sha256(h, m);
    done_at(h, m);
    signatures(h, m);
    h.raw("</div>\n");
}

/// The trail's identity and the checkpoint.
fn integrity(h: &mut Html, m: &Minutes) {
    let i = &m.integrity;
    h.table();
    if let Some(t) = &i.trail {
        h.rowt(
            "Identité du journal d'audit",
            "Audit trail identity",
            &hash(t),
        );
    }
    if let Some(k) = &i.audit_key_id {
        h.rowt("Clé d'audit", "Audit key", &code(k));
    }
    if let Some(c) = &i.checkpoint {
        let size = h.n(c.size);
        h.rowt(
            "Point de contrôle : nombre d'événements couverts",
            "Checkpoint: number of events covered",
            &size,
        );
        h.rowt(
            "Point de contrôle : racine",
            "Checkpoint: root",
            &hash(&c.root),
        );
        let note = format!("<pre class=\"note\">{}</pre>", esc(&c.text));
        h.rowt(
            "Point de contrôle : texte signé",
            "Checkpoint: signed text",
            &note,
        );
    } else {
        h.rowt("Point de contrôle", "Checkpoint", FILL);
    }
    h.end_table();
}

/// A box in which the commissaire writes the SHA-256 of the file these minutes are (which urne
/// prints when it writes them: the paper is matched with the signed file, docs/ceremony.md):
/// 16 groups of four hex digits, in two lines.
fn own_sha256(h: &mut Html, m: &Minutes) {
    let file = if m.kind == MinutesKind::LoneDraw {
        "pv.html"
    } else {
        "minutes.html"
    };
    let label = format!(
        "{} {} {}",
        h.t(
            "Empreinte SHA-256 du présent procès-verbal (",
            "SHA-256 of these minutes ("
        ),
        code(file),
        h.t(
            "), recopiée de l'écran par le commissaire de justice :",
            "), copied from the screen by the commissaire de justice:"
        )
    );
    h.p(&label.replace("( ", "(").replace(" )", ")"));
    let line = "<span></span>".repeat(8);
    let _ = writeln!(h.s, "<div class=\"sha\">{line}<br>{line}</div>");
}

/// "Fait à {town}, le {date}" (the place, for a sitting recorded before the town was asked), or
/// lines to fill.
fn done_at(h: &mut Html, m: &Minutes) {
    let town = if m.town.is_empty() { &m.place } else { &m.town };
    let line = if town.is_empty() {
        format!(
            "{} {FILL}, {} {FILL}",
            h.t("Fait à", "Done at"),
            h.t("le", "on")
        )
    } else {
        let end = m.closed.unwrap_or(m.last).at;
        format!(
            "{} {}, {} {}.",
            h.t("Fait à", "Done at"),
            esc(town),
            h.t("le", "on"),
            esc(&words::date_of(end, h.tz, h.lang))
        )
    };
    h.p(&line);
}

/// The signature boxes: the commissaire, then each person present.
fn signatures(h: &mut Html, m: &Minutes) {
    let commissaire = h.t("Le commissaire de justice", "The commissaire de justice");
    let mut boxes = vec![];
    if let Some(c) = &m.commissaire {
        boxes.push(format!("{commissaire}<br>{}", esc(&c.name)));
        for p in &m.present {
            boxes.push(format!("{}<br>{}", esc(&p.role), esc(&p.name)));
        }
    } else {
        let name = h.t("nom", "name");
        boxes.push(format!("{commissaire} ({name})"));
        boxes.push(format!("{} ({name})", h.t("L'opérateur", "The operator")));
    }
    let sign = h.t("signature", "signature");
    h.raw("<div class=\"sig\">\n");
    for b in boxes {
        let _ = writeln!(h.s, "<div>{b}<br><small>{sign}</small></div>");
    }
    h.raw("</div>\n");
}
