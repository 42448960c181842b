#include "reports/ycsb_summary.h"

#include <gtest/gtest.h>

#include "reports/java_format.h"

namespace kvbench::reports {
namespace {

results::OpFigures Op(const std::string& name, uint64_t ops, uint64_t not_found) {
  results::OpFigures f;
  f.op = name;
  f.ops = ops;
  f.latency.count = ops;
  f.latency.mean_ns = 12500;
  f.latency.min_ns = 2600;
  f.latency.max_ns = 1890000;
  f.latency.p50_ns = 11400;
  f.latency.p95_ns = 21400;
  f.latency.p99_ns = 40000;
  f.latency.p999_ns = 90000;
  f.latency.buckets = {{2600, ops / 2}, {40000, ops - ops / 2 - 1}, {1890000, 1}};
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
  run.repetitions[0].session_cleanup = Op("x", 4, 0).latency;
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

TEST(JavaFormatTest, DoublesPrintAsJavaPrintsThem) {
  EXPECT_EQ(JavaDouble(2000), "2000.0");
  EXPECT_EQ(JavaDouble(12.5), "12.5");
  EXPECT_EQ(JavaDouble(65789.47368421052), "65789.47368421052");
  EXPECT_EQ(JavaDouble(0.001), "0.001");
  EXPECT_EQ(JavaDouble(0.0005), "5.0E-4");
  EXPECT_EQ(JavaDouble(1e7), "1.0E7");
  EXPECT_EQ(JavaDouble(12345678.9), "1.23456789E7");
  EXPECT_EQ(JavaDouble(0), "0.0");
  // %.Nf rounds the shortest digits half up, as java.util.Formatter does.
  EXPECT_EQ(JavaFixed(1.005, 2), "1.01");
  EXPECT_EQ(JavaFixed(0.125, 2), "0.13");
  EXPECT_EQ(JavaFixed(9.999, 2), "10.00");
  EXPECT_EQ(JavaFixed(0.0001, 3), "0.000");
  EXPECT_EQ(JavaFixed(1795589698.317, 3), "1795589698.317");
  EXPECT_EQ(JavaFixed(0.5, 12), "0.500000000000");
  EXPECT_EQ(JavaFixed(3.25, 2, 8), "    3.25");
}

TEST(YcsbSummaryTest, OneRunIsYcsbsTextExporterOutput) {
  const results::RunResults r = TwoPhases();
  EXPECT_EQ(RenderYcsbRun(r.runs[2].repetitions[0]),
            "[OVERALL], RunTime(ms), 2000\n[OVERALL], Throughput(ops/sec), 1500.0\n"
            "[READ], Operations, 2000\n[READ], AverageLatency(us), 12.5\n"
            "[READ], MinLatency(us), 3\n[READ], MaxLatency(us), 1890\n"
            "[READ], 50thPercentileLatency(us), 11\n"
            "[READ], 95thPercentileLatency(us), 21\n[READ], 99thPercentileLatency(us), 40\n"
            "[READ], Return=OK, 1993\n[READ], Return=NOT_FOUND, 7\n"
            "[UPDATE], Operations, 1000\n[UPDATE], AverageLatency(us), 12.5\n"
            "[UPDATE], MinLatency(us), 3\n[UPDATE], MaxLatency(us), 1890\n"
            "[UPDATE], 50thPercentileLatency(us), 11\n"
            "[UPDATE], 95thPercentileLatency(us), 21\n[UPDATE], 99thPercentileLatency(us), 40\n"
            "[UPDATE], Return=OK, 1000\n"
            "[CLEANUP], Operations, 4\n[CLEANUP], AverageLatency(us), 12.5\n"
            "[CLEANUP], MinLatency(us), 3\n[CLEANUP], MaxLatency(us), 1890\n"
            "[CLEANUP], 50thPercentileLatency(us), 11\n"
            "[CLEANUP], 95thPercentileLatency(us), 21\n[CLEANUP], 99thPercentileLatency(us), 40\n"
            "[CLEANUP], Return=OK, 4\n");
}

TEST(YcsbSummaryTest, PercentilesAreHdrhistogramPercentilesNamedAsYcsbNamesThem) {
  YcsbTextOptions options;
  options.percentiles = {1, 99.9, 99.99};
  const std::string text = RenderYcsbRun(TwoPhases().runs[0].repetitions[0], options);
  EXPECT_NE(text.find("[INSERT], 1stPercentileLatency(us), 3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("[INSERT], 99.9PercentileLatency(us), 90\n"), std::string::npos);
  // Not stored: computed from the buckets, the 1000th of 1000 values.
  EXPECT_NE(text.find("[INSERT], 99.99PercentileLatency(us), 1890\n"), std::string::npos);
  EXPECT_EQ(text.find("50thPercentile"), std::string::npos);
}

TEST(YcsbSummaryTest, TimeSeriesLinesFollowEachOperation) {
  results::Repetition rep = TwoPhases().runs[0].repetitions[0];
  results::TimeSeries series;
  series.interval_s = 0.25;
  results::OpTimeSeries insert;
  insert.op = "INSERT";
  insert.count = {600, 0, 400};
  insert.mean_ns = {10000, 0, 16250};
  series.ops = {insert};
  rep.time_series = series;
  YcsbTextOptions options;
  options.timeseries = true;
  const std::string text = RenderYcsbRun(rep, options);
  EXPECT_NE(text.find("[INSERT], Return=OK, 1000\n[INSERT], 0, 10.0\n[INSERT], 500, 16.25\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("[INSERT], 250,"), std::string::npos);  // nothing ran there
}

TEST(YcsbSummaryTest, SummaryKeepsRunsApartAndFilesNameEachRun) {
  results::RunResults r = TwoPhases();
  const std::string text = RenderYcsbSummary(r, "lmdb");
  EXPECT_EQ(
      text.find("[KVBENCH], Engine, lmdb\n[KVBENCH], Phase, load\n[OVERALL], RunTime(ms), 500\n"),
      0u)
      << text;
  EXPECT_NE(text.find("[KVBENCH], Engine, lmdb\n[KVBENCH], Phase, scan\n"
                      "[KVBENCH], Status, unsupported: scans need an ordered engine\n"),
            std::string::npos);
  EXPECT_EQ(RenderYcsbSummary(r, "nosuch"), "");
  r.runs[1].repetitions[0].ops[1].op = "get";
  EXPECT_NE(RenderYcsbSummary(r, "sqlite").find("[GET], Operations, 2000\n"), std::string::npos);

  // A second point and a second repetition of lmdb's run.
  results::PhaseRun second = r.runs[2];
  second.threads = 4;
  second.target_ops = 2000;
  second.repetitions.push_back(second.repetitions[0]);
  r.runs.push_back(second);
  std::vector<std::string> names;
  for (const auto& [name, body] : YcsbRunFiles(r)) {
    names.push_back(name);
    EXPECT_EQ(body.find("[OVERALL], RunTime(ms), "), 0u) << name;
    EXPECT_EQ(body.find("[KVBENCH]"), std::string::npos) << name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"lmdb-load.txt", "sqlite-run.txt", "lmdb-run.txt",
                                             "lmdb-run-t4-target2000-rep1.txt",
                                             "lmdb-run-t4-target2000-rep2.txt"}));
  EXPECT_NE(RenderYcsbSummary(r, "lmdb").find("[KVBENCH], Point, t4-target2000\n"
                                              "[KVBENCH], Repetition, 1\n"),
            std::string::npos);
}

}  // namespace
}  // namespace kvbench::reports
