//! The acts done outside any sitting since the previous one (spec/appliance.md §9.2, M-270): a section of
//! their own, each with its time, its event, what it is and its output when published.

use crate::minutes::OutsideAct;
use crate::minutes::markup::{Html, code, esc, hash};
use crate::minutes::outside::what;
use crate::minutes::{Minutes, MinutesKind};
use std::fmt::Write;

/// The section, for an ordinary sitting that has such acts.
pub(super) fn outside(h: &mut Html, m: &Minutes) {
    if m.kind != MinutesKind::Sitting || m.outside.is_empty() {
        return;
    }
    h.h2("Actes faits hors séance", "Acts done outside any sitting");
    h.p(&esc(h.t(
        "Actes inscrits au journal d'audit depuis la clôture de la séance précédente et avant l'ouverture de celle-ci, hors de la présence du commissaire de justice ; présentés à l'ouverture de la séance :",
        "Acts recorded in the audit trail since the previous sitting closed and before this one opened, outside the presence of the commissaire de justice; shown when the sitting opened:",
    )));
    let items: Vec<String> = m.outside.iter().map(|a| item(h, a)).collect();
    h.list(&items);
}

/// One act in words.
fn item(h: &Html, a: &OutsideAct) -> String {
    let mut s = format!(
        "{} ({}) — {}",
        esc(&h.when(a.at.at)),
        h.event(a.at.seq),
        esc(&what(&a.act, h.lang))
    );
    if let Some(o) = &a.output {
        let _ = write!(
            s,
            " ; {} {} ({}), SHA-256 {}",
            h.t("publié dans", "published in"),
            code(&format!("{}/{}", o.folder.trim_end_matches('/'), o.file)),
            h.event(o.seq),
            hash(&o.sha256)
        );
    }
    s
}
