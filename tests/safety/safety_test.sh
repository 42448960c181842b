#!/usr/bin/env bash
# Safe to run (issue 28): kvbench deletes and writes only what is its own,
# one run holds an output folder at a time, names from workload files never
# become paths or script code, and a failed phase is loud (exit 1, stderr).
# Usage: safety_test.sh KVBENCH SOURCE_DIR
set -euo pipefail
KVBENCH=$(readlink -f "$1")
SRC=$(readlink -f "$2")
WORK=$(mktemp -d /tmp/kvbench-safety-XXXXXX)
HOLDER=
cleanup() {
  [ -n "$HOLDER" ] && kill "$HOLDER" 2> /dev/null || true
  mountpoint -q "$WORK/small" 2> /dev/null && umount "$WORK/small" || true
  rm -rf "$WORK"
}
trap cleanup EXIT
cd "$WORK"

fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }

# A small workload named $1 in file $2.
workload() {
  cat > "$2" << TOML
name = "$1"
timeout = 60
repetitions = 2
[dataset]
kind = "sequential"
count = 500
[values]
size = 16
[[phase]]
name = "load"
op = "insert"
count = 500
batch = 100
[[phase]]
name = "get"
op = "get"
count = 200
TOML
}
workload small w.toml
RUN=("$KVBENCH" run --engines sqlite,lmdb --quiet)

# expect RC TEXT ARGS...: kvbench ARGS exits RC with TEXT on stderr.
expect() {
  local want=$1 text=$2 rc=0
  shift 2
  "$@" > out.txt 2> err.txt || rc=$?
  [ "$rc" -eq "$want" ] || fail "$*: exit $rc, expected $want: $(cat err.txt)"
  [ -z "$text" ] || grep -qiF -- "$text" err.txt || fail "$*: said '$(cat err.txt)', not '$text'"
  ! grep -q "terminate called" err.txt || fail "$*: $(cat err.txt)"
}

# 1. A non-empty folder kvbench did not make is refused, its files kept.
mkdir users && echo precious > users/notes.txt
expect 2 "not empty and kvbench did not create it" "${RUN[@]}" w.toml --out users
[ "$(cat users/notes.txt)" = precious ] && [ "$(ls -A users)" = notes.txt ] || fail "users/ changed"
pass "a user's folder as --out is refused and untouched"

# 2. --data-dir: a user's D/<engine> is refused before anything runs.
mkdir -p data/sqlite && echo precious > data/sqlite/keep.db
expect 2 "data/sqlite" "${RUN[@]}" w.toml --out o2 --data-dir data
[ "$(cat data/sqlite/keep.db)" = precious ] || fail "data/sqlite changed"
[ ! -e o2 ] || fail "bad input wrote o2/"
pass "a user's --data-dir/sqlite is refused, nothing written"
# ... while a --data-dir of the user's holding other things is used, and
# only kvbench's own engine folders are removed from it.
echo precious > data/other.txt
rm -rf data/sqlite
"${RUN[@]}" w.toml --out o3 --data-dir data > /dev/null
[ "$(ls -A data)" = other.txt ] || fail "--data-dir after the run holds: $(ls -A data)"
pass "--data-dir keeps the user's files, removes kvbench's own"

# 3. A rerun into the same --out is refused; --overwrite replaces it.
expect 2 "earlier kvbench run" "${RUN[@]}" w.toml --out o3
grep -q '"complete":true' o3/results.json || fail "o3 was damaged by the refused rerun"
expect 0 "replaced an earlier run" "${RUN[@]}" w.toml --out o3 --overwrite
pass "a rerun is refused; --overwrite replaces and says so"

# 4. One run per output folder: a second is refused, naming the holder.
(exec 9>> o3/.kvbench-lock; flock 9; exec sleep 60) > /dev/null 2>&1 &
HOLDER=$!
for _ in $(seq 1 200); do flock -n o3/.kvbench-lock true 2> /dev/null || break; sleep 0.05; done
expect 2 "in use by another kvbench run" "${RUN[@]}" w.toml --out o3 --overwrite
kill "$HOLDER"; wait "$HOLDER" 2> /dev/null || true; HOLDER=
pass "a locked output folder is refused"

# 5. Names are never paths: '../victim' stays inside --out (and runs/).
workload "../victim" v.toml
workload "../../etc" e.toml
mkdir victim && echo precious > victim/data
"${RUN[@]}" w.toml v.toml --out o5 > /dev/null
[ "$(cat victim/data)" = precious ] && [ "$(ls -A victim)" = data ] || fail "victim/ changed"
grep -q '^_victim-' <<<"$(ls o5)" || fail "o5 holds: $(ls o5)"
mkdir cwd && (cd cwd && "${RUN[@]}" ../e.toml > /dev/null)
[ "$(ls -A cwd)" = runs ] && grep -q '^_.._etc-' <<<"$(ls cwd/runs)" || fail "cwd holds: $(ls -R cwd)"
[ "$(ls -A "$WORK" | grep -c etc)" -eq 0 ] || fail "wrote outside runs/: $(ls -A "$WORK")"
pass "names with ../ stay inside the output folder"

# 6. Generated Slurm scripts run nothing a workload file or --out holds.
P="$WORK/pwned"
workload "x\$(touch${IFS:0:1}$P-1)\`touch $P-2\`;touch $P-3'" evil.toml
evil_file="$WORK/w\$(touch\${IFS}pwned-4).toml"
cp evil.toml "$evil_file"
evil_out="$WORK/slurm-\$(touch\${IFS}pwned-5)\`id\`"
"$KVBENCH" slurm "$evil_file" --shards 2 --out "$evil_out" --kvbench /bin/true \
    --engines sqlite > /dev/null
mkdir bin && printf '#!/bin/sh\necho 42\n' > bin/sbatch && chmod +x bin/sbatch
for script in "$evil_out"/*.sbatch "$evil_out"/submit.sh; do
  bash -n "$script" || fail "$script: not valid shell"
done
PATH="$WORK/bin:$PATH" bash "$evil_out/submit.sh" > /dev/null
SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_JOB_ID=7 SLURM_JOB_ID=8 TMPDIR="$WORK" \
    bash "$evil_out/kvbench-array.sbatch" > /dev/null
bash "$evil_out/kvbench-merge.sbatch" > /dev/null
grep -q '^pwned' <<<"$(ls "$WORK")" && fail "a generated script ran a command: $(ls "$WORK")"
pass "Slurm scripts quote every value (bash -n, submitted with a stub sbatch, run)"

# 7. A failed phase is loud: a full disk is exit 1, named, on stderr, and the
# output folder (on another disk) holds a consistent results.json.
if [ "$(id -u)" -eq 0 ] && mkdir small && mount -t tmpfs -o size=1m tmpfs small 2> /dev/null; then
  cat > big.toml << 'TOML'
name = "big"
timeout = 60
repetitions = 1
[dataset]
kind = "sequential"
count = 20000
[values]
size = 200
[[phase]]
name = "load"
op = "insert"
count = 20000
batch = 1000
[[phase]]
name = "get"
op = "get"
count = 1000
TOML
  expect 1 "space" "$KVBENCH" run big.toml --engines sqlite,lmdb,pbtree --quiet --out o7 --data-dir small
  grep -q "phase 'load' failed" err.txt || fail "no phase failure on stderr: $(cat err.txt)"
  python3 - o7/results.json << 'PY' || fail "results.json: $(cat o7/results.json | head -c 2000)"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["complete"] is True, r["complete"]
for e in r["engines"]:
    assert e["status"] in ("partial", "failed"), e
    assert "space" in e["reason"].lower(), e["reason"]
for run in r["runs"]:
    assert run["status"] != "ok" or run["phase"] == "load", run["phase"] + " ranked after a failure"
PY
  [ -s o7/report.md ] || fail "no report after a failed phase"
  umount small
  pass "a full disk: exit 1, 'no space' named, later phases not ranked"
else
  echo "skipped: full-disk case needs root and tmpfs"
fi

# 8. A run cut short says so, and the history refuses it unless told.
cat > long.toml << 'TOML'
name = "long"
timeout = 120
repetitions = 1
[dataset]
kind = "sequential"
count = 1000
[values]
size = 16
[[phase]]
name = "load"
op = "insert"
count = 1000
batch = 100
[[phase]]
name = "spin"
op = "get"
duration = 5
TOML
rc=0
"$KVBENCH" run long.toml --engines stdmap,sqlite --quiet --out o8 > /dev/null 2>&1 &
RUNNER=$!
for _ in $(seq 1 600); do [ -s o8/results.json ] && break; sleep 0.1; done
[ -s o8/results.json ] || fail "the first engine never finished"
grep -q '"complete":false' o8/results.json || fail "results.json mid-run is not marked incomplete"
kill -INT "$RUNNER"
wait "$RUNNER" || rc=$?
[ "$rc" -eq 130 ] || fail "interrupted run: exit $rc"
python3 -c "import json,sys; r=json.load(open('o8/results.json')); assert r['complete'] is False and r['interrupted'], r" \
  || fail "interrupted results.json not marked"
expect 2 "did not finish" "$KVBENCH" history add o8/results.json --store "sqlite:$WORK/h.db"
expect 0 "" "$KVBENCH" history add o8/results.json --store "sqlite:$WORK/h.db" --allow-incomplete
expect 0 "incomplete run" "$KVBENCH" compare o8/results.json o8/results.json
pass "an interrupted run is marked incomplete; history add refuses it unless told; compare says so"
echo "safety: all passed"
