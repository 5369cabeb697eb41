#!/usr/bin/env python3
"""Writes tests/vectors/release-*.json (spec/formats.md §8.8): outputs of the committed vectors
(draw-v2-valid, block-folder-v2-valid-unrevealed, keys-valid, audit-valid) and a version-2 trail
whose software.start events name two executables, each given with one or two release manifests
SHA256SUMS signed by a test release key, and the manifests each refusal needs. Deterministic:
the release key is derived from a fixed string, as every vector key (make_vectors.key).

    python3 verifier/make_release_vectors.py [OUT_DIR]"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from make_vectors import (PKCS11, RESULT, audit_events_v2, checkpoint, key, pem, raw)  # noqa: E402
from vcore import key_id  # noqa: E402

RELEASE, OTHER_RELEASE = key("release"), key("other release")
# The software every committed vector's outputs state (make_vectors, make_block_vectors).
REV, EXE = "0" * 40, "0" * 64
OTHER_REV = "1234567890abcdef1234567890abcdef12345678"
DRAW_LINE = "the draw of chanceux-noel-2018 day 2018-12-22 attempt 1 (version 2)"


def sums(commit, urne, extra=()):
    """A manifest's text: the archive of `commit`, the three binaries (bin/urne `urne`), and `extra`."""
    files = {f"urne-src-{commit}.tar.gz": "ab" * 32, "bin/urne": urne, "bin/urne-verify": "cd" * 32,
             "bin/urne-import": "ef" * 32, "BUILDINFO": "12" * 32, "deb/urne_0.1.0_amd64.deb": "34" * 32}
    files.update(dict(extra))
    return "".join(f"{h}  {n}\n" for n, h in sorted(files.items(), key=lambda x: x[0].encode()))


def release_files(folder, text, signer=RELEASE, sig=True):
    f = {f"{folder}/SHA256SUMS": {"utf8": text}}
    if sig:
        f[f"{folder}/SHA256SUMS.sig"] = {"hex": signer.sign(text.encode()).hex()}
    return f


def base(name):
    with open(os.path.join(HERE, "..", "tests", "vectors", name + ".json")) as f:
        v = json.load(f)
    return v["files"], v["args"]


def software_line(what, path, rev, exe, verdict):
    return f"software: {what} in {path}: urne 0.1.0 {rev}, executable {exe}: {verdict}"


def release_line(commit, folder, k=RELEASE):
    return f"release: {commit} in {folder}/SHA256SUMS, signed by release key {key_id(raw(k))}"


def write(out, name, desc, expect, files, args, releases, keys=("release-key.pem",), software=None):
    files = dict(files, **{"release-key.pem": {"utf8": pem(RELEASE)}})
    args = dict(args, release=[f"{r}/SHA256SUMS" for r in releases], release_keys=list(keys))
    v = {"description": desc, "expect": expect, "command": "verify", "args": args, "files": files}
    if software is not None:
        v["software"] = software
    with open(os.path.join(out, name + ".json"), "w") as f:
        f.write(json.dumps(v, indent=1, ensure_ascii=False) + "\n")


def trail(exes):
    """A version-2 trail (make_vectors.audit_events_v2) whose events 2.. are software.start events of
    `exes` (one executable's SHA-256 each), every event with its checkpoint, exported with the audit key."""
    kinds = {}
    for seq, exe in enumerate(exes, start=2):
        payload = {"command": "seal", "software": {"name": "urne", "version": "0.1.0", "source_revision": REV,
                                                   "executable_sha256": exe}, "pkcs11": PKCS11}
        kinds[seq] = ("software.start", json.dumps(payload, separators=(",", ":")))
    ev = audit_events_v2(len(exes) + 1, kinds=kinds)
    lines = [json.dumps(e, separators=(",", ":")) for e in ev]
    lines += [json.dumps({"type": "checkpoint", "size": s, "note": checkpoint(ev, s)}, separators=(",", ":"),
                         ensure_ascii=False) for s in range(1, len(ev) + 1)]
    files = {"audit.jsonl": {"utf8": "".join(x + "\n" for x in lines)}}
    files.update({k: v for k, v in base("draw-v2-valid")[0].items() if k.startswith("keys/")})
    return files


def main(out):
    released = sums(REV, EXE)
    draw, dargs = base("draw-v2-valid")
    block, bargs = base("block-folder-v2-valid-unrevealed")
    keys, kargs = base("keys-valid")
    audit1, aargs = base("audit-valid")
    R, R2 = "release", "release-2"
    ok = f"released (bin/urne of release {REV})"
    w = lambda *a, **k: write(out, *a, **k)

    # Released (M-414, M-415).
    w("release-valid-draw", "draw-v2-valid with the release of its source revision (40 zeros), whose bin/urne is "
      "its executable_sha256: released (spec/formats.md §8.8).", "valid",
      dict(draw, **release_files(R, released)), dargs, [R],
      software=[release_line(REV, R), software_line(DRAW_LINE, "draw", REV, EXE, ok)])
    w("release-valid-two-releases", "The same draw given two releases, another revision's first: the one of its "
      "revision decides; one release: line per release, in the order given.", "valid",
      dict(draw, **release_files(R2, sums(OTHER_REV, "77" * 32)), **release_files(R, released)), dargs, [R2, R],
      software=[release_line(OTHER_REV, R2), release_line(REV, R), software_line(DRAW_LINE, "draw", REV, EXE, ok)])
    blk = "block noel-test/100/2015-12/3 attempt 1 (version 2)"
    w("release-valid-block", "block-folder-v2-valid-unrevealed with the release of its source revision: the "
      "commitment's software is released.", "valid", dict(block, **release_files(R, released)), bargs, [R],
      software=[release_line(REV, R), software_line(blk, "block", REV, EXE, ok)])
    a, b = "aa" * 32, "bb" * 32
    w("release-valid-audit", "A version-2 trail whose software.start events 2 and 3 name one executable, the "
      "released bin/urne of their revision: one software: line for both events.", "valid",
      dict(trail([a, a]), **release_files(R, sums(REV, a))), dict(aargs), [R],
      software=[release_line(REV, R),
                software_line("2 software.start events from seq 2 to 3 of the audit trail of 3 events",
                              "audit.jsonl", REV, a, ok)])

    # Not released (M-414, M-417): exit 9, the verdict printed.
    w("release-not-released-built-another-way", "draw-v2-valid with a release of its source revision whose bin/urne "
      "has another SHA-256: a binary built another way (exit 9, spec/formats.md §8.8).", "not-released",
      dict(draw, **release_files(R, sums(REV, "11" * 32))), dargs, [R],
      software=[release_line(REV, R), software_line(
          DRAW_LINE, "draw", REV, EXE, f"NOT RELEASED: built another way (release {REV} lists bin/urne {'11' * 32})")])
    w("release-not-released-revision", "draw-v2-valid with only a release of another revision: its revision is "
      "not released (exit 9).", "not-released", dict(draw, **release_files(R, sums(OTHER_REV, EXE))), dargs, [R],
      software=[release_line(OTHER_REV, R), software_line(
          DRAW_LINE, "draw", REV, EXE, f"NOT RELEASED: no release given is of source revision {REV}")])
    w("release-not-released-audit", "A version-2 trail whose software.start events 2 and 4 name the released "
      "bin/urne and event 3 another executable: one line per distinct software, in the order of its first event; "
      "the second is built another way (exit 9).", "not-released",
      dict(trail([a, b, a]), **release_files(R, sums(REV, a))), dict(aargs), [R],
      software=[release_line(REV, R),
                software_line("2 software.start events from seq 2 to 4 of the audit trail of 4 events",
                              "audit.jsonl", REV, a, ok),
                software_line("1 software.start event from seq 3 to 3 of the audit trail of 4 events",
                              "audit.jsonl", REV, b,
                              f"NOT RELEASED: built another way (release {REV} lists bin/urne {a})")])

    # A verification failure comes first (exit 1), whatever the release says.
    bad = dict(draw)
    bad["draw/bundle.json.sig"] = {"hex": RESULT.sign(b"another file").hex()}
    w("release-bad-signature-output-first", "draw-v2-valid with its bundle.json.sig over other bytes, and a release "
      "of another revision: the output fails first (bad-signature, exit 1), its software is never judged.",
      "bad-signature", dict(bad, **release_files(R, sums(OTHER_REV, EXE))), dargs, [R])
    w("release-malformed-software-start", "audit-valid (its software.start payload is {\"n\":1}) with a release: "
      "with releases given, a software.start payload without the software object is malformed (exit 1).",
      "malformed", dict(audit1, **release_files(R, released)), dict(aargs), [R])

    # Nothing states its software (M-416).
    w("release-partial-key-export", "keys-valid (a key export states no software) with a release: "
      "partial: --release checked none (exit 0).", "partial", dict(keys, **release_files(R, released)), kargs, [R],
      software=[release_line(REV, R)])

    # Refused releases (M-410, M-409, M-413): exit 2, nothing verified.
    refused = [
        ("release-refused-bad-signature-other-key", "SHA256SUMS signed by another key than the release key given.",
         "release-bad-signature", release_files(R, released, signer=OTHER_RELEASE)),
        ("release-refused-bad-signature-missing-sig", "SHA256SUMS without its SHA256SUMS.sig.",
         "release-bad-signature", release_files(R, released, sig=False)),
        ("release-refused-bad-signature-edited", "SHA256SUMS edited after it was signed (bin/urne's hash replaced "
         "by the output's): the signature is checked before the manifest is parsed.", "release-bad-signature",
         dict(release_files(R, sums(REV, "11" * 32)),
              **{f"{R}/SHA256SUMS": {"utf8": released}})),
        ("release-refused-bad-signature-appliance-key", "SHA256SUMS signed by the appliance's result key, given as "
         "the release key too: the release key is never an appliance key (a usage mistake).", "usage",
         release_files(R, released, signer=RESULT)),
    ]
    malformed = {
        "two-archives": sums(REV, EXE, [(f"urne-src-{OTHER_REV}.tar.gz", "56" * 32)]),
        "no-archive": "".join(line + "\n" for line in released.splitlines() if "urne-src-" not in line),
        "archive-name": released.replace(f"urne-src-{REV}", f"urne-src-{REV[:39]}"),
        "no-bin-urne": "".join(line + "\n" for line in released.splitlines() if not line.endswith("  bin/urne")),
        "dot-dot": sums(REV, EXE, [("deb/../bin/urne", "56" * 32)]),
        "absolute": sums(REV, EXE, [("/bin/urne", "56" * 32)]),
        "unsorted": "".join(line + "\n" for line in reversed(released.splitlines())),
        "twice": sums(REV, EXE).replace("  BUILDINFO\n", "  BUILDINFO\n" + "12" * 32 + "  BUILDINFO\n"),
        "one-space": released.replace("  bin/urne\n", " bin/urne\n"),
        "uppercase-hex": released.replace("ab" * 32, "AB" * 32),
        "no-final-lf": released[:-1],
    }
    for what, text in malformed.items():
        refused.append((f"release-refused-malformed-{what}", f"A SHA256SUMS, validly signed, that is malformed: "
                        f"{what.replace('-', ' ')} (spec/formats.md §8.8).", "release-malformed",
                        release_files(R, text)))
    for name, desc, expect, rfiles in refused:
        keys_given = ("release-key.pem", "keys/result.pub.pem") if "appliance-key" in name else ("release-key.pem",)
        w(name, desc + " With draw-v2-valid, which is not verified (exit 2).", expect, dict(draw, **rfiles), dargs,
          [R], keys=keys_given)
    w("release-refused-inconsistent-two-binaries", "Two manifests of the draw's revision listing two bin/urne: one "
      "revision is one binary (exit 2).", "release-inconsistent",
      dict(draw, **release_files(R, released), **release_files(R2, sums(REV, "11" * 32))), dargs, [R, R2])
    w("release-usage-no-release-key", "--release without --release-key: a usage mistake (exit 2).", "usage",
      dict(draw, **release_files(R, released)), dargs, [R], keys=())


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "tests", "vectors")
    for n in os.listdir(out):
        if n.startswith("release-") and n.endswith(".json"):
            os.remove(os.path.join(out, n))
    main(out)
