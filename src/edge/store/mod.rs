//! SQLite edge of the audit trail: one database file, STRICT tables, triggers that refuse UPDATE
//! and DELETE and any insert that does not extend the chain, every append in an IMMEDIATE
//! transaction with `synchronous=FULL` (durable before the command goes on). The triggers are
//! guard rails; the evidence is the hash chain plus the signed checkpoints (`audit::chain`).
//!
//! The database is urne's as a whole (spec/appliance.md §6.5): every path that opens it checks, before it
//! reads an event, that its schema is exactly the rows urne's statements make and its stored
//! settings urne's ([`check_file`]), and the tables it decides from pass SQLite's integrity check
//! ([`check_structure`]; the check before acting runs it on a second connection beside its own
//! read, and waits for it before it reports or decides anything); every write checks the schema
//! again inside its transaction, so that no trigger, view or index urne did not make ever runs
//! on its reads or writes.
//!
//! A version-2 trail (spec/appliance.md §6.6) is bound to its token: every append signs, in the same
//! transaction, a checkpoint over the trail including the new event (so a row urne did not append
//! has no checkpoint of its own), and before the command acts on what it appended the token gets
//! a mark of the head's size and root ([`Vouch`]: so an older copy, a truncated trail or another
//! database is refused before anything is decided). The token's side is [`Token`].

use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::edge as m;
use rusqlite::{Connection, OptionalExtension};
use std::path::{Path, PathBuf};
use urne_ceremony::token::{Mark, TrailObject};
use urne_verify::audit::chain::{self, Event};
use urne_verify::crypto::Hash32;

/// The events of a trail as a process read and verified them, shared rather than copied (a
/// trail of a year's events is megabytes).
pub type Events = std::rc::Rc<Vec<Event>>;

/// What an append needs from the token (spec/appliance.md §6.6): the audit key's signature over the new
/// checkpoint, and a mark of the new head. The HSM session implements it.
pub trait Token {
    /// Signs a checkpoint body with the audit key.
    fn sign_checkpoint(&self, body: &[u8]) -> Result<[u8; 64]>;
    /// Creates a mark in the token (a private, non-modifiable data object): destroyable, so that
    /// a later mark of the same history replaces it, unless it is an `anchor`, which stays.
    fn create_mark(&self, mark: &Mark, anchor: bool) -> Result<()>;
    /// Destroys those of `older` the token holds as destroyable marks: marks of this
    /// command's history that a later mark replaces (spec/appliance.md §6.6, M-397).
    fn retire_marks(&self, older: &[Mark]) -> Result<()>;
    /// Every mark and every `urne-trail` object the token holds.
    fn marks(&self) -> Result<TokenMarks>;
}

/// What the token holds of its trails, read back after a mark (spec/appliance.md §6.6): every mark (of
/// any trail) and every `urne-trail` object (the current trail and those it replaced).
#[derive(Debug, Clone, Default)]
pub struct TokenMarks {
    /// Every mark, in no particular order.
    pub marks: Vec<Mark>,
    /// The marks the token keeps (non-destroyable: the anchors, spec/appliance.md §6.6), also
    /// among `marks`.
    pub anchors: Vec<Mark>,
    /// Every `urne-trail` object, in no particular order.
    pub trails: Vec<TrailObject>,
}

/// The token's marks as a new instance of its PKCS#11 module sees them (spec/appliance.md §6.6): every
/// mark whose creation had returned, in any process, before the read began. An [`AuditLog`]
/// given one reads the marks back this way after each mark it makes; without one (code that
/// embeds the library without urne's executable, such as the tests' append helper), in the
/// command's own session, which SoftHSM 2.6 does not keep up to date with other processes.
pub trait FreshMarks {
    /// Every mark and every `urne-trail` object the token holds.
    fn marks_afresh(&self) -> Result<TokenMarks>;
}

/// The trail an [`AuditLog`] appends to, once the command has checked it against the token.
#[derive(Debug, Clone, Copy)]
pub struct Binding {
    /// The trail's identity (its `trail.created` event, the token's `urne-trail` object).
    pub trail: Hash32,
    /// The audit public key, read from the token.
    pub audit_key: [u8; 32],
    /// Whether each append is marked in the token as it commits (not while `keys init` builds
    /// the trail under a temporary name: it is marked once in place).
    pub marking: bool,
    /// The origin the token's audit key signs checkpoints under (spec/formats.md §6.10): a
    /// rehearsal token's trail is marked as such in every checkpoint.
    pub origin: urne_verify::audit::chain::Origin,
}

mod append;
pub mod build;
mod pending;
mod schema;
pub mod snapshot;

pub(crate) use schema::check_file;
use schema::db_err;
pub use schema::{PENDING_SCHEMA, SCHEMA, SchemaRow, urne_schema};
use schema::{check_structure, configure};

/// Mode of every audit database file urne creates (the trail, its journal, which SQLite gives
/// the database's mode, the temporary file `keys init` and `trail restart` write it under, a
/// backup): readable and writable by the appliance's user only, whatever the umask.
pub const DB_MODE: u32 = 0o600;

/// Creates an empty file at `path` (never an existing one) with mode [`DB_MODE`], set explicitly
/// after creation so that no umask widens or narrows it.
fn create_private(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(DB_MODE)
        .open(path)?;
    f.set_permissions(std::os::unix::fs::PermissionsExt::from_mode(DB_MODE))
}

/// The open audit database.
///
/// A command decides from the trail as it read it (a day sealed or not, entropy recorded or
/// not) and then appends. So that two commands run at once cannot both act on the same state
/// (two seals of one day, two entropies for one draw), the first full read ([`AuditLog::events`])
/// fixes the head this process saw; every later append checks, inside its write transaction, that
/// the head is still that one (advanced only by this process's own appends), and is refused
/// otherwise. Records of facts that no decision rests on (a failure, a refusal, a folder published,
/// a proof issued: [`AuditLog::append_evidence`]) are never refused.
pub struct AuditLog {
    conn: Connection,
    path: PathBuf,
    /// The file's identity (device, inode) when it was opened: a trail deleted or replaced while
    /// the command runs is seen after every append and before the command reports success.
    file_id: Option<(u64, u64)>,
    /// Set once the trail was checked against the token; appends need it.
    binding: Option<Binding>,
    /// The event hashes this process verified (its first full read, recomputed from the
    /// content) and appended since: every later read must hold exactly them as its prefix,
    /// recomputed again, so nothing is decided from an event edited after the check.
    known: std::cell::RefCell<Option<Vec<Hash32>>>,
    /// The head (sequence number, 0 when empty) this process last knew: set by the first full
    /// read, advanced by its own appends; `None` before any read.
    view: std::cell::Cell<Option<u64>>,
    /// How the marks are read back after each mark ([`FreshMarks`]; `None`: in the session).
    fresh: Option<Box<dyn FreshMarks>>,
    /// The size of the token's last mark of this trail as this process knows it (found by the
    /// check before acting, or made since): events past it are not yet vouched for by the token
    /// ([`Vouch`]).
    marked: std::cell::Cell<u64>,
    /// The events as this process last read or appended them, with SQLite's `data_version` of
    /// the connection then: while no other connection has written the file, a later read needs
    /// neither reading nor recomputing the whole trail again (spec/appliance.md §6.6 [M-138]).
    seen: std::cell::RefCell<Option<(i64, Events)>>,
    /// SQLite's `data_version` of the connection when this process last knew the file to hold
    /// exactly the events of `known` (its full read, the check before acting, its own appends):
    /// while it is unchanged and the file's head row is still the last of them, nothing was
    /// written to the file through SQLite since, and an append need not read the trail again.
    synced: std::cell::Cell<Option<i64>>,
    /// Whether every event of `known` had its content recomputed by this process (its full read,
    /// or its own appends): not after a check of the links only ([`AuditLog::adopt_links`]),
    /// when an event whose content does not recompute its stored hash was altered in the file
    /// before the command began (exit 7, the trail broken), not rewritten while it ran.
    contents: std::cell::Cell<bool>,
    /// SQLite's integrity check of the tables, running on a second connection
    /// ([`AuditLog::open_for_append_checking`]) until [`AuditLog::structure_checked`] waits for it.
    structure: std::cell::RefCell<Option<std::thread::JoinHandle<Result<()>>>>,
    /// The token's marks of this trail found on this process's history (size, root), so that
    /// reading the marks back does not compute their roots again.
    on_history: std::cell::RefCell<std::collections::HashSet<(u64, Hash32)>>,
    /// The right edge of the tree over the events this process knows ([`chain::Frontier`]),
    /// kept between its appends.
    /// The size of the token's last anchor of this trail on this process's history (0: none),
    /// spec/appliance.md §6.6 [M-397].
    anchored: std::cell::Cell<u64>,
    /// The `sitting.closed` events after the token's last anchor, as the check before acting
    /// read them (recomputed) and as this process appended them: a mark over one is an anchor.
    closes: std::cell::RefCell<Vec<u64>>,
    frontier: std::cell::RefCell<Option<chain::Frontier>>,
}

/// How far the token vouches for an append before the call returns (spec/appliance.md §6.6): a
/// command marks and reads the marks back before it acts on what it appended (shows a value a
/// person relies on, places a file, reports its end), not after every event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vouch {
    /// Not marked yet: the command appends again, or marks, before anything rests on the
    /// event (`software.start`, a late draw's record, a result whose output is placed next).
    Later,
    /// Marked in the token, not read back: an input is fixed (a contribution) before anything
    /// is computed from it, so that no copy of the database without it is accepted again.
    Mark,
    /// Marked, and the token's marks read back afresh (M-139): the command acts next.
    ReadBack,
}

/// An event payload as stored: serialised once, hashed exactly as stored.
fn encode_payload(payload: &serde_json::Value) -> Result<String> {
    serde_json::to_string(payload).map_err(|e| {
        Error::new(
            Kind::Defect,
            crate::msg!(m::ERR_STORE_ENCODE, e = e),
            crate::msg!(m::REC_DEFECT_REPORT),
        )
    })
}

/// The sequence number the next event takes and the hash it links to (the head's; 32 zero
/// bytes for event 1), read inside the append's transaction.
fn next_link(tx: &rusqlite::Transaction, path: &Path) -> Result<(u64, Hash32)> {
    let head: Option<(i64, Vec<u8>)> = tx
        .query_row(
            "SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()
        .map_err(|e| db_err(path, &m::ERR_DB_READ_HEAD, e))?;
    Ok(match head {
        Some((s, h)) => (
            s.cast_unsigned() + 1,
            <Hash32>::try_from(h.as_slice()).map_err(|_| {
                Error::new(
                    Kind::StoreFailed,
                    crate::msg!(m::ERR_STORE_HEAD_MALFORMED),
                    crate::msg!(m::REC_STORE_AUDIT_VERIFY),
                )
            })?,
        ),
        None => (1, Hash32::ZERO),
    })
}

impl AuditLog {
    /// Opens the database at `path`, creating it and its schema if needed: what
    /// [`AuditLog::create`] does once it made the file (public for the schema's own test; no
    /// command calls it on an existing trail).
    pub fn create_schema(path: &Path) -> Result<AuditLog> {
        let conn = Connection::open(path).map_err(|e| db_err(path, &m::ERR_DB_OPEN, e))?;
        configure(&conn, path)?;
        // 64 KiB pages (taken only when the file is created): a seal stores its sealed set, tens
        // of MB for a large day, as one blob, and larger pages write it in a third less time.
        conn.execute_batch(
            "PRAGMA page_size = 65536; PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL;",
        )
        .map_err(|e| db_err(path, &m::ERR_DB_CONFIGURE, e))?;
        // The schema in one transaction: a kill or an error half-way leaves no half-made trail
        // (SQLite's DDL is transactional; the journal undoes an interrupted creation).
        if let Err(e) = conn.execute_batch(&format!(
            "BEGIN IMMEDIATE;\n{SCHEMA}\n{PENDING_SCHEMA}\nCOMMIT;"
        )) {
            let _ = conn.execute_batch("ROLLBACK;");
            return Err(db_err(path, &m::ERR_DB_CREATE_SCHEMA, e));
        }
        check_file(&conn, path)?;
        Ok(AuditLog::from_conn(conn, path))
    }

    /// The log on an open connection to `path`: nothing verified, bound or read yet.
    fn from_conn(conn: Connection, path: &Path) -> AuditLog {
        AuditLog {
            conn,
            path: path.to_path_buf(),
            file_id: file_id(path),
            binding: None,
            known: std::cell::RefCell::new(None),
            view: std::cell::Cell::new(None),
            fresh: None,
            marked: std::cell::Cell::new(0),
            seen: std::cell::RefCell::new(None),
            synced: std::cell::Cell::new(None),
            structure: std::cell::RefCell::new(None),
            contents: std::cell::Cell::new(true),
            on_history: std::cell::RefCell::new(std::collections::HashSet::new()),
            frontier: std::cell::RefCell::new(None),
            anchored: std::cell::Cell::new(0),
            closes: std::cell::RefCell::new(vec![]),
        }
    }

    /// Creates a new trail's database at `path`, which must not exist (the store's tests; `urne
    /// keys init` and `urne trail restart` build theirs in memory, [`AuditLog::create_in_memory`],
    /// and write it through the folder's descriptor, [`AuditLog::place`]).
    pub fn create(path: &Path) -> Result<AuditLog> {
        create_private(path)
            .map_err(|e| crate::error::io_error(crate::error::Io::CreateTrail, path, e))?;
        AuditLog::create_schema(path)
    }

    /// Opens the appliance's existing trail for a command that will append to it (never creates
    /// one: spec/appliance.md §6.6). `None` when there is no file at `path`.
    pub fn open_for_append(path: &Path) -> Result<Option<AuditLog>> {
        if !trail_file_exists(path)? {
            return Ok(None);
        }
        Ok(Some(AuditLog::from_conn(open_checked(path)?, path)))
    }

    /// [`AuditLog::open_for_append`] for the check before acting (spec/appliance.md §6.5): the
    /// schema and the stored settings are checked before it returns, as for every open; SQLite's
    /// integrity check of the tables runs meanwhile on a second connection, on the other core,
    /// while the command reads the trail, and is waited for by [`AuditLog::structure_checked`],
    /// which the command calls before it reports anything it found or decides anything
    /// ([`AuditLog::bind`] calls it too: nothing is appended before it passed).
    pub fn open_for_append_checking(path: &Path) -> Result<Option<AuditLog>> {
        if !trail_file_exists(path)? {
            return Ok(None);
        }
        let conn = open_unstructured(path)?;
        let second = open_unstructured(path)?;
        let owned = path.to_path_buf();
        let pending = std::thread::Builder::new()
            .name("integrity".into())
            .spawn(move || check_structure(&second, &owned))
            .map_err(|e| crate::error::io_error(crate::error::Io::OpenTrail, path, e))?;
        let log = AuditLog::from_conn(conn, path);
        *log.structure.borrow_mut() = Some(pending);
        Ok(Some(log))
    }

    /// Waits for the integrity check [`AuditLog::open_for_append_checking`] started, and is its
    /// refusal if it found anything (exit 7). Nothing to wait for on a log opened otherwise.
    pub fn structure_checked(&self) -> Result<()> {
        let Some(pending) = self.structure.borrow_mut().take() else {
            return Ok(());
        };
        pending.join().unwrap_or_else(|_| {
            Err(Error::new(
                Kind::Defect,
                crate::msg!(
                    m::ERR_DB_CHECK_STRUCTURE_STOPPED,
                    path = self.path.display()
                ),
                crate::msg!(m::REC_DEFECT_REPORT),
            ))
        })
    }

    /// The trail's identity, once checked against the token.
    pub fn trail(&self) -> Option<Hash32> {
        self.binding.map(|b| b.trail)
    }

    /// The trail's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Binds the log to its trail once checked against the token: appends are possible from now,
    /// once the database's integrity check passed ([`AuditLog::structure_checked`]).
    pub fn bind(&mut self, binding: Binding) -> Result<()> {
        self.structure_checked()?;
        self.binding = Some(binding);
        Ok(())
    }

    /// The root of the tree over `hashes` (the events this process knows): from the tree's
    /// right edge it keeps when it is of that many events, else hashed again.
    fn root_of(&self, hashes: &[Hash32]) -> Hash32 {
        match self.frontier.borrow().as_ref() {
            Some(f) if f.size() == hashes.len() as u64 => f.root(),
            _ => chain::tree_root(hashes),
        }
    }

    /// Keeps the right edge of the tree over the events this process verified (as the check
    /// before acting computed it from [`AuditLog::events`]), so that its first append and its
    /// checkpoint do not hash the trail again. Ignored unless it is of that many events.
    pub fn keep_frontier(&self, frontier: chain::Frontier) {
        if self
            .known
            .borrow()
            .as_ref()
            .is_some_and(|k| k.len() as u64 == frontier.size())
        {
            *self.frontier.borrow_mut() = Some(frontier);
        }
    }

    /// Reads the token's marks back after each mark through `fresh` (spec/appliance.md §6.6).
    pub fn read_marks_afresh(&mut self, fresh: Box<dyn FreshMarks>) {
        self.fresh = Some(fresh);
    }

    fn bound(&self) -> Result<Binding> {
        self.binding.ok_or_else(|| {
            Error::new(
                Kind::Defect,
                crate::msg!(m::ERR_STORE_UNBOUND),
                crate::msg!(m::REC_DEFECT_REPORT),
            )
        })
    }

    /// The trail is still the file this command opened, holding the head it last appended or
    /// read (spec/appliance.md §6.6): not deleted, not replaced, not rewritten in place. Checked after
    /// every append and before a command reports success.
    pub fn check_still_in_place(&self) -> Result<()> {
        if let Some(e) = moved(&self.path, self.file_id) {
            return Err(e);
        }
        let known = self.known.borrow().clone();
        if let Some(known) = known {
            // Nothing written to the file by another connection since this process last read or
            // appended (SQLite's `data_version`): it holds what this process verified.
            let version = data_version(&self.conn, &self.path)?;
            let unchanged = match self.seen.borrow().as_ref() {
                Some((v, events)) if *v == version && events.len() == known.len() => {
                    head_is(&self.conn, &self.path, events)?
                }
                _ => {
                    self.synced.get() == Some(version)
                        && head_row_is(&self.conn, &self.path, &known)?
                }
            };
            if unchanged {
                return Ok(());
            }
            let now = read_events(&self.conn, &self.path)?;
            let same = now.len() == known.len()
                && chain::verify_chain(&now).is_ok()
                && now.iter().zip(&known).all(|(e, h)| e.hash == *h);
            if !same {
                return Err(gone_error(&self.path, &m::ERR_STORE_CHANGED));
            }
            *self.seen.borrow_mut() = Some((version, Events::new(now)));
            self.synced.set(Some(version));
        }
        Ok(())
    }

    /// The latest stored checkpoint's note (every append of a version-2 trail signs one). On a
    /// trail checked against the token, it must be the checkpoint of the head this process knows
    /// (its size and root, under the token's audit key): outputs carry it.
    pub fn latest_note(&self) -> Result<String> {
        let note: Option<String> = self
            .conn
            .query_row(
                "SELECT note FROM checkpoints ORDER BY size DESC LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| db_err(&self.path, &m::ERR_DB_READ_CHECKPOINTS, e))?;
        let note = note.ok_or_else(|| {
            Error::new(
                Kind::StoreFailed,
                crate::msg!(m::ERR_STORE_NO_CHECKPOINT),
                crate::msg!(m::REC_STORE_AUDIT_VERIFY),
            )
        })?;
        if let (Some(b), Some(known)) = (self.binding.filter(|b| b.marking), &*self.known.borrow())
        {
            let size = known.len() as u64;
            let root = self.root_of(known);
            let head = chain::verify_note_as(&note, &b.audit_key, b.origin)
                .is_ok_and(|cp| cp.size == size && cp.root == root);
            if !head {
                return Err(gone_error(&self.path, &m::ERR_STORE_CHANGED));
            }
        }
        Ok(note)
    }

    /// Opens an existing audit database without creating or writing anything of urne's (for
    /// verification). It is opened read-write all the same: after a crash SQLite must roll back
    /// the interrupted transaction from its journal before anyone can read the file.
    pub fn open_existing(path: &Path) -> Result<AuditLog> {
        if !path.is_file() {
            return Err(Error::new(
                Kind::NoTrail,
                crate::msg!(m::ERR_STORE_NO_TRAIL, path = path.display()),
                crate::msg!(m::REC_STORE_NO_TRAIL),
            ));
        }
        Ok(AuditLog::from_conn(open_checked(path)?, path))
    }

    /// Every event in sequence order, as this process verified and appended them: those it
    /// last read or appended while no other connection wrote the file since (SQLite's
    /// `data_version`) and its last event row is still theirs, else read again and checked
    /// against what it verified (spec/appliance.md §6.6 [M-138]).
    pub fn events(&self) -> Result<Events> {
        let (conn, path) = (&self.conn, &self.path);
        let version = data_version(conn, path)?;
        if self.known.borrow().is_some()
            && let Some((v, events)) = self.seen.borrow().as_ref()
            && *v == version
            && head_is(conn, path, events)?
        {
            return Ok(Events::clone(events));
        }
        let events = read_events(conn, path)?;
        let hashes = check_known(
            self.known.borrow().as_deref(),
            path,
            &events,
            self.contents.get(),
        )?;
        self.contents.set(true);
        // What a command decides from is only what it verified and appended itself: events
        // another process added meanwhile are not read (their checkpoints are not checked here),
        // the command stops instead (spec/appliance.md §6.6).
        if let Some(known) = self.known.borrow().as_deref()
            && hashes.len() > known.len()
        {
            return Err(Error::new(
                Kind::TrailChanged,
                crate::msg!(
                    m::ERR_STORE_GREW,
                    path = self.path.display(),
                    known = known.len(),
                    found = hashes.len()
                ),
                crate::msg!(m::REC_STORE_GREW),
            ));
        }
        if self.view.get().is_none() {
            self.view.set(Some(events.last().map_or(0, |e| e.seq)));
        }
        *self.known.borrow_mut() = Some(hashes);
        let events = Events::new(events);
        *self.seen.borrow_mut() = Some((version, Events::clone(&events)));
        self.synced.set(Some(version));
        Ok(events)
    }

    /// Every event's number and hash as stored, in order, their contents unread: what the check
    /// before acting reads of a trail the token's last mark vouches for whole (spec/appliance.md
    /// §6.6 [M-136]). Nothing is known from it until the check adopts it
    /// ([`AuditLog::adopt_links`]).
    pub fn links(&self) -> Result<Vec<chain::Link>> {
        read_links(&self.conn, &self.path)
    }

    /// The events numbered `1`, `head` and after `after`, and those of the kinds `kinds`, as
    /// stored, unchecked (their contents are recomputed by the caller against their links): what
    /// the check before acting reads of the contents of a trail the token's last mark vouches for
    /// whole.
    pub fn rows_of(&self, head: u64, after: u64, kinds: &[&str]) -> Result<Vec<Event>> {
        read_events_where(
            &self.conn,
            &self.path,
            &format!(
                "seq = 1 OR seq = ?1 OR seq > ?2 OR kind IN ({})",
                kinds
                    .iter()
                    .map(|k| format!("'{k}'"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            [head.cast_signed(), after.cast_signed()],
        )
    }

    /// Adopts the links the check before acting verified against the token's mark (their
    /// hashes, in order) as what this process knows of the trail, with no event's content read:
    /// every later read of an event recomputes it against them ([`AuditLog::events`],
    /// [`AuditLog::head_event`], [`AuditLog::find_back`]).
    pub fn adopt_links(&self, hashes: Vec<Hash32>) -> Result<()> {
        let version = data_version(&self.conn, &self.path)?;
        self.view.set(Some(hashes.len() as u64));
        *self.known.borrow_mut() = Some(hashes);
        *self.seen.borrow_mut() = None;
        self.synced.set(Some(version));
        self.contents.set(false);
        Ok(())
    }

    /// The trail's last event as this process knows it, its content recomputed against the hash
    /// it verified (spec/appliance.md §6.6 [M-138]); `None` for an empty trail.
    pub fn head_event(&self) -> Result<Option<Event>> {
        let n = self.known.borrow().as_ref().map(Vec::len);
        match n {
            Some(n) => self.event_at(n as u64),
            None => Ok(self.events()?.last().cloned()),
        }
    }

    /// Event `seq` as this process knows it, its content recomputed against the hash it verified
    /// (spec/appliance.md §6.6 [M-138]); `None` past the events it knows.
    pub fn event_at(&self, seq: u64) -> Result<Option<Event>> {
        let n = self.known.borrow().as_ref().map_or(0, Vec::len) as u64;
        if seq == 0 || seq > n {
            return Ok(None);
        }
        if let Some((_, events)) = self.seen.borrow().as_ref()
            && events.len() as u64 == n
        {
            return Ok(usize::try_from(seq - 1)
                .ok()
                .and_then(|i| events.get(i))
                .cloned());
        }
        let rows = read_events_where(&self.conn, &self.path, "seq = ?1", [seq.cast_signed()])?;
        self.check_rows(&rows)?;
        // An event this process knows, no longer in the file: removed while it runs.
        match rows.into_iter().next() {
            Some(e) => Ok(Some(e)),
            None => Err(gone_error(&self.path, &m::ERR_STORE_CHANGED)),
        }
    }

    /// The hashes of the events this process knows, in order (the trail read and verified first
    /// if it knows none yet).
    pub fn hashes(&self) -> Result<Vec<Hash32>> {
        if let Some(known) = self.known.borrow().as_ref() {
            return Ok(known.clone());
        }
        Ok(self.events()?.iter().map(|e| e.hash).collect())
    }

    /// The first of the events this process knows, read from the last backwards, for which
    /// `found` returns a value, and that value; each event read is recomputed against the hash
    /// this process verified (spec/appliance.md §6.6 [M-138]), so only the events from the head
    /// back to the one found are read.
    pub fn find_back<T>(&self, mut found: impl FnMut(&Event) -> Option<T>) -> Result<Option<T>> {
        let n = self.known.borrow().as_ref().map(Vec::len);
        let cached = self
            .seen
            .borrow()
            .as_ref()
            .filter(|(_, events)| Some(events.len()) == n)
            .map(|(_, events)| Events::clone(events));
        let events = match (n, cached) {
            (_, Some(events)) => events,
            (None, None) => self.events()?,
            (Some(n), None) => {
                let err = |e| db_err(&self.path, &m::ERR_DB_READ_EVENTS, e);
                let mut st = self
                    .conn
                    .prepare(&events_query("seq <= ?1", "DESC"))
                    .map_err(err)?;
                let mut rows = st.query([(n as u64).cast_signed()]).map_err(err)?;
                // Every event from the head back, each exactly where this process knows it: an
                // event missing (removed while it runs) is refused, never skipped.
                let mut want = n as u64;
                while let Some(r) = rows.next().map_err(err)? {
                    let e = event_of(r).map_err(err)?;
                    if e.seq != want {
                        return Err(gone_error(&self.path, &m::ERR_STORE_CHANGED));
                    }
                    self.check_rows(std::slice::from_ref(&e))?;
                    if let Some(v) = found(&e) {
                        return Ok(Some(v));
                    }
                    want -= 1;
                }
                if want != 0 {
                    return Err(gone_error(&self.path, &m::ERR_STORE_CHANGED));
                }
                return Ok(None);
            }
        };
        Ok(events.iter().rev().find_map(found))
    }

    /// Events read by number, checked as [`check_rows`] says against what this process knows.
    fn check_rows(&self, rows: &[Event]) -> Result<()> {
        check_rows(
            self.known.borrow().as_deref().unwrap_or_default(),
            &self.path,
            rows,
            self.contents.get(),
        )
    }

    /// [`AuditLog::events`] read from the file whatever this process keeps (a backup states the
    /// head of the bytes it copies), and checked against what it verified.
    pub fn events_afresh(&self) -> Result<Events> {
        *self.seen.borrow_mut() = None;
        self.events()
    }

    /// Whether a blob of that hash is stored (its content is checked when it is read).
    pub fn has_blob(&self, sha256: &Hash32) -> Result<bool> {
        self.conn
            .query_row(
                "SELECT 1 FROM blobs WHERE sha256 = ?1",
                [sha256.as_slice()],
                |_| Ok(()),
            )
            .optional()
            .map(|o| o.is_some())
            .map_err(|e| db_err(&self.path, &m::ERR_DB_READ_DATA, e))
    }

    /// The hashes of every stored blob (their contents unread).
    pub fn blob_hashes(&self) -> Result<std::collections::HashSet<Hash32>> {
        let err = |e| db_err(&self.path, &m::ERR_DB_READ_DATA, e);
        let mut st = self.conn.prepare("SELECT sha256 FROM blobs").map_err(err)?;
        let rows = st.query_map([], |r| r.get::<_, Vec<u8>>(0)).map_err(err)?;
        let mut out = std::collections::HashSet::new();
        for row in rows {
            // A hash that is not 32 bytes names no blob an event can name.
            if let Ok(h) = <[u8; 32]>::try_from(row.map_err(err)?) {
                out.insert(Hash32(h));
            }
        }
        Ok(out)
    }

    /// A stored blob, checked against its hash.
    pub fn blob(&self, sha256: &Hash32) -> Result<Vec<u8>> {
        let missing = || {
            Error::new(
                Kind::TrailBroken,
                crate::msg!(m::ERR_STORE_BLOB_MISSING, sha = hex::encode(sha256)),
                crate::msg!(m::REC_STORE_ALTERED),
            )
        };
        let rowid: i64 = self
            .conn
            .query_row(
                "SELECT rowid FROM blobs WHERE sha256 = ?1",
                [sha256.as_slice()],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| db_err(&self.path, &m::ERR_DB_READ_DATA, e))?
            .ok_or_else(missing)?;
        // Read straight into one buffer (no intermediate copy of the whole value).
        let blob = self
            .conn
            .blob_open(rusqlite::MAIN_DB, "blobs", "data", rowid, true)
            .map_err(|e| db_err(&self.path, &m::ERR_DB_READ_DATA, e))?;
        let mut data = vec![0u8; blob.len()];
        blob.read_at_exact(&mut data, 0)
            .map_err(|e| db_err(&self.path, &m::ERR_DB_READ_DATA, e))?;
        drop(blob);
        // Checked before anyone parses it. OpenSSL's SHA-256: blobs can be tens of MB (a sealed
        // set) and are hashed on every read.
        if &urne_verify::crypto::sha256(&data) != sha256 {
            return Err(Error::new(
                Kind::TrailBroken,
                crate::msg!(m::ERR_STORE_BLOB_HASH, sha = hex::encode(sha256)),
                crate::msg!(m::REC_STORE_ALTERED),
            ));
        }
        Ok(data)
    }

    /// A stored blob read in pieces of at most 1 MiB, each given to `each` as it is read (no
    /// copy of the whole value is kept: a sealed set can be tens of MB), and hashed as it is
    /// read: an error, once the last piece is read, when it is not the blob `sha256` names, so
    /// that the caller uses what it made of the pieces only when this returns `Ok`.
    pub fn blob_pieces(&self, sha256: &Hash32, mut each: impl FnMut(&[u8])) -> Result<usize> {
        use sha2::Digest;
        let rowid: i64 = self
            .conn
            .query_row(
                "SELECT rowid FROM blobs WHERE sha256 = ?1",
                [sha256.as_slice()],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| db_err(&self.path, &m::ERR_DB_READ_DATA, e))?
            .ok_or_else(|| {
                Error::new(
                    Kind::TrailBroken,
                    crate::msg!(m::ERR_STORE_BLOB_MISSING, sha = hex::encode(sha256)),
                    crate::msg!(m::REC_STORE_ALTERED),
                )
            })?;
        let blob = self
            .conn
            .blob_open(rusqlite::MAIN_DB, "blobs", "data", rowid, true)
            .map_err(|e| db_err(&self.path, &m::ERR_DB_READ_DATA, e))?;
        let len = blob.len();
        let mut h = sha2::Sha256::new();
        let mut buf = vec![0u8; 1 << 20];
        let mut at = 0;
        while at < len {
            let n = (len - at).min(buf.len());
            blob.read_at_exact(&mut buf[..n], at)
                .map_err(|e| db_err(&self.path, &m::ERR_DB_READ_DATA, e))?;
            h.update(&buf[..n]);
            each(&buf[..n]);
            at += n;
        }
        drop(blob);
        if h.finalize().as_slice() != sha256.as_slice() {
            return Err(Error::new(
                Kind::TrailBroken,
                crate::msg!(m::ERR_STORE_BLOB_HASH, sha = hex::encode(sha256)),
                crate::msg!(m::REC_STORE_ALTERED),
            ));
        }
        Ok(len)
    }

    /// Hashes of blobs whose content does not match (for `audit verify`).
    pub fn corrupt_blobs(&self) -> Result<Vec<Hash32>> {
        let mut st = self
            .conn
            .prepare("SELECT sha256, data FROM blobs")
            .map_err(|e| db_err(&self.path, &m::ERR_DB_READ_DATA, e))?;
        let rows = st
            .query_map([], |r| {
                Ok((r.get::<_, Vec<u8>>(0)?, r.get::<_, Vec<u8>>(1)?))
            })
            .map_err(|e| db_err(&self.path, &m::ERR_DB_READ_DATA, e))?;
        let mut bad = vec![];
        for row in rows {
            let (h, d) = row.map_err(|e| db_err(&self.path, &m::ERR_DB_READ_DATA, e))?;
            if urne_verify::crypto::sha256(&d).as_slice() != h.as_slice() {
                bad.push(h.as_slice().try_into().unwrap_or(Hash32::ZERO));
            }
        }
        Ok(bad)
    }

    /// How many stored checkpoints have a size from 1 to `n` (sizes are unique: `n` when every
    /// one of the first `n` events has its own).
    pub fn checkpoints_in(&self, n: u64) -> Result<u64> {
        self.conn
            .query_row(
                "SELECT count(*) FROM checkpoints WHERE size BETWEEN 1 AND ?1",
                [n.cast_signed()],
                |r| r.get::<_, i64>(0),
            )
            .map(i64::cast_unsigned)
            .map_err(|e| db_err(&self.path, &m::ERR_DB_READ_CHECKPOINTS, e))
    }

    /// The stored checkpoints (size, signed note) of size `from` or more, by size.
    pub fn checkpoints_from_size(&self, from: u64) -> Result<Vec<(u64, String)>> {
        let err = |e| db_err(&self.path, &m::ERR_DB_READ_CHECKPOINTS, e);
        let mut st = self
            .conn
            .prepare("SELECT size, note FROM checkpoints WHERE size >= ?1 ORDER BY size")
            .map_err(err)?;
        let rows = st
            .query_map([from.cast_signed()], |r| {
                Ok((r.get::<_, i64>(0)?.cast_unsigned(), r.get(1)?))
            })
            .map_err(err)?;
        rows.collect::<std::result::Result<Vec<_>, _>>()
            .map_err(err)
    }

    /// Stored checkpoints (size, signed note), by size.
    pub fn checkpoints(&self) -> Result<Vec<(u64, String)>> {
        self.checkpoints_from(0)
    }

    /// [`AuditLog::checkpoints`], with the notes of sizes below `from` left empty (their sizes
    /// only: what the check before acting needs of the checkpoints the last mark vouches for).
    pub fn checkpoints_from(&self, from: u64) -> Result<Vec<(u64, String)>> {
        let mut st = self
            .conn
            .prepare(
                "SELECT size, CASE WHEN size >= ?1 THEN note ELSE '' END FROM checkpoints ORDER BY size",
            )
            .map_err(|e| db_err(&self.path, &m::ERR_DB_READ_CHECKPOINTS, e))?;
        let rows = st
            .query_map([from.cast_signed()], |r| {
                Ok((r.get::<_, i64>(0)?.cast_unsigned(), r.get(1)?))
            })
            .map_err(|e| db_err(&self.path, &m::ERR_DB_READ_CHECKPOINTS, e))?;
        rows.collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|e| db_err(&self.path, &m::ERR_DB_READ_CHECKPOINTS, e))
    }
}

/// Opens the existing database at `path` (never creating it) for every use: configured
/// ([`configure`]), then checked to be exactly as urne makes it ([`check_file`],
/// [`check_structure`]) before anything else is read from it, then given urne's journal (rolled back from a journal file, never a
/// write-ahead log) and durable commits. Opened read-write even to verify: after a crash SQLite
/// must roll back the interrupted transaction from its journal before anyone can read the file.
fn open_checked(path: &Path) -> Result<Connection> {
    let conn = open_unstructured(path)?;
    check_structure(&conn, path)?;
    Ok(conn)
}

/// Whether there is a file at `path` to open as the trail: none (`false`), a regular file, or
/// anything else (a folder, a link, a device: refused, exit 7).
fn trail_file_exists(path: &Path) -> Result<bool> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(crate::error::io_error(crate::error::Io::OpenTrail, path, e)),
        Ok(m) if !m.is_file() => Err(Error::new(
            Kind::TrailBroken,
            crate::msg!(m::ERR_STORE_NOT_REGULAR, path = path.display()),
            crate::msg!(m::REC_STORE_NOT_REGULAR),
        )),
        Ok(_) => Ok(true),
    }
}

/// [`open_checked`] but for the integrity check ([`check_structure`]), which the caller runs.
fn open_unstructured(path: &Path) -> Result<Connection> {
    let conn = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE)
        .map_err(|e| db_err(path, &m::ERR_DB_OPEN, e))?;
    configure(&conn, path)?;
    check_file(&conn, path)?;
    conn.execute_batch("PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL;")
        .map_err(|e| db_err(path, &m::ERR_DB_CONFIGURE, e))?;
    Ok(conn)
}

/// The refusal for a trail file that was deleted, replaced or changed under a running command.
fn gone_error(path: &Path, what: &crate::msg::Msg) -> Error {
    Error::new(
        Kind::TrailChanged,
        crate::msg!(what, path = path.display()),
        crate::msg!(m::REC_STORE_GONE),
    )
}

/// The refusal if the file at `path` is no longer the one opened (`opened`: its device and
/// inode then): deleted, or replaced by another file.
fn moved(path: &Path, opened: Option<(u64, u64)>) -> Option<Error> {
    match file_id(path) {
        None => Some(gone_error(path, &m::ERR_STORE_DELETED)),
        Some(id) if Some(id) != opened => Some(gone_error(path, &m::ERR_STORE_REPLACED)),
        Some(_) => None,
    }
}

/// The file's (device, inode), if it exists.
fn file_id(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

/// Every read after the first (spec/appliance.md §6.5): the events recompute (chain and content), and
/// hold exactly the ones this process verified or appended as their prefix; events after
/// them were appended by another process (its decisions are refused by the view, spec/appliance.md §6.6). The
/// first read is checked in full by the command's check before acting. Returns the hashes.
pub(super) fn check_known(
    known: Option<&[Hash32]>,
    path: &Path,
    events: &[Event],
    contents: bool,
) -> Result<Vec<Hash32>> {
    let hashes: Vec<Hash32> = events.iter().map(|e| e.hash).collect();
    let Some(known) = known else {
        return Ok(hashes);
    };
    let rewritten = |what: String| {
        Error::new(
            Kind::TrailChanged,
            crate::msg!(m::ERR_STORE_REWRITTEN, path = path.display(), what = what),
            crate::msg!(m::REC_STORE_REWRITTEN),
        )
    };
    if let Err(f) = chain::verify_chain(events) {
        return Err(altered(path, &f, contents));
    }
    if hashes.len() < known.len() {
        return Err(rewritten(crate::msg!(
            m::ERR_STORE_REWRITTEN_FEWER,
            found = hashes.len(),
            known = known.len()
        )));
    }
    if let Some(i) = (0..known.len()).find(|&i| hashes[i] != known[i]) {
        return Err(rewritten_other(path, i as u64 + 1));
    }
    Ok(hashes)
}

/// Event `seq` holds another hash than the one this process verified: rewritten while it runs
/// (spec/appliance.md §6.6 [M-138], exit 7).
fn rewritten_other(path: &Path, seq: u64) -> Error {
    Error::new(
        Kind::TrailChanged,
        crate::msg!(
            m::ERR_STORE_REWRITTEN,
            path = path.display(),
            what = crate::msg!(m::ERR_STORE_REWRITTEN_OTHER, seq = seq)
        ),
        crate::msg!(m::REC_STORE_REWRITTEN),
    )
}

/// An event whose content does not recompute its stored hash: altered in the file before the
/// command began when this process had checked the links only (`contents` false: the trail
/// broken, spec/appliance.md §6.6 [M-136]), else rewritten while it ran ([M-138]). Exit 7 either
/// way.
fn altered(path: &Path, f: &chain::ChainFailure, contents: bool) -> Error {
    if contents {
        return Error::new(
            Kind::TrailChanged,
            crate::msg!(
                m::ERR_STORE_REWRITTEN,
                path = path.display(),
                what = crate::msg!(m::ERR_STORE_REWRITTEN_EVENT, seq = f.seq, reason = f.reason)
            ),
            crate::msg!(m::REC_STORE_REWRITTEN),
        );
    }
    Error::new(
        Kind::TrailBroken,
        crate::msg!(
            m::ERR_STORE_EVENT_ALTERED,
            path = path.display(),
            seq = f.seq,
            reason = f.reason
        ),
        crate::msg!(m::REC_STORE_ALTERED),
    )
}

/// Events read by number (spec/appliance.md §6.6 [M-138]): each one this process knows, its
/// content recomputing the hash it verified for it; one it does not know (appended by
/// another process) stops the command.
pub(super) fn check_rows(
    known: &[Hash32],
    path: &Path,
    rows: &[Event],
    contents: bool,
) -> Result<()> {
    for e in rows {
        let Some(want) = usize::try_from(e.seq)
            .ok()
            .and_then(|s| known.get(s.wrapping_sub(1)))
        else {
            return Err(Error::new(
                Kind::TrailChanged,
                crate::msg!(
                    m::ERR_STORE_GREW,
                    path = path.display(),
                    known = known.len(),
                    found = e.seq
                ),
                crate::msg!(m::REC_STORE_GREW),
            ));
        };
        if e.hash != *want {
            return Err(rewritten_other(path, e.seq));
        }
        chain::check_content(e, Some(&chain::Link::of(e)))
            .map_err(|f| altered(path, &f, contents))?;
    }
    Ok(())
}

/// Whether the file's last event row is the last of `events` (its sequence number and stored
/// hash; none when `events` is empty): checked with every use of the events a process keeps, since
/// `data_version` sees only what is written through SQLite.
pub(super) fn head_is(conn: &Connection, path: &Path, events: &[Event]) -> Result<bool> {
    Ok(head_row(conn, path)? == events.last().map(|e| (e.seq, e.hash)))
}

/// Whether the file's last event row is the last of the events `known` hashes (its sequence
/// number and stored hash; none when `known` is empty).
pub(super) fn head_row_is(conn: &Connection, path: &Path, known: &[Hash32]) -> Result<bool> {
    Ok(head_row(conn, path)? == known.last().map(|h| (known.len() as u64, *h)))
}

/// The file's last event row: its sequence number and stored hash.
fn head_row(conn: &Connection, path: &Path) -> Result<Option<(u64, Hash32)>> {
    conn.query_row(
        "SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1",
        [],
        |r| Ok((r.get::<_, i64>(0)?.cast_unsigned(), hash_column(r, 1)?)),
    )
    .optional()
    .map_err(|e| db_err(path, &m::ERR_DB_READ_HEAD, e))
}

/// SQLite's `data_version` of `conn`: it changes when another connection (of this process or
/// another) commits a change to the file through SQLite, never for the connection's own commits;
/// bytes written to the file by other means do not change it.
pub(super) fn data_version(conn: &Connection, path: &Path) -> Result<i64> {
    conn.query_row("PRAGMA data_version", [], |r| r.get(0))
        .map_err(|e| db_err(path, &m::ERR_DB_READ_EVENTS, e))
}

/// Every event as stored, in sequence order (no checking).
pub(super) fn read_events(conn: &Connection, path: &Path) -> Result<Vec<Event>> {
    read_events_where(conn, path, "1", [])
}

/// The statement reading the events whose rows meet `condition`, in sequence order (`ASC` or
/// `DESC`).
fn events_query(condition: &str, order: &str) -> String {
    format!(
        "SELECT seq, ts, kind, payload, prev_hash, hash FROM events WHERE {condition} ORDER BY seq {order}"
    )
}

/// The events whose rows meet `condition` (of `params`), as stored, in sequence order (no
/// checking).
pub(super) fn read_events_where(
    conn: &Connection,
    path: &Path,
    condition: &str,
    params: impl rusqlite::Params,
) -> Result<Vec<Event>> {
    let err = |e| db_err(path, &m::ERR_DB_READ_EVENTS, e);
    let mut st = conn.prepare(&events_query(condition, "ASC")).map_err(err)?;
    let rows = st.query_map(params, event_of).map_err(err)?;
    rows.collect::<std::result::Result<Vec<Event>, _>>()
        .map_err(err)
}

/// A hash column as stored: one of another length (the table's CHECK makes it 32 bytes) is
/// read as zero, which recomputes nothing and links to nothing, so the event is found altered.
fn hash_column(r: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<Hash32> {
    Ok(r.get_ref(i)?
        .as_blob()
        .ok()
        .and_then(|b| b.try_into().ok())
        .unwrap_or(Hash32::ZERO))
}

/// An event row of [`events_query`].
fn event_of(r: &rusqlite::Row<'_>) -> rusqlite::Result<Event> {
    Ok(Event {
        seq: r.get::<_, i64>(0)?.cast_unsigned(),
        ts: r.get(1)?,
        kind: r.get(2)?,
        payload: r.get(3)?,
        prev_hash: hash_column(r, 4)?,
        hash: hash_column(r, 5)?,
    })
}

/// Every event's number and stored hash, in sequence order, contents unread (no checking):
/// read from the index of the hashes (`UNIQUE (hash)`), whose pages hold nothing else, not from
/// the table's, which hold every payload. The index holds exactly the table's rows: SQLite's
/// integrity check finds one that does not ([`check_structure`]), and the check before acting
/// decides nothing before it passed.
fn read_links(conn: &Connection, path: &Path) -> Result<Vec<chain::Link>> {
    let err = |e| db_err(path, &m::ERR_DB_READ_EVENTS, e);
    let mut st = conn
        .prepare("SELECT seq, hash FROM events INDEXED BY sqlite_autoindex_events_1")
        .map_err(err)?;
    let rows = st
        .query_map([], |r| {
            Ok(chain::Link {
                seq: r.get::<_, i64>(0)?.cast_unsigned(),
                hash: hash_column(r, 1)?,
            })
        })
        .map_err(err)?;
    let mut links = rows
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(err)?;
    links.sort_unstable_by_key(|l| l.seq);
    Ok(links)
}

#[cfg(test)]
mod tests;
