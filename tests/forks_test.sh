#!/usr/bin/env bash
# --forks N / [measurement] forks = N: every engine's phases run in N fresh
# processes and each row pools their repetitions, each marked with its fork;
# the report says how many processes and how much of the variance lay between
# them; `kvbench validate` shows the forks; bad values are refused (exit 2,
# nothing written).
# Usage: forks_test.sh KVBENCH
set -euo pipefail
KVBENCH=$1
WORK=$(mktemp -d /tmp/kvbench-forks-test-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cat > "$WORK/w.toml" <<'TOML'
name = "forks"
engines = ["sqlite", "stdmap"]
[dataset]
kind = "sequential"
count = 2000
[[phase]]
name = "load"
op = "insert"
count = 2000
batch = 500
[[phase]]
name = "get"
op = "get"
count = 2000
TOML

"$KVBENCH" run "$WORK/w.toml" --forks 3 --repeat 2 --out "$WORK/run" > /dev/null 2> "$WORK/run.err"
# The engines take turns: every engine's first fork, then every engine's second...
order=$(sed -n 's/^kvbench: forks: running \(.*\)$/\1/p' "$WORK/run.err" | paste -sd, -)
[ "$order" = "sqlite (fork 1 of 3),stdmap (fork 1 of 3),sqlite (fork 2 of 3),stdmap (fork 2 of 3),sqlite (fork 3 of 3),stdmap (fork 3 of 3)" ] ||
  fail "the forks did not take turns: $order"
python3 - "$WORK/run/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["runs"]) == 4, [(x["engine"], x["phase"]) for x in r["runs"]]
for run in r["runs"]:
    forks = [rep.get("fork") for rep in run["repetitions"]]
    assert run["status"] == "ok", run
    assert sorted(forks) == [0, 0, 1, 1, 2, 2], (run["engine"], run["phase"], forks)
    assert run["summary"]["ops"]["all"]["ops_per_sec"]["n"] == 6, run["summary"]
engines = {e["name"]: e for e in r["engines"]}
assert all(e["status"] == "ok" for e in engines.values()), engines
print("forks: 4 rows x 6 repetitions from forks 0-2")
PY
grep -q "3 processes per engine (forks)" "$WORK/run/report.md" || fail "report.md does not say 3 processes"
grep -q "between processes: [0-9]*% of the ops/s variance" "$WORK/run/report.md" ||
  fail "report.md does not give the between-process share"
grep -q "3 processes per engine" "$WORK/run/report.html" || fail "report.html does not say 3 processes"

# One process (the default): no fork marks, no processes line.
"$KVBENCH" run "$WORK/w.toml" --engines stdmap --repeat 2 --quiet --out "$WORK/one" > /dev/null
! grep -q '"fork"' "$WORK/one/results.json" || fail "a one-process run marks forks"
! grep -q "processes per engine" "$WORK/one/report.md" || fail "a one-process report names forks"

# compare says whether both sides pooled processes.
"$KVBENCH" compare "$WORK/run/results.json" "$WORK/run/results.json" > "$WORK/same.md" || true
grep -q "pools repetitions from 3 (A) and 3 (B) engine processes" "$WORK/same.md" ||
  fail "compare does not say the rows pool processes"
# Two repetitions a fork share a process: compare tests fork medians, and 3
# forks a side can never be significant at 95%.
grep -q "compare each fork's median" "$WORK/same.md" || fail "compare does not say it tests fork medians"
grep -q "too few repetitions (A n=3, B n=3" "$WORK/same.md" ||
  fail "compare did not test 3 fork medians a side: $(grep '^| ' "$WORK/same.md" | head -3)"
"$KVBENCH" compare "$WORK/one/results.json" "$WORK/one/results.json" > "$WORK/one.md" || true
grep -q "Each side ran each engine in one process" "$WORK/one.md" ||
  fail "compare does not say one process"

"$KVBENCH" validate "$WORK/w.toml" --forks 4 | grep -q "^forks: 4" || fail "validate does not show forks"

# Bad values: exit 2, one line naming the option or the file's line, nothing written.
rc=0; "$KVBENCH" run "$WORK/w.toml" --forks 0 --out "$WORK/bad1" 2> "$WORK/err1" > /dev/null || rc=$?
[ "$rc" -eq 2 ] || fail "--forks 0: exit $rc, not 2"
grep -q -- "--forks" "$WORK/err1" || fail "--forks 0: $(cat "$WORK/err1")"
[ ! -e "$WORK/bad1" ] || fail "--forks 0 wrote $WORK/bad1"
sed 's/^\[dataset\]/[measurement]\nforks = 0\n[dataset]/' "$WORK/w.toml" > "$WORK/bad.toml"
rc=0; "$KVBENCH" run "$WORK/bad.toml" --out "$WORK/bad2" 2> "$WORK/err2" > /dev/null || rc=$?
[ "$rc" -eq 2 ] || fail "forks = 0: exit $rc, not 2"
grep -q "bad.toml:4:[0-9]*: field .measurement.forks.: must be from 1" "$WORK/err2" || fail "forks = 0: $(cat "$WORK/err2")"
[ ! -e "$WORK/bad2" ] || fail "forks = 0 wrote $WORK/bad2"
echo "forks: pooled, reported, compared, validated and refused when bad"
