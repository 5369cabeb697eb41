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
];
