#!/usr/bin/env bash
# The acceptance figures of `kvbench compare` (README, "Reading a comparison"):
#  1. false changes: PAIRS pairs of identical runs of a workload (default the
#     quickstart at --scale SCALE on the embedded engines); prints the share of
#     rows labelled faster/slower (target: at most 5%, aim 0);
#  2. detection: PAIRS pairs of a null-engine workload whose operations spin
#     SPIN ns in A and SPIN x 1.15 in B (a real 15% slowdown); prints in how
#     many pairs every row was flagged slower (target: at least 19 of 20).
# Usage: bench/compare_acceptance.sh [PAIRS] [SCALE] [SPIN_NS] [ENGINES]
# FORKS=N REPEAT=R (environment): run every kvbench with --forks N --repeat R
# (each engine's phases in N processes, R repetitions each), to measure how
# forks change the false-change rate; default: the workload's (one process).
# Runs one kvbench at a time; run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
PAIRS=${1:-20}
SCALE=${2:-0.1}
SPIN=${3:-2000}
ENGINES=${4:-sqlite,lmdb,pbtree,bdb-btree,tc-btree,stdmap}
KVBENCH=${KVBENCH:-build/kvbench}
SPREAD=()
[ -n "${FORKS:-}" ] && SPREAD+=(--forks "$FORKS")
[ -n "${REPEAT:-}" ] && SPREAD+=(--repeat "$REPEAT")
WORK=$(mktemp -d /tmp/kvbench-compare-acceptance-XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# Counts from a compare report's summary line "**N compared, C changed, T too noisy...".
summary() { grep -o "^\*\*[0-9]* compared, [0-9]* changed, [0-9]* too noisy" "$1" | tr -dc "0-9 ," ; }

rows=0; changed=0; noisy=0
for i in $(seq 1 "$PAIRS"); do
  "$KVBENCH" run workloads/quickstart.toml --engines "$ENGINES" --scale "$SCALE" --quiet \
      "${SPREAD[@]}" --out "$WORK/a$i" > /dev/null
  "$KVBENCH" run workloads/quickstart.toml --engines "$ENGINES" --scale "$SCALE" --quiet \
      "${SPREAD[@]}" --out "$WORK/b$i" > /dev/null
  "$KVBENCH" compare "$WORK/a$i/results.json" "$WORK/b$i/results.json" > "$WORK/c$i.md" || true
  read -r n c t <<< "$(summary "$WORK/c$i.md" | tr ',' ' ')"
  rows=$((rows + n)); changed=$((changed + c)); noisy=$((noisy + t))
  echo "identical pair $i: $n rows, $c changed, $t too noisy to say"
done
echo "IDENTICAL: $PAIRS pairs, $rows rows, $changed changed ($(awk "BEGIN{printf \"%.1f\", 100*$changed/$rows}")%), $noisy too noisy to say"

. bench/null_spin_workload.sh
null_spin_workload "$SPIN" 20000 "$WORK/base.toml"
null_spin_workload "$((SPIN * 115 / 100))" 20000 "$WORK/slow.toml"
flagged=0
for i in $(seq 1 "$PAIRS"); do
  "$KVBENCH" run "$WORK/base.toml" --quiet "${SPREAD[@]}" --out "$WORK/na$i" > /dev/null
  "$KVBENCH" run "$WORK/slow.toml" --quiet "${SPREAD[@]}" --out "$WORK/nb$i" > /dev/null
  "$KVBENCH" compare "$WORK/na$i/results.json" "$WORK/nb$i/results.json" > "$WORK/nc$i.md" || true
  read -r n c t <<< "$(summary "$WORK/nc$i.md" | tr ',' ' ')"
  slower=$(grep -c '| slower' "$WORK/nc$i.md" || true)
  [ "$slower" -eq "$n" ] && flagged=$((flagged + 1))
  echo "15% slowdown pair $i: $n rows, $slower flagged slower"
done
echo "SLOWDOWN: flagged in $flagged of $PAIRS pairs"
