// Foreign and damaged files (conformance/damaged_files_cases.cc): every
// durable adapter answers with a Status, never a crash or a hang:
// `kvbench conformance ENGINE --suite damaged-files`.
#include "tests/conformance_gtest.h"

KVBENCH_CONFORMANCE_SUITE(DamagedFilesTest, "damaged-files");
