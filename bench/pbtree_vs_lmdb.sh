#!/usr/bin/env bash
# pbtree against LMDB on seed 001, over several whole runs (issue 22): one run
# gives each phase a median and its interval, but on a shared machine the
# ratio of two engines measured a minute apart moves from run to run by more
# than those intervals. This runs `kvbench run workloads/seed-001-urls.toml
# --engines pbtree,lmdb` RUNS times and prints, per phase, the pbtree / lmdb
# ratio of each run's medians, and their median, min and max over the runs.
# Usage: bench/pbtree_vs_lmdb.sh [RUNS=5] [KVBENCH=build/kvbench] [-- run options]
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}
KVBENCH=${2:-build/kvbench}
shift $(( $# > 2 ? 2 : $# ))
[ "${1:-}" = "--" ] && shift
OUT=$(mktemp -d /tmp/kvbench-pbtree-vs-lmdb-XXXXXX)
for i in $(seq 1 "$RUNS"); do
  "$KVBENCH" run workloads/seed-001-urls.toml --engines pbtree,lmdb --quiet \
      --out "$OUT/run$i" "$@" > /dev/null
  echo "run $i of $RUNS done" >&2
done
python3 - "$OUT" "$RUNS" <<'PY'
import json, statistics, sys
out, runs = sys.argv[1], int(sys.argv[2])
ratios = {}
for i in range(1, runs + 1):
    with open(f"{out}/run{i}/results.json") as f:
        results = json.load(f)
    medians = {}
    for r in results["runs"]:
        reps = [x["ops"][0]["ops_per_sec"] for x in r["repetitions"] if x.get("ops")]
        if r["status"] != "ok" or not reps:
            continue
        point = r["phase"] + (f" ({r['cache']})" if r["cache"] else "") + \
            (f" ({r['threads']} threads)" if r["threads"] > 1 else "")
        medians[(point, r["engine"])] = statistics.median(reps)
    for (point, engine), v in medians.items():
        if engine == "pbtree" and (point, "lmdb") in medians:
            ratios.setdefault(point, []).append(v / medians[(point, "lmdb")])
print(f"pbtree / lmdb ops/s over {runs} runs of seed 001 (each run: medians of its repetitions)")
print(f"| phase | median | min | max | runs above 1 | each run, in order |")
print(f"|---|---:|---:|---:|---:|---|")
for point, rs in ratios.items():
    above = sum(1 for r in rs if r > 1)
    each = " ".join(f"{r:.2f}" for r in rs)
    print(f"| {point} | {statistics.median(rs):.2f} | {min(rs):.2f} | {max(rs):.2f} | "
          f"{above} of {len(rs)} | {each} |")
PY
rm -rf "$OUT"
