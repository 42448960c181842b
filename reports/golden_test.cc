// Every renderer's output for the fixed results in testdata/, byte for byte.
// KVBENCH_UPDATE_GOLDEN=1 rewrites the golden files (see reports/README.md).
#include <sstream>

#include "app/report_commands.h"
#include "reports/compare.h"
#include "reports/reporter.h"
#include "reports/reports.h"
#include "tests/support/golden_test_support.h"

namespace kvbench::reports {
namespace {

using test::ExpectGolden;
using test::LoadRunA;

TEST(GoldenTest, Markdown) {
  ExpectGolden("report.md", MakeMarkdownReporter()->Render(LoadRunA()));
}

TEST(GoldenTest, Csv) { ExpectGolden("results.csv", MakeCsvReporter()->Render(LoadRunA())); }

TEST(GoldenTest, Html) { ExpectGolden("report.html", MakeHtmlReporter()->Render(LoadRunA())); }

TEST(GoldenTest, Summary) { ExpectGolden("summary.txt", RenderSummaryTable(LoadRunA())); }

TEST(GoldenTest, CompareWithItself) {
  std::ostringstream out, err;
  CompareOptions options;
  options.fail_on_regression_pct = 20;
  const std::string a = test::TestdataPath("run_a.json");
  EXPECT_EQ(app::RunCompareCommand(a, a, options, out, err), 0);
  // Paths differ per checkout: the golden file names the inputs as below.
  results::RunResults r = LoadRunA();
  ExpectGolden("compare_self.md",
               RenderComparison(CompareResults(r, r, options), r, r, "run_a.json", "run_a.json"));
}

TEST(GoldenTest, CompareWithLmdbHalved) {
  results::RunResults a = LoadRunA();
  results::RunResults b = a;
  for (results::PhaseRun& run : b.runs) {
    if (run.engine != "lmdb") continue;
    for (auto& rep : run.repetitions) {
      for (auto& op : rep.ops) op.ops_per_sec /= 2;
    }
  }
  CompareOptions options;
  options.fail_on_regression_pct = 20;
  ExpectGolden("compare_lmdb_halved.md",
               RenderComparison(CompareResults(a, b, options), a, b, "run_a.json", "run_b.json"));
}

TEST(GoldenTest, MergedMarkdownOfTwoRuns) {
  results::RunResults a = LoadRunA();
  results::RunResults b = a;
  b.environment.hostname = "bench-02";
  b.finished_at = "2026-11-23T10:00:00Z";
  ExpectGolden("merged.md", MakeMarkdownReporter()->Render(MergeResults({a, b})));
}

}  // namespace
}  // namespace kvbench::reports
