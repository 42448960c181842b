// The adapter conformance suite (conformance/adapter_cases.cc and
// capability_cases.cc) on every registered adapter: the cases
// `kvbench conformance ENGINE --suite adapter` runs.
#include "tests/conformance_gtest.h"

KVBENCH_CONFORMANCE_SUITE(ConformanceTest, "adapter");
