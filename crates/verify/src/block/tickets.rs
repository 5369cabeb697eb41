//! The tickets file `tickets.csv` and ticket leaves (spec/formats.md §5.B6, §5.B7): one row per
//! ticket in sale order, each row the canonical bytes of one ticket and the data of its Merkle
//! leaf; the outcomes root commits to the whole ordered block. The checker below
//! ([`verify_tickets_bytes`]) is the `verify` path before the reveal: it recomputes the root
//! from the file and checks every row against the rules.

use super::grid::TicketGrid;
use crate::crypto::Hash32;
use crate::crypto::merkle::leaf_hash;
use crate::rules::game::{GRID_CELLS, GameRules, OFFERED_SYMBOLS, is_tier};

/// First line of `tickets.csv` (with its line feed).
pub const CSV_HEADER: &str = "position,tier,prize_cents,offered,grid1,grid2,grid3\n";

fn push_decimal(out: &mut Vec<u8>, mut x: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (x % 10) as u8;
        x /= 10;
        if x == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

/// Appends the row of one ticket, *without* its line feed (spec/formats.md §5.B6):
/// `position,tier,prize_cents,offered,grid1,grid2,grid3`, decimals without leading zeros,
/// symbols as letters. These bytes are the ticket's canonical encoding and its leaf data.
pub fn encode_row(out: &mut Vec<u8>, position: u32, tier: u8, prize_cents: u64, g: &TicketGrid) {
    push_decimal(out, u64::from(position));
    out.push(b',');
    push_decimal(out, u64::from(tier));
    out.push(b',');
    push_decimal(out, prize_cents);
    out.push(b',');
    out.extend_from_slice(&g.offered_text());
    for c in 0..OFFERED_SYMBOLS {
        out.push(b',');
        out.extend_from_slice(&g.grid_text(c));
    }
}

/// Number of decimal digits of `x` (canonical: no leading zero, "0" for zero).
fn decimal_len(x: u64) -> usize {
    x.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// Length of the row [`encode_row`] writes for a ticket at `position` of `tier` paying
/// `prize_cents`, without its line feed: a row's length does not depend on its grid, so a
/// block's `tickets.csv` is laid out before any grid is made.
pub(crate) fn row_len(position: u32, tier: u8, prize_cents: u64) -> usize {
    decimal_len(u64::from(position))
        + decimal_len(u64::from(tier))
        + decimal_len(prize_cents)
        + OFFERED_SYMBOLS
        + OFFERED_SYMBOLS * GRID_CELLS
        + 3
        + OFFERED_SYMBOLS
}

/// Writes `x` in canonical decimal at the start of `dst`; returns the digits' count.
fn put_decimal(dst: &mut [u8], mut x: u64) -> usize {
    let n = decimal_len(x);
    for d in dst[..n].iter_mut().rev() {
        // x % 10 < 10: the digit fits a u8.
        #[allow(clippy::cast_possible_truncation)]
        let digit = (x % 10) as u8;
        *d = b'0' + digit;
        x /= 10;
    }
    n
}

/// [`encode_row`] into the first [`row_len`] bytes of `dst` (the row's place in a block's
/// `tickets.csv`), with the grid's letters read from its symbols as they are written. Returns
/// the row's length.
///
/// # Panics
/// If `dst` is shorter than the row (a caller bug: the caller laid the file out with
/// [`row_len`]).
pub(crate) fn write_row(
    dst: &mut [u8],
    position: u32,
    tier: u8,
    prize_cents: u64,
    g: &TicketGrid,
) -> usize {
    let mut n = put_decimal(dst, u64::from(position));
    dst[n] = b',';
    n += 1;
    n += put_decimal(&mut dst[n..], u64::from(tier));
    dst[n] = b',';
    n += 1;
    n += put_decimal(&mut dst[n..], prize_cents);
    dst[n] = b',';
    n += 1;
    dst[n..n + OFFERED_SYMBOLS].copy_from_slice(&g.offered_text());
    n += OFFERED_SYMBOLS;
    for c in 0..OFFERED_SYMBOLS {
        dst[n] = b',';
        n += 1;
        dst[n..n + GRID_CELLS].copy_from_slice(&g.grid_text(c));
        n += GRID_CELLS;
    }
    n
}

/// The Merkle leaf hash of a ticket (spec/formats.md §5.B7): RFC 6962 `SHA-256(0x00 || row)`, row without `\n`.
pub fn ticket_leaf(row: &[u8]) -> Hash32 {
    leaf_hash(row)
}

/// Checks an inclusion proof of one ticket row against an outcomes root (spec/formats.md §5.B7).
pub fn verify_ticket_inclusion(
    row: &[u8],
    position: u32,
    block_size: u32,
    proof: &[Hash32],
    outcomes_root: &Hash32,
) -> bool {
    crate::crypto::merkle::verify_inclusion(
        &ticket_leaf(row),
        u64::from(position),
        u64::from(block_size),
        proof,
        outcomes_root,
    )
}

/// What a valid tickets file holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvSummary {
    /// Tickets read (the block size, G-1).
    pub tickets: u32,
    /// Tickets per tier: index 0 losing, 4..=10 winning.
    pub tier_counts: [u32; 11],
    /// The outcomes root recomputed from the rows (spec/formats.md §5.B7).
    pub outcomes_root: Hash32,
}

/// Why a tickets file was refused. `line` is 1-based (line 1 is the header).
#[derive(Debug, thiserror::Error)]
pub enum CsvError {
    /// A line is not a valid row where it stands (spec/formats.md §5.B8 steps 1–3).
    #[error("tickets file line {line}: {problem}")]
    Line {
        /// The line (1-based; line 1 is the header).
        line: u64,
        /// What is wrong with it.
        problem: String,
    },
    /// A tier has another count than G-3 gives (spec/formats.md §5.B8 step 5).
    #[error("tickets file holds {found} tickets of tier {tier}; the rules say {expected} (G-3)")]
    TierCount {
        /// The tier (0 losing, 4..=10 matches).
        tier: u8,
        /// Tickets of that tier in the file.
        found: u32,
        /// Tickets of that tier in a block.
        expected: u32,
    },
    /// The file holds another number of tickets than a block (spec/formats.md §5.B8 step 5).
    #[error("tickets file holds {found} tickets; a block holds {expected} (G-1)")]
    Size {
        /// Tickets found (so far, when there are too many).
        found: u64,
        /// The block size.
        expected: u32,
    },
    /// The price the file is checked at is not a price point.
    #[error("price {0} cents is not a price point of the game (G-2)")]
    Price(u64),
}

fn parse_decimal(t: &[u8]) -> Option<u64> {
    if t.is_empty() || t.len() > 19 || (t.len() > 1 && t[0] == b'0') {
        return None;
    }
    t.iter().try_fold(0u64, |acc, &b| {
        b.is_ascii_digit().then(|| acc * 10 + u64::from(b - b'0'))
    })
}

fn parse_letters<const N: usize>(t: &[u8], m: usize) -> Option<[u8; N]> {
    if t.len() != N {
        return None;
    }
    let mut out = [0u8; N];
    // m <= MAX_SYMBOLS (26, checked when the rules were loaded): the conversion is exact.
    #[allow(clippy::cast_possible_truncation)]
    let last = b'A' + m as u8;
    for (o, &b) in out.iter_mut().zip(t) {
        if !(b'A'..last).contains(&b) {
            return None;
        }
        *o = b - b'A';
    }
    Some(out)
}

/// A ticket parsed from one row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicketRow {
    /// The ticket's position in sale order.
    pub position: u32,
    /// Its tier (0 losing, 4..=10 matches).
    pub tier: u8,
    /// Its prize in cents.
    pub prize_cents: u64,
    /// Its offered symbols and grids.
    pub grid: TicketGrid,
}

/// Parses one row (without `\n`) for a game of `m` symbols; syntax only (spec/formats.md §5.B6).
pub fn parse_row(row: &[u8], m: usize) -> Result<TicketRow, String> {
    let f: Vec<&[u8]> = row.split(|&b| b == b',').collect();
    if f.len() != 7 {
        return Err(format!("{} fields, expected 7", f.len()));
    }
    let position = parse_decimal(f[0])
        .and_then(|x| u32::try_from(x).ok())
        .ok_or("position is not a canonical decimal u32")?;
    let tier = parse_decimal(f[1])
        .and_then(|x| u8::try_from(x).ok())
        .filter(|&t| is_tier(t))
        .ok_or("tier is not 0 or 4..10 (G-7, G-8)")?;
    let prize_cents = parse_decimal(f[2]).ok_or("prize_cents is not a canonical decimal")?;
    let offered = parse_letters::<OFFERED_SYMBOLS>(f[3], m)
        .ok_or(format!("offered must be {OFFERED_SYMBOLS} symbol letters"))?;
    let mut cells = [[0u8; GRID_CELLS]; OFFERED_SYMBOLS];
    for (c, cell) in cells.iter_mut().enumerate() {
        *cell = parse_letters::<GRID_CELLS>(f[4 + c], m)
            .ok_or(format!("grid{} must be {GRID_CELLS} symbol letters", c + 1))?;
    }
    Ok(TicketRow {
        position,
        tier,
        prize_cents,
        grid: TicketGrid { offered, cells },
    })
}

/// spec/formats.md §5.B8 steps 2–3 for one row (without its LF) found on line `lineno` where position `pos` is
/// expected: syntax, order, block size, canonical form, prize (G-3) and grids (G-6, G-7, G-8).
/// Returns the row's tier.
fn check_row(
    row: &[u8],
    lineno: u64,
    pos: u64,
    rules: &GameRules,
    price_idx: usize,
    again: &mut Vec<u8>,
) -> Result<u8, CsvError> {
    let m = rules.symbols().len();
    let bad = |line: u64, problem: String| CsvError::Line { line, problem };
    let t = parse_row(row, m).map_err(|p| bad(lineno, p))?;
    if u64::from(t.position) != pos {
        return Err(bad(
            lineno,
            format!(
                "position {} where {pos} was expected (rows are in sale order)",
                t.position
            ),
        ));
    }
    if pos >= u64::from(rules.block_size()) {
        return Err(CsvError::Size {
            found: pos + 1,
            expected: rules.block_size(),
        });
    }
    again.clear();
    encode_row(again, t.position, t.tier, t.prize_cents, &t.grid);
    if again.as_slice() != row {
        return Err(bad(lineno, "row is not in canonical form (§5.B6)".into()));
    }
    let want = rules.prize_cents(t.tier, price_idx).unwrap_or(u64::MAX);
    if t.prize_cents != want {
        return Err(bad(
            lineno,
            format!(
                "prize {} cents for tier {}; the rules pay {want} (G-3)",
                t.prize_cents, t.tier
            ),
        ));
    }
    t.grid.check(t.tier, m).map_err(|p| bad(lineno, p))?;
    Ok(t.tier)
}

/// spec/formats.md §5.B8 step 5: exactly `block_size` rows (G-1) and, per tier, exactly the G-3 count.
fn check_totals(rows: u64, tier_counts: &[u32; 11], rules: &GameRules) -> Result<(), CsvError> {
    if rows != u64::from(rules.block_size()) {
        return Err(CsvError::Size {
            found: rows,
            expected: rules.block_size(),
        });
    }
    for (tier, &found) in (0u8..).zip(tier_counts) {
        let expected = rules.units_of_tier(tier);
        if found != expected {
            return Err(CsvError::TierCount {
                tier,
                found,
                expected,
            });
        }
    }
    Ok(())
}

/// The leaves and tier counts of one checked slice of a tickets file.
type SliceCheck = Result<(Vec<Hash32>, [u32; 11]), CsvError>;

/// Checks the rows of one slice of a tickets file (lines numbered from `first_line`, positions
/// from `first_pos`): each row as in [`verify_tickets_bytes`], spec/formats.md §5.B8 steps 2–4. Returns the leaves and the
/// tier counts of the slice.
fn check_rows(
    body: &[u8],
    first_line: u64,
    first_pos: u64,
    rules: &GameRules,
    price_idx: usize,
) -> SliceCheck {
    let bad = |line: u64, problem: String| CsvError::Line { line, problem };
    let mut leaves = Vec::with_capacity(body.len() / 70 + 1);
    let mut tier_counts = [0u32; 11];
    let mut again = Vec::with_capacity(128);
    for (i, row) in body.split_inclusive(|&b| b == b'\n').enumerate() {
        let lineno = first_line + i as u64;
        let pos = first_pos + i as u64;
        let Some(row) = row.strip_suffix(b"\n") else {
            return Err(bad(lineno, "the last line must end with \\n".into()));
        };
        let tier = check_row(row, lineno, pos, rules, price_idx, &mut again)?;
        tier_counts[usize::from(tier)] += 1;
        leaves.push(ticket_leaf(row));
    }
    Ok((leaves, tier_counts))
}

/// Where `body` is cut into `threads` line-aligned slices (at least one): 0, then for each k the
/// first line start at or after k/n of the body, then the body's end. Only the work's sharing
/// depends on it, never the result.
fn line_cuts(body: &[u8], threads: usize) -> Vec<usize> {
    let n = threads.max(1);
    let mut cuts = vec![0usize];
    for k in 1..n {
        let mut c = (body.len() * k / n).max(*cuts.last().expect("non-empty"));
        while c < body.len() && c > 0 && body[c - 1] != b'\n' {
            c += 1;
        }
        cuts.push(c);
    }
    cuts.push(body.len());
    cuts
}

/// Checks a whole tickets file held in memory (spec/formats.md §5.B8 steps 1–5) on `threads` threads: the exact
/// header; rows numbered 0, 1, … in order; each row canonical (re-encoding it gives the same
/// bytes), its prize the G-3 amount of its tier at `price_cents`, its grid valid (spec/formats.md §5.B5.5:
/// G-6, G-7, G-8); every line ending in `\n`; the block size (G-1) and the count of every tier
/// (G-3). Returns the recomputed outcomes root, which the caller compares with the commitment
/// (step 6). The result, and the error reported (the one on the earliest line), do not depend
/// on the thread count.
///
/// # Panics
/// Only if a checking thread panicked (its panic is re-raised); the list of slice boundaries it
/// reads the last of is never empty (it starts at 0).
pub fn verify_tickets_bytes(
    bytes: &[u8],
    rules: &GameRules,
    price_cents: u64,
    threads: usize,
) -> Result<CsvSummary, CsvError> {
    let price_idx = rules
        .price_index(price_cents)
        .ok_or(CsvError::Price(price_cents))?;
    let header = CSV_HEADER.as_bytes();
    let first_nl = bytes
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| i + 1);
    if &bytes[..first_nl] != header {
        return Err(CsvError::Line {
            line: 1,
            problem: format!("header must be exactly {CSV_HEADER:?}"),
        });
    }
    let body = &bytes[first_nl..];
    let cuts = line_cuts(body, threads);
    let slices: Vec<&[u8]> = cuts.windows(2).map(|w| &body[w[0]..w[1]]).collect();
    let mut starts = Vec::with_capacity(slices.len());
    let mut lines = 0u64;
    for s in &slices {
        starts.push(lines);
        lines += memchr::memchr_iter(b'\n', s).count() as u64;
    }
    let results: Vec<SliceCheck> = std::thread::scope(|sc| {
        let handles: Vec<_> = slices
            .iter()
            .zip(&starts)
            .map(|(s, &st)| sc.spawn(move || check_rows(s, st + 2, st, rules, price_idx)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("ticket checking thread"))
            .collect()
    });
    let mut leaves = Vec::with_capacity(rules.block_size() as usize);
    let mut tier_counts = [0u32; 11];
    for r in results {
        // Slices are in file order, so the first error met is the earliest line's.
        let (l, c) = r?;
        leaves.extend(l);
        for (t, k) in c.iter().enumerate() {
            tier_counts[t] += k;
        }
    }
    check_totals(leaves.len() as u64, &tier_counts, rules)?;
    Ok(CsvSummary {
        // check_totals proved there are exactly block_size rows.
        tickets: rules.block_size(),
        tier_counts,
        outcomes_root: crate::crypto::merkle::root(&leaves),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_written_in_place_is_the_encoded_row_of_the_length_laid_out() {
        let key = crate::block::grid::GridKey::new(&Hash32([9u8; 32]));
        let rules = crate::rules::game::tests_support::small_rules(100);
        for (position, tier, prize) in [
            (0u32, 0u8, 0u64),
            (9, 4, 100),
            (10, 10, 1_000_000),
            (99_999, 7, 12_345),
            (u32::MAX, 5, u64::MAX),
        ] {
            let g = crate::block::grid::ticket_grid_with(&key, position, tier, &rules);
            let mut want = vec![];
            encode_row(&mut want, position, tier, prize, &g);
            let mut got = vec![0u8; 200];
            let n = write_row(&mut got, position, tier, prize, &g);
            assert_eq!(&got[..n], &want[..]);
            assert_eq!(row_len(position, tier, prize), want.len());
        }
    }
    use crate::block::{BlockId, generate_block};
    use crate::rules::game::tests_support::small_rules;

    #[test]
    fn a_block_of_the_right_size_with_other_tier_counts_is_refused() {
        let rules = small_rules(3000);
        let mut counts = [0u32; 11];
        for (tier, c) in (0u8..).zip(counts.iter_mut()) {
            *c = rules.units_of_tier(tier);
        }
        assert!(check_totals(3000, &counts, &rules).is_ok());
        assert!(matches!(
            check_totals(2999, &counts, &rules),
            Err(CsvError::Size {
                found: 2999,
                expected: 3000
            })
        ));
        // One losing ticket more, one of the first winning tier less: still 3000 rows (G-3).
        let winning = (1..11).find(|&t| counts[t] > 0).unwrap();
        counts[0] += 1;
        counts[winning] -= 1;
        assert!(matches!(
            check_totals(3000, &counts, &rules),
            Err(CsvError::TierCount { .. })
        ));
    }

    #[test]
    fn the_body_is_cut_at_the_first_line_start_from_each_share() {
        // Ten lines of ten bytes: shares of a third start at 33 and 66, cut at 40 and 70.
        let body = "123456789\n".repeat(10);
        assert_eq!(line_cuts(body.as_bytes(), 3), [0, 40, 70, 100]);
        assert_eq!(line_cuts(body.as_bytes(), 1), [0, 100]);
        assert_eq!(line_cuts(body.as_bytes(), 0), [0, 100]);
        // Exactly on a line start, it stays; shares inside one long line all cut at its end.
        assert_eq!(line_cuts(body.as_bytes(), 2), [0, 50, 100]);
        let long = format!("{}\n12\n", "x".repeat(60));
        assert_eq!(line_cuts(long.as_bytes(), 4), [0, 61, 61, 61, 64]);
        // A body shorter than the thread count: the first cuts at 0.
        assert_eq!(line_cuts(b"0\n", 4), [0, 0, 2, 2, 2]);
        // Without its last LF, a cut never passes the body's end.
        assert_eq!(line_cuts(b"ab", 2), [0, 2, 2]);
    }

    #[test]
    fn a_body_shorter_than_the_thread_count_is_checked_as_on_one_thread() {
        let rules = small_rules(3000);
        let file = format!("{CSV_HEADER}0\n");
        let one = verify_tickets_bytes(file.as_bytes(), &rules, 100, 1).unwrap_err();
        for threads in [2, 4, 8] {
            let many = verify_tickets_bytes(file.as_bytes(), &rules, 100, threads).unwrap_err();
            assert_eq!(format!("{many:?}"), format!("{one:?}"), "{threads} threads");
        }
    }

    #[test]
    fn a_row_past_the_block_size_names_the_size_found() {
        let rules = small_rules(3000);
        let id = BlockId::new(rules.game(), 100, "e", 1).unwrap();
        let b = generate_block(&rules, &id, &Hash32([4u8; 32]), 1).unwrap();
        let csv = b.csv_bytes();
        let text = String::from_utf8(csv).unwrap();
        let first_row = text.lines().nth(1).unwrap();
        let row = first_row.replacen("0,", "3000,", 1);
        let mut again = vec![];
        let e = check_row(row.as_bytes(), 3002, 3000, &rules, 0, &mut again).unwrap_err();
        assert!(
            matches!(
                e,
                CsvError::Size {
                    found: 3001,
                    expected: 3000
                }
            ),
            "{e:?}"
        );
    }

    #[test]
    fn decimals_are_canonical() {
        assert_eq!(parse_decimal(b"1000000000000000000"), Some(10u64.pow(18)));
        assert_eq!(parse_decimal(b"0"), Some(0));
        assert_eq!(parse_decimal(b"800000"), Some(800_000));
        for bad in [
            &b""[..],
            b"01",
            b"+1",
            b"1 ",
            b"-0",
            b"99999999999999999999",
        ] {
            assert_eq!(parse_decimal(bad), None);
        }
        let mut v = Vec::new();
        push_decimal(&mut v, 0);
        push_decimal(&mut v, 1_000_000);
        assert_eq!(v, b"01000000");
    }

    #[test]
    fn the_check_gives_the_same_result_and_error_whatever_the_thread_count() {
        let rules = small_rules(3000);
        let id = BlockId::new(rules.game(), 100, "e", 1).unwrap();
        let b = generate_block(&rules, &id, &Hash32([4u8; 32]), 2).unwrap();
        let good = b.csv_bytes();
        let want = verify_tickets_bytes(&good, &rules, 100, 1).unwrap();
        assert_eq!(&want.outcomes_root, b.outcomes_root());
        assert_eq!(want.tickets, 3000);
        // Tampered copies: a swapped pair of rows, a missing last LF, a cut file.
        let text = String::from_utf8(good.clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let (a, c) = (
            lines[10].split_once(',').unwrap().1,
            lines[2000].split_once(',').unwrap().1,
        );
        let fixed: Vec<String> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| match i {
                10 => format!("9,{c}"),
                2000 => format!("1999,{a}"),
                _ => l.to_string(),
            })
            .collect();
        let swapped = (fixed.join("\n") + "\n").into_bytes();
        let swapped_one = verify_tickets_bytes(&swapped, &rules, 100, 1).unwrap();
        let cut = good[..good.len() / 2].to_vec();
        let no_lf = good[..good.len() - 1].to_vec();
        let error = |bytes: &[u8], threads| {
            verify_tickets_bytes(bytes, &rules, 100, threads)
                .map(|_| ())
                .map_err(|e| e.to_string())
        };
        for threads in [1, 2, 3, 8] {
            assert_eq!(
                verify_tickets_bytes(&good, &rules, 100, threads).unwrap(),
                want
            );
            // A swapped pair is well formed: only the root tells (checked against the commitment).
            let sw = verify_tickets_bytes(&swapped, &rules, 100, threads).unwrap();
            assert_eq!(sw, swapped_one);
            assert_ne!(sw.outcomes_root, want.outcomes_root);
            for bad in [&cut, &no_lf] {
                let e = error(bad, threads);
                assert!(e.is_err(), "refused ({threads} threads)");
                assert_eq!(e, error(bad, 1), "same first error ({threads} threads)");
            }
        }
    }
}
