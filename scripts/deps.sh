#!/usr/bin/env bash
# Installs the system packages Quire needs when they are missing (Debian/Ubuntu, apt-get).
# Prints nothing when everything is already there.
set -euo pipefail

missing=()
pkg-config --exists ncursesw 2>/dev/null || missing+=(libncursesw5-dev)
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
pkg-config --exists zlib 2>/dev/null || missing+=(zlib1g-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
{ [ -n "$pg_bin" ] && [ -x "$pg_bin/initdb" ]; } || missing+=(postgresql)

[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "deps: missing ${missing[*]} and apt-get is not available; install them by hand" >&2
  exit 1
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
