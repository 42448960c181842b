#include "datasets/value_generator.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace kvbench::datasets {
namespace {

ValueOptions Parse(ParamMap params) {
  ValueOptions o;
  const Status s = ParseValueOptions(params, &o);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return o;
}

// The smallest period p with v[i] == v[i - p] for all i >= p.
size_t Period(const std::string& v) {
  for (size_t p = 1; p < v.size(); ++p) {
    bool periodic = true;
    for (size_t i = p; i < v.size() && periodic; ++i) periodic = v[i] == v[i - p];
    if (periodic) return p;
  }
  return v.size();
}

TEST(ValueGeneratorTest, DefaultsAreSeed001FortyBytes) {
  ValueGenerator g(ValueOptions{}, 1);
  std::string v;
  g.Value(0, 0, &v);
  EXPECT_EQ(v.size(), 40u);
  for (char c : v) EXPECT_TRUE(c >= ' ' && c <= '~');
}

TEST(ValueGeneratorTest, PureFunctionOfSeedIndexAndVersion) {
  ValueGenerator g(Parse({{"size", "100"}}), 1);
  ValueGenerator same(Parse({{"size", "100"}}), 1);
  ValueGenerator other_seed(Parse({{"size", "100"}}), 2);
  std::string a, b;
  std::set<std::string> distinct;
  for (uint64_t i = 0; i < 10000; ++i) {
    g.Value(i, 0, &a);
    same.Value(i, 0, &b);
    ASSERT_EQ(a, b);
    distinct.insert(a);
    g.Value(i, 1, &b);
    ASSERT_NE(a, b) << "an update (version 1) must write a different value";
    other_seed.Value(i, 0, &b);
    ASSERT_NE(a, b);
  }
  EXPECT_EQ(distinct.size(), 10000u);
}

TEST(ValueGeneratorTest, CompressibilityIsTheRepeatedFraction) {
  for (double c : {0.0, 0.25, 0.5, 0.9}) {
    ValueGenerator g(Parse({{"size", "1000"}, {"compressibility", std::to_string(c)}}), 3);
    std::string v;
    g.Value(17, 0, &v);
    ASSERT_EQ(v.size(), 1000u);
    // The value is a random part of (1 - c) x size bytes repeated: an LZ
    // compressor keeps the first period and references the rest.
    EXPECT_EQ(Period(v), static_cast<size_t>(1000 * (1 - c) + 0.5)) << c;
  }
}

TEST(ValueGeneratorTest, UniformSizesCoverTheRange) {
  ValueGenerator g(
      Parse({{"size_distribution", "uniform"}, {"min_size", "10"}, {"max_size", "19"}}), 1);
  std::map<size_t, int> counts;
  std::string v;
  for (uint64_t i = 0; i < 20000; ++i) {
    g.Value(i, 0, &v);
    ASSERT_EQ(v.size(), g.Size(i, 0));
    ++counts[v.size()];
  }
  ASSERT_EQ(counts.size(), 10u);
  EXPECT_EQ(counts.begin()->first, 10u);
  EXPECT_EQ(counts.rbegin()->first, 19u);
  for (const auto& [size, n] : counts) EXPECT_NEAR(n, 2000, 250) << size;
}

TEST(ValueGeneratorTest, ZipfianSizesFavourTheSmallest) {
  ValueGenerator g(
      Parse({{"size_distribution", "zipfian"}, {"min_size", "100"}, {"max_size", "1099"}}), 1);
  std::map<size_t, int> counts;
  for (uint64_t i = 0; i < 100000; ++i) ++counts[g.Size(i, 0)];
  EXPECT_GE(counts.begin()->first, 100u);
  EXPECT_LE(counts.rbegin()->first, 1099u);
  // Item 0 (size 100) has probability 1/zeta(1000, 0.99) = 0.1337.
  EXPECT_NEAR(counts[100] / 100000.0, 1 / Zeta(1000, 0.99), 0.005);
  EXPECT_GT(counts[100], counts[101]);
  EXPECT_GT(counts[101], counts[150]);
}

TEST(ValueGeneratorTest, BinaryAlphabetUsesAllBytes) {
  ValueGenerator g(Parse({{"size", "4096"}, {"compressibility", "0"}, {"alphabet", "binary"}}), 1);
  std::string v;
  g.Value(1, 0, &v);
  std::set<unsigned char> bytes(v.begin(), v.end());
  EXPECT_GT(bytes.size(), 240u);
}

TEST(ValueGeneratorTest, BadOptionsNameTheOption) {
  ValueOptions o;
  Status s = ParseValueOptions({{"compressibility", "1.5"}}, &o);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("compressibility"), std::string::npos) << s.message();
  s = ParseValueOptions({{"min_size", "50"}, {"max_size", "10"}}, &o);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("max_size"), std::string::npos) << s.message();
  s = ParseValueOptions({{"sise", "10"}}, &o);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("unknown option 'sise'"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace kvbench::datasets
