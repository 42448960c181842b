#!/usr/bin/env bash
# Configures and builds kvbench (Release) into build/. Usage: scripts/build.sh [cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build -j"$jobs"
