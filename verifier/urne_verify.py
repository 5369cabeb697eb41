#!/usr/bin/env python3
"""urne_verify: an independent verifier for urne's outputs, written from SPEC.md alone.

    urne_verify.py DRAW_DIR    --keys KEYDIR [--expect-day D]                  # public mode
    urne_verify.py DRAW_DIR    --keys KEYDIR --export FILE.jsonl --producer-key PEM [...]  # auditor mode
    urne_verify.py result.json --keys KEYDIR [--expect-day D]                  # a lone result (production)
    urne_verify.py PROOF.json  --keys KEYDIR [--published DRAW_DIR]            # --published required without PROOF.json.sig
    urne_verify.py PROOFS.jsonl --keys KEYDIR --published DRAW_DIR             # every proof of a day (urne proof --all)
    urne_verify.py AUDIT.jsonl [--keys KEYDIR] [--checkpoint NOTE ...] [--strict]  # neither: exit 8, UNANCHORED
    urne_verify.py BLOCK_DIR   --keys KEYDIR [--expect-block ID]
    urne_verify.py S.commit.json --keys KEYDIR [--expect-block ID]             # a lone block commitment
    urne_verify.py VOID_NOTICE_DIR --keys KEYDIR
    urne_verify.py SITTING_DIR --keys KEYDIR                                   # a sitting's output (minutes)
    urne_verify.py TICKET_PROOF.json --keys KEYDIR [--published BLOCK_DIR]
    urne_verify.py OUTPUTS_DIR --keys KEYDIR [--checkpoint NOTE ...]           # a folder of outputs

With --release SHA256SUMS --release-key PEM (repeatable), each output's software is judged against the
releases given (spec/formats.md §8.8): exit 9 when one is not the released bin/urne of its source revision.

Exit codes (as `urne verify`): 0 everything checked holds (lines starting `partial: ` on standard
output name what could not be checked from the files given); 1 verification failed (`error:
verification failed (<class>): <first failing thing>`, spec/formats.md §8.1); 2 bad usage or an unreadable
path (`error: ...` then `hint: ...`); 8 an audit export verified without --keys or --checkpoint:
consistent with itself only, said on the first line (`UNANCHORED: ...`). The first line of
standard output names what was verified.
Requires Python 3.9+ and the `cryptography` package (Ed25519). Imports nothing from urne.
"""
import argparse
import re
import json
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import vcore  # noqa: E402
from vcore import Failure, Usage, check_file, given, listdir, load_pub_pem, printable, read_bounded  # noqa: E402


class _Parser(argparse.ArgumentParser):
    """argparse, with its usage errors in this tool's form (`error:`, `hint:`, exit 2)."""

    def error(self, message):
        raise Usage(message, "see urne_verify.py --help")


def _parser():
    ap = _Parser(prog="urne_verify.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("path", help="a draw folder, a result.json, a proof file, an audit export (.jsonl), a block "
                                 "folder, an S.commit.json, a void notice's folder, a sitting's folder, or a folder "
                                 "of such folders")
    ap.add_argument("--keys", help="folder with result.pub.pem and audit.pub.pem obtained independently "
                                   "(default: the ones inside PATH, which proves consistency, not origin)")
    ap.add_argument("--export", help="auditor mode: the signed export the draw was sealed from (.sig beside it)")
    ap.add_argument("--producer-key", action="append", default=[],
                    help="trusted producer key (PEM) for --export; repeatable; required with --export")
    ap.add_argument("--rules", help="rules file, when the draw folder has no rules.json (auditor mode)")
    ap.add_argument("--published", help="for a proof: the published draw (or block) folder it must match")
    ap.add_argument("--checkpoint", action="append", default=[],
                    help="a checkpoint note you hold (e.g. from the minutes): for an audit export, or for outputs (§8.4)")
    ap.add_argument("--strict", action="store_true", help="for an audit export: fail if the last events are not checkpointed")
    ap.add_argument("--expect-day", metavar="D", help="the output must be the draw of day D (YYYY-MM-DD): folder "
                                                      "names are not signed; another day is a failure")
    ap.add_argument("--expect-block", metavar="ID", help="the folder must hold block ID (its canonical id); a "
                                                         "commitment of another block alone is a failure")
    ap.add_argument("--release", action="append", default=[], metavar="SHA256SUMS",
                    help="a release's signed manifest (SHA256SUMS.sig beside it; repeatable): each output's software "
                         "must be the released bin/urne of its source revision, else exit 9 (spec/formats.md §8.8)")
    ap.add_argument("--release-key", action="append", default=[], metavar="PEM",
                    help="the release key the manifests are signed with (repeatable; required with --release)")
    return ap


def main(argv):
    import vrelease
    try:
        a = _parser().parse_args(argv)
        a.about = []
        a.releases = vrelease.given(a, a.keys)             # spec/formats.md §8.8: checked before anything is verified
        title, report = run(a)
        if a.releases is not None:
            released, not_released = vrelease.lines(a.path.rstrip("/") or "/", a.releases, a.about)
    except SystemExit as e:                                  # --help
        return 0 if e.code == 0 else 2
    except vrelease.Refused as r:                            # exit 2, nothing verified (M-412)
        _err(printable(f"error: {r}"), f"hint: {vrelease.REFUSED_HINT}")
        return 2
    except Failure as f:
        _err(printable(f"error: verification failed ({f.cls}): {f.what}"),
             "hint: these are a rehearsal's outputs (RÉPÉTITION — SANS VALEUR, spec/formats.md §6.10): never publish, "
             "import or pay them as results" if f.cls == "rehearsal" else
             "hint: do not use these outputs; keep them as evidence")
        return 1
    except Usage as u:
        _err(printable(f"error: {u}"), f"hint: {u.hint or 'see urne_verify.py --help'}")
        return 2
    except OSError as e:                                     # an unreadable path: I/O error, permission
        where = f"{e.filename}: " if e.filename else ""
        _err(printable(f"error: cannot read {where}{e.strerror or e}"), "hint: check that the path exists and is readable")
        return 2
    except Exception as e:                                   # a bug here says nothing about the outputs
        _err(*traceback.format_exc().rstrip("\n").split("\n"))
        _err(f"error: internal error in verifier/ ({type(e).__name__}): this is not a verdict on the outputs",
             "hint: report it with the folder that caused it")
        return 2
    # Every line printed is one line: names from the folders verified are escaped (printable).
    report = [printable(line) for line in report]
    _err(*[line for line in report if line.startswith("note: ")])
    if isinstance(title, Unanchored):          # exit 8: consistent with itself only (spec/formats.md §6.4)
        lines = [printable(f"UNANCHORED: {title.what} is consistent with itself only: {UNANCHORED}")]
        lines += ["  " + line for line in report if not line.startswith(("partial: ", "note: "))]
        code = _write(lines)
        return code or 8
    # The first line says when any output verified was made under unofficial rules (spec/formats.md §7.4, §8.1).
    mark, title = title if isinstance(title, tuple) else (": ", title)
    titles = [t if isinstance(t, tuple) else ("VERIFIED", t) for t in (title if isinstance(title, list) else [title])]
    lines = [printable(f"{word}{mark if i == 0 else ': '}{t}") for i, (word, t) in enumerate(titles)]
    lines += ["  " + line for line in report if not line.startswith(("partial: ", "note: "))]
    lines += [line for line in report if line.startswith("partial: ")]
    if a.releases is None:
        return _write(lines)
    # spec/formats.md §8.8: the release: and software: lines, then exit 9 when one is not released.
    code = _write(lines + [printable(line) for line in released])
    if code or not_released is None:
        return code
    _err(printable(f"error: software not released: {not_released}"), f"hint: {vrelease.NOT_RELEASED_HINT}")
    return 9


class Unanchored:
    """The title of an audit export verified against the key it records itself (exit 8)."""

    def __init__(self, what):
        self.what = what


UNANCHORED = ("its checkpoints verify under the audit key it records, which a trail rewritten end to end under "
              "another key would pass too; give the audit key exported at the key ceremony (--keys "
              "DIR holding audit.pub.pem) or a checkpoint held outside (--checkpoint)")


def _err(*lines):
    """Lines on standard error, if it is open at all (a closed stderr is no reason to fail)."""
    if sys.stderr is None:
        return
    try:
        sys.stderr.write("".join(line + "\n" for line in lines))
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _write(lines):
    """The report on standard output. A closed or full standard output (`| true` that has
    exited, `>/dev/full`) is exit 2 with a message, never a traceback."""
    try:
        if sys.stdout is None:
            raise OSError("standard output is closed")
        sys.stdout.write("".join(line + "\n" for line in lines))
        sys.stdout.flush()
        return 0
    except (OSError, ValueError) as e:
        try:                     # so that the interpreter's last flush has nowhere to fail
            fd = os.open(os.devnull, os.O_WRONLY)
            os.dup2(fd, 1)
            os.close(fd)
        except OSError:
            pass
        _err(f"error: cannot write to standard output: {getattr(e, 'strerror', None) or e}",
             "hint: the verification ran; run it again with standard output to a terminal or a file")
        return 2


def keys(a, default_dir, names):
    d = a.keys or default_dir
    return [load_pub_pem(os.path.join(d, n)) for n in names]


# Without --keys, the keys are the folder's own: they show consistency, not origin (spec/formats.md §8.1).
KEYS_FROM_FOLDER = ("partial: the public keys were taken from the folder verified: they show the files agree with each "
                    "other, not that this appliance made them (give --keys DIR, obtained independently)")
STAGING = ".urne-staging-"


def _keys_partial(a):
    return [] if a.keys else [KEYS_FROM_FOLDER]


def run(a):
    """Verify a.path; returns (what was verified, report lines)."""
    import vaudit
    import vhistory

    if a.keys is not None and not a.keys:
        raise Usage("--keys names no folder", "give the folder holding the public keys exported at the key ceremony")
    if a.export and not a.producer_key:
        raise Usage("auditor mode (--export) needs the producer's public key: --producer-key PEM",
                    "obtain production's export-signing public key independently and give it with --producer-key")
    if a.expect_day and a.expect_block:
        raise Usage("--expect-day and --expect-block together: an output is a day's or a block's",
                    "give the one that names the output you verify")
    # spec/formats.md §8.1: what is expected is a day and a canonical block id, checked before anything is read.
    if a.expect_day is not None and not _is_date(a.expect_day):
        raise Usage(f"--expect-day {a.expect_day!r} is not a calendar date YYYY-MM-DD", "give the day of the draw")
    if a.expect_block is not None:
        import vblock
        try:
            vblock.parse_block_id(a.expect_block, "--expect-block")
        except Failure as e:
            raise Usage(e.what,
                        "give the block's canonical id, game/price_cents/emission/number")
    path = a.path.rstrip("/") or "/"
    about = a.about
    if not os.path.exists(path):
        raise Usage(f"{path}: no such file or folder", "give a draw or block folder, an output file or an audit export")
    # spec/formats.md §1.6: the paths given (this one, --checkpoint, --producer-key, --rules, --export) are read
    # through any link in them; nothing found in a folder (a file, a subfolder) is followed.
    given(path)
    if os.path.isdir(path) and _is_output(path):
        outputs = []
        report, audit_pub = _verify_output(a, path, outputs, about, path)
        report += vhistory.check_linear(outputs, False)
        _check_held(a, audit_pub, outputs)
        _check_expected(a, about)
        import vsitting
        return _titles(about, path), report + vsitting.alone_notes(outputs) + _keys_partial(a)
    if os.path.isdir(path):
        subs, said = _outputs_of(path)
        if not subs:
            raise Usage(f"{path} holds no urne outputs", "give a draw folder, a block folder, a void notice's folder, "
                        "a sitting's folder, a folder of such folders, a result.json, an S.commit.json, a proof or an audit export")
        # spec/formats.md §8.4: a folder of outputs (a whole operation's publications): one linear history.
        if a.export or a.expect_day or a.expect_block:
            raise Usage("--export, --expect-day and --expect-block check one output, not a folder of outputs",
                        "give the output's own folder")
        # The keys are the top folder's (--keys, or its own PEMs), never each subfolder's.
        outputs, report, audit_pub = [], list(said), None
        for sub in subs:
            mine = []
            lines, audit_pub = _verify_output(a, sub, outputs, mine, path)
            about += mine
            report.append(f"ok  {sub}: {_describe(mine)}: {len(lines)} checks")
            report += [line for line in lines if line.startswith(("partial: ", "note: "))]
        import vsitting
        vsitting.check_listed(outputs)     # spec/formats.md §9.4: every output a sitting lists is among them
        vhistory.check_linear(outputs, True)
        _check_held(a, audit_pub, outputs)
        report.append(f"ok  one linear history: {len(vhistory.chain(outputs))} version-2 outputs of one trail")
        return _titles(about, path, whole=True), report + _keys_partial(a)

    # A file. Judged from its metadata before it is opened (a FIFO is never opened).
    name = os.path.basename(path)
    folder = os.path.dirname(path) or "."
    # A .jsonl is the file of every proof of a day or an exported trail, by its first line (only a
    # regular file is opened to read it: a FIFO is never waited on); each has its own limit.
    kind = "json"
    if name.endswith(".jsonl"):
        kind = "proofs" if os.path.isfile(path) and _is_proofs_file(path) else "audit-export"
    check_file(path, kind)
    if kind == "proofs":
        # spec/formats.md §4.8.1, §8.3: the file of every proof of a day, by its first line's format.
        if a.expect_day or a.expect_block:
            raise Usage("--expect-day and --expect-block check an output, not a proof", "leave them out")
        import vdraw
        (result_pub,) = keys(a, a.published or folder, ["result.pub.pem"])
        report = vdraw.verify_proofs_file(path, result_pub, a.published, about)
        return _titles(about, path), report + _keys_partial(a)
    if name.endswith(".jsonl"):
        if a.expect_day or a.expect_block:
            raise Usage("--expect-day and --expect-block are for outputs, not an audit export", "leave them out")
        if a.keys:
            (audit_pub,) = keys(a, None, ["audit.pub.pem"])
        else:                                  # spec/formats.md §6.4: the key the trail records
            audit_pub = None
        held = [(cp, _note(cp)) for cp in a.checkpoint]
        counted, started = [], []
        report = vaudit.verify_export(path, audit_pub, held, a.strict, counted, started)
        about.append({"kind": "trail", "events": counted[0], "started": started})      # spec/formats.md §8.8
        what = f"the audit trail of {counted[0]} events in {path}"     # spec/formats.md §8.1 [M-319]
        if audit_pub is None and not held:     # spec/formats.md §6.4 [M-271]: nothing outside the file anchors it
            return Unanchored(what), report
        return what, report
    if a.export:
        raise Usage("--export checks a draw folder (with its bundle.json)", "give the draw's folder")
    if name == "bundle.json":
        raise Usage("bundle.json is one file of a draw folder", f"verify the folder: urne_verify.py {folder}")
    if name == "result.json" or name.endswith(".commit.json"):
        result_pub, audit_pub = keys(a, folder, ["result.pub.pem", "audit.pub.pem"])
        outputs = []
        if name == "result.json":
            import vdraw
            report = vdraw.verify_lone_result(folder, result_pub, audit_pub, a.rules, about, outputs)
        else:
            import vblock
            report = vblock.verify_lone_commit(folder, name[:-len(".commit.json")], result_pub, audit_pub, outputs, about)
        report += vhistory.check_linear(outputs, False)
        _check_held(a, audit_pub, outputs)
        _check_expected(a, about)
        return _titles(about, path), report + _keys_partial(a)
    if a.expect_day or a.expect_block:        # spec/formats.md §8.1: they check one output, not a proof
        raise Usage("--expect-day and --expect-block check an output, not a proof", "leave them out")
    (result_pub,) = keys(a, a.published or folder, ["result.pub.pem"])
    if _is_ticket_proof(path):
        import vblock
        report = vblock.verify_ticket_proof(path, result_pub, a.published, about)
    else:
        import vdraw
        report = vdraw.verify_proof(path, result_pub, a.published, about)
    _check_expected(a, about)
    if not a.published:
        report.append("partial: the proof's commitment was not compared with the published output (give --published DIR)")
    return _titles(about, path), report + _keys_partial(a)


def _is_output(path):
    import vblock
    import vsitting
    import vvoid
    e = lambda n: os.path.lexists(os.path.join(path, n))     # a link counts: reading it refuses it
    return os.path.isdir(path) and (e("bundle.json") or e("result.json") or vblock.is_block_folder(path)
                                    or vvoid.is_notice_folder(path) or vsitting.is_sitting_folder(path)
                                    or e("keys.json"))


def _outputs_of(path):
    """The output subfolders of a folder of outputs (spec/formats.md §8.4), and what is said of the others: a
    staging folder (`.urne-staging-*`, spec/appliance.md §4.7) is a note, and a partial: line when it holds an
    output's files; a subfolder with signed files but no output's primary file, a partial: line.
    A name that is not UTF-8 is refused (listdir). A symbolic link (to a folder or to anything)
    is never followed, and is `malformed` (spec/formats.md §1.6): where an output folder is expected, it could
    hide one (a fork's second draw)."""
    subs, said = [], []
    for n in listdir(path):
        s = os.path.join(path, n)
        if os.path.islink(s):
            raise Failure("malformed", f"{s} is a symbolic link: a folder of outputs holds none (one could hide an "
                                       "output), it is not followed")
        if not os.path.isdir(s):
            if n.lower().endswith(".jsonl") and os.path.isfile(s):    # an exported audit trail: verified on its own (§6.4)
                said.append(f"note: {s} is an exported audit trail: it is not one of the outputs and is not checked "
                            f"with them; verify it on its own (urne-verify {s} --keys KEYS)")
            continue
        if n.startswith(STAGING):
            said.append(f"note: {s} is the staging folder of an interrupted command: its files are not outputs and "
                        "are not checked")
            if _is_output(s):
                said.append(f"partial: {s} holds an output's files under a staging name: not verified")
        elif _is_output(s):
            subs.append(s)
        elif any(m.endswith(".sig") for m in listdir(s)):
            said.append(f"partial: {s} holds signed files but no output's primary file (bundle.json, result.json, a "
                        "block commitment, a void notice, sitting.json, keys.json): not verified")
    return subs, said


def _verify_output(a, path, outputs, about, key_dir):
    """One output folder: every kind of output it holds, never one alone: a draw (or a lone
    result.json), the block commitments, the void notice (spec/appliance.md §4.6) and the sitting (spec/formats.md §9.4). The keys
    are --keys or key_dir's."""
    import vblock
    import vdraw
    import vsitting
    import vkeys
    import vvoid
    result_pub, audit_pub = keys(a, key_dir, ["result.pub.pem", "audit.pub.pem"])
    if vdraw.present(path, "bundle.json"):
        producers = [load_pub_pem(p, follow=True) for p in a.producer_key] if a.export else []
        report = vdraw.verify_draw(path, result_pub, audit_pub, a.export, producers, a.rules, outputs, about)
    elif a.export:
        raise Usage(f"{path} is not a draw folder (no bundle.json): --export checks a draw", "give the draw's folder")
    elif vdraw.present(path, "result.json"):
        report = vdraw.verify_lone_result(path, result_pub, audit_pub, a.rules, about, outputs)
    else:
        report = []
    if vblock.is_block_folder(path):
        report += vblock.verify_blocks(path, result_pub, audit_pub, outputs, about)
    if vvoid.is_notice_folder(path):
        report += vvoid.verify_notice(path, result_pub, audit_pub, outputs, about)
    if vsitting.is_sitting_folder(path):
        report += vsitting.verify_sitting(path, result_pub, audit_pub, outputs, about)
    if vkeys.is_key_export(path):
        report += vkeys.verify_keys(path, result_pub, audit_pub, about)
    return report, audit_pub


def _note(path):
    """A checkpoint note held outside the appliance (at most 4096 bytes): the user's own input, so
    a FIFO, a device or a larger file is a usage mistake (spec/formats.md §1.6); bytes that are not UTF-8
    cannot be a note the audit key signed (bad-signature, M-206, as urne)."""
    try:
        data = read_bounded(path, "note", follow=True)
    except Failure as f:
        raise Usage(f"{path}: {f}", "give the checkpoint note as urne wrote it (a regular file of at most 4096 bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise Failure("bad-signature", f"{path}: not a checkpoint note the audit key signed (not UTF-8)")


def _check_held(a, audit_pub, outputs):
    """spec/formats.md §8.4 --checkpoint for outputs."""
    import vaudit
    import vhistory
    if not a.checkpoint:
        return
    if not vhistory.chain(outputs):
        raise Usage("no output here carries a history to hold the checkpoint against (version 1, or a lone "
                    "result.json)", "check it against the exported trail: urne_verify.py AUDIT.jsonl --keys DIR "
                    "--checkpoint NOTE")
    for cp in a.checkpoint:
        text = _note(cp)     # spec/formats.md §1.6: not a regular file (a FIFO), or too large: a usage mistake, exit 2, as urne
        size, root = vaudit.verify_checkpoint(text, audit_pub, cp)     # [M-206]: MUST verify under the audit key
        vhistory.check_held(outputs, cp, size, root)


ALONE = (" (alone: a void notice published later would cancel it; only the whole publications medium, verified as "
         "one folder of outputs, sees voids)")


def _titles(about, path, whole=False):
    """spec/formats.md §8.1: one first line per output verified, `(word, <what> in <path>)`, with the words the
    first says after its word (spec/formats.md §7.4: unofficial rules named). A draw or a block commitment that a
    void notice among the outputs voids is `VOIDED`, never `VERIFIED`; verified on its own (not `whole`, a folder
    of outputs), one no void notice voids says that a later one would cancel it (M-398)."""
    import vofficial
    voids = {("day" if x["day"] is not None else "block", x["day"] if x["day"] is not None else x["block"], x["attempt"])
             for x in about if x["kind"] == "void"}
    titles = []
    for x in about:
        d = _describe_one(x)
        if d is None:
            continue
        key = (("day", x["day"], x["attempt"]) if x["kind"] == "draw"
               else ("block", x["block"], x["attempt"]) if x["kind"] == "block" else None)
        if key is not None and key in voids:
            titles.append(("VOIDED", f"{d} in {path}: the void notice of {key[0]} {key[1]} attempt {key[2]} (version 2) "
                                     "announces its void; it is not the result"))
        elif key is not None and not whole:
            titles.append(("VERIFIED", f"{d} in {path}{ALONE}"))
        elif x.get("standing"):                # spec/formats.md §8.1 [M-402]: a proof against the published draw
            titles.append(("VERIFIED", f"{d} in {path}: {x['standing']}"))
        else:
            titles.append(("VERIFIED", f"{d} in {path}"))
    return vofficial.first_mark(about), titles or [f"nothing in {path}"]


def _describe(about):
    """What was verified, in words."""
    return ", ".join(_describe_list(about)) or "nothing"


def _describe_list(about):
    """Each output verified, in words (the first lines of standard output)."""
    return [d for d in map(_describe_one, about) if d is not None]


def _describe_one(x):
    """One output verified, in words; None for what is not an output."""
    k = x["kind"]
    if k == "draw":
        return f"the draw of {x['operation']} day {x['day']} attempt {x['attempt']} (version {x['version']})"
    if k == "block":
        return f"block {x['block']} attempt {x['attempt']} (version {x['version']})"
    if k == "void":
        what = f"day {x['day']}" if x["day"] is not None else f"block {x['block']}"
        return f"the void notice of {what} attempt {x['attempt']} (version 2)"
    if k == "sitting":
        return f"sitting {x['number']} ({x['sitting_kind']}, version {x['version']})"
    if k == "proof":
        return (f"the inclusion proof of leaf {x['leaf']} in the draw of {x['operation']} day {x['day']} "
                f"attempt {x['attempt']}")
    if k == "proofs":
        return (f"{x['count']} inclusion proof{'' if x['count'] == 1 else 's'} in the draw of {x['operation']} "
                f"day {x['day']} attempt {x['attempt']}")
    if k == "ticket-proof":
        return f"the ticket proof of position {x['position']} of block {x['block']}"
    if k == "keys":
        return f"the key export of result key {x['result']} and audit key {x['audit']}"
    return None


def _is_date(s):
    """`YYYY-MM-DD` naming a calendar date (spec/formats.md §6.2)."""
    import datetime
    if not re.fullmatch(r"\d{4}-\d\d-\d\d", s):
        return False
    try:
        datetime.date(int(s[:4]), int(s[5:7]), int(s[8:]))
    except ValueError:
        return False
    return True


def _check_expected(a, about):
    """--expect-day / --expect-block: folder names are not signed, so the user says which output
    they mean; an output of another day or block is `inconsistent`."""
    if a.expect_day:
        for x in about:
            if x.get("day") != a.expect_day:
                raise Failure("inconsistent", f"this is {_describe([x])}, not the draw of day {a.expect_day} "
                                              "(--expect-day)")
        if not about:
            raise Failure("inconsistent", f"nothing here is the draw of day {a.expect_day} (--expect-day)")
    if a.expect_block:
        for x in about:
            if x.get("block") != a.expect_block:
                raise Failure("inconsistent", f"this is {_describe([x])}, not block {a.expect_block} (--expect-block)")
        if not about:
            raise Failure("inconsistent", f"nothing here is block {a.expect_block} (--expect-block)")


def _is_proofs_file(path):
    """Detection only (spec/formats.md §8.3 [M-401]): a `.jsonl` whose first line (within one JSON output's
    size) is a JSON object whose format is urne-inclusion-proof; any other is an exported trail."""
    try:
        with open(path, "rb") as f:
            first = f.readline(vcore.LIMITS["json"] + 1)
        return json.loads(first).get("format") == "urne-inclusion-proof"
    except (OSError, ValueError, AttributeError, UnicodeDecodeError, RecursionError):
        return False


def _is_ticket_proof(path):
    """Detection only (the file is verified, signature first, by vblock): a JSON object whose
    format is urne-ticket-proof."""
    try:
        return json.loads(read_bounded(path, "json")).get("format") == "urne-ticket-proof"
    except (ValueError, AttributeError, UnicodeDecodeError, RecursionError):
        return False


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
