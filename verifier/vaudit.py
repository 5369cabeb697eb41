"""Audit trail (spec/formats.md §6): event hash chain, C2SP checkpoint notes, exported trails."""
import json
import re
import base64
import hashlib

import vjson
from vcore import LINE_LIMIT, Failure, H, b64, ed25519_verify_strict, is_one_time_format, key_id, merkle_root, read_bounded, \
    u64be

ZERO32 = b"\x00" * 32


SIZE_RE = re.compile(r"\A(0|[1-9][0-9]*)\Z")


# spec/formats.md §6.3 checkpoint note: "urne-audit/<id>\n<n>\n<base64 root>\n\n— urne-audit/<id> <base64(kh||sig)>\n"
def parse_checkpoint(note, audit_pub, what="checkpoint"):
    """Verify a signed checkpoint note under the audit key, as an official one; returns (size, root bytes).
    A rehearsal token's checkpoint (origin urne-rehearsal/<id>), its signature good, is the class
    `rehearsal` (spec/formats.md §6.10) [M-380]."""
    rehearsal = "urne-rehearsal/" + key_id(audit_pub) if isinstance(audit_pub, (bytes, bytearray)) else None
    if isinstance(note, str) and rehearsal is not None and note.startswith(rehearsal + "\n"):
        try:
            _parse_checkpoint(note, audit_pub, what, "urne-rehearsal")
        except Failure:
            pass
        else:
            raise Failure("rehearsal", f"{what}: the checkpoint is a rehearsal token's (origin {rehearsal!r}): "
                                       "RÉPÉTITION — SANS VALEUR / REHEARSAL — NO VALUE, never an official result")
    return _parse_checkpoint(note, audit_pub, what, "urne-audit")


def _parse_checkpoint(note, audit_pub, what, prefix):
    """parse_checkpoint for the origin `prefix/<audit key id>`."""
    if not isinstance(note, str):
        raise Failure("malformed", f"{what}: not text")
    name = prefix + "/" + key_id(audit_pub)
    parts = note.split("\n\n", 1)
    if len(parts) != 2 or not parts[0].endswith("") or not note.endswith("\n"):
        raise Failure("malformed", f"{what}: not a signed note")
    body = parts[0] + "\n"                     # the first three lines, each with its final LF
    lines = parts[0].split("\n")
    if len(lines) != 3 or not SIZE_RE.match(lines[1]):      # decimal, no sign, no leading zero (spec/formats.md §6.3)
        raise Failure("malformed", f"{what}: the note body is not origin, size, root")
    if lines[0] != name:
        raise Failure("inconsistent", f"{what}: origin {lines[0]!r} is not {name!r} (the audit key given)")
    try:
        root = base64.b64decode(lines[2], validate=True)
    except ValueError:
        raise Failure("malformed", f"{what}: root is not base64")
    if len(root) != 32 or b64(root) != lines[2]:
        raise Failure("malformed", f"{what}: root is not 32 bytes of canonical base64")
    # Signature lines: "— <name> <base64(key_hash[0..4] || signature)>", each well formed (C2SP signed-note); urne's
    # checkpoint carries exactly one, the audit key's (spec/formats.md §6.3): a second line would make two notes of one checkpoint.
    key_hash = hashlib.sha256(name.encode() + b"\x0a\x01" + audit_pub).digest()[:4]
    ok = False
    sig_lines = parts[1][:-1].split("\n")
    found = []
    for line in sig_lines:
        if not line.startswith("\u2014 "):
            raise Failure("malformed", f"{what}: bad signature line")
        try:
            sname, blob = line[2:].split(" ")
            blob = base64.b64decode(blob, validate=True)
        except ValueError:
            raise Failure("malformed", f"{what}: bad signature line")
        if not sname or len(blob) <= 4:           # C2SP signed-note: a name, a key hash and more
            raise Failure("malformed", f"{what}: bad signature line")
        found.append((sname, blob))
    if len(found) != 1:
        raise Failure("malformed", f"{what}: a checkpoint carries exactly one signature line, the audit key's")
    for sname, blob in found:
        if sname == name and len(blob) == 68 and blob[:4] == key_hash:
            if not ed25519_verify_strict(audit_pub, blob[4:], body.encode("utf-8")):
                raise Failure("bad-signature", f"{what}: the signature does not verify under the audit key {key_id(audit_pub)}")
            ok = True
    if not ok:
        raise Failure("bad-signature", f"{what}: no signature by the audit key {key_id(audit_pub)}")
    return int(lines[1]), root


def verify_checkpoint(note, audit_pub, what="checkpoint"):
    """An output's checkpoint, or one held beside outputs (spec/formats.md §8.2 step 5, spec/formats.md §4.6, §5.B10, §8.4): it
    MUST verify under the audit key [bad-signature] [M-173, M-206]; a note that does not parse,
    or of another origin, does not verify either. (In an exported trail, spec/formats.md §6.4 gives those their
    own classes: parse_checkpoint.) Returns (size, root bytes)."""
    try:
        return parse_checkpoint(note, audit_pub, what)
    except Failure as f:
        if f.cls == "rehearsal":                # a rehearsal's, its signature good (spec/formats.md §6.10) [M-380]
            raise
        raise Failure("bad-signature", f.what)


def event_hash(prev, seq, ts, kind, payload):
    # spec/formats.md §6.1
    return H("urne/v1/audit-event", prev, u64be(seq), ts, kind, payload)


def recorded_key(first_kind, first_payload, keys_payload):
    """spec/formats.md §6.4: the audit key the trail records: a version-2 trail's event 1 (`trail.created` or
    `trail.restarted`), else the first `keys.generated` event's audit key; None if none."""
    try:
        if first_kind in ("trail.created", "trail.restarted"):
            return bytes.fromhex(json.loads(first_payload)["audit_public_key"])
        if keys_payload is not None:
            for k in json.loads(keys_payload)["keys"]:
                if k["role"] == "audit":
                    return bytes.fromhex(k["public_key"])
    except (ValueError, KeyError, TypeError, AttributeError):
        pass
    return None


CORRECTION = {"wrong": vjson.string, "confirmed": vjson.string, "reason": vjson.string}
# The kinds of event at which a person witnessed the time (spec/formats.md §6.4 (5) [M-254]).
WITNESSING = ("sitting.opened", "sitting.resumed", "clock.corrected")


def check_correction(seq, payload, before):
    """spec/formats.md §6.4 (5): a clock.corrected event (spec/formats.md §6.2: `wrong`, `confirmed`, `reason`, strings, no other member) names as
    `wrong` the time of the event before it, exactly, and `confirmed` is in urne's one format."""
    try:
        c = vjson.payload(payload, f"audit event {seq}", CORRECTION)
    except Failure:
        raise Failure("inconsistent", f"audit event {seq} is a clock.corrected event whose payload is not one")
    if before is None:
        raise Failure("inconsistent", f"audit event {seq} corrects the clock of no event")
    if c["wrong"] != before:
        raise Failure("inconsistent", f"audit event {seq} corrects the clock from {c['wrong']}, but event {seq - 1}'s "
                                      f"time is {before}")
    if not is_one_time_format(c["confirmed"]):
        raise Failure("inconsistent", f"audit event {seq}'s confirmed time {c['confirmed']!r} is not RFC 3339 UTC "
                                      "with microseconds, a real date and time of day")
    return c


# spec/appliance.md §6.6, §9.1: how far the clock may be from a watch a person confirms it at: 5 minutes, and the seconds of the
# minute typed.
WATCH_TOLERANCE = 5 * 60 + 59


def seconds(ts):
    """Unix seconds of a time in urne's one format (proleptic Gregorian)."""
    y, mo, d, h, mi, s = (int(ts[a:b]) for a, b in ((0, 4), (5, 7), (8, 10), (11, 13), (14, 16), (17, 19)))
    y -= mo <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (mo + (-3 if mo > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return (era * 146097 + doe - 719468) * 86400 + h * 3600 + mi * 60 + s


def witnessed_at(seq, ts, kind, payload):
    """spec/formats.md §6.4 (5) [M-254]: the time a person witnessed at this event, if any: a sitting opened or taken up again, its
    own time less the watch check's tolerance (spec/appliance.md §9.1); a clock corrected, its `confirmed` (a payload that is not one,
    or a `confirmed` not in the one format, witnessed nothing). A clock.confirmed sets no bound."""
    if kind in ("sitting.opened", "sitting.resumed"):
        return seconds(ts) - WATCH_TOLERANCE
    try:
        c = vjson.payload(payload, f"audit event {seq}", CORRECTION)
    except Failure:
        return None
    return seconds(c["confirmed"]) if is_one_time_format(c["confirmed"]) else None


def check_witnessed(seq, ts, c, floor):
    """spec/formats.md §6.4 (5) [M-254]: a correction's `confirmed` is not earlier than the last time a person witnessed before it,
    and its own time is not earlier than its `confirmed` less the watch check's tolerance."""
    confirmed = seconds(c["confirmed"])
    if floor is not None and confirmed < floor[0]:
        raise Failure("inconsistent", f"audit event {seq} confirms the time {c['confirmed']}, {floor[0] - confirmed} s "
                                      f"earlier than the last time a person witnessed before it (at event {floor[1]}): "
                                      "a correction never goes back past a watch")
    if seconds(ts) < confirmed - WATCH_TOLERANCE:
        raise Failure("inconsistent", f"audit event {seq} is dated {ts}, more than the watch check's tolerance before "
                                      f"the time it confirms ({c['confirmed']}): it was not recorded by a clock that "
                                      "agreed with the watch")


def verify_export(path, audit_pub, held_checkpoints=(), strict=False, counted=None, started=None):
    """spec/formats.md §6.4 on an `urne audit export` file. Returns a list of report lines. Without an audit key
    given (`audit_pub` None), the key the trail records is used (the caller says on standard
    error what that does not prove). `counted`, a list, gets the number of events; `started`, a list, gets
    (seq, payload) of every software.start event (spec/formats.md §8.8)."""
    data = read_bounded(path, "audit-export")      # at most 1 GiB, a regular file (file limits)
    if data and not data.endswith(b"\n"):
        raise Failure("malformed", f"{path}: the last line does not end in LF")
    hashes, checkpoints, prev, times, kinds = [], [], ZERO32, [], {}
    first_kind = first_payload = keys_payload = None
    event_fields = {"type": vjson.const("event"), "seq": vjson.uint, "ts": vjson.string, "kind": vjson.string,
                    "payload": vjson.string, "prev_hash": lambda v, w: vjson.hexbytes(v, w, 32),
                    "hash": lambda v, w: vjson.hexbytes(v, w, 32)}
    cp_fields = {"type": vjson.const("checkpoint"), "size": vjson.uint, "note": vjson.string}
    for no, line in enumerate(data.split(b"\n")[:-1], start=1):
        if len(line) > LINE_LIMIT:
            raise Failure("malformed", f"{path} line {no}: {len(line)} bytes, more than a line may hold ({LINE_LIMIT})")
        r = vjson.loads(line, f"{path} line {no}")
        if isinstance(r, dict) and r.get("type") == "event":
            if checkpoints:
                raise Failure("malformed", f"{path} line {no}: an event after the checkpoints")
            e = vjson.obj(r, f"line {no}", event_fields)
            seq = len(hashes) + 1
            # (1) sequence numbers 1..n without gaps, each hash recomputes and links.
            if e["seq"] != seq:
                raise Failure("inconsistent", f"audit event {seq}: found sequence number {e['seq']}")
            if e["prev_hash"] != prev:
                raise Failure("inconsistent", f"audit event {seq}: prev_hash does not link to event {seq - 1}")
            h = event_hash(prev, seq, e["ts"], e["kind"], e["payload"])
            if h != e["hash"]:
                raise Failure("inconsistent", f"audit event {seq}: hash does not recompute")
            if seq == 1:
                first_kind, first_payload = e["kind"], e["payload"]
            if e["kind"] == "keys.generated" and keys_payload is None:
                keys_payload = e["payload"]
            hashes.append(h)
            times.append(e["ts"])
            if e["kind"] in WITNESSING:
                kinds[seq] = (e["kind"], e["payload"])
            if e["kind"] == "software.start" and started is not None:
                started.append((seq, e["payload"]))
            prev = h
        elif isinstance(r, dict) and r.get("type") == "checkpoint":
            checkpoints.append(vjson.obj(r, f"line {no}", cp_fields))
        else:
            raise Failure("malformed", f"{path} line {no}: neither an event nor a checkpoint")
    if not hashes:   # [M-261]: a trail begins with its first event
        raise Failure("malformed", f"{path}: holds no event: an audit trail begins with its first event, so an export "
                                   "of one is never empty")
    # (2) stored checkpoints, (3) held checkpoints: signature, then root over the first `size` events.
    all_cps = [(c["note"], f"stored checkpoint of size {c['size']}", c["size"]) for c in checkpoints]
    all_cps += [(note, f"held checkpoint {name}", None) for name, note in held_checkpoints]
    given = audit_pub is not None
    if not given:
        audit_pub = recorded_key(first_kind, first_payload, keys_payload)
        if audit_pub is None and all_cps:
            raise Failure("bad-signature", "checkpoints exist but no audit key is known to check them (no audit key "
                                           "recorded in the trail; give --keys DIR holding audit.pub.pem)")
        if audit_pub is not None and len(audit_pub) != 32:
            raise Failure("inconsistent", "audit event 1: the audit key the trail records is not 32 bytes")
    last = 0
    for note, what, declared in all_cps:
        size, root = parse_checkpoint(note, audit_pub, what)
        if declared is not None and declared != size:
            raise Failure("inconsistent", f"{what}: its note says size {size}")
        if declared is not None and size == 0:     # [M-260]: the empty tree, which the appliance never stores
            raise Failure("inconsistent", f"{what}: a stored checkpoint covers at least one event; size 0 signs the "
                                          "empty tree, which the appliance never stores")
        if size > len(hashes):
            raise Failure("inconsistent", f"{what}: covers {size} events, the trail has {len(hashes)} (truncated?)")
        if merkle_root(hashes[:size]) != root:   # leaf data = event hashes
            raise Failure("inconsistent", f"{what}: root differs from the tree over events 1..{size}")
        last = max(last, size)
    # spec/formats.md §6.4 (2), version 2 (spec/appliance.md §6.6, §6.8): event 1 is trail.created or trail.restarted; its audit key is the one given, and
    # every event has its own stored checkpoint (sizes exactly 1..n).
    if first_kind in ("trail.created", "trail.restarted"):
        try:
            recorded = bytes.fromhex(json.loads(first_payload)["audit_public_key"])
        except (ValueError, KeyError, TypeError):
            raise Failure("inconsistent", "audit event 1: trail.created does not name an audit public key")
        if given and recorded != audit_pub:
            raise Failure("inconsistent", f"audit event 1: the trail records the audit key {key_id(recorded)}, "
                                          f"not the one given ({key_id(audit_pub)})")
        sizes = {c["size"] for c in checkpoints}
        for seq in range(1, len(hashes) + 1):
            if seq not in sizes:
                raise Failure("inconsistent", f"audit event {seq} has no checkpoint of its own (version-2 trail)")
        # spec/formats.md §6.4 (5): the appliance's clock never goes back (spec/appliance.md §6.6): times in urne's one format, in order; only a
        # clock.corrected event may be earlier than the event before it, naming that event's time as `wrong`.
        floor = None  # (seconds, seq): the last time a person witnessed [M-254]
        for seq, ts in enumerate(times, start=1):
            if not is_one_time_format(ts):
                raise Failure("inconsistent", f"audit event {seq}: time {ts!r} is not RFC 3339 UTC with "
                                              "microseconds, a real date and time of day")
            kind, payload = kinds.get(seq, (None, None))
            if kind == "clock.corrected":
                c = check_correction(seq, payload, times[seq - 2] if seq > 1 else None)
                check_witnessed(seq, ts, c, floor)
            elif seq > 1 and ts < times[seq - 2]:
                raise Failure("inconsistent", f"audit event {seq}: its time {ts} is earlier than event {seq - 1}'s "
                                              f"({times[seq - 2]}): the clock was set back, and no clock.corrected "
                                              "event states it")
            at = witnessed_at(seq, ts, kind, payload) if kind in WITNESSING else None
            if at is not None and (floor is None or at >= floor[0]):
                floor = (at, seq)
    if strict and last < len(hashes):
        raise Failure("inconsistent", f"audit events {last + 1}..{len(hashes)} are not covered by a signed checkpoint")
    if counted is not None:
        counted.append(len(hashes))
    out = [f"ok  {len(hashes)} audit events chained (1..{len(hashes)})",
           f"ok  {len(all_cps)} checkpoints verify under the audit key "
           f"{key_id(audit_pub) if audit_pub is not None else '(none recorded)'}"]
    if last < len(hashes):
        out.append(f"note events {last + 1}..{len(hashes)} are chained but not yet covered by a checkpoint")
    if not held_checkpoints:
        out.append(f"note: {CUT_SHORT.format(n=len(hashes))}")
    return out


# spec/formats.md §6.4: a key anchors a trail against a rewrite under another key, not against a copy cut short.
CUT_SHORT = ("a key proves who signed events 1..{n}, not that the trail ends there: a copy cut short verifies "
             "too; compare {n} with the size of the last checkpoint you hold (--checkpoint)")
