#!/usr/bin/env bash
# Encryption benchmark section: unlocking the key ring (Argon2id at the parameters calibrated on
# this machine) and sealing, opening and MACing one field value, in process.
# Writes a Markdown fragment to the path given as $1.
# Uses the release binaries in $QUIRE_BIN_DIR (scripts/bench.sh sets it).
set -euo pipefail
out=${1:?usage: bench/crypto.sh OUTPUT.md}
bin=${QUIRE_BIN_DIR:?set QUIRE_BIN_DIR to the release build products folder}
"$bin/quire-bench" crypto --output "$out" ${QUIRE_BENCH_CRYPTO_ARGS:-}
