# Sourced by bench/compare_acceptance.sh and tests/compare_acceptance_test.sh:
# null_spin_workload SPIN_NS COUNT FILE writes a workload of three phases on
# the null engine whose every operation busy-waits SPIN_NS (null.spin_ns): a
# known cost per operation, so a slowdown of a known size can be injected.
null_spin_workload() {
  cat > "$3" <<TOML
name = "compare-acceptance-null"
engines = ["null"]
repetitions = 5
[dataset]
kind = "sequential"
count = $2
[options.null]
"null.spin_ns" = "$1"
[[phase]]
name = "put"
op = "insert"
count = $2
[[phase]]
name = "get"
op = "get"
count = $2
TOML
}
