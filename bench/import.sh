#!/usr/bin/env bash
# Import benchmark section: `quire import` of JSON and Taskwarrior files at growing sizes, with
# the peak memory of the process. Writes a Markdown fragment to the path given as $1.
# SIZES (comma-separated item counts) adds the million: make bench SIZES=1000,10000,100000,1000000
set -euo pipefail
out=${1:?usage: bench/import.sh OUTPUT.md}
bin=${QUIRE_BIN_DIR:?set QUIRE_BIN_DIR to the release build products folder}
"$bin/quire-bench" import --quire "$bin/quire" --output "$out" --sizes "${SIZES:-1000,10000,100000}"
