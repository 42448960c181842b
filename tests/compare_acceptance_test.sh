#!/usr/bin/env bash
# kvbench compare at small scale (the full figures: bench/compare_acceptance.sh):
# on the null engine with a known cost per operation (null.spin_ns), 3 pairs
# of identical runs must show no change on any row, and 3 pairs with a 15%
# slowdown injected must flag every row slower (and exit 1 with
# --fail-on-regression 10). Usage: compare_acceptance_test.sh KVBENCH
set -euo pipefail
KVBENCH=$1
WORK=$(mktemp -d /tmp/kvbench-compare-test-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

. "$(dirname "$0")/../bench/null_spin_workload.sh"
null_spin_workload 3000 20000 "$WORK/base.toml"
null_spin_workload 3450 20000 "$WORK/slow.toml"

for i in 1 2 3; do
  "$KVBENCH" run "$WORK/base.toml" --quiet --out "$WORK/a$i" > /dev/null
  "$KVBENCH" run "$WORK/base.toml" --quiet --out "$WORK/b$i" > /dev/null
  "$KVBENCH" run "$WORK/slow.toml" --quiet --out "$WORK/s$i" > /dev/null
  "$KVBENCH" compare "$WORK/a$i/results.json" "$WORK/b$i/results.json" \
      --fail-on-regression 10 > "$WORK/same$i.md" || fail "identical pair $i: exit $?"
  grep -q '^\*\*2 compared, 0 changed' "$WORK/same$i.md" ||
      fail "identical pair $i: $(grep '^\*\*' "$WORK/same$i.md")"
  rc=0
  "$KVBENCH" compare "$WORK/a$i/results.json" "$WORK/s$i/results.json" \
      --fail-on-regression 10 > "$WORK/slow$i.md" || rc=$?
  [ "$rc" -eq 1 ] || fail "15% slowdown pair $i: exit $rc, expected 1"
  [ "$(grep -c '| \*\*REGRESSION\*\*: slower' "$WORK/slow$i.md")" -eq 2 ] ||
      fail "15% slowdown pair $i: $(cat "$WORK/slow$i.md")"
done
echo "compare acceptance: 3 identical pairs without a change, 3 slowdowns of 15% flagged"
