#include "results/statistics.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace kvbench::results
