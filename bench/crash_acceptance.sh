#!/usr/bin/env bash
# The full trial counts of issue 18's acceptance (CI runs fewer: see
# tests/crash_acceptance_test.sh), quoted in docs/durability.md:
#   sqlite synchronous=OFF and LMDB NOSYNC: 20 power-loss trials each, losing
#     acknowledged commits in at least one;
#   sqlite FULL, LMDB sync (its own default) and pbtree sync=commit: 50
#     power-loss and 50 torn trials each, nothing lost, no partial batch;
#   pbtree: 200 power-loss and 200 kill trials (both sync modes killed), no
#     corruption.
# Prints one line per engine and fault and exits non-zero when a figure misses.
# Usage: flock /tmp/kvbench-cpu.lock bench/crash_acceptance.sh build/kvbench [OUT]
set -euo pipefail
KVBENCH=$1
SRC=$(cd "$(dirname "$0")/.." && pwd)
OUT=${2:-$(mktemp -d /tmp/kvbench-crash-bench-XXXXXX)}
WL=$SRC/workloads/durability.toml
run() { "$KVBENCH" crash "$WL" --no-throughput --quiet --overwrite "$@" > /dev/null; }
run --engines sqlite@off,lmdb@nosync --fault power-loss --trials 20 --out "$OUT/loses"
run --engines sqlite@full,lmdb@sync,pbtree@commit --fault power-loss,torn --trials 50 --out "$OUT/durable"
run --engines pbtree@commit --fault power-loss --trials 200 --out "$OUT/pbtree-power"
run --engines pbtree@commit,pbtree@none --fault kill --trials 200 --out "$OUT/pbtree-kill"
python3 - "$OUT" <<'PY'
import json, sys, statistics
out = sys.argv[1]
rules = {
    "loses": lambda d: d["trials_losing_acked"] >= 1,
    "durable": lambda d: d["trials_losing_acked"] == 0 and d["atomicity_violations"] == 0 and d["corrupt"] == 0 and d["unopenable"] == 0,
    "pbtree-power": lambda d: d["trials_losing_acked"] == 0 and d["corrupt"] == 0 and d["unopenable"] == 0,
    "pbtree-kill": lambda d: d["corrupt"] == 0 and d["unopenable"] == 0 and d["atomicity_violations"] == 0,
}
bad = 0
for name, rule in rules.items():
    for d in json.load(open(f"{out}/{name}/results.json"))["durability"]:
        ok = d["status"] == "ok" and rule(d)
        bad += not ok
        rec = d["recovery_s"]
        print(f"{'ok  ' if ok else 'MISS'} {d['engine']:15} {d['fault']:10} trials {d['trials']:3}  "
              f"lost acked in {d['trials_losing_acked']:3} (most {d['most_commits_lost']:3}, "
              f"{d['commits_lost']}/{d['commits_acked']} commits)  partial {d['atomicity_violations']}  "
              f"corrupt {d['corrupt']}  unopenable {d['unopenable']}  integrity checked {d['integrity_checked']}  "
              f"recovery median {statistics.median(rec)*1e3:.2f} ms max {max(rec)*1e3:.2f} ms")
sys.exit(1 if bad else 0)
PY
