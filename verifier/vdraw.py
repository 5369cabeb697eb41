"""Daily draws (spec/formats.md §4, §8): the bundle, result.json, rules.json, auditor mode, proofs."""
import bisect
import datetime
import hashlib
import os
import re
import zoneinfo

import vexport
import vhistory
import vjson as J
import vmanifest
import vofficial
from vaudit import verify_checkpoint
from vcore import LIMITS, Failure, H, Stream, Usage, check_file, check_fixed_order, contribution_refusal, \
    entropy_commitment, is_one_time_format, key_id, leaf_hash, merkle_root_of_hashes, read_bounded, read_signed, u32be, u64be, \
    verify_inclusion

SIGNED_FILES = ("bundle.json", "leaves.bin", "result.json", "rules.json", "pv.html", "checkpoint.note")

h32 = lambda v, w: J.hexbytes(v, w, 32)
COUNTS3 = J.fields({"closed": J.uint, "minor": J.uint, "fraud": J.uint})

# spec/formats.md §4.7 the draw core, shared by result.json and bundle.json, in this order.
CORE = {
    "operation": J.string, "day": J.day, "attempt": lambda v, w: J.uint(v, w, 1, 2**32 - 1),
    "voided_attempts": J.listof(J.fields({"attempt": J.u32, "reason": J.string,
                                           "audit_seq": lambda v, w: J.uint(v, w, 1)})),
    "rules_sha256": h32,
    "export": J.fields({"sha256": h32, "size": J.uint, "producer_key_id": J.keyid}),
    "figures": J.fields({
        "period": J.string, "tranche_cents": J.uint, "plays": J.uint, "counting_plays": J.uint,
        "retail_plays": J.uint, "subscription_plays_refused": J.uint,
        "accounts_with_counting_plays": J.uint, "exclusion_records": COUNTS3,
        "excluded_accounts_with_plays": COUNTS3, "accounts_with_entries": J.uint, "entries": J.uint}),
    "commitment": J.fields({"root": h32, "leaves": J.uint, "entries": J.uint}),
    "witness": J.string, "entropy": J.hexbytes, "seed": h32,
    "prize_cents": J.uint, "reserves_wanted": J.u32,
}
CORE_V1 = CORE


def contribution(v, what):
    """spec/formats.md §4.4.1: a string in the grammar of contributions, else malformed."""
    J.string(v, what)
    why = contribution_refusal(v)
    if why:
        J._bad(what, why + " (§4.4.1)")
    return v


# spec/formats.md §3.3 the evidence of the order in which the randomness became fixed.
FIXED_EVENT = J.fields({"seq": J.uint, "ts": J.string, "kind": J.string, "payload": J.string,
                        "prev_hash": h32, "inclusion": J.listof(h32)})
FIXED = J.fields({"entropy": FIXED_EVENT, "contribution": FIXED_EVENT})
REFUSED = J.listof(J.fields({"audit_seq": lambda v, w: J.uint(v, w, 1), "entropy_commitment": h32,
                             "reason": J.string}))


def one_time_format(what, ts):
    """spec/formats.md §6.1 [M-320]: every time an output states is in urne's one time format [inconsistent]."""
    if not is_one_time_format(ts):
        raise Failure("inconsistent", f"{what} {ts!r} is not a date-time in RFC 3339 UTC with microseconds (§6.1)")


def check_refused(refused, entropy_seq, what="entropy_refused"):
    """spec/formats.md §4.7 [M-316]: the refused requests were recorded before the entropy used: their
    audit_seq increasing and below the entropy event's seq [inconsistent]."""
    seqs = [x["audit_seq"] for x in refused]
    if any(a >= b for a, b in zip(seqs, seqs[1:])) or (seqs and seqs[-1] >= entropy_seq):
        raise Failure("inconsistent", f"{what}: audit_seq {seqs} are not increasing and below the entropy "
                                      f"event's seq {entropy_seq}")


def check_voided(doc, size):
    """spec/formats.md §4.7 [M-314]: voided_attempts lists exactly the attempts 1 … attempt - 1, in order,
    each voided by an event of the output's checkpoint [inconsistent]."""
    listed = [x["attempt"] for x in doc["voided_attempts"]]
    if listed != list(range(1, doc["attempt"])):
        raise Failure("inconsistent", f"voided_attempts lists attempts {listed}; attempt {doc['attempt']} follows "
                                      f"exactly the attempts 1 to {doc['attempt'] - 1}")
    if any(x["audit_seq"] > size for x in doc["voided_attempts"]):
        raise Failure("inconsistent", f"a voided attempt's audit_seq lies beyond the output's checkpoint (size {size})")

# Version 2 (spec/formats.md §4.7, §7.2): no witness; entropy_commitment and contribution before the entropy,
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
PICK = {"rank": J.u32, "pseudonym": h32, "entries": lambda v, w: J.uint(v, w, 0, 255), "entry": J.uint, "leaf": J.uint}
PICK_ACCOUNT = dict(PICK, account=h32)
TAIL = {
    "drawn_at": J.string, "audit_checkpoint": J.string, "result_key_id": J.keyid, "audit_key_id": J.keyid,
    "software": J.fields({"name": J.string, "version": J.string, "source_revision": J.string,
                          "executable_sha256": h32}),
}


# spec/formats.md §4.7, §6.2 (version 2): the code that answered for the HSM, members closed at every depth.
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


def _with_member(doc, what, spec):
    """J.obj(doc, what, spec), the optional member `unofficial_rules` (spec/formats.md §7.4) kept when present."""
    doc, member = vofficial.take(doc, what)
    out = J.obj(doc, what, spec)
    if member is not None:
        out[vofficial.MEMBER] = member
    return out


def parse_bundle(doc, what="bundle.json"):
    return _with_member(doc, what, BUNDLE if core_of(doc) is CORE_V1 else BUNDLE_V2)


def parse_result(doc, what="result.json"):
    return _with_member(doc, what, RESULT if core_of(doc) is CORE_V1 else RESULT_V2)


def rules_standing(doc, what):
    """spec/formats.md §7.4: the draw's rules standing (its operation and rules_sha256) agrees with its member;
    returns the id of unofficial rules, else None."""
    return vofficial.check(what, doc["operation"], doc["rules_sha256"], doc["version"], doc.get(vofficial.MEMBER))


# spec/formats.md §4.4: version 1 binds the `witness`, version 2 the `contribution` (spec/formats.md §4.4.1) under its own label.
def draw_seed(core):
    c = core["commitment"]
    v2 = "contribution" in core
    return H("urne/v2/draw-seed" if v2 else "urne/v1/draw-seed", core["operation"], core["day"],
             u32be(core["attempt"]), core["rules_sha256"], core["export"]["sha256"], c["root"],
             u64be(c["leaves"]), u64be(c["entries"]), core["contribution"] if v2 else core["witness"],
             core["entropy"])


# spec/formats.md §3.3, §6.2: the payloads of the two events that fixed a draw's randomness.
ENTROPY_EVENT = {"operation": J.string, "day": J.string, "attempt": J.uint, "commitment_root": h32,
                 "entropy_commitment": h32, "entropy_blob": h32}
CONTRIBUTION_EVENT = {"operation": J.string, "day": J.string, "attempt": J.uint, "entropy_commitment": h32,
                      "contribution": J.string}


def verify_fixed(b, size, root):
    """spec/formats.md §8.2 step 5 (version 2): the draw.entropy event, then the draw.contribution event, both in
    the tree of the output's checkpoint, saying what the core says. Failures: inconsistent."""
    f = b["fixed"]
    why = check_fixed_order(f, size, root, ("draw.entropy", "draw.contribution"))
    if why:
        raise Failure("inconsistent", f"randomness order: {why}")
    check_refused(b["entropy_refused"], f["entropy"]["seq"])
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


# spec/formats.md §4.5
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


# spec/formats.md §4.2
def pseudonymise(operation, day, entry_list):
    """[(account, entries)] ascending by account -> (list_digest, [(pseudonym, entries, account, salt)])."""
    canonical = b"".join(a + bytes([n]) for a, n in entry_list)
    list_digest = H("urne/v1/entry-list", operation, day, canonical)
    key = H("urne/v1/pseudonym-key", list_digest)
    out = []
    for a, n in entry_list:
        salt = H("urne/v1/account-salt", key, a)
        out.append((H("urne/v1/pseudonym", salt, a), n, a, salt))
    out.sort()  # spec/formats.md §4.3 leaves by ascending pseudonym
    return list_digest, out


# ---------------------------------------------------------------------------------------------
# The draw rules file (`rules.json` of a draw folder, spec/formats.md §8.2 step 7; the schema urne's loader
# reads: every member below, `clauses` and the two `note`s optional, none other). Refusals:
# malformed. Only what a verifier needs is interpreted.

LOCAL_RE = re.compile(r"\A\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\Z")


def _date(v, what):
    J.day(v, what)
    try:
        datetime.date.fromisoformat(v)
    except ValueError:
        J._bad(what, "not a date")
    return v


def _local_time(v, what):
    """A local wall-clock time in the rules' time zone, YYYY-MM-DDTHH:MM:SS (D-5)."""
    if not isinstance(v, str) or not LOCAL_RE.match(v):
        J._bad(what, "expected a local time YYYY-MM-DDTHH:MM:SS")
    try:
        datetime.datetime.fromisoformat(v)
    except ValueError:
        J._bad(what, "not a valid date and time")
    return v


def _time_zone(v, what):
    J.string(v, what)
    try:
        zoneinfo.ZoneInfo(v)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        J._bad(what, f"{v!r} is not a time zone this system knows")
    return v


def _with_optional(spec, optional):
    """Like J.fields(spec), with members that may be absent (kept when present)."""
    def run(v, what):
        if not isinstance(v, dict):
            J._bad(what, "expected an object")
        v = dict(v)
        extra = {k: check(v.pop(k), f"{what}.{k}") for k, check in optional.items() if k in v}
        return dict(J.obj(v, what, spec), **extra)
    return run


DRAW_RULES = _with_optional({
    "operation": J.string, "title": J.string, "time_zone": _time_zone,
    "participation": _with_optional({"start": _local_time, "end": _local_time}, {"note": J.string}),
    "periods": J.listof(J.fields({"id": J.string, "first_day": _date, "last_day": _date,
                                  "tranche_cents": lambda v, w: J.uint(v, w, 1), "prize_cents": J.uint,
                                  "draw_date": _date})),
    "daily_cap": J.uint, "online_channels": J.listof(J.string), "exclusion_reasons": J.listof(J.string),
    "reserves": _with_optional({"per_day": J.uint}, {"note": J.string}), "draw_grace_days": J.uint,
}, {"clauses": J.listof(J.string)})


def parse_draw_rules(data, what="rules.json"):
    return DRAW_RULES(J.loads(data, what), what)


def period_of(rules, day):
    return next((q for q in rules["periods"] if q["first_day"] <= day <= q["last_day"]), None)


# ---------------------------------------------------------------------------------------------
# spec/formats.md §8.2, one function per step, in order; each raises Failure with the class SPEC gives.

def present(folder, name):
    """Whether the folder has an entry `name` (a FIFO, a folder or a symbolic link of that name
    counts, a dangling link too: reading it then refuses it; a link is never followed, spec/formats.md §1.6)."""
    return os.path.lexists(os.path.join(folder, name))


def step1_signatures(folder, result_pub):
    """Step 1: every output file present is signed by the result key, before any is parsed;
    bundle.json and leaves.bin must be there. Returns {name: bytes}."""
    for name in ("bundle.json", "leaves.bin"):
        if not present(folder, name):
            raise Failure("malformed", f"{folder}: no {name}")
    return {name: read_signed(os.path.join(folder, name), result_pub)
            for name in SIGNED_FILES if present(folder, name)}


def step2_bundle(raw):
    """Step 2: parse the bundle; leaves.bin (33-byte leaf data, leaf order) is the one it names,
    strictly increasing, its root/count/sum are the commitment, and the figures agree with it.
    Returns (bundle, history, leaves)."""
    b, history = vhistory.take(J.loads(raw["bundle.json"], "bundle.json"), "bundle.json")
    b = parse_bundle(b)
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
    return b, history, leaves


def step3_seed(core):
    """Step 3: the entropy is exactly 48 bytes [inconsistent], in version 2 the one its
    commitment names [draw-mismatch]; the seed recomputes from the draw core [draw-mismatch]."""
    if len(core["entropy"]) != 48:
        raise Failure("inconsistent", f"entropy is {len(core['entropy'])} bytes; a draw's has exactly 48 "
                                      "(§3.1, §8.2 step 3)")
    if "entropy_commitment" in core and entropy_commitment(core["entropy"]) != core["entropy_commitment"]:
        raise Failure("draw-mismatch", "the entropy is not the one its entropy_commitment (recorded before the "
                                       "contribution) names (§3.2)")
    if draw_seed(core) != core["seed"]:
        raise Failure("draw-mismatch", "the seed does not recompute from the draw core (§4.4)")


def step4_selection(b, leaves):
    """Step 4: the winner and the reserves recomputed, exactly as many [draw-mismatch]."""
    picks = select(b["seed"], [n for _, n in leaves], b["reserves_wanted"])
    published = [b["winner"]] + b["reserves"]
    if len(published) != len(picks):
        raise Failure("draw-mismatch", f"{len(published)} picks published, {len(picks)} recomputed")
    for rank, ((i, e), got) in enumerate(zip(picks, published)):
        want = {"rank": rank, "pseudonym": leaves[i][0], "entries": leaves[i][1], "entry": e, "leaf": i}
        if got != want:
            name = "winner" if rank == 0 else f"reserve {rank}"
            raise Failure("draw-mismatch", f"the {name} differs from the recomputed one (leaf {i}, entry {e})")
    return picks


def step5_audit(doc, history, raw, primary, result_pub, audit_pub, outputs=None):
    """Step 5, on the bundle (or a lone result.json): the checkpoint verifies under the audit key
    [bad-signature]; the key ids are the keys' and checkpoint.note is audit_checkpoint
    [inconsistent]; the history leads to the checkpoint [fork] (version and history presence
    were checked at parse, spec/formats.md §7.2 [malformed]); result.json has the bundle's version
    [inconsistent]; in version 2 the order evidence holds [inconsistent].
    Says in `outputs` what the output publishes (spec/formats.md §8.4, every version). Returns the output record
    for spec/formats.md §8.4's linear history, or None (version 1)."""
    size, cp_root = verify_checkpoint(doc["audit_checkpoint"], audit_pub, f"{primary} audit_checkpoint")
    if doc["result_key_id"] != key_id(result_pub):
        raise Failure("inconsistent", f"{primary}: result_key_id {doc['result_key_id']} is not the id of the result "
                                      f"key given ({key_id(result_pub)})")
    if doc["audit_key_id"] != key_id(audit_pub):
        raise Failure("inconsistent", f"{primary}: audit_key_id {doc['audit_key_id']} is not the id of the audit "
                                      f"key given ({key_id(audit_pub)})")
    if "checkpoint.note" in raw and raw["checkpoint.note"] != doc["audit_checkpoint"].encode("utf-8"):
        raise Failure("inconsistent", f"checkpoint.note is not {primary}'s audit_checkpoint (a checkpoint of "
                                      "another output)")
    one_time_format("drawn_at", doc["drawn_at"])
    subject = f"the draw of {doc['operation']} day {doc['day']} attempt {doc['attempt']}"
    vhistory.publish(outputs, subject, size, cp_root, primary)
    record = None
    if history is not None:
        record = vhistory.output(primary, raw[os.path.basename(primary)], history, size, cp_root, subject)
    if primary.endswith("bundle.json") and "result.json" in raw:
        r = J.loads(raw["result.json"], "result.json")
        if isinstance(r, dict) and r.get("version") != doc["version"]:
            raise Failure("inconsistent", "result.json and bundle.json are of different versions (§7.2)")
    check_voided(doc, size)
    if doc["version"] == 2:
        verify_fixed(doc, size, cp_root)
    return record


def step6_result(b, history, raw, published):
    """Step 6: result.json parsed as the bundle [malformed], and the same draw: core, tail,
    history, counts, picks [inconsistent]. Returns it."""
    r, r_history = vhistory.take(J.loads(raw["result.json"], "result.json"), "result.json")
    r = parse_result(r)
    c = b["commitment"]
    if r_history != history:
        raise Failure("inconsistent", "result.json history differs from bundle.json")
    for k in list(core_of(b)) + list(TAIL_V2 if b["version"] == 2 else TAIL):
        if r[k] != b[k]:
            raise Failure("inconsistent", f"result.json {k} differs from bundle.json (a result of another draw?)")
    if r["entries"] != c["entries"] or r["accounts"] != c["leaves"]:
        raise Failure("inconsistent", "result.json entries/accounts differ from the commitment")
    rp = [r["winner"]] + r["reserves"]
    if len(rp) != len(published) or any({k: v for k, v in x.items() if k != "account"} != y
                                        for x, y in zip(rp, published)):
        raise Failure("inconsistent", "result.json picks differ from bundle.json")
    return r


def step7_rules(core, rules_bytes):
    """Step 7: the rules file is the one the draw names [inconsistent], a draw rules file
    [malformed], and prize, reserves, operation, period and tranche follow from it
    [inconsistent]. Returns the parsed rules."""
    if hashlib.sha256(rules_bytes).digest() != core["rules_sha256"]:
        raise Failure("inconsistent", "the SHA-256 of rules.json is not rules_sha256")
    rules = parse_draw_rules(rules_bytes)
    fig = core["figures"]
    period = period_of(rules, core["day"])
    if rules["operation"] != core["operation"]:
        raise Failure("inconsistent", f"operation {core['operation']!r} is not the rules' {rules['operation']!r}")
    if period is None:
        raise Failure("inconsistent", f"{core['day']} is not a day of the rules' periods")
    for what, got, want in (("prize_cents", core["prize_cents"], period["prize_cents"]),
                            ("reserves_wanted", core["reserves_wanted"], rules["reserves"]["per_day"]),
                            ("figures.period", fig["period"], period["id"]),
                            ("figures.tranche_cents", fig["tranche_cents"], period["tranche_cents"])):
        if got != want:
            raise Failure("inconsistent", f"{what} is {got!r}; the rules give {want!r} for {core['day']} (D-3, D-10)")
    return rules


def step8_auditor(b, r, leaves, rules, export, producer_keys):
    """Step 8, auditor mode: the export's signature under a trusted producer key [bad-signature];
    its SHA-256, size and key id are the draw's [inconsistent], compared before it is parsed;
    it is valid [malformed]; it gives the same figures and leaves [commitment-mismatch], and
    each account named is the one behind its pseudonym [draw-mismatch]. Returns a report line."""
    check_file(export, "export")                       # size limit and regular file, from metadata
    if present(os.path.dirname(export) or ".", os.path.basename(export) + ".sig"):
        check_file(export + ".sig", "sig")             # never open a FIFO named like the signature
    data, digest, kid = vexport.read_export(export, rules, producer_keys)
    e = b["export"]
    if digest != e["sha256"].hex():
        raise Failure("inconsistent", "the export's SHA-256 is not the draw's export.sha256")
    if len(data) != e["size"]:
        raise Failure("inconsistent", f"the export is {len(data)} bytes; the draw's export.size is {e['size']}")
    if kid != e["producer_key_id"]:
        raise Failure("inconsistent", f"the export is signed by producer key {kid}, the draw names {e['producer_key_id']}")
    header, tally = vexport.parse_export(data, rules, kid)
    del data
    if header["day"] != b["day"]:
        raise Failure("inconsistent", "the export is not for the draw's day")
    # [M-321]: made once its day had ended (D-1: midnight in Europe/Paris) and not after the draw, in whole seconds.
    end = vexport._local_bound(datetime.date.fromisoformat(b["day"]) + datetime.timedelta(days=1),
                               zoneinfo.ZoneInfo(rules["time_zone"]))
    drawn = vexport._instant(b["drawn_at"], "drawn_at")
    for name in ("generated_at", "status_as_of"):
        if not end <= vexport._instant(header[name], f"export {name}") <= drawn:
            raise Failure("inconsistent", f"the export's {name} {header[name]} is not between the end of its day "
                                          f"{b['day']} and drawn_at {b['drawn_at']}")
    entry_list = vexport.entries_of(tally, rules)
    figures = vexport.figures_of(tally, rules, entry_list)
    fig = b["figures"]
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
    return f"ok  auditor mode: {tally.plays} plays recomputed into the same figures and leaves"


def step9_manifest(folder, doc, raw, result_pub, lone=False):
    """Step 9 (issue 12 contract): version 2 has a signed manifest naming this draw and listing
    its six files with their sizes and SHA-256 (missing: malformed, or only partial for a lone
    result.json); version 1 has none (one present: malformed). Returns report lines."""
    has = present(folder, vmanifest.DRAW_NAME)
    if doc["version"] == 1:
        if has:
            raise Failure("malformed", f"{vmanifest.DRAW_NAME} in a version-1 draw folder (version 1 has no manifest)")
        return []
    if not has:
        if lone:
            return ["partial: no manifest"]
        raise Failure("malformed", f"{folder}: no {vmanifest.DRAW_NAME} (a version-2 draw folder has one)")
    subject = {"operation": doc["operation"], "day": doc["day"], "block": None, "attempt": doc["attempt"],
               "result_key_id": doc["result_key_id"]}
    report = vmanifest.check(folder, vmanifest.DRAW_NAME, result_pub, subject, vmanifest.DRAW_FILES, raw)
    return report + vmanifest.unlisted(folder, vmanifest.DRAW_FILES, also_ignored=("void-notice.json",))


def _subject(doc, kind="draw"):
    return {"kind": kind, "operation": doc["operation"], "day": doc["day"], "attempt": doc["attempt"],
            "version": doc["version"]}


def _rules_bytes(raw, rules_file):
    if "rules.json" in raw:
        return raw["rules.json"]
    return read_bounded(rules_file, "rules", follow=True) if rules_file else None


def verify_draw(folder, result_pub, audit_pub, export=None, producer_keys=(), rules_file=None, outputs=None,
                about=None):
    """spec/formats.md §8.2, steps 1 to 9, in order. Returns report lines (`partial: ` lines for what could not
    be checked, `note: ` lines for standard error); appends the version-2 output to `outputs`
    (spec/formats.md §8.4) and what was verified to `about`; raises Failure on the first failure."""
    raw = step1_signatures(folder, result_pub)
    report = [f"ok  {name} signature" for name in raw]
    b, history, leaves = step2_bundle(raw)
    report.append(f"ok  commitment recomputed from {len(leaves)} leaves ({b['commitment']['entries']} entries)")
    step3_seed(b)
    report.append("ok  seed recomputed")
    picks = step4_selection(b, leaves)
    report.append(f"ok  winner and {len(picks) - 1} reserves recomputed")
    record = step5_audit(b, history, raw, os.path.join(folder, "bundle.json"), result_pub, audit_pub, outputs)
    if record is not None and outputs is not None:
        outputs.append(record)
    report.append("ok  audit checkpoint signature, key ids" + (", checkpoint.note" if "checkpoint.note" in raw else ""))
    if b["version"] == 2:
        report.append("ok  randomness order: the entropy commitment was recorded before the contribution, "
                      "both in the checkpoint's tree")
        report.append("ok  history: its checkpoint extends its predecessor's (RFC 6962 consistency)")
    r = None
    if "result.json" in raw:
        r = step6_result(b, history, raw, [b["winner"]] + b["reserves"])
        report.append("ok  result.json agrees with bundle.json")
    rules = None
    rules_bytes = _rules_bytes(raw, rules_file)
    if rules_bytes is not None:
        rules = step7_rules(b, rules_bytes)
        report.append("ok  prize, reserves, period and tranche follow from the rules (D-3, D-10)")
    unofficial = rules_standing(b, "bundle.json")      # step 7's end (spec/formats.md §7.4)
    if export:
        if rules is None:
            raise Usage("auditor mode needs the draw's rules file: rules.json in the folder, or --rules FILE",
                        "the rules file is published with the draw (its SHA-256 is rules_sha256)")
        report.append(step8_auditor(b, r, leaves, rules, export, producer_keys))
    report += step9_manifest(folder, b, raw, result_pub)
    if about is not None:
        about.append(dict(_subject(b), unofficial=unofficial, software=b["software"]))
    return report


def verify_lone_result(folder, result_pub, audit_pub, rules_file=None, about=None, outputs=None):
    """Production's import: a `result.json` (+ .sig) without its bundle.json (issue 12
    contract). What can be checked from it alone, in the order of spec/formats.md §8.2: its signature (and of
    rules.json and checkpoint.note beside it), parse, the entropy and the seed (step 3), the
    audit checkpoint, key ids, the history alone and the order evidence (step 5), the rules
    (step 7), the manifest if there is one; then `partial: ` lines for what was not checked."""
    raw = {"result.json": read_signed(os.path.join(folder, "result.json"), result_pub)}
    for name in SIGNED_FILES:            # the draw's other files beside it: signed, then as the manifest lists
        if name != "result.json" and present(folder, name):
            raw[name] = read_signed(os.path.join(folder, name), result_pub)
    report = [f"ok  {name} signature" for name in raw]
    r, history = vhistory.take(J.loads(raw["result.json"], "result.json"), "result.json")
    r = parse_result(r)
    if r["entries"] != r["commitment"]["entries"] or r["accounts"] != r["commitment"]["leaves"]:
        raise Failure("inconsistent", "result.json entries/accounts differ from its commitment")
    step3_seed(r)
    report.append("ok  seed recomputed")
    # The history is checked alone; the output does not join spec/formats.md §8.4's linear history (its primary
    # file, bundle.json, is not here, so the outputs after it could not be linked to it), only
    # the check that each thing is published once (`outputs` gets what it publishes).
    step5_audit(r, history, raw, os.path.join(folder, "result.json"), result_pub, audit_pub, outputs)
    report.append("ok  audit checkpoint signature, key ids" + (", the order evidence and the history"
                                                               if r["version"] == 2 else ""))
    rules_bytes = _rules_bytes(raw, rules_file)
    if rules_bytes is not None:
        step7_rules(r, rules_bytes)
        report.append("ok  prize, reserves, period and tranche follow from the rules (D-3, D-10)")
    else:
        report.append("partial: the rules were not checked (no rules.json beside result.json)")
    unofficial = rules_standing(r, "result.json")      # step 7's end (spec/formats.md §7.4)
    report += step9_manifest(folder, r, raw, result_pub, lone=True)
    why = "result.json verified alone" if "bundle.json" in raw else "no bundle.json and leaves.bin"
    report.append(f"partial: the selection was not recomputed and the commitment not checked against the leaves ({why})")
    if about is not None:
        about.append(dict(_subject(r), unofficial=unofficial, software=r["software"]))
    return report


# ---------------------------------------------------------------------------------------------
# spec/formats.md §4.8, §8.3 inclusion proofs.

# The inclusion proof has one format version, 1, whatever the draw's version (urne writes
# version 1 for every draw); another is one this verifier does not know (spec/formats.md §7.2) [malformed].
PROOF = {"format": J.const("urne-inclusion-proof"), "version": J.const(1),
         "operation": J.string, "day": J.day, "attempt": lambda v, w: J.uint(v, w, 1, 2**32 - 1), "account": h32, "salt": h32, "pseudonym": h32,
         "entries": lambda v, w: J.uint(v, w, 1, 255), "leaf": J.uint,
         "commitment": J.fields({"root": h32, "leaves": J.uint, "entries": J.uint}),
         "path": J.listof(h32), "result_key_id": J.keyid}


REHEARSAL_ORIGIN = "urne-rehearsal/"


def rehearsal_published(doc, name):
    """spec/formats.md §8.3, §5.B9: the published output a proof is checked against is a rehearsal's when the
    audit_checkpoint it carries, signed with it by the result key, has a rehearsal token's origin (§6.10)
    [rehearsal] [M-386]."""
    note = doc.get("audit_checkpoint") if isinstance(doc, dict) else None
    if isinstance(note, str) and note.startswith(REHEARSAL_ORIGIN):
        raise Failure("rehearsal", f"the published {name} is a rehearsal token's (its audit_checkpoint's origin is "
                                   f"{note.split(chr(10), 1)[0]!r}): RÉPÉTITION — SANS VALEUR / REHEARSAL — NO VALUE, "
                                   "so is the proof")


def verify_proof(path, result_pub, published=None, about=None):
    """spec/formats.md §8.3: signature [bad-signature]; parse [malformed]; result_key_id [inconsistent]; pseudonym
    and audit path [commitment-mismatch]; with the published folder, its bundle.json (signature
    checked) names the proof's result key [inconsistent] and has its operation, day, attempt and
    commitment [commitment-mismatch]. A proof with no .sig beside it (a line of spec/formats.md §4.8.1, saved
    alone) is verified the same way but the signature, against the published folder alone, which
    it then needs (a usage mistake without it, [M-400])."""
    name = os.path.basename(path)
    signed = os.path.lexists(path + ".sig")
    if signed:
        raw = read_signed(path, result_pub, "json")
        report = [f"ok  {name} signature"]
    else:
        if not published:
            raise Usage(unsigned_needs_published(path), PUBLISHED_HINT)
        raw = read_bounded(path, "json")
        report = []
    pr = J.obj(J.loads(raw, name), "proof", PROOF)
    report += proof_own(pr, result_pub)
    standing = None
    if published:
        b, doc, bname = published_draw(published, result_pub)
        report += proof_against(pr, b, bname)
        rehearsal_published(doc, bname)                                           # [M-386]
        standing = proof_standing(pr, b)
    if not signed:
        report.append("ok  the proof carries no signature: what it shows holds against the published output, "
                      "which is signed")
    if about is not None:
        about.append(dict(_subject(pr, "proof"), leaf=pr["leaf"], standing=standing))
    return report


PUBLISHED_HINT = ("give --published DIR, the draw's (or block's) published folder, whose signed result.json or "
                  "bundle.json (or commitment) the proof leads to")


def unsigned_needs_published(path):
    """spec/formats.md §8.3 [M-400]: the words of the refusal of an unsigned proof without --published."""
    return (f"{path} has no signature beside it: an unsigned proof holds only against the published signed output "
            "(--published DIR)")


def proof_own(pr, result_pub):
    """spec/formats.md §8.3, the proof's own steps after its parse: result_key_id [inconsistent], pseudonym and
    audit path [commitment-mismatch]."""
    if pr["result_key_id"] != key_id(result_pub):
        raise Failure("inconsistent", "result_key_id is not the id of the result key given")
    if H("urne/v1/pseudonym", pr["salt"], pr["account"]) != pr["pseudonym"]:
        raise Failure("commitment-mismatch", "the pseudonym does not recompute from salt and account")
    c = pr["commitment"]
    if not verify_inclusion(pr["leaf"], c["leaves"], pr["pseudonym"] + bytes([pr["entries"]]), pr["path"], c["root"]):
        raise Failure("commitment-mismatch", "the audit path does not lead to commitment.root")
    return [f"ok  leaf {pr['leaf']} ({pr['entries']} entries) is in the tree of {c['leaves']} leaves"]


def published_draw(published, result_pub):
    """[M-202]: the published folder's bundle.json or, without one, its result.json (signature checked,
    parsed); neither: the proof's commitment is not shown published. Returns (parsed, document, name)."""
    name = next((n for n in ("bundle.json", "result.json") if present(published, n)), None)
    if name is None:
        raise Failure("commitment-mismatch", f"{published} holds no published draw (no bundle.json or result.json): "
                                             "the proof's commitment is not shown to be published")
    doc = vhistory.take(J.loads(read_signed(os.path.join(published, name), result_pub), name), name)[0]
    b = parse_bundle(doc) if name == "bundle.json" else parse_result(doc)
    return b, doc, name


def proof_against(pr, b, name):
    """spec/formats.md §8.3 [M-242], [M-202]: the published draw names the proof's result key and has its
    operation, day, attempt and commitment."""
    if b["result_key_id"] != pr["result_key_id"]:
        raise Failure("inconsistent", f"the published {name} names another result key than the proof")
    for k in ("operation", "day", "attempt", "commitment"):
        if b[k] != pr[k]:
            raise Failure("commitment-mismatch", f"the proof's {k} is not the published draw's: a proof of "
                                                 "another draw")
    return ["ok  the commitment is the published one"]


def proof_standing(pr, b):
    """spec/formats.md §8.1 [M-402]: what the account is in the published draw, by its pseudonym among the picks."""
    for x in [b["winner"]] + b["reserves"]:
        if x["pseudonym"] == pr["pseudonym"]:
            return "the winner" if x["rank"] == 0 else f"reserve {x['rank']}"
    return "neither the winner nor a reserve"


def verify_proofs_file(path, result_pub, published, about=None):
    """spec/formats.md §4.8.1, §8.3 [M-401]: the file of every proof of a day, line by line, each an unsigned proof
    against the published draw (read once); each line whole (LF-ended, within the JSON limit), at most
    2^24 lines; the first line that fails is named."""
    name = os.path.basename(path)
    if not published:
        raise Usage(unsigned_needs_published(path), PUBLISHED_HINT)
    pub = None
    count, picks, first = 0, [], None
    with open(path, "rb") as f:
        while True:
            line = f.readline(LIMITS["json"] + 1)
            if not line:
                break
            count += 1
            where = f"{path} line {count}: "
            if count > 2 ** 24:
                raise Failure("malformed", where + "more lines than a day has leaves at most")
            if not line.endswith(b"\n"):
                raise Failure("malformed", where + "not a whole line: longer than a proof may be, or no LF at the end")
            try:
                pr = J.obj(J.loads(line[:-1], name), "proof", PROOF)
                proof_own(pr, result_pub)
                if pub is None:
                    pub = published_draw(published, result_pub)
                proof_against(pr, pub[0], pub[2])
            except Failure as e:
                raise Failure(e.cls, where + e.what)
            if first is None:
                first = pr
            for x in [pub[0]["winner"]] + pub[0]["reserves"]:
                if x["pseudonym"] == pr["pseudonym"]:
                    picks.append((x["rank"], count))
    if first is None:
        raise Failure("malformed", f"{path} holds no proof (no line)")
    rehearsal_published(pub[1], pub[2])                                               # [M-386]
    picks.sort()
    total = 1 + len(pub[0]["reserves"])
    where = "".join(f"; the winner line {n}" if r == 0 else f", reserve {r} line {n}" for r, n in picks)
    if about is not None:
        about.append(dict(_subject(first, "proofs"), count=count))
    return [f"ok  every line is an inclusion proof of the published commitment ({first['commitment']['leaves']} "
            "leaves), checked alone",
            f"ok  {len(picks)} of the {total} published picks are in the file{where}"]
