//! The load into `PostgreSQL`: one transaction, under an advisory lock (two imports never
//! interleave), the schema created by the first import (sql/urne-import-v1.sql) and refused when
//! it is another version. Idempotent: what the database already holds is compared, never
//! written again, and an import that changes nothing is rolled back (no row at all). A draw or
//! block of an attempt the database holds with other values is a fork, refused. A void of an
//! attempt the database holds as payable (or on sale) marks it void and is an [`Alert`].

use crate::error::{ImportError, Kind};
use crate::state::{BlockState, BlockStatus, DayState, DayStatus, Draw, State};
use crate::tickets::Tickets;
use postgres::{Client, Transaction};
use std::io::Write;

/// The schema this import creates and reads.
pub const SCHEMA_VERSION: i32 = 1;

/// The schema's SQL, version 1.
pub const SCHEMA_SQL: &str = include_str!("../sql/urne-import-v1.sql");

/// The advisory lock every import takes for its transaction ("urne" in ASCII).
const LOCK: i64 = 0x7572_6e65;

/// A result or block the database held as payable or on sale, now void.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Alert {
    /// A day's attempt imported before as the result that counts is now void.
    DrawVoided {
        /// The operation.
        operation: String,
        /// The day.
        day: String,
        /// The attempt.
        attempt: u32,
        /// The void's reason.
        reason: String,
    },
    /// A block's attempt imported before as committed or revealed is now void.
    BlockVoided {
        /// The block.
        block: String,
        /// The attempt.
        attempt: u32,
        /// The void's reason.
        reason: String,
    },
}

/// What a load did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Loaded {
    /// Whether anything changed (else the transaction was rolled back).
    pub changed: bool,
    /// Rows written, by table.
    pub rows: Vec<(&'static str, u64)>,
    /// Results or blocks held before as payable or on sale, now void.
    pub alerts: Vec<Alert>,
    /// The import's id, when it changed something.
    pub import: Option<i64>,
    /// Whether this import created the schema (the database's first).
    pub first: bool,
}

/// The checkpoint the database's last import recorded (note text), if any: the next import's
/// outputs must have it on their history.
///
/// # Errors
/// The database refuses the query, or holds another schema version.
pub fn last_checkpoint(client: &mut Client) -> Result<Option<String>, ImportError> {
    let mut t = client
        .transaction()
        .map_err(|e| ImportError::database("a transaction", &e))?;
    if !schema_present(&mut t)? {
        return Ok(None);
    }
    check_version(&mut t)?;
    last_note(&mut t)
}

fn schema_present(t: &mut Transaction<'_>) -> Result<bool, ImportError> {
    let row = t
        .query_one("SELECT to_regclass('urne.schema_version') IS NOT NULL", &[])
        .map_err(|e| ImportError::database("the schema's lookup", &e))?;
    col(&row, 0)
}

fn check_version(t: &mut Transaction<'_>) -> Result<(), ImportError> {
    let rows = t
        .query("SELECT version FROM urne.schema_version", &[])
        .map_err(|e| ImportError::database("the schema's version", &e))?;
    let versions = rows
        .iter()
        .map(|r| col::<i32>(r, 0))
        .collect::<Result<Vec<_>, _>>();
    let versions = versions.unwrap_or_default();
    if versions != [SCHEMA_VERSION] {
        return Err(ImportError::new(
            Kind::Database,
            format!(
                "the database's urne schema is version {versions:?}; this urne-import knows version {SCHEMA_VERSION}"
            ),
            "import with the urne-import that made the schema, or into a new database; nothing was loaded",
        ));
    }
    Ok(())
}

fn last_note(t: &mut Transaction<'_>) -> Result<Option<String>, ImportError> {
    let row = t
        .query_opt(
            "SELECT checkpoint_note FROM urne.imports ORDER BY checkpoint_size DESC, id DESC LIMIT 1",
            &[],
        )
        .map_err(|e| ImportError::database("the last import", &e))?;
    row.map(|r| col(&r, 0)).transpose()
}

/// What is imported, as [`load`] takes it.
pub struct Import<'a> {
    /// The medium, as given (recorded).
    pub medium: &'a str,
    /// The key ids the outputs were verified under (recorded).
    pub result_key_id: &'a str,
    /// The audit key's id.
    pub audit_key_id: &'a str,
    /// The state worked out.
    pub state: &'a State,
    /// The production files checked.
    pub tickets: &'a [Tickets],
    /// The database's last checkpoint the outputs were verified against: it must still be the
    /// last when the transaction holds the lock (else another import ran in between).
    pub held: Option<&'a str>,
}

/// Loads `i` in one transaction.
///
/// # Errors
/// The database refuses ([`Kind::Database`]); another import ran since the checkpoint held was
/// read, or the database holds another draw or block for an attempt ([`Kind::Fork`]). Nothing
/// is then loaded.
pub fn load(client: &mut Client, i: &Import<'_>) -> Result<Loaded, ImportError> {
    let mut t = client
        .transaction()
        .map_err(|e| ImportError::database("a transaction", &e))?;
    t.execute("SELECT pg_advisory_xact_lock($1)", &[&LOCK])
        .map_err(|e| ImportError::database("the import's lock", &e))?;
    let mut out = Loaded::default();
    if schema_present(&mut t)? {
        check_version(&mut t)?;
    } else {
        t.batch_execute(SCHEMA_SQL)
            .map_err(|e| ImportError::database("the schema's creation", &e))?;
        out.changed = true;
        out.first = true;
    }
    if last_note(&mut t)?.as_deref() != i.held {
        return Err(ImportError::new(
            Kind::Fork,
            "another import changed the database while this one was verifying",
            "run the import again: it verifies against what the database now holds",
        ));
    }
    let Some((size, note)) = &i.state.checkpoint else {
        return Err(ImportError::new(
            Kind::Usage,
            "the medium holds no version-2 output with a checkpoint: nothing to import",
            "import the publications medium of an official sitting",
        ));
    };
    let root = note.lines().nth(2).unwrap_or_default();
    let size = i64::try_from(*size).unwrap_or(i64::MAX);
    let import: i64 = t
        .query_one(
            "INSERT INTO urne.imports (medium, audit_key_id, result_key_id, checkpoint_size, checkpoint_root, checkpoint_note) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
            &[&i.medium, &i.audit_key_id, &i.result_key_id, &size, &root, note],
        )
        .map_err(|e| ImportError::database("the import's record", &e))
        .and_then(|r| col(&r, 0))?;
    if i.held != Some(note.as_str()) {
        out.changed = true;
    }
    let mut rows = Rows::default();
    for d in &i.state.days {
        load_day(&mut t, d, import, &mut rows, &mut out.alerts)?;
    }
    for b in &i.state.blocks {
        load_block(&mut t, b, import, &mut rows, &mut out.alerts)?;
    }
    for (block, attempt, void) in &i.state.block_voids {
        void_block(
            &mut t,
            block,
            *attempt,
            &void.reason,
            import,
            &mut rows,
            &mut out.alerts,
        )?;
    }
    for tk in i.tickets {
        load_tickets(&mut t, tk, &mut rows)?;
    }
    out.changed |= rows.any();
    out.rows = rows.0;
    if out.changed {
        t.commit()
            .map_err(|e| ImportError::database("the commit", &e))?;
        out.import = Some(import);
    } else {
        t.rollback()
            .map_err(|e| ImportError::database("the rollback", &e))?;
    }
    Ok(out)
}

/// Rows written, by table.
#[derive(Default)]
struct Rows(Vec<(&'static str, u64)>);

impl Rows {
    fn add(&mut self, table: &'static str, n: u64) {
        if n == 0 {
            return;
        }
        match self.0.iter_mut().find(|(t, _)| *t == table) {
            Some((_, k)) => *k += n,
            None => self.0.push((table, n)),
        }
    }

    fn any(&self) -> bool {
        !self.0.is_empty()
    }
}

/// Column `i` of `row`: a value of another type than the schema's is the database's error,
/// never a panic.
fn col<'a, T: postgres::types::FromSql<'a>>(
    row: &'a postgres::Row,
    i: usize,
) -> Result<T, ImportError> {
    row.try_get(i)
        .map_err(|e| ImportError::database("a value of the expected type", &e))
}

/// An integer the database stores in fewer bits: one that does not fit is refused.
fn fits<T: TryFrom<u64>>(n: u64, what: &str) -> Result<T, ImportError> {
    T::try_from(n).map_err(|_| {
        ImportError::new(
            Kind::Database,
            format!("{what} {n} does not fit the database's column"),
            "report this to urne's maintainers with the medium; nothing was loaded",
        )
    })
}

fn attempt_i32(a: urne_verify::values::Attempt) -> Result<i32, ImportError> {
    fits(u64::from(a.get()), "attempt")
}

fn cents(c: u64) -> Result<i64, ImportError> {
    fits(c, "amount in cents")
}

/// The digest of a draw as imported: every value the tables hold of it.
fn draw_digest(d: &Draw) -> String {
    let placed: Vec<_> = d
        .placed
        .iter()
        .map(|p| {
            serde_json::json!([
                p.rank,
                p.account.to_string(),
                p.pseudonym.to_string(),
                p.entries,
                p.entry,
                p.leaf
            ])
        })
        .collect();
    let v = serde_json::json!([
        d.operation,
        d.day.to_string(),
        d.attempt.get(),
        d.export_sha256.to_string(),
        d.rules_sha256.to_string(),
        d.commitment_root.to_string(),
        d.seed.to_string(),
        d.prize_cents,
        d.drawn_at,
        d.audit_checkpoint,
        placed
    ]);
    urne_verify::crypto::sha256(v.to_string().as_bytes()).to_string()
}

/// The digest of a block's signed commitment, as parsed.
fn block_digest(b: &BlockState) -> String {
    let v = serde_json::to_vec(&b.commitment).unwrap_or_default();
    urne_verify::crypto::sha256(&v).to_string()
}

fn load_day(
    t: &mut Transaction<'_>,
    d: &DayState,
    import: i64,
    rows: &mut Rows,
    alerts: &mut Vec<Alert>,
) -> Result<(), ImportError> {
    let day = d.day.to_string(); // bound as text, cast by `::text::date`
    for (attempt, draw) in &d.draws {
        let void = d.voids.get(attempt);
        let a = attempt_i32(*attempt)?;
        let held = t
            .query_opt(
                "SELECT status, digest FROM urne.draws WHERE operation = $1 AND day = $2::text::date AND attempt = $3",
                &[&d.operation, &day, &a],
            )
            .map_err(|e| ImportError::database("a draw's lookup", &e))?;
        let Some(r) = held else {
            insert_draw(t, draw, void.map(|v| v.reason.as_str()), import)?;
            rows.add("draws", 1);
            rows.add("placed", draw.placed.len() as u64);
            continue;
        };
        let (status, digest): (String, String) = (col(&r, 0)?, col(&r, 1)?);
        if digest != draw_digest(draw) {
            return Err(ImportError::new(
                Kind::Fork,
                format!(
                    "the database holds another draw of {} day {day} attempt {attempt} than the medium's",
                    d.operation
                ),
                "two histories: import nothing, keep the medium as evidence and tell the operator and the commissaire",
            ));
        }
        if let (Some(v), "counts") = (void, status.as_str()) {
            void_draw(t, d, *attempt, &v.reason, import, rows, alerts)?;
        }
    }
    // A void the medium states of an attempt it does not hold (a later attempt's
    // `voided_attempts`, a notice imported alone): the database's row of that attempt, if it
    // counted, is void.
    for (attempt, v) in d.voids.iter().filter(|(a, _)| !d.draws.contains_key(*a)) {
        void_draw(t, d, *attempt, &v.reason, import, rows, alerts)?;
    }
    day_state(t, d, &day, rows)
}

/// The attempt's row, if it counts, made void; the alert recorded and returned.
fn void_draw(
    t: &mut Transaction<'_>,
    d: &DayState,
    attempt: urne_verify::values::Attempt,
    reason: &str,
    import: i64,
    rows: &mut Rows,
    alerts: &mut Vec<Alert>,
) -> Result<(), ImportError> {
    let day = d.day.to_string();
    let a = attempt_i32(attempt)?;
    let n = t
        .execute(
            "UPDATE urne.draws SET status = 'void', voided_in = $4, void_reason = $5 WHERE operation = $1 AND day = $2::text::date AND attempt = $3 AND status = 'counts'",
            &[&d.operation, &day, &a, &import, &reason],
        )
        .map_err(|e| ImportError::database("a void", &e))?;
    if n == 0 {
        return Ok(());
    }
    rows.add("draws", n);
    record_alert(
        t,
        import,
        "payable-result-voided",
        &format!("{} {day}", d.operation),
        a,
        reason,
    )?;
    rows.add("alerts", 1);
    alerts.push(Alert::DrawVoided {
        operation: d.operation.clone(),
        day,
        attempt: attempt.get(),
        reason: reason.to_string(),
    });
    Ok(())
}

fn record_alert(
    t: &mut Transaction<'_>,
    import: i64,
    alert: &str,
    subject: &str,
    attempt: i32,
    reason: &str,
) -> Result<(), ImportError> {
    t.execute(
        "INSERT INTO urne.alerts (import, alert, subject, attempt, reason) VALUES ($1, $2, $3, $4, $5)",
        &[&import, &alert, &subject, &attempt, &reason],
    )
    .map_err(|e| ImportError::database("an alert", &e))?;
    Ok(())
}

/// The day's row, from the draws the database now holds (the medium may be one output, which
/// knows less than the database): drawn when an attempt counts (one at most), voided when its
/// attempts are void or a void notice voids an attempt not drawn, else not drawn; a day voided
/// stays so until an attempt counts.
fn day_state(
    t: &mut Transaction<'_>,
    d: &DayState,
    day: &str,
    rows: &mut Rows,
) -> Result<(), ImportError> {
    let r = t
        .query_one(
            "SELECT array_agg(attempt) FILTER (WHERE status = 'counts'), count(*) FILTER (WHERE status = 'void'), \
             (SELECT status FROM urne.days WHERE operation = $1 AND day = $2::text::date) \
             FROM urne.draws WHERE operation = $1 AND day = $2::text::date",
            &[&d.operation, &day],
        )
        .map_err(|e| ImportError::database("a day's draws", &e))?;
    let counting: Option<Vec<i32>> = col(&r, 0)?;
    let voided: i64 = col(&r, 1)?;
    let was: Option<String> = col(&r, 2)?;
    let counting = counting.unwrap_or_default();
    let (status, attempt) = match counting[..] {
        [a] => ("drawn", Some(a)),
        [] if voided > 0 || d.status == DayStatus::Voided || was.as_deref() == Some("voided") => {
            ("voided", None)
        }
        [] => ("not-drawn", None),
        _ => {
            return Err(ImportError::new(
                Kind::Fork,
                format!(
                    "{} day {day}: attempts {counting:?} would each be the result",
                    d.operation
                ),
                "a day has one result: import nothing, keep the medium as evidence",
            ));
        }
    };
    let n = t
        .execute(
            "INSERT INTO urne.days (operation, day, status, attempt) VALUES ($1, $2::text::date, $3, $4) \
             ON CONFLICT (operation, day) DO UPDATE SET status = EXCLUDED.status, attempt = EXCLUDED.attempt \
             WHERE (urne.days.status, urne.days.attempt) IS DISTINCT FROM (EXCLUDED.status, EXCLUDED.attempt)",
            &[&d.operation, &day, &status, &attempt],
        )
        .map_err(|e| ImportError::database("a day's state", &e))?;
    rows.add("days", n);
    Ok(())
}

fn insert_draw(
    t: &mut Transaction<'_>,
    d: &Draw,
    void: Option<&str>,
    import: i64,
) -> Result<(), ImportError> {
    let day = d.day.to_string();
    let a = attempt_i32(d.attempt)?;
    let status = if void.is_some() { "void" } else { "counts" };
    t.execute(
        "INSERT INTO urne.draws (operation, day, attempt, status, digest, export_sha256, rules_sha256, commitment_root, seed, prize_cents, drawn_at, audit_checkpoint, imported_in, voided_in, void_reason) \
         VALUES ($1, $2::text::date, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
        &[
            &d.operation,
            &day,
            &a,
            &status,
            &draw_digest(d),
            &d.export_sha256.to_string(),
            &d.rules_sha256.to_string(),
            &d.commitment_root.to_string(),
            &d.seed.to_string(),
            &cents(d.prize_cents)?,
            &d.drawn_at,
            &d.audit_checkpoint,
            &import,
            &(void.is_some().then_some(import)),
            &void,
        ],
    )
    .map_err(|e| ImportError::database("a draw", &e))?;
    for p in &d.placed {
        let rank: i32 = fits(u64::from(p.rank), "rank")?;
        t.execute(
            "INSERT INTO urne.placed (operation, day, attempt, rank, account, pseudonym, entries) VALUES ($1, $2::text::date, $3, $4, $5, $6, $7)",
            &[
                &d.operation,
                &day,
                &a,
                &rank,
                &p.account.to_string(),
                &p.pseudonym.to_string(),
                &i32::from(p.entries),
            ],
        )
        .map_err(|e| ImportError::database("a winner or reserve", &e))?;
    }
    Ok(())
}

fn block_status(s: BlockStatus) -> &'static str {
    match s {
        BlockStatus::Committed => "committed",
        BlockStatus::Revealed => "revealed",
        BlockStatus::Void => "void",
    }
}

fn load_block(
    t: &mut Transaction<'_>,
    b: &BlockState,
    import: i64,
    rows: &mut Rows,
    alerts: &mut Vec<Alert>,
) -> Result<(), ImportError> {
    let block = b.block.to_string();
    let attempt = attempt_i32(b.attempt)?;
    let commit = &b.commitment;
    let seed = b.reveal.as_ref().map(|rv| rv.seed.to_string());
    let revealed_at = b.reveal.as_ref().map(|rv| rv.revealed_at.clone());
    let held = t
        .query_opt(
            "SELECT status, digest FROM urne.blocks WHERE block = $1 AND attempt = $2",
            &[&block, &attempt],
        )
        .map_err(|e| ImportError::database("a block's lookup", &e))?;
    let Some(row) = held else {
        let reason = b.void.as_ref().map(|v| v.reason.clone());
        t.execute(
            "INSERT INTO urne.blocks (block, attempt, status, digest, game, price_cents, block_size, rules_sha256, tickets_sha256, outcomes_root, seed_commitment, generated_at, seed, revealed_at, imported_in, voided_in, void_reason) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
            &[
                &block,
                &attempt,
                &block_status(b.status),
                &block_digest(b),
                &commit.game,
                &cents(commit.price_cents)?,
                &fits::<i32>(u64::from(commit.block_size), "block size")?,
                &commit.rules_sha256.to_string(),
                &commit.tickets_sha256.to_string(),
                &commit.outcomes_root.to_string(),
                &commit.seed_commitment.to_string(),
                &commit.generated_at,
                &seed,
                &revealed_at,
                &import,
                &(b.void.is_some().then_some(import)),
                &reason,
            ],
        )
        .map_err(|e| ImportError::database("a block", &e))?;
        rows.add("blocks", 1);
        return Ok(());
    };
    let (was, digest): (String, String) = (col(&row, 0)?, col(&row, 1)?);
    if digest != block_digest(b) {
        return Err(ImportError::new(
            Kind::Fork,
            format!(
                "the database holds another commitment of block {block} attempt {attempt} than the medium's"
            ),
            "two histories: import nothing, keep the medium as evidence and tell the operator and the commissaire",
        ));
    }
    match (was.as_str(), b.status) {
        ("committed", BlockStatus::Revealed) => {
            let n = t
                .execute(
                    "UPDATE urne.blocks SET status = 'revealed', seed = $3, revealed_at = $4 WHERE block = $1 AND attempt = $2",
                    &[&block, &attempt, &seed, &revealed_at],
                )
                .map_err(|e| ImportError::database("a reveal", &e))?;
            rows.add("blocks", n);
        }
        (_, BlockStatus::Void) => {
            let reason = b.void.as_ref().map_or("", |v| v.reason.as_str());
            void_block(t, &b.block, b.attempt, reason, import, rows, alerts)?;
        }
        _ => {}
    }
    Ok(())
}

/// The block attempt's row, if not void yet, made void; the alert recorded and returned.
fn void_block(
    t: &mut Transaction<'_>,
    block: &urne_verify::values::BlockId,
    attempt: urne_verify::values::Attempt,
    reason: &str,
    import: i64,
    rows: &mut Rows,
    alerts: &mut Vec<Alert>,
) -> Result<(), ImportError> {
    let id = block.to_string();
    let a = attempt_i32(attempt)?;
    let n = t
        .execute(
            "UPDATE urne.blocks SET status = 'void', voided_in = $3, void_reason = $4 WHERE block = $1 AND attempt = $2 AND status <> 'void'",
            &[&id, &a, &import, &reason],
        )
        .map_err(|e| ImportError::database("a block's void", &e))?;
    if n == 0 {
        return Ok(());
    }
    rows.add("blocks", n);
    record_alert(t, import, "block-on-sale-voided", &id, a, reason)?;
    rows.add("alerts", 1);
    alerts.push(Alert::BlockVoided {
        block: id,
        attempt: attempt.get(),
        reason: reason.to_string(),
    });
    Ok(())
}

fn copy_write(w: &mut postgres::CopyInWriter<'_>, bytes: &[u8]) -> Result<(), ImportError> {
    w.write_all(bytes).map_err(|e| {
        ImportError::new(
            Kind::Database,
            format!("the production file's COPY: {e}"),
            "check the database's state; nothing was loaded",
        )
    })
}

/// A production file's rows, unless the block's are loaded already or the block is void (never
/// to be sold: its file is checked, not loaded).
fn load_tickets(t: &mut Transaction<'_>, tk: &Tickets, rows: &mut Rows) -> Result<(), ImportError> {
    let block = tk.block.to_string();
    let a = attempt_i32(tk.attempt)?;
    let row = t
        .query_one(
            "SELECT tickets_loaded, status FROM urne.blocks WHERE block = $1 AND attempt = $2",
            &[&block, &a],
        )
        .map_err(|e| ImportError::database("a block's lookup", &e))?;
    let (loaded, status): (bool, String) = (col(&row, 0)?, col(&row, 1)?);
    if loaded || status == "void" {
        return Ok(());
    }
    // The checked bytes, row for row, each prefixed with its block and attempt (CSV fields that
    // need no quoting: a block id and attempt are `a-z 0-9 - /` and digits, spec/formats.md
    // §5.B2), straight into the table.
    let mut w = t
        .copy_in(
            "COPY urne.tickets (block, attempt, position, tier, prize_cents, offered, grid1, grid2, grid3) FROM STDIN WITH (FORMAT csv)",
        )
        .map_err(|e| ImportError::database("the production file's COPY", &e))?;
    let prefix = format!("{block},{a},");
    let body = tk
        .bytes
        .iter()
        .position(|&c| c == b'\n')
        .map_or(&[][..], |i| &tk.bytes[i + 1..]);
    let mut buf = Vec::with_capacity(1 << 20);
    for line in body.split_inclusive(|&c| c == b'\n') {
        buf.extend_from_slice(prefix.as_bytes());
        buf.extend_from_slice(line);
        if buf.len() >= 1 << 20 {
            copy_write(&mut w, &buf)?;
            buf.clear();
        }
    }
    copy_write(&mut w, &buf)?;
    let n = w
        .finish()
        .map_err(|e| ImportError::database("the production file's COPY", &e))?;
    if n != u64::from(tk.rows) {
        return Err(ImportError::new(
            Kind::Database,
            format!("block {block}: {n} rows loaded of {}", tk.rows),
            "nothing was loaded; check the database",
        ));
    }
    t.execute(
        "UPDATE urne.blocks SET tickets_loaded = true WHERE block = $1 AND attempt = $2",
        &[&block, &a],
    )
    .map_err(|e| ImportError::database("a block's production file", &e))?;
    rows.add("tickets", n);
    Ok(())
}
