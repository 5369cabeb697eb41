#!/usr/bin/env python3
"""verifier/web/test/make_fixtures.py: the player's page's test cases beyond tests/vectors/
(which test.mjs also runs: every draw-proof-* and block-proof-* vector), written to
verifier/web/test/fixtures.json.

Real outputs, made by the vectors' own generators (verifier/make_vectors.py,
verifier/make_block_vectors.py) with the vectors' fixed test keys: a draw with accounts that are
neither winner nor reserve, proofs of a reserve and of such an account (signed, and the unsigned
one-line form), ticket proofs of revealed blocks (versions 1 and 2, signed and unsigned), and
tampered variants. Every
valid signed case is also checked by the independent Python verifier (urne_verify.py) here.

    python3 verifier/web/test/make_fixtures.py           # writes fixtures.json
    python3 verifier/web/test/make_fixtures.py --check   # exit 1 if fixtures.json is not current

Needs the Python package `cryptography` (as verifier/test.sh installs it). Deterministic.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
VERIFIER = os.path.normpath(os.path.join(HERE, "..", ".."))
VECTORS = os.path.join(VERIFIER, "..", "tests", "vectors")
sys.path.insert(0, VERIFIER)
import make_block_vectors as MB  # noqa: E402
import make_vectors as MV  # noqa: E402
from vcore import leaf_hash, verify_inclusion  # noqa: E402

OUT = os.path.join(HERE, "fixtures.json")
L = 2**252 + 27742317777372353535851937790883648493
CASES = []


def vector_files(name):
    with open(os.path.join(VECTORS, name + ".json"), encoding="utf-8") as f:
        return json.load(f)["files"]


def flat(files):
    """{relative path: entry} -> {base name: entry}, the audit key left out (the page takes the result key)."""
    out = {}
    for p, e in files.items():
        n = p.split("/")[-1]
        if n == "audit.pub.pem":
            continue
        assert n not in out, n
        out[n] = e
    return out


def text(s):
    return {"utf8": s}


def sig_of(data, k=MV.RESULT):
    return {"hex": k.sign(data.encode() if isinstance(data, str) else data).hex()}


def case(name, description, files, ok, cls=None, **outcome):
    CASES.append({"name": name, "description": description, "files": files,
                  "expect": dict({"ok": ok, "class": cls}, **outcome)})


def python_verifies(files, proof="proof.json", published="pub"):
    """The independent verifier's verdict on a signed proof against a published folder."""
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "keys"))
        os.makedirs(os.path.join(d, published))
        for n, e in files.items():
            data = e["utf8"].encode() if "utf8" in e else bytes.fromhex(e["hex"])
            where = "keys" if n.endswith(".pem") else "." if n.startswith(proof) else published
            with open(os.path.join(d, where, n), "wb") as f:
                f.write(data)
        with open(os.path.join(d, "keys", "audit.pub.pem"), "w") as f:
            f.write(MV.pem(MV.AUDIT))
        r = subprocess.run([sys.executable, os.path.join(VERIFIER, "urne_verify.py"), proof, "--keys", "keys",
                            "--published", published], cwd=d, capture_output=True, text=True)
        return r.returncode, r.stdout + r.stderr


def draw_proof(leaves, i, commitment):
    ps, n, a, salt = leaves[i]
    hashes = [leaf_hash(p + bytes([m])) for p, m, _, _ in leaves]
    path = MV.inclusion_path(i, hashes)
    assert verify_inclusion(i, len(leaves), ps + bytes([n]), path, bytes.fromhex(commitment["root"]))
    return {"format": "urne-inclusion-proof", "version": 1, "operation": MV.OP, "day": MV.DAY, "attempt": 1,
            "account": a.hex(), "salt": salt.hex(), "pseudonym": ps.hex(), "entries": n, "leaf": i,
            "commitment": commitment, "path": [x.hex() for x in path], "result_key_id": MV.key_id(MV.raw(MV.RESULT))}


def line(proof):
    """The unsigned form: the §4.8 object as one line of JSON Lines."""
    return json.dumps(proof, separators=(",", ":"), ensure_ascii=False) + "\n"


def draws():
    key = {"result.pub.pem": text(MV.pem(MV.RESULT))}
    # A draw of 10 accounts (the vectors' export and four more accounts): 6 picks, 4 neither.
    lines = MV.export_text().splitlines()
    header = json.loads(lines[0])
    extra = [{"type": "play", "id": f"w-{i:03d}", "account": MV.acct(20 + i), "at": "2018-12-22T11:00:00+01:00",
              "stake_cents": 1500 * (1 + i % 2), "channel": "web", "game": "loto", "subscription": None}
             for i in range(4)]
    header["plays"] += len(extra)
    recs = [json.loads(x) for x in lines[1:]]
    plays = [r for r in recs if r["type"] == "play"] + extra
    excl = [r for r in recs if r["type"] == "exclusion"]
    export = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in [header] + plays + excl).encode()
    bundle, result, computed, leaves = MV.make_draw(export)
    picked = [bundle["winner"]["leaf"]] + [x["leaf"] for x in bundle["reserves"]]
    neither = next(i for i in range(len(leaves)) if i not in picked)
    assert len(leaves) == 10 and len(picked) == 6
    pub = {"bundle.json": text(MV.jdump(bundle)), "bundle.json.sig": sig_of(MV.jdump(bundle)),
           "result.json": text(MV.jdump(result)), "result.json.sig": sig_of(MV.jdump(result))}
    only_result = {k: v for k, v in pub.items() if k.startswith("result")}
    only_bundle = {k: v for k, v in pub.items() if k.startswith("bundle")}
    c = bundle["commitment"]

    def signed_proof(p, name="proof.json"):
        t = MV.jdump(p)
        return {name: text(t), name + ".sig": sig_of(t)}

    winner = draw_proof(leaves, picked[0], c)
    reserve3 = draw_proof(leaves, picked[3], c)
    other = draw_proof(leaves, neither, c)
    for name, p, kind, rank in (("winner", winner, "winner", 0), ("reserve-3", reserve3, "reserve", 3),
                                ("neither", other, "neither", None)):
        files = dict(key, **pub, **signed_proof(p))
        code, out = python_verifies(files)
        assert code == 0, out
        case(f"draw-{name}-signed", f"the signed proof of the {name} against bundle.json and result.json "
             "(also verified by urne_verify.py)", files, True, kind=kind, rank=rank)
        case(f"draw-{name}-unsigned", f"the unsigned one-line proof of the {name} against result.json alone",
             dict(key, **only_result, **{"my-entry.jsonl": text(line(p))}), True, kind=kind, rank=rank)
    case("draw-reserve-3-unsigned-bundle", "the unsigned proof of reserve 3 against bundle.json alone",
         dict(key, **only_bundle, **{"entry.jsonl": text(line(reserve3))}), True, kind="reserve", rank=3)
    case("draw-neither-unsigned-no-final-lf", "the unsigned line without its final LF",
         dict(key, **only_result, **{"entry.jsonl": text(line(other)[:-1])}), True, kind="neither")

    # Tampered.
    bad = dict(other, path=list(other["path"]))
    bad["path"][1] = "%064x" % (int(bad["path"][1], 16) ^ 1)
    case("draw-path-changed-unsigned", "one path element changed (unsigned)",
         dict(key, **only_result, **{"entry.jsonl": text(line(bad))}), False, "commitment-mismatch")
    case("draw-path-changed-resigned", "one path element changed, re-signed with the result key",
         dict(key, **pub, **signed_proof(bad)), False, "commitment-mismatch")
    files = dict(key, **pub, **signed_proof(other))
    files["proof.json"] = text(files["proof.json"]["utf8"].replace('"leaf": %d' % neither, '"leaf": %d' % picked[0]))
    case("draw-proof-changed-after-signing", "the proof's leaf changed after it was signed",
         files, False, "bad-signature")
    swapped = dict(other, account=winner["account"])
    case("draw-other-account", "the winner's account put in another entry's proof (unsigned)",
         dict(key, **only_result, **{"entry.jsonl": text(line(swapped))}), False, "commitment-mismatch")
    case("draw-other-result", "the proof of this draw against the vectors' draw of the same day (another result)",
         dict(key, **flat({k: v for k, v in vector_files("draw-proof-valid").items() if k.startswith("draw/result")}),
              **{"entry.jsonl": text(line(other))}), False, "commitment-mismatch")
    other_key = {"result.pub.pem": text(MV.pem(MV.OTHER))}
    case("draw-wrong-key-signed", "signed proof and result under the vectors' key, checked with another key",
         dict(other_key, **pub, **signed_proof(other)), False, "bad-signature")
    case("draw-wrong-key-unsigned", "unsigned proof naming the vectors' key, checked with another key",
         dict(other_key, **only_result, **{"entry.jsonl": text(line(other))}), False, "inconsistent")
    # The identity-key forgery Chromium's WebCrypto accepts: A = identity, R = identity, S = 0.
    ident = bytes([1]) + bytes(31)
    forged_key = {"result.pub.pem": text(MV._pem_of_raw(ident))}
    forged = dict(winner, result_key_id=MV.key_id(ident))
    fres = dict(result, result_key_id=MV.key_id(ident))
    fsig = {"hex": (ident + bytes(32)).hex()}
    case("draw-identity-key-forgery", "every file 'signed' by the identity-key forgery (A = R = identity, S = 0), "
         "the identity key given as result.pub.pem", dict(forged_key, **{
             "proof.json": text(MV.jdump(forged)), "proof.json.sig": fsig,
             "result.json": text(MV.jdump(fres)), "result.json.sig": fsig}), False, "bad-signature",
         message="the key is of small order")
    case("draw-identity-key-forgery-unsigned", "the unsigned proof with a result.json 'signed' by the identity-key "
         "forgery", dict(forged_key, **{"entry.jsonl": text(line(forged)), "result.json": text(MV.jdump(fres)),
                                        "result.json.sig": fsig}), False, "bad-signature",
         message="the key is of small order")
    t = MV.jdump(other)
    good = MV.RESULT.sign(t.encode())
    s = int.from_bytes(good[32:], "little")
    case("draw-non-canonical-s", "the proof's genuine signature with S + L in place of S",
         dict(key, **pub, **{"proof.json": text(t), "proof.json.sig": {"hex": (good[:32] + (s + L).to_bytes(32, "little")).hex()}}),
         False, "bad-signature", message="S ≥ L")
    t2 = MV.jdump(result)
    small_r = bytes.fromhex("ec" + "ff" * 30 + "7f")        # y = -1: the point of order 2
    case("draw-small-order-r", "result.json's signature with R of order 2 (its S kept)",
         dict(key, **{"result.json": text(t2), "result.json.sig": {"hex": (small_r + MV.RESULT.sign(t2.encode())[32:]).hex()},
                      "entry.jsonl": text(line(other))}), False, "bad-signature", message="R of small order")
    case("draw-result-missing-sig", "result.json without its .sig",
         dict(key, **{"result.json": pub["result.json"], "entry.jsonl": text(line(other))}), False, "bad-signature")
    case("draw-result-sig-63-bytes", "result.json.sig of 63 bytes",
         dict(key, **{"result.json": pub["result.json"], "result.json.sig": {"hex": pub["result.json.sig"]["hex"][:126]},
                      "entry.jsonl": text(line(other))}), False, "bad-signature")
    case("draw-no-published-result", "the proof alone: the commitment is not shown to be published",
         dict(key, **signed_proof(other)), False, "commitment-mismatch")
    case("draw-unsigned-unknown-member", "the unsigned line with a member §4.8 does not have",
         dict(key, **only_result, **{"entry.jsonl": text(line(dict(other, note="x")))}), False, "malformed")
    case("draw-unsigned-duplicate-key", "the unsigned line with `leaf` twice",
         dict(key, **only_result, **{"entry.jsonl": text(line(other)[:-2] + ',"leaf":%d}\n' % neither)}), False, "malformed")
    case("draw-unsigned-two-lines", "two proofs in one JSON Lines file (give the line of your entry)",
         dict(key, **only_result, **{"entry.jsonl": text(line(other) + line(winner))}), False, "bad-signature")
    case("draw-pretty-proof-without-sig", "a pretty-printed (signed) proof whose .sig is missing",
         dict(key, **pub, **{"proof.json": text(MV.jdump(other))}), False, "bad-signature")
    sw = json.loads(MV.jdump(result))
    sw["winner"], sw["reserves"][0] = dict(sw["reserves"][0], rank=0), dict(sw["winner"], rank=1)
    swt = MV.jdump(sw)
    case("draw-result-picks-swapped", "result.json (re-signed) with the winner and reserve 1 swapped, bundle.json "
         "as drawn", dict(key, **only_bundle, **{"result.json": text(swt), "result.json.sig": sig_of(swt)},
                          **signed_proof(winner)), False, "inconsistent")
    case("draw-no-key", "no result.pub.pem", dict(pub, **signed_proof(other)), False, "usage")

    # Version 2 (tests/vectors/draw-v2-valid.json: the same export and day, so the same leaves).
    _, _, _, leaves6 = MV.make_draw(MV.export_text().encode())
    v2 = flat(vector_files("draw-v2-valid"))
    r2 = json.loads(v2["result.json"]["utf8"])
    assert r2["version"] == 2
    v2pub = {n: v2[n] for n in ("bundle.json", "bundle.json.sig", "result.json", "result.json.sig")}
    w2 = draw_proof(leaves6, r2["winner"]["leaf"], r2["commitment"])
    res2 = draw_proof(leaves6, r2["reserves"][1]["leaf"], r2["commitment"])
    files = dict(key, **v2pub, **signed_proof(w2))
    code, out = python_verifies(files)
    assert code == 0, out
    case("draw-v2-winner-signed", "the winner's signed proof against draw-v2-valid's bundle.json and result.json "
         "(also verified by urne_verify.py)", files, True, kind="winner", rank=0)
    case("draw-v2-reserve-2-unsigned", "reserve 2's unsigned line against draw-v2-valid's result.json",
         dict(key, **{n: v2[n] for n in ("result.json", "result.json.sig")}, **{"entry.jsonl": text(line(res2))}),
         True, kind="reserve", rank=2)
    rh = flat(vector_files("draw-v2-rehearsal"))
    case("draw-v2-rehearsal-unsigned", "the unsigned line against a rehearsal's result.json (draw-v2-rehearsal)",
         dict(key, **{n: rh[n] for n in ("result.json", "result.json.sig")}, **{"entry.jsonl": text(line(w2))}),
         False, "rehearsal")
    mixed = dict(key, **{"bundle.json": v2["bundle.json"], "bundle.json.sig": v2["bundle.json.sig"]},
                 **{"result.json": pub["result.json"], "result.json.sig": pub["result.json.sig"]},
                 **{"entry.jsonl": text(line(w2))})
    case("draw-bundle-and-result-of-two-draws", "draw-v2-valid's bundle.json with another draw's result.json",
         mixed, False, "commitment-mismatch")


def blocks():
    key = {"result.pub.pem": text(MV.pem(MV.RESULT))}
    for vec, version in (("block-folder-valid", 1), ("block-folder-v2-valid", 2)):
        f = flat(vector_files(vec))
        stem = MB.S
        csv = f[stem + ".tickets.csv"]["utf8"].encode()
        commit = json.loads(f[stem + ".commit.json"]["utf8"])
        rows = csv.split(b"\n")[1:-1]
        root = bytes.fromhex(commit["outcomes_root"])
        pub = {n: f[n] for n in (stem + ".commit.json", stem + ".commit.json.sig")}
        rev = {n: f[n] for n in (stem + ".reveal.json", stem + ".reveal.json.sig")}
        rules = {"rules.json": f["rules.json"]}
        top = next(i for i, r in enumerate(rows) if r.split(b",")[1] == b"10")
        lose = next(i for i, r in enumerate(rows) if r.split(b",")[1] == b"0")
        five = next(i for i, r in enumerate(rows) if r.split(b",")[1] == b"5")
        for pos, tier in ((top, 10), (lose, 0), (five, 5)):
            p = MB.proof(csv, root, pos)
            t = MV.jdump(p)
            proof = {"ticket.json": text(t), "ticket.json.sig": sig_of(t)}
            files = dict(key, **pub, **proof)
            code, out = python_verifies(files, "ticket.json")
            assert code == 0, out
            prize = int(rows[pos].split(b",")[2])
            case(f"block-v{version}-tier-{tier}-committed", f"ticket {pos} (tier {tier}) against the commitment, "
                 "before the reveal (also verified by urne_verify.py)", files, True, kind="ticket", tier=tier,
                 prize_cents=prize, revealed=False, recomputed=False)
            case(f"block-v{version}-tier-{tier}-revealed", f"ticket {pos} (tier {tier}) with the reveal and rules.json: "
                 "grids recomputed", dict(files, **rev, **rules), True, kind="ticket", tier=tier, prize_cents=prize,
                 revealed=True, recomputed=True)
        p = MB.proof(csv, root, five)
        t = MV.jdump(p)
        proof = {"ticket.json": text(t), "ticket.json.sig": sig_of(t)}
        case(f"block-v{version}-revealed-without-rules", "with the reveal, without rules.json: grids not recomputed",
             dict(key, **pub, **proof, **rev), True, kind="ticket", tier=5, revealed=True, recomputed=False)
        # Tampered.
        r = json.loads(f[stem + ".reveal.json"]["utf8"])
        other = dict(r, entropy=MB.OTHER_ENTROPY.hex())
        rt = MV.jdump(other)
        cls = "draw-mismatch"                   # v1: the seed commitment; v2: the entropy commitment first
        case(f"block-v{version}-reveal-other-entropy", "the reveal with another entropy (re-signed)",
             dict(key, **pub, **proof, **rules, **{stem + ".reveal.json": text(rt), stem + ".reveal.json.sig": sig_of(rt)}),
             False, cls)
        rt = MV.jdump(dict(r, seed="%064x" % (int(r["seed"], 16) ^ 1)))
        case(f"block-v{version}-reveal-wrong-seed", "the reveal whose seed is not the entropy's (re-signed)",
             dict(key, **pub, **proof, **rules, **{stem + ".reveal.json": text(rt), stem + ".reveal.json.sig": sig_of(rt)}),
             False, "inconsistent")
        rt = MV.jdump(dict(r, outcomes_root="%064x" % (int(r["outcomes_root"], 16) ^ 1)))
        case(f"block-v{version}-reveal-other-root", "the reveal naming another outcomes root (re-signed)",
             dict(key, **pub, **proof, **{stem + ".reveal.json": text(rt), stem + ".reveal.json.sig": sig_of(rt)}),
             False, "inconsistent")
        bt = MV.jdump(dict(p, row=p["row"].replace(",200,", ",500,", 1)))
        case(f"block-v{version}-row-prize-changed", "the ticket's prize changed in its row (re-signed)",
             dict(key, **pub, **{"ticket.json": text(bt), "ticket.json.sig": sig_of(bt)}), False, "commitment-mismatch")
        # Unsigned (spec/formats.md §5.B9 [M-404], §8.3 [M-400]): the proof as `urne-verify BLOCKDIR
        # --ticket-proof P` prints it after the reveal, no .sig, standing on the signed commitment.
        files = dict(key, **pub, **{"ticket.json": text(t)})
        code, out = python_verifies(files, "ticket.json")
        assert code == 0, out
        case(f"block-v{version}-unsigned-ticket-committed", "an unsigned ticket proof (no .sig) against the signed "
             "commitment alone (also verified by urne_verify.py)", files, True, kind="ticket", tier=5,
             revealed=False, recomputed=False)
        case(f"block-v{version}-unsigned-ticket-revealed", "an unsigned ticket proof with the reveal and rules.json: "
             "grids recomputed", dict(files, **rev, **rules), True, kind="ticket", tier=5, revealed=True,
             recomputed=True)
        ut = MV.jdump(dict(p, path=list(reversed(p["path"]))))
        case(f"block-v{version}-unsigned-ticket-path-reversed", "an unsigned ticket proof with its audit path reversed",
             dict(key, **pub, **rev, **rules, **{"ticket.json": text(ut)}), False, "commitment-mismatch")
        case(f"block-v{version}-unsigned-ticket-no-commitment", "an unsigned ticket proof without the block's "
             "commitment: nothing vouches for it", dict(key, **rev, **rules, **{"ticket.json": text(t)}), False, "usage")
        case(f"block-v{version}-unsigned-ticket-commitment-unsigned", "an unsigned ticket proof with the commitment "
             "but not its .sig", dict(key, **{stem + ".commit.json": pub[stem + ".commit.json"]}, **{"ticket.json": text(t)}),
             False, "bad-signature")
        case(f"block-v{version}-unsigned-ticket-other-key", "an unsigned ticket proof checked with another key "
             "(it names the vectors' key)", dict(key, **pub, **{"ticket.json": text(t)},
                                                  **{"result.pub.pem": text(MV.pem(MV.OTHER))}), False, "inconsistent")
        case(f"block-v{version}-other-rules", "rules.json that is not the commitment's (the draw rules)",
             dict(key, **pub, **proof, **rev, **{"rules.json": text(MV.RULES_BYTES.decode())}), False, "inconsistent")
    # A block whose committed seed is from another entropy than its tickets (block-tamper-draw-mismatch-tickets):
    # the seed matches its commitment, and the ticket's recomputed grids are not the committed row.
    f = flat(vector_files("block-tamper-draw-mismatch-tickets"))
    stem = MB.S
    csv = f[stem + ".tickets.csv"]["utf8"].encode()
    commit = json.loads(f[stem + ".commit.json"]["utf8"])
    p = MB.proof(csv, bytes.fromhex(commit["outcomes_root"]), 7)
    t = MV.jdump(p)
    files = {n: f[n] for n in f if not n.endswith(".tickets.csv") and not n.endswith(".tickets.csv.sig")}
    case("block-grids-not-from-seed", "a block whose tickets are not from its committed seed "
         "(block-tamper-draw-mismatch-tickets): the ticket's grids do not recompute",
         dict(files, **{"ticket.json": text(t), "ticket.json.sig": sig_of(t)}), False, "draw-mismatch")
    case("block-grids-not-from-seed-without-rules", "the same without rules.json: nothing shows it from one ticket",
         dict({n: v for n, v in files.items() if not n.startswith("rules.json")},
              **{"ticket.json": text(t), "ticket.json.sig": sig_of(t)}), True, kind="ticket", recomputed=False)


def main(argv):
    draws()
    blocks()
    out = json.dumps({"description": __doc__.strip().split("\n\n")[0], "cases": CASES}, indent=1,
                     ensure_ascii=False) + "\n"
    if argv == ["--check"]:
        with open(OUT, encoding="utf-8") as f:
            if f.read() != out:
                print("error: verifier/web/test/fixtures.json is not current\nhint: run python3 "
                      "verifier/web/test/make_fixtures.py", file=sys.stderr)
                return 1
        print(f"fixtures.json is current ({len(CASES)} cases)")
        return 0
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(out)
    print(f"{os.path.relpath(OUT)}: {len(CASES)} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
