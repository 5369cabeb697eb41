#!/usr/bin/env bash
# verifier/web/test.sh: the player's page (verifier/web/urne-check.html), called by scripts/test.
#  (a) the committed page is exactly what verifier/web/build.py makes from src/ and the vectors of
#      tests/vectors/ (so its embedded self-test vectors are current);
#  (b) verifier/web/test/fixtures.json is what make_fixtures.py makes from the vectors' generators;
#  (c) the page in Debian's headless Chromium (apt package chromium), from file://, driven by
#      playwright-core (npm, pinned in test/package-lock.json; `npm ci` when missing): every
#      fixture and proof vector, the CSP, the self-test, no network (verifier/web/test/test.mjs).
# Usage: verifier/web/test.sh [--screenshots DIR]   (writes DIR/player-page-{valid,refused}.png)
set -euo pipefail
shots=()
if [ "${1:-}" = "--screenshots" ]; then
  [ -d "${2:-}" ] || { echo "error: --screenshots needs an existing folder" >&2; exit 2; }
  shots=(--screenshots "$(cd "$2" && pwd)")
fi
cd "$(dirname "$0")"
start=$SECONDS
chromium=${URNE_CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "error: $chromium not found" >&2
  echo "hint: apt-get install chromium (Debian), or set URNE_CHROMIUM to a Chromium binary" >&2
  exit 1
fi
if ! node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)' 2>/dev/null; then
  echo "error: Node.js 20 or later is needed (playwright-core $(sed -n 's/.*"playwright-core": "\(.*\)".*/\1/p' test/package.json))" >&2
  echo "hint: install nodejs (20 or later) and npm" >&2
  exit 1
fi
python3 build.py --check
if ! python3 -c 'import cryptography' 2>/dev/null; then
  echo "verifier/web/test.sh: installing the Python package cryptography (pip)" >&2
  python3 -m pip install --quiet cryptography || python3 -m pip install --quiet --break-system-packages cryptography
fi
python3 test/make_fixtures.py --check
if [ ! -d test/node_modules/playwright-core ]; then
  echo "verifier/web/test.sh: installing playwright-core (npm ci)" >&2
  (cd test && npm ci --no-audit --no-fund --loglevel=error)
fi
(cd test && URNE_CHROMIUM="$chromium" timeout 110 node test.mjs "${shots[@]}")
echo "verifier/web/test.sh: passed in $((SECONDS - start)) s"
