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
