#!/usr/bin/env bash
# Runs every benchmark section against the release build and writes BENCHMARKS.md.
#
# Each section is a script in bench/ that writes a Markdown fragment to bench/results/NAME.md;
# this joins the fragments under one header. Run through `make bench` (which builds first).
# Pass section names to run only those: scripts/bench.sh cli server
set -euo pipefail
cd "$(dirname "$0")/.."

export QUIRE_BIN_DIR=$(swift build -c release --show-bin-path)
mkdir -p bench/results

sections=("$@")
if [ ${#sections[@]} -eq 0 ]; then
  sections=()
  for script in bench/*.sh; do sections+=("$(basename "$script" .sh)"); done
fi

failed=()
for name in "${sections[@]}"; do
  echo "bench: $name"
  if ! "bench/$name.sh" "bench/results/$name.md"; then
    failed+=("$name")
  fi
done

{
  echo "# Benchmarks"
  echo
  echo "Measured by \`make bench\` (release build) on a 2-core Linux machine, $(date -u +%Y-%m-%d), at"
  echo "${SIZES:-1000,10000,100000} items where a section measures several sizes."
  echo "Each section says what it measures and the target it must meet."
  for script in bench/*.sh; do
    name=$(basename "$script" .sh)
    [ -f "bench/results/$name.md" ] || continue
    echo
    cat "bench/results/$name.md"
  done
} > BENCHMARKS.md

echo "bench: wrote BENCHMARKS.md"
if [ ${#failed[@]} -gt 0 ]; then
  echo "bench: failed sections: ${failed[*]}" >&2
  exit 1
fi
