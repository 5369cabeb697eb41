#!/usr/bin/env python3
"""Run every vector of tests/vectors/ against the Python verifier (schema: tests/vectors/README.md).
Exit 0 when every vector gives exactly what it declares."""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import vcore  # noqa: E402
import vofficial  # noqa: E402


def run_drbg(v):
    bad = 0
    for t in v["vectors"]:
        d = vcore.HmacDrbg(bytes.fromhex(t["entropy_input"]), bytes.fromhex(t["nonce"]),
                           bytes.fromhex(t["personalization_string"]))
        d.generate(len(t["returned_bits"]) // 2)
        bad += d.generate(len(t["returned_bits"]) // 2).hex() != t["returned_bits"]
    return bad == 0, f"{len(v['vectors']) - bad}/{len(v['vectors'])} CAVP vectors"


def run_consistency(v):
    """merkle-consistency.json: RFC 9162 §2.1.4 consistency proofs (spec/formats.md §2.4, vcore). Each case's
    verification gives `valid`; a valid case made from its own leaves (n == len(leaves)) also has
    the roots of those leaves and exactly the proof vcore generates."""
    h = bytes.fromhex
    bad = []
    for i, c in enumerate(v["cases"]):
        m, n, rm, rn = c["m"], c["n"], h(c["root_m"]), h(c["root_n"])
        proof = [h(p) for p in c["proof"]]
        ok = vcore.verify_consistency(m, n, rm, rn, proof) == c["valid"]
        if ok and c["valid"] and n == len(c["leaves"]):
            hashes = [vcore.leaf_hash(h(d)) for d in c["leaves"]]
            ok = (vcore.merkle_root_of_hashes(hashes[:m]) == rm
                  and vcore.merkle_root_of_hashes(hashes) == rn
                  and vcore.consistency_proof(m, hashes) == proof)
        if not ok:
            bad.append(f"{i} ({c['description']})")
    n = len(v["cases"])
    return not bad, "differs: " + "; ".join(bad) if bad else f"{n}/{n} cases"


def run_block_small(v):
    """block-small.json: every value of spec/formats.md §5.B1-§5.B7 on a reduced block (vblock)."""
    import hashlib
    import vblock
    rules_bytes = v["rules_json"].encode("utf-8")
    bad = []
    want = lambda name, got: bad.append(name) if got != v[name] else None
    want("rules_sha256", hashlib.sha256(rules_bytes).hexdigest())
    rules = vblock.parse_rules(rules_bytes)
    game, price, _, _ = vblock.parse_block_id(v["block_id"])
    seed = vblock.block_seed(v["block_id"], bytes.fromhex(v["rules_sha256"]), bytes.fromhex(v["entropy"]))
    want("seed", seed.hex())
    want("seed_commitment", vblock.seed_commitment(seed).hex())
    want("grid_key", vblock.grid_key(seed).hex())
    tiers, csv = vblock.recompute_tickets(rules, price, seed)
    want("tiers_in_sale_order", list(tiers))
    want("tickets_csv", csv.decode("ascii"))
    want("tickets_csv_sha256", hashlib.sha256(csv).hexdigest())
    rows = vblock.check_tickets_file(csv, rules, price, "tickets_csv")
    want("outcomes_root", vblock.root_of_leaf_hashes(vblock.leaf_hashes(rows)).hex())
    pr = v["inclusion_proof"]
    if rows[pr["position"]].decode() != pr["row"] or not vcore.verify_inclusion(
            pr["position"], len(rows), pr["row"].encode(), [bytes.fromhex(h) for h in pr["path"]],
            bytes.fromhex(v["outcomes_root"])):
        bad.append("inclusion_proof")
    return not bad, "differs: " + ", ".join(bad) if bad else f"all values recomputed ({len(rows)} tickets)"


def run_block_full(v):
    """block-full.json: the official 800,000-ticket block, shuffle and whole tickets.csv (vblock)."""
    import hashlib
    import time
    import vblock
    t0 = time.time()
    with open(os.path.join(HERE, "..", v["rules_file"]), "rb") as f:
        rules_bytes = f.read()
    bad = []
    want = lambda name, got: bad.append(name) if got != v[name] else None
    want("rules_sha256", hashlib.sha256(rules_bytes).hexdigest())
    rules = vblock.parse_rules(rules_bytes)
    game, price, _, _ = vblock.parse_block_id(v["block_id"])
    seed = vblock.block_seed(v["block_id"], bytes.fromhex(v["rules_sha256"]), bytes.fromhex(v["entropy"]))
    want("seed", seed.hex())
    want("seed_commitment", vblock.seed_commitment(seed).hex())
    want("grid_key", vblock.grid_key(seed).hex())
    tiers, csv = vblock.recompute_tickets(rules, price, seed)
    want("tiers_sha256", hashlib.sha256(tiers).hexdigest())
    want("top_prize_position", tiers.index(10))
    want("tickets_csv_bytes", len(csv))
    want("tickets_csv_sha256", hashlib.sha256(csv).hexdigest())
    rows = csv.split(b"\n")[1:-1]
    want("first_rows", [r.decode() for r in rows[:len(v["first_rows"])]])
    want("outcomes_root", vblock.root_of_leaf_hashes(vblock.leaf_hashes(rows)).hex())
    return not bad, ("differs: " + ", ".join(bad)) if bad else f"all values recomputed ({len(rows)} tickets, {time.time() - t0:.1f} s)"


def materialize(files, root):
    for rel, content in files.items():
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        data = content["utf8"].encode("utf-8") if "utf8" in content else bytes.fromhex(content["hex"])
        with open(p, "wb") as f:
            f.write(data)


def cli_args(a):
    """The vector's `args` object as a command line (the same for urne verify / urne_verify.py)."""
    out = [a["path"]]
    if "keys" in a:
        out += ["--keys", a["keys"]]
    if "export" in a:
        out += ["--export", a["export"]]
    for k in a.get("producer_keys", []):
        out += ["--producer-key", k]
    if "published" in a:
        out += ["--published", a["published"]]
    for c in a.get("checkpoints", []):
        out += ["--checkpoint", c]
    if a.get("strict"):
        out.append("--strict")
    if "expect_day" in a:
        out += ["--expect-day", a["expect_day"]]
    if "expect_block" in a:
        out += ["--expect-block", a["expect_block"]]
    for r in a.get("release", []):
        out += ["--release", r]
    for k in a.get("release_keys", []):
        out += ["--release-key", k]
    return out


def run_case(v, urne=None):
    cmd = [urne, "verify"] if urne else [sys.executable, os.path.join(HERE, "urne_verify.py")]
    with tempfile.TemporaryDirectory() as root:
        materialize(v["files"], root)
        p = subprocess.run(cmd + cli_args(v["args"]), cwd=root, capture_output=True, text=True,
                           env=dict(os.environ, URNE_DB=os.path.join(root, "unused.db")))
    ok, msg = judge(v["expect"], p.returncode, p.stdout, p.stderr)
    if ok and p.returncode in (0, 9) and v.get("command") in ("verify", "audit-verify"):
        why = first_lines_wrong(expected_first_lines(v), p.stdout)
        if why:
            return False, why
    if ok and "software" in v:
        # spec/formats.md §8.8 [M-415]: the release: and software: lines, byte for byte, in order.
        got = [line for line in p.stdout.split("\n") if line.startswith(("release: ", "software: "))]
        if got != v["software"]:
            return False, f"the release: and software: lines are {got!r}, the vector gives {v['software']!r}"
    return ok, msg


def _json_file(files, rel):
    e = files.get(rel)
    return json.loads(e["utf8"]) if e and "utf8" in e else None


def expected_first_lines(v):
    """spec/formats.md §8.1: the VERIFIED: lines that open standard output, from the vector's own files:
    for a draw folder (its bundle.json) or a lone result.json, `VERIFIED: the draw of <operation>
    day <day> attempt <n> (version <v>) in <path>`; for a block folder (with rules.json), one
    `VERIFIED: block <id> attempt <n> (version <v>) in <path>` per commitment, in the bytewise
    order of their names; for a sitting's folder (its sitting.json), `VERIFIED: sitting <n>
    (<kind>, version 2) in <path>` (spec/formats.md §9.4); for a void notice's folder, `VERIFIED: the void
    notice of day <day> attempt <n> (version 2) in <path>` (`block <id>`); for an inclusion proof,
    `VERIFIED: the inclusion proof of leaf <i> in the draw of <operation> day <day> attempt <n> in
    <path>`, for a ticket proof `VERIFIED: the ticket proof of position <p> of block <id> in <path>`
    (M-318); for an audit export `VERIFIED: the audit trail of <n> events in <path>` (M-319); for a key
    export `VERIFIED: the key export of result key <id> and audit key <id> in <path>` (M-326). None
    when the line depends on what a folder of outputs or a lone commitment holds: then only the
    first line's `VERIFIED` is checked. When
    the rules an output binds (its id and rules_sha256) are not an official regulation, the first
    line reads `VERIFIED (règlement non officiel / unofficial rules: <id>): …` (spec/formats.md §7.4, §8.1)."""
    lines = _expected_first_lines(v)
    if not lines:
        return lines
    ids = []
    for rules_id, sha in _bound_rules(v):
        if vofficial.standing(rules_id, sha) == vofficial.UNOFFICIAL and rules_id not in ids:
            ids.append(rules_id)
    if ids:
        word, rest = lines[0].split(": ", 1)
        lines[0] = f"{word} ({vofficial.WORDS}: {', '.join(ids)}): {rest}"
    return lines


# spec/formats.md §8.1 (M-398): what the line of a draw or a block commitment verified on its own adds.
ALONE = (" (alone: a void notice published later would cancel it; only the whole publications medium, verified as "
         "one folder of outputs, sees voids)")


def _void_beside(files, path):
    """(day|block, id, attempt) the void notice in the folder `path` voids, or None."""
    n = _json_file(files, f"{path}/void-notice.json")
    if not isinstance(n, dict):
        return None
    return ("day", n["day"], n["attempt"]) if n.get("day") is not None else ("block", n.get("block"), n["attempt"])


def _voidable_line(what, key, path, void, whole):
    """`VERIFIED: <what> in <path>` (with `(alone: …)` unless `whole`), or `VOIDED: … announces its void; …`
    when `void` is `key`'s."""
    if void is not None and void == key:
        return (f"VOIDED: {what} in {path}: the void notice of {key[0]} {key[1]} attempt {key[2]} (version 2) "
                "announces its void; it is not the result")
    return f"VERIFIED: {what} in {path}{'' if whole else ALONE}"


def _bound_rules(v):
    """(id, rules_sha256) of the draw or the block commitments a vector's path holds."""
    files, path = v["files"], v["args"]["path"].rstrip("/")
    for rel in (f"{path}/bundle.json", f"{path}/result.json", path if path.endswith("result.json") else None):
        d = _json_file(files, rel) if rel else None
        if d is not None:
            return [(d.get("operation"), d.get("rules_sha256"))]
    return [(c.get("game"), c.get("rules_sha256")) for k in sorted(files, key=lambda k: k.encode())
            if k.startswith(path + "/") and k.endswith(".commit.json") and "/" not in k[len(path) + 1:]
            for c in [_json_file(files, k)] if isinstance(c, dict)]


def _expected_first_lines(v):
    files, path = v["files"], v["args"]["path"].rstrip("/")
    proofs = _proof_lines(files, path, v["args"].get("published"))
    if proofs is not None:
        return proofs
    one = _output_lines(files, path, path, _void_beside(files, path), False)
    if one is not None or path in files:
        return one
    # A folder of outputs (spec/formats.md §8.4): each immediate subfolder's lines, in bytewise order
    # of their names, each naming the path given (M-311); a draw or a block commitment a void
    # notice anywhere among them voids is VOIDED, the others VERIFIED without the parenthesis (M-398).
    # None when a subfolder is no output these lines know (then only the first word is checked).
    subs = sorted({k[len(path) + 1:].split("/")[0] for k in files
                   if k.startswith(path + "/") and "/" in k[len(path) + 1:]}, key=lambda n: n.encode())
    subs = [n for n in subs if not n.startswith(".urne-staging-")]
    voids = [x for x in (_void_beside(files, f"{path}/{n}") for n in subs) if x is not None]
    lines = []
    for n in subs:
        mine = _output_lines(files, f"{path}/{n}", path, voids, True)
        if mine is None:
            return None
        lines += mine
    return lines or None


def _proof_lines(files, path, published):
    """spec/formats.md §8.1: the first line of an inclusion proof (M-318; checked against the published draw,
    what the account is in it, M-402) or of the file of every proof of a day (M-403); None for another path."""
    text = files.get(path, {}).get("utf8") if path.endswith((".json", ".jsonl")) else None
    if text is None:
        return None
    rows = [json.loads(x) for x in text.split("\n") if x.strip()] if path.endswith(".jsonl") else [json.loads(text)]
    if not rows or not isinstance(rows[0], dict) or rows[0].get("format") != "urne-inclusion-proof":
        return None
    p = rows[0]
    draw = f"the draw of {p['operation']} day {p['day']} attempt {p['attempt']} in {path}"
    if path.endswith(".jsonl"):
        return [f"VERIFIED: {len(rows)} inclusion proof{'' if len(rows) == 1 else 's'} in {draw}"]
    standing = ""
    b = _json_file(files, f"{published}/bundle.json") if published else None
    if isinstance(b, dict):
        rank = next((x["rank"] for x in [b["winner"]] + b["reserves"] if x["pseudonym"] == p["pseudonym"]), None)
        standing = (": neither the winner nor a reserve" if rank is None else ": the winner" if rank == 0
                    else f": reserve {rank}")
    return [f"VERIFIED: the inclusion proof of leaf {p['leaf']} in {draw}{standing}"]


def _output_lines(files, path, shown, voids, whole):
    """The first lines of the one output in `path` (every kind it holds, in the order urne verifies
    them: a draw or lone result, the block commitments, the void notice, the sitting, the key
    export), each naming `shown`; None when it holds none of them."""
    voids = voids if isinstance(voids, list) else [voids]
    voidable = lambda what, key: _voidable_line(what, key, shown, key if key in voids else None, whole)
    lines = []
    for rel in (f"{path}/bundle.json", f"{path}/result.json", path if path.endswith("result.json") else None):
        d = _json_file(files, rel) if rel else None
        if d is not None:
            lines.append(voidable(f"the draw of {d['operation']} day {d['day']} attempt {d['attempt']} "
                                  f"(version {d['version']})", ("day", d["day"], d["attempt"])))
            break
    if path.endswith(".jsonl") and path in files:        # an audit export (M-319)
        n = sum(1 for line in files[path].get("utf8", "").split("\n") if line.endswith('"type":"event"}'))
        return [f"VERIFIED: the audit trail of {n} events in {shown}"]
    p = _json_file(files, path) if path.endswith(".json") else None
    if isinstance(p, dict) and p.get("format") == "urne-ticket-proof":
        return [f"VERIFIED: the ticket proof of position {p['position']} of block {p['block']} in {shown}"]
    if f"{path}/rules.json" in files:
        names = sorted((k for k in files if k.startswith(path + "/") and k.endswith(".commit.json")
                        and "/" not in k[len(path) + 1:]), key=lambda k: k.encode())
        for k in names:
            c = _json_file(files, k)
            lines.append(voidable(f"block {c['block']} attempt {c['attempt']} (version {c['version']})",
                                  ("block", c["block"], c["attempt"])))
    n = _json_file(files, f"{path}/void-notice.json")
    if n is not None:                                   # M-311
        what = f"day {n['day']}" if n.get("day") is not None else f"block {n['block']}"
        lines.append(f"VERIFIED: the void notice of {what} attempt {n['attempt']} (version 2) in {shown}")
    s = _json_file(files, f"{path}/sitting.json")
    if s is not None:
        lines.append(f"VERIFIED: sitting {s['number']} ({s['kind']}, version {s['version']}) in {shown}")
    k = _json_file(files, f"{path}/keys.json")
    if isinstance(k, dict) and all(isinstance(k.get(r), dict) for r in ("result", "audit")):     # M-326
        lines.append(f"VERIFIED: the key export of result key {k['result'].get('key_id')} and audit key "
                     f"{k['audit'].get('key_id')} in {shown}")
    return lines or None


def first_lines_wrong(want, out):
    """Why standard output does not open as spec/formats.md §8.1 says (None when it does)."""
    lines = out.split("\n")
    if want is None:
        return None if lines[0].startswith(("VERIFIED", "VOIDED")) else f"the first line is not VERIFIED: ...: {lines[0]!r}"
    got = [line for line in lines if line.startswith(("VERIFIED: ", "VERIFIED (", "VOIDED: ", "VOIDED ("))]
    if lines[0] != want[0] or got[:len(want)] != want:
        return f"the VERIFIED: lines are {got!r}, SPEC §8.1 gives {want!r} (first line {lines[0]!r})"
    return None


# spec/formats.md §8.1: an error line starts `error`, then, for urne's own verifiers, the
# failure's id in brackets (`error[<id>]`, spec/appliance.md §10), then `: `; what a reader may
# depend on is that start and the words after it.
ERROR = re.compile(r"^error(\[[a-z0-9-]+\])?: ")


def judge(want, code, out, err):
    """Whether a run gives what the vector expects (tests/vectors/README.md): `valid` is exit 0
    and no line starting `partial:` on standard output; `partial` exit 0 with at least one;
    `usage` exit 2 with a line starting `error:` then one starting `hint:` on standard error and no
    "verification failed"; `not-released` exit 9 with `error: software not released: <what>`;
    `release-<class>` exit 2 with `error: release manifest refused (<class>): <what>` then a `hint:` line
    (spec/formats.md §8.8); a failure class exit 1 with a line
    `error: verification failed (<class>): <what>` on standard error. Returns (ok, what happened in one line)."""
    partial = [line for line in out.split("\n") if line.startswith("partial:")]
    first_err = err.strip().split("\n")[0] if err.strip() else ""
    if want == "valid":
        ok = code == 0 and not partial
    elif want == "not-released":
        # spec/formats.md §8.8 [M-417]: exit 9, `error: software not released: <what>`.
        ok = code == 9 and any(ERROR.match(line) and ERROR.sub("", line, count=1).startswith(
            "software not released: ") for line in err.split("\n"))
    elif want.startswith("release-"):
        # spec/formats.md §8.8 [M-412]: exit 2, `error: release manifest refused (<class>): …`, then `hint:`.
        lines = err.split("\n")
        first = next((i for i, line in enumerate(lines) if ERROR.match(line) and ERROR.sub("", line, count=1)
                      .startswith(f"release manifest refused ({want[len('release-'):]}): ")), None)
        ok = (code == 2 and first is not None and any(line.startswith("hint:") for line in lines[first + 1:])
              and "verification failed" not in err)
    elif want == "partial":
        ok = code == 0 and bool(partial)
    elif want == "usage":
        # spec/formats.md §8.1: `error: …` then `hint: …`, and never "verification failed".
        lines = err.split("\n")
        first = next((i for i, line in enumerate(lines) if ERROR.match(line)), None)
        ok = (code == 2 and first is not None and any(line.startswith("hint:") for line in lines[first + 1:])
              and "verification failed" not in err)
    else:
        # spec/formats.md §8.1: `error: verification failed (<class>): <what>`.
        ok = code == 1 and any(ERROR.match(line) and ERROR.sub("", line, count=1).startswith(
            f"verification failed ({want}): ") for line in err.split("\n"))
    if code == 0:
        return ok, partial[0] if partial else "valid"
    return ok, first_err or f"exit {code}"


def main(folder, urne=None):
    failed = 0
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(folder, name)) as f:
            v = json.load(f)
        if name.startswith("hmac-drbg") and not urne:
            ok, msg = run_drbg(v)
        elif name == "merkle-consistency.json" and not urne:
            ok, msg = run_consistency(v)
        elif name == "block-small.json" and not urne:
            ok, msg = run_block_small(v)
        elif name == "block-full.json" and not urne:
            if os.environ.get("URNE_SKIP_FULL_BLOCK"):
                continue
            ok, msg = run_block_full(v)
        elif name.startswith(("draw-", "history-", "block-", "audit-", "sitting-", "keys-", "release-")) and "files" in v and "expect" in v:
            ok, msg = run_case(v, urne)
        else:
            continue
        failed += not ok
        print(f"  {'ok  ' if ok else 'FAIL'}  {name}: {'expects ' + v.get('expect', '') + ', ' if 'expect' in v else ''}{msg}")
    return 1 if failed else 0


if __name__ == "__main__":
    # run_vectors.py [DIR] [--urne BIN]: with --urne, run `BIN verify` on the draw-*, history-*,
    # block-*, sitting-*, keys-* and audit-* vectors that have files and an expectation instead (block-small and block-full
    # are computations, which urne's own tests check). URNE_SKIP_FULL_BLOCK=1 skips block-full.json (about 15 s in Python).
    args = sys.argv[1:]
    urne = None
    if "--urne" in args:
        i = args.index("--urne")
        urne = os.path.abspath(args[i + 1])
        del args[i:i + 2]
    sys.exit(main(args[0] if args else os.path.join(HERE, "..", "tests", "vectors"), urne))
