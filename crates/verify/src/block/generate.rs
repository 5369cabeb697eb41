//! Generating a whole block (spec/formats.md §5.B4–§5.B7) on several threads. The work is cut
//! into fixed chunks of [`CHUNK_TICKETS`] positions; each chunk's rows, leaves and subtree root
//! depend only on the seed and the chunk, and are assembled in chunk order, so the output is the
//! same bytes whatever the thread count (design principle 3).

use super::grid::{GridKey, TierPlan, ticket_grid_planned};
use super::id::{BlockId, BlockIdError, Seed, block_seed_of, grid_key, seed_commitment};
use super::shuffle::{initial_deck, shuffled_tiers};
use super::tickets::{CSV_HEADER, row_len, ticket_leaf, write_row};
use crate::crypto::Hash32;
use crate::crypto::merkle::root as merkle_root;
use crate::rules::game::{GameRules, is_tier};
use sha2::{Digest, Sha256};
use std::io::{self, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Positions per chunk. A power of two, so each full chunk is a complete subtree of the RFC 6962
/// tree and the root is `merkle::root` over the chunk roots (proved by a test, not a convention:
/// changing it changes no output).
pub const CHUNK_TICKETS: usize = 1 << 14;

/// A generated block: the tiers in sale order, the bytes of `tickets.csv`, the ticket leaves and
/// the outcomes root. Held in memory one block at a time (about 90 MB at 800,000 tickets).
pub struct Block {
    id: BlockId,
    tiers: Vec<u8>,
    /// `tickets.csv`, whole.
    csv: Vec<u8>,
    /// Its SHA-256, computed as the chunks were made.
    csv_sha256: Hash32,
    leaves: Vec<Hash32>,
    outcomes_root: Hash32,
}

/// The first ticket (position, why) whose grid fails G-6, G-7 or G-8, when grids are checked.
pub type GridFailure = Option<(u32, String)>;

/// Generates the block `id` from its `seed` (spec/formats.md §5.B4–§5.B7) with `threads` worker threads (at least
/// one is used). The output does not depend on `threads`.
pub fn generate_block(
    rules: &GameRules,
    id: &BlockId,
    seed: &Seed,
    threads: usize,
) -> Result<Block, BlockIdError> {
    generate_block_checked(rules, id, seed, threads, false).map(|(b, _)| b)
}

/// [`generate_block`], and with `check` also every ticket's grid checked against G-6, G-7 and
/// G-8 (spec/formats.md §5.B5.5) as it is made: verification after a reveal uses this instead of re-parsing a
/// production file it has shown to be byte-identical. Returns the first failing position and why.
///
/// The steps: the deck shuffled (spec/formats.md §5.B4) and the grid key derived (spec/formats.md §5.B3); every chunk made by
/// whichever worker takes it next (grids spec/formats.md §5.B5, rows spec/formats.md §5.B6, leaves spec/formats.md §5.B7); the chunks assembled
/// in position order, the outcomes root folded from the chunk roots.
///
/// # Panics
/// Only if a worker thread panicked (the panic is re-raised). The price index cannot be missing:
/// [`BlockId::check_rules`] has just proved the block's price is a price point of `rules`.
pub fn generate_block_checked(
    rules: &GameRules,
    id: &BlockId,
    seed: &Seed,
    threads: usize,
    check: bool,
) -> Result<(Block, GridFailure), BlockIdError> {
    id.check_rules(rules)?;
    // check_rules proved the price is a price point.
    let price_idx = rules.price_index(id.price_cents()).expect("checked price");
    // The file's and the leaves' sizes do not depend on the order of the deck: their memory is
    // taken, and its pages touched, on another thread while this one shuffles (the shuffle is
    // one DRBG stream, on one thread).
    let ((mut csv, mut leaves), tiers) = std::thread::scope(|s| {
        let buffers = s.spawn(|| {
            let deck = initial_deck(rules);
            (
                Job::layout(&chunk_lens(&deck, &prizes_at(rules, price_idx))),
                vec![Hash32::ZERO; deck.len()],
            )
        });
        let tiers = shuffled_tiers(rules, seed);
        (buffers.join().expect("buffer thread panicked"), tiers)
    });
    let job = Job::new(
        rules,
        price_idx,
        &tiers,
        GridKey::new(&grid_key(seed)),
        check,
    );
    let lens = job.chunk_lens();
    if csv.len() != CSV_HEADER.len() + lens.iter().sum::<usize>() {
        // A permutation keeps every row's length: not reached.
        csv = Job::layout(&lens);
    }
    let (roots, csv_sha256) = job.run(threads, &lens, &mut csv, &mut leaves);
    let first_failure = job.first_failure.into_inner().expect("worker panicked");
    let block = Block {
        id: id.clone(),
        tiers,
        csv,
        csv_sha256,
        leaves,
        outcomes_root: merkle_root(&roots),
    };
    Ok((block, first_failure))
}

/// The prize in cents of each tier 0..=10 at the price point `price_idx` (0 where none).
fn prizes_at(rules: &GameRules, price_idx: usize) -> Vec<u64> {
    (0..=10)
        .map(|t| rules.prize_cents(t, price_idx).unwrap_or(0))
        .collect()
}

/// The length of each chunk's rows in `tickets.csv`, line feeds included, for the deck `tiers`
/// and the prize of each tier `prizes` (a row's length depends only on its position and tier):
/// the digits of the positions, plus the rest of each row's length for its tier, computed once
/// per tier.
fn chunk_lens(tiers: &[u8], prizes: &[u64]) -> Vec<usize> {
    // The row of each tier without its position's digits, with its line feed: the row at
    // position 0 counts one digit for the position, as many bytes as the line feed.
    let tier_len: Vec<usize> = (0..=10u8)
        .map(|t| row_len(0, t, prizes[usize::from(t)]))
        .collect();
    let mut lens = Vec::with_capacity(tiers.len().div_ceil(CHUNK_TICKETS));
    for (c, chunk) in tiers.chunks(CHUNK_TICKETS).enumerate() {
        let start = c * CHUNK_TICKETS;
        let digits = digits_in(start, start + chunk.len());
        let rest: usize = chunk.iter().map(|&t| tier_len[usize::from(t)]).sum();
        lens.push(digits + rest);
    }
    lens
}

/// The number of decimal digits of all the positions `from..to` written out (canonical: "0"
/// has one), by runs of positions with as many digits.
fn digits_in(from: usize, to: usize) -> usize {
    let mut total = 0;
    let (mut lo, mut digits) = (0usize, 1usize);
    let mut hi = 10usize;
    while lo < to {
        let (a, b) = (from.max(lo), to.min(hi));
        if a < b {
            total += (b - a) * digits;
        }
        lo = hi;
        hi = hi.saturating_mul(10);
        digits += 1;
    }
    total
}

/// A chunk's place in the block: its rows of `tickets.csv` (each with its line feed) and its
/// leaves, both to fill.
type Place<'b> = (&'b mut [u8], &'b mut [Hash32]);

/// The SHA-256 of `tickets.csv`, fed the chunks in position order as workers finish them: a
/// worker that finishes the next chunk to hash hashes it, and every chunk finished after it that
/// waits, while the other workers go on making chunks.
struct InOrder<'b> {
    /// The chunks finished and not yet hashed, by index.
    ready: Vec<Option<&'b [u8]>>,
    /// The next chunk to hash.
    next: usize,
    /// Whether a worker is hashing (it takes every chunk that is ready in turn).
    busy: bool,
}

/// One block being generated: what every worker reads, the next chunk to take, and the slots
/// the workers fill (one per chunk, taken by exactly one worker).
struct Job<'a> {
    /// The tiers in sale order (the shuffled deck).
    tiers: &'a [u8],
    key: GridKey,
    /// The prize in cents of each tier 0..=10 at the block's price (0 where none).
    prizes: Vec<u64>,
    /// Number of symbols of the game.
    symbols: usize,
    /// The grid construction's plan of each tier 0..=10 (none where no tier is).
    plans: Vec<Option<TierPlan>>,
    check: bool,
    chunks: usize,
    next: AtomicUsize,
    first_failure: Mutex<GridFailure>,
}

impl<'a> Job<'a> {
    fn new(
        rules: &'a GameRules,
        price_idx: usize,
        tiers: &'a [u8],
        key: GridKey,
        check: bool,
    ) -> Job<'a> {
        let chunks = tiers.len().div_ceil(CHUNK_TICKETS);
        Job {
            tiers,
            key,
            prizes: prizes_at(rules, price_idx),
            symbols: rules.symbols().len(),
            plans: (0..=10u8)
                .map(|t| is_tier(t).then(|| TierPlan::new(rules.symbols().len(), t)))
                .collect(),
            check,
            chunks,
            next: AtomicUsize::new(0),
            first_failure: Mutex::new(None),
        }
    }

    /// The prize in cents of a ticket of `tier`.
    fn prize(&self, tier: u8) -> u64 {
        self.prizes[usize::from(tier)]
    }

    /// The length of each chunk's rows in `tickets.csv` ([`chunk_lens`]).
    fn chunk_lens(&self) -> Vec<usize> {
        chunk_lens(self.tiers, &self.prizes)
    }

    /// `tickets.csv` laid out: its header, then room for every row and its line feed, the
    /// chunks' lengths being `lens` (its pages written, so that the workers do not fault them
    /// in).
    fn layout(lens: &[usize]) -> Vec<u8> {
        let len = CSV_HEADER.len() + lens.iter().sum::<usize>();
        let mut csv = Vec::with_capacity(len);
        csv.extend_from_slice(CSV_HEADER.as_bytes());
        csv.resize(len, 0u8);
        csv
    }

    /// Makes every chunk on `threads` threads (this one included, at least one) into its place
    /// in `csv` (laid out by [`Job::layout`]) and `leaves`; returns the chunk roots in order and
    /// the SHA-256 of `csv`.
    fn run(
        &self,
        threads: usize,
        lens: &[usize],
        csv: &mut [u8],
        leaves: &mut [Hash32],
    ) -> (Vec<Hash32>, Hash32) {
        let (header, mut rows) = csv.split_at_mut(CSV_HEADER.len());
        let mut places = Vec::with_capacity(self.chunks);
        for (chunk_leaves, &len) in leaves.chunks_mut(CHUNK_TICKETS).zip(lens) {
            let (place, rest) = std::mem::take(&mut rows).split_at_mut(len);
            rows = rest;
            places.push(Mutex::new(Some((place, chunk_leaves))));
        }
        let roots: Vec<Mutex<Option<Hash32>>> =
            (0..self.chunks).map(|_| Mutex::new(None)).collect();
        let order = Mutex::new(InOrder {
            ready: vec![None; self.chunks],
            next: 0,
            busy: false,
        });
        let mut sha = Sha256::new();
        sha.update(&*header);
        let sha = Mutex::new(sha);
        let work = || self.work(&places, &roots, &order, &sha);
        std::thread::scope(|s| {
            for _ in 1..threads.max(1) {
                s.spawn(work);
            }
            work();
        });
        // Every chunk index below `chunks` was taken by exactly one worker, which filled its
        // root and handed its rows to the hash in order.
        let roots = roots
            .into_iter()
            .map(|r| {
                r.into_inner()
                    .expect("worker panicked")
                    .expect("chunk done")
            })
            .collect();
        debug_assert_eq!(
            order.into_inner().expect("worker panicked").next,
            self.chunks
        );
        let sha = sha.into_inner().expect("worker panicked").finalize();
        (roots, Hash32(sha.into()))
    }

    /// One worker: takes the next chunk not yet taken, makes it into its place, records its
    /// root and hands its rows to the hash, until none is left.
    fn work<'b>(
        &self,
        places: &[Mutex<Option<Place<'b>>>],
        roots: &[Mutex<Option<Hash32>>],
        order: &Mutex<InOrder<'b>>,
        sha: &Mutex<Sha256>,
    ) {
        let key = self.key.clone();
        loop {
            let c = self.next.fetch_add(1, Ordering::Relaxed);
            if c >= self.chunks {
                break;
            }
            // A poisoned lock means another worker panicked; the scope re-raises that panic.
            let (rows, leaves) = places[c]
                .lock()
                .expect("worker panicked")
                .take()
                .expect("each chunk taken once");
            let root = self.make_chunk(&key, c, rows, leaves);
            *roots[c].lock().expect("worker panicked") = Some(root);
            Self::hash_in_order(order, sha, c, rows);
        }
    }

    /// Hands chunk `c`'s finished rows to the file's hash; if no worker is hashing, this one
    /// hashes every chunk that is ready in position order.
    fn hash_in_order<'b>(
        order: &Mutex<InOrder<'b>>,
        sha: &Mutex<Sha256>,
        c: usize,
        rows: &'b [u8],
    ) {
        let mut o = order.lock().expect("worker panicked");
        o.ready[c] = Some(rows);
        if o.busy {
            return;
        }
        o.busy = true;
        loop {
            let next = o.next;
            let Some(bytes) = o.ready.get_mut(next).and_then(Option::take) else {
                o.busy = false;
                return;
            };
            o.next += 1;
            drop(o);
            sha.lock().expect("worker panicked").update(bytes);
            o = order.lock().expect("worker panicked");
        }
    }

    /// Chunk `c` into its place: for each of its positions the grid (checked against G-6, G-7,
    /// G-8 when asked), the row and its line feed in `rows`, the leaf in `leaves`; returns the
    /// chunk's root (RFC 6962 over its leaves: a complete subtree of the outcomes tree for a
    /// full chunk).
    fn make_chunk(
        &self,
        key: &GridKey,
        c: usize,
        rows: &mut [u8],
        leaves: &mut [Hash32],
    ) -> Hash32 {
        let start = c * CHUNK_TICKETS;
        let mut at = 0;
        for ((p, &tier), leaf) in (start..).zip(&self.tiers[start..]).zip(leaves.iter_mut()) {
            // p < the block size, a u32 (G-1): the conversion is exact.
            #[allow(clippy::cast_possible_truncation)]
            let pos = p as u32;
            let plan = self.plans[usize::from(tier)]
                .as_ref()
                .expect("the deck holds tiers only");
            let grid = ticket_grid_planned(key, pos, plan);
            if self.check
                && let Err(why) = grid.check(tier, self.symbols)
            {
                self.record_failure(pos, why);
            }
            let n = write_row(&mut rows[at..], pos, tier, self.prize(tier), &grid);
            *leaf = ticket_leaf(&rows[at..at + n]);
            rows[at + n] = b'\n';
            at += n + 1;
        }
        debug_assert_eq!(at, rows.len());
        merkle_root(leaves)
    }

    /// Keeps the failure of the lowest position seen so far (workers meet positions out of
    /// order).
    fn record_failure(&self, pos: u32, why: String) {
        let mut f = self.first_failure.lock().expect("worker panicked");
        if f.as_ref().is_none_or(|(q, _)| pos < *q) {
            *f = Some((pos, why));
        }
    }

    /// The first grid failure recorded (a test's view of a job no worker ran).
    #[cfg(test)]
    fn finish_failure(self) -> GridFailure {
        self.first_failure.into_inner().expect("worker panicked")
    }
}

/// Why a revealed block does not match its commitment (spec/formats.md §5.B8 steps 7–8). The messages are the
/// ones `urne verify` reports (after the block's id).
#[derive(Debug, thiserror::Error)]
pub enum RevealError {
    /// The block cannot be generated under these rules (its identity does not fit them).
    #[error(transparent)]
    Id(#[from] BlockIdError),
    /// Step 7: the seed derived from the revealed entropy has another seed commitment.
    #[error("the revealed entropy gives another seed commitment than the block's ({committed})")]
    SeedCommitment {
        /// The seed commitment of the seed derived from the revealed entropy (hex).
        found: String,
        /// The committed seed commitment (hex).
        committed: String,
    },
    /// Step 8: the regenerated block has another outcomes root.
    #[error("the recomputed outcomes root differs from the committed one")]
    Root {
        /// The recomputed outcomes root (hex).
        found: String,
        /// The committed outcomes root (hex).
        committed: String,
    },
}

/// A block regenerated from its revealed entropy, and the first ticket (position, why) whose
/// grid fails G-6, G-7 or G-8, if any.
pub type Regenerated = (Block, GridFailure);

/// Verification after the reveal (spec/formats.md §5.B8 steps 7–8), as `urne verify` runs it on a block folder:
/// derive the seed from the revealed entropy, check it against the seed commitment, regenerate
/// the block with every grid checked ([`generate_block_checked`]) and check the outcomes root.
/// The returned block's `csv_sha256` can then be compared with the production file's (step 9).
pub fn verify_reveal(
    rules: &GameRules,
    id: &BlockId,
    (contribution, entropy): (Option<&str>, &[u8]),
    committed_seed_commitment: &Hash32,
    committed_root: &Hash32,
    threads: usize,
) -> Result<Regenerated, RevealError> {
    let seed = block_seed_of(id, rules.sha256(), contribution, entropy);
    let sc = seed_commitment(&seed);
    if &sc != committed_seed_commitment {
        return Err(RevealError::SeedCommitment {
            found: hex::encode(sc),
            committed: hex::encode(committed_seed_commitment),
        });
    }
    let (block, grid_failure) = generate_block_checked(rules, id, &seed, threads, true)?;
    if block.outcomes_root() != committed_root {
        return Err(RevealError::Root {
            found: hex::encode(block.outcomes_root()),
            committed: hex::encode(committed_root),
        });
    }
    Ok((block, grid_failure))
}

impl Block {
    /// The block's identity (spec/formats.md §5.B2), as it was generated.
    pub fn id(&self) -> &BlockId {
        &self.id
    }

    /// Tiers in sale order (0 losing, 4..=10 matches): `tiers()[p]` is the outcome of the ticket
    /// at position `p` (spec/formats.md §5.B4 step 4).
    pub fn tiers(&self) -> &[u8] {
        &self.tiers
    }

    /// The outcomes commitment (spec/formats.md §5.B7): RFC 6962 root over the ticket leaves in sale order.
    pub fn outcomes_root(&self) -> &Hash32 {
        &self.outcomes_root
    }

    /// Leaf hashes in sale order (spec/formats.md §5.B7); an inclusion proof of position `p` is
    /// `merkle::inclusion_path(p, leaves())`.
    pub fn leaves(&self) -> &[Hash32] {
        &self.leaves
    }

    /// Writes `tickets.csv` (spec/formats.md §5.B6) to `w`.
    pub fn write_csv<W: Write>(&self, mut w: W) -> io::Result<()> {
        w.write_all(&self.csv)?;
        w.flush()
    }

    /// `tickets.csv` (spec/formats.md §5.B6).
    pub fn csv(&self) -> &[u8] {
        &self.csv
    }

    /// `tickets.csv` (spec/formats.md §5.B6) as one buffer, copied.
    pub fn csv_bytes(&self) -> Vec<u8> {
        self.csv.clone()
    }

    /// `tickets.csv` (spec/formats.md §5.B6), the block given up for it (no copy).
    pub fn into_csv(self) -> Vec<u8> {
        self.csv
    }

    /// SHA-256 of `tickets.csv`: the `tickets_sha256` of the commitment (spec/formats.md §5.B9),
    /// compared with the production file's after the reveal (spec/formats.md §5.B8 step 9).
    pub fn csv_sha256(&self) -> Hash32 {
        self.csv_sha256
    }
}

/// Worker threads for generating or checking a block: the machine's parallelism, 1 to 8. The
/// result never depends on it (spec/formats.md §5.B5); only the time does.
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(2, std::num::NonZero::get)
        .clamp(1, 8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crypto::merkle::inclusion_path;
    use crate::rules::game::tests_support::small_rules;

    /// `CHUNK_TICKETS` as a block size (it is 2^14).
    fn chunk_tickets() -> u32 {
        u32::try_from(CHUNK_TICKETS).unwrap()
    }

    #[test]
    fn of_several_grid_failures_the_lowest_position_is_kept_whatever_the_order() {
        // Workers meet positions out of order: the failure reported is the first ticket's.
        let rules = small_rules(10);
        let tiers = [0u8; 10];
        let job = Job::new(&rules, 0, &tiers, GridKey::new(&Hash32([1; 32])), true);
        job.record_failure(7, "seven".into());
        job.record_failure(3, "three".into());
        job.record_failure(3, "three again".into());
        job.record_failure(5, "five".into());
        assert_eq!(job.finish_failure(), Some((3, "three".to_string())));
    }

    #[test]
    fn the_digits_of_a_run_of_positions_are_counted_as_written() {
        let naive = |a: usize, b: usize| (a..b).map(|p| p.to_string().len()).sum::<usize>();
        for (a, b) in [
            (0, 0),
            (0, 1),
            (0, 10),
            (3, 11),
            (9, 101),
            (95, 1005),
            (0, 123_457),
        ] {
            assert_eq!(digits_in(a, b), naive(a, b), "{a}..{b}");
        }
        let rules = small_rules(3 * chunk_tickets() + 17);
        let tiers: Vec<u8> = (0..rules.block_size())
            .map(|p| [0u8, 4, 10][p as usize % 3])
            .collect();
        let job = Job::new(&rules, 0, &tiers, GridKey::new(&Hash32([1; 32])), false);
        let lens = job.chunk_lens();
        for (c, &len) in lens.iter().enumerate() {
            let start = c * CHUNK_TICKETS;
            let end = (start + CHUNK_TICKETS).min(tiers.len());
            let want: usize = (start..end)
                .map(|p| row_len(u32::try_from(p).unwrap(), tiers[p], job.prize(tiers[p])) + 1)
                .sum();
            assert_eq!(len, want, "chunk {c}");
        }
    }

    #[test]
    fn chunked_root_equals_the_root_over_all_leaves() {
        // 3 chunks and a partial one: the chunk roots fold into the RFC 6962 root.
        let rules = small_rules(3 * chunk_tickets() + 1234);
        let id = BlockId::new(rules.game(), 100, "e", 1).unwrap();
        let b = generate_block(&rules, &id, &Hash32([1u8; 32]), 3).unwrap();
        assert_eq!(b.outcomes_root(), &merkle_root(b.leaves()));
        assert_eq!(b.leaves().len(), rules.block_size() as usize);
    }

    #[test]
    fn rows_of_the_file_and_proofs_match_the_leaves() {
        // The rows as `urne proof` reads them from the production file, on both sides of a
        // chunk boundary, and their proofs from the leaves.
        let rules = small_rules(chunk_tickets() + 10);
        let id = BlockId::new(rules.game(), 50, "e", 2).unwrap();
        let b = generate_block(&rules, &id, &Hash32([2u8; 32]), 2).unwrap();
        let csv = b.csv_bytes();
        let rows: Vec<&[u8]> = csv[CSV_HEADER.len()..]
            .split_inclusive(|&c| c == b'\n')
            .map(|r| r.strip_suffix(b"\n").unwrap())
            .collect();
        assert_eq!(rows.len(), rules.block_size() as usize);
        let n = rules.block_size();
        for p in [0u32, 1, 77, chunk_tickets() - 1, chunk_tickets(), n - 1] {
            let row = rows[p as usize];
            let proof = inclusion_path(p as usize, b.leaves());
            assert!(crate::block::verify_ticket_inclusion(
                row,
                p,
                n,
                &proof,
                b.outcomes_root()
            ));
            assert!(!crate::block::verify_ticket_inclusion(
                row,
                p ^ 1,
                n,
                &proof,
                b.outcomes_root()
            ));
        }
    }
}
