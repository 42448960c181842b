#!/usr/bin/env bash
# kvbench compare at small scale (the full figures: bench/compare_acceptance.sh):
# on the null engine with a known cost per operation (null.spin_ns), pairs of
# identical runs must show no change, and pairs with a 15% slowdown injected
# must flag every row slower (and exit 1 with --fail-on-regression 10).
# Usage: compare_acceptance_test.sh KVBENCH
set -euo pipefail
KVBENCH=$1
WORK=$(mktemp -d /tmp/kvbench-compare-test-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

. "$(dirname "$0")/../bench/null_spin_workload.sh"
null_spin_workload 3000 20000 "$WORK/base.toml"
null_spin_workload 3450 20000 "$WORK/slow.toml"

# Counted over 4 pairs, as bench/compare_acceptance.sh counts over 20: at most
# 2 of the 8 identical rows changed, and the slowdown flagged (exit 1, every
# row slower) in at least 3 of 4 pairs (its 19 of 20). The bench measured
# 4.3% of identical rows labelled changed on these machines (1.7% since ops/s
# divide by the time inside the engine's calls, one run of 20 pairs); at 4.3%
# 2 of 8 happens in 4.4% of runs and 3 of 8 in 0.4%, so the bound is 2. A compare
# that labels noise a change at several times that rate still fails it, as
# does one that misses a 15% slowdown.
changed=0
flagged=0
for i in 1 2 3 4; do
  "$KVBENCH" run "$WORK/base.toml" --quiet --out "$WORK/a$i" > /dev/null
  "$KVBENCH" run "$WORK/base.toml" --quiet --out "$WORK/b$i" > /dev/null
  "$KVBENCH" run "$WORK/slow.toml" --quiet --out "$WORK/s$i" > /dev/null
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
  echo "15% slowdown pair $i: exit $rc, $slower of 2 rows flagged slower"
  if [ "$rc" -eq 1 ] && [ "$slower" -eq 2 ]; then flagged=$((flagged + 1)); fi
done
[ "$changed" -le 2 ] || fail "$changed of 8 rows of identical runs labelled changed"
[ "$flagged" -ge 3 ] || fail "the 15% slowdown was flagged in $flagged of 4 pairs"
echo "compare acceptance: $changed of 8 identical rows changed, slowdown flagged in $flagged of 4"
