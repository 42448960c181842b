#include "datasets/key_stats.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "datasets/random.h"

namespace kvbench::datasets {
namespace {

TEST(KeyStatsTest, FrontCodingCountsUnsharedBytesPlusOverheadOverDistinctKeys) {
  // Sorted: "abc", "abd" (shares 2), "b" (shares 0); "abd" once more is a
  // duplicate and costs nothing.
  std::vector<std::string_view> keys = {"b", "abd", "abc", "abd"};
  const KeySetStats s = ComputeKeySetStats(&keys);
  EXPECT_EQ(s.count, 4u);
  EXPECT_EQ(s.distinct, 3u);
  EXPECT_EQ(s.min_length, 1u);
  EXPECT_EQ(s.max_length, 3u);
  EXPECT_DOUBLE_EQ(s.average_length, 10.0 / 4);
  EXPECT_EQ(s.distinct_bytes, 7u);
  EXPECT_EQ(s.front_coded_bytes, (3 + 2) + (1 + 2) + (1 + 2));
  EXPECT_DOUBLE_EQ(s.front_coded_ratio, 11.0 / 7);
}

TEST(KeyStatsTest, OrderIsUnsignedBytes) {
  // 0xff must sort after 'a' (unsigned), not before (signed char).
  const std::string high =
      "\xff"
      "a";
  std::vector<std::string_view> keys = {high, "ab", "aa"};
  const KeySetStats s = ComputeKeySetStats(&keys);
  EXPECT_EQ(keys.back(), high);
  EXPECT_EQ(s.front_coded_bytes, (2 + 2) + (1 + 2) + (2 + 2));
}

TEST(KeyStatsTest, RandomKeysDoNotShrinkAndSharedPrefixesDo) {
  std::vector<std::string> storage;
  HashStream stream(7);
  for (int i = 0; i < 10000; ++i) {
    std::string k(32, '\0');
    for (char& c : k) c = static_cast<char>(stream.Next());
    storage.push_back(k);
  }
  std::vector<std::string_view> keys(storage.begin(), storage.end());
  EXPECT_GT(ComputeKeySetStats(&keys).front_coded_ratio, 0.99);

  storage.clear();
  for (int i = 0; i < 10000; ++i) {
    storage.push_back("https://www.example.com/a/long/shared/directory/" + std::to_string(i));
  }
  keys.assign(storage.begin(), storage.end());
  EXPECT_LT(ComputeKeySetStats(&keys).front_coded_ratio, 0.15);
}

TEST(KeyStatsTest, EmptySetIsAllZero) {
  std::vector<std::string_view> keys;
  const KeySetStats s = ComputeKeySetStats(&keys);
  EXPECT_EQ(s.count, 0u);
  EXPECT_EQ(s.front_coded_ratio, 0.0);
}

}  // namespace
}  // namespace kvbench::datasets
