#!/usr/bin/env bash
# Sync server benchmark: throughput, round-trip latency and first-pull speed of quire-server
# against SQLite and PostgreSQL, measured with quire-loadgen on loopback.
#
#   bench/server.sh OUTPUT.md        (run by scripts/bench.sh with QUIRE_BIN_DIR set)
#
# Starts its own throwaway PostgreSQL through scripts/with-postgres.sh, and its own servers,
# and stops them all on exit. Writes a Markdown fragment to OUTPUT.md.
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:?usage: bench/server.sh OUTPUT.md}
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
bin=${QUIRE_BIN_DIR:?set QUIRE_BIN_DIR to the folder of the release binaries}
seconds=${QUIRE_BENCH_SECONDS:-10}
pull_items=${QUIRE_BENCH_PULL_ITEMS:-100000}

if [ -z "${QUIRE_TEST_POSTGRES_URL:-}" ]; then
  exec scripts/with-postgres.sh "$0" "$out"
fi

work=$(mktemp -d /tmp/quire-bench-server.XXXXXX)
server_pid=""
stop_server() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  server_pid=""
}
cleanup() { stop_server; rm -rf "$work"; }
trap cleanup EXIT INT TERM

# Starts quire-server with the given store options and sets $port.
start_server() {
  local log="$work/server.log"
  : > "$log"
  "$bin/quire-server" serve "$@" --port 0 --rate-limit 0 >"$log" 2>&1 &
  server_pid=$!
  for _ in $(seq 600); do
    port=$(grep -o 'listening on http://127.0.0.1:[0-9]*' "$log" | grep -o '[0-9]*$' || true)
    [ -n "$port" ] && return 0
    kill -0 "$server_pid" 2>/dev/null || { cat "$log" >&2; return 1; }
    sleep 0.1
  done
  echo "bench/server: quire-server did not start" >&2
  return 1
}

# Runs every measurement against one store: $1 label, then the store options.
measure() {
  local label=$1; shift
  echo "bench/server: $label" >&2
  local tokens="$work/$label.tokens"
  : > "$tokens"
  for n in $(seq 1 64); do "$bin/quire-server" user add "bench$n" "$@" >>"$tokens" 2>/dev/null; done
  "$bin/quire-server" user add puller "$@" >"$work/$label.puller" 2>/dev/null
  start_server "$@"
  local url="http://127.0.0.1:$port"
  "$bin/quire-loadgen" devices --url "$url" --tokens "$tokens" --levels 1,8,32,128 --batch 100 \
    --seconds "$seconds" --label "$label" --rows-only >>"$work/throughput.md"
  "$bin/quire-loadgen" devices --url "$url" --tokens "$tokens" --levels 1,8,32,128 --batch 100 \
    --interval-ms 1000 --seconds "$seconds" --label "$label" --rows-only >>"$work/latency.md"
  "$bin/quire-loadgen" first-pull --url "$url" --tokens "$work/$label.puller" --items "$pull_items" \
    --limit 5000 --label "$label" >>"$work/pull.md"
  stop_server
}

: > "$work/throughput.md"; : > "$work/latency.md"; : > "$work/pull.md"
measure sqlite --db "$work/bench.db"
measure postgresql --postgres "$QUIRE_TEST_POSTGRES_URL"

# The figures the targets name.
best_ops() { awk -F'|' -v s="$1" '$2 ~ s { gsub(/ /,"",$4); if ($4+0 > m) m = $4+0 } END { print m+0 }' "$work/throughput.md"; }
p99_at_32() { awk -F'|' -v s="$1" '$2 ~ s && $3+0 == 32 { gsub(/^ +| +$/,"",$7); print $7 }' "$work/latency.md"; }
pull_rate() { awk -F'|' -v s="$1" '$2 ~ s { gsub(/ /,"",$5); print $5 }' "$work/pull.md"; }

{
  echo "## Sync server"
  echo
  echo "\`quire-loadgen\` drives a release \`quire-server\` on loopback, on the same 2-core machine"
  echo "(so the load generator's own JSON work competes with the server for the CPU). Each simulated"
  echo "device pushes a batch of 100 ops (half creates, half edits of its own items) and pulls a page"
  echo "of changes in the same round; two devices share each user. Requests and answers take the"
  echo "form Quire's own devices use (compact JSON, requests of 1 KiB or more gzip-compressed), so"
  echo "the server does the work real devices ask of it. ${seconds} s per row."
  echo
  echo "Targets: at least 5,000 applied ops/s with batches of 100; p99 round trip under 50 ms at 32"
  echo "devices; a new device's first pull of 100,000 items at 20,000 items/s or more."
  echo
  echo "| figure | SQLite | PostgreSQL | target |"
  echo "| --- | ---: | ---: | --- |"
  echo "| best applied ops/s (batches of 100) | $(best_ops sqlite) | $(best_ops postgresql) | ≥ 5,000 |"
  echo "| p99 round trip, 32 devices at one round/s | $(p99_at_32 sqlite) | $(p99_at_32 postgresql) | < 50 ms |"
  echo "| first pull of ${pull_items} items, items/s | $(pull_rate sqlite) | $(pull_rate postgresql) | ≥ 20,000 |"
  echo
  echo "### Throughput: every device sends its next round as soon as the last one is answered"
  echo
  echo "Latency here is mostly queueing: N devices wait for each other's batches."
  echo
  echo "| store | devices | applied ops/s | rounds/s | p50 round trip | p99 round trip | errors |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
  cat "$work/throughput.md"
  echo
  echo "### Latency: every device syncs a batch of 100 ops once a second"
  echo
  echo "| store | devices | applied ops/s | rounds/s | p50 round trip | p99 round trip | errors |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
  cat "$work/latency.md"
  echo
  echo "### First pull: a new device downloads every item (pages of 5,000) and checks the state hash"
  echo
  echo "| store | items | time | items/s | state hash matches |"
  echo "| --- | ---: | ---: | ---: | --- |"
  cat "$work/pull.md"
} >"$out"
echo "bench/server: wrote $out" >&2
