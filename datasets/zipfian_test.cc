// ZipfianGenerator and ScrambledZipfianGenerator against YCSB's definitions.
#include "datasets/zipfian.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "datasets/fnv.h"

namespace kvbench::datasets {
namespace {

// P(item < k) for YCSB's algorithm over n items with draw u uniform in [0, 1):
// item 0 when u < 1/zetan, item 1 when u < (1 + 0.5^theta)/zetan, otherwise
// floor(n (eta u - eta + 1)^alpha), which is below k iff u < g(k).
double ExactCdf(uint64_t n, double theta, uint64_t k) {
  const double zetan = ZetaSum(0, n, theta, 0.0);
  const double zeta2 = 1 + std::pow(0.5, theta);
  const double eta = (1 - std::pow(2.0 / n, 1 - theta)) / (1 - zeta2 / zetan);
  const double u0 = 1 / zetan;
  const double u1 = zeta2 / zetan;
  const double g = 1 - (1 - std::pow(static_cast<double>(k) / n, 1 - theta)) / eta;
  return (k >= 1 ? u0 : 0) + (k >= 2 ? u1 - u0 : 0) + std::max(0.0, g - u1);
}

TEST(ZipfianTest, ZetaMatchesYcsbPrecomputedConstant) {
  EXPECT_DOUBLE_EQ(Zeta(1000, 0.99), ZetaSum(0, 1000, 0.99, 0.0));
  // YCSB's ZETAN was summed over 1e10 items; ours uses Euler-Maclaurin there.
  EXPECT_NEAR(Zeta(kScrambledZipfianItemCount + 1, 0.99), kScrambledZipfianZetan, 1e-6);
  EXPECT_NEAR(Zeta(2, 0.99), 1 + std::pow(0.5, 0.99), 1e-15);
}

TEST(ZipfianTest, FrequenciesFollowTheDefinition) {
  constexpr uint64_t kItems = 1000;
  constexpr int kDraws = 2000000;
  ZipfianGenerator gen(0, kItems - 1);
  Rng rng(42);
  std::vector<uint64_t> counts(kItems);
  for (int i = 0; i < kDraws; ++i) {
    const uint64_t item = gen.Next(&rng);
    ASSERT_LT(item, kItems);
    ++counts[item];
  }
  const double zetan = Zeta(kItems, 0.99);
  // The two head items are exact Zipf.
  EXPECT_NEAR(counts[0] / double{kDraws}, 1 / zetan, 0.002);
  EXPECT_NEAR(counts[1] / double{kDraws}, std::pow(0.5, 0.99) / zetan, 0.002);
  // The rest follows Gray's approximation exactly as YCSB computes it.
  uint64_t below = 0;
  uint64_t k = 0;
  for (uint64_t limit : {2, 3, 5, 10, 50, 100, 500, 999}) {
    for (; k < limit; ++k) below += counts[k];
    EXPECT_NEAR(below / double{kDraws}, ExactCdf(kItems, 0.99, limit), 0.002) << limit;
    // ... which stays close to the true Zipf law.
    EXPECT_NEAR(below / double{kDraws}, Zeta(limit, 0.99) / zetan, 0.03) << limit;
  }
}

TEST(ZipfianTest, GrowingItemCountExtendsZetaIncrementally) {
  ZipfianGenerator gen(0, 999);
  EXPECT_DOUBLE_EQ(gen.zetan(), Zeta(1000, 0.99));
  gen.NextLong(5000, 0.5);
  EXPECT_NEAR(gen.zetan(), ZetaSum(0, 5000, 0.99, 0.0), 1e-9);
  // A smaller count keeps zetan (YCSB's allowitemcountdecrease = false).
  const double before = gen.zetan();
  const uint64_t item = gen.NextLong(10, 0.999);
  EXPECT_EQ(gen.zetan(), before);
  EXPECT_LT(item, 10u);
}

TEST(ZipfianTest, ScrambledSpreadsTheHotItemsByFnvHash) {
  constexpr uint64_t kItems = 100000;
  constexpr int kDraws = 1000000;
  ScrambledZipfianGenerator gen(0, kItems - 1);
  Rng rng(7);
  std::vector<uint32_t> counts(kItems);
  for (int i = 0; i < kDraws; ++i) {
    const uint64_t item = gen.Next(&rng);
    ASSERT_LT(item, kItems);
    ++counts[item];
  }
  // Rank 0 of 1e10 items lands on fnvhash64(0) % n with probability 1/ZETAN.
  const uint64_t hottest = static_cast<uint64_t>(YcsbFnvHash64(0)) % kItems;
  const uint64_t second = static_cast<uint64_t>(YcsbFnvHash64(1)) % kItems;
  EXPECT_NEAR(counts[hottest] / double{kDraws}, 1 / kScrambledZipfianZetan, 0.002);
  EXPECT_NEAR(counts[second] / double{kDraws}, std::pow(0.5, 0.99) / kScrambledZipfianZetan,
              0.0015);
  // Scrambled: the hot items are not the low indexes.
  EXPECT_LT(counts[0] + counts[1], 2000u);
}

}  // namespace
}  // namespace kvbench::datasets
