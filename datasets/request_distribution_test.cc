// Request distributions: range, determinism per (seed, stream), and the
// frequencies YCSB's generators define.
#include "datasets/request_distribution.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "datasets/fnv.h"
#include "datasets/zipfian.h"

namespace kvbench::datasets {
namespace {

std::unique_ptr<RequestDistribution> MakeOrDie(const std::string& kind, uint64_t item_count,
                                               ParamMap params = {}, uint64_t seed = 1,
                                               uint32_t stream = 0, uint32_t streams = 1) {
  std::unique_ptr<RequestDistribution> d;
  const Status s =
      NewRequestDistribution({kind, std::move(params)}, item_count, seed, stream, streams, &d);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return d;
}

TEST(RequestDistributionTest, ErrorsNameTheKindAndOption) {
  std::unique_ptr<RequestDistribution> d;
  Status s = NewRequestDistribution({"zipfain", {}}, 10, 1, 0, 1, &d);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("unknown request distribution 'zipfain'"), std::string::npos);
  s = NewRequestDistribution({"hotspot", {{"hotsetfraction", "1.5"}}}, 10, 1, 0, 1, &d);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("hotsetfraction"), std::string::npos) << s.message();
  s = NewRequestDistribution({"uniform", {{"constant", "0.9"}}}, 10, 1, 0, 1, &d);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("unknown option 'constant'"), std::string::npos) << s.message();
  EXPECT_TRUE(NewRequestDistribution({"uniform", {}}, 0, 1, 0, 1, &d).IsInvalidArgument());
  EXPECT_TRUE(NewRequestDistribution({"uniform", {}}, 10, 1, 2, 2, &d).IsInvalidArgument());
}

TEST(RequestDistributionTest, EveryKindStaysBelowPresentAndIsDeterministic) {
  for (const DistributionKind& kind : DistributionKinds()) {
    SCOPED_TRACE(kind.name);
    auto a = MakeOrDie(kind.name, 1000, {}, 9, 1, 4);
    auto b = MakeOrDie(kind.name, 1000, {}, 9, 1, 4);
    auto other_stream = MakeOrDie(kind.name, 1000, {}, 9, 2, 4);
    int same_as_other = 0;
    for (uint64_t present :
         {uint64_t{1}, uint64_t{2}, uint64_t{37}, uint64_t{1000}, uint64_t{5000}}) {
      for (int i = 0; i < 2000; ++i) {
        const uint64_t x = a->Next(present);
        ASSERT_LT(x, present);
        ASSERT_EQ(x, b->Next(present));
        same_as_other += x == other_stream->Next(present);
      }
    }
    EXPECT_LT(same_as_other, 9000) << "streams must differ";
  }
}

TEST(RequestDistributionTest, UniformCoversThePresentKeys) {
  auto d = MakeOrDie("uniform", 1000);
  std::vector<int> counts(1000);
  for (int i = 0; i < 1000000; ++i) ++counts[d->Next(1000)];
  for (int c : counts) ASSERT_NEAR(c, 1000, 160);
  double sum = 0;
  for (int i = 0; i < 100000; ++i) sum += static_cast<double>(d->Next(100));
  EXPECT_NEAR(sum / 100000, 49.5, 0.5);
}

TEST(RequestDistributionTest, ZipfianHotKeyHasYcsbFrequency) {
  constexpr uint64_t kItems = 100000;
  auto d = MakeOrDie("zipfian", kItems);
  const uint64_t hottest = static_cast<uint64_t>(YcsbFnvHash64(0)) % kItems;
  int hits = 0;
  constexpr int kDraws = 1000000;
  for (int i = 0; i < kDraws; ++i) hits += d->Next(kItems) == hottest;
  EXPECT_NEAR(hits / double{kDraws}, 1 / kScrambledZipfianZetan, 0.002);
}

TEST(RequestDistributionTest, LatestFavoursTheNewestKeyAndFollowsInserts) {
  constexpr uint64_t kItems = 10000;
  auto d = MakeOrDie("latest", kItems);
  constexpr int kDraws = 1000000;
  std::vector<int> counts(kItems);
  for (int i = 0; i < kDraws; ++i) ++counts[d->Next(kItems)];
  // YCSB: zipfian over recordcount - 1 items, offset back from the last key.
  const double zetan = Zeta(kItems - 1, 0.99);
  EXPECT_NEAR(counts[kItems - 1] / double{kDraws}, 1 / zetan, 0.002);
  EXPECT_NEAR(counts[kItems - 2] / double{kDraws}, std::pow(0.5, 0.99) / zetan, 0.002);
  EXPECT_EQ(counts[0], 0);  // YCSB never returns index 0 here
  // After inserts the newest key is the hottest, with zeta extended.
  int newest = 0;
  for (int i = 0; i < kDraws; ++i) newest += d->Next(2 * kItems) == 2 * kItems - 1;
  EXPECT_NEAR(newest / double{kDraws}, 1 / Zeta(2 * kItems - 1, 0.99), 0.002);
}

TEST(RequestDistributionTest, HotspotSendsHotOpnFractionToTheHotSet) {
  constexpr uint64_t kItems = 10000;
  auto d = MakeOrDie("hotspot", kItems);  // YCSB defaults 0.2 / 0.8
  constexpr int kDraws = 1000000;
  int hot = 0;
  std::vector<int> hot_buckets(10);
  for (int i = 0; i < kDraws; ++i) {
    const uint64_t x = d->Next(kItems);
    if (x < 2000) {
      ++hot;
      ++hot_buckets[x / 200];
    }
  }
  EXPECT_NEAR(hot / double{kDraws}, 0.8, 0.003);
  for (int b : hot_buckets) EXPECT_NEAR(b, 80000, 1500);  // uniform inside the hot set
  // With only half the keys present, cold draws beyond them are redrawn.
  auto half = MakeOrDie("hotspot", kItems, {{"hotsetfraction", "0.1"}, {"hotopnfraction", "0.5"}});
  hot = 0;
  for (int i = 0; i < kDraws; ++i) hot += half->Next(kItems / 2) < 1000;
  const double cold_accepted = 0.5 * 4000.0 / 9000.0;
  EXPECT_NEAR(hot / double{kDraws}, 0.5 / (0.5 + cold_accepted), 0.003);
}

TEST(RequestDistributionTest, SequentialStreamsInterleaveAndWrap) {
  auto single = MakeOrDie("sequential", 10);
  for (int round = 0; round < 2; ++round) {
    for (uint64_t i = 0; i < 10; ++i) ASSERT_EQ(single->Next(10), i);
  }
  std::vector<int> seen(10);
  for (uint32_t s = 0; s < 3; ++s) {
    auto d = MakeOrDie("sequential", 10, {}, 1, s, 3);
    for (int i = 0; i < 4; ++i) {
      const uint64_t x = d->Next(10);
      if (i < 3 || s == 0) ++seen[x];
    }
  }
  for (int c : seen) EXPECT_EQ(c, 1);
}

TEST(RequestDistributionTest, ExponentialFavoursRecentKeys) {
  constexpr uint64_t kItems = 100000;
  auto d = MakeOrDie("exponential", kItems);
  constexpr int kDraws = 1000000;
  const double frac = 0.8571428571;
  const uint64_t recent_start = kItems - static_cast<uint64_t>(frac * kItems);
  int recent = 0;
  for (int i = 0; i < kDraws; ++i) recent += d->Next(kItems) >= recent_start;
  // 95% of draws fall within frac x items; draws beyond the key space are redrawn.
  const double accepted = 1 - std::pow(0.05, 1 / frac);
  EXPECT_NEAR(recent / double{kDraws}, 0.95 / accepted, 0.002);
}

}  // namespace
}  // namespace kvbench::datasets
