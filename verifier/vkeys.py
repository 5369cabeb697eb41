"""A key export (spec/formats.md §8.6): the folder `urne keys export` and the key ceremony write,
`keys.json` (signed by the result key) with the two PEM files it lists."""
import os

import vjson as J
from vcore import Failure, key_id, read_bounded, read_signed

NAME = "keys.json"
# How the labels of a rehearsal token's keys begin (spec/formats.md §6.10).
REHEARSAL_LABEL_PREFIX = "urne-rehearsal-"


def _bool(v, what):
    if not isinstance(v, bool):
        J._bad(what, "expected true or false")
    return v


KEY = J.fields({"file": J.string, "key_id": J.string, "public_key": lambda v, w: J.hexbytes(v, w, 32),
                "label": J.string, "hardware_bound": _bool})
KEYS = {"result": KEY, "audit": KEY}


def is_key_export(folder):
    return os.path.lexists(os.path.join(folder, NAME))


def _pem_key(path):
    """The raw key of a PEM file, or None (absent, not a PEM, not Ed25519)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    if not os.path.lexists(path):
        return None
    try:
        key = serialization.load_pem_public_key(read_bounded(path, "pem"))
    except (OSError, ValueError, Failure):
        return None
    if not isinstance(key, Ed25519PublicKey):
        return None
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def verify_keys(folder, result_pub, audit_pub, about=None):
    """spec/formats.md §8.6: the signature of keys.json under the result key [bad-signature] [M-322]; its
    parse, each role's `file` its PEM's name [malformed] [M-323]; each key_id that of its public_key,
    each key the one given [inconsistent] [M-324]; the PEM files beside it those keys
    [inconsistent] [M-325]; no key labelled as a rehearsal token's [rehearsal] [M-382]. Returns report lines."""
    raw = read_signed(os.path.join(folder, NAME), result_pub, "json")
    k = J.obj(J.loads(raw, NAME), NAME, KEYS)
    for role, given in (("result", result_pub), ("audit", audit_pub)):
        e = k[role]
        pem = f"{role}.pub.pem"
        if e["file"] != pem:
            raise Failure("malformed", f"{NAME}: the {role} key's file is not {pem}")
        if e["key_id"] != key_id(e["public_key"]):
            raise Failure("inconsistent", f"{NAME}: the {role} key's key_id is not its public key's")
        if e["public_key"] != bytes(given):
            raise Failure("inconsistent", f"{NAME}: the {role} key {e['key_id']} is not the {role} key given "
                                          f"({key_id(given)})")
        if _pem_key(os.path.join(folder, pem)) != e["public_key"]:
            raise Failure("inconsistent", f"{NAME}: {os.path.join(folder, pem)} is not the {role} key it lists")
    # spec/formats.md §6.10: a rehearsal token's keys bear its labels, which keys.json states signed [rehearsal] [M-382].
    for role in ("result", "audit"):
        if k[role]["label"].startswith(REHEARSAL_LABEL_PREFIX):
            raise Failure("rehearsal", f"{NAME}: the {role} key is labelled {k[role]['label']!r}, a rehearsal token's: "
                                       "RÉPÉTITION — SANS VALEUR / REHEARSAL — NO VALUE, never an official appliance's keys")
    if about is not None:
        about.append({"kind": "keys", "result": k["result"]["key_id"], "audit": k["audit"]["key_id"]})
    return ["ok  keys.json signature", "ok  each key's id, the keys given, the PEM files beside it"]
