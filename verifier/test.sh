#!/usr/bin/env bash
# verifier/test.sh: the independent verifier's tests, called by scripts/test.
#  (a) every vector in tests/vectors/ that applies (verifier/run_vectors.py);
#  (b) cross-checks on real outputs: urne and the Python verifier must both accept generated days
#      (public and auditor mode, proofs, audit exports) and both reject every tampering (exit 1).
#  (c) blocks: urne and the Python verifier must both accept generated blocks (a reduced rules
#      file at every price, one revealed; a ticket proof; one full official block, revealed) and
#      both reject every tampering (exit 1, with the failure class where spec/formats.md §5.B10 fixes it).
#  (d) a real fork (tier b): urne's token folder and database copied together and put back after
#      a draw (on another token, a block); both verifiers accept each history and reject the
#      outputs of both together (exit 1, class fork), and the fork's draw against the first
#      history's checkpoint of that day.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
py=python3
if ! $py -c 'import cryptography' 2>/dev/null; then
  echo "verifier/test.sh: installing the Python package cryptography (pip)" >&2
  $py -m pip install --quiet cryptography || $py -m pip install --quiet --break-system-packages cryptography
fi
# jsonschema (draft 2020-12: 4.0 or later) checks the published schemas, never the verifier.
if ! $py -c 'from jsonschema import Draft202012Validator' 2>/dev/null; then
  echo "verifier/test.sh: installing the Python package jsonschema (pip)" >&2
  $py -m pip install --quiet jsonschema || $py -m pip install --quiet --break-system-packages jsonschema
fi
V="$py $root/verifier/urne_verify.py"
# The prompts typed at (URNE_*_PROMPT), kept in one place with the scripts' helpers.
. scripts/lib.sh
fails=0
ok()   { printf '  ok    %s\n' "$*"; }
# typed CONTRIBUTION ARGS...: `urne ARGS` (draw, block generate) on a pseudo-terminal, the
# commissaire typing CONTRIBUTION at its prompt and confirming it (spec/appliance.md §4.4.1; scripts/pty-type).
typed() {
  local c=$1; shift
  LANG=en_US.UTF-8 $py "$root/scripts/pty-type" --on "$URNE_TYPE_BACK_PROMPT" --send-match \
    --on "$URNE_CONTRIBUTION_PROMPT" --send "$c" --on "$URNE_YES_NO_PROMPT" --send "oui" \
    -- "$urne" "$@"
}
# confirmed ARGS...: `urne ARGS` (void, block void, block reveal) on a pseudo-terminal, the id it
# shows typed back at its confirmation prompt (spec/appliance.md §4.6).
confirmed() {
  LANG=en_US.UTF-8 $py "$root/scripts/pty-type" --on "$URNE_CONFIRM_PROMPT" --send-match -- "$urne" "$@"
}
# now: the appliance's clock as production states a sales close (local time, its offset), a
# second after what came before (RFC 3339 has whole seconds here).
now() { sleep 1; date +%Y-%m-%dT%H:%M:%S%:z; }
bad()  { printf '  FAIL  %s\n' "$*"; fails=$((fails + 1)); }

# (a) runs in the background, beside (b) … (d), which mostly wait on one process at a time (the
# machines have 2 cores): its lines are printed, and its failures counted, at the end.
echo "== (a) test vectors (in the background; its report comes last)"
alog=$(mktemp)
(
  rc=0
  # block-full.json's recomputation (~15 s of one core) left out: (c) below has the Python
  # verifier recompute a whole official block urne made, and urne's own tests pin that block to
  # the vector (`URNE_SKIP_FULL_BLOCK= verifier/run_vectors.py tests/vectors` runs it alone).
  URNE_SKIP_FULL_BLOCK=1 $py verifier/run_vectors.py tests/vectors || rc=1
  $py verifier/test_ed25519.py || rc=1   # the strict Ed25519 check on the edge vectors
  exit $rc
) >"$alog" 2>&1 &
apid=$!

echo "== (b) cross-checks against urne"
# Built as scripts/test builds (the workspace's features unified, dev-dependencies included): a
# no-op after it, and no other variant of the dependencies to compile.
cargo build --quiet --workspace --all-targets
urne=$root/target/debug/urne
echo "-- urne verify on the same draw-* vectors"
$py verifier/run_vectors.py tests/vectors --urne "$urne" || fails=$((fails + 1))
sim=$root/target/debug/urne-simulate
export URNE_BIN=$urne
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prodkey=tests/fixtures/keys/test-producer.key.pem

# expect CODE LABEL CMD...: run CMD quietly, compare its exit code.
expect() {
  local want=$1 label=$2; shift 2
  local got=0
  "$@" >"$tmp/.out" 2>"$tmp/.err" || got=$?
  if [ "$got" = "$want" ]; then ok "$label (exit $got)"; else
    bad "$label: exit $got, expected $want"; sed 's/^/        /' "$tmp/.err" | tail -3; fi
}
both() { # both CODE LABEL ARGS... : urne verify ARGS and the Python verifier ARGS
  local want=$1 label=$2; shift 2
  expect "$want" "urne   $label" "$urne" verify "$@"
  expect "$want" "python $label" $V "$@"
}

# Token A: generated days (every period, P4's 15-euro tranche included); token B: the fixture
# exports (with their independent oracle), and a second key pair for the wrong-key tampering.
eval "$(scripts/dev-hsm "$tmp/a" 2>/dev/null)"
"$urne" keys export --out "$tmp/keysA" >/dev/null
days="2018-12-02:800:3 2018-12-09:2500:4 2018-12-16:300:5 2018-12-22:3000:6 2018-12-23:40:7 2018-12-24:1500:8"
for spec in $days; do
  IFS=: read -r day plays seed <<<"$spec"
  "$sim" --day "$day" --plays "$plays" --seed "$seed" --key "$prodkey" --out "$tmp/exp" >/dev/null
  e=$tmp/exp/entries-chanceux-noel-2018-$day.jsonl
  "$urne" seal --rules rules/chanceux-noel-2018.json --entries "$e" >/dev/null 2>&1
  typed "test seed $seed" draw --day "$day" --out "$tmp/d-$day" >/dev/null 2>&1
  both 0 "$day public mode" "$tmp/d-$day" --keys "$tmp/keysA"
  both 0 "$day auditor mode" "$tmp/d-$day" --keys "$tmp/keysA" --export "$e" --producer-key tests/fixtures/keys/test-producer.pub.pem
done
# The published schema of production's export (schemas/, issue 27): the simulated exports of
# these days validate, as every vector's does (verifier/test_schemas.py).
if $py verifier/test_schemas.py --export "$tmp"/exp/entries-*.jsonl; then
  ok "the simulated exports and the vectors' validate against schemas/entry-export-v1.*"
else
  bad "schemas/entry-export-v1.* and the strict reader disagree"
fi
# A proof for the 2018-12-22 winner.
winner=$($py -c 'import json,sys; print(json.load(open(sys.argv[1]))["winner"]["account"])' "$tmp/d-2018-12-22/result.json")
"$urne" proof --day 2018-12-22 --account "$winner" --out "$tmp/proof.json" >/dev/null 2>&1
both 0 "proof" "$tmp/proof.json" --keys "$tmp/keysA" --published "$tmp/d-2018-12-22"
both 1 "proof against another day" "$tmp/proof.json" --keys "$tmp/keysA" --published "$tmp/d-2018-12-23"
# A name that is not UTF-8 in a draw folder is refused (exit 2), never skipped (spec/formats.md §8.4).
cp -r "$tmp/d-2018-12-22" "$tmp/non-utf8" && : >"$tmp/non-utf8/$(printf 'x\377')"
both 2 "a name that is not UTF-8 in a draw folder" "$tmp/non-utf8" --keys "$tmp/keysA"
# The audit trail, exported, against every checkpoint shipped in a result.
"$urne" audit export --out "$tmp/audit.jsonl" >/dev/null 2>&1
cps=()
for d in "$tmp"/d-*; do cps+=(--checkpoint "$d/checkpoint.note"); done
expect 0 "urne   audit verify" "$urne" audit verify --audit-key "$tmp/keysA/audit.pub.pem" "${cps[@]}"
expect 0 "python audit export" $V "$tmp/audit.jsonl" --keys "$tmp/keysA" "${cps[@]}"
expect 0 "urne   audit export" "$urne" verify "$tmp/audit.jsonl" --keys "$tmp/keysA" "${cps[@]}"
# spec/formats.md §6.4 [M-271]: without an audit key or a held checkpoint, consistent with itself only.
expect 8 "python audit export without an anchor (UNANCHORED)" $V "$tmp/audit.jsonl"
# spec/formats.md §8.1 [M-341]: urne's verifiers take no key implicitly: without --keys, exit 2.
expect 2 "urne   audit export without --keys (a usage error)" "$urne" verify "$tmp/audit.jsonl"
expect 8 "urne   audit verify without an anchor (UNANCHORED)" "$urne" audit verify
# A release's check (spec/formats.md §8.8), on a real draw of this build: a throwaway release key
# (openssl), a SHA256SUMS of the draw's revision listing this urne (released), one listing another
# binary (built another way, exit 9), one signed by another key (refused, exit 2). A build of a
# modified tree is of no release: exit 9 for its commit's manifest too.
openssl genpkey -algorithm ed25519 -out "$tmp/release.key" 2>/dev/null
openssl genpkey -algorithm ed25519 -out "$tmp/forger.key" 2>/dev/null
openssl pkey -in "$tmp/release.key" -pubout -out "$tmp/release-key.pem" 2>/dev/null
rev=$($py -c 'import json,sys; print(json.load(open(sys.argv[1]))["software"]["source_revision"])' "$tmp/d-2018-12-22/bundle.json")
exe=$(sha256sum "$urne" | cut -c1-64)
release_of() { # release_of DIR COMMIT BIN_URNE_SHA256 KEY: a SHA256SUMS, names in bytewise order, signed
  local z; z=$(printf 'ab%.0s' $(seq 32))
  mkdir -p "$1"
  printf '%s  bin/urne\n%s  bin/urne-import\n%s  bin/urne-verify\n%s  urne-src-%s.tar.gz\n' "$3" "$z" "$z" "$z" "$2" >"$1/SHA256SUMS"
  openssl pkeyutl -sign -inkey "$4" -rawin -in "$1/SHA256SUMS" -out "$1/SHA256SUMS.sig"
}
commit=${rev%-modified}
release_of "$tmp/rel-ok" "$commit" "$exe" "$tmp/release.key"
release_of "$tmp/rel-other" "$commit" "$(printf '11%.0s' $(seq 32))" "$tmp/release.key"
release_of "$tmp/rel-forged" "$commit" "$exe" "$tmp/forger.key"
rk=(--release-key "$tmp/release-key.pem")
if [ "$commit" = "$rev" ]; then
  both 0 "a real draw's software, released by its revision's signed SHA256SUMS" "$tmp/d-2018-12-22" --keys "$tmp/keysA" --release "$tmp/rel-ok/SHA256SUMS" "${rk[@]}"
else
  both 9 "a real draw's software, released by its revision's signed SHA256SUMS" "$tmp/d-2018-12-22" --keys "$tmp/keysA" --release "$tmp/rel-ok/SHA256SUMS" "${rk[@]}"
fi
both 9 "a real draw's software, built another way than its release" "$tmp/d-2018-12-22" --keys "$tmp/keysA" --release "$tmp/rel-other/SHA256SUMS" "${rk[@]}"
both 2 "a release SHA256SUMS signed by another key" "$tmp/d-2018-12-22" --keys "$tmp/keysA" --release "$tmp/rel-forged/SHA256SUMS" "${rk[@]}"
# A void and its redraw (spec/formats.md §4.6), whose outputs the schemas check below.
confirmed void --day 2018-12-23 --reason "verifier/test.sh: attempt 1 voided to check the outputs" --out "$tmp/void-23" >/dev/null 2>&1
"$urne" seal --rules rules/chanceux-noel-2018.json --entries "$tmp/exp/entries-chanceux-noel-2018-2018-12-23.jsonl" >/dev/null 2>&1
typed "test redraw" draw --day 2018-12-23 --out "$tmp/redraw-23" >/dev/null 2>&1
both 0 "a void notice and the redraw" "$tmp/void-23" --keys "$tmp/keysA"
dbA=$URNE_DB

eval "$(scripts/dev-hsm "$tmp/b" 2>/dev/null)"
"$urne" keys export --out "$tmp/keysB" >/dev/null
for e in tests/fixtures/exports/valid/*.jsonl; do
  day=$(basename "$e" .jsonl); day=${day#entries-chanceux-noel-2018-}
  "$urne" seal --rules rules/chanceux-noel-2018.json --entries "$e" >/dev/null 2>&1
  typed "fixture draw" draw --day "$day" --out "$tmp/f-$day" >/dev/null 2>&1
  both 0 "fixture $day auditor mode" "$tmp/f-$day" --keys "$tmp/keysB" --export "$e" --producer-key tests/fixtures/keys/test-producer.pub.pem
done

echo "== (b) tamperings: both must reject with exit 1"
src=$tmp/d-2018-12-22
e22=$tmp/exp/entries-chanceux-noel-2018-2018-12-22.jsonl
flip() { # flip FILE OFFSET: xor one byte with 0x01
  $py - "$1" "$2" <<'PY'
import sys
p, off = sys.argv[1], int(sys.argv[2])
b = bytearray(open(p, "rb").read()); off = off % len(b); b[off] ^= 1
open(p, "wb").write(bytes(b))
PY
}
for f in bundle.json leaves.bin result.json rules.json pv.html checkpoint.note; do
  for target in "$f" "$f.sig"; do
    for off in 0 37 -2; do
      rm -rf "$tmp/t"; cp -r "$src" "$tmp/t"; flip "$tmp/t/$target" "$off"
      both 1 "byte $off of $target flipped" "$tmp/t" --keys "$tmp/keysA"
    done
  done
done
rm -rf "$tmp/t"; cp -r "$src" "$tmp/t"
$py - "$tmp/t/bundle.json" <<'PY'
import json, sys
p = sys.argv[1]; b = json.load(open(p))
w, r = b["winner"], b["reserves"][0]
b["winner"], b["reserves"][0] = dict(r, rank=0), dict(w, rank=1)
open(p, "w").write(json.dumps(b, indent=2) + "\n")
PY
both 1 "winner and reserve 1 swapped in bundle.json" "$tmp/t" --keys "$tmp/keysA"
# Keys of another appliance: the outputs name another result key than the one given, a usage
# mistake (exit 2 naming both key ids), not a verification failure (issue 12 contract).
both 2 "verified under another token's keys" "$src" --keys "$tmp/keysB"
rm -rf "$tmp/x"; mkdir "$tmp/x"; cp "$e22" "$e22.sig" "$tmp/x/"; flip "$tmp/x/$(basename "$e22")" 500
both 1 "a byte of the export flipped (auditor mode)" "$src" --keys "$tmp/keysA" --export "$tmp/x/$(basename "$e22")" --producer-key tests/fixtures/keys/test-producer.pub.pem
both 1 "another day's export (auditor mode)" "$src" --keys "$tmp/keysA" --export "$tmp/exp/entries-chanceux-noel-2018-2018-12-23.jsonl" --producer-key tests/fixtures/keys/test-producer.pub.pem
# A reordered export (same records, lines 2 and 3 swapped, re-signed by the producer): a
# different file, so a different export hash.
$py - "$e22" "$tmp/x/$(basename "$e22")" "$prodkey" <<'PY'
import sys
from cryptography.hazmat.primitives.serialization import load_pem_private_key
src, dst, key = sys.argv[1:]
lines = open(src, "rb").read().split(b"\n")
lines[1], lines[2] = lines[2], lines[1]
data = b"\n".join(lines)
open(dst, "wb").write(data)
open(dst + ".sig", "wb").write(load_pem_private_key(open(key, "rb").read(), None).sign(data))
PY
both 1 "reordered export, re-signed (auditor mode)" "$src" --keys "$tmp/keysA" --export "$tmp/x/$(basename "$e22")" --producer-key tests/fixtures/keys/test-producer.pub.pem
# An edited audit event: in the export (Python) and in a copy of the database (urne).
$py - "$tmp/audit.jsonl" "$tmp/audit-edited.jsonl" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
lines[2] = lines[2].replace('"command\\":\\"', '"command\\":\\"X', 1) if '"command' in lines[2] else lines[2].replace('"kind":"', '"kind":"x', 1)
open(sys.argv[2], "w").write("\n".join(lines))
PY
expect 1 "python audit export with an edited event" $V "$tmp/audit-edited.jsonl" --keys "$tmp/keysA"
expect 1 "urne   audit export with an edited event" "$urne" verify "$tmp/audit-edited.jsonl" --keys "$tmp/keysA"
cp "$dbA" "$tmp/edited.db"
$py - "$tmp/edited.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
# The trigger is put back exactly as it was after the edit: the database's schema is urne's
# (spec/appliance.md §6.5, else exit 5), so what is tested is the chain catching the edited event.
trigger = c.execute("SELECT sql FROM sqlite_master WHERE name = 'events_no_update'").fetchone()[0]
c.execute("DROP TRIGGER events_no_update")
# The contribution typed ("test seed N") is in the draw.contribution events (spec/formats.md §4.4.1).
c.execute("UPDATE events SET payload = replace(payload, 'test', 'TEST') WHERE seq = 3 OR kind = 'draw.contribution'")
assert c.execute("SELECT count(*) FROM events WHERE instr(payload, 'TEST') > 0").fetchone()[0] > 0, "nothing edited"
c.execute(trigger)
c.commit()
PY
expect 1 "urne   audit verify with an edited event" "$urne" audit verify --db "$tmp/edited.db" --audit-key "$tmp/keysA/audit.pub.pem"
head -n 5 "$tmp/audit.jsonl" > "$tmp/audit-truncated.jsonl"; grep '"type":"checkpoint"' "$tmp/audit.jsonl" | head -1 >> "$tmp/audit-truncated.jsonl" || true
expect 1 "python truncated audit export vs a held checkpoint" $V "$tmp/audit-truncated.jsonl" --keys "$tmp/keysA" --checkpoint "$src/checkpoint.note"
expect 1 "urne   truncated audit export vs a held checkpoint" "$urne" verify "$tmp/audit-truncated.jsonl" --keys "$tmp/keysA" --checkpoint "$src/checkpoint.note"
expect 1 "python audit export under another audit key" $V "$tmp/audit.jsonl" --keys "$tmp/keysB"
expect 1 "urne   audit export under another audit key" "$urne" verify "$tmp/audit.jsonl" --keys "$tmp/keysB"
expect 1 "urne   audit verify under another audit key" "$urne" audit verify --db "$dbA" --audit-key "$tmp/keysB/audit.pub.pem"

echo "== (c) blocks"
# both_class CLASS LABEL ARGS...: both verifiers exit 1 naming CLASS.
both_class() {
  local cls=$1 label=$2; shift 2
  both 1 "$label" "$@"
  for impl in urne python; do
    if [ "$impl" = urne ]; then "$urne" verify "$@" >/dev/null 2>"$tmp/.err" || true
    else $V "$@" >/dev/null 2>"$tmp/.err" || true; fi
    if grep -q "($cls)" "$tmp/.err"; then ok "$(printf "%-6s" "$impl") $label is $cls"
    else bad "$impl $label: not $cls"; sed 's/^/        /' "$tmp/.err" | tail -2; fi
  done
}
eval "$(scripts/dev-hsm "$tmp/c" 2>/dev/null)"
"$urne" keys export --out "$tmp/keysC" >/dev/null
# The reduced rules file of urne's own CLI tests, written per spec/appliance.md §5.B1.
$py - rules/noel-de-la-chance-2015.json "$tmp/small-rules.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["game"], r["block_size"] = "test-small-game", 2000
for row, units in zip(r["prize_table"], [1, 1, 5, 40, 60, 250, 150]):
    row["units"] = units
w = sum(row["units"] for row in r["prize_table"])
r["totals"] = {"winning_units": w, "losing_units": r["block_size"] - w,
               "prize_cents": [sum(row["units"] * row["prize_cents"][i] for row in r["prize_table"])
                               for i in range(len(r["price_points_cents"]))]}
open(sys.argv[2], "w").write(json.dumps(r, indent=2, ensure_ascii=False) + "\n")
PY
blk=$tmp/blocks
# The production files go to the separate secret medium only (here a folder standing for it).
sec=$tmp/secret-medium/blocks
for price in 50 100 200; do
  typed "small block $price" block generate --rules "$tmp/small-rules.json" --unofficial-rules --price "$price" --emission e1 --first 1 --blocks 1 --out "$blk" --secret-out "$sec" >/dev/null 2>&1
done
if ls "$blk"/*.tickets.csv >/dev/null 2>&1; then bad "a production file in the public folder"; else ok "no production file in the public folder"; fi
both 0 "3 small blocks (50, 100, 200), not revealed, without their production files" "$blk" --keys "$tmp/keysC"
# As production holds them: each production file beside its commitment.
cp "$sec"/*.tickets.csv* "$blk/"
both 0 "3 small blocks (50, 100, 200), not revealed" "$blk" --keys "$tmp/keysC"
confirmed block reveal --block test-small-game/100/e1/1 --sales-closed-at "$(now)" --out "$blk" >/dev/null 2>&1
both 0 "3 small blocks, one revealed" "$blk" --keys "$tmp/keysC"
# spec/appliance.md §7.4, spec/formats.md §8.1: the reduced game is not an official regulation; both verdicts say so on their
# first line, in the same words.
# (sed reads every line: `head -1` would close the pipe, and a verifier whose standard output is
# closed exits 2, spec/formats.md §8.1, which pipefail would make this script's own exit.)
u1=$("$urne" verify "$blk" --keys "$tmp/keysC" 2>/dev/null | sed -n 1p)
u2=$($V "$blk" --keys "$tmp/keysC" 2>/dev/null | sed -n 1p)
if [ "$u1" = "$u2" ] && [[ "$u1" == "VERIFIED (règlement non officiel / unofficial rules: test-small-game): "* ]]; then
  ok "both first lines name the unofficial rules: $u1"
else bad "first lines: urne '$u1', python '$u2'"; fi
expect 2 "urne   block generate of an unofficial game without --unofficial-rules" "$urne" block generate --rules "$tmp/small-rules.json" --price 100 --emission e9 --out "$tmp/refused" --secret-out "$tmp/refused-secret"
S=test-small-game_100_e1_1
"$urne" ticket show --block test-small-game/100/e1/1 --position 3 --choice 1 --dir "$blk" >/dev/null 2>&1 \
  && ok "urne ticket show" || bad "urne ticket show failed"
"$urne" proof --block test-small-game/100/e1/1 --position 1234 --dir "$blk" --out "$tmp/ticket-proof.json" >/dev/null 2>&1
both 0 "ticket proof" "$tmp/ticket-proof.json" --keys "$tmp/keysC" --published "$blk"
both 1 "ticket proof against another block's folder" "$tmp/ticket-proof.json" --keys "$tmp/keysC" --published "$tmp/d-2018-12-22"
# The published schemas (schemas/, issue 27) against real outputs: a draw, a proof, a void notice
# and its redraw, the keys, blocks (one revealed) and a ticket proof; and against the strict
# export reader's verdicts on the export fuzz corpus (urne-fuzz-export-verdicts).
"$root/target/debug/urne-fuzz-export-verdicts" fuzz/corpus/export >"$tmp/verdicts.jsonl"
outs=()
for o in "$tmp/d-2018-12-22" "$tmp/proof.json" "$tmp/void-23" "$tmp/redraw-23" "$tmp/keysA" "$blk" "$tmp/ticket-proof.json"; do
  outs+=(--outputs "$o")
done
if $py verifier/test_schemas.py "${outs[@]}" --verdicts "$tmp/verdicts.jsonl"; then
  ok "real outputs and the export corpus validate against schemas/"
else
  bad "real outputs or the export corpus do not validate against schemas/"
fi

echo "-- (c) block tamperings: both must reject with exit 1"
for f in rules.json $S.commit.json $S.tickets.csv $S.reveal.json; do
  for target in "$f" "$f.sig"; do
    rm -rf "$tmp/t"; cp -r "$blk" "$tmp/t"; flip "$tmp/t/$target" 37
    both_class bad-signature "byte 37 of $target flipped" "$tmp/t" --keys "$tmp/keysC"
  done
done
# (rules.json's signature fails first, and a rules file names no result key: bad-signature, not
# the usage mistake a draw's bundle.json shows.)
both_class bad-signature "verified under another token's keys" "$blk" --keys "$tmp/keysB"
# Re-signed with another key (its public key given as the result key): two rows swapped in
# tickets.csv; a reveal with another entropy.
resign() { # resign DIR: sign every signed file of DIR with the key $tmp/other.key.pem
  $py - "$1" "$tmp/other.key.pem" "$tmp/keysO" "$tmp/keysC/audit.pub.pem" <<'PY'
import os, shutil, sys
from cryptography.hazmat.primitives import serialization as ser
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
d, keyfile, keydir, audit = sys.argv[1:]
if not os.path.exists(keyfile):
    k = Ed25519PrivateKey.generate()
    open(keyfile, "wb").write(k.private_bytes(ser.Encoding.PEM, ser.PrivateFormat.PKCS8, ser.NoEncryption()))
    os.makedirs(keydir, exist_ok=True)
    open(os.path.join(keydir, "result.pub.pem"), "wb").write(
        k.public_key().public_bytes(ser.Encoding.PEM, ser.PublicFormat.SubjectPublicKeyInfo))
    shutil.copy(audit, os.path.join(keydir, "audit.pub.pem"))
k = ser.load_pem_private_key(open(keyfile, "rb").read(), None)
# A forger makes a whole output under their key: every file names it, each commitment the SHA-256
# of the production file beside it, each manifest the files as they now are; then all re-signed.
import hashlib, json
raw = k.public_key().public_bytes(ser.Encoding.Raw, ser.PublicFormat.Raw)
kid = hashlib.sha256(raw).hexdigest()[:16]
P = lambda n: os.path.join(d, n)
def rewrite(n, f):
    v = json.load(open(P(n)))
    f(v)
    open(P(n), "w").write(json.dumps(v, indent=2, ensure_ascii=False) + "\n")
def commit(v):
    v["result_key_id"] = kid
    t = P(v["tickets_file"])
    if os.path.exists(t):
        v["tickets_sha256"] = hashlib.sha256(open(t, "rb").read()).hexdigest()
for n in sorted(os.listdir(d)):
    if n.endswith(".commit.json"):
        rewrite(n, commit)
    elif n.endswith(".reveal.json"):
        rewrite(n, lambda v: v.update(result_key_id=kid))
def manifest(v):
    v["result_key_id"] = kid
    for e in v["files"]:
        if os.path.exists(P(e["name"])):
            b = open(P(e["name"]), "rb").read()
            e["size"], e["sha256"] = len(b), hashlib.sha256(b).hexdigest()
        elif e["name"].endswith(".tickets.csv"):
            c = json.load(open(P(e["name"][:-len(".tickets.csv")] + ".commit.json")))
            e["sha256"] = c["tickets_sha256"]
for n in sorted(os.listdir(d)):
    if n.endswith(".manifest.json"):
        rewrite(n, manifest)
for n in os.listdir(d):
    if os.path.exists(P(n + ".sig")):
        open(P(n + ".sig"), "wb").write(k.sign(open(P(n), "rb").read()))
PY
}
rm -rf "$tmp/t"; cp -r "$blk" "$tmp/t"; resign "$tmp/t"
both 0 "the same folder re-signed with another key (control)" "$tmp/t" --keys "$tmp/keysO"
$py - "$tmp/t/$S.tickets.csv" <<'PY'
import sys
p = sys.argv[1]; lines = open(p, "rb").read().split(b"\n")
lines[11], lines[12] = lines[12], lines[11]
open(p, "wb").write(b"\n".join(lines))
PY
resign "$tmp/t"
# The forger's output is whole (its commitment names the forged file's SHA-256, its manifest the
# files as they are): only the rows themselves betray it (spec/formats.md §5.B8, §5.B10 step 3).
both_class commitment-mismatch "two ticket rows swapped in tickets.csv, re-signed" "$tmp/t" --keys "$tmp/keysO"
rm -rf "$tmp/t"; cp -r "$blk" "$tmp/t"
$py - "$tmp/t/$S.reveal.json" <<'PY'
import json, sys
p = sys.argv[1]; r = json.load(open(p))
r["entropy"] = "%096x" % (int(r["entropy"], 16) ^ 1)
open(p, "w").write(json.dumps(r, indent=2) + "\n")
PY
resign "$tmp/t"
both_class draw-mismatch "a reveal with another entropy, re-signed" "$tmp/t" --keys "$tmp/keysO"
rm -rf "$tmp/t"; cp -r "$blk" "$tmp/t"; rm "$tmp/t/$S.reveal.json.sig"
both_class bad-signature "a reveal without its .sig" "$tmp/t" --keys "$tmp/keysC"

echo "-- (c) one full official block (800,000 tickets): generate, reveal, both verify"
typed "full block 1" block generate --rules rules/noel-de-la-chance-2015.json --price 100 --emission t1 --first 1 --blocks 1 --out "$tmp/full" --secret-out "$tmp/secret-medium/full" >/dev/null 2>&1
confirmed block reveal --block noel-de-la-chance-2015/100/t1/1 --sales-closed-at "$(now)" --out "$tmp/full" >/dev/null 2>&1
cp "$tmp/secret-medium/full/"*.tickets.csv* "$tmp/full/"
start=$SECONDS
both 0 "full official block, revealed" "$tmp/full" --keys "$tmp/keysC"
echo "        (both verifications: $((SECONDS - start)) s)"
echo "== (d) a real fork (tier b, spec/appliance.md §6.6, §6.7, spec/formats.md §8.4): both must reject the outputs of two histories"
# Someone with the PIN copies SoftHSM's token folder and the database together, lets the appliance
# draw day 2 (on another token: generate block 2), puts both copies back and does it again: token
# and trail agree, so urne goes on; the outputs of both histories, side by side, are a fork.
copy_state() { rm -rf "$1.copy"; mkdir "$1.copy"; cp -r "$1/tokens" "$URNE_DB" "$1.copy/"; }
put_back() { rm -rf "$1/tokens"; cp -r "$1.copy/tokens" "$1/"; cp "$1.copy/audit.db" "$URNE_DB"; }
eval "$(scripts/dev-hsm "$tmp/f" 2>/dev/null)"
"$urne" keys export --out "$tmp/keysF" >/dev/null
for spec in 2018-12-22:300:21 2018-12-23:300:22; do
  IFS=: read -r day plays seed <<<"$spec"
  "$sim" --day "$day" --plays "$plays" --seed "$seed" --key "$prodkey" --out "$tmp/expF" >/dev/null
  "$urne" seal --rules rules/chanceux-noel-2018.json --entries "$tmp/expF/entries-chanceux-noel-2018-$day.jsonl" >/dev/null 2>&1
done
F=$tmp/F
typed "fork draw 1" draw --day 2018-12-22 --out "$F/pub/d1" >/dev/null 2>&1
copy_state "$tmp/f"
typed "fork draw 2" draw --day 2018-12-23 --out "$F/pub/d2" >/dev/null 2>&1
put_back "$tmp/f"
expect 0 "urne   draws day 2 again on the restored copy" typed "fork draw 2" draw --day 2018-12-23 --out "$F/fork/d2"
both 0 "the first history's outputs (d1, d2)" "$F/pub" --keys "$tmp/keysF"
both 0 "the fork's day 2 alone" "$F/fork/d2" --keys "$tmp/keysF"
both 0 "the fork's day 2 against d1's checkpoint (taken before the copy)" "$F/fork/d2" --keys "$tmp/keysF" --checkpoint "$F/pub/d1/checkpoint.note"
mkdir -p "$F/all"; cp -r "$F/pub/d1" "$F/pub/d2" "$F/all/"; cp -r "$F/fork/d2" "$F/all/d2-fork"
both_class fork "d1, d2 and the fork's d2 together" "$F/all" --keys "$tmp/keysF"
both_class fork "the fork's d2 against the first d2's checkpoint" "$F/fork/d2" --keys "$tmp/keysF" --checkpoint "$F/pub/d2/checkpoint.note"
eval "$(scripts/dev-hsm "$tmp/g" 2>/dev/null)"
"$urne" keys export --out "$tmp/keysG" >/dev/null
gen() { typed "fork block $1" block generate --rules "$tmp/small-rules.json" --unofficial-rules --price 100 --emission f1 --first "$1" --blocks 1 --out "$2" --secret-out "$2-secret"; }
gen 1 "$F/pub-blocks/b1" >/dev/null 2>&1
copy_state "$tmp/g"
gen 2 "$F/pub-blocks/b2" >/dev/null 2>&1
put_back "$tmp/g"
expect 0 "urne   generates block 2 again on the restored copy" gen 2 "$F/fork/b2"
both 0 "the first history's block folders (b1, b2)" "$F/pub-blocks" --keys "$tmp/keysG"
both 0 "the fork's block 2 alone" "$F/fork/b2" --keys "$tmp/keysG"
mkdir -p "$F/allb"; cp -r "$F/pub-blocks/b1" "$F/pub-blocks/b2" "$F/allb/"; cp -r "$F/fork/b2" "$F/allb/b2-fork"
both_class fork "b1, b2 and the fork's b2 together" "$F/allb" --keys "$tmp/keysG"

echo "== (a) test vectors: the report of the background run"
if wait "$apid"; then cat "$alog"; else cat "$alog"; fails=$((fails + 1)); fi
rm -f "$alog"
if [ "$fails" -ne 0 ]; then echo "verifier/test.sh: $fails failure(s)"; exit 1; fi
echo "verifier/test.sh: all passed"
