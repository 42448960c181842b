#!/usr/bin/env bash
# `kvbench run --shard K/N`, `kvbench merge`, `kvbench validate --shards` and
# `kvbench slurm` (scripts only) end to end, without a cluster: four shards of
# tests/workloads/shards.toml merged hold exactly the rows and work of an
# unsharded run; bad input exits 2 with one line and writes nothing.
# Usage: shard_test.sh KVBENCH SOURCE_DIR
set -euo pipefail
KVBENCH=$1
SRC=$2
W=$SRC/tests/workloads/shards.toml
ENGINES=lmdb,sqlite,stdmap
WORK=$(mktemp -d /tmp/kvbench-shard-XXXXXX)
trap 'rm -rf "$WORK"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# expect_bad_input TEXT ARGS...: kvbench ARGS exits 2 with one line on stderr
# that contains TEXT, and prints nothing on stdout. BAD_ENV: NAME=VALUE for kvbench.
expect_bad_input() {
  local text=$1 rc=0
  shift
  env ${BAD_ENV:-} "$KVBENCH" "$@" > "$WORK/out.txt" 2> "$WORK/err.txt" || rc=$?
  [ "$rc" -eq 2 ] || fail "kvbench $*: exit $rc, expected 2: $(cat "$WORK/err.txt")"
  [ "$(wc -l < "$WORK/err.txt")" -eq 1 ] || fail "kvbench $*: not one line: $(cat "$WORK/err.txt")"
  [ ! -s "$WORK/out.txt" ] || fail "kvbench $*: printed $(cat "$WORK/out.txt")"
  grep -qF -- "$text" "$WORK/err.txt" || fail "kvbench $*: said $(cat "$WORK/err.txt"), not '$text'"
  echo "ok: kvbench $* -> $(cat "$WORK/err.txt")"
}

"$KVBENCH" run "$W" --engines $ENGINES --quiet --out "$WORK/full" > /dev/null
for k in 0 1 2 3; do
  "$KVBENCH" run "$W" --engines $ENGINES --quiet --shard "$k/4" --label test.k="$k" \
      --out "$WORK/s$k" > "$WORK/s$k.txt"
  grep -q "^shard $k/4: " "$WORK/s$k.txt" || fail "shard $k printed no shard line"
done
"$KVBENCH" merge "$WORK/s0" "$WORK/s1" "$WORK/s2/results.json" "$WORK/s3" -o "$WORK/merged" \
    > "$WORK/merge.txt"
grep -q "merged 4 shards (.* rows) measured on 1 host" "$WORK/merge.txt" || fail "$(cat "$WORK/merge.txt")"
for f in results.json report.md report.html results.csv; do
  [ -s "$WORK/merged/$f" ] || fail "merge wrote no $f"
done
/usr/bin/python3 "$SRC/tests/compare_shard_rows.py" "$WORK/full/results.json" \
    "$WORK/merged/results.json" 4
grep -q '| shard 3/4 | host .*test.k=3' "$WORK/merged/report.md" || fail "report names no shard 3/4"

"$KVBENCH" validate "$W" --engines $ENGINES --shards 4 > "$WORK/validate.txt"
grep -q "^shard 3/4: ~" "$WORK/validate.txt" || fail "validate --shards lists no shard 3/4"
grep -q "^estimated wall time on 4 nodes: " "$WORK/validate.txt" || fail "no estimate"
"$KVBENCH" validate "$W" --engines $ENGINES --shards 4 --costs "$WORK/full/results.json" \
    > "$WORK/validate-costs.txt"
grep -q "unit costs: measured in .* for 51 of the plan's 51 rows" "$WORK/validate-costs.txt" \
    || fail "--costs unused: $(grep 'unit costs' "$WORK/validate-costs.txt")"

expect_bad_input "--shard '3/2': K must be from 0 to 1" run "$W" --shard 3/2 --out "$WORK/bad"
expect_bad_input "--shard '0/0': N must be at least 1" run "$W" --shard 0/0 --out "$WORK/bad"
expect_bad_input "--costs: only with --shard" run "$W" --costs "$WORK/full/results.json"
expect_bad_input "shard 2/4 is missing ('$WORK/s9' does not exist)" \
    merge "$WORK/s0" "$WORK/s1" "$WORK/s9" "$WORK/s3" -o "$WORK/bad"
expect_bad_input "shard 1/4 is given twice" \
    merge "$WORK/s0" "$WORK/s1" "$WORK/s1" "$WORK/s2" "$WORK/s3" -o "$WORK/bad"
"$KVBENCH" run "$W" --engines $ENGINES --quiet --shard 2/4 --scale 0.5 --out "$WORK/other" > /dev/null
expect_bad_input "belongs to a different plan than shard 0/4 ('$WORK/s0/results.json'): --scale 1 vs 0.5" \
    merge "$WORK/s0" "$WORK/s1" "$WORK/other" "$WORK/s3" -o "$WORK/bad"
expect_bad_input "is not a shard's results" merge "$WORK/full" -o "$WORK/bad"
[ ! -e "$WORK/bad" ] || fail "a refused command wrote $WORK/bad"

# The Slurm scripts, not submitted (tests/slurm_cluster_test.sh submits them).
"$KVBENCH" slurm "$W" --engines $ENGINES --shards 3 --partition bench --time 0:10:00 \
    --sbatch-arg=--qos=short --sbatch-arg account=storage --out "$WORK/job" > "$WORK/slurm.txt"
A=$WORK/job/kvbench-array.sbatch
for line in "#SBATCH --array=0-2" "#SBATCH --exclusive" "#SBATCH --partition=bench" \
    "#SBATCH --time=0:10:00" "#SBATCH --qos=short" "#SBATCH --account=storage" "#SBATCH --output=$WORK/job/logs/shard-%a.log" \
    '--shard "$shard/3"' 'slurm.array_task_id="$SLURM_ARRAY_TASK_ID"' "'--engines' '$ENGINES'"; do
  grep -qF -- "$line" "$A" || fail "array script lacks $line"
done
grep -qF -- "--dependency=afterany:\$array" "$WORK/job/submit.sh" || fail "merge not afterany"
grep -qF -- "merge '$WORK/job/shard-0' '$WORK/job/shard-1' '$WORK/job/shard-2' -o '$WORK/job/merged'" \
    "$WORK/job/kvbench-merge.sbatch" || fail "merge script: $(cat "$WORK/job/kvbench-merge.sbatch")"
if grep -q -- "--exclusive" "$WORK/job/kvbench-merge.sbatch"; then fail "merge job asks for a node"; fi
for f in "$A" "$WORK/job/kvbench-merge.sbatch" "$WORK/job/submit.sh"; do bash -n "$f"; done
"$KVBENCH" slurm "$W" --shards 2 --shared-nodes --out "$WORK/job2" > /dev/null
if grep -q -- "--exclusive" "$WORK/job2/kvbench-array.sbatch"; then fail "--shared-nodes ignored"; fi

expect_bad_input "the plan has only 48 units" slurm "$W" --engines $ENGINES --shards 49 --out "$WORK/bad"
expect_bad_input "--shards must be at least 1" slurm "$W" --shards 0 --out "$WORK/bad"
BAD_ENV=PATH=/nonexistent expect_bad_input "sbatch not found on PATH" \
    slurm "$W" --engines $ENGINES --shards 3 --out "$WORK/job3" --submit
echo "shard_test: all checks passed"
