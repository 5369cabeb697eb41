"""Void notices (spec/formats.md §4.6), written from the specification alone: a void of a day's or a
block's attempt is announced by `void-notice.json`, a signed output of its own with a history
(spec/formats.md §6.7). Steps 1 to 5 of "Verification of a void notice", in order."""
import datetime
import os

import vdraw
import vhistory
import vjson as J
from vaudit import verify_checkpoint
from vblock import parse_block_id
from vcore import Failure, key_id, read_signed

NAME = "void-notice.json"


def _nullable(check):
    return lambda v, w: None if v is None else check(v, w)


def _from_one(v, w):
    return J.uint(v, w, 1)


# The members of a notice, every one required (spec/formats.md §1.5); `history` is taken apart by vhistory.
NOTICE = {
    "format": J.const("urne-void-notice"), "version": J.const(2), "operation": J.string,
    "day": _nullable(J.day), "block": _nullable(J.string), "attempt": lambda v, w: J.uint(v, w, 1, 2**32 - 1),
    "reason": J.string, "stage": J.string, "void_seq": _from_one, "voided_at": J.string,
    "audit_checkpoint": J.string, "result_key_id": J.keyid, "audit_key_id": J.keyid,
}


def is_notice_folder(folder):
    return os.path.lexists(os.path.join(folder, NAME))     # a FIFO or a link of that name is refused when read


def verify_notice(folder, result_pub, audit_pub, outputs=None, about=None):
    """spec/formats.md §4.6: returns report lines and appends the notice (an output, spec/formats.md §8.4) to `outputs`."""
    path = os.path.join(folder, NAME)
    # Step 1: the signature, before anything is parsed.
    raw = read_signed(path, result_pub)
    report = [f"ok  {NAME} signature"]

    # Step 2: every member, format and version 2 (so history is required), the subject.
    doc = J.loads(raw, NAME)
    if isinstance(doc, dict) and doc.get("version") != 2:
        raise Failure("malformed", f"{NAME}: version {doc.get('version')!r} is not 2, the only version of a notice")
    if isinstance(doc, dict) and "history" not in doc:
        raise Failure("malformed", f"{NAME}: missing field 'history'")
    doc, history = vhistory.take(doc, NAME)
    n = J.obj(doc, NAME, NOTICE)
    if (n["day"] is None) == (n["block"] is None):
        raise Failure("malformed", f"{NAME}: exactly one of day and block must be set")
    if n["day"] is not None:
        try:
            datetime.date.fromisoformat(n["day"])
        except ValueError:
            raise Failure("malformed", f"{NAME}: day {n['day']!r} is not a date")
        subject = f"day {n['day']}"
    else:
        game, _, _, _ = parse_block_id(n["block"], f"{NAME} block")
        if game != n["operation"]:
            raise Failure("inconsistent", f"{NAME}: operation is not the game of block {n['block']}")
        subject = f"block {n['block']}"

    # Step 3: the checkpoint is the audit key's.
    size, root = verify_checkpoint(n["audit_checkpoint"], audit_pub, f"{NAME} audit_checkpoint")
    report.append("ok  audit checkpoint signature")

    # Step 4: the key ids, and the checkpoint covers the void event.
    if n["result_key_id"] != key_id(result_pub) or n["audit_key_id"] != key_id(audit_pub):
        raise Failure("inconsistent", f"{NAME}: result_key_id or audit_key_id is not the id of the key given")
    if n["void_seq"] > size:
        raise Failure("inconsistent", f"{NAME}: its checkpoint ({size} events) does not cover the void event {n['void_seq']}")
    vdraw.one_time_format("voided_at", n["voided_at"])

    # Step 5: the history leads to the notice's checkpoint.
    what = f"the void of {subject} attempt {n['attempt']}"
    o = vhistory.output(path, raw, history, size, root, what)
    if outputs is not None:
        outputs.append(o)
    vhistory.publish(outputs, what, size, root, path)
    if about is not None:
        about.append({"kind": "void", "operation": n["operation"], "day": n["day"], "block": n["block"],
                      "attempt": n["attempt"], "version": 2})
    report.append(f"ok  {subject}, attempt {n['attempt']} voided at audit event {n['void_seq']} ({n['stage']}); "
                  "history: its checkpoint extends its predecessor's")
    return report
