//! The blocks of the minutes (spec/appliance.md §9.2): each block generated (its identity, commitment,
//! prize counts and files), each reveal (the sales' close, the entropy, the seed), and each
//! void of a day or a block with its stage and reason.

use crate::minutes::markup::{FILL, Html, code, esc, hash};
use crate::minutes::{Block, Minutes, words};
use urne_verify::block::BlockId;
use urne_verify::block::files::TierCount;
use urne_verify::values::Attempt;

/// The blocks generated.
pub(super) fn blocks(h: &mut Html, m: &Minutes) {
    if m.blocks.is_empty() {
        return;
    }
    h.h2("Blocs générés", "Blocks generated");
    let mut shown: Vec<u64> = vec![];
    for b in &m.blocks {
        block(h, b, &mut shown);
    }
}

/// `Bloc ID — tentative n° N`.
fn heading(h: &mut Html, block: &BlockId, attempt: Attempt) {
    let title = format!(
        "{} {block} — {}\u{a0}{attempt}",
        h.t("Bloc", "Block"),
        h.t("tentative n°", "attempt no.")
    );
    h.h3(&title);
}

/// One block generated; a contribution shared by the blocks of one generation is written once.
fn block(h: &mut Html, b: &Block, shown: &mut Vec<u64>) {
    heading(h, &b.block, b.attempt);
    h.table();
    if let Some(r) = &b.rules_sha256 {
        h.rowt(
            "Règlement du jeu (SHA-256)",
            "Game rules (SHA-256)",
            &hash(r),
        );
    }
    if let Some(words) = crate::minutes::standing::of_block(h, b) {
        h.rowt("Statut du règlement", "Standing of the rules", &words);
    }
    if let Some(e) = &b.entropy_commitment {
        let label = (
            "Engagement sur l'aléa du HSM",
            "Commitment to the HSM's entropy",
        );
        h.row_by_hand(label, e.at, &hash(&e.value));
    }
    if let Some(c) = &b.contribution {
        let label = (
            "Contribution du commissaire de justice",
            "Contribution of the commissaire de justice",
        );
        let v = if shown.contains(&c.at.seq) {
            esc(h.t("la même que ci-dessus", "the same as above"))
        } else {
            shown.push(c.at.seq);
            format!("«\u{a0}{}\u{a0}»", code(&c.value))
        };
        h.row_by_hand(label, c.at, &v);
    }
    commitment(h, b);
    if let Some(counts) = &b.counts {
        let v = counts_text(h, counts);
        h.rowt("Lots du bloc (G-3)", "Prizes of the block (G-3)", &v);
    }
    h.end_table();
    if !b.files.is_empty() {
        let label = h.published(b.published);
        h.files(&label, &b.files);
    }
}

/// What the generated block commits to.
fn commitment(h: &mut Html, b: &Block) {
    let Some(g) = &b.generated else {
        let v = esc(h.t(
            "génération non terminée dans la période couverte",
            "generation not finished within the period covered",
        ));
        h.rowt("État", "State", &v);
        return;
    };
    let label = (
        "Racine des résultats des tickets (outcomes_root)",
        "Root of the tickets' outcomes (outcomes_root)",
    );
    h.row_at(label, g.at, &hash(&g.value.outcomes_root));
    h.rowt(
        "Engagement sur la graine (seed_commitment)",
        "Seed commitment (seed_commitment)",
        &hash(&g.value.seed_commitment),
    );
    h.rowt(
        "Fichier de production tickets.csv, secret (SHA-256)",
        "Production file tickets.csv, secret (SHA-256)",
        &hash(&g.value.tickets_sha256),
    );
}

/// The counts of the tiers, one per line.
fn counts_text(h: &Html, counts: &[TierCount]) -> String {
    let lines: Vec<String> = counts
        .iter()
        .map(|c| match c.tier {
            0 => format!(
                "{} {}",
                h.n(u64::from(c.units)),
                h.t("tickets perdants", "losing tickets")
            ),
            t => format!(
                "{} × {} ({t} {})",
                h.n(u64::from(c.units)),
                h.eur(c.prize_cents),
                h.t("symboles trouvés", "symbols matched")
            ),
        })
        .collect();
    lines.join("<br>")
}

/// The reveals.
pub(super) fn reveals(h: &mut Html, m: &Minutes) {
    if m.reveals.is_empty() {
        return;
    }
    h.h2("Révélation de blocs", "Blocks revealed");
    for r in &m.reveals {
        heading(h, &r.block, r.attempt);
        h.table();
        let closed = match &r.sales_closed_at {
            Some(t) => esc(&words::instant(t, h.tz, h.lang)),
            // Hook: `block.revealed` records `sales_closed_at` (read when present); a trail
            // without it and without a plan's detail leaves a line to fill.
            None => format!(
                "{} {FILL}",
                esc(h.t(
                    "non enregistrée, à compléter :",
                    "not recorded, to fill in:"
                ))
            ),
        };
        h.rowt(
            "Clôture des ventes du bloc",
            "Close of the block's sales",
            &closed,
        );
        let v = esc(h.t(
            "aléa et graine rendus publics",
            "entropy and seed made public",
        ));
        h.row_at(("Révélé", "Revealed"), r.at, &v);
        h.rowt(
            "Aléa du module matériel (HSM)",
            "The HSM's entropy",
            &hash(&r.entropy),
        );
        h.rowt("Graine du bloc", "Block seed", &hash(&r.seed));
        h.end_table();
    }
}

/// The voids.
pub(super) fn voids(h: &mut Html, m: &Minutes) {
    if m.voids.is_empty() {
        return;
    }
    h.h2("Annulations", "Voids");
    for v in &m.voids {
        let what = if v.block {
            format!("{} {}", h.t("Bloc", "Block"), code(&v.subject))
        } else {
            format!(
                "{} {}",
                h.t("Jour du", "Day of"),
                esc(&words::day(&v.subject, h.lang))
            )
        };
        let stage = v.stage.as_ref().map_or_else(String::new, |s| {
            let words = esc(&words::stage(s, h.lang));
            match h.lang {
                crate::minutes::Lang::Fr => format!(", au stade «\u{a0}{words}\u{a0}»"),
                crate::minutes::Lang::En => format!(", at stage \u{201c}{words}\u{201d}"),
            }
        });
        let line = format!(
            "{what}, {}\u{a0}{} {}{stage} ({}, {}). {} {}",
            h.t("tentative n°", "attempt no."),
            v.attempt,
            h.t("annulée", "voided"),
            h.event(v.at.seq),
            esc(&h.when(v.at.at)),
            h.t("Motif :", "Reason:"),
            esc(&v.reason)
        );
        h.p(&line);
    }
}
