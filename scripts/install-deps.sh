#!/usr/bin/env bash
# Installs everything kvbench needs on a fresh Debian 12 machine with apt-get.
# Idempotent: packages already present are left alone. Runs as root, or through
# sudo when not root.
#
# Usage: install-deps.sh [--tests]
#   (none)   what building kvbench and running the quickstart need
#   --tests  also the servers and tools only the test suite uses (scripts/test.sh
#            passes it): a PostgreSQL server for the team history store, Slurm's
#            daemons for the cluster test, Java's HdrHistogram to decode .hlog files
set -euo pipefail

with_tests=false
for arg in "$@"; do
  case "$arg" in
    --tests) with_tests=true ;;
    *) echo "install-deps: unknown argument '$arg' (usage: install-deps.sh [--tests])" >&2; exit 2 ;;
  esac
done

packages=(
  # build tools
  build-essential cmake ninja-build pkg-config git
  # engines (each adapter is built only when its library is found)
  libsqlite3-dev libdb-dev libtokyocabinet-dev liblmdb-dev libhiredis-dev redis-server
  librocksdb-dev libleveldb-dev libwiredtiger-dev libgdbm-dev
  libkyotocabinet-dev libtkrzw-dev libwgdb-dev
  # QDBM: the out-of-tree plugin example (examples/plugin-qdbm) and its test
  libqdbm-dev
  # the power-loss layer of `kvbench crash` (a FUSE file system)
  fuse3 libfuse3-dev
  # libraries kvbench itself uses; libpq-dev for history stores on PostgreSQL,
  # libssl-dev for SHA-256 content ids
  libfmt-dev libtomlplusplus-dev libcli11-dev nlohmann-json3-dev libpq-dev libssl-dev
  # zlib: HdrHistogram's compressed encoding (.hlog files)
  zlib1g-dev
  # tests and micro-benchmarks; chromium renders report.html headless in the
  # browser test
  libgtest-dev libgmock-dev libbenchmark-dev chromium
  # the browser test decodes its screenshots to check they are not blank
  libpng-dev
  # the test that validates results.json against docs/results.schema.json
  python3 python3-jsonschema
)

# Only the test suite needs these; the quickstart does not.
test_packages=(
  # the history store tests start a private PostgreSQL server
  postgresql
  # tests/slurm_cluster_test.sh runs a one-node Slurm cluster (kvbench slurm)
  slurm-wlm munge
  # HdrHistogram's own Java reader decodes kvbench's .hlog files (tests/hdrhistogram_java_test.py)
  libhdrhistogram-java openjdk-17-jre-headless
  # tests/packaging_test.sh: dpkg-shlibdeps computes the .deb's Depends, man and
  # groff render its man page
  dpkg-dev man-db groff-base
)

if $with_tests; then
  packages+=("${test_packages[@]}")
fi

if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo)
else
  echo "install-deps: not root and no sudo; install these with apt-get: ${packages[*]}" >&2
  exit 1
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
