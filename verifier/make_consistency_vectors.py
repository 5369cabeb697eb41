#!/usr/bin/env python3
"""Writes tests/vectors/merkle-consistency.json (schema: tests/vectors/README.md): RFC 9162
§2.1.4 consistency proofs (spec/formats.md §2.4), valid and invalid.

Deterministic: fixed leaf data (the RFC 6962 reference leaves of certificate-transparency, then
fixed strings). Proofs and roots are computed with this verifier's own code (SPEC.md and the RFC
alone); urne-verify's tests run the same file, which is the cross-check. Each case's `valid` is set
by how the case was made (a proof as generated, or one change to it), and this script checks that
vcore agrees before writing anything. Run: python3 verifier/make_consistency_vectors.py [OUT_DIR]
"""
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from vcore import consistency_proof, leaf_hash, merkle_root_of_hashes, verify_consistency  # noqa: E402

# certificate-transparency's RFC 6962 reference leaves (leaf data), then fixed strings.
RFC_LEAVES = ["", "00", "10", "2021", "3031", "40414243", "5051525354555657",
              "606162636465666768696a6b6c6d6e6f"]


def leaf_data(i):
    if i < len(RFC_LEAVES):
        return bytes.fromhex(RFC_LEAVES[i])
    return f"urne consistency vector leaf {i}".encode()


def data(n):
    return [leaf_data(i) for i in range(n)]


def mth(leaves):
    return merkle_root_of_hashes([leaf_hash(d) for d in leaves])


def flip(h, bit=0):
    b = bytearray(h)
    b[bit // 8] ^= 1 << (bit % 8)
    return bytes(b)


CASES = []


def case(description, m, n, leaves, root_m, root_n, proof, valid):
    CASES.append({"description": description, "m": m, "n": n,
                  "leaves": [d.hex() for d in leaves], "root_m": root_m.hex(),
                  "root_n": root_n.hex(), "proof": [p.hex() for p in proof], "valid": valid})


def genuine(m, n):
    """The leaves, both roots and the proof of the size-n tree over data(n) and its size-m prefix."""
    leaves = data(n)
    hashes = [leaf_hash(d) for d in leaves]
    return leaves, mth(leaves[:m]), mth(leaves), consistency_proof(m, hashes)


VALID = [(1, 2), (1, 8), (2, 5), (3, 7), (4, 8), (6, 8), (7, 8), (3, 4), (5, 13), (1, 17),
         (5, 17), (8, 17), (16, 17), (9, 31), (13, 20), (15, 16), (31, 32), (32, 33), (21, 64),
         (63, 100)]


def make():
    for m, n in VALID:
        leaves, rm, rn, p = genuine(m, n)
        case(f"PROOF({m}, D[{n}]) as generated (RFC 9162 §2.1.4.1)", m, n, leaves, rm, rn, p, True)
    for n in (1, 2, 7, 8):
        leaves, rm, rn, p = genuine(n, n)
        case(f"m == n == {n}: empty proof, equal roots", n, n, leaves, rm, rn, [], True)
    # RFC 9162 §2.1.4.2 checks the proof's shape for the sizes given and nothing more: the
    # PROOF(4, D[8]) path also verifies as a (4, 7) proof with the same roots. Pinned so that an
    # implementation that adds or drops a check from the RFC's steps is caught; the sizes are bound
    # to their roots by what signs them (a checkpoint), not by the proof.
    leaves, rm, rn, p = genuine(4, 8)
    case("PROOF(4, D[8]) claimed for n = 7: accepted by the RFC algorithm (same shape)",
         4, 7, leaves, rm, rn, p, True)

    for m, n in [(3, 7), (6, 8), (5, 17), (1, 8), (4, 8)]:
        leaves, rm, rn, p = genuine(m, n)
        for i in range(len(p)):
            q = list(p)
            q[i] = flip(q[i], 8 * i + 3)
            case(f"PROOF({m}, D[{n}]) with hash {i} changed (one bit)", m, n, leaves, rm, rn, q, False)
        case(f"PROOF({m}, D[{n}]) without its last hash", m, n, leaves, rm, rn, p[:-1], False)
        case(f"PROOF({m}, D[{n}]) without its first hash", m, n, leaves, rm, rn, p[1:], False)
        case(f"PROOF({m}, D[{n}]) with root_n appended", m, n, leaves, rm, rn, p + [rn], False)
        case(f"PROOF({m}, D[{n}]) with a zero hash appended", m, n, leaves, rm, rn, p + [bytes(32)], False)
        case(f"PROOF({m}, D[{n}]) with root_m prepended", m, n, leaves, rm, rn, [rm] + p, False)
        if len(p) > 1:
            case(f"PROOF({m}, D[{n}]) with its first two hashes swapped", m, n, leaves, rm, rn,
                 [p[1], p[0]] + p[2:], False)
        else:
            case(f"PROOF({m}, D[{n}]) with its hash given twice", m, n, leaves, rm, rn, p + p, False)
        case(f"PROOF({m}, D[{n}]) with root_m changed", m, n, leaves, flip(rm), rn, p, False)
        case(f"PROOF({m}, D[{n}]) with root_n changed", m, n, leaves, rm, flip(rn), p, False)
        case(f"PROOF({m}, D[{n}]) with root_m and root_n exchanged", m, n, leaves, rn, rm, p, False)
        case(f"PROOF({m}, D[{n}]) given as ({n}, {m}), roots swapped too (m > n)", n, m, leaves,
             rn, rm, p, False)
        case(f"PROOF({m}, D[{n}]) empty", m, n, leaves, rm, rn, [], False)
        # A tree whose first m leaves are not those of the size-m tree: the first leaf changed.
        other = [b"not the first leaf"] + leaves[1:]
        po = consistency_proof(m, [leaf_hash(d) for d in other])
        case(f"PROOF({m}, D[{n}]) of a tree whose first leaf differs, against the original root_m",
             m, n, other, rm, mth(other), po, False)
        case(f"PROOF({m}, D[{n}]) with root_m of a size-{m} tree whose first leaf differs", m, n,
             leaves, mth(other[:m]), rn, p, False)
    # Wrong sizes (each one checked below to be rejected by the RFC steps, not only by
    # construction; see the (4, 7) case above for one that is not).
    for (m, n), (m2, n2) in [((3, 7), (4, 7)), ((3, 7), (2, 7)), ((3, 7), (3, 9)),
                             ((6, 8), (6, 9)), ((5, 17), (5, 16)), ((1, 8), (1, 9)),
                             ((16, 17), (16, 33)), ((2, 5), (3, 5)), ((2, 5), (2, 4))]:
        leaves, rm, rn, p = genuine(m, n)
        case(f"PROOF({m}, D[{n}]) claimed as ({m2}, {n2})", m2, n2, leaves, rm, rn, p, False)
    leaves, rm, rn, _ = genuine(7, 7)
    case("m == n with a non-empty proof", 7, 7, leaves, rm, rn, [rn], False)
    case("m == n with different roots", 7, 7, leaves, rm, flip(rn), [], False)
    case("m == n == 1 with different roots", 1, 1, data(1), mth(data(1)), mth(data(2)[1:]), [], False)
    empty = hashlib.sha256(b"").digest()
    leaves, _, rn, _ = genuine(1, 5)
    case("m == 0 (the empty tree): never a proof (SPEC §2.4)", 0, 5, leaves, empty, rn, [], False)
    case("m == n == 0: never a proof (SPEC §2.4)", 0, 0, [], empty, empty, [], False)
    leaves, rm, rn, p = genuine(3, 7)
    case("m > n: PROOF(3, D[7]) with n = 2", 3, 2, leaves, rm, rn, p, False)


def check():
    for c in CASES:
        h = lambda x: bytes.fromhex(x)
        got = verify_consistency(c["m"], c["n"], h(c["root_m"]), h(c["root_n"]),
                                 [h(p) for p in c["proof"]])
        assert got == c["valid"], c["description"]


def main(out_dir):
    make()
    check()
    doc = {
        "description": "RFC 9162 §2.1.4 consistency proofs (SPEC.md §2.4), made by "
                       "verifier/make_consistency_vectors.py. Each case: verify_consistency(m, n, "
                       "root_m, root_n, proof) (RFC 9162 §2.1.4.2 plus SPEC §2.4's m == n and "
                       "m == 0 conventions) MUST return `valid`. `leaves` is the leaf DATA (hex, "
                       "not leaf hashes) the case was made from; for a valid case with n == len(leaves) "
                       "(all but one), root_m = MTH(leaves[:m]), root_n = MTH(leaves) and proof = "
                       "PROOF(m, D[n]) as RFC 9162 §2.1.4.1 generates it.",
        "cases": CASES,
    }
    path = os.path.join(out_dir, "merkle-consistency.json")
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {path}: {len(CASES)} cases, {sum(c['valid'] for c in CASES)} valid")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "tests", "vectors"))
