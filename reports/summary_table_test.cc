#include <gtest/gtest.h>

#include "reports/golden_test_support.h"
#include "reports/reports.h"

namespace kvbench::reports {
namespace {

std::string FirstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

TEST(SummaryTableTest, MatrixColumnsOnlyWhenTheyVary) {
  results::RunResults r = test::LoadRunA();
  EXPECT_EQ(FirstLine(RenderSummaryTable(r)),
            "phase     engine    threads       target  cache      ops/s  harness  p50 us  p99 us  "
            "status");
  std::erase_if(r.runs, [](const results::PhaseRun& run) {
    return run.phase == "ycsb_a" || !run.cache.empty();
  });
  EXPECT_EQ(FirstLine(RenderSummaryTable(r)),
            "phase  engine        ops/s  harness  p50 us  p99 us  status");
}

TEST(SummaryTableTest, OneLinePerRunWithStatusAndReason) {
  const results::RunResults r = test::LoadRunA();
  const std::string table = RenderSummaryTable(r);
  EXPECT_EQ(static_cast<size_t>(std::count(table.begin(), table.end(), '\n')), r.runs.size() + 1);
  EXPECT_NE(table.find("failed: killed by signal 11 (SIGSEGV) after 1873 operations\n"),
            std::string::npos);
  for (char c : table) EXPECT_TRUE(static_cast<unsigned char>(c) < 128) << "non-ASCII output";
}

}  // namespace
}  // namespace kvbench::reports
