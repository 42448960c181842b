#!/usr/bin/env bash
# The power-loss layer's overhead: bench/powerloss-overhead.toml run on a
# plain directory, then with the engine's files on the layer (a mount of
# kvbench-powerloss over a backing directory on the same file system).
# Prints median ops/s of each phase both ways and the ratio.
# Usage: flock /tmp/kvbench-cpu.lock bench/powerloss_overhead.sh build/kvbench
set -euo pipefail
KVBENCH=$1
LAYER=$(dirname "$KVBENCH")/kvbench-powerloss
SRC=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/kvbench-overhead-XXXXXX)
mkdir -p "$WORK/backing" "$WORK/trash" "$WORK/mnt"
mkfifo "$WORK/control"
exec 8<>"$WORK/control"  # our write end: closing it is the daemon's EOF (it unmounts)
"$LAYER" --backing "$WORK/backing" --trash "$WORK/trash" --mount "$WORK/mnt" < "$WORK/control" \
    > "$WORK/layer.out" 8>&- &
layer_pid=$!
cleanup() { exec 8>&-; wait $layer_pid 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
for _ in $(seq 100); do grep -q ready "$WORK/layer.out" 2>/dev/null && break; sleep 0.05; done
grep -q ready "$WORK/layer.out" || { echo "the layer did not mount" >&2; exit 1; }
"$KVBENCH" run "$SRC/bench/powerloss-overhead.toml" --quiet --out "$WORK/plain" \
    --data-dir "$WORK/plain-data" > /dev/null
"$KVBENCH" run "$SRC/bench/powerloss-overhead.toml" --quiet --out "$WORK/layer" \
    --data-dir "$WORK/mnt/data" > /dev/null
python3 - "$WORK/plain/results.json" "$WORK/layer/results.json" <<'PY'
import json, sys, statistics
def rates(path):
    return {r["phase"]: statistics.median(rep["ops"][0]["ops_per_sec"] for rep in r["repetitions"])
            for r in json.load(open(path))["runs"]}
plain, layer = rates(sys.argv[1]), rates(sys.argv[2])
for phase in plain:
    print(f"{phase:12} plain {plain[phase]:12,.0f} ops/s   through the layer {layer[phase]:12,.0f} ops/s"
          f"   layer/plain {layer[phase] / plain[phase]:.2f}")
PY
