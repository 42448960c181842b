// The record conformance suite (conformance/record_cases.cc) on every
// registered adapter: `kvbench conformance ENGINE --suite record`.
#include "tests/conformance_gtest.h"

KVBENCH_CONFORMANCE_SUITE(RecordConformanceTest, "record");
