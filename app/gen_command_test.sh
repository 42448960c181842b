#!/bin/sh
# `kvbench gen` end to end: seed 001's statistics at 1M keys, determinism, and
# exit code 2 with one clear message on bad input. Usage: gen_command_test.sh KVBENCH
set -u
kvbench="$1"
fail() { echo "FAIL: $*" >&2; exit 1; }

stats=$("$kvbench" gen urls --count 1000000 --stats) || fail "gen --stats exited $?"
value() { echo "$stats" | sed -n "s/^$1: //p"; }
[ "$(value count)" = 1000000 ] || fail "count $(value count)"
[ "$(value distinct)" = 1000000 ] || fail "distinct $(value distinct)"
awk -v a="$(value average_length)" 'BEGIN { exit !(a >= 139 && a <= 145) }' ||
  fail "average_length $(value average_length)"
awk -v r="$(value front_coded_ratio)" 'BEGIN { exit !(r > 0.25 && r < 0.5) }' ||
  fail "front_coded_ratio $(value front_coded_ratio)"

a=$("$kvbench" gen urls -n 2000 | cksum)
b=$("$kvbench" gen urls -n 2000 | cksum)
c=$("$kvbench" gen urls -n 2000 --seed 2 | cksum)
[ "$a" = "$b" ] || fail "two runs differ"
[ "$a" != "$c" ] || fail "seed 2 gives the same keys"
[ "$("$kvbench" gen sequential -n 3 | tr '\n' ' ')" = "0 1 2 " ] || fail "sequential"
[ "$("$kvbench" gen timestamp -n 2 | tail -1)" = "1970-01-01T00:00:07Z" ] || fail "timestamp"

expect_bad_input() {
  err=$("$kvbench" gen "$@" 2>&1 >/dev/null)
  rc=$?
  [ "$rc" = 2 ] || fail "gen $*: exit $rc, expected 2"
  [ "$(echo "$err" | wc -l)" = 1 ] || fail "gen $*: expected one line, got: $err"
  echo "$err" | grep -q -- "$EXPECT" || fail "gen $*: '$err' lacks '$EXPECT'"
}
EXPECT="unknown dataset 'nope'" expect_bad_input nope
EXPECT="unknown option 'avg_lenght'" expect_bad_input urls -p avg_lenght=100
EXPECT="/no/such/keys.txt" expect_bad_input file -p path=/no/such/keys.txt
echo "gen command: all checks passed"
