#include "results/change_points.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/support/change_point_acceptance.h"

namespace kvbench::results {
namespace {

TEST(ChangePoints, FastDivergenceMatchesTheDefinition) {
  SyntheticSeriesSpec spec;
  spec.length = 37;
  size_t step = 0;
  std::vector<double> z = MakeSyntheticSeries(spec, true, 3, &step);
  z[5] = z[6] = z[20];  // ties too
  const std::vector<double> naive = DivergenceBySplitNaive(z), fast = DivergenceBySplit(z);
  ASSERT_EQ(naive.size(), fast.size());
  for (size_t t = 0; t < naive.size(); ++t) {
    EXPECT_NEAR(naive[t], fast[t], 1e-9 * std::max(1.0, std::fabs(naive[t]))) << "split " << t;
  }
}

TEST(ChangePoints, ConstantAndShortSeriesHaveNone) {
  EXPECT_TRUE(FindChangePoints(std::vector<double>(40, 5.0)).empty());
  EXPECT_TRUE(FindChangePoints({1, 1, 1, 9, 9}).empty());  // shorter than 2 x min_segment
  EXPECT_TRUE(FindChangePoints({}).empty());
}

TEST(ChangePoints, OneStepIsFoundWhereItIs) {
  std::vector<double> z;
  for (int i = 0; i < 30; ++i) z.push_back(100 + (i % 3));
  for (int i = 0; i < 20; ++i) z.push_back(80 + (i % 3));
  const std::vector<ChangePoint> cps = FindChangePoints(z);
  ASSERT_EQ(cps.size(), 1u);
  EXPECT_EQ(cps[0].index, 30u);
  EXPECT_LE(cps[0].p_value, 0.01);
  EXPECT_GT(cps[0].statistic, 0);
}

TEST(ChangePoints, TwoStepsAndAStepNearTheEnd) {
  std::vector<double> z;
  for (int i = 0; i < 25; ++i) z.push_back(100 + (i % 4));
  for (int i = 0; i < 25; ++i) z.push_back(130 + (i % 4));
  for (int i = 0; i < 4; ++i) z.push_back(90 + (i % 4));
  const std::vector<ChangePoint> cps = FindChangePoints(z);
  ASSERT_EQ(cps.size(), 2u);
  EXPECT_EQ(cps[0].index, 25u);
  EXPECT_EQ(cps[1].index, 50u);
}

TEST(ChangePoints, TheSameSeriesGivesTheSameAnswer) {
  SyntheticSeriesSpec spec;
  spec.step = 0.04;  // near the edge of what is detectable: p-values vary with the shuffles
  size_t step = 0;
  const std::vector<double> z = MakeSyntheticSeries(spec, true, 11, &step);
  const std::vector<ChangePoint> a = FindChangePoints(z), b = FindChangePoints(z);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].index, b[i].index);
    EXPECT_EQ(a[i].p_value, b[i].p_value);
  }
}

TEST(ChangePoints, OptionsThatCannotWorkAreRefused) {
  ChangePointOptions o;
  EXPECT_EQ(CheckChangePointOptions(o), "");
  o.permutations = 50;  // smallest p = 1/51 > 0.01
  EXPECT_NE(CheckChangePointOptions(o), "");
  o = {};
  o.max_p_value = 0;
  EXPECT_NE(CheckChangePointOptions(o), "");
  o = {};
  o.min_segment = 1;
  EXPECT_NE(CheckChangePointOptions(o), "");
}

// Issue 19's acceptance on a moderate count (bench/change_point_rates.sh
// measures 1,000): a 10% step in 3% noise is found within 2 points in at
// least 95% of series, and flat series show a change in at most 5%.
TEST(ChangePoints, SyntheticAcceptance) {
  const AcceptanceRates r = MeasureAcceptance(200, SyntheticSeriesSpec{}, 2, ChangePointOptions{});
  EXPECT_GE(r.found_rate(), 0.95) << r.steps_found << " of " << r.series;
  EXPECT_LE(r.false_rate(), 0.05) << r.flat_with_change << " of " << r.series;
}

}  // namespace
}  // namespace kvbench::results
