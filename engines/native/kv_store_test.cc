// KvStore: the key-value mode against a std::map model (binary keys, long
// keys, big values, ordered scans both ways), and a full arena.
#include "engines/native/kv_store.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

namespace nativedb {
namespace {

class CollectingVisitor : public KvVisitor {
 public:
  bool Visit(std::string_view key, std::string_view value) override {
    seen.emplace_back(std::string(key), std::string(value));
    return stop_after == 0 || seen.size() < stop_after;
  }
  std::vector<std::pair<std::string, std::string>> seen;
  size_t stop_after = 0;
};

struct Kv {
  std::unique_ptr<Database> db;
  std::unique_ptr<KvStore> store;
};

Kv NewKv(uint64_t size = uint64_t{16} << 20) {
  Kv kv;
  Options options;
  options.size = size;
  EXPECT_TRUE(Database::Create(options, &kv.db).ok());
  EXPECT_TRUE(KvStore::Open(kv.db.get(), &kv.store).ok());
  return kv;
}

TEST(KvStoreTest, PutGetOverwriteDelete) {
  Kv kv = NewKv();
  std::string value;
  EXPECT_TRUE(kv.store->Get("a", &value).IsNotFound());
  ASSERT_TRUE(kv.store->Put("a", "1").ok());
  ASSERT_TRUE(kv.store->Get("a", &value).ok());
  EXPECT_EQ(value, "1");
  ASSERT_TRUE(kv.store->Put("a", "22").ok());
  ASSERT_TRUE(kv.store->Get("a", &value).ok());
  EXPECT_EQ(value, "22");
  EXPECT_EQ(kv.store->Count(), 1u);
  ASSERT_TRUE(kv.store->Delete("a").ok());
  EXPECT_TRUE(kv.store->Get("a", &value).IsNotFound());
  EXPECT_TRUE(kv.store->Delete("a").IsNotFound());
  EXPECT_EQ(kv.db->GetStats().data_bytes, 0u);
}

TEST(KvStoreTest, BinaryLongKeysAndBigValues) {
  Kv kv = NewKv();
  const std::string nul_key("k\0ey", 4);
  const std::string long_key(2048, '\xfe');
  const std::string big_value(1 << 20, '\0');
  ASSERT_TRUE(kv.store->Put(nul_key, "v").ok());
  ASSERT_TRUE(kv.store->Put(std::string("k", 1), "short").ok());
  ASSERT_TRUE(kv.store->Put(long_key, big_value).ok());
  ASSERT_TRUE(kv.store->Put("", "empty key").ok());
  std::string value;
  ASSERT_TRUE(kv.store->Get(nul_key, &value).ok());
  EXPECT_EQ(value, "v");
  ASSERT_TRUE(kv.store->Get("k", &value).ok());
  EXPECT_EQ(value, "short");
  ASSERT_TRUE(kv.store->Get(long_key, &value).ok());
  EXPECT_EQ(value, big_value);
  ASSERT_TRUE(kv.store->Get("", &value).ok());
  EXPECT_EQ(value, "empty key");
}

TEST(KvStoreTest, ScansInUnsignedByteOrder) {
  Kv kv = NewKv();
  for (const std::string& k :
       std::vector<std::string>{"b", "a", "\xff", "ab", std::string("a\0", 2), "\x80"}) {
    ASSERT_TRUE(kv.store->Put(k, "v" + k).ok());
  }
  CollectingVisitor all;
  KvScanOptions options;
  options.from_edge = true;
  size_t visited = 0;
  ASSERT_TRUE(kv.store->Scan("", options, &all, &visited).ok());
  std::vector<std::string> keys;
  for (auto& [k, v] : all.seen) keys.push_back(k);
  EXPECT_EQ(keys,
            (std::vector<std::string>{"a", std::string("a\0", 2), "ab", "b", "\x80", "\xff"}));
  EXPECT_EQ(visited, 6u);

  CollectingVisitor back;
  options = KvScanOptions{};
  options.forward = false;
  options.limit = 2;
  ASSERT_TRUE(kv.store->Scan("aa", options, &back, &visited).ok());
  ASSERT_EQ(back.seen.size(), 2u);
  EXPECT_EQ(back.seen[0].first, std::string("a\0", 2));
  EXPECT_EQ(back.seen[1].first, "a");
  EXPECT_EQ(back.seen[0].second, std::string("va\0", 3));
}

TEST(KvStoreTest, RandomOpsMatchMap) {
  for (uint64_t seed : {1, 2, 3}) {
    Kv kv = NewKv();
    std::map<std::string, std::string> model;
    std::mt19937_64 rng(seed);
    auto key = [&] { return "key" + std::to_string(rng() % 500); };
    for (int op = 0; op < 5000; ++op) {
      const int dice = static_cast<int>(rng() % 10);
      if (dice < 5) {
        const std::string k = key(), v(rng() % 100, static_cast<char>('a' + rng() % 26));
        ASSERT_TRUE(kv.store->Put(k, v).ok());
        model[k] = v;
      } else if (dice < 7) {
        const std::string k = key();
        const Status st = kv.store->Delete(k);
        ASSERT_EQ(st.ok(), model.erase(k) == 1);
      } else if (dice < 9) {
        const std::string k = key();
        std::string v;
        const Status st = kv.store->Get(k, &v);
        auto it = model.find(k);
        ASSERT_EQ(st.ok(), it != model.end());
        if (st.ok()) {
          ASSERT_EQ(v, it->second);
        }
      } else {
        const std::string start = key();
        KvScanOptions options;
        options.forward = rng() % 2 == 0;
        options.limit = rng() % 20;
        CollectingVisitor visitor;
        ASSERT_TRUE(kv.store->Scan(start, options, &visitor, nullptr).ok());
        std::vector<std::pair<std::string, std::string>> expected;
        if (options.forward) {
          for (auto it = model.lower_bound(start); it != model.end(); ++it) {
            if (options.limit != 0 && expected.size() == options.limit) break;
            expected.emplace_back(*it);
          }
        } else {
          for (auto it = model.upper_bound(start); it != model.begin();) {
            --it;
            if (options.limit != 0 && expected.size() == options.limit) break;
            expected.emplace_back(*it);
          }
        }
        ASSERT_EQ(visitor.seen, expected);
      }
    }
    EXPECT_EQ(kv.store->Count(), model.size());
    EXPECT_TRUE(kv.db->Verify().ok());
  }
}

TEST(KvStoreTest, FullArenaKeepsEarlierPairs) {
  Kv kv = NewKv(uint64_t{256} << 10);
  Status st;
  int stored = 0;
  for (; stored < 100000; ++stored) {
    st = kv.store->Put("key" + std::to_string(stored), std::string(100, 'v'));
    if (!st.ok()) break;
  }
  EXPECT_TRUE(st.IsFull()) << st.ToString();
  EXPECT_EQ(kv.store->Count(), static_cast<uint64_t>(stored));
  std::string v;
  EXPECT_TRUE(kv.store->Get("key" + std::to_string(stored), &v).IsNotFound());
  ASSERT_TRUE(kv.store->Get("key0", &v).ok());
  EXPECT_EQ(v, std::string(100, 'v'));
  EXPECT_TRUE(kv.db->Verify().ok());
}

TEST(KvStoreTest, ReopensOnExistingIndex) {
  Kv kv = NewKv();
  ASSERT_TRUE(kv.store->Put("x", "y").ok());
  std::unique_ptr<KvStore> again;
  ASSERT_TRUE(KvStore::Open(kv.db.get(), &again).ok());
  std::string v;
  ASSERT_TRUE(again->Get("x", &v).ok());
  EXPECT_EQ(v, "y");
}

}  // namespace
}  // namespace nativedb
