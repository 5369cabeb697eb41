"""Manifests (version 2; spec/rationale.md §7.3 item 3, the issue 12 contract): the signed list, written last,
of every file of one output, so that a file of another output, a missing file or a folder renamed
as another day is caught. A draw folder has `manifest.json`; each block of a block folder has
`S.manifest.json` beside `S.commit.json`. Written from the specification alone."""
import datetime
import hashlib
import os

import vjson as J
from vcore import Failure, listdir, read_signed

DRAW_NAME = "manifest.json"

# The files each output kind has, and their audience: `public` files are published, a
# `production` file goes to production only (result.json names accounts; S.tickets.csv lives on
# the secret medium until the block closes).
DRAW_FILES = {"bundle.json": "public", "checkpoint.note": "public", "leaves.bin": "public", "pv.html": "public",
              "result.json": "production", "rules.json": "public"}


def block_name(stem):
    return f"{stem}.manifest.json"


def block_files(stem):
    return {f"{stem}.commit.json": "public", "rules.json": "public", f"{stem}.tickets.csv": "production"}


def _audience(v, what):
    if v not in ("public", "production"):
        J._bad(what, "expected \"public\" or \"production\"")
    return v


h32 = lambda v, w: J.hexbytes(v, w, 32)
ENTRY = J.fields({"name": J.string, "size": J.uint, "sha256": h32, "audience": _audience})
MANIFEST = {
    "format": J.const("urne-manifest"), "version": J.const(2), "operation": J.string,
    "day": J.nullable(J.day), "block": J.nullable(J.string), "attempt": lambda v, w: J.uint(v, w, 1, 2**32 - 1),
    "files": J.listof(ENTRY), "result_key_id": J.keyid,
}


def parse(raw, what):
    """Parse (spec/formats.md §1.5: every member present, none added) [malformed]: exactly one of `day` and
    `block`, a real date or a canonical block id; `files` sorted by name (bytewise), each once."""
    m = J.obj(J.loads(raw, what), what, MANIFEST)
    if (m["day"] is None) == (m["block"] is None):
        raise Failure("malformed", f"{what}: exactly one of day and block must be set")
    if m["day"] is not None:
        try:
            datetime.date.fromisoformat(m["day"])
        except ValueError:
            raise Failure("malformed", f"{what}: day {m['day']!r} is not a date")
    else:
        from vblock import parse_block_id      # (vblock imports this module)
        parse_block_id(m["block"], f"{what} block")
    names = [e["name"].encode("utf-8") for e in m["files"]]
    if names != sorted(set(names)):
        raise Failure("malformed", f"{what}: files are not sorted by name, each name once")
    return m


def check(folder, name, result_pub, subject, expected, present, bound=None):
    """Verify the manifest `name` of `folder` (present: the caller decides what its absence is):
    its signature [bad-signature]; parse [malformed]; it names `subject` (operation, day, block,
    attempt, result_key_id) [inconsistent] and lists exactly `expected` ({name: audience})
    [inconsistent]; each listed file in `present` ({name: bytes}, already signature-checked) has
    the listed size and SHA-256 [inconsistent], as has each entry of `bound` ({name: sha256});
    a listed public file that is absent is a `partial: ` line, a production file only a note.
    Returns report lines."""
    raw = read_signed(os.path.join(folder, name), result_pub, "json")
    m = parse(raw, name)
    for k in ("operation", "day", "block", "attempt", "result_key_id"):
        if m[k] != subject[k]:
            raise Failure("inconsistent", f"{name} names {k} {m[k]!r}, the output's is {subject[k]!r}")
    listed = {e["name"]: e["audience"] for e in m["files"]}
    if listed != expected:
        raise Failure("inconsistent", f"{name} lists {sorted(listed.items())}; this kind of output has exactly "
                                      f"{sorted(expected.items())}")
    report, absent = [], []
    for e in m["files"]:
        n = e["name"]
        if n in (bound or {}) and e["sha256"] != bound[n]:
            raise Failure("inconsistent", f"{name}: the SHA-256 it lists for {n} is not the one the commitment binds")
        data = present.get(n)
        if data is None:
            absent.append(n)
            if e["audience"] == "public":
                report.append(f"partial: {n} (listed in the manifest) is not in the folder")
            else:
                report.append(f"note {n} (a production file, listed in the manifest) is not in the folder")
            continue
        if len(data) != e["size"] or hashlib.sha256(data).digest() != e["sha256"]:
            raise Failure("inconsistent", f"{n} is not the file {name} lists (size or SHA-256): a file of "
                                          "another output")
    report.insert(0, f"ok  {name}: signed, names this output, and {len(m['files']) - len(absent)} of its "
                     f"{len(m['files'])} files are the ones it lists")
    return report


def unlisted(folder, listed, also_ignored=()):
    """`note: ` lines (for standard error) for the files of a draw folder that its manifest does
    not list: they are not outputs of this output, and are ignored. Signatures, public keys,
    staging folders and the files of other outputs (`also_ignored`) are not named."""
    out = []
    for n in listdir(folder):
        if (n in listed or n in also_ignored or n.endswith((".sig", ".pem")) or n.startswith(".urne-staging-")
                or n == DRAW_NAME):
            continue
        out.append(f"note: {os.path.join(folder, n)} is not listed in {DRAW_NAME}: not a file of this output, ignored")
    return out
