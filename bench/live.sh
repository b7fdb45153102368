#!/usr/bin/env bash
# Live-sync benchmarks: device to device through hints, and idle hint streams on one server
# (release build). Writes a Markdown fragment to $1.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-bench/results/live.md}"
bin="${QUIRE_BIN_DIR:-$(swift build -c release --show-bin-path)}"
"$bin/quire-bench" live --server "$bin/quire-server" > "$out.tmp"
mv "$out.tmp" "$out"
