#!/usr/bin/env bash
# The main job: install what is needed, build, list the engines and run the
# quickstart workload on every embedded engine, writing a report to
# runs/quickstart/ (report.md, report.html, results.csv, results.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
./build/kvbench engines
./build/kvbench run workloads/quickstart.toml --out runs/quickstart --overwrite
echo "report: runs/quickstart/report.md and runs/quickstart/report.html"
