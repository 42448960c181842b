// Engine options are checked in the plan (Adapter::CheckOptions), before any
// engine starts; conformance/option_cases.cc holds every registered adapter
// to what makes that check worth having (a value CheckOptions accepts is one
// Open() accepts too), and to its durability declaration and integrity
// check: `kvbench conformance ENGINE --suite options`.
#include "tests/conformance_gtest.h"

KVBENCH_CONFORMANCE_SUITE(OptionCheckTest, "options");
