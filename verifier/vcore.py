"""Primitives of spec/formats.md §1 and §2, written from the specification alone.

Everything here is pure (no clock, no OS randomness) except the bounded reading of files and
the signature check of a published file. Section numbers refer to SPEC.md.
"""
import base64
import errno
import hashlib
import hmac
import json
import os
import re
import stat
import struct


class Failure(Exception):
    """A verification failure (exit 1), with its class (spec/formats.md §8.1) and what failed."""

    def __init__(self, cls, what):
        super().__init__(f"{cls}: {what}")
        self.cls = cls
        self.what = what


class Usage(Exception):
    """Bad usage or unreadable input (exit 2): `error: <message>`, then `hint: <hint>`."""

    def __init__(self, message, hint=None):
        super().__init__(message)
        self.hint = hint


def u32be(x):
    return struct.pack(">I", x)


def u64be(x):
    return struct.pack(">Q", x)


def _b(p):
    return p.encode("utf-8") if isinstance(p, str) else bytes(p)


# spec/formats.md §1.2 tagged hash: SHA-256(label || 0x00 || u64be(len(p1)) || p1 || ...)
def H(label, *parts):
    h = hashlib.sha256(label.encode("ascii") + b"\x00")
    for p in parts:
        p = _b(p)
        h.update(u64be(len(p)))
        h.update(p)
    return h.digest()


def sha256(data):
    return hashlib.sha256(data).digest()


# spec/formats.md §1.3 key id: first 16 hex digits of SHA-256 over the raw 32-byte public key.
def key_id(raw32):
    return hashlib.sha256(raw32).hexdigest()[:16]


# ---------------------------------------------------------------------------------------------
# spec/formats.md §1.4 Ed25519, strict (RFC 8032 §5.1.7 plus: S < L, canonical A and R, A not of small order).
# The signature equation itself is checked by `cryptography` (OpenSSL); the strictness checks
# are done here so they do not depend on the library's policy.

_P = 2**255 - 19
_L = 2**252 + 27742317777372353535851937790883648493
_D = (-121665 * pow(121666, _P - 2, _P)) % _P
_SQRT_M1 = pow(2, (_P - 1) // 4, _P)


def _decode_point(s):
    """RFC 8032 §5.1.3 decoding; None if the encoding is not canonical or not a point."""
    if len(s) != 32:
        return None
    y = int.from_bytes(s, "little")
    sign = y >> 255
    y &= (1 << 255) - 1
    if y >= _P:
        return None  # non-canonical y
    u, v = (y * y - 1) % _P, (_D * y * y + 1) % _P
    x = (u * pow(v, 3, _P) * pow(u * pow(v, 7, _P), (_P - 5) // 8, _P)) % _P
    if (v * x * x - u) % _P != 0:
        if (v * x * x + u) % _P != 0:
            return None
        x = x * _SQRT_M1 % _P
    if x == 0 and sign:
        return None  # non-canonical: "-0"
    if x & 1 != sign:
        x = _P - x
    return (x, y, 1, x * y % _P)


def _add(p, q):
    x1, y1, z1, t1 = p
    x2, y2, z2, t2 = q
    a = (y1 - x1) * (y2 - x2) % _P
    b = (y1 + x1) * (y2 + x2) % _P
    c = 2 * t1 * t2 * _D % _P
    d = 2 * z1 * z2 % _P
    e, f, g, h = b - a, d - c, d + c, b + a
    return (e * f % _P, g * h % _P, f * g % _P, e * h % _P)


def _small_order(p):
    """True if 8*p is the identity (the point has order 1, 2, 4 or 8)."""
    for _ in range(3):
        p = _add(p, p)
    x, y, z, _t = p
    return x % _P == 0 and (y - z) % _P == 0


def ed25519_verify_strict(raw_pub, sig, msg):
    """True if `sig` is a strictly valid pure Ed25519 signature of `msg` under `raw_pub` (spec/formats.md §1.4,
    as urne-verify applies it): S < L; A and R canonical encodings; neither A nor R of small order
    (no genuine signature has a small-order R; urne refuses it too); then the cofactorless
    equation, which OpenSSL checks by comparing the recomputed R with R byte for byte."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    if len(sig) != 64 or len(raw_pub) != 32:
        return False
    if int.from_bytes(sig[32:], "little") >= _L:
        return False
    a, r = _decode_point(raw_pub), _decode_point(sig[:32])
    if a is None or _small_order(a) or r is None or _small_order(r):
        return False
    try:
        Ed25519PublicKey.from_public_bytes(bytes(raw_pub)).verify(bytes(sig), bytes(msg))
        return True
    except InvalidSignature:
        return False


_B = _decode_point(bytes.fromhex("58" + "66" * 31))       # the base point (RFC 8032 §5.1)
_IDENTITY = (0, 1, 1, 0)


def _mul(k, p):
    """k·p, double and add (the addition of _add is unified: it doubles too)."""
    q = _IDENTITY
    while k:
        if k & 1:
            q = _add(q, p)
        p = _add(p, p)
        k >>= 1
    return q


def _encode(p):
    x, y, z, _t = p
    zi = pow(z, _P - 2, _P)
    x, y = x * zi % _P, y * zi % _P
    return (y | (x & 1) << 255).to_bytes(32, "little")


def ed25519_verify_strict_chunks(raw_pub, sig, chunks):
    """ed25519_verify_strict over a message given as an iterable of byte chunks (a file too
    large to hold in memory, such as a 16 GiB export): the same strictness checks, then the
    cofactorless equation of RFC 8032 §5.1.7 with SHA-512 over R || A || M streamed, R' = [S]B
    - [k]A encoded and compared with R, as OpenSSL does."""
    if len(sig) != 64 or len(raw_pub) != 32:
        return False
    s = int.from_bytes(sig[32:], "little")
    if s >= _L:
        return False
    a, r = _decode_point(raw_pub), _decode_point(sig[:32])
    if a is None or _small_order(a) or r is None or _small_order(r):
        return False
    h = hashlib.sha512(bytes(sig[:32]) + bytes(raw_pub))
    for c in chunks:
        h.update(c)
    k = int.from_bytes(h.digest(), "little") % _L
    x, y, z, t = a
    minus_a = (_P - x, y, z, _P - t)
    return _encode(_add(_mul(s, _B), _mul(k, minus_a))) == bytes(sig[:32])


# ---------------------------------------------------------------------------------------------
# File limits (issue 12 contract; SPEC states them): a file is judged from its metadata before it
# is opened. A file whose size exceeds its kind's limit, or that is not a regular file (a FIFO, a
# device, a folder, a symbolic link), is `malformed`; a FIFO is never opened, so a verifier never
# blocks on one. A `.sig` is exactly 64 bytes: another size is `bad-signature`.
#
# Symbolic links (spec/formats.md §1.6): a path the user gives (the file verified, registered with given();
# --checkpoint, --producer-key, --rules, --export, read with follow=True) may be reached through
# links and is read following them; every other file is one found in a folder (the folder
# verified, --keys DIR, --published DIR, the folder of a file given) and is examined itself
# (lstat) and opened with O_NOFOLLOW: a link there is not a regular file and is never followed.

_GIVEN = set()


def given(path):
    """Registers `path` as the file the user gave to verify: it is read following symbolic links
    (the files beside it are not)."""
    _GIVEN.add(os.path.normpath(path))


def _follows(path):
    return os.path.normpath(path) in _GIVEN

MiB = 1 << 20
LIMITS = {
    "sig": 64,                              # *.sig: exactly 64
    "pem": 4096,                            # *.pub.pem
    "note": 4096,                           # checkpoint.note, a --checkpoint note
    "json": MiB,                            # bundle, result, manifests, commitments, reveals, notices, proofs
    "rules": MiB,                           # rules.json (a draw's or a game's)
    "document": 16 * MiB,                   # pv.html and every minutes document
    "leaves": 33 * 16 * MiB,                # leaves.bin: at most 2^24 leaves of 33 bytes
    "tickets": 512 * MiB,                   # S.tickets.csv
    "export": 16 * 1024 * MiB,              # production's export (.jsonl)
    "audit-export": 1024 * MiB,             # `urne audit export` (.jsonl)
    "proofs": 16 * MiB * MiB,               # `urne proof --all` (.jsonl): at most 2^24 lines of at most 1 MiB
}
LINE_LIMIT = MiB                            # a line of either export, without its LF


def kind_of(name):
    """The limit kind of an output file, from its name."""
    if name.endswith(".sig"):
        return "sig"
    if name.endswith(".pem"):
        return "pem"
    if name.endswith(".note"):
        return "note"
    if name == "rules.json":
        return "rules"
    if name.endswith(".html"):
        return "document"
    if name == "leaves.bin":
        return "leaves"
    if name.endswith(".tickets.csv"):
        return "tickets"
    return "json"


def check_file(path, kind, follow=False):
    """Metadata only (os.lstat; os.stat for a path the user gave): refuses what is not a regular
    file or is larger than its kind allows. Returns the size. A missing file raises
    FileNotFoundError (the caller knows whether it is required); another OSError is an
    unreadable path (exit 2)."""
    st = os.stat(path) if follow or _follows(path) else os.lstat(path)
    name = os.path.basename(path)
    if stat.S_ISLNK(st.st_mode):
        raise Failure("malformed", f"{name} is a symbolic link, not a regular file: it is not read")
    if not stat.S_ISREG(st.st_mode):
        raise Failure("malformed", f"{name} is not a regular file (a FIFO, a device or a folder is never read)")
    limit = LIMITS[kind]
    if kind == "sig":
        if st.st_size != limit:
            raise Failure("bad-signature", f"{name} is {st.st_size} bytes; a signature is exactly 64")
    elif st.st_size > limit:
        raise Failure("malformed", f"{name} is {st.st_size} bytes; the limit for this kind of file is {limit}")
    return st.st_size


def read_bounded(path, kind=None, follow=False):
    """A file's bytes, after check_file(): opened without blocking (and with O_NOFOLLOW, unless
    the user gave this path), checked again on the open descriptor (the path may have been
    swapped since), and never read past its limit."""
    kind = kind or kind_of(os.path.basename(path))
    follow = follow or _follows(path)
    check_file(path, kind, follow)
    limit = LIMITS[kind]
    nofollow = 0 if follow else os.O_NOFOLLOW
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | nofollow | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        if e.errno == errno.ELOOP and nofollow:            # a link swapped in since check_file
            raise Failure("malformed", f"{os.path.basename(path)} is a symbolic link, not a regular file: "
                                       "it is not read")
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Failure("malformed", f"{os.path.basename(path)} is not a regular file")
        chunks, n = [], 0
        while n <= limit:
            b = os.read(fd, min(1 << 20, limit + 1 - n))
            if not b:
                break
            chunks.append(b)
            n += len(b)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise Failure("malformed", f"{os.path.basename(path)} grew past its limit ({limit} bytes) while read")
    return data


def listdir(folder):
    """The names in `folder`, sorted. A name that is not UTF-8 is refused (exit 2), never
    skipped: skipping it could hide an output (a fork's second draw) from the checks across
    outputs."""
    names = os.listdir(folder)
    for n in names:
        try:
            n.encode("utf-8")
        except UnicodeEncodeError:
            raise Usage(f"{printable(folder)} holds a name that is not UTF-8 ({printable(n)}): it cannot be verified",
                        "rename it (or move it out of the folder), then verify again")
    return sorted(names)


def printable(s):
    """`s` with every control character (Cc) escaped, and any byte that is not UTF-8 shown as
    \\xNN: a path or a name printed never forges a line of the report (a `VERIFIED:` or
    `partial:` line of its own)."""
    out = []
    for c in s:
        o = ord(c)
        if c in "\t\r\n":
            out.append({"\t": "\\t", "\r": "\\r", "\n": "\\n"}[c])
        elif o < 0x20 or 0x7F <= o <= 0x9F:
            out.append(f"\\u{{{o:x}}}")
        elif 0xDC80 <= o <= 0xDCFF:                 # os.fsdecode's escape of a byte not UTF-8
            out.append(f"\\x{o - 0xDC00:02x}")
        else:
            out.append(c)
    return "".join(out)


class PublicKey(bytes):
    """The raw 32 bytes of an Ed25519 public key (used as bytes everywhere), and the file it was
    read from, to name it in messages."""
    file = None


def named_result_key(data):
    """The `result_key_id` a file's bytes name, read WITHOUT trusting them (its signature has
    just failed): only to tell the usage mistake "keys of another appliance" from a bad
    signature. None if the file names none readably (not JSON, no such member)."""
    try:
        v = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    if isinstance(v, dict) and isinstance(v.get("result_key_id"), str):
        named = v["result_key_id"]
        if len(named) == 16 and all(c in "0123456789abcdef" for c in named):   # a key id (spec/formats.md §1.3)
            return named
    return None


# The names an output's files have (spec/formats.md §4.7, §4.6, §5.B10): the other-appliance rule tries only these.
OUTPUT_FILES = ("bundle.json", "leaves.bin", "result.json", "rules.json", "pv.html", "checkpoint.note",
                "manifest.json", "void-notice.json", "sitting.json", "minutes.html")
OUTPUT_SUFFIXES = (".commit.json", ".manifest.json", ".reveal.json")
ANOTHER_AT_MOST = 8


def _another_verifies(path, result_pub):
    """Whether another signed file beside `path` (at most the minutes' size) verifies under the
    key: then the keys are the right ones and `path` was altered (bad-signature, not usage).
    Only output file names are tried, at most ANOTHER_AT_MOST of them in name order, so the
    check costs a bounded time whatever the folder holds."""
    folder, name = os.path.split(path)
    try:
        names = sorted(os.listdir(folder or "."))
    except OSError:
        return False
    names = [n for n in names if n != name and (n in OUTPUT_FILES or n.endswith(OUTPUT_SUFFIXES))]
    for n in names[:ANOTHER_AT_MOST]:
        p = os.path.join(folder, n)
        try:
            st = os.lstat(p)
            if not stat.S_ISREG(st.st_mode) or st.st_size > LIMITS["document"]:
                continue
            data, sig = read_bounded(p, "document"), read_bounded(p + ".sig", "sig")
        except (OSError, Failure):
            continue
        if ed25519_verify_strict(result_pub, sig, data):
            return True
    return False


def read_signed(path, result_pub, kind=None):
    """spec/formats.md §1.4: a published file's bytes, once its detached signature (`path`.sig, raw 64 bytes) is
    checked over the exact bytes under the result key; nothing is parsed before. Both files are
    read within their limits. When the signature fails and the file names another result key than
    the one given (issue 12 contract: the file itself, read without trusting it), that is a usage
    mistake (exit 2), not a verification failure; a file that names the key given, or none (a
    rules file, leaves.bin, a note), stays `bad-signature`."""
    name = os.path.basename(path)
    data = read_bounded(path, kind)
    try:
        sig = read_bounded(path + ".sig", "sig")
    except FileNotFoundError:
        raise Failure("bad-signature", f"{name} has no .sig")
    if not ed25519_verify_strict(result_pub, sig, data):
        given = key_id(result_pub)
        named = named_result_key(data)
        if named is not None and named != given and not _another_verifies(path, result_pub):
            where = getattr(result_pub, "file", None) or "the result key given"
            raise Usage(f"these outputs name result key {named}; the key given ({where}) is {given}",
                        f"give the public keys of the appliance whose result key id is {named} (--keys DIR), "
                        f"obtained independently; the key given is {given}")
        raise Failure("bad-signature", f"the signature of {name} does not verify under the result key {given}")
    return data


def load_pub_pem(path, follow=False):
    """Raw 32 bytes of an Ed25519 SubjectPublicKeyInfo PEM (RFC 8410), as a PublicKey. `follow`
    for a key file the user gives (--producer-key); a key of --keys DIR is not followed."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        data = read_bounded(path, "pem", follow)
        key = serialization.load_pem_public_key(data)
    except (OSError, ValueError, Failure) as e:
        raise Usage(f"cannot read public key {path}: {e}", "give a folder holding result.pub.pem and "
                    "audit.pub.pem (--keys DIR), or the producer's PEM (--producer-key)")
    if not isinstance(key, Ed25519PublicKey):
        raise Usage(f"{path} is not an Ed25519 public key", "give the Ed25519 public keys the appliance exported")
    k = PublicKey(key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw))
    k.file = path
    return k


# ---------------------------------------------------------------------------------------------
# spec/formats.md §2.1 HMAC_DRBG with SHA-256 (SP 800-90A Rev. 1 §10.1.2): no reseed, no additional input.

class HmacDrbg:
    def __init__(self, entropy, nonce=b"", pers=b""):
        self.k = b"\x00" * 32
        self.v = b"\x01" * 32
        self._update(entropy + nonce + pers)

    def _update(self, data):
        self.k = hmac.digest(self.k, self.v + b"\x00" + data, "sha256")
        self.v = hmac.digest(self.k, self.v, "sha256")
        if data:
            self.k = hmac.digest(self.k, self.v + b"\x01" + data, "sha256")
            self.v = hmac.digest(self.k, self.v, "sha256")

    def generate(self, n):
        assert 0 < n <= 65536
        k, v, out = self.k, self.v, []
        for _ in range((n + 31) // 32):
            v = hmac.digest(k, v, "sha256")
            out.append(v)
        self.v = v
        self._update(b"")
        return b"".join(out)[:n]


# spec/formats.md §2.2 the byte stream: Generate calls of exactly R bytes, consumed in order.
class Stream:
    def __init__(self, seed, personalization, request=4096):
        self.drbg = HmacDrbg(seed, b"", _b(personalization))
        self.request = request
        self.buf = b""
        self.pos = 0

    def read(self, n):
        while len(self.buf) - self.pos < n:
            self.buf = self.buf[self.pos:] + self.drbg.generate(self.request)
            self.pos = 0
        out = self.buf[self.pos:self.pos + n]
        self.pos += n
        return out

    # spec/formats.md §2.3 uniform(n) by rejection: never `x mod n` on an unrejected x.
    def uniform(self, n):
        assert 1 <= n <= 2**64 - 1
        r = 2**64 % n
        while True:
            x = int.from_bytes(self.read(8), "big")
            if r != 0 and x >= 2**64 - r:
                continue
            return x % n


# ---------------------------------------------------------------------------------------------
# spec/formats.md §2.4 RFC 6962 / RFC 9162 Merkle tree hash and inclusion proofs.

# urne's one time format (spec/formats.md §6.1): RFC 3339 UTC with microseconds, a real date and time of day
# (seconds at most 59); in it, text order is time order.
ONE_TIME_FORMAT = re.compile(r"\A[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z\Z")


def is_one_time_format(ts):
    """A real date (proleptic Gregorian, years 0000 to 9999: `datetime` starts at year 1) and time
    of day, seconds at most 59, in the one format."""
    if not isinstance(ts, str) or not ONE_TIME_FORMAT.match(ts):
        return False
    y, mo, d, h, mi, s = (int(ts[a:b]) for a, b in ((0, 4), (5, 7), (8, 10), (11, 13), (14, 16), (17, 19)))
    leap = (y % 4 == 0 and y % 100 != 0) or y % 400 == 0
    days = (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
    return 1 <= mo <= 12 and 1 <= d <= days[mo - 1] and h <= 23 and mi <= 59 and s <= 59


def leaf_hash(d):
    return hashlib.sha256(b"\x00" + d).digest()


def node_hash(l, r):
    return hashlib.sha256(b"\x01" + l + r).digest()


def merkle_root_of_hashes(hashes):
    """Root over leaf *hashes*. Level by level, an odd last node moves up unchanged: this is
    exactly RFC 6962's split at the largest power of two smaller than n."""
    if not hashes:
        return hashlib.sha256(b"").digest()
    level = list(hashes)
    while len(level) > 1:
        nxt = [node_hash(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    return level[0]


def merkle_root(leaves):
    return merkle_root_of_hashes([leaf_hash(d) for d in leaves])


def verify_inclusion(index, size, leaf_data, path, root):
    """RFC 9162 §2.1.3.2."""
    if index >= size:
        return False
    fn, sn = index, size - 1
    r = leaf_hash(leaf_data)
    for p in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn & 1 == 0 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root


def b64(data):
    return base64.b64encode(data).decode("ascii")


# spec/formats.md §2.4 consistency proofs, RFC 9162 §2.1.4: the generator follows the recursive definition of
# RFC 9162 §2.1.4.1, the verifier the numbered steps of RFC 9162 §2.1.4.2. Conventions of spec/formats.md §2.4:
# m == n is consistent only with an empty proof and equal roots; m == 0 and m > n never verify.

def consistency_proof(m, hashes):
    """RFC 9162 §2.1.4.1 PROOF(m, D[n]) over the leaf *hashes* D[n]; [] unless 0 < m < n."""
    def mth(d):
        return merkle_root_of_hashes(d)

    def subproof(m, d, b):
        if m == len(d):
            return [] if b else [mth(d)]
        k = 1
        while k * 2 < len(d):
            k *= 2
        if m <= k:
            return subproof(m, d[:k], b) + [mth(d[k:])]
        return subproof(m - k, d[k:], False) + [mth(d[:k])]

    if not 0 < m < len(hashes):
        return []
    return subproof(m, list(hashes), True)


def verify_consistency(m, n, root_m, root_n, proof):
    """RFC 9162 §2.1.4.2: does `proof` show the size-m tree (root_m) to be a prefix of the size-n
    tree (root_n)? spec/formats.md §2.4 conventions for m == n, m == 0 and m > n."""
    if m < 1 or m > n:
        return False
    if m == n:
        return len(proof) == 0 and root_m == root_n
    path = list(proof)
    if not path:                       # 1.
        return False
    if m & (m - 1) == 0:               # 2. first is an exact power of 2
        path = [root_m] + path
    fn, sn = m - 1, n - 1              # 3.
    while fn & 1:                      # 4.
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]                  # 5.
    for c in path[1:]:                 # 6.
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            if not fn & 1:
                while not (fn & 1 or fn == 0):
                    fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return fr == root_m and sr == root_n and sn == 0   # 7.


# ---------------------------------------------------------------------------------------------
# Version 2, "nobody chooses" (spec/formats.md §3.2, §3.3, §4.4.1): the entropy commitment, the grammar of
# the commissaire's contribution, and the evidence of the order in which both became fixed.

def entropy_commitment(entropy):
    """spec/formats.md §3.2: tagged_hash("urne/v2/entropy-commitment", [entropy])."""
    return H("urne/v2/entropy-commitment", entropy)


def _contribution_char(c):
    o = ord(c)
    return (0x20 <= o <= 0x7E or 0xA1 <= o <= 0xAC or 0xAE <= o <= 0x17F
            or o == 0x2019 or o == 0x20AC)


def contribution_refusal(text):
    """spec/formats.md §4.4.1: None if `text` is a contribution, else why not, in words."""
    n = len(text)                      # Python str: Unicode scalar values (code points)
    if not 8 <= n <= 256:
        return f"{n} characters; a contribution has 8 to 256"
    for i, c in enumerate(text, 1):
        if not _contribution_char(c):
            return f"character {i} (U+{ord(c):04X}) is not allowed in a contribution"
    if text.startswith(" ") or text.endswith(" "):
        return "it starts or ends with a space"
    if "  " in text:
        return "it has two spaces in a row"
    return None


def fixed_event_hash(e):
    """spec/formats.md §6.1 event hash of a `fixed` event (payload as stored)."""
    return H("urne/v1/audit-event", e["prev_hash"], u64be(e["seq"]), e["ts"], e["kind"], e["payload"])


def check_fixed_order(fixed, size, root, kinds):
    """spec/formats.md §3.3: each of the two events is in the checkpoint's tree (size, root) at leaf seq - 1, of
    the kind expected, and the entropy's event comes before the contribution's. Returns None, or
    what fails. The payloads are the caller's to compare."""
    for name, kind in zip(("entropy", "contribution"), kinds):
        e = fixed[name]
        if e["kind"] != kind:
            return f"the {name} event is of kind {e['kind']!r}, not {kind}"
        if e["seq"] < 1 or not verify_inclusion(e["seq"] - 1, size, fixed_event_hash(e), e["inclusion"], root):
            return f"the {name} event (#{e['seq']}) is not in the tree of the checkpoint ({size} events)"
    if fixed["entropy"]["seq"] >= fixed["contribution"]["seq"]:
        return (f"the contribution (event #{fixed['contribution']['seq']}) was recorded before the entropy "
                f"commitment (event #{fixed['entropy']['seq']})")
    return None
