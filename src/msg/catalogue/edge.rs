//! The errors and hints raised at the edges (`src/edge/`): the HSM, the store, the files,
//! the configuration, the process.

use crate::msg::message::Msg;

// Files the operator named (`crate::error::io_error`): what urne was doing when the system
// refused, then the system's own words.

/// A file could not be read.
pub const ERR_FILE_READ: Msg = Msg {
    id: "err-file-read",
    fr: "impossible de lire {path} : {e}",
    en: "cannot read {path}: {e}",
};
/// The working directory could not be read, to resolve a relative path.
pub const ERR_FILE_READ_WORKDIR: Msg = Msg {
    id: "err-file-read-workdir",
    fr: "impossible de lire le répertoire de travail pour résoudre {path} : {e}",
    en: "cannot read the working directory for {path}: {e}",
};
/// A folder already open could not be opened again.
pub const ERR_FILE_OPEN: Msg = Msg {
    id: "err-file-open",
    fr: "impossible d'ouvrir {path} : {e}",
    en: "cannot open {path}: {e}",
};
/// A folder could not be opened.
pub const ERR_FILE_OPEN_FOLDER: Msg = Msg {
    id: "err-file-open-folder",
    fr: "impossible d'ouvrir le dossier {path} : {e}",
    en: "cannot open the folder {path}: {e}",
};
/// A staging folder just made could not be opened.
pub const ERR_FILE_OPEN_STAGING: Msg = Msg {
    id: "err-file-open-staging",
    fr: "impossible d'ouvrir le dossier de préparation {path} : {e}",
    en: "cannot open the staging folder {path}: {e}",
};
/// A staging folder could not be made.
pub const ERR_FILE_CREATE_STAGING: Msg = Msg {
    id: "err-file-create-staging",
    fr: "impossible de créer le dossier de préparation {path} : {e}",
    en: "cannot create staging folder {path}: {e}",
};
/// A staging folder's owner and mode could not be read.
pub const ERR_FILE_EXAMINE_STAGING: Msg = Msg {
    id: "err-file-examine-staging",
    fr: "impossible d'examiner le dossier de préparation {path} : {e}",
    en: "cannot examine the staging folder {path}: {e}",
};
/// A file could not be written.
pub const ERR_FILE_WRITE: Msg = Msg {
    id: "err-file-write",
    fr: "impossible d'écrire {path} : {e}",
    en: "cannot write {path}: {e}",
};
/// A file or a folder could not be removed.
pub const ERR_FILE_REMOVE: Msg = Msg {
    id: "err-file-remove",
    fr: "impossible de supprimer {path} : {e}",
    en: "cannot remove {path}: {e}",
};
/// A folder could not be synced to its medium.
pub const ERR_FILE_SYNC: Msg = Msg {
    id: "err-file-sync",
    fr: "impossible d'écrire durablement {path} sur son support : {e}",
    en: "cannot sync {path}: {e}",
};
/// The folder of a file could not be synced to its medium.
pub const ERR_FILE_SYNC_FOLDER_OF: Msg = Msg {
    id: "err-file-sync-folder-of",
    fr: "impossible d'écrire durablement sur son support le dossier de {path} : {e}",
    en: "cannot sync the folder of {path}: {e}",
};
/// An output could not be put at its final name.
pub const ERR_FILE_PUBLISH: Msg = Msg {
    id: "err-file-publish",
    fr: "impossible de publier {path} : {e}",
    en: "cannot publish {path}: {e}",
};
/// The audit trail could not be created.
pub const ERR_FILE_CREATE_TRAIL: Msg = Msg {
    id: "err-file-create-trail",
    fr: "impossible de créer la piste d'audit {path} : {e}",
    en: "cannot create the audit trail {path}: {e}",
};
/// The audit trail could not be opened.
pub const ERR_FILE_OPEN_TRAIL: Msg = Msg {
    id: "err-file-open-trail",
    fr: "impossible d'ouvrir la piste d'audit {path} : {e}",
    en: "cannot open the audit trail {path}: {e}",
};
/// A new audit trail could not be put at its path.
pub const ERR_FILE_PUT_TRAIL: Msg = Msg {
    id: "err-file-put-trail",
    fr: "impossible de mettre la piste d'audit en place à {path} : {e}",
    en: "cannot put the audit trail in place at {path}: {e}",
};
/// What to do when the system refused a file.
pub const REC_FILE_CHECK_PATH: Msg = Msg {
    id: "rec-file-check-path",
    fr: "vérifiez le chemin et les droits d'accès, et que le support est bien monté",
    en: "check the path and the permissions, and that the medium is mounted",
};
/// A file to read is not there.
pub const ERR_FILE_NO_SUCH: Msg = Msg {
    id: "err-file-no-such",
    fr: "ce fichier n'existe pas : {path}",
    en: "no such file: {path}",
};
/// What to do about it.
pub const REC_FILE_NO_SUCH: Msg = Msg {
    id: "rec-file-no-such",
    fr: "vérifiez le chemin (un chemin relatif part du répertoire de travail) et que le support est bien monté",
    en: "check the path (relative paths are from the working directory) and that the medium is mounted",
};
/// A path that does not end with a file name.
pub const ERR_FILE_NOT_A_NAME: Msg = Msg {
    id: "err-file-not-a-name",
    fr: "{path} n'est pas un nom de fichier",
    en: "{path} is not a file name",
};
/// What to do about it.
pub const REC_FILE_NOT_A_NAME: Msg = Msg {
    id: "rec-file-not-a-name",
    fr: "donnez un chemin qui se termine par un nom de fichier",
    en: "give a path that ends with a file name",
};
/// What to do about a device, a FIFO or a file too large given for a file to read (the
/// verifier says what it is).
pub const REC_FILE_NOT_REGULAR: Msg = Msg {
    id: "rec-file-not-regular",
    fr: "donnez le fichier ordinaire qu'urne ou la production a écrit, et non un périphérique, une FIFO ou un fichier plus gros",
    en: "give the regular file urne or production wrote, not a device, a FIFO or a larger file",
};
/// A path through a symbolic link.
pub const ERR_FILE_SYMLINK: Msg = Msg {
    id: "err-file-symlink",
    fr: "{path} passe par un lien symbolique",
    en: "{path} leads through a symbolic link",
};
/// What to do about it.
pub const REC_FILE_SYMLINK: Msg = Msg {
    id: "rec-file-symlink",
    fr: "urne n'agit jamais à travers un lien symbolique, que quelqu'un pourrait remplacer : donnez le chemin réel (`realpath` l'affiche)",
    en: "urne never acts through a symbolic link, which someone could swap: give the real path (`realpath` shows it)",
};
/// A name in a folder that is not one plain name (a defect of the caller).
pub const ERR_FILE_NOT_ONE_NAME: Msg = Msg {
    id: "err-file-not-one-name",
    fr: "{name} n'est pas un nom unique dans un dossier",
    en: "{name} is not one name in a folder",
};
/// What the system said of a symbolic link in a folder's path (after `err-file-…`).
pub const ERR_FILE_LINK_IN_PATH: Msg = Msg {
    id: "err-file-link-in-path",
    fr: "un lien symbolique dans le chemin (urne n'en suit jamais dans un dossier où il écrit)",
    en: "a symbolic link in the path (urne never follows one in a folder it writes in)",
};
/// What the system said of a name that is not a regular file (after `err-file-…`).
pub const ERR_FILE_NOT_REGULAR: Msg = Msg {
    id: "err-file-not-regular",
    fr: "ce n'est pas un fichier ordinaire",
    en: "not a regular file",
};
/// What the system said of a file over its limit (after `err-file-…`).
pub const ERR_FILE_TOO_LARGE: Msg = Msg {
    id: "err-file-too-large",
    fr: "il dépasse {limit} octets",
    en: "larger than {limit} bytes",
};

// Outputs and their staging folders (spec/appliance.md §4.7, §5.B9).

/// An output already there.
pub const ERR_OUTPUT_EXISTS: Msg = Msg {
    id: "err-output-exists",
    fr: "{path} existe déjà",
    en: "{path} already exists",
};
/// What to do about it.
pub const REC_OUTPUT_EXISTS: Msg = Msg {
    id: "rec-output-exists",
    fr: "urne n'écrase jamais une sortie : donnez un dossier --out vide",
    en: "outputs are never overwritten: give an empty --out folder",
};
/// An output folder that holds something.
pub const ERR_OUTPUT_NOT_EMPTY: Msg = Msg {
    id: "err-output-not-empty",
    fr: "{path} existe déjà et n'est pas vide",
    en: "{path} already exists and is not empty",
};
/// What to do about it.
pub const REC_OUTPUT_NOT_EMPTY: Msg = Msg {
    id: "rec-output-not-empty",
    fr: "urne n'écrase jamais une sortie : donnez un dossier --out nouveau ou vide (après un tirage interrompu, relancez-le avec le même --out : une sortie qu'il y a laissée complète est inscrite comme publiée)",
    en: "outputs are never overwritten: give a new or empty --out folder (after an interrupted draw, run it again with the same --out: an output it left whole there is recorded as published)",
};
/// No free name for a staging folder.
pub const ERR_STAGING_NO_FREE_NAME: Msg = Msg {
    id: "err-staging-no-free-name",
    fr: "aucun nom libre pour un dossier de préparation dans {path}",
    en: "no free staging folder name in {path}",
};
/// What to do about it.
pub const REC_STAGING_NO_FREE_NAME: Msg = Msg {
    id: "rec-staging-no-free-name",
    fr: "supprimez les entrées .urne-staging-* du dossier de sortie",
    en: "remove the .urne-staging-* entries from the output folder",
};
/// The order of publication does not list the files staged (a defect).
pub const ERR_STAGING_ORDER: Msg = Msg {
    id: "err-staging-order",
    fr: "l'ordre de publication ne reprend pas les fichiers préparés",
    en: "publish order does not list the staged files",
};
/// The kernel's random source failed.
pub const ERR_STAGING_RANDOM: Msg = Msg {
    id: "err-staging-random",
    fr: "impossible de lire la source d'aléa du noyau : {e}",
    en: "cannot read the kernel's random source: {e}",
};
/// What to do about it.
pub const REC_STAGING_RANDOM: Msg = Msg {
    id: "rec-staging-random",
    fr: "vérifiez le système (getrandom a échoué)",
    en: "check the system (getrandom failed)",
};
/// A staging folder someone else could change.
pub const ERR_STAGING_NOT_OURS: Msg = Msg {
    id: "err-staging-not-ours",
    fr: "le dossier de préparation {path} n'est pas modifiable par le seul utilisateur d'urne (propriétaire {uid}, mode {mode})",
    en: "the staging folder {path} is not one only urne's user can change (owner {uid}, mode {mode})",
};
/// What to do about it.
pub const REC_STAGING_NOT_OURS: Msg = Msg {
    id: "rec-staging-not-ours",
    fr: "quelqu'un l'a peut-être remplacé au moment où urne le créait (gardez le dossier de sortie comme preuve), ou le support est monté de sorte que ses fichiers n'appartiennent pas au seul utilisateur d'urne : montez-le avec cet utilisateur pour propriétaire et sans droit d'écriture pour le groupe et les autres (FAT/exFAT : uid=, umask=022)",
    en: "someone may have replaced it as urne made it (keep the output folder as evidence), or the medium is mounted so that its files are not urne's user's alone: mount it with that user as owner and no write for group and others (FAT/exFAT: uid=, umask=022)",
};
/// An output file name that is not one plain name (a defect).
pub const ERR_STAGING_BAD_NAME: Msg = Msg {
    id: "err-staging-bad-name",
    fr: "nom de fichier de sortie incorrect : {name}",
    en: "bad output file name {name}",
};
/// A file system that cannot move a file without overwriting.
pub const ERR_STAGING_NO_SAFE_RENAME: Msg = Msg {
    id: "err-staging-no-safe-rename",
    fr: "impossible de mettre {path} en place : le système de fichiers de son support ne sait pas déplacer un fichier sans écraser (renameat2 RENAME_NOREPLACE : {e}), et urne n'écrase jamais",
    en: "cannot put {path} in place: the file system of its medium cannot move a file without overwriting (renameat2 RENAME_NOREPLACE: {e}), and urne never overwrites",
};
/// What to do about it.
pub const REC_STAGING_NO_SAFE_RENAME: Msg = Msg {
    id: "rec-staging-no-safe-rename",
    fr: "utilisez un support dont le système de fichiers a des liens physiques ou RENAME_NOREPLACE : formatez-le en ext4, ou montez FAT/exFAT avec le pilote du noyau (vfat, exfat), et non par FUSE ou un partage réseau",
    en: "use a medium whose file system has hard links or RENAME_NOREPLACE: format it as ext4, or mount FAT/exFAT with the kernel's own driver (vfat, exfat), not through FUSE or a network share",
};
/// The signature of a file never published, removed as a command resumes.
pub const SCR_STAGING_ORPHAN_SIG: Msg = Msg {
    id: "scr-staging-orphan-sig",
    fr: "note : {path} supprimé, signature d'un fichier qu'une commande interrompue n'a jamais publié",
    en: "note: removed {path}, the signature of a file an interrupted command never published",
};
/// A staging leftover that is not a folder, left as it is.
pub const SCR_STAGING_NOT_A_FOLDER: Msg = Msg {
    id: "scr-staging-not-a-folder",
    fr: "note : {path} n'est pas un dossier de préparation créé par urne (ce n'est pas un dossier) ; laissé tel quel",
    en: "note: {path} is not a staging folder urne made (not a folder); left untouched",
};
/// A staging leftover that could not be opened.
pub const SCR_STAGING_CANNOT_OPEN: Msg = Msg {
    id: "scr-staging-cannot-open",
    fr: "note : impossible d'ouvrir le dossier de préparation {path} : {e}",
    en: "note: could not open the staging folder {path}: {e}",
};
/// A staging leftover removed.
pub const SCR_STAGING_REMOVED: Msg = Msg {
    id: "scr-staging-removed",
    fr: "note : {path} supprimé, dossier de préparation d'une commande interrompue (ses fichiers n'ont jamais été publiés)",
    en: "note: removed {path}, the staging folder of an interrupted command (its files were never published)",
};
/// A staging leftover that could not be removed.
pub const SCR_STAGING_CANNOT_REMOVE: Msg = Msg {
    id: "scr-staging-cannot-remove",
    fr: "note : impossible de supprimer le dossier de préparation {path} : {e}",
    en: "note: could not remove the staging folder {path}: {e}",
};

// Defects: what cannot happen unless urne is wrong.

/// What to do about a defect.
pub const REC_DEFECT: Msg = Msg {
    id: "rec-defect",
    fr: "c'est un défaut d'urne",
    en: "this is a defect",
};
/// What to do about a defect that published nothing.
pub const REC_DEFECT_NOTHING_PUBLISHED: Msg = Msg {
    id: "rec-defect-nothing-published",
    fr: "c'est un défaut d'urne ; rien n'a été publié",
    en: "this is a defect; nothing was published",
};

// The lock of the trail's folder: one command at a time.

/// The folder could not be opened to be locked.
pub const ERR_LOCK_OPEN: Msg = Msg {
    id: "err-lock-open",
    fr: "impossible d'ouvrir le dossier de la piste d'audit {path} pour la verrouiller : {e}",
    en: "cannot open the folder of the audit trail {path} to lock it: {e}",
};
/// What to do about it.
pub const REC_LOCK_OPEN: Msg = Msg {
    id: "rec-lock-open",
    fr: "urne verrouille le dossier de la piste pour qu'une seule commande s'exécute à la fois : donnez à l'utilisateur d'urne le droit de lire ce dossier",
    en: "urne takes a lock on the trail's folder so that one command runs at a time: give urne's user read access to the folder",
};
/// The folder could not be locked.
pub const ERR_LOCK_FAILED: Msg = Msg {
    id: "err-lock-failed",
    fr: "impossible de verrouiller le dossier de la piste d'audit {path} : {e}",
    en: "cannot lock the folder of the audit trail {path}: {e}",
};
/// What to do about it.
pub const REC_LOCK_FAILED: Msg = Msg {
    id: "rec-lock-failed",
    fr: "urne verrouille le dossier de la piste pour qu'une seule commande s'exécute à la fois : vérifiez que ce dossier est sur un système de fichiers local",
    en: "urne takes a lock on the trail's folder so that one command runs at a time: check that the folder is on a local file system",
};
/// A process that is not urne's holds the lock.
pub const ERR_LOCK_HELD_BY_OTHER: Msg = Msg {
    id: "err-lock-held-by-other",
    fr: "un processus qui n'est pas urne (processus {pid}, {name}) détient le verrou de la piste d'audit {path} : cette commande n'a rien fait",
    en: "a process that is not urne (process {pid}, {name}) holds the lock of the audit trail {path}: this one did nothing",
};
/// What to do about it.
pub const REC_LOCK_HELD_BY_OTHER: Msg = Msg {
    id: "rec-lock-held-by-other",
    fr: "cherchez pourquoi ce processus verrouille le dossier de la piste (ps, docs/threat-model.md), puis relancez cette commande",
    en: "find out why that process locks the trail's folder (ps, docs/threat-model.md), then run this command again",
};
/// Another urne command holds the lock, its process known.
pub const ERR_LOCK_HELD_BY_URNE: Msg = Msg {
    id: "err-lock-held-by-urne",
    fr: "une autre commande urne détient la piste d'audit {path} (processus {pid}) : cette commande n'a rien fait",
    en: "another urne command holds the audit trail {path} (process {pid}): this one did nothing",
};
/// Another urne command holds the lock.
pub const ERR_LOCK_BUSY: Msg = Msg {
    id: "err-lock-busy",
    fr: "une autre commande urne détient la piste d'audit {path} : cette commande n'a rien fait",
    en: "another urne command holds the audit trail {path}: this one did nothing",
};
/// What to do about it.
pub const REC_LOCK_BUSY: Msg = Msg {
    id: "rec-lock-busy",
    fr: "attendez que l'autre commande soit terminée (une séance détient la piste jusqu'à sa clôture), puis relancez celle-ci",
    en: "wait until the other command has finished (a sitting holds the trail until it closes), then run this one again",
};

// The token's trail and marks (spec/appliance.md §6.5, §6.8).

/// Two marks of one size: a fork.
pub const ERR_TOKEN_FORK: Msg = Msg {
    id: "err-token-fork",
    fr: "le jeton détient deux marques différentes de même taille pour la piste {trail} : deux historiques ont été écrits sous elle (une bifurcation)",
    en: "the token holds two different marks of one size for the trail {trail}: two histories were written under it (a fork)",
};
/// What to do about it.
pub const REC_TOKEN_FORK: Msg = Msg {
    id: "rec-token-fork",
    fr: "arrêtez : gardez le jeton et la base de données comme preuves et enquêtez (docs/threat-model.md)",
    en: "stop: keep the token and the database as evidence and investigate (docs/threat-model.md)",
};
/// The token's trail and its last mark, in one line.
pub const SCR_TOKEN_TRAIL: Msg = Msg {
    id: "scr-token-trail",
    fr: "piste {trail} (dernière marque du jeton : {size} événements, racine {root})",
    en: "trail {trail} (the token's last mark: {size} events, root {root})",
};
/// The token's trail before its first mark.
pub const SCR_TOKEN_TRAIL_NO_MARK: Msg = Msg {
    id: "scr-token-trail-no-mark",
    fr: "piste {trail} (pas encore de marque)",
    en: "trail {trail} (no mark yet)",
};
/// What to do about a token written outside urne.
pub const REC_TOKEN_TAMPERED: Msg = Msg {
    id: "rec-token-tampered",
    fr: "quelqu'un qui a le code PIN a écrit dans le jeton en dehors d'urne : arrêtez, gardez le jeton et la base de données comme preuves, et enquêtez",
    en: "someone with the PIN wrote into the token outside urne: stop, keep the token and the database as evidence, and investigate",
};
/// The token's trail objects form no chain.
pub const ERR_TOKEN_TRAILS_NO_CHAIN: Msg = Msg {
    id: "err-token-trails-no-chain",
    fr: "les {count} objets {label} du jeton ne forment pas une seule chaîne de pistes",
    en: "the token's {count} {label} objects do not form one chain of trails",
};
/// The token's trail names another audit key.
pub const ERR_TOKEN_TRAIL_AUDIT_KEY: Msg = Msg {
    id: "err-token-trail-audit-key",
    fr: "la piste du jeton désigne la clé d'audit {named}, mais la clé d'audit du jeton est {key}",
    en: "the token's trail names the audit key {named} but the token's audit key is {key}",
};

// The running executable (design principle 6).

/// The running executable cannot be found.
pub const ERR_SELF_LOCATE: Msg = Msg {
    id: "err-self-locate",
    fr: "impossible de trouver l'exécutable en cours : {e}",
    en: "cannot locate the running executable: {e}",
};
/// What to do about it.
pub const REC_SELF_LOCATE: Msg = Msg {
    id: "rec-self-locate",
    fr: "lancez urne depuis un fichier ordinaire",
    en: "run urne from a regular file",
};

// Outputs named by another option than --out (`edge::publish`).

/// What to do about an output already there, the folder named by `{flag}`.
pub const REC_OUTPUT_EXISTS_FLAG: Msg = Msg {
    id: "rec-output-exists-flag",
    fr: "urne n'écrase jamais une sortie : donnez un dossier {flag} vide",
    en: "outputs are never overwritten: give an empty {flag} folder",
};
/// What to do about a signed file already there.
pub const REC_OUTPUT_EXISTS_CHOOSE: Msg = Msg {
    id: "rec-output-exists-choose",
    fr: "urne n'écrase jamais une sortie : choisissez un dossier --out vide",
    en: "outputs are never overwritten: choose an empty --out folder",
};
/// What to do about a signature already there with other bytes.
pub const REC_OUTPUT_EXISTS_ANOTHER: Msg = Msg {
    id: "rec-output-exists-another",
    fr: "urne n'écrase jamais une sortie : donnez un autre --out",
    en: "outputs are never overwritten: give another --out",
};

/// Every message of this file, for the catalogue's tests.
pub(super) const ALL: &[&Msg] = &[
    &ERR_FILE_READ,
    &ERR_FILE_READ_WORKDIR,
    &ERR_FILE_OPEN,
    &ERR_FILE_OPEN_FOLDER,
    &ERR_FILE_OPEN_STAGING,
    &ERR_FILE_CREATE_STAGING,
    &ERR_FILE_EXAMINE_STAGING,
    &ERR_FILE_WRITE,
    &ERR_FILE_REMOVE,
    &ERR_FILE_SYNC,
    &ERR_FILE_SYNC_FOLDER_OF,
    &ERR_FILE_PUBLISH,
    &ERR_FILE_CREATE_TRAIL,
    &ERR_FILE_OPEN_TRAIL,
    &ERR_FILE_PUT_TRAIL,
    &REC_FILE_CHECK_PATH,
    &ERR_FILE_NO_SUCH,
    &REC_FILE_NO_SUCH,
    &ERR_FILE_NOT_A_NAME,
    &REC_FILE_NOT_A_NAME,
    &REC_FILE_NOT_REGULAR,
    &ERR_FILE_SYMLINK,
    &REC_FILE_SYMLINK,
    &ERR_FILE_NOT_ONE_NAME,
    &ERR_FILE_LINK_IN_PATH,
    &ERR_FILE_NOT_REGULAR,
    &ERR_FILE_TOO_LARGE,
    &ERR_OUTPUT_EXISTS,
    &REC_OUTPUT_EXISTS,
    &ERR_OUTPUT_NOT_EMPTY,
    &REC_OUTPUT_NOT_EMPTY,
    &ERR_STAGING_NO_FREE_NAME,
    &REC_STAGING_NO_FREE_NAME,
    &ERR_STAGING_ORDER,
    &ERR_STAGING_RANDOM,
    &REC_STAGING_RANDOM,
    &ERR_STAGING_NOT_OURS,
    &REC_STAGING_NOT_OURS,
    &ERR_STAGING_BAD_NAME,
    &ERR_STAGING_NO_SAFE_RENAME,
    &REC_STAGING_NO_SAFE_RENAME,
    &SCR_STAGING_ORPHAN_SIG,
    &SCR_STAGING_NOT_A_FOLDER,
    &SCR_STAGING_CANNOT_OPEN,
    &SCR_STAGING_REMOVED,
    &SCR_STAGING_CANNOT_REMOVE,
    &REC_DEFECT,
    &REC_DEFECT_NOTHING_PUBLISHED,
    &ERR_LOCK_OPEN,
    &REC_LOCK_OPEN,
    &ERR_LOCK_FAILED,
    &REC_LOCK_FAILED,
    &ERR_LOCK_HELD_BY_OTHER,
    &REC_LOCK_HELD_BY_OTHER,
    &ERR_LOCK_HELD_BY_URNE,
    &ERR_LOCK_BUSY,
    &REC_LOCK_BUSY,
    &ERR_TOKEN_FORK,
    &REC_TOKEN_FORK,
    &SCR_TOKEN_TRAIL,
    &SCR_TOKEN_TRAIL_NO_MARK,
    &REC_TOKEN_TAMPERED,
    &ERR_TOKEN_TRAILS_NO_CHAIN,
    &ERR_TOKEN_TRAIL_AUDIT_KEY,
    &ERR_SELF_LOCATE,
    &REC_SELF_LOCATE,
    &REC_OUTPUT_EXISTS_FLAG,
    &REC_OUTPUT_EXISTS_CHOOSE,
    &REC_OUTPUT_EXISTS_ANOTHER,
];
