//! Pass 2's threads. The reading thread (the caller's) hashes the bytes and cuts them into
//! line-aligned chunks, dealt to the workers in turn; each worker parses its chunks and keeps its
//! own sums and lists ([`Partial`]). Nothing depends on how lines fall into chunks or threads:
//! sums are commutative, every list is sorted before use, and the error reported is the one on
//! the smallest line number (every line before it has been checked).

use std::io::Read;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;

use super::counting::{Ctx, Partial};
use super::error::{ExportError, ExportErrorKind};
use super::limits::MAX_LINE;
use super::read::BLOCK;
use super::record::parse_chunk;
use super::rehash::HashingReader;

/// A line-aligned chunk of the file: every line in it ends in LF.
struct Chunk {
    /// The 1-based line number of the chunk's first line.
    first_line: u64,
    /// A reusable buffer of `BUF` bytes; the chunk is `bytes[..len]`.
    bytes: Vec<u8>,
    /// How many bytes of `bytes` the chunk holds.
    len: usize,
}

/// Size of a chunk buffer: a carried-over partial line (at most `MAX_LINE`) plus one block.
const BUF: usize = MAX_LINE + BLOCK;

/// Parses every record line after the header on `threads` workers. `pending` holds the bytes
/// already read after the header; `header_plays` is the header's play count (a hint for memory,
/// not trusted). Returns each worker's findings, and the error the reading thread found (an I/O
/// error, a line too long, no final LF), if any.
pub(super) fn parse_records<R: Read>(
    src: &mut HashingReader<R>,
    pending: Vec<u8>,
    ctx: &Ctx<'_>,
    threads: usize,
    header_plays: u64,
) -> (Vec<Partial>, Option<ExportError>) {
    let min_err = AtomicU64::new(u64::MAX);
    // Room for each worker's share of the plays the header announces (capped: the header is not
    // trusted for memory; the list grows as needed anyway).
    let reserve = match ctx.suspects {
        None => (header_plays.min(1 << 25) as usize).div_ceil(threads),
        Some(_) => 0,
    };
    std::thread::scope(|s| {
        let (free_tx, free_rx) = mpsc::channel::<Vec<u8>>();
        let mut senders = Vec::new();
        let mut handles = Vec::new();
        for _ in 0..threads {
            let (tx, rx) = mpsc::sync_channel::<Chunk>(2);
            senders.push(tx);
            let free_tx = free_tx.clone();
            let min_err = &min_err;
            handles.push(s.spawn(move || work(rx, &free_tx, ctx, min_err, reserve)));
        }
        drop(free_tx);
        let mut pool = Pool {
            free: free_rx,
            allocated: 0,
            limit: 3 * threads,
        };
        let tail_err = feed(src, pending, &senders, &mut pool, &min_err);
        drop(senders);
        let parts: Vec<Partial> = handles
            .into_iter()
            // Invariant: workers do not panic (parse errors are values).
            .map(|h| h.join().expect("parsing thread"))
            .collect();
        (parts, tail_err)
    })
}

/// One worker: parses the chunks it is dealt (none after an error on an earlier line), gives
/// each buffer back for reuse, and sorts its lists at the end.
fn work(
    chunks: mpsc::Receiver<Chunk>,
    free: &mpsc::Sender<Vec<u8>>,
    ctx: &Ctx<'_>,
    min_err: &AtomicU64,
    reserve: usize,
) -> Partial {
    let mut p = Partial::default();
    p.ids.fingerprints.reserve(reserve);
    for chunk in chunks {
        if chunk.first_line <= min_err.load(Ordering::Relaxed)
            && let Err((line, kind)) =
                parse_chunk(&chunk.bytes[..chunk.len], chunk.first_line, ctx, &mut p)
        {
            min_err.fetch_min(line, Ordering::Relaxed);
            p.keep_error((line, kind));
        }
        let _ = free.send(chunk.bytes);
    }
    // The sorting is spread out too: each worker sorts its own lists, and the finish only
    // merges them.
    p.sort();
    p
}

/// Chunk buffers: reused once a worker gives them back; at most `limit` are allocated before
/// the reading thread waits for one.
struct Pool {
    free: mpsc::Receiver<Vec<u8>>,
    allocated: usize,
    limit: usize,
}

impl Pool {
    /// A free buffer: one given back, else a new one under the limit, else the next one given
    /// back.
    fn take(&mut self) -> Vec<u8> {
        match self.free.try_recv() {
            Ok(b) => b,
            Err(_) if self.allocated < self.limit => {
                self.allocated += 1;
                vec![0u8; BUF]
            }
            Err(_) => self.free.recv().unwrap_or_else(|_| vec![0u8; BUF]),
        }
    }
}

/// The reading thread: cuts the rest of the file into line-aligned chunks and deals them to the
/// workers in turn, until the end of the file, an error of its own (returned), or a worker's
/// error (`min_err`).
fn feed<R: Read>(
    src: &mut HashingReader<R>,
    mut pending: Vec<u8>,
    workers: &[mpsc::SyncSender<Chunk>],
    pool: &mut Pool,
    min_err: &AtomicU64,
) -> Option<ExportError> {
    let mut line: u64 = 2;
    let mut k = 0usize;
    loop {
        if min_err.load(Ordering::Relaxed) != u64::MAX {
            return None;
        }
        let mut buf = pool.take();
        // The partial line carried over from the previous chunk (at most MAX_LINE bytes).
        let carried = pending.len();
        buf[..carried].copy_from_slice(&pending);
        pending.clear();
        let (used, eof) = match read_to_line(src, &mut buf, carried, line) {
            Ok(r) => r,
            Err(e) => return Some(e),
        };
        let cut = memchr::memrchr(b'\n', &buf[..used]).map_or(0, |i| i + 1);
        pending.extend_from_slice(&buf[cut..used]);
        let n_lines = memchr::memchr_iter(b'\n', &buf[..cut]).count() as u64;
        let mut tail_err = None;
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
            // A worker only stops on a panic, which the join reports.
            let _ = workers[k % workers.len()].send(chunk);
            k += 1;
        }
        if eof || tail_err.is_some() {
            if tail_err.is_none() && !pending.is_empty() {
                tail_err = Some(ExportError::at(line, ExportErrorKind::MissingFinalNewline));
            }
            return tail_err;
        }
    }
}

/// Reads into `buf` after its first `used` bytes until it holds at least one complete line
/// (`(used, false)`) or the file ends (`(used, true)`). An I/O error, or a line (the one
/// starting at `line`) longer than `MAX_LINE`, ends the pass.
fn read_to_line<R: Read>(
    src: &mut HashingReader<R>,
    buf: &mut [u8],
    mut used: usize,
    line: u64,
) -> Result<(usize, bool), ExportError> {
    loop {
        let n = src.read_into(&mut buf[used..used + BLOCK])?;
        used += n;
        if n == 0 {
            return Ok((used, true));
        }
        if memchr::memchr(b'\n', &buf[used - n..used]).is_some() {
            return Ok((used, false));
        }
        if used > MAX_LINE {
            return Err(ExportError::at(
                line,
                ExportErrorKind::LineTooLong(MAX_LINE),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Pool;
    use std::sync::mpsc;

    /// The reading thread never holds more than `limit` buffers of its own making (what bounds
    /// the reader's memory, whatever the export's size): past it, it waits for one given back.
    #[test]
    fn the_pool_allocates_at_most_its_limit_then_waits_for_a_buffer_given_back() {
        let (tx, rx) = mpsc::channel::<Vec<u8>>();
        let mut pool = Pool {
            free: rx,
            allocated: 0,
            limit: 2,
        };
        let (a, _b) = (pool.take(), pool.take());
        assert_eq!(pool.allocated, 2);
        let given_back = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(50));
            let mut a = a;
            a[0] = 7;
            tx.send(a).unwrap();
        });
        // At the limit: the pool waits for the buffer given back, and allocates no third.
        assert_eq!(pool.take()[0], 7);
        assert_eq!(pool.allocated, 2);
        given_back.join().unwrap();
    }
}
