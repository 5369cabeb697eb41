"""History across outputs (spec/formats.md §6.7, §8.4), written from the specification alone: each
version-2 output names its trail and its predecessor and proves, with an RFC 9162 consistency
proof, that its checkpoint extends the predecessor's; outputs together form one linear history."""
import hashlib

import vjson as J
from vcore import Failure, verify_consistency

h32 = lambda v, w: J.hexbytes(v, w, 32)
PREDECESSOR = J.fields({"sha256": h32, "checkpoint_size": J.uint, "checkpoint_root": h32})
RESTART = J.fields({"previous_trail": h32, "previous_mark_size": J.uint, "previous_mark_root": h32})


def _history(v, what):
    if not isinstance(v, dict):
        raise Failure("malformed", f"{what}: expected an object")
    pred = v.get("predecessor", 0)
    spec = {"trail": h32, "predecessor": (lambda x, w: None if x is None else PREDECESSOR(x, w)),
            "consistency": J.listof(h32)}
    if pred == 0:
        raise Failure("malformed", f"{what}: missing field 'predecessor'")
    v = dict(v)
    restart = v.pop("restart", None)      # spec/appliance.md §6.8: only on a trail made by a witnessed restart
    h = J.obj(v, what, spec)
    h["restart"] = None if restart is None else RESTART(restart, f"{what}.restart")
    return h


def take(doc, what):
    """Pops `history` from a parsed JSON object before its fixed fields are checked, by version
    (spec/formats.md §8.2 step 5, spec/formats.md §5.B10): version 1 has none, version 2 must have one. Returns (doc, history)."""
    if not isinstance(doc, dict):
        return doc, None
    version = doc.get("version")
    doc = dict(doc)
    present = "history" in doc
    h = doc.pop("history", None)
    if version == 1 and present:   # the member itself, even `"history": null` (spec/formats.md §1.5)
        raise Failure("malformed", f"{what}: a version-1 output has no history")
    if version == 2:
        if h is None:
            raise Failure("malformed", f"{what}: a version-2 output must state its history")
        h = _history(h, f"{what}.history")
    return doc, h


def publish(outputs, subject, size, root, name):
    """spec/formats.md §8.4 [M-204]: records that the output `name` publishes `subject` (`the draw of OP day D
    attempt N`, `the commitment of block B attempt N`, `the reveal of block B seed commitment X`,
    `the void of day D|block B attempt N`) under its checkpoint (size, root), in every version,
    lone results included. Kept in `outputs` beside the version-2 records (see `chain`)."""
    if outputs is not None:
        outputs.append({"publishes": subject, "size": size, "root": root, "name": name})


def chain(outputs):
    """The version-2 output records of `outputs` (those with a history), for the linear history."""
    return [o for o in outputs if "history" in o]


def check_once(outputs):
    """spec/formats.md §8.4 [M-204]: two outputs publishing one thing under different checkpoints are two
    histories [fork]; under the same checkpoint they are one output (a bundle and its
    result.json, two copies)."""
    seen = {}
    for p in outputs:
        if "publishes" not in p:
            continue
        other = seen.setdefault(p["publishes"], p)
        if (other["size"], other["root"]) != (p["size"], p["root"]):
            raise Failure("fork", f"{other['name']} and {p['name']} both publish {p['publishes']}, under different "
                                  "checkpoints: what is done once was done twice (a fork)")


def output(name, raw, history, size, root, subject=None):
    """One output checked alone: its consistency proof leads from its predecessor's checkpoint
    to its own (size, root) [fork]. Returns the output record for the checks across outputs."""
    p = history["predecessor"]
    proof = history["consistency"]
    if p is None:
        if proof:
            raise Failure("fork", f"{name}: a consistency proof without a predecessor")
    elif p["checkpoint_size"] == size:
        if p["checkpoint_root"] != root or proof:
            raise Failure("fork", f"{name}: its checkpoint and its predecessor's have one size but differ")
    elif not verify_consistency(p["checkpoint_size"], size, p["checkpoint_root"], root, proof):
        raise Failure("fork", f"{name}: the consistency proof from its predecessor's checkpoint does not verify")
    return {"name": name, "sha256": hashlib.sha256(raw).digest(), "history": history, "size": size, "root": root,
            "subject": subject}


def check_linear(outputs, complete):
    """spec/formats.md §8.4: one trail, one predecessor per output, one root per checkpoint size, and each
    predecessor present carrying the checkpoint named [fork]; with `complete`, every predecessor
    present [inconsistent]. Returns notes."""
    notes = []
    published, outputs = outputs, chain(outputs)
    if outputs:
        notes = _check_linear(outputs, complete)
    check_once(published)      # every version, lone results included
    return notes


def _check_linear(outputs, complete):
    notes = []
    _check_trails(outputs)
    # spec/formats.md §8.4: one history publishes each thing once: two version-2 outputs of one subject are one
    # output (the same bytes), even under one checkpoint (check_once compares checkpoints).
    by_subject = {}
    for o in outputs:
        if o.get("subject") is None:
            continue
        other = by_subject.setdefault(o["subject"], o)
        if other["sha256"] != o["sha256"]:
            raise Failure("fork", f"{other['name']} and {o['name']} both publish {o['subject']}: what is done once "
                                  "was done twice in one history")
    by_sha = {o["sha256"]: o for o in outputs}
    seen_pred, seen_size = {}, {}
    for o in outputs:
        p = o["history"]["predecessor"]
        trail = o["history"]["trail"]
        key = (trail, None if p is None else p["sha256"])
        other = seen_pred.setdefault(key, o)
        if other is not o and other["sha256"] != o["sha256"]:
            raise Failure("fork", f"{other['name']} and {o['name']} name the same output before them")
        other = seen_size.setdefault((trail, o["size"]), o)
        if other["root"] != o["root"]:
            raise Failure("fork", f"{other['name']} and {o['name']}: checkpoints of {o['size']} events, two roots")
        _check_named_point(outputs, o)
        if p is not None:
            before = by_sha.get(p["sha256"])
            if before is None:
                if complete:
                    raise Failure("inconsistent", f"{o['name']}: the output before it is not among these outputs")
                notes.append(f"note {o['name']}: the output before it is not here")
            elif (before["size"], before["root"]) != (p["checkpoint_size"], p["checkpoint_root"]):
                raise Failure("fork", f"{o['name']} names {before['name']} with a checkpoint it does not carry")
    return notes


def _check_named_point(outputs, o):
    """spec/formats.md §6.7, §8.4 [M-262]: the checkpoint `o` names for its predecessor (on its trail) is a point of the history: another
    output of the trail whose own checkpoint, or whose predecessor's, has that size and another root is a fork, whether
    the predecessor is among the outputs or not."""
    p = o["history"]["predecessor"]
    if p is None:
        return
    for other in outputs:
        if other["history"]["trail"] != o["history"]["trail"]:
            continue
        q = other["history"]["predecessor"]
        points = [(other["size"], other["root"])] + ([(q["checkpoint_size"], q["checkpoint_root"])] if q else [])
        for size, root in points:
            if size == p["checkpoint_size"] and root != p["checkpoint_root"]:
                raise Failure("fork", f"{o['name']} names for the output before it a checkpoint of {size} events whose "
                                      f"root is not the one {other['name']} shows at that size")


def _check_trails(outputs):
    """spec/appliance.md §6.8: one trail, or trails linked into one chain by witnessed restarts [fork]."""
    restarts = {}
    for o in outputs:
        t, r = o["history"]["trail"], o["history"]["restart"]
        if restarts.setdefault(t, r) != r:
            raise Failure("fork", f"{o['name']}: outputs of one trail state different restarts")
    if len(restarts) == 1:
        return
    for r in restarts.values():
        if r is None:
            continue
        for o in outputs:
            if o["history"]["trail"] == r["previous_trail"] and (
                    o["size"] > r["previous_mark_size"]
                    or (o["size"] == r["previous_mark_size"] and o["root"] != r["previous_mark_root"])):
                raise Failure("fork", f"{o['name']} is an output of the replaced trail beyond the last mark its restart states")
    replaced = [r["previous_trail"] for r in restarts.values() if r is not None]
    newest = [t for t in restarts if t not in replaced]
    rooted = [t for t, r in restarts.items() if r is None or r["previous_trail"] not in restarts]
    if len(newest) != 1 or len(rooted) != 1 or len(replaced) != len(set(replaced)):
        raise Failure("fork", f"these outputs name {len(restarts)} trails that are not one chain of restarts")


def check_held(outputs, name, size, root):
    """spec/formats.md §8.4: a held checkpoint lies on the history: an output's or a predecessor's checkpoint.
    Another root at such a size [fork]; a size no output carries cannot be shown [inconsistent]."""
    at_size = False
    for o in chain(outputs):
        p = o["history"]["predecessor"]
        points = [(o["size"], o["root"])] + ([(p["checkpoint_size"], p["checkpoint_root"])] if p else [])
        for s, r in points:
            if s == size:
                if r == root:
                    return
                at_size = True
    if at_size:
        raise Failure("fork", f"the checkpoint {name} ({size} events) has another root than the history of these outputs")
    raise Failure("inconsistent", f"the checkpoint {name} ({size} events) cannot be shown to be on the history of these outputs")
