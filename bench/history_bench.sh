#!/usr/bin/env bash
# The history store's speed targets (issue 19), through the kvbench binary:
#   1. `kvbench history add` of one run of 10,000 figures (3 repetitions
#      each): under 1 s on SQLite. Timed into an empty store and into one that
#      already holds 1,000 runs; and on PostgreSQL: the server at POSTGRES_URL,
#      else a private one this script starts (initdb into a temporary
#      directory, a Unix socket there, default durability settings, stopped
#      by its pid at the end), when PostgreSQL is installed.
#   2. `kvbench history trend` over 1,000 runs (4 engines x 6 phases = 24
#      series of 1,000 points, two with a 10% step): under 2 s.
# Each timing is the median of 5 (wall clock of the whole command). Run
# under the CPU lock on a Release build:
#   flock /tmp/kvbench-cpu.lock bench/history_bench.sh build
set -euo pipefail
BUILD=${1:-build}
KVBENCH="$BUILD/kvbench"
DATA="$BUILD/bench/history_bench_data"
WORK=$(mktemp -d /tmp/kvbench-history-bench-XXXXXX)
PG_PID=
cleanup() {
  if [ -n "$PG_PID" ]; then
    kill -INT "$PG_PID" 2>/dev/null || true
    while kill -0 "$PG_PID" 2>/dev/null; do sleep 0.1; done
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "${POSTGRES_URL:-}" ] && [ -n "$PG_BIN" ]; then
  # PostgreSQL refuses to run as root: then it runs as the postgres user.
  AS=()
  mkdir -p "$WORK/pg"
  if [ "$(id -u)" -eq 0 ]; then chown postgres: "$WORK" "$WORK/pg"; AS=(runuser -u postgres --); fi
  "${AS[@]}" "$PG_BIN/initdb" -D "$WORK/pg/data" -A trust -U kvbench -E UTF8 --locale=C >/dev/null
  "${AS[@]}" "$PG_BIN/postgres" -D "$WORK/pg/data" -k "$WORK/pg" -c listen_addresses= \
      >"$WORK/pg/log" 2>&1 &
  until [ -f "$WORK/pg/data/postmaster.pid" ] && \
      psql -q "postgresql:///postgres?host=$WORK/pg&user=kvbench" -c 'SELECT 1' >/dev/null 2>&1; do
    sleep 0.2
  done
  PG_PID=$(head -1 "$WORK/pg/data/postmaster.pid")
  POSTGRES_URL="postgresql:///postgres?host=$WORK/pg&user=kvbench"
fi
mkdir -p "$WORK/runs"; chmod 755 "$WORK"
"$DATA" big "$WORK" 10000
"$DATA" runs "$WORK/runs" 1000

# Median wall seconds of 5 runs of a command; SETUP runs before each, untimed.
median_of_5() {
  local setup=$1; shift
  local times=()
  for _ in 1 2 3 4 5; do
    eval "$setup"
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc)")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n 3p
}

figures=$("$KVBENCH" history add "$WORK/big.json" --store "sqlite:$WORK/probe.db" | grep -o '[0-9]* figures')
echo "big run: $figures, $(du -h "$WORK/big.json" | cut -f1) of JSON"
echo "add 10,000-figure run, empty SQLite store: $(median_of_5 "rm -f $WORK/e.db*" \
    "$KVBENCH" history add "$WORK/big.json" --store "sqlite:$WORK/e.db") s"

"$KVBENCH" history add "$WORK"/runs/*.json --store "sqlite:$WORK/full.db" >/dev/null
echo "store of 1,000 runs: $(du -h "$WORK/full.db" | cut -f1)"
echo "add 10,000-figure run, SQLite store of 1,000 runs: $(median_of_5 \
    "cp $WORK/full.db $WORK/f.db; rm -f $WORK/f.db-wal $WORK/f.db-shm" \
    "$KVBENCH" history add "$WORK/big.json" --store "sqlite:$WORK/f.db") s"
if [ -n "${POSTGRES_URL:-}" ]; then
  echo "add 10,000-figure run, empty PostgreSQL store: $(median_of_5 \
      "PGOPTIONS=--client-min-messages=warning psql -q '$POSTGRES_URL' -c 'DROP TABLE IF EXISTS kvbench_repetitions, kvbench_figures, kvbench_engines, kvbench_runs, kvbench_store' >/dev/null" \
      "$KVBENCH" history add "$WORK/big.json" --store "$POSTGRES_URL") s"
fi
echo "trend over 1,000 runs (24 series): $(median_of_5 "" \
    "$KVBENCH" history trend --store "sqlite:$WORK/full.db" -o "$WORK/trend.html") s"
"$KVBENCH" history trend --store "sqlite:$WORK/full.db" -o "$WORK/trend.html"
echo "trend page: $(du -h "$WORK/trend.html" | cut -f1)"
echo "check over 1,000 runs: $(median_of_5 "" \
    "$KVBENCH" history check --store "sqlite:$WORK/full.db" --last 500) s"
