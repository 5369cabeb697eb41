# Shared by scripts/demo, scripts/test and scripts/bench: install what is missing on a fresh
# Debian machine. Sourced, not run.

# Each step headed with the time since the script began (bash's SECONDS), to see where it goes.
say() { printf '\033[1m==> [%d:%02d] %s\033[0m\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "error: '$*' needs root" >&2
    echo "hint: run as root or install sudo" >&2
    exit 2
  fi
}

apt_updated=no
apt_install() {
  local missing=()
  for pkg in "$@"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing ${missing[*]} (apt-get)"
  if [ "$apt_updated" = no ]; then
    as_root apt-get update -qq
    apt_updated=yes
  fi
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

ensure_rust() {
  if ! command -v cargo >/dev/null && [ -x "$HOME/.cargo/bin/cargo" ]; then
    export PATH="$HOME/.cargo/bin:$PATH"
  fi
  if ! command -v cargo >/dev/null; then
    say "installing the Rust toolchain (rustup)"
    apt_install curl ca-certificates build-essential
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal -c rustfmt,clippy >&2
    export PATH="$HOME/.cargo/bin:$PATH"
  fi
  command -v cc >/dev/null || apt_install build-essential
  ensure_pinned_toolchain
}

# rust-toolchain.toml pins the toolchain by name (1.95.0). Where that name is missing but the
# installed stable is that very version, give it the name as rustup itself lays toolchains out (a
# folder link under toolchains/; `rustup toolchain link` refuses official names); otherwise ask
# rustup for it.
ensure_pinned_toolchain() {
  command -v rustup >/dev/null || return 0
  local want host home
  want=$(sed -n 's/^channel = "\(.*\)"/\1/p' rust-toolchain.toml)
  host=$(rustup run stable rustc -vV | sed -n 's/^host: //p')
  home=${RUSTUP_HOME:-$HOME/.rustup}
  [ -e "$home/toolchains/$want-$host" ] && return 0
  if rustup run stable rustc --version | grep -q "^rustc $want "; then
    say "naming the installed stable toolchain $want (rust-toolchain.toml)"
    ln -s "$(rustup run stable rustc --print sysroot)" "$home/toolchains/$want-$host"
  else
    say "installing the Rust toolchain $want (rust-toolchain.toml)"
    rustup toolchain install "$want" --profile minimal -c rustfmt,clippy >&2
  fi
}

ensure_deps() {
  # libssl-dev and pkg-config: the openssl crate links the system libcrypto (fast SHA-2 for 1 GB
  # exports). bsdutils: script(1), with which a test holds `urne draw` at its witness prompt on a
  # terminal (essential on Debian, so normally present). opensc: pkcs11-tool, with which a test
  # writes into the token outside urne, as someone with (or without) the PIN could. faketime:
  # the appliance's clock set elsewhere, as someone at the machine could (urne refuses LD_PRELOAD,
  # so the tests run a copy of urne that patchelf made load libfaketime itself). strace: a test
  # runs urne under a tracer, which urne refuses (docs/threat-model.md). gcc and
  # libp11-kit-dev (PKCS#11 headers): the tests build an insider's forwarding PKCS#11 module and
  # an LD_PRELOAD stub from C (tests/fixtures/pkcs11/). chromium and poppler-utils: a test prints
  # every kind of minutes to PDF in headless Chromium and reads the PDF back (pdfinfo, pdftotext).
  # postgresql: production's import (urne-import) is tested against a real server, a throwaway
  # cluster each test starts (scripts/pg-throwaway); python3-jsonschema checks the published
  # schemas (verifier/test_schemas.py).
  apt_install softhsm2 opensc faketime patchelf strace openssl libssl-dev pkg-config python3 python3-cryptography ca-certificates bsdutils gcc libc6-dev libp11-kit-dev
  apt_install chromium poppler-utils
  apt_install postgresql python3-jsonschema
  ensure_rust
}

# The prompts the scripts type at, in English or French (one place: tests/it/common.rs holds the
# tests' own copies, CONFIRM, TYPE_BACK, CONTRIBUTION_PROMPT, YES_NO). The helpers below run the
# command in English (LANG=en_US.UTF-8), as the tests do.
URNE_CONFIRM_PROMPT='(?:To confirm, type [a-z ]+|Pour confirmer, tapez [^(\n]+)(?:\r?\n)? {1,2}\(([^)\n]+)\), (?:then Enter|puis Entrée)'
URNE_TYPE_BACK_PROMPT="(?:HSM's entropy is fixed|L'aléa du HSM est fixé).*?\n {6}([0-9a-f]{4} [0-9a-f]{4}) .*?(?:its first 8 characters|8 premiers caractères)"
# The sitting's type-back of the id of rules that are not an official regulation (spec/formats.md §7.4).
URNE_UNOFFICIAL_PROMPT="(?:type the id of the unofficial rules|tapez l'identifiant du règlement non officiel) \\(([^)\n]+)\\)"
URNE_CONTRIBUTION_PROMPT='(?:type your contribution|tapez votre contribution)'
URNE_YES_NO_PROMPT='(?:Type yes or no|Tapez oui ou non),'

# producer_key_id PEM: production's key id as its written statement gives it, which the
# commissaire types at the key ceremony (spec/formats.md §1.3: the first 16 hex digits of the
# SHA-256 of the raw key, the last 32 bytes of the PEM's DER).
producer_key_id() {
  python3 -c 'import base64,hashlib,sys; d=base64.b64decode("".join(l.strip() for l in open(sys.argv[1]) if not l.startswith("-----"))); print(hashlib.sha256(d[-32:]).hexdigest()[:16])' "$1"
}

# sitting_answers PIN PLACE COMMISSAIRE PRODUCER_PEM: sets the array SITTING_ANSWERS, the
# scripts/pty-type rules (--on) that answer `urne ceremony`'s French prompts as a sitting's
# people do: the PIN, the place and town, the commissaire and their office, the operator present
# then an empty line, `oui` to the mentions and to each step, the commitment's first 8 characters
# typed back, the contribution confirmed, the id typed back, production's key id from its
# statement, `4` (close) at the menu and `oui` to close. The caller adds what differs between
# sittings: the contribution, the watch, the sales close. Align the patterns with the screens'
# wording (src/cmd/ceremony/) when it changes.
sitting_answers() {
  SITTING_ANSWERS=(
    --on "Opérateur : code PIN de l'HSM" --send "$1"
    --on 'Lieu de la séance :' --send "$2"
    --on 'Ville où le procès-verbal est fait' --send "Boulogne-Billancourt"
    --on 'Nom du commissaire de justice :' --send "$3"
    --on 'Office \(étude\) du commissaire de justice :' --send "SELARL Dupont, commissaires de justice à Paris"
    --on 'une ligne vide pour finir :' --send $'Jean Martin, opérateur\n'
    --on 'ces mentions sont-elles exactes' --send oui
    --on 'Procéder à cette étape' --send oui
    --on 'Votre choix \(1, 2, 3 ou 4\)' --send 4
    --on 'Clore la séance \(irréversible[^\n]*Tapez oui ou non :' --send oui
    --on "$URNE_TYPE_BACK_PROMPT" --send-match
    --on "$URNE_YES_NO_PROMPT" --send oui
    --on "$URNE_CONFIRM_PROMPT" --send-match
    --on 'identifiant de la clé de production' --send "$(producer_key_id "$4")"$'\n'
  )
}

# refused_as_rehearsal CMD…: CMD, a verifier run on a rehearsal's outputs, checks their
# signatures, parse and recomputation, then MUST refuse them at their audit checkpoint as
# official results, with the class `rehearsal` (spec/formats.md §6.10, §8.1), exit 1. Prints the
# first line of its verdict; anything else stops the script with an error: and a hint: line.
refused_as_rehearsal() {
  local err rc=0
  err=$("$@" 2>&1 >/dev/null) || rc=$?
  printf '%s\n' "${err%%$'\n'*}"
  if [ "$rc" != 1 ] || [[ $err != *"verification failed (rehearsal)"* ]]; then
    echo "error: expected the class rehearsal (exit 1) from: $*, got exit $rc" >&2
    echo "hint: ${err%%$'\n'*}" >&2
    exit 1
  fi
}

# confirmed CMD ARGS…: runs CMD on a pseudo-terminal (scripts/pty-type) and types back, at its
# confirmation prompt, the day or block id it shows (urne void, block void, block reveal: spec/appliance.md §4.6).
confirmed() {
  LANG=en_US.UTF-8 scripts/pty-type --on "$URNE_CONFIRM_PROMPT" --send-match -- "$@"
}

# typed CONTRIBUTION CMD ARGS…: runs CMD on a pseudo-terminal (scripts/pty-type) and types the
# commissaire's contribution at its prompt, then confirms it (spec/appliance.md §4.4.1).
typed() {
  local TYPED_COMMAND
  typed_command "$@"
  "${TYPED_COMMAND[@]}"
}

# typed_command CONTRIBUTION CMD ARGS…: sets the array TYPED_COMMAND to the command `typed` runs,
# for a program that runs commands but not shell functions (/usr/bin/time in scripts/bench).
typed_command() {
  local contribution=$1
  shift
  TYPED_COMMAND=(env LANG=en_US.UTF-8 scripts/pty-type --on "$URNE_TYPE_BACK_PROMPT" --send-match
    --on "$URNE_CONTRIBUTION_PROMPT" --send "$contribution"
    --on "$URNE_YES_NO_PROMPT" --send oui -- "$@")
}

# debian_sources: the machine's configured Debian source, as one deb822 file on standard output:
# the enabled entries of /etc/apt/sources.list and /etc/apt/sources.list.d/ (*.list, *.sources)
# of this release's suites (VERSION_CODENAME, -updates, -security), others' repositories left out.
debian_sources() {
  local codename
  codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    # One-line style: deb [options] URI SUITE COMPONENTS…
    awk -v c="$codename" '$1 == "deb" {
        i = 2; opts = ""
        if ($2 ~ /^\[/) { while ($i !~ /\]$/) { opts = opts " " $i; i++ } opts = opts " " $i; i++ }
        if ($(i + 1) != c && index($(i + 1), c "-") != 1) next
        signed = ""
        if (match(opts, /signed-by=[^] ]+/)) signed = substr(opts, RSTART + 10, RLENGTH - 10)
        printf "Types: deb\nURIs: %s\nSuites: %s\nComponents:", $i, $(i + 1)
        for (j = i + 2; j <= NF; j++) printf " %s", $j
        printf "\n"
        if (signed != "") printf "Signed-By: %s\n", signed
        printf "\n"
      }' "$f"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    # deb822: the stanzas of type deb whose suites are this release's, comments dropped.
    awk -v c="$codename" 'BEGIN { RS = ""; FS = "\n" } {
        keep = 0; deb = 0; text = ""
        for (i = 1; i <= NF; i++) {
          if ($i ~ /^#/) continue
          if ($i ~ /^Types:/ && $i ~ /[ \t]deb([ \t]|$)/) deb = 1
          if ($i ~ /^Enabled:[ \t]*no/) { deb = 0; break }
          if ($i ~ /^Suites:/) { n = split(substr($i, 8), s, /[ \t]+/)
            for (j = 1; j <= n; j++) if (s[j] == c || index(s[j], c "-") == 1) keep = 1 }
          text = text $i "\n"
        }
        if (keep && deb) printf "%s\n", text
      }' "$f"
  done
}

# debian_minbase CACHE: prints the path of a tarball of a minimal Debian root of this machine's
# release (mmdebstrap --variant=minbase: Essential:yes packages, apt and the required priority),
# from debian_sources, made once and kept in CACHE (named by the sources' SHA-256: another source
# makes another root; remove the file to take the archive's newest packages).
debian_minbase() {
  local cache=$1 codename sources key tarball
  codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
  mkdir -p "$cache"
  sources=$(debian_sources)
  if [ -z "$sources" ]; then
    echo "error: no Debian source of $codename is configured in /etc/apt/sources.list{,.d}" >&2
    echo "hint: add the Debian archive (or a mirror of it) for $codename to apt's sources" >&2
    exit 3
  fi
  key=$(printf '%s\n%s\n' "$codename" "$sources" | sha256sum | cut -c1-16)
  tarball=$cache/minbase-$codename-$key.tar
  if [ ! -s "$tarball" ]; then
    apt_install mmdebstrap
    printf '%s\n' "$sources" >"$cache/sources-$key"
    say "a minimal Debian root (mmdebstrap --variant=minbase $codename), cached in $tarball"
    if ! mmdebstrap --quiet --variant=minbase --mode=root --format=tar "$codename" "$tarball.tmp" \
      "$cache/sources-$key" >&2; then
      rm -f "$tarball.tmp"
      echo "error: mmdebstrap could not build a minimal $codename root" >&2
      echo "hint: it needs the Debian archive of $cache/sources-$key (a network or a mirror)" >&2
      exit 3
    fi
    mv "$tarball.tmp" "$tarball"
  fi
  echo "$tarball"
}
