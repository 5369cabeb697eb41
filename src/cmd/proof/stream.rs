//! `urne proof --all` in bounded memory (issue 27 item 4): the sealed set is never held whole.
//! Pass 1 reads the stored set in pieces and writes, into scratch files of the staging folder,
//! the leaves' hashes (level 0 of the tree) and runs of (account, entries) sorted by account;
//! the runs merged give the list digest and so the pseudonym key (spec/formats.md §4.2); each
//! level of the tree is built from the one below into its own scratch file (pairs from the
//! left, a lone last node carried up: RFC 9162's tree, split at the largest power of two below
//! the size, is exactly this one, same root and same paths; checked in the tests for every
//! index of every size up to 70); pass 2 reads the set again,
//! in leaf order, and each leaf's path is read from one cursor per level, whose pair index
//! (`i >> (k + 1)`) never decreases. Memory: one run (65,536 records) and a buffer per level.
//! Both passes go through `blob_pieces`, which checks the set's recorded hash at the end of each:
//! a set changed between them fails the second, and nothing is placed.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use urne_verify::crypto::Hash32;
use urne_verify::crypto::merkle::{leaf_hash, node_hash};
use urne_verify::draw::{Leaf, ListDigest};

/// Records a run holds before it is sorted and written.
const RUN: usize = 65_536;

/// One 65-byte record of the stored set (spec/appliance.md §6.2): the leaf, then its account.
#[derive(Clone, Copy)]
pub(super) struct Record {
    pub(super) leaf: Leaf,
    pub(super) account: [u8; 32],
}

/// Cuts pieces of the stored set into records, a record split across two pieces included.
#[derive(Default)]
pub(super) struct Records {
    carry: Vec<u8>,
}

impl Records {
    /// Every whole record of `piece` (after what the last piece left), in order.
    pub(super) fn each(&mut self, mut piece: &[u8], mut f: impl FnMut(Record)) {
        if !self.carry.is_empty() {
            let take = (65 - self.carry.len()).min(piece.len());
            self.carry.extend_from_slice(&piece[..take]);
            piece = &piece[take..];
            if self.carry.len() == 65 {
                f(record(&self.carry));
                self.carry.clear();
            }
        }
        let whole = piece.len() / 65 * 65;
        for c in piece[..whole].chunks_exact(65) {
            f(record(c));
        }
        self.carry.extend_from_slice(&piece[whole..]);
    }

    /// Whether the pieces ended on a record's end.
    pub(super) fn whole(&self) -> bool {
        self.carry.is_empty()
    }
}

fn record(c: &[u8]) -> Record {
    let mut pseudonym = [0u8; 32];
    let mut account = [0u8; 32];
    pseudonym.copy_from_slice(&c[..32]);
    account.copy_from_slice(&c[33..65]);
    Record {
        leaf: Leaf {
            pseudonym: Hash32(pseudonym),
            entries: c[32],
        },
        account,
    }
}

/// What pass 1 makes of the set.
pub(super) struct Pass1 {
    /// The leaves read.
    pub(super) n: usize,
    /// Whether the pseudonyms ascend strictly and every leaf has an entry (the stored set's
    /// form, as `SealedSet::well_formed`).
    pub(super) well_formed: bool,
    level0: BufWriter<File>,
    runs: BufWriter<File>,
    run_lens: Vec<usize>,
    run: Vec<[u8; 33]>,
    last: Option<Hash32>,
}

impl Pass1 {
    /// Pass 1 writing into `level0` and `runs` (two scratch files).
    pub(super) fn new(level0: File, runs: File) -> Pass1 {
        Pass1 {
            n: 0,
            well_formed: true,
            level0: BufWriter::with_capacity(1 << 16, level0),
            runs: BufWriter::with_capacity(1 << 16, runs),
            run_lens: vec![],
            run: Vec::with_capacity(RUN),
            last: None,
        }
    }

    /// The next record, in leaf order.
    pub(super) fn push(&mut self, r: &Record) -> std::io::Result<()> {
        if self.last.is_some_and(|l| l >= r.leaf.pseudonym) || r.leaf.entries == 0 {
            self.well_formed = false;
        }
        self.last = Some(r.leaf.pseudonym);
        self.n += 1;
        self.level0.write_all(&leaf_hash(&r.leaf.bytes()).0)?;
        let mut e = [0u8; 33];
        e[..32].copy_from_slice(&r.account);
        e[32] = r.leaf.entries;
        self.run.push(e);
        if self.run.len() == RUN {
            self.flush_run()?;
        }
        Ok(())
    }

    fn flush_run(&mut self) -> std::io::Result<()> {
        if self.run.is_empty() {
            return Ok(());
        }
        self.run.sort_unstable();
        for e in &self.run {
            self.runs.write_all(e)?;
        }
        self.run_lens.push(self.run.len());
        self.run.clear();
        Ok(())
    }

    /// The pseudonym key (spec/formats.md §4.2) from the runs merged, and the tree's levels.
    pub(super) fn finish(
        mut self,
        operation: &str,
        day: &str,
        mut scratch: impl FnMut() -> std::io::Result<File>,
    ) -> std::io::Result<(Hash32, Levels)> {
        self.flush_run()?;
        let runs = self
            .runs
            .into_inner()
            .map_err(std::io::IntoInnerError::into_error)?;
        let key = merged_key(&runs, &self.run_lens, operation, day, self.n)?;
        let bottom = self
            .level0
            .into_inner()
            .map_err(std::io::IntoInnerError::into_error)?;
        let levels = Levels::build(bottom, self.n, &mut scratch)?;
        Ok((key, levels))
    }
}

/// The pseudonym key from the sorted runs: merged in account order into the list digest.
fn merged_key(
    runs: &File,
    lens: &[usize],
    operation: &str,
    day: &str,
    n: usize,
) -> std::io::Result<Hash32> {
    let mut readers = vec![];
    let mut at = 0u64;
    for &len in lens {
        let f = At {
            f: runs.try_clone()?,
            pos: at,
        };
        readers.push((BufReader::with_capacity(1 << 14, f), len));
        at += len as u64 * 33;
    }
    let mut heads: Vec<Option<[u8; 33]>> = vec![None; readers.len()];
    let next = |r: &mut (BufReader<At>, usize)| -> std::io::Result<Option<[u8; 33]>> {
        if r.1 == 0 {
            return Ok(None);
        }
        r.1 -= 1;
        let mut e = [0u8; 33];
        r.0.read_exact(&mut e)?;
        Ok(Some(e))
    };
    for (h, r) in heads.iter_mut().zip(readers.iter_mut()) {
        *h = next(r)?;
    }
    let mut d = ListDigest::new(operation, day, n);
    // A few runs (one per 65,536 accounts): the smallest head is found by a scan.
    while let Some((i, e)) = heads
        .iter()
        .enumerate()
        .filter_map(|(i, h)| h.map(|e| (i, e)))
        .min_by(|(_, a), (_, b)| a[..32].cmp(&b[..32]))
    {
        let mut account = [0u8; 32];
        account.copy_from_slice(&e[..32]);
        d.push(&account, e[32]);
        heads[i] = next(&mut readers[i])?;
    }
    Ok(urne_verify::draw::pseudonym_key(&d.finish()))
}

/// The tree's levels, each in its own scratch file: level 0 the leaves' hashes, level `k + 1`
/// node `j` the hash of level `k` nodes `2j` and `2j + 1`, or level `k` node `2j` when it is the
/// last and lone.
pub(super) struct Levels {
    files: Vec<File>,
    widths: Vec<usize>,
    root: Hash32,
}

impl Levels {
    fn build(
        bottom: File,
        leaves: usize,
        scratch: &mut impl FnMut() -> std::io::Result<File>,
    ) -> std::io::Result<Levels> {
        let mut files = vec![bottom];
        let mut widths = vec![leaves];
        while widths.last().is_some_and(|&w| w > 1) {
            let (below, width) = (files.last().expect("a level"), widths[widths.len() - 1]);
            let mut reader = BufReader::with_capacity(
                1 << 16,
                At {
                    f: below.try_clone()?,
                    pos: 0,
                },
            );
            let mut out = BufWriter::with_capacity(1 << 16, scratch()?);
            let mut at = 0;
            while at < width {
                let left = read_hash(&mut reader)?;
                let node = if at + 1 < width {
                    node_hash(&left, &read_hash(&mut reader)?)
                } else {
                    left
                };
                out.write_all(&node.0)?;
                at += 2;
            }
            files.push(
                out.into_inner()
                    .map_err(std::io::IntoInnerError::into_error)?,
            );
            widths.push(width.div_ceil(2));
        }
        let root = match leaves {
            0 => urne_verify::crypto::merkle::root(&[]),
            _ => read_hash(&mut At {
                f: files.last().expect("a level").try_clone()?,
                pos: 0,
            })?,
        };
        Ok(Levels {
            files,
            widths,
            root,
        })
    }

    /// The tree's root (RFC 9162 §2.1.1).
    pub(super) fn root(&self) -> Hash32 {
        self.root
    }

    /// Cursors over every level but the root's, for the paths of leaves read in order.
    pub(super) fn paths(&self) -> std::io::Result<Paths> {
        let mut cursors = vec![];
        for (f, &w) in self.files.iter().zip(&self.widths) {
            if w <= 1 {
                break;
            }
            cursors.push(Cursor {
                r: BufReader::with_capacity(
                    1 << 14,
                    At {
                        f: f.try_clone()?,
                        pos: 0,
                    },
                ),
                width: w,
                pair: None,
                nodes: [Hash32([0; 32]); 2],
            });
        }
        Ok(Paths { cursors })
    }
}

/// A file read from its own position (`pread`): clones of one file share their offset, these do
/// not.
struct At {
    f: File,
    pos: u64,
}

impl Read for At {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        use std::os::unix::fs::FileExt;
        let n = self.f.read_at(buf, self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}

fn read_hash(r: &mut impl Read) -> std::io::Result<Hash32> {
    let mut h = [0u8; 32];
    r.read_exact(&mut h)?;
    Ok(Hash32(h))
}

/// One level's nodes read pair by pair, forward only.
struct Cursor {
    r: BufReader<At>,
    width: usize,
    pair: Option<usize>,
    nodes: [Hash32; 2],
}

impl Cursor {
    /// Node `j` of the level, the pairs before `j`'s never asked for again.
    fn node(&mut self, j: usize) -> std::io::Result<Hash32> {
        let p = j / 2;
        while self.pair.is_none_or(|q| q < p) {
            let q = self.pair.map_or(0, |q| q + 1);
            self.nodes[0] = read_hash(&mut self.r)?;
            if 2 * q + 1 < self.width {
                self.nodes[1] = read_hash(&mut self.r)?;
            }
            self.pair = Some(q);
        }
        Ok(self.nodes[j % 2])
    }
}

/// The paths of the leaves, asked for in increasing order.
pub(super) struct Paths {
    cursors: Vec<Cursor>,
}

impl Paths {
    /// The inclusion path of leaf `index` (RFC 9162 §2.1.3.1), bottom-up: at each level, the
    /// sibling when there is one (a lone last node has none).
    pub(super) fn path(&mut self, index: usize) -> std::io::Result<Vec<Hash32>> {
        let mut out = Vec::with_capacity(self.cursors.len());
        let mut i = index;
        for c in &mut self.cursors {
            let sibling = i ^ 1;
            if sibling < c.width {
                out.push(c.node(sibling)?);
            } else {
                // Keep the cursor moving with the leaves: the pair of `i` itself.
                c.node(i)?;
            }
            i >>= 1;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use urne_verify::crypto::merkle;

    fn tmp() -> std::io::Result<File> {
        tempfile::tempfile()
    }

    #[test]
    fn the_streamed_key_root_and_paths_are_the_sets() {
        for n in (1u32..=70).chain([100, 131_073]) {
            let list: Vec<urne_verify::draw::AccountEntries> = (0..n)
                .map(|i| {
                    let mut account = [0u8; 32];
                    account[..4].copy_from_slice(&i.wrapping_mul(2_654_435_761).to_be_bytes());
                    account[31] = 7;
                    urne_verify::draw::AccountEntries {
                        account,
                        entries: u8::try_from(1 + i % 3).unwrap(),
                    }
                })
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            let set = urne_verify::draw::SealedSet::from_list("op", "2018-12-01", &list);
            let mut p1 = Pass1::new(tmp().unwrap(), tmp().unwrap());
            let mut rs = Records::default();
            let bytes = set.encode();
            for piece in bytes.chunks(1000) {
                rs.each(piece, |r| p1.push(&r).unwrap());
            }
            assert!(rs.whole() && p1.well_formed);
            let (key, levels) = p1.finish("op", "2018-12-01", tmp).unwrap();
            assert_eq!(key, set.pseudonym_key("op", "2018-12-01"), "n = {n}");
            let leaves = urne_verify::draw::leaf_hashes(&set.leaves);
            assert_eq!(levels.root(), merkle::root(&leaves), "n = {n}");
            let mut paths = levels.paths().unwrap();
            let step = (set.leaves.len() / 97).max(1);
            for i in 0..set.leaves.len() {
                let p = paths.path(i).unwrap();
                if n <= 70 || i % step == 0 || i + 1 == set.leaves.len() {
                    assert_eq!(p, merkle::inclusion_path(i, &leaves), "n = {n}, leaf {i}");
                }
            }
        }
    }
}
