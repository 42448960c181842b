#include "reports/trend_page.h"

#include <gtest/gtest.h>

#include "reports/history_text.h"
#include "reports/trend_test_support.h"

namespace kvbench::reports {
namespace {

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(TrendPage, OneChartPerSeriesWithItsChangeMarkedAndListed) {
  const TrendPageInput in = test::MadeUpTrend();
  ASSERT_EQ(in.series.size(), 2u);
  ASSERT_EQ(in.series[0].changes.size(), 1u);
  ASSERT_TRUE(in.series[1].changes.empty());
  const std::string html = RenderTrendPage(in);
  EXPECT_EQ(Count(html, "<figure class=\"chart chart-trend\""), 2u);
  EXPECT_EQ(Count(html, "<g class=\"marker\">"), 1u);
  // Every point carries its interval.
  EXPECT_EQ(Count(html, "<line class=\"ci\""), 60u);
  // The change is listed with the revisions on both sides, ratio and p-value.
  EXPECT_NE(html.find("v0.1-19"), std::string::npos);
  EXPECT_NE(html.find("v0.1-20"), std::string::npos);
  EXPECT_NE(html.find("worse -12.0%"), std::string::npos);
  EXPECT_NE(html.find("0.880×"), std::string::npos);  // the ratio
  EXPECT_NE(html.find("p = 0.005"), std::string::npos);
  EXPECT_NE(html.find("lmdb LMDB 0.9.24 -&gt; LMDB 0.9.31"), std::string::npos);
  // The split says why.
  EXPECT_EQ(
      Count(html, "<p class=\"warning\">Split: this figure was measured on 2 different hosts"), 2u);
  // Self-contained and escaped.
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));
  EXPECT_EQ(html.find("bench-<01>"), std::string::npos);
  EXPECT_NE(html.find("bench-&lt;01&gt;"), std::string::npos);
}

TEST(TrendPage, SaysWhenThereIsNothing) {
  TrendPageInput in;
  in.store = "sqlite:/x.db";
  const std::string html = RenderTrendPage(in);
  EXPECT_NE(html.find("No significant change in any series."), std::string::npos);
  EXPECT_NE(html.find("The store holds no figures that match."), std::string::npos);
}

TEST(HistoryText, CheckReportNamesTheRegressionAndWhatChanged) {
  const TrendPageInput in = test::MadeUpTrend();
  const results::CheckOutcome o = results::CheckNewestRuns(in.series, 10, 5);
  ASSERT_EQ(o.regressions.size(), 1u);
  const std::string text = RenderCheckReport(o, in.series, 10, 5);
  EXPECT_NE(text.find("REGRESSION: lmdb · get · all · throughput 12.0% worse"), std::string::npos) << text;
  EXPECT_NE(text.find("rev v0.1-19"), std::string::npos) << text;
  EXPECT_NE(text.find("also changed: lmdb LMDB 0.9.24 -> LMDB 0.9.31"), std::string::npos);
  EXPECT_NE(text.find("2 series checked over their newest 10 runs: 1 significant slowdown larger "
                      "than 5%"),
            std::string::npos)
      << text;
}

TEST(HistoryText, RunListHasAHeaderAndOneLineARun) {
  results::StoredRunInfo r;
  r.run_id = "0123456789abcdef0123456789abcdef";
  r.started_at = "2026-11-01T10:00:00Z";
  r.workload_name = "quickstart";
  r.hostname = "bench-01";
  r.kvbench_revision = "v0.1";
  r.engines = {"lmdb", "sqlite"};
  r.figures = 280;
  const std::string text = RenderRunList({r, r});
  EXPECT_NE(text.find("0123456789ab  2026-11-01T10:00:00Z  quickstart"), std::string::npos) << text;
  EXPECT_NE(text.find("lmdb,sqlite"), std::string::npos);
  EXPECT_NE(text.find("2 runs"), std::string::npos);
  EXPECT_EQ(RenderRunList({}), "No runs in the store match.\n");
}

}  // namespace
}  // namespace kvbench::reports
