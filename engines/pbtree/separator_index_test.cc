// SeparatorIndex: its search gives the page search's answer for every target,
// with a `known` prefix no larger than the truth; and a tree deep enough for
// readers to build indexes answers gets and seeks as a std::map does, before
// and after commits rewrite the pages the indexes were built from.
#include "engines/pbtree/separator_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engines/pbtree/coding.h"
#include "engines/pbtree/node_page.h"
#include "engines/pbtree/pbtree.h"
#include "engines/pbtree/test_util.h"

namespace pbtree {
namespace {

constexpr uint32_t kPageSize = 4096;

size_t CommonPrefix(const std::string& a, const std::string& b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return n;
}

std::string UrlKey(std::mt19937_64& rng, const std::string& prefix) {
  static const char* kParts[] = {"docs/", "api/", "v1/", "v2/", "users/", "items/", "img/"};
  std::string key = prefix;
  const int n = 1 + rng() % 4;
  for (int i = 0; i < n; ++i) key += kParts[rng() % 7];
  return key + std::to_string(rng() % 100000);
}

// An internal page of `count` separators (the first empty, as every internal
// page's first is), all but the first starting with `prefix`. Child i is
// 1000 + i.
std::vector<std::string> BuildInternalPage(std::vector<uint8_t>* page, const std::string& prefix,
                                           uint32_t restart_interval, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::set<std::string> keys;
  while (keys.size() < 400) keys.insert(UrlKey(rng, prefix));
  NodeBuilder builder(page->data(), kPageSize, PageType::kInternal, 2, restart_interval);
  std::vector<std::string> separators{""};
  uint8_t child[4];
  EncodeFixed32(child, 1000);
  EXPECT_TRUE(builder.Add(Slice(), EntryValue{0, Slice(reinterpret_cast<char*>(child), 4)}));
  for (const std::string& k : keys) {
    EncodeFixed32(child, 1000 + static_cast<uint32_t>(separators.size()));
    if (!builder.Add(k, EntryValue{0, Slice(reinterpret_cast<char*>(child), 4)})) break;
    separators.push_back(k);
  }
  builder.Finish();
  return separators;
}

TEST(SeparatorIndexTest, FindAgreesWithThePageSearch) {
  for (uint32_t interval : {1u, 4u, 16u}) {
    for (const std::string prefix : {"", "https://www.example.org/catalog/"}) {
      std::vector<uint8_t> page(kPageSize);
      const std::vector<std::string> separators =
          BuildInternalPage(&page, prefix, interval, interval * 7 + prefix.size());
      ASSERT_GT(separators.size(), 20u);
      SeparatorIndex* index = SeparatorIndex::Build(page.data(), kPageSize);
      ASSERT_EQ(index->count(), separators.size());
      NodePage node(page.data(), kPageSize);

      // Targets: every separator, just above and below each, prefixes of
      // them, random keys, and the ends of the key space.
      std::mt19937_64 rng(interval);
      std::vector<std::string> targets{"", std::string(1, '\xff'), prefix};
      for (const std::string& s : separators) {
        targets.push_back(s);
        targets.push_back(s + '\0');
        if (!s.empty()) {
          targets.push_back(s.substr(0, s.size() - 1));
          std::string below = s;
          below.back() = static_cast<char>(below.back() - 1);
          targets.push_back(below);
        }
      }
      for (int i = 0; i < 2000; ++i) targets.push_back(UrlKey(rng, prefix));

      for (const std::string& t : targets) {
        // `known` on entry: what the target truly shares with every key of
        // the page's range (its separators but the empty first one).
        uint32_t known_in = static_cast<uint32_t>(t.size());
        for (size_t i = 1; i < separators.size(); ++i) {
          known_in = std::min<uint32_t>(known_in, CommonPrefix(t, separators[i]));
        }
        for (uint32_t start : {0u, known_in}) {
          uint32_t page_known = start, index_known = start;
          const uint32_t expected = node.FindChildEntry(t, &page_known);
          const uint32_t entry = index->Find(t, &index_known);
          ASSERT_EQ(index->position(entry), expected) << "target " << t;
          ASSERT_EQ(index->child(entry), node.ChildAt(expected)) << "target " << t;
          // The known prefix handed to the child is true of both its bounds.
          const size_t e = index->child(entry) - 1000;
          if (e > 0) {
            EXPECT_LE(index_known, CommonPrefix(t, separators[e])) << t;
          }
          if (e + 1 < separators.size()) {
            EXPECT_LE(index_known, CommonPrefix(t, separators[e + 1])) << t;
          }
          EXPECT_LE(index_known, t.size());
        }
      }
      SeparatorIndex::Free(index);
    }
  }
}

// Enough URL keys for four levels, read by more than kSearchesBeforeIndex
// gets so the root and level 2 are searched through their indexes; then
// commits rewrite those pages (new frames, the old indexes freed) and the
// reads must follow.
TEST(SeparatorIndexTest, DeepTreeReadsMatchAModelAcrossCommits) {
  testing::ScratchDir dir;
  std::unique_ptr<DB> db;
  ASSERT_TRUE(DB::Open(Options(), dir.File("db"), &db).ok());
  std::mt19937_64 rng(5);
  std::map<std::string, std::string> model;
  auto long_url = [&rng] {
    return UrlKey(rng, "https://www.example.org/" + std::to_string(rng() % 50) + "/") +
           std::string(120, 'p') + std::to_string(rng());
  };
  {
    std::unique_ptr<WriteTxn> txn;
    ASSERT_TRUE(db->BeginWrite(&txn).ok());
    while (model.size() < 60000) {
      std::string k = long_url();
      model[k] = std::to_string(model.size());
      ASSERT_TRUE(txn->Put(k, model[k]).ok());
    }
    ASSERT_TRUE(txn->Commit().ok());
  }
  Stats stats;
  ASSERT_TRUE(db->GetStats(&stats).ok());
  ASSERT_GE(stats.depth, 3u) << "the indexes serve levels 2 and up";

  auto check = [&](int round) {
    std::vector<std::string> keys;
    for (const auto& kv : model) keys.push_back(kv.first);
    std::shuffle(keys.begin(), keys.end(), rng);
    keys.resize(3000);
    for (const std::string& k : keys) {
      std::string value;
      Status s = db->Get(k, &value);
      ASSERT_TRUE(s.ok()) << round << " " << k << ": " << s.ToString();
      ASSERT_EQ(value, model[k]);
      // Absent neighbours: just above and just below the key.
      ASSERT_TRUE(db->Get(k + '\0', &value).IsNotFound());
      std::string below = k.substr(0, k.size() - 1);
      if (model.count(below) == 0) {
        ASSERT_TRUE(db->Get(below, &value).IsNotFound());
      }
    }
    std::unique_ptr<ReadTxn> read;
    ASSERT_TRUE(db->BeginRead(&read).ok());
    std::unique_ptr<Cursor> cursor = read->NewCursor();
    for (int i = 0; i < 500; ++i) {
      const std::string target = long_url();
      cursor->Seek(target);
      auto it = model.lower_bound(target);
      if (it == model.end()) {
        ASSERT_FALSE(cursor->Valid());
      } else {
        ASSERT_TRUE(cursor->Valid()) << round << " " << target;
        ASSERT_EQ(std::string(cursor->key()), it->first);
      }
    }
  };
  check(0);
  for (int round = 1; round <= 3; ++round) {
    std::unique_ptr<WriteTxn> txn;
    ASSERT_TRUE(db->BeginWrite(&txn).ok());
    for (int i = 0; i < 2000; ++i) {
      std::string k = long_url();
      model[k] = "r" + std::to_string(round);
      ASSERT_TRUE(txn->Put(k, model[k]).ok());
      auto victim = model.lower_bound(long_url());
      if (victim != model.end()) {
        ASSERT_TRUE(txn->Delete(victim->first).ok());
        model.erase(victim);
      }
    }
    ASSERT_TRUE(txn->Commit().ok());
    check(round);
  }
  EXPECT_TRUE(db->Check().ok());
}

}  // namespace
}  // namespace pbtree
