#include "runner/status_reporter.h"

#include <gtest/gtest.h>

#include <regex>

namespace kvbench::runner {
namespace {

TEST(StatusReporterTest, LineHasYcsbsShape) {
  std::array<LatencyHistogram, kOpKinds> window;
  for (int i = 1; i <= 100; ++i) window[static_cast<size_t>(OpKind::kGet)].Record(1000 * i);
  window[static_cast<size_t>(OpKind::kRmwRead)].Record(5000);
  window[static_cast<size_t>(OpKind::kUpdate)].Record(2500);
  PhaseSpec spec;
  spec.ycsb.emplace();
  const std::string line =
      StatusReporter::Line("L ", std::chrono::system_clock::from_time_t(1700000000), 10.4, 1234,
                           102, 2.0, 5000, ReportedOps(spec), window);
  // YCSB's StatusThread: "DATE TIME N sec: N operations; R current ops/sec; est
  // completion in ...[OP: Count=, Max=, Min=, Avg=, 90=, 99=, 99.9=, 99.99=] ".
  const std::regex shape(
      "L \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d:\\d{3} 10 sec: 1234 operations; 51 current "
      "ops/sec; est completion in 32 seconds \\[UPDATE: Count=1, Max=2\\.5, Min=2\\.5, "
      "Avg=2\\.5, 90=2\\.5, 99=2\\.5, 99\\.9=2\\.5, 99\\.99=2\\.5\\] \\[READ: Count=101, "
      "Max=100, Min=1, Avg=[0-9.]+, 90=[0-9.]+, 99=[0-9.]+, 99\\.9=[0-9.]+, "
      "99\\.99=[0-9.]+\\] ");
  EXPECT_TRUE(std::regex_match(line, shape)) << line;
}

TEST(StatusReporterTest, NoRateBeforeTheFirstOperationNorEstimateForATimedPhase) {
  std::array<LatencyHistogram, kOpKinds> window;
  PhaseSpec spec;
  const std::string line = StatusReporter::Line("", std::chrono::system_clock::now(), 0.2, 0, 0,
                                                0.2, 0, ReportedOps(spec), window);
  EXPECT_NE(line.find(" 0 sec: 0 operations; "), std::string::npos) << line;
  EXPECT_EQ(line.find("current ops/sec"), std::string::npos);
  EXPECT_EQ(line.find("est completion"), std::string::npos);
  EXPECT_EQ(line.find("["), std::string::npos);
}

}  // namespace
}  // namespace kvbench::runner
