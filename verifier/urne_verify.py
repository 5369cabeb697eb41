#!/usr/bin/env python3
"""urne_verify: an independent verifier for urne's outputs, written from SPEC.md alone.

    urne_verify.py DRAW_DIR   [--keys KEYDIR] [--export FILE.jsonl --producer-key PEM ...]
    urne_verify.py PROOF.json [--keys KEYDIR] [--published DRAW_DIR]
    urne_verify.py AUDIT.jsonl --keys KEYDIR [--checkpoint NOTE ...] [--strict]
    urne_verify.py BLOCK_DIR  [--keys KEYDIR]
    urne_verify.py VOID_NOTICE_DIR [--keys KEYDIR]
    urne_verify.py TICKET_PROOF.json [--keys KEYDIR] [--published BLOCK_DIR]

Exit codes (as `urne verify`): 0 everything holds; 1 verification failed (the message names the
first failing thing and its class, SPEC §8.1); 2 bad usage or unreadable input.
Requires Python 3.9+ and the `cryptography` package (Ed25519). Imports nothing from urne.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from vcore import Failure, Usage, load_pub_pem  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PRODUCER = os.path.join(HERE, "..", "tests", "fixtures", "keys", "test-producer.pub.pem")


def main(argv):
    ap = argparse.ArgumentParser(prog="urne_verify.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("path", help="a draw folder, a proof file, an audit export (.jsonl), a block folder, "
                                 "a void notice's folder, or a folder of such folders")
    ap.add_argument("--keys", help="folder with result.pub.pem and audit.pub.pem obtained independently "
                                   "(default: the ones inside PATH, which proves consistency, not origin)")
    ap.add_argument("--export", help="auditor mode: the signed export the draw was sealed from (.sig beside it)")
    ap.add_argument("--producer-key", action="append", default=[],
                    help="trusted producer key (PEM) for --export; repeatable (default: the TEST producer key)")
    ap.add_argument("--rules", help="rules file, when the draw folder has no rules.json (auditor mode)")
    ap.add_argument("--published", help="for a proof: the published draw folder whose commitment it must match")
    ap.add_argument("--checkpoint", action="append", default=[],
                    help="a checkpoint note you hold (e.g. from the minutes): for an audit export, or for outputs (§8.4)")
    ap.add_argument("--strict", action="store_true", help="for an audit export: fail if the last events are not checkpointed")
    try:
        a = ap.parse_args(argv)
    except SystemExit as e:
        return 0 if e.code == 0 else 2
    try:
        return run(a)
    except Failure as f:
        print(f"error: verification failed ({f.cls}): {f.what}", file=sys.stderr)
        print("hint: do not use these outputs; keep them as evidence", file=sys.stderr)
        return 1
    except Usage as u:
        print(f"error: {u}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


def keys(a, default_dir, names):
    d = a.keys or default_dir
    return [load_pub_pem(os.path.join(d, n)) for n in names]


def run(a):
    import vaudit
    import vdraw

    import vhistory

    path = a.path.rstrip("/") or "/"
    if os.path.isdir(path) and _is_output(path):
        outputs = []
        report, audit_pub = _verify_output(a, path, outputs)
        report += vhistory.check_linear(outputs, False)
        _check_held(a, audit_pub, outputs)
    elif os.path.isdir(path) and any(_is_output(os.path.join(path, n)) for n in os.listdir(path)):
        # §8.4: a folder of outputs (a whole operation's publications): one linear history.
        if a.export:
            raise Usage("--export checks one draw folder, not a folder of outputs")
        outputs, report, audit_pub = [], [], None
        for n in sorted(os.listdir(path)):
            sub = os.path.join(path, n)
            if os.path.isdir(sub) and _is_output(sub):
                lines, audit_pub = _verify_output(a, sub, outputs)
                report.append(f"ok  {sub}: {len(lines)} checks")
        vhistory.check_linear(outputs, True)
        _check_held(a, audit_pub, outputs)
        report.append(f"ok  one linear history: {len(outputs)} version-2 outputs of one trail")
    elif os.path.isfile(path) and path.endswith(".jsonl"):
        if not a.keys:
            raise Usage("an audit export needs --keys DIR (audit.pub.pem)")
        (audit_pub,) = keys(a, None, ["audit.pub.pem"])
        held = []
        for cp in a.checkpoint:
            with open(cp, "r", encoding="utf-8") as f:
                held.append((cp, f.read()))
        report = vaudit.verify_export(path, audit_pub, held, a.strict)
    elif os.path.isfile(path) and _is_ticket_proof(path):
        import vblock
        (result_pub,) = keys(a, os.path.dirname(path) or ".", ["result.pub.pem"])
        report = vblock.verify_ticket_proof(path, result_pub, a.published)
    elif os.path.isfile(path):
        (result_pub,) = keys(a, os.path.dirname(path) or ".", ["result.pub.pem"])
        report = vdraw.verify_proof(path, result_pub, a.published)
    else:
        raise Usage(f"{path} is neither a draw folder, a block folder, a void notice's folder, a proof file "
                    "nor an audit export")
    print(f"VERIFIED: {a.path}")
    for line in report:
        print("  " + line)
    return 0


def _is_output(path):
    import vvoid
    return os.path.isdir(path) and (os.path.isfile(os.path.join(path, "bundle.json")) or _is_block_dir(path)
                                    or vvoid.is_notice_folder(path))


def _verify_output(a, path, outputs):
    """One output folder: a draw or a block folder, and the void notice it holds (§4.6), if any."""
    import vblock
    import vdraw
    import vvoid
    result_pub, audit_pub = keys(a, path, ["result.pub.pem", "audit.pub.pem"])
    if os.path.isfile(os.path.join(path, "bundle.json")):
        producers = [load_pub_pem(p) for p in (a.producer_key or [DEFAULT_PRODUCER])] if a.export else []
        report = vdraw.verify_draw(path, result_pub, audit_pub, a.export, producers, a.rules, outputs)
    elif _is_block_dir(path):
        report = vblock.verify_blocks(path, result_pub, audit_pub, outputs)
    elif a.export:
        raise Usage(f"{path} is not a draw folder: --export checks a draw")
    else:
        report = []
    if vvoid.is_notice_folder(path):
        report += vvoid.verify_notice(path, result_pub, audit_pub, outputs)
    return report, audit_pub


def _check_held(a, audit_pub, outputs):
    """§8.4 --checkpoint for outputs."""
    import vaudit
    import vhistory
    if not a.checkpoint:
        return
    if not outputs:
        raise Usage("these outputs are version 1: check the checkpoint against the exported trail")
    for cp in a.checkpoint:
        with open(cp, "r", encoding="utf-8") as f:
            size, root = vaudit.parse_checkpoint(f.read(), audit_pub, cp)
        vhistory.check_held(outputs, cp, size, root)


def _is_block_dir(path):
    return any(n.endswith(".commit.json") for n in os.listdir(path))


def _is_ticket_proof(path):
    """Detection only (the file is verified, signature first, by vblock): a JSON object whose
    format is urne-ticket-proof."""
    import json
    try:
        with open(path, "rb") as f:
            return json.loads(f.read(1 << 20)).get("format") == "urne-ticket-proof"
    except (ValueError, AttributeError, UnicodeDecodeError):
        return False


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
