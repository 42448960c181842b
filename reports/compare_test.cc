#include "reports/compare.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "reports/golden_test_support.h"
#include "app/report_commands.h"
#include "tests/scratch_dir.h"

namespace kvbench::reports {
namespace {

void Scale(results::RunResults* r, const std::string& engine, double factor) {
  for (auto& run : r->runs) {
    if (run.engine != engine) continue;
    for (auto& rep : run.repetitions) {
      for (auto& op : rep.ops) op.ops_per_sec *= factor;
    }
  }
}

CompareOptions FailAt(double pct) {
  CompareOptions o;
  o.fail_on_regression_pct = pct;
  return o;
}

TEST(CompareTest, AFileComparedWithItselfHasNoChange) {
  const results::RunResults a = test::LoadRunA();
  const Comparison c = CompareResults(a, a, FailAt(20));
  EXPECT_FALSE(c.has_regression);
  EXPECT_GT(c.rows.size(), 20u);
  for (const ComparedRow& row : c.rows) {
    EXPECT_FALSE(row.throughput.changed) << row.phase << " " << row.engine;
    EXPECT_DOUBLE_EQ(row.throughput.ratio, 1.0);
    ASSERT_TRUE(row.p99.has_value());
    EXPECT_FALSE(row.p99->changed);
  }
  EXPECT_TRUE(c.status_changes.empty());
  EXPECT_TRUE(c.only_in_a.empty());
  EXPECT_TRUE(c.only_in_b.empty());
}

TEST(CompareTest, HalvedThroughputFlagsExactlyThatEngine) {
  const results::RunResults a = test::LoadRunA();
  results::RunResults b = a;
  Scale(&b, "lmdb", 0.5);
  const Comparison c = CompareResults(a, b, FailAt(20));
  EXPECT_TRUE(c.has_regression);
  size_t lmdb_rows = 0;
  for (const ComparedRow& row : c.rows) {
    const bool lmdb = row.engine == "lmdb";
    lmdb_rows += lmdb;
    EXPECT_EQ(row.throughput.changed, lmdb) << row.phase << "/" << row.op << "/" << row.engine;
    EXPECT_EQ(row.regression, lmdb) << row.phase << "/" << row.op << "/" << row.engine;
    if (lmdb) {
      EXPECT_NEAR(row.throughput.ratio, 0.5, 1e-9);
    }
  }
  EXPECT_EQ(lmdb_rows, 4u + 4u * 3u);  // load, get_cold, get_hot, scan; ycsb_a 4 points x 3 ops
}

TEST(CompareTest, ChangesWithinTheRepetitionSpreadAreNotMarked) {
  const results::RunResults a = test::LoadRunA();
  results::RunResults b = a;
  // Widen B's spread for sqlite to about 40%, then move its median by 20%.
  for (auto& run : b.runs) {
    if (run.engine != "sqlite" || run.repetitions.size() != 3) continue;
    const double factors[] = {0.6, 0.8, 1.0};
    for (size_t i = 0; i < 3; ++i) {
      for (auto& op : run.repetitions[i].ops) op.ops_per_sec *= factors[i];
    }
  }
  const Comparison c = CompareResults(a, b, FailAt(5));
  for (const ComparedRow& row : c.rows) {
    if (row.engine == "sqlite") {
      EXPECT_GT(row.throughput.band, 0.2);
      EXPECT_FALSE(row.throughput.changed) << row.phase << " ratio " << row.throughput.ratio;
    }
  }
}

TEST(CompareTest, OneRepetitionUsesTheThreshold) {
  results::RunResults a = test::LoadRunA();
  for (auto& run : a.runs) {
    if (run.repetitions.size() > 1) run.repetitions.resize(1);
  }
  results::RunResults b = a;
  Scale(&b, "sqlite", 0.92);
  Scale(&b, "lmdb", 0.85);
  CompareOptions options = FailAt(12);
  for (const ComparedRow& row : CompareResults(a, b, options).rows) {
    EXPECT_DOUBLE_EQ(row.throughput.band, 0.10);
    EXPECT_EQ(row.throughput.changed, row.engine == "lmdb") << row.engine;
    EXPECT_EQ(row.regression, row.engine == "lmdb") << row.engine;
  }
  options.threshold_pct = 20;
  for (const ComparedRow& row : CompareResults(a, b, options).rows) {
    EXPECT_FALSE(row.throughput.changed) << row.engine;
  }
}

TEST(CompareTest, AnEngineFailingInBIsARegression) {
  const results::RunResults a = test::LoadRunA();
  results::RunResults b = a;
  b.runs[0].status = "failed";
  b.runs[0].reason = "disk full";
  b.runs[0].repetitions.clear();
  const Comparison c = CompareResults(a, b, FailAt(50));
  EXPECT_TRUE(c.has_regression);
  ASSERT_EQ(c.status_changes.size(), 1u);
  EXPECT_EQ(c.status_changes[0], "phase load, engine sqlite: ok in A, failed in B (disk full)");
  EXPECT_FALSE(CompareResults(a, b, CompareOptions{}).has_regression);
}

TEST(CompareTest, CommandExitCodes) {
  kvbench::test::ScratchDir dir("compare");
  results::RunResults b = test::LoadRunA();
  Scale(&b, "lmdb", 0.5);
  const std::string a_path = test::TestdataPath("run_a.json");
  const std::string b_path = dir.path() + "/b.json";
  ASSERT_TRUE(results::WriteResultsFile(b, b_path).ok());
  std::ostringstream out, err;
  EXPECT_EQ(app::RunCompareCommand(a_path, a_path, FailAt(20), out, err), 0);
  EXPECT_NE(out.str().find("changed, 0 regressed"), std::string::npos) << out.str();
  EXPECT_EQ(app::RunCompareCommand(a_path, b_path, FailAt(20), out, err), 1);
  EXPECT_EQ(app::RunCompareCommand(a_path, b_path, CompareOptions{}, out, err), 0);  // no threshold
  EXPECT_EQ(app::RunCompareCommand(a_path, b_path, FailAt(60), out, err), 0);        // halving is 50%
  EXPECT_TRUE(err.str().empty());
  for (const char* bad : {"truncated.json", "schema_version_99.json", "missing.json"}) {
    std::ostringstream bad_out, bad_err;
    EXPECT_EQ(app::RunCompareCommand(a_path, test::TestdataPath(bad), FailAt(20), bad_out, bad_err), 2)
        << bad;
    const std::string message = bad_err.str();
    EXPECT_EQ(std::count(message.begin(), message.end(), '\n'), 1) << message;
    EXPECT_TRUE(bad_out.str().empty());
  }
}

}  // namespace
}  // namespace kvbench::reports
