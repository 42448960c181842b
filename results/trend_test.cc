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

// `points` with the time base of each: the first `first` points `before`,
// the rest `after`.
std::vector<FigurePoint> WithTimeBases(std::vector<FigurePoint> points, size_t first,
                                       const std::string& before, const std::string& after) {
  for (size_t i = 0; i < points.size(); ++i) points[i].time_base = i < first ? before : after;
  return points;
}

TEST(Trend, ATimeBaseChangeIsAMarkerNeverAChangePoint) {
  // Schema-4 throughput (over the time inside the engine's calls) is higher
  // than the same engine's wall-span figure: one series would show a 40% step.
  const std::vector<double> values = Steps({{12, 1000}, {12, 600}});
  ASSERT_EQ(BuildSeries(Points(values), {})[0].changes.size(), 1u);  // the step is plain

  const std::vector<Series> series =
      BuildSeries(WithTimeBases(Points(values), 12, kTimeBaseEngineCalls, kTimeBaseWallSpan), {});
  ASSERT_EQ(series.size(), 1u);  // still one series, in two segments
  EXPECT_EQ(series[0].points.size(), 24u);
  EXPECT_TRUE(series[0].changes.empty());
  ASSERT_EQ(series[0].time_base_changes.size(), 1u);
  const TimeBaseChange& t = series[0].time_base_changes[0];
  EXPECT_EQ(t.index, 12u);
  EXPECT_EQ(t.before, kTimeBaseEngineCalls);
  EXPECT_EQ(t.after, kTimeBaseWallSpan);
  // The check never holds one base's level against the other's.
  EXPECT_TRUE(CheckNewestRuns(series, 10, 5).regressions.empty());
  EXPECT_TRUE(CheckNewestRuns(series, 24, 5).smaller.empty());
  // "unknown" (stored before the store kept time bases) is a base of its own.
  const std::vector<Series> unknown =
      BuildSeries(WithTimeBases(Points(values), 12, kTimeBaseUnknown, kTimeBaseWallSpan), {});
  EXPECT_TRUE(unknown[0].changes.empty());
  ASSERT_EQ(unknown[0].time_base_changes.size(), 1u);
  EXPECT_EQ(unknown[0].time_base_changes[0].before, kTimeBaseUnknown);
}

TEST(Trend, AStepWithinOneTimeBaseIsStillFound) {
  // 8 schema-4 runs, then 10 wall-span runs at 700 and 10 at 560: the 20%
  // step inside the second segment is a change; the base change is not.
  const std::vector<Series> series =
      BuildSeries(WithTimeBases(Points(Steps({{8, 1000}, {10, 700}, {10, 560}})), 8,
                                kTimeBaseEngineCalls, kTimeBaseWallSpan),
                  {});
  ASSERT_EQ(series.size(), 1u);
  ASSERT_EQ(series[0].time_base_changes.size(), 1u);
  EXPECT_EQ(series[0].time_base_changes[0].index, 8u);
  ASSERT_EQ(series[0].changes.size(), 1u);
  const SeriesChange& c = series[0].changes[0];
  EXPECT_EQ(c.point.index, 18u);
  // Its level before is the segment's, not the older base's.
  EXPECT_NEAR(c.before_mean, 700, 10);
  EXPECT_NEAR(c.ratio, 0.8, 0.01);
  EXPECT_TRUE(c.worse);
  const CheckOutcome o = CheckNewestRuns(series, 10, 10);
  ASSERT_EQ(o.regressions.size(), 1u);
  EXPECT_NEAR(o.regressions[0].slowdown_pct, 20, 1);
  // Figures without a time base ("") are one segment as before.
  const std::vector<Series> latency =
      BuildSeries(Points(Steps({{15, 1000}, {15, 1300}}), "h1", "p99_ns"), {});
  EXPECT_TRUE(latency[0].time_base_changes.empty());
  EXPECT_EQ(latency[0].changes.size(), 1u);
}

}  // namespace
}  // namespace kvbench::results
