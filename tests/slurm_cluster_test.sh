#!/usr/bin/env bash
# `kvbench slurm --submit` on a real Slurm: Debian's munged, slurmctld and
# slurmd as a one-node cluster with a private configuration, key, ports, state
# and pid files in a temporary directory, stopped by their process ids when
# the test ends, however it ends.
#  1. A 3-shard job array of tests/workloads/shards.toml plus its merge job:
#     the merged results hold exactly the rows and work (digests, counts) of an
#     unsharded run of the same plan, and each shard records its Slurm job,
#     array task and node.
#  2. An array task that never runs (cancelled): the merge job still runs
#     (afterany), fails with exit 2 naming the missing shard, and the other
#     shards' results are intact.
#  3. sbatch failing (an empty cluster configuration): exit 2, one line.
# Usage: slurm_cluster_test.sh KVBENCH SOURCE_DIR   (as root)
# A missing Slurm fails the test: scripts/test.sh installs it, so its absence
# means the install step is broken, which a skip would hide.
set -euo pipefail
KVBENCH=$1
SRC=$2
W=$SRC/tests/workloads/shards.toml
ENGINES=lmdb,sqlite

for tool in munged slurmctld slurmd sbatch scontrol scancel sinfo; do
  if ! command -v "$tool" > /dev/null; then
    echo "FAIL: $tool not installed (scripts/install-deps.sh --tests installs slurm-wlm, munge)"
    exit 1
  fi
done
if [ "$(id -u)" -ne 0 ]; then echo "FAIL: the private cluster's daemons run as root"; exit 1; fi

WORK=$(mktemp -d /tmp/kvbench-slurm-XXXXXX)
chmod 755 "$WORK"
fail() { echo "FAIL: $*" >&2; exit 1; }

stop_cluster() {
  # Jobs first (their steps outlive slurmd), then the daemons, by pid.
  scancel --quiet --user=root 2> /dev/null || true
  for _ in $(seq 1 50); do
    [ -z "$(squeue -h 2> /dev/null)" ] && break
    sleep 0.2
  done
  for f in "$WORK/slurmd.pid" "$WORK/slurmctld.pid" "$WORK/munge/munged.pid"; do
    [ -s "$f" ] || continue
    pid=$(cat "$f")
    kill "$pid" 2> /dev/null || continue
    for _ in $(seq 1 50); do
      kill -0 "$pid" 2> /dev/null || break
      sleep 0.2
    done
    kill -9 "$pid" 2> /dev/null || true
  done
  rm -rf "$WORK"
}
trap stop_cluster EXIT

# ---- the cluster ----
read -r CTLD_PORT SLURMD_PORT < <(/usr/bin/python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
HOST=$(hostname -s)
mkdir -p "$WORK/munge" "$WORK/ctld" "$WORK/slurmd"
chmod 700 "$WORK/munge"
dd if=/dev/urandom of="$WORK/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$WORK/munge/munge.key"
munged --force --socket="$WORK/munge/socket" --key-file="$WORK/munge/munge.key" \
    --pid-file="$WORK/munge/munged.pid" --log-file="$WORK/munge/munged.log" \
    --seed-file="$WORK/munge/seed"
cat > "$WORK/slurm.conf" <<EOF
ClusterName=kvbench$$
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$WORK/munge/socket
CredType=cred/munge
StateSaveLocation=$WORK/ctld
SlurmdSpoolDir=$WORK/slurmd
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/slurmctld.log
SlurmdLogFile=$WORK/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=kvbench Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$WORK/slurm.conf
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 1 150); do
  [ "$(sinfo -h -o %T 2> /dev/null)" = idle ] && break
  sleep 0.2
done
[ "$(sinfo -h -o %T)" = idle ] || fail "the node did not come up: $(tail -5 "$WORK/slurmd.log")"
echo "cluster up: $HOST, slurmctld on port $CTLD_PORT"

# State and exit code of job $1 once it has ended.
wait_job() {
  local state=""
  for _ in $(seq 1 600); do
    state=$(scontrol show job "$1" -o | grep -o 'JobState=[A-Z_]*' | cut -d= -f2)
    case "$state" in PENDING | RUNNING | CONFIGURING | COMPLETING | SUSPENDED | "") sleep 0.5 ;; *) break ;; esac
  done
  echo "$state $(scontrol show job "$1" -o | grep -o 'ExitCode=[0-9:]*' | cut -d= -f2)"
}
job_ids() {  # "array job A (...)" and "merge job M (...)" lines of `kvbench slurm --submit`
  ARRAY=$(sed -n 's/^array job \([0-9]*\) .*/\1/p' "$1")
  MERGE=$(sed -n 's/^merge job \([0-9]*\) .*/\1/p' "$1")
  [ -n "$ARRAY" ] && [ -n "$MERGE" ] || fail "no job ids in: $(cat "$1")"
}

# ---- 1. three shards and their merge ----
"$KVBENCH" run "$W" --engines $ENGINES --quiet --out "$WORK/full" > /dev/null
"$KVBENCH" slurm "$W" --engines $ENGINES --shards 3 --time 0:10:00 --out "$WORK/job" --submit \
    > "$WORK/submit.txt"
cat "$WORK/submit.txt"
job_ids "$WORK/submit.txt"
grep -q "report, once job $MERGE completes: $WORK/job/merged/report.html" "$WORK/submit.txt" \
    || fail "no report path"
read -r state code < <(wait_job "$MERGE")
[ "$state" = COMPLETED ] || fail "merge job $MERGE: $state $code: $(cat "$WORK"/job/logs/*.log)"
/usr/bin/python3 "$SRC/tests/compare_shard_rows.py" "$WORK/full/results.json" \
    "$WORK/job/merged/results.json" 3
/usr/bin/python3 - "$WORK/job/merged/results.json" "$ARRAY" "$HOST" <<'PY'
import json, sys
doc, array, host = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
for s in doc["shards"]:
    labels = s["labels"]
    assert labels["slurm.array_job_id"] == array, labels
    assert labels["slurm.array_task_id"] == str(s["index"]), labels
    assert labels["slurm.job_id"].isdigit(), labels
    assert labels["slurm.node"] == host, labels
    assert s["environment"]["hostname"] and s["finished"], s
print("each shard records its Slurm job, array task and node")
PY
[ -s "$WORK/job/merged/report.html" ] || fail "no merged report"

# ---- 2. a task that never runs: the merge job says which shard is missing ----
# Held at submission, so task 1 is cancelled before it can start.
"$KVBENCH" slurm "$W" --engines $ENGINES --shards 3 --time 0:10:00 --out "$WORK/broken" \
    --sbatch-arg=--hold --submit > "$WORK/submit2.txt"
job_ids "$WORK/submit2.txt"
scancel "${ARRAY}_1"
scontrol release "$ARRAY"
scontrol release "$MERGE"
read -r state code < <(wait_job "$MERGE")
[ "$state" = FAILED ] && [ "$code" = 2:0 ] || fail "merge job $MERGE: $state $code"
grep -q "kvbench merge: shard 1/3 is missing ('$WORK/broken/shard-1' does not exist)" \
    "$WORK/broken/logs/merge.log" || fail "merge log: $(cat "$WORK/broken/logs/merge.log")"
for k in 0 2; do
  /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["shards"][0]["finished"]' \
      "$WORK/broken/shard-$k/results.json" || fail "shard $k's results were not kept"
done
[ ! -e "$WORK/broken/merged/results.json" ] || fail "a refused merge wrote results"
echo "a missing shard: merge job failed with exit 2 naming shard 1/3; shards 0 and 2 intact"

# ---- 3. sbatch failing ----
# An empty configuration: sbatch refuses at once (a missing one makes it try
# DNS for a minute first).
: > "$WORK/empty.conf"
rc=0
SLURM_CONF=$WORK/empty.conf "$KVBENCH" slurm "$W" --engines $ENGINES --shards 3 \
    --out "$WORK/nocluster" --submit > /dev/null 2> "$WORK/err.txt" || rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l < "$WORK/err.txt")" -eq 1 ] \
    && grep -q "^kvbench slurm: sbatch .*kvbench-array.sbatch failed (exit code" "$WORK/err.txt" \
    || fail "sbatch failing: exit $rc: $(cat "$WORK/err.txt")"
echo "sbatch failing: $(cat "$WORK/err.txt")"
echo "slurm_cluster_test: all checks passed"
