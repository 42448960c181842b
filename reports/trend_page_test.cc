#include "reports/trend_page.h"

#include <gtest/gtest.h>

#include "reports/history_text.h"
#include "tests/support/trend_test_support.h"

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

// MadeUpTrend's second host (flat) as if its first 12 runs were results
// schema 4: their throughput, over the time inside the engine's calls, 40%
// higher than the wall-span figures after them.
TrendPageInput TimeBaseTrend() {
  TrendPageInput in = test::MadeUpTrend();
  std::vector<results::FigurePoint> points = in.series[1].points;
  for (size_t i = 0; i < points.size(); ++i) {
    points[i].time_base = i < 12 ? results::kTimeBaseEngineCalls : results::kTimeBaseWallSpan;
    if (i < 12) {
      points[i].median *= 1.4;
      points[i].ci = results::Interval{points[i].median * 0.98, points[i].median * 1.02, 0.9375};
    }
  }
  in.series = results::BuildSeries(points, in.options);
  return in;
}

TEST(TrendPage, ATimeBaseChangeIsMarkedAndSaysWhyNotAChangePoint) {
  const TrendPageInput in = TimeBaseTrend();
  ASSERT_EQ(in.series.size(), 1u);
  ASSERT_TRUE(in.series[0].changes.empty());
  ASSERT_EQ(in.series[0].time_base_changes.size(), 1u);
  const std::string html = RenderTrendPage(in);
  EXPECT_NE(html.find("No significant change in any series."), std::string::npos);
  EXPECT_NE(html.find("1 time-base change (each says why"), std::string::npos);
  // One marker on the chart, labelled, and explained in the list and above.
  EXPECT_EQ(Count(html, "<g class=\"marker\">"), 1u);
  EXPECT_NE(html.find(">time base</text>"), std::string::npos);
  EXPECT_EQ(Count(html, "<li class=\"time-base\">"), 2u);
  EXPECT_EQ(Count(html,
                  "Time-base change between run 12 (2026-11-01T11:00:00Z, rev v0.1-11) and run 13 "
                  "(2026-11-01T12:00:00Z, rev v0.1-12): figures before this point divided by the "
                  "time inside the engine&#39;s calls (results schema 4); after it by the wall "
                  "span."),
            3u);  // the top list, the series' list, the marker's tooltip
  EXPECT_EQ(html.find("<li class=\"worse\">"), std::string::npos);
  EXPECT_EQ(html.find("Worse:"), std::string::npos);
  // Each side has its own level line.
  EXPECT_EQ(Count(html, "level of runs 1 to 12"), 1u);
  EXPECT_EQ(Count(html, "level of runs 13 to 30"), 1u);
}

TEST(HistoryText, CheckReportShowsATimeBaseChangeInItsWindowAndNoRegression) {
  const TrendPageInput in = TimeBaseTrend();
  const results::CheckOutcome o = results::CheckNewestRuns(in.series, 20, 5);
  EXPECT_TRUE(o.regressions.empty());
  EXPECT_TRUE(o.smaller.empty());
  const std::string text = RenderCheckReport(o, in.series, 20, 5);
  EXPECT_NE(text.find("time-base change in 1 throughput series (lmdb · get · all) between "
                      "2026-11-01T11:00:00Z, rev v0.1-11 and 2026-11-01T12:00:00Z, rev v0.1-12:\n"
                      "    figures before this point divided by the time inside the engine's "
                      "calls (results schema 4); after it by the wall span."),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("1 series checked over their newest 20 runs: 0 significant slowdowns"),
            std::string::npos)
      << text;
  // Older than the window: not shown.
  EXPECT_EQ(RenderTimeBaseChanges(in.series, 10), "");
  EXPECT_NE(RenderTimeBaseChanges(in.series, 0), "");
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
