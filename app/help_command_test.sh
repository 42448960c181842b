#!/bin/sh
# `kvbench help` end to end: without a command it prints kvbench's own help
# (as `kvbench --help`: every command named), with one that command's help,
# and an unknown command is exit 2 with one line naming it.
# Usage: help_command_test.sh KVBENCH
set -u
kvbench="$1"
fail() { echo "FAIL: $*" >&2; exit 1; }

out=$("$kvbench" help) || fail "kvbench help exited $?"
top=$("$kvbench" --help) || fail "kvbench --help exited $?"
[ "$out" = "$top" ] || fail "kvbench help differs from kvbench --help:
$out"
for c in engines gen validate run report compare history crash merge slurm ycsb conformance help; do
  echo "$out" | grep -Eq "^  $c +[A-Z]" || fail "kvbench help does not name the command '$c'"
done
# Not the help of `help` itself (what CLI11 prints when asked naively).
echo "$out" | grep -q "Usage: .*help" && fail "kvbench help printed the help of 'help'"

run=$("$kvbench" help run) || fail "kvbench help run exited $?"
[ "$run" = "$("$kvbench" run --help)" ] || fail "kvbench help run differs from kvbench run --help"
echo "$run" | grep -q -- "--engines" || fail "kvbench help run lacks --engines"

err=$("$kvbench" help nosuch 2>&1 >/dev/null)
rc=$?
[ "$rc" = 2 ] || fail "kvbench help nosuch: exit $rc, expected 2"
[ "$(echo "$err" | wc -l)" = 1 ] || fail "kvbench help nosuch: expected one line, got: $err"
echo "$err" | grep -q "unknown command 'nosuch'" || fail "kvbench help nosuch: '$err'"
echo "$err" | grep -q "run" || fail "kvbench help nosuch does not list the commands: '$err'"
[ -z "$("$kvbench" help nosuch 2>/dev/null)" ] || fail "kvbench help nosuch wrote to stdout"
echo "help command: all checks passed"
