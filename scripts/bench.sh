#!/usr/bin/env bash
# Runs every benchmark section against the release build and writes BENCHMARKS.md.
#
# Each section is a script in bench/ that writes a Markdown fragment to bench/results/NAME.md;
# this joins the fragments under one header. Run through `make bench` (which builds first).
# Pass section names to run only those: scripts/bench.sh cli server. The other sections keep
# what BENCHMARKS.md already shows (taken from it when bench/results does not hold them, as in a
# fresh clone), and the header says which sections were re-run alone, when, at which sizes.
set -euo pipefail
cd "$(dirname "$0")/.."

export QUIRE_BIN_DIR=$(swift build -c release --show-bin-path)
mkdir -p bench/results

sections=("$@")
if [ ${#sections[@]} -eq 0 ]; then
  sections=()
  for script in bench/*.sh; do sections+=("$(basename "$script" .sh)"); done
fi

all=()
for script in bench/*.sh; do all+=("$(basename "$script" .sh)"); done
partial=$([ ${#sections[@]} -lt ${#all[@]} ] && echo yes || echo no)

# A partial run keeps the other sections as BENCHMARKS.md shows them. Its `## ` parts are the
# fragments in bench/*.sh order, as written below; when their number does not match, nothing is
# taken, and only the sections with fragments in bench/results appear.
if [ "$partial" = yes ] && [ -f BENCHMARKS.md ]; then
  parts=$(grep -c '^## ' BENCHMARKS.md || true)
  if [ "$parts" -eq ${#all[@]} ]; then
    awk -v names="${all[*]}" -v dir=bench/results '
      BEGIN { n = split(names, name, " ") }
      # The blank line before each `## ` is the one this script puts between fragments.
      /^## / { if (part) for (; blank > 1; blank--) print "" > file; part++; file = dir "/" name[part] ".md.kept"; blank = 0 }
      part == 0 { next }
      /^$/ { blank++; next }
      { for (; blank > 0; blank--) print "" > file; print > file }
      END { if (part) for (; blank > 0; blank--) print "" > file }
    ' BENCHMARKS.md
    for name in "${all[@]}"; do
      if [ -f "bench/results/$name.md" ]; then
        rm -f "bench/results/$name.md.kept"
      elif [ -f "bench/results/$name.md.kept" ]; then
        mv "bench/results/$name.md.kept" "bench/results/$name.md"
      fi
    done
  else
    echo "bench: BENCHMARKS.md has $parts sections, not ${#all[@]}: only bench/results is joined" >&2
  fi
fi
# What the header said before (its lines after the title, up to the first section).
previous_header=$([ -f BENCHMARKS.md ] && awk '/^## /{exit} NR > 2' BENCHMARKS.md | sed '/^$/d' || true)

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
  if [ "$partial" = yes ] && [ -n "$previous_header" ]; then
    echo "$previous_header"
    echo "Re-run alone on $(date -u +%Y-%m-%d) at ${SIZES:-1000,10000,100000} items: ${sections[*]}."
  else
    echo "Measured by \`make bench\` (release build) on a 2-core Linux machine, $(date -u +%Y-%m-%d), at"
    echo "${SIZES:-1000,10000,100000} items where a section measures several sizes."
    echo "Each section says what it measures and the target it must meet."
  fi
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
