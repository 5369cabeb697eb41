//! The failures of the appliance by identity: one [`Kind`] per failure a script or an operator
//! would branch on. Each has a stable id, printed in its `error[<id>]:` line, and the exit code
//! it ends the command with: a property of the kind, never chosen where the error is built. The
//! table of ids is spec/appliance.md §10 (a test reads it back: doc and code cannot drift).

/// Exit codes, documented in README.md. Few on purpose: scripts branch on them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// 0: the command did what it said.
    Success = 0,
    /// 1: a verification ran and found something that does not hold.
    VerificationFailed = 1,
    /// 2: bad input or usage: a malformed, unsigned or wrongly signed file, a bad argument.
    BadInput = 2,
    /// 3: the HSM is unavailable or refused: missing module, missing token, wrong PIN.
    Hsm = 3,
    /// 4: refused by the ceremony's state: keys already exist, a day already drawn, a day not ended.
    Refused = 4,
    /// 5: the appliance's own storage or environment failed (disk, database, executable unreadable).
    Internal = 5,
    /// 6: another urne command holds the trail: nothing was done; run again when it has finished.
    Busy = 6,
    /// 7: an incident: the database is not the token's trail (another trail, an older or truncated
    /// copy, a fork, none at the path), or the trail or the token holds what urne did not write.
    Incident = 7,
    /// 8: `urne audit verify` found the trail consistent with itself only: no audit key or
    /// checkpoint from outside, so a trail rewritten under another key would pass too.
    Unanchored = 8,
    /// 9: `urne verify --release`: every output verified, and one's executable is not the
    /// released `bin/urne` of its source revision (spec/formats.md §8.8).
    NotReleased = 9,
}

/// Declares [`Kind`] from one table: variant, id, exit code, each with its documentation.
macro_rules! kinds {
    ($($(#[doc = $doc:literal])+ $v:ident = $id:literal, $exit:ident;)+) => {
        /// What failed, as scripts and the integration tests tell it apart (spec/appliance.md §10).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Kind {
            $($(#[doc = $doc])+ $v,)+
        }

        impl Kind {
            /// Every kind, in the order of spec/appliance.md §10.
            pub const ALL: &'static [Kind] = &[$(Kind::$v,)+];

            /// The stable id printed in the `error[<id>]:` line (kebab-case).
            pub fn id(self) -> &'static str {
                match self {
                    $(Kind::$v => $id,)+
                }
            }

            /// The exit code a command stopped by this failure ends with (README.md, "Exit codes").
            pub fn exit(self) -> Exit {
                match self {
                    $(Kind::$v => Exit::$exit,)+
                }
            }
        }
    };
}

kinds! {
    // 1: a verification ran and found something that does not hold.
    /// `urne verify`: an output does not verify (the message names the class of spec/formats.md §8.1).
    VerificationFailed = "verification-failed", VerificationFailed;
    /// `urne audit verify`: the trail, or an exported trail, fails at an event or does not verify.
    TrailVerificationFailed = "trail-verification-failed", VerificationFailed;
    /// `urne proof`: the production file does not match the block's commitment.
    CommitmentMismatch = "commitment-mismatch", VerificationFailed;
    /// `urne ticket show`: the ticket, seed or grid does not match what was committed.
    TicketMismatch = "ticket-mismatch", VerificationFailed;
    /// `urne trail restart`: the outputs given are not one history of the replaced trail.
    NotOneHistory = "not-one-history", VerificationFailed;

    // 2: bad input or usage.
    /// Arguments that do not go together, or a value out of its range.
    Usage = "usage", BadInput;
    /// Standard output could not be written: the command's report was not read.
    StdoutClosed = "stdout-closed", BadInput;
    /// A file named to be read is not there.
    NoSuchFile = "no-such-file", BadInput;
    /// A file or folder cannot be reached (missing folder on the way, permissions).
    FileInaccessible = "file-inaccessible", BadInput;
    /// A path that is not a regular file within its limit, or not a file name.
    NotRegularFile = "not-regular-file", BadInput;
    /// A path given as a folder is not one.
    NotAFolder = "not-a-folder", BadInput;
    /// The configuration file cannot be read or is invalid.
    ConfigInvalid = "config-invalid", BadInput;
    /// The PIN file cannot be read.
    PinFileUnreadable = "pin-file-unreadable", BadInput;
    /// A rules file refused by its checks.
    RulesRefused = "rules-refused", BadInput;
    /// A rules file that is not an official regulation of this appliance, or not its official file.
    RulesNotOfficial = "rules-not-official", BadInput;
    /// No producer key is trusted.
    NoProducerKey = "no-producer-key", BadInput;
    /// A producer key file that does not read as a public key.
    ProducerKeyInvalid = "producer-key-invalid", BadInput;
    /// An export whose signature file is missing.
    ExportUnsigned = "export-unsigned", BadInput;
    /// An export whose signature does not verify under a trusted producer key.
    ExportBadSignature = "export-bad-signature", BadInput;
    /// An export that is not a regular file within its limit, or does not follow entry-export-v1.
    ExportMalformed = "export-malformed", BadInput;
    /// An export dated before the end of its day or after the appliance's clock (§4.3).
    ExportBadDates = "export-bad-dates", BadInput;
    /// A day that is not a date `YYYY-MM-DD`.
    BadDate = "bad-date", BadInput;
    /// A date-time that is not RFC 3339 with its offset.
    BadDateTime = "bad-date-time", BadInput;
    /// A day that is not a day of the operation.
    DayNotInOperation = "day-not-in-operation", BadInput;
    /// A reason shorter than its minimum.
    ReasonTooShort = "reason-too-short", BadInput;
    /// A block id that is not canonical, or a block identity refused.
    BadBlockId = "bad-block-id", BadInput;
    /// An account that is not 64 lowercase hex digits.
    BadAccount = "bad-account", BadInput;
    /// An account with no entry on the day.
    NoSuchAccount = "no-such-account", BadInput;
    /// No ticket at the position given.
    NoSuchTicket = "no-such-ticket", BadInput;
    /// A block commitment that does not parse, or is another block's.
    CommitmentInvalid = "commitment-invalid", BadInput;
    /// No public keys given, or a keys folder without readable keys.
    KeysInvalid = "keys-invalid", BadInput;
    /// `urne verify`: an unreadable file or a usage mistake (the library's words).
    VerifyInput = "verify-input", BadInput;
    /// `urne verify`: a path that is not an output, or not one output where one is needed.
    NotAnOutput = "not-an-output", BadInput;
    /// `urne verify --release`: a release manifest refused (missing, unreadable, not signed by a
    /// release key given, malformed, or two of one revision that disagree).
    ReleaseInvalid = "release-invalid", BadInput;
    /// `urne verify --release-key`: a release key that does not read as a public key, or is an
    /// appliance key.
    ReleaseKeyInvalid = "release-key-invalid", BadInput;
    /// `urne trail restart`: outputs that do not verify or are not the replaced trail's.
    NotTrailOutput = "not-trail-output", BadInput;
    /// `--secret-out` beside the public outputs or holding the audit database.
    SecretOutMisplaced = "secret-out-misplaced", BadInput;
    /// No folder for the audit trail at `--db`.
    NoTrailFolder = "no-trail-folder", BadInput;
    /// No audit trail at `--db` for a command that only reads it.
    NoTrail = "no-trail", BadInput;
    /// Standard input is not a terminal where something must be typed.
    NotATerminal = "not-a-terminal", BadInput;
    /// The terminal was closed before the answer was typed.
    TerminalClosed = "terminal-closed", BadInput;
    /// The terminal cannot be read.
    TerminalUnreadable = "terminal-unreadable", BadInput;
    /// What had to be typed back was not, after the tries allowed.
    NotConfirmed = "not-confirmed", BadInput;
    /// No valid answer after the tries allowed.
    NoValidAnswer = "no-valid-answer", BadInput;
    /// What the commissaire typed is not what was given.
    TypedMismatch = "typed-mismatch", BadInput;
    /// A text for the minutes (`--present`, a name) that cannot stand in them.
    MinutesTextInvalid = "minutes-text-invalid", BadInput;
    /// The PIN is given otherwise than at `urne ceremony`'s own prompt.
    PinNotPrompted = "pin-not-prompted", BadInput;
    /// `urne ceremony plan`: nothing is planned for the sitting.
    NothingPlanned = "nothing-planned", BadInput;

    // 3: the HSM is unavailable or refused.
    /// A PKCS#11 call failed.
    HsmUnavailable = "hsm-unavailable", Hsm;
    /// The HSM refused the PIN.
    PinIncorrect = "pin-incorrect", Hsm;
    /// The token's user PIN is locked.
    PinLocked = "pin-locked", Hsm;
    /// No PIN was given, or it cannot be read.
    PinMissing = "pin-missing", Hsm;
    /// The PKCS#11 module is missing, not loadable, not the pinned one, or rewritten while loaded.
    ModuleRefused = "module-refused", Hsm;
    /// No token, or more than one, has the configured label.
    TokenNotFound = "token-not-found", Hsm;
    /// A key (or the sealing key) the command needs is not on the token, or is there twice.
    KeyMissing = "key-missing", Hsm;
    /// A key whose type or attributes are not the ones urne generates it with.
    KeyUnfit = "key-unfit", Hsm;
    /// The token answered what a token keeping its word cannot (signature, sealing, objects).
    HsmMisbehaves = "hsm-misbehaves", Hsm;
    /// The HSM's random bytes failed a health check.
    HsmHealthCheck = "hsm-health-check", Hsm;
    /// The HSM's entropy was refused (recorded, never used): run the command again.
    EntropyRefused = "entropy-refused", Hsm;
    /// A seed already used by an earlier draw.
    SeedReused = "seed-reused", Hsm;
    /// Code other than urne's and its module's could answer for the HSM (docs/threat-model.md).
    UnsafeProcess = "unsafe-process", Hsm;
    /// The token's marks could not be read back after this command's mark.
    MarksNotReadBack = "marks-not-read-back", Hsm;

    // 4: refused by the ceremony's state.
    /// An output folder that already exists and is not empty.
    OutputFolderNotEmpty = "output-folder-not-empty", Refused;
    /// An output file (or a file at `--db`) already exists: urne never overwrites.
    OutputExists = "output-exists", Refused;
    /// A file or folder in place that is not what this output's run placed there.
    OutputConflict = "output-conflict", Refused;
    /// A staging folder that is not urne's user's alone, or no free staging name.
    StagingRefused = "staging-refused", Refused;
    /// A path through a symbolic link.
    SymbolicLink = "symbolic-link", Refused;
    /// The token already holds a key under a label urne would generate (urne never replaces a
    /// key).
    KeysExist = "keys-exist", Refused;
    /// The token is already initialised: its trail is marked (or replaced another); `keys init`
    /// has nothing to do or finish.
    TokenInitialised = "token-initialised", Refused;
    /// A rehearsal's behaviour (a told clock, `keys init --rehearsal`) on an official token, or
    /// an official token's keys where a rehearsal token was to be made (spec/appliance.md §6.10).
    RehearsalOfficialToken = "rehearsal-official-token", Refused;
    /// The token holds a sealing key whose generation did not finish.
    SealKeyCut = "seal-key-cut", Refused;
    /// The token holds no trail and no keys: it was never initialised.
    TokenNotInitialised = "token-not-initialised", Refused;
    /// The key ceremony's sitting is open: its keys are not yet all in place.
    KeySitting = "key-sitting", Refused;
    /// The appliance's key ceremony was already held: its trail exists.
    KeyCeremonyHeld = "key-ceremony-held", Refused;
    /// Production's keys already pinned, or pinned otherwise than given.
    ProducerKeysPinned = "producer-keys-pinned", Refused;
    /// A producer key not among production's keys pinned in the trail (or none pinned).
    ProducerKeyNotPinned = "producer-key-not-pinned", Refused;
    /// The ids typed by the commissaire are not those of the key files given.
    ProducerIdsMismatch = "producer-ids-mismatch", Refused;
    /// The day is already sealed.
    DayAlreadySealed = "day-already-sealed", Refused;
    /// The day is not sealed.
    DayNotSealed = "day-not-sealed", Refused;
    /// The day has already been drawn (a day is drawn once).
    DayAlreadyDrawn = "day-already-drawn", Refused;
    /// The day has not ended yet.
    DayNotEnded = "day-not-ended", Refused;
    /// The day has no entries: nothing to draw.
    DayEmpty = "day-empty", Refused;
    /// Nothing to void.
    NothingToVoid = "nothing-to-void", Refused;
    /// The block was already generated (a block identity is generated once).
    BlockAlreadyGenerated = "block-already-generated", Refused;
    /// The block has not been generated (in this trail).
    BlockNotGenerated = "block-not-generated", Refused;
    /// The sales close given for a block's reveal is later than the appliance's clock: the sales
    /// have not closed yet.
    SalesCloseInFuture = "sales-close-in-future", Refused;
    /// The sales close given for a block's reveal is before the block was generated.
    SalesCloseBeforeGeneration = "sales-close-before-generation", Refused;
    /// Other rules than the ones the output or block was made under.
    RulesDiffer = "rules-differ", Refused;
    /// The contribution typed is not the one the interrupted run kept.
    ContributionDiffers = "contribution-differs", Refused;
    /// The commissaire's watch and the appliance's clock disagree by more than the tolerance.
    ClockDisagrees = "clock-disagrees", Refused;
    /// A correction that would go back past a witnessed time, or a clock with nothing to correct.
    ClockCorrectionRefused = "clock-correction-refused", Refused;
    /// `urne trail restart` with nothing to restart.
    NothingToRestart = "nothing-to-restart", Refused;
    /// A sitting's minutes, or a void's notice, not published.
    NotPublished = "not-published", Refused;

    // 5: the appliance's own storage or environment failed.
    /// Reading or writing a file failed.
    IoFailed = "io-failed", Internal;
    /// The operating system did not give what urne runs on (/proc, the random source, a lock).
    SystemFailed = "system-failed", Internal;
    /// The output medium cannot move a file without overwriting.
    NoSafeRename = "no-safe-rename", Internal;
    /// The audit database failed (SQLite, disk, a backup that does not read back).
    StoreFailed = "store-failed", Internal;
    /// The appliance's clock is earlier than the trail's last event, or went back while the
    /// command ran.
    ClockWentBack = "clock-went-back", Internal;
    /// What the trail recorded does not read back (rules, minutes, sealed set, a stopped run's bundle).
    RecordUnreadable = "record-unreadable", Internal;
    /// A self-check of what urne just computed or wrote failed.
    SelfCheckFailed = "self-check-failed", Internal;
    /// A fresh reader of the token's marks failed in an unexpected way.
    FreshReadFailed = "fresh-read-failed", Internal;
    /// A defect in urne.
    Defect = "defect", Internal;

    // 6: another urne command holds the trail.
    /// Another urne command (or a process that is not urne) holds the trail's lock.
    Busy = "busy", Busy;

    // 7: an incident.
    /// No audit trail at `--db` where the token has one.
    TrailMissing = "trail-missing", Incident;
    /// The database is another trail than the token's.
    TrailNotTokens = "trail-not-tokens", Incident;
    /// The database is an older copy, or truncated: fewer events than the token's last mark.
    TrailOlder = "trail-older", Incident;
    /// Two histories of one trail (a fork).
    TrailFork = "trail-fork", Incident;
    /// The trail is broken: a chain, a checkpoint, an event or a blob that does not hold, or a
    /// database not as urne makes it.
    TrailBroken = "trail-broken", Incident;
    /// The trail was deleted, replaced, grown or changed by someone else while the command ran.
    TrailChanged = "trail-changed", Incident;
    /// The token holds what urne did not write.
    TokenTampered = "token-tampered", Incident;
    /// A secret sealed by the token does not open under its sealing key.
    SealBroken = "seal-broken", Incident;

    // 9: the software is not released.
    /// `urne verify --release`: an output's executable is not the released `bin/urne` of its
    /// source revision (built another way, or not released).
    SoftwareNotReleased = "software-not-released", NotReleased;
}

impl Kind {
    /// The kind whose id is `id`, if any (how a child urne process's failure comes back).
    pub fn from_id(id: &str) -> Option<Kind> {
        Kind::ALL.iter().copied().find(|k| k.id() == id)
    }

    /// A failure at the terminal itself: a sitting cannot go on asking there.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            Kind::NotATerminal | Kind::TerminalClosed | Kind::TerminalUnreadable
        )
    }
}

#[cfg(test)]
mod tests {
    use super::{Exit, Kind};

    /// The rows `| `id` | exit | meaning |` of spec/appliance.md §10, in order.
    fn spec_table() -> Vec<(String, i32)> {
        let spec = include_str!("../../spec/appliance.md");
        let section = spec
            .split("\n## 10. Errors")
            .nth(1)
            .map_or("", |s| s.split("\n## ").next().unwrap_or(""));
        section
            .lines()
            .filter_map(|l| {
                let cells: Vec<&str> = l.split('|').map(str::trim).collect();
                let id = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
                Some((id.to_string(), cells.get(2)?.parse().ok()?))
            })
            .collect()
    }

    /// Every id is kebab-case (lowercase words joined by single hyphens) and names one kind.
    #[test]
    fn ids_are_unique_and_kebab_case() {
        let mut seen = std::collections::BTreeSet::new();
        for k in Kind::ALL {
            let id = k.id();
            assert!(
                id.split('-')
                    .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase())),
                "{id} is not kebab-case"
            );
            assert!(seen.insert(id), "{id} names two kinds");
            assert_eq!(Kind::from_id(id), Some(*k));
        }
        assert_eq!(Kind::from_id("no-such-kind"), None);
    }

    /// Each kind's exit code is the one spec/appliance.md §10 documents, and the table lists
    /// every kind, in order, and nothing else: the doc and the code cannot drift.
    #[test]
    fn exit_codes_are_the_documented_ones() {
        let table = spec_table();
        let code: Vec<(String, i32)> = Kind::ALL
            .iter()
            .map(|k| (k.id().to_string(), k.exit() as i32))
            .collect();
        assert_eq!(table, code);
        // Never success, and never exit 8 (that one is a verdict, not an error).
        for k in Kind::ALL {
            assert!(
                !matches!(k.exit(), Exit::Success | Exit::Unanchored),
                "{k:?}"
            );
        }
    }
}
