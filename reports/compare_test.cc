#include "reports/compare.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>

#include "app/report_commands.h"
#include "results/results_json.h"
#include "tests/scratch_dir.h"
#include "tests/support/golden_test_support.h"

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

// run_a.json with every completed run given `n` repetitions whose figures are
// the first repetition's times 1 + `noise` x (a fixed pattern in [-1, 1]).
results::RunResults WithRepetitions(results::RunResults r, size_t n, double noise) {
  const double pattern[] = {0, 0.5, -0.5, 1, -1, 0.25, -0.25, 0.75, -0.75};
  for (auto& run : r.runs) {
    if (run.repetitions.empty()) continue;
    const results::Repetition first = run.repetitions.front();
    run.repetitions.clear();
    for (size_t i = 0; i < n; ++i) {
      results::Repetition rep = first;
      const double f = 1 + noise * pattern[i % 9];
      for (auto& op : rep.ops) {
        op.ops_per_sec *= f;
        op.latency.p99_ns = static_cast<uint64_t>(static_cast<double>(op.latency.p99_ns) / f);
      }
      run.repetitions.push_back(rep);
    }
  }
  return r;
}

TEST(CompareTest, AFileComparedWithItselfHasNoChange) {
  const results::RunResults a = WithRepetitions(test::LoadRunA(), 5, 0.01);
  const Comparison c = CompareResults(a, a, FailAt(20));
  EXPECT_FALSE(c.has_regression);
  EXPECT_GT(c.rows.size(), 10u);
  for (const ComparedRow& row : c.rows) {
    EXPECT_EQ(row.throughput.verdict, Verdict::kNoChange) << row.phase << " " << row.engine;
    EXPECT_DOUBLE_EQ(row.throughput.ratio, 1.0);
    ASSERT_TRUE(row.p99.has_value());
    EXPECT_FALSE(row.p99->changed());
  }
  EXPECT_TRUE(c.status_changes.empty());
  EXPECT_TRUE(c.only_in_a.empty());
  EXPECT_TRUE(c.only_in_b.empty());
}

TEST(CompareTest, OneRowPerPhaseOfOneOperationType) {
  const results::RunResults a = WithRepetitions(test::LoadRunA(), 5, 0.01);
  // A phase of one operation type has one row: its "all" figures are the
  // same as the type's. Only the YCSB mix keeps an "all" row beside its types.
  std::map<std::string, int> rows_per_run;
  for (const ComparedRow& row : CompareResults(a, a, {}).rows) {
    ++rows_per_run[row.phase + "/" + row.engine + "/" + row.point_label];
  }
  for (const auto& [run, rows] : rows_per_run) EXPECT_NE(rows, 2) << run;
}

TEST(CompareTest, HalvedThroughputFlagsExactlyThatEngine) {
  const results::RunResults a = WithRepetitions(test::LoadRunA(), 5, 0.01);
  results::RunResults b = a;
  Scale(&b, "lmdb", 0.5);
  const Comparison c = CompareResults(a, b, FailAt(20));
  EXPECT_TRUE(c.has_regression);
  size_t lmdb_rows = 0;
  for (const ComparedRow& row : c.rows) {
    const bool lmdb = row.engine == "lmdb";
    lmdb_rows += lmdb;
    EXPECT_EQ(row.throughput.verdict, lmdb ? Verdict::kSlower : Verdict::kNoChange)
        << row.phase << "/" << row.op << "/" << row.engine;
    EXPECT_EQ(row.regression, lmdb) << row.phase << "/" << row.op << "/" << row.engine;
    if (lmdb) {
      EXPECT_NEAR(row.throughput.ratio, 0.5, 1e-9);
      EXPECT_LT(row.throughput.p_value, 0.05);
    }
  }
  EXPECT_GT(lmdb_rows, 4u);
}

// lmdb halved in B while B's CPU probe ran 1.7x slower around its lmdb
// repetitions: the change stands, and a line says the machine may be in it.
TEST(CompareTest, AChangeMeasuredWhileTheCpuRanSlowedIsSaidSo) {
  results::RunResults a = WithRepetitions(test::LoadRunA(), 5, 0.01);
  for (auto& run : a.runs) {
    for (auto& rep : run.repetitions) rep.cpu_probe_us = {2000, 2020};
  }
  results::RunResults b = a;
  Scale(&b, "lmdb", 0.5);
  for (auto& run : b.runs) {
    if (run.engine != "lmdb") continue;
    for (auto& rep : run.repetitions) rep.cpu_probe_us = {2000, 3400};
  }
  const Comparison c = CompareResults(a, b, FailAt(20));
  EXPECT_TRUE(c.has_regression);  // what the figures say is unchanged
  for (const ComparedRow& row : c.rows) {
    EXPECT_EQ(row.a_slowed, 0) << row.phase << "/" << row.engine;
    EXPECT_EQ(row.b_slowed, row.engine == "lmdb" ? row.b_reps : 0)
        << row.phase << "/" << row.engine;
  }
  const std::string text = RenderComparison(c, a, b, "a.json", "b.json");
  EXPECT_NE(text.find("Changes measured while the CPU ran slowed"), std::string::npos) << text;
  EXPECT_NE(text.find(", lmdb: slower 0.500×, with the CPU probe 1.25× the row's fastest or slower "
                      "in 0 of A's 5 and 5 of B's 5 repetitions"),
            std::string::npos)
      << text;
  // The same halving with a quiet probe on both sides: no such line.
  results::RunResults quiet = b;
  for (auto& run : quiet.runs) {
    for (auto& rep : run.repetitions) rep.cpu_probe_us = {2000, 2020};
  }
  const std::string calm =
      RenderComparison(CompareResults(a, quiet, FailAt(20)), a, quiet, "a.json", "b.json");
  EXPECT_EQ(calm.find("CPU ran slowed"), std::string::npos) << calm;
}

// A schema-4 file's unthrottled rows divide by the time inside the engine's
// calls (RateBase::kEngineCalls as read): set against wall-span rows they are
// refused unless asked for, and then flagged row by row.
TEST(CompareTest, RowsOfDifferentTimeBasesAreRefusedUnlessAllowed) {
  const results::RunResults a = WithRepetitions(test::LoadRunA(), 5, 0.01);
  results::RunResults b = a;
  size_t completed = 0;
  for (auto& run : b.runs) {
    if (run.target_ops != 0) continue;
    for (auto& rep : run.repetitions) {
      rep.engine_seconds = rep.seconds;
      rep.seconds *= 1.2;
      rep.rate_base = results::RateBase::kEngineCalls;
    }
    completed += !run.repetitions.empty() && run.status == "ok";
  }
  const Comparison same = CompareResults(a, a, {});
  EXPECT_EQ(same.mixed_time_base_rows(), 0u);
  EXPECT_EQ(MixedTimeBaseRefusal(same), "");
  EXPECT_EQ(RenderComparison(same, a, a, "a", "a").find("Not like for like"), std::string::npos);
  // Every report states what ops/s divides by.
  EXPECT_NE(RenderComparison(same, a, a, "a", "a").find("ops/s = operations / wall span"),
            std::string::npos);

  const Comparison refused = CompareResults(a, b, {});
  EXPECT_GT(refused.mixed_time_base_rows(), 0u);
  EXPECT_LE(refused.mixed_time_base_rows(), completed);
  const std::string reason = MixedTimeBaseRefusal(refused);
  EXPECT_NE(reason.find("--allow-mixed-time-base"), std::string::npos) << reason;
  EXPECT_NE(reason.find("B's ops/s over the time inside the engine's calls"), std::string::npos)
      << reason;

  CompareOptions allow;
  allow.allow_mixed_time_base = true;
  const Comparison mixed = CompareResults(a, b, allow);
  EXPECT_EQ(MixedTimeBaseRefusal(mixed), "");
  EXPECT_EQ(mixed.mixed_time_base_rows(), refused.mixed_time_base_rows());
  EXPECT_NE(RenderComparison(mixed, a, b, "a", "b").find("Not like for like"), std::string::npos);
}

// A results schema 4 file as that kvbench wrote it: unthrottled rows'
// `seconds` the time inside the engine's calls, `wall_seconds` the wall span
// (here 1.5x); paced rows both the wall span. Read as schema 5, then refused
// by `kvbench compare` against a wall-span file unless allowed.
TEST(CompareTest, ASchema4FileIsReadAsWallSpanAndRefusedAgainstWallSpanRows) {
  kvbench::test::ScratchDir dir("compare-schema4");
  const std::string a_path = test::TestdataPath("run_a.json");
  nlohmann::json doc = nlohmann::json::parse(test::ReadText(a_path));
  doc["schema_version"] = 4;
  for (auto& run : doc["runs"]) {
    for (auto& rep : run["repetitions"]) {
      const double s = rep["seconds"].get<double>();
      rep["wall_seconds"] = run["target_ops"].get<double>() == 0 ? s * 1.5 : s;
    }
  }
  const std::string b_path = dir.path() + "/schema4.json";
  ASSERT_TRUE(WriteFileAtomically(b_path, doc.dump()).ok());

  results::RunResults a, b;
  ASSERT_TRUE(results::ReadResultsFile(a_path, &a).ok());
  ASSERT_TRUE(results::ReadResultsFile(b_path, &b).ok());
  ASSERT_EQ(a.runs.size(), b.runs.size());
  size_t unthrottled = 0, paced = 0;
  for (size_t i = 0; i < a.runs.size(); ++i) {
    ASSERT_EQ(a.runs[i].repetitions.size(), b.runs[i].repetitions.size());
    for (size_t k = 0; k < a.runs[i].repetitions.size(); ++k) {
      const results::Repetition& ra = a.runs[i].repetitions[k];
      const results::Repetition& rb = b.runs[i].repetitions[k];
      // Schema 1 (run_a.json): seconds was already the wall span.
      EXPECT_EQ(ra.rate_base, results::RateBase::kWallSpan);
      EXPECT_FALSE(ra.engine_seconds.has_value());
      if (a.runs[i].target_ops == 0) {
        ++unthrottled;
        EXPECT_DOUBLE_EQ(rb.seconds, ra.seconds * 1.5);
        ASSERT_TRUE(rb.engine_seconds.has_value());
        EXPECT_DOUBLE_EQ(*rb.engine_seconds, ra.seconds);
        EXPECT_EQ(rb.rate_base, results::RateBase::kEngineCalls);
        EXPECT_NEAR(*rb.HarnessShare(), 1 - 1 / 1.5, 1e-12);
      } else {
        ++paced;
        EXPECT_DOUBLE_EQ(rb.seconds, ra.seconds);
        EXPECT_FALSE(rb.engine_seconds.has_value());
        EXPECT_EQ(rb.rate_base, results::RateBase::kWallSpan);
      }
      // The file's figures are kept as written, never recomputed.
      EXPECT_EQ(rb.ops.at(0).ops_per_sec, ra.ops.at(0).ops_per_sec);
    }
  }
  EXPECT_GT(unthrottled, 0u);
  EXPECT_GT(paced, 0u);
  // Written back (schema 5) and read again, the mark survives.
  results::RunResults again;
  ASSERT_TRUE(WriteFileAtomically(dir.path() + "/again.json",
                                  results::ResultsToJson(b).dump()).ok());
  ASSERT_TRUE(results::ReadResultsFile(dir.path() + "/again.json", &again).ok());
  for (size_t i = 0; i < b.runs.size(); ++i) {
    for (size_t k = 0; k < b.runs[i].repetitions.size(); ++k) {
      EXPECT_EQ(again.runs[i].repetitions[k].rate_base, b.runs[i].repetitions[k].rate_base);
      EXPECT_EQ(again.runs[i].repetitions[k].engine_seconds,
                b.runs[i].repetitions[k].engine_seconds);
    }
  }

  std::ostringstream out, err;
  EXPECT_EQ(app::RunCompareCommand(a_path, b_path, {}, out, err), 2);
  EXPECT_EQ(out.str(), "");
  EXPECT_NE(err.str().find("--allow-mixed-time-base"), std::string::npos) << err.str();
  EXPECT_NE(err.str().find("time inside the engine's calls"), std::string::npos) << err.str();
  std::ostringstream out2, err2;
  CompareOptions allow;
  allow.allow_mixed_time_base = true;
  EXPECT_EQ(app::RunCompareCommand(a_path, b_path, allow, out2, err2), 0) << err2.str();
  EXPECT_NE(out2.str().find("Not like for like"), std::string::npos);
  // Two schema-4 files share one time base: compared without asking.
  std::ostringstream out3, err3;
  EXPECT_EQ(app::RunCompareCommand(b_path, b_path, {}, out3, err3), 0) << err3.str();
}

TEST(CompareTest, AChangeSmallerThanTheMinimumEffectIsNoChange) {
  const results::RunResults a = WithRepetitions(test::LoadRunA(), 5, 0.001);
  results::RunResults b = a;
  Scale(&b, "lmdb", 0.97);  // significant (fully separated) but 3% < 5%
  for (const ComparedRow& row : CompareResults(a, b, FailAt(1)).rows) {
    EXPECT_EQ(row.throughput.verdict, Verdict::kNoChange) << row.engine;
    EXPECT_FALSE(row.regression);
  }
  CompareOptions two_percent = FailAt(1);
  two_percent.min_effect_pct = 2;
  bool flagged = false;
  for (const ComparedRow& row : CompareResults(a, b, two_percent).rows) {
    flagged = flagged || (row.engine == "lmdb" && row.throughput.verdict == Verdict::kSlower);
  }
  EXPECT_TRUE(flagged);
}

TEST(CompareTest, NoisyRepetitionsAreTooNoisyToSayNotAChange) {
  const results::RunResults a = WithRepetitions(test::LoadRunA(), 5, 0.4);
  results::RunResults b = WithRepetitions(test::LoadRunA(), 5, 0.4);
  Scale(&b, "sqlite", 0.9);  // 10% slower, inside ±40% noise: overlapping ranks
  for (const ComparedRow& row : CompareResults(a, b, FailAt(5)).rows) {
    if (row.engine != "sqlite") continue;
    EXPECT_EQ(row.throughput.verdict, Verdict::kTooNoisy) << row.phase;
    EXPECT_NE(row.throughput.reason.find("wider than"), std::string::npos) << row.throughput.reason;
    EXPECT_FALSE(row.regression);
  }
}

TEST(CompareTest, FewRepetitionsAreTooNoisyToSay) {
  // run_a.json has 1 to 3 repetitions: 3 against 3 can never reach p < 0.05.
  const results::RunResults a = test::LoadRunA();
  results::RunResults b = a;
  Scale(&b, "lmdb", 0.5);
  const Comparison c = CompareResults(a, b, FailAt(10));
  EXPECT_FALSE(c.has_regression);
  for (const ComparedRow& row : c.rows) {
    EXPECT_EQ(row.throughput.verdict, Verdict::kTooNoisy);
    EXPECT_NE(row.throughput.reason.find("too few repetitions"), std::string::npos);
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
  const results::RunResults a = WithRepetitions(test::LoadRunA(), 5, 0.01);
  results::RunResults b = a;
  Scale(&b, "lmdb", 0.5);
  const std::string a_path = dir.path() + "/a.json";
  const std::string b_path = dir.path() + "/b.json";
  ASSERT_TRUE(results::WriteResultsFile(a, a_path).ok());
  ASSERT_TRUE(results::WriteResultsFile(b, b_path).ok());
  results::RunResults other = a;
  other.workload.name = "another-workload";
  const std::string other_path = dir.path() + "/other.json";
  ASSERT_TRUE(results::WriteResultsFile(other, other_path).ok());
  std::ostringstream out, err;
  EXPECT_EQ(app::RunCompareCommand(a_path, a_path, FailAt(20), out, err), 0);
  EXPECT_NE(out.str().find(", 0 regressed"), std::string::npos) << out.str();
  EXPECT_EQ(app::RunCompareCommand(a_path, b_path, FailAt(20), out, err), 1);
  EXPECT_EQ(app::RunCompareCommand(a_path, b_path, CompareOptions{}, out, err), 0);  // no threshold
  EXPECT_EQ(app::RunCompareCommand(a_path, b_path, FailAt(60), out, err), 0);        // halving is 50%
  EXPECT_TRUE(err.str().empty());
  EXPECT_EQ(app::RunCompareCommand(a_path, other_path, FailAt(20), out, err), 2);
  EXPECT_NE(err.str().find("only runs of one workload compare"), std::string::npos) << err.str();
  CompareOptions absurd;
  absurd.confidence = 95;
  std::ostringstream absurd_err;
  EXPECT_EQ(app::RunCompareCommand(a_path, a_path, absurd, out, absurd_err), 2);
  EXPECT_NE(absurd_err.str().find("--confidence"), std::string::npos);
  for (const char* bad : {"truncated.json", "schema_version_99.json", "missing.json"}) {
    std::ostringstream bad_out, bad_err;
    EXPECT_EQ(app::RunCompareCommand(test::TestdataPath("run_a.json"), test::TestdataPath(bad),
                                     FailAt(20), bad_out, bad_err),
              2)
        << bad;
    const std::string message = bad_err.str();
    EXPECT_EQ(std::count(message.begin(), message.end(), '\n'), 1) << message;
    EXPECT_TRUE(bad_out.str().empty());
  }
}

}  // namespace
}  // namespace kvbench::reports
