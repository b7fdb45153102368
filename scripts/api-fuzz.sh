#!/usr/bin/env bash
# Checks a real quire-server against Resources/openapi.yaml with schemathesis: every check,
# a bounded number of generated requests per operation, a fixed seed. Exits non-zero on any
# finding. The hint stream (/v1/hints) is fuzzed too: the server under test ends each stream
# after a second (--hint-lifetime 1), so schemathesis reads its events and checks each one
# against the per-event schema in openapi.yaml.
#
#   scripts/api-fuzz.sh [BIN_DIR]
#
# BIN_DIR holds the built quire-server (default: `swift build --show-bin-path`). The server
# runs on an ephemeral loopback port with a throwaway SQLite database, and is stopped on every
# exit path. schemathesis comes from the virtual environment `scripts/deps.sh` creates.
# Variables: FUZZ_EXAMPLES (cases per operation and phase, default 60), FUZZ_SEED.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$(cd "$root" && swift build --show-bin-path)}
schemathesis="$root/.build/venv/bin/schemathesis"
if [ ! -x "$schemathesis" ]; then
  echo "api-fuzz: schemathesis is not installed (run 'make deps')" >&2
  exit 1
fi
if [ ! -x "$bin/quire-server" ]; then
  echo "api-fuzz: no quire-server in $bin (run 'swift build')" >&2
  exit 1
fi

dir=$(mktemp -d /tmp/quire-api-fuzz.XXXXXX)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$dir"
}
trap cleanup EXIT INT TERM

token=$("$bin/quire-server" user add fuzz --db "$dir/server.db" 2>/dev/null)
"$bin/quire-server" serve --db "$dir/server.db" --port 0 --rate-limit 0 --address-rate-limit 0 --hint-lifetime 1 >"$dir/server.log" 2>&1 &
server_pid=$!

port=""
for _ in $(seq 1 600); do
  port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9][0-9]*\).*|\1|p' "$dir/server.log" | head -n 1)
  [ -n "$port" ] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$dir/server.log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$port" ] || { echo "api-fuzz: quire-server did not start" >&2; cat "$dir/server.log" >&2; exit 1; }

started=$(date +%s)
status=0
(cd "$dir" && "$schemathesis" --config-file "$root/scripts/schemathesis.toml" run "$root/Resources/openapi.yaml" \
  --url "http://127.0.0.1:$port" \
  --header "Authorization: Bearer $token" \
  --checks all \
  --max-examples "${FUZZ_EXAMPLES:-60}" \
  --seed "${FUZZ_SEED:-16}" \
  --generation-database none \
  --workers 2 \
  --request-timeout 30 \
  --no-color \
  --report junit --report-junit-path "$dir/junit.xml") > "$dir/summary.txt" 2>&1 || status=$?
cat "$dir/summary.txt"
echo "api-fuzz: schemathesis exited $status after $(( $(date +%s) - started )) s"
# A request the server failed on shows in its log even when the answer looked fine.
if grep -qE ' (error|critical) ' "$dir/server.log"; then
  echo "api-fuzz: the server logged errors:" >&2
  grep -E ' (error|critical) ' "$dir/server.log" | head -n 20 >&2
  status=1
fi
# One closing line in the plain form test runners end with: cases that passed, and findings.
cases=$(grep -oE '[0-9]+ generated, [0-9]+ passed' "$dir/summary.txt" | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+' || echo 0)
if [ "$status" -eq 0 ]; then echo "api-fuzz: ${cases:-0} passed, 0 failed"; else echo "api-fuzz: ${cases:-0} passed, 1 failed"; fi
exit $status
