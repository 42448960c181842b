#!/usr/bin/env bash
# The change-point detector's acceptance over 1,000 generated series (issue
# 19): a 10% step in 3% noise found within 2 points in at least 95% of step
# series; a change in at most 5% of flat series. Also prints shorter and
# longer series and a smaller step for context. Exit 1 if the main line fails.
# Usage: bench/change_point_rates.sh [BUILD_DIR]
set -euo pipefail
BUILD=${1:-build}
BIN="$BUILD/bench/change_point_rates"
[ -x "$BIN" ] || { echo "build $BIN first (cmake --build $BUILD --target change_point_rates)" >&2; exit 2; }
echo "== acceptance: 1,000 series of 50 points, 10% step, 3% noise"
"$BIN" 1000 50 0.10 0.03 42
for args in "1000 20 0.10 0.03 7" "1000 200 0.10 0.03 7" "1000 50 0.05 0.03 7"; do
  echo "== context: series length, step, noise = $(echo "$args" | cut -d' ' -f2-4)"
  "$BIN" $args | grep -E "^(step|flat|time)" || true
done
