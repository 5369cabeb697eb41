#!/usr/bin/env python3
"""Writes tests/vectors/draw-*.json, history-*.json and audit-*.json (schema: tests/vectors/README.md).

Deterministic: fixed test keys (derived from fixed strings; never use them for anything else),
fixed entropy and witness, the repository's rules file. The values are computed with this
verifier's own code (SPEC.md alone); verifier/test.sh runs `urne verify` on the same vectors,
which is the cross-check. Run: python3 verifier/make_vectors.py [OUT_DIR]
"""
import base64
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from cryptography.hazmat.primitives import serialization as ser  # noqa: E402
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402

import vaudit  # noqa: E402
import vdraw  # noqa: E402
import vcore  # noqa: E402
import vexport  # noqa: E402
import vmanifest  # noqa: E402
from vcore import H, key_id, merkle_root, sha256, verify_inclusion, leaf_hash, node_hash, \
    merkle_root_of_hashes, consistency_proof  # noqa: E402

RULES_BYTES = open(os.path.join(HERE, "..", "rules", "chanceux-noel-2018.json"), "rb").read()
RULES = json.loads(RULES_BYTES)
OP, DAY = "chanceux-noel-2018", "2018-12-22"   # P4: the 15-euro tranche


# A version-2 output's `pkcs11` (spec/formats.md §4.7, §6.2): the module, the token, the files mapped.
PKCS11 = {"module_path": "/usr/lib/softhsm/libsofthsm2.so", "module_sha256": "11" * 32,
          "manufacturer": "SoftHSM", "library": "Implementation of PKCS11", "library_version": "2.6",
          "cryptoki_version": "3.0",
          "token": {"label": "urne-vectors", "manufacturer": "SoftHSM project", "model": "SoftHSM v2",
                    "serial": "0123456789abcdef", "firmware": "2.6"},
          "mapped": [{"path": "/usr/bin/urne", "status": "present", "sha256": "0" * 64},
                     {"path": "/usr/lib/softhsm/libsofthsm2.so", "status": "present", "sha256": "11" * 32}]}


def key(name):
    return Ed25519PrivateKey.from_private_bytes(sha256(f"urne test vector key: {name}".encode()))


def raw(k):
    return k.public_key().public_bytes(ser.Encoding.Raw, ser.PublicFormat.Raw)


def pem(k):
    return k.public_key().public_bytes(ser.Encoding.PEM, ser.PublicFormat.SubjectPublicKeyInfo).decode()


RESULT, AUDIT, PRODUCER, OTHER = key("result"), key("audit"), key("producer"), key("other result")


def _scalar_base(n):
    """The encoding of n·B (RFC 8032 §5.1.2), with vcore's point arithmetic."""
    base = vcore._decode_point(((4 * pow(5, vcore._P - 2, vcore._P)) % vcore._P).to_bytes(32, "little"))
    acc, p = (0, 1, 1, 0), base
    while n:
        if n & 1:
            acc = vcore._add(acc, p)
        p, n = vcore._add(p, p), n >> 1
    x, y, z, _ = acc
    zi = pow(z, vcore._P - 2, vcore._P)
    x, y = x * zi % vcore._P, y * zi % vcore._P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def _pem_of_raw(raw_key):
    """A SubjectPublicKeyInfo PEM (RFC 8410) of any 32 bytes, point or not."""
    der = bytes.fromhex("302a300506032b6570032100") + raw_key
    b64 = base64.b64encode(der).decode()
    return "-----BEGIN PUBLIC KEY-----\n" + b64 + "\n-----END PUBLIC KEY-----\n"


def jdump(o):
    return json.dumps(o, indent=2, ensure_ascii=False) + "\n"   # spec/formats.md §1.5: two-space indent, final LF


def acct(i):
    return hashlib.sha256(f"vector account {i}".encode()).hexdigest()


# ---- a tiny export (entry-export-v1): every case of the tally (D-3 ... D-6, D-13) --------------
def export_text(stake_of_0=3000, excluded_retail_only=False):
    """`excluded_retail_only`: also an account excluded (closed) whose only play is retail; spec/formats.md
    §4.7 counts it in figures.excluded_accounts_with_plays (a play record of any class)."""
    pid = [0]

    def play(a, at, cents, ch="web", sub=None):
        pid[0] += 1
        return {"type": "play", "id": f"v-{pid[0]:03d}", "account": acct(a), "at": at, "stake_cents": cents,
                "channel": ch, "game": "loto", "subscription": sub}
    recs = [
        play(0, "2018-12-22T10:00:00+01:00", stake_of_0),              # 3000 / 1500 -> 2 entries
        play(0, "2018-12-21T23:30:00Z", 1400, "mobile"),                 # 00:30 Paris: on the day
        play(1, "2018-12-22T22:59:59Z", 1500, "app"),                    # 23:59:59 Paris: 1 entry
        play(2, "2018-12-22T12:00:00+01:00", 99999, "retail"),           # retail never counts
        play(3, "2018-12-22T12:00:00+01:00", 6000, "web",
             {"subscribed_at": "2018-11-30T22:59:59Z"}),                  # subscribed before D-5: refused
        play(4, "2018-12-22T12:00:00+01:00", 6000, "tablet",
             {"subscribed_at": "2018-11-30T23:00:00Z"}),                  # 00:00 Paris: counts, cap 3
        play(5, "2018-12-22T12:00:00+01:00", 4500),                       # excluded (fraud)
        play(6, "2018-12-22T12:00:00+01:00", 1499),                       # below one tranche
        play(7, "2018-12-22T08:00:00-05:00", 1500, "web"),                # 14:00 Paris: 1 entry
        play(8, "2018-12-22T09:00:00+01:00", 4000, "app"),                # 2 entries
        play(9, "2018-12-22T09:00:00.5+01:00", 2999, "web"),              # 1 entry
    ]
    excl = [{"type": "exclusion", "account": acct(5), "reason": "fraud"},
            {"type": "exclusion", "account": acct(10), "reason": "minor"}]   # no plays
    if excluded_retail_only:
        recs.append(play(11, "2018-12-22T15:00:00+01:00", 2500, "retail"))  # its only play: retail
        excl.append({"type": "exclusion", "account": acct(11), "reason": "closed"})
    header = {"format": "draw-entries", "version": 1, "operation": OP, "day": DAY,
              "producer": key_id(raw(PRODUCER)), "generated_at": "2018-12-26T07:30:00+01:00",
              "status_as_of": "2018-12-26T07:30:00+01:00", "plays": len(recs), "exclusions": len(excl)}
    return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in [header] + recs + excl)


# ---- a tiny audit trail and its checkpoint (spec/formats.md §6) -------------------------------------------------
def audit_events(n=4):
    ev, prev = [], b"\x00" * 32
    for seq in range(1, n + 1):
        ts = f"2018-12-26T09:00:0{seq}.000000Z"
        kind = ["software.start", "draw.seal", "draw.entropy", "draw.result", "draw.published"][(seq - 1) % 5]
        payload = json.dumps({"n": seq}, separators=(",", ":"))
        h = vaudit.event_hash(prev, seq, ts, kind, payload)
        ev.append({"seq": seq, "ts": ts, "kind": kind, "payload": payload, "prev_hash": prev.hex(), "hash": h.hex(),
                   "type": "event"})
        prev = h
    return ev


def audit_events_v2(n, audit_key=None, times=None, kinds=None):
    """A version-2 trail: event 1 is trail.created naming the audit key (spec/appliance.md §6.6); `times`, if
    given, maps a sequence number to its event's time, and `kinds` to its kind and payload."""
    pk = raw(audit_key or AUDIT)
    first = json.dumps({"trail": hashlib.sha256(b"vector trail").hexdigest(), "audit_key_id": key_id(pk),
                        "audit_public_key": pk.hex()}, separators=(",", ":"))
    ev, prev = [], b"\x00" * 32
    for seq in range(1, n + 1):
        ts = (times or {}).get(seq, f"2018-12-26T09:00:0{seq}.000000Z")
        kind, payload = ("trail.created", first) if seq == 1 else (kinds or {}).get(seq, ("command.failed", json.dumps(
            {"command": "seal", "class": "refused", "error": f"vector {seq}"}, separators=(",", ":"))))
        h = vaudit.event_hash(prev, seq, ts, kind, payload)
        ev.append({"seq": seq, "ts": ts, "kind": kind, "payload": payload, "prev_hash": prev.hex(), "hash": h.hex(),
                   "type": "event"})
        prev = h
    return ev


def cosigned(note):
    """`note` with a second signature line: a valid C2SP signature of its body by OTHER, under another name."""
    body = note.split("\n\n", 1)[0] + "\n"
    name = "witness.example/" + key_id(raw(OTHER))
    kh = hashlib.sha256(name.encode() + b"\n\x01" + raw(OTHER)).digest()[:4]
    return note + f"\u2014 {name} {base64.b64encode(kh + OTHER.sign(body.encode())).decode()}\n"


def checkpoint(events, size, signer=AUDIT, size_text=None, origin="urne-audit"):
    """The signed note of the first `size` events; `size_text` writes the size otherwise; `origin`
    "urne-rehearsal" makes a rehearsal token's (spec/formats.md §6.10)."""
    name = origin + "/" + key_id(raw(AUDIT))
    root = merkle_root([bytes.fromhex(e["hash"]) for e in events[:size]])
    body = f"{name}\n{size_text or size}\n{base64.b64encode(root).decode()}\n"
    kh = hashlib.sha256(name.encode() + b"\n\x01" + raw(AUDIT)).digest()[:4]
    sig = signer.sign(body.encode())
    return body + "\n" + f"\u2014 {name} {base64.b64encode(kh + sig).decode()}\n"


# ---- the draw ------------------------------------------------------------------------------------
ENTROPY = bytes(range(1, 49))
WITNESS = "4 6 1 3 — dés du commissaire"


def inclusion_path(idx, hs):
    """RFC 9162 §2.1.3.1 audit path of leaf `idx` over the leaf hashes `hs`."""
    if len(hs) <= 1:
        return []
    k = 1
    while k * 2 < len(hs):
        k *= 2
    if idx < k:
        return inclusion_path(idx, hs[:k]) + [merkle_root_of_hashes(hs[k:])]
    return inclusion_path(idx - k, hs[k:]) + [merkle_root_of_hashes(hs[:k])]


def fixed_event(events, seq, size):
    """spec/formats.md §3.3: event `seq` of `events` as stored, with its inclusion proof in the tree of the first
    `size` events (the output's checkpoint)."""
    e = events[seq - 1]
    assert e["seq"] == seq and seq <= size
    path = inclusion_path(seq - 1, tree_leaves(events, size))
    assert verify_inclusion(seq - 1, size, bytes.fromhex(e["hash"]), path,
                            merkle_root_of_hashes(tree_leaves(events, size)))
    return {"seq": seq, "ts": e["ts"], "kind": e["kind"], "payload": e["payload"], "prev_hash": e["prev_hash"],
            "inclusion": [x.hex() for x in path]}


def compact(o):
    """A payload as the appliance stores it: compact JSON, members in order, UTF-8."""
    return json.dumps(o, separators=(",", ":"), ensure_ascii=False)


def commitment_root(export_bytes, day):
    """The seal's commitment root of `day` from an export (as make_draw computes it)."""
    _, tally = vexport.parse_export(export_bytes, RULES, key_id(raw(PRODUCER)))
    _, leaves = vdraw.pseudonymise(OP, day, vexport.entries_of(tally, RULES))
    return merkle_root([ps + bytes([n]) for ps, n, _, _ in leaves])


def randomness(day, tag, contribution=None, attempt=1):
    """A version-2 draw's entropy and contribution, and the payloads of its draw.entropy and
    draw.contribution events (spec/formats.md §6.2), to be put into a trail."""
    entropy = (sha256(f"history vector entropy {tag}".encode()) + sha256(f"more {tag}".encode()))[:48]
    contribution = contribution or f"dés {tag} : 5 2 6, l’été à 12 €"
    ec = vcore.entropy_commitment(entropy).hex()
    root = commitment_root(export_for(day), day).hex()
    return {"day": day, "entropy": entropy, "contribution": contribution, "entropy_commitment": ec,
            "e": ("draw.entropy", compact({"operation": OP, "day": day, "attempt": attempt, "commitment_root": root,
                                           "entropy_commitment": ec,
                                           "entropy_blob": sha256(b"sealed entropy " + entropy).hex()})),
            "c": ("draw.contribution", compact({"operation": OP, "day": day, "attempt": attempt,
                                                "entropy_commitment": ec, "contribution": contribution}))}


def make_draw(export_bytes, claimed_export=None, day=DAY, entropy=ENTROPY, witness=WITNESS, version=1,
              history=None, note=None, drawn_at="2018-12-26T09:00:05.000000Z", fixed=None,
              entropy_commitment=None, rules_bytes=None, op=OP, tally_rules=None):
    """bundle, result (dicts) and intermediates from an export's bytes (`rules_bytes`: the rules
    file the draw names by its SHA-256, default the repository's). Version 2 draws pass
    `history` (serialised last in the draw core, after reserves_wanted), their `note`, the
    contribution as `witness`, and `fixed` (spec/formats.md §3.3); `entropy_commitment` defaults to the
    entropy's. `op` is the operation; `tally_rules` the rules the export is tallied under (default
    the repository's)."""
    rules = tally_rules or RULES
    _, tally = vexport.parse_export(export_bytes, rules, key_id(raw(PRODUCER)))
    entry_list = vexport.entries_of(tally, rules)
    figures = vexport.figures_of(tally, rules, entry_list)
    list_digest, leaves = vdraw.pseudonymise(op, day, entry_list)
    root = merkle_root([ps + bytes([n]) for ps, n, _, _ in leaves])
    ex = claimed_export or export_bytes
    core = {"operation": op, "day": day, "attempt": 1, "voided_attempts": [],
            "rules_sha256": hashlib.sha256(rules_bytes or RULES_BYTES).hexdigest(),
            "export": {"sha256": hashlib.sha256(ex).hexdigest(), "size": len(ex),
                       "producer_key_id": key_id(raw(PRODUCER))},
            "figures": figures,
            "commitment": {"root": root.hex(), "leaves": len(leaves), "entries": figures["entries"]},
            "witness": witness, "entropy": entropy.hex(), "seed": None, "prize_cents": 2000000,
            "reserves_wanted": 5}
    if version == 2:          # spec/formats.md §4.7: no witness; the four members of "nobody chooses"
        ec = entropy_commitment or vcore.entropy_commitment(entropy).hex()
        core = {k: v for k, v in core.items() if k not in ("witness", "entropy", "seed", "prize_cents", "reserves_wanted")}
        core.update({"entropy_commitment": ec, "contribution": witness, "entropy": entropy.hex(), "seed": None,
                     "prize_cents": 2000000, "reserves_wanted": 5, "entropy_refused": [], "fixed": fixed})
    if history is not None:
        core["history"] = history
    b = lambda x: bytes.fromhex(x)
    seed = vdraw.draw_seed(dict(core, rules_sha256=b(core["rules_sha256"]), export=dict(core["export"], sha256=b(core["export"]["sha256"])),
                                commitment=dict(core["commitment"], root=root), entropy=entropy))
    core["seed"] = seed.hex()
    picks = vdraw.select(seed, [n for _, n, _, _ in leaves], 5)
    pick = lambda rank, i, e, with_acct: dict({"rank": rank}, **({"account": leaves[i][2].hex()} if with_acct else {}),
                                             pseudonym=leaves[i][0].hex(), entries=leaves[i][1], entry=e, leaf=i)
    cp_events = audit_events()
    tail = {"drawn_at": drawn_at, "audit_checkpoint": note or checkpoint(cp_events, 4),
            "result_key_id": key_id(raw(RESULT)), "audit_key_id": key_id(raw(AUDIT)),
            "software": {"name": "urne", "version": "0.1.0", "source_revision": "0" * 40,
                         "executable_sha256": "0" * 64}}
    if version == 2:          # spec/formats.md §4.7: the code that answered for the HSM
        tail["pkcs11"] = PKCS11
    bundle = dict({"format": "urne-draw-bundle", "version": version}, **core,
                  leaves_file="leaves.bin",
                  leaves_sha256=hashlib.sha256(b"".join(ps + bytes([n]) for ps, n, _, _ in leaves)).hexdigest(),
                  winner=pick(0, *picks[0], False), reserves=[pick(r, i, e, False) for r, (i, e) in enumerate(picks[1:], 1)],
                  **tail)
    result = dict({"format": "urne-draw-result", "version": version}, **core, entries=figures["entries"], accounts=len(leaves),
                  winner=pick(0, *picks[0], True), reserves=[pick(r, i, e, True) for r, (i, e) in enumerate(picks[1:], 1)],
                  **tail)
    computed = {
        "canonical_entry_list": "".join(a.hex() + "%02x" % n for a, n in entry_list),
        "list_digest": list_digest.hex(),
        "pseudonym_key": H("urne/v1/pseudonym-key", list_digest).hex(),
        "accounts": [{"account": a.hex(), "entries": n, "salt": s.hex(), "pseudonym": ps.hex(), "leaf": i}
                     for i, (ps, n, a, s) in enumerate(leaves)],
        "root": root.hex(), "seed": seed.hex(),
        "picks": [{"rank": r, "leaf": i, "entry": e} for r, (i, e) in enumerate(picks)],
        "first_stream_bytes": vdraw.Stream(seed, "urne/v1/daily-draw").read(32).hex(),
    }
    return bundle, result, computed, leaves


def signed(name, data, k=RESULT, folder="draw"):
    data = data.encode() if isinstance(data, str) else data
    return {f"{folder}/{name}": {"utf8": data.decode()}, f"{folder}/{name}.sig": {"hex": k.sign(data).hex()}}


def with_export(files, name, data):
    """`files` with the export `data` at `name`, signed by the producer, and the producer's key
    (what auditor mode reads)."""
    return dict(files, **{name: {"utf8": data.decode("utf-8", "surrogatepass")},
                          name + ".sig": {"hex": PRODUCER.sign(data).hex()},
                          "producer.pub.pem": {"utf8": pem(PRODUCER)}})


def keys_files(result=RESULT):
    return {"keys/result.pub.pem": {"utf8": pem(result)}, "keys/audit.pub.pem": {"utf8": pem(AUDIT)}}


def leaves_bin(leaves):
    return b"".join(ps + bytes([n]) for ps, n, _, _ in leaves)


def file_bytes(entry):
    """The bytes a vector's file entry writes ({"utf8": text} or {"hex": hex})."""
    return entry["utf8"].encode("utf-8") if "utf8" in entry else bytes.fromhex(entry["hex"])


def pv_html(bundle):
    """A version-2 draw's minutes annex (informative, signed like every output)."""
    return (f"<!doctype html>\n<html lang=\"fr\"><body><p>Procès-verbal du tirage {bundle['operation']} du "
            f"{bundle['day']}, tentative {bundle['attempt']}.</p></body></html>\n")


def manifest_of(files, folder, subject, kinds, k=RESULT, edit=None):
    """A version-2 output's signed manifest (issue 12 contract), over the files of `folder` as
    `files` holds them (`kinds`: {name: audience}, every one of them in `files`). `subject`:
    operation, day, block, attempt, result_key_id. `edit` changes the manifest before signing."""
    m = {"format": "urne-manifest", "version": 2, "operation": subject["operation"], "day": subject["day"],
         "block": subject["block"], "attempt": subject["attempt"], "files": [], "result_key_id": subject["result_key_id"]}
    for name in sorted(kinds, key=lambda n: n.encode()):
        data = file_bytes(files[f"{folder}/{name}"])
        m["files"].append({"name": name, "size": len(data), "sha256": hashlib.sha256(data).hexdigest(),
                           "audience": kinds[name]})
    if edit:
        edit(m)
    return m


def draw_files(bundle, result, bundle_text=None, result_text=None, leaves_bytes=None, folder="draw", manifest=True,
               rules_bytes=None):
    """A draw folder's files; a version-2 folder also has pv.html and, unless `manifest` is
    False, its manifest.json (`manifest` may be a function that edits it before signing)."""
    f = keys_files()
    lb = leaves_bytes if leaves_bytes is not None else LEAVES_BIN
    f.update({f"{folder}/leaves.bin": {"hex": lb.hex()}, f"{folder}/leaves.bin.sig": {"hex": RESULT.sign(lb).hex()}})
    f.update(signed("bundle.json", bundle_text or jdump(bundle), folder=folder))
    f.update(signed("result.json", result_text or jdump(result), folder=folder))
    f.update(signed("rules.json", rules_bytes or RULES_BYTES, folder=folder))
    f.update(signed("checkpoint.note", bundle["audit_checkpoint"], folder=folder))
    if bundle["version"] == 2:
        f.update(signed("pv.html", pv_html(bundle), folder=folder))
        if manifest:
            subject = dict(bundle, block=None)
            m = manifest_of(f, folder, subject, vmanifest.DRAW_FILES, edit=manifest if callable(manifest) else None)
            f.update(signed("manifest.json", jdump(m), folder=folder))
    return f


def resign(files, k, folder="draw"):
    """Every signature of `folder` made again with the key `k`."""
    out = dict(files)
    for rel in files:
        if rel.startswith(folder + "/") and rel.endswith(".sig"):
            out[rel] = {"hex": k.sign(file_bytes(files[rel[:-4]])).hex()}
    return out


# Vectors the committed set leaves out until urne, the Python verifier or SPEC.md agree: written
# beside OUT_DIR, in vectors-pending/ (tests/vectors-pending/README.md says why, for each).
PENDING = set()


def write(out, name, desc, expect, files, args, computed=None):
    v = {"description": desc, "expect": expect,
         "command": "verify" if name.startswith(("draw", "history", "keys")) else "audit-verify",
         "args": args, "files": files}
    if computed:
        v["computed"] = computed
    if name in PENDING:
        out = os.path.join(os.path.dirname(os.path.abspath(out)), "vectors-pending")
        os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, name + ".json"), "w") as f:
        f.write(json.dumps(v, indent=1, ensure_ascii=False) + "\n")


# ---- version 2: the history across outputs (spec/formats.md §6.7, §8.4) ------------------------------------------
TRAIL_ID = hashlib.sha256(b"vector trail").hexdigest()     # the identity audit_events_v2 records


def history_events(n, fork_after=None, branch="", real=None):
    """A version-2 trail of `n` events (event 1 trail.created, as audit_events_v2's); with
    `fork_after`, every event after that one differs by `branch`: another history of the same
    trail (what a restored copy of the token's storage and the database would write). `real`
    maps a sequence number to the (kind, payload) of a real event (a draw's draw.entropy or
    draw.contribution); the others are placeholders."""
    pk = raw(AUDIT)
    first = json.dumps({"trail": TRAIL_ID, "audit_key_id": key_id(pk), "audit_public_key": pk.hex()},
                       separators=(",", ":"))
    ev, prev = [], b"\x00" * 32
    for seq in range(1, n + 1):
        ts = f"2018-12-26T09:{seq:02d}:00.000000Z"
        other = branch if fork_after is not None and seq > fork_after else ""
        kind, payload = ("trail.created", first) if seq == 1 else ("command.failed", json.dumps(
            {"command": "seal", "class": "refused", "error": f"history vector {seq}{other}"}, separators=(",", ":")))
        if real and seq in real:
            kind, payload = real[seq]
        h = vaudit.event_hash(prev, seq, ts, kind, payload)
        ev.append({"seq": seq, "ts": ts, "kind": kind, "payload": payload, "prev_hash": prev.hex(), "hash": h.hex()})
        prev = h
    return ev


def tree_leaves(events, size):
    """spec/formats.md §6.3: the tree's leaves are the leaf hashes of the event hashes."""
    return [leaf_hash(bytes.fromhex(e["hash"])) for e in events[:size]]


def export_for(day):
    """export_text() moved to another day of P4 (same plays, same tranche)."""
    prev = "2018-12-%02d" % (int(day[-2:]) - 1)
    return export_text().replace("2018-12-22", day).replace("2018-12-21T23:30:00Z", prev + "T23:30:00Z").encode()


def v2_draw(rnd, events, size, seqs, pred=None, minute=0, entropy=None, edit=None, note=None):
    """A version-2 draw of `rnd` (a `randomness` record) whose checkpoint covers the first `size`
    of `events`, after the output `pred` (a v2_draw record) or first on its trail (spec/formats.md §6.7); its
    draw.entropy and draw.contribution events are events `seqs` of `events` (spec/formats.md §3.3). `entropy`
    publishes another entropy than the one committed to; `edit` changes the fixed events."""
    day = rnd["day"]
    leaves = tree_leaves(events, size)
    root = merkle_root_of_hashes(leaves)
    if pred is None:
        history = {"trail": TRAIL_ID, "predecessor": None, "consistency": []}
    else:
        history = {"trail": TRAIL_ID,
                   "predecessor": {"sha256": hashlib.sha256(pred["text"].encode()).hexdigest(),
                                   "checkpoint_size": pred["size"], "checkpoint_root": pred["root"].hex()},
                   "consistency": [x.hex() for x in consistency_proof(pred["size"], leaves)]}
    fixed = {"entropy": fixed_event(events, seqs[0], size), "contribution": fixed_event(events, seqs[1], size)}
    if edit:
        edit(fixed)
    bundle, result, _, lv = make_draw(export_for(day), day=day, entropy=entropy or rnd["entropy"],
                                      witness=rnd["contribution"], version=2, history=history,
                                      note=note or checkpoint(events, size), fixed=fixed,
                                      entropy_commitment=rnd["entropy_commitment"],
                                      drawn_at=f"2018-12-26T09:{size:02d}:30.{minute:06d}Z")
    return {"bundle": bundle, "result": result, "leaves": leaves_bin(lv), "text": jdump(bundle), "size": size,
            "root": root, "history": history}


def v2_files(d, folder, bundle=None, result=None, bundle_text=None, manifest=True):
    return draw_files(bundle or d["bundle"], result or d["result"], bundle_text=bundle_text,
                      leaves_bytes=d["leaves"], folder=folder, manifest=manifest)


def v2_randomness_vectors(w, PUB, rA, A, T):
    """draw-v2-* about "nobody chooses" (spec/formats.md §3.2, §3.3, §4.4.1, §8.2 steps 3 and 5)."""
    # The same draw on a trail where the contribution (event 2) was recorded before the entropy (3).
    X = history_events(3, real={2: rA["c"], 3: rA["e"]})
    w("draw-v2-inconsistent-contribution-before-entropy", "draw-v2-valid on a trail where the draw.contribution "
      "event is event 2 and the draw.entropy event event 3 (both real, both in the checkpoint's tree, payloads "
      "matching the core): the contribution existed before the entropy was committed to (SPEC §3.3).",
      "inconsistent", v2_files(v2_draw(rA, X, 3, (3, 2)), "draw"), PUB)
    r2 = dict(rA, contribution=rA["contribution"].replace("5 2 6", "5 2 5"))

    def edit(f):
        f["contribution"]["payload"] = f["contribution"]["payload"].replace("5 2 6", "5 2 5")
    w("draw-v2-inconsistent-fixed-event-edited", "draw-v2-valid drawn again with another contribution (5 2 5 "
      "for 5 2 6: core, seed and picks follow from it) and the recorded draw.contribution event's payload "
      "edited to say it: the edited event's hash is not in the checkpoint's tree (SPEC §3.3).",
      "inconsistent", v2_files(v2_draw(r2, T, 3, (2, 3), edit=edit), "draw"), PUB)
    other = bytes(range(100, 148))
    w("draw-v2-draw-mismatch-entropy-commitment", "draw-v2-valid drawn with another entropy than the one committed "
      "to: the seed and the picks follow from the published entropy, entropy_commitment and the fixed events are "
      "the trail's, but the entropy is not the one its commitment names (SPEC §3.2, §8.2 step 3).", "draw-mismatch",
      v2_files(v2_draw(rA, T, 3, (2, 3), entropy=other), "draw"), PUB)
    rG = randomness("2018-12-22", "A", contribution="dés A \u202e5 2 6 du commissaire")
    G = history_events(3, real={2: rG["e"], 3: rG["c"]})
    w("draw-v2-malformed-contribution-grammar", "A version-2 draw whose contribution holds U+202E (RIGHT-TO-LEFT "
      "OVERRIDE), consistently in the core, the seed and the recorded events: not a contribution (SPEC §4.4.1).",
      "malformed", v2_files(v2_draw(rG, G, 3, (2, 3)), "draw"), PUB)
    t = jdump(A["bundle"]).replace('  "contribution": ', '  "witness": "4 6 1 3 du commissaire",\n  "contribution": ', 1)
    u = jdump(A["result"]).replace('  "contribution": ', '  "witness": "4 6 1 3 du commissaire",\n  "contribution": ', 1)
    assert t != jdump(A["bundle"])
    f = v2_files(A, "draw", bundle_text=t)
    f.update(signed("result.json", u, folder="draw"))
    w("draw-v2-malformed-witness-in-v2", "draw-v2-valid with a `witness` member beside its contribution in "
      "bundle.json and result.json (re-signed): version 2 has none (SPEC §4.7).", "malformed", f, PUB)
    nb = {k: v for k, v in A["bundle"].items() if k != "pkcs11"}
    nr = {k: v for k, v in A["result"].items() if k != "pkcs11"}
    f = v2_files(A, "draw", bundle_text=jdump(nb))
    f.update(signed("result.json", jdump(nr), folder="draw"))
    w("draw-v2-malformed-no-pkcs11", "draw-v2-valid without its `pkcs11` member in bundle.json and result.json "
      "(re-signed): a version-2 output names the code that answered for the HSM (SPEC §4.7, §6.2).", "malformed",
      f, PUB)


def v2_manifest_vectors(w, PUB, A, B):
    """draw-v2-* about the manifest, lone result.json files and --expect-day (issue 12 contract):
    A is draw-v2-valid's draw (2018-12-22), B the next day's."""
    f = v2_files(A, "draw")
    f.update(signed("pv.html", pv_html(B["bundle"])))
    w("draw-v2-inconsistent-pv-of-another-day", "draw-v2-valid whose pv.html is the next day's (validly signed by "
      "the result key): every signature holds, steps 1 to 8 hold; the manifest lists another pv.html (size, "
      "SHA-256).", "inconsistent", f, PUB)
    f = v2_files(A, "draw")
    f.update(signed("result.json", jdump(B["result"])))
    w("draw-v2-inconsistent-result-of-another-draw", "draw-v2-valid whose result.json is the next day's (validly "
      "signed, same version): not the bundle's draw (SPEC §8.2 step 6; the manifest would say it too).",
      "inconsistent", f, PUB)
    f = v2_files(A, "draw")
    del f["draw/pv.html"], f["draw/pv.html.sig"]
    w("draw-v2-partial-missing-pv", "draw-v2-valid without pv.html (and its .sig), which the manifest lists as "
      "public: everything present holds, exit 0 with a `partial:` line naming pv.html.", "partial", f, PUB)
    f = v2_files(A, "draw")
    del f["draw/result.json"], f["draw/result.json.sig"]
    w("draw-v2-valid-without-result", "draw-v2-valid as published: without result.json, which the manifest lists "
      "as a production file (it names accounts): its absence is only noted, not partial.", "valid", f, PUB)
    w("draw-v2-inconsistent-manifest-day", "draw-v2-valid whose manifest (re-signed) names the next day: it MUST "
      "name the bundle's operation, day and attempt.", "inconsistent",
      v2_files(A, "draw", manifest=lambda m: m.update(day="2018-12-23")), PUB)
    w("draw-v2-malformed-no-manifest", "draw-v2-valid without manifest.json (and its .sig): a version-2 draw folder "
      "MUST have one.", "malformed", v2_files(A, "draw", manifest=False), PUB)
    w("draw-v2-inconsistent-expect-day", "draw-v2-valid's folder renamed 2018-12-23 (folder names are not signed), "
      "verified with --expect-day 2018-12-23: it is the draw of 2018-12-22.", "inconsistent",
      v2_files(A, "2018-12-23"), {"path": "2018-12-23", "keys": "keys", "expect_day": "2018-12-23"})
    w("draw-v2-valid-expect-day", "draw-v2-valid verified with --expect-day 2018-12-22, its day.", "valid",
      v2_files(A, "draw"), dict(PUB, expect_day="2018-12-22"))
    w("draw-usage-expect-day-not-a-date", "draw-v2-valid verified with --expect-day 2018-02-30, which is no "
      "calendar date: a usage mistake (SPEC §8.1), exit 2, whatever the folder holds.", "usage",
      v2_files(A, "draw"), dict(PUB, expect_day="2018-02-30"))
    full = v2_files(A, "draw")
    lone = dict(keys_files(), **{k.replace("draw/", "import/"): v for k, v in full.items()
                                 if k.startswith(("draw/result.json", "draw/rules.json"))})
    w("draw-v2-partial-lone-result", "Production's import: the path is import/result.json (+ .sig), of "
      "draw-v2-valid, with rules.json beside it: its signature, parse, entropy, seed, checkpoint, key ids, "
      "history and order evidence, and the rules hold; exit 0 with `partial:` lines (the selection and the "
      "commitment were not checked against leaves; no manifest).", "partial", lone,
      {"path": "import/result.json", "keys": "keys"})
    lone = dict(keys_files(), **{k.replace("draw/", "import/"): v for k, v in full.items()
                                 if k.startswith("draw/result.json")})
    w("draw-v2-partial-lone-result-folder", "A folder holding only draw-v2-valid's result.json (+ .sig), no "
      "bundle.json: checked as a lone result.json (exit 0, `partial:` lines, among them the rules).", "partial",
      lone, {"path": "import", "keys": "keys"})


def with_unofficial_member(d):
    """A copy of the draw file `d` with `"unofficial_rules": true` after rules_sha256, where urne
    writes it (spec/formats.md §7.4)."""
    out = {}
    for k, v in json.loads(jdump(d)).items():
        out[k] = v
        if k == "rules_sha256":
            out["unofficial_rules"] = True
    return out


def v2_musts_vectors(w, PUB, A):
    """draw-v2-* for requirement ids nothing exercised before (tests/musts.toml): A is
    draw-v2-valid's draw."""
    copy = lambda o: json.loads(jdump(o))
    _, v1_result, _, _ = make_draw(export_text().encode())
    member = with_unofficial_member
    w("draw-v2-inconsistent-unofficial-rules-on-official-rules", "draw-v2-valid whose bundle.json and result.json "
      "(re-signed, listed by the manifest) say \"unofficial_rules\": true, while the draw binds the official "
      "operation chanceux-noel-2018 and its pinned rules file: the member agrees with the standing the verifier "
      "recomputes (SPEC §7.4).", "inconsistent", v2_files(A, "draw", bundle=member(A["bundle"]),
                                                        result=member(A["result"])), PUB)
    w("draw-v2-inconsistent-result-version", "draw-v2-valid with the version-1 result.json of the same day "
      "(validly signed, listed by the manifest): result.json MUST have the bundle's version (SPEC §8.2 step 5).",
      "inconsistent", v2_files(A, "draw", result=v1_result), PUB)
    r = copy(A["result"]); r["pkcs11"]["token"]["serial"] = "fedcba9876543210"
    w("draw-v2-inconsistent-pkcs11", "draw-v2-valid whose result.json (re-signed, listed by the manifest) names "
      "another token serial in pkcs11 than bundle.json: the same in both files (SPEC §4.7).", "inconsistent",
      v2_files(A, "draw", result=r), PUB)
    sw = dict(A["bundle"]["software"], build="extra")
    w("draw-v2-malformed-unknown-in-software", "draw-v2-valid with an unknown member inside `software` in "
      "bundle.json and result.json (re-signed): closed members at every depth (SPEC §1.5).", "malformed",
      v2_files(A, "draw", dict(A["bundle"], software=sw), dict(A["result"], software=sw)), PUB)
    f = v2_files(A, "draw")
    f["draw/manifest.json"] = {"utf8": f["draw/manifest.json"]["utf8"].replace('"attempt": 1,', '"attempt": 2,', 1)}
    w("draw-v2-bad-signature-manifest", "draw-v2-valid whose manifest.json was changed after signing (attempt 2) "
      "(SPEC §8.2 step 9).", "bad-signature", f, PUB)
    f = v2_files(A, "draw")
    del f["draw/manifest.json.sig"]
    w("draw-v2-bad-signature-manifest-missing-sig", "draw-v2-valid with manifest.json but not its .sig (SPEC "
      "§8.2 step 9).", "bad-signature", f, PUB)
    w("draw-v2-malformed-manifest-unknown-field", "draw-v2-valid whose manifest (re-signed) has an unknown member "
      "(SPEC §8.2 step 9, §1.5).", "malformed",
      v2_files(A, "draw", manifest=lambda m: m.update(comment="extra")), PUB)
    extra = {"name": "zz-notes.txt", "size": 0, "sha256": hashlib.sha256(b"").hexdigest(), "audience": "public"}
    w("draw-v2-inconsistent-manifest-files", "draw-v2-valid whose manifest (re-signed) lists a seventh file: it "
      "MUST list exactly the six files of a draw (SPEC §8.2 step 9).", "inconsistent",
      v2_files(A, "draw", manifest=lambda m: m["files"].append(extra)), PUB)

    def public_result(m):
        for e in m["files"]:
            if e["name"] == "result.json":
                e["audience"] = "public"
    w("draw-v2-inconsistent-manifest-audience", "draw-v2-valid whose manifest (re-signed) lists result.json as "
      "public: each of the six files with its audience (SPEC §4.7, §8.2 step 9).", "inconsistent",
      v2_files(A, "draw", manifest=public_result), PUB)
    full = v2_files(A, "draw")
    lone = dict(keys_files(), **{k.replace("draw/", "import/"): v for k, v in full.items()
                                 if k.startswith(("draw/result.json", "draw/rules.json"))})
    lone["import/result.json"] = {"utf8": lone["import/result.json"]["utf8"].replace('"attempt": 1,', '"attempt": 2,', 1)}
    w("draw-v2-bad-signature-lone-result", "draw-v2-partial-lone-result with import/result.json changed after "
      "signing (SPEC §8.5).", "bad-signature", lone, {"path": "import/result.json", "keys": "keys"})
    r = dict(A["result"], seed="%064x" % (int(A["result"]["seed"], 16) ^ 1))
    full = v2_files(A, "draw", result=r)
    lone = dict(keys_files(), **{k.replace("draw/", "import/"): v for k, v in full.items()
                                 if k.startswith(("draw/result.json", "draw/rules.json"))})
    w("draw-v2-draw-mismatch-lone-result-seed", "A lone result.json (re-signed) whose seed is not the one its "
      "members give: a lone result is checked as far as it goes, the seed recomputed (SPEC §8.5, §8.2 step 3).",
      "draw-mismatch", lone, {"path": "import/result.json", "keys": "keys"})


def rehearsal_vectors(w, PUB, rA, T):
    """draw-v2-rehearsal-*, keys-rehearsal-*: a rehearsal token's outputs (spec/formats.md §6.10), never
    official results: draw-v2-valid's draw with its checkpoint signed under the origin
    urne-rehearsal/<id>, in a folder, renamed, and as a lone result; a key export whose labels are a
    rehearsal token's. (audit-v2-rehearsal-* are made with the other audit vectors.)"""
    note = checkpoint(T, 3, origin="urne-rehearsal")
    R = v2_draw(rA, T, 3, (2, 3), note=note)
    w("draw-v2-rehearsal", "draw-v2-valid made on a rehearsal token: its audit_checkpoint (in bundle.json, "
      "result.json and checkpoint.note) has the origin line urne-rehearsal/<audit key id>, signed by the audit key "
      "under that name, every other check holding: never an official result (SPEC §6.10, §8.1).", "rehearsal",
      v2_files(R, "draw"), PUB)
    w("draw-v2-rehearsal-renamed", "draw-v2-rehearsal in a folder named as an official draw's: the mark is in what "
      "is signed, not in the folder's name (SPEC §6.10).", "rehearsal",
      v2_files(R, "draw-2018-12-22"), {"path": "draw-2018-12-22", "keys": "keys"})
    full = v2_files(R, "draw")
    lone = dict(keys_files(), **{k.replace("draw/", "import/"): v for k, v in full.items()
                                 if k.startswith(("draw/result.json", "draw/rules.json"))})
    w("draw-v2-rehearsal-lone-result", "The result.json of draw-v2-rehearsal alone, as production imports it: its "
      "audit_checkpoint is a rehearsal's (SPEC §6.10, §8.5).", "rehearsal", lone,
      {"path": "import/result.json", "keys": "keys"})
    B = v2_draw(rA, T, 3, (2, 3), note=checkpoint(T, 3, signer=OTHER, origin="urne-rehearsal"))
    w("draw-v2-bad-signature-rehearsal-checkpoint", "draw-v2-rehearsal whose checkpoint is signed by another key "
      "than the audit key: a rehearsal's origin whose signature does not verify is no rehearsal's, only a bad "
      "signature (SPEC §6.10).", "bad-signature", v2_files(B, "draw"), PUB)

    def keys_export(labels):
        keys = {}
        for role, k, label in (("result", RESULT, labels[0]), ("audit", AUDIT, labels[1])):
            keys[role] = {"file": f"{role}.pub.pem", "key_id": key_id(raw(k)), "public_key": raw(k).hex(),
                          "label": label, "hardware_bound": True}
        files = dict(keys_files(), **signed("keys.json", jdump(keys), folder="pub/keys"))
        files["pub/keys/result.pub.pem"] = {"utf8": pem(RESULT)}
        files["pub/keys/audit.pub.pem"] = {"utf8": pem(AUDIT)}
        return files
    w("keys-rehearsal-label", "A key export of a rehearsal token (urne keys init --rehearsal): keys.json, signed by "
      "the result key, lists the keys under the labels urne-rehearsal-result and urne-rehearsal-audit, every "
      "other check of SPEC §8.6 holding: a rehearsal's keys are never an official appliance's (SPEC §6.10).",
      "rehearsal", keys_export(("urne-rehearsal-result", "urne-rehearsal-audit")), {"path": "pub/keys", "keys": "keys"})
    w("keys-rehearsal-audit-label", "keys-rehearsal-label with only the audit key's label a rehearsal token's "
      "(SPEC §6.10).", "rehearsal", keys_export(("urne-result", "urne-rehearsal-audit")),
      {"path": "pub/keys", "keys": "keys"})


def history_vectors(w, PUB):
    # Each draw's draw.entropy then draw.contribution events are real events of the trail (spec/formats.md §3.3):
    # A's are events 2 and 3, B's 4 and 5, C's 8 and 9; B2's are events 5 and 6 of the fork.
    rA, rB, rC = randomness("2018-12-22", "A"), randomness("2018-12-23", "B"), randomness("2018-12-24", "C")
    rB2 = randomness("2018-12-23", "B2")
    T = history_events(9, real={2: rA["e"], 3: rA["c"], 4: rB["e"], 5: rB["c"], 8: rC["e"], 9: rC["c"]})
    T1 = history_events(7, fork_after=4, branch=" (restored copy)",     # forked after event 4
                        real={2: rA["e"], 3: rA["c"], 4: rB["e"], 5: rB2["e"], 6: rB2["c"]})
    T2 = history_events(3, fork_after=2, branch=" (other)", real={2: rA["e"]})   # forked after event 2
    A = v2_draw(rA, T, 3, (2, 3))
    B = v2_draw(rB, T, 6, (4, 5), A)
    C = v2_draw(rC, T, 9, (8, 9), B)
    B2 = v2_draw(rB2, T1, 7, (5, 6), A, minute=1)            # the same day drawn again on the fork
    P = {"path": "pub", "keys": "keys"}
    pub = lambda *ds: {k: v for name, d in ds for k, v in v2_files(d, f"pub/{name}").items()}

    w("draw-v2-valid", "A version-2 draw (SPEC §6.7): bundle.json and result.json carry `history` (after "
      "reserves_wanted), the trail's first output (predecessor null, no consistency proof); its checkpoint "
      "covers the first 3 events of a version-2 trail. Its randomness (SPEC §3.2, §3.3, §4.4.1): "
      "entropy_commitment, the contribution (with ’, é, à and €), entropy_refused (empty) and `fixed`, the "
      "draw.entropy event (2) then the draw.contribution event (3) with their inclusion proofs in the tree "
      "of its checkpoint; the seed is urne/v2/draw-seed.", "valid", v2_files(A, "draw"), PUB,
      {"history": A["history"], "checkpoint_size": 3, "checkpoint_root": A["root"].hex(),
       "event_hashes": [e["hash"] for e in T[:3]], "entropy_commitment": rA["entropy_commitment"],
       "seed": A["bundle"]["seed"]})
    v2_randomness_vectors(w, PUB, rA, A, T)
    v2_manifest_vectors(w, PUB, A, B)
    v2_musts_vectors(w, PUB, A)
    rehearsal_vectors(w, PUB, rA, T)
    w("history-valid-pair", "A folder of outputs (SPEC §8.4): pub/A (2018-12-22, checkpoint of 3 events, first "
      "output) and pub/B (2018-12-23, checkpoint of 6 events) naming A as its predecessor (SHA-256 of A's "
      "bundle.json, A's checkpoint size and root) with the RFC 9162 consistency proof from 3 to 6 over the "
      "event hashes: one linear history.", "valid", pub(("A", A), ("B", B)), P,
      {"event_hashes": [e["hash"] for e in T],
       "tree_roots": {str(n): merkle_root_of_hashes(tree_leaves(T, n)).hex() for n in (3, 6, 9)},
       "a_bundle_sha256": B["history"]["predecessor"]["sha256"], "b_consistency_3_6": B["history"]["consistency"]})
    w("history-fork-same-predecessor", "pub/A, pub/B and pub/B2: B2 is 2018-12-23 drawn again (another entropy) "
      "on another history of the same trail (its events differ after event 4; checkpoint of 7 events), and "
      "names A as its predecessor, as B does. Each output holds alone; together, two outputs after one "
      "predecessor are a fork.", "fork", pub(("A", A), ("B", B), ("B2", B2)), P)
    bad = json.loads(json.dumps(B["history"]))
    bad["consistency"][0] = "%064x" % (int(bad["consistency"][0], 16) ^ 1)
    w("history-fork-bad-consistency", "B alone (its predecessor A published elsewhere) with one hash of its "
      "consistency proof changed (bundle.json and result.json re-signed): the proof does not lead from A's "
      "checkpoint (3 events) to B's (6).", "fork",
      v2_files(B, "draw", dict(B["bundle"], history=bad), dict(B["result"], history=bad)), PUB)
    w("history-inconsistent-gap", "pub/A and pub/C (2018-12-24, checkpoint of 9 events), where C names B as its "
      "predecessor and B is not in the folder: one linear history cannot be shown.", "inconsistent",
      pub(("A", A), ("C", C)), P)
    # X: 2018-12-22 drawn on another history of the trail (its events differ after event 1), checkpoint of 3 events.
    rX = randomness("2018-12-22", "X")
    TX = history_events(3, fork_after=1, branch=" (x)", real={2: rX["e"], 3: rX["c"]})
    X = v2_draw(rX, TX, 3, (2, 3))
    w("history-fork-named-checkpoint", "pub/B (naming A, absent, with A's checkpoint of 3 events) and pub/X, the "
      "trail's first output on another history (its own checkpoint of 3 events, another root): the checkpoint B "
      "names for its predecessor is a point of the history, and X shows another root at that size (SPEC §6.7, "
      "§8.4).", "fork", pub(("B", B), ("X", X)), P)
    held = {"held.note": {"utf8": checkpoint(T2, 3)}}
    w("history-fork-held-checkpoint", "pub/A and pub/B (valid together) and a checkpoint held outside the "
      "appliance (--checkpoint held.note, signed by the audit key) of 3 events, A's size, over another "
      "history of the trail (events differ after event 2): the outputs do not extend it.", "fork",
      dict(pub(("A", A), ("B", B)), **held), dict(P, checkpoints=["held.note"]))
    w("history-bad-signature-held-checkpoint", "pub/A and pub/B with a held checkpoint of A's size and root "
      "signed by another key under the audit key's name (SPEC §8.4).", "bad-signature",
      dict(pub(("A", A), ("B", B)), **{"held.note": {"utf8": checkpoint(T, 3, OTHER)}}),
      dict(P, checkpoints=["held.note"]))
    w("history-bad-signature-held-checkpoint-non-ascii-size", "pub/A and pub/B with a held checkpoint of A's "
      "size and root, validly signed by the audit key, whose size is written with the Arabic-Indic digit U+0663 "
      "(3): a size is ASCII decimal digits only (SPEC §6.3, C2SP tlog-checkpoint), so the note is no checkpoint "
      "that verifies under the audit key (SPEC §8.4).", "bad-signature",
      dict(pub(("A", A), ("B", B)), **{"held.note": {"utf8": checkpoint(T, 3, size_text="\u0663")}}),
      dict(P, checkpoints=["held.note"]))
    w("history-inconsistent-held-checkpoint-size", "pub/A and pub/B with a held checkpoint (validly signed, on "
      "their trail) of 4 events, a size neither output nor a predecessor carries: it cannot be shown on their "
      "history from these outputs (SPEC §8.4).", "inconsistent",
      dict(pub(("A", A), ("B", B)), **{"held.note": {"utf8": checkpoint(T, 4)}}),
      dict(P, checkpoints=["held.note"]))
    rA2 = randomness("2018-12-22", "A2")
    T3 = history_events(9, real={2: rA["e"], 3: rA["c"], 4: rB["e"], 5: rB["c"], 8: rA2["e"], 9: rA2["c"]})
    assert T3[:7] == T[:7]
    A2 = v2_draw(rA2, T3, 9, (8, 9), B, minute=3)
    w("history-fork-same-draw-twice", "pub/A, pub/B and pub/A2: A2 is 2018-12-22 attempt 1 drawn again (another "
      "entropy) after B, on one linear history (A, B, A2, each naming the one before): one history publishes a "
      "day's attempt once (SPEC §8.4).", "fork", pub(("A", A), ("B", B), ("A2", A2)), P)
    # spec/appliance.md §6.8: outputs of several trails, linked by witnessed restarts (M-142). A restarted trail's
    # event 1 is trail.restarted; every output of it states the restart in its history.
    def restarted_trail(tag, previous, size, day):
        tid = hashlib.sha256(f"vector trail restarted {tag}".encode()).hexdigest()
        mark_root = merkle_root_of_hashes(tree_leaves(T, size)).hex()
        restart = {"previous_trail": previous, "previous_mark_size": size, "previous_mark_root": mark_root}
        pk = raw(AUDIT)
        first = ("trail.restarted", compact({"trail": tid, "audit_key_id": key_id(pk), "audit_public_key": pk.hex(),
                                             "previous_trail": previous, "previous_mark_size": size,
                                             "previous_mark_root": mark_root, "reason": "vector restart " + tag,
                                             "days": [], "blocks": []}))
        rR = randomness(day, "R" + tag)
        TR = history_events(3, fork_after=1, branch=" (restarted " + tag + ")",
                            real={1: first, 2: rR["e"], 3: rR["c"]})
        d = v2_draw(rR, TR, 3, (2, 3), minute=2)
        h = dict(d["history"], trail=tid, restart=restart)
        d = dict(d, bundle=dict(d["bundle"], history=h), result=dict(d["result"], history=h), history=h)
        d["text"] = jdump(d["bundle"])
        return d
    R6 = restarted_trail("1", TRAIL_ID, 6, "2018-12-24")
    w("history-valid-restart", "pub/A and pub/B (the trail SHA-256(\"vector trail\"), checkpoints of 3 and 6 "
      "events) and pub/R, the first output (2018-12-24) of a trail made by a witnessed restart: its history "
      "names its own trail and the restart (previous_trail the first trail, previous_mark_size 6 and "
      "previous_mark_root B's): one chain of restarts, nothing beyond the mark (SPEC §6.8).", "valid",
      pub(("A", A), ("B", B), ("R", R6)), P)
    R3 = restarted_trail("1", TRAIL_ID, 3, "2018-12-24")
    w("history-fork-beyond-restart-mark", "history-valid-restart whose restart states the mark of 3 events (A's): "
      "B, an output of the replaced trail with a checkpoint of 6 events, lies beyond it (SPEC §6.8).", "fork",
      pub(("A", A), ("B", B), ("R", R3)), P)
    RA = restarted_trail("1", TRAIL_ID, 3, "2018-12-23")
    RB = restarted_trail("2", TRAIL_ID, 3, "2018-12-24")
    w("history-fork-two-restarts", "pub/A and the first outputs of two trails (2018-12-23, 2018-12-24) that "
      "both restart the first trail from A's mark: two trails replacing one are not one chain of restarts "
      "(SPEC §6.8).", "fork", pub(("A", A), ("R1", RA), ("R2", RB)), P)
    hx = dict(R6["bundle"]["history"], restart=dict(R6["bundle"]["history"]["restart"], previous_mark_size=3,
                                          previous_mark_root=A["root"].hex()))
    RX = dict(R6, bundle=dict(R6["bundle"], history=hx), result=dict(R6["result"], history=hx))
    w("history-fork-restart-differs", "pub/A, pub/B, pub/R and pub/R2, another output of R's trail (the same "
      "draw re-signed) stating another restart (A's mark): the outputs of one trail state different restarts "
      "(SPEC §6.8).", "fork", pub(("A", A), ("B", B), ("R", R6), ("R2", RX)), P)
    w("history-valid-held-checkpoint", "pub/A and pub/B with a held checkpoint that is A's (as copied into the "
      "minutes): it lies on their history.", "valid",
      dict(pub(("A", A), ("B", B)), **{"held.note": {"utf8": A["bundle"]["audit_checkpoint"]}}),
      dict(P, checkpoints=["held.note"]))

    # A void notice (spec/formats.md §4.6) after B: 2018-12-23 attempt 1 voided at event 7, its checkpoint of 9
    # events with the consistency proof from B's (6).
    leaves9 = tree_leaves(T, 9)
    vhist = {"trail": TRAIL_ID,
             "predecessor": {"sha256": hashlib.sha256(B["text"].encode()).hexdigest(),
                             "checkpoint_size": 6, "checkpoint_root": B["root"].hex()},
             "consistency": [x.hex() for x in consistency_proof(6, leaves9)]}

    def notice(history, day="2018-12-23", origin="urne-audit"):
        n = {"format": "urne-void-notice", "version": 2, "operation": "chanceux-noel-2018", "day": day,
             "block": None, "attempt": 1, "reason": "panne d'impression, procès-verbal n° 12",
             "stage": "drawn and published", "void_seq": 7, "voided_at": "2018-12-26T09:07:00.000000Z",
             "audit_checkpoint": checkpoint(T, 9, origin=origin), "result_key_id": key_id(raw(RESULT)),
             "audit_key_id": key_id(raw(AUDIT)), "history": history}
        return signed("void-notice.json", jdump(n), folder="pub/V")
    w("history-valid-void-notice", "pub/A, pub/B and pub/V, the signed void notice of B's day (attempt 1, void "
      "event 7, checkpoint of 9 events), naming B as its predecessor with the consistency proof from 6 to 9 "
      "(SPEC §4.6, §6.7): one linear history.", "valid", dict(pub(("A", A), ("B", B)), **notice(vhist)), P)
    w("history-rehearsal-void-notice", "history-valid-void-notice's notice made on a rehearsal token, verified alone: "
      "its audit_checkpoint has the origin line urne-rehearsal/<audit key id>, signed by the audit key under "
      "that name, every other check holding: a rehearsal's void notice is never an official one (SPEC §4.6, "
      "§6.10).", "rehearsal", dict(keys_files(), **notice(vhist, origin="urne-rehearsal")),
      {"path": "pub/V", "keys": "keys"})
    vbad = json.loads(json.dumps(vhist))
    vbad["consistency"][0] = "%064x" % (int(vbad["consistency"][0], 16) ^ 1)
    w("history-fork-void-notice-bad-consistency", "history-valid-void-notice with one hash of the notice's "
      "consistency proof changed (re-signed): the notice does not extend B's checkpoint.", "fork",
      dict(pub(("A", A), ("B", B)), **notice(vbad)), P)

    ex = export_text().encode()
    b1, r1, _, lv = make_draw(ex, history=A["history"])
    w("draw-malformed-v1-with-history", "A version-1 draw whose bundle.json and result.json carry a history "
      "(re-signed): version 1 has none (SPEC §8.2 step 5).", "malformed",
      draw_files(b1, r1, leaves_bytes=leaves_bin(lv)), PUB)
    b1, r1, _, lv = make_draw(ex, history=None)
    t = jdump(b1).replace('"reserves_wanted": 5,', '"reserves_wanted": 5,\n  "history": null,', 1)
    u = jdump(r1).replace('"reserves_wanted": 5,', '"reserves_wanted": 5,\n  "history": null,', 1)
    w("draw-malformed-v1-history-null", "A version-1 draw whose bundle.json and result.json have a member "
      "\"history\": null (re-signed): a version-1 output has no history member at all (SPEC §8.2 step 5, §1.5).",
      "malformed", draw_files(b1, r1, t, u, leaves_bytes=leaves_bin(lv)), PUB)
    nb = {k: v for k, v in A["bundle"].items() if k != "history"}
    nr = {k: v for k, v in A["result"].items() if k != "history"}
    w("draw-v2-malformed-no-history", "draw-v2-valid without its history in bundle.json and result.json "
      "(re-signed): a version-2 draw MUST have one (SPEC §8.2 step 5).", "malformed", v2_files(A, "draw", nb, nr), PUB)
    h = {"trail": TRAIL_ID, "consistency": []}
    w("draw-v2-malformed-no-predecessor", "draw-v2-valid whose history lacks its predecessor member "
      "(re-signed): `predecessor` is null for a first output, never absent (SPEC §6.7, §1.5).", "malformed",
      v2_files(A, "draw", dict(A["bundle"], history=h), dict(A["result"], history=h)), PUB)


def main(out):
    ex = export_text().encode()
    exsig = PRODUCER.sign(ex).hex()
    bundle, result, computed, leaves = make_draw(ex)
    global LEAVES_BIN
    LEAVES_BIN = leaves_bin(leaves)
    PUB = {"path": "draw", "keys": "keys"}
    EXN = f"export/entries-{OP}-{DAY}.jsonl"
    AUD = dict(PUB, export=EXN, producer_keys=["producer.pub.pem"])
    exfiles = {EXN: {"utf8": ex.decode()}, EXN + ".sig": {"hex": exsig}, "producer.pub.pem": {"utf8": pem(PRODUCER)}}
    w = lambda name, desc, expect, files, args=PUB, comp=None: write(out, name, desc, expect, files, args, comp)

    w("draw-valid-public", "A tiny P4 day (15-euro tranche), public mode: bundle, result, rules, checkpoint. "
      "`computed` gives every intermediate value of SPEC §4.1-4.5.", "valid", draw_files(bundle, result), PUB, computed)
    w("draw-valid-auditor", "The same day in auditor mode: the export covers retail (D-3), the cap (D-4), a "
      "subscription taken out 1 s before the period and one at its first instant (D-5), an exclusion with and one "
      "without plays (D-6), plays at 00:30 and 23:59:59 Paris time given in UTC and -05:00 (D-1).",
      "valid", dict(draw_files(bundle, result), **exfiles), AUD)
    only_bundle = {k: v for k, v in draw_files(bundle, result).items() if not k.startswith(("draw/result", "draw/rules", "draw/checkpoint"))}
    w("draw-valid-bundle-only", "Only bundle.json (and its .sig) published: steps 6 and 7 do not apply.", "valid", only_bundle)

    f = draw_files(bundle, result)
    f["draw/bundle.json"] = {"utf8": f["draw/bundle.json"]["utf8"].replace('"witness": "', '"witness": "X', 1)}
    w("draw-bad-signature-bundle", "bundle.json edited after signing (witness changed): the signature fails first, "
      "before the seed is recomputed.", "bad-signature", f)
    w("draw-bad-signature-wrong-key", "Every file signed by another key than the result key given, the one the "
      "outputs name (result_key_id): the signatures do not verify, and it is not a usage mistake since the outputs "
      "name the key given.", "bad-signature", resign(draw_files(bundle, result), OTHER))
    f = draw_files(bundle, result)
    f.update(keys_files(OTHER))
    w("draw-usage-keys-of-another-appliance", "Verified under another appliance's result key (keys/ of another "
      "token): the signatures do not verify and the outputs name another result key than the one given: a usage "
      "mistake, exit 2 naming both key ids, not a verification failure.", "usage", f)
    f = draw_files(bundle, result)
    del f["draw/result.json.sig"]
    w("draw-bad-signature-missing-sig", "result.json present without result.json.sig.", "bad-signature", f)
    f = draw_files(bundle, result)
    f["draw/pv.html"] = {"utf8": "<html>procès-verbal</html>\n"}
    f["draw/pv.html.sig"] = {"hex": RESULT.sign(b"<html>proces-verbal</html>\n").hex()}
    w("draw-bad-signature-pv", "pv.html signed, then changed: every output present is checked (§8.2 step 1).", "bad-signature", f)

    t = jdump(bundle).replace('"version": 1,', '"version": 1,\n  "comment": "extra",', 1)
    w("draw-malformed-unknown-field", "bundle.json (validly signed) has an unknown field (§1.5).", "malformed", draw_files(bundle, result, t))
    t = jdump(bundle).replace('"version": 1,', '"version": 1,\n  "day": "2018-12-22",', 1)
    w("draw-malformed-duplicate-key", "bundle.json (validly signed) has a duplicate key (§1.5).", "malformed", draw_files(bundle, result, t))
    t = jdump(bundle).replace('"attempt": 1,', '"attempt": "1",', 1)
    w("draw-malformed-wrong-type", "bundle.json (validly signed): attempt is a string.", "malformed", draw_files(bundle, result, t))
    w("draw-malformed-not-json", "bundle.json (validly signed) is cut in the middle.", "malformed",
      draw_files(bundle, result, jdump(bundle)[:200]))

    def with_leaves(lb):
        b2, r2 = json.loads(jdump(bundle)), json.loads(jdump(result))
        b2["leaves_sha256"] = hashlib.sha256(lb).hexdigest()
        return draw_files(b2, r2, leaves_bytes=lb)
    lb = bytearray(LEAVES_BIN); lb[32] += 1
    w("draw-commitment-mismatch-leaf-entries", "A leaf's entries changed in leaves.bin (re-signed, leaves_sha256 updated): "
      "the Merkle root differs.", "commitment-mismatch", with_leaves(bytes(lb)))
    lb = LEAVES_BIN[33:66] + LEAVES_BIN[:33] + LEAVES_BIN[66:]
    w("draw-malformed-leaf-order", "Two leaves swapped in leaves.bin (re-signed): not in strictly increasing pseudonym order.",
      "malformed", with_leaves(lb))
    w("draw-malformed-leaves-length", "leaves.bin one byte short (re-signed): not a multiple of 33.", "malformed",
      with_leaves(LEAVES_BIN[:-1]))
    lb = LEAVES_BIN[:-33]
    w("draw-inconsistent-leaves-sha256", "leaves.bin without its last leaf, validly signed, but leaves_sha256 still "
      "names the full file.", "inconsistent", draw_files(bundle, result, leaves_bytes=lb))
    b2 = json.loads(jdump(bundle))
    b2["commitment"]["entries"] += 1
    w("draw-commitment-mismatch-total", "commitment.entries one more than the sum of the leaves.", "commitment-mismatch", draw_files(b2, result))

    b2 = json.loads(jdump(bundle)); r2 = json.loads(jdump(result))
    for x in (b2, r2):
        x["witness"] = "4 6 1 4 — dés du commissaire"
    w("draw-draw-mismatch-seed", "The witness changed in both files (re-signed) but not the seed.", "draw-mismatch", draw_files(b2, r2))
    b2 = json.loads(jdump(bundle)); r2 = json.loads(jdump(result))
    for x in (b2, r2):
        w0, r1 = x["winner"], x["reserves"][0]
        x["winner"], x["reserves"][0] = dict(r1, rank=0), dict(w0, rank=1)
    w("draw-draw-mismatch-swapped-winner", "Winner and reserve 1 swapped in both files (re-signed).", "draw-mismatch", draw_files(b2, r2))
    b2 = json.loads(jdump(bundle)); r2 = json.loads(jdump(result))
    for x in (b2, r2):
        x["reserves"] = x["reserves"][:-1]
    w("draw-draw-mismatch-missing-reserve", "The last reserve left out of both files.", "draw-mismatch", draw_files(b2, r2))

    long_b, long_r, _, _ = make_draw(ex, entropy=bytes(range(64)))
    w("draw-inconsistent-entropy-64-bytes", "A version-1 draw made from 64 bytes of entropy, seed and picks "
      "recomputed from them: a draw's entropy is exactly 48 bytes, in every version (SPEC §3.1, §8.2 step 3).",
      "inconsistent", draw_files(long_b, long_r))
    b2 = json.loads(jdump(bundle)); r2 = json.loads(jdump(result))
    for x in (b2, r2):
        x["entropy"] = x["entropy"].upper()
    w("draw-malformed-entropy-uppercase", "bundle.json and result.json with the entropy in uppercase hex (re-signed): "
      "every hash and the entropy are lowercase hex (SPEC §4.7).", "malformed", draw_files(b2, r2))
    r2 = json.loads(jdump(result)); r2["drawn_at"] = "2018-12-26T09:00:06.000000Z"
    w("draw-inconsistent-result", "result.json's drawn_at differs from bundle.json's (§8.2 step 6).", "inconsistent", draw_files(bundle, r2))
    b2 = json.loads(jdump(bundle)); r2 = json.loads(jdump(result))
    for x in (b2, r2):
        x["prize_cents"] = 500000
    w("draw-inconsistent-prize", "prize_cents of P1 on a P4 day, in both files (§8.2 step 7).", "inconsistent", draw_files(b2, r2))
    b2 = json.loads(jdump(bundle)); r2 = json.loads(jdump(result))
    for x in (b2, r2):
        x["result_key_id"] = "0123456789abcdef"
    w("draw-inconsistent-key-id", "result_key_id is not the id of the result key.", "inconsistent", draw_files(b2, r2))
    b2 = json.loads(jdump(bundle)); r2 = json.loads(jdump(result))
    for x in (b2, r2):
        x["audit_checkpoint"] = checkpoint(audit_events(), 4, OTHER)
    w("draw-bad-signature-checkpoint", "audit_checkpoint signed by another key (§8.2 step 5).", "bad-signature", draw_files(b2, r2))
    b2 = json.loads(jdump(bundle)); r2 = json.loads(jdump(result))
    for x in (b2, r2):
        x["audit_checkpoint"] = cosigned(x["audit_checkpoint"])
    f = draw_files(b2, r2)
    f.update(signed("checkpoint.note", b2["audit_checkpoint"]))
    w("draw-bad-signature-checkpoint-two-signature-lines", "audit_checkpoint (and checkpoint.note, the same bytes) with "
      "a second signature line, valid, by another key under another name: a checkpoint carries exactly one signature "
      "line, the audit key's (SPEC §6.3), and one that does not parse does not verify (§8.2 step 5).",
      "bad-signature", f)

    # Step 5: checkpoint.note and the audit key id; steps 2, 3, 7: figures and entropy.
    f = draw_files(bundle, result)
    f.update(signed("checkpoint.note", checkpoint(audit_events(5), 5)))
    w("draw-inconsistent-checkpoint-note", "checkpoint.note is another output's checkpoint (5 events, validly signed "
      "by the audit key, and signed by the result key as a file): it MUST equal audit_checkpoint (SPEC §8.2 step "
      "5).", "inconsistent", f)
    b2, r2 = json.loads(jdump(bundle)), json.loads(jdump(result))
    for x in (b2, r2):
        x["audit_key_id"] = key_id(raw(OTHER))
    w("draw-inconsistent-audit-key-id", "audit_key_id (both files, re-signed) names another key than the audit key "
      "that signed the checkpoint (SPEC §8.2 step 5).", "inconsistent", draw_files(b2, r2))

    def figures_changed(what, change):
        b2, r2 = json.loads(jdump(bundle)), json.loads(jdump(result))
        for x in (b2, r2):
            change(x["figures"])
        return draw_files(b2, r2)
    w("draw-inconsistent-period", "figures.period is P3 (both files, re-signed) on a P4 day: it MUST follow from "
      "the rules (SPEC §8.2 step 7).", "inconsistent", figures_changed("period", lambda g: g.update(period="P3")))
    w("draw-inconsistent-tranche", "figures.tranche_cents is 1000 (both files, re-signed); P4's tranche is 1500 "
      "(SPEC §8.2 step 7, D-3).", "inconsistent", figures_changed("tranche", lambda g: g.update(tranche_cents=1000)))
    w("draw-inconsistent-figures-entries", "figures.entries one more than the leaves' sum (both files, re-signed); "
      "commitment.entries is right: SPEC §8.2 step 2 gives inconsistent, not commitment-mismatch.", "inconsistent",
      figures_changed("entries", lambda g: g.update(entries=g["entries"] + 1)))
    w("draw-inconsistent-figures-accounts-with-entries", "figures.accounts_with_entries one more than the number of "
      "leaves (both files, re-signed) (SPEC §8.2 step 2).", "inconsistent",
      figures_changed("accounts", lambda g: g.update(accounts_with_entries=g["accounts_with_entries"] + 1)))
    short_b, short_r, _, _ = make_draw(ex, entropy=bytes(range(1, 33)))
    w("draw-inconsistent-entropy-32-bytes", "A version-1 draw made from 32 bytes of entropy, seed and picks "
      "recomputed from them: a draw's entropy is exactly 48 bytes; shorter is inconsistent, not malformed (SPEC "
      "§3.1, §8.2 step 3).", "inconsistent", draw_files(short_b, short_r))
    f = draw_files(bundle, result)
    kinds = {n: a for n, a in vmanifest.DRAW_FILES.items() if n != "pv.html"}
    f.update(signed("manifest.json", jdump(manifest_of(f, "draw", dict(bundle, block=None), kinds))))
    w("draw-malformed-v1-with-manifest", "A version-1 draw folder with a (signed) manifest.json: version 1 has no "
      "manifest.", "malformed", f)

    # Auditor mode failures.
    ex2 = export_text(stake_of_0=4500).encode()
    b3, r3, _, _ = make_draw(ex, claimed_export=ex2)
    f = with_export(draw_files(b3, r3), EXN, ex2)
    w("draw-commitment-mismatch-auditor", "The draw names an export (hash, size) whose plays give account 0 three "
      "entries, not the two committed: the recomputed figures differ.", "commitment-mismatch", f, AUD)
    r2 = json.loads(jdump(result)); r2["winner"]["account"] = acct(2)
    w("draw-draw-mismatch-auditor-account", "result.json names another account as winner (only auditor mode can tell).",
      "draw-mismatch", dict(draw_files(bundle, r2), **exfiles), AUD)
    f = dict(draw_files(bundle, result), **exfiles)
    f["producer.pub.pem"] = {"utf8": pem(OTHER)}
    w("draw-bad-signature-auditor-producer", "The export is not signed by the trusted producer key given.", "bad-signature", f, AUD)
    f = dict(draw_files(bundle, result), **exfiles)
    crlf = ex.replace(b"\n", b"\r\n", 1)
    b3, r3, _, _ = make_draw(ex, claimed_export=crlf)
    f = with_export(draw_files(b3, r3), EXN, crlf)
    w("draw-malformed-auditor-export", "The export the draw names (validly signed, hash and size matching) has a CRLF line ending.", "malformed", f, AUD)
    lines = ex.split(b"\n")
    lines[1] = lines[1].replace(b",", b",\r", 1)        # between two JSON tokens of the first record
    cr = b"\n".join(lines)
    assert b"\r\n" not in cr
    b3, r3, _, _ = make_draw(ex, claimed_export=cr)
    f = with_export(draw_files(b3, r3), EXN, cr)
    w("draw-malformed-export-cr-inside-line", "The export the draw names (validly signed, hash and size matching) "
      "has a CR between two JSON tokens of a record line (after the comma following \"type\":\"play\"): no CR "
      "anywhere, not even as JSON whitespace (SPEC §4.1.1).", "malformed", f, AUD)
    exr = export_text(excluded_retail_only=True).encode()
    b3, r3, _, lv3 = make_draw(exr)
    assert b3["figures"]["excluded_accounts_with_plays"] == {"closed": 1, "minor": 0, "fraud": 1}
    f = with_export(draw_files(b3, r3, leaves_bytes=leaves_bin(lv3)), EXN, exr)
    w("draw-valid-auditor-excluded-retail-only", "A genuine draw in auditor mode whose export also has an account "
      "excluded (closed) whose only play is retail: figures.excluded_accounts_with_plays counts it (closed: 1; an "
      "excluded account with a play record of any class, SPEC §4.7), retail_plays counts its play, it has no "
      "entry.", "valid", f, AUD)
    # spec/formats.md §4.1.1, D-3: a play on a channel the rules do not list as online is retail, whatever the
    # channel is called: an operation (not an official one) whose online channels leave out tablet.
    top = "noel-test-sans-tablette"
    trules = dict(RULES, operation=top, online_channels=["web", "mobile", "app"])
    trules_bytes = (json.dumps(trules, indent=2, ensure_ascii=False) + "\n").encode()
    tex = export_text().replace(f'"operation":"{OP}"', f'"operation":"{top}"', 1).encode()
    assert top.encode() in tex and b'"channel":"tablet"' in tex
    texn = f"export/entries-{top}-{DAY}.jsonl"
    taud = dict(AUD, export=texn)
    for name, under, expect, desc in (
            ("draw-valid-auditor-channel-not-online-is-retail", trules, "valid",
             "A genuine draw in auditor mode of an operation whose rules list web, mobile and app as online "
             "channels: its tablet play (account 4's subscription) is retail (retail_plays 2, no entry for account "
             "4), as SPEC §4.1.1 says of any channel not in the rules' online_channels (D-3)."),
            ("draw-commitment-mismatch-auditor-channel-counting-rule", dict(trules, online_channels=RULES["online_channels"]),
             "commitment-mismatch",
             "draw-valid-auditor-channel-not-online-is-retail as a writer that took only the channel `retail` for "
             "retail would sign it (the tablet play counted: 3 more entries): the figures and the commitment are "
             "not those of the export under the folder's rules.json (SPEC §4.1.1, §8.2 step 8).")):
        tb, tr, _, tlv = make_draw(tex, rules_bytes=trules_bytes, op=top, tally_rules=under)
        if under is trules:
            assert tb["figures"]["retail_plays"] == 2, tb["figures"]
        f = with_export(draw_files(tb, tr, leaves_bytes=leaves_bin(tlv), rules_bytes=trules_bytes), texn, tex)
        w(name, desc, expect, f, taud)
    f = dict(draw_files(bundle, result), **exfiles)
    w("draw-usage-auditor-no-producer-key", "Auditor mode (--export) without any --producer-key: a usage mistake "
      "(exit 2), never a verification failure, and no key is trusted by default.", "usage", f,
      {k: v for k, v in AUD.items() if k != "producer_keys"})
    b2, r2 = json.loads(jdump(bundle)), json.loads(jdump(result))
    for x in (b2, r2):
        x["export"]["size"] += 1
    f = dict(draw_files(b2, r2), **exfiles)
    w("draw-inconsistent-export-size", "bundle.json and result.json (re-signed) name the export's SHA-256 and key "
      "id but a size one byte more: in auditor mode the size is compared, before the export is parsed (SPEC §8.2 "
      "step 8). The seed does not bind the size, so public mode holds.", "inconsistent", f, AUD)

    # Inclusion proof (spec/formats.md §4.8) for the winner.
    i = bundle["winner"]["leaf"]
    ps, n, a, salt = leaves[i]
    hashes = [leaf_hash(p + bytes([m])) for p, m, _, _ in leaves]

    p = inclusion_path(i, hashes)
    assert verify_inclusion(i, len(leaves), ps + bytes([n]), p, bytes.fromhex(bundle["commitment"]["root"]))
    proof = {"format": "urne-inclusion-proof", "version": 1, "operation": OP, "day": DAY, "attempt": 1, "account": a.hex(),
             "salt": salt.hex(), "pseudonym": ps.hex(), "entries": n, "leaf": i, "commitment": bundle["commitment"],
             "path": [x.hex() for x in p], "result_key_id": key_id(raw(RESULT))}
    PR = {"path": "proof.json", "keys": "keys", "published": "draw"}
    f = dict(draw_files(bundle, result), **signed("proof.json", jdump(proof), folder="."))
    f = {k.replace("./", ""): v for k, v in f.items()}
    w("draw-proof-valid", "The winner's inclusion proof against the published draw.", "valid", f, PR)
    pr2 = dict(proof, path=proof["path"][::-1])
    f = {k.replace("./", ""): v for k, v in dict(draw_files(bundle, result), **signed("proof.json", jdump(pr2), folder=".")).items()}
    w("draw-proof-commitment-mismatch", "The audit path in the wrong order (re-signed).", "commitment-mismatch", f, PR)

    # spec/formats.md §8.3 with the published folder: the bundle's result key, operation, day, attempt
    # and commitment are the proof's.
    def proof_case(name, desc, expect, prf, b=bundle):
        f = dict(draw_files(b, result), **signed("proof.json", jdump(prf), folder="."))
        w(name, desc, expect, {k.replace("./", ""): v for k, v in f.items()}, PR)
    b2 = json.loads(jdump(bundle)); b2["result_key_id"] = "0123456789abcdef"
    proof_case("draw-proof-inconsistent-result-key-id", "The winner's proof against a published bundle.json "
               "(re-signed) that names another result key than the proof (SPEC §8.3).", "inconsistent", proof, b2)
    proof_case("draw-proof-commitment-mismatch-path-before-published", "The winner's proof (re-signed) whose audit "
               "path does not lead to the committed root, against a published bundle.json (re-signed) that names "
               "another result key: the proof's own steps come before the published folder's (SPEC §8.3), so "
               "commitment-mismatch, not inconsistent.", "commitment-mismatch",
               dict(proof, path=["00" * 32] + proof["path"][1:]), b2)
    proof_case("draw-proof-malformed-version-2", "The winner's proof with version 2 (re-signed; its pseudonym and "
               "path hold alone): the inclusion proof has one format version, 1, for draws of every version "
               "(SPEC §7.2: a version a verifier does not know).", "malformed", dict(proof, version=2))
    for k, v, why in (("operation", "chanceux-noel-2019", "another operation"),
                      ("day", "2018-12-23", "another day"), ("attempt", 2, "another attempt")):
        proof_case(f"draw-proof-commitment-mismatch-{k}", f"The winner's proof with {k} {v!r} ({why}, re-signed; "
                   "its pseudonym and path hold alone) against the published draw (SPEC §8.3).",
                   "commitment-mismatch", dict(proof, **{k: v}))
    b3 = json.loads(jdump(bundle))
    b3["audit_checkpoint"] = b3["audit_checkpoint"].replace("urne-audit/", "urne-rehearsal/")
    proof_case("draw-proof-rehearsal", "The winner's proof against a published bundle.json (re-signed) whose "
               "audit_checkpoint has a rehearsal token's origin, urne-rehearsal/<id>: the proof of a rehearsal's draw "
               "is a rehearsal's too (SPEC §6.10, §8.3).", "rehearsal", proof, b3)
    ob, _, _, olv = make_draw(export_text(stake_of_0=4500).encode())
    oi = ob["winner"]["leaf"]
    ops, on, oa, osalt = olv[oi]
    other = dict(proof, account=oa.hex(), salt=osalt.hex(), pseudonym=ops.hex(), entries=on, leaf=oi,
                 commitment=ob["commitment"],
                 path=[x.hex() for x in inclusion_path(oi, [leaf_hash(p + bytes([m])) for p, m, _, _ in olv])])
    proof_case("draw-proof-commitment-mismatch-commitment", "A valid proof (same operation, day and attempt) from a "
               "draw sealed over another export, against the published draw: its commitment is not the published "
               "one (SPEC §8.3).", "commitment-mismatch", other)

    # Unsigned proofs and the file of every proof of a day (spec/formats.md §4.8.1, §8.3): no .sig,
    # the published folder vouches for them, and is needed.
    def compact(o):
        return json.dumps(o, separators=(",", ":"), ensure_ascii=False) + "\n"

    hs = [leaf_hash(p + bytes([m])) for p, m, _, _ in leaves]
    every = [dict(proof, account=a.hex(), salt=s.hex(), pseudonym=p.hex(), entries=m, leaf=j,
                  path=[x.hex() for x in inclusion_path(j, hs)]) for j, (p, m, a, s) in enumerate(leaves)]
    assert every[i] == proof

    def unsigned_case(name, desc, expect, text, fname="proof.json", published=True):
        f = {k.replace("./", ""): v for k, v in draw_files(bundle, result).items()}
        f[fname] = {"utf8": text}
        args = dict(PR, path=fname)
        if not published:
            del args["published"]
        w(name, desc, expect, f, args)
    unsigned_case("draw-proof-valid-unsigned-line", "The winner's proof as one line of `urne proof --all` (compact "
                  "JSON, no .sig) against the published draw, which vouches for it (SPEC §4.8.1, §8.3).", "valid",
                  compact(proof))
    unsigned_case("draw-proof-commitment-mismatch-unsigned-path", "The winner's unsigned line with the first hash of "
                  "its audit path changed: it does not lead to the committed root (SPEC §8.3).",
                  "commitment-mismatch", compact(dict(proof, path=["00" * 32] + proof["path"][1:])))
    unsigned_case("draw-proof-commitment-mismatch-unsigned-other-day", "A valid unsigned line of another day's file "
                  "(day 2018-12-23, a draw sealed over another export: its pseudonym and path hold against its own "
                  "commitment) against this day's published draw (SPEC §8.3).", "commitment-mismatch",
                  compact(dict(other, day="2018-12-23")))
    unsigned_case("draw-proof-usage-unsigned-no-published", "The winner's unsigned line without --published: "
                  "nothing vouches for it, a usage mistake (exit 2), never verified (SPEC §8.3).", "usage",
                  compact(proof), published=False)
    every_text = "".join(compact(x) for x in every)
    unsigned_case("draw-proof-valid-all", f"The file of every proof of the day ({len(every)} lines, SPEC §4.8.1) "
                  "against the published draw: every line verifies alone.", "valid", every_text, "all.jsonl")
    bad = list(every)
    bad[1] = dict(bad[1], path=["00" * 32] + bad[1]["path"][1:])
    unsigned_case("draw-proof-commitment-mismatch-all-tampered-line", "The file of every proof of the day whose "
                  "line 2 has the first hash of its path changed (SPEC §8.3: the line is named).",
                  "commitment-mismatch", "".join(compact(x) for x in bad), "all.jsonl")
    unsigned_case("draw-proof-usage-all-no-published", "The file of every proof of the day without --published: "
                  "a usage mistake (exit 2; SPEC §8.3).", "usage", every_text, "all.jsonl", published=False)

    # Audit trail exports (spec/formats.md §6.4).
    ev = audit_events(5)
    cps = [checkpoint(ev, 2), checkpoint(ev, 4)]

    def export(events, notes):
        lines = [json.dumps(e, separators=(",", ":"), ensure_ascii=False) for e in events]
        lines += [json.dumps({"type": "checkpoint", "size": int(c.split("\n")[1]), "note": c}, separators=(",", ":"),
                             ensure_ascii=False) for c in notes]
        return {"audit.jsonl": {"utf8": "".join(x + "\n" for x in lines)}, "keys/audit.pub.pem": {"utf8": pem(AUDIT)}}
    AA = {"path": "audit.jsonl", "keys": "keys"}
    w("audit-valid", "Five events, checkpoints at 2 and 4 (event 5 chained, not yet checkpointed).", "valid", export(ev, cps), AA,
      {"event_hashes": [e["hash"] for e in ev], "tree_roots": {str(s): base64.b64encode(merkle_root([bytes.fromhex(e["hash"]) for e in ev[:s]])).decode() for s in (1, 2, 3, 4, 5)}})
    w("audit-inconsistent-strict", "The same trail with --strict: event 5 is not covered by a checkpoint.", "inconsistent",
      export(ev, cps), dict(AA, strict=True))
    held = dict(export(ev[:3], cps[:1]), **{"held.note": {"utf8": cps[1]}})
    w("audit-inconsistent-truncated", "Trail truncated to 3 events; the user holds the checkpoint of size 4.", "inconsistent",
      held, dict(AA, checkpoints=["held.note"]))
    ev2 = json.loads(json.dumps(ev)); ev2[2]["payload"] = '{"n":33}'
    w("audit-inconsistent-edited-event", "Event 3's payload edited, hashes kept.", "inconsistent", export(ev2, cps), AA)
    ev2 = json.loads(json.dumps(ev))
    ev2[2]["payload"] = '{"n":33}'
    prev = bytes.fromhex(ev2[1]["hash"])
    for e in ev2[2:]:
        e["prev_hash"] = prev.hex()
        prev = vaudit.event_hash(prev, e["seq"], e["ts"], e["kind"], e["payload"])
        e["hash"] = prev.hex()
    w("audit-inconsistent-rechained", "Event 3 edited and the chain recomputed after it: the checkpoint of size 4 no longer matches.",
      "inconsistent", export(ev2, cps), AA)
    w("audit-inconsistent-gap", "Event 3 deleted.", "inconsistent", export(ev[:2] + ev[3:], cps[:1]), AA)
    w("audit-bad-signature-checkpoint", "A checkpoint signed by another key under the audit key's name.", "bad-signature",
      export(ev, [cps[0], checkpoint(ev, 4, OTHER)]), AA)
    w("audit-malformed-checkpoint-two-signature-lines", "The stored checkpoint of size 4 with a second signature line, "
      "a valid one by another key under another name (a C2SP cosignature): urne's checkpoint carries exactly one "
      "signature line, the audit key's (SPEC §6.3).", "malformed", export(ev, [cps[0], cosigned(cps[1])]), AA)
    held = dict(export(ev, cps), **{"held.note": {"utf8": cosigned(cps[1])}})
    w("audit-malformed-held-checkpoint-two-signature-lines", "A held checkpoint (--checkpoint) that is the trail's "
      "checkpoint of size 4 with a second, valid signature line by another key: exactly one signature line "
      "(SPEC §6.3).", "malformed", held, dict(AA, checkpoints=["held.note"]))
    w("audit-inconsistent-checkpoint-size-0", "The trail with a stored checkpoint of size 0 before the others, validly "
      "signed by the audit key over the empty tree: a stored checkpoint covers at least one event (SPEC §6.4 (2)).",
      "inconsistent", export(ev, [checkpoint(ev, 0)] + cps), AA)
    w("audit-malformed-empty", "An empty export file (0 bytes): a trail begins with its first event, so an export "
      "of one is never empty (SPEC §6.4).", "malformed", {"audit.jsonl": {"utf8": ""}, "keys/audit.pub.pem":
                                                          {"utf8": pem(AUDIT)}}, AA)
    w("audit-malformed-no-event", "An export of one checkpoint line (size 0, validly signed) and no event: an "
      "export holds at least one event (SPEC §6.4).", "malformed", export([], [checkpoint([], 0)]), AA)
    f = export(ev, cps); f["audit.jsonl"]["utf8"] = f["audit.jsonl"]["utf8"].replace('"seq":2,', '"seq":2,"seq":2,', 1)
    w("audit-malformed-duplicate-key", "An event line with a duplicate key.", "malformed", f, AA)
    ev2 = json.loads(json.dumps(ev))
    ev2[2]["prev_hash"] = "ab" * 32
    prev = None
    for e in ev2[2:]:
        e["prev_hash"] = prev.hex() if prev is not None else e["prev_hash"]
        prev = vaudit.event_hash(bytes.fromhex(e["prev_hash"]), e["seq"], e["ts"], e["kind"], e["payload"])
        e["hash"] = prev.hex()
    w("audit-inconsistent-broken-link", "Event 3's prev_hash is not event 2's hash, and its hash recomputes from "
      "that prev_hash (events 4 and 5 chained after it, the checkpoints signed over these hashes): only the link "
      "between events 2 and 3 is broken (SPEC §6.4).", "inconsistent",
      export(ev2, [checkpoint(ev2, 2), checkpoint(ev2, 4)]), AA)

    # Version-2 trails (spec/formats.md §6.3, §6.4, spec/appliance.md §6.6): event 1 is trail.created, every event has its own checkpoint.
    v2 = audit_events_v2(4)
    v2cps = [checkpoint(v2, s) for s in range(1, 5)]
    w("audit-v2-valid", "A version-2 trail: trail.created first, one checkpoint per event (sizes 1..4).", "valid",
      export(v2, v2cps), AA)
    forged = audit_events_v2(5)
    w("audit-v2-rehearsal", "audit-v2-valid exported from a rehearsal token: every stored checkpoint has the origin "
      "urne-rehearsal/<audit key id>, signed by the audit key under that name (SPEC §6.10).", "rehearsal",
      export(v2, [checkpoint(v2, s, origin="urne-rehearsal") for s in range(1, 5)]), AA)
    w("audit-v2-inconsistent-inserted", "A version-2 trail with event 5 appended and chained by someone else: it has no "
      "checkpoint of its own (fails without --strict).", "inconsistent", export(forged, v2cps), AA)
    w("audit-v2-inconsistent-deleted-checkpoint", "A version-2 trail whose checkpoint of size 2 was deleted.", "inconsistent",
      export(v2, [v2cps[0]] + v2cps[2:]), AA)
    other = dict(export(v2, v2cps))
    w("audit-v2-inconsistent-recorded-key", "A version-2 trail whose trail.created names another audit key than the one "
      "given (checkpoints signed by the given key).", "inconsistent",
      export(audit_events_v2(4, OTHER), [checkpoint(audit_events_v2(4, OTHER), s) for s in range(1, 5)]), AA)

    back = audit_events_v2(4, times={3: "2018-12-26T08:59:00.000000Z"})
    w("audit-v2-inconsistent-time-backwards", "A version-2 trail whose event 3 is dated before event 2 (every event "
      "chained and signed): the appliance never appends under a clock set back, so its times never go back "
      "(SPEC §6.4 (5), §6.6).", "inconsistent", export(back, [checkpoint(back, s) for s in range(1, 5)]), AA)
    odd = audit_events_v2(4, times={2: "2018-12-26 09:00:02Z"})
    w("audit-v2-inconsistent-time-format", "A version-2 trail whose event 2's time is not in urne's one format "
      "(RFC 3339 UTC with microseconds, SPEC §6.1).", "inconsistent",
      export(odd, [checkpoint(odd, s) for s in range(1, 5)]), AA)

    for name, ts, what in (("date", "2018-12-32T09:00:04.000000Z", "day 32 of December"),
                           ("leap-second", "2018-12-26T09:00:60.000000Z", "second 60")):
        bad = audit_events_v2(4, times={4: ts})
        w(f"audit-v2-inconsistent-time-impossible-{name}", f"A version-2 trail whose event 4's time has the shape of "
          f"urne's one format but names {what} (every event chained and signed, the times in text order): not "
          f"a real date and time of day, so not an appliance's time (SPEC §6.1, §6.4 (5)).", "inconsistent",
          export(bad, [checkpoint(bad, s) for s in range(1, 5)]), AA)
    clock_vectors(w, export, AA)
    history_vectors(w, PUB)
    musts_vectors(w, PUB, AUD, exfiles, ex, bundle, result, leaves, proof, PR)


# ---- a clock set ahead, then corrected (spec/formats.md §6.2 clock.corrected, spec/formats.md §6.4 (5)) ---------------------------
def clock_vectors(w, export, AA):
    """Event 2 dated by a clock ten years ahead; event 3 the witnessed correction (dated by the right clock, earlier
    than event 2, naming event 2's time as `wrong`); event 4 after it. Every event chained and signed."""
    ahead, right = "2028-12-26T09:00:02.000000Z", "2018-12-26T09:05:03.000000Z"

    def corrected(wrong=ahead, confirmed="2018-12-26T09:05:00.000000Z", fourth="2018-12-26T09:05:04.000000Z",
                  kind="clock.corrected"):
        payload = json.dumps({"wrong": wrong, "confirmed": confirmed, "reason": "the clock was set ten years ahead"},
                             separators=(",", ":"), ensure_ascii=False)
        ev = audit_events_v2(4, times={2: ahead, 3: right, 4: fourth}, kinds={3: (kind, payload)})
        return export(ev, [checkpoint(ev, s) for s in range(1, 5)])
    w("audit-v2-valid-clock-corrected", "A version-2 trail whose event 2 was dated by a clock ten years ahead and "
      "whose event 3 is clock.corrected: dated by the corrected clock, earlier than event 2, it names event 2's time "
      "as `wrong` and the time confirmed at the terminal; event 4 follows it (SPEC §6.2, §6.4 (5)).", "valid",
      corrected(), AA)
    w("audit-v2-inconsistent-clock-corrected-other-time", "audit-v2-valid-clock-corrected with the correction's "
      "`wrong` one microsecond later than event 2's time (re-chained and re-signed): a correction names the time of "
      "the event before it, exactly (SPEC §6.4 (5)).", "inconsistent",
      corrected(wrong="2028-12-26T09:00:02.000001Z"), AA)
    w("audit-v2-inconsistent-clock-corrected-confirmed-format", "audit-v2-valid-clock-corrected with the "
      "correction's `confirmed` written as typed (`2018-12-26 10:05`), not in urne's one format (SPEC §6.1, "
      "§6.4 (5)).", "inconsistent", corrected(confirmed="2018-12-26 10:05"), AA)
    w("audit-v2-inconsistent-clock-corrected-back-after", "audit-v2-valid-clock-corrected whose event 4 is dated one "
      "microsecond before the correction (event 3): only the correction itself may be earlier than the event before "
      "it (SPEC §6.4 (5)).", "inconsistent", corrected(fourth="2018-12-26T09:05:02.999999Z"), AA)
    w("audit-v2-inconsistent-clock-corrected-other-kind", "audit-v2-valid-clock-corrected with event 3's kind "
      "`command.failed` (its payload a correction's, re-chained and re-signed): an event earlier than the one before "
      "it that is not a clock.corrected event (SPEC §6.4 (5)).", "inconsistent", corrected(kind="command.failed"), AA)
    witnessed_vectors(w, export, AA, ahead)


def witnessed_vectors(w, export, AA, ahead):
    """spec/formats.md §6.4 (5) [M-254]: event 2 witnessed the time at a watch (a sitting opened at 09:00:02, or a clock confirmed at
    09:00), event 3 is dated ten years ahead, event 4 corrects the clock, event 5 follows it. A correction never goes
    back past the last time witnessed, and is dated by a clock that agreed with the watch (5 min 59 s)."""
    sitting = json.dumps({"number": 1, "kind": "sitting", "place": "Paris", "commissaire": {"name": "Me Martin",
                          "office": "Paris"}, "present": [], "lang": "fr", "plan": []},
                         separators=(",", ":"), ensure_ascii=False)
    confirmed_at = json.dumps({"previous": "2018-11-01T09:00:00.000000Z", "confirmed": "2018-12-26T09:00:00.000000Z"},
                              separators=(",", ":"))
    # Event 2 correcting event 1 (dated 09:00:01) to the watch's 09:00: 1 s back, its own time 09:00:02.
    first_correction = json.dumps({"wrong": "2018-12-26T09:00:01.000000Z", "confirmed": "2018-12-26T09:00:00.000000Z",
                                   "reason": "the clock was one second ahead"}, separators=(",", ":"))

    def after(witness, confirmed, at):
        payload = json.dumps({"wrong": ahead, "confirmed": confirmed, "reason": "the clock was set ten years ahead"},
                             separators=(",", ":"), ensure_ascii=False)
        fifth = at[:20] + "999999Z"
        ev = audit_events_v2(5, times={3: ahead, 4: at, 5: fifth},
                             kinds={2: witness, 4: ("clock.corrected", payload)})
        return export(ev, [checkpoint(ev, s) for s in range(1, 6)])
    opened = ("sitting.opened", sitting)
    w("audit-v2-valid-clock-corrected-after-sitting", "A version-2 trail: event 2 a sitting opened at 09:00:02 (its "
      "clock agreed with the commissaire's watch), event 3 dated ten years ahead, event 4 the correction confirming "
      "08:55, 4 min 2 s before the sitting's time, within the watch check's tolerance (SPEC §6.4 (5) [M-254]).",
      "valid", after(opened, "2018-12-26T08:55:00.000000Z", "2018-12-26T08:55:30.000000Z"), AA)
    # spec/formats.md §6.2: a sitting.opened may name the town its minutes are made in (`town`, optional).
    with_town = ("sitting.opened", json.dumps(
        {"number": 1, "kind": "sitting", "place": "Salle des tirages, 126 rue Gallieni", "town": "Boulogne-Billancourt",
         "commissaire": {"name": "Me Martin", "office": "Paris"}, "present": [], "lang": "fr", "plan": []},
        separators=(",", ":"), ensure_ascii=False))
    w("audit-v2-valid-sitting-opened-with-town", "audit-v2-valid-clock-corrected-after-sitting whose sitting.opened "
      "names, beside its place, the town its minutes are made in (SPEC §6.2: `town`, optional).",
      "valid", after(with_town, "2018-12-26T08:55:00.000000Z", "2018-12-26T08:55:30.000000Z"), AA)
    w("audit-v2-inconsistent-clock-corrected-before-sitting", "audit-v2-valid-clock-corrected-after-sitting whose "
      "correction confirms 08:54, more than 5 min 59 s before the sitting opened at the watch: a correction never "
      "goes back past the last time a person witnessed (SPEC §6.4 (5) [M-254]).", "inconsistent",
      after(opened, "2018-12-26T08:54:00.000000Z", "2018-12-26T08:54:30.000000Z"), AA)
    w("audit-v2-valid-clock-corrected-before-confirmed", "A version-2 trail whose event 2 is clock.confirmed (09:00, "
      "confirmed by whoever was at the terminal) and whose correction (event 4) confirms 08:59: a clock.confirmed "
      "sets no bound, only a sitting's watch and an earlier correction do (SPEC §6.4 (5) [M-254]).", "valid",
      after(("clock.confirmed", confirmed_at), "2018-12-26T08:59:00.000000Z", "2018-12-26T08:59:10.000000Z"), AA)
    w("audit-v2-inconsistent-clock-corrected-twice-back", "A version-2 trail whose event 2 is a correction confirming "
      "09:00:02's minute (09:00) and whose second correction (event 4, after an event dated ten years ahead) confirms "
      "08:59: corrections never walk back past each other (SPEC §6.4 (5) [M-254]).", "inconsistent",
      after(("clock.corrected", first_correction), "2018-12-26T08:59:00.000000Z", "2018-12-26T08:59:10.000000Z"), AA)
    w("audit-v2-inconsistent-clock-corrected-dated-before-watch", "audit-v2-valid-clock-corrected-after-sitting "
      "whose correction confirms 09:05 but is dated 08:59:00, 6 min before it: not recorded by a clock that agreed "
      "with the watch (SPEC §6.4 (5) [M-254]).", "inconsistent",
      after(opened, "2018-12-26T09:05:00.000000Z", "2018-12-26T08:59:00.000000Z"), AA)


# ---- vectors for requirement ids nothing exercised before (tests/musts.toml) --------------------
def musts_vectors(w, PUB, AUD, exfiles, ex, bundle, result, leaves, proof, PR):
    """Version-1 draw vectors, one per MUST and failure class (spec/formats.md §8.1-§8.4), each changing one
    thing of draw-valid-public / draw-valid-auditor (re-signed unless the class is bad-signature)."""
    lb = leaves_bin(leaves)
    copy = lambda o: json.loads(jdump(o))
    f = draw_files(bundle, result)
    del f["draw/leaves.bin"], f["draw/leaves.bin.sig"]
    w("draw-malformed-no-leaves", "draw-valid-public without leaves.bin (nor its .sig): bundle.json and leaves.bin "
      "MUST be present (SPEC §8.2 step 1).", "malformed", f)
    b2 = copy(bundle); b2["leaves_file"] = "leaves.dat"
    w("draw-malformed-leaves-file-name", "bundle.json (re-signed) names leaves.dat as its leaves_file: it MUST be "
      "leaves.bin (SPEC §8.2 step 2).", "malformed", draw_files(b2, result))
    for n in (63, 65):
        f = draw_files(bundle, result)
        sig = bytes.fromhex(f["draw/result.json.sig"]["hex"])
        f["draw/result.json.sig"] = {"hex": (sig + b"\x00")[:n].hex()}
        w(f"draw-bad-signature-sig-length-{n}", f"result.json.sig of {n} bytes (the signature cut or lengthened): a "
          ".sig is exactly 64 bytes (SPEC §1.4, §1.6).", "bad-signature", f)
    x = bytearray(lb); x[32] = 0
    b2 = copy(bundle); b2["leaves_sha256"] = hashlib.sha256(bytes(x)).hexdigest()
    w("draw-malformed-leaf-zero-entries", "The first leaf of leaves.bin with 0 entries (re-signed, leaves_sha256 "
      "updated): a leaf has 1 to 255 entries (SPEC §8.2 step 2).", "malformed",
      draw_files(b2, result, leaves_bytes=bytes(x)))
    empty = hashlib.sha256(b"").hexdigest()
    b2, r2 = copy(bundle), copy(result)
    for y in (b2, r2):
        y["commitment"] = {"root": empty, "leaves": 0, "entries": 0}
        y["figures"].update(entries=0, accounts_with_entries=0)
    b2["leaves_sha256"] = empty
    r2.update(entries=0, accounts=0)
    w("draw-inconsistent-empty-day", "A commitment with no entries (0 leaves, the empty tree's root, leaves.bin "
      "empty and signed, figures 0; re-signed): an empty day is no draw (SPEC §4.5, §8.2 step 2).", "inconsistent",
      draw_files(b2, r2, leaves_bytes=b""))
    t = jdump(result).replace('"version": 1,', '"version": 1,\n  "comment": "extra",', 1)
    w("draw-malformed-result-unknown-field", "result.json (re-signed) has an unknown member; bundle.json holds "
      "(SPEC §8.2 step 6, §1.5).", "malformed", draw_files(bundle, result, result_text=t))
    b2, r2 = copy(bundle), copy(result)
    for y in (b2, r2):
        y["version"] = 3
    w("draw-malformed-version-3", "bundle.json and result.json (re-signed) say version 3, a version no verifier "
      "knows (SPEC §7.2).", "malformed", draw_files(b2, r2))
    b2, r2 = copy(bundle), copy(result)
    for y in (b2, r2):
        y["pkcs11"] = PKCS11
    w("draw-malformed-v1-with-pkcs11", "A version-1 bundle.json and result.json (re-signed) ending with a pkcs11 "
      "member: version 1 has none (SPEC §4.7).", "malformed", draw_files(b2, r2))
    other_rules = (json.dumps(RULES, indent=4, ensure_ascii=False) + "\n").encode()
    assert other_rules != RULES_BYTES
    w("draw-inconsistent-rules-sha256", "rules.json (signed) is the same rules written with another indentation: a "
      "valid rules file whose SHA-256 is not rules_sha256 (SPEC §8.2 step 7, compared before it is parsed).",
      "inconsistent", draw_files(bundle, result, rules_bytes=other_rules))
    # spec/formats.md §7.4: the official operation's id with other bytes than the pinned ones (the same rules
    # reindented, its SHA-256 in the core and the seed): the rules are not the official ones.
    b4, r4, _, lv4 = make_draw(ex, rules_bytes=other_rules)
    w("draw-inconsistent-official-id-other-rules", "The draw of the official operation chanceux-noel-2018 made under "
      "another rules file than its pinned one (the same rules reindented: its SHA-256 in the core and the seed, "
      "rules.json that file, signed): an official id with other bytes does not verify (SPEC §7.4, §8.2 step 7).",
      "inconsistent", draw_files(b4, r4, leaves_bytes=leaves_bin(lv4), rules_bytes=other_rules))
    f4 = draw_files(b4, r4, leaves_bytes=leaves_bin(lv4), rules_bytes=other_rules)
    del f4["draw/rules.json"], f4["draw/rules.json.sig"]
    w("draw-inconsistent-official-id-other-rules-sha256", "draw-inconsistent-official-id-other-rules without "
      "rules.json: the rules_sha256 the output binds is not the pinned SHA-256 of its official operation "
      "(SPEC §7.4).", "inconsistent", f4)
    b5, r5 = (with_unofficial_member(y) for y in (bundle, result))
    w("draw-malformed-v1-unofficial-rules", "bundle.json and result.json (version 1, re-signed) with "
      "\"unofficial_rules\": true: a member of version 2 only (SPEC §7.4).", "malformed", draw_files(b5, r5))
    bad_rules = jdump(dict({"operation": RULES["operation"], "comment": "not a member of a draw rules file"},
                           **{k: v for k, v in RULES.items() if k != "operation"})).encode()
    assert b'"comment"' in bad_rules and "comment" not in RULES
    b3, r3, _, lv3 = make_draw(ex, rules_bytes=bad_rules)
    w("draw-malformed-rules", "The draw made under a rules file (its SHA-256 in the core and the seed, the file "
      "signed) that has a member §4.9 does not give: rules.json MUST load (SPEC §8.2 step 7, §4.9).", "malformed",
      draw_files(b3, r3, leaves_bytes=leaves_bin(lv3), rules_bytes=bad_rules))
    # spec/formats.md §4.9: the draw rules file's members and local times (each the draw made under that file,
    # its SHA-256 in the core and the seed, the file signed).
    text = RULES_BYTES.decode()
    for name, bad, why in (
            ("duplicate-member", text.replace('"daily_cap": 3,', '"daily_cap": 3,\n  "daily_cap": 3,', 1),
             "daily_cap given twice"),
            ("fractional-integer", text.replace('"daily_cap": 3,', '"daily_cap": 3.0,', 1),
             "daily_cap written 3.0"),
            ("local-time-short", text.replace('"start": "2018-12-01T00:00:00"', '"start": "2018-12-1T0:0:0"', 1),
             "participation.start written 2018-12-1T0:0:0"),
            ("local-time-space", text.replace('"start": "2018-12-01T00:00:00"', '"start": " 2018-12-01T00:00:00"', 1),
             "participation.start with a leading space"),
            ("local-time-sign", text.replace('"start": "2018-12-01T00:00:00"', '"start": "+2018-12-01T00:00:00"', 1),
             "participation.start with a sign before the year"),
            ("local-time-leap-second", text.replace('"end": "2018-12-25T00:00:00"', '"end": "2018-12-24T23:59:60"', 1),
             "participation.end at second 60"),
            ("local-time-offset", text.replace('"start": "2018-12-01T00:00:00"', '"start": "2018-12-01T00:00:00Z"', 1),
             "participation.start with an offset (a local time has none)")):
        bad = bad.encode()
        assert bad != RULES_BYTES
        b3, r3, _, lv3 = make_draw(ex, rules_bytes=bad)
        w(f"draw-malformed-rules-{name}", f"The draw made under a rules file (its SHA-256 in the core and the "
          f"seed, the file signed) with {why}: rules.json MUST load (SPEC §8.2 step 7, §4.9).", "malformed",
          draw_files(b3, r3, leaves_bytes=leaves_bin(lv3), rules_bytes=bad))
    f = dict(draw_files(bundle, result), **exfiles)
    del f["draw/rules.json"], f["draw/rules.json.sig"]
    w("draw-usage-auditor-no-rules", "Auditor mode on a folder without rules.json: the export cannot be read "
      "without the draw's rules, a usage mistake (SPEC §8.1), exit 2.", "usage", f, AUD)
    w("history-usage-checkpoint-v1", "draw-valid-public (version 1, no history) with --checkpoint (its own "
      "checkpoint as a held note): version-1 outputs carry no history to check it against, a usage mistake "
      "(SPEC §8.1), exit 2.", "usage", dict(draw_files(bundle, result),
                                            **{"held.note": {"utf8": bundle["audit_checkpoint"]}}),
      dict(PUB, checkpoints=["held.note"]))
    # Auditor mode: the leaves, and the figures' rules of every version.
    ex2 = ex.replace(acct(7).encode(), acct(12).encode())
    assert ex2 != ex
    b3, r3, _, lv3 = make_draw(ex2, claimed_export=ex)
    assert b3["figures"] == bundle["figures"] and lv3 != leaves
    w("draw-commitment-mismatch-auditor-leaves", "Auditor mode: the draw names the export (hash, size) and has its "
      "figures, but was sealed with another account in place of account 7 (same plays): the recomputed leaves "
      "are not the bundle's (SPEC §8.2 step 8).", "commitment-mismatch",
      dict(draw_files(b3, r3, leaves_bytes=leaves_bin(lv3)), **exfiles), AUD)
    exr = export_text(excluded_retail_only=True).encode()
    b3, r3, _, lv3 = make_draw(exr)
    for y in (b3, r3):
        y["figures"]["excluded_accounts_with_plays"]["closed"] = 0
    f = with_export(draw_files(b3, r3, leaves_bytes=leaves_bin(lv3)), AUD["export"], exr)
    w("draw-commitment-mismatch-auditor-excluded-counting-rule", "draw-valid-auditor-excluded-retail-only as a "
      "version-1 writer that counted only excluded accounts with a counting play would sign it "
      "(excluded_accounts_with_plays.closed 0): the figures' rules of §4.7 apply to every version (SPEC §4.7, "
      "§8.2 step 8).", "commitment-mismatch", f, AUD)
    # Inclusion proofs (spec/formats.md §8.3).
    def proof_files(text, sig_of=None):
        f = dict(draw_files(bundle, result), **{"proof.json": {"utf8": text},
                                              "proof.json.sig": {"hex": RESULT.sign((sig_of or text).encode()).hex()}})
        return f
    t = jdump(proof)
    w("draw-proof-bad-signature", "The winner's proof with its leaf index changed after signing (SPEC §8.3).",
      "bad-signature", proof_files(t.replace(f'"leaf": {proof["leaf"]},', f'"leaf": {proof["leaf"] + 1},', 1), t), PR)
    w("draw-proof-inconsistent-key-id", "The winner's proof (re-signed) naming another result_key_id than the "
      "result key's (SPEC §8.3).", "inconsistent", proof_files(jdump(dict(proof, result_key_id="0123456789abcdef"))),
      PR)
    # Exports the draw names (validly signed, hash and size their own), each breaking one rule of
    # spec/formats.md §4.1.1 / §4.1.2.
    first_play = ex.split(b"\n")[1]
    for name, bad, why in (
            ("blank-line", ex.replace(b"\n", b"\n\n", 1), "a blank line after the header (§4.1.1)"),
            ("bom", b"\xef\xbb\xbf" + ex, "a UTF-8 byte order mark before the header (§4.1.1)"),
            ("escaped-duplicate-key", ex.replace(first_play, first_play.replace(b'{"type":"play"', b'{"type":"play","\\u0074ype":"play"', 1), 1),
             "a record with the key \"type\" twice, once written \"\\u0074ype\" (§4.1.1: no key twice, after unescaping)"),
            ("lone-surrogate", ex.replace(first_play, first_play.replace(b'"game":"loto"', b'"game":"\\ud800"', 1), 1),
             "a record whose game is the lone surrogate escape \"\\ud800\" (§4.1.2)"),
            ("leap-second", ex.replace(b'"at":"2018-12-22T10:00:00+01:00"', b'"at":"2018-12-22T10:00:60+01:00"', 1),
             "a play at 10:00:60, a leap second (§4.1.2: second 00-59)"),
            ("time-sep-space", ex.replace(b'"at":"2018-12-22T10:00:00+01:00"', b'"at":"2018-12-22 10:00:00+01:00"', 1),
             "a play whose date and time are separated by a space (§4.1.2: T or t)"),
            ("offset-24", ex.replace(b'"at":"2018-12-22T10:00:00+01:00"', b'"at":"2018-12-23T09:00:00+24:00"', 1),
             "a play with the offset +24:00 (§4.1.2: offsets run to ±23:59)"),
            ("offset-no-colon", ex.replace(b'"at":"2018-12-22T10:00:00+01:00"', b'"at":"2018-12-22T10:00:00+0100"', 1),
             "a play with the offset +0100 (§4.1.2: ±HH:MM)"),
            ("nesting-65", ex.replace(first_play, first_play[:-1] + b',"x":' + b"[" * 64 + b"]" * 64 + b"}", 1),
             "a record with an unknown member nested 65 deep, the record being depth 1 (§4.1.2: at most 64)")):
        assert bad != ex
        b3, r3, _, _ = make_draw(ex, claimed_export=bad)
        f = with_export(draw_files(b3, r3), AUD["export"], bad)
        w(f"draw-malformed-export-{name}", f"Auditor mode: the export the draw names (validly signed, hash and size "
          f"matching) has {why}.", "malformed", f, AUD)
    # spec/formats.md §4.1.2 at its edges, accepted: `t` and `z`, `-00:00`, `±23:59`, 12 fraction digits, an
    # unknown member nested 64 deep; each time the same instant as in the export above, so the
    # draw is the same day with the same figures.
    edge = ex
    for old_at, new_at in ((b"2018-12-22T22:59:59Z", b"2018-12-22t22:59:59z"),
                           (b"2018-12-21T23:30:00Z", b"2018-12-21T23:30:00-00:00"),
                           (b"2018-12-22T09:00:00+01:00", b"2018-12-23T07:59:00+23:59"),
                           (b"2018-12-22T08:00:00-05:00", b"2018-12-21T13:01:00-23:59"),
                           (b"2018-12-22T09:00:00.5+01:00", b"2018-12-22T09:00:00.500000000000+01:00")):
        assert edge.count(b'"' + old_at + b'"') == 1, old_at
        edge = edge.replace(b'"' + old_at + b'"', b'"' + new_at + b'"')
    edge = edge.replace(first_play, first_play[:-1] + b',"x":' + b"[" * 63 + b"]" * 63 + b"}", 1)
    b3, r3, _, lv3 = make_draw(edge)
    assert b3["figures"] == bundle["figures"] and b3["commitment"]["root"] == bundle["commitment"]["root"]
    f = with_export(draw_files(b3, r3, leaves_bytes=leaves_bin(lv3)), AUD["export"], edge)
    w("draw-valid-auditor-export-date-time-edges", "A genuine draw in auditor mode whose export writes its instants "
      "at the edges of §4.1.2's date-time: `t` and `z` in lower case, the offsets -00:00, +23:59 and -23:59, 12 "
      "fraction digits, and has an unknown member nested 64 deep: every one is accepted, and each instant is the "
      "one of draw-valid-auditor (the same figures and commitment).", "valid", f, AUD)
    # spec/formats.md §4.1.2: a line of exactly 1,048,576 bytes before its LF is read, one byte more is refused.
    def padded_to(line, n):
        out = line[:-1] + b',"pad":"' + b"x" * (n - len(line) - 9) + b'"}'
        assert len(out) == n
        return out
    for n, expect in ((1 << 20, "valid"), ((1 << 20) + 1, "malformed")):
        long_ex = ex.replace(first_play, padded_to(first_play, n), 1)
        if expect == "valid":
            b3, r3, _, lv3 = make_draw(long_ex)
            assert b3["figures"] == bundle["figures"]
            f = draw_files(b3, r3, leaves_bytes=leaves_bin(lv3))
            name, desc = "draw-valid-auditor-export-line-of-the-limit", (
                "A genuine draw in auditor mode whose export's first play line is exactly 1,048,576 bytes before "
                "its LF (an unknown member pads it): a line of the limit is read (SPEC §4.1.2).")
        else:
            b3, r3, _, _ = make_draw(ex, claimed_export=long_ex)
            f = draw_files(b3, r3)
            name, desc = "draw-malformed-export-line-too-long", (
                "Auditor mode: the export the draw names (validly signed, hash and size matching) has a play line "
                "of 1,048,577 bytes before its LF, one more than the limit (SPEC §4.1.2).")
        w(name, desc, expect, with_export(f, AUD["export"], long_ex), AUD)
    # spec/formats.md §1.4: S + L, the same signature under a lenient verifier.
    L = 2**252 + 27742317777372353535851937790883648493
    f = draw_files(bundle, result)
    sig = bytes.fromhex(f["draw/bundle.json.sig"]["hex"])
    s_big = int.from_bytes(sig[32:], "little") + L
    f["draw/bundle.json.sig"] = {"hex": (sig[:32] + s_big.to_bytes(32, "little")).hex()}
    # spec/formats.md §1.4: R the identity (a point of small order) and S = k·a: the cofactorless equation holds
    # (S·B = R + k·A), a strict verifier refuses R.
    seed = sha256("urne test vector key: result".encode())
    h = hashlib.sha512(seed).digest()
    a_scalar = int.from_bytes(h[:32], "little") & ((1 << 254) - 8) | (1 << 254)
    r_enc = (1).to_bytes(32, "little")                 # y = 1, x = 0: the neutral point
    data = jdump(bundle).encode()
    k = int.from_bytes(hashlib.sha512(r_enc + raw(RESULT) + data).digest(), "little") % L
    f2 = draw_files(bundle, result)
    f2["draw/bundle.json.sig"] = {"hex": (r_enc + (k * a_scalar % L).to_bytes(32, "little")).hex()}
    w("draw-bad-signature-small-order-r", "bundle.json.sig whose R is the neutral point (small order) and S = k·a "
      "mod L: the cofactorless equation S·B = R + k·A holds, a strict verifier refuses R (SPEC §1.4).",
      "bad-signature", f2)
    # R the neutral point written non-canonically (y = p + 1): spec/formats.md §1.4 asks for a canonical R.
    r_bad = (2**255 - 19 + 1).to_bytes(32, "little")
    k = int.from_bytes(hashlib.sha512(r_bad + raw(RESULT) + data).digest(), "little") % L
    f3 = draw_files(bundle, result)
    f3["draw/bundle.json.sig"] = {"hex": (r_bad + (k * a_scalar % L).to_bytes(32, "little")).hex()}
    w("draw-bad-signature-non-canonical-r", "bundle.json.sig whose R is the neutral point encoded with y = p + 1 "
      "(not canonical) and S = k·a mod L over that encoding: R MUST be canonical (SPEC §1.4).", "bad-signature", f3)
    # A of small order (the neutral point): R = s·B, S = s satisfies S·B = R + k·A for any message,
    # so a lenient verifier accepts every file "signed" so; a strict one refuses A (spec/formats.md §1.4).
    ident = (1).to_bytes(32, "little")
    sB = _scalar_base(7)
    forged = lambda data: sB + (7).to_bytes(32, "little")
    b2, r2 = copy(bundle), copy(result)
    for y in (b2, r2):
        y["result_key_id"] = key_id(ident)
    f4 = draw_files(b2, r2)
    for rel in list(f4):
        if rel.startswith("draw/") and rel.endswith(".sig"):
            f4[rel] = {"hex": forged(file_bytes(f4[rel[:-4]])).hex()}
    f4["keys/result.pub.pem"] = {"utf8": _pem_of_raw(ident)}
    w("draw-bad-signature-small-order-key", "The result key given is the neutral point (small order), every file "
      "of the folder 'signed' with R = 7·B and S = 7, which satisfies S·B = R + k·A whatever the file; the "
      "outputs name that key's id: a strict verifier refuses a small-order A (SPEC §1.4).", "bad-signature", f4)
    w("draw-bad-signature-non-canonical-s", "bundle.json.sig with S + L in place of S (S >= L): the equation still "
      "holds, a strict verifier refuses it (SPEC §1.4).", "bad-signature", f)


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "tests", "vectors")
    for n in os.listdir(out):
        if n.startswith(("draw-", "audit-", "history-")) and n.endswith(".json"):
            os.remove(os.path.join(out, n))
    main(out)
