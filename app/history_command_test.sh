#!/usr/bin/env bash
# `kvbench history` and `kvbench run --history` end to end through the
# binary: runs added once, the default store under $HOME, $KVBENCH_STORE, and
# bad input: exit 2, exactly one line on stderr, nothing on stdout, the store
# and the results file unchanged. Usage: history_command_test.sh KVBENCH SOURCE_DIR
set -euo pipefail
KVBENCH=$1
SRC=$2
WORK=$(mktemp -d /tmp/kvbench-history-cli-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
STORE="sqlite:$WORK/h.db"

# Bad input: exit 2, one line on stderr naming the problem, nothing on stdout.
expect_bad() {
  local pattern=$1; shift
  set +e
  "$@" >"$WORK/out" 2>"$WORK/err"
  local rc=$?
  set -e
  [ "$rc" -eq 2 ] || fail "$*: exit $rc, expected 2 ($(cat "$WORK/err"))"
  [ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "$*: expected one line on stderr: $(cat "$WORK/err")"
  [ ! -s "$WORK/out" ] || fail "$*: printed on stdout: $(cat "$WORK/out")"
  grep -q -- "$pattern" "$WORK/err" || fail "$*: stderr lacks '$pattern': $(cat "$WORK/err")"
}

# Two runs, each added by --history; adding the first again is a no-op.
for i in 1 2; do
  "$KVBENCH" run "$SRC/workloads/quickstart.toml" --engines lmdb --scale 0.01 --repeat 2 --quiet \
      --out "$WORK/run$i" --history "$STORE" >"$WORK/run$i.out"
  grep -q "added run " "$WORK/run$i.out" || fail "run $i was not added: $(cat "$WORK/run$i.out")"
done
RESULTS="$WORK/run1/results.json"
before=$(sha256sum "$RESULTS")
"$KVBENCH" history add "$RESULTS" --store "$STORE" | grep -q "is already in" || fail "re-add was not a no-op"
[ "$(sha256sum "$RESULTS")" = "$before" ] || fail "history add changed the results file"
"$KVBENCH" history list --store "$STORE" | grep -q "^2 runs$" || fail "expected 2 runs"
"$KVBENCH" history trend --store "$STORE" --figure p99 -o "$WORK/trend.html" | grep -q "^trend: " \
    || fail "trend"
grep -q "<figure class=\"chart chart-trend\"" "$WORK/trend.html" || fail "trend page has no chart"
"$KVBENCH" history check --store "$STORE" --last 5 --fail-on-regression 10 >/dev/null \
    || fail "check of two runs failed"

# $KVBENCH_STORE, then the default store under $HOME.
KVBENCH_STORE="$STORE" "$KVBENCH" history list | grep -q "^2 runs$" || fail "KVBENCH_STORE ignored"
HOME="$WORK/home" XDG_DATA_HOME= "$KVBENCH" history add "$RESULTS" >/dev/null
[ -f "$WORK/home/.local/share/kvbench/history.db" ] || fail "default store not created"

# Bad input of every kind.
listing=$("$KVBENCH" history list --store "$STORE")
printf '{"schema": "kvbench-results", "schema_version": 2, "started' >"$WORK/truncated.json"
expect_bad "truncated.json': not valid JSON" "$KVBENCH" history add "$RESULTS" "$WORK/truncated.json" --store "$STORE"
[ "$("$KVBENCH" history list --store "$STORE")" = "$listing" ] || fail "a failed add changed the store"
expect_bad "is not a store: use sqlite:PATH" "$KVBENCH" history list --store "$WORK/h.db"
expect_bad "malformed PostgreSQL URL" "$KVBENCH" history list --store "postgresql://h/db?no_such=1"
expect_bad "cannot connect to PostgreSQL" "$KVBENCH" history list --store "postgresql://kvbench:pw@127.0.0.1:1/h"
grep -q ":pw@" "$WORK/err" && fail "the password was printed"
expect_bad "no such file" "$KVBENCH" history list --store "sqlite:$WORK/missing.db"
[ ! -e "$WORK/missing.db" ] || fail "a read created the store"
expect_bad "not an SQLite database" "$KVBENCH" history add "$RESULTS" --store "sqlite:$RESULTS"
[ "$(sha256sum "$RESULTS")" = "$before" ] || fail "the results file was touched as a store"
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table t (x)'); c.commit()" "$WORK/other.db"
other=$(sha256sum "$WORK/other.db")
expect_bad "not a kvbench history store" "$KVBENCH" history add "$RESULTS" --store "sqlite:$WORK/other.db"
[ "$(sha256sum "$WORK/other.db")" = "$other" ] || fail "someone else's database was changed"
cp "$WORK/h.db" "$WORK/newer.db"
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"update kvbench_store set value='7' where name='schema_version'\"); c.commit()" "$WORK/newer.db"
expect_bad "schema version 7, newer than this kvbench reads" "$KVBENCH" history list --store "sqlite:$WORK/newer.db"
expect_bad "unknown figure 'p98'" "$KVBENCH" history trend --store "$STORE" --figure p98 -o "$WORK/t.html"
# A store that cannot be used stops a run before it starts.
expect_bad "cannot connect to PostgreSQL" "$KVBENCH" run "$SRC/workloads/quickstart.toml" --engines lmdb \
    --scale 0.01 --quiet --out "$WORK/never" --history "postgresql://127.0.0.1:1/h"
[ ! -e "$WORK/never" ] || fail "the run started with an unusable store"
echo "history CLI: ok"
