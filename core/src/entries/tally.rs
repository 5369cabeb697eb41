//! Pass 2: parse and validate every line of an export (entry-export-v1, "What makes a file
//! invalid"), re-hash it, and apply D-3 … D-6 and D-13 ("From plays to entries").
//!
//! The reading thread hashes the bytes and cuts them into line-aligned chunks; worker threads
//! parse chunks and keep per-account sums. Nothing depends on how lines fall into chunks or
//! threads: sums are commutative, every list is sorted before use, and the error reported is the
//! one on the smallest line number (every line before it has been checked).
//!
//! Memory grows with the number of accounts, plus 8 bytes per play for duplicate-id detection
//! (a 64-bit fingerprint of each id, see [`fingerprint`] and [`tally_export_with`]); never with
//! the bytes of the file.

use std::collections::HashSet;
use std::io::Read;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;

use chrono::NaiveDate;
use sha2::{Digest, Sha256};

use super::accounts::{AccountSums, account_of};
use super::fast::{self, FastPlay};
use super::json::{self, JsonError, Val};
use super::rfc3339;
use super::verify::{BLOCK, fill};
use super::{AccountEntries, DayTally, ExportError, ExportErrorKind, VerifiedExport};
use crate::rules::draw::{Channel, DrawRules, ExclusionReason};

/// Longest line accepted (a resource limit; a valid record is a few hundred bytes).
pub const MAX_LINE: usize = 1 << 20;

/// Largest stake of one play, in cents (entry-export-v1).
pub(super) const MAX_STAKE_CENTS: u64 = 100_000_000;

/// How to run the tally. The result never depends on these.
#[derive(Clone, Debug, Default)]
pub struct TallyOptions {
    /// Parsing threads; 0 picks the machine's parallelism (at most 4).
    pub threads: usize,
}

/// Pass 2 with default options. `open` opens the file (it is read again, a third time, only
/// when two play ids may be equal: see [`tally_export_with`]). `verified` is what
/// [`super::verify_export`] returned for the same file: the file read here must have the same
/// SHA-256 and size, or it is refused.
pub fn tally_export<R: Read>(
    open: impl FnMut() -> std::io::Result<R>,
    verified: &VerifiedExport,
    rules: &DrawRules,
) -> Result<DayTally, ExportError> {
    tally_export_with(open, verified, rules, &TallyOptions::default())
}

/// Pass 2: parses, validates and tallies the export.
///
/// Duplicate play ids are looked for on 64-bit fingerprints of the ids (8 bytes per play in
/// memory). Equal ids have equal fingerprints, so when no two fingerprints are equal no id is
/// repeated and the tally is done. Otherwise (a duplicate, or, rarely, two ids whose
/// fingerprints collide) the file is read once more, hash-checked again, and the ids behind the
/// repeated fingerprints are compared in full: the outcome is exactly that of comparing every id.
pub fn tally_export_with<R: Read>(
    mut open: impl FnMut() -> std::io::Result<R>,
    verified: &VerifiedExport,
    rules: &DrawRules,
    opts: &TallyOptions,
) -> Result<DayTally, ExportError> {
    let mut reopen = || open().map_err(|e| ExportError::file(ExportErrorKind::Io(e.to_string())));
    match read_pass(reopen()?, verified, rules, opts, None)? {
        Pass::Done(t) => Ok(*t),
        Pass::Confirm(suspects) => {
            match read_pass(reopen()?, verified, rules, opts, Some(&suspects))? {
                Pass::Done(t) => Ok(*t),
                // Invariant: a pass given suspects compares ids in full and never asks again.
                Pass::Confirm(_) => unreachable!("a confirming pass decides"),
            }
        }
    }
}

/// What one read of the file ends with.
enum Pass {
    Done(Box<DayTally>),
    /// Fingerprints seen more than once: read again, comparing the ids behind them in full.
    Confirm(HashSet<u64>),
}

/// One read of the file: parse, tally, and check the bytes are the verified ones.
fn read_pass(
    reader: impl Read,
    verified: &VerifiedExport,
    rules: &DrawRules,
    opts: &TallyOptions,
    suspects: Option<&HashSet<u64>>,
) -> Result<Pass, ExportError> {
    let mut src = HashingReader {
        inner: reader,
        sha: openssl::sha::Sha256::new(),
        size: 0,
    };
    let result = run(&mut src, verified, rules, opts, suspects);
    if let Err(e) = &result
        && matches!(e.kind, ExportErrorKind::Io(_))
    {
        return result;
    }
    // On an error, read the rest anyway: if these are not the verified bytes, that is the
    // truthful reason (whatever failed to parse was never verified).
    let mut scratch = vec![0u8; BLOCK];
    while src.read_into(&mut scratch)? > 0 {}
    let sha: [u8; 32] = src.sha.finish();
    if sha != verified.sha256 || src.size != verified.size {
        return Err(ExportError::file(ExportErrorKind::FileChanged {
            expected: hex::encode(verified.sha256),
            expected_size: verified.size,
            found: hex::encode(sha),
            found_size: src.size,
        }));
    }
    match result? {
        Pass::Done(mut t) => {
            t.sha256 = sha;
            t.size = src.size;
            Ok(Pass::Done(t))
        }
        confirm => Ok(confirm),
    }
}

struct HashingReader<R> {
    inner: R,
    /// OpenSSL's SHA-256 (SHA-NI assembly, about twice the sha2 crate's speed here) for the
    /// whole-file hash; the result is the same SHA-256.
    sha: openssl::sha::Sha256,
    size: u64,
}

impl<R: Read> HashingReader<R> {
    /// Fills `dst` (or reads to the end of the file), hashing what was read; 0 at end of file.
    fn read_into(&mut self, dst: &mut [u8]) -> Result<usize, ExportError> {
        let n = fill(&mut self.inner, dst)?;
        self.sha.update(&dst[..n]);
        self.size += n as u64;
        Ok(n)
    }
}

/// The header of an export (line 1).
struct Header {
    operation: String,
    day: NaiveDate,
    producer: String,
    generated_at: String,
    status_as_of: String,
    plays: u64,
    exclusions: u64,
}

/// What every worker needs to judge a record.
struct Ctx<'r> {
    rules: &'r DrawRules,
    day: NaiveDate,
    day_start: i64,
    day_end: i64,
    /// On a confirming pass, the fingerprints whose ids are kept in full.
    suspects: Option<&'r HashSet<u64>>,
}

/// A line-aligned chunk of the file: every line in it ends in LF.
struct Chunk {
    first_line: u64,
    /// A reusable buffer of `BUF` bytes; the chunk is `bytes[..len]`.
    bytes: Vec<u8>,
    len: usize,
}

/// Size of a chunk buffer: a carried-over partial line (at most `MAX_LINE`) plus one block.
const BUF: usize = MAX_LINE + BLOCK;

type LineErr = (u64, ExportErrorKind);

/// What one worker found in the chunks it parsed.
#[derive(Default)]
struct Partial {
    plays: u64,
    counting: u64,
    retail: u64,
    subs_refused: u64,
    exclusions_by_reason: [u64; 3],
    /// Counting cents per account.
    accounts: AccountSums,
    /// The same once the worker is done: (account as big-endian words, cents), sorted.
    sums: Vec<([u64; 4], u64)>,
    /// The `fingerprint` of each play's id; sorted once the worker is done.
    fingerprints: Vec<u64>,
    /// On a confirming pass, (`id_key(id)` as two words, line) of each play whose id's
    /// fingerprint is a suspect; sorted once the worker is done.
    ids: Vec<IdLine>,
    /// (account, reason, line), one per exclusion record.
    exclusions: Vec<([u8; 32], ExclusionReason, u64)>,
    /// The error on the smallest line this worker saw.
    err: Option<LineErr>,
}

/// A play id's key (`id_key`, as two big-endian words: integers compare faster than byte
/// arrays when sorting) and its line.
type IdLine = (u64, u64, u32);

fn id_line(id: &[u8], line: u32) -> IdLine {
    let k = id_key(id);
    let w = |i: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&k[i..i + 8]);
        u64::from_be_bytes(b)
    };
    (w(0), w(8), line)
}

/// A fixed-size key for a play id, for duplicate detection by sorting.
///
/// Ids of at most 15 bytes are stored as they are (zero-padded, length in the last byte: ids
/// never contain NUL, so this is injective and the id can be shown in an error). Longer ids are
/// stored as the first 15 bytes of SHA-256(id) with 0xFF in the last byte (never a length, so a
/// long id never meets a short one). Soundness: two different ids get equal keys only if two long
/// ids collide on 120 bits of SHA-256, with probability below n²/2^121 (< 10^-22 for 10^7 plays);
/// and even then the effect is a valid file wrongly refused, never an invalid file accepted:
/// equal ids always get equal keys, so every real duplicate is found.
fn id_key(b: &[u8]) -> [u8; 16] {
    let mut k = [0u8; 16];
    if b.len() <= 15 {
        k[..b.len()].copy_from_slice(b);
        k[15] = b.len() as u8;
    } else {
        k[..15].copy_from_slice(&Sha256::digest(b)[..15]);
        k[15] = 0xFF;
    }
    k
}

/// A 64-bit fingerprint of a play id's key, to look for duplicates by sorting integers: equal
/// keys always give equal fingerprints (different keys rarely do, and then the full keys decide).
fn fingerprint(k: &IdLine) -> u64 {
    let h = (k.0.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ k.1).wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 29)
}

/// The id stored in a key, when it was short enough to be stored.
fn id_from_key(k: &IdLine) -> Option<String> {
    let mut b = [0u8; 16];
    b[..8].copy_from_slice(&k.0.to_be_bytes());
    b[8..].copy_from_slice(&k.1.to_be_bytes());
    let k = &b;
    let n = usize::from(k[15]);
    (n <= 15).then(|| String::from_utf8_lossy(&k[..n]).into_owned())
}

fn run<R: Read>(
    src: &mut HashingReader<R>,
    verified: &VerifiedExport,
    rules: &DrawRules,
    opts: &TallyOptions,
    suspects: Option<&HashSet<u64>>,
) -> Result<Pass, ExportError> {
    // Line 1: the header.
    let mut pending: Vec<u8> = Vec::new();
    let mut first = vec![0u8; 64 << 10];
    let header_end = loop {
        if let Some(i) = memchr::memchr(b'\n', &pending) {
            break i;
        }
        if pending.len() > MAX_LINE {
            return Err(ExportError::at(1, ExportErrorKind::LineTooLong(MAX_LINE)));
        }
        let n = src.read_into(&mut first)?;
        pending.extend_from_slice(&first[..n]);
        if n == 0 {
            return Err(if pending.is_empty() {
                ExportError::file(ExportErrorKind::Empty)
            } else {
                ExportError::at(1, ExportErrorKind::MissingFinalNewline)
            });
        }
    };
    let header =
        parse_header(&pending[..header_end], verified, rules).map_err(|k| ExportError::at(1, k))?;
    // Invariant: parse_header checked that the day is in a period.
    let period = rules.period_for(header.day).expect("day checked");
    let (day_start, day_end) = rules.day_bounds(header.day).ok_or_else(|| {
        ExportError::at(
            1,
            ExportErrorKind::DayNotInOperation(header.day.to_string()),
        )
    })?;
    let ctx = Ctx {
        rules,
        day: header.day,
        day_start,
        day_end,
        suspects,
    };
    pending.drain(..=header_end);
    drop(first);

    let threads = match opts.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get().min(4)),
        n => n,
    };
    let min_err = AtomicU64::new(u64::MAX);

    let (parts, tail_err) = std::thread::scope(|s| {
        let (free_tx, free_rx) = mpsc::channel::<Vec<u8>>();
        let mut senders = Vec::new();
        let mut handles = Vec::new();
        for _ in 0..threads {
            let (tx, rx) = mpsc::sync_channel::<Chunk>(2);
            senders.push(tx);
            let free_tx = free_tx.clone();
            let ctx = &ctx;
            let min_err = &min_err;
            handles.push(s.spawn(move || {
                let mut p = Partial::default();
                // Room for this worker's share of the plays the header announces (capped: the
                // header is not trusted for memory; the list grows as needed anyway).
                if ctx.suspects.is_none() {
                    p.fingerprints
                        .reserve((header.plays.min(1 << 25) as usize).div_ceil(threads));
                }
                for chunk in rx {
                    if chunk.first_line <= min_err.load(Ordering::Relaxed)
                        && let Err((line, kind)) = parse_chunk(&chunk, ctx, &mut p)
                    {
                        min_err.fetch_min(line, Ordering::Relaxed);
                        if p.err.as_ref().is_none_or(|(l, _)| line < *l) {
                            p.err = Some((line, kind));
                        }
                    }
                    let _ = free_tx.send(chunk.bytes);
                }
                // The sorting is shared out too: each worker sorts its own lists, and `finish`
                // only merges them.
                p.fingerprints.sort_unstable();
                p.ids.sort_unstable();
                p.sums = std::mem::take(&mut p.accounts).into_sorted();
                p
            }));
        }
        drop(free_tx);

        let mut line: u64 = 2;
        let mut allocated = 0usize;
        let mut k = 0usize;
        let mut tail_err: Option<ExportError> = None;
        loop {
            if min_err.load(Ordering::Relaxed) != u64::MAX {
                break;
            }
            let mut buf = match free_rx.try_recv() {
                Ok(b) => b,
                Err(_) if allocated < 3 * threads => {
                    allocated += 1;
                    vec![0u8; BUF]
                }
                Err(_) => free_rx.recv().unwrap_or_else(|_| vec![0u8; BUF]),
            };
            // The partial line carried over from the previous chunk (at most MAX_LINE bytes).
            let mut used = pending.len();
            buf[..used].copy_from_slice(&pending);
            pending.clear();
            // Read until the buffer holds at least one complete line, or the file ends.
            let eof = loop {
                let n = match src.read_into(&mut buf[used..used + BLOCK]) {
                    Ok(n) => n,
                    Err(e) => {
                        tail_err = Some(e);
                        break true;
                    }
                };
                used += n;
                if n == 0 {
                    break true;
                }
                if memchr::memchr(b'\n', &buf[used - n..used]).is_some() {
                    break false;
                }
                if used > MAX_LINE {
                    tail_err = Some(ExportError::at(
                        line,
                        ExportErrorKind::LineTooLong(MAX_LINE),
                    ));
                    break true;
                }
            };
            if tail_err.is_some() {
                break;
            }
            let cut = memchr::memrchr(b'\n', &buf[..used]).map_or(0, |i| i + 1);
            pending.extend_from_slice(&buf[cut..used]);
            let n_lines = memchr::memchr_iter(b'\n', &buf[..cut]).count() as u64;
            if pending.len() > MAX_LINE {
                tail_err = Some(ExportError::at(
                    line + n_lines,
                    ExportErrorKind::LineTooLong(MAX_LINE),
                ));
            }
            if cut > 0 {
                let chunk = Chunk {
                    first_line: line,
                    bytes: buf,
                    len: cut,
                };
                line += n_lines;
                // A worker only stops on a panic, which the join below reports.
                let _ = senders[k % threads].send(chunk);
                k += 1;
            }
            if eof || tail_err.is_some() {
                if tail_err.is_none() && !pending.is_empty() {
                    tail_err = Some(ExportError::at(line, ExportErrorKind::MissingFinalNewline));
                }
                break;
            }
        }
        drop(senders);
        let parts: Vec<Partial> = handles
            .into_iter()
            // Invariant: workers do not panic (parse errors are values).
            .map(|h| h.join().expect("parsing thread"))
            .collect();
        (parts, tail_err)
    });

    finish(header, period, &ctx, parts, tail_err)
}

fn finish(
    header: Header,
    period: &crate::rules::draw::Period,
    ctx: &Ctx<'_>,
    parts: Vec<Partial>,
    tail_err: Option<ExportError>,
) -> Result<Pass, ExportError> {
    let mut first: Option<LineErr> = None;
    let mut consider = |e: LineErr| {
        if first.as_ref().is_none_or(|(l, _)| e.0 < *l) {
            first = Some(e);
        }
    };
    let mut plays = 0;
    let mut counting = 0;
    let mut retail = 0;
    let mut subs_refused = 0;
    let mut exclusions_by_reason = [0u64; 3];
    let mut id_lists: Vec<Vec<IdLine>> = Vec::new();
    let mut fingerprint_lists: Vec<Vec<u64>> = Vec::new();
    let mut sum_lists: Vec<Vec<([u64; 4], u64)>> = Vec::new();
    let mut excl: Vec<([u8; 32], ExclusionReason, u64)> = Vec::new();
    for p in parts {
        if let Some(e) = p.err {
            consider(e);
        }
        plays += p.plays;
        counting += p.counting;
        retail += p.retail;
        subs_refused += p.subs_refused;
        for (t, x) in exclusions_by_reason.iter_mut().zip(p.exclusions_by_reason) {
            *t += x;
        }
        id_lists.push(p.ids);
        fingerprint_lists.push(p.fingerprints);
        sum_lists.push(p.sums);
        excl.extend(p.exclusions);
    }
    if let Some(e) = tail_err {
        match e.line {
            None => return Err(e),
            Some(l) => consider((l, e.kind)),
        }
    }
    // Two independent pieces of work, on two threads: the fingerprints seen more than once (on
    // a first pass), and the per-account sums in account order (canonical; independent of lines,
    // chunks and threads): the merge of the workers' sorted lists, equal accounts added up.
    let (repeated, sums) = std::thread::scope(|s| {
        let first_pass = ctx.suspects.is_none();
        let repeated = s.spawn(move || {
            if first_pass {
                repeated_fingerprints(&fingerprint_lists)
            } else {
                HashSet::new()
            }
        });
        let mut sums: Vec<([u64; 4], u64)> =
            Vec::with_capacity(sum_lists.iter().map(Vec::len).max().unwrap_or(0));
        for (key, cents) in merged(&sum_lists) {
            match sums.last_mut() {
                Some((k, c)) if *k == key => *c += cents,
                _ => sums.push((key, cents)),
            }
        }
        drop(sum_lists);
        // Invariant: the fingerprint merge is pure and does not panic.
        (repeated.join().expect("fingerprint merge"), sums)
    });
    // Duplicate play ids: if two fingerprints are equal, read the file again; on that confirming
    // pass, compare the ids kept in full.
    if !repeated.is_empty() {
        return Ok(Pass::Confirm(repeated));
    }
    if let Some(e) = first_duplicate_id(&id_lists) {
        consider(e);
    }
    drop(id_lists);

    // Duplicate exclusions: an account is listed at most once.
    excl.sort_unstable_by_key(|a| (a.0, a.2));
    for w in excl.windows(2) {
        if w[0].0 == w[1].0 {
            consider((
                w[1].2,
                ExportErrorKind::DuplicateExclusion {
                    account: hex::encode(w[0].0),
                    first_line: w[0].2,
                },
            ));
        }
    }

    if let Some((line, kind)) = first {
        return Err(ExportError::at(line, kind));
    }

    // The header's counts.
    let n_excl: u64 = exclusions_by_reason.iter().sum();
    if plays != header.plays {
        return Err(ExportError::file(ExportErrorKind::CountMismatch {
            record: "play",
            header: header.plays,
            found: plays,
        }));
    }
    if n_excl != header.exclusions {
        return Err(ExportError::file(ExportErrorKind::CountMismatch {
            record: "exclusion",
            header: header.exclusions,
            found: n_excl,
        }));
    }

    // D-3, D-4, D-6, D-13. `excl` is sorted by account too: walk both lists together.
    let cap = ctx.rules.daily_cap();
    let tranche = period.tranche_cents;
    let mut excluded_with_plays = [0u64; 3];
    let mut entries = Vec::new();
    let mut total_entries = 0u64;
    let mut j = 0;
    for (key, cents) in &sums {
        let acct = account_of(key);
        while j < excl.len() && excl[j].0 < acct {
            j += 1;
        }
        if j < excl.len() && excl[j].0 == acct {
            // D-6, D-13: an excluded account gets no entry.
            excluded_with_plays[excl[j].1.index()] += 1;
            continue;
        }
        // D-3: one entry per complete tranche; D-4: at most `cap` per day.
        let n = (cents / tranche).min(u64::from(cap)) as u8;
        if n > 0 {
            total_entries += u64::from(n);
            entries.push(AccountEntries {
                account: acct,
                entries: n,
            });
        }
    }

    Ok(Pass::Done(Box::new(DayTally {
        operation: header.operation,
        day: header.day,
        producer: header.producer,
        generated_at: header.generated_at,
        status_as_of: header.status_as_of,
        header_plays: header.plays,
        header_exclusions: header.exclusions,
        sha256: [0; 32],
        size: 0,
        period_id: period.id.clone(),
        tranche_cents: tranche,
        daily_cap: cap,
        plays,
        counting_plays: counting,
        retail_plays: retail,
        subscription_plays_refused: subs_refused,
        accounts_with_counting_plays: sums.len() as u64,
        exclusions_by_reason,
        excluded_with_counting_plays_by_reason: excluded_with_plays,
        accounts_with_entries: entries.len() as u64,
        total_entries,
        entries,
    })))
}

/// The fingerprints that occur more than once in the sorted `lists`.
fn repeated_fingerprints(lists: &[Vec<u64>]) -> HashSet<u64> {
    let mut prev: Option<u64> = None;
    merged(lists)
        .filter(|&f| prev.replace(f) == Some(f))
        .collect()
}

/// The duplicate play id on the smallest line, if any (as its line and error), among `ids`
/// (each list sorted by (key, line)): merged, the plays of one id are consecutive, the first in
/// the file first.
fn first_duplicate_id(ids: &[Vec<IdLine>]) -> Option<LineErr> {
    let mut first: Option<LineErr> = None;
    let mut first_of_run: Option<IdLine> = None;
    let mut reported = false;
    for x in merged(ids) {
        match first_of_run {
            Some(f) if (f.0, f.1) == (x.0, x.1) => {
                if !reported && first.as_ref().is_none_or(|(l, _)| u64::from(x.2) < *l) {
                    first = Some((
                        u64::from(x.2),
                        ExportErrorKind::DuplicatePlayId {
                            id: id_from_key(&f),
                            first_line: u64::from(f.2),
                        },
                    ));
                }
                reported = true;
            }
            _ => {
                first_of_run = Some(x);
                reported = false;
            }
        }
    }
    first
}

/// The items of sorted `lists`, in ascending order (a k-way merge; k is the number of workers,
/// so a linear look at the heads is enough).
fn merged<T: Copy + Ord>(lists: &[Vec<T>]) -> impl Iterator<Item = T> + '_ {
    let mut heads = vec![0usize; lists.len()];
    std::iter::from_fn(move || {
        let mut best: Option<(usize, T)> = None;
        for (i, l) in lists.iter().enumerate() {
            if let Some(&x) = l.get(heads[i])
                && best.is_none_or(|(_, b)| x < b)
            {
                best = Some((i, x));
            }
        }
        let (i, x) = best?;
        heads[i] += 1;
        Some(x)
    })
}

/// Field slots of a record line. Each known key can be set once (the JSON reader refuses
/// duplicates); unknown keys are ignored (forward compatibility).
#[derive(Default)]
struct Fields<'a> {
    ty: Option<Val<'a>>,
    id: Option<Val<'a>>,
    account: Option<Val<'a>>,
    at: Option<Val<'a>>,
    stake_cents: Option<Val<'a>>,
    channel: Option<Val<'a>>,
    game: Option<Val<'a>>,
    subscription: Option<Val<'a>>,
    reason: Option<Val<'a>>,
}

fn json_err(e: JsonError) -> ExportErrorKind {
    match e {
        JsonError::Syntax { column, reason } => ExportErrorKind::InvalidJson { column, reason },
        JsonError::DuplicateKey(k) => ExportErrorKind::DuplicateKey(k),
    }
}

fn req<'a>(v: Option<Val<'a>>, field: &'static str) -> Result<Val<'a>, ExportErrorKind> {
    v.ok_or(ExportErrorKind::MissingField(field))
}

fn req_str<'a>(
    v: Option<Val<'a>>,
    field: &'static str,
) -> Result<std::borrow::Cow<'a, str>, ExportErrorKind> {
    match req(v, field)? {
        Val::Str(s) => Ok(s),
        other => Err(ExportErrorKind::WrongType {
            field,
            expected: "a string",
            found: other.type_name(),
        }),
    }
}

fn out_of_range(field: &'static str, reason: String) -> ExportErrorKind {
    ExportErrorKind::OutOfRange { field, reason }
}

/// A JSON integer (no fraction, no exponent) as i128, for range checks with exact messages.
fn req_int(v: Option<Val<'_>>, field: &'static str) -> Result<i128, ExportErrorKind> {
    match req(v, field)? {
        Val::Num(t) => {
            if t.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
                return Err(ExportErrorKind::WrongType {
                    field,
                    expected: "an integer",
                    found: "a number with a fraction or exponent",
                });
            }
            // Up to 38 digits fit in i128; longer is out of range anyway.
            t.parse::<i128>()
                .map_err(|_| out_of_range(field, format!("{t} is far too large")))
        }
        other => Err(ExportErrorKind::WrongType {
            field,
            expected: "an integer",
            found: other.type_name(),
        }),
    }
}

/// Exactly 64 lowercase hex digits (as `crypto::parse_hex32`), eight digits at a time: every
/// play line has one, so this is on the hot path.
pub(super) fn hex32_lower(s: &[u8]) -> Option<[u8; 32]> {
    let b: &[u8; 64] = s.try_into().ok()?;
    let mut out = [0u8; 32];
    for (o, d) in out.chunks_exact_mut(4).zip(b.chunks_exact(8)) {
        let x = u64::from_le_bytes(d.try_into().expect("8 digits"));
        o.copy_from_slice(&hex8(x)?.to_le_bytes());
    }
    Some(out)
}

/// Eight lowercase hex digits (one per byte of `x`, first digit in the lowest byte) as the four
/// bytes they spell (first byte in the lowest byte), or `None` if any byte is not in [0-9a-f].
///
/// Each byte b is classified without carries between bytes (b < 0x80 is checked first, so
/// b + 0x50 and 0xB9 - b stay inside the byte): bit 7 of (b + 0x50) & (0xB9 - b) is set iff
/// 0x30 <= b <= 0x39, and bit 7 of (b + 0x1F) & (0xE6 - b) iff 0x61 <= b <= 0x66.
fn hex8(x: u64) -> Option<u32> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x80 * ONES;
    if x & HIGH != 0 {
        return None;
    }
    let digit = (x + 0x50 * ONES) & (0xB9 * ONES - x) & HIGH;
    let letter = (x + 0x1F * ONES) & (0xE6 * ONES - x) & HIGH;
    if digit | letter != HIGH {
        return None;
    }
    // Nibble values: the low four bits, plus 9 for a letter ('a' = 0x61 -> 1 + 9).
    let v = (x & (0x0F * ONES)) + (letter >> 7) * 9;
    // Bytes 0, 2, 4, 6 are high nibbles, 1, 3, 5, 7 low ones: pair them in 16-bit lanes ...
    let pairs = ((v & 0x00FF_00FF_00FF_00FF) << 4) | ((v >> 8) & 0x00FF_00FF_00FF_00FF);
    // ... then pack the four lanes' low bytes together.
    let p = (pairs | (pairs >> 8)) & 0x0000_FFFF_0000_FFFF;
    Some((p | (p >> 16)) as u32)
}

fn req_account(v: Option<Val<'_>>) -> Result<[u8; 32], ExportErrorKind> {
    let s = req_str(v, "account")?;
    hex32_lower(s.as_bytes())
        .ok_or_else(|| out_of_range("account", format!("{s:?} is not 64 lowercase hex digits")))
}

fn req_instant(v: Option<Val<'_>>, field: &'static str) -> Result<(i64, String), ExportErrorKind> {
    let s = req_str(v, field)?;
    match rfc3339::parse_unix(&s) {
        Some(t) => Ok((t, s.into_owned())),
        None => Err(out_of_range(
            field,
            format!("{s:?} is not an RFC 3339 date-time with offset"),
        )),
    }
}

fn valid_play_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'-'))
}

fn parse_header(
    line: &[u8],
    verified: &VerifiedExport,
    rules: &DrawRules,
) -> Result<Header, ExportErrorKind> {
    if line.last() == Some(&b'\r') {
        return Err(ExportErrorKind::Crlf);
    }
    let text = std::str::from_utf8(line).map_err(|_| ExportErrorKind::NotUtf8)?;
    let mut format = None;
    let mut version = None;
    let mut operation = None;
    let mut day = None;
    let mut producer = None;
    let mut generated_at = None;
    let mut status_as_of = None;
    let mut plays = None;
    let mut exclusions = None;
    json::for_each_member(text, &mut |k, v| {
        match k {
            "format" => format = Some(v),
            "version" => version = Some(v),
            "operation" => operation = Some(v),
            "day" => day = Some(v),
            "producer" => producer = Some(v),
            "generated_at" => generated_at = Some(v),
            "status_as_of" => status_as_of = Some(v),
            "plays" => plays = Some(v),
            "exclusions" => exclusions = Some(v),
            _ => {} // unknown header fields are ignored
        }
        Ok(())
    })
    .map_err(json_err)?;

    // The header is told apart from a record by its `format` field.
    let format = match format {
        None => return Err(ExportErrorKind::MissingHeader),
        Some(f) => req_str(Some(f), "format")?,
    };
    if format != "draw-entries" {
        return Err(ExportErrorKind::WrongFormat(format.into_owned()));
    }
    match req(version, "version")? {
        Val::Num("1") => {}
        Val::Num(n) => return Err(ExportErrorKind::WrongVersion(n.to_string())),
        other => {
            return Err(ExportErrorKind::WrongType {
                field: "version",
                expected: "an integer",
                found: other.type_name(),
            });
        }
    }
    let operation = req_str(operation, "operation")?;
    if operation != rules.operation() {
        return Err(ExportErrorKind::WrongOperation {
            expected: rules.operation().to_string(),
            found: operation.into_owned(),
        });
    }
    let day_s = req_str(day, "day")?;
    let day = rfc3339::parse_date(&day_s)
        .and_then(|(y, m, d)| NaiveDate::from_ymd_opt(y as i32, m, d))
        .ok_or_else(|| out_of_range("day", format!("{day_s:?} is not a date YYYY-MM-DD")))?;
    if rules.period_for(day).is_none() {
        return Err(ExportErrorKind::DayNotInOperation(day_s.into_owned()));
    }
    let producer = req_str(producer, "producer")?;
    if producer != verified.key_id {
        return Err(ExportErrorKind::WrongProducer {
            expected: verified.key_id.clone(),
            found: producer.into_owned(),
        });
    }
    let (_, generated_at) = req_instant(generated_at, "generated_at")?;
    let (_, status_as_of) = req_instant(status_as_of, "status_as_of")?;
    let count = |v, field| -> Result<u64, ExportErrorKind> {
        let n = req_int(v, field)?;
        u64::try_from(n).map_err(|_| out_of_range(field, format!("{n} is negative")))
    };
    Ok(Header {
        operation: operation.into_owned(),
        day,
        producer: producer.into_owned(),
        generated_at,
        status_as_of,
        plays: count(plays, "plays")?,
        exclusions: count(exclusions, "exclusions")?,
    })
}

/// Parses every line of `chunk` into `p`; stops at the first bad line.
fn parse_chunk(chunk: &Chunk, ctx: &Ctx<'_>, p: &mut Partial) -> Result<(), LineErr> {
    let mut line = chunk.first_line;
    let mut rest: &[u8] = &chunk.bytes[..chunk.len];
    while let Some(i) = memchr::memchr(b'\n', rest) {
        parse_record(&rest[..i], line, ctx, p).map_err(|k| (line, k))?;
        rest = &rest[i + 1..];
        line += 1;
    }
    Ok(())
}

/// One record line: the fast path for a play line in the usual layout, else the general reader.
/// Both give the same result (see `fast`).
fn parse_record(
    raw: &[u8],
    line: u64,
    ctx: &Ctx<'_>,
    p: &mut Partial,
) -> Result<(), ExportErrorKind> {
    match fast::play(raw) {
        Some(play) => add_play(&play, line, ctx, p),
        None => parse_record_general(raw, line, ctx, p),
    }
}

/// D-1, then the play's share of the tally (D-3, D-5); shared by both readers.
fn add_play(
    play: &FastPlay<'_>,
    line: u64,
    ctx: &Ctx<'_>,
    p: &mut Partial,
) -> Result<(), ExportErrorKind> {
    // D-1: the play must fall on the file's day, midnight to midnight in Europe/Paris.
    if play.at < ctx.day_start || play.at >= ctx.day_end {
        return Err(ExportErrorKind::PlayNotOnDay {
            // Lossless: `at_s` is always valid UTF-8 (ASCII on the fast path).
            at: String::from_utf8_lossy(play.at_s).into_owned(),
            day: ctx.day,
            tz: ctx.rules.time_zone().name(),
        });
    }
    let line32 = u32::try_from(line).map_err(|_| ExportErrorKind::TooManyLines)?;
    let id = id_line(play.id, line32);
    match ctx.suspects {
        None => p.fingerprints.push(fingerprint(&id)),
        Some(s) => {
            if s.contains(&fingerprint(&id)) {
                p.ids.push(id);
            }
        }
    }

    p.plays += 1;
    // D-3: only online channels count; D-5: a subscription debit counts only if the
    // subscription was taken out inside the participation period.
    let online = ctx.rules.counts_channel(play.channel);
    let sub_ok = play
        .subscribed_at
        .is_none_or(|t| ctx.rules.in_participation(t));
    if play.channel == Channel::Retail {
        p.retail += 1;
    } else if online && !sub_ok {
        p.subs_refused += 1;
    }
    if online && sub_ok {
        p.counting += 1;
        p.accounts.add(&play.account, play.stake);
    }
    Ok(())
}

/// Any record line, by the general JSON reader.
fn parse_record_general(
    raw: &[u8],
    line: u64,
    ctx: &Ctx<'_>,
    p: &mut Partial,
) -> Result<(), ExportErrorKind> {
    if raw.last() == Some(&b'\r') {
        return Err(ExportErrorKind::Crlf);
    }
    let text = std::str::from_utf8(raw).map_err(|_| ExportErrorKind::NotUtf8)?;
    let mut f = Fields::default();
    json::for_each_member(text, &mut |k, v| {
        let slot = match k {
            "type" => &mut f.ty,
            "id" => &mut f.id,
            "account" => &mut f.account,
            "at" => &mut f.at,
            "stake_cents" => &mut f.stake_cents,
            "channel" => &mut f.channel,
            "game" => &mut f.game,
            "subscription" => &mut f.subscription,
            "reason" => &mut f.reason,
            _ => return Ok(()), // unknown fields are ignored (forward compatibility)
        };
        *slot = Some(v);
        Ok(())
    })
    .map_err(json_err)?;

    let ty = req_str(f.ty, "type")?;
    match &*ty {
        "play" => {
            let id = req_str(f.id, "id")?;
            if !valid_play_id(&id) {
                return Err(out_of_range(
                    "id",
                    format!("{id:?} is not 1-64 characters of [A-Za-z0-9._:-]"),
                ));
            }
            let account = req_account(f.account)?;
            let at_s = req_str(f.at, "at")?;
            let at = rfc3339::parse_unix(&at_s).ok_or_else(|| {
                out_of_range(
                    "at",
                    format!("{at_s:?} is not an RFC 3339 date-time with offset"),
                )
            })?;
            let stake = req_int(f.stake_cents, "stake_cents")?;
            if !(1..=i128::from(MAX_STAKE_CENTS)).contains(&stake) {
                return Err(out_of_range(
                    "stake_cents",
                    format!("{stake} is not in 1 … {MAX_STAKE_CENTS}"),
                ));
            }
            let stake = stake as u64;
            let ch_s = req_str(f.channel, "channel")?;
            let channel = Channel::parse(&ch_s).ok_or_else(|| {
                out_of_range(
                    "channel",
                    format!("{ch_s:?} is not web, mobile, tablet, app or retail"),
                )
            })?;
            let game = req_str(f.game, "game")?;
            if !(1..=64).contains(&game.chars().count()) {
                return Err(out_of_range("game", "must be 1-64 characters".into()));
            }
            let subscribed_at = match req(f.subscription, "subscription")? {
                Val::Null => None,
                Val::Object(obj) => {
                    let mut sub_at = None;
                    json::for_each_member(obj, &mut |k, v| {
                        if k == "subscribed_at" {
                            sub_at = Some(v);
                        }
                        Ok(())
                    })
                    .map_err(json_err)?;
                    Some(req_instant(sub_at, "subscription.subscribed_at")?.0)
                }
                other => {
                    return Err(ExportErrorKind::WrongType {
                        field: "subscription",
                        expected: "null or an object",
                        found: other.type_name(),
                    });
                }
            };
            add_play(
                &FastPlay {
                    id: id.as_bytes(),
                    account,
                    at_s: at_s.as_bytes(),
                    at,
                    stake,
                    channel,
                    subscribed_at,
                },
                line,
                ctx,
                p,
            )
        }
        "exclusion" => {
            let account = req_account(f.account)?;
            let r_s = req_str(f.reason, "reason")?;
            let reason = ExclusionReason::parse(&r_s)
                .filter(|r| ctx.rules.exclusion_reasons().contains(r))
                .ok_or_else(|| {
                    out_of_range("reason", format!("{r_s:?} is not closed, minor or fraud"))
                })?;
            p.exclusions_by_reason[reason.index()] += 1;
            p.exclusions.push((account, reason, line));
            Ok(())
        }
        _ => Err(ExportErrorKind::UnknownType(ty.into_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRODUCER: &str = "0123456789abcdef";

    fn acct(n: u8) -> String {
        format!("{n:064x}")
    }

    fn play(id: &str, account: u8, at: &str, stake: u64, channel: &str) -> String {
        format!(
            r#"{{"type":"play","id":"{id}","account":"{}","at":"{at}","stake_cents":{stake},"channel":"{channel}","game":"loto","subscription":null}}"#,
            acct(account)
        )
    }

    fn sub_play(id: &str, account: u8, at: &str, stake: u64, subscribed_at: &str) -> String {
        format!(
            r#"{{"type":"play","id":"{id}","account":"{}","at":"{at}","stake_cents":{stake},"channel":"web","game":"loto","subscription":{{"subscribed_at":"{subscribed_at}"}}}}"#,
            acct(account)
        )
    }

    fn excl(account: u8, reason: &str) -> String {
        format!(
            r#"{{"type":"exclusion","account":"{}","reason":"{reason}"}}"#,
            acct(account)
        )
    }

    /// A well-formed export of `day` holding `records` (header counts computed from them).
    fn export(day: &str, records: &[String]) -> Vec<u8> {
        let plays = records
            .iter()
            .filter(|r| r.contains(r#""type":"play""#))
            .count();
        let exclusions = records.len() - plays;
        let mut s = format!(
            r#"{{"format":"draw-entries","version":1,"operation":"chanceux-noel-2018","day":"{day}","producer":"{PRODUCER}","generated_at":"2018-12-26T07:30:00+01:00","status_as_of":"2018-12-26T07:30:00+01:00","plays":{plays},"exclusions":{exclusions}}}"#
        );
        s.push('\n');
        for r in records {
            s.push_str(r);
            s.push('\n');
        }
        s.into_bytes()
    }

    /// Pass 2 alone (pass 1's result stated directly: the signature is not what is tested here).
    fn tally(bytes: &[u8]) -> Result<DayTally, ExportError> {
        let v = VerifiedExport {
            sha256: crate::crypto::sha256(bytes),
            size: bytes.len() as u64,
            key: [0; 32],
            key_id: PRODUCER.into(),
        };
        tally_export_with(
            || Ok(bytes),
            &v,
            &DrawRules::chanceux_noel_2018(),
            &TallyOptions { threads: 1 },
        )
    }

    fn entries_of(t: &DayTally, account: u8) -> u8 {
        let a = crate::crypto::parse_hex32(&acct(account)).unwrap();
        t.entries
            .iter()
            .find(|e| e.account == a)
            .map_or(0, |e| e.entries)
    }

    fn refusal(bytes: &[u8]) -> ExportError {
        tally(bytes).expect_err("must be refused")
    }

    #[test]
    fn midnight_edges_follow_paris_time_whatever_the_offset() {
        // D-1: 2018-12-01 in Paris is [2018-11-30T23:00Z, 2018-12-01T23:00Z).
        for at in [
            "2018-12-01T00:00:00+01:00",
            "2018-11-30T23:00:00Z",
            "2018-11-30T23:30:00Z",
            "2018-11-30T18:00:00-05:00",
            "2018-12-01T23:59:59+01:00",
            "2018-12-01T22:59:59Z",
            "2018-12-01T17:59:59-05:00",
            "2018-12-01T22:59:59.999+00:00",
        ] {
            let t = tally(&export("2018-12-01", &[play("p1", 1, at, 1000, "web")]))
                .unwrap_or_else(|e| panic!("{at}: {e}"));
            assert_eq!(entries_of(&t, 1), 1, "{at}");
        }
        for at in [
            "2018-12-02T00:00:00+01:00",
            "2018-12-01T23:00:00Z",
            "2018-12-01T18:00:00-05:00",
            "2018-11-30T23:59:59+01:00",
            "2018-11-30T22:59:59Z",
            "2018-11-30T17:59:59-05:00",
        ] {
            let e = refusal(&export("2018-12-01", &[play("p1", 1, at, 1000, "web")]));
            assert_eq!(e.line, Some(2), "{at}");
            assert_eq!(e.kind.name(), "play-not-on-day", "{at}");
        }
    }

    #[test]
    fn tranche_reached_exactly_counts() {
        // D-3: a tranche is €10 in P1–P3, in one or several plays.
        let t = tally(&export(
            "2018-12-10",
            &[
                play("a", 1, "2018-12-10T10:00:00+01:00", 999, "web"),
                play("b", 2, "2018-12-10T10:00:00+01:00", 1000, "web"),
                play("c", 3, "2018-12-10T10:00:00+01:00", 600, "web"),
                play("d", 3, "2018-12-10T11:00:00+01:00", 400, "mobile"),
                play("e", 4, "2018-12-10T11:00:00+01:00", 1999, "app"),
            ],
        ))
        .unwrap();
        assert_eq!(entries_of(&t, 1), 0);
        assert_eq!(entries_of(&t, 2), 1);
        assert_eq!(entries_of(&t, 3), 1);
        assert_eq!(entries_of(&t, 4), 1);
        assert_eq!(t.tranche_cents, 1000);
        assert_eq!(t.period_id, "P2");
    }

    #[test]
    fn p4_tranche_is_fifteen_euros() {
        // D-3: €15 in P4.
        let t = tally(&export(
            "2018-12-22",
            &[
                play("a", 1, "2018-12-22T10:00:00+01:00", 1499, "web"),
                play("b", 2, "2018-12-22T10:00:00+01:00", 1500, "web"),
                play("c", 3, "2018-12-22T10:00:00+01:00", 2999, "web"),
                play("d", 4, "2018-12-22T10:00:00+01:00", 3000, "web"),
            ],
        ))
        .unwrap();
        assert_eq!(t.period_id, "P4");
        assert_eq!([1, 2, 3, 4].map(|a| entries_of(&t, a)), [0, 1, 1, 2]);
    }

    #[test]
    fn daily_cap_is_three_entries() {
        // D-4: 4 tranches (and far more) give 3 entries.
        let t = tally(&export(
            "2018-12-03",
            &[
                play("a", 1, "2018-12-03T10:00:00+01:00", 4000, "web"),
                play("b", 2, "2018-12-03T10:00:00+01:00", 3000, "web"),
                play("c", 3, "2018-12-03T10:00:00+01:00", 100_000_000, "web"),
            ],
        ))
        .unwrap();
        assert_eq!([1, 2, 3].map(|a| entries_of(&t, a)), [3, 3, 3]);
        assert_eq!(t.total_entries, 9);
    }

    #[test]
    fn subscriptions_count_only_if_taken_out_in_the_participation_period() {
        // D-5: [2018-12-01 00:00, 2018-12-25 00:00) Paris.
        let at = "2018-12-05T10:00:00+01:00";
        let t = tally(&export(
            "2018-12-05",
            &[
                sub_play("before", 1, at, 1000, "2018-11-30T23:59:59+01:00"),
                sub_play("start", 2, at, 1000, "2018-11-30T23:00:00Z"),
                sub_play("inside", 3, at, 1000, "2018-12-03T08:00:00-05:00"),
                sub_play("last", 4, at, 1000, "2018-12-24T23:59:59+01:00"),
                sub_play("end", 5, at, 1000, "2018-12-25T00:00:00+01:00"),
                sub_play("after", 6, at, 1000, "2019-01-10T00:00:00Z"),
                sub_play("long-ago", 7, at, 1000, "2017-06-01T12:00:00Z"),
            ],
        ))
        .unwrap();
        assert_eq!(
            [1, 2, 3, 4, 5, 6, 7].map(|a| entries_of(&t, a)),
            [0, 1, 1, 1, 0, 0, 0]
        );
        assert_eq!(t.subscription_plays_refused, 4);
        assert_eq!(t.counting_plays, 3);
    }

    #[test]
    fn retail_never_counts() {
        // D-3: retail play does not count, whatever the stake.
        let t = tally(&export(
            "2018-12-05",
            &[
                play("r", 1, "2018-12-05T10:00:00+01:00", 50_000, "retail"),
                play("w", 1, "2018-12-05T10:00:00+01:00", 500, "web"),
                play("t", 2, "2018-12-05T10:00:00+01:00", 1000, "tablet"),
            ],
        ))
        .unwrap();
        assert_eq!(entries_of(&t, 1), 0);
        assert_eq!(entries_of(&t, 2), 1);
        assert_eq!(t.retail_plays, 1);
        assert_eq!(t.counting_plays, 2);
    }

    #[test]
    fn excluded_accounts_get_no_entry() {
        // D-6, D-13: account 1 played and is closed; account 9 is excluded but did not play.
        let t = tally(&export(
            "2018-12-05",
            &[
                excl(1, "closed"),
                play("a", 1, "2018-12-05T10:00:00+01:00", 3000, "web"),
                play("b", 2, "2018-12-05T10:00:00+01:00", 3000, "web"),
                excl(9, "minor"),
                excl(3, "fraud"),
                play("c", 3, "2018-12-05T10:00:00+01:00", 300, "retail"),
            ],
        ))
        .unwrap();
        assert_eq!(entries_of(&t, 1), 0);
        assert_eq!(entries_of(&t, 2), 3);
        assert_eq!(t.exclusions_by_reason, [1, 1, 1]);
        // Account 3 had only a retail play: not an excluded account "with counting plays".
        assert_eq!(t.excluded_with_counting_plays_by_reason, [1, 0, 0]);
        assert_eq!(t.accounts_with_counting_plays, 2);
        assert_eq!(t.total_entries, 3);
    }

    #[test]
    fn record_order_does_not_change_the_tally() {
        let mut recs = vec![
            excl(5, "closed"),
            play("a", 1, "2018-12-05T10:00:00+01:00", 1200, "web"),
            play("b", 2, "2018-12-05T10:00:00+01:00", 2000, "web"),
            play("c", 1, "2018-12-05T11:00:00+01:00", 900, "app"),
            play("d", 5, "2018-12-05T11:00:00+01:00", 9000, "app"),
            play("e", 3, "2018-12-05T11:00:00+01:00", 1000, "app"),
        ];
        let base = tally(&export("2018-12-05", &recs)).unwrap();
        for _ in 0..recs.len() {
            recs.rotate_left(1);
            recs.swap(0, 3);
            let t = tally(&export("2018-12-05", &recs)).unwrap();
            assert_eq!(t.entries, base.entries);
            assert_eq!(t.total_entries, 5);
        }
    }

    #[test]
    fn duplicate_key_in_one_object_is_refused() {
        let line = format!(
            r#"{{"type":"play","id":"a","account":"{}","at":"2018-12-05T10:00:00+01:00","stake_cents":1000,"stake_cents":5000,"channel":"web","game":"loto","subscription":null}}"#,
            acct(1)
        );
        let e = refusal(&export("2018-12-05", &[line]));
        assert_eq!(
            e.to_string(),
            r#"line 2: the key "stake_cents" appears twice in one object"#
        );
        // Also for an unknown field, and inside the subscription object.
        let line = play("a", 1, "2018-12-05T10:00:00+01:00", 1000, "web")
            .replace(r#""game""#, r#""x":1,"x":2,"game""#);
        assert_eq!(
            refusal(&export("2018-12-05", &[line])).kind.name(),
            "duplicate-key"
        );
        let line = sub_play(
            "a",
            1,
            "2018-12-05T10:00:00+01:00",
            1000,
            "2018-12-02T00:00:00Z",
        )
        .replace(
            r#""subscribed_at""#,
            r#""note":"","note":"","subscribed_at""#,
        );
        assert_eq!(
            refusal(&export("2018-12-05", &[line])).kind.name(),
            "duplicate-key"
        );
    }

    #[test]
    fn unknown_fields_are_ignored() {
        let line = play("a", 1, "2018-12-05T10:00:00+01:00", 1000, "web")
            .replace(r#""game""#, r#""future":{"deep":[1,{"k":null}]},"game""#);
        let mut data = export("2018-12-05", &[line]);
        data.splice(1..1, br#""comment":"hello","#.iter().copied());
        assert_eq!(entries_of(&tally(&data).unwrap(), 1), 1);
    }

    #[test]
    fn crlf_is_refused() {
        let data = export(
            "2018-12-05",
            &[play("a", 1, "2018-12-05T10:00:00+01:00", 1000, "web")],
        );
        let text = String::from_utf8(data).unwrap().replace('\n', "\r\n");
        let e = refusal(text.as_bytes());
        assert_eq!((e.line, e.kind), (Some(1), ExportErrorKind::Crlf));
        // Only one record line in CRLF.
        let mut data = export(
            "2018-12-05",
            &[play("a", 1, "2018-12-05T10:00:00+01:00", 1000, "web")],
        );
        let n = data.len();
        data.insert(n - 1, b'\r');
        assert_eq!(refusal(&data).line, Some(2));
    }

    #[test]
    fn missing_final_newline_is_refused() {
        let mut data = export(
            "2018-12-05",
            &[
                play("a", 1, "2018-12-05T10:00:00+01:00", 1000, "web"),
                play("b", 1, "2018-12-05T10:00:00+01:00", 1000, "web"),
            ],
        );
        data.pop();
        let e = refusal(&data);
        assert_eq!(
            (e.line, e.kind),
            (Some(3), ExportErrorKind::MissingFinalNewline)
        );
        let header_only = export("2018-12-05", &[]);
        assert_eq!(
            refusal(&header_only[..header_only.len() - 1]).kind,
            ExportErrorKind::MissingFinalNewline
        );
        assert_eq!(refusal(b"").kind, ExportErrorKind::Empty);
    }

    #[test]
    fn header_is_checked_field_by_field() {
        let good = String::from_utf8(export("2018-12-05", &[])).unwrap();
        for (from, to, name) in [
            (
                r#""format":"draw-entries""#,
                r#""format":"draw-entry""#,
                "wrong-format",
            ),
            (r#""version":1"#, r#""version":2"#, "wrong-version"),
            (
                r#""day":"2018-12-05""#,
                r#""day":"2018-12-25""#,
                "day-not-in-operation",
            ),
            (
                r#""day":"2018-12-05""#,
                r#""day":"2018-12-5""#,
                "out-of-range",
            ),
            (PRODUCER, "fedcba9876543210", "wrong-producer"),
            (r#""plays":0"#, r#""plays":-1"#, "out-of-range"),
            (r#""plays":0"#, r#""plays":"0""#, "wrong-type"),
            (r#""exclusions":0"#, r#""exclusions":1"#, "count-mismatch"),
            (
                r#","status_as_of":"2018-12-26T07:30:00+01:00""#,
                "",
                "missing-field",
            ),
            (
                "2018-12-26T07:30:00+01:00",
                "2018-12-26 07:30",
                "out-of-range",
            ),
        ] {
            let bad = good.replacen(from, to, 1);
            assert_ne!(bad, good);
            assert_eq!(refusal(bad.as_bytes()).kind.name(), name, "{to}");
        }
        assert_eq!(tally(good.as_bytes()).unwrap().total_entries, 0);
    }

    #[test]
    fn records_are_checked_field_by_field() {
        let ok = play("a", 1, "2018-12-05T10:00:00+01:00", 1000, "web");
        for (from, to, name) in [
            (r#""id":"a""#, r#""id":"""#, "out-of-range"),
            (r#""id":"a""#, r#""id":"a b""#, "out-of-range"),
            (r#""id":"a""#, r#""id":7"#, "wrong-type"),
            (r#","id":"a""#, "", "missing-field"),
            (
                r#""stake_cents":1000"#,
                r#""stake_cents":0"#,
                "out-of-range",
            ),
            (
                r#""stake_cents":1000"#,
                r#""stake_cents":100000001"#,
                "out-of-range",
            ),
            (
                r#""stake_cents":1000"#,
                r#""stake_cents":1000.0"#,
                "wrong-type",
            ),
            (
                r#""stake_cents":1000"#,
                r#""stake_cents":"1000""#,
                "wrong-type",
            ),
            (r#""channel":"web""#, r#""channel":"WEB""#, "out-of-range"),
            (r#""game":"loto""#, r#""game":"""#, "out-of-range"),
            (
                r#""subscription":null"#,
                r#""subscription":"x""#,
                "wrong-type",
            ),
            (
                r#""subscription":null"#,
                r#""subscription":{}"#,
                "missing-field",
            ),
            (r#","subscription":null"#, "", "missing-field"),
            (r#""type":"play""#, r#""type":"bonus""#, "unknown-type"),
            ("+01:00", "+0100", "out-of-range"),
        ] {
            let bad = ok.replacen(from, to, 1);
            assert_ne!(bad, ok);
            let e = refusal(&export("2018-12-05", &[bad]));
            assert_eq!((e.line, e.kind.name()), (Some(2), name), "{to}");
        }
        let e = refusal(&export(
            "2018-12-05",
            &[excl(1, "closed").replace("closed", "gone")],
        ));
        assert_eq!(e.kind.name(), "out-of-range");
    }

    #[test]
    fn duplicates_are_reported_at_their_second_line() {
        let p = play("p-1", 1, "2018-12-05T10:00:00+01:00", 1000, "web");
        let e = refusal(&export(
            "2018-12-05",
            &[p.clone(), excl(2, "closed"), p.clone(), p],
        ));
        assert_eq!(
            e.to_string(),
            r#"line 4: duplicate play id "p-1" (first on line 2)"#
        );
        let long = "x".repeat(64);
        let p = play(&long, 1, "2018-12-05T10:00:00+01:00", 1000, "web");
        let e = refusal(&export("2018-12-05", &[p.clone(), p]));
        assert_eq!(
            e.to_string(),
            "line 3: duplicate play id (the same id as line 2)"
        );
        let e = refusal(&export(
            "2018-12-05",
            &[excl(2, "closed"), excl(2, "fraud")],
        ));
        assert_eq!((e.line, e.kind.name()), (Some(3), "duplicate-exclusion"));
        // The earliest line wins: a bad line before the duplicate is what is reported.
        let p = play("p-1", 1, "2018-12-05T10:00:00+01:00", 1000, "web");
        let e = refusal(&export("2018-12-05", &[p.clone(), "{".into(), p]));
        assert_eq!((e.line, e.kind.name()), (Some(3), "invalid-json"));
    }

    #[test]
    fn hex32_lower_agrees_with_parse_hex32_on_every_byte_in_every_place() {
        let good: Vec<u8> = b"0123456789abcdef".repeat(4);
        let expected = crate::crypto::parse_hex32(std::str::from_utf8(&good).unwrap());
        assert_eq!(hex32_lower(&good), expected);
        assert_eq!(
            hex::encode(hex32_lower(&good).unwrap()),
            String::from_utf8(good.clone()).unwrap()
        );
        for place in 0..64 {
            for byte in 0..=255u8 {
                let mut s = good.clone();
                s[place] = byte;
                let as_str = std::str::from_utf8(&s).ok();
                let reference = as_str.and_then(crate::crypto::parse_hex32);
                assert_eq!(hex32_lower(&s), reference, "byte {byte:#04x} at {place}");
            }
        }
        // Random strings mostly of hex digits and their neighbours in ASCII.
        let alphabet = b"0123456789abcdef0123456789abcdef/:@`gAF\x80\xff";
        let mut st = 7u64;
        for _ in 0..100_000 {
            let s: Vec<u8> = (0..64)
                .map(|_| {
                    let r = splitmix(&mut st);
                    if r.is_multiple_of(50) {
                        alphabet[(r >> 8) as usize % alphabet.len()]
                    } else {
                        good[(r >> 8) as usize % 16]
                    }
                })
                .collect();
            let reference = std::str::from_utf8(&s)
                .ok()
                .and_then(crate::crypto::parse_hex32);
            assert_eq!(hex32_lower(&s), reference, "{s:?}");
        }
        assert_eq!(hex32_lower(&good[..63]), None);
        assert_eq!(hex32_lower(&[b'0'; 65]), None);
    }

    #[test]
    fn ids_whose_fingerprints_collide_are_not_duplicates() {
        // Two different 15-byte ids with equal fingerprints, found by search: the file is read
        // again, the ids are compared in full, and the tally is the one without the collision.
        const CHARS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-";
        let a = b"p0000000q000000";
        let key_a = id_line(a, 2);
        let target = key_a.0.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ key_a.1;
        let mut b = None;
        'search: for i in 0..CHARS.len().pow(4) {
            let mut w0 = *b"q0000000";
            let mut k = i;
            for c in w0[4..].iter_mut() {
                *c = CHARS[k % CHARS.len()];
                k /= CHARS.len();
            }
            let w0 = u64::from_be_bytes(w0);
            let w1 = (target ^ w0.wrapping_mul(0x9E37_79B9_7F4A_7C15)).to_be_bytes();
            if w1[7] == 15 && w1[..7].iter().all(|c| CHARS.contains(c)) {
                let mut id = w0.to_be_bytes().to_vec();
                id.extend_from_slice(&w1[..7]);
                b = Some(String::from_utf8(id).unwrap());
                break 'search;
            }
        }
        let b = b.expect("a colliding id exists in the search space");
        let a = std::str::from_utf8(a).unwrap();
        assert_ne!(a, b);
        assert_eq!(
            fingerprint(&id_line(a.as_bytes(), 2)),
            fingerprint(&id_line(b.as_bytes(), 3))
        );
        let at = "2018-12-05T10:00:00+01:00";
        let colliding = tally(&export(
            "2018-12-05",
            &[play(a, 1, at, 1000, "web"), play(&b, 2, at, 1000, "web")],
        ))
        .unwrap();
        let plain = tally(&export(
            "2018-12-05",
            &[
                play(a, 1, at, 1000, "web"),
                play("other", 2, at, 1000, "web"),
            ],
        ))
        .unwrap();
        assert_eq!(colliding.plays, 2);
        assert_eq!(colliding.entries, plain.entries);
        assert_eq!(colliding.total_entries, plain.total_entries);
        // ... while a real duplicate among them is still found, at its second line.
        let e = refusal(&export(
            "2018-12-05",
            &[
                play(a, 1, at, 1000, "web"),
                play(&b, 2, at, 1000, "web"),
                play(a, 3, at, 1000, "web"),
            ],
        ));
        assert_eq!(
            e.to_string(),
            format!(r#"line 4: duplicate play id "{a}" (first on line 2)"#)
        );
    }

    #[test]
    fn not_utf8_is_refused() {
        let mut data = export(
            "2018-12-05",
            &[play("a", 1, "2018-12-05T10:00:00+01:00", 1000, "web")],
        );
        let i = data.len() - 5;
        data[i] = 0xff;
        assert_eq!(refusal(&data).kind, ExportErrorKind::NotUtf8);
    }

    #[test]
    fn large_input_spanning_many_chunks_gives_the_same_result_on_any_thread_count() {
        let recs: Vec<String> = (0..40_000u32)
            .map(|i| {
                play(
                    &format!("p{i}"),
                    (i % 251) as u8,
                    "2018-12-05T10:00:00Z",
                    u64::from(50 + i % 300),
                    if i % 33 == 0 { "retail" } else { "web" },
                )
            })
            .collect();
        let data = export("2018-12-05", &recs);
        assert!(data.len() > BLOCK);
        let v = VerifiedExport {
            sha256: crate::crypto::sha256(&data),
            size: data.len() as u64,
            key: [0; 32],
            key_id: PRODUCER.into(),
        };
        let rules = DrawRules::chanceux_noel_2018();
        let one =
            tally_export_with(|| Ok(&data[..]), &v, &rules, &TallyOptions { threads: 1 }).unwrap();
        for threads in [2, 3, 5] {
            let t =
                tally_export_with(|| Ok(&data[..]), &v, &rules, &TallyOptions { threads }).unwrap();
            assert_eq!(t, one);
        }
        assert_eq!(one.plays, 40_000);
        assert_eq!(one.accounts_with_entries, 251);
        assert!(one.entries.iter().all(|e| e.entries == 3));

        // Duplicates in chunks far apart (so in different workers' lists) are found, and the
        // one reported is the same whatever the thread count: the earliest second occurrence.
        let mut dup = recs.clone();
        dup[39_000] = dup[10].clone();
        dup[30_000] = dup[20_000].clone();
        let data = export("2018-12-05", &dup);
        let v = VerifiedExport {
            sha256: crate::crypto::sha256(&data),
            size: data.len() as u64,
            ..v
        };
        for threads in [1, 2, 3, 5] {
            let e = tally_export_with(|| Ok(&data[..]), &v, &rules, &TallyOptions { threads })
                .unwrap_err();
            assert_eq!(
                e.to_string(),
                r#"line 30002: duplicate play id "p20000" (first on line 20002)"#,
                "{threads} threads"
            );
        }
    }

    /// A tiny deterministic generator for test data (splitmix64).
    fn splitmix(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Everything one record line does to a worker's state.
    type Outcome = (
        Result<(), ExportErrorKind>,
        [u64; 4],
        Vec<u64>,
        Vec<([u8; 32], u64)>,
    );

    fn outcome(raw: &[u8], ctx: &Ctx<'_>, general_only: bool) -> Outcome {
        let mut p = Partial::default();
        let r = if general_only {
            parse_record_general(raw, 7, ctx, &mut p)
        } else {
            parse_record(raw, 7, ctx, &mut p)
        };
        let sums: Vec<([u8; 32], u64)> = p
            .accounts
            .into_sorted()
            .into_iter()
            .map(|(k, c)| (account_of(&k), c))
            .collect();
        (
            r,
            [p.plays, p.counting, p.retail, p.subs_refused],
            p.fingerprints,
            sums,
        )
    }

    /// A random play line in the producer's usual layout, with values often at or beyond the
    /// edges of what is valid.
    fn random_play_line(st: &mut u64) -> String {
        let mut pick = |n: u64| (splitmix(st) % n) as usize;
        const ID_CHARS: &[u8] = b"abcXYZ019._:-";
        let id_len = [1, 5, 13, 15, 16, 64, 65, 0][pick(8)];
        let id: String = (0..id_len)
            .map(|_| char::from(ID_CHARS[pick(ID_CHARS.len() as u64)]))
            .collect();
        let account: String = (0..64)
            .map(|_| char::from(b"0123456789abcdef"[pick(16)]))
            .collect();
        let ts = |pick: &mut dyn FnMut(u64) -> usize| {
            let day = [
                "2018-12-05",
                "2018-12-04",
                "2018-12-06",
                "2018-11-30",
                "2018-12-24",
            ][pick(5)];
            let hms = [
                "00:00:00",
                "22:59:59",
                "23:00:00",
                "10:11:12",
                "23:59:59",
                "12:00:00.5",
            ][pick(6)];
            let off = ["Z", "+01:00", "-05:00", "+00:00", "z", "+14:00"][pick(6)];
            format!("{day}T{hms}{off}")
        };
        let at = ts(&mut pick);
        let stake = [
            "1",
            "100",
            "1500",
            "99999999",
            "100000000",
            "100000001",
            "0",
            "1000000000",
        ][pick(8)];
        let channel = ["web", "mobile", "tablet", "app", "retail", "shop"][pick(6)];
        let game = [
            "loto",
            "bingo-live",
            &"g".repeat(64),
            &"g".repeat(65),
            "é",
            " x ",
        ][pick(6)]
        .to_string();
        let sub = if pick(4) == 0 {
            format!(r#"{{"subscribed_at":"{}"}}"#, ts(&mut pick))
        } else {
            "null".into()
        };
        format!(
            r#"{{"type":"play","id":"{id}","account":"{account}","at":"{at}","stake_cents":{stake},"channel":"{channel}","game":"{game}","subscription":{sub}}}"#
        )
    }

    #[test]
    fn fast_path_and_general_reader_agree_on_generated_and_mutated_lines() {
        let rules = DrawRules::chanceux_noel_2018();
        let day = NaiveDate::from_ymd_opt(2018, 12, 5).unwrap();
        let (day_start, day_end) = rules.day_bounds(day).unwrap();
        let ctx = Ctx {
            rules: &rules,
            day,
            day_start,
            day_end,
            suspects: None,
        };
        const INTERESTING: &[u8] =
            b"\"\\ {}[],:0159aAfFzZtT.+-_nul\x00\x1f\x7f\x80\xc3\xa9\xff\r\n";
        let mut st = 42u64;
        let (mut fast_ok, mut cases) = (0, 0);
        for i in 0..30_000 {
            let mut line = random_play_line(&mut st).into_bytes();
            // Mutate most lines: replace, insert or delete bytes, or move a slice.
            let mutations = if i % 4 == 0 {
                0
            } else {
                1 + splitmix(&mut st) % 3
            };
            for _ in 0..mutations {
                let n = line.len() as u64;
                let at = (splitmix(&mut st) % n) as usize;
                let byte = INTERESTING[(splitmix(&mut st) % INTERESTING.len() as u64) as usize];
                match splitmix(&mut st) % 5 {
                    0 => line[at] = byte,
                    1 => line.insert(at, byte),
                    2 => {
                        line.remove(at);
                    }
                    3 => line[at] = line[at].wrapping_add(1),
                    _ => {
                        let len = (splitmix(&mut st) % 12) as usize;
                        let end = (at + len).min(line.len());
                        let piece: Vec<u8> = line.drain(at..end).collect();
                        let to = (splitmix(&mut st) % (line.len() as u64 + 1)) as usize;
                        line.splice(to..to, piece);
                    }
                }
                if line.is_empty() {
                    line.push(b'{');
                }
            }
            let general = outcome(&line, &ctx, true);
            let both = outcome(&line, &ctx, false);
            assert_eq!(both, general, "{:?}", String::from_utf8_lossy(&line));
            cases += 1;
            if fast::play(&line).is_some() {
                fast_ok += 1;
                assert!(
                    general.0.is_ok()
                        || general.0.as_ref().unwrap_err().name() == "play-not-on-day"
                );
            }
        }
        // The fast path must really have been taken, and declined, many times.
        assert!(fast_ok > cases / 20, "{fast_ok} of {cases}");
        assert!(fast_ok < cases / 2, "{fast_ok} of {cases}");
    }

    #[test]
    fn fast_path_takes_the_usual_lines() {
        for line in [
            play("p-1", 1, "2018-12-05T10:00:00+01:00", 1000, "web"),
            play("a", 200, "2018-12-05T10:00:00Z", 100_000_000, "retail"),
            sub_play(
                "b",
                3,
                "2018-12-05T10:00:00+01:00",
                1,
                "2018-12-02T00:00:00Z",
            ),
        ] {
            assert!(fast::play(line.as_bytes()).is_some(), "{line}");
        }
        let at = "2018-12-05T10:00:00+01:00";
        for line in [
            play("p-1", 1, at, 1000, "web").replace(":1000,", ": 1000,"),
            play("p-1", 1, at, 1000, "web").replace("p-1", "p\\u002d1"),
            play("p-1", 1, at, 1000, "web").replace("loto", "lotô"),
            play("p-1", 1, at, 1000, "web") + " ",
            excl(1, "closed"),
        ] {
            assert!(fast::play(line.as_bytes()).is_none(), "{line}");
        }
    }
}
