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

// The audit trail's database (spec/appliance.md §6.5): an SQLite failure, said as
// `audit trail PATH: WHAT: SQLite's words`, WHAT one of the `err-db-…` below.

/// An SQLite failure on the trail: what urne was doing, then SQLite's words.
pub const ERR_DB: Msg = Msg {
    id: "err-db",
    fr: "piste d'audit {path} : {what} : {e}",
    en: "audit trail {path}: {what}: {e}",
};
/// Reading stored data failed.
pub const ERR_DB_READ_DATA: Msg = Msg {
    id: "err-db-read-data",
    fr: "impossible de lire les données",
    en: "cannot read data",
};
/// Opening the database failed.
pub const ERR_DB_OPEN: Msg = Msg {
    id: "err-db-open",
    fr: "impossible de l'ouvrir",
    en: "cannot open",
};
/// Setting the connection's settings failed.
pub const ERR_DB_CONFIGURE: Msg = Msg {
    id: "err-db-configure",
    fr: "impossible de la configurer",
    en: "cannot configure",
};
/// Making the schema failed.
pub const ERR_DB_CREATE_SCHEMA: Msg = Msg {
    id: "err-db-create-schema",
    fr: "impossible d'y créer le schéma",
    en: "cannot create the schema",
};
/// Reading the checkpoints failed.
pub const ERR_DB_READ_CHECKPOINTS: Msg = Msg {
    id: "err-db-read-checkpoints",
    fr: "impossible de lire les points de contrôle",
    en: "cannot read checkpoints",
};
/// Reading the events failed.
pub const ERR_DB_READ_EVENTS: Msg = Msg {
    id: "err-db-read-events",
    fr: "impossible de lire les événements",
    en: "cannot read events",
};
/// Reading the chain's head failed.
pub const ERR_DB_READ_HEAD: Msg = Msg {
    id: "err-db-read-head",
    fr: "impossible de lire la tête de la chaîne",
    en: "cannot read the chain head",
};
/// Beginning an append failed.
pub const ERR_DB_BEGIN_APPEND: Msg = Msg {
    id: "err-db-begin-append",
    fr: "impossible de commencer un ajout",
    en: "cannot begin an append",
};
/// Appending an event failed.
pub const ERR_DB_APPEND: Msg = Msg {
    id: "err-db-append",
    fr: "impossible d'ajouter l'événement",
    en: "cannot append",
};
/// Committing an append failed.
pub const ERR_DB_COMMIT_APPEND: Msg = Msg {
    id: "err-db-commit-append",
    fr: "impossible de valider l'ajout",
    en: "cannot commit an append",
};
/// Storing a checkpoint failed.
pub const ERR_DB_STORE_CHECKPOINT: Msg = Msg {
    id: "err-db-store-checkpoint",
    fr: "impossible d'enregistrer un point de contrôle",
    en: "cannot store a checkpoint",
};
/// Storing data failed.
pub const ERR_DB_STORE_DATA: Msg = Msg {
    id: "err-db-store-data",
    fr: "impossible d'enregistrer les données",
    en: "cannot store data",
};
/// Copying the database failed.
pub const ERR_DB_COPY: Msg = Msg {
    id: "err-db-copy",
    fr: "impossible de la copier",
    en: "cannot copy",
};
/// Reading the database's schema failed.
pub const ERR_DB_READ_SCHEMA: Msg = Msg {
    id: "err-db-read-schema",
    fr: "impossible de lire son schéma",
    en: "cannot read its schema",
};
/// SQLite's integrity check could not run.
pub const ERR_DB_CHECK_STRUCTURE: Msg = Msg {
    id: "err-db-check-structure",
    fr: "impossible de vérifier sa structure",
    en: "cannot check its structure",
};
/// Beginning to keep the commissaire's contribution failed.
pub const ERR_DB_BEGIN_KEEP: Msg = Msg {
    id: "err-db-begin-keep",
    fr: "impossible de commencer à y conserver la contribution",
    en: "begin keeping the contribution in",
};
/// Making the table of kept contributions failed.
pub const ERR_DB_PREPARE_KEEP: Msg = Msg {
    id: "err-db-prepare-keep",
    fr: "impossible d'y préparer la table des contributions",
    en: "prepare the contribution table of",
};
/// Keeping the contribution failed.
pub const ERR_DB_KEEP: Msg = Msg {
    id: "err-db-keep",
    fr: "impossible d'y conserver la contribution",
    en: "keep the contribution in",
};
/// Reading the database failed.
pub const ERR_DB_READ: Msg = Msg {
    id: "err-db-read",
    fr: "impossible de la lire",
    en: "read",
};
/// Reading the kept contribution failed.
pub const ERR_DB_READ_KEPT: Msg = Msg {
    id: "err-db-read-kept",
    fr: "impossible d'y lire la contribution conservée",
    en: "read the kept contribution from",
};
/// What to do about a database damaged or not SQLite's.
pub const REC_DB_DAMAGED: Msg = Msg {
    id: "rec-db-damaged",
    fr: "ce fichier n'est pas la base de données qu'urne a écrite, ou ses pages sont endommagées : gardez-le comme preuve et remettez en place une sauvegarde dont la tête est la dernière marque du jeton (docs/ceremony.md, « urne refuses the trail »)",
    en: "the file is not the database urne wrote or its pages were damaged: keep it as evidence, put back a backup whose head is the token's last mark (docs/ceremony.md, \"urne refuses the trail\")",
};
/// What to do about any other SQLite failure.
pub const REC_DB_FAILED: Msg = Msg {
    id: "rec-db-failed",
    fr: "vérifiez le disque et les droits d'accès au fichier ; lancez `urne audit verify` avant de continuer",
    en: "check the disk and the file's permissions; run `urne audit verify` before going on",
};
/// SQLite refused one of urne's settings.
pub const ERR_DB_SETTING: Msg = Msg {
    id: "err-db-setting",
    fr: "piste d'audit {path} : SQLite n'a pas pris le réglage {flag}",
    en: "audit trail {path}: SQLite did not take the setting {flag}",
};
/// What to do about a defect, the trail kept.
pub const REC_DEFECT_REPORT: Msg = Msg {
    id: "rec-defect-report",
    fr: "c'est un défaut d'urne ; gardez la piste d'audit et signalez-le",
    en: "this is a defect in urne; keep the audit trail and report it",
};
/// What to do about a defect that recorded nothing.
pub const REC_DEFECT_NOTHING_RECORDED: Msg = Msg {
    id: "rec-defect-nothing-recorded",
    fr: "c'est un défaut d'urne ; rien n'a été inscrit",
    en: "this is a defect in urne; nothing was recorded",
};

// The database as urne makes it (spec/appliance.md §6.5): what differs, said inside
// `err-schema-not-urnes`.

/// A database that is not as urne makes it.
pub const ERR_SCHEMA_NOT_URNES: Msg = Msg {
    id: "err-schema-not-urnes",
    fr: "la piste d'audit {path} n'est pas telle qu'urne la crée : {what} ; rien n'y est lu ni inscrit",
    en: "the audit trail {path} is not as urne makes it: {what}; nothing is read from it or recorded in it",
};
/// What to do about it.
pub const REC_SCHEMA_NOT_URNES: Msg = Msg {
    id: "rec-schema-not-urnes",
    fr: "arrêtez : la base de données a été modifiée en dehors d'urne. Gardez-la comme preuve et suivez docs/ceremony.md, « urne refuses the trail »",
    en: "stop: the database was changed outside urne. Keep it as evidence and follow docs/ceremony.md, \"urne refuses the trail\"",
};
/// urne's schema could not be made in memory (a defect).
pub const ERR_SCHEMA_IN_MEMORY: Msg = Msg {
    id: "err-schema-in-memory",
    fr: "impossible de créer en mémoire le schéma d'urne : {e}",
    en: "cannot make urne's own schema in memory: {e}",
};
/// A stored setting that is not urne's.
pub const ERR_SCHEMA_PRAGMA: Msg = Msg {
    id: "err-schema-pragma",
    fr: "son réglage {name} vaut {got}, celui d'urne vaut {value}",
    en: "its {name} is {got}, urne's is {value}",
};
/// SQLite's integrity check of a table found something.
pub const ERR_SCHEMA_INTEGRITY: Msg = Msg {
    id: "err-schema-integrity",
    fr: "le contrôle d'intégrité de SQLite sur sa table `{table}` trouve : {found}",
    en: "SQLite's integrity check of its table `{table}` finds: {found}",
};
/// SQLite's integrity check of a table answered nothing.
pub const ERR_SCHEMA_INTEGRITY_NOTHING: Msg = Msg {
    id: "err-schema-integrity-nothing",
    fr: "le contrôle d'intégrité de SQLite sur sa table `{table}` ne répond rien",
    en: "SQLite's integrity check of its table `{table}` finds: nothing",
};
/// A schema row urne did not make.
pub const ERR_SCHEMA_EXTRA: Msg = Msg {
    id: "err-schema-extra",
    fr: "elle contient l'objet {row}, qu'urne n'a pas créé",
    en: "it holds a {row} that urne did not make",
};
/// An index urne did not make.
pub const ERR_SCHEMA_EXTRA_INDEX: Msg = Msg {
    id: "err-schema-extra-index",
    fr: "elle contient l'index {row}, qu'urne n'a pas créé",
    en: "it holds an {row} that urne did not make",
};
/// SQLite's statistics table, which urne does not make.
pub const ERR_SCHEMA_EXTRA_STAT: Msg = Msg {
    id: "err-schema-extra-stat",
    fr: "elle contient l'objet {row}, qu'urne n'a pas créé (SQLite le crée lors d'un ANALYZE)",
    en: "it holds a {row} that urne did not make (SQLite makes it on ANALYZE)",
};
/// SQLite's sequence table, which urne does not make.
pub const ERR_SCHEMA_EXTRA_SEQUENCE: Msg = Msg {
    id: "err-schema-extra-sequence",
    fr: "elle contient l'objet {row}, qu'urne n'a pas créé (SQLite le crée pour AUTOINCREMENT)",
    en: "it holds a {row} that urne did not make (SQLite makes it for AUTOINCREMENT)",
};
/// One of urne's schema rows changed.
pub const ERR_SCHEMA_CHANGED: Msg = Msg {
    id: "err-schema-changed",
    fr: "l'objet {row} d'urne a été modifié : son SQL est {sql}",
    en: "urne's {row} was changed: it reads {sql}",
};
/// One of urne's schema rows changed, its SQL gone.
pub const ERR_SCHEMA_CHANGED_NO_SQL: Msg = Msg {
    id: "err-schema-changed-no-sql",
    fr: "l'objet {row} d'urne a été modifié : il n'a plus de SQL",
    en: "urne's {row} was changed: it reads no SQL",
};
/// One of urne's schema rows missing.
pub const ERR_SCHEMA_MISSING: Msg = Msg {
    id: "err-schema-missing",
    fr: "l'objet {row} d'urne manque",
    en: "urne's {row} is missing",
};

// The audit trail as a command reads it (spec/appliance.md §6.5, §6.6).

/// An audit payload that cannot be serialised (a defect).
pub const ERR_STORE_ENCODE: Msg = Msg {
    id: "err-store-encode",
    fr: "impossible d'encoder une charge d'événement : {e}",
    en: "cannot encode an audit payload: {e}",
};
/// The chain's head is malformed.
pub const ERR_STORE_HEAD_MALFORMED: Msg = Msg {
    id: "err-store-head-malformed",
    fr: "piste d'audit : la tête de la chaîne est mal formée",
    en: "audit trail: the chain head is malformed",
};
/// What to do about a trail in doubt: verify it.
pub const REC_STORE_AUDIT_VERIFY: Msg = Msg {
    id: "rec-store-audit-verify",
    fr: "lancez `urne audit verify`",
    en: "run `urne audit verify`",
};
/// The trail's path holds something other than a regular file.
pub const ERR_STORE_NOT_REGULAR: Msg = Msg {
    id: "err-store-not-regular",
    fr: "la piste d'audit {path} n'est pas un fichier ordinaire",
    en: "the audit trail {path} is not a regular file",
};
/// What to do about it.
pub const REC_STORE_NOT_REGULAR: Msg = Msg {
    id: "rec-store-not-regular",
    fr: "donnez le chemin de la base de données de l'appareil avec --db ou URNE_DB",
    en: "give the path of the appliance's database with --db or URNE_DB",
};
/// An append before the trail was checked against the token (a defect).
pub const ERR_STORE_UNBOUND: Msg = Msg {
    id: "err-store-unbound",
    fr: "un événement a été ajouté à la piste d'audit avant qu'elle soit confrontée au jeton",
    en: "the audit trail was appended to before it was checked against the token",
};
/// The trail has no checkpoint.
pub const ERR_STORE_NO_CHECKPOINT: Msg = Msg {
    id: "err-store-no-checkpoint",
    fr: "la piste d'audit n'a aucun point de contrôle",
    en: "the audit trail has no checkpoint",
};
/// No trail at the path given.
pub const ERR_STORE_NO_TRAIL: Msg = Msg {
    id: "err-store-no-trail",
    fr: "aucune piste d'audit à {path}",
    en: "no audit trail at {path}",
};
/// What to do about it.
pub const REC_STORE_NO_TRAIL: Msg = Msg {
    id: "rec-store-no-trail",
    fr: "donnez --db FICHIER ou mettez dans URNE_DB la base d'audit de l'appareil",
    en: "pass --db FILE or set URNE_DB to the appliance's audit database",
};
/// The trail grew under the command.
pub const ERR_STORE_GREW: Msg = Msg {
    id: "err-store-grew",
    fr: "la piste d'audit {path} s'est allongée pendant cette commande : elle en avait vérifié {known} événements et en trouve {found} (écrits par quelque chose qui ne détenait pas le verrou de la piste, que toute commande urne détient pendant qu'elle s'exécute) ; rien n'a été décidé d'après eux",
    en: "the audit trail {path} grew while this command ran: it had verified {known} events and finds {found} (written by something that did not hold the trail's lock, which every urne command holds while it runs); nothing was decided from them",
};
/// What to do about events written under a command.
pub const REC_STORE_GREW: Msg = Msg {
    id: "rec-store-grew",
    fr: "gardez la base de données comme preuve, voyez avec `urne audit verify` et `urne audit show` ce qui a été ajouté, et ne vous fiez à aucune sortie tant que ce n'est pas expliqué",
    en: "keep the database as evidence, check with `urne audit verify` and `urne audit show` what was added, and act on no output until it is explained",
};
/// A stored blob is missing.
pub const ERR_STORE_BLOB_MISSING: Msg = Msg {
    id: "err-store-blob-missing",
    fr: "piste d'audit : la donnée {sha} manque",
    en: "audit trail: data {sha} is missing",
};
/// A stored blob does not match its hash.
pub const ERR_STORE_BLOB_HASH: Msg = Msg {
    id: "err-store-blob-hash",
    fr: "piste d'audit : la donnée {sha} ne correspond pas à son empreinte",
    en: "audit trail: data {sha} does not match its hash",
};
/// What to do about an altered database.
pub const REC_STORE_ALTERED: Msg = Msg {
    id: "rec-store-altered",
    fr: "la base de données a été modifiée : lancez `urne audit verify` et enquêtez",
    en: "the database was altered: run `urne audit verify` and investigate",
};
/// The trail's file was changed by someone else under the command.
pub const ERR_STORE_CHANGED: Msg = Msg {
    id: "err-store-changed",
    fr: "la piste d'audit {path} a été modifiée par quelqu'un d'autre pendant cette commande ; ce que cette commande a inscrit est dans le fichier qu'elle a ouvert, non dans celui qui est maintenant à ce chemin",
    en: "the audit trail {path} was changed by someone else while this command ran; what this command recorded is in the file it opened, not in the one now at that path",
};
/// The trail's file was deleted under the command.
pub const ERR_STORE_DELETED: Msg = Msg {
    id: "err-store-deleted",
    fr: "la piste d'audit {path} a été supprimée pendant cette commande ; ce que cette commande a inscrit est dans le fichier qu'elle a ouvert, non dans celui qui est maintenant à ce chemin",
    en: "the audit trail {path} was deleted while this command ran; what this command recorded is in the file it opened, not in the one now at that path",
};
/// The trail's file was replaced under the command.
pub const ERR_STORE_REPLACED: Msg = Msg {
    id: "err-store-replaced",
    fr: "la piste d'audit {path} a été remplacée pendant cette commande ; ce que cette commande a inscrit est dans le fichier qu'elle a ouvert, non dans celui qui est maintenant à ce chemin",
    en: "the audit trail {path} was replaced while this command ran; what this command recorded is in the file it opened, not in the one now at that path",
};
/// What to do about a trail changed, deleted or replaced under the command.
pub const REC_STORE_GONE: Msg = Msg {
    id: "rec-store-gone",
    fr: "arrêtez : rien de ce que cette commande a affiché ne doit servir avant que la piste soit expliquée. Gardez chaque fichier comme preuve et suivez docs/ceremony.md, « urne refuses the trail »",
    en: "stop: nothing this command printed may be used before the trail is explained. Keep every file as evidence and follow docs/ceremony.md, \"urne refuses the trail\"",
};
/// The trail was rewritten under the command: what differs, one of `err-store-rewritten-…`.
pub const ERR_STORE_REWRITTEN: Msg = Msg {
    id: "err-store-rewritten",
    fr: "la piste d'audit {path} a été réécrite pendant cette commande ({what}) ; rien de plus n'est fait",
    en: "the audit trail {path} was rewritten while this command ran ({what}); nothing more is done",
};
/// An event that breaks the chain.
pub const ERR_STORE_REWRITTEN_EVENT: Msg = Msg {
    id: "err-store-rewritten-event",
    fr: "événement {seq} : {reason}",
    en: "event {seq}: {reason}",
};
/// Fewer events than verified.
pub const ERR_STORE_REWRITTEN_FEWER: Msg = Msg {
    id: "err-store-rewritten-fewer",
    fr: "elle contient {found} événements, cette commande en avait vérifié {known}",
    en: "it holds {found} events, this command had verified {known}",
};
/// An event that is not the one verified.
pub const ERR_STORE_REWRITTEN_OTHER: Msg = Msg {
    id: "err-store-rewritten-other",
    fr: "l'événement {seq} n'est pas celui qui a été vérifié",
    en: "event {seq} is not the one verified",
};
/// What to do about it.
pub const REC_STORE_REWRITTEN: Msg = Msg {
    id: "rec-store-rewritten",
    fr: "gardez la base de données comme preuve, lancez `urne audit verify`, et ne vous fiez à aucune sortie de cette commande tant que ce n'est pas expliqué",
    en: "keep the database as evidence, run `urne audit verify`, and act on no output of this command until it is explained",
};

// An append (spec/appliance.md §6.6, spec/formats.md §6.4).

/// A record of another kind than its event (a defect).
pub const ERR_APPEND_RECORD_KIND: Msg = Msg {
    id: "err-append-record-kind",
    fr: "un enregistrement {record} a été fait pour un événement {kind}",
    en: "a {record} record was made for a {kind} event",
};
/// The token's trail was restarted under the command.
pub const ERR_APPEND_RESTARTED: Msg = Msg {
    id: "err-append-restarted",
    fr: "la piste du jeton n'est plus la piste {trail} à laquelle cette commande ajoutait dans {path} (la piste du jeton est maintenant {now}) : elle a été redémarrée pendant la commande ; rien de plus n'est fait",
    en: "the token's trail is no longer the trail {trail} this command appended to {path} (the token's trail is now {now}): it was restarted while the command ran; nothing more is done",
};
/// The token's trail was restarted under the command, and its trails form no chain.
pub const ERR_APPEND_RESTARTED_NO_CHAIN: Msg = Msg {
    id: "err-append-restarted-no-chain",
    fr: "la piste du jeton n'est plus la piste {trail} à laquelle cette commande ajoutait dans {path} (les objets de piste du jeton ne forment pas une seule chaîne de pistes) : elle a été redémarrée pendant la commande ; rien de plus n'est fait",
    en: "the token's trail is no longer the trail {trail} this command appended to {path} (the token's trail objects do not form one chain of trails): it was restarted while the command ran; nothing more is done",
};
/// What to do about it.
pub const REC_APPEND_RESTARTED: Msg = Msg {
    id: "rec-append-restarted",
    fr: "arrêtez : gardez cette base de données comme preuve ; les événements qu'elle contient au-delà de la dernière marque du redémarrage n'appartiennent pas à la piste du jeton (docs/ceremony.md, « urne refuses the trail »)",
    en: "stop: keep this database as evidence; the events it holds beyond the restart's last mark are not the token's trail's (docs/ceremony.md, \"urne refuses the trail\")",
};
/// Another history of the trail in the token: two copies used at once.
pub const ERR_APPEND_FORK: Msg = Msg {
    id: "err-append-fork",
    fr: "le jeton détient un autre historique de cette piste (une marque de {size} événements, racine {root}) que celui auquel cette commande ajoutait dans {path} : deux copies de la piste ont servi en même temps ; rien de plus n'est fait",
    en: "the token holds another history of this trail (a mark of {size} events, root {root}) besides the one this command appended to {path}: two copies of the trail were used at once; nothing more is done",
};
/// What to do about it.
pub const REC_APPEND_FORK: Msg = Msg {
    id: "rec-append-fork",
    fr: "arrêtez : gardez chaque copie de la base de données comme preuve ; la piste ne peut continuer que par un `urne trail restart` devant témoin (docs/ceremony.md, « urne refuses the trail »)",
    en: "stop: keep every copy of the database as evidence; the trail can only go on through a witnessed `urne trail restart` (docs/ceremony.md, \"urne refuses the trail\")",
};
/// The head is not covered by a checkpoint the token signed.
pub const ERR_APPEND_HEAD_UNSIGNED: Msg = Msg {
    id: "err-append-head-unsigned",
    fr: "piste d'audit {path} : sa tête (événement {n}) n'est couverte par aucun point de contrôle signé par le jeton : des événements ont été ajoutés ou retirés en dehors d'urne pendant cette commande ; rien n'a été inscrit",
    en: "audit trail {path}: its head (event {n}) is not covered by a checkpoint the token signed: events were added or removed outside urne while this command ran; nothing was recorded",
};
/// What to do about it.
pub const REC_APPEND_HEAD_UNSIGNED: Msg = Msg {
    id: "rec-append-head-unsigned",
    fr: "gardez la base de données comme preuve, lancez `urne audit verify`, et ne vous fiez à aucune sortie tant que ce n'est pas expliqué",
    en: "keep the database as evidence, run `urne audit verify`, and act on no output until it is explained",
};
/// The head moved under the command: its decision not recorded.
pub const ERR_APPEND_HEAD_MOVED: Msg = Msg {
    id: "err-append-head-moved",
    fr: "la piste d'audit a changé pendant cette commande : elle connaissait {seen} événements et en trouve {found} (écrits par quelque chose qui ne détenait pas le verrou de la piste, que toute commande urne détient pendant qu'elle s'exécute) ; la décision de cette commande n'a pas été inscrite",
    en: "the audit trail changed while this command ran: it knew of {seen} events and finds {found} (written by something that did not hold the trail's lock, which every urne command holds while it runs); this command's decision was not recorded",
};
/// The clock went back under the command.
pub const ERR_APPEND_CLOCK_BACK: Msg = Msg {
    id: "err-append-clock-back",
    fr: "piste d'audit {path} : rien n'est ajouté, l'horloge a reculé pendant cette commande : {why}",
    en: "audit trail {path}: not appended, the clock went back while this command ran: {why}",
};
/// What to do about it.
pub const REC_APPEND_CLOCK_BACK: Msg = Msg {
    id: "rec-append-clock-back",
    fr: "rien de plus n'a été inscrit. Mettez l'horloge de l'appareil à l'heure devant le commissaire de justice et relancez la commande (si l'horloge était juste, les derniers événements de la piste étaient datés en avance : `urne clock correct`)",
    en: "nothing more was recorded. Set the appliance's clock right in front of the commissaire and run the command again (if the clock was right, the trail's last events were dated ahead: `urne clock correct`)",
};

// A new trail put in place (`urne keys init`, `urne trail restart`).

/// The new trail vanished as it was put in place.
pub const ERR_BUILD_VANISHED: Msg = Msg {
    id: "err-build-vanished",
    fr: "la piste d'audit {path} a disparu au moment où elle était mise en place",
    en: "the audit trail {path} vanished as it was put in place",
};
/// What to do about it: the command again.
pub const REC_BUILD_AGAIN: Msg = Msg {
    id: "rec-build-again",
    fr: "relancez `{command}`",
    en: "run `{command}` again",
};
/// The trail's folder is not there.
pub const ERR_BUILD_NO_FOLDER: Msg = Msg {
    id: "err-build-no-folder",
    fr: "le dossier {path} de la piste d'audit n'existe pas",
    en: "no folder {path} for the audit trail",
};
/// What to do about it.
pub const REC_BUILD_NO_FOLDER: Msg = Msg {
    id: "rec-build-no-folder",
    fr: "donnez un --db (URNE_DB) dans un dossier existant du disque propre de l'appareil",
    en: "give a --db (URNE_DB) in an existing folder of the appliance's own disk",
};
/// A file is already at the trail's path.
pub const ERR_BUILD_EXISTS: Msg = Msg {
    id: "err-build-exists",
    fr: "un fichier existe déjà à {path}",
    en: "a file exists at {path}",
};
/// What to do about it.
pub const REC_BUILD_EXISTS: Msg = Msg {
    id: "rec-build-exists",
    fr: "urne ne remplace jamais une piste d'audit : déplacez ce fichier (gardez-le comme preuve) et relancez la commande",
    en: "urne never replaces an audit trail: move that file away (keep it as evidence) and run the command again",
};
/// A leftover temporary name that is not a regular file, left as it is.
pub const SCR_BUILD_NOT_A_FILE: Msg = Msg {
    id: "scr-build-not-a-file",
    fr: "note : {path} n'est pas un fichier créé par urne (ce n'est pas un fichier ordinaire) ; laissé tel quel",
    en: "note: {path} is not a file urne made (not a regular file); left untouched",
};
/// A leftover temporary trail removed.
pub const SCR_BUILD_REMOVING: Msg = Msg {
    id: "scr-build-removing",
    fr: "note : suppression de {path}, laissé par un `{command}` interrompu",
    en: "note: removing {path}, left by an interrupted `{command}`",
};
/// A leftover temporary trail that could not be removed.
pub const SCR_BUILD_CANNOT_REMOVE: Msg = Msg {
    id: "scr-build-cannot-remove",
    fr: "note : impossible de supprimer {path} : {e}",
    en: "note: could not remove {path}: {e}",
};

// A copy of the trail (`urne audit backup`, spec/appliance.md §6.8): what failed, said inside
// `err-copy`.

/// The copy failed.
pub const ERR_COPY: Msg = Msg {
    id: "err-copy",
    fr: "impossible de copier la piste d'audit {path} : {what}",
    en: "cannot copy the audit trail {path}: {what}",
};
/// What to do about it.
pub const REC_COPY: Msg = Msg {
    id: "rec-copy",
    fr: "vérifiez le disque qui porte la piste d'audit ; rien n'a été écrit",
    en: "check the disk holding the audit trail; nothing was written",
};
/// SQLite gives no descriptor of the file.
pub const ERR_COPY_NO_DESCRIPTOR: Msg = Msg {
    id: "err-copy-no-descriptor",
    fr: "SQLite ne donne aucun descripteur du fichier de la base",
    en: "SQLite gives no descriptor of the database file",
};
/// The file's size cannot be read.
pub const ERR_COPY_SIZE: Msg = Msg {
    id: "err-copy-size",
    fr: "impossible de lire la taille du fichier (SQLite {rc})",
    en: "cannot read the file's size (SQLite {rc})",
};
/// A read past the file's end.
pub const ERR_COPY_PAST_END: Msg = Msg {
    id: "err-copy-past-end",
    fr: "une lecture au-delà de la fin du fichier",
    en: "a read past the file's end",
};
/// SQLite gives no way to read the file.
pub const ERR_COPY_NO_READ: Msg = Msg {
    id: "err-copy-no-read",
    fr: "SQLite ne donne aucun moyen de lire le fichier",
    en: "SQLite gives no way to read the file",
};
/// A read of the file failed.
pub const ERR_COPY_READ_AT: Msg = Msg {
    id: "err-copy-read-at",
    fr: "impossible de lire {len} octets à la position {offset} (SQLite {rc})",
    en: "cannot read {len} bytes at {offset} (SQLite {rc})",
};
/// The copy cannot be read back.
pub const ERR_COPY_READ_BACK: Msg = Msg {
    id: "err-copy-read-back",
    fr: "impossible de la relire : {e}",
    en: "cannot read it back: {e}",
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

// The process itself, before the token is opened (docs/threat-model.md).

/// Whether urne is traced cannot be read.
pub const ERR_PROCESS_TRACER_UNKNOWN: Msg = Msg {
    id: "err-process-tracer-unknown",
    fr: "ouverture du jeton refusée : urne ne peut pas lire si un autre processus le trace (/proc/self/status)",
    en: "refusing to open the token: urne cannot read whether another process traces it (/proc/self/status)",
};
/// urne is traced.
pub const ERR_PROCESS_TRACED: Msg = Msg {
    id: "err-process-traced",
    fr: "ouverture du jeton refusée : urne est tracé par le processus {pid}, qui peut lire le code PIN et changer ce qu'urne calcule",
    en: "refusing to open the token: urne is traced by process {pid}, which can read the PIN and change what urne computes",
};
/// What to do about it.
pub const REC_PROCESS_TRACED: Msg = Msg {
    id: "rec-process-traced",
    fr: "lancez urne lui-même, et non sous un débogueur ou un traceur (strace, gdb, un lanceur qui le trace) ; rien n'a été fait",
    en: "run urne itself, not under a debugger or tracer (strace, gdb, a launcher that traces it); nothing was done",
};
/// urne could not make itself non-dumpable.
pub const ERR_PROCESS_DUMPABLE: Msg = Msg {
    id: "err-process-dumpable",
    fr: "ouverture du jeton refusée : urne n'a pas pu interdire qu'on lise sa mémoire (non-dumpable)",
    en: "refusing to open the token: urne could not make itself non-dumpable",
};
/// What to do about it.
pub const REC_PROCESS_DUMPABLE: Msg = Msg {
    id: "rec-process-dumpable",
    fr: "urne tourne sous Linux, où prctl(PR_SET_DUMPABLE) est toujours permis : cherchez ce qui l'en empêche ; rien n'a été fait",
    en: "urne runs on Linux, where prctl(PR_SET_DUMPABLE) is always allowed: find out what stops it; nothing was done",
};
/// urne runs in a user namespace of its own.
pub const ERR_PROCESS_NAMESPACE: Msg = Msg {
    id: "err-process-namespace",
    fr: "ouverture du jeton refusée : urne tourne dans un espace de noms d'utilisateurs à lui (uid map {map}), où des fichiers du système ont pu être remplacés pour lui seul",
    en: "refusing to open the token: urne runs in a user namespace of its own (uid map {map}), where system files may have been replaced for it alone",
};
/// What to do about it.
pub const REC_PROCESS_NAMESPACE: Msg = Msg {
    id: "rec-process-namespace",
    fr: "lancez urne sur l'appareil lui-même, hors de tout conteneur et de `unshare -U` ; rien n'a été fait",
    en: "run urne on the appliance itself, outside any container or `unshare -U`; nothing was done",
};
/// urne was started with variables that load code.
pub const ERR_PROCESS_ENV: Msg = Msg {
    id: "err-process-env",
    fr: "ouverture du jeton refusée : urne a été lancé avec {names} dans son environnement, ce qui peut faire charger aux bibliothèques du système du code ou une configuration autres que ceux d'urne et de son module HSM",
    en: "refusing to open the token: urne was started with {names} in its environment, which can make the system's libraries load code or configuration other than urne's and its HSM module's",
};
/// What to do about one such variable.
pub const REC_PROCESS_ENV_ONE: Msg = Msg {
    id: "rec-process-env-one",
    fr: "lancez urne sans cette variable (pas même vide : par exemple `env{unset} urne …`), et cherchez qui l'a définie ; rien n'a été fait",
    en: "run urne without it (not even empty: e.g. `env{unset} urne …`), and find out who set it; nothing was done",
};
/// What to do about several.
pub const REC_PROCESS_ENV_MANY: Msg = Msg {
    id: "rec-process-env-many",
    fr: "lancez urne sans ces variables (pas même vides : par exemple `env{unset} urne …`), et cherchez qui les a définies ; rien n'a été fait",
    en: "run urne without them (not even empty: e.g. `env{unset} urne …`), and find out who set them; nothing was done",
};
/// libcrypto could not be set to load no configuration and no engine.
pub const ERR_PROCESS_OPENSSL: Msg = Msg {
    id: "err-process-openssl",
    fr: "ouverture du jeton refusée : la libcrypto d'OpenSSL n'a pas pu être réglée pour ne charger aucune configuration et aucun moteur par son nom ({state})",
    en: "refusing to open the token: OpenSSL's libcrypto could not be set to load no configuration and no engine by name ({state})",
};
/// What to do about it.
pub const REC_PROCESS_OPENSSL: Msg = Msg {
    id: "rec-process-openssl",
    fr: "quelque chose a utilisé la libcrypto avant le démarrage d'urne, ou y a enregistré un moteur : lancez l'exécutable urne lui-même, sans rien de préchargé ; rien n'a été fait",
    en: "something used libcrypto before urne started, or registered an engine: run the urne executable itself, with nothing preloaded; nothing was done",
};
/// The configuration's `module_env` names a variable that loads code.
pub const ERR_PROCESS_MODULE_ENV: Msg = Msg {
    id: "err-process-module-env",
    fr: "ouverture du jeton refusée : le module_env de la configuration nomme {name}, une variable qui peut faire charger du code ou une configuration aux bibliothèques du système",
    en: "refusing to open the token: the configuration's module_env names {name}, a variable that can make the system's libraries load code or configuration",
};
/// What to do about it.
pub const REC_PROCESS_MODULE_ENV: Msg = Msg {
    id: "rec-process-module-env",
    fr: "ne nommez dans module_env que ce que lit le module de l'HSM lui-même (pour SoftHSM : SOFTHSM2_CONF) ; rien n'a été fait",
    en: "name in module_env only what the HSM's module itself reads (for SoftHSM: SOFTHSM2_CONF); nothing was done",
};

// The code in the process: the loader and the libraries mapped (docs/threat-model.md).

/// urne started through the dynamic loader as a command.
pub const ERR_LOADER_AS_COMMAND: Msg = Msg {
    id: "err-loader-as-command",
    fr: "ouverture du jeton refusée : urne a été lancé par le chargeur dynamique comme une commande (ld.so … urne), ce qui peut faire entrer du code choisi par n'importe qui",
    en: "refusing to open the token: urne was started through the dynamic loader as a command (ld.so … urne), which can bring in code of anyone's choosing",
};
/// What to do about it.
pub const REC_LOADER_AS_COMMAND: Msg = Msg {
    id: "rec-loader-as-command",
    fr: "lancez l'exécutable urne lui-même ; rien n'a été fait",
    en: "run the urne executable itself; nothing was done",
};
/// A system-wide preload list that cannot be read.
pub const ERR_LOADER_PRELOAD_UNREADABLE: Msg = Msg {
    id: "err-loader-preload-unreadable",
    fr: "ouverture du jeton refusée : {path} existe mais ne peut pas être lu ({e}) : il peut faire charger du code dans chaque programme",
    en: "refusing to open the token: {path} exists but cannot be read ({e}): it may make the loader bring code into every program",
};
/// What to do about it.
pub const REC_LOADER_PRELOAD_UNREADABLE: Msg = Msg {
    id: "rec-loader-preload-unreadable",
    fr: "supprimez ce fichier, ou rendez-le lisible et vide, sur l'appareil ; rien n'a été fait",
    en: "remove the file, or make it readable and empty, on the appliance; nothing was done",
};
/// A system-wide preload list that names libraries.
pub const ERR_LOADER_PRELOAD: Msg = Msg {
    id: "err-loader-preload",
    fr: "ouverture du jeton refusée : {path} nomme des bibliothèques que le chargeur fait entrer dans chaque programme ({names})",
    en: "refusing to open the token: {path} names libraries the loader brings into every program ({names})",
};
/// What to do about it.
pub const REC_LOADER_PRELOAD: Msg = Msg {
    id: "rec-loader-preload",
    fr: "le système de l'appareil ne doit rien précharger : videz ou supprimez ce fichier, et cherchez qui l'a mis là ; rien n'a été fait",
    en: "the appliance's system must preload nothing: empty or remove the file, and find out who put it there; nothing was done",
};
/// /proc/self/maps cannot be read to measure the code.
pub const ERR_LOADER_MAPS: Msg = Msg {
    id: "err-loader-maps",
    fr: "impossible de lire /proc/self/maps pour mesurer le code de ce processus : {e}",
    en: "cannot read /proc/self/maps to measure the code in this process: {e}",
};
/// What to do about a /proc that cannot be read.
pub const REC_PROC_MOUNTED: Msg = Msg {
    id: "rec-proc-mounted",
    fr: "urne tourne sous Linux avec /proc monté",
    en: "urne runs on Linux with /proc mounted",
};
/// The same, nothing done.
pub const REC_PROC_MOUNTED_NOTHING_DONE: Msg = Msg {
    id: "rec-proc-mounted-nothing-done",
    fr: "urne tourne sous Linux avec /proc monté ; rien n'a été fait",
    en: "urne runs on Linux with /proc mounted; nothing was done",
};
/// The metadata of a file urne runs cannot be read.
pub const ERR_CLOSURE_METADATA: Msg = Msg {
    id: "err-closure-metadata",
    fr: "impossible de lire les métadonnées d'un fichier qu'urne exécute : {e}",
    en: "cannot read the metadata of a file urne runs: {e}",
};
/// urne's own executable cannot be opened.
pub const ERR_CLOSURE_EXE: Msg = Msg {
    id: "err-closure-exe",
    fr: "impossible d'ouvrir l'exécutable d'urne lui-même (/proc/self/exe) : {e}",
    en: "cannot open urne's own executable (/proc/self/exe): {e}",
};
/// /proc/self/maps cannot be read to check the code.
pub const ERR_CLOSURE_MAPS: Msg = Msg {
    id: "err-closure-maps",
    fr: "impossible de lire /proc/self/maps pour contrôler le code de ce processus : {e}",
    en: "cannot read /proc/self/maps to check the code in this process: {e}",
};
/// Code in memory no file backs (in `err-closure-extra-…`'s list).
pub const ERR_CLOSURE_ANONYMOUS: Msg = Msg {
    id: "err-closure-anonymous",
    fr: "mémoire anonyme {range}",
    en: "anonymous memory {range}",
};
/// When the check found it: before the module is loaded (inside `err-closure-extra-…`).
pub const ERR_CLOSURE_AT_START: Msg = Msg {
    id: "err-closure-at-start",
    fr: "avant le chargement du module de l'HSM",
    en: "before the HSM's module is loaded",
};
/// After the module's `C_Initialize`.
pub const ERR_CLOSURE_AT_INITIALISED: Msg = Msg {
    id: "err-closure-at-initialised",
    fr: "après l'initialisation du module de l'HSM (C_Initialize)",
    en: "after the HSM's module was initialised (C_Initialize)",
};
/// After login.
pub const ERR_CLOSURE_AT_LOGGED_IN: Msg = Msg {
    id: "err-closure-at-logged-in",
    fr: "après la connexion au jeton",
    en: "after login to the token",
};
/// A file mapped that neither urne nor its module needs.
pub const ERR_CLOSURE_EXTRA_ONE: Msg = Msg {
    id: "err-closure-extra-one",
    fr: "arrêt : {stage}, le processus d'urne a en mémoire un fichier dont ni urne ni son module HSM n'a besoin ({files}) : du code choisi par quelqu'un d'autre pourrait répondre à la place de l'HSM",
    en: "refusing to go on: {stage}, urne's process maps a file that neither urne nor its HSM module needs ({files}): code of someone else's choosing may answer for the HSM",
};
/// Several.
pub const ERR_CLOSURE_EXTRA_MANY: Msg = Msg {
    id: "err-closure-extra-many",
    fr: "arrêt : {stage}, le processus d'urne a en mémoire des fichiers dont ni urne ni son module HSM n'a besoin ({files}) : du code choisi par quelqu'un d'autre pourrait répondre à la place de l'HSM",
    en: "refusing to go on: {stage}, urne's process maps files that neither urne nor its HSM module needs ({files}): code of someone else's choosing may answer for the HSM",
};
/// What to do about it.
pub const REC_CLOSURE_EXTRA: Msg = Msg {
    id: "rec-closure-extra",
    fr: "rien n'a été signé ni inscrit ; laissez la machine en l'état et cherchez ce qui l'a chargé (la configuration d'une bibliothèque, /etc/ld.so.cache, le module lui-même)",
    en: "nothing was signed or recorded; keep the machine as it is and find out what loaded it (a library's configuration, /etc/ld.so.cache, the module itself)",
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
    &ERR_DB,
    &ERR_DB_READ_DATA,
    &ERR_DB_OPEN,
    &ERR_DB_CONFIGURE,
    &ERR_DB_CREATE_SCHEMA,
    &ERR_DB_READ_CHECKPOINTS,
    &ERR_DB_READ_EVENTS,
    &ERR_DB_READ_HEAD,
    &ERR_DB_BEGIN_APPEND,
    &ERR_DB_APPEND,
    &ERR_DB_COMMIT_APPEND,
    &ERR_DB_STORE_CHECKPOINT,
    &ERR_DB_STORE_DATA,
    &ERR_DB_COPY,
    &ERR_DB_READ_SCHEMA,
    &ERR_DB_CHECK_STRUCTURE,
    &ERR_DB_BEGIN_KEEP,
    &ERR_DB_PREPARE_KEEP,
    &ERR_DB_KEEP,
    &ERR_DB_READ,
    &ERR_DB_READ_KEPT,
    &REC_DB_DAMAGED,
    &REC_DB_FAILED,
    &ERR_DB_SETTING,
    &REC_DEFECT_REPORT,
    &REC_DEFECT_NOTHING_RECORDED,
    &ERR_SCHEMA_NOT_URNES,
    &REC_SCHEMA_NOT_URNES,
    &ERR_SCHEMA_IN_MEMORY,
    &ERR_SCHEMA_PRAGMA,
    &ERR_SCHEMA_INTEGRITY,
    &ERR_SCHEMA_INTEGRITY_NOTHING,
    &ERR_SCHEMA_EXTRA,
    &ERR_SCHEMA_EXTRA_INDEX,
    &ERR_SCHEMA_EXTRA_STAT,
    &ERR_SCHEMA_EXTRA_SEQUENCE,
    &ERR_SCHEMA_CHANGED,
    &ERR_SCHEMA_CHANGED_NO_SQL,
    &ERR_SCHEMA_MISSING,
    &ERR_STORE_ENCODE,
    &ERR_STORE_HEAD_MALFORMED,
    &REC_STORE_AUDIT_VERIFY,
    &ERR_STORE_NOT_REGULAR,
    &REC_STORE_NOT_REGULAR,
    &ERR_STORE_UNBOUND,
    &ERR_STORE_NO_CHECKPOINT,
    &ERR_STORE_NO_TRAIL,
    &REC_STORE_NO_TRAIL,
    &ERR_STORE_GREW,
    &REC_STORE_GREW,
    &ERR_STORE_BLOB_MISSING,
    &ERR_STORE_BLOB_HASH,
    &REC_STORE_ALTERED,
    &ERR_STORE_CHANGED,
    &ERR_STORE_DELETED,
    &ERR_STORE_REPLACED,
    &REC_STORE_GONE,
    &ERR_STORE_REWRITTEN,
    &ERR_STORE_REWRITTEN_EVENT,
    &ERR_STORE_REWRITTEN_FEWER,
    &ERR_STORE_REWRITTEN_OTHER,
    &REC_STORE_REWRITTEN,
    &ERR_APPEND_RECORD_KIND,
    &ERR_APPEND_RESTARTED,
    &ERR_APPEND_RESTARTED_NO_CHAIN,
    &REC_APPEND_RESTARTED,
    &ERR_APPEND_FORK,
    &REC_APPEND_FORK,
    &ERR_APPEND_HEAD_UNSIGNED,
    &REC_APPEND_HEAD_UNSIGNED,
    &ERR_APPEND_HEAD_MOVED,
    &ERR_APPEND_CLOCK_BACK,
    &REC_APPEND_CLOCK_BACK,
    &ERR_BUILD_VANISHED,
    &REC_BUILD_AGAIN,
    &ERR_BUILD_NO_FOLDER,
    &REC_BUILD_NO_FOLDER,
    &ERR_BUILD_EXISTS,
    &REC_BUILD_EXISTS,
    &SCR_BUILD_NOT_A_FILE,
    &SCR_BUILD_REMOVING,
    &SCR_BUILD_CANNOT_REMOVE,
    &ERR_COPY,
    &REC_COPY,
    &ERR_COPY_NO_DESCRIPTOR,
    &ERR_COPY_SIZE,
    &ERR_COPY_PAST_END,
    &ERR_COPY_NO_READ,
    &ERR_COPY_READ_AT,
    &ERR_COPY_READ_BACK,
    &REC_OUTPUT_EXISTS_FLAG,
    &REC_OUTPUT_EXISTS_CHOOSE,
    &REC_OUTPUT_EXISTS_ANOTHER,
    &ERR_PROCESS_TRACER_UNKNOWN,
    &ERR_PROCESS_TRACED,
    &REC_PROCESS_TRACED,
    &ERR_PROCESS_DUMPABLE,
    &REC_PROCESS_DUMPABLE,
    &ERR_PROCESS_NAMESPACE,
    &REC_PROCESS_NAMESPACE,
    &ERR_PROCESS_ENV,
    &REC_PROCESS_ENV_ONE,
    &REC_PROCESS_ENV_MANY,
    &ERR_PROCESS_OPENSSL,
    &REC_PROCESS_OPENSSL,
    &ERR_PROCESS_MODULE_ENV,
    &REC_PROCESS_MODULE_ENV,
    &ERR_LOADER_AS_COMMAND,
    &REC_LOADER_AS_COMMAND,
    &ERR_LOADER_PRELOAD_UNREADABLE,
    &REC_LOADER_PRELOAD_UNREADABLE,
    &ERR_LOADER_PRELOAD,
    &REC_LOADER_PRELOAD,
    &ERR_LOADER_MAPS,
    &REC_PROC_MOUNTED,
    &REC_PROC_MOUNTED_NOTHING_DONE,
    &ERR_CLOSURE_METADATA,
    &ERR_CLOSURE_EXE,
    &ERR_CLOSURE_MAPS,
    &ERR_CLOSURE_ANONYMOUS,
    &ERR_CLOSURE_AT_START,
    &ERR_CLOSURE_AT_INITIALISED,
    &ERR_CLOSURE_AT_LOGGED_IN,
    &ERR_CLOSURE_EXTRA_ONE,
    &ERR_CLOSURE_EXTRA_MANY,
    &REC_CLOSURE_EXTRA,
];
