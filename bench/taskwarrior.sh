#!/usr/bin/env bash
# Side-by-side section: the release `quire` beside Taskwarrior 2.6's `task` (Debian's
# `taskwarrior`, which `make bench` installs through scripts/deps.sh --bench) on the same 10k
# items: add, done, list, search and import, each as a ratio. Writes a Markdown fragment to the
# path given as $1. Uses the release binaries in $QUIRE_BIN_DIR (scripts/bench.sh sets it).
set -euo pipefail
out=${1:?usage: bench/taskwarrior.sh OUTPUT.md}
bin=${QUIRE_BIN_DIR:?set QUIRE_BIN_DIR to the release build products folder}
# A missing Taskwarrior fails the section, so that a run without it cannot look complete.
task=$(command -v task) || {
  echo "bench/taskwarrior.sh: Taskwarrior's task is not installed; run scripts/deps.sh --bench" >&2
  exit 1
}
"$bin/quire-bench" taskwarrior --quire "$bin/quire" --task "$task" --output "$out" ${QUIRE_BENCH_TASKWARRIOR_ARGS:-}
