"""Primitives of SPEC.md §1 and §2, written from the specification alone.

Everything here is pure: no file, clock or OS randomness. Section numbers refer to SPEC.md.
"""
import base64
import hashlib
import hmac
import struct


class Failure(Exception):
    """A verification failure (exit 1), with its class (SPEC §8.1) and what failed."""

    def __init__(self, cls, what):
        super().__init__(f"{cls}: {what}")
        self.cls = cls
        self.what = what


class Usage(Exception):
    """Bad usage or unreadable input (exit 2)."""


def u32be(x):
    return struct.pack(">I", x)


def u64be(x):
    return struct.pack(">Q", x)


def _b(p):
    return p.encode("utf-8") if isinstance(p, str) else bytes(p)


# §1.2 tagged hash: SHA-256(label || 0x00 || u64be(len(p1)) || p1 || ...)
def H(label, *parts):
    h = hashlib.sha256(label.encode("ascii") + b"\x00")
    for p in parts:
        p = _b(p)
        h.update(u64be(len(p)))
        h.update(p)
    return h.digest()


def sha256(data):
    return hashlib.sha256(data).digest()


# §1.3 key id: first 16 hex digits of SHA-256 over the raw 32-byte public key.
def key_id(raw32):
    return hashlib.sha256(raw32).hexdigest()[:16]


# ---------------------------------------------------------------------------------------------
# §1.4 Ed25519, strict (RFC 8032 §5.1.7 plus: S < L, canonical A and R, A not of small order).
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
    """True if `sig` is a strictly valid pure Ed25519 signature of `msg` under `raw_pub` (SPEC §1.4,
    as urne-core applies it): S < L; A and R canonical encodings; neither A nor R of small order
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
        Ed25519PublicKey.from_public_bytes(raw_pub).verify(sig, msg)
        return True
    except InvalidSignature:
        return False


def read_signed(path, result_pub):
    """§1.4: a published file's bytes, once its detached signature (`path`.sig, raw 64 bytes) is
    checked over the exact bytes under the result key; nothing is parsed before."""
    import os

    with open(path, "rb") as f:
        data = f.read()
    try:
        with open(path + ".sig", "rb") as f:
            sig = f.read()
    except OSError:
        raise Failure("bad-signature", f"{os.path.basename(path)} has no .sig")
    if not ed25519_verify_strict(result_pub, sig, data):
        raise Failure("bad-signature",
                      f"the signature of {os.path.basename(path)} does not verify under the result key {key_id(result_pub)}")
    return data


def load_pub_pem(path):
    """Raw 32 bytes of an Ed25519 SubjectPublicKeyInfo PEM (RFC 8410)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        with open(path, "rb") as f:
            key = serialization.load_pem_public_key(f.read())
    except (OSError, ValueError) as e:
        raise Usage(f"cannot read public key {path}: {e}")
    if not isinstance(key, Ed25519PublicKey):
        raise Usage(f"{path} is not an Ed25519 public key")
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


# ---------------------------------------------------------------------------------------------
# §2.1 HMAC_DRBG with SHA-256 (SP 800-90A Rev. 1 §10.1.2): no reseed, no additional input.

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


# §2.2 the byte stream: Generate calls of exactly R bytes, consumed in order.
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

    # §2.3 uniform(n) by rejection: never `x mod n` on an unrejected x.
    def uniform(self, n):
        assert 1 <= n <= 2**64 - 1
        r = 2**64 % n
        while True:
            x = int.from_bytes(self.read(8), "big")
            if r != 0 and x >= 2**64 - r:
                continue
            return x % n


# ---------------------------------------------------------------------------------------------
# §2.4 RFC 6962 / RFC 9162 Merkle tree hash and inclusion proofs.

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


# §2.4 consistency proofs, RFC 9162 §2.1.4: the generator follows the recursive definition of
# RFC 9162 §2.1.4.1, the verifier the numbered steps of RFC 9162 §2.1.4.2. Conventions of SPEC §2.4:
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
    tree (root_n)? SPEC §2.4 conventions for m == n, m == 0 and m > n."""
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
# Version 2, "nobody chooses" (SPEC §3.2, §3.3, §4.4.1): the entropy commitment, the grammar of
# the commissaire's contribution, and the evidence of the order in which both became fixed.

def entropy_commitment(entropy):
    """§3.2: tagged_hash("urne/v2/entropy-commitment", [entropy])."""
    return H("urne/v2/entropy-commitment", entropy)


def _contribution_char(c):
    o = ord(c)
    return (0x20 <= o <= 0x7E or 0xA1 <= o <= 0xAC or 0xAE <= o <= 0x17F
            or o == 0x2019 or o == 0x20AC)


def contribution_refusal(text):
    """§4.4.1: None if `text` is a contribution, else why not, in words."""
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
    """§6.1 event hash of a `fixed` event (payload as stored)."""
    return H("urne/v1/audit-event", e["prev_hash"], u64be(e["seq"]), e["ts"], e["kind"], e["payload"])


def check_fixed_order(fixed, size, root, kinds):
    """§3.3: each of the two events is in the checkpoint's tree (size, root) at leaf seq - 1, of
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
