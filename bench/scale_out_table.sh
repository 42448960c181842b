#!/usr/bin/env bash
# The tables of docs/scale-out.md: how long each seed workload's full matrix
# takes on 1, 4, 16 and 64 nodes, from times measured on this machine.
#
#   flock /tmp/kvbench-cpu.lock bench/scale_out_table.sh [SCALE] [KVBENCH] [WORKLOAD...]
#
# For each workload (default: the five seed workloads):
#  1. runs it once at SCALE (default 0.02) with --repeat 2: results.json then
#     holds the measured wall time of every matrix point (wall_seconds);
#  2. runs the same plan as 4 shards one after another and merges them: each
#     shard's measured time against the estimate from step 1 (setup replays
#     included), the merge's time, and that the merge holds every row;
#  3. estimates the full-size plan (scale 1, the workload's repetitions) on N =
#     1, 4, 16, 64 nodes with `kvbench validate --shards N --costs` (step 1's
#     times scaled by count): the longest shard, and the longest unit, which no
#     number of nodes can beat.
set -euo pipefail
SCALE=${1:-0.02}
KVBENCH=${2:-build/kvbench}
shift $(( $# > 2 ? 2 : $# ))
WORKLOADS=("$@")
if [ ${#WORKLOADS[@]} -eq 0 ]; then
  WORKLOADS=(workloads/seed-000-whitedb.toml workloads/seed-001-urls.toml
             workloads/seed-002-ycsb.toml workloads/seed-003-dbreeze.toml
             workloads/seed-004-records.toml)
fi
WORK=$(mktemp -d /tmp/kvbench-scaleout-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
# "estimated wall time on N nodes: X (shard ...)" -> X
estimate() { sed -n 's/^estimated wall time on [0-9]* nodes\{0,1\}: \([^(]*\) (.*/\1/p' | sed 's/ $//'; }

measured_rows=""
full_rows=""
for w in "${WORKLOADS[@]}"; do
  name=$(basename "$w" .toml)
  dir=$WORK/$name
  t0=$(now)
  "$KVBENCH" run "$w" --scale "$SCALE" --repeat 2 --quiet --out "$dir/full" > /dev/null || true
  t1=$(now)
  shard_times=""
  shard_sum=0
  for k in 0 1 2 3; do
    s0=$(now)
    "$KVBENCH" run "$w" --scale "$SCALE" --repeat 2 --quiet --shard "$k/4" \
        --costs "$dir/full/results.json" --out "$dir/s$k" > /dev/null || true
    t=$(secs "$s0" "$(now)")
    setup=$(/usr/bin/python3 -c 'import json,sys; print("%.1f" % json.load(open(sys.argv[1]))["shards"][0]["setup_seconds"])' "$dir/s$k/results.json")
    shard_times+="$t ($setup) "
    shard_sum=$(awk -v a="$shard_sum" -v b="$t" 'BEGIN { print a + b }')
  done
  m0=$(now)
  "$KVBENCH" merge "$dir"/s{0,1,2,3} -o "$dir/merged" > "$dir/merge.txt"
  m1=$(now)
  rows=$(sed -n 's/^merged 4 shards (\([0-9]*\) rows).*/\1/p' "$dir/merge.txt")
  est4=$("$KVBENCH" validate "$w" --scale "$SCALE" --repeat 2 --shards 4 \
         --costs "$dir/full/results.json" | estimate)
  measured_rows+="| $name | $rows | $(secs "$t0" "$t1") s | ${shard_times% } | $shard_sum s | $est4 | $(secs "$m0" "$m1") s |"$'\n'
  line="| $name |"
  for n in 1 4 16 64; do
    out=$("$KVBENCH" validate "$w" --shards "$n" --costs "$dir/full/results.json")
    line+=" $(echo "$out" | estimate) |"
    if [ "$n" = 64 ]; then
      unit=$(echo "$out" | sed -n 's/^longest unit: \(.*\) (~\([^ ]*\) \([a-z]*\) with its setup).*/\1: \2 \3/p')
      units=$(echo "$out" | sed -n 's/^shards: 64 of \([0-9]*\) units.*/\1/p')
      line+=" $units | $unit |"
    fi
  done
  full_rows+="$line"$'\n'
done

echo "Measured at scale $SCALE, --repeat 2 (seconds; shards run one after another here;"
echo "in parentheses the shard's untimed setup replays):"
echo
echo "| workload | rows | unsharded | shards 0-3 measured (setup) | sum of shards | longest shard estimated | merge |"
echo "|---|---:|---:|---|---:|---:|---:|"
printf '%s' "$measured_rows"
echo
echo "Full size (scale 1, the workloads' repetitions), estimated from those times:"
echo
echo "| workload | 1 node | 4 nodes | 16 nodes | 64 nodes | units | longest unit (with its setup) |"
echo "|---|---:|---:|---:|---:|---:|---|"
printf '%s' "$full_rows"
