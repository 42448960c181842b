#!/usr/bin/env bash
# Every results.json kvbench writes validates against docs/results.schema.json
# (with python3-jsonschema, Draft 2020-12): a fresh run of the quickstart on
# every embedded engine, YCSB runs (with HdrHistogram interval buckets, and
# through `kvbench ycsb`), an interrupted-engine record, the fixed schema 1
# file the report tests use, a shard's results and a merge of shards; and the
# CPU probe's times in every repetition of the fresh run.
# Usage: results_schema_test.sh KVBENCH SOURCE_DIR
set -euo pipefail
KVBENCH=$1
SRC=$2
WORK=$(mktemp -d /tmp/kvbench-schema-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
"$KVBENCH" run "$SRC/workloads/quickstart.toml" --scale 0.01 --repeat 2 --quiet --out "$WORK/q" > /dev/null
"$KVBENCH" run "$SRC/workloads/ycsb/workloada" -p recordcount=500 -p operationcount=500 \
    -p measurementtype=hdrhistogram --engines lmdb --quiet --out "$WORK/y" > /dev/null
"$KVBENCH" ycsb -load -run -db lmdb -P "$SRC/workloads/ycsb/workloadf" -p recordcount=500 \
    -p operationcount=500 -p "kvbench.dir=$WORK/d" --out "$WORK/c" -q > /dev/null 2>&1
# A shard's results and the merge of two shards (sharded runs' optional fields).
for k in 0 1; do
  "$KVBENCH" run "$SRC/tests/workloads/tiny.toml" --engines lmdb --repeat 2 --quiet --shard "$k/2" \
      --label slurm.node=test --out "$WORK/s$k" > /dev/null
done
"$KVBENCH" merge "$WORK/s0" "$WORK/s1" -o "$WORK/m" > /dev/null
/usr/bin/python3 - "$SRC/docs/results.schema.json" "$WORK/q/results.json" "$WORK/y/results.json" \
    "$WORK/c/results.json" "$SRC/reports/testdata/run_a.json" "$WORK/s0/results.json" \
    "$WORK/m/results.json" <<'PY'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
bad = 0
for path in sys.argv[2:]:
    errors = sorted(validator.iter_errors(json.load(open(path))), key=lambda e: list(e.path))
    for e in errors[:5]:
        print(f"{path}: {'/'.join(map(str, e.path))}: {e.message}")
    bad += len(errors)
    print(f"{path}: {'valid' if not errors else f'{len(errors)} errors'}")
sys.exit(1 if bad else 0)
PY
# Every repetition of a fresh run carries the CPU probe's two times (before
# and after its span), each the CPU time of about 2 ms of work: positive, and
# under a second even on a slow or loaded machine.
/usr/bin/python3 - "$WORK/q/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
reps = [rep for run in r["runs"] for rep in run["repetitions"]]
assert reps, "no repetitions"
for rep in reps:
    p = rep.get("cpu_probe_us")
    assert p is not None and len(p) == 2 and all(0 < x < 1e6 for x in p), p
print(f"ok: cpu_probe_us in all {len(reps)} repetitions")
PY
