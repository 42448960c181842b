#include "app/history_commands.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/cli.h"
#include "results/results_json.h"
#include "tests/scratch_dir.h"
#include "tests/support/history_test_support.h"

namespace kvbench::app {
namespace {

namespace fs = std::filesystem;

std::string Bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

class HistoryCommandsTest : public testing::Test {
 protected:
  // A results file of one run: `ops` ops/s, started `minute` minutes into the day.
  std::string Write(int minute, double ops, const std::string& name = "") {
    char stamp[32];
    std::snprintf(stamp, sizeof stamp, "2026-11-01T%02d:%02d:00Z", minute / 60, minute % 60);
    char id[40];
    std::snprintf(id, sizeof id, "%032d", minute + 1);
    const std::string path = dir_.path() + "/" + (name.empty() ? std::string(id) : name) + ".json";
    EXPECT_TRUE(results::WriteResultsFile(results::MadeUpRun(id, stamp, 1, 3, ops), path).ok());
    return path;
  }

  int Add(const std::vector<std::string>& files) {
    out_.str("");
    err_.str("");
    return RunHistoryAdd(files, store_, out_, err_);
  }

  test::ScratchDir dir_{"history-cmd"};
  std::string store_ = "sqlite:" + dir_.path() + "/store/history.db";
  std::ostringstream out_, err_;
};

TEST_F(HistoryCommandsTest, AddingTwiceIsANoOpAndTheFileIsOnlyRead) {
  const std::string file = Write(0, 1000);
  const std::string before = Bytes(file);
  const auto mtime = fs::last_write_time(file);
  ASSERT_EQ(Add({file}), kExitOk) << err_.str();
  EXPECT_NE(out_.str().find("added run 00000000000000000000000000000001"), std::string::npos)
      << out_.str();
  ASSERT_EQ(Add({file}), kExitOk);
  EXPECT_NE(out_.str().find("is already in"), std::string::npos) << out_.str();
  EXPECT_EQ(Bytes(file), before);
  EXPECT_EQ(fs::last_write_time(file), mtime);
  std::ostringstream list;
  ASSERT_EQ(RunHistoryList(store_, {}, list, err_), kExitOk);
  EXPECT_NE(list.str().find("1 run\n"), std::string::npos) << list.str();
}

TEST_F(HistoryCommandsTest, OneBadFileAddsNothingAndSaysWhichInOneLine) {
  const std::string good = Write(0, 1000);
  const std::string bad = dir_.path() + "/bad.json";
  std::ofstream(bad) << "{\"schema\": \"kvbench-results\", \"schema_ver";
  EXPECT_EQ(Add({good, bad}), kExitBadInput);
  EXPECT_NE(err_.str().find("bad.json': not valid JSON"), std::string::npos) << err_.str();
  const std::string message = err_.str();
  EXPECT_EQ(std::count(message.begin(), message.end(), '\n'), 1);
  EXPECT_FALSE(fs::exists(dir_.path() + "/store/history.db"));  // not even created
  EXPECT_EQ(RunHistoryAdd({good}, "mysql://x", out_, err_), kExitBadInput);
}

TEST_F(HistoryCommandsTest, CheckFailsOnASlowdownInTheNewestRunsAndTrendShowsIt) {
  std::vector<std::string> files;
  for (int i = 0; i < 26; ++i)
    files.push_back(Write(i, (i < 20 ? 1000 : 850) * (1 + 0.003 * (i % 4))));
  ASSERT_EQ(Add(files), kExitOk) << err_.str();
  CheckArgs check;
  check.filter.figures = {"ops_per_sec", "p99"};
  check.fail_pct = 10;
  std::ostringstream out, err;
  EXPECT_EQ(RunHistoryCheck(store_, check, out, err), kExitFailure) << err.str();
  EXPECT_NE(out.str().find("REGRESSION: lmdb · phase-0 (get) · all · throughput 1"),
            std::string::npos)
      << out.str();
  check.fail_pct = 20;  // a 15% slowdown is within 20%
  EXPECT_EQ(RunHistoryCheck(store_, check, out, err), kExitOk);
  check.fail_pct = 10;
  check.last_runs = 4;  // the change is 6 runs back: older than the window
  EXPECT_EQ(RunHistoryCheck(store_, check, out, err), kExitOk);

  TrendArgs trend;
  trend.filter.figures = {"throughput"};
  trend.output = dir_.path() + "/trend.html";
  std::ostringstream trend_out;
  ASSERT_EQ(RunHistoryTrend(store_, trend, trend_out, err), kExitOk) << err.str();
  EXPECT_EQ(trend_out.str(), "trend: " + trend.output + " (1 series, 1 change points)\n");
  EXPECT_NE(Bytes(trend.output).find("<g class=\"marker\">"), std::string::npos);
}

TEST_F(HistoryCommandsTest, ASchema4ToSchema5StepIsATimeBaseChangeNotARegression) {
  // 10 runs read from schema-4 files (ops/s over the time inside the
  // engine's calls, 1,600) then 10 of schema 5 (over the wall span, 1,000).
  std::vector<std::string> files;
  for (int i = 0; i < 20; ++i) {
    char stamp[32], id[40];
    std::snprintf(stamp, sizeof stamp, "2026-11-26T%02d:00:00Z", i);
    std::snprintf(id, sizeof id, "%032d", 100 + i);
    results::RunResults run =
        results::MadeUpRun(id, stamp, 1, 3, (i < 10 ? 1600 : 1000) * (1 + 0.003 * (i % 4)));
    if (i < 10) {
      for (results::Repetition& rep : run.runs[0].repetitions) {
        rep.rate_base = results::RateBase::kEngineCalls;
      }
    }
    files.push_back(dir_.path() + "/" + id + ".json");
    ASSERT_TRUE(results::WriteResultsFile(run, files.back()).ok());
  }
  ASSERT_EQ(Add(files), kExitOk) << err_.str();
  CheckArgs check;
  check.filter.figures = {"ops_per_sec"};
  check.last_runs = 15;
  std::ostringstream out, err;
  EXPECT_EQ(RunHistoryCheck(store_, check, out, err), kExitOk) << out.str() << err.str();
  EXPECT_EQ(out.str().find("REGRESSION"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("time-base change in 1 throughput series (lmdb · phase-0 (get) · all)"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("figures before this point divided by the time inside the engine's "
                           "calls (results schema 4); after it by the wall span"),
            std::string::npos)
      << out.str();

  TrendArgs trend;
  trend.filter.figures = {"throughput"};
  trend.output = dir_.path() + "/trend.html";
  std::ostringstream trend_out;
  ASSERT_EQ(RunHistoryTrend(store_, trend, trend_out, err), kExitOk) << err.str();
  EXPECT_EQ(trend_out.str().rfind("trend: " + trend.output +
                                      " (1 series, 0 change points, 1 time-base change)\n"
                                      "time-base change in 1 throughput series",
                                  0),
            0u)
      << trend_out.str();
  EXPECT_NE(Bytes(trend.output).find(">time base</text>"), std::string::npos);
}

TEST_F(HistoryCommandsTest, BadFiguresAndDetectionOptionsAreBadInput) {
  ASSERT_EQ(Add({Write(0, 1000)}), kExitOk);
  TrendArgs trend;
  trend.filter.figures = {"p98"};
  trend.output = dir_.path() + "/t.html";
  std::ostringstream out, err;
  EXPECT_EQ(RunHistoryTrend(store_, trend, out, err), kExitBadInput);
  EXPECT_NE(err.str().find("unknown figure 'p98'"), std::string::npos);
  trend.filter.figures = {"p99"};
  trend.detection.permutations = 10;
  EXPECT_EQ(RunHistoryTrend(store_, trend, out, err), kExitBadInput);
  EXPECT_FALSE(fs::exists(trend.output));
}

TEST(ResolveStoreSpec, OptionThenEnvironmentThenDefault) {
  EXPECT_EQ(ResolveStoreSpec("sqlite:a.db", "postgresql:///x", "", "/home/u"), "sqlite:a.db");
  EXPECT_EQ(ResolveStoreSpec("", "postgresql:///x", "", "/home/u"), "postgresql:///x");
  EXPECT_EQ(ResolveStoreSpec("", "", "", "/home/u"),
            "sqlite:/home/u/.local/share/kvbench/history.db");
}

}  // namespace
}  // namespace kvbench::app
