#include "reports/ycsb_summary.h"

#include <gtest/gtest.h>

namespace kvbench::reports {
namespace {

results::OpFigures Op(const std::string& name, uint64_t ops, uint64_t not_found) {
  results::OpFigures f;
  f.op = name;
  f.ops = ops;
  f.latency.mean_ns = 12500;
  f.latency.min_ns = 2600;
  f.latency.max_ns = 1890000;
  f.latency.p95_ns = 21400;
  f.latency.p99_ns = 40000;
  f.work.not_found = not_found;
  return f;
}

results::RunResults TwoPhases() {
  results::RunResults r;
  results::PhaseRun load;
  load.phase = "load";
  load.engine = "lmdb";
  results::Repetition rep;
  rep.seconds = 0.5;
  rep.ops = {Op("all", 1000, 0), Op("INSERT", 1000, 0)};
  load.repetitions = {rep};
  results::PhaseRun run = load;
  run.phase = "run";
  run.repetitions[0].seconds = 2;
  run.repetitions[0].ops = {Op("all", 3000, 7), Op("READ", 2000, 7), Op("UPDATE", 1000, 0)};
  results::PhaseRun other = run;
  other.engine = "sqlite";
  results::PhaseRun scan = run;
  scan.phase = "scan";
  scan.status = "unsupported";
  scan.reason = "scans need an ordered engine";
  scan.repetitions.clear();
  r.runs = {load, other, run, scan};
  return r;
}

TEST(YcsbSummaryTest, PrintsYcsbLinesPerPhaseForOneEngine) {
  const std::string text = RenderYcsbSummary(TwoPhases(), "lmdb");
  EXPECT_EQ(text,
            "[KVBENCH], Engine, lmdb\n[KVBENCH], Phase, load\n"
            "[OVERALL], RunTime(ms), 500\n[OVERALL], Throughput(ops/sec), 2000\n"
            "[INSERT], Operations, 1000\n[INSERT], AverageLatency(us), 12.5\n"
            "[INSERT], MinLatency(us), 3\n[INSERT], MaxLatency(us), 1890\n"
            "[INSERT], 95thPercentileLatency(us), 21\n[INSERT], 99thPercentileLatency(us), 40\n"
            "[INSERT], Return=OK, 1000\n"
            "[KVBENCH], Engine, lmdb\n[KVBENCH], Phase, run\n"
            "[OVERALL], RunTime(ms), 2000\n[OVERALL], Throughput(ops/sec), 1500\n"
            "[READ], Operations, 2000\n[READ], AverageLatency(us), 12.5\n"
            "[READ], MinLatency(us), 3\n[READ], MaxLatency(us), 1890\n"
            "[READ], 95thPercentileLatency(us), 21\n[READ], 99thPercentileLatency(us), 40\n"
            "[READ], Return=OK, 1993\n[READ], Return=NOT_FOUND, 7\n"
            "[UPDATE], Operations, 1000\n[UPDATE], AverageLatency(us), 12.5\n"
            "[UPDATE], MinLatency(us), 3\n[UPDATE], MaxLatency(us), 1890\n"
            "[UPDATE], 95thPercentileLatency(us), 21\n[UPDATE], 99thPercentileLatency(us), 40\n"
            "[UPDATE], Return=OK, 1000\n"
            "[KVBENCH], Engine, lmdb\n[KVBENCH], Phase, scan\n"
            "[KVBENCH], Status, unsupported: scans need an ordered engine\n");
}

TEST(YcsbSummaryTest, OtherEnginesAndLowerCaseOpsAreHandled) {
  results::RunResults r = TwoPhases();
  EXPECT_EQ(RenderYcsbSummary(r, "nosuch"), "");
  r.runs[1].repetitions[0].ops[1].op = "get";
  EXPECT_NE(RenderYcsbSummary(r, "sqlite").find("[GET], Operations, 2000\n"), std::string::npos);
}

}  // namespace
}  // namespace kvbench::reports
