//! The rules' standing in the minutes' words (spec/appliance.md §7.4, §9.2 [M-298]): each draw and block
//! says under which rules it was made, an official regulation of the appliance (its SHA-256
//! pinned) or a "règlement non officiel", in those words in either language; the minutes'
//! header names every unofficial rules id at once.

use super::markup::{Html, esc};
use super::{Block, Minutes};
use urne_verify::crypto::Hash32;
use urne_verify::rules::official::{Standing, standing};

/// The words said of rules `id` whose file hashes to `sha` (HTML).
pub(super) fn words(h: &Html, id: &str, sha: &Hash32) -> String {
    let s = standing(id, sha);
    let id = esc(id);
    match s {
        Standing::Official => format!(
            "{} ({id}{})",
            h.t("règlement officiel", "official regulation"),
            h.t(
                " : empreinte SHA-256 fixée dans l'appareil",
                ": its SHA-256 pinned in the appliance"
            )
        ),
        Standing::Unofficial => format!(
            "<strong>règlement non officiel</strong>{} {id} {}",
            h.t(" :", " (unofficial rules):"),
            h.t(
                "n'est pas un règlement officiel de cet appareil (option --unofficial-rules)",
                "is not an official regulation of this appliance (option --unofficial-rules)"
            )
        ),
        Standing::Doctored(pinned) => format!(
            "<strong>règlement non officiel</strong>{} {id} {} {pinned}",
            h.t(" :", " (unofficial rules):"),
            h.t(
                "avec une autre empreinte que celle fixée dans l'appareil,",
                "with another SHA-256 than the one pinned in the appliance,"
            )
        ),
    }
}

/// The game of a block's canonical id (its first part).
fn game(b: &Block) -> &str {
    b.block.game()
}

/// The words said of the rules a block was generated under, when the minutes know them.
pub(super) fn of_block(h: &Html, b: &Block) -> Option<String> {
    b.rules_sha256.as_ref().map(|sha| words(h, game(b), sha))
}

/// The ids of the rules that are not an official regulation under which the minutes' draws and
/// blocks were made, each once, in order.
pub(super) fn unofficial_ids(m: &Minutes) -> Vec<String> {
    let draws = m.draws.iter().filter_map(|d| {
        let s = &d.seal.as_ref()?.value;
        Some((s.operation.clone(), s.rules_sha256))
    });
    let blocks = m
        .blocks
        .iter()
        .filter_map(|b| Some((game(b).to_string(), b.rules_sha256?)));
    let mut out: Vec<String> = vec![];
    for (id, sha) in draws.chain(blocks) {
        if standing(&id, &sha) != Standing::Official && !out.contains(&id) {
            out.push(id);
        }
    }
    out
}

/// The header's paragraph naming the unofficial rules, when there are any (HTML).
pub(super) fn header(h: &mut Html, m: &Minutes) {
    let ids = unofficial_ids(m);
    if ids.is_empty() {
        return;
    }
    let ids: Vec<String> = ids.iter().map(|i| esc(i)).collect();
    let line = format!(
        "<strong>{}</strong>{} {}",
        h.t("Règlement non officiel", "Règlement non officiel (unofficial rules)"),
        h.t(" :", ":"),
        h.t(
            "les opérations de ce procès-verbal faites sous les règles suivantes ne relèvent pas d'un règlement officiel de cet appareil : ",
            "the operations of these minutes made under the following rules are not under an official regulation of this appliance: "
        )
    ) + &ids.join(", ");
    h.p(&line);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minutes::Lang;
    use urne_verify::rules::official::OFFICIAL;

    #[test]
    fn the_minutes_say_reglement_non_officiel_in_words_in_both_languages() {
        for lang in [Lang::Fr, Lang::En] {
            let h = Html::new(lang, chrono_tz::Europe::Paris);
            let w = words(&h, "noel-de-la-chance-20l5", &Hash32([1; 32]));
            assert!(w.contains("règlement non officiel"), "{w}");
            assert!(w.contains("noel-de-la-chance-20l5"), "{w}");
            let w = words(&h, OFFICIAL[1].0, &Hash32([1; 32]));
            assert!(w.contains("règlement non officiel"), "doctored: {w}");
            let pinned = Hash32::from_hex(OFFICIAL[1].1).unwrap();
            let w = words(&h, OFFICIAL[1].0, &pinned);
            assert!(!w.contains("non officiel"), "{w}");
        }
    }
}
