#include "results/statistics.h"

#include <gtest/gtest.h>

#include <cmath>

namespace kvbench::results {
namespace {

TEST(BetweenGroupShareTest, GroupsFarApartHoldNearlyAllTheVariance) {
  // Two forks: 100 +- 1 and 200 +- 1.
  const std::optional<double> share =
      BetweenGroupShare({99, 101, 199, 201}, {0, 0, 1, 1});
  ASSERT_TRUE(share.has_value());
  // SS between = 4 x 50^2 = 10000; SS within = 4 x 1 = 4.
  EXPECT_NEAR(*share, 10000.0 / 10004.0, 1e-12);
}

TEST(BetweenGroupShareTest, GroupsWithTheSameMeanHoldNone) {
  const std::optional<double> share = BetweenGroupShare({1, 3, 2, 2, 0, 4}, {0, 0, 1, 1, 2, 2});
  ASSERT_TRUE(share.has_value());
  EXPECT_DOUBLE_EQ(*share, 0.0);
}

TEST(BetweenGroupShareTest, UnequalGroupsAreWeightedBySize) {
  // Grand mean 2; group 0 mean 1.5 (n=2), group 1 mean 3 (n=1).
  const std::optional<double> share = BetweenGroupShare({1, 2, 3}, {0, 0, 1});
  ASSERT_TRUE(share.has_value());
  // SS between = 2 x 0.25 + 1 x 1 = 1.5; SS total = 1 + 0 + 1 = 2.
  EXPECT_DOUBLE_EQ(*share, 0.75);
}

TEST(BetweenGroupShareTest, UndefinedWithoutTwoGroupsOrAnyPair) {
  EXPECT_FALSE(BetweenGroupShare({1, 2, 3}, {0, 0, 0}).has_value());  // one group
  EXPECT_FALSE(BetweenGroupShare({1, 2, 3}, {0, 1, 2}).has_value());  // one value a group
  EXPECT_FALSE(BetweenGroupShare({5, 5, 5, 5}, {0, 0, 1, 1}).has_value());  // no variance
  EXPECT_FALSE(BetweenGroupShare({1, 2}, {0}).has_value());  // sizes differ
}

// Mann-Kendall: exact p-values against counts worked by hand.
TEST(MannKendallTest, FiveRisingValuesAreTheOnlyOrderBelowFivePercent) {
  // s = 10 is reached by 1 of 120 orders, s = -10 by another: p = 2/120.
  const auto rising = MannKendall({1, 2, 3, 4, 5});
  ASSERT_TRUE(rising.has_value());
  EXPECT_EQ(rising->s, 10);
  EXPECT_NEAR(rising->p, 2.0 / 120, 1e-12);
  const auto falling = MannKendall({9, 7, 5, 3, 1});
  EXPECT_EQ(falling->s, -10);
  EXPECT_NEAR(falling->p, 2.0 / 120, 1e-12);
  // One swap: s = 8; orders with at most one inversion: 1 + 4 = 5 of 120.
  const auto almost = MannKendall({1, 3, 2, 4, 5});
  EXPECT_EQ(almost->s, 8);
  EXPECT_NEAR(almost->p, 10.0 / 120, 1e-12);
}

TEST(MannKendallTest, NoTrendAndTooFewValues) {
  // 2 5 1 4 3: concordant 5, discordant 5.
  const auto flat = MannKendall({2, 5, 1, 4, 3});
  EXPECT_EQ(flat->s, 0);
  EXPECT_NEAR(flat->p, 1.0, 1e-12);
  EXPECT_FALSE(MannKendall({1, 2}).has_value());
}

TEST(MannKendallTest, TiesUseTheCorrectedNormalApproximation) {
  const auto equal = MannKendall({3, 3, 3, 3});
  EXPECT_EQ(equal->s, 0);
  EXPECT_EQ(equal->p, 1);
  // 1 1 2 3 4 5 6 7: s = 27 of 28 pairs (one tied); var = (8*7*21 - 2*1*9) / 18
  // = 1158 / 18; z = (27 - 1) / sqrt(var) = 3.24.
  const auto tied = MannKendall({1, 1, 2, 3, 4, 5, 6, 7});
  EXPECT_EQ(tied->s, 27);
  EXPECT_NEAR(tied->p, 2 * (1 - 0.5 * std::erfc(-(26 / std::sqrt(1158.0 / 18)) / std::sqrt(2.0))),
              1e-9);
  EXPECT_LT(tied->p, 0.01);
}

}  // namespace
}  // namespace kvbench::results
