#include "runner/latency_histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace kvbench::runner {
namespace {

TEST(LatencyHistogramTest, EveryValueFallsInABucketWithinOnePercent) {
  for (uint64_t v : {0ull, 1ull, 255ull, 256ull, 257ull, 1000ull, 123456ull, 999999999ull,
                     (1ull << 40) + 12345, ~0ull >> 1}) {
    const size_t b = LatencyHistogram::BucketOf(v);
    ASSERT_LT(b, LatencyHistogram::kBucketCount);
    const uint64_t upper = LatencyHistogram::BucketUpperBound(b);
    EXPECT_GE(upper, v);
    EXPECT_LE(static_cast<double>(upper - v), 0.01 * static_cast<double>(v)) << v;
  }
}

TEST(LatencyHistogramTest, QuantilesMatchSortedValuesWithinOnePercent) {
  std::mt19937_64 rng(3);
  std::lognormal_distribution<double> dist(8.0, 1.5);  // ~3 us median, long tail
  std::vector<uint64_t> values;
  LatencyHistogram h;
  for (int i = 0; i < 200000; ++i) {
    const uint64_t v = static_cast<uint64_t>(dist(rng));
    values.push_back(v);
    h.Record(v);
  }
  std::sort(values.begin(), values.end());
  for (double q : {0.5, 0.9, 0.99, 0.999}) {
    const uint64_t exact = values[static_cast<size_t>(std::ceil(q * values.size())) - 1];
    const uint64_t got = h.ValueAtQuantile(q);
    EXPECT_NEAR(static_cast<double>(got), static_cast<double>(exact), 0.01 * exact + 1) << q;
  }
  EXPECT_EQ(h.max(), values.back());
  EXPECT_EQ(h.min(), values.front());
  EXPECT_EQ(h.count(), values.size());
}

TEST(LatencyHistogramTest, MergeEqualsRecordingEverythingInOne) {
  LatencyHistogram a, b, all;
  for (uint64_t v = 1; v < 100000; v += 7) {
    (v % 2 ? a : b).Record(v);
    all.Record(v);
  }
  a.Merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.ValueAtQuantile(0.99), all.ValueAtQuantile(0.99));
  EXPECT_EQ(a.Summarize().buckets, all.Summarize().buckets);
  EXPECT_DOUBLE_EQ(a.mean(), all.mean());
}

TEST(LatencyHistogramTest, EmptyHistogramReportsZeros) {
  LatencyHistogram h;
  EXPECT_EQ(h.ValueAtQuantile(0.99), 0u);
  EXPECT_EQ(h.min(), 0u);
  EXPECT_TRUE(h.Summarize().buckets.empty());
}

}  // namespace
}  // namespace kvbench::runner
