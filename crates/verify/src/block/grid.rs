//! Ticket grids (spec/formats.md §5.B5; G-4, G-6, G-7, G-8): for one ticket, the three offered
//! symbols and, for each choice, the 18 cells the player sees.
//!
//! Construction in one paragraph. Each ticket has its own byte stream, HMAC-SHA256 keyed by the
//! block's grid key over (position, counter), so any ticket is computed alone and the result never
//! depends on thread count. From it: (1) the three offered symbols, drawn before anything that
//! depends on the tier, so they carry no information about it; (2) a *role grid* of 18 cells,
//! where role 0 is "the chosen symbol", roles 1 and 2 "the other two offered symbols", roles
//! 3.. "the non-offered symbols". A winning ticket of tier k gets role 0 on k cells chosen
//! uniformly (partial Fisher–Yates), and its other cells are cards drawn from a deck holding 3
//! copies of every other role; a losing ticket's 18 cells are drawn from a deck holding 3 copies
//! of every role, chosen symbol included. The grid for choice c is the role grid with role 0
//! read as offered symbol c. So under every choice the chosen symbol appears exactly k times for
//! tier k (G-7) and at most 3 times for a losing ticket (G-8), every other symbol at most 3 times
//! (no other choice "would have won", G-6), and the prize cannot depend on the choice (G-6).

use crate::crypto::Hash32;
use crate::crypto::HmacPads;
use crate::crypto::drbg::uniform_from;
use crate::rules::game::{
    GRID_CELLS, GameRules, LOSING_TIER, MAX_OTHER_SYMBOL, MAX_SYMBOLS, MAX_WINNING_MATCHES,
    MIN_WINNING_MATCHES, OFFERED_SYMBOLS,
};

/// Label at the start of every grid-stream HMAC message (spec/formats.md §5.B5.1).
pub const GRID_STREAM_LABEL: &[u8] = b"urne/v1/block-grid";

/// A ticket's offered symbols and its grid for each choice. Symbols are indices into
/// [`GameRules::symbols`]; cells are row-major (row 0 cells 0..6, row 1 cells 6..12, row 2 12..18).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicketGrid {
    /// The three symbols offered to the player, in the order shown (G-6).
    pub offered: [u8; OFFERED_SYMBOLS],
    /// `cells[c]` is the grid revealed when the player picks `offered[c]`.
    pub cells: [[u8; GRID_CELLS]; OFFERED_SYMBOLS],
}

/// Length of a grid-stream HMAC message: label, 0x00, u32be(position), u32be(j).
const MESSAGE_LEN: usize = GRID_STREAM_LABEL.len() + 1 + 4 + 4;
// The message and its padding fit the one block after the key's (FIPS 180-4 §5.1.1).
const _: () = assert!(MESSAGE_LEN + 9 <= 64);

/// The grid key with its HMAC state precomputed (the SHA-256 states after the key XOR ipad and
/// the key XOR opad blocks, RFC 2104), so each 32-byte block of a ticket stream costs two SHA-256
/// compressions, padded by hand.
#[derive(Clone)]
pub struct GridKey {
    pads: HmacPads,
}

impl GridKey {
    /// Prepares `grid_key` (spec/formats.md §5.B3: `tagged_hash("urne/v1/block-grid-key", [seed])`) as the HMAC
    /// key of every ticket stream of the block.
    pub fn new(grid_key: &Hash32) -> GridKey {
        GridKey {
            pads: HmacPads::new(grid_key.as_bytes()),
        }
    }

    /// `HMAC-SHA256(key, message)` for the one-block `message` already padded as the second
    /// block of the inner hash.
    fn mac(&self, message: &[u8; 64]) -> [u8; 32] {
        self.pads.mac_padded(message)
    }
}

/// The byte stream of one ticket (spec/formats.md §5.B5.1): block `j` (j = 0, 1, …) is
/// `HMAC-SHA256(grid_key, "urne/v1/block-grid" || 0x00 || u32be(position) || u32be(j))`, and the
/// stream is their concatenation. Integers: big-endian u64 and the rejection rule of spec/formats.md §2.3.
pub struct TicketStream<'k> {
    key: &'k GridKey,
    /// The inner hash's second block: the message with `j` to fill in, and its padding.
    message: [u8; 64],
    counter: u32,
    block: [u8; 32],
    used: usize,
}

impl<'k> TicketStream<'k> {
    /// The stream of the ticket at `position` (0-based sale order), before its first byte.
    pub fn new(key: &'k GridKey, position: u32) -> Self {
        let mut message = [0u8; 64];
        let label = GRID_STREAM_LABEL.len();
        message[..label].copy_from_slice(GRID_STREAM_LABEL);
        message[label] = 0x00;
        message[label + 1..label + 5].copy_from_slice(&position.to_be_bytes());
        message[MESSAGE_LEN] = 0x80;
        // MESSAGE_LEN < 64: the bit length of key block + message is exact.
        message[56..].copy_from_slice(&((64 + MESSAGE_LEN as u64) * 8).to_be_bytes());
        TicketStream {
            key,
            message,
            counter: 0,
            block: [0; 32],
            used: 32,
        }
    }

    fn refill(&mut self) {
        self.message[MESSAGE_LEN - 4..MESSAGE_LEN].copy_from_slice(&self.counter.to_be_bytes());
        self.block = self.key.mac(&self.message);
        // 2^32 blocks would be 128 GiB for one ticket, which needs about 21 u64 values.
        self.counter = self.counter.checked_add(1).expect("grid stream exhausted");
        self.used = 0;
    }

    /// The next 8 bytes as a big-endian u64. A u64 may straddle two blocks.
    pub fn next_u64(&mut self) -> u64 {
        if self.used + 8 <= self.block.len() {
            let mut b = [0u8; 8];
            b.copy_from_slice(&self.block[self.used..self.used + 8]);
            self.used += 8;
            return u64::from_be_bytes(b);
        }
        let mut b = [0u8; 8];
        for x in &mut b {
            if self.used == self.block.len() {
                self.refill();
            }
            *x = self.block[self.used];
            self.used += 1;
        }
        u64::from_be_bytes(b)
    }

    /// Exactly uniform in `[0, n)` by the rule of spec/formats.md §2.3 (the same as `DrbgStream::uniform`):
    /// reject `x >= 2^64 - (2^64 mod n)`, return `x mod n`.
    ///
    /// # Panics
    /// If `n` is 0 (a caller bug: an empty range has no value to return).
    pub fn uniform(&mut self, n: u64) -> u64 {
        uniform_from(n, || self.next_u64())
    }
}

/// Largest product of ranges drawn with one `uniform` call (spec/formats.md §5.B5.2). It keeps the rejection
/// probability of each call below 2^-16.
pub const BATCH_LIMIT: u64 = 1 << 48;

impl TicketStream<'_> {
    /// Independent uniform digits `out[i]` in `[0, ranges[i])` (spec/formats.md §5.B5.2). The ranges are cut, in
    /// order, into batches: a batch takes ranges while their product stays at most
    /// [`BATCH_LIMIT`]; for each batch, `x = uniform(P)` with P the product, then for each range r
    /// of the batch in order `d = x mod r; x = x div r`. The map from `[0, P)` to the digits is a
    /// bijection (mixed radix), so the digits are exactly as uniform and independent as separate
    /// `uniform(r)` calls, at a fraction of the stream bytes.
    ///
    /// # Panics
    /// If `out` is not as long as `ranges`, or a range is 0 or above [`BATCH_LIMIT`] (caller
    /// bugs: the grid construction's ranges are 1 to 48).
    pub fn digits(&mut self, ranges: &[u64], out: &mut [u64]) {
        assert_eq!(ranges.len(), out.len());
        for_each_batch(ranges, |i, end, p| {
            let mut x = self.uniform(p);
            for (d, &r) in out[i..end].iter_mut().zip(&ranges[i..end]) {
                (*d, x) = div_rem(x, r);
            }
        });
    }

    /// [`TicketStream::digits`] with the batches cut beforehand ([`Digits`]): the same values.
    fn planned_digits<const N: usize>(&mut self, d: &Digits<N>, out: &mut [u64; N]) {
        let mut i = 0;
        for &(end, p) in &d.batches[..d.count] {
            let mut x = self.uniform(p);
            for (o, &r) in out[i..end].iter_mut().zip(&d.ranges[i..end]) {
                (*o, x) = div_rem(x, r);
            }
            i = end;
        }
    }
}

/// Cuts `ranges` into the batches of spec/formats.md §5.B5.2, in order: a batch takes ranges
/// while their product stays at most [`BATCH_LIMIT`]; calls `batch(start, end, product)` for
/// each.
///
/// # Panics
/// If a range is 0 or above [`BATCH_LIMIT`] (a caller bug: the grid construction's ranges are
/// 1 to 48).
fn for_each_batch(ranges: &[u64], mut batch: impl FnMut(usize, usize, u64)) {
    let mut i = 0;
    while i < ranges.len() {
        let mut p = 1u64;
        let mut end = i;
        while end < ranges.len() {
            let r = ranges[end];
            assert!((1..=BATCH_LIMIT).contains(&r), "range out of bounds");
            match p.checked_mul(r) {
                Some(q) if q <= BATCH_LIMIT => {
                    p = q;
                    end += 1;
                }
                _ => break,
            }
        }
        batch(i, end, p);
        i = end;
    }
}

/// The ranges of a fixed list of digits and their batches ([`for_each_batch`]), cut once for
/// every ticket that draws them.
#[derive(Clone, Debug)]
struct Digits<const N: usize> {
    ranges: [u64; N],
    /// Each batch's end (exclusive) and the product of its ranges, in order.
    batches: [(usize, u64); N],
    count: usize,
}

impl<const N: usize> Digits<N> {
    fn new(ranges: [u64; N]) -> Digits<N> {
        let mut batches = [(0, 1); N];
        let mut count = 0;
        // Each batch takes at least one range: there are at most N.
        for_each_batch(&ranges, |_, end, p| {
            batches[count] = (end, p);
            count += 1;
        });
        Digits {
            ranges,
            batches,
            count,
        }
    }
}

/// Largest range whose reciprocal [`div_rem`] keeps: the grid construction's ranges are 1 to 48.
const RECIPROCAL_RANGES: usize = 64;

/// `ceil(2^64 / r)` for each range r of 1 to [`RECIPROCAL_RANGES`] (index 0 unused).
const RECIPROCALS: [u128; RECIPROCAL_RANGES + 1] = {
    let mut t = [0u128; RECIPROCAL_RANGES + 1];
    let mut r = 1;
    while r <= RECIPROCAL_RANGES {
        t[r] = (1u128 << 64).div_ceil(r as u128);
        r += 1;
    }
    t
};

/// `(x mod r, x div r)`. For a digit's range (r up to [`RECIPROCAL_RANGES`]) and a batch value
/// (x below [`BATCH_LIMIT`]), by a multiplication with `ceil(2^64 / r)` instead of a division:
/// with `x = q*r + s`, `x * ceil(2^64/r) / 2^64 = q + s/r + x*e/2^64` with `0 <= e < 1`, and
/// `s/r + x/2^64 <= (r-1)/r + 2^-16 < 1` for r below 2^16, so its integer part is exactly q.
/// Otherwise by division. The same result either way (a test compares them).
fn div_rem(x: u64, r: u64) -> (u64, u64) {
    match usize::try_from(r) {
        Ok(ri @ 1..=RECIPROCAL_RANGES) if x < BATCH_LIMIT => {
            // The product's high half is q <= x: it fits a u64.
            #[allow(clippy::cast_possible_truncation)]
            let q = ((u128::from(x) * RECIPROCALS[ri]) >> 64) as u64;
            (x - q * r, q)
        }
        _ => (x % r, x / r),
    }
}

/// Partial Fisher–Yates from the last position down (spec/formats.md §5.B5.3), with its `j` values given: step s
/// (0-based) sets i = len-1-s, swaps a[i] and a[js[s]] (js[s] <= i), and selects a[i]. Calls
/// `take` with each selected item in order.
fn partial_fisher_yates<T: Copy>(a: &mut [T], js: &[u64], mut take: impl FnMut(T)) {
    for (step, &j) in js.iter().enumerate() {
        let i = a.len() - 1 - step;
        // j is a digit of range i + 1, so j <= i < a.len(): the conversion is exact.
        #[allow(clippy::cast_possible_truncation)]
        a.swap(i, j as usize);
        take(a[i]);
    }
}

/// What the construction of a ticket's grid takes from its symbol count `m` and its tier alone
/// (spec/formats.md §5.B5.2, §5.B5.3): the ranges of its digits and their batches, and its deck
/// of roles. Made once per tier for a whole block; the grids are the same as without it.
#[derive(Clone, Debug)]
pub struct TierPlan {
    m: usize,
    /// The cells of role 0 (the tier; 0 for a losing ticket).
    k: usize,
    offered: Digits<OFFERED_SYMBOLS>,
    cells: Digits<GRID_CELLS>,
    /// 3 copies of every role the cards are drawn from, `deck[..len]`.
    deck: [u8; 3 * MAX_SYMBOLS],
    len: usize,
}

impl TierPlan {
    /// The plan of a ticket of `tier` among `m` symbols.
    ///
    /// # Panics
    /// If `m` is not 3 to [`MAX_SYMBOLS`] or `tier` is not a tier (caller bugs: the rules loader
    /// allows [`MIN_SYMBOLS`](crate::rules::game::MIN_SYMBOLS) to 26 symbols, and tiers come from
    /// the deck).
    // Every `as u8` below converts a role (under MAX_SYMBOLS, 26), every `as u64` a range of at
    // most 3 * 26: exact.
    #[allow(clippy::cast_possible_truncation)]
    pub fn new(m: usize, tier: u8) -> TierPlan {
        assert!(
            (OFFERED_SYMBOLS..=MAX_SYMBOLS).contains(&m),
            "symbol count out of range"
        );
        assert!(
            tier == LOSING_TIER || (MIN_WINNING_MATCHES..=MAX_WINNING_MATCHES).contains(&tier),
            "not a tier: {tier}"
        );
        // spec/formats.md §5.B5.3 step 2: a winning ticket of tier k: k cells for role 0, then
        // 18-k cards from 3 copies of roles 1..m; a losing ticket: 18 cards from 3 copies of
        // roles 0..m.
        let k = usize::from(tier); // 0 for a losing ticket
        let first_role = u8::from(tier != LOSING_TIER);
        let mut deck = [0u8; 3 * MAX_SYMBOLS];
        let mut len = 0;
        for role in first_role..m as u8 {
            for _ in 0..MAX_OTHER_SYMBOL {
                deck[len] = role;
                len += 1;
            }
        }
        let cells = std::array::from_fn(|step| {
            if step < k {
                (GRID_CELLS - step) as u64
            } else {
                (len - (step - k)) as u64
            }
        });
        TierPlan {
            m,
            k,
            offered: Digits::new(std::array::from_fn(|step| (m - step) as u64)),
            cells: Digits::new(cells),
            deck,
            len,
        }
    }
}

/// The offered symbols and the role grid of a ticket (spec/formats.md §5.B5.2, §5.B5.3). `m` symbols.
///
/// # Panics
/// If `m` is not 3 to [`MAX_SYMBOLS`] or `tier` is not a tier (caller bugs: the rules loader
/// allows [`MIN_SYMBOLS`](crate::rules::game::MIN_SYMBOLS) to 26 symbols, and tiers come from
/// the deck).
pub fn offered_and_roles(
    key: &GridKey,
    position: u32,
    tier: u8,
    m: usize,
) -> ([u8; OFFERED_SYMBOLS], [u8; GRID_CELLS]) {
    planned_offered_and_roles(key, position, &TierPlan::new(m, tier))
}

/// [`offered_and_roles`] with the tier's plan made beforehand.
// Every `as u8` below converts a symbol or cell index: under MAX_SYMBOLS (26) or GRID_CELLS
// (18), so it is exact (the checked form would add branches to the per-ticket path).
#[allow(clippy::cast_possible_truncation)]
fn planned_offered_and_roles(
    key: &GridKey,
    position: u32,
    plan: &TierPlan,
) -> ([u8; OFFERED_SYMBOLS], [u8; GRID_CELLS]) {
    const UNSET: u8 = u8::MAX;
    let mut s = TicketStream::new(key, position);

    // spec/formats.md §5.B5.3 step 1: offered symbols, from the first batch alone: independent of the tier.
    let mut symbols: [u8; MAX_SYMBOLS] = std::array::from_fn(|i| i as u8);
    let mut js = [0u64; OFFERED_SYMBOLS];
    s.planned_digits(&plan.offered, &mut js);
    let mut offered = [0u8; OFFERED_SYMBOLS];
    let mut n = 0;
    partial_fisher_yates(&mut symbols[..plan.m], &js, |x| {
        offered[n] = x;
        n += 1;
    });

    // spec/formats.md §5.B5.3 step 2: the role grid (the deck and ranges of the tier's plan).
    let k = plan.k;
    let mut deck = plan.deck;
    let mut js = [0u64; GRID_CELLS];
    s.planned_digits(&plan.cells, &mut js);

    let mut roles = [UNSET; GRID_CELLS];
    let mut cells: [u8; GRID_CELLS] = std::array::from_fn(|i| i as u8);
    partial_fisher_yates(&mut cells, &js[..k], |c| roles[usize::from(c)] = 0);
    let mut cell = 0;
    partial_fisher_yates(&mut deck[..plan.len], &js[k..], |card| {
        while roles[cell] != UNSET {
            cell += 1;
        }
        roles[cell] = card;
    });
    (offered, roles)
}

/// Symbol shown for each role under choice `c` (spec/formats.md §5.B5.4): role 0 is `offered[c]`, roles 1 and 2
/// the other two offered symbols in offered order, roles 3.. the non-offered symbols ascending.
pub fn role_symbols(offered: &[u8; OFFERED_SYMBOLS], c: usize, m: usize) -> [u8; MAX_SYMBOLS] {
    let mut map = [0u8; MAX_SYMBOLS];
    map[0] = offered[c];
    let mut r = 1;
    for (i, &o) in offered.iter().enumerate() {
        if i != c {
            map[r] = o;
            r += 1;
        }
    }
    let mut is_offered = [false; MAX_SYMBOLS];
    for &o in offered {
        is_offered[usize::from(o)] = true;
    }
    for (sym, &off) in is_offered[..m].iter().enumerate() {
        if !off {
            // sym < m <= MAX_SYMBOLS (26): the conversion is exact.
            #[allow(clippy::cast_possible_truncation)]
            let sym = sym as u8;
            map[r] = sym;
            r += 1;
        }
    }
    map
}

fn grid_with(key: &GridKey, position: u32, tier: u8, m: usize) -> TicketGrid {
    planned_grid(key, position, &TierPlan::new(m, tier))
}

/// [`grid_with`] with the tier's plan made beforehand.
fn planned_grid(key: &GridKey, position: u32, plan: &TierPlan) -> TicketGrid {
    let m = plan.m;
    let (offered, roles) = planned_offered_and_roles(key, position, plan);
    let mut cells = [[0u8; GRID_CELLS]; OFFERED_SYMBOLS];
    // Roles 3.. are the same under every choice: build the map once, then set roles 0..3.
    let mut map = role_symbols(&offered, 0, m);
    for (c, grid) in cells.iter_mut().enumerate() {
        if c > 0 {
            // role_symbols(offered, c): the chosen symbol, then the other two offered in
            // their order.
            map[0] = offered[c];
            map[1] = offered[usize::from(c == 0)];
            map[2] = offered[if c == 2 { 1 } else { 2 }];
        }
        for (x, &r) in grid.iter_mut().zip(roles.iter()) {
            *x = map[usize::from(r)];
        }
    }
    TicketGrid { offered, cells }
}

/// The grid of the ticket at `position` with outcome `tier` (spec/formats.md §5.B5), from the block's grid key.
pub fn ticket_grid(grid_key: &Hash32, position: u32, tier: u8, rules: &GameRules) -> TicketGrid {
    grid_with(
        &GridKey::new(grid_key),
        position,
        tier,
        rules.symbols().len(),
    )
}

/// The same with a prepared key (no per-call HMAC key setup), for whole blocks.
pub fn ticket_grid_with(key: &GridKey, position: u32, tier: u8, rules: &GameRules) -> TicketGrid {
    grid_with(key, position, tier, rules.symbols().len())
}

/// The same with a prepared key and the tier's plan ([`TierPlan::new`] with the rules' symbol
/// count and the ticket's tier), for whole blocks.
pub fn ticket_grid_planned(key: &GridKey, position: u32, plan: &TierPlan) -> TicketGrid {
    planned_grid(key, position, plan)
}

/// The letter of symbol `i` in the tickets file: `A` + i (spec/formats.md §5.B6).
pub fn symbol_letter(i: u8) -> u8 {
    b'A' + i
}

impl TicketGrid {
    /// The offered symbols as 3 letters (spec/formats.md §5.B6).
    pub fn offered_text(&self) -> [u8; OFFERED_SYMBOLS] {
        self.offered.map(symbol_letter)
    }

    /// Grid for choice `c` (0-based) as 18 letters, row-major (spec/formats.md §5.B6).
    pub fn grid_text(&self, c: usize) -> [u8; GRID_CELLS] {
        self.cells[c].map(symbol_letter)
    }

    /// Checks the grid rules for a ticket of `tier` with `m` symbols (spec/formats.md §5.B5.5), as a verifier does
    /// before the reveal: symbols in range and offered ones distinct; under every choice the chosen
    /// symbol appears exactly `tier` times (G-7) or at most 3 times for a losing ticket (G-8), and
    /// every other symbol at most 3 times (G-6); the three grids are one role grid read under the
    /// three choices (spec/formats.md §5.B5.4), so the choice changes nothing but which offered symbol is where.
    pub fn check(&self, tier: u8, m: usize) -> Result<(), String> {
        if self.holds(tier, m) {
            return Ok(());
        }
        self.why_not(tier, m)
    }

    /// Whether [`TicketGrid::check`] passes, in one pass over the cells: the offered symbols in
    /// range and distinct, grid 1 meeting G-6, G-7 and G-8, and grids 2 and 3 grid 1 read under
    /// choices 2 and 3 (spec/formats.md §5.B5.4). The last makes each of grids 2 and 3 grid 1 with
    /// its symbols renamed one to one (the chosen symbol to the chosen symbol), so they meet the
    /// rules as grid 1 does: the same answer as the full check, which names the failure.
    fn holds(&self, tier: u8, m: usize) -> bool {
        let [o0, o1, o2] = self.offered;
        if usize::from(o0.max(o1).max(o2)) >= m || o0 == o1 || o0 == o2 || o1 == o2 {
            return false;
        }
        let [g0, g1, g2] = &self.cells;
        let mut counts = [0u8; MAX_SYMBOLS];
        for ((&x, &y), &z) in g0.iter().zip(g1).zip(g2) {
            // Choice 2 swaps the first two offered symbols' roles, choice 3 rotates the three
            // (role_symbols); every other symbol keeps its place.
            let (want1, want2) = if x == o0 {
                (o1, o2)
            } else if x == o1 {
                (o0, o0)
            } else if x == o2 {
                (o2, o1)
            } else {
                (x, x)
            };
            if usize::from(x) >= m || y != want1 || z != want2 {
                return false;
            }
            counts[usize::from(x)] += 1;
        }
        let chosen = counts[usize::from(o0)];
        let chosen_ok = if tier == LOSING_TIER {
            usize::from(chosen) <= MAX_OTHER_SYMBOL
        } else {
            chosen == tier
        };
        chosen_ok
            && counts
                .iter()
                .enumerate()
                .all(|(sym, &n)| sym == usize::from(o0) || usize::from(n) <= MAX_OTHER_SYMBOL)
    }

    /// The first rule of [`TicketGrid::check`] the grid fails, named.
    fn why_not(&self, tier: u8, m: usize) -> Result<(), String> {
        let o = self.offered;
        if o.iter().any(|&x| usize::from(x) >= m) || o[0] == o[1] || o[0] == o[2] || o[1] == o[2] {
            return Err(format!(
                "offered symbols {o:?} must be {OFFERED_SYMBOLS} distinct symbols below {m}"
            ));
        }
        for c in 0..OFFERED_SYMBOLS {
            // m <= MAX_SYMBOLS (checked at load), so a small table suffices.
            let mut counts = [0usize; MAX_SYMBOLS];
            for &x in &self.cells[c] {
                if usize::from(x) >= m {
                    return Err(format!("grid {}: symbol {x} does not exist", c + 1));
                }
                counts[usize::from(x)] += 1;
            }
            let chosen = counts[usize::from(o[c])];
            let ok = if tier == LOSING_TIER {
                chosen <= MAX_OTHER_SYMBOL
            } else {
                chosen == usize::from(tier)
            };
            if !ok {
                return Err(format!(
                    "grid {}: the chosen symbol appears {chosen} times, tier {tier} needs {} (G-7, G-8)",
                    c + 1,
                    if tier == LOSING_TIER {
                        "at most 3".to_string()
                    } else {
                        tier.to_string()
                    }
                ));
            }
            if let Some((sym, &n)) = counts
                .iter()
                .enumerate()
                .find(|&(s, &n)| s != usize::from(o[c]) && n > MAX_OTHER_SYMBOL)
            {
                return Err(format!(
                    "grid {}: symbol {sym} (not chosen) appears {n} times, more than {MAX_OTHER_SYMBOL} (G-6)",
                    c + 1
                ));
            }
        }
        // One role grid: read grid 1 back into roles, then every grid must be that reading.
        let map0 = role_symbols(&o, 0, m);
        let mut role_of = [0u8; MAX_SYMBOLS];
        for (r, &sym) in map0[..m].iter().enumerate() {
            // r < m <= MAX_SYMBOLS (26): the conversion is exact.
            #[allow(clippy::cast_possible_truncation)]
            let r = r as u8;
            role_of[usize::from(sym)] = r;
        }
        for c in 1..OFFERED_SYMBOLS {
            let map = role_symbols(&o, c, m);
            for (i, &x) in self.cells[0].iter().enumerate() {
                if self.cells[c][i] != map[usize::from(role_of[usize::from(x)])] {
                    return Err(format!(
                        "grid {} cell {i} is not grid 1 read under choice {} (§5.B5.4)",
                        c + 1,
                        c + 1
                    ));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offered_symbols_must_be_three_distinct_symbols() {
        // A grid whose choices all read a symbol that is none of the offered ones (a losing
        // ticket's cells would pass): only the offered symbols decide.
        let cells = [[5u8; GRID_CELLS]; OFFERED_SYMBOLS];
        for offered in [[0, 0, 1], [0, 1, 0], [1, 0, 0], [0, 1, 9]] {
            let e = TicketGrid { offered, cells }
                .check(LOSING_TIER, 9)
                .unwrap_err();
            assert!(e.contains("distinct symbols below"), "{offered:?}: {e}");
        }
    }

    #[test]
    fn uniform_rejects_exactly_the_values_at_or_above_the_limit() {
        // n = 3: 2^64 mod 3 = 1, so the limit is 2^64 - 1 and only u64::MAX is rejected.
        let mut xs = [u64::MAX, u64::MAX - 1].into_iter();
        assert_eq!(uniform_from(3, || xs.next().unwrap()), (u64::MAX - 1) % 3);
        let mut xs = [u64::MAX - 2].into_iter();
        assert_eq!(uniform_from(3, || xs.next().unwrap()), (u64::MAX - 2) % 3);
        // n = 2^40 divides 2^64: nothing is rejected, u64::MAX included.
        let mut xs = [u64::MAX].into_iter();
        assert_eq!(uniform_from(1 << 40, || xs.next().unwrap()), (1 << 40) - 1);
    }

    const M: usize = 16;

    fn key() -> GridKey {
        GridKey::new(&Hash32([42u8; 32]))
    }

    #[test]
    fn the_one_pass_check_agrees_with_the_full_one_on_altered_grids() {
        // Grids made, then altered one cell, offered symbol or tier at a time: the one-pass
        // answer is the full check's, passing or not.
        let k = key();
        let (mut passed, mut failed) = (0, 0);
        for p in 0..400u32 {
            let tier = [0u8, 4, 5, 6, 7, 8, 9, 10][p as usize % 8];
            let g = grid_with(&k, p, tier, M);
            let mut variants = vec![
                (g.clone(), tier),
                (g.clone(), [4, 0][usize::from(tier == 4)]),
            ];
            for i in 0..GRID_CELLS {
                let c = i % OFFERED_SYMBOLS;
                let mut h = g.clone();
                h.cells[c][i] =
                    u8::try_from((usize::from(h.cells[c][i]) + p as usize + 1) % (M + 1)).unwrap();
                variants.push((h, tier));
                let mut h = g.clone();
                for grid in &mut h.cells {
                    grid[i] = grid[(i + 5) % GRID_CELLS];
                }
                variants.push((h, tier));
            }
            for c in 0..OFFERED_SYMBOLS {
                let mut h = g.clone();
                h.offered[c] = h.offered[(c + 1) % OFFERED_SYMBOLS];
                variants.push((h, tier));
                let mut h = g.clone();
                h.offered.swap(c, (c + 1) % OFFERED_SYMBOLS);
                variants.push((h, tier));
            }
            for (h, t) in variants {
                let full = h.why_not(t, M);
                assert_eq!(h.holds(t, M), full.is_ok(), "{h:?} tier {t}: {full:?}");
                assert_eq!(h.check(t, M), full);
                if full.is_ok() {
                    passed += 1;
                } else {
                    failed += 1;
                }
            }
        }
        assert!(
            passed > 400 && failed > 400,
            "{passed} passed, {failed} failed"
        );
    }

    #[test]
    fn every_tier_and_every_choice_meets_g6_g7_g8() {
        let k = key();
        for tier in [0u8, 4, 5, 6, 7, 8, 9, 10] {
            for p in 0..300 {
                let g = grid_with(&k, p, tier, M);
                g.check(tier, M)
                    .unwrap_or_else(|e| panic!("tier {tier} pos {p}: {e}"));
            }
        }
    }

    #[test]
    fn offered_symbols_do_not_depend_on_the_tier() {
        let k = key();
        for p in 0..200 {
            let o = grid_with(&k, p, 0, M).offered;
            for tier in 4..=10 {
                assert_eq!(grid_with(&k, p, tier, M).offered, o);
            }
        }
    }

    #[test]
    fn changing_the_choice_only_moves_offered_symbols() {
        let g = grid_with(&key(), 3, 6, M);
        for i in 0..GRID_CELLS {
            let shown: Vec<u8> = (0..3).map(|c| g.cells[c][i]).collect();
            if g.offered.contains(&shown[0]) {
                assert!(shown.iter().all(|x| g.offered.contains(x)));
            } else {
                assert!(shown.iter().all(|&x| x == shown[0]));
            }
        }
    }

    #[test]
    fn a_grid_breaking_a_rule_fails_the_check() {
        let mut g = grid_with(&key(), 1, 5, M);
        assert!(g.check(5, M).is_ok());
        assert!(g.check(6, M).is_err());
        assert!(g.check(0, M).is_err());
        // Break the role grid sharing: change one non-offered cell in grid 2 only.
        let i = (0..GRID_CELLS)
            .find(|&i| !g.offered.contains(&g.cells[1][i]))
            .unwrap();
        let other = (0..u8::try_from(M).unwrap())
            .find(|s| !g.offered.contains(s) && *s != g.cells[1][i])
            .unwrap();
        g.cells[1][i] = other;
        assert!(g.check(5, M).is_err());
    }

    #[test]
    fn digits_are_the_mixed_radix_of_one_uniform_per_batch() {
        // 48·47·…·41 ≤ 2^48 < 48·47·…·40: the first batch holds 8 ranges, the next starts at 40.
        let ranges: Vec<u64> = (31..=48).rev().collect();
        let k = key();
        let mut got = vec![0u64; ranges.len()];
        TicketStream::new(&k, 9).digits(&ranges, &mut got);
        let mut s = TicketStream::new(&k, 9);
        let p1: u64 = ranges[..8].iter().product();
        assert!(p1 <= BATCH_LIMIT && p1 * 40 > BATCH_LIMIT);
        let mut x = s.uniform(p1);
        for (i, &r) in ranges[..8].iter().enumerate() {
            assert_eq!(got[i], x % r);
            x /= r;
        }
        let p2: u64 = ranges[8..17].iter().product();
        assert!(p2 <= BATCH_LIMIT && p2 * 31 > BATCH_LIMIT);
        let mut x = s.uniform(p2);
        for (i, &r) in ranges[8..17].iter().enumerate() {
            assert_eq!(got[8 + i], x % r);
            x /= r;
        }
        assert_eq!(got[17], s.uniform(31));
    }

    #[test]
    fn digits_cover_every_combination_evenly() {
        // Ranges 2, 3 in one batch: 6 combinations over 6000 draws, χ² (5 df) under 20.52.
        let k = key();
        let mut counts = [0u32; 6];
        for p in 0..6000 {
            let mut d = [0u64; 2];
            TicketStream::new(&k, p).digits(&[2, 3], &mut d);
            counts[usize::try_from(d[0] * 3 + d[1]).unwrap()] += 1;
        }
        let chi2: f64 = counts
            .iter()
            .map(|&c| (f64::from(c) - 1000.0).powi(2) / 1000.0)
            .sum();
        assert!(chi2 < 20.52, "χ² = {chi2}");
    }

    #[test]
    fn div_rem_by_reciprocal_is_division() {
        let mut xs: Vec<u64> = vec![0, 1, 2, 63, 64, 65, BATCH_LIMIT - 1, BATCH_LIMIT, u64::MAX];
        let k = key();
        let mut s = TicketStream::new(&k, 0);
        for _ in 0..20_000 {
            xs.push(s.next_u64() % BATCH_LIMIT);
            xs.push(s.next_u64() >> (s.next_u64() % 64));
        }
        for r in 1..=(RECIPROCAL_RANGES as u64 + 2) {
            let mut near: Vec<u64> = (1..2000u64)
                .flat_map(|k| {
                    let m = (BATCH_LIMIT / r / 2000) * k * r;
                    [m.saturating_sub(1), m, m + 1]
                })
                .collect();
            near.extend(&xs);
            for &x in &near {
                assert_eq!(div_rem(x, r), (x % r, x / r), "{x} / {r}");
            }
        }
    }

    #[test]
    fn the_offered_roles_of_each_choice_are_role_symbols() {
        // grid_with sets roles 0..3 of each choice by hand: the same as role_symbols.
        let k = key();
        for p in 0..200 {
            let g = grid_with(&k, p, [0, 4, 7, 10][p as usize % 4], 26);
            let (offered, roles) = offered_and_roles(&k, p, [0, 4, 7, 10][p as usize % 4], 26);
            for c in 0..OFFERED_SYMBOLS {
                let map = role_symbols(&offered, c, 26);
                let want: Vec<u8> = roles.iter().map(|&r| map[usize::from(r)]).collect();
                assert_eq!(g.cells[c].to_vec(), want, "position {p} choice {c}");
            }
        }
    }

    #[test]
    fn the_stream_is_hmac_over_position_and_counter() {
        use hmac::{KeyInit, Mac};
        type HmacSha256 = hmac::Hmac<sha2::Sha256>;
        let gk = Hash32([7u8; 32]);
        let k = GridKey::new(&gk);
        let mut s = TicketStream::new(&k, 0x0102_0304);
        let mut got = Vec::new();
        for _ in 0..8 {
            got.extend_from_slice(&s.next_u64().to_be_bytes());
        }
        let mut want = Vec::new();
        for j in 0u32..2 {
            let mut m = <HmacSha256 as KeyInit>::new_from_slice(&gk).unwrap();
            m.update(b"urne/v1/block-grid\x00\x01\x02\x03\x04");
            m.update(&j.to_be_bytes());
            want.extend_from_slice(&m.finalize().into_bytes());
        }
        assert_eq!(got, want);
    }
}
