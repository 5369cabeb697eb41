#!/usr/bin/env python3
"""Writes tests/vectors/block-folder-*.json, block-proof-*.json and block-tamper-*.json
(schema: tests/vectors/README.md): signed block folders (spec/formats.md §5.B9) and ticket proofs, valid and
tampered, each declaring the failure class spec/formats.md §5.B10 assigns.

Deterministic: the fixed test keys of make_vectors.py, the reduced rules file of block-small.json
(100 tickets), fixed entropies. Computed with this verifier's code (SPEC.md alone); verifier/test.sh
runs `urne verify` on the same vectors, which is the cross-check.
Run: python3 verifier/make_block_vectors.py [OUT_DIR]
"""
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_vectors as MV  # noqa: E402
import vblock as B  # noqa: E402
import vcore  # noqa: E402
import vmanifest  # noqa: E402
import vofficial  # noqa: E402
from vcore import key_id  # noqa: E402

VEC = os.path.join(HERE, "..", "tests", "vectors")
RULES_BYTES = json.load(open(os.path.join(VEC, "block-small.json")))["rules_json"].encode()
RULES = B.parse_rules(RULES_BYTES)
RULES_SHA = hashlib.sha256(RULES_BYTES).digest()
PRICE, EMISSION, NUMBER = 100, "2015-12", 3
BID = f"{RULES['game']}/{PRICE}/{EMISSION}/{NUMBER}"
S = B.file_stem(BID)
ENTROPY = bytes(range(0x40, 0x70))          # 48 bytes
OTHER_ENTROPY = bytes(range(0x70, 0xA0))
CHECKPOINT = MV.checkpoint(MV.audit_events(), 4)
# spec/formats.md §7.4: the reduced game is not an official regulation, so its version-2 outputs say so.
UNOFFICIAL = vofficial.standing(RULES["game"], RULES_SHA.hex()) == vofficial.UNOFFICIAL


def with_member(d):
    """`d` (a version-2 commitment or reveal) with `"unofficial_rules": true` after
    rules_sha256 when the rules are not an official regulation (spec/formats.md §7.4), as urne writes it."""
    out = {}
    for k, v in d.items():
        out[k] = v
        if k == "rules_sha256" and UNOFFICIAL:
            out["unofficial_rules"] = True
    return out


SOFTWARE = {"name": "urne", "version": "0.1.0", "source_revision": "0" * 40, "executable_sha256": "0" * 64}


def block(entropy, contribution=None):
    seed = B.block_seed(BID, RULES_SHA, entropy, contribution)
    tiers, csv = B.recompute_tickets(RULES, PRICE, seed)
    rows = csv.split(b"\n")[1:-1]
    return seed, csv, B.root_of_leaf_hashes(B.leaf_hashes(rows))


def commitment(seed, csv, root, **over):
    c = {"format": "urne-block-commitment", "version": 1, "block": BID, "game": RULES["game"],
         "price_cents": PRICE, "emission": EMISSION, "number": NUMBER, "attempt": 1,
         "rules_sha256": RULES_SHA.hex(), "block_size": RULES["block_size"],
         "tiers": [{"tier": t, "units": u, "prize_cents": pz} for t, u, pz in B.tier_table(RULES, PRICE)],
         "outcomes_root": root.hex(), "seed_commitment": B.seed_commitment(seed).hex(),
         "tickets_file": S + ".tickets.csv", "tickets_sha256": hashlib.sha256(csv).hexdigest(),
         "generated_at": "2015-11-30T08:00:00.000000Z", "audit_checkpoint": CHECKPOINT,
         "result_key_id": key_id(MV.raw(MV.RESULT)), "audit_key_id": key_id(MV.raw(MV.AUDIT)), "software": SOFTWARE}
    c.update(over)
    return c


def reveal(entropy, seed, c, **over):
    r = {"format": "urne-block-reveal", "version": 1, "block": BID, "rules_sha256": RULES_SHA.hex(),
         "entropy": entropy.hex(), "seed": seed.hex(), "seed_commitment": c["seed_commitment"],
         "outcomes_root": c["outcomes_root"], "revealed_at": "2016-01-15T08:00:00.000000Z",
         "audit_checkpoint": CHECKPOINT, "result_key_id": key_id(MV.raw(MV.RESULT))}
    r.update(over)
    return r


# Version 2 (spec/formats.md §5.B9): the reveal states when the block's sales closed, between the commitment's
# generated_at and the reveal's revealed_at.
SALES_CLOSED_AT = "2015-12-31T22:59:59.000000Z"


def with_sales_close(r, closed):
    """The reveal `r` with `sales_closed_at` = `closed` just before `revealed_at`, where urne writes it."""
    out = {}
    for k, v in r.items():
        if k == "revealed_at":
            out["sales_closed_at"] = closed
        if k != "sales_closed_at":
            out[k] = v
    return out


def folder(commit, csv=None, rev=None, commit_text=None, sign_key=MV.RESULT, rules_bytes=RULES_BYTES, stem=S,
           manifest=True, manifest_csv=None):
    """A signed block folder `block/`. A version-2 commitment gets its S.manifest.json (issue 12
    contract) over S.commit.json, rules.json and the production file (`manifest_csv`, default
    `csv`, whether or not the file is in the folder), unless `manifest` is False; `manifest` may
    be a function that edits it before signing."""
    f = MV.keys_files()
    sig = lambda name, data: MV.signed(name, data, sign_key, folder="block")
    f.update(sig("rules.json", rules_bytes))
    f.update(sig(stem + ".commit.json", commit_text or MV.jdump(commit)))
    if csv is not None:
        f.update(sig(stem + ".tickets.csv", csv))
    if rev is not None:
        f.update(sig(stem + ".reveal.json", MV.jdump(rev)))
    if commit.get("version") == 2 and manifest:
        tickets = manifest_csv if manifest_csv is not None else csv
        over = dict(f, **{f"block/{stem}.tickets.csv": {"utf8": tickets.decode()}})
        subject = {"operation": commit["game"], "day": None, "block": commit["block"], "attempt": commit["attempt"],
                   "result_key_id": commit["result_key_id"]}
        m = MV.manifest_of(over, "block", subject, vmanifest.block_files(stem),
                           edit=manifest if callable(manifest) else None)
        f.update(sig(vmanifest.block_name(stem), MV.jdump(m)))
    return f


def proof(csv, root, position):
    rows = csv.split(b"\n")[1:-1]
    hashes = B.leaf_hashes(rows)

    def path(index, lo, hi):              # RFC 9162 audit path of leaf `index` in hashes[lo:hi]
        n = hi - lo
        if n <= 1:
            return []
        k = 1 << ((n - 1).bit_length() - 1)
        if index - lo < k:
            return path(index, lo, lo + k) + [B.root_of_leaf_hashes(hashes[lo + k:hi])]
        return path(index, lo + k, hi) + [B.root_of_leaf_hashes(hashes[lo:lo + k])]
    return {"format": "urne-ticket-proof", "version": 1, "block": BID, "position": position,
            "row": rows[position].decode(), "block_size": len(rows), "outcomes_root": root.hex(),
            "path": [h.hex() for h in path(position, 0, len(rows))], "result_key_id": key_id(MV.raw(MV.RESULT))}


# Vectors urne does not pass yet (the SPEC's class, not urne's): written beside OUT_DIR, in
# vectors-pending/ (tests/vectors-pending/README.md), so that the committed set stays green.
PENDING = set()


def write(out, name, desc, expect, files, args):
    v = {"description": desc, "expect": expect, "command": "verify", "args": args, "files": files}
    if name in PENDING:
        out = os.path.join(os.path.dirname(os.path.abspath(out)), "vectors-pending")
        os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, name + ".json"), "w") as f:
        f.write(json.dumps(v, indent=1, ensure_ascii=False) + "\n")


# ---- version 2 (spec/formats.md §3.2, §3.3, §5.B3): the entropy committed to, then the contribution ------------
CONTRIBUTION = "6 2 5 1 4 4 3 6, dés du commissaire"


def v2_events(entropy, order=("e", "c"), contribution=CONTRIBUTION, event_edit=None):
    """A version-2 trail of 6 events: trail.created, then the block's block.entropy and
    block.contribution events (as events 2 and 3, in `order`), then placeholders (the block's
    generation, its reveal). `event_edit(kind, payload)` changes a payload before it is written."""
    ec = vcore.entropy_commitment(entropy).hex()
    e = {"block": BID, "attempt": 1, "rules_sha256": RULES_SHA.hex(), "entropy_commitment": ec,
         "entropy_blob": vcore.sha256(b"sealed entropy " + entropy).hex()}
    c = {"blocks": [{"block": BID, "attempt": 1, "entropy_commitment": ec}], "contribution": contribution}
    if event_edit:
        e, c = event_edit("block.entropy", e), event_edit("block.contribution", c)
    ev = {"e": ("block.entropy", MV.compact(e)), "c": ("block.contribution", MV.compact(c))}
    return MV.history_events(6, real={2: ev[order[0]], 3: ev[order[1]]}), ec


def v2_folder(committed, generated_from=None, order=("e", "c"), revealed=True, tickets=True, manifest=True,
              contribution=CONTRIBUTION, history=None, reveal_edit=None, commit_edit=None, event_edit=None):
    """A version-2 block folder: the commitment (checkpoint of 4 events, first output of its trail)
    carries the entropy commitment of `committed`, the contribution and the fixed events; the
    block is generated from `generated_from` (default: `committed`) and the contribution; the
    reveal (checkpoint of 6 events) names the commitment as its predecessor. `history(events)`, if
    given, is the commitment's history; `reveal_edit(reveal)` changes the reveal before signing,
    `commit_edit(commitment)` the commitment."""
    entropy = generated_from or committed
    events, ec = v2_events(committed, order, contribution, event_edit)
    seqs = (2, 3) if order == ("e", "c") else (3, 2)
    seed, csv, root = block(entropy, contribution)
    fixed = {"entropy": MV.fixed_event(events, seqs[0], 4), "contribution": MV.fixed_event(events, seqs[1], 4)}
    c = commitment(seed, csv, root, version=2, audit_checkpoint=MV.checkpoint(events, 4))
    c = {k: v for k, v in c.items() if k not in ("tickets_file",)}
    out = {}
    for k, v in c.items():
        out[k] = v
        if k == "seed_commitment":
            out.update(entropy_commitment=ec, contribution=contribution, entropy_refused=[], fixed=fixed,
                       tickets_file=S + ".tickets.csv")
    out["pkcs11"] = MV.PKCS11
    out["history"] = history(events) if history else {"trail": MV.TRAIL_ID, "predecessor": None, "consistency": []}
    out = with_member(out)
    if commit_edit:
        out = commit_edit(out)
    ctext = MV.jdump(out)
    leaves = MV.tree_leaves(events, 6)
    rh = {"trail": MV.TRAIL_ID,
          "predecessor": {"sha256": hashlib.sha256(ctext.encode()).hexdigest(), "checkpoint_size": 4,
                          "checkpoint_root": vcore.merkle_root_of_hashes(leaves[:4]).hex()},
          "consistency": [x.hex() for x in vcore.consistency_proof(4, leaves)]}
    rv = reveal(entropy, seed, out, version=2, audit_checkpoint=MV.checkpoint(events, 6), history=rh)
    rv = with_member(with_sales_close(rv, SALES_CLOSED_AT))
    if reveal_edit:
        rv = reveal_edit(rv)
    return folder(out, csv if tickets else None, rv if revealed else None, commit_text=ctext, manifest=manifest,
                  manifest_csv=csv)


def main(out):
    seed, csv, root = block(ENTROPY)
    c = commitment(seed, csv, root)
    rv = reveal(ENTROPY, seed, c)
    A = {"path": "block", "keys": "keys"}
    w = lambda name, desc, expect, files, args=A: write(out, name, desc, expect, files, args)

    w("block-folder-valid", f"Block {BID} (100 tickets, the reduced rules of block-small.json): commitment, "
      "tickets.csv and reveal, all signed.", "valid", folder(c, csv, rv))
    w("block-folder-valid-unrevealed", "The same block before the reveal: commitment and tickets.csv.", "valid",
      folder(c, csv))
    w("block-folder-valid-commitment-only", "The same block as published at generation: the commitment alone.",
      "valid", folder(c))

    f = folder(c, csv, rv)
    data = bytearray(csv); data[200] ^= 1
    f[f"block/{S}.tickets.csv"] = {"utf8": data.decode()}
    w("block-tamper-bad-signature-tickets", "A byte of tickets.csv flipped, not re-signed.", "bad-signature", f)
    f = folder(c, csv, rv); del f[f"block/{S}.reveal.json.sig"]
    w("block-tamper-bad-signature-missing-sig", "The reveal without its .sig.", "bad-signature", f)
    w("block-tamper-bad-signature-checkpoint", "The commitment's audit_checkpoint signed by another key.",
      "bad-signature", folder(dict(c, audit_checkpoint=MV.checkpoint(MV.audit_events(), 4, MV.OTHER)), csv, rv))

    w("block-rehearsal", "The block folder of a rehearsal token: the commitment's audit_checkpoint (re-signed) has "
      "the origin urne-rehearsal/<audit key id>, signed by the audit key under that name: never an official block "
      "(SPEC §6.10, §5.B10).", "rehearsal",
      folder(dict(c, audit_checkpoint=MV.checkpoint(MV.audit_events(), 4, origin="urne-rehearsal")), csv, rv))

    w("block-tamper-malformed-unknown-field", "An unknown field in the commitment (re-signed).", "malformed",
      folder(dict(c, extra=1), csv, rv))
    w("block-tamper-malformed-block-id", "The commitment's block id with a leading zero (re-signed).", "malformed",
      folder(dict(c, block=BID.replace(f"/{NUMBER}", f"/0{NUMBER}")), csv, rv))

    w("block-tamper-inconsistent-rules-sha256", "The commitment's rules_sha256 is not rules.json's (re-signed).",
      "inconsistent", folder(dict(c, rules_sha256="00" * 32), csv, rv))
    w("block-tamper-inconsistent-number", "The commitment's number disagrees with its block id (re-signed).",
      "inconsistent", folder(dict(c, number=NUMBER + 1), csv, rv))
    w("block-tamper-inconsistent-reveal-seed", "The reveal's seed field is not the one derived from its entropy "
      "(re-signed); entropy, seed commitment and tickets are right.", "inconsistent",
      folder(c, csv, dict(rv, seed="11" * 32)))
    w("block-tamper-inconsistent-reveal-block", "The reveal names another block (re-signed).", "inconsistent",
      folder(c, csv, dict(rv, block=BID[:-1] + str(NUMBER + 1))))

    tiers = json.loads(json.dumps(c["tiers"])); tiers[0]["units"] += 1; tiers[-1]["units"] -= 1
    w("block-tamper-commitment-mismatch-tiers", "The commitment's tiers claim two top prizes (re-signed).",
      "commitment-mismatch", folder(dict(c, tiers=tiers), csv, rv))
    lines = csv.split(b"\n")
    a, b = 1 + 5, 1 + 6                                   # rows of positions 5 and 6
    pa, pb = lines[a].split(b",", 1), lines[b].split(b",", 1)
    lines[a], lines[b] = pa[0] + b"," + pb[1], pb[0] + b"," + pa[1]   # tickets swapped, positions kept
    sw = b"\n".join(lines)
    rows = sw.split(b"\n")[1:-1]
    sw_root = B.root_of_leaf_hashes(B.leaf_hashes(rows))
    w("block-tamper-commitment-mismatch-tickets-sha256", "Tickets 5 and 6 swapped in tickets.csv (positions "
      "kept, re-signed), the commitment unchanged: the file is not tickets_sha256.", "commitment-mismatch",
      folder(c, sw, rv))
    w("block-tamper-commitment-mismatch-root", "Tickets 5 and 6 swapped and tickets_sha256 updated (re-signed): "
      "the rows no longer lead to outcomes_root.", "commitment-mismatch",
      folder(dict(c, tickets_sha256=hashlib.sha256(sw).hexdigest()), sw, rv))
    w("block-tamper-draw-mismatch-swapped", "Tickets 5 and 6 swapped, and the commitment made for that file "
      "(tickets_sha256, outcomes_root, re-signed): consistent before the reveal, not the recomputed block after.",
      "draw-mismatch", folder(dict(c, tickets_sha256=hashlib.sha256(sw).hexdigest(), outcomes_root=sw_root.hex()),
                              sw, dict(rv, outcomes_root=sw_root.hex())))
    oseed = B.block_seed(BID, RULES_SHA, OTHER_ENTROPY)
    w("block-tamper-draw-mismatch-entropy", "The reveal with another entropy (and its seed, re-signed): its seed "
      "commitment is not the committed one.", "draw-mismatch", folder(c, csv, dict(rv, entropy=OTHER_ENTROPY.hex(),
                                                                                  seed=oseed.hex())))
    c2 = dict(c, seed_commitment=B.seed_commitment(oseed).hex())
    w("block-tamper-draw-mismatch-tickets", "The seed committed is from another entropy than the tickets "
      "(re-signed): the revealed seed matches its commitment, the recomputed tickets are not the committed ones.",
      "draw-mismatch", folder(c2, csv, reveal(OTHER_ENTROPY, oseed, c2)))

    w("block-folder-v2-valid", "A version-2 block folder (SPEC §3.3, §5.B3): the commitment carries, after "
      "seed_commitment, entropy_commitment, the contribution, entropy_refused (empty) and `fixed`: the "
      "block.entropy event (2) then the block.contribution event (3) of a version-2 trail with their inclusion "
      "proofs in the tree of its checkpoint (4 events); the seed is urne/v2/block-seed over the contribution; "
      "the reveal (checkpoint of 6 events) names the commitment as its predecessor.", "valid",
      v2_folder(ENTROPY))
    w("block-folder-v2-valid-unrevealed", "block-folder-v2-valid before the reveal.", "valid",
      v2_folder(ENTROPY, revealed=False))
    w("block-folder-v2-valid-entropy-32-bytes", "block-folder-v2-valid made from 32 bytes of entropy, what urne "
      "asks the HSM for a block (SPEC §5.B3: at least 32): the reveal's entropy is exactly the minimum.", "valid",
      v2_folder(bytes(range(0x40, 0x60))))
    w("block-tamper-inconsistent-v2-contribution-before-entropy", "block-folder-v2-valid on a trail where the "
      "block.contribution event is event 2 and the block.entropy event event 3 (both real and in the checkpoint's "
      "tree): the contribution existed before the entropy was committed to (SPEC §3.3).", "inconsistent",
      v2_folder(ENTROPY, order=("c", "e")))
    # The randomness events, each name changed alone (spec/formats.md §3.3, §5.B10 step 3: the entropy event is this
    # block's, attempt's and rules'; the contribution event names this block, attempt and entropy commitment,
    # and is this contribution).
    other_bid = BID[:-1] + str(NUMBER + 1)
    for name, kind, change in (
            ("entropy-block", "block.entropy", lambda p: dict(p, block=other_bid)),
            ("entropy-attempt", "block.entropy", lambda p: dict(p, attempt=2)),
            ("entropy-rules", "block.entropy", lambda p: dict(p, rules_sha256="00" * 32)),
            ("contribution-block", "block.contribution",
             lambda p: dict(p, blocks=[dict(p["blocks"][0], block=other_bid)])),
            ("contribution-attempt", "block.contribution",
             lambda p: dict(p, blocks=[dict(p["blocks"][0], attempt=2)])),
            ("contribution-entropy-commitment", "block.contribution",
             lambda p: dict(p, blocks=[dict(p["blocks"][0], entropy_commitment="00" * 32)])),
            ("contribution-text", "block.contribution", lambda p: dict(p, contribution="une autre contribution"))):
        w(f"block-tamper-inconsistent-v2-{name}", f"block-folder-v2-valid on a trail whose {kind} event (real, in the "
          f"checkpoint's tree) differs in one name only ({name.split('-', 1)[1]}): the randomness evidence is "
          "another block's (SPEC §3.3, §5.B10 step 3).", "inconsistent",
          v2_folder(ENTROPY, event_edit=lambda k, p, kind=kind, change=change: change(p) if k == kind else p))
    w("block-tamper-draw-mismatch-v2-entropy-commitment", "A version-2 block whose commitment and trail commit to "
      "one entropy but whose block (seed commitment, tickets, outcomes root) and reveal are from another: the "
      "revealed entropy is not the one entropy_commitment names (SPEC §3.2, §5.B10 step 4).", "draw-mismatch",
      v2_folder(ENTROPY, generated_from=OTHER_ENTROPY))

    # The rules file, the folder's files and the block's identity (spec/formats.md §5.B10 step 2).
    w("block-tamper-inconsistent-draw-rules", "The block folder's rules.json is a draw rules file (the repository's "
      "chanceux-noel-2018.json, signed): the commitment's rules_sha256 is not its SHA-256, which is checked before "
      "the rules file is parsed (inconsistent, not malformed).", "inconsistent",
      folder(c, csv, rv, rules_bytes=MV.RULES_BYTES))
    f = folder(c, csv, rv)
    s4 = B.file_stem(BID[:-1] + str(NUMBER + 1))
    f.update(MV.signed(s4 + ".tickets.csv", csv, folder="block"))
    w("block-tamper-inconsistent-orphan-tickets", f"block-folder-valid with a production file {s4}.tickets.csv "
      f"(signed) whose commitment {s4}.commit.json is not in the folder.", "inconsistent", f)
    for what, bid, game, price in (("game", f"other-game/{PRICE}/{EMISSION}/{NUMBER}", "other-game", PRICE),
                                   ("price", f"{RULES['game']}/150/{EMISSION}/{NUMBER}", RULES["game"], 150)):
        st = B.file_stem(bid)
        cg = dict(c, block=bid, game=game, price_cents=price, tickets_file=st + ".tickets.csv")
        w(f"block-tamper-inconsistent-{what}", f"A commitment (re-signed, alone) of block {bid}: "
          + ("not the rules file's game" if what == "game" else "150 is not one of the rules' price points")
          + " (SPEC §5.B2, §5.B10 step 2).", "inconsistent", folder(cg, stem=st))
    f = folder(c, csv, rv)
    f.update(MV.keys_files(MV.OTHER))
    w("block-tamper-bad-signature-keys-of-another-appliance", "block-folder-valid verified under another "
      "appliance's result key: rules.json's signature fails first, and a rules file names no result key, so it "
      "stays bad-signature (the usage rule looks at the failing file only; compare "
      "draw-usage-keys-of-another-appliance, where bundle.json fails first).", "bad-signature", f)

    # Version 2: the block's manifest (issue 12 contract), --expect-block, a lone commitment.
    w("block-tamper-malformed-v2-no-manifest", "block-folder-v2-valid without its S.manifest.json (and .sig): a "
      "version-2 commitment MUST have one beside it.", "malformed", v2_folder(ENTROPY, manifest=False))
    b4 = BID[:-1] + str(NUMBER + 1)
    w("block-tamper-inconsistent-v2-manifest-block", f"block-folder-v2-valid whose manifest (re-signed) names block "
      f"{b4}: it MUST name the commitment's game, block and attempt.", "inconsistent",
      v2_folder(ENTROPY, manifest=lambda m: m.update(block=b4)))
    for what, change in (("attempt", {"attempt": 2}), ("result-key", {"result_key_id": "0123456789abcdef"})):
        w(f"block-tamper-inconsistent-v2-manifest-{what}", f"block-folder-v2-valid whose manifest (re-signed) names "
          f"{'attempt 2' if what == 'attempt' else 'another result key'}, all else this block's: it MUST name the "
          "commitment's game, block and attempt, and the result key (SPEC §5.B9).", "inconsistent",
          v2_folder(ENTROPY, manifest=lambda m, c=change: m.update(c)))
    w("block-tamper-inconsistent-v2-expect-block", f"block-folder-v2-valid verified with --expect-block {b4}: the "
      f"folder holds {BID} only.", "inconsistent", v2_folder(ENTROPY), dict(A, expect_block=b4))
    w("block-folder-v2-valid-expect-block", f"block-folder-v2-valid verified with --expect-block {BID}.", "valid",
      v2_folder(ENTROPY), dict(A, expect_block=BID))
    padded = BID.rsplit("/", 1)[0] + "/0" + BID.rsplit("/", 1)[1]
    w("block-usage-expect-block-not-canonical", f"block-folder-v2-valid verified with --expect-block {padded}, its "
      "block with a leading zero: not a canonical block id (SPEC §5.B2), a usage mistake (SPEC §8.1), exit 2.",
      "usage", v2_folder(ENTROPY), dict(A, expect_block=padded))
    w("block-folder-v2-valid-public", "block-folder-v2-valid as published at generation: rules.json, the commitment "
      "and its manifest; the production file the manifest lists (S.tickets.csv, on the secret medium) is absent, "
      "which is only noted, not partial.", "valid", v2_folder(ENTROPY, revealed=False, tickets=False))
    full = v2_folder(ENTROPY, revealed=False, tickets=False)
    lone = dict(MV.keys_files(), **{k.replace("block/", "public/"): v for k, v in full.items()
                                    if k.startswith(f"block/{S}.commit.json")})
    w("block-folder-v2-partial-lone-commit", f"A lone {S}.commit.json (+ .sig) of block-folder-v2-valid, given as "
      "the path: its signature, parse, checkpoint, order evidence and history hold; exit 0 with `partial:` lines "
      "(no manifest; the rules and the production file not checked).", "partial", lone,
      {"path": f"public/{S}.commit.json", "keys": "keys"})

    pr = proof(csv, root, 69 % RULES["block_size"])
    P = {"path": "proof.json", "keys": "keys", "published": "block"}
    pf = lambda prf, commit=c: dict(folder(commit), **MV.signed("proof.json", MV.jdump(prf), folder="."))
    fix = lambda f: {k.replace("./", ""): v for k, v in f.items()}
    w("block-proof-valid", f"Ticket proof of position {pr['position']} against the published commitment.", "valid",
      fix(pf(pr)), P)
    w("block-proof-commitment-mismatch-path", "The proof's audit path reversed (re-signed).", "commitment-mismatch",
      fix(pf(dict(pr, path=pr["path"][::-1]))), P)
    w("block-proof-commitment-mismatch-row", "The proof's row with another prize (re-signed).", "commitment-mismatch",
      fix(pf(dict(pr, row=pr["row"].replace(",0,0,", ",4,100,", 1) if ",0,0," in pr["row"] else pr["row"] + "A"))), P)
    w("block-proof-commitment-mismatch-published", "A valid proof against a published commitment with another "
      "outcomes root (re-signed).", "commitment-mismatch", fix(pf(pr, dict(c, outcomes_root="22" * 32))), P)
    w("block-proof-rehearsal", "block-proof-valid against a published commitment (re-signed) whose "
      "audit_checkpoint has a rehearsal token's origin, urne-rehearsal/<id>: the proof of a rehearsal's block is a "
      "rehearsal's too (SPEC §6.10, §5.B9).", "rehearsal",
      fix(pf(pr, dict(c, audit_checkpoint=c["audit_checkpoint"].replace("urne-audit/", "urne-rehearsal/")))), P)
    # spec/formats.md §5.B9, §8.3 [M-400]: a ticket proof derived after the reveal has no signature; the
    # published commitment vouches for it, and is needed.
    unsigned = lambda prf: dict(folder(c), **{"proof.json": {"utf8": MV.jdump(prf)}})
    w("block-proof-valid-unsigned", f"The ticket proof of position {pr['position']} with no .sig (as `urne-verify "
      "BLOCKDIR --ticket-proof P` derives it after the reveal) against the published commitment (SPEC §5.B9, "
      "§8.3).", "valid", unsigned(pr), P)
    w("block-proof-commitment-mismatch-unsigned-path", "The unsigned ticket proof with its audit path reversed "
      "(SPEC §8.3).", "commitment-mismatch", unsigned(dict(pr, path=pr["path"][::-1])), P)
    w("block-proof-usage-unsigned-no-published", "The unsigned ticket proof without --published: nothing vouches "
      "for it (SPEC §8.3, a usage mistake).", "usage", unsigned(pr), {k: v for k, v in P.items() if k != "published"})
    musts_vectors(w, A, c, csv, rv, seed, root, pr, P, pf, fix)


def musts_vectors(w, A, c, csv, rv, seed, root, pr, P, pf, fix):
    """Block vectors for requirement ids nothing exercised before (tests/musts.toml), one per MUST
    and failure class of spec/formats.md §5.B9-§5.B10, each changing one thing of block-folder-valid,
    block-folder-v2-valid or block-proof-valid (re-signed unless the class is bad-signature)."""
    f = folder(c, csv, rv)
    del f["block/rules.json"], f["block/rules.json.sig"]
    w("block-tamper-malformed-no-rules", "block-folder-valid without rules.json (nor its .sig): a block folder MUST "
      "have it (SPEC §5.B10 step 1).", "malformed", f)
    bad = json.loads(RULES_BYTES)
    bad["totals"]["winning_units"] += 1
    bad["totals"]["losing_units"] -= 1
    bad_bytes = MV.jdump(bad).encode()
    w("block-tamper-malformed-rules", "A commitment alone (re-signed) made under a rules file whose totals do not "
      "add up (winning_units 23 for 22 units in the table), its SHA-256 in rules_sha256, the file signed: "
      "rules.json MUST load (SPEC §5.B10 step 2, §5.B1).", "malformed",
      folder(dict(c, rules_sha256=hashlib.sha256(bad_bytes).hexdigest()), rules_bytes=bad_bytes))
    big = json.loads(RULES_BYTES)
    big["block_size"] = 4194305
    big["totals"]["losing_units"] = 4194305 - big["totals"]["winning_units"]
    big_bytes = MV.jdump(big).encode()
    w("block-tamper-malformed-rules-block-size", "A commitment alone (re-signed) made under a rules file whose "
      "block_size is 4,194,305 (the table adds up: losing_units 4,194,283), its SHA-256 in rules_sha256, the file "
      "signed: a block_size is at most 4,194,304 (SPEC §5.B1, §1.6).", "malformed",
      folder(dict(c, rules_sha256=hashlib.sha256(big_bytes).hexdigest(), block_size=4194305), rules_bytes=big_bytes))
    w("block-tamper-inconsistent-audit-key-id", "The commitment's audit_key_id (re-signed) names another key than "
      "the audit key (SPEC §5.B10 step 2).", "inconsistent",
      folder(dict(c, audit_key_id=key_id(MV.raw(MV.OTHER))), csv, rv))
    w("block-tamper-inconsistent-tickets-file", "The commitment's tickets_file (re-signed) names another file than "
      f"{S}.tickets.csv (SPEC §5.B10 step 2).", "inconsistent",
      folder(dict(c, tickets_file="other.tickets.csv"), csv, rv))
    f = folder(c, csv, rv)
    f.update(MV.signed(f"{S}.manifest.json", MV.jdump(MV.manifest_of(
        f, "block", {"operation": c["game"], "day": None, "block": BID, "attempt": 1,
                     "result_key_id": c["result_key_id"]}, vmanifest.block_files(S))), folder="block"))
    w("block-tamper-malformed-v1-with-manifest", f"block-folder-valid (version 1) with a signed {S}.manifest.json "
      "beside its commitment: version 1 has no manifest (SPEC §5.B10 step 2).", "malformed", f)
    # The reveal (spec/formats.md §5.B10 step 4).
    w("block-tamper-malformed-reveal-unknown-field", "The reveal (re-signed) has an unknown member (SPEC §5.B10 step "
      "4, §1.5).", "malformed", folder(c, csv, dict(rv, extra=1)))
    w("block-tamper-inconsistent-reveal-seed-commitment", "The reveal's seed_commitment (re-signed) is not the "
      "commitment's; entropy and seed are right (SPEC §5.B10 step 4).", "inconsistent",
      folder(c, csv, dict(rv, seed_commitment="33" * 32)))
    w("block-tamper-inconsistent-reveal-key-id", "The reveal's result_key_id (re-signed) is not the result key's id "
      "(SPEC §5.B10 step 4).", "inconsistent", folder(c, csv, dict(rv, result_key_id="0123456789abcdef")))
    w("block-tamper-malformed-reveal-entropy-uppercase", "The reveal's entropy in uppercase hex (re-signed) (SPEC "
      "§5.B10 step 4).", "malformed", folder(c, csv, dict(rv, entropy=rv["entropy"].upper())))
    short = bytes(range(0x40, 0x5F))                      # 31 bytes
    s2, csv2, root2 = block(short)
    c2 = commitment(s2, csv2, root2)
    w("block-tamper-inconsistent-reveal-entropy-31-bytes", "A block made and revealed, consistently (seed, "
      "commitment, tickets), from 31 bytes of entropy: a block's entropy is at least 32 bytes (SPEC §5.B3, "
      "§5.B10 step 4).", "inconsistent", folder(c2, csv2, reveal(short, s2, c2)))
    w("block-tamper-bad-signature-reveal-checkpoint", "The reveal's audit_checkpoint (re-signed as a file) signed "
      "by another key under the audit key's name (SPEC §5.B10 step 4).", "bad-signature",
      folder(c, csv, dict(rv, audit_checkpoint=MV.checkpoint(MV.audit_events(), 4, MV.OTHER))))
    # Version 2: contribution, histories, manifest, reveal version.
    w("block-tamper-malformed-v2-contribution-grammar", "A version-2 block whose contribution holds U+202E "
      "(RIGHT-TO-LEFT OVERRIDE), consistently in the commitment, the seed and the recorded events (SPEC §4.4.1, "
      "§5.B10 step 2).", "malformed", v2_folder(ENTROPY, contribution="6 2 5 \u202e1 4 4, dés du commissaire"))

    def pred_history(bad):
        def h(events):
            leaves = MV.tree_leaves(events, 4)
            proof = [x.hex() for x in vcore.consistency_proof(2, leaves)]
            if bad:
                proof[0] = "%064x" % (int(proof[0], 16) ^ 1)
            return {"trail": MV.TRAIL_ID,
                    "predecessor": {"sha256": hashlib.sha256(b"an output published elsewhere").hexdigest(),
                                    "checkpoint_size": 2,
                                    "checkpoint_root": vcore.merkle_root_of_hashes(leaves[:2]).hex()},
                    "consistency": proof}
        return h
    w("block-folder-v2-valid-predecessor", "block-folder-v2-valid whose commitment names a predecessor published "
      "elsewhere (checkpoint of 2 events) with the consistency proof from 2 to 4: valid alone (the predecessor "
      "only noted).", "valid", v2_folder(ENTROPY, history=pred_history(False)))
    w("block-tamper-fork-v2-bad-consistency", "block-folder-v2-valid-predecessor with one hash of the commitment's "
      "consistency proof changed (re-signed): it does not lead to audit_checkpoint (SPEC §5.B10 step 2, §6.7).",
      "fork", v2_folder(ENTROPY, history=pred_history(True)))

    def bad_reveal_history(r):
        h = json.loads(json.dumps(r["history"]))
        h["consistency"][0] = "%064x" % (int(h["consistency"][0], 16) ^ 1)
        return dict(r, history=h)
    w("block-tamper-fork-v2-reveal-bad-consistency", "block-folder-v2-valid with one hash of the reveal's "
      "consistency proof (from the commitment's checkpoint to the reveal's) changed, re-signed (SPEC §5.B10 step "
      "4).", "fork", v2_folder(ENTROPY, reveal_edit=bad_reveal_history))
    w("block-tamper-inconsistent-reveal-version", "block-folder-v2-valid with a version-1 reveal (no sales close, "
      "no history, re-signed): the reveal has the commitment's version (SPEC §5.B10 step 4, §7.2).", "inconsistent",
      v2_folder(ENTROPY, reveal_edit=lambda r: dict({k: v for k, v in r.items()
                                                     if k not in ("history", "sales_closed_at")}, version=1)))
    sales_close_vectors(w)
    unofficial_vectors(w)
    extra = {"name": "zz-notes.txt", "size": 0, "sha256": hashlib.sha256(b"").hexdigest(), "audience": "public"}
    w("block-tamper-inconsistent-v2-manifest-files", "block-folder-v2-valid whose manifest (re-signed) lists a "
      "fourth file: exactly the three files of a block (SPEC §5.B10 step 2).", "inconsistent",
      v2_folder(ENTROPY, manifest=lambda m: m["files"].append(extra)))

    def entry(name, **over):
        def edit(m):
            for e in m["files"]:
                if e["name"] == name:
                    e.update(over)
        return edit
    w("block-tamper-inconsistent-v2-manifest-tickets-sha256", f"block-folder-v2-valid-public (no {S}.tickets.csv in "
      "the folder) whose manifest (re-signed) gives the production file another SHA-256 than the commitment's "
      "tickets_sha256 (SPEC §5.B10 step 2).", "inconsistent",
      v2_folder(ENTROPY, revealed=False, tickets=False, manifest=entry(f"{S}.tickets.csv", sha256="44" * 32)))
    w("block-tamper-inconsistent-v2-manifest-rules-size", "block-folder-v2-valid whose manifest (re-signed) lists "
      "rules.json with one byte more than the file present (SPEC §5.B10 step 2).", "inconsistent",
      v2_folder(ENTROPY, manifest=entry("rules.json", size=len(RULES_BYTES) + 1)))
    w("block-tamper-inconsistent-v2-manifest-commit-sha256", f"block-folder-v2-valid whose manifest (re-signed) lists "
      f"{S}.commit.json with another SHA-256 than the file present (SPEC §5.B10 step 2).", "inconsistent",
      v2_folder(ENTROPY, manifest=entry(f"{S}.commit.json", sha256="55" * 32)))
    lone = v2_folder(ENTROPY, order=("c", "e"), revealed=False, tickets=False)
    lone = dict(MV.keys_files(), **{k.replace("block/", "public/"): v for k, v in lone.items()
                                    if k.startswith(f"block/{S}.commit.json")})
    w("block-tamper-inconsistent-v2-lone-commit-order", f"A lone {S}.commit.json of "
      "block-tamper-inconsistent-v2-contribution-before-entropy: the order evidence is checked from the "
      "commitment alone (SPEC §8.5).", "inconsistent", lone, {"path": f"public/{S}.commit.json", "keys": "keys"})
    b4 = BID[:-1] + str(NUMBER + 1)
    s4 = B.file_stem(b4)
    e4 = bytes(range(0xA0, 0xD0))
    seed4 = B.block_seed(b4, RULES_SHA, e4)
    _, csv4 = B.recompute_tickets(RULES, PRICE, seed4)
    root4 = B.root_of_leaf_hashes(B.leaf_hashes(csv4.split(b"\n")[1:-1]))
    c4 = commitment(seed4, csv4, root4, block=b4, number=NUMBER + 1, tickets_file=s4 + ".tickets.csv")
    two = folder(c, csv, rv)
    two.update(MV.signed(s4 + ".commit.json", MV.jdump(c4), folder="block"))
    two.update(MV.signed(s4 + ".tickets.csv", csv4, folder="block"))
    two.update(MV.signed(s4 + ".reveal.json", MV.jdump(reveal(e4, seed4, c4, block=b4)), folder="block"))
    w("block-folder-valid-two-blocks", f"block-folder-valid and block {b4} (its own entropy, commitment, tickets "
      f"and reveal) in one folder: one VERIFIED: line per block, {BID} then {b4} (SPEC §8.1, §5.B10).", "valid", two)
    w("block-tamper-malformed-v2-no-fixed", "block-folder-v2-valid-unrevealed whose commitment (re-signed, listed "
      "by its manifest) lacks `fixed`: a version-2 commitment has the members of its version (SPEC §5.B10 step "
      "2).", "malformed", v2_folder(ENTROPY, revealed=False,
                                    commit_edit=lambda c: {k: v for k, v in c.items() if k != "fixed"}))
    w("block-tamper-malformed-version-3", "The commitment (re-signed) says version 3, a version no verifier knows "
      "(SPEC §7.2, §5.B10 step 2).", "malformed", folder(dict(c, version=3), csv, rv))
    w("block-tamper-malformed-v1-with-history", "A version-1 commitment (re-signed) with a history member (SPEC "
      "§5.B10 step 2).", "malformed",
      folder(dict(c, history={"trail": MV.TRAIL_ID, "predecessor": None, "consistency": []}), csv, rv))
    other = dict(c, block=b4, number=NUMBER + 1, tickets_file=s4 + ".tickets.csv")
    w("block-proof-commitment-mismatch-no-commitment", f"A valid ticket proof of {BID} against a published folder "
      f"that holds block {b4}'s commitment and not {BID}'s (SPEC §5.B9).", "commitment-mismatch",
      fix(dict(folder(other, stem=s4), **MV.signed("proof.json", MV.jdump(pr), folder="."))), P)
    # Ticket proofs (spec/formats.md §5.B9).
    t = MV.jdump(pr)
    f = fix(dict(folder(c), **{"./proof.json": {"utf8": t.replace(f'"position": {pr["position"]},',
                                                                  f'"position": {pr["position"] + 1},', 1)},
                               "./proof.json.sig": {"hex": MV.RESULT.sign(t.encode()).hex()}}))
    w("block-proof-bad-signature", "The ticket proof's position changed after signing (SPEC §5.B9).",
      "bad-signature", f, P)
    w("block-proof-malformed-block-id", "The ticket proof (re-signed) names the block with a leading zero in its "
      "number: not the canonical spelling (SPEC §5.B9, §5.B2).", "malformed",
      fix(pf(dict(pr, block=BID.replace(f"/{NUMBER}", f"/0{NUMBER}")))), P)
    w("block-proof-inconsistent-key-id", "The ticket proof (re-signed) names another result_key_id (SPEC §5.B9).",
      "inconsistent", fix(pf(dict(pr, result_key_id="0123456789abcdef"))), P)
    rows = csv.split(b"\n")[1:-1]
    w("block-proof-malformed-row-position", "The ticket proof (re-signed) of position 69 whose row is position 70's: "
      "row MUST begin with its position (SPEC §5.B9).", "malformed",
      fix(pf(dict(pr, row=rows[pr["position"] + 1].decode()))), P)


def sales_close_vectors(w):
    """The reveal's sales close (spec/formats.md §5.B9, §5.B10 step 4): each vector changes only the reveal of
    block-folder-v2-valid (re-signed)."""
    edit = lambda closed: (lambda r: with_sales_close(r, closed))
    w("block-tamper-malformed-v2-reveal-no-sales-close", "block-folder-v2-valid whose reveal (re-signed) lacks "
      "sales_closed_at: a version-2 reveal states when the block's sales closed (SPEC §5.B9, §5.B10 step 4).",
      "malformed", v2_folder(ENTROPY, reveal_edit=lambda r: {k: v for k, v in r.items() if k != "sales_closed_at"}))
    w("block-tamper-malformed-v1-reveal-sales-close", "block-folder-valid (version 1) whose reveal (re-signed) has "
      "a sales_closed_at: a version-1 reveal states none (SPEC §5.B10 step 4).", "malformed",
      block_v1_with_reveal(lambda r: with_sales_close(r, SALES_CLOSED_AT)))
    w("block-tamper-inconsistent-v2-reveal-sales-close-offset", "block-folder-v2-valid whose reveal (re-signed) "
      "states the sales close as 2015-12-31T23:59:59+01:00, the same instant with an offset: it is stated in urne's "
      "one time format, RFC 3339 UTC with microseconds (SPEC §5.B10 step 4, §6.1).", "inconsistent",
      v2_folder(ENTROPY, reveal_edit=edit("2015-12-31T23:59:59+01:00")))
    w("block-tamper-inconsistent-v2-reveal-sales-close-no-date", "block-folder-v2-valid whose reveal (re-signed) "
      "states the sales close on 31 November, a day that does not exist (SPEC §5.B10 step 4).", "inconsistent",
      v2_folder(ENTROPY, reveal_edit=edit("2015-11-31T22:59:59.000000Z")))
    w("block-tamper-inconsistent-v2-reveal-sales-close-after-reveal", "block-folder-v2-valid whose reveal "
      "(re-signed) states that the sales closed a microsecond after its revealed_at (SPEC §5.B10 step 4).",
      "inconsistent", v2_folder(ENTROPY, reveal_edit=edit("2016-01-15T08:00:00.000001Z")))
    w("block-folder-v2-valid-sales-close-at-reveal", "block-folder-v2-valid whose reveal (re-signed) states that "
      "the sales closed at its revealed_at itself: not after the reveal, so allowed (SPEC §5.B10 step 4).", "valid",
      v2_folder(ENTROPY, reveal_edit=edit("2016-01-15T08:00:00.000000Z")))
    w("block-folder-v2-valid-sales-close-at-generation", "block-folder-v2-valid whose reveal (re-signed) states "
      "that the sales closed at the commitment's generated_at itself: not before the generation, so allowed (SPEC "
      "§5.B10 step 4).", "valid", v2_folder(ENTROPY, reveal_edit=edit("2015-11-30T08:00:00.000000Z")))
    w("block-tamper-inconsistent-v2-reveal-sales-close-before-generation", "block-folder-v2-valid whose reveal "
      "(re-signed) states that the sales closed a microsecond before the commitment's generated_at (SPEC §5.B10 "
      "step 4).", "inconsistent", v2_folder(ENTROPY, reveal_edit=edit("2015-11-30T07:59:59.999999Z")))


def unofficial_vectors(w):
    """spec/formats.md §7.4: the member `unofficial_rules` of a version-2 block under the reduced game (not an
    official regulation) agrees with the standing both verifiers recompute."""
    drop = lambda d: {k: v for k, v in d.items() if k != "unofficial_rules"}
    w("block-tamper-inconsistent-v2-unofficial-rules-missing", "block-folder-v2-valid whose commitment and reveal "
      "(re-signed) lack \"unofficial_rules\": true: its game noel-test is not an official regulation, which a "
      "version-2 output says in that member (SPEC §7.4).", "inconsistent",
      v2_folder(ENTROPY, commit_edit=drop, reveal_edit=drop))
    w("block-tamper-inconsistent-v2-reveal-unofficial-rules", "block-folder-v2-valid whose reveal (re-signed) lacks "
      "\"unofficial_rules\": true, which its commitment has: the reveal is not this block's (SPEC §5.B10 step 4, "
      "§7.4).", "inconsistent", v2_folder(ENTROPY, reveal_edit=drop))
    w("block-tamper-malformed-v2-unofficial-rules-false", "block-folder-v2-valid whose commitment (re-signed) says "
      "\"unofficial_rules\": false: the member is true when present (SPEC §7.4).", "malformed",
      v2_folder(ENTROPY, commit_edit=lambda c: dict(c, unofficial_rules=False)))
    seed, csv, root = block(ENTROPY)
    c = with_member(commitment(seed, csv, root))
    ob = f"noel-de-la-chance-2015/{PRICE}/{EMISSION}/{NUMBER}"
    os_ = B.file_stem(ob)
    oc = commitment(seed, csv, root, block=ob, game="noel-de-la-chance-2015", tickets_file=os_ + ".tickets.csv")
    f = MV.keys_files()
    f.update(MV.signed(os_ + ".commit.json", MV.jdump(oc), folder="block"))
    w("block-tamper-inconsistent-official-game-other-rules", "A lone commitment (signed) of a block of the official "
      "game noel-de-la-chance-2015 whose rules_sha256 is not the pinned SHA-256 of that game's rules file: an "
      "official id with other bytes does not verify, without rules.json (SPEC §7.4).", "inconsistent", f,
      {"path": f"block/{os_}.commit.json", "keys": "keys"})
    w("block-tamper-malformed-v1-unofficial-rules", "block-folder-valid-commitment-only whose version-1 commitment "
      "(re-signed) has \"unofficial_rules\": true: a member of version 2 only (SPEC §7.4).", "malformed", folder(c))


def block_v1_with_reveal(edit):
    seed, csv, root = block(ENTROPY)
    c = commitment(seed, csv, root)
    return folder(c, csv, edit(reveal(ENTROPY, seed, c)))


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else VEC
    for n in os.listdir(out):
        if n.startswith(("block-folder-", "block-proof-", "block-tamper-")) and n.endswith(".json"):
            os.remove(os.path.join(out, n))
    main(out)
