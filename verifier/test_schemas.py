#!/usr/bin/env python3
"""The published JSON Schemas (schemas/, draft 2020-12) against the strict reader's verdicts
(issue 27 item 1, spec/formats.md §4.1.1): production's export (entry-export-v1, written by hand).

- every schema is a valid draft 2020-12 schema;
- every line of every export in tests/vectors validates, unless its vector expects `malformed`
  (the export is then refused by the strict reader, maybe for a rule a schema cannot state):
  the schema is never stricter than the reader;
- lines the reader refuses for a rule the schema states (a member missing or of another type,
  an unknown record type, a value out of its grammar or range) do not validate: the schema is
  not looser than the reader on what it states;
- the exports urne-simulate writes validate (given with --export FILE…).

Usage: verifier/test_schemas.py [--export FILE]… [--outputs DIR]… [--verdicts FILE]   (exit 0 all passed, 1 a failure)
"""
import copy
import glob
import json
import os
import sys

from jsonschema import Draft202012Validator

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def schema(name):
    with open(os.path.join(ROOT, "schemas", name), encoding="utf-8") as f:
        s = json.load(f)
    Draft202012Validator.check_schema(s)
    return Draft202012Validator(s)


HEADER = schema("entry-export-v1.header.schema.json")
# The output and rules formats' schemas, by the `format` member a file states (keys.json and a
# draw's rules file have none: by name).
FORMATS = {"urne-draw-result": "result", "urne-draw-bundle": "bundle",
           "urne-inclusion-proof": "inclusion-proof", "urne-block-commitment": "block-commitment",
           "urne-block-reveal": "block-reveal", "urne-ticket-proof": "ticket-proof",
           "urne-manifest": "manifest", "urne-void-notice": "void-notice", "urne-sitting": "sitting",
           "urne-game-rules-v1": "game-rules"}
OUTPUTS = {n: schema(f"{n}.schema.json") for n in list(FORMATS.values()) + ["keys", "draw-rules"]}
# Members a file may lack (spec/formats.md §7.4: present under unofficial rules only).
OPTIONAL = {"result": {"unofficial_rules"}, "bundle": {"unofficial_rules"},
            "block-commitment": {"unofficial_rules"}, "block-reveal": {"unofficial_rules"},
            "draw-rules": {"clauses"}, "game-rules": {"notes"}}

# Vectors whose file is malformed on its own, though the verifier reports an earlier check's
# class: a version-1 reveal with version 2's `unofficial_rules` under a version-2 commitment is
# `inconsistent` first (the versions differ, spec/formats.md §5.B10).
MALFORMED_ALONE = {"block-tamper-inconsistent-reveal-version.json"}


def schema_of(path, doc):
    """The name of the schema a JSON file is checked against, or None when it is no urne format."""
    if not isinstance(doc, dict):
        return None
    if isinstance(doc.get("format"), str):
        return FORMATS.get(doc["format"])
    base = os.path.basename(path)
    if base == "keys.json":
        return "keys"
    if base == "rules.json" or "operation" in doc and "periods" in doc:
        return "draw-rules"
    return None
RECORD = schema("entry-export-v1.record.schema.json")


def export_errors(text, where):
    """Why the lines of one export do not validate (empty when they all do)."""
    errors = []
    for i, line in enumerate(text.split("\n")[:-1], start=1):
        v = HEADER if i == 1 else RECORD
        e = next(iter(v.iter_errors(json.loads(line))), None)
        if e is not None:
            errors.append(f"{where} line {i}: {e.message}")
    return errors


def vector_files(wanted):
    """(vector name, path in it, text) of every file of a vector not expecting `malformed` whose
    path `wanted` accepts."""
    for p in sorted(glob.glob(os.path.join(ROOT, "tests", "vectors", "*.json"))):
        with open(p, encoding="utf-8") as f:
            v = json.load(f)
        if not isinstance(v, dict) or "files" not in v or v.get("expect") == "malformed":
            continue
        for k, e in v["files"].items():
            if wanted(k) and "utf8" in e:
                yield os.path.basename(p), k, e["utf8"]


def main(argv):
    fails = []
    checked = lines = 0
    checked_outputs = {}
    bad_outputs = real = 0
    for name, k, text in vector_files(lambda k: os.path.basename(k).startswith("entries-") and k.endswith(".jsonl")):
        fails += export_errors(text, f"{name}: {k}")
        checked += 1
        lines += text.count("\n")
    if checked == 0:
        fails.append("no export among the vectors: nothing was checked")
    # Lines the strict reader refuses, each for one rule the schema states (spec/formats.md §4.1.1,
    # §4.1.2), made from a valid header and play.
    header = {"format": "draw-entries", "version": 1, "operation": "chanceux-noel-2018",
              "day": "2018-12-22", "producer": "0123456789abcdef",
              "generated_at": "2018-12-23T00:10:00Z", "status_as_of": "2018-12-23T00:00:00+01:00",
              "plays": 1, "exclusions": 0}
    play = {"type": "play", "id": "p-1", "account": "ab" * 32, "at": "2018-12-22T10:00:00.5+01:00",
            "stake_cents": 1000, "channel": "web", "game": "loto", "subscription": None}
    exclusion = {"type": "exclusion", "account": "cd" * 32, "reason": "self-excluded"}
    for v, good in [(HEADER, header), (RECORD, play), (RECORD, exclusion),
                    (RECORD, dict(play, subscription={"subscribed_at": "2018-11-01T00:00:00Z", "x": 1})),
                    (HEADER, dict(header, unknown="ignored")), (RECORD, dict(play, unknown=[1, {}]))]:
        e = next(iter(v.iter_errors(good)), None)
        if e is not None:
            fails.append(f"a valid line does not validate: {good}: {e.message}")
    bad = []
    for key in header:
        bad.append((HEADER, f"header without {key}", {k: x for k, x in header.items() if k != key}))
    for key, value in [("format", "entries"), ("version", 2), ("day", "2018-12-22T00:00:00Z"),
                       ("producer", "0123456789ABCDEF"), ("generated_at", "2018-12-23 00:10:00Z"),
                       ("status_as_of", "2018-12-23T00:00:60Z"), ("plays", -1), ("exclusions", "0"),
                       ("plays", 1.5)]:
        bad.append((HEADER, f"header {key} {value!r}", dict(header, **{key: value})))
    for key in play:
        bad.append((RECORD, f"play without {key}", {k: x for k, x in play.items() if k != key}))
    for key, value in [("type", "bet"), ("id", ""), ("id", "p" * 65), ("id", "p 1"), ("account", "AB" * 32),
                       ("account", "ab" * 31), ("at", "2018-12-22T24:00:00Z"), ("at", "2018-12-22T10:00:00"),
                       ("stake_cents", 0), ("stake_cents", 100000001), ("stake_cents", "1000"),
                       ("channel", "phone"), ("game", ""), ("game", "g" * 65), ("subscription", {}),
                       ("subscription", {"subscribed_at": "2018-11-01"}), ("subscription", "2018-11-01T00:00:00Z")]:
        bad.append((RECORD, f"play {key} {value!r}", dict(play, **{key: value})))
    for key in exclusion:
        bad.append((RECORD, f"exclusion without {key}", {k: x for k, x in exclusion.items() if k != key}))
    bad.append((RECORD, "exclusion reason 3", dict(exclusion, reason=3)))
    bad.append((RECORD, "a record that is not an object", ["play"]))
    for v, what, line in bad:
        if v.is_valid(line):
            fails.append(f"validates, though the strict reader refuses it: {what}")
    # The output formats' schemas, generated from urne-verify's types (crates/verify/src/schemas.rs):
    # every such file of a vector that is not malformed validates; one member more or less, or
    # the other version's number, does not.
    firsts = {}
    for name, k, text in vector_files(lambda k: k.endswith(".json")):
        try:
            doc = json.loads(text)
        except ValueError:
            continue
        fname = schema_of(k, doc)
        if fname is None or name in MALFORMED_ALONE:
            continue
        err = next(iter(OUTPUTS[fname].iter_errors(doc)), None)
        if err is not None:
            fails.append(f"{name}: {k} ({fname}): {err.message}")
            continue
        checked_outputs[fname] = checked_outputs.get(fname, 0) + 1
        firsts.setdefault((fname, doc.get("version")), doc)
    for fname in OUTPUTS:
        if fname not in checked_outputs:
            fails.append(f"no file for {fname} among the vectors: it was not checked")
    for (fname, version), doc in sorted(firsts.items(), key=lambda x: (x[0][0], str(x[0][1]))):
        v = OUTPUTS[fname]
        what = f"{fname} (version {version})"
        if v.is_valid(dict(doc, unknown=1)):
            fails.append(f"{what}: a file with an unknown member validates")
        for m in doc:
            if m in OPTIONAL.get(fname, ()):
                continue
            if v.is_valid({x: y for x, y in doc.items() if x != m}):
                fails.append(f"{what}: a file without {m} validates")
        if version in (1, 2) and v.is_valid(dict(doc, version=3 - version)):
            fails.append(f"{what}: the file as the other version validates")
        bad_outputs += 2 + len(doc)
    outputs = [a for i, a in enumerate(argv) if i > 0 and argv[i - 1] == "--outputs"]
    for d in outputs:
        n = 0
        paths = [d] if os.path.isfile(d) else glob.glob(os.path.join(d, "**", "*.json"), recursive=True)
        for path in sorted(paths):
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
            fname = schema_of(path, doc)
            if fname is None:
                fails.append(f"{path}: no published schema says what this file is")
                continue
            err = next(iter(OUTPUTS[fname].iter_errors(doc)), None)
            if err is not None:
                fails.append(f"{path} ({fname}): {err.message}")
            n += 1
        if n == 0:
            fails.append(f"{d}: no output file to check")
        real += n
    # The export fuzz corpus, with the strict reader's verdict on each file
    # (urne-fuzz-export-verdicts): every line of an export it accepts validates.
    corpus_accepted = corpus_refused_too = 0
    for vpath in [a for i, a in enumerate(argv) if i > 0 and argv[i - 1] == "--verdicts"]:
        corpus = os.path.join(ROOT, "fuzz", "corpus", "export")
        with open(vpath, encoding="utf-8") as f:
            verdicts = [json.loads(line) for line in f]
        if not verdicts:
            fails.append(f"{vpath}: no verdict")
        for verdict in verdicts:
            with open(os.path.join(corpus, verdict["file"]), "rb") as f:
                data = f.read()
            try:
                errors = export_errors(data.decode("utf-8"), f"corpus {verdict['file']}")
            except (UnicodeDecodeError, ValueError) as e:
                errors = [f"corpus {verdict['file']}: {e}"]
            if verdict["accepted"]:
                corpus_accepted += 1
                fails += errors
            elif errors:
                corpus_refused_too += 1
    exports = [a for i, a in enumerate(argv) if i > 0 and argv[i - 1] == "--export"]
    for path in exports:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        fails += export_errors(text, path)
        lines += text.count("\n")
    for f in fails:
        print(f"  FAIL  {f}")
    print(f"schemas: {checked} vector exports and {len(exports)} simulated ones ({lines} lines) validate; "
          f"{len(bad)} refused lines do not; vector output files valid: {checked_outputs}; "
          f"{bad_outputs} altered ones do not; {real} real output files valid; fuzz corpus: "
          f"{corpus_accepted} accepted exports validate, {corpus_refused_too} refused ones do not; "
          f"{len(fails)} failure(s)")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
