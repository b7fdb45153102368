#!/usr/bin/env bash
# Sync benchmarks: the sync engine against quire-server on loopback (release build).
# Writes a Markdown fragment to $1; its last part moves a 100 MB attached file up and down.
# SIZES (comma-separated item counts, default 1000,10000,100000) sets the sizes of the
# first-pull cost curve; add 1000000 for the million.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-bench/results/sync.md}"
bin="${QUIRE_BIN_DIR:-$(swift build -c release --show-bin-path)}"
"$bin/quire-bench" sync --server "$bin/quire-server" --pull-sizes "${SIZES:-1000,10000,100000}" > "$out.tmp"
mv "$out.tmp" "$out"
