#!/usr/bin/env bash
# Sync benchmarks: the sync engine against quire-server on loopback (release build).
# Writes a Markdown fragment to $1.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-bench/results/sync.md}"
bin="${QUIRE_BIN_DIR:-$(swift build -c release --show-bin-path)}"
"$bin/quire-bench" sync --server "$bin/quire-server" > "$out.tmp"
mv "$out.tmp" "$out"
