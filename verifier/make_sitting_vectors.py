#!/usr/bin/env python3
"""Writes tests/vectors/sitting-*.json (schema: tests/vectors/README.md): the output of a sitting
(spec/formats.md §9.3, `sitting.json` with `checkpoint.note` and `minutes.html`) alone and in a folder of
outputs, and one vector per requirement of spec/formats.md §9.4 and class.

Deterministic: the test keys, helpers and draws of make_vectors.py (fixed strings; never use the
keys for anything else). `sitting.json` is written as spec/formats.md §9.3 says (members in that order, pretty
JSON of spec/formats.md §1.5), so that it is the reference urne's writer must match byte for byte. Run:
python3 verifier/make_sitting_vectors.py [OUT_DIR]
"""
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_vectors as mv  # noqa: E402
from make_vectors import AUDIT, OTHER, RESULT, TRAIL_ID, checkpoint, compact, jdump, raw, signed  # noqa: E402
from vcore import consistency_proof, key_id, merkle_root_of_hashes  # noqa: E402

PLACE = "Paris, 12 rue de la Loterie, salle du tirage"
COMMISSAIRE = {"name": "Maître Claire Dupont",
               "office": "SELARL Dupont & Associés, commissaires de justice à Paris"}
PRESENT = [{"name": "Jean Martin", "role": "opérateur"},
           {"name": "Sophie Bernard", "role": "représentante de la société"}]
REASON = "panne d'impression, procès-verbal n° 12"
DAY, NEXT = "2018-12-22", "2018-12-23"
VOID_FILE = f"void-{DAY}-attempt-1/void-notice.json"


def sha(text):
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


def ts(seq):
    """The time history_events gives event `seq`."""
    return f"2018-12-26T09:{seq:02d}:00.000000Z"


def trail(n, real):
    """make_vectors' version-2 trail of `n` events, `real` mapping a sequence number to a real
    (kind, payload); the others are placeholders (the trail is not part of the vectors)."""
    return mv.history_events(n, real=real)


def root_of(events, size):
    return merkle_root_of_hashes(mv.tree_leaves(events, size))


def history(events, size, pred):
    """spec/formats.md §6.7: the history of an output whose checkpoint covers `size` events, after `pred`
    ((primary file text, its checkpoint size) or None)."""
    if pred is None:
        return {"trail": TRAIL_ID, "predecessor": None, "consistency": []}
    text, psize = pred
    return {"trail": TRAIL_ID,
            "predecessor": {"sha256": sha(text), "checkpoint_size": psize, "checkpoint_root": root_of(events, psize).hex()},
            "consistency": [x.hex() for x in consistency_proof(psize, mv.tree_leaves(events, size))]}


def opened(number, kind="sitting", plan=None):
    """The `sitting.opened` payload (spec/formats.md §6.2, spec/appliance.md §9.1)."""
    return ("sitting.opened", compact({"number": number, "kind": kind, "place": PLACE, "commissaire": COMMISSAIRE,
                                       "present": PRESENT, "lang": "fr", "plan": plan or []}))


def published(file, text, size, events):
    return ("output.published", compact({"file": file, "sha256": sha(text), "checkpoint_size": size,
                                         "checkpoint_root": root_of(events, size).hex()}))


def minutes_html(number, words="Procès-verbal de la séance"):
    """The minutes (informative: a verifier checks their signature and hash, never their wording)."""
    return (f"<!doctype html>\n<html lang=\"fr\"><head><meta charset=\"utf-8\"><title>{words} n° {number}</title>"
            f"</head>\n<body><h1>{words} n° {number}</h1><p>Maître Claire Dupont, commissaire de justice.</p>"
            "<p>page 1 / 1</p></body></html>\n")


def listed(name, text):
    data = text.encode()
    return {"name": name, "size": len(data), "sha256": sha(data), "audience": "public"}


def sitting_doc(events, number, opened_seq, closed_seq, outputs, size, pred, kind="sitting", note=None,
                minutes=None):
    """`sitting.json` (spec/formats.md §9.3), members in its order; `note` and `minutes` are the texts listed
    (default: the checkpoint of `size` events, and minutes_html(number))."""
    cp = checkpoint(events, size)
    note = cp if note is None else note
    minutes = minutes_html(number) if minutes is None else minutes
    return {"format": "urne-sitting", "version": 2, "number": number, "kind": kind, "place": PLACE,
            "commissaire": COMMISSAIRE, "present": PRESENT, "opened_seq": opened_seq, "opened_at": ts(opened_seq),
            "closed_seq": closed_seq, "closed_at": ts(closed_seq),
            "outputs": [{"audit_seq": s, "file": f, "sha256": sha(t)} for s, f, t in outputs],
            "files": [listed("checkpoint.note", note), listed("minutes.html", minutes)],
            "audit_checkpoint": cp, "result_key_id": key_id(raw(RESULT)), "audit_key_id": key_id(raw(AUDIT)),
            "history": history(events, size, pred)}


def sitting_files(doc, folder, note=None, minutes=None, text=None):
    """The sitting's folder: sitting.json (or `text`), checkpoint.note (default: its
    audit_checkpoint), minutes.html, each signed, and the public keys as every output folder
    holds them."""
    f = {f"{folder}/result.pub.pem": {"utf8": mv.pem(RESULT)}, f"{folder}/audit.pub.pem": {"utf8": mv.pem(AUDIT)}}
    f.update(signed("checkpoint.note", doc["audit_checkpoint"] if note is None else note, folder=folder))
    f.update(signed("minutes.html", minutes_html(doc["number"]) if minutes is None else minutes, folder=folder))
    f.update(signed("sitting.json", jdump(doc) if text is None else text, folder=folder))
    return f


def notice(events, size, pred_text, pred_size):
    """The void notice of DAY attempt 1 (spec/formats.md §4.6), void event 6, after the draw A."""
    n = {"format": "urne-void-notice", "version": 2, "operation": mv.OP, "day": DAY, "block": None, "attempt": 1,
         "reason": REASON, "stage": "drawn and published", "void_seq": 6, "voided_at": ts(6),
         "audit_checkpoint": checkpoint(events, size), "result_key_id": key_id(raw(RESULT)),
         "audit_key_id": key_id(raw(AUDIT)), "history": history(events, size, (pred_text, pred_size))}
    return jdump(n)


def build():
    """The trail of the vectors, event by event: 1 trail.created; 2 sitting.opened (sitting 1);
    3, 4 the draw A's draw.entropy and draw.contribution (A's checkpoint: 4 events, the trail's
    first output); 5 draw.published (A); 6 draw.void (A's day); V, the void notice (checkpoint 6,
    after A); 7 output.published (V); 8 sitting.closed; S, the sitting (checkpoint 8, after V,
    listing A at 5 and V at 7); 9 output.published (S); 10, 11 the draw C (2018-12-23) after S."""
    rA, rC = mv.randomness(DAY, "SA"), mv.randomness(NEXT, "SC")
    plan = [{"action": "draw", "subject": DAY, "detail": ""}, {"action": "void", "subject": DAY, "detail": REASON}]
    real = {2: opened(1, plan=plan), 3: rA["e"], 4: rA["c"]}
    T = trail(4, real)
    A = mv.v2_draw(rA, T, 4, (3, 4))
    a_files = mv.v2_files(A, "pub/A")
    real[5] = ("draw.published", compact({
        "day": DAY, "attempt": 1, "out": "A",
        "files": {k.split("/")[-1]: sha(mv.file_bytes(v)) for k, v in sorted(a_files.items())
                  if not k.endswith((".sig", ".pem")) and k.startswith("pub/A/")},
        "output": {"file": "bundle.json", "sha256": sha(A["text"]), "checkpoint_size": 4,
                   "checkpoint_root": A["root"].hex()}}))
    real[6] = ("draw.void", compact({"day": DAY, "attempt": 1, "reason": REASON, "stage": "drawn and published"}))
    T = trail(6, real)
    V = notice(T, 6, A["text"], 4)
    real[7] = published(VOID_FILE, V, 6, T)
    real[8] = ("sitting.closed", compact({"number": 1}))
    T = trail(8, real)
    outs = [(5, "bundle.json", A["text"]), (7, VOID_FILE, V)]
    S = sitting_doc(T, 1, 2, 8, outs, 8, (V, 6))
    real[9] = published("sitting-001/sitting.json", jdump(S), 8, T)
    real_c = {**real, 10: rC["e"], 11: rC["c"]}
    T11 = trail(11, real_c)
    assert T11[:8] == T
    C = mv.v2_draw(rC, T11, 11, (10, 11), {"text": jdump(S), "size": 8, "root": root_of(T, 8)})
    # Sitting 1 again after S (events 10, 11 on another continuation of the trail): one number
    # published twice in one history.
    real_s2 = {**real, 10: opened(1), 11: ("sitting.closed", compact({"number": 1}))}
    T2 = trail(11, real_s2)
    assert T2[:9] == trail(9, real)
    S2 = sitting_doc(T2, 1, 10, 11, [], 11, (jdump(S), 8))
    return {"T": T, "A": A, "V": V, "S": S, "outs": outs, "C": C, "S2": S2, "T2": T2, "T11": T11}


def write(out, name, desc, expect, files, args):
    v = {"description": desc, "expect": expect, "command": "verify", "args": args, "files": files}
    with open(os.path.join(out, name + ".json"), "w") as f:
        f.write(json.dumps(v, indent=1, ensure_ascii=False) + "\n")


def flip(hex_text):
    """One bit of a hex string changed (a hash or a signature)."""
    return "%0*x" % (len(hex_text), int(hex_text, 16) ^ 1)


def alone_vectors(w, b):
    T, S = b["T"], b["S"]
    K = mv.keys_files()
    ONE = {"path": "sitting", "keys": "keys"}
    base = dict(K, **sitting_files(S, "sitting"))

    def variant(edit=None, note=None, minutes=None, text=None, doc=None):
        d = json.loads(json.dumps(doc or S))
        if edit:
            edit(d)
        return dict(K, **sitting_files(d, "sitting", note=note, minutes=minutes, text=text))

    w("sitting-valid", "The output of sitting 1 (SPEC §9.3), alone: sitting.json (members in the order of §9.3, "
      "pretty JSON of §1.5), checkpoint.note (its audit checkpoint, 8 events, covering sitting.closed at event 8) "
      "and minutes.html, each with its .sig, and the public keys. It lists the draw of 2018-12-22 (published at "
      "audit event 5) and the void notice of that day (event 7), between its opening (event 2) and its close "
      "(event 8), and names the void notice as its predecessor with the consistency proof from 6 to 8. The outputs "
      "it lists are not checked alone (a note).", "valid", base, ONE)
    rehearsal_cp = checkpoint(T, 8, origin="urne-rehearsal")

    def rehearsal(d):
        d["audit_checkpoint"] = rehearsal_cp
        d["files"][0] = listed("checkpoint.note", rehearsal_cp)
    w("sitting-rehearsal", "sitting-valid held on a rehearsal token: its audit_checkpoint (and checkpoint.note, "
      "listed) has the origin urne-rehearsal/<audit key id>, signed by the audit key under that name: never an "
      "official sitting (SPEC §6.10, §9.4).", "rehearsal", variant(rehearsal), ONE)
    kc = trail(3, {2: opened(1, kind="key-ceremony"), 3: ("sitting.closed", compact({"number": 1}))})
    KC = sitting_doc(kc, 1, 2, 3, [], 3, None, kind="key-ceremony")
    w("sitting-valid-key-ceremony", "The key ceremony's sitting (kind key-ceremony), the trail's first output "
      "(predecessor null, no consistency proof): opened at event 2, closed at event 3, no output published "
      "(outputs empty), its checkpoint of 3 events.", "valid", dict(K, **sitting_files(KC, "sitting")), ONE)

    f = dict(base)
    f["sitting/sitting.json.sig"] = {"hex": flip(f["sitting/sitting.json.sig"]["hex"])}
    w("sitting-bad-signature-sitting-json", "sitting-valid with one bit of sitting.json.sig changed (SPEC §9.4).",
      "bad-signature", f, ONE)
    f = {k: v for k, v in base.items() if k != "sitting/sitting.json.sig"}
    w("sitting-bad-signature-missing-sig", "sitting-valid without sitting.json.sig (SPEC §9.4, §1.4).",
      "bad-signature", f, ONE)
    f = dict(base)
    f["sitting/minutes.html.sig"] = {"hex": flip(f["sitting/minutes.html.sig"]["hex"])}
    w("sitting-bad-signature-minutes", "sitting-valid with one bit of minutes.html.sig changed: the minutes' "
      "signature is checked, not their wording (SPEC §9.4).", "bad-signature", f, ONE)
    f = {k: v for k, v in base.items() if k != "sitting/minutes.html.sig"}
    w("sitting-bad-signature-minutes-missing-sig", "sitting-valid without minutes.html.sig (SPEC §9.4).",
      "bad-signature", f, ONE)

    text = jdump(S).replace('  "place":', '  "seal": "n° 4",\n  "place":', 1)
    w("sitting-malformed-member-added", "sitting.json (re-signed) with a member \"seal\" added (SPEC §9.4, §1.5).",
      "malformed", variant(text=text), ONE)
    w("sitting-malformed-member-missing", "sitting.json (re-signed) without its member \"place\" (SPEC §9.4, §1.5).",
      "malformed", variant(edit=lambda d: d.pop("place")), ONE)
    w("sitting-malformed-format", "sitting.json (re-signed) whose format is \"urne-void-notice\" (SPEC §9.4).",
      "malformed", variant(edit=lambda d: d.update(format="urne-void-notice")), ONE)
    w("sitting-malformed-version-3", "sitting.json (re-signed) of version 3: a sitting has one version, 2 (SPEC §9.4).",
      "malformed", variant(edit=lambda d: d.update(version=3)), ONE)
    w("sitting-malformed-kind", "sitting.json (re-signed) of kind \"ceremony\": sitting or key-ceremony (SPEC §9.4).",
      "malformed", variant(edit=lambda d: d.update(kind="ceremony")), ONE)
    w("sitting-malformed-opened-not-before-closed", "sitting.json (re-signed) with opened_seq 8 and closed_seq 8: the "
      "opening comes before the close (SPEC §9.4).", "malformed", variant(edit=lambda d: d.update(opened_seq=8)), ONE)
    w("sitting-malformed-opened-seq-0", "sitting.json (re-signed) with opened_seq 0: events count from 1 (SPEC "
      "§9.4).", "malformed", variant(edit=lambda d: d.update(opened_seq=0)), ONE)
    w("sitting-malformed-number-0", "sitting.json (re-signed) numbered 0: sittings count from 1 (SPEC §9.4).",
      "malformed", variant(edit=lambda d: d.update(number=0)), ONE)
    w("sitting-malformed-outputs-order", "sitting.json (re-signed) listing its two outputs in the reverse of the "
      "trail's order (audit_seq 7, then 5) (SPEC §9.4).", "malformed",
      variant(edit=lambda d: d.update(outputs=d["outputs"][::-1])), ONE)

    other_cp = checkpoint(T, 8, OTHER)
    w("sitting-bad-signature-checkpoint", "sitting.json (re-signed) whose audit_checkpoint (and checkpoint.note, "
      "listed) is the checkpoint of 8 events signed by another key under the audit key's name (SPEC §9.4).",
      "bad-signature", variant(edit=lambda d: d.update(audit_checkpoint=other_cp,
                                                     files=[listed("checkpoint.note", other_cp), d["files"][1]]),
                               note=other_cp), ONE)
    w("sitting-inconsistent-audit-key-id", "sitting.json (re-signed) whose audit_key_id is the id of another key "
      "than the audit key that signs its checkpoint (SPEC §9.4).", "inconsistent",
      variant(edit=lambda d: d.update(audit_key_id=key_id(raw(OTHER)))), ONE)
    w("sitting-inconsistent-checkpoint-before-close", "sitting.json (re-signed) whose audit_checkpoint (and "
      "checkpoint.note) covers 7 events, with its history from 6 to 7: the close (event 8) is not under it (SPEC "
      "§9.4).", "inconsistent",
      dict(K, **sitting_files(sitting_doc(T, 1, 2, 8, b["outs"], 7, (b["V"], 6)), "sitting")), ONE)
    w("sitting-inconsistent-output-at-opening", "sitting.json (re-signed) listing the draw as published at audit "
      "event 2, the sitting's opening: an output lies strictly between opening and close (SPEC §9.4).",
      "inconsistent", variant(edit=lambda d: d["outputs"][0].update(audit_seq=2)), ONE)
    w("sitting-inconsistent-output-at-close", "sitting.json (re-signed) listing the void notice as published at "
      "audit event 8, the sitting's close: an output lies strictly between opening and close (SPEC §9.4).",
      "inconsistent", variant(edit=lambda d: d["outputs"][1].update(audit_seq=8)), ONE)
    w("sitting-inconsistent-files-list", "sitting.json (re-signed) whose files list minutes.html alone (SPEC §9.4: "
      "exactly checkpoint.note and minutes.html).", "inconsistent",
      variant(edit=lambda d: d.update(files=d["files"][1:])), ONE)
    w("sitting-inconsistent-files-audience", "sitting.json (re-signed) listing minutes.html as a production file "
      "(SPEC §9.4: both public).", "inconsistent",
      variant(edit=lambda d: d["files"][1].update(audience="production")), ONE)
    w("sitting-inconsistent-minutes-other-bytes", "minutes.html of other bytes than listed (the minutes of another "
      "sitting, validly signed): not the minutes this sitting lists (SPEC §9.4).", "inconsistent",
      variant(minutes=minutes_html(1, "Procès-verbal de la séance (autre)")), ONE)
    f = {k: v for k, v in base.items() if not k.startswith("sitting/minutes.html")}
    w("sitting-inconsistent-minutes-missing", "sitting-valid without minutes.html (nor its .sig): a file the "
      "sitting lists is not in the folder (SPEC §9.4).", "inconsistent", f, ONE)
    cp6 = checkpoint(T, 6)
    w("sitting-inconsistent-checkpoint-note", "checkpoint.note is another checkpoint of the trail (6 events, validly "
      "signed by the audit key, the file signed), which sitting.json (re-signed) lists by its size and SHA-256: it "
      "is not audit_checkpoint (SPEC §9.4).", "inconsistent",
      variant(edit=lambda d: d.update(files=[listed("checkpoint.note", cp6), d["files"][1]]), note=cp6), ONE)

    def broken(d):
        d["history"]["consistency"][0] = flip(d["history"]["consistency"][0])
    w("sitting-fork-bad-consistency", "sitting.json (re-signed) with one hash of its consistency proof changed: it "
      "does not lead from the void notice's checkpoint (6 events) to its own (8) (SPEC §9.4, §6.7).", "fork",
      variant(edit=broken), ONE)
    w("sitting-inconsistent-expect-day", "sitting-valid with expect_day 2018-12-22 (the day of the draw it lists): "
      "a sitting is of no day (SPEC §9.4, §8.1).", "inconsistent", base, dict(ONE, expect_day=DAY))
    w("sitting-inconsistent-expect-block", "sitting-valid with expect_block noel-test/100/2015-12/3: a sitting is "
      "of no block (SPEC §9.4, §8.1).", "inconsistent", base, dict(ONE, expect_block="noel-test/100/2015-12/3"))


def outputs_vectors(w, b):
    K = mv.keys_files()
    P = {"path": "pub", "keys": "keys"}
    A = mv.v2_files(b["A"], "pub/A")
    V = signed("void-notice.json", b["V"], folder=f"pub/void-{DAY}-attempt-1")
    S = sitting_files(b["S"], "pub/sitting-001")
    C = mv.v2_files(b["C"], "pub/C")
    w("sitting-outputs-valid", "A folder of outputs (SPEC §8.4): the draw A (2018-12-22, the trail's first output, "
      "checkpoint of 4 events), its void notice (checkpoint of 6, after A), sitting 1 (checkpoint of 8, after the "
      "notice, listing both) and the draw C (2018-12-23, checkpoint of 11) naming the sitting as its predecessor "
      "(the SHA-256 of sitting.json): one linear history, every output the sitting lists among them.", "valid",
      {**K, **A, **V, **S, **C}, P)
    w("sitting-outputs-valid-held-checkpoint", "sitting-outputs-valid with the sitting's checkpoint held outside "
      "the appliance (--checkpoint held.note: what the commissaire copied into the minutes): it lies on the "
      "history (SPEC §8.4, §9.2).", "valid",
      {**K, **A, **V, **S, **C, "held.note": {"utf8": b["S"]["audit_checkpoint"]}},
      dict(P, checkpoints=["held.note"]))
    w("sitting-outputs-inconsistent-listed-output-missing", "sitting-outputs-valid without the void notice's "
      "folder: the sitting lists an output that is not among the outputs (checked before the linear history) "
      "(SPEC §9.4).", "inconsistent", {**K, **A, **S, **C}, P)
    S2 = sitting_files(b["S2"], "pub/sitting-001-again")
    w("sitting-outputs-fork-number-twice", "A, the void notice, sitting 1 and another sitting numbered 1 (opened "
      "at event 10, closed at 11, after sitting 1 on the same history): one trail publishes a sitting's number "
      "once (SPEC §8.4, §9.4).", "fork", {**K, **A, **V, **S, **S2}, P)


def main(out):
    b = build()
    w = lambda name, desc, expect, files, args: write(out, name, desc, expect, files, args)
    alone_vectors(w, b)
    outputs_vectors(w, b)


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "tests", "vectors")
    for n in os.listdir(out):
        if n.startswith("sitting-") and n.endswith(".json"):
            os.remove(os.path.join(out, n))
    main(out)
