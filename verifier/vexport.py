"""Production's signed daily export (spec/formats.md §4.1 and §4.1.1, format entry-export-v1) and the
tally from plays to entries (D-3 ... D-6, D-13). Streams the file line by line."""
import datetime
import io
import hashlib
import os
import re
import stat
from zoneinfo import ZoneInfo

import vjson
from vcore import Failure, ed25519_verify_strict_chunks, key_id, read_bounded

ID_RE = re.compile(r"\A[A-Za-z0-9._:-]{1,64}\Z")
ACCOUNT_RE = re.compile(r"\A[0-9a-f]{64}\Z")
# spec/formats.md §4.1.2's date-time: "T"/"t", "Z"/"z" or ±HH:MM, any number of fraction digits (dropped).
RFC3339_RE = re.compile(r"\A(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(?:\.\d+)?(?:([Zz])|([+-])(\d\d):(\d\d))\Z")
CHANNELS_ALL = ("web", "mobile", "tablet", "app", "retail")

# The export's limits (SPEC file limits, spec/formats.md §4.1.1), each a rule of the format: the file, every line
# without its LF wherever it lies, the nesting of a line's JSON (its top-level object is level 1).
MAX_EXPORT_BYTES = 1 << 34
MAX_LINE = 1 << 20
MAX_DEPTH = 64
# A JSON string, or one bracket: what the nesting of a line is counted on (strings skipped whole).
_NESTING_TOKENS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.S)


def _nesting(body):
    """The deepest nesting of objects and arrays in one line's bytes (strings do not count)."""
    depth = deepest = 0
    for m in _NESTING_TOKENS.finditer(body):
        c = m.group()
        if c in (b"{", b"["):
            depth += 1
            deepest = max(deepest, depth)
        elif c in (b"}", b"]"):
            depth -= 1
    return deepest


def _line(raw, where):
    """One line (its LF included) checked against the line and nesting limits, then parsed."""
    body = raw[:-1]
    if len(body) > MAX_LINE:
        raise Failure("malformed", f"{where}: longer than {MAX_LINE} bytes (its LF not counted)")
    # Nesting can only exceed the limit if the line has more brackets than the limit.
    if body.count(b"{") + body.count(b"[") > MAX_DEPTH and _nesting(body) > MAX_DEPTH:
        raise Failure("malformed", f"{where}: JSON nested deeper than {MAX_DEPTH} levels")
    try:
        value = vjson.loads(body, where, negative_zero=True)
    except RecursionError:
        raise Failure("malformed", f"{where}: JSON nested too deep")
    # spec/formats.md §4.1.2: a \u escape of a lone surrogate is refused (Python's json decodes it into a lone
    # surrogate code point; an escaped pair becomes one character, so any surrogate left is lone).
    if _SURROGATE_ESCAPE.search(body) and _has_surrogate(value):
        raise Failure("malformed", f"{where}: a \\u escape of a lone surrogate (§4.1.2)")
    return value


_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def _has_surrogate(v):
    if isinstance(v, str):
        return any("\ud800" <= c <= "\udfff" for c in v)
    if isinstance(v, dict):
        return any(_has_surrogate(k) or _has_surrogate(x) for k, x in v.items())
    if isinstance(v, list):
        return any(_has_surrogate(x) for x in v)
    return False


def _days_from_civil(y, m, d):
    """Days from 1970-01-01 to the proleptic Gregorian date y-m-d (any year 0000-9999)."""
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _instant(v, what):
    """spec/formats.md §4.1.2: a date-time, as whole Unix seconds (the fraction dropped, toward the past)."""
    m = RFC3339_RE.match(v) if isinstance(v, str) else None
    if not m:
        raise Failure("malformed", f"{what}: not an RFC 3339 instant")
    y, mo, d, hh, mi, ss = (int(m.group(k)) for k in range(1, 7))
    leap = y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)
    days_in = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    if not (1 <= mo <= 12 and 1 <= d <= days_in[mo - 1] and hh <= 23 and mi <= 59 and ss <= 59):
        raise Failure("malformed", f"{what}: not a valid date and time")
    offset = 0
    if m.group(8):
        oh, om = int(m.group(9)), int(m.group(10))
        if oh > 23 or om > 59:
            raise Failure("malformed", f"{what}: not a valid offset")
        offset = (oh * 3600 + om * 60) * (1 if m.group(8) == "+" else -1)
    return _days_from_civil(y, mo, d) * 86400 + hh * 3600 + mi * 60 + ss - offset


def _local_bound(text_or_date, tz):
    """A local wall-clock time in the rules' time zone, as whole Unix seconds."""
    if isinstance(text_or_date, datetime.date) and not isinstance(text_or_date, datetime.datetime):
        text_or_date = datetime.datetime.combine(text_or_date, datetime.time())
    elif isinstance(text_or_date, str):
        text_or_date = datetime.datetime.fromisoformat(text_or_date)
    return int(text_or_date.replace(tzinfo=tz).timestamp())


class Tally:
    """The figures of spec/formats.md §4.7 and the canonical entry list of spec/formats.md §4.1."""

    def __init__(self):
        self.plays = self.counting_plays = self.retail_plays = self.subscription_plays_refused = 0
        self.exclusion_records = {"closed": 0, "minor": 0, "fraud": 0}
        self.counting_cents = {}   # account hex -> cents over counting plays
        self.played = set()        # accounts with at least one play (any channel)
        self.excluded = {}         # account hex -> reason


class ExportFile:
    """An export opened for streaming: never held in memory (it may be 16 GiB). `len()` is its
    size; `chunks()` reads it from its start, once per pass, and the second pass must give the
    bytes of the first (`sha256`): a file changed while it is read is refused."""
    CHUNK = 1 << 20

    def __init__(self, path):
        self.path = path
        self.fd = None
        self.size = 0
        self.sha256 = None

    def open(self):
        """Opened without blocking (O_NONBLOCK: a FIFO swapped in, a device or a FUSE file that
        would block is an error, never a hang), then judged again on the descriptor."""
        self.fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        st = os.fstat(self.fd)
        if not stat.S_ISREG(st.st_mode):
            raise Failure("malformed", f"the export {self.path} is not a regular file")
        if st.st_size > MAX_EXPORT_BYTES:
            raise Failure("malformed", f"the export {self.path} holds more than {MAX_EXPORT_BYTES} bytes")
        return self

    def chunks(self):
        """The bytes from the start, in chunks of at most CHUNK, never past the limit."""
        os.lseek(self.fd, 0, os.SEEK_SET)
        n = 0
        while True:
            b = os.read(self.fd, self.CHUNK)       # EAGAIN (BlockingIOError): an unreadable path
            if not b:
                return
            n += len(b)
            if n > MAX_EXPORT_BYTES:
                raise Failure("malformed", f"the export {self.path} holds more than {MAX_EXPORT_BYTES} bytes")
            yield b

    def __len__(self):
        return self.size

    def close(self):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __del__(self):
        self.close()


def read_export(path, rules, producer_keys):
    """Check the signature before anything is parsed; returns (export, sha256 hex, signer key
    id), `export` an ExportFile (len() its size) that parse_export() then reads, streamed.
    `producer_keys` is a list of raw 32-byte trusted keys. The file's kind and size are decided
    from its metadata first (a FIFO is never opened)."""
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        raise Failure("malformed", f"the export {path} is not a regular file")
    if st.st_size > MAX_EXPORT_BYTES:
        raise Failure("malformed", f"the export {path} holds more than {MAX_EXPORT_BYTES} bytes")
    sig_path = str(path) + ".sig"
    try:
        sig_st = os.lstat(sig_path)                # beside the export: a link is not followed (spec/formats.md §1.6)
    except OSError:
        raise Failure("bad-signature", f"{sig_path} is missing")
    if not stat.S_ISREG(sig_st.st_mode):
        raise Failure("malformed", f"{sig_path} is not a regular file")
    if sig_st.st_size != 64:
        raise Failure("bad-signature", f"{sig_path} holds {sig_st.st_size} bytes, not 64")
    sig = read_bounded(sig_path, "sig")
    export = ExportFile(path).open()
    # spec/formats.md §1.4 / §4.1: signature first, under a trusted producer key; one pass per key, streamed,
    # with the SHA-256 and the size of the bytes read.
    signer = None
    for k in producer_keys:
        digest, size = hashlib.sha256(), [0]

        def counted(chunks):
            for c in chunks:
                digest.update(c)
                size[0] += len(c)
                yield c
        if ed25519_verify_strict_chunks(k, sig, counted(export.chunks())):
            signer = k
            export.sha256, export.size = digest.digest(), size[0]
            break
    if signer is None:
        export.close()
        raise Failure("bad-signature", f"the export {path} is not signed by a trusted producer key")
    return export, export.sha256.hex(), key_id(signer)


def _lines_of(data):
    """The export's lines, each with its LF (a last line without one as it is), from its bytes or
    an ExportFile (streamed: a line is never held past MAX_LINE + 2 bytes; the bytes must be those
    whose signature was checked)."""
    if isinstance(data, (bytes, bytearray)):
        yield from io.BytesIO(data)
        return
    digest, pending = hashlib.sha256(), b""
    try:
        for c in data.chunks():
            digest.update(c)
            pending += c
            start = 0
            while True:
                i = pending.find(b"\n", start)
                if i < 0:
                    break
                yield pending[start:i + 1]
                start = i + 1
            pending = pending[start:]
            if len(pending) > MAX_LINE + 1:     # no LF within a line's limit: refused at once
                yield pending
                return
        if digest.digest() != data.sha256:
            raise Failure("inconsistent", f"the export {data.path} changed while it was verified")
        if pending:
            yield pending
    finally:
        data.close()


def _checked_lines(data):
    """The lines, streamed, each refused before it is parsed if it has no LF (only a last line
    can lack one) or holds a CR (no CR anywhere: not before an LF, not between JSON tokens, not in
    a string). Yields (line number, line)."""
    no = 0
    for no, line in enumerate(_lines_of(data), start=1):
        if not line.endswith(b"\n"):
            if len(line) > MAX_LINE + 1:
                raise Failure("malformed", f"export line {no}: longer than {MAX_LINE} bytes (its LF not counted)")
            raise Failure("malformed", "export: the last line does not end in LF")
        if b"\r" in line:
            raise Failure("malformed", f"export line {no}: CR (no CR anywhere in an export)")
        yield no, line
    if no == 0:
        raise Failure("malformed", "export: no header line")


def parse_export(data, rules, signer_id):
    """The export (its bytes, or the ExportFile read_export gave), streamed line by line, into a
    Tally. Every refusal is malformed."""
    tz = ZoneInfo(rules["time_zone"])
    lines = _checked_lines(data)

    # Header (line 1). Unknown header fields are ignored (entry-export-v1).
    _, first = next(lines)
    h = _line(first, "export line 1")
    if not isinstance(h, dict):
        raise Failure("malformed", "export line 1: not an object")
    for k in ("format", "version", "operation", "day", "producer", "generated_at", "status_as_of", "plays", "exclusions"):
        if k not in h:
            raise Failure("malformed", f"export line 1: missing field {k!r}")
    if h["format"] != "draw-entries" or h["version"] != 1 or not vjson.is_int(h["version"]):
        raise Failure("malformed", "export line 1: not draw-entries version 1")
    if h["operation"] != rules["operation"]:
        raise Failure("malformed", f"export line 1: operation {h['operation']!r} is not the rules' {rules['operation']!r}")
    vjson.day(h["day"], "export line 1: day")
    if h["producer"] != signer_id:
        raise Failure("malformed", "export line 1: producer is not the id of the key that signed it")
    _instant(h["generated_at"], "export line 1: generated_at")
    _instant(h["status_as_of"], "export line 1: status_as_of")
    n_plays = vjson.uint(h["plays"], "export line 1: plays")
    n_excl = vjson.uint(h["exclusions"], "export line 1: exclusions")
    period = next((p for p in rules["periods"] if p["first_day"] <= h["day"] <= p["last_day"]), None)
    if period is None:
        raise Failure("malformed", f"export line 1: {h['day']} is not a day of the operation")

    # The day in the rules' time zone, and the participation period, as instants (D-1, D-5).
    d = datetime.date.fromisoformat(h["day"])
    day_start = _local_bound(d, tz)
    day_end = _local_bound(d + datetime.timedelta(days=1), tz)
    part_start = _local_bound(rules["participation"]["start"], tz)
    part_end = _local_bound(rules["participation"]["end"], tz)
    online = set(rules["online_channels"])

    t = Tally()
    seen_ids = set()
    cents = t.counting_cents
    n_records = 0
    for no, line in lines:
        n_records += 1
        if n_records > n_plays + n_excl:
            raise Failure("malformed", f"export: more records than the header announces ({n_plays + n_excl})")
        where = f"export line {no}"
        r = _line(line, where)
        if not isinstance(r, dict) or "type" not in r:
            raise Failure("malformed", f"{where}: not a record")
        typ = r["type"]
        if typ == "play":
            for k in ("id", "account", "at", "stake_cents", "channel", "game", "subscription"):
                if k not in r:
                    raise Failure("malformed", f"{where}: missing field {k!r}")
            pid, acct, stake, ch, sub = r["id"], r["account"], r["stake_cents"], r["channel"], r["subscription"]
            if not isinstance(pid, str) or not ID_RE.match(pid):
                raise Failure("malformed", f"{where}: bad id")
            if pid in seen_ids:
                raise Failure("malformed", f"{where}: duplicate play id {pid!r}")
            seen_ids.add(pid)
            if not isinstance(acct, str) or not ACCOUNT_RE.match(acct):
                raise Failure("malformed", f"{where}: bad account")
            if not vjson.is_int(stake) or not 1 <= stake <= 100_000_000:
                raise Failure("malformed", f"{where}: bad stake_cents")
            if ch not in CHANNELS_ALL or not isinstance(ch, str):
                raise Failure("malformed", f"{where}: bad channel")
            g = r["game"]
            if not isinstance(g, str) or not 1 <= len(g) <= 64:
                raise Failure("malformed", f"{where}: bad game")
            at = _instant(r["at"], f"{where}: at")
            if not day_start <= at < day_end:
                raise Failure("malformed", f"{where}: at is not on {h['day']} in {rules['time_zone']}")
            sub_ok = True
            if sub is not None:
                if not isinstance(sub, dict) or "subscribed_at" not in sub:
                    raise Failure("malformed", f"{where}: bad subscription")
                sa = _instant(sub["subscribed_at"], f"{where}: subscribed_at")
                sub_ok = part_start <= sa < part_end
            t.plays += 1
            t.played.add(acct)
            if ch not in online:                 # D-3: retail (not an online channel) never counts
                t.retail_plays += 1
            elif not sub_ok:                     # D-5: subscription taken out outside the period
                t.subscription_plays_refused += 1
            else:
                t.counting_plays += 1
                cents[acct] = cents.get(acct, 0) + stake
        elif typ == "exclusion":
            for k in ("account", "reason"):
                if k not in r:
                    raise Failure("malformed", f"{where}: missing field {k!r}")
            acct, reason = r["account"], r["reason"]
            if not isinstance(acct, str) or not ACCOUNT_RE.match(acct):
                raise Failure("malformed", f"{where}: bad account")
            if reason not in rules["exclusion_reasons"] or not isinstance(reason, str):
                raise Failure("malformed", f"{where}: bad reason")
            if acct in t.excluded:
                raise Failure("malformed", f"{where}: duplicate exclusion of {acct}")
            t.excluded[acct] = reason
            t.exclusion_records[reason] += 1
        else:
            raise Failure("malformed", f"{where}: unknown type {typ!r}")
    if n_records != n_plays + n_excl:
        raise Failure("malformed", f"export: {n_records} records, the header announces {n_plays + n_excl}")
    if t.plays != n_plays or len(t.excluded) != n_excl:
        raise Failure("malformed", "export: record counts differ from the header")
    t.period = period
    return h, t


def entries_of(tally, rules):
    """spec/formats.md §4.1: the canonical entry list, [(account bytes, entries)] ascending by account."""
    tranche = tally.period["tranche_cents"]
    cap = rules["daily_cap"]
    out = []
    for acct in sorted(tally.counting_cents):
        if acct in tally.excluded:
            continue
        n = min(cap, tally.counting_cents[acct] // tranche)
        if n >= 1:
            out.append((bytes.fromhex(acct), n))
    return out


def figures_of(tally, rules, entry_list):
    """The `figures` object of spec/formats.md §4.7."""
    excl = {"closed": 0, "minor": 0, "fraud": 0}
    for acct, reason in tally.excluded.items():
        if acct in tally.played:
            excl[reason] += 1
    return {
        "period": tally.period["id"],
        "tranche_cents": tally.period["tranche_cents"],
        "plays": tally.plays,
        "counting_plays": tally.counting_plays,
        "retail_plays": tally.retail_plays,
        "subscription_plays_refused": tally.subscription_plays_refused,
        "accounts_with_counting_plays": len(tally.counting_cents),
        "exclusion_records": dict(tally.exclusion_records),
        "excluded_accounts_with_plays": excl,
        "accounts_with_entries": len(entry_list),
        "entries": sum(n for _, n in entry_list),
    }
