//! The errors and hints raised by the commands (`src/cmd/`), but those of a sitting's
//! blocks and ceremony (`sitting`).

use crate::msg::message::Msg;

// What the commands read before they act: rules, producer keys, the export, a day, a reason
// (`cmd/inputs.rs`).

/// A rules file that does not parse as draw rules.
pub const ERR_INPUT_RULES_REFUSED: Msg = Msg {
    id: "err-input-rules-refused",
    fr: "le fichier de règlement {path} est refusé : {e}",
    en: "rules file {path} is refused: {e}",
};
/// What to give instead.
pub const REC_INPUT_RULES_REFUSED: Msg = Msg {
    id: "rec-input-rules-refused",
    fr: "utilisez le fichier de règlement de l'opération livré dans rules/ (par exemple rules/chanceux-noel-2018.json)",
    en: "use the operation's rules file shipped in rules/ (e.g. rules/chanceux-noel-2018.json)",
};
/// A rules file of an id that is not an official regulation, not admitted.
pub const ERR_INPUT_RULES_UNOFFICIAL: Msg = Msg {
    id: "err-input-rules-unofficial",
    fr: "le fichier de règlement {path} déclare {id}, qui n'est pas un règlement officiel de cet appareil (SHA-256 {sha})",
    en: "rules file {path} declares {id}, which is not an official regulation of this appliance (SHA-256 {sha})",
};
/// What to do then.
pub const REC_INPUT_RULES_UNOFFICIAL: Msg = Msg {
    id: "rec-input-rules-unofficial",
    fr: "utilisez le fichier de règlement officiel livré dans rules/ ; pour un règlement qui n'est pas officiel (un jeu d'essai), dites-le avec --unofficial-rules : chaque sortie l'indique alors",
    en: "use the official rules file shipped in rules/; for rules that are not an official regulation (a test game), say so with --unofficial-rules: every output then states it",
};
/// A rules file that declares an official id but is not its official file.
pub const ERR_INPUT_RULES_DOCTORED: Msg = Msg {
    id: "err-input-rules-doctored",
    fr: "le fichier de règlement {path} déclare {id} mais n'en est pas le fichier officiel : SHA-256 {sha}, celui du fichier officiel est {pinned}",
    en: "rules file {path} declares {id} but is not its official file: SHA-256 {sha}, the official one is {pinned}",
};
/// What to do then.
pub const REC_INPUT_RULES_DOCTORED: Msg = Msg {
    id: "rec-input-rules-doctored",
    fr: "utilisez le fichier de règlement officiel livré dans rules/ ; son SHA-256 est fixé dans l'appareil et imprimé au procès-verbal",
    en: "use the official rules file shipped in rules/; its SHA-256 is fixed in the appliance and printed in the minutes",
};
/// No producer key given or configured.
pub const ERR_INPUT_NO_PRODUCER_KEY: Msg = Msg {
    id: "err-input-no-producer-key",
    fr: "aucune clé de confiance du producteur",
    en: "no trusted producer key",
};
/// Where to give it.
pub const REC_INPUT_NO_PRODUCER_KEY: Msg = Msg {
    id: "rec-input-no-producer-key",
    fr: "donnez la clé publique de la production avec --producer-key PEM (ou inscrivez-la sous \"producer_keys\" dans la configuration)",
    en: "give production's public key with --producer-key PEM (or list it under \"producer_keys\" in the configuration)",
};
/// A producer key file that is not a key.
pub const ERR_INPUT_PRODUCER_KEY: Msg = Msg {
    id: "err-input-producer-key",
    fr: "clé du producteur {path} : {e}",
    en: "producer key {path}: {e}",
};
/// What a producer key file holds.
pub const REC_INPUT_PRODUCER_KEY: Msg = Msg {
    id: "rec-input-producer-key",
    fr: "donnez la clé publique Ed25519 de la production dans un fichier PEM SubjectPublicKeyInfo",
    en: "give production's Ed25519 public key as a PEM SubjectPublicKeyInfo file",
};
/// No producer key pinned in the trail.
pub const ERR_INPUT_NOT_PINNED: Msg = Msg {
    id: "err-input-not-pinned",
    fr: "les clés de la production ne sont pas épinglées dans cette piste : un scellement ne se fie à aucun fichier de clé seul",
    en: "production's keys are not pinned in this trail: a seal trusts no key file alone",
};
/// Where they are pinned.
pub const REC_INPUT_NOT_PINNED: Msg = Msg {
    id: "rec-input-not-pinned",
    fr: "la clé de la production est épinglée à la cérémonie des clés (`urne ceremony --key-ceremony --producer-key PEM`) ou avec `urne keys producer --producer-key PEM`, son identifiant tapé d'après la déclaration écrite de la production",
    en: "production's key is pinned at the key ceremony (`urne ceremony --key-ceremony --producer-key PEM`) or with `urne keys producer --producer-key PEM`, its key id typed from production's written statement",
};
/// A producer key given that the trail does not pin.
pub const ERR_INPUT_KEY_UNPINNED: Msg = Msg {
    id: "err-input-key-unpinned",
    fr: "la clé du producteur {key} n'est pas parmi les clés de la production épinglées dans la piste ({pinned})",
    en: "producer key {key} is not among production's keys pinned in the trail ({pinned})",
};
/// How a new key is pinned.
pub const REC_INPUT_KEY_UNPINNED: Msg = Msg {
    id: "rec-input-key-unpinned",
    fr: "un scellement ne se fie qu'aux clés épinglées ; une nouvelle clé de la production est épinglée avec `urne keys producer` (inscrit, montré au procès-verbal)",
    en: "a seal trusts the pinned keys only; a new key of production's is pinned with `urne keys producer` (recorded, shown in the minutes)",
};
/// An export refused, and why (the reason as the trail records it).
pub const ERR_INPUT_EXPORT_REFUSED: Msg = Msg {
    id: "err-input-export-refused",
    fr: "l'export {path} est refusé : {reason}",
    en: "export {path} refused: {reason}",
};
/// Why an export is refused: its signature file is missing.
pub const ERR_INPUT_WHY_UNSIGNED: Msg = Msg {
    id: "err-input-why-unsigned",
    fr: "sa signature {sig} manque",
    en: "its signature {sig} is missing",
};
/// An export whose lines do not follow the format.
pub const REC_INPUT_EXPORT_MALFORMED: Msg = Msg {
    id: "rec-input-export-malformed",
    fr: "l'export ne suit pas entry-export-v1 ; demandez à la production un export corrigé. Rien de ce fichier n'a été gardé",
    en: "the export does not follow entry-export-v1; ask production for a corrected export. Nothing of this file was kept",
};
/// An export that is not a regular file within the limit.
pub const REC_INPUT_EXPORT_NOT_FILE: Msg = Msg {
    id: "rec-input-export-not-file",
    fr: "donnez le fichier d'export de la production lui-même (un fichier ordinaire dans la limite de spec/formats.md §1.6)",
    en: "give production's export file itself (a regular file within the limit of spec/formats.md §1.6)",
};
/// An export without its signature.
pub const REC_INPUT_EXPORT_UNSIGNED: Msg = Msg {
    id: "rec-input-export-unsigned",
    fr: "la production livre FILE.jsonl avec FILE.jsonl.sig à côté ; un export non signé n'est jamais utilisé",
    en: "production delivers FILE.jsonl with FILE.jsonl.sig beside it; an unsigned export is never used",
};
/// An export whose signature does not verify.
pub const REC_INPUT_EXPORT_BAD_SIGNATURE: Msg = Msg {
    id: "rec-input-export-bad-signature",
    fr: "demandez à la production un export correctement signé ; rien de ce fichier n'a été utilisé",
    en: "ask production for a correctly signed export; nothing of this file was used",
};
/// A day argument that is not a date.
pub const ERR_INPUT_BAD_DATE: Msg = Msg {
    id: "err-input-bad-date",
    fr: "{day} n'est pas une date AAAA-MM-JJ",
    en: "{day} is not a date YYYY-MM-DD",
};
/// How a day is written.
pub const REC_INPUT_BAD_DATE: Msg = Msg {
    id: "rec-input-bad-date",
    fr: "écrivez le jour en quatre, deux et deux chiffres, par exemple 2018-12-01",
    en: "write the day with four, two and two digits, e.g. 2018-12-01",
};
/// The reason of a void too short.
pub const ERR_INPUT_REASON_VOID: Msg = Msg {
    id: "err-input-reason-void",
    fr: "une annulation demande un motif d'au moins {min} caractères (celui-ci en a {n})",
    en: "a void needs a reason of at least {min} characters (this one has {n})",
};
/// The reason of a trail restart too short.
pub const ERR_INPUT_REASON_RESTART: Msg = Msg {
    id: "err-input-reason-restart",
    fr: "une reprise de la piste demande un motif d'au moins {min} caractères (celui-ci en a {n})",
    en: "a restart needs a reason of at least {min} characters (this one has {n})",
};
/// The reason of a clock correction too short.
pub const ERR_INPUT_REASON_CLOCK: Msg = Msg {
    id: "err-input-reason-clock",
    fr: "une correction de l'horloge demande un motif d'au moins {min} caractères (celui-ci en a {n})",
    en: "a clock correction needs a reason of at least {min} characters (this one has {n})",
};
/// How a reason is given.
pub const REC_INPUT_REASON: Msg = Msg {
    id: "rec-input-reason",
    fr: "dites pourquoi, en des mots que le commissaire signera : --reason \"…\"",
    en: "say why, in words the commissaire will sign: --reason \"…\"",
};
/// How a block is named.
pub const REC_INPUT_BLOCK_ID: Msg = Msg {
    id: "rec-input-block-id",
    fr: "donnez l'identifiant canonique du bloc jeu/prix_en_centimes/émission/numéro, par exemple {example}",
    en: "give the block's canonical id game/price_cents/emission/number, e.g. {example}",
};
/// A value in the trail that urne does not record so.
pub const ERR_INPUT_ALTERED: Msg = Msg {
    id: "err-input-altered",
    fr: "piste d'audit : {what}",
    en: "audit trail: {what}",
};
/// A day outside the operation's periods.
pub const ERR_INPUT_DAY_NOT_IN_OPERATION: Msg = Msg {
    id: "err-input-day-not-in-operation",
    fr: "le {day} n'est pas un jour de l'opération {spans}",
    en: "{day} is not a day of the operation {spans}",
};
/// Which days to give.
pub const REC_INPUT_DAY_NOT_IN_OPERATION: Msg = Msg {
    id: "rec-input-day-not-in-operation",
    fr: "donnez un jour des périodes de l'opération (son fichier de règlement les énumère ; `urne status --rules FILE` montre ceux qui sont scellés)",
    en: "give a day of the operation's periods (its rules file lists them; `urne status --rules FILE` shows which are sealed)",
};
/// A sealed set in the trail that does not decode.
pub const ERR_INPUT_SEALED_SET: Msg = Msg {
    id: "err-input-sealed-set",
    fr: "l'ensemble scellé est mal formé",
    en: "the sealed set is malformed",
};
/// What to do then.
pub const REC_INPUT_SEALED_SET: Msg = Msg {
    id: "rec-input-sealed-set",
    fr: "lancez `urne audit verify` et enquêtez avant tout tirage",
    en: "run `urne audit verify` and investigate before any draw",
};
/// No ticket at a position of a production file.
pub const ERR_INPUT_NO_TICKET: Msg = Msg {
    id: "err-input-no-ticket",
    fr: "aucun billet à la position {position} dans {path}",
    en: "no ticket at position {position} in {path}",
};
/// What positions are.
pub const REC_INPUT_NO_TICKET: Msg = Msg {
    id: "rec-input-no-ticket",
    fr: "les positions commencent à 0 et restent sous la taille du bloc",
    en: "positions are 0-based and below the block size",
};
/// A block id that is not canonical.
pub const ERR_INPUT_BLOCK_SYNTAX: Msg = Msg {
    id: "err-input-block-syntax",
    fr: "l'identifiant de bloc {id} n'est pas de la forme `game/price_cents/emission/number` (§5.B2)",
    en: "block id {id} is not `game/price_cents/emission/number` (§5.B2)",
};
/// A block id whose emission is not one.
pub const ERR_INPUT_BLOCK_EMISSION: Msg = Msg {
    id: "err-input-block-emission",
    fr: "l'émission {emission} doit compter de 1 à 32 lettres minuscules, chiffres et '-', sans commencer par '-' (§5.B2)",
    en: "emission {emission} must be 1..=32 lowercase letters, digits and '-', not starting with '-' (§5.B2)",
};
/// A block id whose game is not one.
pub const ERR_INPUT_BLOCK_GAME: Msg = Msg {
    id: "err-input-block-game",
    fr: "le jeu {game} doit s'écrire en lettres minuscules, chiffres et '-' (§5.B2)",
    en: "game {game} must be lowercase letters, digits and '-' (§5.B2)",
};
/// A block of another game than the rules'.
pub const ERR_INPUT_BLOCK_WRONG_GAME: Msg = Msg {
    id: "err-input-block-wrong-game",
    fr: "le bloc est du jeu {found} mais le règlement est celui de {rules}",
    en: "block is for game {found} but the rules are for {rules}",
};
/// A block whose price is not one of the game's.
pub const ERR_INPUT_BLOCK_PRICE: Msg = Msg {
    id: "err-input-block-price",
    fr: "le prix de {cents} centimes n'est pas un palier de prix du jeu (G-2)",
    en: "price {cents} cents is not a price point of the game (G-2)",
};
/// A key file with no PEM block of its label.
pub const ERR_INPUT_KEY_NOT_PEM: Msg = Msg {
    id: "err-input-key-not-pem",
    fr: "pas un bloc PEM {label}",
    en: "not a PEM {label} block",
};
/// A PEM body that is not base64.
pub const ERR_INPUT_KEY_BASE64: Msg = Msg {
    id: "err-input-key-base64",
    fr: "le corps du PEM n'est pas du base64 valable",
    en: "PEM body is not valid base64",
};
/// A key that is not Ed25519.
pub const ERR_INPUT_KEY_NOT_ED25519: Msg = Msg {
    id: "err-input-key-not-ed25519",
    fr: "pas une clé Ed25519 (DER inattendu)",
    en: "not an Ed25519 key (unexpected DER)",
};
/// A key that is not a curve point.
pub const ERR_INPUT_KEY_POINT: Msg = Msg {
    id: "err-input-key-point",
    fr: "la clé n'est pas un point Ed25519 valable",
    en: "the key is not a valid Ed25519 point",
};
/// A rules file that is not JSON of the rules' shape.
pub const ERR_INPUT_RULES_JSON: Msg = Msg {
    id: "err-input-rules-json",
    fr: "le fichier de règlement n'est pas un JSON valable pour une opération : {e}",
    en: "the rules file is not valid JSON for an operation: {e}",
};
/// A field of the rules that breaks a rule.
pub const ERR_INPUT_RULES_FIELD: Msg = Msg {
    id: "err-input-rules-field",
    fr: "champ `{field}` : {reason}",
    en: "field `{field}`: {reason}",
};

// `urne seal` (`cmd/seal.rs`).

/// A day the rules give no bounds for.
pub const ERR_SEAL_NO_BOUNDS: Msg = Msg {
    id: "err-seal-no-bounds",
    fr: "le jour {day} n'a pas de bornes dans le règlement",
    en: "day {day} has no bounds in the rules",
};
/// What to check then.
pub const REC_SEAL_NO_BOUNDS: Msg = Msg {
    id: "rec-seal-no-bounds",
    fr: "vérifiez que le fichier de règlement est celui de l'opération et que le jour est dans sa période de participation",
    en: "check that the rules file is the operation's and that the day lies in its participation period",
};
/// A day not ended yet.
pub const ERR_SEAL_DAY_NOT_ENDED: Msg = Msg {
    id: "err-seal-day-not-ended",
    fr: "le jour {day} n'est pas encore fini dans le fuseau {tz} : son export ne peut pas contenir toutes ses mises",
    en: "day {day} has not ended yet in {tz}: its export cannot hold all its plays",
};
/// When a day is sealed.
pub const REC_SEAL_DAY_NOT_ENDED: Msg = Msg {
    id: "rec-seal-day-not-ended",
    fr: "scellez l'export d'un jour après minuit, heure de Paris ; vérifiez l'horloge de l'appareil",
    en: "seal a day's export after midnight, Paris time; check the appliance's clock",
};
/// Why an export is refused: an instant that is not one.
pub const ERR_SEAL_WHY_NOT_INSTANT: Msg = Msg {
    id: "err-seal-why-not-instant",
    fr: "son {name} {value} n'est pas un instant RFC 3339",
    en: "its {name} {value} is not an RFC 3339 instant",
};
/// Why an export is refused: made before its day ended.
pub const ERR_SEAL_WHY_EARLY: Msg = Msg {
    id: "err-seal-why-early",
    fr: "son {name} {value} précède la fin de son jour {day} ({end} dans le fuseau {tz}) : un export fait avant la fin de son jour ne peut pas contenir toutes ses mises",
    en: "its {name} {value} is before the end of its day {day} ({end} in {tz}): an export made before its day ended cannot hold all its plays",
};
/// What to ask production for then.
pub const REC_SEAL_EARLY: Msg = Msg {
    id: "rec-seal-early",
    fr: "demandez à la production l'export du jour fait après minuit, heure de Paris ; rien de ce fichier n'a été utilisé",
    en: "ask production for the day's export made after midnight, Paris time; nothing of this file was used",
};
/// Why an export is refused: dated after the appliance's clock.
pub const ERR_SEAL_WHY_FUTURE: Msg = Msg {
    id: "err-seal-why-future",
    fr: "son {name} {value} est postérieur à l'horloge de l'appareil ({now}) : l'export daterait du futur",
    en: "its {name} {value} is later than the appliance's clock ({now}): it was made in the future",
};
/// What to do then.
pub const REC_SEAL_FUTURE: Msg = Msg {
    id: "rec-seal-future",
    fr: "l'horloge de la production ou celle de cet appareil est fausse : vérifiez l'horloge de l'appareil (UTC) devant le commissaire et dites-le au procès-verbal, et demandez à la production quand l'export a été fait ; rien de ce fichier n'a été utilisé",
    en: "production's clock or this appliance's is wrong: check the appliance's clock (UTC) in front of the commissaire and say so in the minutes, and ask production when the export was made; nothing of this file was used",
};
/// A day already sealed.
pub const ERR_SEAL_ALREADY: Msg = Msg {
    id: "err-seal-already",
    fr: "le jour {day} est déjà scellé (tentative {attempt}, {stage})",
    en: "day {day} is already sealed (attempt {attempt}, {stage})",
};
/// What to do if the seal must be replaced.
pub const REC_SEAL_ALREADY: Msg = Msg {
    id: "rec-seal-already",
    fr: "un jour scellé n'est jamais scellé à nouveau ; si le scellement doit être remplacé, annulez-le avec `urne void --day DAY --reason …` devant le commissaire",
    en: "a sealed day is never re-sealed; if the seal must be replaced, void it with `urne void --day DAY --reason …` in front of the commissaire",
};

// Verify before acting: the database is the token's trail, whole, and the clock not behind it
// (`cmd/before.rs`).

/// A token with neither trail nor keys.
pub const ERR_BEFORE_NEVER_INITIALISED: Msg = Msg {
    id: "err-before-never-initialised",
    fr: "le jeton ne contient ni piste d'urne ni clés : il n'a jamais été initialisé",
    en: "the token holds no urne trail and no keys: it was never initialised",
};
/// A token with keys but no trail.
pub const ERR_BEFORE_KEYS_NO_TRAIL: Msg = Msg {
    id: "err-before-keys-no-trail",
    fr: "le jeton contient les clés d'urne mais pas de piste : il a été initialisé par urne version 1, ou son initialisation a été interrompue",
    en: "the token holds urne's keys but no trail: it was initialised by urne version 1, or its initialisation was interrupted",
};
/// How a token is initialised.
pub const REC_BEFORE_NOT_INITIALISED: Msg = Msg {
    id: "rec-before-not-initialised",
    fr: "initialisez un jeton avec `urne keys init` (docs/ceremony.md) ; un `urne keys init` interrompu reprend quand on le relance",
    en: "initialise a token with `urne keys init` (docs/ceremony.md); an interrupted `urne keys init` resumes when run again",
};
/// No database where the trail should be.
pub const ERR_BEFORE_NO_TRAIL: Msg = Msg {
    id: "err-before-no-trail",
    fr: "aucune piste d'audit à {path} ; ce jeton : {trail}",
    en: "no audit trail at {path}: this token's {trail}",
};
/// What to give then.
pub const REC_BEFORE_NO_TRAIL: Msg = Msg {
    id: "rec-before-no-trail",
    fr: "urne ne crée jamais de piste, sauf à `urne keys init` : donnez la base de données de l'appareil avec --db ou URNE_DB, ou remettez une sauvegarde dont la tête est la dernière marque du jeton (docs/ceremony.md, \"urne refuses the trail\")",
    en: "urne never creates a trail except at `urne keys init`: give the appliance's database with --db or URNE_DB, or put back a backup whose head is the token's last mark (docs/ceremony.md, \"urne refuses the trail\")",
};
/// A trail whose chain or checkpoints fail.
pub const ERR_BEFORE_BROKEN: Msg = Msg {
    id: "err-before-broken",
    fr: "piste d'audit {path} : elle est en défaut à l'événement {seq} : {reason} ; rien n'a été fait",
    en: "audit trail {path}: it fails at event {seq}: {reason}; nothing was done",
};
/// Why: the data an event names is missing.
pub const ERR_BEFORE_WHY_BLOB: Msg = Msg {
    id: "err-before-why-blob",
    fr: "les données {hash} que nomme son enregistrement {kind} manquent dans la base de données",
    en: "the data {hash} its {kind} record names is missing from the database",
};
/// What to do then.
pub const REC_BEFORE_BROKEN: Msg = Msg {
    id: "rec-before-broken",
    fr: "la piste a été modifiée : gardez la base de données comme preuve, lancez `urne audit verify`, et ne vous fiez à aucune sortie tant que ce n'est pas expliqué",
    en: "the trail was altered: keep the database as evidence, run `urne audit verify`, and act on no output until it is explained",
};
/// A trail holding an event urne does not write.
pub const ERR_BEFORE_MALFORMED: Msg = Msg {
    id: "err-before-malformed",
    fr: "piste d'audit {path} : {what} ; rien n'a été fait",
    en: "audit trail {path}: {what}; nothing was done",
};
/// What to do then.
pub const REC_BEFORE_MALFORMED: Msg = Msg {
    id: "rec-before-malformed",
    fr: "la piste contient ce qu'urne n'y écrit pas : gardez la base de données comme preuve, lancez `urne audit verify`, et ne vous fiez à aucune sortie tant que ce n'est pas expliqué",
    en: "the trail holds what urne does not write there: keep the database as evidence, run `urne audit verify`, and act on no output until it is explained",
};
/// The replaced trail appended to after its restart.
pub const ERR_BEFORE_REPLACED_APPENDED: Msg = Msg {
    id: "err-before-replaced-appended",
    fr: "le jeton contient une marque de la piste remplacée {previous} ({size} événements, racine {root}) au-delà de celle qu'indique la reprise de la piste d'audit {path} ({stated_size} événements, racine {stated_root}) : la piste remplacée a été complétée après la reprise ; rien n'a été fait",
    en: "the token holds a mark of the replaced trail {previous} ({size} events, root {root}) beyond the one the restart of the audit trail {path} states ({stated_size} events, root {stated_root}): the replaced trail was appended to after the restart; nothing was done",
};
/// What to do then.
pub const REC_BEFORE_REPLACED_APPENDED: Msg = Msg {
    id: "rec-before-replaced-appended",
    fr: "arrêtez : gardez les deux bases de données comme preuves et enquêtez ; dites-le au procès-verbal (docs/ceremony.md, \"urne refuses the trail\")",
    en: "stop: keep both databases as evidence and investigate; state it in the minutes (docs/ceremony.md, \"urne refuses the trail\")",
};
/// The clock behind the trail's last event.
pub const ERR_BEFORE_CLOCK_BACK: Msg = Msg {
    id: "err-before-clock-back",
    fr: "l'horloge de l'appareil ({now}) est antérieure au dernier événement de la piste d'audit {path} ({last}) : l'horloge a été reculée, ou les derniers événements de la piste ont été datés par une horloge en avance",
    en: "the appliance's clock ({now}) is earlier than the last event of the audit trail {path} ({last}): the clock was set back, or the trail's last events were dated by a clock set ahead",
};
/// What to do then.
pub const REC_BEFORE_CLOCK_BACK: Msg = Msg {
    id: "rec-before-clock-back",
    fr: "vérifiez l'horloge de l'appareil (UTC) sur la montre du commissaire : si elle est fausse, remettez-la à l'heure ; si elle est juste, inscrivez la correction avec `urne clock correct --reason TEXT` à la console, devant le commissaire (docs/ceremony.md) ; dites-le au procès-verbal ; rien n'a été fait",
    en: "check the appliance's clock (UTC) against the commissaire's watch: if it is wrong, set it right; if it is right, record the correction with `urne clock correct --reason TEXT` at the console, in front of the commissaire (docs/ceremony.md); say so in the minutes; nothing was done",
};
/// A clock correction with nothing to correct.
pub const ERR_BEFORE_CLOCK_RIGHT: Msg = Msg {
    id: "err-before-clock-right",
    fr: "l'horloge de l'appareil ({now}) n'est pas antérieure au dernier événement de la piste d'audit {path} ({last}) : il n'y a pas d'horloge à corriger",
    en: "the appliance's clock ({now}) is not earlier than the last event of the audit trail {path} ({last}): there is no clock to correct",
};
/// No event in the trail, in that message.
pub const ERR_BEFORE_NO_EVENT: Msg = Msg {
    id: "err-before-no-event",
    fr: "aucun",
    en: "none",
};
/// What a clock correction is for.
pub const REC_BEFORE_CLOCK_RIGHT: Msg = Msg {
    id: "rec-before-clock-right",
    fr: "`urne clock correct` inscrit la correction d'une horloge qui a daté des événements en avance sur l'heure et a ensuite été remise à l'heure ; rien n'a été fait",
    en: "`urne clock correct` records the correction of a clock that dated events ahead of the time and was then set right; nothing was done",
};
/// Another trail than the token's.
pub const ERR_BEFORE_OTHER_TRAIL: Msg = Msg {
    id: "err-before-other-trail",
    fr: "la piste d'audit {path} est une autre piste ({other}), pas celle de ce jeton ({trail})",
    en: "the audit trail {path} is another trail ({other}), not this token's ({trail})",
};
/// A trail with no identity.
pub const ERR_BEFORE_NO_IDENTITY: Msg = Msg {
    id: "err-before-no-identity",
    fr: "la piste d'audit {path} ne nomme aucune identité de piste (une piste de version 1, ou pas d'urne) ; ce jeton : {trail}",
    en: "the audit trail {path} names no trail identity (a version-1 trail, or not urne's): this token's {trail}",
};
/// What to give then.
pub const REC_BEFORE_NOT_TOKENS: Msg = Msg {
    id: "rec-before-not-tokens",
    fr: "donnez la base de données de la piste de ce jeton avec --db ou URNE_DB ; un jeton a une seule piste et une piste un seul jeton",
    en: "give the database of this token's trail with --db or URNE_DB; a token has one trail and a trail one token",
};
/// A trail shorter than the token's last mark.
pub const ERR_BEFORE_OLDER: Msg = Msg {
    id: "err-before-older",
    fr: "la piste d'audit {path} contient {events} événements mais le jeton en a marqué {marked} : c'est une copie plus ancienne, ou des événements ont été retirés de sa fin",
    en: "the audit trail {path} holds {events} events but the token marked {marked}: it is an older copy, or events were removed from its end",
};
/// A trail whose first events are not those the token marked.
pub const ERR_BEFORE_DIVERGED: Msg = Msg {
    id: "err-before-diverged",
    fr: "les {marked} premiers événements de la piste d'audit {path} ne sont pas ceux que le jeton a marqués : une autre histoire de cette piste (une fourche)",
    en: "the first {marked} events of the audit trail {path} are not the ones the token marked: another history of this trail (a fork)",
};
/// Two marks of one size.
pub const ERR_BEFORE_CONFLICTING_MARKS: Msg = Msg {
    id: "err-before-conflicting-marks",
    fr: "le jeton contient deux marques différentes de taille {size} : deux histoires ont été écrites sous cette piste (une fourche)",
    en: "the token holds two different marks of size {size}: two histories were written under this trail (a fork)",
};
/// A mark of the trail that the database, extending the last mark, does not hold: a fork.
pub const ERR_BEFORE_OFF_HISTORY: Msg = Msg {
    id: "err-before-off-history",
    fr: "le jeton contient une marque de {size} événements d'un autre historique de cette piste que celui de {path} : deux histoires ont été écrites sous cette piste (une fourche)",
    en: "the token holds a mark of {size} events of another history of this trail than {path}'s: two histories were written under this trail (a fork)",
};
/// A trail that is not the token's, found by its marks.
pub const ERR_BEFORE_NOT_TOKENS: Msg = Msg {
    id: "err-before-not-tokens",
    fr: "la piste d'audit {path} n'est pas la piste de ce jeton",
    en: "the audit trail {path} is not this token's trail",
};
/// What to do when the trail does not extend the token's last mark.
pub const REC_BEFORE_MARK: Msg = Msg {
    id: "rec-before-mark",
    fr: "urne n'accepte que la piste que le jeton a marquée en dernier : remettez la base de données (ou une sauvegarde dont la tête est la dernière marque) et gardez ce fichier comme preuve (docs/ceremony.md, \"urne refuses the trail\")",
    en: "urne accepts only the trail the token last marked: put back the database (or a backup whose head is the last mark) and keep this file as evidence (docs/ceremony.md, \"urne refuses the trail\")",
};

// `urne audit verify | export | backup` (`cmd/audit.rs`).

/// A backup never replaces a file.
pub const REC_AUDIT_BACKUP_EXISTS: Msg = Msg {
    id: "rec-audit-backup-exists",
    fr: "une sauvegarde ne remplace jamais un fichier : donnez un nouveau nom",
    en: "a backup never replaces a file: give a new name",
};
/// A backup that does not read back as the trail.
pub const ERR_AUDIT_BACKUP_READBACK: Msg = Msg {
    id: "err-audit-backup-readback",
    fr: "la sauvegarde {path} ne se relit pas à l'identique de la piste",
    en: "the backup {path} does not read back as the trail",
};
/// What to do then.
pub const REC_AUDIT_BACKUP_READBACK: Msg = Msg {
    id: "rec-audit-backup-readback",
    fr: "vérifiez le support ; gardez la piste et refaites la sauvegarde",
    en: "check the medium; keep the trail and make the backup again",
};
/// An audit key file that is not a key.
pub const ERR_AUDIT_KEY: Msg = Msg {
    id: "err-audit-key",
    fr: "clé d'audit {path} : {e}",
    en: "{path}: {e}",
};
/// Which audit key to give.
pub const REC_AUDIT_KEY: Msg = Msg {
    id: "rec-audit-key",
    fr: "donnez le fichier audit.pub.pem écrit par `urne keys export`",
    en: "give the audit.pub.pem written by `urne keys export`",
};
/// An exported trail that fails its check, and the class of the failure.
pub const ERR_AUDIT_VERIFICATION: Msg = Msg {
    id: "err-audit-verification",
    fr: "échec de la vérification ({class}) : {what}",
    en: "verification failed ({class}): {what}",
};
/// Which file to give.
pub const REC_AUDIT_EXPORT_FILE: Msg = Msg {
    id: "rec-audit-export-file",
    fr: "donnez le fichier JSON Lines écrit par `urne audit export`",
    en: "give the JSON Lines file `urne audit export` wrote",
};
/// A file that cannot be read.
pub const REC_AUDIT_PATH: Msg = Msg {
    id: "rec-audit-path",
    fr: "vérifiez le chemin et ses droits d'accès",
    en: "check the path and its permissions",
};
/// A rehearsal token's trail checked as an official one.
pub const REC_AUDIT_REHEARSAL: Msg = Msg {
    id: "rec-audit-rehearsal",
    fr: "c'est la piste d'un jeton de répétition (RÉPÉTITION — SANS VALEUR) : jamais une piste officielle. Sur son propre jeton, donnez --rehearsal-at pour la vérifier comme la piste de répétition qu'elle est",
    en: "this is a rehearsal token's trail (RÉPÉTITION — SANS VALEUR): never an official one. On its own token, give --rehearsal-at to check it as the rehearsal's it is",
};
/// An exported trail altered.
pub const REC_AUDIT_EXPORT_ALTERED: Msg = Msg {
    id: "rec-audit-export-altered",
    fr: "la piste exportée a été modifiée, tronquée ou signée sous une autre clé : gardez-la comme preuve et comparez-la aux points de contrôle exportés avec les résultats",
    en: "the exported trail was altered, truncated or signed under another key: keep it as evidence and compare it with the checkpoints exported with results",
};
/// Which folder holds the audit key.
pub const REC_AUDIT_KEYS_FOLDER: Msg = Msg {
    id: "rec-audit-keys-folder",
    fr: "donnez le dossier écrit par `urne keys export` (il contient audit.pub.pem)",
    en: "give the folder written by `urne keys export` (it holds audit.pub.pem)",
};
/// The trail fails at an event.
pub const ERR_AUDIT_FAILS: Msg = Msg {
    id: "err-audit-fails",
    fr: "la piste d'audit est en défaut à l'événement {seq} : {reason}",
    en: "audit trail fails at event {seq}: {reason}",
};
/// What to do then.
pub const REC_AUDIT_ALTERED: Msg = Msg {
    id: "rec-audit-altered",
    fr: "la piste a été modifiée ou tronquée : gardez cette base de données comme preuve et comparez-la aux points de contrôle exportés avec les résultats",
    en: "the trail was altered or truncated: keep this database as evidence and compare it with the checkpoints exported with results",
};
/// Data an event references, altered.
pub const ERR_AUDIT_BLOB_ALTERED: Msg = Msg {
    id: "err-audit-blob-altered",
    fr: "la piste d'audit est en défaut à l'événement {seq} : les données qu'il référence ({hash}) ont été modifiées",
    en: "audit trail fails at event {seq}: the data it references ({hash}) was altered",
};
/// Keep the database.
pub const REC_AUDIT_KEEP: Msg = Msg {
    id: "rec-audit-keep",
    fr: "gardez cette base de données comme preuve",
    en: "keep this database as evidence",
};
/// Events not checkpointed, with --strict.
pub const REC_AUDIT_STRICT: Msg = Msg {
    id: "rec-audit-strict",
    fr: "lancez une commande qui signe (par exemple `urne keys export`) pour leur donner un point de contrôle, ou enquêtez s'ils n'ont pas été inscrits par urne",
    en: "run any signing command (e.g. `urne keys export`) to checkpoint them, or investigate if they were not recorded by urne",
};
/// Data an event names, missing.
pub const ERR_AUDIT_BLOB_MISSING: Msg = Msg {
    id: "err-audit-blob-missing",
    fr: "la piste d'audit est en défaut à l'événement {seq} : les données {hash} qu'il nomme manquent dans la base de données",
    en: "audit trail fails at event {seq}: the data {hash} it names is missing from the database",
};
/// What to do then.
pub const REC_AUDIT_BLOB_MISSING: Msg = Msg {
    id: "rec-audit-blob-missing",
    fr: "des données que la piste lie ont été supprimées de la base de données : gardez cette base comme preuve, et ne vous fiez à aucune sortie qui repose sur cet événement tant que ce n'est pas expliqué",
    en: "data the trail binds was deleted from the database: keep this database as evidence, and act on no output that rests on that event until it is explained",
};

// `urne proof` (`cmd/proof.rs`).

/// Neither of the two ways a proof is asked for.
pub const ERR_PROOF_USAGE: Msg = Msg {
    id: "err-proof-usage",
    fr: "donnez soit --day et --account, soit --day et --all, soit --block et --position",
    en: "give either --day and --account, or --day and --all, or --block and --position",
};
/// Where the usage is.
pub const REC_PROOF_USAGE: Msg = Msg {
    id: "rec-proof-usage",
    fr: "voyez urne proof --help",
    en: "see urne proof --help",
};
/// An account id that is not one.
pub const ERR_PROOF_ACCOUNT: Msg = Msg {
    id: "err-proof-account",
    fr: "le compte doit faire 64 chiffres hexadécimaux en minuscules",
    en: "the account must be 64 lowercase hex digits",
};
/// Which id to give.
pub const REC_PROOF_ACCOUNT: Msg = Msg {
    id: "rec-proof-account",
    fr: "donnez l'identifiant pseudonyme du compte tel que la production l'exporte",
    en: "give the pseudonymous account id as production exports it",
};
/// A day not sealed.
pub const ERR_PROOF_NOT_SEALED: Msg = Msg {
    id: "err-proof-not-sealed",
    fr: "le jour {day} n'est pas scellé",
    en: "day {day} is not sealed",
};
/// Proofs are of sealed days.
pub const REC_PROOF_NOT_SEALED: Msg = Msg {
    id: "rec-proof-not-sealed",
    fr: "les preuves existent pour les jours scellés",
    en: "proofs exist for sealed days",
};
/// An account with no entry that day.
pub const ERR_PROOF_NO_ENTRY: Msg = Msg {
    id: "err-proof-no-entry",
    fr: "le compte {account} n'a aucune participation le {day}",
    en: "account {account} has no entry on {day}",
};
/// Which accounts have a proof.
pub const REC_PROOF_NO_ENTRY: Msg = Msg {
    id: "rec-proof-no-entry",
    fr: "seuls les comptes ayant au moins une participation dans l'ensemble scellé ont une preuve d'inclusion",
    en: "only accounts with at least one entry in the sealed set have an inclusion proof",
};
/// A proof urne cannot verify itself.
pub const ERR_PROOF_SELF_CHECK: Msg = Msg {
    id: "err-proof-self-check",
    fr: "l'auto-contrôle de la preuve a échoué : {what}",
    en: "self-check of the proof failed: {what}",
};
/// What to do then.
pub const REC_PROOF_SELF_CHECK: Msg = Msg {
    id: "rec-proof-self-check",
    fr: "rien n'a été écrit ; gardez la piste d'audit et signalez-le : une preuve qu'urne ne peut pas vérifier elle-même n'est jamais publiée",
    en: "nothing was written; keep the audit trail and report it: a proof urne cannot verify itself is never published",
};
/// A block commitment that does not verify.
pub const ERR_PROOF_COMMITMENT: Msg = Msg {
    id: "err-proof-commitment",
    fr: "engagement du bloc : {what} ({class})",
    en: "block commitment: {what} ({class})",
};
/// Which folder to give.
pub const REC_PROOF_COMMITMENT: Msg = Msg {
    id: "rec-proof-commitment",
    fr: "donnez le dossier que `urne block generate` a écrit pour ce bloc",
    en: "give the folder `urne block generate` wrote for this block",
};
/// A commitment that does not parse.
pub const ERR_PROOF_COMMITMENT_JSON: Msg = Msg {
    id: "err-proof-commitment-json",
    fr: "engagement : {e}",
    en: "commitment: {e}",
};
/// A commitment of another block.
pub const ERR_PROOF_OTHER_BLOCK: Msg = Msg {
    id: "err-proof-other-block",
    fr: "l'engagement de ce dossier est celui d'un autre bloc",
    en: "the commitment in that folder is another block's",
};
/// What to check then.
pub const REC_PROOF_OTHER_BLOCK: Msg = Msg {
    id: "rec-proof-other-block",
    fr: "vérifiez --block et --dir",
    en: "check --block and --dir",
};
/// A production file that is not the committed one.
pub const ERR_PROOF_MISMATCH: Msg = Msg {
    id: "err-proof-mismatch",
    fr: "le fichier de production ne correspond pas à l'engagement du bloc",
    en: "the production file does not match the block's commitment",
};
/// What to do then.
pub const REC_PROOF_MISMATCH: Msg = Msg {
    id: "rec-proof-mismatch",
    fr: "le fichier de production n'est pas celui sur lequel ce bloc s'est engagé : gardez les deux comme preuves et utilisez le fichier publié avec l'engagement",
    en: "the production file is not the one this block committed to: keep both as evidence and use the file published with the commitment",
};
/// A proof never replaces a file.
pub const REC_PROOF_EXISTS: Msg = Msg {
    id: "rec-proof-exists",
    fr: "une preuve ne remplace jamais un fichier : donnez un nouveau --out",
    en: "a proof never replaces a file: give a new --out",
};

// `urne draw` (`cmd/draw/`).

/// A day drawn under the trail this one replaced.
pub const ERR_DRAW_CARRIED: Msg = Msg {
    id: "err-draw-carried",
    fr: "le jour {day} a été tiré (tentative {attempt}) sous la piste que celle-ci remplace ; un jour n'est tiré qu'une fois",
    en: "day {day} was drawn (attempt {attempt}) under the trail this one replaced; a day is drawn once",
};
/// What stands then.
pub const REC_DRAW_CARRIED: Msg = Msg {
    id: "rec-draw-carried",
    fr: "son résultat publié reste acquis ; seule une annulation devant le commissaire ouvre une autre tentative",
    en: "its published result stands; only a void in front of the commissaire opens another attempt",
};
/// A day not sealed.
pub const ERR_DRAW_NOT_SEALED: Msg = Msg {
    id: "err-draw-not-sealed",
    fr: "le jour {day} n'est pas scellé (tentative {attempt})",
    en: "day {day} is not sealed (attempt {attempt})",
};
/// How a day is sealed.
pub const REC_DRAW_NOT_SEALED: Msg = Msg {
    id: "rec-draw-not-sealed",
    fr: "scellez d'abord l'export du jour : urne seal --rules FILE --entries FILE.jsonl",
    en: "seal the day's export first: urne seal --rules FILE --entries FILE.jsonl",
};
/// A day drawn already.
pub const ERR_DRAW_ALREADY: Msg = Msg {
    id: "err-draw-already",
    fr: "le jour {day} a déjà été tiré (tentative {attempt}) ; un jour n'est tiré qu'une fois",
    en: "day {day} has already been drawn (attempt {attempt}); a day is drawn once",
};
/// What to do if the draw must be annulled.
pub const REC_DRAW_ALREADY: Msg = Msg {
    id: "rec-draw-already",
    fr: "rien n'a été changé. Si le tirage doit être annulé, `urne void --day DAY --reason …` l'inscrit devant le commissaire ; une nouvelle tentative demande alors un nouveau scellement",
    en: "nothing was changed. If the draw must be annulled, `urne void --day DAY --reason …` records it in front of the commissaire; a new attempt then needs a new seal",
};
/// The sealed rules that no longer load.
pub const ERR_DRAW_RULES: Msg = Msg {
    id: "err-draw-rules",
    fr: "le règlement scellé ne se charge plus : {e}",
    en: "the sealed rules no longer load: {e}",
};
/// What to do then.
pub const REC_DRAW_RULES: Msg = Msg {
    id: "rec-draw-rules",
    fr: "rien n'a été tiré ; gardez la piste d'audit et signalez-le : le règlement scellé pour ce jour ne se charge plus dans cette version d'urne",
    en: "nothing was drawn; keep the audit trail and report it: the rules sealed for this day no longer load in this version of urne",
};
/// A sealed day in no period of its rules.
pub const ERR_DRAW_NO_PERIOD: Msg = Msg {
    id: "err-draw-no-period",
    fr: "le jour scellé n'est dans aucune période",
    en: "the sealed day is in no period",
};
/// What to do then.
pub const REC_DRAW_NO_PERIOD: Msg = Msg {
    id: "rec-draw-no-period",
    fr: "rien n'a été tiré ; gardez la piste d'audit et signalez-le : le jour scellé devrait être dans une période de son règlement",
    en: "nothing was drawn; keep the audit trail and report it: the sealed day should lie in a period of its rules",
};
/// A day not ended yet.
pub const ERR_DRAW_DAY_NOT_ENDED: Msg = Msg {
    id: "err-draw-day-not-ended",
    fr: "le jour {day} n'est pas encore fini dans le fuseau {tz}",
    en: "day {day} has not ended yet in {tz}",
};
/// When a day is drawn.
pub const REC_DRAW_DAY_NOT_ENDED: Msg = Msg {
    id: "rec-draw-day-not-ended",
    fr: "un jour n'est tiré qu'après le moment où sa dernière mise a pu être faite ; attendez minuit, heure de Paris",
    en: "a day is drawn only after its last play could have been made; wait until midnight, Paris time",
};
/// A day with no entries.
pub const ERR_DRAW_EMPTY: Msg = Msg {
    id: "err-draw-empty",
    fr: "le jour {day} n'a aucune participation : il n'y a rien à tirer",
    en: "day {day} has no entries: there is nothing to draw",
};
/// What to do then.
pub const REC_DRAW_EMPTY: Msg = Msg {
    id: "rec-draw-empty",
    fr: "consignez-le au procès-verbal ; annulez le scellement si un export corrigé est attendu",
    en: "record the fact in the minutes; void the seal if a corrected export is expected",
};
/// A recorded draw that gives another outcome when computed again.
pub const ERR_DRAW_RECOMPUTED: Msg = Msg {
    id: "err-draw-recomputed",
    fr: "le tirage inscrit, recalculé, donne un autre résultat",
    en: "recomputing the recorded draw gives another outcome",
};
/// What to do then.
pub const REC_DRAW_RECOMPUTED: Msg = Msg {
    id: "rec-draw-recomputed",
    fr: "arrêtez : le logiciel ou la piste a changé depuis le tirage ; lancez `urne audit verify`",
    en: "stop: the software or the trail changed since the draw; run `urne audit verify`",
};
/// A seed used already.
pub const ERR_DRAW_SEED_REUSED: Msg = Msg {
    id: "err-draw-seed-reused",
    fr: "cette graine a déjà servi à un tirage antérieur",
    en: "this seed was already used by an earlier draw",
};
/// What to do then.
pub const REC_DRAW_SEED_REUSED: Msg = Msg {
    id: "rec-draw-seed-reused",
    fr: "arrêtez la séance ; annulez cette tentative",
    en: "stop the ceremony; void this attempt",
};
/// The outputs fail their self-check.
pub const ERR_DRAW_SELF_CHECK: Msg = Msg {
    id: "err-draw-self-check",
    fr: "l'auto-contrôle des sorties a échoué : {what}",
    en: "self-check of the outputs failed: {what}",
};
/// A defect; nothing published.
pub const REC_DRAW_SELF_CHECK: Msg = Msg {
    id: "rec-draw-self-check",
    fr: "c'est un défaut ; rien n'a été publié",
    en: "this is a defect; nothing was published",
};
/// The minutes that cannot be read from the trail.
pub const ERR_DRAW_MINUTES: Msg = Msg {
    id: "err-draw-minutes",
    fr: "le procès-verbal ne peut pas être lu dans la piste : {e}",
    en: "the minutes cannot be read from the trail: {e}",
};
/// What to do before publishing.
pub const REC_DRAW_INVESTIGATE: Msg = Msg {
    id: "rec-draw-investigate",
    fr: "lancez `urne audit verify` et enquêtez avant de publier",
    en: "run `urne audit verify` and investigate before publishing",
};
/// A sealed set that does not give the signed leaves file.
pub const ERR_DRAW_LEAVES: Msg = Msg {
    id: "err-draw-leaves",
    fr: "l'ensemble scellé ne donne pas le fichier des feuilles que le scellement a signé",
    en: "the sealed set does not give the leaves file the seal signed",
};
/// A seal's leaves signature that is not hex (the trail altered).
pub const ERR_DRAW_LEAVES_SIG: Msg = Msg {
    id: "err-draw-leaves-sig",
    fr: "le leaves_sig du scellement n'est pas en hexadécimal",
    en: "the seal's leaves_sig is not hex",
};
/// A bundle a stopped run placed that does not parse.
pub const ERR_DRAW_PLACED_BUNDLE: Msg = Msg {
    id: "err-draw-placed-bundle",
    fr: "le bundle qu'une exécution interrompue a mis en place ne se lit pas : {e}",
    en: "the bundle a stopped run placed does not parse: {e}",
};
/// What to do then.
pub const REC_DRAW_PLACED_BUNDLE: Msg = Msg {
    id: "rec-draw-placed-bundle",
    fr: "gardez le dossier comme preuve et lancez `urne verify` dessus",
    en: "keep the folder as evidence and run `urne verify` on it",
};
/// A bundle a stopped run placed, of another draw.
pub const ERR_DRAW_PLACED_OTHER: Msg = Msg {
    id: "err-draw-placed-other",
    fr: "le bundle qu'une exécution interrompue a mis en place est celui d'un autre tirage",
    en: "the bundle a stopped run placed is of another draw",
};
/// What to do then.
pub const REC_DRAW_PLACED_OTHER: Msg = Msg {
    id: "rec-draw-placed-other",
    fr: "gardez le dossier comme preuve et lancez `urne audit verify`",
    en: "keep the folder as evidence and run `urne audit verify`",
};

// The token's entropy and the commissaire's contribution (`cmd/randomness.rs`).

/// The contribution needs a terminal.
pub const ERR_RANDOMNESS_TERMINAL: Msg = Msg {
    id: "err-randomness-terminal",
    fr: "la contribution du commissaire se tape au terminal, et l'entrée standard n'en est pas un",
    en: "the commissaire's contribution is typed at the terminal, and standard input is not one",
};
/// Where to run the command.
pub const REC_RANDOMNESS_TERMINAL: Msg = Msg {
    id: "rec-randomness-terminal",
    fr: "lancez la commande à la console de l'appareil : aucun fichier, argument ou variable ne peut contenir la contribution avant que l'aléa soit fixé (spec/formats.md §4.4.1) ; rien n'a été inscrit",
    en: "run the command at the appliance's console: no file, argument or variable may hold the contribution before the entropy is fixed (spec/formats.md §4.4.1); nothing was recorded",
};
/// Why the token's entropy is refused: the trail has seen it.
pub const ERR_RANDOMNESS_WHY_SEEN: Msg = Msg {
    id: "err-randomness-why-seen",
    fr: "le jeton a rendu un aléa que la piste avait déjà vu",
    en: "the token returned entropy the trail had already seen",
};
/// The entropy of a day refused.
pub const ERR_RANDOMNESS_REFUSED_DAY: Msg = Msg {
    id: "err-randomness-refused-day",
    fr: "l'aléa du HSM pour le jour {day} a été refusé et n'a pas servi ({reason} ; engagement {ec})",
    en: "the HSM's entropy for day {day} was refused and not used ({reason}; commitment {ec})",
};
/// The entropy of anything else refused (a block).
pub const ERR_RANDOMNESS_REFUSED_BLOCK: Msg = Msg {
    id: "err-randomness-refused-block",
    fr: "l'aléa du HSM pour le bloc {block} a été refusé et n'a pas servi ({reason} ; engagement {ec})",
    en: "the HSM's entropy for block {block} was refused and not used ({reason}; commitment {ec})",
};
/// The entropy of another purpose refused.
pub const ERR_RANDOMNESS_REFUSED: Msg = Msg {
    id: "err-randomness-refused",
    fr: "l'aléa du HSM pour « {purpose} » a été refusé et n'a pas servi ({reason} ; engagement {ec})",
    en: "the HSM's entropy for {purpose} was refused and not used ({reason}; commitment {ec})",
};
/// What to do then.
pub const REC_RANDOMNESS_REFUSED: Msg = Msg {
    id: "rec-randomness-refused",
    fr: "le refus est inscrit ; relancez la commande pour demander à nouveau au jeton (aucune contribution n'existe encore). Si cela se reproduit, le générateur du jeton est défaillant ou rejoue : arrêtez et utilisez un autre HSM",
    en: "the refusal is recorded; run the command again to ask the token anew (no contribution exists yet). If it happens again, the token's generator is faulty or replaying: stop and use another HSM",
};
/// An event the evidence needs, missing from the trail.
pub const ERR_RANDOMNESS_EVENT_MISSING: Msg = Msg {
    id: "err-randomness-event-missing",
    fr: "l'événement d'audit n° {seq} manque",
    en: "audit event #{seq} is missing",
};
/// A stored entropy that is not a sealed box.
pub const ERR_RANDOMNESS_NOT_BOX: Msg = Msg {
    id: "err-randomness-not-box",
    fr: "l'aléa de {purpose} n'est pas une boîte scellée par le jeton : {e}",
    en: "the entropy of {purpose} is not a box sealed by the token: {e}",
};
/// A stored entropy that is not the committed one.
pub const ERR_RANDOMNESS_NOT_COMMITTED: Msg = Msg {
    id: "err-randomness-not-committed",
    fr: "l'aléa inscrit n'est pas celui que nomme son engagement",
    en: "the recorded entropy is not the one its commitment names",
};
/// An entropy sealed before the check (a defect).
pub const ERR_RANDOMNESS_UNCHECKED: Msg = Msg {
    id: "err-randomness-unchecked",
    fr: "un aléa a été scellé avant la vérification de la piste",
    en: "an entropy was sealed before the trail was checked",
};
/// A purpose that cannot name a sealed secret (a defect).
pub const ERR_RANDOMNESS_PURPOSE: Msg = Msg {
    id: "err-randomness-purpose",
    fr: "le but {purpose} ne peut pas nommer un secret scellé",
    en: "the purpose {purpose} cannot name a sealed secret",
};
/// A contribution typed again that differs from the kept one.
pub const ERR_RANDOMNESS_DIFFERS: Msg = Msg {
    id: "err-randomness-differs",
    fr: "la contribution tapée maintenant n'est pas celle que l'exécution interrompue a gardée",
    en: "the contribution typed now is not the one the interrupted run kept",
};
/// What to do then.
pub const REC_RANDOMNESS_DIFFERS: Msg = Msg {
    id: "rec-randomness-differs",
    fr: "tapez-la de nouveau exactement comme elle est écrite au procès-verbal (relancez la commande). Si elle diffère encore, celle qui a été gardée a été modifiée : arrêtez, gardez la base de données comme preuve, et annulez cette tentative devant le commissaire",
    en: "type it again exactly as written in the minutes (run the command again). If it still differs, the kept one was altered: stop, keep the database as evidence, and void this attempt in front of the commissaire",
};
/// The commitment not typed back.
pub const ERR_RANDOMNESS_NOT_TYPED_BACK: Msg = Msg {
    id: "err-randomness-not-typed-back",
    fr: "les 8 premiers caractères de l'engagement n'ont pas été retapés",
    en: "the commitment's first 8 characters were not typed back",
};
/// What to do then.
pub const REC_RANDOMNESS_NOT_TYPED_BACK: Msg = Msg {
    id: "rec-randomness-not-typed-back",
    fr: "ne tapez qu'une fois l'engagement à l'écran (ce qui est tapé avant est ignoré) ; relancez la commande : l'aléa inscrit est gardé",
    en: "type only once the commitment is on screen (anything typed before it is discarded); run the command again: the entropy recorded is kept",
};
/// The terminal closed before the contribution was confirmed.
pub const ERR_RANDOMNESS_CLOSED: Msg = Msg {
    id: "err-randomness-closed",
    fr: "le terminal a été fermé avant que la contribution soit confirmée",
    en: "the terminal was closed before the contribution was confirmed",
};
/// What to do then.
pub const REC_RANDOMNESS_CLOSED: Msg = Msg {
    id: "rec-randomness-closed",
    fr: "rien n'a été calculé ; relancez la commande : l'aléa inscrit est gardé",
    en: "nothing was computed; run the command again: the entropy recorded is kept",
};

// `urne keys` (`cmd/keys.rs`).

/// Production's key ids need a terminal.
pub const ERR_KEYS_PRODUCER_TERMINAL: Msg = Msg {
    id: "err-keys-producer-terminal",
    fr: "les identifiants des clés de la production se tapent au terminal, d'après la déclaration écrite de la production, et l'entrée standard n'en est pas un",
    en: "the ids of production's keys are typed at the terminal, from production's written statement, and standard input is not one",
};
/// Where to run it.
pub const REC_KEYS_PRODUCER_TERMINAL: Msg = Msg {
    id: "rec-keys-producer-terminal",
    fr: "lancez `urne keys producer` à la console de l'appareil ; rien n'a été inscrit",
    en: "run `urne keys producer` at the appliance's console; nothing was recorded",
};
/// The keys given are the ones pinned already.
pub const ERR_KEYS_PRODUCER_SAME: Msg = Msg {
    id: "err-keys-producer-same",
    fr: "les clés de la production {keys} sont déjà celles qui sont épinglées",
    en: "production's keys {keys} are already the ones pinned",
};
/// Nothing to change.
pub const REC_KEYS_PRODUCER_SAME: Msg = Msg {
    id: "rec-keys-producer-same",
    fr: "rien à changer : rien n'a été inscrit",
    en: "nothing to change: nothing was recorded",
};
/// A file where `keys init` would create the trail.
pub const ERR_KEYS_DB_EXISTS: Msg = Msg {
    id: "err-keys-db-exists",
    fr: "un fichier existe déjà à {path}",
    en: "a file already exists at {path}",
};
/// What to do then.
pub const REC_KEYS_DB_EXISTS: Msg = Msg {
    id: "rec-keys-db-exists",
    fr: "urne ne remplace jamais une piste d'audit : donnez un autre --db, ou déplacez ce fichier s'il n'est pas la piste d'un appareil",
    en: "urne never replaces an audit trail: give another --db, or move that file away if it is not an appliance's trail",
};
/// A token initialised already.
pub const ERR_KEYS_INITIALISED: Msg = Msg {
    id: "err-keys-initialised",
    fr: "ce jeton est déjà initialisé : {trail}",
    en: "this token is already initialised: its {trail}",
};
/// What to do then.
pub const REC_KEYS_INITIALISED: Msg = Msg {
    id: "rec-keys-initialised",
    fr: "urne ne remplace jamais des clés ni une piste : utilisez `urne keys export` pour les clés publiques ; une base de données perdue se récupère comme le dit docs/ceremony.md",
    en: "urne never replaces keys or a trail: use `urne keys export` for the public keys; a lost database is recovered as docs/ceremony.md says",
};
/// One of urne's keys in the token, as found.
pub const ERR_KEYS_HELD: Msg = Msg {
    id: "err-keys-held",
    fr: "clé {role} {label} : {what}",
    en: "{role} key {label}: {what}",
};
/// Only the security officer can take the token back.
pub const REC_KEYS_OFFICER: Msg = Msg {
    id: "rec-keys-officer",
    fr: "Aucune piste ne nomme ces clés, donc rien n'a jamais été signé ni scellé avec elles : faites réinitialiser le jeton par son responsable de la sécurité, puis lancez `urne keys init`",
    en: "No trail names these keys, so nothing was ever signed or sealed with them: have the token's security officer initialise the token again, then run `urne keys init`",
};
/// The same, a sealing key present.
pub const REC_KEYS_OFFICER_SEAL: Msg = Msg {
    id: "rec-keys-officer-seal",
    fr: "urne ne remplace jamais sa clé de scellement. Aucune piste ne nomme ces clés, donc rien n'a jamais été signé ni scellé avec elles : faites réinitialiser le jeton par son responsable de la sécurité, puis lancez `urne keys init`",
    en: "urne never replaces its sealing key. No trail names these keys, so nothing was ever signed or sealed with them: have the token's security officer initialise the token again, then run `urne keys init`",
};
/// Two keys under one label, and no trail.
pub const ERR_KEYS_TWO_UNDER_LABEL: Msg = Msg {
    id: "err-keys-two-under-label",
    fr: "le jeton contient plus d'une clé sous l'un des libellés d'urne et aucune piste ({held}) : aucun `urne keys init` ne le laisse ainsi",
    en: "the token holds more than one key under one of urne's labels and no trail ({held}): no `urne keys init` leaves it so",
};
/// A sealing key without both key pairs.
pub const ERR_KEYS_SEAL_WITHOUT_PAIRS: Msg = Msg {
    id: "err-keys-seal-without-pairs",
    fr: "le jeton contient un objet de libellé {label} mais pas les deux paires de clés d'urne, et aucune piste ({held}) : aucun `urne keys init` ne le laisse ainsi (il génère d'abord les paires de clés)",
    en: "the token holds an object labelled {label} but not both of urne's key pairs, and no trail ({held}): no `urne keys init` leaves it so (it generates the key pairs first)",
};
/// A sealing key whose generation a kill cut.
pub const ERR_KEYS_SEAL_CUT: Msg = Msg {
    id: "err-keys-seal-cut",
    fr: "le jeton contient les deux paires de clés d'urne, aucune piste, et un objet de libellé {label} dont la génération n'a pas abouti (pas de CKA_LOCAL) : un `urne keys init` arrêté pendant que le jeton générait la clé de scellement le laisse ainsi ; urne ne l'a fait ni destructible ni modifiable (spec/appliance.md §6.9), il ne peut donc ni le retirer ni générer une seconde clé à côté",
    en: "the token holds both of urne's key pairs, no trail, and an object labelled {label} whose generation did not finish (no CKA_LOCAL): a `urne keys init` killed inside the token's generation of the sealing key leaves it; urne made it neither destroyable nor modifiable (spec/appliance.md §6.9), so it can neither remove it nor generate a second key beside it",
};
/// A role's objects not checked (a defect).
pub const ERR_KEYS_UNCHECKED: Msg = Msg {
    id: "err-keys-unchecked",
    fr: "les objets de la clé {role} n'ont pas été contrôlés",
    en: "the {role} key's objects were not checked",
};
/// A defect; nothing recorded.
pub const REC_KEYS_DEFECT: Msg = Msg {
    id: "rec-keys-defect",
    fr: "c'est un défaut d'urne ; rien n'a été inscrit : signalez-le",
    en: "this is a defect in urne; nothing was recorded: report it",
};
/// A key generated that may not be bound to the token.
pub const ERR_KEYS_NOT_BOUND: Msg = Msg {
    id: "err-keys-not-bound",
    fr: "les attributs de la clé {role} ne prouvent pas qu'elle est liée au jeton (CKA_LOCAL={local}, CKA_NEVER_EXTRACTABLE={never_extractable}, CKA_ALWAYS_SENSITIVE={always_sensitive})",
    en: "the {role} key's attributes do not prove it is bound to the token (CKA_LOCAL={local}, CKA_NEVER_EXTRACTABLE={never_extractable}, CKA_ALWAYS_SENSITIVE={always_sensitive})",
};
/// What to do then.
pub const REC_KEYS_NOT_BOUND: Msg = Msg {
    id: "rec-keys-not-bound",
    fr: "n'utilisez pas ce jeton pour les séances ; utilisez un HSM qui génère des clés non extractibles",
    en: "do not use this token for ceremonies; use an HSM that generates non-extractable keys",
};

// The command's context: its trail, its token (`cmd/ctx.rs`).

/// A checked trail with no event (a defect).
pub const ERR_CTX_NO_EVENT: Msg = Msg {
    id: "err-ctx-no-event",
    fr: "une piste vérifiée ne contient aucun événement",
    en: "a checked trail holds no event",
};
/// A command begun twice (a defect).
pub const ERR_CTX_BEGAN_TWICE: Msg = Msg {
    id: "err-ctx-began-twice",
    fr: "la commande {command} a commencé deux fois",
    en: "the command {command} began twice",
};
/// A trail used before the command began (a defect).
pub const ERR_CTX_NOT_BEGUN: Msg = Msg {
    id: "err-ctx-not-begun",
    fr: "la commande {command} a utilisé la piste d'audit avant d'avoir commencé",
    en: "the command {command} used the audit trail before it began",
};
/// An output made before the trail was checked (a defect).
pub const ERR_CTX_OUTPUT_UNCHECKED: Msg = Msg {
    id: "err-ctx-output-unchecked",
    fr: "une sortie a été faite avant la vérification de la piste",
    en: "an output was made before the trail was checked",
};
/// What to do then.
pub const REC_CTX_HISTORY: Msg = Msg {
    id: "rec-ctx-history",
    fr: "la piste a été modifiée : gardez la base de données comme preuve et lancez `urne audit verify`",
    en: "the trail was altered: keep the database as evidence and run `urne audit verify`",
};
/// An output's checkpoint that does not verify (a defect).
pub const ERR_CTX_CHECKPOINT: Msg = Msg {
    id: "err-ctx-checkpoint",
    fr: "le point de contrôle de {file} ne se vérifie pas : {e}",
    en: "the checkpoint of {file} does not verify: {e}",
};

// `urne trail restart` (`cmd/trail.rs`).

/// A file where the new trail would go.
pub const ERR_TRAIL_DB_EXISTS: Msg = Msg {
    id: "err-trail-db-exists",
    fr: "un fichier existe à {path}",
    en: "a file exists at {path}",
};
/// What to do then.
pub const REC_TRAIL_DB_EXISTS: Msg = Msg {
    id: "rec-trail-db-exists",
    fr: "une reprise ne remplace jamais une piste : si la piste qui s'y trouve est refusée, déplacez-la (gardez-la comme preuve) et relancez la reprise",
    en: "a restart never replaces a trail: if the trail there is refused, move it away (keep it as evidence) and run the restart again",
};
/// A token with no trail.
pub const ERR_TRAIL_NONE: Msg = Msg {
    id: "err-trail-none",
    fr: "le jeton ne contient aucune piste : il n'y a rien à reprendre",
    en: "the token holds no trail: there is nothing to restart",
};
/// How a token is initialised.
pub const REC_TRAIL_NONE: Msg = Msg {
    id: "rec-trail-none",
    fr: "initialisez le jeton avec `urne keys init`",
    en: "initialise the token with `urne keys init`",
};
/// A trail the token never marked.
pub const ERR_TRAIL_NO_MARK: Msg = Msg {
    id: "err-trail-no-mark",
    fr: "la piste {trail} n'a aucune marque dans le jeton : elle n'a jamais rien inscrit",
    en: "the trail {trail} has no mark in the token: it never recorded anything",
};
/// What to do then.
pub const REC_TRAIL_NO_MARK: Msg = Msg {
    id: "rec-trail-no-mark",
    fr: "un `urne keys init` interrompu se termine en le relançant",
    en: "an interrupted `urne keys init` is finished by running it again",
};
/// An output folder refused.
pub const ERR_TRAIL_OUTPUT_REFUSED: Msg = Msg {
    id: "err-trail-output-refused",
    fr: "{path} : {what}",
    en: "{path}: {what}",
};
/// Which outputs to give.
pub const REC_TRAIL_OUTPUTS: Msg = Msg {
    id: "rec-trail-outputs",
    fr: "donnez les sorties publiées sous la piste remplacée, telles que le support les contient",
    en: "give the outputs published under the replaced trail, as the medium holds them",
};
/// An output of another trail, or beyond the last mark.
pub const ERR_TRAIL_NOT_OUTPUT: Msg = Msg {
    id: "err-trail-not-output",
    fr: "{name} n'est pas une sortie de la piste {trail} dans la limite de la dernière marque du jeton ({size} événements)",
    en: "{name} is not an output of the trail {trail} within the token's last mark ({size} events)",
};
/// Which outputs to give.
pub const REC_TRAIL_NOT_OUTPUT: Msg = Msg {
    id: "rec-trail-not-output",
    fr: "ne donnez que les sorties publiées sous la piste remplacée",
    en: "give only the outputs published under the replaced trail",
};
/// Outputs that are not one history.
pub const ERR_TRAIL_NOT_ONE_HISTORY: Msg = Msg {
    id: "err-trail-not-one-history",
    fr: "les sorties données ne forment pas une seule histoire ({class}) : {what}",
    en: "the outputs given are not one history ({class}): {what}",
};
/// What to do then.
pub const REC_TRAIL_NOT_ONE_HISTORY: Msg = Msg {
    id: "rec-trail-not-one-history",
    fr: "arrêtez : deux histoires de la piste remplacée ont été publiées ; gardez tout comme preuve",
    en: "stop: two histories of the replaced trail were published; keep everything as evidence",
};

// `urne ticket` (`cmd/ticket.rs`).

/// A choice that is not 1, 2 or 3.
pub const ERR_TICKET_CHOICE: Msg = Msg {
    id: "err-ticket-choice",
    fr: "--choice vaut 1, 2 ou 3",
    en: "--choice is 1, 2 or 3",
};
/// What the choice is.
pub const REC_TICKET_CHOICE: Msg = Msg {
    id: "rec-ticket-choice",
    fr: "le joueur choisit l'un des trois symboles proposés (G-6)",
    en: "the player picks one of three offered symbols (G-6)",
};
/// A block's rules that do not load.
pub const ERR_TICKET_RULES: Msg = Msg {
    id: "err-ticket-rules",
    fr: "rules.json : {e}",
    en: "rules.json: {e}",
};
/// A row of the production file that does not parse.
pub const ERR_TICKET_ROW: Msg = Msg {
    id: "err-ticket-row",
    fr: "ligne du billet : {e}",
    en: "ticket row: {e}",
};
/// A block file that does not verify, and the class of the failure.
pub const ERR_TICKET_REFUSED: Msg = Msg {
    id: "err-ticket-refused",
    fr: "{what} (échec : {class})",
    en: "{what} ({class})",
};
/// What that means.
pub const REC_TICKET_REFUSED: Msg = Msg {
    id: "rec-ticket-refused",
    fr: "les fichiers du bloc ne sont pas tels qu'urne les a signés",
    en: "the block's files are not as urne signed them",
};
/// A revealed seed that is not the committed one.
pub const ERR_TICKET_SEED: Msg = Msg {
    id: "err-ticket-seed",
    fr: "la graine révélée n'est pas celle de l'engagement",
    en: "the revealed seed is not the committed one",
};
/// What to do then.
pub const REC_TICKET_SEED: Msg = Msg {
    id: "rec-ticket-seed",
    fr: "la révélation n'ouvre pas l'engagement de ce bloc : gardez les deux fichiers comme preuves",
    en: "the reveal does not open this block's commitment: keep both files as evidence",
};
/// A grid that differs from the recomputed one.
pub const ERR_TICKET_GRID: Msg = Msg {
    id: "err-ticket-grid",
    fr: "la grille du fichier de production diffère de celle recalculée d'après la graine révélée",
    en: "the production file's grid differs from the one recomputed from the revealed seed",
};
/// What to do then.
pub const REC_TICKET_GRID: Msg = Msg {
    id: "rec-ticket-grid",
    fr: "le fichier de production a été modifié après l'engagement : gardez-le comme preuve et utilisez la copie publiée avec l'engagement",
    en: "the production file was altered after the commitment: keep it as evidence and use the copy published with the commitment",
};

// `urne clock correct` (`cmd/clock.rs`).

/// The correction needs a terminal.
pub const ERR_CLOCK_TERMINAL: Msg = Msg {
    id: "err-clock-terminal",
    fr: "la correction de l'horloge se confirme par la date et l'heure tapées au terminal, et l'entrée standard n'en est pas un",
    en: "the clock's correction is confirmed by the date and time typed at the terminal, and standard input is not one",
};
/// Where to run it.
pub const REC_CLOCK_TERMINAL: Msg = Msg {
    id: "rec-clock-terminal",
    fr: "lancez `urne clock correct` à la console de l'appareil, devant le commissaire ; rien n'a été inscrit",
    en: "run `urne clock correct` at the appliance's console, in front of the commissaire; nothing was recorded",
};
/// A correction that goes back past a witnessed time.
pub const ERR_CLOCK_PAST_WATCH: Msg = Msg {
    id: "err-clock-past-watch",
    fr: "l'heure confirmée à la montre est antérieure à la dernière heure constatée par une personne sur cette piste ({floor}, heure de Paris, tolérance du contrôle de la montre comprise) : une correction ne remonte jamais au-delà d'une montre",
    en: "the time confirmed at the watch is earlier than the last time a person witnessed on this trail ({floor}, Paris time, the watch check's tolerance included): a correction never goes back past a watch",
};
/// What to do then.
pub const REC_CLOCK_PAST_WATCH: Msg = Msg {
    id: "rec-clock-past-watch",
    fr: "rien n'a été inscrit. Vérifiez la montre et l'horloge de l'appareil sur une référence devant le commissaire ; une piste dont les heures constatées sont fausses est reprise, devant témoin (`urne trail restart`)",
    en: "nothing was recorded. Check the watch and the appliance's clock against a reference in front of the commissaire; a trail whose witnessed times are wrong is restarted, witnessed (`urne trail restart`)",
};

// The commissaire's watch (`cmd/watch.rs`).

/// No date and time after every try.
pub const ERR_WATCH_NO_ANSWER: Msg = Msg {
    id: "err-watch-no-answer",
    fr: "aucune date ni heure donnée après trois essais",
    en: "no date and time given after three tries",
};
/// How they are typed.
pub const REC_WATCH_NO_ANSWER: Msg = Msg {
    id: "rec-watch-no-answer",
    fr: "tapez la date et l'heure de la montre du commissaire sous la forme AAAA-MM-JJ HH:MM ; rien n'a été fait",
    en: "type the date and time at the commissaire's watch as AAAA-MM-JJ HH:MM; nothing was done",
};
/// The time at the watch refused after the last try, and why.
pub const ERR_WATCH_REFUSED: Msg = Msg {
    id: "err-watch-refused",
    fr: "heure à la montre refusée, sans autre essai : {why}",
    en: "time at the watch refused, with no try left: {why}",
};
/// What to do then.
pub const REC_WATCH_REFUSED: Msg = Msg {
    id: "rec-watch-refused",
    fr: "mettez l'horloge de l'appareil à l'heure (UTC) devant le commissaire, puis relancez {then} ; rien n'a été fait",
    en: "set the appliance's clock right (UTC) in front of the commissaire, then run {then} again; nothing was done",
};
/// A clock far ahead of the trail, and no terminal to confirm it.
pub const ERR_WATCH_FAR_AHEAD: Msg = Msg {
    id: "err-watch-far-ahead",
    fr: "l'horloge de l'appareil ({now}) est en avance de {days} jours sur le dernier événement de la piste d'audit ({last}, événement {seq}) : plus de {limit} jours d'avance, donc une personne la confirme, au terminal, et l'entrée standard n'en est pas un",
    en: "the appliance's clock ({now}) is {days} days after the audit trail's last event ({last}, event {seq}): more than {limit} days ahead, so a person confirms it, at the terminal, and standard input is not one",
};
/// Where to run the command.
pub const REC_WATCH_FAR_AHEAD: Msg = Msg {
    id: "rec-watch-far-ahead",
    fr: "lancez la commande à la console de l'appareil, où le commissaire tape la date et l'heure de sa montre ; si l'horloge est fausse, remettez-la d'abord à l'heure (UTC) ; rien n'a été inscrit",
    en: "run the command at the appliance's console, where the commissaire types the date and time at their watch; if the clock is wrong, set it right (UTC) first; nothing was recorded",
};
/// The terminal closed before the date and time were typed.
pub const ERR_WATCH_CLOSED: Msg = Msg {
    id: "err-watch-closed",
    fr: "le terminal a été fermé avant que la date et l'heure soient tapées",
    en: "the terminal was closed before the date and time were typed",
};
/// What to do then.
pub const REC_WATCH_CLOSED: Msg = Msg {
    id: "rec-watch-closed",
    fr: "rien n'a été fait ; lancez de nouveau la commande",
    en: "nothing was done; run the command again",
};

// The answers typed at a sitting (`cmd/term.rs`).

/// The terminal closed during a sitting.
pub const ERR_TERM_CLOSED: Msg = Msg {
    id: "err-term-closed",
    fr: "le terminal a été fermé avant la fin de la séance",
    en: "the terminal was closed before the sitting ended",
};
/// What to do then.
pub const REC_TERM_CLOSED: Msg = Msg {
    id: "rec-term-closed",
    fr: "lancez de nouveau `urne ceremony` : la séance ouverte est reprise",
    en: "run `urne ceremony` again: the open sitting is taken up again",
};
/// No valid answer after every try.
pub const ERR_TERM_NO_ANSWER: Msg = Msg {
    id: "err-term-no-answer",
    fr: "aucune réponse valable après trois essais",
    en: "no valid answer after three tries",
};
/// What to do then.
pub const REC_TERM_NO_ANSWER: Msg = Msg {
    id: "rec-term-no-answer",
    fr: "lancez de nouveau `urne ceremony` ; rien n'a été enregistré pour cette réponse",
    en: "run `urne ceremony` again; nothing was recorded for this answer",
};
/// A step not confirmed.
pub const ERR_TERM_NOT_CONFIRMED: Msg = Msg {
    id: "err-term-not-confirmed",
    fr: "non confirmé : on attendait {want}",
    en: "not confirmed: expected {want}",
};
/// Nothing done for it.
pub const REC_TERM_NOT_CONFIRMED: Msg = Msg {
    id: "rec-term-not-confirmed",
    fr: "rien n'a été fait pour cette étape",
    en: "nothing was done for this step",
};

// What an irreversible step asks typed back (`cmd/confirm.rs`).

/// A void confirmed with no terminal.
pub const ERR_CONFIRM_TERMINAL_VOID: Msg = Msg {
    id: "err-confirm-terminal-void",
    fr: "l'annulation se confirme par une saisie au terminal, et l'entrée standard n'en est pas un",
    en: "the void is confirmed by typing it back at the terminal, and standard input is not one",
};
/// A reveal confirmed with no terminal.
pub const ERR_CONFIRM_TERMINAL_REVEAL: Msg = Msg {
    id: "err-confirm-terminal-reveal",
    fr: "la révélation se confirme par une saisie au terminal, et l'entrée standard n'en est pas un",
    en: "the reveal is confirmed by typing it back at the terminal, and standard input is not one",
};
/// Another step confirmed with no terminal.
pub const ERR_CONFIRM_TERMINAL: Msg = Msg {
    id: "err-confirm-terminal",
    fr: "l'étape « {what} » se confirme par une saisie au terminal, et l'entrée standard n'en est pas un",
    en: "the {what} is confirmed by typing it back at the terminal, and standard input is not one",
};
/// Where to run the command.
pub const REC_CONFIRM_TERMINAL: Msg = Msg {
    id: "rec-confirm-terminal",
    fr: "lancez la commande à la console de l'appareil, devant le commissaire : rien de ce qui est tapé avant qu'elle ait montré ce qu'elle va faire ne peut la confirmer ; rien n'a été inscrit",
    en: "run the command at the appliance's console, in front of the commissaire: nothing typed before it showed what it is about to do may confirm it; nothing was recorded",
};
/// The terminal closed before the confirmation.
pub const ERR_CONFIRM_CLOSED: Msg = Msg {
    id: "err-confirm-closed",
    fr: "le terminal a été fermé avant que la confirmation soit tapée",
    en: "the terminal was closed before the confirmation was typed",
};
/// What to do then.
pub const REC_CONFIRM_CLOSED: Msg = Msg {
    id: "rec-confirm-closed",
    fr: "rien n'a été inscrit ; relancez la commande",
    en: "nothing was recorded; run the command again",
};
/// The terminal that cannot be read.
pub const ERR_CONFIRM_UNREADABLE: Msg = Msg {
    id: "err-confirm-unreadable",
    fr: "impossible de lire le terminal : {e}",
    en: "cannot read the terminal: {e}",
};
/// What to do then.
pub const REC_CONFIRM_UNREADABLE: Msg = Msg {
    id: "rec-confirm-unreadable",
    fr: "vérifiez le terminal et relancez la commande",
    en: "check the terminal and run the command again",
};
/// What was asked not typed back.
pub const ERR_CONFIRM_NOT_TYPED: Msg = Msg {
    id: "err-confirm-not-typed",
    fr: "{noun} n'a pas été retapé après {tries} essais",
    en: "{noun} was not typed back after {tries} tries",
};
/// What to do then.
pub const REC_CONFIRM_NOT_TYPED: Msg = Msg {
    id: "rec-confirm-not-typed",
    fr: "rien n'a été inscrit. Vérifiez que c'est bien l'étape voulue, puis relancez la commande et tapez {noun} exactement comme il est affiché",
    en: "nothing was recorded. Check that this is the step you meant, then run the command again and type {noun} exactly as shown",
};

// Void notices (`cmd/void_notice.rs`) and `urne void` (`cmd/void.rs`).

/// A voided day, in a message.
pub const ERR_VOID_SUBJECT_DAY: Msg = Msg {
    id: "err-void-subject-day",
    fr: "jour du {day}",
    en: "day {day}",
};
/// A voided block, in a message.
pub const ERR_VOID_SUBJECT_BLOCK: Msg = Msg {
    id: "err-void-subject-block",
    fr: "bloc {block}",
    en: "block {block}",
};
/// A sitting closed whose minutes are not published.
pub const ERR_VOID_SITTING_UNPUBLISHED: Msg = Msg {
    id: "err-void-sitting-unpublished",
    fr: "la séance {number} a été close (événement d'audit n° {seq}) mais son procès-verbal n'est pas publié",
    en: "sitting {number} was closed (audit event #{seq}) but its minutes are not published",
};
/// What to do then.
pub const REC_VOID_SITTING_UNPUBLISHED: Msg = Msg {
    id: "rec-void-sitting-unpublished",
    fr: "lancez `urne ceremony --out DIR` (le dossier des publications) pour le publier ; rien d'autre n'est fait avant",
    en: "run `urne ceremony --out DIR` (the publications folder) to publish them; nothing else is done before",
};
/// A void with no recorded notice.
pub const ERR_VOID_UNANNOUNCED: Msg = Msg {
    id: "err-void-unannounced",
    fr: "l'annulation ({subject}, tentative {attempt}), inscrite à l'événement d'audit n° {seq}, n'a pas d'avis d'annulation inscrit",
    en: "the void of {subject} attempt {attempt} (audit event #{seq}) has no recorded void notice",
};
/// What to do then.
pub const REC_VOID_UNANNOUNCED: Msg = Msg {
    id: "rec-void-unannounced",
    fr: "rien n'a été changé. Relancez d'abord `{again}` : cette commande écrit l'avis de cette annulation (ou inscrit celui qu'une exécution interrompue a laissé en place) et n'annule rien d'autre",
    en: "nothing was changed. Run `{again}` again first: it writes that void's notice (or records the one an interrupted run left in place) and voids nothing else",
};
/// A file in the notice's place that is not its notice.
pub const ERR_VOID_NOTICE_CONFLICT: Msg = Msg {
    id: "err-void-notice-conflict",
    fr: "{path} existe et n'est pas l'avis signé de cette annulation ({subject}, tentative {attempt}, événement d'audit n° {seq})",
    en: "{path} exists and is not the signed notice of this void (of {subject} attempt {attempt}, audit event #{seq})",
};
/// What to do then.
pub const REC_VOID_NOTICE_CONFLICT: Msg = Msg {
    id: "rec-void-notice-conflict",
    fr: "un avis d'annulation n'est jamais remplacé : gardez ce fichier comme preuve, et donnez un autre dossier avec --out",
    en: "a void notice is never replaced: keep that file as evidence, and give another folder with --out",
};
/// A day with nothing to void.
pub const ERR_VOID_NOTHING: Msg = Msg {
    id: "err-void-nothing",
    fr: "le jour {day} n'a rien à annuler (la tentative {attempt} n'est pas scellée)",
    en: "day {day} has nothing to void (attempt {attempt} is not sealed)",
};
/// What can be voided.
pub const REC_VOID_NOTHING: Msg = Msg {
    id: "rec-void-nothing",
    fr: "seule une tentative scellée ou tirée peut être annulée ; une tentative n'est annulée qu'une fois, et son avis d'annulation a été écrit à ce moment-là",
    en: "only a sealed or drawn attempt can be voided; an attempt is voided once, and its void notice was written when it was",
};

// `urne show` (`cmd/show.rs`).

/// Neither a day nor a block.
pub const ERR_SHOW_USAGE: Msg = Msg {
    id: "err-show-usage",
    fr: "donnez soit --day, soit --block",
    en: "give either --day or --block",
};
/// The two ways.
pub const REC_SHOW_USAGE: Msg = Msg {
    id: "rec-show-usage",
    fr: "urne show --day AAAA-MM-JJ, ou urne show --block ID",
    en: "urne show --day YYYY-MM-DD, or urne show --block ID",
};
/// A day the trail holds nothing of.
pub const ERR_SHOW_DAY_UNKNOWN: Msg = Msg {
    id: "err-show-day-unknown",
    fr: "le jour {day} n'est pas scellé : la piste n'en contient rien",
    en: "day {day} is not sealed: the trail holds nothing of it",
};
/// Where the days are listed.
pub const REC_SHOW_DAY_UNKNOWN: Msg = Msg {
    id: "rec-show-day-unknown",
    fr: "`urne status` énumère les jours que la piste inscrit",
    en: "`urne status` lists the days the trail records",
};
/// A block the trail holds nothing of.
pub const ERR_SHOW_BLOCK_UNKNOWN: Msg = Msg {
    id: "err-show-block-unknown",
    fr: "le bloc {id} n'est pas généré : la piste n'en contient rien",
    en: "block {id} is not generated: the trail holds nothing of it",
};
/// Where the blocks are listed.
pub const REC_SHOW_BLOCK_UNKNOWN: Msg = Msg {
    id: "rec-show-block-unknown",
    fr: "`urne status` énumère les blocs que la piste inscrit",
    en: "`urne status` lists the blocks the trail records",
};
/// Sealed rules that do not load (the trail altered).
pub const ERR_SHOW_RULES: Msg = Msg {
    id: "err-show-rules",
    fr: "le règlement inscrit par le scellement du {day} : {e}",
    en: "the rules the seal of {day} recorded: {e}",
};
/// A result naming a leaf its seal does not hold (the trail altered).
pub const ERR_SHOW_LEAF: Msg = Msg {
    id: "err-show-leaf",
    fr: "le résultat du {day} nomme une feuille que son scellement ne contient pas",
    en: "the result of {day} names a leaf its seal does not hold",
};

// An output a stopped run was placing (`cmd/placing.rs`).

/// A draw's output.
pub const ERR_PLACING_DRAW: Msg = Msg {
    id: "err-placing-draw",
    fr: "le tirage du jour {day}, tentative {attempt}",
    en: "the draw of day {day} attempt {attempt}",
};
/// A block's commitment.
pub const ERR_PLACING_BLOCK: Msg = Msg {
    id: "err-placing-block",
    fr: "l'engagement du bloc {block}, tentative {attempt}",
    en: "the commitment of block {block} attempt {attempt}",
};
/// A block's reveal.
pub const ERR_PLACING_REVEAL: Msg = Msg {
    id: "err-placing-reveal",
    fr: "la révélation du bloc {block}, tentative {attempt}",
    en: "the reveal of block {block} attempt {attempt}",
};
/// A void notice.
pub const ERR_PLACING_VOID_NOTICE: Msg = Msg {
    id: "err-placing-void-notice",
    fr: "l'avis de l'annulation inscrite à l'événement d'audit n° {seq}",
    en: "the notice of the void recorded at audit event #{seq}",
};
/// A sitting's minutes.
pub const ERR_PLACING_SITTING: Msg = Msg {
    id: "err-placing-sitting",
    fr: "le procès-verbal de la séance {number}",
    en: "the minutes of sitting {number}",
};
/// A folder holding part of an output.
pub const ERR_PLACING_PART: Msg = Msg {
    id: "err-placing-part",
    fr: "{path} contient une partie de la sortie ({subject}) qu'une exécution interrompue mettait en place, pas sa totalité",
    en: "{path} holds part of the output of {subject} that a stopped run was placing, not the whole of it",
};
/// What to do then.
pub const REC_PLACING_PART: Msg = Msg {
    id: "rec-placing-part",
    fr: "rien n'a été publié ; une partie n'est jamais une sortie (son dernier fichier manque). Mettez {path} de côté comme preuve, puis relancez la commande avec --out {path}",
    en: "nothing was published; a part is never an output (its last file is missing). Move {path} aside as evidence, then run the command again with --out {path}",
};
/// An output asked in another folder than the one a stopped run recorded.
pub const ERR_PLACING_ELSEWHERE: Msg = Msg {
    id: "err-placing-elsewhere",
    fr: "{subject} : sa publication dans {path} a été commencée par une exécution arrêtée avant de l'inscrire ; elle ne se fait pas dans un autre dossier",
    en: "{subject} was being published in {path} by a run that stopped before recording it; it is not published in another folder",
};
/// What to do then.
pub const REC_PLACING_ELSEWHERE: Msg = Msg {
    id: "rec-placing-elsewhere",
    fr: "rien n'a été publié. Relancez la commande avec --out {path} : une sortie trouvée complète à cet endroit est inscrite comme publiée, sinon elle y est publiée ; une sortie par tentative, jamais deux",
    en: "nothing was published. Run the command again with --out {path}: an output found whole there is recorded as published, or it is published there; one output per attempt, never two",
};
/// A file in place that is not the signed one.
pub const ERR_PLACING_NOT_SIGNED: Msg = Msg {
    id: "err-placing-not-signed",
    fr: "{path} n'est pas le fichier signé qu'une exécution interrompue mettait en place pour {subject}",
    en: "{path} is not the signed file a stopped run was placing for {subject}",
};
/// What to do then.
pub const REC_PLACING_NOT_SIGNED: Msg = Msg {
    id: "rec-placing-not-signed",
    fr: "rien n'a été publié ; gardez le dossier comme preuve et lancez `urne verify` dessus",
    en: "nothing was published; keep the folder as evidence and run `urne verify` on it",
};

// The command line's dispatch (`cmd/mod.rs`), `urne verify` (`cmd/verify.rs`).

/// A --rehearsal-at that is not a date and time.
pub const ERR_REHEARSAL_AT: Msg = Msg {
    id: "err-rehearsal-at",
    fr: "--rehearsal-at {text} n'est pas une date et une heure avec leur décalage horaire",
    en: "--rehearsal-at {text} is not a date and time with its offset",
};
/// How it is written.
pub const REC_REHEARSAL_AT: Msg = Msg {
    id: "rec-rehearsal-at",
    fr: "écrivez-la en RFC 3339 avec son décalage, secondes facultatives : --rehearsal-at 2018-12-11T10:00+01:00",
    en: "write it as RFC 3339 with its offset, seconds optional: --rehearsal-at 2018-12-11T10:00+01:00",
};
/// --rehearsal-at given to a command that reads files only.
pub const ERR_REHEARSAL_AT_FILES: Msg = Msg {
    id: "err-rehearsal-at-files",
    fr: "--rehearsal-at est pour les commandes qui utilisent le jeton ; celle-ci ne lit que des fichiers",
    en: "--rehearsal-at is for the commands that use the token; this one reads files only",
};
/// What to do then.
pub const REC_REHEARSAL_AT_FILES: Msg = Msg {
    id: "rec-rehearsal-at-files",
    fr: "lancez-la sans --rehearsal-at",
    en: "run it without --rehearsal-at",
};
/// A command dispatched the wrong way (a defect).
pub const ERR_DISPATCH: Msg = Msg {
    id: "err-dispatch",
    fr: "une commande qui modifie la piste a été aiguillée comme une commande qui la lit",
    en: "a command that changes the trail was dispatched as one that reads it",
};
/// A defect: report it.
pub const REC_DEFECT_REPORT: Msg = Msg {
    id: "rec-defect-in-urne",
    fr: "c'est un défaut d'urne ; signalez-le",
    en: "this is a defect in urne; report it",
};
/// Which keys `urne verify` needs.
pub const REC_VERIFY_KEYS: Msg = Msg {
    id: "rec-verify-keys",
    fr: "donnez --keys DIR contenant result.pub.pem et audit.pub.pem (écrits par `urne keys export`)",
    en: "pass --keys DIR holding result.pub.pem and audit.pub.pem (from `urne keys export`)",
};

// Production's keys pinned (`cmd/producer.rs`).

/// Another key than the ones pinned earlier in the key ceremony.
pub const ERR_PRODUCER_OTHER: Msg = Msg {
    id: "err-producer-other",
    fr: "la piste épingle déjà les clés de la production {keys}, et --producer-key en nomme une autre",
    en: "the trail already pins production's keys {keys}, and --producer-key names another",
};
/// What to do then.
pub const REC_PRODUCER_OTHER: Msg = Msg {
    id: "rec-producer-other",
    fr: "les clés de la production ont été épinglées plus tôt dans cette cérémonie des clés ; un autre jeu s'épingle avec `urne keys producer`",
    en: "production's keys were pinned earlier in this key ceremony; another set is pinned with `urne keys producer`",
};
/// Key ids typed that are not those of the files.
pub const ERR_PRODUCER_IDS: Msg = Msg {
    id: "err-producer-ids",
    fr: "les identifiants des clés de la production tapés par le commissaire ne sont pas ceux des fichiers de clé donnés : rien n'a été épinglé",
    en: "the ids of production's keys typed by the commissaire are not those of the key files given: nothing was pinned",
};
/// What to do then.
pub const REC_PRODUCER_IDS: Msg = Msg {
    id: "rec-producer-ids",
    fr: "donnez le fichier de clé publique de la production elle-même (--producer-key PEM, le fichier remis par la production) et tapez les identifiants de clé de sa déclaration écrite ; un scellement ne se fie qu'aux clés épinglées",
    en: "give production's own public key file (--producer-key PEM, the file production handed over) and type the key ids of its written statement; a seal trusts only pinned keys",
};

// Why an export is refused, per rule of entry-export-v1 (the core's `ExportError`, said in the
// screens' language by `cmd/export_refusal.rs`; in English, the core's own words).

/// A refusal on one line.
pub const ERR_EXPORT_LINE: Msg = Msg {
    id: "err-export-line",
    fr: "ligne {line} : {why}",
    en: "line {line}: {why}",
};
/// The file cannot be read.
pub const ERR_EXPORT_IO: Msg = Msg {
    id: "err-export-io",
    fr: "impossible de lire l'export : {e}",
    en: "cannot read the export: {e}",
};
/// A signature file of the wrong length.
pub const ERR_EXPORT_SIGNATURE_LENGTH: Msg = Msg {
    id: "err-export-signature-length",
    fr: "le fichier de signature doit contenir exactement 64 octets (Ed25519 brut), il en contient {n}",
    en: "the signature file must hold exactly 64 bytes (raw Ed25519), it holds {n}",
};
/// No trusted key.
pub const ERR_EXPORT_NO_TRUSTED_KEY: Msg = Msg {
    id: "err-export-no-trusted-key",
    fr: "aucune clé de confiance du producteur n'a été donnée",
    en: "no trusted producer key was given",
};
/// A signature no trusted key verifies.
pub const ERR_EXPORT_BAD_SIGNATURE: Msg = Msg {
    id: "err-export-bad-signature",
    fr: "la signature ne se vérifie sous aucune clé de confiance du producteur",
    en: "the signature does not verify under any trusted producer key",
};
/// A file that changed after its signature was checked.
pub const ERR_EXPORT_FILE_CHANGED: Msg = Msg {
    id: "err-export-file-changed",
    fr: "le fichier a changé après le contrôle de sa signature (SHA-256 {found}, {found_size} octets ; vérifié : {expected}, {expected_size} octets)",
    en: "the file changed after its signature was checked (SHA-256 {found}, {found_size} bytes; verified {expected}, {expected_size} bytes)",
};
/// Too many lines.
pub const ERR_EXPORT_TOO_MANY_LINES: Msg = Msg {
    id: "err-export-too-many-lines",
    fr: "le fichier a plus de lignes que ce lecteur n'en accepte (2^32 - 1)",
    en: "the file has more lines than this reader supports (2^32 - 1)",
};
/// A file over the export's limit.
pub const ERR_EXPORT_TOO_LARGE: Msg = Msg {
    id: "err-export-too-large",
    fr: "l'export contient plus de {max} octets, le maximum qu'un export peut contenir",
    en: "the export holds more than {max} bytes, the most an export may hold",
};
/// Not a regular file.
pub const ERR_EXPORT_NOT_A_FILE: Msg = Msg {
    id: "err-export-not-a-file",
    fr: "l'export n'est pas un fichier ordinaire",
    en: "the export is not a regular file",
};
/// More accounts with entries than a day may hold.
pub const ERR_EXPORT_TOO_MANY_ACCOUNTS: Msg = Msg {
    id: "err-export-too-many-accounts",
    fr: "{n} comptes ont des participations, plus que les {max} qu'un jour peut contenir",
    en: "{n} accounts have entries, more than the {max} one day may hold",
};
/// A line that is not UTF-8.
pub const ERR_EXPORT_NOT_UTF8: Msg = Msg {
    id: "err-export-not-utf8",
    fr: "la ligne n'est pas de l'UTF-8 valable",
    en: "the line is not valid UTF-8",
};
/// A line ending in CR LF.
pub const ERR_EXPORT_CRLF: Msg = Msg {
    id: "err-export-crlf",
    fr: "la ligne finit par CR LF ; les lignes doivent finir par LF seul",
    en: "the line ends in CR LF; lines must end in LF alone",
};
/// A CR in a line.
pub const ERR_EXPORT_CARRIAGE_RETURN: Msg = Msg {
    id: "err-export-carriage-return",
    fr: "la ligne contient un CR (octet 0x0D) à la colonne {column} ; aucun CR n'est admis dans un export",
    en: "the line holds a CR (byte 0x0D) at column {column}; no CR is allowed anywhere in an export",
};
/// A last line without its LF.
pub const ERR_EXPORT_FINAL_NEWLINE: Msg = Msg {
    id: "err-export-final-newline",
    fr: "la dernière ligne ne finit pas par LF",
    en: "the last line does not end in LF",
};
/// A line over the limit.
pub const ERR_EXPORT_LINE_TOO_LONG: Msg = Msg {
    id: "err-export-line-too-long",
    fr: "la ligne dépasse {max} octets (sans compter son LF)",
    en: "the line is longer than {max} bytes (its LF not counted)",
};
/// A line that is not one JSON object.
pub const ERR_EXPORT_INVALID_JSON: Msg = Msg {
    id: "err-export-invalid-json",
    fr: "JSON non valable : {reason} (colonne {column})",
    en: "not valid JSON: {reason} (column {column})",
};
/// A key twice in one object.
pub const ERR_EXPORT_DUPLICATE_KEY: Msg = Msg {
    id: "err-export-duplicate-key",
    fr: "la clé {key} figure deux fois dans un même objet",
    en: "the key {key} appears twice in one object",
};
/// A field missing.
pub const ERR_EXPORT_MISSING_FIELD: Msg = Msg {
    id: "err-export-missing-field",
    fr: "le champ `{field}` manque",
    en: "field `{field}` is missing",
};
/// A field of the wrong type.
pub const ERR_EXPORT_WRONG_TYPE: Msg = Msg {
    id: "err-export-wrong-type",
    fr: "le champ `{field}` doit être {expected}, trouvé : {found}",
    en: "field `{field}` must be {expected}, found {found}",
};
/// A value the format does not allow.
pub const ERR_EXPORT_OUT_OF_RANGE: Msg = Msg {
    id: "err-export-out-of-range",
    fr: "le champ `{field}` est hors des valeurs admises : {reason}",
    en: "field `{field}` is out of range: {reason}",
};
/// An empty file.
pub const ERR_EXPORT_EMPTY: Msg = Msg {
    id: "err-export-empty",
    fr: "le fichier est vide : pas d'en-tête",
    en: "the file is empty: no header",
};
/// No header.
pub const ERR_EXPORT_MISSING_HEADER: Msg = Msg {
    id: "err-export-missing-header",
    fr: "la ligne 1 n'est pas un en-tête (pas de champ `format`)",
    en: "line 1 is not a header (no `format` field)",
};
/// Another format.
pub const ERR_EXPORT_WRONG_FORMAT: Msg = Msg {
    id: "err-export-wrong-format",
    fr: "le format est {found}, \"draw-entries\" attendu",
    en: "format is {found}, expected \"draw-entries\"",
};
/// Another version.
pub const ERR_EXPORT_WRONG_VERSION: Msg = Msg {
    id: "err-export-wrong-version",
    fr: "la version est {found}, 1 attendu",
    en: "version is {found}, expected 1",
};
/// Another operation.
pub const ERR_EXPORT_WRONG_OPERATION: Msg = Msg {
    id: "err-export-wrong-operation",
    fr: "l'opération est {found}, {expected} attendue",
    en: "operation is {found}, expected {expected}",
};
/// A day outside the operation.
pub const ERR_EXPORT_DAY_NOT_IN_OPERATION: Msg = Msg {
    id: "err-export-day-not-in-operation",
    fr: "le jour {day} n'est pas un jour de l'opération",
    en: "day {day} is not a day of the operation",
};
/// Another producer than the key that signed.
pub const ERR_EXPORT_WRONG_PRODUCER: Msg = Msg {
    id: "err-export-wrong-producer",
    fr: "le producteur est {found}, mais le fichier a été signé par la clé {expected}",
    en: "producer is {found}, but the file was signed by key {expected}",
};
/// A count the header announces that is not the number found.
pub const ERR_EXPORT_COUNT_MISMATCH: Msg = Msg {
    id: "err-export-count-mismatch",
    fr: "l'en-tête annonce {header} enregistrements {record}, le fichier en contient {found}",
    en: "the header announces {header} {record} records, the file holds {found}",
};
/// An unknown record type.
pub const ERR_EXPORT_UNKNOWN_TYPE: Msg = Msg {
    id: "err-export-unknown-type",
    fr: "type d'enregistrement inconnu {found}",
    en: "unknown record type {found}",
};
/// A play id twice, the id kept.
pub const ERR_EXPORT_DUPLICATE_PLAY: Msg = Msg {
    id: "err-export-duplicate-play",
    fr: "identifiant de mise {id} en double (la première fois à la ligne {line})",
    en: "duplicate play id {id} (first on line {line})",
};
/// A play id twice, the id too long to keep.
pub const ERR_EXPORT_DUPLICATE_PLAY_HASHED: Msg = Msg {
    id: "err-export-duplicate-play-hashed",
    fr: "identifiant de mise en double (le même qu'à la ligne {line})",
    en: "duplicate play id (the same id as line {line})",
};
/// An account excluded twice.
pub const ERR_EXPORT_DUPLICATE_EXCLUSION: Msg = Msg {
    id: "err-export-duplicate-exclusion",
    fr: "exclusion en double du compte {account} (la première fois à la ligne {line})",
    en: "duplicate exclusion of account {account} (first on line {line})",
};
/// A play not on the file's day.
pub const ERR_EXPORT_PLAY_NOT_ON_DAY: Msg = Msg {
    id: "err-export-play-not-on-day",
    fr: "la mise de {at} n'est pas du {day} dans le fuseau {tz}",
    en: "play at {at} is not on {day} in {tz}",
};

// A void recorded and announced by a later run (`urne void`, spec/appliance.md §4.6, §6.7), and
// the clock corrected (`urne clock correct`, spec/appliance.md §6.6).

/// A void recorded by an interrupted run, announced now.
pub const SCR_VOID_RESUMED: Msg = Msg {
    id: "scr-void-resumed",
    fr: "l'annulation de {subject}, tentative {attempt}, est inscrite (événement d'audit n° {seq}) mais pas son avis : il est publié maintenant ; rien d'autre n'est annulé",
    en: "the void of {subject} attempt {attempt} is recorded (audit event #{seq}) but its notice is not: announcing it now; nothing else is voided",
};
/// The reason given now differs from the one recorded.
pub const SCR_VOID_RESUMED_REASON: Msg = Msg {
    id: "scr-void-resumed-reason",
    fr: "note : l'avis donne le motif inscrit avec l'annulation ({reason}), pas celui donné maintenant",
    en: "note: the notice states the reason recorded with the void ({reason}), not the one given now",
};
/// What was voided, earlier.
pub const SCR_VOID_ALREADY: Msg = Msg {
    id: "scr-void-already",
    fr: "ANNULÉ (déjà) : {subject}, tentative {attempt} ({stage}), événement d'audit n° {seq}",
    en: "VOIDED (already): {subject}, attempt {attempt} ({stage}), audit event #{seq}",
};
/// The heading of a clock corrected.
pub const SCR_CLOCK_CORRECTED: Msg = Msg {
    id: "scr-clock-corrected",
    fr: "HORLOGE CORRIGÉE",
    en: "CLOCK CORRECTED",
};
/// Its event.
pub const SCR_CLOCK_CORRECTED_EVENT: Msg = Msg {
    id: "scr-clock-corrected-event",
    fr: "  événement         {seq} (clock.corrected)",
    en: "  event            {seq} (clock.corrected)",
};
/// The time the wrong clock gave.
pub const SCR_CLOCK_CORRECTED_WRONG: Msg = Msg {
    id: "scr-clock-corrected-wrong",
    fr: "  horloge fausse    {at}",
    en: "  wrong clock      {at}",
};
/// The time the watch confirmed.
pub const SCR_CLOCK_CORRECTED_CONFIRMED: Msg = Msg {
    id: "scr-clock-corrected-confirmed",
    fr: "  heure confirmée   {at}",
    en: "  confirmed        {at}",
};
/// When the correction was recorded.
pub const SCR_CLOCK_CORRECTED_AT: Msg = Msg {
    id: "scr-clock-corrected-at",
    fr: "  inscrit à         {at}",
    en: "  recorded at      {at}",
};

/// Every message of this file, for the catalogue's tests.
pub(super) const ALL: &[&Msg] = &[
    &SCR_VOID_RESUMED,
    &SCR_VOID_RESUMED_REASON,
    &SCR_VOID_ALREADY,
    &SCR_CLOCK_CORRECTED,
    &SCR_CLOCK_CORRECTED_EVENT,
    &SCR_CLOCK_CORRECTED_WRONG,
    &SCR_CLOCK_CORRECTED_CONFIRMED,
    &SCR_CLOCK_CORRECTED_AT,
    &ERR_INPUT_RULES_REFUSED,
    &REC_INPUT_RULES_REFUSED,
    &ERR_INPUT_RULES_UNOFFICIAL,
    &REC_INPUT_RULES_UNOFFICIAL,
    &ERR_INPUT_RULES_DOCTORED,
    &REC_INPUT_RULES_DOCTORED,
    &ERR_INPUT_NO_PRODUCER_KEY,
    &REC_INPUT_NO_PRODUCER_KEY,
    &ERR_INPUT_PRODUCER_KEY,
    &REC_INPUT_PRODUCER_KEY,
    &ERR_INPUT_NOT_PINNED,
    &REC_INPUT_NOT_PINNED,
    &ERR_INPUT_KEY_UNPINNED,
    &REC_INPUT_KEY_UNPINNED,
    &ERR_INPUT_EXPORT_REFUSED,
    &ERR_INPUT_WHY_UNSIGNED,
    &REC_INPUT_EXPORT_MALFORMED,
    &REC_INPUT_EXPORT_NOT_FILE,
    &REC_INPUT_EXPORT_UNSIGNED,
    &REC_INPUT_EXPORT_BAD_SIGNATURE,
    &ERR_INPUT_BAD_DATE,
    &REC_INPUT_BAD_DATE,
    &ERR_INPUT_REASON_VOID,
    &ERR_INPUT_REASON_RESTART,
    &ERR_INPUT_REASON_CLOCK,
    &REC_INPUT_REASON,
    &REC_INPUT_BLOCK_ID,
    &ERR_INPUT_ALTERED,
    &ERR_INPUT_DAY_NOT_IN_OPERATION,
    &REC_INPUT_DAY_NOT_IN_OPERATION,
    &ERR_INPUT_SEALED_SET,
    &REC_INPUT_SEALED_SET,
    &ERR_INPUT_NO_TICKET,
    &REC_INPUT_NO_TICKET,
    &ERR_INPUT_BLOCK_SYNTAX,
    &ERR_INPUT_BLOCK_EMISSION,
    &ERR_INPUT_BLOCK_GAME,
    &ERR_INPUT_BLOCK_WRONG_GAME,
    &ERR_INPUT_BLOCK_PRICE,
    &ERR_INPUT_KEY_NOT_PEM,
    &ERR_INPUT_KEY_BASE64,
    &ERR_INPUT_KEY_NOT_ED25519,
    &ERR_INPUT_KEY_POINT,
    &ERR_INPUT_RULES_JSON,
    &ERR_INPUT_RULES_FIELD,
    &ERR_SEAL_NO_BOUNDS,
    &REC_SEAL_NO_BOUNDS,
    &ERR_SEAL_DAY_NOT_ENDED,
    &REC_SEAL_DAY_NOT_ENDED,
    &ERR_SEAL_WHY_NOT_INSTANT,
    &ERR_SEAL_WHY_EARLY,
    &REC_SEAL_EARLY,
    &ERR_SEAL_WHY_FUTURE,
    &REC_SEAL_FUTURE,
    &ERR_SEAL_ALREADY,
    &REC_SEAL_ALREADY,
    &ERR_BEFORE_NEVER_INITIALISED,
    &ERR_BEFORE_KEYS_NO_TRAIL,
    &REC_BEFORE_NOT_INITIALISED,
    &ERR_BEFORE_NO_TRAIL,
    &REC_BEFORE_NO_TRAIL,
    &ERR_BEFORE_BROKEN,
    &ERR_BEFORE_WHY_BLOB,
    &REC_BEFORE_BROKEN,
    &ERR_BEFORE_MALFORMED,
    &REC_BEFORE_MALFORMED,
    &ERR_BEFORE_REPLACED_APPENDED,
    &REC_BEFORE_REPLACED_APPENDED,
    &ERR_BEFORE_CLOCK_BACK,
    &REC_BEFORE_CLOCK_BACK,
    &ERR_BEFORE_CLOCK_RIGHT,
    &ERR_BEFORE_NO_EVENT,
    &REC_BEFORE_CLOCK_RIGHT,
    &ERR_BEFORE_OTHER_TRAIL,
    &ERR_BEFORE_NO_IDENTITY,
    &REC_BEFORE_NOT_TOKENS,
    &ERR_BEFORE_OLDER,
    &ERR_BEFORE_DIVERGED,
    &ERR_BEFORE_CONFLICTING_MARKS,
    &ERR_BEFORE_OFF_HISTORY,
    &ERR_BEFORE_NOT_TOKENS,
    &REC_BEFORE_MARK,
    &REC_AUDIT_BACKUP_EXISTS,
    &ERR_AUDIT_BACKUP_READBACK,
    &REC_AUDIT_BACKUP_READBACK,
    &ERR_AUDIT_KEY,
    &REC_AUDIT_KEY,
    &ERR_AUDIT_VERIFICATION,
    &REC_AUDIT_EXPORT_FILE,
    &REC_AUDIT_PATH,
    &REC_AUDIT_REHEARSAL,
    &REC_AUDIT_EXPORT_ALTERED,
    &REC_AUDIT_KEYS_FOLDER,
    &ERR_AUDIT_FAILS,
    &REC_AUDIT_ALTERED,
    &ERR_AUDIT_BLOB_ALTERED,
    &REC_AUDIT_KEEP,
    &REC_AUDIT_STRICT,
    &ERR_AUDIT_BLOB_MISSING,
    &REC_AUDIT_BLOB_MISSING,
    &ERR_PROOF_USAGE,
    &REC_PROOF_USAGE,
    &ERR_PROOF_ACCOUNT,
    &REC_PROOF_ACCOUNT,
    &ERR_PROOF_NOT_SEALED,
    &REC_PROOF_NOT_SEALED,
    &ERR_PROOF_NO_ENTRY,
    &REC_PROOF_NO_ENTRY,
    &ERR_PROOF_SELF_CHECK,
    &REC_PROOF_SELF_CHECK,
    &ERR_PROOF_COMMITMENT,
    &REC_PROOF_COMMITMENT,
    &ERR_PROOF_COMMITMENT_JSON,
    &ERR_PROOF_OTHER_BLOCK,
    &REC_PROOF_OTHER_BLOCK,
    &ERR_PROOF_MISMATCH,
    &REC_PROOF_MISMATCH,
    &REC_PROOF_EXISTS,
    &ERR_DRAW_CARRIED,
    &REC_DRAW_CARRIED,
    &ERR_DRAW_NOT_SEALED,
    &REC_DRAW_NOT_SEALED,
    &ERR_DRAW_ALREADY,
    &REC_DRAW_ALREADY,
    &ERR_DRAW_RULES,
    &REC_DRAW_RULES,
    &ERR_DRAW_NO_PERIOD,
    &REC_DRAW_NO_PERIOD,
    &ERR_DRAW_DAY_NOT_ENDED,
    &REC_DRAW_DAY_NOT_ENDED,
    &ERR_DRAW_EMPTY,
    &REC_DRAW_EMPTY,
    &ERR_DRAW_RECOMPUTED,
    &REC_DRAW_RECOMPUTED,
    &ERR_DRAW_SEED_REUSED,
    &REC_DRAW_SEED_REUSED,
    &ERR_DRAW_SELF_CHECK,
    &REC_DRAW_SELF_CHECK,
    &ERR_DRAW_MINUTES,
    &REC_DRAW_INVESTIGATE,
    &ERR_DRAW_LEAVES,
    &ERR_DRAW_LEAVES_SIG,
    &ERR_DRAW_PLACED_BUNDLE,
    &REC_DRAW_PLACED_BUNDLE,
    &ERR_DRAW_PLACED_OTHER,
    &REC_DRAW_PLACED_OTHER,
    &ERR_RANDOMNESS_TERMINAL,
    &REC_RANDOMNESS_TERMINAL,
    &ERR_RANDOMNESS_WHY_SEEN,
    &ERR_RANDOMNESS_REFUSED_DAY,
    &ERR_RANDOMNESS_REFUSED_BLOCK,
    &ERR_RANDOMNESS_REFUSED,
    &REC_RANDOMNESS_REFUSED,
    &ERR_RANDOMNESS_EVENT_MISSING,
    &ERR_RANDOMNESS_NOT_BOX,
    &ERR_RANDOMNESS_NOT_COMMITTED,
    &ERR_RANDOMNESS_UNCHECKED,
    &ERR_RANDOMNESS_PURPOSE,
    &ERR_RANDOMNESS_DIFFERS,
    &REC_RANDOMNESS_DIFFERS,
    &ERR_RANDOMNESS_NOT_TYPED_BACK,
    &REC_RANDOMNESS_NOT_TYPED_BACK,
    &ERR_RANDOMNESS_CLOSED,
    &REC_RANDOMNESS_CLOSED,
    &ERR_KEYS_PRODUCER_TERMINAL,
    &REC_KEYS_PRODUCER_TERMINAL,
    &ERR_KEYS_PRODUCER_SAME,
    &REC_KEYS_PRODUCER_SAME,
    &ERR_KEYS_DB_EXISTS,
    &REC_KEYS_DB_EXISTS,
    &ERR_KEYS_INITIALISED,
    &REC_KEYS_INITIALISED,
    &ERR_KEYS_HELD,
    &REC_KEYS_OFFICER,
    &REC_KEYS_OFFICER_SEAL,
    &ERR_KEYS_TWO_UNDER_LABEL,
    &ERR_KEYS_SEAL_WITHOUT_PAIRS,
    &ERR_KEYS_SEAL_CUT,
    &ERR_KEYS_UNCHECKED,
    &REC_KEYS_DEFECT,
    &ERR_KEYS_NOT_BOUND,
    &REC_KEYS_NOT_BOUND,
    &ERR_CTX_NO_EVENT,
    &ERR_CTX_BEGAN_TWICE,
    &ERR_CTX_NOT_BEGUN,
    &ERR_CTX_OUTPUT_UNCHECKED,
    &REC_CTX_HISTORY,
    &ERR_CTX_CHECKPOINT,
    &ERR_TRAIL_DB_EXISTS,
    &REC_TRAIL_DB_EXISTS,
    &ERR_TRAIL_NONE,
    &REC_TRAIL_NONE,
    &ERR_TRAIL_NO_MARK,
    &REC_TRAIL_NO_MARK,
    &ERR_TRAIL_OUTPUT_REFUSED,
    &REC_TRAIL_OUTPUTS,
    &ERR_TRAIL_NOT_OUTPUT,
    &REC_TRAIL_NOT_OUTPUT,
    &ERR_TRAIL_NOT_ONE_HISTORY,
    &REC_TRAIL_NOT_ONE_HISTORY,
    &ERR_TICKET_CHOICE,
    &REC_TICKET_CHOICE,
    &ERR_TICKET_RULES,
    &ERR_TICKET_ROW,
    &ERR_TICKET_REFUSED,
    &REC_TICKET_REFUSED,
    &ERR_TICKET_SEED,
    &REC_TICKET_SEED,
    &ERR_TICKET_GRID,
    &REC_TICKET_GRID,
    &ERR_CLOCK_TERMINAL,
    &REC_CLOCK_TERMINAL,
    &ERR_CLOCK_PAST_WATCH,
    &REC_CLOCK_PAST_WATCH,
    &ERR_WATCH_NO_ANSWER,
    &REC_WATCH_NO_ANSWER,
    &ERR_WATCH_REFUSED,
    &REC_WATCH_REFUSED,
    &ERR_WATCH_FAR_AHEAD,
    &REC_WATCH_FAR_AHEAD,
    &ERR_WATCH_CLOSED,
    &REC_WATCH_CLOSED,
    &ERR_TERM_CLOSED,
    &REC_TERM_CLOSED,
    &ERR_TERM_NO_ANSWER,
    &REC_TERM_NO_ANSWER,
    &ERR_TERM_NOT_CONFIRMED,
    &REC_TERM_NOT_CONFIRMED,
    &ERR_CONFIRM_TERMINAL_VOID,
    &ERR_CONFIRM_TERMINAL_REVEAL,
    &ERR_CONFIRM_TERMINAL,
    &REC_CONFIRM_TERMINAL,
    &ERR_CONFIRM_CLOSED,
    &REC_CONFIRM_CLOSED,
    &ERR_CONFIRM_UNREADABLE,
    &REC_CONFIRM_UNREADABLE,
    &ERR_CONFIRM_NOT_TYPED,
    &REC_CONFIRM_NOT_TYPED,
    &ERR_VOID_SUBJECT_DAY,
    &ERR_VOID_SUBJECT_BLOCK,
    &ERR_VOID_SITTING_UNPUBLISHED,
    &REC_VOID_SITTING_UNPUBLISHED,
    &ERR_VOID_UNANNOUNCED,
    &REC_VOID_UNANNOUNCED,
    &ERR_VOID_NOTICE_CONFLICT,
    &REC_VOID_NOTICE_CONFLICT,
    &ERR_VOID_NOTHING,
    &REC_VOID_NOTHING,
    &ERR_SHOW_USAGE,
    &REC_SHOW_USAGE,
    &ERR_SHOW_DAY_UNKNOWN,
    &REC_SHOW_DAY_UNKNOWN,
    &ERR_SHOW_BLOCK_UNKNOWN,
    &REC_SHOW_BLOCK_UNKNOWN,
    &ERR_SHOW_RULES,
    &ERR_SHOW_LEAF,
    &ERR_PLACING_DRAW,
    &ERR_PLACING_BLOCK,
    &ERR_PLACING_REVEAL,
    &ERR_PLACING_VOID_NOTICE,
    &ERR_PLACING_SITTING,
    &ERR_PLACING_PART,
    &REC_PLACING_PART,
    &ERR_PLACING_ELSEWHERE,
    &REC_PLACING_ELSEWHERE,
    &ERR_PLACING_NOT_SIGNED,
    &REC_PLACING_NOT_SIGNED,
    &ERR_REHEARSAL_AT,
    &REC_REHEARSAL_AT,
    &ERR_REHEARSAL_AT_FILES,
    &REC_REHEARSAL_AT_FILES,
    &ERR_DISPATCH,
    &REC_DEFECT_REPORT,
    &REC_VERIFY_KEYS,
    &ERR_PRODUCER_OTHER,
    &REC_PRODUCER_OTHER,
    &ERR_PRODUCER_IDS,
    &REC_PRODUCER_IDS,
    &ERR_EXPORT_LINE,
    &ERR_EXPORT_IO,
    &ERR_EXPORT_SIGNATURE_LENGTH,
    &ERR_EXPORT_NO_TRUSTED_KEY,
    &ERR_EXPORT_BAD_SIGNATURE,
    &ERR_EXPORT_FILE_CHANGED,
    &ERR_EXPORT_TOO_MANY_LINES,
    &ERR_EXPORT_TOO_LARGE,
    &ERR_EXPORT_NOT_A_FILE,
    &ERR_EXPORT_TOO_MANY_ACCOUNTS,
    &ERR_EXPORT_NOT_UTF8,
    &ERR_EXPORT_CRLF,
    &ERR_EXPORT_CARRIAGE_RETURN,
    &ERR_EXPORT_FINAL_NEWLINE,
    &ERR_EXPORT_LINE_TOO_LONG,
    &ERR_EXPORT_INVALID_JSON,
    &ERR_EXPORT_DUPLICATE_KEY,
    &ERR_EXPORT_MISSING_FIELD,
    &ERR_EXPORT_WRONG_TYPE,
    &ERR_EXPORT_OUT_OF_RANGE,
    &ERR_EXPORT_EMPTY,
    &ERR_EXPORT_MISSING_HEADER,
    &ERR_EXPORT_WRONG_FORMAT,
    &ERR_EXPORT_WRONG_VERSION,
    &ERR_EXPORT_WRONG_OPERATION,
    &ERR_EXPORT_DAY_NOT_IN_OPERATION,
    &ERR_EXPORT_WRONG_PRODUCER,
    &ERR_EXPORT_COUNT_MISMATCH,
    &ERR_EXPORT_UNKNOWN_TYPE,
    &ERR_EXPORT_DUPLICATE_PLAY,
    &ERR_EXPORT_DUPLICATE_PLAY_HASHED,
    &ERR_EXPORT_DUPLICATE_EXCLUSION,
    &ERR_EXPORT_PLAY_NOT_ON_DAY,
];
