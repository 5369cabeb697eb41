//! The errors and hints of rehearsals (spec/appliance.md §6.10) that no other file's area
//! raises: a rehearsal token's trail restarted.

use crate::msg::message::Msg;

/// Every message of this file, for the catalogue's tests.
pub(super) const ALL: &[&Msg] = &[
    &ERR_RESTART_REHEARSAL_OUTPUTS,
    &REC_RESTART_REHEARSAL_OUTPUTS,
];

// `urne trail restart` on a rehearsal token (`error[not-trail-output]:`).

/// A rehearsal token's trail restarted with `--outputs`: a rehearsal's outputs are never
/// checked as official ones, so none is carried into the new trail.
pub const ERR_RESTART_REHEARSAL_OUTPUTS: Msg = Msg {
    id: "err-restart-rehearsal-outputs",
    fr: "{dir} : ce jeton est un jeton de répétition ; les sorties d'une répétition ne sont jamais reportées dans une nouvelle piste (elles ne se vérifient pas comme des sorties officielles)",
    en: "{dir}: this token is a rehearsal token; a rehearsal's outputs are never carried into a new trail (they do not verify as official ones)",
};
/// What to do instead: restart the rehearsal's trail without `--outputs`.
pub const REC_RESTART_REHEARSAL_OUTPUTS: Msg = Msg {
    id: "rec-restart-rehearsal-outputs",
    fr: "rien n'a été fait. Relancez la piste de la répétition sans --outputs : la nouvelle piste est une répétition elle aussi, et les jours déjà tirés de la répétition se tirent de nouveau",
    en: "nothing was done. Restart the rehearsal's trail without --outputs: the new trail is a rehearsal's too, and the rehearsal's days already drawn are drawn again",
};
