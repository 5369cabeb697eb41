//! The messages, by id (see the module's documentation). Grouped by where they are said; each
//! group's ids share a prefix after their kind. The errors and hints of the edges and of the
//! commands are in their own files, by where they are raised.

use super::message::Msg;

pub mod cmd;
pub mod edge;
pub mod rehearsal;
pub mod sitting;

/// Every message of the catalogue, each once.
pub fn all() -> impl Iterator<Item = &'static Msg> {
    SCREENS
        .iter()
        .chain(edge::ALL)
        .chain(cmd::ALL)
        .chain(sitting::ALL)
        .chain(rehearsal::ALL)
        .copied()
}

// The command line (`error[usage]:`, spec/appliance.md §10).

/// An option or argument urne does not take.
pub const ERR_USAGE_UNKNOWN: Msg = Msg {
    id: "err-usage-unknown",
    fr: "urne ne connaît pas l'argument {arg}",
    en: "urne takes no argument {arg}",
};
/// A command urne does not have.
pub const ERR_USAGE_NO_SUCH_COMMAND: Msg = Msg {
    id: "err-usage-no-such-command",
    fr: "urne n'a pas de commande {arg}",
    en: "urne has no command {arg}",
};
/// A required argument left out.
pub const ERR_USAGE_MISSING: Msg = Msg {
    id: "err-usage-missing",
    fr: "il manque {args}",
    en: "missing {args}",
};
/// A value of the wrong type (a day that is no calendar date, a number that is not one…).
pub const ERR_USAGE_VALUE: Msg = Msg {
    id: "err-usage-value",
    fr: "{arg} n'accepte pas la valeur « {value} »",
    en: "{arg} does not accept the value '{value}'",
};
/// Two arguments that exclude each other.
pub const ERR_USAGE_CONFLICT: Msg = Msg {
    id: "err-usage-conflict",
    fr: "{arg} ne se donne pas avec {other}",
    en: "{arg} cannot be given with {other}",
};
/// Any other mistake of the command line.
pub const ERR_USAGE_OTHER: Msg = Msg {
    id: "err-usage-other",
    fr: "la ligne de commande est incorrecte",
    en: "the command line is not right",
};
/// What to do about a mistake of the command line: the usage of the command.
pub const REC_USAGE: Msg = Msg {
    id: "rec-usage",
    fr: "usage : {usage} ; le détail avec --help",
    en: "usage: {usage}; details with --help",
};
/// What to do about a mistake of the command line whose usage clap does not give.
pub const REC_USAGE_HELP: Msg = Msg {
    id: "rec-usage-help",
    fr: "vérifiez la ligne de commande avec --help",
    en: "check the command line against --help",
};

// The two kinds of values on a screen (spec/appliance.md §9.4): the few the commissaire writes
// by hand at that moment, and the rest, checked on the printed minutes.

/// The heading of the values the commissaire writes by hand now: those no later print can
/// prove were on the screen at that moment.
pub const SCR_BY_HAND: Msg = Msg {
    id: "scr-by-hand",
    fr: "▶ À ÉCRIRE À LA MAIN, MAINTENANT",
    en: "▶ TO WRITE BY HAND, NOW",
};
/// The heading of the values the commissaire checks on the printed minutes: nothing to copy.
pub const SCR_TO_CHECK: Msg = Msg {
    id: "scr-to-check",
    fr: "[ ] À VÉRIFIER SUR LES MINUTES IMPRIMÉES",
    en: "[ ] TO CHECK ON THE PRINTED MINUTES",
};
/// The heading of what a screen gives for information only: neither written by hand nor in the
/// minutes (a checkpoint a later one covers, the SHA-256 of the file that lists the minutes').
pub const SCR_FOR_INFORMATION: Msg = Msg {
    id: "scr-for-information",
    fr: "POUR INFORMATION (ni à écrire ni à cocher)",
    en: "FOR INFORMATION (nothing to write or tick)",
};
/// Under the contribution's prompt: the commissaire writes it by hand as typed.
pub const SCR_CONTRIBUTION_BY_HAND: Msg = Msg {
    id: "scr-contribution-by-hand",
    fr: "▶ À ÉCRIRE À LA MAIN : votre contribution, telle que vous la tapez.",
    en: "▶ TO WRITE BY HAND: your contribution, as you type it.",
};

// The paced screen (spec/appliance.md §9.4).

/// The pause of a paced screen.
pub const SCR_PAUSE: Msg = Msg {
    id: "scr-pause",
    fr: "— Entrée pour continuer —",
    en: "— Enter to continue —",
};

// A void notice published (`urne void`, `urne block void`, spec/appliance.md §4.6).

/// The heading of a void notice published.
pub const SCR_VOID_NOTICE: Msg = Msg {
    id: "scr-void-notice",
    fr: "AVIS D'ANNULATION publié : {path}",
    en: "VOID NOTICE published: {path}",
};
/// The label of its SHA-256.
pub const SCR_VOID_NOTICE_SHA: Msg = Msg {
    id: "scr-void-notice-sha",
    fr: "SHA-256 de l'avis (à recopier aux minutes)",
    en: "The notice's SHA-256 (copy it into the minutes)",
};

// A backup of the trail (`urne audit backup`, spec/appliance.md §6.8).

/// The heading of a backup made.
pub const SCR_BACKUP: Msg = Msg {
    id: "scr-backup",
    fr: "SAUVEGARDE DE LA PISTE D'AUDIT : {path}",
    en: "BACKUP OF THE AUDIT TRAIL: {path}",
};
/// How many events it holds.
pub const SCR_BACKUP_EVENTS: Msg = Msg {
    id: "scr-backup-events",
    fr: "Événements",
    en: "Events",
};
/// The label of the trail's identity.
pub const SCR_TRAIL_ID: Msg = Msg {
    id: "scr-trail-id",
    fr: "Identité de la piste",
    en: "The trail's identity",
};
/// The label of the backup's head: the token's last mark.
pub const SCR_BACKUP_ROOT: Msg = Msg {
    id: "scr-backup-root",
    fr: "Racine de la sauvegarde (la dernière marque du jeton)",
    en: "The backup's root (the token's last mark)",
};
/// What a backup is for.
pub const SCR_BACKUP_USE: Msg = Msg {
    id: "scr-backup-use",
    fr: "Remise à la place de la piste, elle est acceptée jusqu'à la prochaine commande qui enregistre ; gardez-la sur un support à part.",
    en: "Put back at the trail's path, it is accepted until the next command records; keep it on separate media.",
};

// A rules file loaded (spec/appliance.md §4.9, formats.md §7.4).

/// An official rules file: its id, then its SHA-256 under it.
pub const SCR_RULES_OFFICIAL: Msg = Msg {
    id: "scr-rules-official",
    fr: "Règlement {id} : le fichier officiel, SHA-256",
    en: "Rules {id}: the official file, SHA-256",
};
/// Rules that are not an official regulation, admitted as the command line says.
pub const SCR_RULES_UNOFFICIAL: Msg = Msg {
    id: "scr-rules-unofficial",
    fr: "note : {path} déclare {id}, qui n'est pas un règlement officiel de cet appareil : règlement non officiel, comme le dit --unofficial-rules ; SHA-256",
    en: "note: {path} declares {id}, which is not an official regulation of this appliance: unofficial rules, as --unofficial-rules says; SHA-256",
};

// `urne hsm info`: the module, the token, the mechanisms, the keys (spec/appliance.md §6.6, §6.9).

/// The module's file.
pub const SCR_HSM_MODULE: Msg = Msg {
    id: "scr-hsm-module",
    fr: "module :",
    en: "module:",
};
/// Its SHA-256, pinned by the configuration.
pub const SCR_HSM_MODULE_PINNED: Msg = Msg {
    id: "scr-hsm-module-pinned",
    fr: "SHA-256 (le module_sha256 de la configuration) :",
    en: "SHA-256 (the configuration's module_sha256):",
};
/// Its SHA-256, not pinned.
pub const SCR_HSM_MODULE_UNPINNED: Msg = Msg {
    id: "scr-hsm-module-unpinned",
    fr: "SHA-256 (non épinglé : la configuration d'une séance le donne dans module_sha256) :",
    en: "SHA-256 (not pinned: a ceremony's configuration names it in module_sha256):",
};
/// The library in the module.
pub const SCR_HSM_LIBRARY: Msg = Msg {
    id: "scr-hsm-library",
    fr: "bibliothèque :",
    en: "library:",
};
/// The PKCS#11 version.
pub const SCR_HSM_VERSION: Msg = Msg {
    id: "scr-hsm-version",
    fr: "version de PKCS#11 :",
    en: "PKCS#11 version:",
};
/// The token.
pub const SCR_HSM_TOKEN: Msg = Msg {
    id: "scr-hsm-token",
    fr: "jeton :",
    en: "token:",
};
/// Its manufacturer.
pub const SCR_HSM_MANUFACTURER: Msg = Msg {
    id: "scr-hsm-manufacturer",
    fr: "fabricant :",
    en: "manufacturer:",
};
/// Its model.
pub const SCR_HSM_MODEL: Msg = Msg {
    id: "scr-hsm-model",
    fr: "modèle :",
    en: "model:",
};
/// Its serial number.
pub const SCR_HSM_SERIAL: Msg = Msg {
    id: "scr-hsm-serial",
    fr: "numéro de série :",
    en: "serial:",
};
/// The mechanisms urne needs.
pub const SCR_HSM_MECHANISMS: Msg = Msg {
    id: "scr-hsm-mechanisms",
    fr: "mécanismes dont urne a besoin :",
    en: "mechanisms urne needs:",
};
/// Random numbers.
pub const SCR_HSM_RANDOM: Msg = Msg {
    id: "scr-hsm-random",
    fr: "nombres aléatoires (C_GenerateRandom) :",
    en: "random numbers (C_GenerateRandom):",
};
/// Ed25519 key generation.
pub const SCR_HSM_KEYGEN: Msg = Msg {
    id: "scr-hsm-keygen",
    fr: "génération de clés Ed25519 (CKM_EC_EDWARDS_KEY_PAIR_GEN) :",
    en: "Ed25519 key generation (CKM_EC_EDWARDS_KEY_PAIR_GEN):",
};
/// EdDSA signing.
pub const SCR_HSM_SIGN: Msg = Msg {
    id: "scr-hsm-sign",
    fr: "signature EdDSA (CKM_EDDSA) :",
    en: "EdDSA signing (CKM_EDDSA):",
};
/// A mechanism present.
pub const SCR_HSM_PRESENT: Msg = Msg {
    id: "scr-hsm-present",
    fr: "présent",
    en: "present",
};
/// A mechanism missing.
pub const SCR_HSM_MISSING: Msg = Msg {
    id: "scr-hsm-missing",
    fr: "ABSENT",
    en: "MISSING",
};
/// The keys.
pub const SCR_HSM_KEYS: Msg = Msg {
    id: "scr-hsm-keys",
    fr: "clés :",
    en: "keys:",
};
/// A token with no key at all.
pub const SCR_HSM_NEW_TOKEN: Msg = Msg {
    id: "scr-hsm-new-token",
    fr: "aucune : le jeton est neuf (pas encore de clé) ; lancez `urne keys init`",
    en: "none: the token is new (no keys yet); run `urne keys init`",
};
/// One of urne's key pairs.
pub const SCR_HSM_KEY: Msg = Msg {
    id: "scr-hsm-key",
    fr: "clé {role} « {label} » : identifiant {id}",
    en: "{role} key \"{label}\": key id {id}",
};
/// Its public key.
pub const SCR_HSM_PUBLIC_KEY: Msg = Msg {
    id: "scr-hsm-public-key",
    fr: "clé publique :",
    en: "public key:",
};
/// A key whose attributes bind it to the token.
pub const SCR_HSM_BOUND: Msg = Msg {
    id: "scr-hsm-bound",
    fr: "générée dans le jeton ; ne peut jamais en sortir",
    en: "generated in the token; can never leave it",
};
/// A key whose attributes do not.
pub const SCR_HSM_NOT_BOUND: Msg = Msg {
    id: "scr-hsm-not-bound",
    fr: "ATTENTION : ces attributs ne prouvent pas que la clé est liée au jeton",
    en: "WARNING: these attributes do not prove the key is bound to the token",
};
/// A key pair absent.
pub const SCR_HSM_KEY_ABSENT: Msg = Msg {
    id: "scr-hsm-key-absent",
    fr: "clé {role} : absente ({why})",
    en: "{role} key: absent ({why})",
};
/// The sealing key.
pub const SCR_HSM_SEAL_KEY: Msg = Msg {
    id: "scr-hsm-seal-key",
    fr: "clé de scellement « {label} » : identifiant {id}, AES-{bits}, seulement {mechanisms}",
    en: "sealing key \"{label}\": key id {id}, AES-{bits}, only {mechanisms}",
};
/// The sealing key absent.
pub const SCR_HSM_SEAL_KEY_ABSENT: Msg = Msg {
    id: "scr-hsm-seal-key-absent",
    fr: "clé de scellement : absente ou inutilisable ({why})",
    en: "sealing key: absent or unusable ({why})",
};

// Work taken up again after a stop, and progress (spec/appliance.md §6.7).

/// A draw taken up again with the entropy it recorded.
pub const SCR_RESUME_DRAW_ENTROPY: Msg = Msg {
    id: "scr-resume-draw-entropy",
    fr: "reprise du tirage interrompu du {day} avec l'aléa inscrit à l'événement d'audit n° {seq} ; aucun nouvel aléa n'est demandé",
    en: "resuming the interrupted draw of {day} with the entropy recorded at audit event #{seq}; no new entropy is requested",
};
/// The contribution a stopped draw recorded, used again.
pub const SCR_RESUME_CONTRIBUTION: Msg = Msg {
    id: "scr-resume-contribution",
    fr: "la contribution du commissaire inscrite à l'événement d'audit n° {seq} est reprise : « {contribution} »",
    en: "the commissaire's contribution recorded at audit event #{seq} is used: «{contribution}»",
};
/// A draw whose folder a stopped run left whole, recorded as published.
pub const SCR_RESUME_DRAW_PLACED: Msg = Msg {
    id: "scr-resume-draw-placed",
    fr: "reprise du tirage du {day}, tentative {attempt} : son dossier {path} était déjà complet en place ; il est inscrit comme publié",
    en: "resuming the draw of {day} attempt {attempt}: its folder {path} was already whole in place; recorded it as published",
};
/// A block taken up again with the entropy it recorded.
pub const SCR_RESUME_BLOCK_ENTROPY: Msg = Msg {
    id: "scr-resume-block-entropy",
    fr: "reprise du bloc {block} avec l'aléa déjà inscrit (événement d'audit n° {seq}) ; aucun nouvel aléa n'est demandé",
    en: "resuming block {block} with the entropy already recorded (audit event #{seq}); no new entropy is requested",
};
/// A block commitment a stopped run left in place, recorded as published.
pub const SCR_RESUME_BLOCK_PLACED: Msg = Msg {
    id: "scr-resume-block-placed",
    fr: "reprise du bloc {block} : son engagement était déjà en place ; il est inscrit comme publié (son fichier de production est mis sur le support secret s'il n'y est pas)",
    en: "resuming block {block}: its commitment was already in place; recording it as published (its production file is put on the secret medium if it is not there)",
};
/// A reveal a stopped run left in place, recorded as published.
pub const SCR_RESUME_REVEAL_PLACED: Msg = Msg {
    id: "scr-resume-reveal-placed",
    fr: "reprise du bloc {block} : sa révélation était déjà en place ; elle est inscrite comme publiée",
    en: "resuming block {block}: its reveal was already in place; recording it as published",
};
/// A void notice a stopped run left in place, recorded as published.
pub const SCR_RESUME_VOID_PLACED: Msg = Msg {
    id: "scr-resume-void-placed",
    fr: "reprise de l'annulation ({subject}, tentative {attempt}) : son avis était déjà en place ; il est inscrit comme publié",
    en: "resuming the void of {subject} attempt {attempt}: its notice was already in place; recorded it as published",
};
/// A sitting's output a stopped run left whole, recorded as published.
pub const SCR_RESUME_SITTING_PLACED: Msg = Msg {
    id: "scr-resume-sitting-placed",
    fr: "reprise de la séance {number} : son procès-verbal était déjà complet dans {path} ; il est inscrit comme publié",
    en: "resuming sitting {number}: its minutes were already whole in {path}; recorded them as published",
};
/// The progress of a generation of several blocks.
pub const SCR_PROGRESS_BLOCKS: Msg = Msg {
    id: "scr-progress-blocks",
    fr: "{done}/{total} blocs générés",
    en: "{done}/{total} blocks generated",
};

/// The progress of `urne proof --all`.
pub const SCR_PROGRESS_PROOFS: Msg = Msg {
    id: "scr-progress-proofs",
    fr: "{done}/{total} preuves écrites",
    en: "{done}/{total} proofs written",
};

// The commissaire's contribution (spec/appliance.md §4.4.1, formats.md §4.4.1).

/// A contribution refused, and why.
pub const SCR_CONTRIBUTION_REFUSED: Msg = Msg {
    id: "scr-contribution-refused",
    fr: "refusée : {why}",
    en: "refused: {why}",
};
/// Too few or too many characters.
pub const SCR_CONTRIBUTION_LENGTH: Msg = Msg {
    id: "scr-contribution-length",
    fr: "la contribution a {n} caractères ; il lui en faut de {min} à {max}",
    en: "the contribution has {n} characters; it must have {min} to {max}",
};
/// A character outside the grammar.
pub const SCR_CONTRIBUTION_CHARACTER: Msg = Msg {
    id: "scr-contribution-character",
    fr: "le caractère {at} (U+{code}) n'est pas admis dans une contribution : seulement les lettres, les chiffres, les espaces et la ponctuation d'un clavier français",
    en: "character {at} (U+{code}) is not allowed in a contribution: letters, digits, spaces and the punctuation of a French keyboard only",
};
/// A space at either end.
pub const SCR_CONTRIBUTION_EDGE_SPACE: Msg = Msg {
    id: "scr-contribution-edge-space",
    fr: "la contribution commence ou finit par une espace",
    en: "the contribution starts or ends with a space",
};
/// Two spaces in a row.
pub const SCR_CONTRIBUTION_DOUBLE_SPACE: Msg = Msg {
    id: "scr-contribution-double-space",
    fr: "la contribution a deux espaces de suite",
    en: "the contribution has two spaces in a row",
};
/// No valid contribution after every try.
pub const ERR_CONTRIBUTION_TRIES: Msg = Msg {
    id: "err-contribution-tries",
    fr: "aucune contribution valable après {tries} essais : {why}",
    en: "no valid contribution after {tries} tries: {why}",
};
/// What to do then.
pub const REC_CONTRIBUTION_TRIES: Msg = Msg {
    id: "rec-contribution-tries",
    fr: "rien n'a été calculé ; relancez la commande (l'aléa déjà inscrit est gardé, aucun nouvel aléa n'est demandé)",
    en: "nothing was computed; run the command again (the entropy already recorded is kept, and no new entropy is requested)",
};

// The watch at the key ceremony (spec/appliance.md §9.1).

/// What to do when the key ceremony's watch check fails after its last try: its keys exist.
pub const REC_KEY_CEREMONY_CLOCK: Msg = Msg {
    id: "rec-key-ceremony-clock",
    fr: "les clés sont déjà générées dans le jeton et y restent, et ce refus est inscrit ; mettez l'horloge de l'appareil à l'heure (UTC) devant le commissaire, puis relancez {then} : la cérémonie est reprise et son procès-verbal le dit",
    en: "the keys are already generated in the token and stay there, and this refusal is recorded; set the appliance's clock right (UTC) in front of the commissaire, then run {then} again: the ceremony is taken up and its minutes say so",
};

/// Every message, for the tests that read them all.
const SCREENS: &[&Msg] = &[
    &SCR_BY_HAND,
    &SCR_TO_CHECK,
    &SCR_FOR_INFORMATION,
    &SCR_CONTRIBUTION_BY_HAND,
    &ERR_USAGE_UNKNOWN,
    &ERR_USAGE_NO_SUCH_COMMAND,
    &ERR_USAGE_MISSING,
    &ERR_USAGE_VALUE,
    &ERR_USAGE_CONFLICT,
    &ERR_USAGE_OTHER,
    &REC_USAGE,
    &REC_USAGE_HELP,
    &SCR_PAUSE,
    &SCR_VOID_NOTICE,
    &SCR_VOID_NOTICE_SHA,
    &SCR_BACKUP,
    &SCR_BACKUP_EVENTS,
    &SCR_TRAIL_ID,
    &SCR_BACKUP_ROOT,
    &SCR_BACKUP_USE,
    &SCR_RULES_OFFICIAL,
    &SCR_RULES_UNOFFICIAL,
    &SCR_HSM_MODULE,
    &SCR_HSM_MODULE_PINNED,
    &SCR_HSM_MODULE_UNPINNED,
    &SCR_HSM_LIBRARY,
    &SCR_HSM_VERSION,
    &SCR_HSM_TOKEN,
    &SCR_HSM_MANUFACTURER,
    &SCR_HSM_MODEL,
    &SCR_HSM_SERIAL,
    &SCR_HSM_MECHANISMS,
    &SCR_HSM_RANDOM,
    &SCR_HSM_KEYGEN,
    &SCR_HSM_SIGN,
    &SCR_HSM_PRESENT,
    &SCR_HSM_MISSING,
    &SCR_HSM_KEYS,
    &SCR_HSM_NEW_TOKEN,
    &SCR_HSM_KEY,
    &SCR_HSM_PUBLIC_KEY,
    &SCR_HSM_BOUND,
    &SCR_HSM_NOT_BOUND,
    &SCR_HSM_KEY_ABSENT,
    &SCR_HSM_SEAL_KEY,
    &SCR_HSM_SEAL_KEY_ABSENT,
    &SCR_RESUME_DRAW_ENTROPY,
    &SCR_RESUME_CONTRIBUTION,
    &SCR_RESUME_DRAW_PLACED,
    &SCR_RESUME_BLOCK_ENTROPY,
    &SCR_RESUME_BLOCK_PLACED,
    &SCR_RESUME_REVEAL_PLACED,
    &SCR_RESUME_VOID_PLACED,
    &SCR_RESUME_SITTING_PLACED,
    &SCR_PROGRESS_BLOCKS,
    &SCR_PROGRESS_PROOFS,
    &SCR_CONTRIBUTION_REFUSED,
    &SCR_CONTRIBUTION_LENGTH,
    &SCR_CONTRIBUTION_CHARACTER,
    &SCR_CONTRIBUTION_EDGE_SPACE,
    &SCR_CONTRIBUTION_DOUBLE_SPACE,
    &ERR_CONTRIBUTION_TRIES,
    &REC_CONTRIBUTION_TRIES,
    &REC_KEY_CEREMONY_CLOCK,
];
