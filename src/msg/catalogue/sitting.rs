//! The errors, hints and screens of the blocks (`src/cmd/block/`) and of the sitting
//! (`src/cmd/ceremony/`), and the screens of `urne keys init` and `urne status`.

use crate::msg::message::Msg;

// The game's rules and a block's identity (`urne block generate`, spec/appliance.md §5.B9).

/// A game rules file that does not load.
pub const ERR_BLOCK_RULES_REFUSED: Msg = Msg {
    id: "err-block-rules-refused",
    fr: "règlement du jeu {path} refusé : {e}",
    en: "game rules {path} refused: {e}",
};
/// What to do then: the game's rules file shipped with urne.
pub const REC_BLOCK_RULES_REFUSED: Msg = Msg {
    id: "rec-block-rules-refused",
    fr: "utilisez le règlement du jeu livré dans rules/ (rules/noel-de-la-chance-2015.json)",
    en: "use the game's rules file shipped in rules/ (rules/noel-de-la-chance-2015.json)",
};
/// A block identity that cannot be built from the options.
pub const ERR_BLOCK_BAD_ID: Msg = Msg {
    id: "err-block-bad-id",
    fr: "identité de bloc incorrecte : {e}",
    en: "bad block identity: {e}",
};
/// What an emission is made of.
pub const REC_BLOCK_EMISSION: Msg = Msg {
    id: "rec-block-emission",
    fr: "--emission compte de 1 à 32 caractères parmi a-z 0-9 - (sans commencer par -)",
    en: "--emission is 1-32 of a-z 0-9 - (not starting with -)",
};
/// A price that is not one of the game's.
pub const REC_BLOCK_PRICE: Msg = Msg {
    id: "rec-block-price",
    fr: "--price doit être l'un des prix du jeu (G-2) : {prices} centimes",
    en: "--price must be one of the game's price points (G-2): {prices} cents",
};
/// A block argument that is not a block id.
pub const REC_BLOCK_ID: Msg = Msg {
    id: "rec-block-id",
    fr: "donnez l'identifiant canonique du bloc",
    en: "give the block's canonical id",
};
/// The same, with an example (`urne block reveal`).
pub const REC_BLOCK_ID_EXAMPLE: Msg = Msg {
    id: "rec-block-id-example",
    fr: "donnez l'identifiant canonique du bloc, par exemple noel-de-la-chance-2015/100/e2015-01/1",
    en: "give the block's canonical id, e.g. noel-de-la-chance-2015/100/e2015-01/1",
};
/// `--blocks 0`.
pub const ERR_BLOCK_COUNT_ZERO: Msg = Msg {
    id: "err-block-count-zero",
    fr: "--blocks doit valoir au moins 1",
    en: "--blocks must be at least 1",
};
/// A last block number past the largest.
pub const ERR_BLOCK_NUMBERS_OVERFLOW: Msg = Msg {
    id: "err-block-numbers-overflow",
    fr: "les numéros de bloc dépassent le plus grand possible",
    en: "block numbers overflow",
};
/// What to do then.
pub const REC_BLOCK_NUMBERS_OVERFLOW: Msg = Msg {
    id: "rec-block-numbers-overflow",
    fr: "donnez un --first ou un --blocks plus petit",
    en: "use smaller --first/--blocks",
};
/// A block identity already generated.
pub const ERR_BLOCK_ALREADY_GENERATED: Msg = Msg {
    id: "err-block-already-generated",
    fr: "le bloc {block} est déjà généré (tentative {attempt}) ; une identité de bloc n'est générée qu'une fois",
    en: "block {block} was already generated (attempt {attempt}); a block identity is generated once",
};
/// What to do then.
pub const REC_BLOCK_ALREADY_GENERATED: Msg = Msg {
    id: "rec-block-already-generated",
    fr: "rien n'a été modifié. Choisissez d'autres numéros avec --first, ou annulez d'abord le bloc avec `urne block void --block ID --reason …`",
    en: "nothing was changed. Choose other numbers with --first, or void the block with `urne block void --block ID --reason …` first",
};
/// An output folder whose rules.json is another game rules file.
pub const ERR_BLOCK_OTHER_RULES: Msg = Msg {
    id: "err-block-other-rules",
    fr: "{path} contient un autre règlement",
    en: "{path} holds other rules",
};
/// What to do then.
pub const REC_BLOCK_OTHER_RULES: Msg = Msg {
    id: "rec-block-other-rules",
    fr: "utilisez un dossier de sortie par fichier de règlement du jeu",
    en: "use one output folder per game rules file",
};
/// A generation taken up again that does not give the block recorded.
pub const ERR_BLOCK_RECOMPUTED_OTHER: Msg = Msg {
    id: "err-block-recomputed-other",
    fr: "recalculé à partir de son aléa inscrit, le bloc {block} n'est pas celui qui est inscrit",
    en: "recomputing block {block} from its recorded randomness gives another block than the one recorded",
};
/// What to do then.
pub const REC_BLOCK_RECOMPUTED_OTHER: Msg = Msg {
    id: "rec-block-recomputed-other",
    fr: "arrêtez : le logiciel, le règlement du jeu ou la piste d'audit ont changé depuis la génération du bloc ; lancez `urne audit verify`",
    en: "stop: the software, the game rules or the trail changed since the block was generated; run `urne audit verify`",
};
/// The generation itself failed.
pub const ERR_BLOCK_GENERATION_FAILED: Msg = Msg {
    id: "err-block-generation-failed",
    fr: "la génération du bloc a échoué : {e}",
    en: "block generation failed: {e}",
};
/// What to do then.
pub const REC_BLOCK_GENERATION_FAILED: Msg = Msg {
    id: "rec-block-generation-failed",
    fr: "rien n'a été publié ; gardez la piste d'audit et signalez-le : l'aléa inscrit est conservé pour une nouvelle exécution",
    en: "nothing was published; keep the audit trail and report it: the entropy recorded is kept for a run again",
};
/// A generated block whose tier counts are not G-3's.
pub const ERR_BLOCK_TIER_COUNTS: Msg = Msg {
    id: "err-block-tier-counts",
    fr: "les effectifs par rang du bloc généré diffèrent de G-3",
    en: "the generated block's tier counts differ from G-3",
};
/// What to do then.
pub const REC_BLOCK_DEFECT: Msg = Msg {
    id: "rec-block-defect",
    fr: "c'est un défaut du logiciel ; rien n'a été publié",
    en: "this is a defect; nothing was published",
};
/// A commitment that cannot be read back once placed.
pub const ERR_BLOCK_COMMIT_UNREADABLE: Msg = Msg {
    id: "err-block-commit-unreadable",
    fr: "{name} ne peut pas être relu une fois mis en place",
    en: "{name} cannot be read back after it was placed",
};
/// What to do then.
pub const REC_BLOCK_COMMIT_UNREADABLE: Msg = Msg {
    id: "rec-block-commit-unreadable",
    fr: "vérifiez le support de sortie",
    en: "check the output medium",
};

// The two folders of a generation (spec/appliance.md §5.B9).

/// The secret folder is the output folder.
pub const ERR_SECRET_OUT_IS_OUT: Msg = Msg {
    id: "err-secret-out-is-out",
    fr: "--secret-out {secret} est le dossier de sortie --out {out} : le fichier de production secret serait posé à côté de l'engagement public",
    en: "--secret-out {secret} is the output folder --out {out}: the secret production file would rest beside the public commitment",
};
/// The secret folder is inside the output folder.
pub const ERR_SECRET_OUT_INSIDE_OUT: Msg = Msg {
    id: "err-secret-out-inside-out",
    fr: "--secret-out {secret} est à l'intérieur du dossier de sortie --out {out} : le fichier de production secret serait posé à côté de l'engagement public",
    en: "--secret-out {secret} is inside the output folder --out {out}: the secret production file would rest beside the public commitment",
};
/// The secret folder contains the output folder.
pub const ERR_SECRET_OUT_CONTAINS_OUT: Msg = Msg {
    id: "err-secret-out-contains-out",
    fr: "--secret-out {secret} contient le dossier de sortie --out {out} : le fichier de production secret serait posé à côté de l'engagement public",
    en: "--secret-out {secret} contains the output folder --out {out}: the secret production file would rest beside the public commitment",
};
/// The secret folder holds the audit database.
pub const ERR_SECRET_OUT_HOLDS_DB: Msg = Msg {
    id: "err-secret-out-holds-db",
    fr: "--secret-out {secret} contient la base d'audit {db} : c'est un dossier du disque de l'appareil",
    en: "--secret-out {secret} holds the audit database {db}: it is a folder of the appliance's own disk",
};
/// What a separate secret medium is.
pub const REC_SECRET_OUT_MEDIUM: Msg = Msg {
    id: "rec-secret-out-medium",
    fr: "donnez à --secret-out un dossier sur un support secret distinct : un support amovible (par exemple une clé USB) monté à part du dossier de sortie public, qui ne reçoit que les fichiers de production et est remis à la production à la fin de la séance, sans qu'aucune copie reste sur l'appareil",
    en: "give --secret-out a folder on a separate secret medium: a removable medium (e.g. a USB key) mounted apart from the public output folder, which receives the production files only and is handed to production at the end of the sitting, no copy kept on the appliance",
};
/// A secret folder on the disk of the audit database.
pub const SCR_SECRET_OUT_SAME_DISK: Msg = Msg {
    id: "scr-secret-out-same-disk",
    fr: "attention : --secret-out {secret} est sur le système de fichiers de la base d'audit, pas sur un support distinct : le fichier de production reste sur le disque de l'appareil jusqu'à ce qu'on l'en retire. En séance, montez un support amovible pour la production et donnez un dossier sur ce support.",
    en: "warning: --secret-out {secret} is on the file system of the audit database, not on a separate medium: the production file rests on the appliance's disk until it is removed. At a sitting, mount a removable medium for production and give a folder on it.",
};
/// A folder option naming something that is not a folder.
pub const ERR_BLOCK_FOLDER_NOT_FOLDER: Msg = Msg {
    id: "err-block-folder-not-folder",
    fr: "{flag} {path} existe et n'est pas un dossier",
    en: "{flag} {path} exists and is not a folder",
};
/// What to do then.
pub const REC_BLOCK_FOLDER_NOT_FOLDER: Msg = Msg {
    id: "rec-block-folder-not-folder",
    fr: "donnez à {flag} un dossier (neuf, ou qui contient les sorties de blocs précédents)",
    en: "give {flag} a folder (new or holding earlier blocks' outputs)",
};
/// A file a fresh block would write is there already.
pub const ERR_BLOCK_OUTPUT_TAKEN: Msg = Msg {
    id: "err-block-output-taken",
    fr: "{path} existe déjà, alors que le bloc {block} n'a pas encore d'aléa pour sa tentative {attempt} : ce n'est pas une sortie de ce bloc",
    en: "{path} already exists, and block {block} attempt {attempt} has no entropy yet: it is not this block's output",
};
/// What to do then.
pub const REC_BLOCK_OUTPUT_TAKEN: Msg = Msg {
    id: "rec-block-output-taken",
    fr: "aucun aléa n'a été demandé. Une sortie n'est jamais écrasée (les fichiers d'une tentative annulée restent comme preuve) : donnez à --out un dossier neuf ou vide, et à --secret-out un nouveau support ou un dossier vide sur ce support",
    en: "no entropy was asked for. Outputs are never overwritten (a voided attempt's files stay as evidence): give --out a new or empty folder and --secret-out a new medium or an empty folder on it",
};

// A block's randomness (spec/formats.md §4.4.1, §5.B3).

/// A block left without a contribution: a defect.
pub const ERR_BLOCK_NO_CONTRIBUTION_LEFT: Msg = Msg {
    id: "err-block-no-contribution-left",
    fr: "un bloc est resté sans contribution",
    en: "a block was left without a contribution",
};
/// A block taken up again under another rules file than its entropy's.
pub const ERR_BLOCK_ENTROPY_OTHER_RULES: Msg = Msg {
    id: "err-block-entropy-other-rules",
    fr: "le bloc {block} a reçu son aléa sous le règlement {recorded} ; celui qui est donné maintenant est {given}",
    en: "block {block} was given its entropy under the rules file {recorded}; the one given now is {given}",
};
/// What to do then.
pub const REC_BLOCK_ENTROPY_OTHER_RULES: Msg = Msg {
    id: "rec-block-entropy-other-rules",
    fr: "reprenez-le avec le règlement sous lequel il a été commencé, ou annulez-le devant le commissaire",
    en: "resume it with the rules file it was started with, or void it in front of the commissaire",
};

// A block's void (`urne block void`, spec/appliance.md §5.B9).

/// A block with nothing to void.
pub const ERR_BLOCK_NOTHING_TO_VOID: Msg = Msg {
    id: "err-block-nothing-to-void",
    fr: "le bloc {block} n'a rien à annuler",
    en: "block {block} has nothing to void",
};
/// What can be voided.
pub const REC_BLOCK_NOTHING_TO_VOID: Msg = Msg {
    id: "rec-block-nothing-to-void",
    fr: "seul un bloc généré (ou interrompu) peut être annulé ; une tentative n'est annulée qu'une fois, et son avis d'annulation a été écrit à ce moment-là",
    en: "only a generated (or interrupted) block can be voided; an attempt is voided once, and its void notice was written when it was",
};

// A block's reveal (`urne block reveal`, spec/appliance.md §5.B9).

/// A sales close that is no RFC 3339 date-time.
pub const ERR_BLOCK_SALES_CLOSE_FORMAT: Msg = Msg {
    id: "err-block-sales-close-format",
    fr: "--sales-closed-at {value} n'est pas une date et heure RFC 3339 avec son décalage",
    en: "--sales-closed-at {value} is not an RFC 3339 date-time with its offset",
};
/// What to give.
pub const REC_BLOCK_SALES_CLOSE_FORMAT: Msg = Msg {
    id: "rec-block-sales-close-format",
    fr: "donnez le moment de la clôture des ventes du bloc tel que la production l'indique, avec son décalage, par exemple --sales-closed-at 2015-12-31T23:59:59+01:00",
    en: "give the moment the block's sales closed as production states it, with its offset, e.g. --sales-closed-at 2015-12-31T23:59:59+01:00",
};
/// A sales close later than the clock.
pub const ERR_BLOCK_SALES_CLOSE_FUTURE: Msg = Msg {
    id: "err-block-sales-close-future",
    fr: "les ventes du bloc {block} ne peuvent pas avoir été closes le {closed} : c'est plus tard que l'horloge de l'appareil ({now})",
    en: "the sales of block {block} cannot have closed at {closed}: that is later than the appliance's clock ({now})",
};
/// What to do then.
pub const REC_BLOCK_SALES_CLOSE_FUTURE: Msg = Msg {
    id: "rec-block-sales-close-future",
    fr: "un bloc est révélé une fois ses ventes closes : vérifiez l'heure que donne la production (et son décalage), et attendez jusque-là ; rien n'a été inscrit",
    en: "a block is revealed once its sales have closed: check the time production gives (and its offset), and wait until then; nothing was recorded",
};
/// A sales close before the block was generated.
pub const ERR_BLOCK_SALES_CLOSE_EARLY: Msg = Msg {
    id: "err-block-sales-close-early",
    fr: "les ventes du bloc {block} ne peuvent pas avoir été closes le {closed} : le bloc a été généré plus tard ({published})",
    en: "the sales of block {block} cannot have closed at {closed}: the block was generated later ({published})",
};
/// What to do then.
pub const REC_BLOCK_SALES_CLOSE_EARLY: Msg = Msg {
    id: "rec-block-sales-close-early",
    fr: "vérifiez l'identifiant du bloc et l'heure que donne la production (et son décalage) ; rien n'a été inscrit",
    en: "check the block id and the time production gives (and its offset); nothing was recorded",
};
/// A reveal already recorded, with another sales close than the one given now.
pub const SCR_BLOCK_REVEAL_RECORDED_CLOSE: Msg = Msg {
    id: "scr-block-reveal-recorded-close",
    fr: "note : la révélation indique la clôture des ventes inscrite avec elle ({recorded}), non celle qui est donnée maintenant ({given})",
    en: "note: the reveal states the sales close recorded with it ({recorded}), not the one given now ({given})",
};
/// A file in the reveal's place that is not this block's reveal.
pub const ERR_BLOCK_REVEAL_TAKEN: Msg = Msg {
    id: "err-block-reveal-taken",
    fr: "{path} existe et n'est pas la révélation signée de ce bloc",
    en: "{path} exists and is not this block's signed reveal",
};
/// What to do then.
pub const REC_BLOCK_REVEAL_TAKEN: Msg = Msg {
    id: "rec-block-reveal-taken",
    fr: "la révélation d'un bloc ne remplace jamais un fichier : déplacez-le et gardez-le comme preuve",
    en: "block reveal never replaces a file: move it away and keep it as evidence",
};
/// A reveal found whole in place, recorded as it is.
pub const SCR_BLOCK_REVEALED_ALREADY: Msg = Msg {
    id: "scr-block-revealed-already",
    fr: "BLOC RÉVÉLÉ : {block} (déjà ; sa révélation est {path})",
    en: "REVEALED: block {block} (already; its reveal is {path})",
};
/// A block generated under the trail this one replaced.
pub const ERR_BLOCK_CARRIED: Msg = Msg {
    id: "err-block-carried",
    fr: "le bloc {block} a été généré sous la piste d'audit que celle-ci a remplacée : son aléa secret est resté dans cette piste",
    en: "block {block} was generated under the trail this one replaced: its secret entropy stayed in that trail",
};
/// What to do then.
pub const REC_BLOCK_CARRIED: Msg = Msg {
    id: "rec-block-carried",
    fr: "il ne peut pas être révélé depuis cette piste : annulez-le devant le commissaire (urne block void) et générez-le de nouveau",
    en: "it cannot be revealed from this trail: void it in front of the commissaire (urne block void) and generate it again",
};
/// A block not generated.
pub const ERR_BLOCK_NOT_GENERATED: Msg = Msg {
    id: "err-block-not-generated",
    fr: "le bloc {block} n'a pas été généré",
    en: "block {block} has not been generated",
};
/// What can be revealed.
pub const REC_BLOCK_NOT_GENERATED: Msg = Msg {
    id: "rec-block-not-generated",
    fr: "seul un bloc généré peut être révélé",
    en: "only a generated block can be revealed",
};
/// A generated block whose publication the trail lacks.
pub const ERR_BLOCK_NO_PUBLICATION: Msg = Msg {
    id: "err-block-no-publication",
    fr: "le bloc {block} a été généré, mais sa publication n'est pas inscrite",
    en: "block {block} was generated, but its publication is not recorded",
};
/// A generated block whose entropy the trail lacks.
pub const ERR_BLOCK_NO_ENTROPY: Msg = Msg {
    id: "err-block-no-entropy",
    fr: "le bloc {block} a été généré, mais aucun aléa n'est inscrit",
    en: "block {block} was generated, but no entropy is recorded",
};
/// A generated block whose contribution the trail lacks.
pub const ERR_BLOCK_NO_CONTRIBUTION: Msg = Msg {
    id: "err-block-no-contribution",
    fr: "le bloc {block} a été généré, mais aucune contribution n'est inscrite",
    en: "block {block} was generated, but no contribution is recorded",
};
/// A block's entropy recorded without the hash of its rules.
pub const ERR_BLOCK_NO_RULES_HASH: Msg = Msg {
    id: "err-block-no-rules-hash",
    fr: "bloc {block} : aucune empreinte de règlement n'est inscrite avec son aléa",
    en: "block {block}: no rules hash is recorded with its entropy",
};

// Opening a sitting (`urne ceremony`, spec/appliance.md §9.1).

/// A PIN given ahead to `urne ceremony`.
pub const ERR_SITTING_PIN_GIVEN: Msg = Msg {
    id: "err-sitting-pin-given",
    fr: "urne ceremony ne lit le code PIN de l'HSM qu'à sa propre invite, et {from} le donne",
    en: "urne ceremony reads the HSM PIN at its own prompt only, and {from} gives it",
};
/// What to do then.
pub const REC_SITTING_PIN_GIVEN: Msg = Msg {
    id: "rec-sitting-pin-given",
    fr: "retirez URNE_PIN et --pin-file : l'opérateur tape le code PIN à l'invite, devant le commissaire ; rien n'a été fait",
    en: "unset URNE_PIN and drop --pin-file: the operator types the PIN at the prompt, in front of the commissaire; nothing was done",
};
/// The key ceremony's sitting still open.
pub const ERR_SITTING_KEY_CEREMONY_OPEN: Msg = Msg {
    id: "err-sitting-key-ceremony-open",
    fr: "la séance de la cérémonie des clés est ouverte : les clés de cet appareil et celles de la production ne sont pas encore toutes en place",
    en: "the key ceremony's sitting is open: this appliance's keys and production's are not yet all in place",
};
/// What to do then.
pub const REC_SITTING_KEY_CEREMONY_OPEN: Msg = Msg {
    id: "rec-sitting-key-ceremony-open",
    fr: "terminez-la d'abord : lancez de nouveau `urne ceremony --key-ceremony --producer-key PEM`",
    en: "finish it first: run `urne ceremony --key-ceremony --producer-key PEM` again",
};
/// The key ceremony held already.
pub const ERR_SITTING_KEY_CEREMONY_HELD: Msg = Msg {
    id: "err-sitting-key-ceremony-held",
    fr: "la cérémonie des clés de cet appareil a déjà eu lieu : sa piste d'audit existe",
    en: "this appliance's key ceremony was already held: its trail exists",
};
/// What to do then.
pub const REC_SITTING_KEY_CEREMONY_HELD: Msg = Msg {
    id: "rec-sitting-key-ceremony-held",
    fr: "un jeton n'est initialisé qu'une fois (spec/appliance.md §6.6) ; pour les travaux de l'opération, lancez `urne ceremony` sans --key-ceremony",
    en: "a token is initialised once (spec/appliance.md §6.6); for the operation's work, run `urne ceremony` without --key-ceremony",
};
/// An open sitting whose opening the trail lacks.
pub const ERR_SITTING_NO_OPENING: Msg = Msg {
    id: "err-sitting-no-opening",
    fr: "une séance ouverte sans son ouverture",
    en: "an open sitting without its opening",
};
/// A person present not given as `Name, role`.
pub const ERR_SITTING_PRESENT: Msg = Msg {
    id: "err-sitting-present",
    fr: "--present {value} n'est pas de la forme `Nom, qualité`",
    en: "--present {value} is not `Name, role`",
};
/// What to write.
pub const REC_SITTING_PRESENT: Msg = Msg {
    id: "rec-sitting-present",
    fr: "écrivez par exemple --present \"Jean Martin, opérateur\"",
    en: "write e.g. --present \"Jean Martin, operator\"",
};
/// A name, a place or an office that cannot stand in the minutes.
pub const ERR_SITTING_TEXT: Msg = Msg {
    id: "err-sitting-text",
    fr: "{value} ne peut pas figurer au procès-verbal : {why}",
    en: "{value} cannot stand in the minutes: {why}",
};
/// What to do then.
pub const REC_SITTING_TEXT: Msg = Msg {
    id: "rec-sitting-text",
    fr: "donnez-le en texte simple sur une ligne, sans caractère de contrôle : le procès-verbal l'imprime tel qu'il est donné",
    en: "give it as plain text on one line, without control characters: the minutes print it as given",
};

// The sitting's plan (`urne ceremony`, spec/appliance.md §9.1).

/// `--out` that is not a folder.
pub const ERR_SITTING_OUT_NOT_FOLDER: Msg = Msg {
    id: "err-sitting-out-not-folder",
    fr: "--out {path} n'est pas un dossier",
    en: "--out {path} is not a folder",
};
/// What to give.
pub const REC_SITTING_OUT_NOT_FOLDER: Msg = Msg {
    id: "rec-sitting-out-not-folder",
    fr: "donnez le dossier des publications (créé s'il n'existe pas)",
    en: "give the publications folder (created if missing)",
};
/// `--exports` that is not a folder.
pub const ERR_SITTING_NO_EXPORTS: Msg = Msg {
    id: "err-sitting-no-exports",
    fr: "--exports {path} : ce dossier n'existe pas",
    en: "--exports {path}: no such folder",
};
/// What to give.
pub const REC_SITTING_NO_EXPORTS: Msg = Msg {
    id: "rec-sitting-no-exports",
    fr: "donnez le dossier qui contient les exports signés de la production (entries-<operation>-<day>.jsonl et leurs .sig)",
    en: "give the folder holding production's signed exports (entries-<operation>-<day>.jsonl and their .sig)",
};
/// `--day` without `--rules`.
pub const ERR_SITTING_DAY_WITHOUT_RULES: Msg = Msg {
    id: "err-sitting-day-without-rules",
    fr: "--day demande le règlement de l'opération (--rules FICHIER)",
    en: "--day needs the operation's rules (--rules FILE)",
};
/// What to give.
pub const REC_SITTING_DAY_WITHOUT_RULES: Msg = Msg {
    id: "rec-sitting-day-without-rules",
    fr: "donnez --rules rules/chanceux-noel-2018.json",
    en: "give --rules rules/chanceux-noel-2018.json",
};
/// A day that is not one of the operation's.
pub const ERR_SITTING_DAY_NOT_IN_OPERATION: Msg = Msg {
    id: "err-sitting-day-not-in-operation",
    fr: "{day} n'est pas un jour de l'opération {operation}",
    en: "{day} is not a day of the operation {operation}",
};
/// What to give.
pub const REC_SITTING_DAY_NOT_IN_OPERATION: Msg = Msg {
    id: "rec-sitting-day-not-in-operation",
    fr: "donnez un jour de l'une des périodes du règlement (D-2)",
    en: "give a day of one of the rules' periods (D-2)",
};
/// A day to seal with no exports folder.
pub const ERR_SITTING_NO_EXPORTS_FOLDER: Msg = Msg {
    id: "err-sitting-no-exports-folder",
    fr: "le jour {day} n'est pas scellé, et aucun dossier d'exports n'a été donné",
    en: "day {day} is not sealed, and no exports folder was given",
};
/// What to give.
pub const REC_SITTING_NO_EXPORTS_FOLDER: Msg = Msg {
    id: "rec-sitting-no-exports-folder",
    fr: "donnez --exports DOSSIER, le dossier qui contient l'export signé du jour par la production",
    en: "give --exports DIR, the folder holding production's signed export of the day",
};
/// A day's export missing from the exports folder.
pub const REC_SITTING_EXPORT_MISSING: Msg = Msg {
    id: "rec-sitting-export-missing",
    fr: "l'export du jour (et son .sig) doit être dans le dossier des exports, sous ce nom",
    en: "the day's export (and its .sig) must be in the exports folder under this name",
};
/// Nothing to do.
pub const ERR_SITTING_NOTHING_PLANNED: Msg = Msg {
    id: "err-sitting-nothing-planned",
    fr: "rien n'est prévu pour cette séance",
    en: "nothing is planned for this sitting",
};
/// What to give.
pub const REC_SITTING_NOTHING_PLANNED: Msg = Msg {
    id: "rec-sitting-nothing-planned",
    fr: "donnez --rules (les jours dont la date de tirage est aujourd'hui, D-8), --day JOUR, --game-rules … --emission … pour des blocs, ou --reveal BLOC",
    en: "give --rules (the days whose draw date is today, D-8), --day DAY, --game-rules … --emission … for blocks, or --reveal BLOCK",
};

// The sitting's steps (`urne ceremony`, spec/appliance.md §9.1).

/// A day to draw with no rules.
pub const ERR_SITTING_DRAW_WITHOUT_RULES: Msg = Msg {
    id: "err-sitting-draw-without-rules",
    fr: "un jour se tire sous le règlement de l'opération",
    en: "a day is drawn under the operation's rules",
};
/// What to give.
pub const REC_SITTING_DRAW_WITHOUT_RULES: Msg = Msg {
    id: "rec-sitting-draw-without-rules",
    fr: "donnez --rules FICHIER",
    en: "give --rules FILE",
};
/// The sales close typed by the commissaire is not the one given.
pub const ERR_SITTING_SALES_CLOSE_TYPED: Msg = Msg {
    id: "err-sitting-sales-close-typed",
    fr: "la clôture des ventes du bloc {block} tapée par le commissaire n'est pas celle qui a été donnée ({want}, heure de Paris)",
    en: "the sales close of block {block} typed by the commissaire is not the one given ({want}, Paris time)",
};
/// What to do then.
pub const REC_SITTING_SALES_CLOSE_TYPED: Msg = Msg {
    id: "rec-sitting-sales-close-typed",
    fr: "vérifiez la déclaration écrite de la production sur la clôture des ventes ; donnez-la avec --sales-closed-at et tapez-la à l'invite ; rien n'a été inscrit",
    en: "check production's written statement of the sales close; give it with --sales-closed-at and type it at the prompt; nothing was recorded",
};

// The sitting's minutes and its close (spec/appliance.md §9.2, spec/formats.md §9.3).

/// Minutes that cannot be read from the trail.
pub const ERR_SITTING_MINUTES_UNREADABLE: Msg = Msg {
    id: "err-sitting-minutes-unreadable",
    fr: "le procès-verbal de la séance ne peut pas être lu dans la piste d'audit : {e}",
    en: "the sitting's minutes cannot be read from the trail: {e}",
};
/// What to do then.
pub const REC_SITTING_MINUTES_UNREADABLE: Msg = Msg {
    id: "rec-sitting-minutes-unreadable",
    fr: "lancez `urne audit verify` et cherchez la cause avant de publier",
    en: "run `urne audit verify` and investigate before publishing",
};
/// A sealed set that does not decode.
pub const ERR_SITTING_SET_UNDECODABLE: Msg = Msg {
    id: "err-sitting-set-undecodable",
    fr: "un ensemble scellé ne se décode pas",
    en: "a sealed set does not decode",
};
/// A sitting file a stopped run placed that does not read.
pub const ERR_SITTING_PLACED_UNREADABLE: Msg = Msg {
    id: "err-sitting-placed-unreadable",
    fr: "le fichier de séance qu'une exécution interrompue a mis en place : {e}",
    en: "the sitting file a stopped run placed: {e}",
};

// `urne keys init`, `urne keys export`, `urne keys pin` (spec/appliance.md §6.6, §6.9).

/// The result key, named on a screen.
pub const SCR_KEY_RESULT: Msg = Msg {
    id: "scr-key-result",
    fr: "clé de signature des résultats",
    en: "result key",
};
/// The audit key, named on a screen.
pub const SCR_KEY_AUDIT: Msg = Msg {
    id: "scr-key-audit",
    fr: "clé de signature du journal d'audit",
    en: "audit key",
};
/// A key pair generated in the token (`{key}`: [`SCR_KEY_RESULT`] or [`SCR_KEY_AUDIT`]).
pub const SCR_KEYS_GENERATED: Msg = Msg {
    id: "scr-keys-generated",
    fr: "{key} {label} générée dans le jeton : identifiant {id}",
    en: "{key} {label} generated in the token: key id {id}",
};
/// Its public key.
pub const SCR_KEYS_PUBLIC: Msg = Msg {
    id: "scr-keys-public",
    fr: "  clé publique {hex}",
    en: "  public key {hex}",
};
/// Its attributes, which bind it to the token.
pub const SCR_KEYS_ATTRIBUTES: Msg = Msg {
    id: "scr-keys-attributes",
    fr: "  CKA_LOCAL={local} CKA_NEVER_EXTRACTABLE={never_extractable} CKA_ALWAYS_SENSITIVE={always_sensitive} : elle ne peut jamais sortir du jeton",
    en: "  CKA_LOCAL={local} CKA_NEVER_EXTRACTABLE={never_extractable} CKA_ALWAYS_SENSITIVE={always_sensitive}: it can never leave the token",
};
/// The sealing key generated in the token.
pub const SCR_KEYS_SEAL_GENERATED: Msg = Msg {
    id: "scr-keys-seal-generated",
    fr: "clé de scellement {label} générée dans le jeton : AES-{bits}, identifiant {id}",
    en: "sealing key {label} generated in the token: AES-{bits} key id {id}",
};
/// Its attributes.
pub const SCR_KEYS_SEAL_ATTRIBUTES: Msg = Msg {
    id: "scr-keys-seal-attributes",
    fr: "  CKA_LOCAL={local} CKA_NEVER_EXTRACTABLE={never_extractable} CKA_SENSITIVE={sensitive} CKA_MODIFIABLE={modifiable} CKA_DESTROYABLE={destroyable}, seulement {mechanisms} : elle ne peut jamais sortir du jeton",
    en: "  CKA_LOCAL={local} CKA_NEVER_EXTRACTABLE={never_extractable} CKA_SENSITIVE={sensitive} CKA_MODIFIABLE={modifiable} CKA_DESTROYABLE={destroyable}, only {mechanisms}: it can never leave the token",
};
/// The trail created, bound to the token.
pub const SCR_KEYS_TRAIL: Msg = Msg {
    id: "scr-keys-trail",
    fr: "piste d'audit : {path} (piste {trail}, {events} événements, liée à ce jeton)",
    en: "audit trail: {path} (trail {trail}, {events} events, bound to this token)",
};
/// The checkpoint signed at the end of the command, printed under it.
pub const SCR_KEYS_CHECKPOINT: Msg = Msg {
    id: "scr-keys-checkpoint",
    fr: "point de contrôle signé :",
    en: "checkpoint signed:",
};
/// A whole key pair an interrupted `urne keys init` left, taken.
pub const SCR_KEYS_PAIR_LEFT: Msg = Msg {
    id: "scr-keys-pair-left",
    fr: "le jeton contient la paire de la {key} d'urne {label} et aucune piste : un `urne keys init` interrompu l'a générée (aucune piste ne la nomme, donc rien n'a été signé avec elle) ; l'initialisation la reprend",
    en: "the token holds urne's {key} pair {label} and no trail: an interrupted `urne keys init` generated it (no trail names it, so nothing was signed with it); initialising with it",
};
/// What a `urne keys init` killed inside the generation of a key pair left, removed.
pub const SCR_KEYS_PAIR_CUT: Msg = Msg {
    id: "scr-keys-pair-cut",
    fr: "le jeton contient ce qu'un `urne keys init` tué pendant la génération de la paire de la {key} a laissé sous {label} : {what} ; aucune piste ne le nomme, donc rien n'a été signé avec : il est supprimé et la paire est générée",
    en: "the token holds what a `urne keys init` killed inside the token's generation of the {key} pair left under {label}: {what}; no trail names it, so nothing was signed with it: removing it and generating the pair",
};
/// A trail an interrupted `urne keys init` placed but did not mark.
pub const SCR_KEYS_TRAIL_UNMARKED: Msg = Msg {
    id: "scr-keys-trail-unmarked",
    fr: "la piste du jeton, {trail}, a sa base de données en place mais aucune marque : un `urne keys init` interrompu l'a laissée ainsi ; elle est vérifiée puis marquée",
    en: "the token's {trail} has its database in place but no mark: an interrupted `urne keys init` left it; checking it and marking it",
};
/// A sealing key an interrupted `urne keys init` generated, taken.
pub const SCR_KEYS_SEAL_LEFT: Msg = Msg {
    id: "scr-keys-seal-left",
    fr: "le jeton contient la clé de scellement d'urne et aucune piste : un `urne keys init` interrompu l'a générée (rien n'a été scellé avec elle) ; l'initialisation la reprend",
    en: "the token holds urne's sealing key and no trail: an interrupted `urne keys init` generated it (nothing was sealed with it); initialising with it",
};
/// A public key exported.
pub const SCR_KEYS_EXPORTED: Msg = Msg {
    id: "scr-keys-exported",
    fr: "{key} : {path} (identifiant {id})",
    en: "{key}: {path} (key id {id})",
};
/// Production's keys replaced (`urne keys pin`).
pub const SCR_KEYS_PINNED_REPLACED: Msg = Msg {
    id: "scr-keys-pinned-replaced",
    fr: "clés de la production remplacées : {keys}",
    en: "production's keys replaced: {keys}",
};
/// Production's keys pinned (`urne keys pin`).
pub const SCR_KEYS_PINNED: Msg = Msg {
    id: "scr-keys-pinned",
    fr: "clés de la production épinglées (un scellé ne fait confiance qu'à elles) : {keys} (événement {seq})",
    en: "production's keys pinned (a seal trusts these only): {keys} (event {seq})",
};

// `urne trail restart` (spec/appliance.md §6.8).

/// The heading of a trail restarted.
pub const SCR_RESTART: Msg = Msg {
    id: "scr-restart",
    fr: "PISTE D'AUDIT REDÉMARRÉE : {path}",
    en: "TRAIL RESTARTED: {path}",
};
/// The new trail's identity.
pub const SCR_RESTART_NEW: Msg = Msg {
    id: "scr-restart-new",
    fr: "  nouvelle piste    {trail}",
    en: "  new trail        {trail}",
};
/// The trail it replaces, and the token's last mark of it.
pub const SCR_RESTART_REPLACES: Msg = Msg {
    id: "scr-restart-replaces",
    fr: "  remplace          {trail} (la dernière marque du jeton : {size} événements, racine {root})",
    en: "  replaces         {trail} (the token's last mark: {size} events, root {root})",
};
/// Why.
pub const SCR_RESTART_REASON: Msg = Msg {
    id: "scr-restart-reason",
    fr: "  motif             {reason}",
    en: "  reason           {reason}",
};
/// A day's attempt carried from the replaced trail, and its output.
pub const SCR_RESTART_DAY: Msg = Msg {
    id: "scr-restart-day",
    fr: "  jour {day} tentative {attempt} : {stage} (sortie {output})",
    en: "  day {day} attempt {attempt}: {stage} (output {output})",
};
/// A block's attempt carried from the replaced trail, and its output.
pub const SCR_RESTART_BLOCK: Msg = Msg {
    id: "scr-restart-block",
    fr: "  bloc {block} tentative {attempt} : {stage} (sortie {output})",
    en: "  block {block} attempt {attempt}: {stage} (output {output})",
};
/// The checkpoint signed, to copy into the minutes, printed under it.
pub const SCR_RESTART_CHECKPOINT: Msg = Msg {
    id: "scr-restart-checkpoint",
    fr: "point de contrôle signé (à recopier aux minutes) :",
    en: "checkpoint signed (copy it into the minutes):",
};
/// No production key pinned in the new trail.
pub const SCR_RESTART_NO_PIN: Msg = Msg {
    id: "scr-restart-no-pin",
    fr: "clés de la production : aucune n'est épinglée dans la nouvelle piste ; épinglez-les avec `urne keys producer` (les identifiants tapés d'après la déclaration écrite de la production) avant tout scellé",
    en: "production's keys: none pinned in the new trail; pin them with `urne keys producer` (the ids typed from production's written statement) before a seal",
};
/// Another history of the replaced trail the token also marked.
pub const SCR_RESTART_OTHER_HISTORY: Msg = Msg {
    id: "scr-restart-other-history",
    fr: "attention : le jeton a aussi marqué un autre historique de la piste remplacée : {size} événements, racine {root} (à recopier aux minutes)",
    en: "warning: the token also marked another history of the replaced trail: {size} events, root {root} (copy it into the minutes)",
};

// `urne audit verify`, `urne audit export` and the trail a read-only command reads
// (spec/formats.md §6.4, spec/appliance.md §6.6).

/// The trail a command checked before it acts, and how many events it holds (its identity
/// follows, under [`super::SCR_TRAIL_ID`]).
pub const SCR_TRAIL_CHECKED: Msg = Msg {
    id: "scr-trail-checked",
    fr: "piste d'audit {path} : {events} événements",
    en: "audit trail {path}: {events} events",
};
/// The trail read, with its identity.
pub const SCR_AUDIT_TRAIL: Msg = Msg {
    id: "scr-audit-trail",
    fr: "piste d'audit {path} : piste {trail}, {events} événements",
    en: "audit trail {path}: trail {trail}, {events} events",
};
/// The trail read, without an identity (a trail of version 1).
pub const SCR_AUDIT_TRAIL_V1: Msg = Msg {
    id: "scr-audit-trail-v1",
    fr: "piste d'audit {path} : sans identité de piste (version 1), {events} événements",
    en: "audit trail {path}: no trail identity (version 1), {events} events",
};
/// The trail verified against a key or a checkpoint (`{trail}`: [`SCR_AUDIT_REPORT_TRAIL`] or
/// nothing; `{key}`: [`SCR_AUDIT_REPORT_KEY`] or nothing).
pub const SCR_AUDIT_INTACT: Msg = Msg {
    id: "scr-audit-intact",
    fr: "piste d'audit intacte : {trail}{events} événements, chaîne d'empreintes vérifiée, {checkpoints} point(s) de contrôle vérifié(s){key}",
    en: "audit trail intact: {trail}{events} events, hash chain verified, {checkpoints} checkpoint(s) verified{key}",
};
/// The trail verified against the key it records only (after the `UNANCHORED:` verdict).
pub const SCR_AUDIT_SELF_CONSISTENT: Msg = Msg {
    id: "scr-audit-self-consistent",
    fr: "piste d'audit cohérente avec elle-même : {trail}{events} événements, chaîne d'empreintes vérifiée, {checkpoints} point(s) de contrôle vérifié(s){key}",
    en: "audit trail consistent with itself: {trail}{events} events, hash chain verified, {checkpoints} checkpoint(s) verified{key}",
};
/// The trail's identity in a report.
pub const SCR_AUDIT_REPORT_TRAIL: Msg = Msg {
    id: "scr-audit-report-trail",
    fr: "piste {trail}, ",
    en: "trail {trail}, ",
};
/// The audit key a report was checked with.
pub const SCR_AUDIT_REPORT_KEY: Msg = Msg {
    id: "scr-audit-report-key",
    fr: " avec la clé d'audit {id}",
    en: " with audit key {id}",
};
/// The last events, not yet covered by a checkpoint.
pub const SCR_AUDIT_UNCOVERED: Msg = Msg {
    id: "scr-audit-uncovered",
    fr: "note : les événements {from} à {to} sont chaînés mais pas encore couverts par un point de contrôle signé",
    en: "note: events {from}..{to} are chained but not yet covered by a signed checkpoint",
};
/// A checkpoint in `urne audit show`'s listing, and the size it covers.
pub const SCR_AUDIT_SHOW_CHECKPOINT: Msg = Msg {
    id: "scr-audit-show-checkpoint",
    fr: "point de contrôle signé à {size} événements",
    en: "checkpoint signed at size {size}",
};
/// A trail exported.
pub const SCR_AUDIT_EXPORTED: Msg = Msg {
    id: "scr-audit-exported",
    fr: "{events} événements et {checkpoints} points de contrôle écrits dans {path}",
    en: "{events} events and {checkpoints} checkpoints written to {path}",
};

// `urne proof` and `urne ticket` (spec/formats.md §4.8, spec/appliance.md §5.B9).

/// An inclusion proof written, for an account with one entry.
pub const SCR_PROOF_WRITTEN_ONE: Msg = Msg {
    id: "scr-proof-written-one",
    fr: "preuve d'inclusion du compte {account} le {day} : 1 participation à la feuille {leaf} sur {leaves}, écrite dans {path}",
    en: "inclusion proof for account {account} on {day}: 1 entry at leaf {leaf} of {leaves}, written to {path}",
};
/// An inclusion proof written, for an account with several entries.
pub const SCR_PROOF_WRITTEN: Msg = Msg {
    id: "scr-proof-written",
    fr: "preuve d'inclusion du compte {account} le {day} : {entries} participations à la feuille {leaf} sur {leaves}, écrite dans {path}",
    en: "inclusion proof for account {account} on {day}: {entries} entries at leaf {leaf} of {leaves}, written to {path}",
};
/// Every account's proof of a day written, in one file.
pub const SCR_PROOFS_WRITTEN: Msg = Msg {
    id: "scr-proofs-written",
    fr: "{count} preuves d'inclusion du {day} (tentative {attempt}), une ligne par compte, écrites dans {path} ; sans signature : chacune mène à l'engagement du résultat publié et signé",
    en: "{count} inclusion proofs of {day} (attempt {attempt}), one line per account, written to {path}; unsigned: each leads to the commitment of the published signed result",
};
/// Where the file of every proof goes: production, never the publications medium.
pub const SCR_PROOFS_PRODUCTION_ONLY: Msg = Msg {
    id: "scr-proofs-production-only",
    fr: "ATTENTION : ce fichier associe chaque compte du jour à son sel ; il est pour la production, qui remet à chaque joueur sa propre ligne ; ne le mettez JAMAIS sur le support des publications",
    en: "WARNING: this file maps every account of the day to its salt; it is for production, which hands each player their own line; NEVER put it on the publications medium",
};
/// A ticket proof written.
pub const SCR_TICKET_PROOF_WRITTEN: Msg = Msg {
    id: "scr-ticket-proof-written",
    fr: "preuve du ticket du bloc {block} à la position {position} écrite dans {path}",
    en: "ticket proof for {block} position {position} written to {path}",
};
/// A ticket checked with the keys found beside the block.
pub const SCR_TICKET_KEYS_BESIDE: Msg = Msg {
    id: "scr-ticket-keys-beside",
    fr: "note : les clés publiques utilisées sont celles trouvées dans {path} ; donnez --keys DOSSIER avec des clés obtenues indépendamment pour écarter une clé substituée",
    en: "note: using the public keys found in {path}; pass --keys DIR with keys obtained independently to rule out a substituted key",
};

/// Every message of this file, for the catalogue's tests.
pub(super) const ALL: &[&Msg] = &[
    &ERR_BLOCK_RULES_REFUSED,
    &REC_BLOCK_RULES_REFUSED,
    &ERR_BLOCK_BAD_ID,
    &REC_BLOCK_EMISSION,
    &REC_BLOCK_PRICE,
    &REC_BLOCK_ID,
    &REC_BLOCK_ID_EXAMPLE,
    &ERR_BLOCK_COUNT_ZERO,
    &ERR_BLOCK_NUMBERS_OVERFLOW,
    &REC_BLOCK_NUMBERS_OVERFLOW,
    &ERR_BLOCK_ALREADY_GENERATED,
    &REC_BLOCK_ALREADY_GENERATED,
    &ERR_BLOCK_OTHER_RULES,
    &REC_BLOCK_OTHER_RULES,
    &ERR_BLOCK_RECOMPUTED_OTHER,
    &REC_BLOCK_RECOMPUTED_OTHER,
    &ERR_BLOCK_GENERATION_FAILED,
    &REC_BLOCK_GENERATION_FAILED,
    &ERR_BLOCK_TIER_COUNTS,
    &REC_BLOCK_DEFECT,
    &ERR_BLOCK_COMMIT_UNREADABLE,
    &REC_BLOCK_COMMIT_UNREADABLE,
    &ERR_SECRET_OUT_IS_OUT,
    &ERR_SECRET_OUT_INSIDE_OUT,
    &ERR_SECRET_OUT_CONTAINS_OUT,
    &ERR_SECRET_OUT_HOLDS_DB,
    &REC_SECRET_OUT_MEDIUM,
    &SCR_SECRET_OUT_SAME_DISK,
    &ERR_BLOCK_FOLDER_NOT_FOLDER,
    &REC_BLOCK_FOLDER_NOT_FOLDER,
    &ERR_BLOCK_OUTPUT_TAKEN,
    &REC_BLOCK_OUTPUT_TAKEN,
    &ERR_BLOCK_NO_CONTRIBUTION_LEFT,
    &ERR_BLOCK_ENTROPY_OTHER_RULES,
    &REC_BLOCK_ENTROPY_OTHER_RULES,
    &ERR_BLOCK_NOTHING_TO_VOID,
    &REC_BLOCK_NOTHING_TO_VOID,
    &ERR_BLOCK_SALES_CLOSE_FORMAT,
    &REC_BLOCK_SALES_CLOSE_FORMAT,
    &ERR_BLOCK_SALES_CLOSE_FUTURE,
    &REC_BLOCK_SALES_CLOSE_FUTURE,
    &ERR_BLOCK_SALES_CLOSE_EARLY,
    &REC_BLOCK_SALES_CLOSE_EARLY,
    &SCR_BLOCK_REVEAL_RECORDED_CLOSE,
    &ERR_BLOCK_REVEAL_TAKEN,
    &REC_BLOCK_REVEAL_TAKEN,
    &SCR_BLOCK_REVEALED_ALREADY,
    &ERR_BLOCK_CARRIED,
    &REC_BLOCK_CARRIED,
    &ERR_BLOCK_NOT_GENERATED,
    &REC_BLOCK_NOT_GENERATED,
    &ERR_BLOCK_NO_PUBLICATION,
    &ERR_BLOCK_NO_ENTROPY,
    &ERR_BLOCK_NO_CONTRIBUTION,
    &ERR_BLOCK_NO_RULES_HASH,
    &ERR_SITTING_PIN_GIVEN,
    &REC_SITTING_PIN_GIVEN,
    &ERR_SITTING_KEY_CEREMONY_OPEN,
    &REC_SITTING_KEY_CEREMONY_OPEN,
    &ERR_SITTING_KEY_CEREMONY_HELD,
    &REC_SITTING_KEY_CEREMONY_HELD,
    &ERR_SITTING_NO_OPENING,
    &ERR_SITTING_PRESENT,
    &REC_SITTING_PRESENT,
    &ERR_SITTING_TEXT,
    &REC_SITTING_TEXT,
    &ERR_SITTING_OUT_NOT_FOLDER,
    &REC_SITTING_OUT_NOT_FOLDER,
    &ERR_SITTING_NO_EXPORTS,
    &REC_SITTING_NO_EXPORTS,
    &ERR_SITTING_DAY_WITHOUT_RULES,
    &REC_SITTING_DAY_WITHOUT_RULES,
    &ERR_SITTING_DAY_NOT_IN_OPERATION,
    &REC_SITTING_DAY_NOT_IN_OPERATION,
    &ERR_SITTING_NO_EXPORTS_FOLDER,
    &REC_SITTING_NO_EXPORTS_FOLDER,
    &REC_SITTING_EXPORT_MISSING,
    &ERR_SITTING_NOTHING_PLANNED,
    &REC_SITTING_NOTHING_PLANNED,
    &ERR_SITTING_DRAW_WITHOUT_RULES,
    &REC_SITTING_DRAW_WITHOUT_RULES,
    &ERR_SITTING_SALES_CLOSE_TYPED,
    &REC_SITTING_SALES_CLOSE_TYPED,
    &ERR_SITTING_MINUTES_UNREADABLE,
    &REC_SITTING_MINUTES_UNREADABLE,
    &ERR_SITTING_SET_UNDECODABLE,
    &ERR_SITTING_PLACED_UNREADABLE,
    &SCR_KEY_RESULT,
    &SCR_KEY_AUDIT,
    &SCR_KEYS_GENERATED,
    &SCR_KEYS_PUBLIC,
    &SCR_KEYS_ATTRIBUTES,
    &SCR_KEYS_SEAL_GENERATED,
    &SCR_KEYS_SEAL_ATTRIBUTES,
    &SCR_KEYS_TRAIL,
    &SCR_KEYS_CHECKPOINT,
    &SCR_KEYS_PAIR_LEFT,
    &SCR_KEYS_PAIR_CUT,
    &SCR_KEYS_TRAIL_UNMARKED,
    &SCR_KEYS_SEAL_LEFT,
    &SCR_KEYS_EXPORTED,
    &SCR_KEYS_PINNED_REPLACED,
    &SCR_KEYS_PINNED,
    &SCR_RESTART,
    &SCR_RESTART_NEW,
    &SCR_RESTART_REPLACES,
    &SCR_RESTART_REASON,
    &SCR_RESTART_DAY,
    &SCR_RESTART_BLOCK,
    &SCR_RESTART_CHECKPOINT,
    &SCR_RESTART_NO_PIN,
    &SCR_RESTART_OTHER_HISTORY,
    &SCR_TRAIL_CHECKED,
    &SCR_AUDIT_TRAIL,
    &SCR_AUDIT_TRAIL_V1,
    &SCR_AUDIT_INTACT,
    &SCR_AUDIT_SELF_CONSISTENT,
    &SCR_AUDIT_REPORT_TRAIL,
    &SCR_AUDIT_REPORT_KEY,
    &SCR_AUDIT_UNCOVERED,
    &SCR_AUDIT_SHOW_CHECKPOINT,
    &SCR_AUDIT_EXPORTED,
    &SCR_PROOF_WRITTEN_ONE,
    &SCR_PROOF_WRITTEN,
    &SCR_PROOFS_WRITTEN,
    &SCR_PROOFS_PRODUCTION_ONLY,
    &SCR_TICKET_PROOF_WRITTEN,
    &SCR_TICKET_KEYS_BESIDE,
];
