#include "datasets/index_permutation.h"

#include <gtest/gtest.h>

#include <vector>

namespace kvbench::datasets {
namespace {

TEST(IndexPermutationTest, IsABijectionForAnySize) {
  for (uint64_t n : {uint64_t{1}, uint64_t{2}, uint64_t{3}, uint64_t{1000}, uint64_t{65537}}) {
    IndexPermutation p(n, 5);
    std::vector<bool> hit(n);
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t x = p(i);
      ASSERT_LT(x, n);
      ASSERT_FALSE(hit[x]) << "n=" << n << " collision at " << i;
      hit[x] = true;
    }
  }
}

TEST(IndexPermutationTest, ShufflesDeterministicallyPerSeed) {
  IndexPermutation a(100000, 1), b(100000, 1), c(100000, 2);
  int fixed_points = 0, same_as_other_seed = 0, ascending = 0;
  for (uint64_t i = 0; i < 100000; ++i) {
    ASSERT_EQ(a(i), b(i));
    fixed_points += a(i) == i;
    same_as_other_seed += a(i) == c(i);
    if (i > 0) ascending += a(i) > a(i - 1);
  }
  EXPECT_LT(fixed_points, 20);
  EXPECT_LT(same_as_other_seed, 20);
  EXPECT_NEAR(ascending, 50000, 1500);  // no visible order left
}

TEST(IndexPermutationTest, HandlesSixtyFourBitDomains) {
  IndexPermutation p(UINT64_MAX, 3);
  EXPECT_NE(p(0), p(1));
  EXPECT_LT(p(12345), UINT64_MAX);
}

}  // namespace
}  // namespace kvbench::datasets
