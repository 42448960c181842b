#!/usr/bin/env bash
# kvbench against the bare loops (bench/bare_loops.cc) on sqlite and lmdb:
# the median ops/s of each over REPS repetitions and the ratio kvbench/bare.
# Then whitedb: the seed-000 insert (speed5, WHITEDB_RECORDS records) and
# indexed-query (speed13, WHITEDB_QUERIES queries) tests through the adapter
# against bare loops on WhiteDB's C API (bench/whitedb_loops.cc), REPS
# repetitions after a warm-up: the median ratio adapter/bare with its interval,
# the bare/bare ratio beside it (the noise), and instructions and cycles per
# operation (issue 30 asks for a ratio of at least 0.9).
# Usage: bench/bare_loop_ratio.sh [REPS] [WHITEDB_RECORDS] [WHITEDB_QUERIES]
# (defaults 5, 10000000, 1000000: the seed's counts); run on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
REPS=${1:-5}
WHITEDB_RECORDS=${2:-10000000}
WHITEDB_QUERIES=${3:-1000000}
WORK=$(mktemp -d /tmp/kvbench-bare-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
build/kvbench run bench/bare-loop.toml --repeat "$REPS" --quiet --out "$WORK/kvbench" > /dev/null
for engine in sqlite lmdb; do
  build/bench/bare_loops "$engine" "$WORK/bare-$engine" 1000000 "$REPS" > "$WORK/$engine.txt"
  for phase in load get; do
    bare=$(awk -v p="$phase" '{for (i=1;i<NF;i++) if ($i==p) print $(i+1)}' "$WORK/$engine.txt" | median)
    kv=$(python3 - "$WORK/kvbench/results.json" "$engine" "$phase" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["runs"]:
    if r["engine"] == sys.argv[2] and r["phase"] == sys.argv[3]:
        print(r["summary"]["ops"]["all"]["ops_per_sec"]["median"])
PY
)
    awk -v e="$engine" -v p="$phase" -v k="$kv" -v b="$bare" \
      'BEGIN {printf "%-6s %-4s kvbench %10.0f ops/s  bare %10.0f ops/s  ratio %.3f\n", e, p, k, b, k/b}'
  done
done
# whitedb_loops is built only where libwgdb is (bench/CMakeLists.txt).
if [[ -x build/bench/whitedb_loops ]]; then
  build/bench/whitedb_loops "$WHITEDB_RECORDS" "$WHITEDB_QUERIES" "$REPS" > "$WORK/whitedb.txt"
  # Its summary lines, one per test: "whitedb insert adapter A ops/s  bare B
  # ops/s  ratio R [lo, hi]  bare/bare C [lo, hi] ...".
  grep '^whitedb ' "$WORK/whitedb.txt"
else
  echo "bare_loop_ratio.sh: build/bench/whitedb_loops is not built (no libwgdb): whitedb skipped" >&2
fi
