#!/usr/bin/env bash
# Every results.json kvbench writes validates against docs/results.schema.json
# (with python3-jsonschema, Draft 2020-12): a fresh run of the quickstart on
# every embedded engine, YCSB runs (with HdrHistogram interval buckets, and
# through `kvbench ycsb`), an interrupted-engine record, and the fixed schema 1
# file the report tests use. Usage: results_schema_test.sh KVBENCH SOURCE_DIR
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
/usr/bin/python3 - "$SRC/docs/results.schema.json" "$WORK/q/results.json" "$WORK/y/results.json" \
    "$WORK/c/results.json" \
    "$SRC/reports/testdata/run_a.json" <<'PY'
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
