#!/usr/bin/env bash
# kvbench compare at small scale (the full figures: bench/compare_acceptance.sh):
# on the null engine with a known cost per operation (null.spin_ns), pairs of
# identical runs must show no change, and pairs with a 15% slowdown injected
# must be flagged slower (exit 1 with --fail-on-regression 10) wherever the
# repetitions support it. Every run spreads its 5 repetitions over 5 engine
# processes (--forks 5 --repeat 1), so the intervals hold what differs between
# processes (measured here: p99 latencies of two processes differ by up to 7%
# on the null engine, which one process's repetitions called a change in 2 of
# 8 rows of identical runs, and CI saw 3).
# Usage: compare_acceptance_test.sh KVBENCH
set -euo pipefail
KVBENCH=$1
WORK=$(mktemp -d /tmp/kvbench-compare-test-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
SPREAD=(--forks 5 --repeat 1)

. "$(dirname "$0")/../bench/null_spin_workload.sh"
null_spin_workload 3000 20000 "$WORK/base.toml"
null_spin_workload 3450 20000 "$WORK/slow.toml"

# Ticks of CPU time this (virtual) machine lost to its host (steal): printed
# beside a failed attempt.
steal_ticks() { awk '/^cpu /{print $9}' /proc/stat; }

# Rows of A vs B (ops/s per repetition) where every one of B's repetitions is
# below every one of A's and B's median is at least 10% below A's: the
# Mann-Whitney test cannot miss that (5 against 5 fully apart: p = 0.008), so
# compare must call those rows slower and a regression. On a busy machine the
# repetitions overlap, compare honestly says "too noisy to say", and the row
# is not counted either way.
decisive_rows() {
  python3 - "$1" "$2" <<'PY'
import json, statistics, sys
def rates(path):
    out = {}
    for run in json.load(open(path))["runs"]:
        out[run["phase"]] = [rep["ops"][0]["ops_per_sec"] for rep in run["repetitions"]]
    return out
a, b = rates(sys.argv[1]), rates(sys.argv[2])
print(sum(1 for p in a if p in b and max(b[p]) < min(a[p])
          and statistics.median(b[p]) <= 0.9 * statistics.median(a[p])))
PY
}

# One attempt over 4 pairs, as bench/compare_acceptance.sh counts over 20:
#  - identical runs: at most 2 of the 8 rows changed. The bench measured 4.3%
#    of identical rows labelled changed with one process a run; at 4.3%, 2 of 8
#    happens in 4.4% of attempts and 3 of 8 in 0.4%, so the bound is 2. A
#    compare that labels noise a change at several times that rate fails it.
#  - the 15% slowdown: every decisive row (above) flagged slower with exit 1,
#    and no row of any pair called faster or "no change" (so a compare that
#    says "too noisy" to everything fails wherever the data is clear, which on
#    a quiet machine is most pairs; beside two CPU hogs none was).
attempt() {
  local changed=0 decisive=0 missed=0 wrong=0 clear_pairs=0 i n rc slower d
  for i in 1 2 3 4; do
    "$KVBENCH" run "$WORK/base.toml" --quiet "${SPREAD[@]}" --out "$WORK/a$i" > /dev/null
    "$KVBENCH" run "$WORK/base.toml" --quiet "${SPREAD[@]}" --out "$WORK/b$i" > /dev/null
    "$KVBENCH" run "$WORK/slow.toml" --quiet "${SPREAD[@]}" --out "$WORK/s$i" > /dev/null
    "$KVBENCH" compare "$WORK/a$i/results.json" "$WORK/b$i/results.json" \
        --fail-on-regression 10 > "$WORK/same$i.md" || true
    n=$(grep -o '^\*\*2 compared, [0-9]* changed' "$WORK/same$i.md" | grep -o '[0-9]* changed' |
        grep -o '[0-9]*' || echo 99)
    changed=$((changed + n))
    echo "identical pair $i: $(grep '^\*\*' "$WORK/same$i.md")"
    rc=0
    "$KVBENCH" compare "$WORK/a$i/results.json" "$WORK/s$i/results.json" \
        --fail-on-regression 10 > "$WORK/slow$i.md" || rc=$?
    slower=$(grep -c '| \*\*REGRESSION\*\*: slower' "$WORK/slow$i.md" || true)
    d=$(decisive_rows "$WORK/a$i/results.json" "$WORK/s$i/results.json")
    wrong=$((wrong + $(grep -cE '^\| (put|get) .*\| (faster|no change)' "$WORK/slow$i.md" || true)))
    echo "15% slowdown pair $i: exit $rc, $slower of 2 rows flagged slower, $d of 2 decisive"
    decisive=$((decisive + d))
    if [ "$slower" -lt "$d" ] || { [ "$d" -gt 0 ] && [ "$rc" -ne 1 ]; }; then
      missed=$((missed + 1))
    fi
    [ "$d" -eq 2 ] && clear_pairs=$((clear_pairs + 1))
    rm -rf "$WORK/a$i" "$WORK/b$i" "$WORK/s$i"
  done
  echo "attempt: $changed of 8 identical rows changed; slowdown: $decisive of 8 rows decisive," \
       "$missed pairs missed one, $wrong rows called faster or no change; $clear_pairs of 4" \
       "pairs decisive in both rows"
  [ "$changed" -le 2 ] && [ "$missed" -eq 0 ] && [ "$wrong" -eq 0 ] || return 1
  # Overlapping repetitions are the machine's noise (one slow process among
  # five is enough), said but not failed on.
  if [ "$clear_pairs" -lt 4 ]; then
    echo "note: $clear_pairs of 4 slowdown pairs had both rows' repetitions fully apart" \
         "(load $(cut -d' ' -f1-3 /proc/loadavg)); detection was checked on those rows only"
  fi
}

# A second attempt when the first fails: a shared host that slows for a second
# (CI saw one run 15% slower than its neighbours, which compare then reported
# truthfully as a change) rarely does so twice in a row, while a compare that
# is wrong fails both. False failures: 0.4% x 0.4% of runs on a quiet machine.
for try in 1 2; do
  before=$(steal_ticks)
  if attempt; then
    echo "compare acceptance: passed on attempt $try"
    exit 0
  fi
  echo "attempt $try failed ($(($(steal_ticks) - before)) ticks stolen by the host meanwhile," \
       "load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
done
echo "FAIL: compare acceptance failed two attempts in a row" >&2
exit 1
