#!/usr/bin/env python3
"""verifier/test_ed25519.py: the Python verifier's strict Ed25519 check (vcore.ed25519_verify_strict,
spec/formats.md §1.4) on the edge vectors tests/vectors/ed25519-*.json ("Taming the many EdDSAs", a
Wycheproof selection). Each case's `expect` is what a strict verifier MUST return; urne-verify's
unit tests (crates/verify/src/crypto/ed25519/tests.rs) run the same files. Exit 0 when every case gives it.
"""
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from vcore import ed25519_verify_strict  # noqa: E402


def main(folder):
    paths = sorted(glob.glob(os.path.join(folder, "ed25519-*.json")))
    failed = total = 0
    for path in paths:
        with open(path) as f:
            cases = json.load(f)["cases"]
        for c in cases:
            total += 1
            got = ed25519_verify_strict(bytes.fromhex(c["public_key"]), bytes.fromhex(c["signature"]),
                                        bytes.fromhex(c["message"]))
            want = c["expect"] == "valid"
            if got != want:
                failed += 1
                print(f"  FAIL  {os.path.basename(path)} {c['id']}: {'accepted' if got else 'refused'}, "
                      f"expected {c['expect']}")
    if not paths or total == 0:
        print("test_ed25519.py: no ed25519-*.json vectors found")
        return 1
    print(f"test_ed25519.py: {total - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "tests", "vectors")))
