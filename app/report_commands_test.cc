#include "app/report_commands.h"

#include <gtest/gtest.h>

#include <sstream>

#include "reports/reporter.h"
#include "reports/reports.h"
#include "tests/scratch_dir.h"
#include "tests/support/golden_test_support.h"

namespace kvbench::app {
namespace {

struct Outcome {
  int exit_code;
  std::string out, err;
};

Outcome Report(const std::vector<std::string>& files, const std::string& format = "md",
               const std::string& output = "") {
  std::ostringstream out, err;
  const int rc = RunReportCommand(files, format, output, out, err);
  return {rc, out.str(), err.str()};
}

TEST(ReportCommandTest, RendersOneFileToStandardOutput) {
  const Outcome o = Report({reports::test::TestdataPath("run_a.json")});
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_EQ(o.out, reports::MakeMarkdownReporter()->Render(reports::test::LoadRunA()));
  EXPECT_TRUE(o.err.empty());
}

TEST(ReportCommandTest, WritesTheFileGivenWithDashO) {
  kvbench::test::ScratchDir dir("report");
  const std::string path = dir.path() + "/r.csv";
  const Outcome o = Report({reports::test::TestdataPath("run_a.json")}, "csv", path);
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_TRUE(o.out.empty());
  EXPECT_EQ(reports::test::ReadText(path), reports::MakeCsvReporter()->Render(reports::test::LoadRunA()));
}

TEST(ReportCommandTest, BadInputIsOneLineOnStderrAndExitTwo) {
  const struct {
    std::vector<std::string> files;
    std::string format;
    std::string message;
  } cases[] = {
      {{reports::test::TestdataPath("truncated.json")}, "md", "not valid JSON (truncated?) at byte"},
      {{reports::test::TestdataPath("schema_version_99.json")}, "md", "schema_version 99 is not supported"},
      {{reports::test::TestdataPath("run_a.json"), reports::test::TestdataPath("missing.json")},
       "md",
       "cannot be read"},
      {{reports::test::TestdataPath("run_a.json")}, "pdf", "unknown format 'pdf'"},
      {{}, "md", "no results file"},
  };
  for (const auto& c : cases) {
    const Outcome o = Report(c.files, c.format);
    EXPECT_EQ(o.exit_code, 2) << c.message;
    EXPECT_TRUE(o.out.empty());
    EXPECT_NE(o.err.find(c.message), std::string::npos) << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  }
}

TEST(ReportCommandTest, MergesSeveralFiles) {
  const std::string a = reports::test::TestdataPath("run_a.json");
  const Outcome o = Report({a, a}, "csv");
  EXPECT_EQ(o.exit_code, 0);
  const std::string single = reports::MakeCsvReporter()->Render(reports::test::LoadRunA());
  const auto lines = [](const std::string& s) { return std::count(s.begin(), s.end(), '\n'); };
  EXPECT_EQ(lines(o.out), 2 * lines(single) - 1);  // one header
  EXPECT_NE(o.out.find(",lmdb#2,"), std::string::npos);
}

TEST(MergeResultsTest, ConcatenatesAndRenamesCollidingEngines) {
  const results::RunResults a = reports::test::LoadRunA();
  results::RunResults b = a;
  b.environment.hostname = "bench-02";
  b.engines.resize(1);  // sqlite only
  std::erase_if(b.runs, [](const results::PhaseRun& r) { return r.engine != "sqlite"; });
  b.runs.push_back(b.runs.front());
  b.runs.back().engine = "rocksdb";
  const results::RunResults m = reports::MergeResults({a, b});
  EXPECT_EQ(m.runs.size(), a.runs.size() + b.runs.size());
  EXPECT_EQ(m.engines.size(), a.engines.size() + 1);
  EXPECT_EQ(m.engines.back().name, "sqlite#2");
  EXPECT_EQ(m.runs.back().engine, "rocksdb");  // no collision: name kept
  EXPECT_EQ(m.environment.hostname, "bench-01");
  EXPECT_NE(m.workload.description.find("Merged from 2 results files"), std::string::npos);
  EXPECT_NE(m.workload.description.find("Input 2 ran on a different environment: host bench-02"),
            std::string::npos)
      << m.workload.description;
  EXPECT_NE(m.workload.description.find("shown renamed: sqlite as sqlite#2."), std::string::npos);
  const results::RunResults one = reports::MergeResults({a});
  EXPECT_EQ(one.workload.description, a.workload.description);
}

}  // namespace
}  // namespace kvbench::app
