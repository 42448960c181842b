#!/usr/bin/env bash
# kvbench's leveldb and rocksdb against standalone loops on the same libraries
# (bench/lsm_loops.cc) and, for rocksdb, against its own db_bench
# (rocksdb-tools) with the same options: fillrandom and readrandom on 1M
# 16-byte keys with 100-byte values. Medians over REPS; run on a quiet machine.
# Usage: bench/lsm_agreement.sh [REPS]
set -euo pipefail
cd "$(dirname "$0")/.."
REPS=${1:-3}
WORK=$(mktemp -d /tmp/kvbench-lsm-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
build/kvbench run bench/lsm-agreement.toml --repeat "$REPS" --quiet --out "$WORK/kv" > /dev/null
for engine in leveldb rocksdb; do
  build/bench/lsm_loops "$engine" "$WORK/loop-$engine" 1000000 "$REPS" > "$WORK/$engine.txt"
  for phase in fillrandom readrandom; do
    field=$([ "$phase" = fillrandom ] && echo load || echo get)
    loop=$(awk -v p="$field" '{for (i=1;i<NF;i++) if ($i==p) print $(i+1)}' "$WORK/$engine.txt" | median)
    kv=$(/usr/bin/python3 -c "
import json,sys
d=json.load(open('$WORK/kv/results.json'))
print([r for r in d['runs'] if r['engine']=='$engine' and r['phase']=='$phase'][0]['summary']['ops']['all']['ops_per_sec']['median'])")
    awk -v e="$engine" -v p="$phase" -v k="$kv" -v b="$loop" \
      'BEGIN {printf "%-8s %-10s kvbench %9.0f ops/s  loop %9.0f ops/s  ratio %.3f\n", e, p, k, b, k/b}'
  done
done
if command -v db_bench > /dev/null; then
  for r in $(seq 1 "$REPS"); do
    rm -rf "$WORK/dbb"
    db_bench --benchmarks=fillrandom,readrandom --num=1000000 --key_size=16 --value_size=100 \
      --compression_type=snappy --bloom_bits=10 --cache_size=33554432 --threads=1 \
      --db="$WORK/dbb" 2>/dev/null | awk '/^(fillrandom|readrandom) /{print $1, $5}'
  done > "$WORK/dbb.txt"
  for phase in fillrandom readrandom; do
    echo "rocksdb  $phase db_bench median $(awk -v p=$phase '$1==p{print $2}' "$WORK/dbb.txt" | median) ops/s"
  done
fi
