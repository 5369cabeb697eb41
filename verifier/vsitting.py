"""Sittings (spec/appliance.md §9), written from the specification alone: the output of a sitting is
`sitting.json`, signed, which lists the outputs published during the sitting and the sitting's
other files (`checkpoint.note`, `minutes.html`), with a history (spec/formats.md §6.7). The steps of spec/formats.md §9.4, in
order; the wording of the minutes is never checked."""
import hashlib
import os

import vdraw
import vhistory
import vjson as J
from vaudit import verify_checkpoint
from vcore import Failure, key_id, read_signed

NAME = "sitting.json"
NOTE = "checkpoint.note"
MINUTES = "minutes.html"

h32 = lambda v, w: J.hexbytes(v, w, 32)


def _kind(v, what):
    if v not in ("sitting", "key-ceremony"):
        J._bad(what, 'expected "sitting" or "key-ceremony"')
    return v


def _audience(v, what):
    if v not in ("public", "production"):
        J._bad(what, 'expected "public" or "production"')
    return v


# The members of sitting.json in the order of spec/formats.md §9.3, every one required (spec/formats.md §1.5); `history` is
# taken apart by vhistory.
SITTING = {
    "format": J.const("urne-sitting"), "version": J.const(2), "number": J.u32, "kind": _kind, "place": J.string,
    "commissaire": J.fields({"name": J.string, "office": J.string}),
    "present": J.listof(J.fields({"name": J.string, "role": J.string})),
    "opened_seq": J.uint, "opened_at": J.string, "closed_seq": J.uint, "closed_at": J.string,
    "outputs": J.listof(J.fields({"audit_seq": J.uint, "file": J.string, "sha256": h32})),
    "files": J.listof(J.fields({"name": J.string, "size": J.uint, "sha256": h32, "audience": _audience})),
    "audit_checkpoint": J.string, "result_key_id": J.keyid, "audit_key_id": J.keyid,
}


def is_sitting_folder(folder):
    return os.path.lexists(os.path.join(folder, NAME))     # a FIFO or a link of that name is refused when read


def _parse(raw):
    """spec/formats.md §9.4 parse [malformed]: every member, none added, format and version 2 (so history is
    required); number and opened_seq from 1, opened_seq before closed_seq, the outputs in the
    trail's order."""
    doc = J.loads(raw, NAME)
    if isinstance(doc, dict) and doc.get("version") != 2:
        raise Failure("malformed", f"{NAME}: version {doc.get('version')!r} is not 2, the only version of a sitting")
    if isinstance(doc, dict) and "history" not in doc:
        raise Failure("malformed", f"{NAME}: missing field 'history'")
    doc, history = vhistory.take(doc, NAME)
    s = J.obj(doc, NAME, SITTING)
    if s["number"] < 1 or s["opened_seq"] < 1:
        raise Failure("malformed", f"{NAME}: number and opened_seq count from 1")
    if s["opened_seq"] >= s["closed_seq"]:
        raise Failure("malformed", f"{NAME}: opened_seq {s['opened_seq']} is not before closed_seq {s['closed_seq']}")
    seqs = [o["audit_seq"] for o in s["outputs"]]
    if any(a >= b for a, b in zip(seqs, seqs[1:])):
        raise Failure("malformed", f"{NAME}: outputs are not in the trail's order (audit_seq increasing)")
    return s, history


def verify_sitting(folder, result_pub, audit_pub, outputs=None, about=None):
    """spec/formats.md §9.4: returns report lines; appends the sitting (an output, spec/formats.md §8.4) and what it lists to
    `outputs`, and what it is to `about`."""
    path = os.path.join(folder, NAME)
    # The signature, before anything is parsed [bad-signature].
    raw = read_signed(path, result_pub, "json")
    report = [f"ok  {NAME} signature"]
    s, history = _parse(raw)

    # The checkpoint is the audit key's [bad-signature].
    size, root = verify_checkpoint(s["audit_checkpoint"], audit_pub, f"{NAME} audit_checkpoint")
    report.append("ok  audit checkpoint signature")

    # The key ids, the close under the checkpoint, the outputs between opening and close [inconsistent].
    if s["result_key_id"] != key_id(result_pub) or s["audit_key_id"] != key_id(audit_pub):
        raise Failure("inconsistent", f"{NAME}: result_key_id or audit_key_id is not the id of the key given")
    if s["closed_seq"] > size:
        raise Failure("inconsistent", f"{NAME}: its checkpoint ({size} events) does not cover the sitting's close "
                                      f"(audit event {s['closed_seq']})")
    vdraw.one_time_format("opened_at", s["opened_at"])          # spec/formats.md §6.1 [M-320]
    vdraw.one_time_format("closed_at", s["closed_at"])
    for o in s["outputs"]:
        if not s["opened_seq"] < o["audit_seq"] < s["closed_seq"]:
            raise Failure("inconsistent", f"{NAME}: {o['file']} was published at audit event {o['audit_seq']}, not "
                                          f"between the sitting's opening ({s['opened_seq']}) and close "
                                          f"({s['closed_seq']})")
    report.append(f"ok  sitting {s['number']} ({s['kind']}) at {s['place']}: audit events {s['opened_seq']} to "
                  f"{s['closed_seq']} under its checkpoint ({size} events), {len(s['outputs'])} output(s) published "
                  "between them")

    # The files it lists: exactly checkpoint.note and minutes.html, public [inconsistent]; each
    # signed [bad-signature] with the listed size and SHA-256 [inconsistent]; the note is the
    # sitting's checkpoint [inconsistent].
    if [(f["name"], f["audience"]) for f in s["files"]] != [(NOTE, "public"), (MINUTES, "public")]:
        raise Failure("inconsistent", f"{NAME}: files must list {NOTE} and {MINUTES}, both public, and nothing else")
    for f in s["files"]:
        p = os.path.join(folder, f["name"])
        if not os.path.lexists(p):
            raise Failure("inconsistent", f"{NAME}: {f['name']} is listed but not in the folder")
        data = read_signed(p, result_pub)
        if len(data) != f["size"] or hashlib.sha256(data).digest() != f["sha256"]:
            raise Failure("inconsistent", f"{f['name']} is not the file {NAME} lists (size or SHA-256)")
        if f["name"] == NOTE and data != s["audit_checkpoint"].encode("utf-8"):
            raise Failure("inconsistent", f"{NOTE} is not the audit_checkpoint of {NAME} byte for byte")
    report.append(f"ok  {NOTE} and {MINUTES}: signed, the files listed; {NOTE} is the audit checkpoint (the "
                  "wording of the minutes is not checked)")

    # The history leads to the sitting's checkpoint [fork].
    what = f"sitting {s['number']} of the trail {history['trail'].hex()}"
    o = vhistory.output(path, raw, history, size, root, what)
    if outputs is not None:
        outputs.append(o)
        outputs.append({"sitting": path, "number": s["number"], "lists": s["outputs"]})
    vhistory.publish(outputs, what, size, root, path)
    if about is not None:
        about.append({"kind": "sitting", "number": s["number"], "sitting_kind": s["kind"], "version": 2})
    report.append("ok  history: its checkpoint extends its predecessor's")
    return report


def alone_notes(outputs):
    """`note: ` lines for a sitting verified alone: the outputs it lists are not checked then."""
    return [f"note: {s['sitting']}: the {len(s['lists'])} output(s) sitting {s['number']} lists are not verified "
            "here: verify the folder of outputs that holds them (SPEC §9.4)" for s in outputs if s.get("lists")]


def check_listed(outputs):
    """spec/formats.md §9.4, in a folder of outputs: every output a sitting lists is among them (the SHA-256 of
    its primary file) [inconsistent]."""
    present = {o["sha256"] for o in vhistory.chain(outputs)}
    for s in outputs:
        for o in s.get("lists", []):
            if o["sha256"] not in present:
                raise Failure("inconsistent", f"{s['sitting']}: sitting {s['number']} lists {o['file']} (published "
                                              f"at audit event {o['audit_seq']}), which is not among these outputs")
