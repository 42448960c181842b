// sequential, timestamp, random-int, ycsb and numbered keys: exact bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <unordered_set>
#include <vector>

#include "datasets/fnv.h"
#include "datasets/key_generator.h"
#include "datasets/key_stats.h"

namespace kvbench::datasets {
namespace {

std::unique_ptr<KeyGenerator> MakeOrDie(const std::string& kind, ParamMap params = {},
                                        uint64_t count = 0, uint64_t seed = 1) {
  DatasetSpec spec;
  spec.kind = kind;
  spec.params = std::move(params);
  spec.count = count;
  spec.seed = seed;
  std::unique_ptr<KeyGenerator> g;
  const Status s = NewKeyGenerator(spec, &g);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return g;
}

std::string Bytes(std::initializer_list<int> bytes) {
  std::string out;
  for (int b : bytes) out.push_back(static_cast<char>(b));
  return out;
}

uint64_t DecodeBigEndian(const std::string& key) {
  uint64_t v = 0;
  for (unsigned char c : key) v = (v << 8) | c;
  return v;
}

TEST(IntegerKeysTest, SequentialIsBigEndianSoByteOrderIsNumericOrder) {
  auto g = MakeOrDie("sequential");
  std::string key;
  g->Key(0, &key);
  EXPECT_EQ(key, Bytes({0, 0, 0, 0, 0, 0, 0, 0}));
  g->Key(258, &key);
  EXPECT_EQ(key, Bytes({0, 0, 0, 0, 0, 0, 1, 2}));
  std::string previous;
  for (uint64_t i = 0; i < 100000; i += 97) {
    g->Key(i, &key);
    if (i > 0) {
      ASSERT_LT(previous, key);  // std::string compares bytes as unsigned
    }
    previous = key;
  }
  g->AbsentKey(258, &key);
  EXPECT_EQ(key, Bytes({0, 0, 0, 0, 0, 0, 1, 2, 0}));
  auto four = MakeOrDie("sequential", {{"width", "4"}, {"start", "1"}});
  four->Key(0, &key);
  EXPECT_EQ(key, Bytes({0, 0, 0, 1}));  // seed 003's identity keys start at 1
}

TEST(IntegerKeysTest, TimestampsGrowBySevenSecondsFrom1970) {
  auto g = MakeOrDie("timestamp");
  std::string key;
  g->Key(0, &key);
  EXPECT_EQ(DecodeBigEndian(key), 0u);
  EXPECT_EQ(key.size(), 8u);
  g->Key(1000000, &key);
  EXPECT_EQ(DecodeBigEndian(key), 7000000u);
  EXPECT_EQ(g->encoding(), KeyEncoding::kEpochSeconds);
}

TEST(IntegerKeysTest, RandomIntsAreUniformInRangeWithDuplicates) {
  // Seed 003 Test 7: 1M draws of rnd.Next(1000000) as 4-byte keys.
  auto g = MakeOrDie("random-int", {}, 1000000);
  std::string key;
  uint64_t sum = 0;
  for (uint64_t i = 0; i < 1000000; ++i) {
    g->Key(i, &key);
    ASSERT_EQ(key.size(), 4u);
    const uint64_t v = DecodeBigEndian(key);
    ASSERT_LT(v, 1000000u);
    sum += v;
  }
  EXPECT_NEAR(static_cast<double>(sum) / 1e6, 499999.5, 1000);
  // 1M draws from 1M values: 1 - 1/e of them distinct (632,120), give or take.
  const KeySetStats stats = ComputeKeySetStats(*g, 1000000);
  EXPECT_NEAR(static_cast<double>(stats.distinct), 632120, 2000);
  EXPECT_FALSE(g->distinct());
  auto narrow = MakeOrDie("random-int", {{"min", "10"}, {"max", "12"}, {"width", "8"}});
  std::vector<int> seen(3);
  for (uint64_t i = 0; i < 3000; ++i) {
    narrow->Key(i, &key);
    const uint64_t v = DecodeBigEndian(key);
    ASSERT_GE(v, 10u);
    ASSERT_LE(v, 12u);
    ++seen[v - 10];
  }
  for (int count : seen) EXPECT_NEAR(count, 1000, 150);
  auto other_seed = MakeOrDie("random-int", {}, 0, 2);
  std::string a, b;
  int same = 0;
  for (uint64_t i = 0; i < 1000; ++i) {
    g->Key(i, &a);
    other_seed->Key(i, &b);
    same += a == b;
  }
  EXPECT_LT(same, 10);
}

TEST(IntegerKeysTest, YcsbKeysMatchYcsbOutput) {
  // The first keys of any YCSB load with insertorder=hashed, as YCSB prints
  // them ("INSERT usertable user6284781860667377211 ...").
  auto g = MakeOrDie("ycsb");
  std::string key;
  g->Key(0, &key);
  EXPECT_EQ(key, "user6284781860667377211");
  g->Key(1, &key);
  EXPECT_EQ(key, "user8517097267634966620");
  g->Key(2, &key);
  EXPECT_EQ(key, "user1820151046732198393");
  g->AbsentKey(0, &key);
  EXPECT_EQ(key, "user6284781860667377211x");
  auto ordered = MakeOrDie("ycsb", {{"insertorder", "ordered"}, {"zeropadding", "5"}});
  ordered->Key(7, &key);
  EXPECT_EQ(key, "user00007");
  ordered->Key(1234567, &key);
  EXPECT_EQ(key, "user1234567");
  EXPECT_TRUE(ordered->distinct());
}

TEST(IntegerKeysTest, YcsbFnvHashKeepsJavaAbsQuirk) {
  EXPECT_EQ(YcsbFnvHash64(0), 6284781860667377211LL);
  for (int64_t v : {int64_t{-1}, int64_t{123456789}, INT64_MAX, INT64_MIN}) {
    const int64_t h = YcsbFnvHash64(v);
    EXPECT_TRUE(h >= 0 || h == INT64_MIN) << v;
  }
}

TEST(IntegerKeysTest, NumberedKeysAreSeed004OrderKeys) {
  auto g = MakeOrDie("numbered");
  std::string key;
  g->Key(0, &key);
  EXPECT_EQ(key, "/order/1");
  g->Key(41, &key);
  EXPECT_EQ(key, "/order/42");
  g->AbsentKey(41, &key);
  EXPECT_EQ(key, "/order/42x");
  auto padded = MakeOrDie("numbered", {{"prefix", "k"}, {"start", "0"}, {"zeropadding", "4"}});
  padded->Key(7, &key);
  EXPECT_EQ(key, "k0007");
}

}  // namespace
}  // namespace kvbench::datasets
