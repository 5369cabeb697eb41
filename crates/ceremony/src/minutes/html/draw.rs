//! The draws of the minutes (spec/appliance.md §9.2): each draw's seal (its figures, spec/formats.md §4.7), the
//! randomness in the order it became fixed (spec/formats.md §3.3), the seed, the winner and the reserves by
//! pseudonym, the draw's date against D-8 in words, and the files published.

use crate::minutes::markup::{Html, code, esc, hash};
use crate::minutes::{Draw, Minutes, Timing, words};
use std::fmt::Write;
use urne_verify::draw::files::ReasonCounts;
use urne_verify::draw::records::SealRecord;

/// The draws.
pub(super) fn draws(h: &mut Html, m: &Minutes) {
    match m.draws.len() {
        0 => return,
        1 => h.h2("Tirage", "Draw"),
        _ => h.h2("Tirages", "Draws"),
    }
    for d in &m.draws {
        draw(h, d);
    }
}

/// One draw.
fn draw(h: &mut Html, d: &Draw) {
    let title = format!(
        "{} {} — {}\u{a0}{}",
        h.t("Jour du", "Day of"),
        words::day_of(d.day, h.lang),
        h.t("tentative n°", "attempt no."),
        d.attempt
    );
    h.h3(&title);
    for (attempt, reason, seq) in &d.earlier_voids {
        let line = format!(
            "{}\u{a0}{attempt} {} ({}) : {}",
            h.t("Tentative n°", "Attempt no."),
            h.t("annulée", "voided"),
            h.event(*seq),
            esc(reason)
        );
        h.p(&line);
    }
    h.table();
    if let Some(s) = &d.seal {
        period(h, &s.value, d.prize_cents);
        figures(h, &s.value);
        commitment(h, &s.value, s.at.seq);
    }
    randomness(h, d);
    picks(h, d);
    h.end_table();
    if let Some(t) = &d.timing {
        timing(h, t);
    }
    if d.result.is_none() {
        let text = h.t(
            "Ce tirage n'est pas terminé dans la période couverte par ce procès-verbal.",
            "This draw is not finished within the period these minutes cover.",
        );
        h.p(&format!("<strong>{}</strong>", esc(text)));
    }
    if !d.files.is_empty() {
        let label = match d.published {
            Some(_) => h.published(d.published),
            None => h
                .t(
                    "Fichiers (pv.html et manifest.json sont décrits par manifest.json) :",
                    "Files (pv.html and manifest.json are described by manifest.json):",
                )
                .to_string(),
        };
        h.files(&label, &d.files);
    }
}

/// The period, its tranche and its prize.
fn period(h: &mut Html, s: &SealRecord, prize: Option<u64>) {
    let f = &s.figures;
    let mut v = format!(
        "{} ; {} {}",
        esc(&f.period),
        h.eur(f.tranche_cents),
        h.t(
            "de mises par participation (D-3)",
            "of stakes per entry (D-3)"
        )
    );
    if let Some(p) = prize {
        let _ = write!(v, " ; {} {} (D-10)", h.t("lot de", "prize of"), h.eur(p));
    }
    h.rowt("Période", "Period", &v);
}

/// What each figure of the seal is, in both languages, in the order of the minutes.
const FIGURES: [(&str, &str); 5] = [
    ("Mises enregistrées dans l'export", "Plays in the export"),
    (
        "Mises prises en compte (en ligne, D-3, D-5)",
        "Counting plays (online, D-3, D-5)",
    ),
    (
        "Mises en point de vente, non prises en compte (D-3)",
        "Retail plays, not counted (D-3)",
    ),
    (
        "Mises d'abonnement souscrit hors période, non prises en compte (D-5)",
        "Plays of a subscription taken out outside the period, not counted (D-5)",
    ),
    (
        "Comptes ayant des mises prises en compte",
        "Accounts with counting plays",
    ),
];

/// The export, the rules, and the figures of the tally (spec/formats.md §4.7).
fn figures(h: &mut Html, s: &SealRecord) {
    let x = &s.export;
    let export = format!(
        "{}<br>{} {}, {} {}",
        hash(&x.sha256),
        h.n(x.size),
        h.t("octets", "bytes"),
        h.t(
            "signé par la clé du producteur",
            "signed by the producer key"
        ),
        code(&x.producer_key_id)
    );
    h.rowt(
        "Export de production (SHA-256)",
        "Production export (SHA-256)",
        &export,
    );
    let rules = hash(&s.rules_sha256);
    h.rowt(
        "Règlement de l'opération (SHA-256)",
        "Operation rules (SHA-256)",
        &rules,
    );
    let standing = crate::minutes::standing::words(h, &s.operation, &s.rules_sha256);
    h.rowt("Statut du règlement", "Standing of the rules", &standing);
    let fig = &s.figures;
    let values = [
        fig.plays,
        fig.counting_plays,
        fig.retail_plays,
        fig.subscription_plays_refused,
        fig.accounts_with_counting_plays,
    ];
    for ((fr, en), v) in FIGURES.iter().zip(values) {
        let v = h.n(v);
        h.rowt(fr, en, &v);
    }
    let v = reasons(h, &fig.excluded_accounts_with_plays);
    h.rowt(
        "Comptes exclus ayant joué, par motif (D-6, D-13)",
        "Excluded accounts that played, by reason (D-6, D-13)",
        &v,
    );
    let v = reasons(h, &fig.exclusion_records);
    h.rowt(
        "Exclusions transmises, par motif",
        "Exclusions sent, by reason",
        &v,
    );
}

/// Counts by exclusion reason.
fn reasons(h: &Html, c: &ReasonCounts) -> String {
    format!(
        "{} {} ; {} {} ; {} {}",
        h.t("clôturé :", "closed:"),
        h.n(c.closed),
        h.t("mineur :", "minor:"),
        h.n(c.minor),
        h.t("fraude :", "fraud:"),
        h.n(c.fraud)
    )
}

/// The commitment, with its accounts and entries (the figures' own, written once).
fn commitment(h: &mut Html, s: &SealRecord, seq: u64) {
    let label = format!(
        "{} ({})",
        h.t(
            "Engagement : racine de Merkle des participations, scellée",
            "Commitment: Merkle root of the entries, sealed"
        ),
        h.event(seq)
    );
    let c = &s.commitment;
    let v = format!(
        "{}<br>{} {}, {} {} (D-4)",
        hash(&c.root),
        h.n(c.leaves),
        h.t("comptes participants", "accounts taking part"),
        h.n(c.entries),
        h.t("participations", "entries")
    );
    h.row(&label, &v);
}

/// The randomness in the order it became fixed (spec/formats.md §3.3), and the seed.
fn randomness(h: &mut Html, d: &Draw) {
    if let Some(e) = &d.entropy_commitment {
        let label = (
            "Engagement sur l'aléa du HSM, fixé avant la contribution",
            "Commitment to the HSM's entropy, fixed before the contribution",
        );
        h.row_by_hand(label, e.at, &hash(&e.value));
    }
    if let Some(c) = &d.contribution {
        let label = (
            "Contribution du commissaire de justice, saisie ensuite",
            "Contribution of the commissaire de justice, typed next",
        );
        h.row_by_hand(label, c.at, &format!("«\u{a0}{}\u{a0}»", code(&c.value)));
    }
    if let Some(e) = &d.entropy {
        h.rowt(
            "Aléa du module matériel (HSM)",
            "The HSM's entropy",
            &hash(e),
        );
    }
    if let Some(r) = &d.result {
        h.row_at(("Graine du tirage", "Draw seed"), r.at, &hash(&r.seed));
    }
}

/// The winner and the reserves, by pseudonym (by leaf when the pseudonym was not given).
fn picks(h: &mut Html, d: &Draw) {
    let Some(r) = &d.result else {
        return;
    };
    for p in &r.picks {
        let by_hand = h.t("écrit à la main", "written by hand");
        let label = match (p.rank, d.prize_cents) {
            (0, Some(c)) => format!(
                "{} ({} {}, D-10) — {by_hand}",
                h.t("Gagnant", "Winner"),
                h.t("lot de", "prize of"),
                h.eur(c)
            ),
            (0, None) => format!("{} — {by_hand}", h.t("Gagnant", "Winner")),
            (rank, _) => format!("{}\u{a0}{rank}", h.t("Suppléant n°", "Reserve no.")),
        };
        let who = match &p.pseudonym {
            Some(ps) => hash(ps),
            None => format!("{}\u{a0}{}", h.t("feuille n°", "leaf no."), h.n(p.leaf)),
        };
        h.row(&label, &who);
    }
}

/// The draw's date against its draw date (D-8), in words; nothing on the draw date itself.
fn timing(h: &mut Html, t: &Timing) {
    let text = if t.is_late() {
        late(h, t)
    } else if t.is_early() {
        format!(
            "{} {}, {} {} {}{}.",
            h.t(
                "Tirage anticipé (D-8) : ce tirage a eu lieu le",
                "Early draw (D-8): this draw took place on"
            ),
            words::date(t.drawn_on, h.lang),
            h.t("avant la date du", "before the date of"),
            words::date(t.draw_date, h.lang),
            h.t(
                "que l'article D-8 du règlement fixe pour le tirage des jours",
                "that clause D-8 of the rules sets for the draw of the days"
            ),
            of_period(h, t),
        )
    } else if t.is_postponed() {
        let within = t.grace_days.map_or_else(String::new, |g| {
            let allowed = h.t("jours que prévoit l'article D-8", "days clause D-8 allows");
            format!(
                ", {} {} {allowed}",
                h.t("dans le délai de", "within the"),
                h.n(u64::from(g))
            )
        });
        format!(
            "{} {}, {} {}{}{within}.",
            h.t(
                "Tirage reporté (D-8) : ce tirage a eu lieu le",
                "Postponed draw (D-8): this draw took place on"
            ),
            words::date(t.drawn_on, h.lang),
            h.t("après la date prévue du", "after the planned date of"),
            words::date(t.draw_date, h.lang),
            of_period(h, t),
        )
    } else {
        return;
    };
    h.p(&format!("<strong>{}</strong>", esc(&text)));
}

/// ` de la période P1`, when the period is known.
fn of_period(h: &Html, t: &Timing) -> String {
    t.period.as_ref().map_or_else(String::new, |p| {
        format!(" {} {p}", h.t("de la période", "of period"))
    })
}

/// A late draw, explained: when it took place, what D-8 sets, what the appliance recorded.
fn late(h: &Html, t: &Timing) -> String {
    let within = t.grace_days.map_or_else(String::new, |g| {
        let limit = t.draw_date + chrono::Days::new(u64::from(g));
        format!(
            " {} {} {} {}",
            h.t(
                "et, si cette date ne peut être tenue pour des raisons techniques, au plus tard",
                "and, if that date cannot be kept for technical reasons, at the latest"
            ),
            h.n(u64::from(g)),
            h.t("jours après, soit le", "days later, that is on"),
            words::date(limit, h.lang)
        )
    });
    let recorded = t.late_event.map_or_else(String::new, |s| {
        format!(
            " {} ({}).",
            h.t(
                "L'appareil l'a inscrit au journal d'audit",
                "The appliance recorded it in the audit trail"
            ),
            h.event(s)
        )
    });
    format!(
        "{} {}. {}{} {} {}{within}. {}{recorded} {}",
        h.t("Tirage tardif (D-8) : ce tirage a eu lieu le", "Late draw (D-8): this draw took place on"),
        words::date(t.drawn_on, h.lang),
        h.t("L'article D-8 du règlement fixe le tirage des jours", "Clause D-8 of the rules sets the draw of the days"),
        of_period(h, t),
        h.t("au", "on"),
        words::date(t.draw_date, h.lang),
        h.t("Le tirage est donc tardif au sens de D-8.", "The draw is therefore late under D-8."),
        h.t(
            "Le calcul du tirage n'en est pas affecté ; il appartient au commissaire de justice d'en constater la cause.",
            "The computation of the draw is not affected; the commissaire de justice states its cause."
        ),
    )
}
