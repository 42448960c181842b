#!/usr/bin/env bash
# The history store's speed targets (issue 19), through the kvbench binary:
#   1. `kvbench history add` of one run of 10,000 figures (3 repetitions
#      each): under 1 s on SQLite. Timed into an empty store and into one that
#      already holds 1,000 runs; and, when POSTGRES_URL is set, on PostgreSQL.
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
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/runs"
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
  echo "add 10,000-figure run, PostgreSQL ($POSTGRES_URL): $(median_of_5 \
      "psql -q '$POSTGRES_URL' -c 'DROP TABLE IF EXISTS kvbench_repetitions, kvbench_figures, kvbench_engines, kvbench_runs, kvbench_store' >/dev/null" \
      "$KVBENCH" history add "$WORK/big.json" --store "$POSTGRES_URL") s"
fi
echo "trend over 1,000 runs (24 series): $(median_of_5 "" \
    "$KVBENCH" history trend --store "sqlite:$WORK/full.db" -o "$WORK/trend.html") s"
"$KVBENCH" history trend --store "sqlite:$WORK/full.db" -o "$WORK/trend.html"
echo "trend page: $(du -h "$WORK/trend.html" | cut -f1)"
echo "check over 1,000 runs: $(median_of_5 "" \
    "$KVBENCH" history check --store "sqlite:$WORK/full.db" --last 500) s"
