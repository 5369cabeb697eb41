#!/usr/bin/env python3
"""diff-binaries.py WORK OLD_DIR NEW_DIR: the comparison half of scripts/diff-binaries (see there).

Runs A and B are the old binaries, N the new ones. Everything is masked (paths, revision,
executable hash, timestamps, timings, then random tokens: hex/base64 runs that do not occur in both
A and B), and whatever still differs between A and B at the same position is masked in A and N
("auto"). Then A and N must be equal. Writes WORK/report.txt; exit 1 when A and N differ.
"""
import datetime
import difflib
import hashlib
import json
import os
import re
import sys

work, old_dir, new_dir = (os.path.abspath(p) for p in sys.argv[1:4])
RUNS = "ABN"
TEXT_EXT = (".json", ".jsonl", ".html", ".note", ".pem", ".txt", ".csv", ".md")
MAX_TEXT = 2_000_000
report = []


def out(line=""):
    report.append(line)


def sha_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


# ---- what each run knows about itself: revision and executable hash (from its own trail) ----
def software_ids(run):
    ids = set()
    p = os.path.join(work, run, "c", "audit-final.jsonl")
    if os.path.exists(p):
        for line in open(p, encoding="utf-8", errors="replace"):
            try:
                ev = json.loads(line)
                pl = json.loads(ev.get("payload", "{}"))
            except Exception:
                continue
            sw = pl.get("software") if isinstance(pl, dict) else None
            if isinstance(sw, dict):
                for k in ("source_revision", "executable_sha256"):
                    if sw.get(k):
                        ids.add((k, sw[k]))
    return ids


BIN_SHAS = {}
for d in (old_dir, new_dir):
    for b in ("urne", "urne-simulate"):
        p = os.path.join(d, b)
        if os.path.exists(p):
            BIN_SHAS[sha_file(p)] = "<EXE-SHA>"
SOFT = {r: software_ids(r) for r in RUNS}

today = datetime.datetime.now(datetime.timezone.utc).date()
DATES = set()
for delta in (-1, 0, 1):
    d = today + datetime.timedelta(days=delta)
    DATES.add(d.isoformat())
FIXED = [
    (re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2}|\s?UTC)?"), "<TS>"),
    (re.compile("|".join(sorted(DATES))), "<TODAY>"),
    (re.compile(r"\b(in|took) \d+(\.\d+)? ?(s|ms)\b"), r"\1 <T> \3"),
    (re.compile(r"\b\d+(\.\d+)? ?(ms|s) \(\d+(\.\d+)? MB/s\)"), "<T>"),
    (re.compile(r'(source_revision\\?"\s*:\s*\\?")[^"\\]*'), r"\1<REV>"),
    (re.compile(r'(executable_sha256\\?"\s*:\s*\\?")[0-9a-f]*'), r"\1<EXE-SHA>"),
]
TOKEN = re.compile(r"[A-Za-z0-9+/]{12,}={0,2}")
WORD = re.compile(r"\w+|\s+|[^\w\s]")


def base_mask(run, text):
    text = text.replace(os.path.join(work, run), "<RUN>").replace(work, "<WORK>")
    text = text.replace(old_dir, "<BIN>").replace(new_dir, "<BIN>")
    for sha, name in BIN_SHAS.items():
        text = text.replace(sha, name)
    for k, v in sorted(SOFT.get(run, set()), key=lambda kv: -len(kv[1])):
        text = text.replace(v, "<REV>" if k == "source_revision" else "<EXE-SHA>")
    for rx, rep in FIXED:
        text = rx.sub(rep, text)
    return text


# ---- items: every step's rc/stdout/stderr and every output file, per run ----
def read_text(path):
    with open(path, "rb") as f:
        b = f.read()
    return b.decode("utf-8", errors="backslashreplace")


def steps(run):
    logdir = os.path.join(work, run, "log")
    names = sorted({f.rsplit(".", 1)[0] for f in os.listdir(logdir)}) if os.path.isdir(logdir) else []
    return names


def files(run):
    root = os.path.join(work, run, "c")
    res = {}
    for dp, dns, fns in os.walk(root):
        rel = os.path.relpath(dp, root)
        if rel.split(os.sep)[0] == "tokens":
            dns[:] = []
            continue
        for fn in fns:
            p = os.path.join(dp, fn)
            rp = os.path.normpath(os.path.join(rel, fn))
            res[rp] = (os.path.getsize(p), p)
    return res


raw = {r: {} for r in RUNS}  # key -> base-masked text
cmds = {}
rcs = {r: {} for r in RUNS}
for r in RUNS:
    for s in steps(r):
        base = os.path.join(work, r, "log", s)
        cmds.setdefault(s, read_text(base + ".cmd").strip() if os.path.exists(base + ".cmd") else "?")
        rcs[r][s] = read_text(base + ".rc").strip() if os.path.exists(base + ".rc") else "?"
        for stream in ("out", "err"):
            p = f"{base}.{stream}"
            raw[r][f"step {s} std{stream}"] = base_mask(r, read_text(p)) if os.path.exists(p) else "<missing>"
FILES = {r: files(r) for r in RUNS}
for r in RUNS:
    for rp, (size, p) in FILES[r].items():
        if rp.endswith(TEXT_EXT) and size <= MAX_TEXT and not os.path.basename(rp).startswith("entries-"):
            raw[r][f"file {rp}"] = base_mask(r, read_text(p))

# Deterministic tokens: those in both old runs.
def tokens_of(run):
    t = set()
    for v in raw[run].values():
        t.update(TOKEN.findall(v))
    return t


DET = tokens_of("A") & tokens_of("B")


def tokenise(text):
    seen = {}

    def rep(m):
        v = m.group(0)
        if v in DET:
            return v
        if v not in seen:
            seen[v] = f"<R{len(seen) + 1}>"
        return seen[v]

    return TOKEN.sub(rep, text)


masked = {r: {k: tokenise(v) for k, v in raw[r].items()} for r in RUNS}

# Positional auto-masking of what still differs between the two old runs.
auto = {}
flaky = []
for k in set(masked["A"]) & set(masked["B"]):
    a, b = masked["A"][k], masked["B"][k]
    if a == b:
        continue
    ta, tb = WORD.findall(a), WORD.findall(b)
    if len(ta) != len(tb):
        # Line by line: lines that differ between the old runs are masked whole.
        la, lb = a.splitlines(), b.splitlines()
        if len(la) != len(lb):
            flaky.append(k)
            continue
        pos = [i for i in range(len(la)) if la[i] != lb[i]]
        auto[k] = [f"{len(pos)} whole line(s)"]
        for run in "AN":
            if k in masked[run]:
                ln = masked[run][k].splitlines()
                if len(ln) == len(la):
                    for i in pos:
                        ln[i] = "<AUTO-LINE>"
                    masked[run][k] = "\n".join(ln)
        masked["B"][k] = masked["A"][k]
        continue
    pos = [i for i in range(len(ta)) if ta[i] != tb[i]]
    auto[k] = sorted({ta[i] + " / " + tb[i] for i in pos})[:6]
    for run in "AN":
        if k not in masked[run]:
            continue
        t = WORD.findall(masked[run][k])
        if len(t) != len(ta):
            continue
        for i in pos:
            t[i] = "<AUTO>"
        masked[run][k] = "".join(t)
    masked["B"][k] = masked["A"][k]


SKEL_DIGITS = re.compile(r"\d+")
SKEL_WORDS = re.compile(r"[A-Za-z][A-Za-z_-]*")
SKEL_SPACE = re.compile(r"[ \t]+")


def skeleton(text, level):
    """The shape of a text whose values are random in the old binary: level 1 collapses numbers
    and tokens, level 2 also words, blanks and brackets (ticket grids: which symbol where)."""
    t = SKEL_DIGITS.sub("9", TOKEN.sub("X", text))
    if level >= 2:
        t = re.sub(r"w+", "w", re.sub(r"[\[\] \t]+", "", SKEL_WORDS.sub("w", t)))
    return t


def json_shape(v):
    if isinstance(v, dict):
        return "{" + ",".join(f"{k}:{json_shape(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + "|".join(sorted({json_shape(x) for x in v})) + "]"
    return type(v).__name__


def json_style(raw):
    return (raw[:4], raw.endswith("\n"), '": ' in raw, "\n  " in raw)


def shape_equal(k, ra, rn):
    """For an item random in the old binary (A and B differ), how A and N have the same shape
    (level 1 or 2 of skeleton; "lines": the lines equal in both old runs are equal in N; "json":
    same keys, types and serialisation style), or None."""
    if k not in auto and k not in flaky:
        return None
    for level in (1, 2):
        if skeleton(ra, level) == skeleton(rn, level):
            return level
    outcome = re.compile(r"^outcome: .*$", re.M)  # a ticket's prize is random too
    if skeleton(outcome.sub("outcome: ?", ra), 2) == skeleton(outcome.sub("outcome: ?", rn), 2):
        return 3
    rb = raw["B"].get(k)
    if rb is not None:
        la, lb, ln = ra.splitlines(), rb.splitlines(), rn.splitlines()
        if len(la) == len(lb) == len(ln) and all(la[i] == ln[i] for i in range(len(la)) if la[i] == lb[i]):
            return "lines"
    if k.endswith(".json"):
        try:
            ja, jn = json.loads(ra), json.loads(rn)
        except Exception:
            return None
        if json_shape(ja) == json_shape(jn) and json_style(ra) == json_style(rn):
            return "json"
    return None


shape_only = []


def udiff(a, b, name):
    return list(difflib.unified_diff(a.splitlines(), b.splitlines(), "old", "new", lineterm="", n=2))


ndiff = 0
out(f"differential run: old {old_dir}  new {new_dir}  work {work}")
out(f"steps: {len(steps('A'))} (A), {len(steps('N'))} (N); files: {len(FILES['A'])} (A), {len(FILES['N'])} (N)")
out()

# ---- steps ----
out("=" * 100)
out("STEPS (exit code, stdout, stderr)")
out("=" * 100)
all_steps = sorted(set(steps("A")) | set(steps("N")))
for s in all_steps:
    parts = []
    ra, rn = rcs["A"].get(s, "absent"), rcs["N"].get(s, "absent")
    if ra != rn:
        parts.append(f"  exit code: old {ra}, new {rn}")
    for stream in ("stdout", "stderr"):
        k = f"step {s} {stream}"
        a, n = masked["A"].get(k, "<absent>"), masked["N"].get(k, "<absent>")
        if a != n and k in raw["A"] and k in raw["N"]:
            lvl = shape_equal(k, raw["A"][k], raw["N"][k])
            if lvl:
                shape_only.append(f"{k} (level {lvl})")
                continue
        if a != n:
            parts.append(f"  {stream}:")
            parts += ["    " + line for line in udiff(a, n, k)]
    if parts:
        ndiff += 1
        out(f"--- DIFF {s}  (old exit {ra}, new exit {rn})")
        out(f"  $ {cmds.get(s, '?')}")
        report.extend(parts)
        out()
if not ndiff:
    out("no difference in any step")

# ---- files ----
out()
out("=" * 100)
out("OUTPUT FILES (names, sizes, contents)")
out("=" * 100)
fdiff = 0
names = sorted(set(FILES["A"]) | set(FILES["N"]))
for rp in names:
    a, b, n = FILES["A"].get(rp), FILES["B"].get(rp), FILES["N"].get(rp)
    msgs = []
    if a is None or n is None:
        msgs.append(f"  only in {'new' if a is None else 'old'}" + (f" (size {(a or n)[0]})"))
    else:
        k = f"file {rp}"
        random_text = k in raw["A"] and (k in auto or k in flaky)
        if b is not None and a[0] == b[0] and a[0] != n[0] and not random_text:
            msgs.append(f"  size: old {a[0]}, new {n[0]}")
        if k in masked["A"] and k in masked["N"]:
            lvl = None
            if masked["A"][k] != masked["N"][k]:
                lvl = shape_equal(k, raw["A"][k], raw["N"][k])
                if lvl:
                    shape_only.append(f"{k} (level {lvl})")
            if masked["A"][k] != masked["N"][k] and not lvl:
                msgs.append("  content (masked):")
                msgs += ["    " + line for line in udiff(masked["A"][k], masked["N"][k], k)[:80]]
        elif b is not None and a[0] <= 200_000_000:
            sa, sb = sha_file(a[1]), sha_file(b[1])
            if sa == sb and sa != sha_file(n[1]):
                msgs.append("  bytes differ (identical in both old runs)")
    if msgs:
        fdiff += 1
        out(f"--- FILE {rp}")
        report.extend(msgs)
if not fdiff:
    out("no difference in names, sizes or (masked) contents")
ndiff += fdiff

# ---- audit events ----
out()
out("=" * 100)
out("AUDIT EVENTS (kinds and order, from audit-final.jsonl)")
out("=" * 100)


def kinds(run):
    p = os.path.join(work, run, "c", "audit-final.jsonl")
    res = []
    if os.path.exists(p):
        for line in open(p, encoding="utf-8", errors="replace"):
            try:
                ev = json.loads(line)
            except Exception:
                res.append("<unparsable line>")
                continue
            if ev.get("type", "event") == "event":
                pl = {}
                try:
                    pl = json.loads(ev.get("payload", "{}"))
                except Exception:
                    pass
                cmd = pl.get("command", "") if isinstance(pl, dict) else ""
                res.append(f"{ev.get('kind')}" + (f" [{cmd}]" if cmd else ""))
            else:
                res.append(f"({ev.get('type')})")
    return res


ka, kn = kinds("A"), kinds("N")
out(f"events+checkpoints: old {len(ka)}, new {len(kn)}")
if ka != kn:
    ndiff += 1
    out("--- DIFF in kinds/order:")
    report.extend("    " + line for line in difflib.unified_diff(ka, kn, "old", "new", lineterm="", n=3))
else:
    out("same kinds, same order")

# ---- simulator ----
out()
out("=" * 100)
out("SIMULATOR (old and new urne-simulate, same arguments)")
out("=" * 100)
sdiff = 0
eo, en = os.path.join(work, "exports"), os.path.join(work, "exports-new")
if not os.listdir(en):
    out("new urne-simulate missing: not compared")
    sdiff = -1
for dp, _, fns in os.walk(eo):
    for fn in sorted(fns):
        po = os.path.join(dp, fn)
        pn = os.path.join(en, os.path.relpath(po, eo))
        if not os.path.exists(pn):
            out(f"--- only old: {os.path.relpath(po, eo)}")
            sdiff += 1
        elif sha_file(po) != sha_file(pn):
            out(f"--- differs: {os.path.relpath(po, eo)}")
            sdiff += 1
if not sdiff:
    out("byte-identical exports, exit codes and messages")
ndiff += max(sdiff, 0)

# ---- cross: both binaries' read-only commands on the same outputs ----
out()
out("=" * 100)
out("CROSS (read-only commands of old and new on run A's outputs: verify, ticket show, proofs, audit)")
out("=" * 100)
xdiff = 0
def xstep(run, s, stream):
    p = os.path.join(work, run, "log", f"{s}.{stream}")
    return base_mask(run, read_text(p)) if os.path.exists(p) else "<missing>"
for s in sorted(set(steps("XO")) | set(steps("XN"))):
    parts = []
    ro, rn = xstep("XO", s, "rc").strip(), xstep("XN", s, "rc").strip()
    if ro != rn:
        parts.append(f"  exit code: old {ro}, new {rn}")
    for stream in ("out", "err"):
        a, n = xstep("XO", s, stream), xstep("XN", s, stream)
        if a != n:
            parts.append(f"  std{stream}:")
            parts += ["    " + line for line in udiff(a, n, s)]
    if parts:
        xdiff += 1
        out(f"--- DIFF cross {s}  (old exit {ro}, new exit {rn})")
        out("  $ " + xstep("XO", s, "cmd").strip())
        report.extend(parts)
        out()
for rel in ("audit.db", "tampered.db", "out/audit.jsonl"):
    po, pn = os.path.join(work, "XO", rel), os.path.join(work, "XN", rel)
    if os.path.exists(po) != os.path.exists(pn) or (os.path.exists(po) and sha_file(po) != sha_file(pn)):
        xdiff += 1
        out(f"--- cross file {rel}: differs between old and new (or exists in one only)")
n_x = len(steps("XO"))
if not xdiff:
    out(f"no difference in {n_x} read-only steps; audit databases and exports byte-identical")
ndiff += xdiff

# ---- calibration ----
out()
out("=" * 100)
out("CALIBRATION (old against old)")
out("=" * 100)
if flaky:
    out("old runs A and B differ with a different token structure (not masked; may give false differences):")
    for k in sorted(flaky):
        out(f"  {k}")
if auto:
    out("masked by position because the two old runs differ there (random in the old binary):")
    for k in sorted(auto):
        out(f"  {k}: {', '.join(auto[k])}")
if shape_only:
    out("random in the old binary and compared by shape only here (exactly in CROSS where they are read-only):")
    for k in sorted(shape_only):
        out(f"  {k}")
ra_b = [s for s in all_steps if rcs["A"].get(s) != rcs["B"].get(s)]
if ra_b:
    out("exit codes differing between the two old runs: " + ", ".join(ra_b))

out()
out(f"SUMMARY: {ndiff} difference(s) between old and new")
text = "\n".join(report) + "\n"
open(os.path.join(work, "report.txt"), "w").write(text)
print(text)
sys.exit(1 if ndiff else 0)
