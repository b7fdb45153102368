#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL server on loopback, then stops and removes it.
#
#   scripts/with-postgres.sh COMMAND [ARGS...]
#
# The command sees QUIRE_TEST_POSTGRES_URL (postgres://quire@127.0.0.1:PORT/quire_test).
# The server lives in a temporary directory, listens on 127.0.0.1 only, and is stopped on every
# exit path. PostgreSQL refuses to run as root, so under root it runs as the `postgres` user.
set -euo pipefail

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$pg_bin" ] || [ ! -x "$pg_bin/initdb" ]; then
  echo "with-postgres: PostgreSQL is not installed (run 'make deps')" >&2
  exit 1
fi

as_pg=()
if [ "$(id -u)" -eq 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
  as_pg=(runuser -u postgres --)
fi

dir=$(mktemp -d /tmp/quire-pg.XXXXXX)
chmod 0755 "$dir"
[ ${#as_pg[@]} -eq 0 ] || chown postgres "$dir"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')

cleanup() {
  "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT INT TERM

"${as_pg[@]}" "$pg_bin/initdb" -D "$dir/data" -A trust -U quire --no-sync -E UTF8 >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 1; }
"${as_pg[@]}" "$pg_bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null \
  || { cat "$dir/server.log" >&2; exit 1; }
"${as_pg[@]}" "$pg_bin/createdb" -h 127.0.0.1 -p "$port" -U quire quire_test

export QUIRE_TEST_POSTGRES_URL="postgres://quire@127.0.0.1:$port/quire_test"
set +e
"$@"
status=$?
set -e
exit $status
