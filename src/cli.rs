//! The command line (clap derive). Flags become a validated configuration in `cmd` before any
//! work starts; each subcommand's help reads like a page of the manual.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

const AFTER_HELP: &str = "\
Exit codes:
  0  success
  1  verification failed (urne verify, urne audit verify)
  2  bad input or usage: malformed, unsigned or wrongly signed file, bad argument
  3  HSM unavailable or refused: missing module, missing token, wrong PIN
  4  refused by the ceremony's state, no incident: already done (keys exist, day already
     drawn, an output already there) or not yet possible (day not ended, not sealed)
  5  the appliance's own storage or environment failed (disk, database, the clock set back)
  6  another urne command holds the trail: nothing was done; run again when it has finished
  7  an incident: the database is not the token's trail (missing, another trail, an older or
     truncated copy, a fork), or the trail or the token holds what urne did not write (a broken
     chain or checkpoint, an unknown or impossible record, a missing or altered blob, a trigger,
     a token object urne did not create, a trail changed while the command ran): nothing is
     recorded; keep the database and the token as evidence
  8  urne audit verify / urne verify of an audit export without an audit key or a checkpoint
     from outside: the trail is consistent with itself only (first line UNANCHORED)

Only `urne keys init` creates an audit trail; every other command logs in, checks the trail
against the token, and refuses (recording nothing) before it acts.

The user PIN comes from URNE_PIN, --pin-file, or a prompt; never from the command line.
See README.md for a walk through a ceremony and SPEC.md for the algorithms.";

/// urne: the draw appliance. Verifiable daily draws and instant-game block shuffles, with keys
/// in an HSM and every step in a hash-chained audit trail.
#[derive(Debug, Parser)]
#[command(name = "urne", version, after_help = AFTER_HELP, max_term_width = 100)]
pub struct Cli {
    /// The options every command understands (--db, --config, --pin-file, --rehearsal-at).
    #[command(flatten)]
    pub global: Global,
    /// The command to run, with its own arguments.
    #[command(subcommand)]
    pub command: Command,
}

/// Options every command understands.
#[derive(Debug, Args)]
pub struct Global {
    /// The audit-trail database (SQLite). Created only by `urne keys init` and by the witnessed
    /// `urne trail restart`; every other command refuses a missing one.
    #[arg(long, global = true, env = "URNE_DB", default_value = "urne-audit.db")]
    pub db: PathBuf,
    /// urne's configuration (HSM module, token and key labels, production's key files).
    /// Default: hsm-config/urne.json when present, else built-in defaults.
    #[arg(long, global = true, env = "URNE_CONFIG")]
    pub config: Option<PathBuf>,
    #[expect(
        clippy::doc_markdown,
        reason = "the doc comment is the help text clap prints: a name in backticks would print its backticks"
    )]
    /// A file whose first line is the HSM user PIN (else URNE_PIN, else a prompt).
    #[arg(long, global = true, value_name = "FILE")]
    pub pin_file: Option<PathBuf>,
    /// A rehearsal (spec/appliance.md §6.10): the date and time at which it is held, with its
    /// offset (e.g. 2018-12-11T10:00+01:00). The clock reads it when the command starts and
    /// advances from it with the real time. Only a rehearsal token takes it (its keys say so);
    /// an official token refuses it, and everything a rehearsal makes is marked "RÉPÉTITION —
    /// SANS VALEUR".
    #[arg(long, global = true, value_name = "TIME")]
    pub rehearsal_at: Option<String>,
}

/// The commands of `urne`, one per variant.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Inspect the HSM: module, token, mechanisms urne needs, keys present.
    #[command(subcommand)]
    Hsm(HsmCommand),
    /// Generate urne's keys inside the HSM, or export their public halves.
    #[command(subcommand)]
    Keys(KeysCommand),
    /// Check, show or export the audit trail.
    #[command(subcommand)]
    Audit(AuditCommand),
    /// A lost or unusable trail: the witnessed restart.
    #[command(subcommand)]
    Trail(TrailCommand),
    /// A clock that was set ahead and dated events: the witnessed correction.
    #[command(subcommand)]
    Clock(ClockCommand),
    /// Daily draw, step 1: verify, tally and commit to a day's signed export.
    ///
    /// Verifies production's signed export under the keys the trail pins (before parsing it),
    /// applies the rules (D-3 … D-6, D-13), freezes the day's entries and commits to them (a
    /// Merkle root).
    /// Prints the figures and hashes the commissaire writes down. A refused file is recorded
    /// (with its hash) and nothing of it is kept.
    Seal {
        /// The operation's rules file (e.g. rules/chanceux-noel-2018.json).
        #[arg(long, value_name = "FILE")]
        rules: PathBuf,
        /// Rules that are not an official regulation (an id the appliance does not pin, such as a
        /// reduced test game) are refused unless this option says so; every output made under
        /// them then says so in a signed member and in its minutes ("règlement non officiel").
        #[arg(long = "unofficial-rules")]
        unofficial_rules: bool,
        /// The day's export (entry-export-v1), with FILE.jsonl.sig beside it.
        #[arg(long, value_name = "FILE.jsonl")]
        entries: PathBuf,
        /// Production's public key (PEM; repeatable): each must be one the trail pins (`urne
        /// keys producer`). Default: the keys the trail pins, the only ones a seal trusts.
        #[arg(long = "producer-key", value_name = "PEM")]
        producer_keys: Vec<PathBuf>,
    },
    /// Daily draw, step 2: draw a sealed day's winner and reserves, once.
    ///
    /// For a sealed day that has ended (Paris time), asks the HSM for entropy once and records
    /// it with its commitment, shows the commitment for the commissaire to copy, then takes the
    /// commissaire's contribution at the terminal (shown back, confirmed, recorded), then draws
    /// the winner and the ordered reserves (each entry has the same chance) and writes signed
    /// result.json, bundle.json and pv.html into --out. A day is drawn once: a second draw is
    /// refused (exit 4). A draw interrupted after its entropy or its contribution was recorded
    /// is completed by running it again, with exactly those values: no new entropy is asked.
    Draw {
        /// The day to draw (YYYY-MM-DD, Europe/Paris).
        #[arg(long, value_name = "YYYY-MM-DD")]
        day: String,
        /// Folder for the signed outputs (created; existing files are never overwritten).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// Record a witnessed annulment of a day's current attempt.
    ///
    /// Voids the day's current attempt (sealed or drawn). A later seal
    /// and draw of that day carry the next attempt number and name the voided attempt.
    /// The void is announced by a signed void notice, void-notice.json (an output of its own,
    /// which the next output names as its predecessor); its path and SHA-256 are printed for
    /// the minutes. If a void was recorded but its notice was not (an interrupted run), running
    /// the command again writes the notice, or records the one left in place, and voids nothing
    /// else; until then every other command that acts on a day or block is refused (exit 4).
    /// Before anything is recorded, it shows what it is about to void and asks for the day typed
    /// back at the terminal (three tries; standard input must be a terminal).
    Void {
        /// The day whose current attempt is voided (YYYY-MM-DD, Europe/Paris).
        #[arg(long, value_name = "YYYY-MM-DD")]
        day: String,
        /// Why, in words the commissaire signs (at least 10 characters).
        #[arg(long, value_name = "TEXT")]
        reason: String,
        /// Folder for the signed void notice (created; an existing void-notice.json is never
        /// overwritten). Default: a new folder void-<day>-attempt-<n> in the working directory.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Write a signed inclusion proof (an account in a day, or a ticket in a block), or every
    /// account's proof of a day in one file.
    ///
    /// Proves that an account's entries are in a day's sealed set
    /// (--day, --account: for production to give a player who asks; reveals only that account's
    /// salt and pseudonym), or that a ticket's outcome is in a block's commitment (--block,
    /// --position, --dir). --day D --all writes every account's proof, one JSON line each
    /// (unsigned: each leads to the published signed result): a file for production only,
    /// which maps every account to its salt; never onto the publications medium.
    Proof {
        /// The sealed day the account's entries are in (YYYY-MM-DD), with --account or --all.
        #[arg(long, value_name = "YYYY-MM-DD", conflicts_with = "block")]
        day: Option<String>,
        /// The pseudonymous account id (64 hex digits).
        #[arg(long, value_name = "HEX", requires = "day", conflicts_with = "all")]
        account: Option<String>,
        /// Every account of the day, one proof a line (JSON Lines), for production only.
        #[arg(long, requires = "day")]
        all: bool,
        /// A block's canonical id (game/price/emission/number).
        #[arg(long, value_name = "ID", requires = "position")]
        block: Option<String>,
        /// The ticket's 0-based position in the block.
        #[arg(long, value_name = "P", requires = "block")]
        position: Option<u32>,
        /// Folder holding the block's commitment and production file.
        #[arg(long, value_name = "DIR", default_value = ".")]
        dir: PathBuf,
        /// Output file (its signature is written beside it as FILE.sig).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    #[expect(
        clippy::doc_markdown,
        reason = "the doc comment is the help text clap prints: a name in backticks would print its backticks"
    )]
    /// A sitting in front of the commissaire de justice, with its signed minutes (spec/appliance.md §9).
    ///
    /// One guided process, one login: the PIN first, typed at urne's prompt (URNE_PIN and
    /// --pin-file are refused here), then the sitting opened (place, the commissaire's name and
    /// office, the persons present and their roles: given with the options below or typed, shown
    /// and confirmed; then the date and time at the commissaire's watch, which the appliance's
    /// clock must match within 5 minutes), then the planned work in order, one confirmation per
    /// irreversible step: the days the rules schedule for today (D-8: the periods whose draw
    /// date is today in Paris), or those given with --day, each sealed first from --exports when
    /// it is not yet; then an emission's blocks (--game-rules …); then the reveals (--reveal,
    /// the sales close typed by the commissaire from production's statement). Then a menu: voids
    /// of days or blocks and redraws decided at the sitting, and the close: the signed minutes of
    /// the whole sitting, `sitting-NNN/minutes.html`, with `sitting.json` listing every output of
    /// the sitting, and the SHA-256 values and the checkpoint to copy. Every step is recorded in
    /// the trail as it happens: a sitting interrupted by a crash is finished by running `urne
    /// ceremony` again (the commissaire confirms those present), and its minutes say so.
    Ceremony(Box<CeremonyArgs>),
    /// Instant-game blocks: generate, reveal, void.
    #[command(subcommand)]
    Block(BlockCommand),
    /// Tickets of a block.
    #[command(subcommand)]
    Ticket(TicketCommand),
    /// Verify published outputs (draws, blocks, proofs, audit exports) against the public keys
    /// given, without the HSM or any private key.
    ///
    /// Checks every signature against the keys of --keys DIR (required, exit 2 without: keys
    /// shipped with the outputs show only that the files agree with each other), then
    /// recomputes the commitment, the seed and the winner and reserves (or the block), and
    /// compares every figure. PATH is an output folder, a folder of output folders (a whole
    /// operation's publications, verified output by output and then as one linear history of
    /// the trail: a fork fails), a proof file, or an exported audit trail (a FILE.jsonl of
    /// `urne audit export`, checked under the audit key of --keys), or production's lone
    /// result.json or a lone block commitment. The first line names what was verified, and the
    /// rules that are not an official regulation when any output was made under such rules
    /// (`VERIFIED (règlement non officiel / unofficial rules: ID): …`); an official rules id
    /// with other bytes than the pinned ones fails; the last line gives the ids of the keys
    /// used, to compare with the key ceremony's minutes. Exit 0 when all holds (`partial:`
    /// lines name what could not be checked from the files given), 1 naming the first thing
    /// that does not (with its class, `fork` included), 2 for a usage mistake or an unreadable
    /// file. It writes nothing and can never produce a result; the `urne-verify` binary
    /// verifies the same way.
    Verify {
        /// What to verify and against which keys: the `urne-verify` binary's arguments, one
        /// definition for both.
        #[command(flatten)]
        args: urne_verify_cli::Args,
        /// Not used: verifying needs no PIN. Hidden from this help (it is a global option of
        /// the commands that log in); accepted and ignored.
        #[arg(long = "pin-file", value_name = "FILE", hide = true)]
        pin_file: Option<PathBuf>,
    },
    /// What the trail records: the operation's days and blocks, and the sitting.
    ///
    /// Lists every day the trail names (its current attempt, sealed, drawn, voided attempts,
    /// late by D-8) and every block (generated, revealed, voided), and whether a sitting is
    /// open (spec/appliance.md §9.1). With --rules, instead of the days and blocks, a summary by
    /// period that fits one screen: the operation's days not yet sealed or not yet drawn, and
    /// whether each period is due by its draw date (D-8). Appends nothing, but needs the PIN: like
    /// `urne audit backup` it logs in and checks the trail against the token's last mark before
    /// reading it, so that what it shows is the token's trail and not an older or altered copy.
    Status {
        /// The operation's rules file (e.g. rules/chanceux-noel-2018.json): a summary by period
        /// of the days not yet sealed or drawn, and which are due.
        #[arg(long, value_name = "FILE")]
        rules: Option<PathBuf>,
        /// Rules that are not an official regulation (an id the appliance does not pin, such as a
        /// reduced test game) are refused unless this option says so; every output made under
        /// them then says so in a signed member and in its minutes ("règlement non officiel").
        #[arg(long = "unofficial-rules", requires = "rules")]
        unofficial_rules: bool,
        /// The screen's language: fr (the default) or en (the default when LANG starts with
        /// en).
        #[arg(long, value_enum, value_name = "LANG")]
        lang: Option<crate::text::Lang>,
    },
    /// Show a day's result or a block's commitment again, as at the ceremony.
    ///
    /// Read from the trail (appends nothing; needs the PIN, as `urne status`): for --day, the
    /// day, its attempt, the figures of its seal, the commitment, the entropy commitment and
    /// the contribution with the audit events that fixed them, the seed, the winner and the
    /// reserves by pseudonym (as the public minutes show them: never an account), and the
    /// SHA-256 of every output file; for --block, its commitment (outcomes root, seed
    /// commitment), the contribution, the files' SHA-256, and after the reveal its entropy and
    /// seed. Hashes are in groups of four digits, labelled as in the minutes (pv.html).
    Show {
        /// The day to show (YYYY-MM-DD).
        #[arg(
            long,
            value_name = "YYYY-MM-DD",
            conflicts_with = "block",
            required_unless_present = "block"
        )]
        day: Option<String>,
        #[expect(
            clippy::doc_markdown,
            reason = "the doc comment is the help text clap prints: a name in backticks would print its backticks"
        )]
        /// The block to show (canonical id game/price_cents/emission/number).
        #[arg(long, value_name = "ID")]
        block: Option<String>,
        /// The output's published folder: each file the trail records is checked there
        /// against its recorded SHA-256 (present, identical, different or missing).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// The screen's language: fr (the default) or en (the default when LANG starts with
        /// en).
        #[arg(long, value_enum, value_name = "LANG")]
        lang: Option<crate::text::Lang>,
    },
}

/// The subcommands of `urne hsm`.
#[derive(Debug, Subcommand)]
pub enum HsmCommand {
    /// Show the module, the token, the mechanisms urne needs and urne's keys.
    ///
    /// Shows the module and token identity, whether the token has the mechanisms urne needs
    /// (random numbers, Ed25519 key generation, EdDSA signing), and urne's keys with the
    /// attributes that prove they were generated in the token and cannot leave it.
    Info,
}

/// The subcommands of `urne trail`.
#[derive(Debug, Subcommand)]
pub enum TrailCommand {
    /// Start a new trail in place of a lost one, in front of the commissaire (spec/appliance.md §6.8).
    ///
    /// For a trail that cannot be put back (no backup whose head is the token's last mark).
    /// Logs in, writes a new trail identity into the token naming the one it replaces, and
    /// creates a new database at --db (which must not exist) whose first event names the old
    /// trail and the token's last mark of it, the reason, and every day and block the
    /// published outputs given with --outputs show drawn, generated, revealed or voided: those
    /// are never drawn or generated again without a void. Every later output names the
    /// restart. Blocks generated under the old trail cannot be revealed from the new one (their
    /// secret entropy stayed in it): they can only be voided.
    Restart {
        /// Why, in words the commissaire will sign (at least 10 characters).
        #[arg(long, value_name = "TEXT")]
        reason: String,
        /// The outputs published under the old trail (a folder of output folders, or one).
        #[arg(long, value_name = "DIR")]
        outputs: Option<PathBuf>,
    },
}

/// The subcommands of `urne clock`.
#[derive(Debug, Subcommand)]
pub enum ClockCommand {
    /// Record, at the console, that a clock set ahead dated the trail's last events (spec/appliance.md §6.6).
    ///
    /// For a clock set right after it dated events ahead: every command refuses it as set back
    /// until this is recorded. Shows the trail's last time and the clock's, asks for the date
    /// and time at the commissaire's watch (the clock must agree within 5 minutes), then records
    /// `clock.corrected` with the wrong and the confirmed time: an incident of the next minutes.
    Correct {
        /// Why the clock was wrong, in words the commissaire will sign (at least 10 characters).
        #[arg(long, value_name = "TEXT")]
        reason: String,
    },
}

/// The subcommands of `urne keys`.
#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Generate urne's two Ed25519 key pairs inside the token.
    ///
    /// One signs results, one signs
    /// audit checkpoints. The private keys are sensitive and never extractable; their
    /// attributes are read back and recorded in the audit trail, which this command creates and
    /// binds to the token (the only command that creates one). Refuses an initialised token or an
    /// existing file at --db (exit 4); an interrupted run is finished by running it again.
    Init {
        /// Initialise a rehearsal token (spec/appliance.md §6.10): its keys bear the rehearsal
        /// labels (urne-rehearsal-result, urne-rehearsal-audit), every checkpoint of its trail
        /// says so, and no verifier takes its outputs for official results. Given a told clock
        /// (--rehearsal-at), the token is initialised as one anyway.
        #[arg(long)]
        rehearsal: bool,
    },
    #[expect(
        clippy::doc_markdown,
        reason = "the doc comment is the help text clap prints: a name in backticks would print its backticks"
    )]
    /// Export both public keys as PEM files, with their key ids.
    ///
    /// Writes both public keys as PEM (SubjectPublicKeyInfo) files, `result.pub.pem` and
    /// `audit.pub.pem`, with `keys.json` giving their key ids, into DIR. With them anyone can
    /// check urne's signatures. `keys.json.sig` is its signature by the result key:
    /// `openssl pkeyutl -verify -pubin -inkey result.pub.pem -rawin
    /// -in FILE -sigfile FILE.sig`.
    Export {
        /// Folder to write into (created if missing; existing files are not overwritten).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// Pin production's public keys: the only keys a seal trusts.
    ///
    /// At the console: the ids of production's keys are typed from its written statement (one
    /// a line, then an empty line; they are not shown first), and only when they are the ids
    /// of the key files given (or of the configuration's `producer_keys`) are those keys
    /// recorded in the audit trail as the set a seal trusts from now on, replacing the set
    /// pinned before. A key file alone is never trusted. Every change is in the trail and an
    /// incident in the next sitting's minutes. The key ceremony pins the first set.
    Producer {
        /// Production's public key (PEM; repeatable). Default: the configuration's.
        #[arg(long = "producer-key", value_name = "PEM")]
        producer_keys: Vec<PathBuf>,
    },
}

/// The subcommands of `urne audit`.
#[derive(Debug, Subcommand)]
pub enum AuditCommand {
    /// Check the hash chain and every signed checkpoint; name the first event that fails.
    ///
    /// Recomputes the whole hash chain and checks every stored checkpoint's signature and root.
    /// Detects edited, deleted, inserted and reordered events; with --checkpoint, also a trail
    /// truncated back past a checkpoint you hold (e.g. one shipped with a result). Checks the
    /// database (--db), or with --file an exported trail (`urne audit export`), reporting the
    /// failure's class (inconsistent, bad-signature, malformed).
    ///
    /// It needs an anchor from outside the trail: the audit key exported at the key ceremony
    /// (--audit-key keys/audit.pub.pem, or --keys keys/ holding it) or a checkpoint held
    /// outside (--checkpoint, e.g. the one copied into the minutes). Without one, the trail can
    /// only be checked against the audit key it records itself, which a trail rewritten end to
    /// end under another key, or cut short, passes too: the first line says so
    /// ("UNANCHORED: …") and the exit is 8, never 0.
    ///
    /// Exit 0 when intact against an anchor; 1 naming the first sequence number that fails; 2
    /// for a usage mistake or an unreadable file; 8 when consistent with itself only.
    Verify {
        /// Verify this exported trail (JSON Lines of `urne audit export`) instead of the
        /// database; needs no database.
        #[arg(long, value_name = "FILE.jsonl")]
        file: Option<PathBuf>,
        /// A signed checkpoint held outside the appliance (repeatable).
        #[arg(long, value_name = "FILE")]
        checkpoint: Vec<PathBuf>,
        /// The audit public key (PEM, from `urne keys export`) to check signatures with; the
        /// trail must record this key.
        #[arg(long, value_name = "PEM", conflicts_with = "keys")]
        audit_key: Option<PathBuf>,
        /// The folder `urne keys export` wrote, obtained independently: its audit.pub.pem is
        /// the audit key (as --audit-key).
        #[arg(long, value_name = "DIR")]
        keys: Option<PathBuf>,
        /// Also fail when the last events are not yet covered by a signed checkpoint.
        #[arg(long)]
        strict: bool,
    },
    /// Print the events in human-readable form.
    Show {
        /// Show only the last N events.
        #[arg(long, value_name = "N")]
        last: Option<usize>,
    },
    /// Write the trail as JSON Lines for auditors.
    ///
    /// One event per line, then the signed checkpoints,
    /// for auditors.
    Export {
        /// Output file (must not exist).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// Copy the trail, as the token last marked it, to a file that can be put back.
    ///
    /// Logs in, checks the trail against the token as every command does, and writes a copy
    /// whose head is the token's last mark: put back at --db, it is accepted as long as no
    /// command has appended since (spec/appliance.md §6.6). Appends nothing. Run it after every command
    /// that appends, or at least at the end of each sitting, onto separate media.
    Backup {
        /// The copy to write (must not exist).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
}

/// The subcommands of `urne block`.
#[derive(Debug, Subcommand)]
pub enum BlockCommand {
    /// Generate instant-game blocks: shuffle, grids, signed commitment and production file.
    ///
    /// For each block: fresh HSM entropy (recorded sealed before use), an exact Fisher-Yates
    /// shuffle of the block's outcomes with exactly the G-3 prize counts, the grid of every
    /// ticket, and, signed, the public commitment `<id>.commit.json` (in --out) and the SECRET
    /// production file `<id>.tickets.csv` (on --secret-out only). A block identity is generated
    /// once (exit 4 otherwise, unless voided). Both folders are checked before any entropy is
    /// asked for. The seed stays in the appliance until `urne block reveal`.
    Generate {
        /// The game's rules file (rules/noel-de-la-chance-2015.json).
        #[arg(long, value_name = "FILE")]
        rules: PathBuf,
        /// Rules that are not an official regulation (an id the appliance does not pin, such as a
        /// reduced test game) are refused unless this option says so; every output made under
        /// them then says so in a signed member and in its minutes ("règlement non officiel").
        #[arg(long = "unofficial-rules")]
        unofficial_rules: bool,
        /// Price point in cents (G-2: 50, 100 or 200).
        #[arg(long, value_name = "CENTS")]
        price: u64,
        /// Emission id (1-32 of a-z 0-9 -).
        #[arg(long, value_name = "ID")]
        emission: String,
        /// Number of the first block (blocks are numbered within an emission and price).
        #[arg(long, value_name = "N", default_value_t = 1)]
        first: u32,
        /// How many blocks to generate.
        #[arg(long, value_name = "N", default_value_t = 1)]
        blocks: u32,
        /// Public output folder: the signed commitments and rules.json (created; existing
        /// files are never overwritten).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Folder on the separate secret medium (a removable medium mounted apart, handed to
        /// production, no copy kept on the appliance) that alone receives the signed production
        /// files <id>.tickets.csv (mode 0600). Must not be --out, be inside it or contain it,
        /// nor hold the audit database.
        #[arg(long = "secret-out", value_name = "SECRET_DIR")]
        secret_out: PathBuf,
    },
    /// Publish a closed block's entropy and seed, so anyone can recompute it.
    ///
    /// After the block has closed: publishes its entropy and seed (signed, recorded), so that anyone
    /// can recompute the whole block and check it against the commitment. Shows the block and
    /// its sales close, and asks for the block id typed back at the terminal first.
    Reveal {
        /// The block's canonical id (game/price/emission/number).
        #[arg(long, value_name = "ID")]
        block: String,
        /// When the block's sales closed, as production states it: RFC 3339 with its offset,
        /// e.g. 2015-12-31T23:59:59+01:00. Refused when later than the appliance's clock or
        /// earlier than the block's generation; recorded, and stated in the reveal.
        #[arg(long = "sales-closed-at", value_name = "T")]
        sales_closed_at: String,
        /// The block's public folder (where `urne block generate --out` wrote its commitment):
        /// the signed reveal file is written there.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// Record a witnessed annulment of a block, so that its identity may be generated again.
    ///
    /// Voids the block's current attempt and announces it by a signed void notice,
    /// void-notice.json (an output of its own, which the next output names as its
    /// predecessor); its path and SHA-256 are printed for the minutes. An interrupted void is
    /// completed by running the command again, as for `urne void`. Before anything is recorded,
    /// it shows what it is about to void and asks for the block id typed back at the terminal.
    Void {
        /// The block's canonical id (game/price/emission/number).
        #[arg(long, value_name = "ID")]
        block: String,
        /// Why, in words the witness signs (at least 10 characters).
        #[arg(long, value_name = "TEXT")]
        reason: String,
        /// Folder for the signed void notice (created; an existing void-notice.json is never
        /// overwritten). Default: a new folder void-<block stem>-attempt-<n> in the working
        /// directory, the stem being the canonical id with every / replaced by _.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
}

/// The subcommands of `urne ticket`.
#[derive(Debug, Subcommand)]
pub enum TicketCommand {
    /// Print a ticket's grid for one choice, its offered symbols and its prize.
    ///
    /// Prints a ticket's 3x6 grid for one choice, the offered symbols, the count of the chosen
    /// symbol and the prize, from the block's signed files (and, after the reveal, recomputed
    /// from the seed): what a player or the regulator uses in a dispute (G-5, G-6, G-7).
    Show {
        /// The block's canonical id (game/price/emission/number).
        #[arg(long, value_name = "ID")]
        block: String,
        /// The ticket's 0-based position in the block.
        #[arg(long, value_name = "P")]
        position: u32,
        /// Which offered symbol the player picked: 1, 2 or 3.
        #[arg(long, value_name = "C")]
        choice: u8,
        /// Folder holding the block's files.
        #[arg(long, value_name = "DIR", default_value = ".")]
        dir: PathBuf,
        /// Folder with result.pub.pem and audit.pub.pem (default: those in --dir).
        #[arg(long, value_name = "DIR")]
        keys: Option<PathBuf>,
        /// The screen's language: fr (the default) or en (the default when LANG starts with
        /// en).
        #[arg(long, value_enum, value_name = "LANG")]
        lang: Option<crate::text::Lang>,
    },
}

/// The options of `urne ceremony`.
#[derive(Debug, Args)]
pub struct CeremonyArgs {
    /// The publications folder (created): each output in its own folder under it (draw-DAY,
    /// blocks, void-…, sitting-NNN).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// The language of the screens and the minutes: fr (default) or en (also when LANG starts
    /// with en).
    #[arg(long, value_enum)]
    pub lang: Option<crate::text::Lang>,
    /// The place of the sitting, as the minutes state it (else asked).
    #[arg(long, value_name = "TEXT")]
    pub place: Option<String>,
    /// The town the minutes are made in, "Fait à <town>" (else asked with the place).
    #[arg(long, value_name = "TOWN")]
    pub town: Option<String>,
    /// The commissaire de justice's name (else asked).
    #[arg(long, value_name = "NAME")]
    pub commissaire: Option<String>,
    /// The commissaire de justice's office (étude) (else asked).
    #[arg(long, value_name = "TEXT")]
    pub office: Option<String>,
    /// Another person present, `Name, role` (repeatable).
    #[arg(long, value_name = "NAME, ROLE")]
    pub present: Vec<String>,
    /// The key ceremony instead: `urne keys init` (the keys generated in the token, the trail
    /// created), the public keys exported into keys/ under --out, and the key ceremony's
    /// minutes.
    #[arg(long = "key-ceremony", conflicts_with_all = ["rules", "days", "game_rules"])]
    pub key_ceremony: bool,
    /// The operation's rules file, for draws (rules/chanceux-noel-2018.json).
    #[arg(long, value_name = "FILE")]
    pub rules: Option<PathBuf>,
    /// The folder holding production's signed exports, entries-<operation>-<day>.jsonl with
    /// their .sig: a day not yet sealed is sealed from it.
    #[arg(long, value_name = "DIR")]
    pub exports: Option<PathBuf>,
    /// Production's public key (PEM; repeatable): pinned at the key ceremony when the trail
    /// pins none; at a seal, each must be pinned. Default: the keys the trail pins.
    #[arg(long = "producer-key", value_name = "PEM")]
    pub producer_keys: Vec<PathBuf>,
    /// A day to draw (YYYY-MM-DD; repeatable). Default: the days whose draw date is today.
    #[arg(long = "day", value_name = "YYYY-MM-DD")]
    pub days: Vec<String>,
    /// The game's rules file, to generate an emission's blocks
    /// (rules/noel-de-la-chance-2015.json).
    #[arg(long = "game-rules", value_name = "FILE", requires_all = ["price", "emission", "secret_out"])]
    pub game_rules: Option<PathBuf>,
    /// Rules (--rules, --game-rules) that are not an official regulation (a reduced test game)
    /// are refused unless this option says so; at the sitting the commissaire then types the
    /// rules' id back, and every output, the screens and the minutes say "règlement non
    /// officiel".
    #[arg(long = "unofficial-rules")]
    pub unofficial_rules: bool,
    /// The blocks' price point in cents (G-2: 50, 100 or 200).
    #[arg(long, value_name = "CENTS", requires = "game_rules")]
    pub price: Option<u64>,
    /// The blocks' emission id.
    #[arg(long, value_name = "ID", requires = "game_rules")]
    pub emission: Option<String>,
    /// Number of the first block.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub first: u32,
    /// How many blocks.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub blocks: u32,
    /// A block to reveal (canonical id; repeatable): its entropy and seed published, once its
    /// sales have closed (--sales-closed-at).
    #[arg(long = "reveal", value_name = "ID", requires = "sales_closed_at")]
    pub reveals: Vec<String>,
    /// When the sales of the blocks revealed closed, as production states it (RFC 3339 with its
    /// offset, e.g. 2018-12-10T23:59:59+01:00).
    #[arg(long = "sales-closed-at", value_name = "T", requires = "reveals")]
    pub sales_closed_at: Option<String>,
    /// The separate secret medium for the blocks' production files (as `urne block generate`).
    #[arg(
        long = "secret-out",
        value_name = "SECRET_DIR",
        requires = "game_rules"
    )]
    pub secret_out: Option<PathBuf>,
}
