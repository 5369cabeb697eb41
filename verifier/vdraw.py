"""Daily draws (SPEC §4, §8): the bundle, result.json, rules.json, auditor mode, proofs."""
import bisect
import hashlib
import os

import vexport
import vhistory
import vjson as J
from vaudit import parse_checkpoint
from vcore import Failure, H, Stream, check_fixed_order, contribution_refusal, entropy_commitment, key_id, \
    leaf_hash, merkle_root, merkle_root_of_hashes, read_signed, u32be, u64be, verify_inclusion

SIGNED_FILES = ("bundle.json", "leaves.bin", "result.json", "rules.json", "pv.html", "checkpoint.note")

h32 = lambda v, w: J.hexbytes(v, w, 32)
COUNTS3 = J.fields({"closed": J.uint, "minor": J.uint, "fraud": J.uint})

# §4.7 the draw core, shared by result.json and bundle.json, in this order.
CORE = {
    "operation": J.string, "day": J.day, "attempt": lambda v, w: J.uint(v, w, 1, 2**32 - 1),
    "voided_attempts": J.listof(J.fields({"attempt": J.uint, "reason": J.string, "audit_seq": J.uint})),
    "rules_sha256": h32,
    "export": J.fields({"sha256": h32, "size": J.uint, "producer_key_id": J.keyid}),
    "figures": J.fields({
        "period": J.string, "tranche_cents": J.uint, "plays": J.uint, "counting_plays": J.uint,
        "retail_plays": J.uint, "subscription_plays_refused": J.uint,
        "accounts_with_counting_plays": J.uint, "exclusion_records": COUNTS3,
        "excluded_accounts_with_plays": COUNTS3, "accounts_with_entries": J.uint, "entries": J.uint}),
    "commitment": J.fields({"root": h32, "leaves": J.uint, "entries": J.uint}),
    "witness": J.string, "entropy": J.hexbytes, "seed": h32,
    "prize_cents": J.uint, "reserves_wanted": J.uint,
}
CORE_V1 = CORE


def contribution(v, what):
    """§4.4.1: a string in the grammar of contributions, else malformed."""
    J.string(v, what)
    why = contribution_refusal(v)
    if why:
        J._bad(what, why + " (§4.4.1)")
    return v


# §3.3 the evidence of the order in which the randomness became fixed.
FIXED_EVENT = J.fields({"seq": J.uint, "ts": J.string, "kind": J.string, "payload": J.string,
                        "prev_hash": h32, "inclusion": J.listof(h32)})
FIXED = J.fields({"entropy": FIXED_EVENT, "contribution": FIXED_EVENT})
REFUSED = J.listof(J.fields({"audit_seq": J.uint, "entropy_commitment": h32, "reason": J.string}))

# Version 2 (§4.7, §7.2): no witness; entropy_commitment and contribution before the entropy,
# entropy_refused and fixed after reserves_wanted (then history, taken apart by vhistory).
CORE_V2 = {}
for _k, _c in CORE_V1.items():
    if _k == "witness":
        CORE_V2["entropy_commitment"] = h32
        CORE_V2["contribution"] = contribution
        continue
    CORE_V2[_k] = _c
CORE_V2["entropy_refused"] = REFUSED
CORE_V2["fixed"] = FIXED
PICK = {"rank": J.uint, "pseudonym": h32, "entries": J.uint, "entry": J.uint, "leaf": J.uint}
PICK_ACCOUNT = dict(PICK, account=h32)
TAIL = {
    "drawn_at": J.string, "audit_checkpoint": J.string, "result_key_id": J.keyid, "audit_key_id": J.keyid,
    "software": J.fields({"name": J.string, "version": J.string, "source_revision": J.string,
                          "executable_sha256": h32}),
}


# §4.7, §6.2 (version 2): the code that answered for the HSM, members closed at every depth.
def _sha_or_null(v, what):
    return None if v is None else h32(v, what)


MAPPED_STATUS = ("present", "deleted", "replaced", "special", "unreadable")


def _status(v, what):
    if v not in MAPPED_STATUS:
        J._bad(what, f"expected one of {MAPPED_STATUS}")
    return v


PKCS11 = J.fields({
    "module_path": J.string, "module_sha256": h32, "manufacturer": J.string, "library": J.string,
    "library_version": J.string, "cryptoki_version": J.string,
    "token": J.fields({"label": J.string, "manufacturer": J.string, "model": J.string, "serial": J.string,
                       "firmware": J.string}),
    "mapped": J.listof(J.fields({"path": J.string, "status": _status, "sha256": _sha_or_null})),
})
TAIL_V2 = dict(TAIL, pkcs11=PKCS11)

VERSION = lambda v, w: J.uint(v, w, 1, 2)


def _bundle(core, tail):
    return dict({"format": J.const("urne-draw-bundle"), "version": VERSION}, **core,
                leaves_file=J.string, leaves_sha256=h32, winner=J.fields(PICK), reserves=J.listof(J.fields(PICK)),
                **tail)


def _result(core, tail):
    return dict({"format": J.const("urne-draw-result"), "version": VERSION}, **core,
                entries=J.uint, accounts=J.uint, winner=J.fields(PICK_ACCOUNT),
                reserves=J.listof(J.fields(PICK_ACCOUNT)), **tail)


BUNDLE, RESULT = _bundle(CORE_V1, TAIL), _result(CORE_V1, TAIL)
BUNDLE_V2, RESULT_V2 = _bundle(CORE_V2, TAIL_V2), _result(CORE_V2, TAIL_V2)


def core_of(doc):
    """The draw core's members for the document's version: version 1's, or version 2's for
    any other value (whose `version` check then fails if it is not 2)."""
    return CORE_V1 if isinstance(doc, dict) and doc.get("version") == 1 else CORE_V2


def parse_bundle(doc, what="bundle.json"):
    return J.obj(doc, what, BUNDLE if core_of(doc) is CORE_V1 else BUNDLE_V2)


def parse_result(doc, what="result.json"):
    return J.obj(doc, what, RESULT if core_of(doc) is CORE_V1 else RESULT_V2)


# §4.4: version 1 binds the `witness`, version 2 the `contribution` (§4.4.1) under its own label.
def draw_seed(core):
    c = core["commitment"]
    v2 = "contribution" in core
    return H("urne/v2/draw-seed" if v2 else "urne/v1/draw-seed", core["operation"], core["day"],
             u32be(core["attempt"]), core["rules_sha256"], core["export"]["sha256"], c["root"],
             u64be(c["leaves"]), u64be(c["entries"]), core["contribution"] if v2 else core["witness"],
             core["entropy"])


# §3.3, §6.2: the payloads of the two events that fixed a draw's randomness.
ENTROPY_EVENT = {"operation": J.string, "day": J.string, "attempt": J.uint, "commitment_root": h32,
                 "entropy_commitment": h32, "entropy_blob": h32}
CONTRIBUTION_EVENT = {"operation": J.string, "day": J.string, "attempt": J.uint, "entropy_commitment": h32,
                      "contribution": J.string}


def verify_fixed(b, size, root):
    """§8.2 step 5 (version 2): the draw.entropy event, then the draw.contribution event, both in
    the tree of the output's checkpoint, saying what the core says. Failures: inconsistent."""
    f = b["fixed"]
    why = check_fixed_order(f, size, root, ("draw.entropy", "draw.contribution"))
    if why:
        raise Failure("inconsistent", f"randomness order: {why}")
    e = J.payload(f["entropy"]["payload"], "fixed.entropy.payload", ENTROPY_EVENT)
    c = J.payload(f["contribution"]["payload"], "fixed.contribution.payload", CONTRIBUTION_EVENT)
    draw = (b["operation"], b["day"], b["attempt"])
    if (e["operation"], e["day"], e["attempt"]) != draw or e["commitment_root"] != b["commitment"]["root"]:
        raise Failure("inconsistent", "randomness order: the entropy event is of another draw")
    if (c["operation"], c["day"], c["attempt"]) != draw:
        raise Failure("inconsistent", "randomness order: the contribution event is of another draw")
    if e["entropy_commitment"] != b["entropy_commitment"] or c["entropy_commitment"] != b["entropy_commitment"]:
        raise Failure("inconsistent", "randomness order: the events name another entropy commitment")
    if c["contribution"] != b["contribution"]:
        raise Failure("inconsistent", "randomness order: the contribution recorded is not the one published")


# §4.5
def select(seed, leaf_entries, reserves_per_day):
    """Returns [(leaf index, entry number)] for the winner then the reserves."""
    starts, s = [], 0
    for n in leaf_entries:
        starts.append(s)
        s += n
    total = s
    want = min(1 + reserves_per_day, len(leaf_entries))
    stream = Stream(seed, "urne/v1/daily-draw")
    picks, picked = [], set()
    while len(picks) < want:
        e = stream.uniform(total)
        i = bisect.bisect_right(starts, e) - 1      # s_i <= e < s_i + entries_i
        if i not in picked:
            picked.add(i)
            picks.append((i, e))
    return picks


# §4.2
def pseudonymise(operation, day, entry_list):
    """[(account, entries)] ascending by account -> (list_digest, [(pseudonym, entries, account, salt)])."""
    canonical = b"".join(a + bytes([n]) for a, n in entry_list)
    list_digest = H("urne/v1/entry-list", operation, day, canonical)
    key = H("urne/v1/pseudonym-key", list_digest)
    out = []
    for a, n in entry_list:
        salt = H("urne/v1/account-salt", key, a)
        out.append((H("urne/v1/pseudonym", salt, a), n, a, salt))
    out.sort()  # §4.3 leaves by ascending pseudonym
    return list_digest, out


def verify_draw(folder, result_pub, audit_pub, export=None, producer_keys=(), rules_file=None, outputs=None):
    """§8.2, steps 1 to 8, in order. Returns report lines; raises Failure on the first failure."""
    report = []
    p = lambda name: os.path.join(folder, name)
    # Step 1: every output file present is signed by the result key; bundle.json must exist.
    for name in ("bundle.json", "leaves.bin"):
        if not os.path.isfile(p(name)):
            raise Failure("malformed", f"{folder}: no {name}")
    raw = {}
    for name in SIGNED_FILES:
        if os.path.isfile(p(name)):
            raw[name] = read_signed(p(name), result_pub)
            report.append(f"ok  {name} signature")

    # Step 2: parse the bundle; leaves.bin (33-byte leaf data, leaf order) is the one it names,
    # strictly increasing, and its root/count/sum are the commitment.
    b, history = vhistory.take(J.loads(raw["bundle.json"], "bundle.json"), "bundle.json")
    b = parse_bundle(b)
    v2 = b["version"] == 2
    c, fig = b["commitment"], b["figures"]
    if b["leaves_file"] != "leaves.bin":
        raise Failure("malformed", "bundle.json leaves_file is not \"leaves.bin\"")
    lb = raw["leaves.bin"]
    if hashlib.sha256(lb).digest() != b["leaves_sha256"]:
        raise Failure("inconsistent", "the SHA-256 of leaves.bin is not bundle.json's leaves_sha256")
    if len(lb) % 33:
        raise Failure("malformed", "leaves.bin: length not a multiple of 33")
    leaves = [(lb[k:k + 32], lb[k + 32]) for k in range(0, len(lb), 33)]
    for i in range(len(leaves)):
        if leaves[i][1] == 0:
            raise Failure("malformed", f"leaves.bin leaf {i}: 0 entries")
        if i and leaves[i - 1][0] >= leaves[i][0]:
            raise Failure("malformed", f"leaves.bin leaf {i}: pseudonyms not strictly increasing")
    total = sum(n for _, n in leaves)
    root = merkle_root_of_hashes([leaf_hash(ps + bytes([n])) for ps, n in leaves])
    if root != c["root"]:
        raise Failure("commitment-mismatch", "the Merkle root of bundle.json's leaves is not commitment.root")
    if len(leaves) != c["leaves"] or total != c["entries"]:
        raise Failure("commitment-mismatch", "the number or the sum of the leaves is not the commitment's")
    if fig["entries"] != total or fig["accounts_with_entries"] != len(leaves):
        raise Failure("inconsistent", "figures.entries or figures.accounts_with_entries differs from the leaves")
    if total == 0:
        raise Failure("inconsistent", "a draw with no entries")
    report.append(f"ok  commitment recomputed from {len(leaves)} leaves ({total} entries)")

    # Step 3: the seed.
    if v2:
        if len(b["entropy"]) != 48:
            raise Failure("inconsistent", f"entropy is {len(b['entropy'])} bytes; a draw's has 48 (§3.1)")
        if entropy_commitment(b["entropy"]) != b["entropy_commitment"]:
            raise Failure("draw-mismatch", "the entropy is not the one its entropy_commitment (recorded before the "
                                           "contribution) names (§3.2)")
    elif len(b["entropy"]) != 48:
        raise Failure("inconsistent", f"entropy is {len(b['entropy'])} bytes; a draw's has 48 (§3.1, §8.2 step 3)")
    if draw_seed(b) != b["seed"]:
        raise Failure("draw-mismatch", "the seed does not recompute from the draw core (§4.4)")
    report.append("ok  seed recomputed")

    # Step 4: the selection.
    picks = select(b["seed"], [n for _, n in leaves], b["reserves_wanted"])
    published = [b["winner"]] + b["reserves"]
    if len(published) != len(picks):
        raise Failure("draw-mismatch", f"{len(published)} picks published, {len(picks)} recomputed")
    for rank, ((i, e), got) in enumerate(zip(picks, published)):
        want = {"rank": rank, "pseudonym": leaves[i][0], "entries": leaves[i][1], "entry": e, "leaf": i}
        if got != want:
            name = "winner" if rank == 0 else f"reserve {rank}"
            raise Failure("draw-mismatch", f"the {name} differs from the recomputed one (leaf {i}, entry {e})")
    report.append(f"ok  winner and {len(picks) - 1} reserves recomputed")

    # Step 5: the audit checkpoint, and the key ids the outputs name.
    size, cp_root = parse_checkpoint(b["audit_checkpoint"], audit_pub, "audit_checkpoint")
    if v2:
        verify_fixed(b, size, cp_root)
        report.append("ok  randomness order: the entropy commitment was recorded before the contribution, "
                      "both in the checkpoint's tree")
    if history is not None:
        o = vhistory.output(os.path.join(folder, "bundle.json"), raw["bundle.json"], history, size, cp_root,
                            ("draw", b["operation"], b["day"], b["attempt"]))
        if outputs is not None:
            outputs.append(o)
        report.append("ok  history: its checkpoint extends its predecessor's (RFC 6962 consistency)")
    if b["result_key_id"] != key_id(result_pub) or b["audit_key_id"] != key_id(audit_pub):
        raise Failure("inconsistent", "result_key_id or audit_key_id is not the id of the key given")
    if "checkpoint.note" in raw and raw["checkpoint.note"].decode("utf-8", "replace") != b["audit_checkpoint"]:
        raise Failure("inconsistent", "checkpoint.note differs from bundle.json's audit_checkpoint")
    report.append("ok  audit checkpoint signature")

    # Step 6: result.json agrees with the bundle.
    r = None
    if "result.json" in raw:
        r, r_history = vhistory.take(J.loads(raw["result.json"], "result.json"), "result.json")
        r = parse_result(r)
        if r["version"] != b["version"]:
            raise Failure("inconsistent", "result.json and bundle.json are of different versions (§7.2)")
        if r_history != history:
            raise Failure("inconsistent", "result.json history differs from bundle.json")
        for k in list(core_of(b)) + list(TAIL):
            if r[k] != b[k]:
                raise Failure("inconsistent", f"result.json {k} differs from bundle.json")
        if r["entries"] != c["entries"] or r["accounts"] != c["leaves"]:
            raise Failure("inconsistent", "result.json entries/accounts differ from the commitment")
        rp = [r["winner"]] + r["reserves"]
        if len(rp) != len(published) or any({k: v for k, v in x.items() if k != "account"} != y
                                            for x, y in zip(rp, published)):
            raise Failure("inconsistent", "result.json picks differ from bundle.json")
        report.append("ok  result.json agrees with bundle.json")

    # Step 7: rules.json binds prize, reserves, operation.
    rules = None
    if "rules.json" in raw or rules_file:
        rules_bytes = raw.get("rules.json")
        if rules_bytes is None:
            with open(rules_file, "rb") as f:
                rules_bytes = f.read()
        if hashlib.sha256(rules_bytes).digest() != b["rules_sha256"]:
            raise Failure("inconsistent", "the SHA-256 of rules.json is not rules_sha256")
        rules = J.loads(rules_bytes, "rules.json")
        period = next((q for q in rules["periods"] if q["first_day"] <= b["day"] <= q["last_day"]), None)
        if (rules["operation"] != b["operation"] or period is None or period["prize_cents"] != b["prize_cents"]
                or rules["reserves"]["per_day"] != b["reserves_wanted"] or period["id"] != fig["period"]
                or period["tranche_cents"] != fig["tranche_cents"]):
            raise Failure("inconsistent", "operation, period, tranche, prize or reserves do not follow from rules.json")
        report.append("ok  prize and reserves match the rules (D-10)")

    # Step 8: auditor mode.
    if export:
        if rules is None:
            raise Failure("inconsistent", "auditor mode needs rules.json (in the folder or --rules)")
        data, digest, kid = vexport.read_export(export, rules, producer_keys)
        e = b["export"]
        if digest != e["sha256"].hex() or len(data) != e["size"] or kid != e["producer_key_id"]:
            raise Failure("inconsistent", "the export's SHA-256, size or producer key id is not the draw's")
        header, tally = vexport.parse_export(data, rules, kid)
        del data
        if header["day"] != b["day"]:
            raise Failure("inconsistent", "the export is not for the draw's day")
        entry_list = vexport.entries_of(tally, rules)
        figures = vexport.figures_of(tally, rules, entry_list)
        for k, v in figures.items():
            if fig[k] != v:
                raise Failure("commitment-mismatch", f"figures.{k}: recomputed {v}, published {fig[k]}")
        _, mine = pseudonymise(b["operation"], b["day"], entry_list)
        if [(ps, n) for ps, n, _, _ in mine] != leaves:
            raise Failure("commitment-mismatch", "the leaves recomputed from the export differ from bundle.json's")
        if r is not None:
            for x in [r["winner"]] + r["reserves"]:
                if mine[x["leaf"]][2] != x["account"]:
                    raise Failure("draw-mismatch", f"rank {x['rank']}: the account is not the one behind its pseudonym")
        report.append(f"ok  auditor mode: {tally.plays} plays recomputed into the same figures and leaves")
    return report


PROOF = {"format": J.const("urne-inclusion-proof"), "version": J.const(1), "operation": J.string,
         "day": J.day, "attempt": J.uint, "account": h32, "salt": h32, "pseudonym": h32,
         "entries": lambda v, w: J.uint(v, w, 1, 255), "leaf": J.uint,
         "commitment": J.fields({"root": h32, "leaves": J.uint, "entries": J.uint}),
         "path": J.listof(h32), "result_key_id": J.keyid}


def verify_proof(path, result_pub, published=None):
    """§4.8."""
    raw = read_signed(path, result_pub)
    report = [f"ok  {os.path.basename(path)} signature"]
    pr = J.obj(J.loads(raw, os.path.basename(path)), "proof", PROOF)
    if pr["result_key_id"] != key_id(result_pub):
        raise Failure("inconsistent", "result_key_id is not the id of the result key given")
    if H("urne/v1/pseudonym", pr["salt"], pr["account"]) != pr["pseudonym"]:
        raise Failure("commitment-mismatch", "the pseudonym does not recompute from salt and account")
    c = pr["commitment"]
    if not verify_inclusion(pr["leaf"], c["leaves"], pr["pseudonym"] + bytes([pr["entries"]]), pr["path"], c["root"]):
        raise Failure("commitment-mismatch", "the audit path does not lead to commitment.root")
    report.append(f"ok  leaf {pr['leaf']} ({pr['entries']} entries) is in the tree of {c['leaves']} leaves")
    if published:
        b = parse_bundle(vhistory.take(J.loads(read_signed(os.path.join(published, "bundle.json"), result_pub),
                                               "bundle.json"), "bundle.json")[0])
        if (b["operation"], b["day"], b["attempt"], b["commitment"]) != (pr["operation"], pr["day"], pr["attempt"], c):
            raise Failure("commitment-mismatch", "the proof's commitment is not the published one")
        report.append("ok  the commitment is the published one")
    return report
