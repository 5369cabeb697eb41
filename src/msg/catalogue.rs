//! The messages, by id (see the module's documentation). Grouped by where they are said; each
//! group's ids share a prefix after their kind.

use super::message::Msg;

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

// The paced screen (spec/appliance.md §9.4).

/// The pause of a paced screen.
pub const SCR_PAUSE: Msg = Msg {
    id: "scr-pause",
    fr: "— Entrée pour continuer —",
    en: "— Enter to continue —",
};

/// Every message, for the tests that read them all.
pub const ALL: &[&Msg] = &[
    &ERR_USAGE_UNKNOWN,
    &ERR_USAGE_NO_SUCH_COMMAND,
    &ERR_USAGE_MISSING,
    &ERR_USAGE_VALUE,
    &ERR_USAGE_CONFLICT,
    &ERR_USAGE_OTHER,
    &REC_USAGE,
    &REC_USAGE_HELP,
    &SCR_PAUSE,
];
