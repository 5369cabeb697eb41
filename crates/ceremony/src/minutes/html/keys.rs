//! The key ceremony's keys (spec/appliance.md §9.2): the token, each key with the attributes that prove
//! where it was made, the sealing key (spec/appliance.md §6.9), and each export of the public keys.

use crate::minutes::markup::{Html, code, esc, hash};
use crate::minutes::{Fixed, Minutes};
use urne_verify::events::payloads::{KeyRecord, ProducerKeys, SealKeyRecord};

/// The keys.
pub(super) fn keys(h: &mut Html, m: &Minutes) {
    let Some(k) = &m.keys else {
        return;
    };
    h.h2("Clés", "Keys");
    if let Some(g) = &k.generated {
        generated(h, g);
    }
    pinned(h, k.pinned.as_ref());
    for x in &k.exported {
        let line = format!(
            "{} {} ({}, {}) :",
            esc(h.t("Clés publiques exportées dans", "Public keys exported into")),
            code(&x.value.out),
            h.event(x.at.seq),
            esc(&h.when(x.at.at))
        );
        h.p(&line);
        h.table();
        for key in [&x.value.keys.result, &x.value.keys.audit] {
            let bound = if key.hardware_bound {
                h.t("liée au matériel", "hardware-bound")
            } else {
                h.t("NON liée au matériel", "NOT hardware-bound")
            };
            let v = format!(
                "{} {} ; {bound}",
                h.t("identifiant", "id"),
                code(&key.key_id)
            );
            h.row(&key.file, &v);
        }
        h.end_table();
    }
}

/// Production's keys a seal trusts (spec/formats.md §6.2, `producer.keys`), or that none are pinned.
fn pinned(h: &mut Html, p: Option<&Fixed<ProducerKeys>>) {
    let Some(p) = p else {
        h.p(&esc(h.t(
            "Aucune clé de production n'est épinglée : aucun scellé n'est possible.",
            "No key of production's is pinned: no seal is possible.",
        )));
        return;
    };
    let line = format!(
        "{} ({}, {}) :",
        esc(h.t(
            "Clés de production de confiance, les seules qu'un scellé accepte, à comparer avec la déclaration écrite de la production",
            "Production's trusted keys, the only ones a seal accepts, to be compared with production's written statement"
        )),
        h.event(p.at.seq),
        esc(&h.when(p.at.at))
    );
    h.p(&line);
    h.table();
    for key in &p.value.keys {
        let v = format!(
            "{} {}<br>{} {}",
            h.t("identifiant", "id"),
            code(&key.key_id),
            h.t("clé publique", "public key"),
            hash(&key.public_key.to_string())
        );
        h.rowt("Clé de production", "Production's key", &v);
    }
    h.end_table();
}

/// The token and the keys generated in it.
fn generated(h: &mut Html, g: &Fixed<urne_verify::events::payloads::KeysGenerated>) {
    let t = &g.value.token;
    let line = format!(
        "{} ({}, {}) :",
        esc(h.t("Clés générées dans le jeton", "Keys generated in the token")),
        h.event(g.at.seq),
        esc(&h.when(g.at.at))
    );
    h.p(&line);
    h.table();
    let token = esc(&format!(
        "{}, {}, {}, {}",
        t.token_label, t.manufacturer, t.model, t.serial
    ));
    h.rowt(
        "Jeton (libellé, fabricant, modèle, numéro de série)",
        "Token (label, manufacturer, model, serial)",
        &token,
    );
    let library = format!(
        "{} {} (Cryptoki {})",
        t.library, t.library_version, t.cryptoki_version
    );
    let module = format!("{} — {}", code(&t.module), esc(&library));
    h.rowt("Module PKCS#11", "PKCS#11 module", &module);
    for key in &g.value.keys {
        signing_key(h, key);
    }
    if let Some(s) = &g.value.seal_key {
        seal_key(h, s);
    }
    h.end_table();
}

/// A signing key, its id, public key and attributes.
fn signing_key(h: &mut Html, key: &KeyRecord) {
    let attrs = format!(
        "CKA_LOCAL {} ; CKA_NEVER_EXTRACTABLE {} ; CKA_ALWAYS_SENSITIVE {} ; CKA_SENSITIVE {} ; CKA_EXTRACTABLE {}",
        h.yes(key.local),
        h.yes(key.never_extractable),
        h.yes(key.always_sensitive),
        h.yes(key.sensitive),
        h.yes(key.extractable)
    );
    let role = match key.role {
        urne_verify::events::payloads::KeyRole::Result => {
            h.t("Clé de signature des résultats", "Result signing key")
        }
        urne_verify::events::payloads::KeyRole::Audit => h.t(
            "Clé de signature du journal d'audit",
            "Audit trail signing key",
        ),
    };
    let label = format!("{role} ({})", key.label);
    let v = format!(
        "{} {}<br>{} {}<br>{attrs}",
        h.t("identifiant", "id"),
        code(&key.key_id),
        h.t("clé publique", "public key"),
        hash(&key.public_key)
    );
    h.row(&label, &v);
}

/// The sealing key, its id and attributes, and whether they are those required.
fn seal_key(h: &mut Html, s: &SealKeyRecord) {
    let attrs = format!(
        "{} {} ; CKA_LOCAL {} ; CKA_NEVER_EXTRACTABLE {} ; CKA_SENSITIVE {} ; CKA_EXTRACTABLE {} ; CKA_MODIFIABLE {} ; CKA_DESTROYABLE {} ; {}",
        esc(&s.key_type),
        s.value_len * 8,
        h.yes(s.local),
        h.yes(s.never_extractable),
        h.yes(s.sensitive),
        h.yes(s.extractable),
        h.yes(s.modifiable),
        h.yes(s.destroyable),
        esc(&s.allowed_mechanisms.join(", "))
    );
    let sound = if s.is_sound() {
        h.t(
            "attributs conformes (SPEC §6.9)",
            "attributes as required (SPEC §6.9)",
        )
    } else {
        h.t(
            "ATTRIBUTS NON CONFORMES (SPEC §6.9)",
            "ATTRIBUTES NOT AS REQUIRED (SPEC §6.9)",
        )
    };
    let label = format!("{} ({})", h.t("Clé de scellement", "Sealing key"), s.label);
    let v = format!(
        "{} {}<br>{attrs}<br>{sound}",
        h.t("identifiant", "id"),
        code(&s.key_id)
    );
    h.row(&label, &v);
}
