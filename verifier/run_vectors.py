#!/usr/bin/env python3
"""Run every vector of tests/vectors/ against the Python verifier (schema: tests/vectors/README.md).
Exit 0 when every vector gives exactly what it declares."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import vcore  # noqa: E402


def run_drbg(v):
    bad = 0
    for t in v["vectors"]:
        d = vcore.HmacDrbg(bytes.fromhex(t["entropy_input"]), bytes.fromhex(t["nonce"]),
                           bytes.fromhex(t["personalization_string"]))
        d.generate(len(t["returned_bits"]) // 2)
        bad += d.generate(len(t["returned_bits"]) // 2).hex() != t["returned_bits"]
    return bad == 0, f"{len(v['vectors']) - bad}/{len(v['vectors'])} CAVP vectors"


def materialize(files, root):
    for rel, content in files.items():
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        data = content["utf8"].encode("utf-8") if "utf8" in content else bytes.fromhex(content["hex"])
        with open(p, "wb") as f:
            f.write(data)


def cli_args(a):
    """The vector's `args` object as a command line (the same for urne verify / urne_verify.py)."""
    out = [a["path"]]
    if "keys" in a:
        out += ["--keys", a["keys"]]
    if "export" in a:
        out += ["--export", a["export"]]
    for k in a.get("producer_keys", []):
        out += ["--producer-key", k]
    if "published" in a:
        out += ["--published", a["published"]]
    for c in a.get("checkpoints", []):
        out += ["--checkpoint", c]
    if a.get("strict"):
        out.append("--strict")
    return out


def run_case(v, urne=None):
    cmd = [urne, "verify"] if urne else [sys.executable, os.path.join(HERE, "urne_verify.py")]
    with tempfile.TemporaryDirectory() as root:
        materialize(v["files"], root)
        p = subprocess.run(cmd + cli_args(v["args"]), cwd=root, capture_output=True, text=True,
                           env=dict(os.environ, URNE_DB=os.path.join(root, "unused.db")))
    want = v["expect"]
    if want == "valid":
        return p.returncode == 0, p.stderr.strip() or "valid"
    ok = p.returncode == 1 and f"({want})" in p.stderr
    return ok, p.stderr.strip().split("\n")[0] or f"exit {p.returncode}"


def main(folder, urne=None):
    failed = 0
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(folder, name)) as f:
            v = json.load(f)
        if name.startswith("hmac-drbg") and not urne:
            ok, msg = run_drbg(v)
        elif name.startswith("draw-") or (name.startswith("audit-") and not urne):
            ok, msg = run_case(v, urne)
        else:
            continue
        failed += not ok
        print(f"  {'ok  ' if ok else 'FAIL'}  {name}: {'expects ' + v.get('expect', '') + ', ' if 'expect' in v else ''}{msg}")
    return 1 if failed else 0


if __name__ == "__main__":
    # run_vectors.py [DIR] [--urne BIN]: with --urne, run `BIN verify` on the draw-* vectors instead
    # (audit-* vectors verify an exported trail, which `urne audit verify` does not read).
    args = sys.argv[1:]
    urne = None
    if "--urne" in args:
        i = args.index("--urne")
        urne = os.path.abspath(args[i + 1])
        del args[i:i + 2]
    sys.exit(main(args[0] if args else os.path.join(HERE, "..", "tests", "vectors"), urne))
