//! The software and the HSM of the minutes (spec/appliance.md §9.2): the identity of the first process,
//! then, for each later process whose identity differs, only what changed.

use crate::minutes::Software;
use crate::minutes::markup::{Html, code, esc, hash};
use std::fmt::Write;
use urne_verify::values::Commit;

/// The software section.
pub(super) fn software(h: &mut Html, sw: &[Software]) {
    h.h2(
        "Logiciel et module matériel de sécurité (HSM)",
        "Software and hardware security module (HSM)",
    );
    if sw.is_empty() {
        let none = h.t(
            "Aucun démarrage de l'appareil n'est enregistré.",
            "No start of the appliance is recorded.",
        );
        h.p(&esc(none));
    }
    let mut before: Vec<(String, String)> = vec![];
    for (i, s) in sw.iter().enumerate() {
        let rows = rows(h, s);
        let changed: Vec<&(String, String)> = rows
            .iter()
            .filter(|(k, v)| !before.iter().any(|(bk, bv)| bk == k && bv == v))
            .collect();
        if i > 0 {
            let mut line = format!(
                "<strong>{}</strong> {} ({}, {} {}) :",
                h.t("Changement", "Change"),
                esc(&h.when(s.at.at)),
                h.event(s.at.seq),
                h.t("commande", "command"),
                code(&s.command)
            );
            // No heading over an empty table: what changed is then only the list of the files
            // mapped in the process (their number the same), which the event holds.
            if changed.is_empty() {
                line.pop();
                let _ = write!(
                    line,
                    "{}",
                    esc(h.t(
                        ": seule la liste des fichiers chargés dans le processus diffère (leur nombre est le même) ; elle est inscrite à cet événement.",
                        ": only the list of the files mapped in the process differs (their number is the same); the event holds it."
                    ))
                );
                h.p(&line);
                before = rows;
                continue;
            }
            h.p(&line);
        }
        h.table();
        for (k, v) in changed {
            h.row(k, v);
        }
        h.end_table();
        before = rows;
    }
    release_check(h, sw);
    player_page(h);
}

/// What the commissaire does with the executable's and the module's SHA-256 above
/// (spec/formats.md §8.8 [M-419]): compare them, on a device of their own, with the published,
/// signed `SHA256SUMS` of the release the source revision names, its signature checked under the
/// release key; a revision that is no commit is no release, and the minutes say so.
fn release_check(h: &mut Html, sw: &[Software]) {
    let mut revisions: Vec<&str> = vec![];
    for s in sw {
        if !revisions.contains(&s.software.source_revision.as_str()) {
            revisions.push(&s.software.source_revision);
        }
    }
    if revisions.is_empty() {
        return;
    }
    let archives = revisions
        .iter()
        .map(|r| code(&format!("urne-src-{r}.tar.gz")))
        .collect::<Vec<_>>()
        .join(", ");
    let line = format!(
        "<strong>{}</strong> {} {} {} {} {} {} {} {}.",
        esc(h.t("Vérifier le logiciel.", "Checking the software.")),
        esc(h.t(
            "Sur un appareil qui lui appartient (jamais sur cet appareil), le commissaire de justice compare l'empreinte SHA-256 de l'exécutable ci-dessus avec la ligne",
            "On a device of their own (never on this appliance), the commissaire compares the executable's SHA-256 above with the line"
        )),
        code("bin/urne"),
        esc(h.t(
            "du fichier SHA256SUMS publié et signé de la version dont l'archive des sources est",
            "of the published, signed SHA256SUMS of the release whose source archive is"
        )),
        archives,
        esc(h.t(
            "(la révision des sources ci-dessus ; la ligne : grep ' bin/urne$' SHA256SUMS) : une autre empreinte est celle d'un exécutable construit autrement. Il compare de même l'empreinte du module PKCS#11 ci-dessus (sha256sum du module) avec celle que publie son fournisseur. Il vérifie d'abord la signature de SHA256SUMS sous la clé de publication des versions (release key), obtenue indépendamment de l'appareil :",
            "(the source revision above; the line: grep ' bin/urne$' SHA256SUMS): another SHA-256 is that of an executable built another way. Likewise they compare the PKCS#11 module's SHA-256 above (sha256sum of the module) with the one its vendor publishes. First they check the signature of SHA256SUMS under the release key, obtained independently of the appliance:"
        )),
        code("urne-verify --release SHA256SUMS --release-key release-key.pem"),
        esc(h.t(
            "(avec les sorties qu'il vérifie), ou",
            "(with the outputs they verify), or"
        )),
        code(
            "openssl pkeyutl -verify -pubin -inkey release-key.pem -rawin -in SHA256SUMS -sigfile SHA256SUMS.sig"
        ),
    );
    h.p(&line);
    let unreleased: Vec<&&str> = revisions
        .iter()
        .filter(|r| r.parse::<Commit>().is_err())
        .collect();
    if !unreleased.is_empty() {
        let names = unreleased.iter().map(code).collect::<Vec<_>>().join(", ");
        h.p(&format!(
            "<strong>{}</strong> {names} {}",
            esc(h.t("Attention :", "Warning:")),
            esc(h.t(
                "n'est la révision d'aucune version publiée (une version est nommée par les 40 chiffres hexadécimaux de son commit) : cet exécutable n'a pas été construit par la procédure de publication (scripts/release), et aucun SHA256SUMS ne le nomme.",
                "is the revision of no published release (a release is named by the 40 hex digits of its commit): this executable was not built by the release procedure (scripts/release), and no SHA256SUMS names it."
            ))
        ));
    }
}

/// The player's page shipped with this software (verifier/web/urne-check.html, README "The
/// player's page"): its SHA-256, which a player compares with the page they open before trusting
/// it.
pub(crate) const PLAYER_PAGE: &[u8] = include_bytes!("../../../../../verifier/web/urne-check.html");

fn player_page(h: &mut Html) {
    let sha = urne_verify::crypto::sha256(PLAYER_PAGE).to_string();
    let line = format!(
        "<strong>{}</strong> {} : {}<br>{}",
        esc(h.t(
            "Page de vérification des joueurs",
            "Players' verification page"
        )),
        code("verifier/web/urne-check.html"),
        hash(&sha),
        esc(h.t(
            "Livrée avec ce logiciel, elle vérifie dans un navigateur, sans réseau, la preuve d'un joueur contre le résultat publié. Un joueur ne s'y fie que si la page qu'il ouvre a cette empreinte SHA-256 (sha256sum urne-check.html).",
            "Shipped with this software, it checks a player's proof against the published result in a browser, without a network. A player trusts it only if the page they open has this SHA-256 (sha256sum urne-check.html)."
        ))
    );
    h.p(&line);
}

/// The rows of one process's identity.
fn rows(h: &Html, s: &Software) -> Vec<(String, String)> {
    let (w, p) = (&s.software, &s.pkcs11);
    let row = |fr: &str, en: &str, v: String| (h.t(fr, en).to_string(), v);
    vec![
        row(
            "Logiciel, version",
            "Software, version",
            esc(&format!("{} {}", w.name, w.version)),
        ),
        row(
            "Révision des sources",
            "Source revision",
            code(&w.source_revision),
        ),
        row(
            "Exécutable (SHA-256)",
            "Executable (SHA-256)",
            hash(&w.executable_sha256),
        ),
        row(
            "Module PKCS#11 (SHA-256)",
            "PKCS#11 module (SHA-256)",
            format!("{}<br>{}", code(&p.module_path), hash(&p.module_sha256)),
        ),
        row(
            "Bibliothèque",
            "Library",
            esc(&format!(
                "{} {} ({}, Cryptoki {})",
                p.library, p.library_version, p.manufacturer, p.cryptoki_version
            )),
        ),
        row(
            "Jeton (libellé, modèle, numéro de série, micrologiciel)",
            "Token (label, model, serial, firmware)",
            esc(&format!(
                "{}, {}, {}, {}",
                p.token.label, p.token.model, p.token.serial, p.token.firmware
            )),
        ),
        row(
            "Fichiers chargés dans le processus",
            "Files mapped in the process",
            h.n(p.mapped.len() as u64),
        ),
    ]
}
