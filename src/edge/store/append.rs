//! Appending to the trail (spec/formats.md §6.3, spec/appliance.md §6.5, §6.6): every append in one IMMEDIATE
//! transaction that also signs the checkpoint over the new head, then the token's mark.

use super::{AuditLog, Binding, Token, Vouch, db_err, encode_payload, next_link};
use crate::error::{Error, Exit, Result};
use crate::msg::catalogue::edge as m;
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use std::path::Path;
use urne_ceremony::token::Mark;
use urne_verify::audit::chain::{self, Event};
use urne_verify::crypto::Hash32;
use urne_verify::events::kinds::{Kind, Record};

impl AuditLog {
    /// Appends one event durably and returns it. `payload` is serialised once to JSON and hashed
    /// exactly as stored. The commands write typed records ([`AuditLog::record`] and its
    /// siblings); this untyped form is for tests that build trails by hand.
    pub fn append(
        &mut self,
        token: &dyn Token,
        kind: &str,
        payload: &serde_json::Value,
    ) -> Result<Event> {
        self.append_with_blobs(token, kind, payload, &[])
    }

    /// Appends one event together with content-addressed blobs (stored in the same transaction;
    /// the event's payload names them by SHA-256, so the chain binds their content). Used for
    /// data too large for an event (a sealed entry list) or secret until a reveal (block entropy).
    pub fn append_with_blobs(
        &mut self,
        token: &dyn Token,
        kind: &str,
        payload: &serde_json::Value,
        blobs: &[&[u8]],
    ) -> Result<Event> {
        let payload = encode_payload(payload)?;
        self.append_inner(token, kind, blobs, (true, Vouch::ReadBack), |_| Ok(payload))
    }

    /// [`AuditLog::append_with_blobs`] for a payload still being computed: inside the one write
    /// transaction, the blobs are written first, then `payload` is called with the SHA-256 of
    /// each blob, under which it is stored (it may wait for other threads: the seal writes its
    /// sealed set while the HSM signs), then the event is appended and everything committed at
    /// once. If `payload` fails, nothing is written.
    pub fn append_with_blobs_then(
        &mut self,
        token: &dyn Token,
        kind: &str,
        blobs: &[&[u8]],
        payload: impl FnOnce(&[Hash32]) -> Result<serde_json::Value>,
    ) -> Result<Event> {
        self.append_inner(token, kind, blobs, (true, Vouch::ReadBack), |hashes| {
            encode_payload(&payload(hashes)?)
        })
    }

    /// Appends the record of a fact no decision rests on (a failure, a refusal, a folder
    /// published, a proof issued) whatever was appended since this process read the trail: the
    /// evidence of what happened is kept even when another command ran at the same time.
    pub fn append_evidence(
        &mut self,
        token: &dyn Token,
        kind: &str,
        payload: &serde_json::Value,
    ) -> Result<Event> {
        let payload = encode_payload(payload)?;
        self.append_inner(token, kind, &[], (false, Vouch::ReadBack), |_| Ok(payload))
    }

    /// Appends one typed event durably (its payload is the record's serialisation, spec/appliance.md
    /// §6.2), refused if the trail changed since this process read it.
    pub fn record(&mut self, token: &dyn Token, r: impl Into<Record>) -> Result<Event> {
        self.record_with_blobs(token, r, &[])
    }

    /// [`AuditLog::record_with_blobs`], vouched for by the token as `vouch` says: the command
    /// states by the choice what it does next (spec/appliance.md §6.6, [`Vouch`]).
    pub fn record_as(
        &mut self,
        token: &dyn Token,
        r: impl Into<Record>,
        blobs: &[&[u8]],
        vouch: Vouch,
    ) -> Result<Event> {
        let r = r.into();
        let payload = r.payload();
        self.append_inner(token, r.kind().name(), blobs, (true, vouch), |_| {
            Ok(payload)
        })
    }

    /// [`AuditLog::record`] with content-addressed blobs, as [`AuditLog::append_with_blobs`].
    pub fn record_with_blobs(
        &mut self,
        token: &dyn Token,
        r: impl Into<Record>,
        blobs: &[&[u8]],
    ) -> Result<Event> {
        self.record_as(token, r, blobs, Vouch::ReadBack)
    }

    /// [`AuditLog::record_with_blobs`] for a record still being computed, as
    /// [`AuditLog::append_with_blobs_then`]; the record must be of `kind`.
    pub fn record_with_blobs_then(
        &mut self,
        token: &dyn Token,
        kind: Kind,
        blobs: &[&[u8]],
        record: impl FnOnce(&[Hash32]) -> Result<Record>,
    ) -> Result<Event> {
        self.append_inner(
            token,
            kind.name(),
            blobs,
            (true, Vouch::ReadBack),
            |hashes| {
                let r = record(hashes)?;
                if r.kind() != kind {
                    return Err(Error::new(
                        crate::error::Kind::Defect,
                        crate::msg!(m::ERR_APPEND_RECORD_KIND, record = r.kind(), kind = kind),
                        crate::msg!(m::REC_DEFECT_NOTHING_RECORDED),
                    ));
                }
                Ok(r.payload())
            },
        )
    }

    /// Appends the typed record of a fact no decision rests on, as
    /// [`AuditLog::append_evidence`].
    pub fn record_evidence(&mut self, token: &dyn Token, r: impl Into<Record>) -> Result<Event> {
        self.record_evidence_as(token, r, Vouch::ReadBack)
    }

    /// [`AuditLog::record_evidence`], vouched for as `vouch` says ([`AuditLog::record_as`]).
    pub fn record_evidence_as(
        &mut self,
        token: &dyn Token,
        r: impl Into<Record>,
        vouch: Vouch,
    ) -> Result<Event> {
        let r = r.into();
        let payload = r.payload();
        self.append_inner(token, r.kind().name(), &[], (false, vouch), |_| Ok(payload))
    }

    /// One append (spec/appliance.md §6.6): inside one IMMEDIATE transaction, the head is checked (this
    /// process's view, for a decision; for any append, the head must be covered by a checkpoint
    /// that verifies under the token's audit key, so nothing is ever signed over events urne did
    /// not append), the blobs and the event are written, the checkpoint over the new head is
    /// signed by the token and stored, and all of it commits at once; then the trail is checked
    /// to be still in place and the token marks the new head.
    fn append_inner(
        &mut self,
        token: &dyn Token,
        kind: &str,
        blobs: &[&[u8]],
        how: (bool, Vouch),
        payload: impl FnOnce(&[Hash32]) -> Result<String>,
    ) -> Result<Event> {
        let opened = self.file_id;
        self.try_append(token, kind, blobs, how, payload)
            .map_err(|e| {
                // A write refused because the file was deleted or replaced under the command
                // (SQLite then reports a read-only or missing database) is that, not a disk
                // failure.
                if e.exit() == Exit::Internal && !e.untouched {
                    super::moved(&self.path, opened).unwrap_or(e)
                } else {
                    e
                }
            })
    }

    fn try_append(
        &mut self,
        token: &dyn Token,
        kind: &str,
        blobs: &[&[u8]],
        (check_view, vouch): (bool, Vouch),
        payload: impl FnOnce(&[Hash32]) -> Result<String>,
    ) -> Result<Event> {
        let binding = self.bound()?;
        let path = self.path.clone();
        let known = self.known.borrow().clone();
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| db_err(&path, &m::ERR_DB_BEGIN_APPEND, e))?;
        // The database exactly urne's, inside the transaction that writes (spec/appliance.md §6.5): an
        // object planted after the command opened the trail (while it waited for the
        // commissaire, say) is refused before it could act on this append.
        super::check_file(&tx, &path)?;
        let (seq, prev) = next_link(&tx, &path)?;
        // The trail as it stands, recomputed, holding what this process verified (spec/appliance.md §6.5):
        // never sign over an event edited, removed or rewritten after the check.
        let (version, before) = events_to_extend(
            &tx,
            &path,
            (&self.seen, self.synced.get(), self.contents.get()),
            kind,
            known.as_deref(),
            (seq, prev),
        )?;
        let mut hashes: Vec<Hash32> = match &before {
            Before::All(events) => events.iter().map(|e| e.hash).collect(),
            Before::Head(_) => known.unwrap_or_default(),
        };
        if check_view {
            // On a refusal, dropping `tx` rolls the transaction back: nothing is written.
            check_head_seen(self.view.get(), seq)?;
        }
        // The tree's right edge, kept from this process's last append while it holds the same
        // events (else computed again): each append hashes O(log n) nodes, not the trail.
        let mut frontier = self
            .frontier
            .take()
            .filter(|f| f.size() == hashes.len() as u64)
            .unwrap_or_else(|| chain::Frontier::of(&hashes));
        check_head_signed(&tx, &path, &binding, hashes.len() as u64, &frontier.root())?;
        let blob_hashes = store_blobs(&tx, &path, blobs)?;
        // Dropping `tx` on an error rolls the blobs back too.
        let payload = payload(&blob_hashes)?;
        let ts = crate::edge::clock::now_rfc3339();
        let hash = chain::event_hash(&prev, seq, &ts, kind, &payload);
        let event = Event {
            seq,
            ts,
            kind: kind.to_string(),
            payload,
            prev_hash: prev,
            hash,
        };
        check_time(before.events(), &event, &path)?;
        let Event { ts, payload, .. } = &event;
        tx.execute(
            "INSERT INTO events (seq, ts, kind, payload, prev_hash, hash) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![seq.cast_signed(), ts, kind, payload, prev.as_slice(), hash.as_slice()],
        )
        .map_err(|e| db_err(&path, &m::ERR_DB_APPEND, e))?;
        hashes.push(hash);
        frontier.push(&hash);
        let root = frontier.root();
        sign_checkpoint(&tx, &path, token, &binding, hashes.len() as u64, &root)?;
        tx.commit()
            .map_err(|e| db_err(&path, &m::ERR_DB_COMMIT_APPEND, e))?;
        self.appended(version, before, &event, hashes, frontier);
        if binding.marking {
            if vouch == Vouch::Later {
                // A trail deleted or replaced under the command: what it appended is marked
                // all the same, so the file now at the path is refused from now on.
                if let Err(e) = self.check_still_in_place() {
                    let _ = self.mark(token, binding, seq, root, Vouch::Mark);
                    return Err(e);
                }
            } else {
                self.mark(token, binding, seq, root, vouch)?;
            }
        }
        Ok(event)
    }

    /// The token marks the head (`size` events of root `root`), even if the file was swapped
    /// meanwhile: the mark is the token's truth, and a trail missing it is refused from now on;
    /// then, for [`Vouch::ReadBack`], the marks are read back.
    fn mark(
        &self,
        token: &dyn Token,
        binding: Binding,
        size: u64,
        root: Hash32,
        vouch: Vouch,
    ) -> Result<()> {
        let mark = Mark {
            trail: binding.trail,
            size,
            root,
        };
        let anchor = self.anchor_due(token, &mark)?;
        let marked = token.create_mark(&mark, anchor);
        self.check_still_in_place()?;
        marked?;
        if anchor {
            self.anchored.set(size);
        }
        self.marked.set(size);
        self.on_history.borrow_mut().insert((size, root));
        if vouch == Vouch::ReadBack {
            self.check_marks(token, &mark)?;
        }
        self.retire_older(token, &mark);
        Ok(())
    }

    /// Whether `mark`, about to be made, is an anchor (spec/appliance.md §6.6, M-397): the first
    /// mark over a `sitting.closed`, whose checkpoint the commissaire copies into the minutes,
    /// that no anchor of this history covers yet. Decided from the anchors, not from the last
    /// mark (a PIN holder can make a rolling mark over a close a kill or a full token left
    /// unmarked), and, when a close is due, from the anchors read again afresh just before:
    /// another copy of the trail held since before the close was anchored does not add one.
    fn anchor_due(&self, token: &dyn Token, mark: &Mark) -> Result<bool> {
        let anchored = self.anchored.get();
        // The closes the check before acting read, recomputed, after the token's last anchor,
        // and those this process appended since.
        let due = |anchored: u64| {
            self.closes
                .borrow()
                .iter()
                .any(|&seq| seq > anchored && seq <= mark.size)
        };
        if !due(anchored) {
            return Ok(false);
        }
        let read = match &self.fresh {
            Some(f) => f.marks_afresh()?,
            None => token.marks()?,
        };
        let hashes = self.known.borrow().clone().unwrap_or_default();
        let on_history = |a: &Mark| {
            let size = usize::try_from(a.size).unwrap_or(usize::MAX);
            a.trail == mark.trail
                && size <= hashes.len()
                && (self.on_history.borrow().contains(&(a.size, a.root))
                    || chain::tree_root(&hashes[..size]) == a.root)
        };
        let now = read
            .anchors
            .iter()
            .filter(|a| on_history(a))
            .map(|a| a.size)
            .fold(anchored, u64::max);
        self.anchored.set(now);
        Ok(due(now))
    }

    /// Records the size of the token's last anchor of this trail, as the check before acting
    /// found it on the trail's history (spec/appliance.md §6.6).
    /// `closes`: the `sitting.closed` events after it, which the check read, recomputed.
    pub fn set_anchored(&self, size: u64, closes: Vec<u64>) {
        self.anchored.set(size);
        *self.closes.borrow_mut() = closes;
    }

    /// Once `mine` is in the token, the marks of this history it replaces are destroyed, so the
    /// token holds a bounded number of marks however long the trail (M-397). Only marks this
    /// process verified to be on its history, and smaller than `mine`: a mark of another
    /// history (a fork) is evidence, and stays. A mark that cannot be destroyed stays too: it
    /// only takes room (the token's refusal of a new one is M-396's).
    fn retire_older(&self, token: &dyn Token, mine: &Mark) {
        let older: Vec<Mark> = self
            .on_history
            .borrow()
            .iter()
            .filter(|(size, _)| *size < mine.size)
            .map(|&(size, root)| Mark {
                trail: mine.trail,
                size,
                root,
            })
            .collect();
        if !older.is_empty() {
            // Kept in `on_history` (they are still of this history): a retired mark is not
            // found again, and an anchor, which stays, is not checked again.
            let _ = token.retire_marks(&older);
        }
    }

    /// Has the token vouch for every event this process appended, as `vouch` says: the head
    /// marked when it is past the last mark (and the marks read back for [`Vouch::ReadBack`]).
    /// Nothing to do when the head is marked already, or for [`Vouch::Later`].
    pub fn vouch(&self, token: &dyn Token, vouch: Vouch) -> Result<()> {
        let Some(binding) = self.binding.filter(|b| b.marking) else {
            return Ok(());
        };
        let Some(hashes) = self.known.borrow().clone() else {
            return Ok(());
        };
        let size = hashes.len() as u64;
        if vouch == Vouch::Later || size <= self.marked.get() {
            return Ok(());
        }
        self.mark(token, binding, size, self.root_of(&hashes), vouch)
    }

    /// Records the size of the token's last mark of this trail, as the check before acting
    /// found it (spec/appliance.md §6.6).
    pub fn set_marked(&self, size: u64, on_history: impl IntoIterator<Item = Mark>) {
        self.marked.set(size);
        self.on_history
            .borrow_mut()
            .extend(on_history.into_iter().map(|m| (m.size, m.root)));
    }

    /// Marks the head in the token (after a check found the trail longer than the last mark:
    /// what a command killed between an append and its mark leaves), then reads the marks back.
    pub fn mark_head(&self, token: &dyn Token) -> Result<()> {
        let binding = self.bound()?;
        let hashes = self.hashes()?;
        let size = hashes.len() as u64;
        self.mark(token, binding, size, self.root_of(&hashes), Vouch::ReadBack)
    }

    /// After this process marked `mine` (spec/appliance.md §6.6): the marks read back, after the mark was
    /// created, hold no other history of the trail, no mark of the same size with another root
    /// and none larger. Two commands working on two copies of one trail at once both mark; the
    /// later of their two reads finds the other's mark, provided a read finds every mark created
    /// before it began, as the [`super::FreshMarks`] reader's does (the command's own session
    /// on SoftHSM 2.6 does not, docs/threat-model.md). So at most one goes on.
    fn check_marks(&self, token: &dyn Token, mine: &Mark) -> Result<()> {
        let read = match &self.fresh {
            Some(f) => f.marks_afresh()?,
            None => token.marks()?,
        };
        // The trail this command appends to is still the token's: a witnessed `urne trail
        // restart` (made from another folder, so without this command's lock) replaced it
        // meanwhile, and this command stops at its first mark after it.
        let current = urne_ceremony::token::current_trail(&read.trails).map(|o| o.trail);
        if current != Some(mine.trail) {
            return Err(Error::new(
                crate::error::Kind::TrailChanged,
                match current {
                    Some(t) => crate::msg!(
                        m::ERR_APPEND_RESTARTED,
                        trail = mine.trail,
                        path = self.path.display(),
                        now = t
                    ),
                    None => crate::msg!(
                        m::ERR_APPEND_RESTARTED_NO_CHAIN,
                        trail = mine.trail,
                        path = self.path.display()
                    ),
                },
                crate::msg!(m::REC_APPEND_RESTARTED),
            ));
        }
        // Any mark of the trail that is not on this command's history: larger than its own, or
        // of a size it holds with another root. (Commands mark before they act, not after
        // every event, so two copies used at once may mark different sizes.) The roots of the
        // marks it knows already are not computed again.
        let hashes = self.known.borrow().clone().unwrap_or_default();
        let mut checked = self.on_history.borrow_mut();
        let other = read
            .marks
            .into_iter()
            .filter(|m| m.trail == mine.trail)
            .find(|m| {
                if checked.contains(&(m.size, m.root)) {
                    return false;
                }
                let size = usize::try_from(m.size).unwrap_or(usize::MAX);
                let ours = m.size <= mine.size
                    && size <= hashes.len()
                    && (m.size == mine.size && m.root == mine.root
                        || chain::tree_root(&hashes[..size]) == m.root);
                if ours {
                    checked.insert((m.size, m.root));
                }
                !ours
            });
        match other {
            None => Ok(()),
            Some(m) => Err(Error::new(
                crate::error::Kind::TrailFork,
                crate::msg!(
                    m::ERR_APPEND_FORK,
                    size = m.size,
                    root = m.root,
                    path = self.path.display()
                ),
                crate::msg!(m::REC_APPEND_FORK),
            )),
        }
    }
}

impl AuditLog {
    /// What this process knows once its append of `event` committed (at `data_version`
    /// `version`, over what it read, `before`): the trail's hashes and right edge, the view, the
    /// closes a mark anchors, and the events it keeps if it read them all.
    fn appended(
        &self,
        version: i64,
        before: Before,
        event: &Event,
        hashes: Vec<Hash32>,
        frontier: chain::Frontier,
    ) {
        let seq = event.seq;
        // Advance the view over this process's own append, unless someone else appended since:
        // then the view stays behind and every later checked append is refused.
        match self.view.get() {
            Some(seen) if seen + 1 == seq => self.view.set(Some(seq)),
            None => self.view.set(Some(seq)),
            Some(_) => {}
        }
        *self.known.borrow_mut() = Some(hashes);
        *self.frontier.borrow_mut() = Some(frontier);
        self.synced.set(Some(version));
        if event.kind == Kind::SittingClosed.name() {
            self.closes.borrow_mut().push(seq);
        }
        if let Before::All(mut events) = before {
            self.contents.set(true);
            events.push(event.clone());
            *self.seen.borrow_mut() = Some((version, super::Events::new(events)));
        }
    }
}

/// The events a process keeps, with the `data_version` they are of ([`AuditLog`]'s `seen`).
type Seen = std::cell::RefCell<Option<(i64, super::Events)>>;

/// What an append extends, as [`events_to_extend`] read it.
enum Before {
    /// Every event, read and recomputed (or as this process last read and appended them).
    All(Vec<Event>),
    /// The head only, recomputed: the file holds exactly the events this process knows.
    Head(Event),
}

impl Before {
    /// The events the new one's time is checked against (spec/formats.md §6.4 (5)).
    fn events(&self) -> &[Event] {
        match self {
            Before::All(events) => events,
            Before::Head(e) => std::slice::from_ref(e),
        }
    }
}

/// What an append of a `kind` event extends, inside its transaction: the events this process
/// last read or appended, unless another connection wrote the file since (SQLite's
/// `data_version`), when they are read again and checked against what it verified (`known`);
/// only the head, recomputed, while the file holds exactly what this process knows (`synced`,
/// the `data_version` it last knew so) and it keeps no events read (a clock correction is
/// checked against every event: it reads them); and the new event's link, `(seq, prev)` as the
/// file's head row gives it, must follow the last of them. Returns the `data_version` they are
/// of, and what was read.
fn events_to_extend(
    tx: &Connection,
    path: &Path,
    (seen, synced, contents): (&Seen, Option<i64>, bool),
    kind: &str,
    known: Option<&[Hash32]>,
    (seq, prev): (u64, Hash32),
) -> Result<(i64, Before)> {
    let version = super::data_version(tx, path)?;
    let cached = seen
        .borrow_mut()
        .take()
        .filter(|(v, e)| *v == version && known.is_some_and(|k| k.len() == e.len()));
    let unchanged = known.filter(|k| {
        synced == Some(version)
            && k.len() as u64 + 1 == seq
            && k.last().copied().unwrap_or(Hash32::ZERO) == prev
    });
    let before = match (cached, unchanged) {
        // Copied only while a caller still holds them.
        (Some((_, events)), _) => Before::All(
            super::Events::try_unwrap(events).unwrap_or_else(|shared| (*shared).clone()),
        ),
        (None, Some(k)) if !k.is_empty() && kind != Kind::ClockCorrected.name() => {
            let rows =
                super::read_events_where(tx, path, "seq = ?1", [(k.len() as u64).cast_signed()])?;
            super::check_rows(k, path, &rows, contents)?;
            match rows.into_iter().next() {
                Some(head) => Before::Head(head),
                None => return Err(super::gone_error(path, &m::ERR_STORE_CHANGED)),
            }
        }
        _ => {
            let events = super::read_events(tx, path)?;
            super::check_known(known, path, &events, contents)?;
            Before::All(events)
        }
    };
    // A head row changed under this process by other means than SQLite is refused, never
    // signed over.
    let (n, last) = match &before {
        Before::All(events) => (events.len() as u64, events.last().map(|e| e.hash)),
        Before::Head(e) => (e.seq, Some(e.hash)),
    };
    if seq != n + 1 || last.unwrap_or(Hash32::ZERO) != prev {
        return Err(super::gone_error(path, &m::ERR_STORE_CHANGED));
    }
    Ok((version, before))
}

/// Signs the checkpoint over the trail with the event being appended (`size` events, root
/// `root`) with the token's audit key and stores it in the append's transaction.
fn sign_checkpoint(
    tx: &Connection,
    path: &Path,
    token: &dyn Token,
    binding: &Binding,
    size: u64,
    root: &Hash32,
) -> Result<()> {
    let body = chain::checkpoint_body_of(binding.origin, &binding.audit_key, size, root);
    let sig = token.sign_checkpoint(body.as_bytes())?;
    let note = chain::signed_note(&binding.audit_key, &body, &sig);
    tx.execute(
        "INSERT INTO checkpoints (size, note) VALUES (?1, ?2)",
        params![size.cast_signed(), note],
    )
    .map_err(|e| db_err(path, &m::ERR_DB_STORE_CHECKPOINT, e))?;
    Ok(())
}

/// Before an append: the head (the `n` events there are, of root `root`) is covered by a stored
/// checkpoint of exactly that size whose note verifies under the token's audit key and signs
/// their root. A row urne did not append has none, so nothing is ever signed over it.
fn check_head_signed(
    conn: &Connection,
    path: &Path,
    binding: &Binding,
    n: u64,
    root: &Hash32,
) -> Result<()> {
    if n == 0 {
        return Ok(());
    }
    let last: Option<(i64, String)> = conn
        .query_row(
            "SELECT size, note FROM checkpoints ORDER BY size DESC LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()
        .map_err(|e| db_err(path, &m::ERR_DB_READ_CHECKPOINTS, e))?;
    let ok = last.is_some_and(|(size, note)| {
        size.cast_unsigned() == n
            && chain::verify_note_as(&note, &binding.audit_key, binding.origin)
                .is_ok_and(|cp| cp.size == n && cp.root == *root)
    });
    if ok {
        return Ok(());
    }
    Err(Error::new(
        crate::error::Kind::TrailChanged,
        crate::msg!(m::ERR_APPEND_HEAD_UNSIGNED, path = path.display(), n = n),
        crate::msg!(m::REC_APPEND_HEAD_UNSIGNED),
    ))
}

/// A decision is recorded only on the trail this process read: the head must still be the one
/// it last knew (`seen`, advanced by its own appends only).
fn check_head_seen(seen: Option<u64>, seq: u64) -> Result<()> {
    match seen {
        Some(seen) if seen + 1 != seq => Err(Error::new(
            crate::error::Kind::TrailChanged,
            crate::msg!(m::ERR_APPEND_HEAD_MOVED, seen = seen, found = seq - 1),
            crate::msg!(m::REC_STORE_GREW),
        )),
        _ => Ok(()),
    }
}

/// Stores each blob under its SHA-256 (once: a blob already there is kept), in the append's
/// transaction; returns their hashes in order.
fn store_blobs(tx: &Connection, path: &Path, blobs: &[&[u8]]) -> Result<Vec<Hash32>> {
    let mut hashes = Vec::with_capacity(blobs.len());
    for b in blobs {
        let h = urne_verify::crypto::sha256(b);
        hashes.push(h);
        tx.execute(
            "INSERT OR IGNORE INTO blobs (sha256, data) VALUES (?1, ?2)",
            params![h.as_slice(), b],
        )
        .map_err(|e| db_err(path, &m::ERR_DB_STORE_DATA, e))?;
    }
    Ok(hashes)
}

/// Refuses (exit 5, nothing recorded) an event whose time is earlier than the one before it
/// (spec/formats.md §6.4 (5)): the clock was set back while the command ran, after its check of the
/// trail. Appended, it would make the trail fail both verifiers and every later command.
fn check_time(before: &[Event], event: &Event, path: &Path) -> Result<()> {
    urne_verify::verify::trail::may_follow(before, event).map_err(|why| {
        Error::trail(
            crate::error::Kind::ClockWentBack,
            crate::msg!(m::ERR_APPEND_CLOCK_BACK, path = path.display(), why = why),
            crate::msg!(m::REC_APPEND_CLOCK_BACK),
        )
    })
}

#[cfg(test)]
mod time_tests {
    use super::*;

    fn at(seq: u64, ts: &str, kind: &str) -> Event {
        Event {
            seq,
            ts: ts.into(),
            kind: kind.into(),
            payload: "{}".into(),
            prev_hash: Hash32([0; 32]),
            hash: Hash32([0; 32]),
        }
    }

    #[test]
    fn an_event_earlier_than_the_one_before_is_never_appended() {
        let p = Path::new("audit.db");
        let prev = at(4, "2026-12-06T10:00:00.000000Z", "software.start");
        let same = at(5, "2026-12-06T10:00:00.000000Z", "draw.seal");
        assert!(check_time(std::slice::from_ref(&prev), &same, p).is_ok());
        assert!(check_time(&[], &same, p).is_ok());
        let back = at(5, "2026-12-06T09:59:59.999999Z", "draw.result");
        let e = check_time(std::slice::from_ref(&prev), &back, p).unwrap_err();
        assert_eq!(e.kind, crate::error::Kind::ClockWentBack);
        assert!(
            e.untouched,
            "a refusal of the trail's order records nothing"
        );
        // A correction must name the wrong time exactly to go back.
        let wrong = at(5, "2026-12-06T09:00:00.000000Z", "clock.corrected");
        assert!(check_time(std::slice::from_ref(&prev), &wrong, p).is_err());
        // A correction naming the time before it, but never past a sitting opened at the watch
        // (M-254), nor dated more than the watch check's tolerance before what it confirms.
        let opened = at(1, "2026-12-06T09:50:00.000000Z", "sitting.opened");
        let before = [opened, prev.clone()];
        let correction = |ts: &str, confirmed: &str| Event {
            payload: format!(
                r#"{{"wrong":"{}","confirmed":"{confirmed}","reason":"clock set ahead"}}"#,
                prev.ts
            ),
            ..at(5, ts, "clock.corrected")
        };
        let ok = correction("2026-12-06T09:45:00.000000Z", "2026-12-06T09:45:00.000000Z");
        assert!(check_time(&before, &ok, p).is_ok());
        let past = correction("2026-12-06T09:40:00.000000Z", "2026-12-06T09:40:00.000000Z");
        let e = check_time(&before, &past, p).unwrap_err();
        assert!(
            e.message.contains("never goes back past a watch"),
            "{}",
            e.message
        );
        let moved = correction("2026-12-06T09:38:00.000000Z", "2026-12-06T09:45:00.000000Z");
        assert!(check_time(&before, &moved, p).is_err());
    }
}
