#!/usr/bin/env python3
"""verifier/web/build.py: assembles the player's page verifier/web/urne-check.html from
verifier/web/src/ (page.html, style.css, check.js) and the vectors of tests/vectors/, and writes
its Content-Security-Policy with the SHA-256 of the one inline script and the one inline style.

    python3 verifier/web/build.py            # writes verifier/web/urne-check.html
    python3 verifier/web/build.py --check    # exit 1 if the committed page is not what the build gives
    python3 verifier/web/build.py --out F [--break-self-test]   # a test build (a wrong vector injected)

Standard library only. The page embeds, for its self-test at load: every case of
tests/vectors/ed25519-*.json, the negative cases below (the identity-key forgery that
Chromium's WebCrypto accepts among them), and computations of tests/vectors/block-small.json and
draw-valid-public.json (tagged hashes, a Merkle inclusion, ticket rows recomputed from the grid key).
"""
import base64
import glob
import hashlib
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
VECTORS = os.path.join(ROOT, "tests", "vectors")
PAGE = os.path.join(HERE, "urne-check.html")
README = os.path.join(ROOT, "README.md")
README_LINE = re.compile(r"^( +SHA-256 of verifier/web/urne-check\.html: )(\S+)$", re.M)
L = 2**252 + 27742317777372353535851937790883648493
P = 2**255 - 19


def negative_cases(valid):
    """Cases every strict verifier refuses (spec/formats.md §1.4), made from `valid` (a valid case)."""
    pub, sig, msg = valid["public_key"], valid["signature"], valid["message"]
    ident = "01" + "00" * 31
    s = int.from_bytes(bytes.fromhex(sig[64:]), "little")
    flipped_msg = (bytes.fromhex(msg) or b"\x00")
    flipped_msg = bytes([flipped_msg[0] ^ 1]) + flipped_msg[1:]
    return [
        {"id": "negative-identity-forgery", "message": b"urne: identity-key forgery".hex(), "public_key": ident,
         "signature": ident + "00" * 32, "expect": "invalid",
         "why": "A = identity, R = identity, S = 0: accepted by Chromium's WebCrypto, Node and OpenSSL for every "
                "message; refused because A (and R) are of small order"},
        {"id": "negative-identity-forgery-empty-message", "message": "", "public_key": ident,
         "signature": ident + "00" * 32, "expect": "invalid", "why": "the same forgery over the empty message"},
        {"id": "negative-s-plus-l", "message": msg, "public_key": pub,
         "signature": sig[:64] + (s + L).to_bytes(32, "little").hex(), "expect": "invalid",
         "why": f"{valid['id']} with S + L in place of S: non-canonical S (S >= L)"},
        {"id": "negative-small-order-r", "message": msg, "public_key": pub, "signature": ident + "00" * 32,
         "expect": "invalid", "why": "R = identity (small order), S = 0, under a genuine key"},
        {"id": "negative-a-not-canonical", "message": msg, "public_key": (P).to_bytes(32, "little").hex(),
         "signature": sig, "expect": "invalid", "why": "A encoded with y = p (not canonical)"},
        {"id": "negative-a-minus-zero", "message": msg, "public_key": "01" + "00" * 30 + "80",
         "signature": sig, "expect": "invalid", "why": "A = identity with the sign bit set (-0: not canonical)"},
        {"id": "negative-other-message", "message": flipped_msg.hex(), "public_key": pub, "signature": sig,
         "expect": "invalid", "why": f"{valid['id']}'s signature over a message with one bit flipped"},
        {"id": "negative-sig-63-bytes", "message": msg, "public_key": pub, "signature": sig[:126],
         "expect": "invalid", "why": "a signature of 63 bytes"},
    ]


def vectors(break_self_test=False):
    ed = []
    for path in sorted(glob.glob(os.path.join(VECTORS, "ed25519-*.json"))):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        for c in doc["cases"]:
            ed.append({"id": c["id"], "message": c["message"], "public_key": c["public_key"],
                       "signature": c["signature"], "expect": c["expect"]})
    if not ed:
        sys.exit("build.py: no tests/vectors/ed25519-*.json cases")
    valid = next(c for c in ed if c["expect"] == "valid" and len(c["signature"]) == 128 and c["message"])
    ed += [{k: c[k] for k in ("id", "message", "public_key", "signature", "expect")} for c in negative_cases(valid)]
    if break_self_test:
        # A test build only: the identity-key forgery declared valid. The page must refuse to check.
        ed.append({"id": "test-build-wrong-vector", "message": "", "public_key": "01" + "00" * 31,
                   "signature": "01" + "00" * 63, "expect": "valid"})
    with open(os.path.join(VECTORS, "block-small.json"), encoding="utf-8") as f:
        bs = json.load(f)
    rules = json.loads(bs["rules_json"])
    price = int(bs["block_id"].split("/")[1])
    rows = bs["tickets_csv"].split("\n")[1:-1]
    block = {"block_id": bs["block_id"], "rules_sha256": bs["rules_sha256"], "entropy": bs["entropy"],
             "seed": bs["seed"], "seed_commitment": bs["seed_commitment"], "grid_key": bs["grid_key"],
             "symbols": len(rules["symbols"]), "price_cents": price, "rows": rows,
             "block_size": len(rows), "outcomes_root": bs["outcomes_root"], "inclusion_proof": bs["inclusion_proof"]}
    with open(os.path.join(VECTORS, "draw-valid-public.json"), encoding="utf-8") as f:
        dv = json.load(f)["computed"]
    draw = {"accounts": [{k: a[k] for k in ("account", "salt", "pseudonym")} for a in dv["accounts"]],
            "list_digest": dv["list_digest"], "pseudonym_key": dv["pseudonym_key"]}
    return {"ed25519": ed, "block": block, "draw": draw}


def sha256_b64(text):
    return base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def build(break_self_test=False):
    src = os.path.join(HERE, "src")
    with open(os.path.join(src, "page.html"), encoding="utf-8") as f:
        page = f.read()
    with open(os.path.join(src, "style.css"), encoding="utf-8") as f:
        style = f.read()
    with open(os.path.join(src, "check.js"), encoding="utf-8") as f:
        js = f.read()
    data = json.dumps(vectors(break_self_test), separators=(",", ":"), ensure_ascii=True, sort_keys=True)
    data = data.replace("<", "\\u003c").replace(">", "\\u003e")    # nothing can close the script element
    script = "\n\"use strict\";\n// Generated by verifier/web/build.py from tests/vectors/: the self-test's cases.\n" \
             f"const URNE_VECTORS = {data};\n{js}"
    for text, what in ((script, "script"), (style, "style")):
        if "</" in text:
            sys.exit(f"build.py: the {what} holds '</'")
    csp = ("default-src 'none'; "
           f"script-src 'sha256-{sha256_b64(script)}'; "
           f"style-src 'sha256-{sha256_b64(style)}'; "
           "form-action 'none'; base-uri 'none'")
    for mark in ("@CSP@", "@STYLE@", "@SCRIPT@"):
        if page.count(mark) != 1:
            sys.exit(f"build.py: src/page.html must hold {mark} once")
    return page.replace("@CSP@", csp).replace("@STYLE@", style).replace("@SCRIPT@", script)


def readme_with(sha):
    """README.md with the page's SHA-256 on its line (section "The player's page")."""
    with open(README, encoding="utf-8") as f:
        text = f.read()
    if len(README_LINE.findall(text)) != 1:
        sys.exit("build.py: README.md must hold one line '    SHA-256 of verifier/web/urne-check.html: ...'")
    return text, README_LINE.sub(lambda m: m.group(1) + sha, text)


def main(argv):
    out, check, broken = PAGE, False, False
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--check":
            check = True
        elif a == "--out" and args:
            out = args.pop(0)
        elif a == "--break-self-test":
            broken = True
        else:
            sys.exit(f"usage: build.py [--check] [--out FILE [--break-self-test]] (got {a!r})")
    if broken and out == PAGE:
        sys.exit("build.py: --break-self-test writes a test build: give --out FILE")
    page = build(broken).encode("utf-8")
    sha = hashlib.sha256(page).hexdigest()
    if check:
        try:
            with open(PAGE, "rb") as f:
                have = f.read()
        except OSError:
            have = None
        if have != page:
            print("error: verifier/web/urne-check.html is not what verifier/web/build.py gives from src/ and "
                  "tests/vectors/\nhint: run python3 verifier/web/build.py and commit the page", file=sys.stderr)
            return 1
        text, want = readme_with(sha)
        if text != want:
            print(f"error: README.md does not print the page's SHA-256 {sha}\nhint: run python3 "
                  "verifier/web/build.py and commit README.md", file=sys.stderr)
            return 1
        print(f"verifier/web/urne-check.html is current (SHA-256 {sha}, printed in README.md)")
        return 0
    with open(out, "wb") as f:
        f.write(page)
    if out == PAGE:
        text, want = readme_with(sha)
        if text != want:
            with open(README, "w", encoding="utf-8") as f:
                f.write(want)
    print(f"{os.path.relpath(out)}: SHA-256 {sha}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
