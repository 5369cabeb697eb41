"""Strict JSON reading for signed outputs (spec/formats.md §1.5): after the signature check, reject
duplicate keys, unknown or missing fields, wrong types. Failures raise Failure("malformed")."""
import json
import re

from vcore import Failure

HEX_RE = re.compile(r"\A[0-9a-f]*\Z")
DAY_RE = re.compile(r"\A\d{4}-\d\d-\d\d\Z")


def _pairs(pairs):
    d = dict(pairs)
    if len(d) != len(pairs):
        keys = [k for k, _ in pairs]
        dup = next(k for k in keys if keys.count(k) > 1)
        raise ValueError(f"duplicate key {dup!r}")
    return d


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


class NegZero(int):
    """An integer written `-0`: JSON, but no integer of an output (urne reads it as the float
    -0.0, which no unsigned member takes): `is_int` refuses it."""

    def __repr__(self):
        return "-0"


def _int(text):
    return NegZero(0) if text == "-0" else int(text)


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_no_constant, parse_int=_int)
_DECODER_LAX = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_no_constant)
_WS = " \t\r\n"


def loads(data, what, negative_zero=False):
    """Parse UTF-8 JSON bytes strictly. Whitespace around the value is JSON (RFC 8259 `ws`). An
    integer written `-0` is refused where an integer is expected (see NegZero), unless
    `negative_zero` (an entry export's grammar, spec/formats.md §4.1.2, reads `-0` as 0)."""
    try:
        text = data.decode("utf-8")
        start = len(text) - len(text.lstrip(_WS))
        value, end = (_DECODER_LAX if negative_zero else _DECODER).raw_decode(text, start)
        if text[end:].strip(_WS):
            raise ValueError("trailing data")
        return value
    except (UnicodeDecodeError, ValueError) as e:
        raise Failure("malformed", f"{what}: {e}")
    except RecursionError:      # nesting deeper than Python's parser goes: no output is that deep
        raise Failure("malformed", f"{what}: JSON nested too deep")


# ---- field checkers: each returns the value or raises Failure("malformed") -----------------

def _bad(what, msg):
    raise Failure("malformed", f"{what}: {msg}")


def is_int(v):
    return isinstance(v, int) and not isinstance(v, (bool, NegZero))


def uint(v, what, lo=0, hi=2**64 - 1):
    if not is_int(v) or not lo <= v <= hi:
        _bad(what, f"expected an integer in [{lo}, {hi}], got {v!r}")
    return v


def u32(v, what):
    """An unsigned integer urne reads as 32 bits (attempts, ranks, counts of a block)."""
    return uint(v, what, 0, 2**32 - 1)


def string(v, what):
    if not isinstance(v, str):
        _bad(what, f"expected a string, got {v!r}")
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:
        _bad(what, "not valid Unicode")
    return v


def hexbytes(v, what, n=None):
    """Lowercase hex of n bytes (any length if n is None); returns the bytes."""
    if not isinstance(v, str) or not HEX_RE.match(v) or len(v) % 2 or (n is not None and len(v) != 2 * n):
        _bad(what, f"expected {'' if n is None else n} bytes of lowercase hex")
    return bytes.fromhex(v)


def keyid(v, what):
    if not isinstance(v, str) or len(v) != 16 or not HEX_RE.match(v):
        _bad(what, "expected a key id (16 lowercase hex digits)")
    return v


def day(v, what):
    if not isinstance(v, str) or not DAY_RE.match(v):
        _bad(what, "expected YYYY-MM-DD")
    return v


def obj(v, what, fields):
    """`fields` maps each required key to a checker(value, what). Unknown keys are refused."""
    if not isinstance(v, dict):
        _bad(what, "expected an object")
    missing = [k for k in fields if k not in v]
    if missing:
        _bad(what, f"missing field {missing[0]!r}")
    unknown = [k for k in v if k not in fields]
    if unknown:
        _bad(what, f"unknown field {unknown[0]!r}")
    return {k: check(v[k], f"{what}.{k}") for k, check in fields.items()}


def listof(check):
    def run(v, what):
        if not isinstance(v, list):
            _bad(what, "expected a list")
        return [check(x, f"{what}[{i}]") for i, x in enumerate(v)]
    return run


def fields(spec):
    return lambda v, what: obj(v, what, spec)


def nullable(check):
    return lambda v, what: None if v is None else check(v, what)


def const(c):
    def run(v, what):
        if v != c or type(v) is not type(c):
            _bad(what, f"expected {c!r}")
        return v
    return run


def payload(text, what, spec, cls="inconsistent"):
    """A stored event payload (JSON text) parsed strictly against `spec` (members exactly);
    any failure is of class `cls`."""
    try:
        return obj(loads(text.encode("utf-8"), what), what, spec)
    except Failure as e:
        raise Failure(cls, e.what)
