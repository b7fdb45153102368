#!/usr/bin/env bash
# TUI benchmark section: first frame, keystroke-to-frame latency and peak memory at 1k, 10k and
# 100k items (SIZES adds 1M: make bench SIZES=1000,10000,100000,1000000).
# Writes a Markdown fragment to the path given as $1.
# Uses the release binaries in $QUIRE_BIN_DIR (scripts/bench.sh sets it).
set -euo pipefail
out=${1:?usage: bench/tui.sh OUTPUT.md}
bin=${QUIRE_BIN_DIR:?set QUIRE_BIN_DIR to the release build products folder}
"$bin/quire-bench" tui --quire "$bin/quire" --output "$out" --sizes "${SIZES:-1000,10000,100000}" ${QUIRE_BENCH_TUI_ARGS:-}
