"""Instant-game blocks (spec/formats.md §5): rules file, block ids, seed, deck and shuffle, ticket grids,
tickets.csv, commitments, block folders (spec/formats.md §5.B10) and ticket proofs (spec/formats.md §5.B9).

Written from spec/formats.md §5 alone. The hot loops (the shuffle, the 800,000 ticket streams) are plain
Python kept tight: HMAC through precomputed key pads (two SHA-256 compressions a block), u64s read
in bulk with struct, the digit batch plans (spec/formats.md §5.B5.2) precomputed per tier.
"""
import hashlib
import os
import re
import struct

import vdraw  # the version-2 member checkers shared with draws
import vhistory
import vjson as J
import vmanifest
import vofficial
from vaudit import verify_checkpoint
from vcore import Failure, H, HmacDrbg, check_fixed_order, entropy_commitment, is_one_time_format, key_id, leaf_hash, listdir, \
    node_hash, read_bounded, read_signed, verify_inclusion, Usage

TWO64 = 1 << 64
ID_RE = re.compile(r"\A[a-z0-9][a-z0-9-]{0,63}\Z")          # game ids and symbol ids (spec/formats.md §5.B1)
EMISSION_RE = re.compile(r"\A[a-z0-9][a-z0-9-]{0,31}\Z")    # spec/formats.md §5.B2
DEC_RE = re.compile(r"\A(0|[1-9][0-9]*)\Z")
OFFICIAL = "noel-de-la-chance-2015"
HEADER = b"position,tier,prize_cents,offered,grid1,grid2,grid3"
CELLS = 18

h32 = lambda v, w: J.hexbytes(v, w, 32)


# ---------------------------------------------------------------------------------------------
# spec/formats.md §5.B1 rules file

def _id(v, what):
    if not isinstance(v, str) or not ID_RE.match(v):
        J._bad(what, "expected 1-64 of a-z 0-9 -, not starting with -")
    return v


def _pos(v, what):
    return J.uint(v, what, 1)


# spec/formats.md §5.B1, §1.6: a block's size is at most 4,194,304 (so that S.tickets.csv stays within its limit).
MAX_BLOCK_SIZE = 4194304

RULES = {
    "format": J.const("urne-game-rules-v1"), "game": _id, "title": lambda v, w: v, "notes": lambda v, w: v,
    "price_points_cents": J.listof(_pos), "block_size": lambda v, w: J.uint(v, w, 1, MAX_BLOCK_SIZE),
    "prize_table": J.listof(J.fields({"matches": J.uint, "units": J.uint, "prize_cents": J.listof(J.uint)})),
    "totals": J.fields({"winning_units": J.uint, "losing_units": J.uint, "prize_cents": J.listof(J.uint)}),
    "grid": J.fields({"rows": J.uint, "columns": J.uint, "offered_symbols": J.uint}),
    "symbols": J.listof(_id),
}

OFFICIAL_TABLE = [(10, 1, 250000), (9, 1, 25000), (8, 200, 5000), (7, 11000, 1000), (6, 14100, 250),
                  (5, 99000, 100), (4, 46000, 50)]


def parse_rules(data, what="rules.json"):
    """spec/formats.md §5.B1: parse and check a game rules file; returns the parsed object. Refusals: malformed."""
    r = J.obj(J.loads(data, what), what, RULES)

    def bad(msg):
        raise Failure("malformed", f"{what}: {msg} (§5.B1)")

    for k in ("title", "notes"):
        if not isinstance(r[k], (str, list)) or (isinstance(r[k], list) and not all(isinstance(x, str) for x in r[k])):
            bad(f"{k} is not text")
    prices, table, tot, syms = r["price_points_cents"], r["prize_table"], r["totals"], r["symbols"]
    if r["grid"] != {"rows": 3, "columns": 6, "offered_symbols": 3}:
        bad("grid is not 3 x 6 with 3 offered symbols")
    if not 6 <= len(syms) <= 26 or len(set(syms)) != len(syms):
        bad("symbols: 6 to 26 distinct ids expected")
    if not prices or any(b <= a for a, b in zip(prices, prices[1:])) or any(p % prices[0] for p in prices):
        bad("price_points_cents: strictly ascending multiples of the first expected")
    if [row["matches"] for row in table] != [10, 9, 8, 7, 6, 5, 4]:
        bad("prize_table: matches must be exactly 10, 9, ..., 4 in that order")
    for row in table:
        a = row["prize_cents"]
        if len(a) != len(prices) or a[0] <= 0 or any(a[i] * prices[0] != a[0] * prices[i] for i in range(len(prices))):
            bad(f"prize_table matches={row['matches']}: amounts do not scale with the price")
    if any(table[i]["prize_cents"][0] <= table[i + 1]["prize_cents"][0] for i in range(len(table) - 1)):
        bad("prize_table: amounts must strictly grow with matches")
    if sum(row["units"] for row in table) != tot["winning_units"]:
        bad("totals.winning_units is not the sum of the units")
    if tot["winning_units"] + tot["losing_units"] != r["block_size"]:
        bad("winning_units + losing_units is not block_size")
    if len(tot["prize_cents"]) != len(prices) or any(
            sum(row["units"] * row["prize_cents"][i] for row in table) != tot["prize_cents"][i]
            for i in range(len(prices))):
        bad("totals.prize_cents is not the sum of units x prize at each price")
    if r["game"] == OFFICIAL:
        want = [(m, u, p) for m, u, p in OFFICIAL_TABLE]
        got = [(row["matches"], row["units"], row["prize_cents"][0]) for row in table]
        if (r["block_size"] != 800000 or prices != [50, 100, 200] or got != want
                or tot["winning_units"] != 170302 or tot["losing_units"] != 629698
                or tot["prize_cents"] != [28000000, 56000000, 112000000]):
            bad(f"the figures of {OFFICIAL} are not the regulation's (G-1 ... G-3)")
    return r


def tier_table(rules, price):
    """[(tier, units, prize_cents)] for tiers 10, 9, ..., 4 then 0, at `price` (spec/formats.md §5.B9 `tiers`)."""
    i = rules["price_points_cents"].index(price)
    rows = [(row["matches"], row["units"], row["prize_cents"][i]) for row in rules["prize_table"]]
    return rows + [(0, rules["totals"]["losing_units"], 0)]


# ---------------------------------------------------------------------------------------------
# spec/formats.md §5.B2 block identity

def parse_block_id(s, what="block"):
    """Canonical `game/price/emission/number` -> (game, price, emission, number); malformed otherwise."""
    parts = s.split("/") if isinstance(s, str) else []
    if (len(parts) != 4 or not ID_RE.match(parts[0]) or not DEC_RE.match(parts[1])
            or not EMISSION_RE.match(parts[2]) or not DEC_RE.match(parts[3])
            or int(parts[3]) >= 2**32 or int(parts[1]) >= 2**64):
        raise Failure("malformed", f"{what}: {s!r} is not a canonical block id (§5.B2)")
    return parts[0], int(parts[1]), parts[2], int(parts[3])


def file_stem(block_id):
    return block_id.replace("/", "_")


# ---------------------------------------------------------------------------------------------
# spec/formats.md §5.B3 seed values

def block_seed(block_id, rules_sha256, entropy, contribution=None):
    """Version 1 (`contribution` None): H("urne/v1/block-seed", id, rules_sha256, entropy);
    version 2: H("urne/v2/block-seed", id, rules_sha256, contribution, entropy)."""
    if contribution is None:
        return H("urne/v1/block-seed", block_id, rules_sha256, entropy)
    return H("urne/v2/block-seed", block_id, rules_sha256, contribution, entropy)


def seed_commitment(seed):
    return H("urne/v1/block-seed-commitment", seed)


def grid_key(seed):
    return H("urne/v1/block-grid-key", seed)


# ---------------------------------------------------------------------------------------------
# spec/formats.md §5.B4 deck and shuffle

class _FastDrbg(HmacDrbg):
    """vcore.HmacDrbg with Generate's HMACs through precomputed key pads (same output)."""

    def generate(self, n):
        assert 0 < n <= 65536
        k = self.k.ljust(64, b"\x00")
        inner = hashlib.sha256(bytes(b ^ 0x36 for b in k))
        outer = hashlib.sha256(bytes(b ^ 0x5C for b in k))
        v, out = self.v, []
        for _ in range((n + 31) // 32):
            i = inner.copy()
            i.update(v)
            o = outer.copy()
            o.update(i.digest())
            v = o.digest()
            out.append(v)
        self.v = v
        self._update(b"")
        return b"".join(out)[:n]


def shuffle(seed, rules, request=4096):
    """spec/formats.md §5.B4: the tiers in sale order, as a bytearray (one byte a ticket)."""
    n = rules["block_size"]
    deck = bytearray([0]) * rules["totals"]["losing_units"]
    for row in reversed(rules["prize_table"]):           # tier 4, 5, ..., 10
        deck += bytearray([row["matches"]]) * row["units"]
    assert len(deck) == n
    drbg = _FastDrbg(seed, b"", b"urne/v1/block-shuffle")
    # spec/formats.md §2.2: the stream is Generate calls of exactly `request` bytes; R is a multiple of 8, so the
    # u64s never straddle two calls and the stream can be read as a sequence of u64s.
    assert request % 8 == 0
    per_call = request // 8

    def more(calls):
        data = b"".join(drbg.generate(request) for _ in range(calls))
        return struct.unpack(">%dQ" % (calls * per_call), data)

    xs = more(max(1, -(-(n - 1) // per_call)))
    k, nx = 0, len(xs)
    for i in range(n - 1, 0, -1):
        m = i + 1
        if k >= nx:
            xs, k = xs + more(1), k
            nx = len(xs)
        x = xs[k]
        k += 1
        if x >= TWO64 - m:                                 # maybe in the rejection zone (r < m)
            r = TWO64 % m
            while r and x >= TWO64 - r:                    # spec/formats.md §2.3: discard and read the next u64
                if k >= nx:
                    xs = xs + more(1)
                    nx = len(xs)
                x = xs[k]
                k += 1
        j = x % m
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# ---------------------------------------------------------------------------------------------
# spec/formats.md §5.B5 ticket grids

def batch_plan(ranges):
    """spec/formats.md §5.B5.2 step 1: [(P, limit, ranges)] with limit = 2^64 - (2^64 mod P) (spec/formats.md §2.3)."""
    plan, cur, p = [], [], 1
    for r in ranges:
        if cur and p * r > 1 << 48:
            plan.append((p, TWO64 - TWO64 % p, tuple(cur)))
            cur, p = [], 1
        cur.append(r)
        p *= r
    if cur:
        plan.append((p, TWO64 - TWO64 % p, tuple(cur)))
    return plan


class TicketMaker:
    """Computes ticket rows of one block from its grid key (spec/formats.md §5.B5, §5.B6)."""

    def __init__(self, gkey, m, prizes):
        self.m = m
        self.prizes = prizes                                # tier -> prize_cents at the block's price
        k = gkey.ljust(64, b"\x00")                         # grid_key is 32 bytes: no pre-hash
        self.inner = hashlib.sha256(bytes(b ^ 0x36 for b in k))
        self.outer = hashlib.sha256(bytes(b ^ 0x5C for b in k))
        self.offer_plan = batch_plan([m, m - 1, m - 2])
        self.plans = {}
        for t in [0] + list(range(4, 11)):
            k_ = t
            first = 0 if t == 0 else 1
            d = 3 * (m - first)
            cards = [role for role in range(first, m) for _ in range(3)]
            ranges = list(range(CELLS, CELLS - k_, -1)) + list(range(d, d - (CELLS - k_), -1))
            self.plans[t] = (k_, cards, batch_plan(ranges))
        self.letters = [chr(65 + i) for i in range(m)]
        self._roles = {}                                    # offered triple -> (role letters, tables)

    def _stream(self, p):
        """Ticket p's stream as u64s (spec/formats.md §5.B5.1), lazily, 4 per HMAC block."""
        prefix = b"urne/v1/block-grid\x00" + struct.pack(">I", p)
        inner, outer, unpack = self.inner, self.outer, struct.Struct(">4Q").unpack
        j = 0
        while True:
            i = inner.copy()
            i.update(prefix + struct.pack(">I", j))
            o = outer.copy()
            o.update(i.digest())
            yield from unpack(o.digest())
            j += 1

    @staticmethod
    def _digits(plan, nxt):
        out = []
        for p, limit, ranges in plan:
            x = nxt()
            while x >= limit:                               # spec/formats.md §2.3 rejection
                x = nxt()
            x %= p
            for r in ranges:
                x, d = divmod(x, r)
                out.append(d)
        return out

    def fields(self, p, t):
        """(offered letters, grid1, grid2, grid3) of ticket p with tier t."""
        m = self.m
        nxt = self._stream(p).__next__
        # spec/formats.md §5.B5.3 step 1: offered symbols, partial Fisher-Yates of [0, m).
        e = self._digits(self.offer_plan, nxt)
        a = list(range(m))
        offered = []
        for s in range(3):
            i = m - 1 - s
            a[i], a[e[s]] = a[e[s]], a[i]
            offered.append(a[i])
        # step 2: role grid.
        k, cards, plan = self.plans[t]
        f = self._digits(plan, nxt)
        roles = [None] * CELLS
        cells = list(range(CELLS))
        for s in range(k):
            i = CELLS - 1 - s
            cells[i], cells[f[s]] = cells[f[s]], cells[i]
            roles[cells[i]] = 0
        deck = list(cards)
        dl = len(deck)
        empty = [c for c in range(CELLS) if roles[c] is None]
        for s in range(CELLS - k):
            i = dl - 1 - s
            d = f[k + s]
            deck[i], deck[d] = deck[d], deck[i]
            roles[empty[s]] = deck[i]
        # spec/formats.md §5.B5.4 grids.
        key = tuple(offered)
        cached = self._roles.get(key)
        if cached is None:
            o0, o1, o2 = offered
            rest = [x for x in range(m) if x not in key]
            L = self.letters
            by_role = [L[o0], L[o1], L[o2]] + [L[x] for x in rest]
            t2 = str.maketrans({L[o0]: L[o1], L[o1]: L[o0]})
            t3 = str.maketrans({L[o0]: L[o2], L[o1]: L[o0], L[o2]: L[o1]})
            cached = self._roles[key] = ("".join(L[x] for x in key), by_role, t2, t3)
        off, by_role, t2, t3 = cached
        g1 = "".join([by_role[r] for r in roles])
        return off, g1, g1.translate(t2), g1.translate(t3)

    def row(self, p, t):
        off, g1, g2, g3 = self.fields(p, t)
        return f"{p},{t},{self.prizes[t]},{off},{g1},{g2},{g3}"

    def rows(self, tiers):
        """The rows of positions 0 .. len(tiers)-1 (no LF). Same result as `row` for each position,
        with the common case (no rejection, one HMAC block of 4 u64s) inlined; any other case goes
        through `fields`."""
        m = self.m
        L = self.letters
        # The offered symbols depend only on uniform(P0) (one batch): tabulate them for each value.
        (p0, lim0, _), = self.offer_plan
        offers = []
        for x in range(p0):
            a = list(range(m))
            off = []
            for r in (m, m - 1, m - 2):
                x, d = divmod(x, r)
                off.append(a[d])
                a[d] = a[r - 1]
            o0, o1, o2 = off
            rest = [s for s in range(m) if s not in off]
            by_role = [L[o0], L[o1], L[o2]] + [L[s] for s in rest]
            decks = {f: [by_role[c] for c in range(f, m) for _ in range(3)] for f in (0, 1)}
            offers.append(("".join(L[s] for s in off), by_role[0], decks,
                           str.maketrans({L[o0]: L[o1], L[o1]: L[o0]}),
                           str.maketrans({L[o0]: L[o2], L[o1]: L[o0], L[o2]: L[o1]})))
        # Per tier: (k, cards, two batches), the fast path needs exactly 1 + 2 or 1 + 3 u64s.
        fast = {}
        for t, (k, cards, plan) in self.plans.items():
            if len(plan) <= 3:
                fast[t] = (k, 0 if t == 0 else 1, plan, f",{t},{self.prizes[t]},",
                           min([lim0] + [lim for _, lim, _ in plan]))
        inner, outer = self.inner, self.outer
        pack = struct.Struct(">II").pack
        unpack = struct.Struct(">4Q").unpack
        prefix = b"urne/v1/block-grid\x00"
        out = []
        append = out.append
        for p, t in enumerate(tiers):
            i = inner.copy()
            i.update(prefix + pack(p, 0))
            o = outer.copy()
            o.update(i.digest())
            u = unpack(o.digest())
            ft = fast.get(t)
            # Fast path only if no u64 can be in a rejection zone (the smallest limit of the
            # ticket's batches); otherwise the reference path `row` does it exactly.
            if ft is None or max(u) >= ft[4]:
                append(self.row(p, t))
                continue
            k, first, plan, mid, _ = ft
            off, chosen, decks, t2, t3 = offers[u[0] % p0]
            deck = decks[first][:]
            if k == 0:
                # Losing: the s-th selected card goes to cell s.
                g = []
                for n, (pp, _, ranges) in enumerate(plan, 1):
                    x = u[n] % pp
                    for r in ranges:
                        d = x % r
                        x //= r
                        g.append(deck[d])
                        deck[d] = deck[r - 1]
            else:
                f = []
                for n, (pp, _, ranges) in enumerate(plan, 1):
                    x = u[n] % pp
                    for r in ranges:
                        f.append(x % r)
                        x //= r
                g = [None] * CELLS
                cells = list(range(CELLS))
                for s in range(k):
                    d = f[s]
                    g[cells[d]] = chosen
                    cells[d] = cells[CELLS - 1 - s]
                r = len(deck)
                s = k
                for c in range(CELLS):
                    if g[c] is None:
                        d = f[s]
                        g[c] = deck[d]
                        deck[d] = deck[r - 1]
                        r -= 1
                        s += 1
            g1 = "".join(g)
            append(f"{p}{mid}{off},{g1},{g1.translate(t2)},{g1.translate(t3)}")
        return out


def recompute_tickets(rules, price, seed):
    """spec/formats.md §5.B4-§5.B6: (tiers bytearray, tickets.csv bytes)."""
    tiers = shuffle(seed, rules)
    prizes = {t: pz for t, _, pz in tier_table(rules, price)}
    tm = TicketMaker(grid_key(seed), len(rules["symbols"]), prizes)
    lines = [HEADER.decode()] + tm.rows(tiers) + [""]
    return tiers, "\n".join(lines).encode("ascii")


# ---------------------------------------------------------------------------------------------
# spec/formats.md §5.B7 commitments: RFC 6962 root over the rows (level by level, odd node moves up).

def root_of_leaf_hashes(hashes):
    level = hashes
    if not level:
        return hashlib.sha256(b"").digest()
    sha = hashlib.sha256
    while len(level) > 1:
        nxt = [sha(b"\x01" + level[i] + level[i + 1]).digest() for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    return level[0]


def leaf_hashes(rows):
    sha = hashlib.sha256
    return [sha(b"\x00" + r).digest() for r in rows]


# ---------------------------------------------------------------------------------------------
# spec/formats.md §5.B8 steps 1-6: the production file against the commitment.

def _row_checker(m, prizes):
    """Returns check(row bytes, index) -> tier, raising ValueError with the reason."""
    top = chr(64 + m)
    cls = f"[A-{top}]"
    row_re = re.compile((r"\A(0|[1-9][0-9]*),(0|[1-9][0-9]*),(0|[1-9][0-9]*),(%s{3}),(%s{18}),(%s{18}),(%s{18})\Z"
                         % (cls, cls, cls, cls)).encode())
    prize_of = {str(t).encode(): (t, str(pz).encode()) for t, pz in prizes.items()}
    letters = "".join(chr(65 + i) for i in range(m))
    tables = {}

    def offered(off):
        e = tables.get(off)
        if e is None:
            o0, o1, o2 = off.decode()
            if len({o0, o1, o2}) != 3:
                raise ValueError("the offered symbols are not distinct (§5.B5.5)")
            t2 = bytes.maketrans((o0 + o1).encode(), (o1 + o0).encode())
            t3 = bytes.maketrans((o0 + o1 + o2).encode(), (o2 + o0 + o1).encode())
            others = [ord(c) for c in letters if c != o0]
            e = tables[off] = (ord(o0), t2, t3, others)
        return e

    def check(row, idx):
        mt = row_re.match(row)
        if mt is None:
            raise ValueError("not 7 fields in canonical form (§5.B6)")
        pos, tier, prize, off, g1, g2, g3 = mt.groups()
        if int(pos) != idx:
            raise ValueError(f"position {pos.decode()} on the line of position {idx}")
        tp = prize_of.get(tier)
        if tp is None:
            raise ValueError(f"tier {tier.decode()} is not 0 or 4..10")
        t, want_prize = tp
        if prize != want_prize:
            raise ValueError(f"prize {prize.decode()} is not the G-3 amount {want_prize.decode()} of tier {t}")
        c0, t2, t3, others = offered(off)
        if g2 != g1.translate(t2) or g3 != g1.translate(t3):
            raise ValueError("the three grids are not one role grid read under the three choices (§5.B5.5)")
        n0 = g1.count(c0)
        if (n0 != t) if t else (n0 > 3):
            raise ValueError(f"the chosen symbol appears {n0} times in a tier-{t} grid (§5.B5.5)")
        if max(map(g1.count, others)) > 3:
            raise ValueError("a symbol other than the chosen one appears more than 3 times (§5.B5.5)")
        return t

    return check


def check_tickets_file(data, rules, price, what):
    """spec/formats.md §5.B8 steps 1-5 on tickets.csv bytes; returns (list of row bytes, per-tier counts).
    Failures: commitment-mismatch."""
    def bad(msg):
        raise Failure("commitment-mismatch", f"{what}: {msg}")

    lines = data.split(b"\n")
    if lines[0] != HEADER:
        bad("the header line is not exactly " + HEADER.decode() + " (§5.B6)")
    if len(lines) < 2 or lines[-1] != b"":
        bad("the last line does not end with LF (§5.B6)")
    rows = lines[1:-1]
    table = tier_table(rules, price)
    check = _row_checker(len(rules["symbols"]), {t: pz for t, _, pz in table})
    counts = dict.fromkeys([t for t, _, _ in table], 0)
    try:
        for idx, row in enumerate(rows):
            counts[check(row, idx)] += 1
    except ValueError as e:
        bad(f"line {idx + 2} (position {idx}): {e}")
    if len(rows) != rules["block_size"]:
        bad(f"{len(rows)} rows, block_size is {rules['block_size']} (G-1)")
    for t, units, _ in table:
        if counts[t] != units:
            bad(f"{counts[t]} tickets of tier {t}, G-3 says {units}")
    return rows


# ---------------------------------------------------------------------------------------------
# spec/formats.md §5.B9 files, spec/formats.md §5.B10 verification of a block folder.


SOFTWARE = J.fields({"name": J.string, "version": J.string, "source_revision": J.string, "executable_sha256": h32})
COMMIT = {
    "format": J.const("urne-block-commitment"), "version": lambda v, w: J.uint(v, w, 1, 2), "block": J.string, "game": J.string,
    "price_cents": J.uint, "emission": J.string, "number": lambda v, w: J.uint(v, w, 0, 2**32 - 1),
    "attempt": lambda v, w: J.uint(v, w, 1, 2**32 - 1), "rules_sha256": h32, "block_size": J.u32,
    "tiers": J.listof(J.fields({"tier": lambda v, w: J.uint(v, w, 0, 255), "units": J.u32,
                                "prize_cents": J.uint})),
    "outcomes_root": h32, "seed_commitment": h32, "tickets_file": J.string, "tickets_sha256": h32,
    "generated_at": J.string, "audit_checkpoint": J.string, "result_key_id": J.keyid,
    "audit_key_id": J.keyid, "software": SOFTWARE,
}
# Version 2 (spec/formats.md §3.3, spec/appliance.md §5.B3): after seed_commitment, the entropy commitment, the contribution, the
# refused entropy requests and the evidence of the order in which the randomness became fixed.
COMMIT_V2 = {}
for _k, _c in COMMIT.items():
    COMMIT_V2[_k] = _c
    if _k == "seed_commitment":
        COMMIT_V2.update(entropy_commitment=h32, contribution=vdraw.contribution, entropy_refused=vdraw.REFUSED,
                         fixed=vdraw.FIXED)
    if _k == "software":
        COMMIT_V2["pkcs11"] = vdraw.PKCS11
ENTROPY_EVENT = {"block": J.string, "attempt": J.uint, "rules_sha256": h32, "entropy_commitment": h32,
                 "entropy_blob": h32}
CONTRIBUTION_EVENT = {"blocks": J.listof(J.fields({"block": J.string, "attempt": J.uint, "entropy_commitment": h32})),
                      "contribution": J.string}


def parse_commit(doc, what):
    """The commitment parsed (spec/formats.md §5.B9), its optional member `unofficial_rules` (spec/formats.md §7.4) kept."""
    return vdraw._with_member(doc, what, COMMIT if isinstance(doc, dict) and doc.get("version") == 1 else COMMIT_V2)


def verify_fixed(c, size, root, what):
    """spec/formats.md §5.B10 step 2 (version 2): the block.entropy event of this block and attempt, then a
    block.contribution event naming it, both in the tree of the commitment's checkpoint.
    Failures: inconsistent."""
    f = c["fixed"]
    why = check_fixed_order(f, size, root, ("block.entropy", "block.contribution"))
    if why:
        raise Failure("inconsistent", f"{what}: randomness order: {why}")
    vdraw.check_refused(c["entropy_refused"], f["entropy"]["seq"], f"{what}: entropy_refused")
    e = J.payload(f["entropy"]["payload"], f"{what} fixed.entropy.payload", ENTROPY_EVENT)
    r = J.payload(f["contribution"]["payload"], f"{what} fixed.contribution.payload", CONTRIBUTION_EVENT)
    ec = c["entropy_commitment"]
    if (e["block"], e["attempt"], e["rules_sha256"], e["entropy_commitment"]) != (
            c["block"], c["attempt"], c["rules_sha256"], ec):
        raise Failure("inconsistent", f"{what}: randomness order: the entropy event is not this block's")
    named = any((x["block"], x["attempt"], x["entropy_commitment"]) == (c["block"], c["attempt"], ec)
                for x in r["blocks"])
    if not named or r["contribution"] != c["contribution"]:
        raise Failure("inconsistent", f"{what}: randomness order: the contribution event does not name this "
                                      "block's entropy, or not this contribution")


REVEAL = {
    "format": J.const("urne-block-reveal"), "version": lambda v, w: J.uint(v, w, 1, 2), "block": J.string, "rules_sha256": h32,
    "entropy": J.hexbytes, "seed": h32, "seed_commitment": h32, "outcomes_root": h32,
    "revealed_at": J.string, "audit_checkpoint": J.string, "result_key_id": J.keyid,
}
# Version 2 (spec/formats.md §5.B9): before revealed_at, when the block's sales closed.
REVEAL_V2 = {}
for _k, _c in REVEAL.items():
    if _k == "revealed_at":
        REVEAL_V2["sales_closed_at"] = J.string
    REVEAL_V2[_k] = _c


def check_sales_close(name, r, c):
    """spec/formats.md §5.B10 step 4 (version 2): sales_closed_at, revealed_at and the commitment's generated_at
    are date-times in urne's one format [M-219]; the sales closed neither after the reveal nor
    before the generation [M-220]. Failures: inconsistent."""
    if "sales_closed_at" not in r:          # version 1: its revealed_at in the one format too [M-320]
        vdraw.one_time_format(f"{name}: revealed_at", r["revealed_at"])
        return
    closed = r["sales_closed_at"]
    for what, ts in (("sales_closed_at", closed), ("revealed_at", r["revealed_at"]),
                     ("the commitment's generated_at", c["generated_at"])):
        if not is_one_time_format(ts):
            raise Failure("inconsistent", f"{name}: {what} {ts!r} is not a date-time in RFC 3339 UTC with "
                                          "microseconds (§6.1)")
    if closed > r["revealed_at"]:
        raise Failure("inconsistent", f"{name}: the sales closed ({closed}) after the block was revealed "
                                      f"({r['revealed_at']})")
    if closed < c["generated_at"]:
        raise Failure("inconsistent", f"{name}: the sales closed ({closed}) before the block was generated "
                                      f"({c['generated_at']})")


TICKET_PROOF = {
    "format": J.const("urne-ticket-proof"), "version": J.const(1), "block": J.string, "position": J.u32,
    "row": J.string, "block_size": J.u32, "outcomes_root": h32, "path": J.listof(h32),
    "result_key_id": J.keyid,
}
SUFFIXES = (".commit.json", ".tickets.csv", ".reveal.json")


def is_block_folder(folder):
    """A folder with a block commitment (spec/formats.md §5.B10); a folder of production files alone (the secret
    medium) is not an output. Orphan files beside a commitment are refused in step 1."""
    return any(n.endswith(".commit.json") for n in listdir(folder))


def _present(folder, name):
    return os.path.lexists(os.path.join(folder, name))     # a link counts: reading it refuses it


def verify_blocks(folder, result_pub, audit_pub, outputs=None, about=None):
    """spec/formats.md §5.B10 steps 1-4, in order, for every block of the folder; a block folder MUST have
    rules.json (malformed otherwise, step 1: a lone commitment is a file, `urne verify
    S.commit.json`, spec/formats.md §8.5). Returns report lines (`partial: ` lines for what could not be
    checked); raises Failure on the first failure."""
    p = lambda name: os.path.join(folder, name)
    names = listdir(folder)
    stems = sorted(n[:-len(".commit.json")] for n in names if n.endswith(".commit.json"))
    for n in names:
        for suf in SUFFIXES[1:] + (".manifest.json",):
            if n.endswith(suf) and n[:-len(suf)] not in stems:
                raise Failure("inconsistent", f"{n} has no {n[:-len(suf)]}.commit.json beside it")
    if not _present(folder, "rules.json"):
        raise Failure("malformed", f"{folder}: no rules.json (a block folder has its rules file, §5.B10 step 1)")
    report = []
    # Step 1: every signed file, before parsing any of them (each block's manifest is checked
    # with its commitment, step 2).
    rules_bytes = read_signed(p("rules.json"), result_pub, "rules")
    raw = {}
    for s in stems:
        for suf in SUFFIXES:
            if _present(folder, s + suf):
                raw[s + suf] = read_signed(p(s + suf), result_pub)
    report.append(f"ok  signatures of rules.json and {len(raw)} block files")
    rules_sha = hashlib.sha256(rules_bytes).digest()
    parsed = []

    def rules():
        """The rules file, parsed once a commitment has named its bytes (so that a rules file of
        another kind is reported as not the commitment's, not as a bad game rules file)."""
        if not parsed:
            parsed.append(parse_rules(rules_bytes))
        return parsed[0]
    for s in stems:
        report += _verify_block(s, raw, rules, rules_bytes, result_pub, audit_pub, folder, outputs, about)
    return report


def _commitment(s, raw):
    """spec/formats.md §5.B10 step 2, the commitment alone: parse [malformed], its block id canonical [malformed]
    and agreeing with its file name and fields [inconsistent]. Returns (c, history, game, price)."""
    name = s + ".commit.json"
    c, c_history = vhistory.take(J.loads(raw[name], name), name)
    c = parse_commit(c, name)
    bid = c["block"]
    game, price, emission, number = parse_block_id(bid, f"{name} block")
    if file_stem(bid) != s:
        raise Failure("inconsistent", f"{name} names block {bid}, not its file name")
    if (c["game"], c["price_cents"], c["emission"], c["number"]) != (game, price, emission, number):
        raise Failure("inconsistent", f"{name}: game, price_cents, emission or number differ from block {bid}")
    if c["tickets_file"] != s + ".tickets.csv":
        raise Failure("inconsistent", f"{name}: tickets_file is not {s}.tickets.csv")
    c["unofficial"] = vofficial.check(name, c["game"], c["rules_sha256"], c["version"], c.get(vofficial.MEMBER))
    return c, c_history, game, price


def _commitment_audit(s, c, c_history, raw, result_pub, audit_pub, folder, outputs):
    """spec/formats.md §5.B10 step 2, the trail: the key ids are the keys' [inconsistent]; the checkpoint verifies under the audit key [bad-signature]; in
    version 2 the order evidence holds (spec/formats.md §3.3) [inconsistent] and the history leads to the
    checkpoint [fork]. Returns report lines."""
    name = s + ".commit.json"
    report = []
    if c["result_key_id"] != key_id(result_pub) or c["audit_key_id"] != key_id(audit_pub):
        raise Failure("inconsistent", f"{name}: result_key_id or audit_key_id is not the id of the key given")
    size, cp_root = verify_checkpoint(c["audit_checkpoint"], audit_pub, f"{name} audit_checkpoint")
    vdraw.one_time_format(f"{name}: generated_at", c["generated_at"])
    if c["version"] == 2:
        verify_fixed(c, size, cp_root, name)
        report.append(f"ok  {c['block']}: randomness order: the entropy commitment was recorded before the contribution")
    subject = f"the commitment of block {c['block']} attempt {c['attempt']}"
    vhistory.publish(outputs, subject, size, cp_root, os.path.join(folder, name))
    if c_history is not None:
        o = vhistory.output(os.path.join(folder, name), raw[name], c_history, size, cp_root, subject)
        if outputs is not None:
            outputs.append(o)
    return report


def _block_manifest(folder, s, c, raw, rules_bytes, result_pub, lone=False):
    """spec/formats.md §5.B10 step 2 (issue 12 contract): a version-2 commitment has S.manifest.json beside it,
    naming its game, block and attempt and listing S.commit.json, rules.json and S.tickets.csv,
    whose SHA-256 is the commitment's tickets_sha256 (missing: malformed; for a lone commitment
    only partial); version 1 has none (one present: malformed). Returns report lines."""
    name = vmanifest.block_name(s)
    has = _present(folder, name)
    if c["version"] == 1:
        if has:
            raise Failure("malformed", f"{name} beside a version-1 commitment (version 1 has no manifest)")
        return []
    if not has:
        if lone:
            return ["partial: no manifest"]                    # [M-211]
        raise Failure("malformed", f"{folder}: no {name} (a version-2 block commitment has one beside it)")
    subject = {"operation": c["game"], "day": None, "block": c["block"], "attempt": c["attempt"],
               "result_key_id": c["result_key_id"]}
    files = {n: raw[n] for n in (s + ".commit.json", s + ".tickets.csv") if n in raw}
    if rules_bytes is not None:
        files["rules.json"] = rules_bytes
    return vmanifest.check(folder, name, result_pub, subject, vmanifest.block_files(s), files,
                           bound={s + ".tickets.csv": c["tickets_sha256"]})


def _subject(c):
    return {"kind": "block", "block": c["block"], "attempt": c["attempt"], "version": c["version"],
            "unofficial": c["unofficial"], "software": c["software"]}


def verify_lone_commit(folder, s, result_pub, audit_pub, outputs=None, about=None):
    """A lone S.commit.json (`urne verify S.commit.json`, spec/formats.md §8.5): its signature, parse, key ids,
    checkpoint, order evidence and history, and its
    manifest if there is one (issue 12 contract); then `partial: ` lines for the rules and the
    production file, and for the block's other files (only their signatures are checked)."""
    name = s + ".commit.json"
    raw = {name: read_signed(os.path.join(folder, name), result_pub)}
    others = [n for n in ("rules.json", s + ".tickets.csv", s + ".reveal.json") if _present(folder, n)]
    for n in others:                     # beside it: signed, then as the manifest lists (if any)
        raw[n] = read_signed(os.path.join(folder, n), result_pub)
    report = [f"ok  {n} signature" for n in raw]
    c, c_history, _, _ = _commitment(s, raw)
    report += _commitment_audit(s, c, c_history, raw, result_pub, audit_pub, folder, outputs)
    report += _block_manifest(folder, s, c, raw, raw.get("rules.json"), result_pub, lone=True)
    why = "verified alone" if "rules.json" in raw else "no rules.json beside it"
    report.append(f"partial: the rules and the production file were not checked ({name} alone)")   # [M-211]
    report += [f"partial: {n} was not checked against the commitment ({why})" for n in others if n != "rules.json"]
    if about is not None:
        about.append(_subject(c))
    return report


def _verify_block(s, raw, get_rules, rules_bytes, result_pub, audit_pub, folder=".", outputs=None, about=None):
    # Step 2: the commitment; rules_sha256 before the rules file is parsed.
    c, c_history, game, price = _commitment(s, raw)
    bid = c["block"]
    rules_sha = hashlib.sha256(rules_bytes).digest()
    if c["rules_sha256"] != rules_sha:
        raise Failure("inconsistent", f"{s}.commit.json: rules_sha256 is not the SHA-256 of rules.json")
    rules = get_rules()
    if game != rules["game"] or price not in rules["price_points_cents"]:
        raise Failure("inconsistent", f"block {bid}: not the rules' game or not one of its price points (§5.B2)")
    want = [{"tier": t, "units": u, "prize_cents": pz} for t, u, pz in tier_table(rules, price)]
    if c["tiers"] != want or c["block_size"] != rules["block_size"]:
        raise Failure("commitment-mismatch", f"block {bid}: tiers or block_size are not the rules' G-3 counts and prizes")
    report = _commitment_audit(s, c, c_history, raw, result_pub, audit_pub, folder, outputs)
    report += _block_manifest(folder, s, c, raw, rules_bytes, result_pub)
    report.append(f"ok  {bid}: commitment (attempt {c['attempt']}) agrees with rules.json")

    # Step 3: the production file.
    tickets = raw.get(s + ".tickets.csv")
    if tickets is not None:
        if hashlib.sha256(tickets).digest() != c["tickets_sha256"]:
            raise Failure("commitment-mismatch", f"the SHA-256 of {s}.tickets.csv is not tickets_sha256")
        rows = check_tickets_file(tickets, rules, price, f"{s}.tickets.csv")
        if root_of_leaf_hashes(leaf_hashes(rows)) != c["outcomes_root"]:
            raise Failure("commitment-mismatch", f"{s}.tickets.csv: the root of its rows is not outcomes_root")
        del rows
        report.append(f"ok  {bid}: tickets.csv ({rules['block_size']} tickets) is the committed one")

    # Step 4: the reveal.
    rv = raw.get(s + ".reveal.json")
    if rv is not None:
        r, r_history = vhistory.take(J.loads(rv, s + ".reveal.json"), s + ".reveal.json")
        r = vdraw._with_member(r, s + ".reveal.json", REVEAL if r.get("version") == 1 else REVEAL_V2)
        # spec/formats.md §5.B10 step 4, in SPEC's order.
        if r["version"] != c["version"]:
            raise Failure("inconsistent", f"{s}.reveal.json: version {r['version']} is not its commitment's "
                                          f"({c['version']}, §7.2)")
        if (r["block"] != bid or r["rules_sha256"] != c["rules_sha256"]
                or r.get(vofficial.MEMBER) != c.get(vofficial.MEMBER)):
            raise Failure("inconsistent", f"{s}.reveal.json: block, rules_sha256 or unofficial_rules is not the "
                                          "commitment's")
        if r["seed_commitment"] != c["seed_commitment"] or r["outcomes_root"] != c["outcomes_root"]:
            raise Failure("inconsistent", f"{s}.reveal.json: seed_commitment or outcomes_root is not the commitment's")
        if r["result_key_id"] != key_id(result_pub):
            raise Failure("inconsistent", f"{s}.reveal.json: result_key_id is not the id of the result key given")
        check_sales_close(f"{s}.reveal.json", r, c)
        if len(r["entropy"]) < 32:
            raise Failure("inconsistent", f"{s}.reveal.json: entropy is {len(r['entropy'])} bytes, fewer than 32 (§5.B3)")
        if c["version"] == 2 and entropy_commitment(r["entropy"]) != c["entropy_commitment"]:
            raise Failure("draw-mismatch", f"{s}.reveal.json: the revealed entropy is not the one the commitment's "
                                           "entropy_commitment names (§3.2)")
        size, cp_root = verify_checkpoint(r["audit_checkpoint"], audit_pub, f"{s}.reveal.json audit_checkpoint")
        subject = f"the reveal of block {bid} seed commitment {c['seed_commitment'].hex()}"
        vhistory.publish(outputs, subject, size, cp_root, os.path.join(folder, s + ".reveal.json"))
        if r_history is not None:
            o = vhistory.output(os.path.join(folder, s + ".reveal.json"), rv, r_history, size, cp_root, subject)
            if outputs is not None:
                outputs.append(o)
        seed = block_seed(bid, rules_sha, r["entropy"], c.get("contribution"))
        if seed_commitment(seed) != c["seed_commitment"]:
            raise Failure("draw-mismatch", f"block {bid}: the seed from the revealed entropy does not match seed_commitment")
        _, csv = recompute_tickets(rules, price, seed)
        same = hashlib.sha256(csv).digest() == c["tickets_sha256"]
        if not (same and tickets is not None):      # identical bytes to a checked file: same root
            rows = csv.split(b"\n")[1:-1]
            if root_of_leaf_hashes(leaf_hashes(rows)) != c["outcomes_root"]:
                raise Failure("draw-mismatch", f"block {bid}: the recomputed outcomes root is not the committed one")
        if not same:
            raise Failure("draw-mismatch", f"block {bid}: the recomputed tickets.csv is not the committed one (SHA-256)")
        if r["seed"] != seed:
            raise Failure("inconsistent", f"{s}.reveal.json: seed is not the one derived from entropy")
        report.append(f"ok  {bid}: revealed; the shuffle, the grids and tickets.csv recomputed byte for byte")
    if about is not None:
        about.append(_subject(c))
    return report


def verify_ticket_proof(path, result_pub, published=None, about=None):
    """spec/formats.md §5.B9 ticket proofs, in the order of the verification clause there."""
    name = os.path.basename(path)
    signed = os.path.lexists(path + ".sig")
    if signed:
        raw = read_signed(path, result_pub, "json")
        report = [f"ok  {name} signature"]
    else:                             # spec/formats.md §8.3 [M-400]: unsigned, the published commitment vouches
        if not published:
            raise Usage(vdraw.unsigned_needs_published(path), vdraw.PUBLISHED_HINT)
        raw = read_bounded(path, "json")
        report = ["ok  the proof carries no signature: what it shows holds against the published output, which "
                  "is signed"]
    pr = J.obj(J.loads(raw, name), name, TICKET_PROOF)
    parse_block_id(pr["block"], f"{name} block")
    if pr["result_key_id"] != key_id(result_pub):
        raise Failure("inconsistent", f"{name}: result_key_id is not the id of the result key given")
    if published:
        s = file_stem(pr["block"])
        cpath = os.path.join(published, s + ".commit.json")
        if not _present(published, s + ".commit.json"):
            raise Failure("commitment-mismatch", f"{published} has no commitment of block {pr['block']}")
        c = parse_commit(vhistory.take(J.loads(read_signed(cpath, result_pub), s + ".commit.json"),
                                       s + ".commit.json")[0], s + ".commit.json")
        if (c["block"], c["outcomes_root"], c["block_size"]) != (pr["block"], pr["outcomes_root"], pr["block_size"]):
            raise Failure("commitment-mismatch", f"{name}: outcomes_root or block_size is not the published commitment's")
        report.append("ok  the outcomes root is the published one")
        vdraw.rehearsal_published(c, s + ".commit.json")                       # [M-386]
    row = pr["row"]
    if not row.startswith(f"{pr['position']},"):
        raise Failure("malformed", f"{name}: the row does not begin with its position")
    if not verify_inclusion(pr["position"], pr["block_size"], row.encode("utf-8"), pr["path"], pr["outcomes_root"]):
        raise Failure("commitment-mismatch", f"{name}: the audit path does not lead to outcomes_root")
    report.append(f"ok  ticket {pr['position']} of {pr['block']} is in the tree of {pr['block_size']} tickets: {row}")
    if about is not None:
        about.append({"kind": "ticket-proof", "block": pr["block"], "position": pr["position"]})
    return report
