//! Generating a whole block (SPEC.md §5.B4–§5.B7) on several threads. The work is cut
//! into fixed chunks of [`CHUNK_TICKETS`] positions; each chunk's rows, leaves and subtree root
//! depend only on the seed and the chunk, and are assembled in chunk order, so the output is the
//! same bytes whatever the thread count (design principle 3).

use super::grid::{GridKey, ticket_grid_with};
use super::id::{BlockId, BlockIdError, Seed, block_seed, grid_key, seed_commitment};
use super::shuffle::shuffled_tiers;
use super::tickets::{CSV_HEADER, encode_row, ticket_leaf};
use crate::crypto::Hash32;
use crate::crypto::merkle::{inclusion_path, root as merkle_root};
use crate::rules::game::GameRules;
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
    /// `tickets.csv` = header + these chunks in order.
    csv_chunks: Vec<Vec<u8>>,
    /// Start of every row within its chunk.
    row_starts: Vec<u32>,
    leaves: Vec<Hash32>,
    outcomes_root: Hash32,
}

struct Chunk {
    csv: Vec<u8>,
    row_starts: Vec<u32>,
    leaves: Vec<Hash32>,
    root: Hash32,
}

/// Generates the block `id` from its `seed` (§5.B4–§5.B7) with `threads` worker threads (at least
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
/// G-8 (§5.B5.5) as it is made: verification after a reveal uses this instead of re-parsing a
/// production file it has shown to be byte-identical. Returns the first failing position and why.
pub fn generate_block_checked(
    rules: &GameRules,
    id: &BlockId,
    seed: &Seed,
    threads: usize,
    check: bool,
) -> Result<(Block, Option<(u32, String)>), BlockIdError> {
    id.check_rules(rules)?;
    let m = rules.symbols().len();
    let first_failure: Mutex<Option<(u32, String)>> = Mutex::new(None);
    // check_rules proved the price is a price point.
    let price_idx = rules.price_index(id.price_cents()).expect("checked price");
    let tiers = shuffled_tiers(rules, seed);
    let key = GridKey::new(&grid_key(seed));
    let n = tiers.len();
    let n_chunks = n.div_ceil(CHUNK_TICKETS);
    let slots: Vec<Mutex<Option<Chunk>>> = (0..n_chunks).map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let prizes: Vec<u64> = (0..=10)
        .map(|t| rules.prize_cents(t, price_idx).unwrap_or(0))
        .collect();

    let work = || {
        let key = key.clone();
        loop {
            let c = next.fetch_add(1, Ordering::Relaxed);
            if c >= n_chunks {
                break;
            }
            let start = c * CHUNK_TICKETS;
            let end = (start + CHUNK_TICKETS).min(n);
            let mut csv = Vec::with_capacity((end - start) * 80);
            let mut leaves = Vec::with_capacity(end - start);
            let mut row_starts = Vec::with_capacity(end - start);
            for (p, &tier) in (start..end).zip(&tiers[start..end]) {
                // p < n = block size, a u32.
                let pos = p as u32;
                let g = ticket_grid_with(&key, pos, tier, rules);
                if check && let Err(why) = g.check(tier, m) {
                    let mut f = first_failure.lock().expect("worker panicked");
                    if f.as_ref().is_none_or(|(q, _)| pos < *q) {
                        *f = Some((pos, why));
                    }
                }
                let row_start = csv.len();
                // A chunk's CSV is far below 4 GiB (16,384 rows of under 100 bytes).
                row_starts.push(row_start as u32);
                encode_row(&mut csv, pos, tier, prizes[usize::from(tier)], &g);
                leaves.push(ticket_leaf(&csv[row_start..]));
                csv.push(b'\n');
            }
            let root = merkle_root(&leaves);
            // A poisoned slot means another worker panicked; the scope re-raises that panic.
            *slots[c].lock().expect("worker panicked") = Some(Chunk {
                csv,
                row_starts,
                leaves,
                root,
            });
        }
    };
    std::thread::scope(|s| {
        for _ in 1..threads.max(1) {
            s.spawn(work);
        }
        work();
    });

    let mut csv_chunks = Vec::with_capacity(n_chunks);
    let mut leaves = Vec::with_capacity(n);
    let mut roots = Vec::with_capacity(n_chunks);
    let mut row_starts = Vec::with_capacity(n);
    for slot in slots {
        // Every chunk index below n_chunks was taken by exactly one worker, which filled it.
        let ch = slot
            .into_inner()
            .expect("worker panicked")
            .expect("chunk done");
        leaves.extend_from_slice(&ch.leaves);
        roots.push(ch.root);
        row_starts.extend_from_slice(&ch.row_starts);
        csv_chunks.push(ch.csv);
    }
    let block = Block {
        id: id.clone(),
        tiers,
        csv_chunks,
        row_starts,
        leaves,
        outcomes_root: merkle_root(&roots),
    };
    Ok((block, first_failure.into_inner().expect("worker panicked")))
}

/// Why a revealed block does not match its commitment (§5.B8 steps 7–8). The messages are the
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
pub type Regenerated = (Block, Option<(u32, String)>);

/// Verification after the reveal (§5.B8 steps 7–8), as `urne verify` runs it on a block folder:
/// derive the seed from the revealed entropy, check it against the seed commitment, regenerate
/// the block with every grid checked ([`generate_block_checked`]) and check the outcomes root.
/// The returned block's `csv_sha256` can then be compared with the production file's (step 9).
pub fn verify_reveal(
    rules: &GameRules,
    id: &BlockId,
    entropy: &[u8],
    committed_seed_commitment: &Hash32,
    committed_root: &Hash32,
    threads: usize,
) -> Result<Regenerated, RevealError> {
    let seed = block_seed(id, rules.sha256(), entropy);
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
    pub fn id(&self) -> &BlockId {
        &self.id
    }

    /// Tiers in sale order (0 losing, 4..=10 matches).
    pub fn tiers(&self) -> &[u8] {
        &self.tiers
    }

    /// The outcomes commitment (§5.B7): RFC 6962 root over the ticket leaves in sale order.
    pub fn outcomes_root(&self) -> &Hash32 {
        &self.outcomes_root
    }

    /// Leaf hashes in sale order.
    pub fn leaves(&self) -> &[Hash32] {
        &self.leaves
    }

    /// Writes `tickets.csv` (§5.B6) to `w`.
    pub fn write_csv<W: Write>(&self, mut w: W) -> io::Result<()> {
        w.write_all(CSV_HEADER.as_bytes())?;
        for c in &self.csv_chunks {
            w.write_all(c)?;
        }
        w.flush()
    }

    /// `tickets.csv` as one buffer.
    pub fn csv_bytes(&self) -> Vec<u8> {
        let len = CSV_HEADER.len() + self.csv_chunks.iter().map(Vec::len).sum::<usize>();
        let mut v = Vec::with_capacity(len);
        // Writing to a Vec cannot fail.
        self.write_csv(&mut v).expect("write to Vec");
        v
    }

    /// SHA-256 of `tickets.csv`, without building it in one buffer.
    pub fn csv_sha256(&self) -> Hash32 {
        let mut h = Sha256::new();
        h.update(CSV_HEADER.as_bytes());
        for c in &self.csv_chunks {
            h.update(c);
        }
        Hash32(h.finalize().into())
    }

    /// The row of the ticket at `position` (without `\n`).
    pub fn row(&self, position: u32) -> Option<&[u8]> {
        let p = position as usize;
        let chunk = self.csv_chunks.get(p / CHUNK_TICKETS)?;
        let start = *self.row_starts.get(p)? as usize;
        let end = self
            .row_starts
            .get(p + 1)
            .filter(|_| !(p + 1).is_multiple_of(CHUNK_TICKETS))
            .map_or(chunk.len(), |&e| e as usize);
        // Every row ends with its line feed.
        Some(&chunk[start..end - 1])
    }

    /// The RFC 6962 inclusion proof of the ticket at `position` in the outcomes root (§5.B7).
    pub fn inclusion_proof(&self, position: u32) -> Vec<Hash32> {
        inclusion_path(position as usize, &self.leaves)
    }
}

/// Worker threads for generating or checking a block: the machine's parallelism, 1 to 8. The
/// result never depends on it (SPEC.md §5.B5); only the time does.
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(std::num::NonZero::get)
        .unwrap_or(2)
        .clamp(1, 8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::tests_support::small_rules;

    #[test]
    fn chunked_root_equals_the_root_over_all_leaves() {
        // 3 chunks and a partial one: the chunk roots fold into the RFC 6962 root.
        let rules = small_rules(3 * CHUNK_TICKETS as u32 + 1234);
        let id = BlockId::new(rules.game(), 100, "e", 1).unwrap();
        let b = generate_block(&rules, &id, &Hash32([1u8; 32]), 3).unwrap();
        assert_eq!(b.outcomes_root(), &merkle_root(b.leaves()));
        assert_eq!(b.leaves().len(), rules.block_size() as usize);
    }

    #[test]
    fn rows_and_proofs_match_the_leaves() {
        let rules = small_rules(CHUNK_TICKETS as u32 + 10);
        let id = BlockId::new(rules.game(), 50, "e", 2).unwrap();
        let b = generate_block(&rules, &id, &Hash32([2u8; 32]), 2).unwrap();
        for p in [0u32, 1, 77, CHUNK_TICKETS as u32, rules.block_size() - 1] {
            let row = b.row(p).unwrap();
            let proof = b.inclusion_proof(p);
            assert!(crate::block::verify_ticket_inclusion(
                row,
                p,
                rules.block_size(),
                &proof,
                b.outcomes_root()
            ));
            assert!(!crate::block::verify_ticket_inclusion(
                row,
                p ^ 1,
                rules.block_size(),
                &proof,
                b.outcomes_root()
            ));
        }
        assert!(b.row(rules.block_size()).is_none());
    }
}
