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
pub const ERR_STAGING_FOLDER_REPLACED: Msg = Msg {
    id: "err-staging-folder-replaced",
    fr: "{path} n'est plus le dossier où la sortie a été préparée : il a été déplacé ou remplacé pendant la commande",
    en: "{path} is no longer the folder the output was staged in: it was moved or replaced while the command ran",
};
/// What to do about it.
pub const REC_STAGING_FOLDER_REPLACED: Msg = Msg {
    id: "rec-staging-folder-replaced",
    fr: "rien n'a été placé ni inscrit comme placé ; gardez les deux dossiers comme preuves et relancez la commande avec un --out nouveau ou vide",
    en: "nothing was placed or recorded as placed; keep both folders as evidence and run the command again with a new or empty --out",
};
/// No staging folder name could be made.
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
/// An event read after a check of the trail's links only does not recompute its hash.
pub const ERR_STORE_EVENT_ALTERED: Msg = Msg {
    id: "err-store-event-altered",
    fr: "piste d'audit {path} : elle est en défaut à l'événement {seq} : {reason}",
    en: "audit trail {path}: it fails at event {seq}: {reason}",
};
/// SQLite's integrity check, run beside the check before acting, stopped before its end.
pub const ERR_DB_CHECK_STRUCTURE_STOPPED: Msg = Msg {
    id: "err-db-check-structure-stopped",
    fr: "la vérification d'intégrité de la piste d'audit {path} s'est arrêtée avant sa fin",
    en: "the integrity check of the audit trail {path} stopped before its end",
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
    fr: "la piste d'audit {path} s'est allongée pendant cette commande : celle-ci avait vérifié {known} événements et en trouve {found} (écrits par quelque chose qui ne détenait pas le verrou de la piste, que toute commande urne détient pendant qu'elle s'exécute) ; rien n'a été décidé d'après eux",
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
    fr: "la piste d'audit a changé pendant cette commande : celle-ci connaissait {seen} événements et en trouve {found} (écrits par quelque chose qui ne détenait pas le verrou de la piste, que toute commande urne détient pendant qu'elle s'exécute) ; la décision de cette commande n'a pas été inscrite",
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

// The configuration (hsm-config/README.md).

/// The configuration file cannot be read.
pub const ERR_CONFIG_READ: Msg = Msg {
    id: "err-config-read",
    fr: "impossible de lire la configuration {path} : {e}",
    en: "cannot read configuration {path}: {e}",
};
/// What to do about it.
pub const REC_CONFIG_READ: Msg = Msg {
    id: "rec-config-read",
    fr: "donnez --config FICHIER ou mettez dans URNE_CONFIG la configuration d'urne (voir hsm-config/README.md)",
    en: "pass --config FILE or set URNE_CONFIG to urne's configuration (see hsm-config/README.md)",
};
/// The configuration file is not valid.
pub const ERR_CONFIG_INVALID: Msg = Msg {
    id: "err-config-invalid",
    fr: "la configuration {path} n'est pas valide : {e}",
    en: "configuration {path} is invalid: {e}",
};
/// What to do about it.
pub const REC_CONFIG_INVALID: Msg = Msg {
    id: "rec-config-invalid",
    fr: "comparez-la avec hsm-config/urne.json et hsm-config/README.md",
    en: "compare it with hsm-config/urne.json and hsm-config/README.md",
};
/// A key label of a rehearsal token's kind in a configuration.
pub const ERR_CONFIG_REHEARSAL_LABEL: Msg = Msg {
    id: "err-config-rehearsal-label",
    fr: "le libellé de clé {label} commence comme ceux d'un jeton de répétition",
    en: "the key label {label} begins like a rehearsal token's",
};
/// What to do about it.
pub const REC_CONFIG_REHEARSAL_LABEL: Msg = Msg {
    id: "rec-config-rehearsal-label",
    fr: "les libellés urne-rehearsal-… sont ceux d'un jeton de répétition et ne se configurent jamais : donnez d'autres libellés aux clés",
    en: "the labels urne-rehearsal-… are a rehearsal token's, never configured: give the keys other labels",
};
/// One label for both keys.
pub const ERR_CONFIG_SAME_LABELS: Msg = Msg {
    id: "err-config-same-labels",
    fr: "result_key_label et audit_key_label sont identiques",
    en: "result_key_label and audit_key_label are the same",
};
/// What to do about it.
pub const REC_CONFIG_SAME_LABELS: Msg = Msg {
    id: "rec-config-same-labels",
    fr: "une clé, un usage : donnez des libellés différents à la clé des résultats et à la clé d'audit",
    en: "one key, one use: give the result key and the audit key different labels",
};
/// A `module_sha256` that is not a SHA-256 in hex.
pub const ERR_CONFIG_MODULE_SHA: Msg = Msg {
    id: "err-config-module-sha",
    fr: "configuration {path} : module_sha256 {value} n'est pas fait de 64 chiffres hexadécimaux en minuscules",
    en: "configuration {path}: module_sha256 {value} is not 64 lowercase hex digits",
};
/// What to do about it.
pub const REC_CONFIG_MODULE_SHA: Msg = Msg {
    id: "rec-config-module-sha",
    fr: "donnez le SHA-256 du module PKCS#11 tel que `sha256sum` l'affiche, ou retirez ce membre",
    en: "give the SHA-256 of the PKCS#11 module as `sha256sum` prints it, or remove the member",
};

// The user PIN (`--pin-file`, `URNE_PIN` or the prompt).

/// The PIN prompt, worded so that it cannot be taken for the commissaire's contribution prompt.
pub const ASK_PIN: Msg = Msg {
    id: "ask-pin",
    fr: "Opérateur : code PIN de l'HSM (ne s'affiche pas), puis Entrée : ",
    en: "Operator: the HSM user PIN (not shown), then Enter: ",
};
/// An empty line typed at the PIN prompt.
pub const SCR_PIN_EMPTY: Msg = Msg {
    id: "scr-pin-empty",
    fr: "Aucun code PIN tapé (aucun essai n'est compté) ; tapez-le :",
    en: "No PIN typed (no try is counted); type it:",
};
/// A PIN typed at the prompt and refused, asked again.
pub const SCR_PIN_REFUSED_AGAIN: Msg = Msg {
    id: "scr-pin-refused-again",
    fr: "L'HSM a refusé ce code PIN (rien n'a été inscrit). Essais restants : {left} ; retapez-le :",
    en: "The HSM refused that PIN (nothing was recorded). Tries left: {left} ; type it again:",
};
/// What to do about a PIN from a file that the token refused.
pub const REC_PIN_FILE: Msg = Msg {
    id: "rec-pin-file",
    fr: "vérifiez le code PIN du fichier --pin-file {path} (sa première ligne) ; des échecs répétés bloquent le jeton",
    en: "check the PIN in the --pin-file {path} (its first line); repeated failures lock the token",
};
/// What to do about a PIN from `URNE_PIN` that the token refused.
pub const REC_PIN_ENV: Msg = Msg {
    id: "rec-pin-env",
    fr: "vérifiez le code PIN donné dans URNE_PIN ; des échecs répétés bloquent le jeton",
    en: "check the PIN in URNE_PIN; repeated failures lock the token",
};
/// What to do about a PIN typed and refused.
pub const REC_PIN_PROMPT: Msg = Msg {
    id: "rec-pin-prompt",
    fr: "relancez la commande et retapez soigneusement le code PIN ; des échecs répétés bloquent le jeton",
    en: "run the command again and type the user PIN again, carefully; repeated failures lock the token",
};
/// The PIN file cannot be read.
pub const ERR_PIN_FILE: Msg = Msg {
    id: "err-pin-file",
    fr: "impossible de lire le fichier du code PIN {path} : {e}",
    en: "cannot read the PIN file {path}: {e}",
};
/// What to do about it.
pub const REC_PIN_FILE_UNREADABLE: Msg = Msg {
    id: "rec-pin-file-unreadable",
    fr: "donnez un fichier lisible qui porte le code PIN sur sa première ligne",
    en: "give a readable file holding the user PIN on its first line",
};
/// The PIN cannot be read at the prompt.
pub const ERR_PIN_READ: Msg = Msg {
    id: "err-pin-read",
    fr: "impossible de lire le code PIN : {e}",
    en: "cannot read the PIN: {e}",
};
/// What to do about it.
pub const REC_PIN_READ: Msg = Msg {
    id: "rec-pin-read",
    fr: "tapez le code PIN à l'invite",
    en: "type the PIN at the prompt",
};
/// Nothing but empty lines typed at the prompt.
pub const ERR_PIN_NONE_TYPED: Msg = Msg {
    id: "err-pin-none-typed",
    fr: "aucun code PIN de l'HSM n'a été tapé à l'invite",
    en: "no HSM user PIN was typed at the prompt",
};
/// What to do about it.
pub const REC_PIN_NONE_TYPED: Msg = Msg {
    id: "rec-pin-none-typed",
    fr: "tapez le code PIN à l'invite, puis Entrée",
    en: "type the PIN at the prompt, then Enter",
};
/// No PIN given, and no terminal to ask it.
pub const ERR_PIN_NONE: Msg = Msg {
    id: "err-pin-none",
    fr: "aucun code PIN de l'HSM n'a été donné",
    en: "no HSM user PIN was given",
};
/// What to do about it.
pub const REC_PIN_NONE: Msg = Msg {
    id: "rec-pin-none",
    fr: "mettez-le dans URNE_PIN, donnez --pin-file FICHIER, ou lancez la commande dans un terminal pour qu'il soit demandé (jamais sur la ligne de commande)",
    en: "set URNE_PIN, pass --pin-file FILE, or run interactively to be prompted (never on the command line)",
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

// PKCS#11: what urne asked the token when it failed (inside `err-hsm-returned` or
// `err-hsm-failed`).

/// The token's generator failed.
pub const ERR_P11_GENERATE_RANDOM: Msg = Msg {
    id: "err-p11-generate-random",
    fr: "C_GenerateRandom a échoué",
    en: "C_GenerateRandom failed",
};
/// The generation of an Ed25519 pair failed.
pub const ERR_P11_GENERATE_ED25519: Msg = Msg {
    id: "err-p11-generate-ed25519",
    fr: "la génération de la paire de clés Ed25519 a échoué",
    en: "Ed25519 key generation failed",
};
/// A key's attributes cannot be read.
pub const ERR_P11_KEY_ATTRIBUTES: Msg = Msg {
    id: "err-p11-key-attributes",
    fr: "impossible de lire les attributs d'une clé",
    en: "cannot read a key's attributes",
};
/// The search of the token's objects failed.
pub const ERR_P11_FIND_OBJECTS: Msg = Msg {
    id: "err-p11-find-objects",
    fr: "C_FindObjects a échoué",
    en: "C_FindObjects failed",
};
/// A data object cannot be read.
pub const ERR_P11_READ_OBJECT: Msg = Msg {
    id: "err-p11-read-object",
    fr: "impossible de lire un objet de données",
    en: "cannot read a data object",
};
/// A data object just made cannot be read back.
pub const ERR_P11_READ_OBJECT_BACK: Msg = Msg {
    id: "err-p11-read-object-back",
    fr: "impossible de relire un objet de données",
    en: "cannot read a data object back",
};
/// The module's initialisation failed.
pub const ERR_P11_INITIALIZE: Msg = Msg {
    id: "err-p11-initialize",
    fr: "C_Initialize a échoué",
    en: "C_Initialize failed",
};
/// The slots cannot be listed.
pub const ERR_P11_SLOTS: Msg = Msg {
    id: "err-p11-slots",
    fr: "impossible d'énumérer les emplacements de jetons",
    en: "cannot list the token slots",
};
/// A token's information cannot be read.
pub const ERR_P11_TOKEN_INFO: Msg = Msg {
    id: "err-p11-token-info",
    fr: "impossible de lire les informations du jeton",
    en: "cannot read token information",
};
/// `C_GetInfo` failed.
pub const ERR_P11_GET_INFO: Msg = Msg {
    id: "err-p11-get-info",
    fr: "C_GetInfo a échoué",
    en: "C_GetInfo failed",
};
/// `C_GetTokenInfo` failed.
pub const ERR_P11_GET_TOKEN_INFO: Msg = Msg {
    id: "err-p11-get-token-info",
    fr: "C_GetTokenInfo a échoué",
    en: "C_GetTokenInfo failed",
};
/// The list of mechanisms cannot be read.
pub const ERR_P11_MECHANISMS: Msg = Msg {
    id: "err-p11-mechanisms",
    fr: "C_GetMechanismList a échoué",
    en: "C_GetMechanismList failed",
};
/// A public key's point cannot be read.
pub const ERR_P11_EC_POINT: Msg = Msg {
    id: "err-p11-ec-point",
    fr: "impossible de lire CKA_EC_POINT",
    en: "cannot read CKA_EC_POINT",
};
/// A private key's attributes cannot be read.
pub const ERR_P11_PRIVATE_ATTRIBUTES: Msg = Msg {
    id: "err-p11-private-attributes",
    fr: "impossible de lire les attributs de la clé privée",
    en: "cannot read the private key's attributes",
};
/// A signature failed.
pub const ERR_P11_SIGN: Msg = Msg {
    id: "err-p11-sign",
    fr: "C_Sign a échoué",
    en: "C_Sign failed",
};
/// The sealing key's attributes cannot be read.
pub const ERR_P11_SEAL_KEY_ATTRIBUTES: Msg = Msg {
    id: "err-p11-seal-key-attributes",
    fr: "impossible de lire les attributs de la clé de scellement",
    en: "cannot read the sealing key's attributes",
};
/// The generation of the sealing key failed.
pub const ERR_P11_GENERATE_AES: Msg = Msg {
    id: "err-p11-generate-aes",
    fr: "la génération de la clé de scellement AES-256 a échoué",
    en: "AES-256 sealing key generation failed",
};
/// A sealing failed.
pub const ERR_P11_ENCRYPT: Msg = Msg {
    id: "err-p11-encrypt",
    fr: "C_Encrypt (AES-GCM) a échoué",
    en: "C_Encrypt (AES-GCM) failed",
};
/// What the token just sealed does not open.
pub const ERR_P11_OPEN_SEALED: Msg = Msg {
    id: "err-p11-open-sealed",
    fr: "le jeton ne sait pas ouvrir ce qu'il vient de sceller",
    en: "the token cannot open what it just sealed",
};
/// An opening failed.
pub const ERR_P11_DECRYPT: Msg = Msg {
    id: "err-p11-decrypt",
    fr: "C_Decrypt (AES-GCM) a échoué",
    en: "C_Decrypt (AES-GCM) failed",
};
/// No session can be opened.
pub const ERR_P11_SESSION: Msg = Msg {
    id: "err-p11-session",
    fr: "impossible d'ouvrir une session",
    en: "cannot open a session",
};
/// The login failed.
pub const ERR_P11_LOGIN: Msg = Msg {
    id: "err-p11-login",
    fr: "la connexion a échoué",
    en: "login failed",
};
/// Pieces of a pair left by an interrupted generation cannot be removed.
pub const ERR_P11_REMOVE_CUT: Msg = Msg {
    id: "err-p11-remove-cut",
    fr: "impossible de supprimer la clé {role} {label} laissée par sa génération interrompue",
    en: "cannot remove the {role} key {label} its interrupted generation left",
};
/// A token object cannot be created.
pub const ERR_P11_CREATE_OBJECT: Msg = Msg {
    id: "err-p11-create-object",
    fr: "impossible de créer l'objet de jeton {label}",
    en: "cannot create the token object {label}",
};
/// A PKCS#11 function named failed (the module's measurement).
pub const ERR_P11_FUNCTION: Msg = Msg {
    id: "err-p11-function",
    fr: "{function} a échoué : {e}",
    en: "{function} failed: {e}",
};

// The HSM's answers (spec/appliance.md §6.6, §6.9).

/// The token answered an error code.
pub const ERR_HSM_RETURNED: Msg = Msg {
    id: "err-hsm-returned",
    fr: "{what} : l'HSM a répondu {rv} dans {function}",
    en: "{what}: the HSM returned {rv} in {function}",
};
/// The PKCS#11 library failed otherwise.
pub const ERR_HSM_FAILED: Msg = Msg {
    id: "err-hsm-failed",
    fr: "{what} : {e}",
    en: "{what}: {e}",
};
/// The token refused a new object (or an operation) for lack of room (`CKR_DEVICE_MEMORY`).
pub const ERR_HSM_TOKEN_FULL: Msg = Msg {
    id: "err-hsm-token-full",
    fr: "{what} : le jeton n'a plus de place (CKR_DEVICE_MEMORY, {function}) ; la commande s'arrête avant d'agir sur ce qu'elle a inscrit",
    en: "{what}: the token has no room left (CKR_DEVICE_MEMORY, {function}); the command stops before it acts on what it recorded",
};
/// What to do about a full token.
pub const REC_HSM_TOKEN_FULL: Msg = Msg {
    id: "rec-hsm-token-full",
    fr: "rien n'a été montré ni placé depuis la dernière marque ; la commande reprendra ce qu'elle a inscrit quand le jeton aura de la place : voir docs/ceremony.md, « Un jeton plein »",
    en: "nothing was shown or placed since the last mark; the command takes up what it recorded once the token has room: see docs/ceremony.md, \"A full token\"",
};
/// What to do about a token that fails.
pub const REC_HSM_CHECK_TOKEN: Msg = Msg {
    id: "rec-hsm-check-token",
    fr: "vérifiez que le jeton est présent et initialisé (`urne hsm info`)",
    en: "check the token is present and initialised (`urne hsm info`)",
};
/// A PIN refused.
pub const ERR_HSM_PIN_INCORRECT: Msg = Msg {
    id: "err-hsm-pin-incorrect",
    fr: "l'HSM a refusé le code PIN (CKR_PIN_INCORRECT)",
    en: "the HSM refused the PIN (CKR_PIN_INCORRECT)",
};
/// What to do about it.
pub const REC_HSM_PIN_INCORRECT: Msg = Msg {
    id: "rec-hsm-pin-incorrect",
    fr: "vérifiez le code PIN utilisateur ; des échecs répétés bloquent le jeton",
    en: "check the user PIN; repeated failures lock the token",
};
/// The user PIN is locked.
pub const ERR_HSM_PIN_LOCKED: Msg = Msg {
    id: "err-hsm-pin-locked",
    fr: "le code PIN utilisateur du jeton est bloqué (CKR_PIN_LOCKED)",
    en: "the token's user PIN is locked (CKR_PIN_LOCKED)",
};
/// What to do about it.
pub const REC_HSM_PIN_LOCKED: Msg = Msg {
    id: "rec-hsm-pin-locked",
    fr: "le responsable de la sécurité doit débloquer le jeton",
    en: "the security officer must unlock the token",
};
/// A PIN of the wrong length.
pub const ERR_HSM_PIN_LENGTH: Msg = Msg {
    id: "err-hsm-pin-length",
    fr: "l'HSM a refusé le code PIN : longueur incorrecte (CKR_PIN_LEN_RANGE)",
    en: "the HSM refused the PIN: wrong length (CKR_PIN_LEN_RANGE)",
};
/// What to do about it.
pub const REC_HSM_PIN_LENGTH: Msg = Msg {
    id: "rec-hsm-pin-length",
    fr: "vérifiez le code PIN utilisateur",
    en: "check the user PIN",
};
/// A rehearsal asked of an official token: what the token is, then the rule.
pub const ERR_HSM_REHEARSAL_OFFICIAL: Msg = Msg {
    id: "err-hsm-rehearsal-official",
    fr: "{what} : une répétition (horloge annoncée, --rehearsal-at ; keys init --rehearsal) ne se tient que sur un jeton de répétition",
    en: "{what}: a rehearsal (a told clock, --rehearsal-at; keys init --rehearsal) is held on a rehearsal token only",
};
/// What to do about it.
pub const REC_HSM_REHEARSAL_OFFICIAL: Msg = Msg {
    id: "rec-hsm-rehearsal-official",
    fr: "rien n'a été fait. Répétez sur un jeton initialisé comme jeton de répétition (`urne keys init --rehearsal`, ou la cérémonie des clés avec --rehearsal-at), jamais sur le jeton officiel de l'appareil",
    en: "nothing was done. Rehearse on a token initialised as a rehearsal token (`urne keys init --rehearsal`, or the key ceremony with --rehearsal-at), never on the appliance's official token",
};
/// The token holds an official token's keys.
pub const ERR_HSM_OFFICIAL_KEYS: Msg = Msg {
    id: "err-hsm-official-keys",
    fr: "le jeton détient les clés d'un jeton officiel ({labels})",
    en: "the token holds an official token's keys ({labels})",
};
/// The token holds both kinds of keys.
pub const ERR_HSM_BOTH_KINDS: Msg = Msg {
    id: "err-hsm-both-kinds",
    fr: "le jeton détient à la fois les clés d'un jeton de répétition et celles d'un jeton officiel : urne ne crée jamais un tel jeton",
    en: "the token holds both a rehearsal token's keys and an official token's: urne never makes such a token",
};
/// What to do about it.
pub const REC_HSM_BOTH_KINDS: Msg = Msg {
    id: "rec-hsm-both-kinds",
    fr: "le jeton a été modifié en dehors d'urne : arrêtez et enquêtez ; gardez le jeton comme preuve",
    en: "the token was altered outside urne: stop and investigate; keep the token as evidence",
};
/// What to do when no token has the label.
pub const REC_HSM_TOKEN_NOT_FOUND: Msg = Msg {
    id: "rec-hsm-token-not-found",
    fr: "insérez le jeton d'urne, ou donnez son libellé dans URNE_HSM_TOKEN / \"token_label\"",
    en: "insert urne's token, or set URNE_HSM_TOKEN / \"token_label\" to its label",
};
/// The same, urne having removed one variable the module may need.
pub const REC_HSM_TOKEN_NOT_FOUND_REMOVED_ONE: Msg = Msg {
    id: "rec-hsm-token-not-found-removed-one",
    fr: "insérez le jeton d'urne, ou donnez son libellé dans URNE_HSM_TOKEN / \"token_label\" ; urne a retiré {names} de son environnement : si le module de l'HSM lit cette variable, nommez-la dans le \"module_env\" de la configuration",
    en: "insert urne's token, or set URNE_HSM_TOKEN / \"token_label\" to its label; urne removed {names} from its environment: if the HSM's module reads it, name it in the configuration's \"module_env\"",
};
/// The same, several variables.
pub const REC_HSM_TOKEN_NOT_FOUND_REMOVED_MANY: Msg = Msg {
    id: "rec-hsm-token-not-found-removed-many",
    fr: "insérez le jeton d'urne, ou donnez son libellé dans URNE_HSM_TOKEN / \"token_label\" ; urne a retiré {names} de son environnement : si le module de l'HSM lit ces variables, nommez-les dans le \"module_env\" de la configuration",
    en: "insert urne's token, or set URNE_HSM_TOKEN / \"token_label\" to its label; urne removed {names} from its environment: if the HSM's module reads them, name them in the configuration's \"module_env\"",
};
/// No token has the label; the labels present.
pub const ERR_HSM_NO_TOKEN: Msg = Msg {
    id: "err-hsm-no-token",
    fr: "aucun jeton n'a le libellé {label} ; jetons présents : {labels}",
    en: "no token labelled {label}; tokens present: {labels}",
};
/// No token has the label, and none is present.
pub const ERR_HSM_NO_TOKEN_NONE: Msg = Msg {
    id: "err-hsm-no-token-none",
    fr: "aucun jeton n'a le libellé {label} ; jetons présents : aucun",
    en: "no token labelled {label}; tokens present: none",
};
/// Several tokens have the label.
pub const ERR_HSM_TOKENS_MANY: Msg = Msg {
    id: "err-hsm-tokens-many",
    fr: "{n} jetons ont le libellé {label} ; urne a besoin d'un seul",
    en: "{n} tokens are labelled {label}; urne needs exactly one",
};
/// What to do about it.
pub const REC_HSM_TOKENS_MANY: Msg = Msg {
    id: "rec-hsm-tokens-many",
    fr: "retirez le jeton en trop ou changez son libellé",
    en: "remove the extra token or relabel it",
};
/// Keys already under a role's label.
pub const ERR_HSM_KEYS_EXIST: Msg = Msg {
    id: "err-hsm-keys-exist",
    fr: "le jeton détient déjà des clés de libellé {label}",
    en: "the token already holds keys labelled {label}",
};
/// What to do about it.
pub const REC_HSM_KEYS_EXIST: Msg = Msg {
    id: "rec-hsm-keys-exist",
    fr: "urne ne remplace jamais des clés : les résultats déjà signés ne se vérifieraient plus. Utilisez `urne keys export` pour obtenir les clés publiques",
    en: "urne never replaces keys: results already signed would stop verifying. Use `urne keys export` to get the public keys",
};
/// No key of a role.
pub const ERR_HSM_NO_KEY: Msg = Msg {
    id: "err-hsm-no-key",
    fr: "le jeton n'a pas de clé {role} de libellé {label}",
    en: "the token has no {role} key labelled {label}",
};
/// What to do about it.
pub const REC_HSM_NO_KEY: Msg = Msg {
    id: "rec-hsm-no-key",
    fr: "générez d'abord les clés d'urne : urne keys init",
    en: "generate urne's keys first: urne keys init",
};
/// Several objects under a key's label.
pub const ERR_HSM_KEYS_MANY: Msg = Msg {
    id: "err-hsm-keys-many",
    fr: "le jeton a {n} objets de libellé {label} ; urne a besoin d'un seul",
    en: "the token has {n} objects labelled {label}; urne needs exactly one",
};
/// What to do about a token altered, before any ceremony.
pub const REC_HSM_ALTERED_CEREMONY: Msg = Msg {
    id: "rec-hsm-altered-ceremony",
    fr: "le jeton a été modifié en dehors d'urne : arrêtez et enquêtez avant toute cérémonie",
    en: "the token was altered outside urne: stop and investigate before any ceremony",
};
/// What to do about a token altered.
pub const REC_HSM_ALTERED: Msg = Msg {
    id: "rec-hsm-altered",
    fr: "le jeton a été modifié en dehors d'urne : arrêtez et enquêtez",
    en: "the token was altered outside urne: stop and investigate",
};
/// A public key's point in an unknown encoding.
pub const ERR_HSM_EC_POINT_ENCODING: Msg = Msg {
    id: "err-hsm-ec-point-encoding",
    fr: "encodage inattendu de CKA_EC_POINT ({len} octets)",
    en: "unexpected CKA_EC_POINT encoding ({len} bytes)",
};
/// A public key without its point.
pub const ERR_HSM_NO_EC_POINT: Msg = Msg {
    id: "err-hsm-no-ec-point",
    fr: "la clé publique n'a pas de CKA_EC_POINT",
    en: "the public key has no CKA_EC_POINT",
};
/// What to do about it.
pub const REC_HSM_NOT_ED25519: Msg = Msg {
    id: "rec-hsm-not-ed25519",
    fr: "le jeton ne détient pas de clé Ed25519 sous ce libellé",
    en: "the token does not hold an Ed25519 key under this label",
};
/// A key of a role that is not `EC_EDWARDS`.
pub const ERR_HSM_NOT_EDWARDS: Msg = Msg {
    id: "err-hsm-not-edwards",
    fr: "la clé {role} n'est pas une clé EC_EDWARDS",
    en: "the {role} key is not an EC_EDWARDS key",
};
/// A signature of the wrong length.
pub const ERR_HSM_SIGNATURE_LENGTH: Msg = Msg {
    id: "err-hsm-signature-length",
    fr: "le jeton a rendu une signature de {len} octets",
    en: "the token returned a {len}-byte signature",
};
/// What to do about it.
pub const REC_HSM_SIGNATURE_LENGTH: Msg = Msg {
    id: "rec-hsm-signature-length",
    fr: "le jeton ne se comporte pas comme un signataire Ed25519",
    en: "the token is not behaving as an Ed25519 signer",
};
/// A signature that does not verify.
pub const ERR_HSM_SIGNATURE_INVALID: Msg = Msg {
    id: "err-hsm-signature-invalid",
    fr: "la signature du jeton ne se vérifie pas avec sa propre clé publique",
    en: "the token's signature does not verify under its own public key",
};
/// What to do about it.
pub const REC_HSM_SIGNATURE_INVALID: Msg = Msg {
    id: "rec-hsm-signature-invalid",
    fr: "le jeton est défaillant ou ne fait pas de l'Ed25519 pur : arrêtez et enquêtez",
    en: "the token is faulty or not pure Ed25519: stop and investigate",
};
/// A request of entropy too large (a defect).
pub const ERR_HSM_ENTROPY_TOO_LARGE: Msg = Msg {
    id: "err-hsm-entropy-too-large",
    fr: "demande d'aléa trop grande",
    en: "entropy request too large",
};
/// The token's random bytes failed a health check: why, one of `err-hsm-health-…`.
pub const ERR_HSM_HEALTH: Msg = Msg {
    id: "err-hsm-health",
    fr: "l'aléa de l'HSM a échoué à un contrôle de santé : {why}",
    en: "the HSM's random bytes failed a health check: {why}",
};
/// Too few bytes.
pub const ERR_HSM_HEALTH_SHORT: Msg = Msg {
    id: "err-hsm-health-short",
    fr: "trop peu d'octets",
    en: "too few bytes",
};
/// Every byte has one value.
pub const ERR_HSM_HEALTH_ONE_VALUE: Msg = Msg {
    id: "err-hsm-health-one-value",
    fr: "tous les octets ont la même valeur",
    en: "every byte has the same value",
};
/// The bytes of an earlier request again.
pub const ERR_HSM_HEALTH_REPEAT: Msg = Msg {
    id: "err-hsm-health-repeat",
    fr: "les mêmes octets qu'une demande précédente",
    en: "the same bytes as an earlier request",
};
/// What to do about a faulty generator.
pub const REC_HSM_GENERATOR_FAULTY: Msg = Msg {
    id: "rec-hsm-generator-faulty",
    fr: "le générateur du jeton est défaillant : arrêtez la cérémonie et remplacez l'HSM",
    en: "the token's generator is faulty: stop the ceremony and replace the HSM",
};
/// A token that does not keep an object fixed.
pub const ERR_HSM_KEY_NOT_FIXED: Msg = Msg {
    id: "err-hsm-key-not-fixed",
    fr: "le jeton n'a pas gardé la clé {label} non modifiable et non copiable comme demandé ; elle a été détruite",
    en: "the token did not keep the key {label} non-modifiable and non-copyable as asked; it was destroyed",
};
/// An object the token did not keep as urne asked.
pub const ERR_HSM_OBJECT_NOT_FIXED: Msg = Msg {
    id: "err-hsm-object-not-fixed",
    fr: "le jeton n'a pas gardé l'objet {label} non modifiable et non destructible comme demandé",
    en: "the token did not keep the object {label} non-modifiable and non-destroyable as asked",
};
/// What to do about it.
pub const REC_HSM_OBJECT_NOT_FIXED: Msg = Msg {
    id: "rec-hsm-object-not-fixed",
    fr: "utilisez un jeton qui respecte CKA_MODIFIABLE=false et CKA_DESTROYABLE=false (SoftHSM 2.6 le fait) : les marques de la piste en dépendent",
    en: "use a token that honours CKA_MODIFIABLE=false and CKA_DESTROYABLE=false (SoftHSM 2.6 does): the trail's marks depend on it",
};
/// A data object of urne's application that urne did not create.
pub const ERR_TOKEN_FOREIGN_OBJECT: Msg = Msg {
    id: "err-token-foreign-object",
    fr: "le jeton détient un objet de données {label} qu'urne n'a pas créé (application urne, private {private}, modifiable {modifiable}, destroyable {destroyable})",
    en: "the token holds a {label} data object that urne did not create (application urne, private {private}, modifiable {modifiable}, destroyable {destroyable})",
};
/// A data object of another application.
pub const ERR_TOKEN_FOREIGN_OBJECT_APP: Msg = Msg {
    id: "err-token-foreign-object-app",
    fr: "le jeton détient un objet de données {label} qu'urne n'a pas créé (application autre qu'urne, private {private}, modifiable {modifiable}, destroyable {destroyable})",
    en: "the token holds a {label} data object that urne did not create (application not urne, private {private}, modifiable {modifiable}, destroyable {destroyable})",
};
/// What to do about a mark or trail object written outside urne.
pub const REC_TOKEN_TAMPERED_STOP: Msg = Msg {
    id: "rec-token-tampered-stop",
    fr: "quelqu'un qui a le code PIN a écrit dans le jeton en dehors d'urne : arrêtez et enquêtez",
    en: "someone with the PIN wrote into the token outside urne: stop and investigate",
};

// The pieces of a role's key pair, in words (`urne keys init` after an interrupted one).

/// No piece.
pub const SCR_KEY_NOTHING: Msg = Msg {
    id: "scr-key-nothing",
    fr: "rien",
    en: "nothing",
};
/// A public key.
pub const SCR_KEY_PUBLIC: Msg = Msg {
    id: "scr-key-public",
    fr: "une clé publique",
    en: "a public key",
};
/// A public key whose generation did not finish.
pub const SCR_KEY_PUBLIC_CUT: Msg = Msg {
    id: "scr-key-public-cut",
    fr: "une clé publique dont la génération n'a pas abouti",
    en: "a public key whose generation did not finish",
};
/// A private key.
pub const SCR_KEY_PRIVATE: Msg = Msg {
    id: "scr-key-private",
    fr: "une clé privée",
    en: "a private key",
};
/// A private key whose generation did not finish.
pub const SCR_KEY_PRIVATE_CUT: Msg = Msg {
    id: "scr-key-private-cut",
    fr: "une clé privée dont la génération n'a pas abouti",
    en: "a private key whose generation did not finish",
};
/// A public key alone.
pub const SCR_KEY_PUBLIC_ALONE: Msg = Msg {
    id: "scr-key-public-alone",
    fr: "une clé publique sans sa clé privée",
    en: "a public key without its private key",
};
/// A public key alone, its generation unfinished.
pub const SCR_KEY_PUBLIC_CUT_ALONE: Msg = Msg {
    id: "scr-key-public-cut-alone",
    fr: "une clé publique dont la génération n'a pas abouti, sans sa clé privée",
    en: "a public key whose generation did not finish, without its private key",
};
/// A private key alone.
pub const SCR_KEY_PRIVATE_ALONE: Msg = Msg {
    id: "scr-key-private-alone",
    fr: "une clé privée sans sa clé publique",
    en: "a private key without its public key",
};
/// A private key alone, its generation unfinished.
pub const SCR_KEY_PRIVATE_CUT_ALONE: Msg = Msg {
    id: "scr-key-private-cut-alone",
    fr: "une clé privée dont la génération n'a pas abouti, sans sa clé publique",
    en: "a private key whose generation did not finish, without its public key",
};
/// Two halves of different generations.
pub const SCR_KEY_NOT_ONE_GENERATION: Msg = Msg {
    id: "scr-key-not-one-generation",
    fr: "pas d'une même génération (leurs CKA_ID diffèrent)",
    en: "not of one generation (their CKA_IDs differ)",
};

// The module (spec/appliance.md §6.6: the code that answers for the HSM).

/// The module's file is not there.
pub const ERR_MODULE_ABSENT: Msg = Msg {
    id: "err-module-absent",
    fr: "le module PKCS#11 {path} n'existe pas",
    en: "the PKCS#11 module {path} does not exist",
};
/// The module's file cannot be opened.
pub const ERR_MODULE_OPEN: Msg = Msg {
    id: "err-module-open",
    fr: "le module PKCS#11 {path} ne peut pas être ouvert : {e}",
    en: "the PKCS#11 module {path} cannot be opened: {e}",
};
/// The module's file cannot be read.
pub const ERR_MODULE_READ: Msg = Msg {
    id: "err-module-read",
    fr: "le module PKCS#11 {path} ne peut pas être lu : {e}",
    en: "the PKCS#11 module {path} cannot be read: {e}",
};
/// The module's path is not a regular file.
pub const ERR_MODULE_NOT_REGULAR: Msg = Msg {
    id: "err-module-not-regular",
    fr: "le module PKCS#11 {path} n'est pas un fichier ordinaire",
    en: "the PKCS#11 module {path} is not a regular file",
};
/// What to do about a module missing.
pub const REC_MODULE_MISSING: Msg = Msg {
    id: "rec-module-missing",
    fr: "installez le module de l'HSM (SoftHSM : apt-get install softhsm2) ou donnez-le dans URNE_HSM_MODULE / \"module\" de la configuration",
    en: "install the HSM's module (SoftHSM: apt-get install softhsm2) or set URNE_HSM_MODULE / \"module\" in the configuration",
};
/// The module is not the one the configuration pins.
pub const ERR_MODULE_PIN: Msg = Msg {
    id: "err-module-pin",
    fr: "le module PKCS#11 {path} a pour SHA-256 {sha}, mais la configuration {config} épingle module_sha256 {pin} : ce n'est pas le module que la configuration désigne",
    en: "the PKCS#11 module {path} has SHA-256 {sha}, but the configuration {config} pins module_sha256 {pin}: it is not the module the configuration names",
};
/// The same, the configuration from no file.
pub const ERR_MODULE_PIN_NO_FILE: Msg = Msg {
    id: "err-module-pin-no-file",
    fr: "le module PKCS#11 {path} a pour SHA-256 {sha}, mais la configuration épingle module_sha256 {pin} : ce n'est pas le module que la configuration désigne",
    en: "the PKCS#11 module {path} has SHA-256 {sha}, but the configuration pins module_sha256 {pin}: it is not the module the configuration names",
};
/// What to do about it.
pub const REC_MODULE_PIN: Msg = Msg {
    id: "rec-module-pin",
    fr: "n'allez pas plus loin : cherchez pourquoi le module a changé (une mise à jour, ou le module de quelqu'un) ; une fois le nouveau module accepté devant le commissaire de justice, mettez son empreinte dans \"module_sha256\"",
    en: "do not go on: find out why the module changed (an update, or someone's module); once the new module is accepted in front of the commissaire, put its hash in \"module_sha256\"",
};
/// The module cannot be loaded.
pub const ERR_MODULE_LOAD: Msg = Msg {
    id: "err-module-load",
    fr: "impossible de charger le module PKCS#11 {path} : {e}",
    en: "cannot load the PKCS#11 module {path}: {e}",
};
/// What to do about it.
pub const REC_MODULE_LOAD: Msg = Msg {
    id: "rec-module-load",
    fr: "vérifiez que URNE_HSM_MODULE désigne une bibliothèque partagée PKCS#11 pour cette machine",
    en: "check URNE_HSM_MODULE names a PKCS#11 shared library for this machine",
};
/// The module's file cannot be read again once loaded.
pub const ERR_MODULE_REREAD: Msg = Msg {
    id: "err-module-reread",
    fr: "le module PKCS#11 {path} n'a pas pu être relu ({e}) pendant qu'il était chargé",
    en: "the PKCS#11 module {path} could not be read again ({e}) while it was loaded",
};
/// The module's file cannot be hashed again once loaded.
pub const ERR_MODULE_UNREAD: Msg = Msg {
    id: "err-module-unread",
    fr: "le module PKCS#11 {path} n'a pas pu être lu ({e}) pendant qu'il était chargé",
    en: "the PKCS#11 module {path} could not be read ({e}) while it was loaded",
};
/// The module's file changed while loaded.
pub const ERR_MODULE_CHANGED: Msg = Msg {
    id: "err-module-changed",
    fr: "le module PKCS#11 {path} a changé (SHA-256 {then} au chargement, {now} maintenant) pendant qu'il était chargé",
    en: "the PKCS#11 module {path} changed (SHA-256 {then} when loaded, {now} now) while it was loaded",
};
/// What to do about it.
pub const REC_MODULE_CHANGED: Msg = Msg {
    id: "rec-module-changed",
    fr: "quelqu'un écrit dans le module de l'HSM sur cette machine : arrêtez, laissez la machine en l'état et enquêtez",
    en: "someone is writing into the HSM's module on this machine: stop, keep the machine as it is, and investigate",
};

// The token's marks read back by a new process (spec/appliance.md §6.6).

/// The reader itself failed.
pub const ERR_READER_FAILED: Msg = Msg {
    id: "err-reader-failed",
    fr: "les marques du jeton n'ont pas été relues : {what}",
    en: "the token's marks were not read back: {what}",
};
/// The reader reported a failure of its own.
pub const ERR_READER_REPORTED: Msg = Msg {
    id: "err-reader-reported",
    fr: "les marques du jeton, relues après la marque de cette commande : {message}",
    en: "the token's marks, read back after this command's mark: {message}",
};
/// The marks could not be read back: why.
pub const ERR_READER_NOT_READ_BACK: Msg = Msg {
    id: "err-reader-not-read-back",
    fr: "les marques du jeton n'ont pas pu être relues après la marque de cette commande : {what} ; rien de plus n'est fait",
    en: "the token's marks could not be read back after this command's mark: {what}; nothing more is done",
};
/// What to do about it.
pub const REC_READER_NOT_READ_BACK: Msg = Msg {
    id: "rec-reader-not-read-back",
    fr: "lancez `urne hsm info` ; la commande suivante confronte de nouveau la piste au jeton avant d'agir",
    en: "run `urne hsm info`; the next command checks the trail against the token again before it acts",
};
/// The reader cannot be started.
pub const ERR_READER_START: Msg = Msg {
    id: "err-reader-start",
    fr: "impossible de relancer l'exécutable d'urne : {e}",
    en: "cannot start urne's executable again: {e}",
};
/// The reader failed.
pub const ERR_READER_WAIT: Msg = Msg {
    id: "err-reader-wait",
    fr: "le lecteur a échoué : {e}",
    en: "the reader failed: {e}",
};
/// The reader answered nothing readable.
pub const ERR_READER_ANSWER: Msg = Msg {
    id: "err-reader-answer",
    fr: "le lecteur n'a rien répondu de lisible ({status}) : {stderr}",
    en: "the reader answered nothing readable ({status}): {stderr}",
};
/// The reader read another token.
pub const ERR_READER_SERIAL: Msg = Msg {
    id: "err-reader-serial",
    fr: "le lecteur a trouvé le jeton de numéro de série {found}, celui de cette commande est {ours}",
    en: "the reader found the token of serial {found}, this command's is {ours}",
};
/// An object's value not in hex.
pub const ERR_READER_HEX: Msg = Msg {
    id: "err-reader-hex",
    fr: "la valeur d'un objet n'est pas en hexadécimal",
    en: "an object's value not in hex",
};

// The sealing key and sealed secrets (spec/appliance.md §6.9).

/// A sealed secret that does not open: why.
pub const ERR_SEAL_NOT_OPENED: Msg = Msg {
    id: "err-seal-not-opened",
    fr: "un secret scellé de la piste ne s'ouvre pas avec la clé de scellement du jeton : {why}",
    en: "a sealed secret of the trail does not open under the token's sealing key: {why}",
};
/// What to do about it.
pub const REC_SEAL_NOT_OPENED: Msg = Msg {
    id: "rec-seal-not-opened",
    fr: "la piste contient ce que ce jeton n'a pas scellé à cette fin : gardez la base de données comme preuve, lancez `urne audit verify`, et ne vous fiez à rien de ce qu'elle contient tant que ce n'est pas expliqué",
    en: "the trail holds what this token did not seal for this purpose: keep the database as evidence, run `urne audit verify`, and act on nothing from it until it is explained",
};
/// A box shorter than its tag.
pub const ERR_SEAL_SHORT: Msg = Msg {
    id: "err-seal-short",
    fr: "il est plus court que son étiquette d'authentification",
    en: "it is shorter than its tag",
};
/// A box that names another key.
pub const ERR_SEAL_OTHER_KEY: Msg = Msg {
    id: "err-seal-other-key",
    fr: "il désigne la clé de scellement {named}, celle du jeton est {key}",
    en: "it names the sealing key {named}, the token's is {key}",
};
/// A box whose tag does not verify.
pub const ERR_SEAL_TAG: Msg = Msg {
    id: "err-seal-tag",
    fr: "son étiquette d'authentification ne se vérifie pas (modifiée, ou scellée pour une autre piste ou une autre fin)",
    en: "its tag does not verify (altered, or sealed for another trail or purpose)",
};
/// An object already under the sealing key's label.
pub const ERR_SEAL_KEY_EXISTS: Msg = Msg {
    id: "err-seal-key-exists",
    fr: "le jeton détient déjà un objet de libellé {label}",
    en: "the token already holds an object labelled {label}",
};
/// What to do about it.
pub const REC_SEAL_KEY_EXISTS: Msg = Msg {
    id: "rec-seal-key-exists",
    fr: "urne ne remplace jamais sa clé de scellement : les secrets scellés avec elle ne s'ouvriraient plus",
    en: "urne never replaces its sealing key: secrets sealed under it would no longer open",
};
/// The object under the sealing key's label is not a secret key.
pub const ERR_SEAL_KEY_NOT_SECRET: Msg = Msg {
    id: "err-seal-key-not-secret",
    fr: "l'objet du jeton de libellé {label} n'est pas une clé secrète",
    en: "the token's object labelled {label} is not a secret key",
};
/// A new token, without keys.
pub const ERR_SEAL_TOKEN_NEW: Msg = Msg {
    id: "err-seal-token-new",
    fr: "le jeton ne détient encore aucune clé : il est neuf",
    en: "the token holds no key yet: it is new",
};
/// What to do about it.
pub const REC_SEAL_TOKEN_NEW: Msg = Msg {
    id: "rec-seal-token-new",
    fr: "initialisez-le avec `urne keys init`, lors de la cérémonie des clés",
    en: "initialise it with `urne keys init`, at the key ceremony",
};
/// A token without a sealing key.
pub const ERR_SEAL_KEY_MISSING: Msg = Msg {
    id: "err-seal-key-missing",
    fr: "le jeton n'a pas de clé de scellement : il a été initialisé par une version plus ancienne d'urne",
    en: "the token has no sealing key: it was initialised by an older urne",
};
/// What to do about it.
pub const REC_SEAL_KEY_MISSING: Msg = Msg {
    id: "rec-seal-key-missing",
    fr: "initialisez un nouveau jeton avec cette version d'urne (`urne keys init`) ; un jeton sans clé de scellement ne peut pas garder les secrets des blocs",
    en: "initialise a new token with this urne (`urne keys init`); a token without a sealing key cannot keep block secrets",
};
/// Several secret keys under the sealing key's label.
pub const ERR_SEAL_KEYS_MANY: Msg = Msg {
    id: "err-seal-keys-many",
    fr: "le jeton a {n} clés secrètes de libellé {label} ; urne a besoin d'une seule",
    en: "the token has {n} secret keys labelled {label}; urne needs exactly one",
};
/// A sealing key with attributes urne does not give it.
pub const ERR_SEAL_KEY_UNFIT: Msg = Msg {
    id: "err-seal-key-unfit",
    fr: "les attributs de la clé de scellement ne sont pas ceux avec lesquels urne la génère : {record}",
    en: "the sealing key's attributes are not the ones urne generates it with: {record}",
};
/// What to do about it.
pub const REC_SEAL_KEY_UNFIT: Msg = Msg {
    id: "rec-seal-key-unfit",
    fr: "n'utilisez pas ce jeton pour les cérémonies ; utilisez un HSM qui garde une clé AES générée sensible, non extractible et non modifiable",
    en: "do not use this token for ceremonies; use an HSM that keeps a generated AES key sensitive, non-extractable and fixed",
};
/// An IV that repeats or is one byte value.
pub const ERR_SEAL_IV: Msg = Msg {
    id: "err-seal-iv",
    fr: "l'aléa de l'HSM a échoué à un contrôle de santé : un IV de scellement répète un IV précédent ou n'a qu'une valeur d'octet",
    en: "the HSM's random bytes failed a health check: an IV for sealing repeats an earlier one or is one byte value",
};
/// AES-GCM parameters refused (a defect).
pub const ERR_SEAL_PARAMS: Msg = Msg {
    id: "err-seal-params",
    fr: "paramètres AES-GCM : {e}",
    en: "AES-GCM parameters: {e}",
};
/// A sealed box of the wrong length.
pub const ERR_SEAL_LENGTH: Msg = Msg {
    id: "err-seal-length",
    fr: "le jeton a scellé {len} octets en {got} ({want} attendus avec l'étiquette)",
    en: "the token sealed {len} bytes into {got} (expected {want} with the tag)",
};
/// What to do about a token that does not behave as AES-GCM.
pub const REC_SEAL_NOT_GCM: Msg = Msg {
    id: "rec-seal-not-gcm",
    fr: "le jeton ne se comporte pas comme de l'AES-GCM : arrêtez et enquêtez",
    en: "the token is not behaving as AES-GCM: stop and investigate",
};
/// A sealed box that cannot be made (a defect).
pub const ERR_SEAL_BOX: Msg = Msg {
    id: "err-seal-box",
    fr: "la boîte scellée : {e}",
    en: "the sealed box: {e}",
};
/// What was sealed does not open to the same bytes.
pub const ERR_SEAL_ROUND_TRIP: Msg = Msg {
    id: "err-seal-round-trip",
    fr: "en ouvrant ce qu'il vient de sceller, le jeton ne retrouve pas les mêmes octets",
    en: "the token does not open what it just sealed to the same bytes",
};
/// What to do about it.
pub const REC_SEAL_ROUND_TRIP: Msg = Msg {
    id: "rec-seal-round-trip",
    fr: "le jeton est défaillant : arrêtez la cérémonie et remplacez l'HSM",
    en: "the token is faulty: stop the ceremony and replace the HSM",
};
/// An opening of the wrong length.
pub const ERR_SEAL_OPENED_LENGTH: Msg = Msg {
    id: "err-seal-opened-length",
    fr: "le jeton a ouvert {len} octets de chiffré en {got}",
    en: "the token opened {len} bytes of ciphertext into {got}",
};
/// `CKR_GENERAL_ERROR` on opening, and the probe fails too.
pub const ERR_SEAL_PROBE: Msg = Msg {
    id: "err-seal-probe",
    fr: "C_Decrypt (AES-GCM) a échoué avec CKR_GENERAL_ERROR, et le jeton ne sait pas non plus sceller puis ouvrir une sonde : {message}",
    en: "C_Decrypt (AES-GCM) failed with CKR_GENERAL_ERROR, and the token cannot seal and open a probe either: {message}",
};
/// What to do about it.
pub const REC_SEAL_PROBE: Msg = Msg {
    id: "rec-seal-probe",
    fr: "le jeton est défaillant : arrêtez la cérémonie et vérifiez l'HSM (`urne hsm info`)",
    en: "the token is faulty: stop the ceremony and check the HSM (`urne hsm info`)",
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
    &ERR_STAGING_FOLDER_REPLACED,
    &REC_STAGING_FOLDER_REPLACED,
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
    &ERR_DB_CHECK_STRUCTURE_STOPPED,
    &ERR_STORE_EVENT_ALTERED,
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
    &ERR_CONFIG_READ,
    &REC_CONFIG_READ,
    &ERR_CONFIG_INVALID,
    &REC_CONFIG_INVALID,
    &ERR_CONFIG_REHEARSAL_LABEL,
    &REC_CONFIG_REHEARSAL_LABEL,
    &ERR_CONFIG_SAME_LABELS,
    &REC_CONFIG_SAME_LABELS,
    &ERR_CONFIG_MODULE_SHA,
    &REC_CONFIG_MODULE_SHA,
    &ASK_PIN,
    &SCR_PIN_EMPTY,
    &SCR_PIN_REFUSED_AGAIN,
    &REC_PIN_FILE,
    &REC_PIN_ENV,
    &REC_PIN_PROMPT,
    &ERR_PIN_FILE,
    &REC_PIN_FILE_UNREADABLE,
    &ERR_PIN_READ,
    &REC_PIN_READ,
    &ERR_PIN_NONE_TYPED,
    &REC_PIN_NONE_TYPED,
    &ERR_PIN_NONE,
    &REC_PIN_NONE,
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
    &ERR_P11_GENERATE_RANDOM,
    &ERR_P11_GENERATE_ED25519,
    &ERR_P11_KEY_ATTRIBUTES,
    &ERR_P11_FIND_OBJECTS,
    &ERR_P11_READ_OBJECT,
    &ERR_P11_READ_OBJECT_BACK,
    &ERR_P11_INITIALIZE,
    &ERR_P11_SLOTS,
    &ERR_P11_TOKEN_INFO,
    &ERR_P11_GET_INFO,
    &ERR_P11_GET_TOKEN_INFO,
    &ERR_P11_MECHANISMS,
    &ERR_P11_EC_POINT,
    &ERR_P11_PRIVATE_ATTRIBUTES,
    &ERR_P11_SIGN,
    &ERR_P11_SEAL_KEY_ATTRIBUTES,
    &ERR_P11_GENERATE_AES,
    &ERR_P11_ENCRYPT,
    &ERR_P11_OPEN_SEALED,
    &ERR_P11_DECRYPT,
    &ERR_P11_SESSION,
    &ERR_P11_LOGIN,
    &ERR_P11_REMOVE_CUT,
    &ERR_P11_CREATE_OBJECT,
    &ERR_P11_FUNCTION,
    &ERR_HSM_RETURNED,
    &ERR_HSM_FAILED,
    &ERR_HSM_TOKEN_FULL,
    &REC_HSM_TOKEN_FULL,
    &REC_HSM_CHECK_TOKEN,
    &ERR_HSM_PIN_INCORRECT,
    &REC_HSM_PIN_INCORRECT,
    &ERR_HSM_PIN_LOCKED,
    &REC_HSM_PIN_LOCKED,
    &ERR_HSM_PIN_LENGTH,
    &REC_HSM_PIN_LENGTH,
    &ERR_HSM_REHEARSAL_OFFICIAL,
    &REC_HSM_REHEARSAL_OFFICIAL,
    &ERR_HSM_OFFICIAL_KEYS,
    &ERR_HSM_BOTH_KINDS,
    &REC_HSM_BOTH_KINDS,
    &REC_HSM_TOKEN_NOT_FOUND,
    &REC_HSM_TOKEN_NOT_FOUND_REMOVED_ONE,
    &REC_HSM_TOKEN_NOT_FOUND_REMOVED_MANY,
    &ERR_HSM_NO_TOKEN,
    &ERR_HSM_NO_TOKEN_NONE,
    &ERR_HSM_TOKENS_MANY,
    &REC_HSM_TOKENS_MANY,
    &ERR_HSM_KEYS_EXIST,
    &REC_HSM_KEYS_EXIST,
    &ERR_HSM_NO_KEY,
    &REC_HSM_NO_KEY,
    &ERR_HSM_KEYS_MANY,
    &REC_HSM_ALTERED_CEREMONY,
    &REC_HSM_ALTERED,
    &ERR_HSM_EC_POINT_ENCODING,
    &ERR_HSM_NO_EC_POINT,
    &REC_HSM_NOT_ED25519,
    &ERR_HSM_NOT_EDWARDS,
    &ERR_HSM_SIGNATURE_LENGTH,
    &REC_HSM_SIGNATURE_LENGTH,
    &ERR_HSM_SIGNATURE_INVALID,
    &REC_HSM_SIGNATURE_INVALID,
    &ERR_HSM_ENTROPY_TOO_LARGE,
    &ERR_HSM_HEALTH,
    &ERR_HSM_HEALTH_SHORT,
    &ERR_HSM_HEALTH_ONE_VALUE,
    &ERR_HSM_HEALTH_REPEAT,
    &REC_HSM_GENERATOR_FAULTY,
    &ERR_HSM_OBJECT_NOT_FIXED,
    &ERR_HSM_KEY_NOT_FIXED,
    &REC_HSM_OBJECT_NOT_FIXED,
    &ERR_TOKEN_FOREIGN_OBJECT,
    &ERR_TOKEN_FOREIGN_OBJECT_APP,
    &REC_TOKEN_TAMPERED_STOP,
    &SCR_KEY_NOTHING,
    &SCR_KEY_PUBLIC,
    &SCR_KEY_PUBLIC_CUT,
    &SCR_KEY_PRIVATE,
    &SCR_KEY_PRIVATE_CUT,
    &SCR_KEY_PUBLIC_ALONE,
    &SCR_KEY_PUBLIC_CUT_ALONE,
    &SCR_KEY_PRIVATE_ALONE,
    &SCR_KEY_PRIVATE_CUT_ALONE,
    &SCR_KEY_NOT_ONE_GENERATION,
    &ERR_MODULE_ABSENT,
    &ERR_MODULE_OPEN,
    &ERR_MODULE_READ,
    &ERR_MODULE_NOT_REGULAR,
    &REC_MODULE_MISSING,
    &ERR_MODULE_PIN,
    &ERR_MODULE_PIN_NO_FILE,
    &REC_MODULE_PIN,
    &ERR_MODULE_LOAD,
    &REC_MODULE_LOAD,
    &ERR_MODULE_REREAD,
    &ERR_MODULE_UNREAD,
    &ERR_MODULE_CHANGED,
    &REC_MODULE_CHANGED,
    &ERR_READER_FAILED,
    &ERR_READER_REPORTED,
    &ERR_READER_NOT_READ_BACK,
    &REC_READER_NOT_READ_BACK,
    &ERR_READER_START,
    &ERR_READER_WAIT,
    &ERR_READER_ANSWER,
    &ERR_READER_SERIAL,
    &ERR_READER_HEX,
    &ERR_SEAL_NOT_OPENED,
    &REC_SEAL_NOT_OPENED,
    &ERR_SEAL_SHORT,
    &ERR_SEAL_OTHER_KEY,
    &ERR_SEAL_TAG,
    &ERR_SEAL_KEY_EXISTS,
    &REC_SEAL_KEY_EXISTS,
    &ERR_SEAL_KEY_NOT_SECRET,
    &ERR_SEAL_TOKEN_NEW,
    &REC_SEAL_TOKEN_NEW,
    &ERR_SEAL_KEY_MISSING,
    &REC_SEAL_KEY_MISSING,
    &ERR_SEAL_KEYS_MANY,
    &ERR_SEAL_KEY_UNFIT,
    &REC_SEAL_KEY_UNFIT,
    &ERR_SEAL_IV,
    &ERR_SEAL_PARAMS,
    &ERR_SEAL_LENGTH,
    &REC_SEAL_NOT_GCM,
    &ERR_SEAL_BOX,
    &ERR_SEAL_ROUND_TRIP,
    &REC_SEAL_ROUND_TRIP,
    &ERR_SEAL_OPENED_LENGTH,
    &ERR_SEAL_PROBE,
    &REC_SEAL_PROBE,
];
