#!/usr/bin/env bash
# Installs the system packages Quire needs when they are missing (Debian/Ubuntu, apt-get;
# cmark-gfm for rendering Markdown; libsodium for end-to-end encryption;
# openssl's command line for the server's TLS tests),
# and the API checker schemathesis (a pinned version from PyPI) into .build/venv.
# With --bench (make bench) also Taskwarrior, which the benchmarks time side by side with
# Quire; a build or a test run does not need it. Prints nothing when everything is already there.
set -euo pipefail

bench=false
for arg in "$@"; do
  case "$arg" in
    --bench) bench=true ;;
    *) echo "usage: scripts/deps.sh [--bench]" >&2; exit 2 ;;
  esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
schemathesis_version=4.32.5

# The API checker's virtual environment: created when missing or holding another version.
install_schemathesis() {
  local venv="$root/.build/venv"
  "$venv/bin/schemathesis" --version 2>/dev/null | grep -qF "version $schemathesis_version" && return 0
  echo "deps: installing schemathesis $schemathesis_version into .build/venv"
  rm -rf "$venv"
  mkdir -p "$root/.build"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$schemathesis_version"
}

missing=()
pkg-config --exists ncursesw 2>/dev/null || missing+=(libncursesw5-dev)
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
pkg-config --exists zlib 2>/dev/null || missing+=(zlib1g-dev)
# CommonMark with GitHub's extensions, for the rendered notes (the extensions have no .pc).
pkg-config --exists libcmark-gfm 2>/dev/null || missing+=(libcmark-gfm-dev)
[ -f /usr/include/cmark-gfm-core-extensions.h ] || missing+=(libcmark-gfm-extensions-dev)
# Argon2id, XChaCha20-Poly1305 and keyed BLAKE2b for end-to-end encryption (QuireCrypto).
pkg-config --exists libsodium 2>/dev/null || missing+=(libsodium-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || missing+=(python3-venv)
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
{ [ -n "$pg_bin" ] && [ -x "$pg_bin/initdb" ]; } || missing+=(postgresql)
if $bench; then
  command -v task >/dev/null 2>&1 || missing+=(taskwarrior)
fi

if [ ${#missing[@]} -eq 0 ]; then
  install_schemathesis
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "deps: missing ${missing[*]} and apt-get is not available; install them by hand" >&2
  exit 1
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
install_schemathesis
