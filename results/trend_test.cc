#include "results/trend.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace kvbench::results {
namespace {

// `values` as one series' points: runs r0, r1... started a minute apart.
std::vector<FigurePoint> Points(const std::vector<double>& values, const std::string& host = "h1",
                                const std::string& figure = "ops_per_sec", int first_run = 0) {
  std::vector<FigurePoint> out;
  for (size_t i = 0; i < values.size(); ++i) {
    FigurePoint p;
    p.workload_name = "w";
    p.workload_hash = "wh";
    p.host_fingerprint = host;
    p.hostname = host + "-name";
    p.engine = "lmdb";
    p.phase = "get";
    p.phase_op = "get";
    p.op = "all";
    p.figure = figure;
    char stamp[32];
    std::snprintf(stamp, sizeof stamp, "2026-01-01T%02d:%02d:00Z", (first_run + int(i)) / 60,
                  (first_run + int(i)) % 60);
    p.started_at = stamp;
    p.run_id = "r" + std::to_string(first_run + i);
    p.median = values[i];
    p.n = 5;
    out.push_back(p);
  }
  return out;
}

std::vector<double> Steps(std::initializer_list<std::pair<int, double>> runs) {
  std::vector<double> v;
  for (const auto& [count, level] : runs) {
    for (int i = 0; i < count; ++i) v.push_back(level * (1 + 0.01 * ((i * 7) % 5 - 2)));
  }
  return v;
}

TEST(Trend, ASeriesThatMixesHostsIsSplitAndSaysWhy) {
  std::vector<FigurePoint> points = Points(Steps({{10, 1000}}), "h1");
  for (FigurePoint& p : Points(Steps({{10, 500}}), "h2", "ops_per_sec", 10)) points.push_back(p);
  const std::vector<Series> series = BuildSeries(points, {});
  ASSERT_EQ(series.size(), 2u);
  EXPECT_EQ(series[0].key.host_fingerprint, "h1");
  EXPECT_EQ(series[1].key.host_fingerprint, "h2");
  EXPECT_EQ(series[0].points.size(), 10u);
  // Drawn together, the host change would be a 50% "regression"; apart, none.
  EXPECT_TRUE(series[0].changes.empty());
  EXPECT_TRUE(series[1].changes.empty());
  EXPECT_NE(series[0].split_note.find("2 different hosts"), std::string::npos)
      << series[0].split_note;
  EXPECT_NE(series[1].split_note.find("h2-name"), std::string::npos);
}

TEST(Trend, OneHostOneSeriesNoNote) {
  const std::vector<Series> series = BuildSeries(Points(Steps({{15, 1000}, {15, 800}})), {});
  ASSERT_EQ(series.size(), 1u);
  EXPECT_EQ(series[0].split_note, "");
  ASSERT_EQ(series[0].changes.size(), 1u);
  const SeriesChange& c = series[0].changes[0];
  EXPECT_EQ(c.point.index, 15u);
  EXPECT_NEAR(c.ratio, 0.8, 0.01);
  EXPECT_TRUE(c.worse);
}

TEST(Trend, LatencyUpIsWorseThroughputUpIsNot) {
  EXPECT_NEAR(SlowdownPercent("p99_ns", 100, 120), 20, 1e-9);
  EXPECT_NEAR(SlowdownPercent("ops_per_sec", 100, 120), -20, 1e-9);
  EXPECT_NEAR(SlowdownPercent("ops_per_sec", 100, 85), 15, 1e-9);
}

TEST(Trend, CheckFlagsASlowdownInTheNewestRunsAboveTheThreshold) {
  const std::vector<Series> series = BuildSeries(Points(Steps({{20, 1000}, {6, 850}})), {});
  ASSERT_EQ(series[0].changes.size(), 1u);
  CheckOutcome fail = CheckNewestRuns(series, 10, 10);
  ASSERT_EQ(fail.regressions.size(), 1u);
  EXPECT_NEAR(fail.regressions[0].slowdown_pct, 15, 1);
  // Under a larger threshold it is reported but does not fail.
  CheckOutcome pass = CheckNewestRuns(series, 10, 20);
  EXPECT_TRUE(pass.regressions.empty());
  EXPECT_EQ(pass.smaller.size(), 1u);
  // Outside the window of newest runs it is history, not news.
  EXPECT_TRUE(CheckNewestRuns(series, 5, 10).regressions.empty());
}

TEST(Trend, CheckIgnoresImprovementsAndUndoneSlowdowns) {
  const std::vector<Series> better = BuildSeries(Points(Steps({{20, 1000}, {8, 1200}})), {});
  ASSERT_EQ(better[0].changes.size(), 1u);
  EXPECT_TRUE(CheckNewestRuns(better, 10, 5).regressions.empty());
  const std::vector<Series> undone =
      BuildSeries(Points(Steps({{20, 1000}, {8, 700}, {8, 1000}})), {});
  ASSERT_EQ(undone[0].changes.size(), 2u);
  EXPECT_TRUE(CheckNewestRuns(undone, 16, 5).regressions.empty());
  // Two slowdowns in the window add up.
  const std::vector<Series> twice =
      BuildSeries(Points(Steps({{20, 1000}, {8, 920}, {8, 850}})), {});
  ASSERT_EQ(twice[0].changes.size(), 2u);
  const CheckOutcome o = CheckNewestRuns(twice, 16, 10);
  ASSERT_EQ(o.regressions.size(), 1u);
  EXPECT_NEAR(o.regressions[0].slowdown_pct, 15, 1);
}

TEST(Trend, LatencySeriesRegressesWhenItRises) {
  const std::vector<Series> series =
      BuildSeries(Points(Steps({{20, 1000}, {6, 1300}}), "h1", "p99_ns"), {});
  const CheckOutcome o = CheckNewestRuns(series, 10, 10);
  ASSERT_EQ(o.regressions.size(), 1u);
  EXPECT_NEAR(o.regressions[0].slowdown_pct, 30, 2);
}

}  // namespace
}  // namespace kvbench::results
