#include "results/time_series_json.h"

#include <gtest/gtest.h>

#include "results/results_json.h"

namespace kvbench::results {
namespace {

TimeSeries Series() {
  TimeSeries t;
  t.interval_s = 0.5;
  t.start_unix_s = 1700000000.5;
  OpTimeSeries all;
  all.op = "all";
  all.count = {10, 0, 3};
  all.ops_per_sec = {20, 0, 12};
  all.mean_ns = {1500.5, 0, 900};
  all.p50_ns = {1400, 0, 800};
  all.p99_ns = {3000, 0, 1000};
  all.max_ns = {3100, 0, 1001};
  all.buckets = {{{1407, 6}, {3103, 4}}, {}, {{799, 1}, {1001, 2}}};
  t.ops = {all};
  return t;
}

TEST(TimeSeriesJsonTest, RoundTripsWithNullWhereNothingRan) {
  const nlohmann::json j = TimeSeriesToJson(Series());
  EXPECT_TRUE(j["ops"][0]["p99_ns"][1].is_null());
  EXPECT_EQ(j["ops"][0]["count"][1], 0);
  TimeSeries back;
  ASSERT_TRUE(TimeSeriesFromJson(j, &back).ok());
  EXPECT_EQ(back.ops.at(0).p99_ns, Series().ops[0].p99_ns);
  EXPECT_EQ(back.ops.at(0).buckets, Series().ops[0].buckets);
  EXPECT_EQ(back.ops.at(0).mean_ns, Series().ops[0].mean_ns);
  EXPECT_DOUBLE_EQ(back.start_unix_s, 1700000000.5);
}

TEST(TimeSeriesJsonTest, AMalformedSeriesIsNamed) {
  nlohmann::json j = TimeSeriesToJson(Series());
  j["ops"][0]["p50_ns"] = {1, 2};
  TimeSeries back;
  EXPECT_EQ(TimeSeriesFromJson(j, &back).message(),
            "time_series field 'p50_ns': missing or not 3 values");
}

TEST(TimeSeriesJsonTest, RepetitionsWithoutOneStillLoad) {
  PhaseRun run;
  run.repetitions.emplace_back();
  run.repetitions[0].ops.emplace_back();
  run.repetitions[0].ops[0].op = "all";
  nlohmann::json j = PhaseRunToJson(run);
  ASSERT_FALSE(j["repetitions"][0].contains("time_series"));
  PhaseRun back;
  ASSERT_TRUE(PhaseRunFromJson(j, &back).ok());
  EXPECT_FALSE(back.repetitions.at(0).time_series.has_value());
  run.repetitions[0].time_series = Series();
  PhaseRun with;
  ASSERT_TRUE(PhaseRunFromJson(PhaseRunToJson(run), &with).ok());
  ASSERT_TRUE(with.repetitions.at(0).time_series.has_value());
  EXPECT_EQ(with.repetitions[0].time_series->intervals(), 3u);
}

}  // namespace
}  // namespace kvbench::results
