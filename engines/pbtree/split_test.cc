// Splits by byte ranges (NodePage::CutNear/MoveTail, TreeWriter::SplitInTwo).
//
// Page level: every cut of full leaf and internal pages (built in one go, and
// with restart blocks made irregular by in-place inserts), restart intervals
// 1, 4 and 16, checked entry by entry and with the validator, and the sizes
// predicted before the cut. Tree level: one-key commits replayed from the log
// on open go through TreeWriter::Put and so through SplitInTwo (the live
// commits go through the put buffer's merge; their tree is compared too):
// random keys, runs ascending into gaps between loaded keys (the new key at
// the end of a page), descending runs (at the start), appends at the right
// edge, overwrites that outgrow the page, values up to the inline limit,
// overflow values and the longest keys (the greedy fallback), at restart
// intervals 1 and 16, checked against a std::map and DB::Check.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engines/pbtree/node_page.h"
#include "engines/pbtree/pbtree.h"
#include "engines/pbtree/test_util.h"

namespace pbtree {
namespace {

using testing::ScratchDir;

// URL-like keys whose neighbours share long prefixes, of varied lengths.
std::string UrlKey(uint32_t i) {
  char buf[160];
  std::snprintf(buf, sizeof(buf), "https://www.example.org/archive/%03u/topic-%04u/item-%06u%s",
                i / 1000, i / 37 % 10000, i, i % 7 == 0 ? "/index.html" : "");
  return buf;
}

struct Entry {
  std::string key;
  std::string payload;  // a leaf's inline value, an internal page's child
  uint32_t field = 0;
};

std::vector<Entry> Decode(const std::vector<uint8_t>& page) {
  DecodedNode d;
  DecodeNode(page.data(), static_cast<uint32_t>(page.size()), &d);
  std::vector<Entry> out;
  for (size_t i = 0; i < d.entries.size(); ++i) {
    out.push_back(Entry{std::string(d.key(i)), std::string(d.value(i).payload), d.value(i).field});
  }
  return out;
}

struct PageParams {
  bool leaf;
  uint32_t interval;
  bool irregular;  // in-place inserts after the build: blocks up to 2x the interval
};

class CutTest : public ::testing::TestWithParam<PageParams> {
 protected:
  static constexpr uint32_t kPageSize = 4096;

  EntryValue Value(uint32_t i, std::string* storage) {
    if (GetParam().leaf) {
      storage->assign(i % 11 == 0 ? 200 + i % 300 : i % 40, static_cast<char>('a' + i % 26));
      return EntryValue{static_cast<uint32_t>(storage->size()) << 1, *storage};
    }
    storage->assign(4, '\0');
    for (int b = 0; b < 4; ++b) (*storage)[b] = static_cast<char>((i * 2654435761u) >> (8 * b));
    return EntryValue{0, *storage};
  }

  // A full page of keys 0, 2, 4, ... (and, irregular, odd keys inserted in
  // place until one does not fit).
  std::vector<uint8_t> FullPage() {
    std::vector<uint8_t> page(kPageSize);
    const PageType type = GetParam().leaf ? PageType::kLeaf : PageType::kInternal;
    NodeBuilder builder(page.data(), kPageSize, type, GetParam().leaf ? 0 : 1, GetParam().interval);
    std::string storage;
    for (uint32_t i = 0;; i += 2) {
      const std::string key = (!GetParam().leaf && i == 0) ? std::string() : UrlKey(i);
      if (!builder.Add(key, Value(i, &storage))) break;
    }
    builder.Finish();
    if (GetParam().irregular) {
      NodePage node(page.data(), kPageSize);
      for (uint32_t i = 1;; i += 4) {
        const std::string key = UrlKey(i);
        if (!node.Insert(node.Seek(key), key, Value(i, &storage), GetParam().interval)) {
          break;
        }
      }
    }
    EXPECT_TRUE(ValidateNodePage(page.data(), kPageSize, 3).ok());
    return page;
  }
};

TEST_P(CutTest, EveryCutKeepsEveryEntry) {
  const std::vector<uint8_t> full = FullPage();
  const std::vector<Entry> all = Decode(full);
  ASSERT_GT(all.size(), 8u);
  NodePage original(const_cast<uint8_t*>(full.data()), kPageSize);
  uint32_t index = 1;
  for (uint32_t cut = original.Next(kPageHeaderSize); cut < original.data_end();
       cut = original.Next(cut), ++index) {
    SCOPED_TRACE("cut at entry " + std::to_string(index));
    std::vector<uint8_t> left = full;
    std::vector<uint8_t> right(kPageSize, 0xab);  // a reused frame's leftovers
    NodePage node(left.data(), kPageSize);
    uint8_t key[kMaxKeySize];
    const uint32_t key_size = node.CopyKey(cut, key);
    ASSERT_EQ(std::string(reinterpret_cast<char*>(key), key_size), all[index].key);
    const uint32_t head = node.HeadUsedBytes(cut);
    const uint32_t tail = node.TailUsedBytes(cut, key_size);
    node.MoveTail(cut, Slice(reinterpret_cast<char*>(key), key_size), right.data());

    Status s = ValidateNodePage(left.data(), kPageSize, 3);
    ASSERT_TRUE(s.ok()) << "left: " << s.ToString();
    s = ValidateNodePage(right.data(), kPageSize, 4);
    ASSERT_TRUE(s.ok()) << "right: " << s.ToString();
    NodePage r(right.data(), kPageSize);
    EXPECT_EQ(node.used_bytes(), head);
    EXPECT_EQ(r.used_bytes(), tail);
    EXPECT_EQ(GetLevel(right.data()), GetLevel(full.data()));
    // Free space keeps whatever bytes it had (the right page's 0xab
    // leftovers): nothing reads it (node_page.h), and the checks above and
    // below see only entries and restarts.

    const std::vector<Entry> l = Decode(left);
    const std::vector<Entry> rr = Decode(right);
    ASSERT_EQ(l.size(), index);
    ASSERT_EQ(rr.size(), all.size() - index);
    for (size_t i = 0; i < l.size(); ++i) {
      EXPECT_EQ(l[i].key, all[i].key);
      EXPECT_EQ(l[i].payload, all[i].payload);
      EXPECT_EQ(l[i].field, all[i].field);
    }
    for (size_t i = 0; i < rr.size(); ++i) {
      // An internal page's right half stores its first key empty.
      const std::string want = (!GetParam().leaf && i == 0) ? std::string() : all[index + i].key;
      EXPECT_EQ(rr[i].key, want);
      EXPECT_EQ(rr[i].payload, all[index + i].payload);
      EXPECT_EQ(rr[i].field, all[index + i].field);
    }
    // Both halves take in-place inserts and searches as before.
    for (size_t i = 0; i < rr.size(); ++i) {
      if (!GetParam().leaf && i == 0) continue;
      const SeekResult found = r.Seek(all[index + i].key);
      EXPECT_TRUE(found.exact);
    }
  }
}

TEST_P(CutTest, CutNearIsTheNearestBoundaryInside) {
  const std::vector<uint8_t> full = FullPage();
  NodePage node(const_cast<uint8_t*>(full.data()), kPageSize);
  std::vector<uint32_t> starts;
  for (uint32_t p = kPageHeaderSize; p < node.data_end(); p = node.Next(p)) starts.push_back(p);
  for (uint32_t target = 0; target <= node.data_end() + 8; ++target) {
    const uint32_t cut = node.CutNear(target);
    ASSERT_TRUE(std::find(starts.begin() + 1, starts.end(), cut) != starts.end()) << target;
    // No entry boundary inside the page is strictly nearer.
    const uint32_t t = std::clamp<uint32_t>(target, kPageHeaderSize, node.data_end() - 1);
    auto distance = [&](uint32_t b) { return b > t ? b - t : t - b; };
    for (size_t i = 1; i < starts.size(); ++i) {
      ASSERT_GE(distance(starts[i]), distance(cut)) << "target " << target;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Pages, CutTest,
                         ::testing::Values(PageParams{true, 16, false}, PageParams{true, 16, true},
                                           PageParams{true, 4, true}, PageParams{true, 1, false},
                                           PageParams{true, 1, true}, PageParams{false, 8, false},
                                           PageParams{false, 8, true}, PageParams{false, 16, true},
                                           PageParams{false, 1, false}, PageParams{false, 1, true}),
                         [](const ::testing::TestParamInfo<PageParams>& info) {
                           const PageParams& p = info.param;
                           return std::string(p.leaf ? "Leaf" : "Internal") + "Interval" +
                                  std::to_string(p.interval) + (p.irregular ? "UnevenBlocks" : "");
                         });

TEST(CutNearTest, OneEntryHasNoCut) {
  std::vector<uint8_t> page(4096);
  NodeBuilder builder(page.data(), 4096, PageType::kLeaf, 0, 16);
  ASSERT_TRUE(builder.Add("only", EntryValue{2, Slice("v")}));
  builder.Finish();
  NodePage node(page.data(), 4096);
  EXPECT_EQ(node.CutNear(30), 0u);
}

struct TreeParams {
  uint32_t interval;
  uint32_t page_size;
};

// One-key commits left in the log and replayed by the next open, one
// TreeWriter::Put each.
class SplitTreeTest : public ::testing::TestWithParam<TreeParams> {
 protected:
  void SetUp() override { Open(); }

  Options MakeOptions() {
    Options options;
    options.page_size = GetParam().page_size;
    options.leaf_restart_interval = GetParam().interval;
    options.internal_restart_interval = GetParam().interval;
    options.checkpoint_on_close = false;
    options.wal_checkpoint_pages = 1u << 20;  // the whole run stays in the log
    return options;
  }

  void Open() {
    Status s = DB::Open(MakeOptions(), dir_.File("split.pbtree"), &db_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  void Put(const std::string& key, const std::string& value) {
    Status s = db_->Put(key, value);
    ASSERT_TRUE(s.ok()) << s.ToString();
    model_[key] = value;
  }

  std::string Value(size_t size) {
    std::string v(size, '\0');
    for (size_t i = 0; i < size; i += 3) v[i] = static_cast<char>(rng_());
    return v;
  }

  // Mostly small values, some up to the inline limit, a few in overflow pages.
  std::string MixedValue() {
    const uint32_t kind = rng_() % 100;
    const uint32_t page = GetParam().page_size;
    if (kind < 85) return Value(rng_() % 48);
    if (kind < 98) return Value(48 + rng_() % (page / 4 - 47));
    return Value(page / 4 + 1 + rng_() % page);
  }

  // Compares the tree the commits built (through the put buffer; Check
  // would checkpoint the log, so only after), then closes without a
  // checkpoint and opens again: the log's commits are replayed through
  // TreeWriter::Put. Then compares the whole tree, checks it, and checks that
  // 4 KiB pages made it `min_depth` deep (internal pages split).
  void ReplayAndCompare(uint32_t min_depth) {
    ExpectSameAsModel(/*check=*/false);
    db_.reset();
    Open();
    ExpectSameAsModel(/*check=*/true);
    Stats stats;
    ASSERT_TRUE(db_->GetStats(&stats).ok());
    if (GetParam().page_size == 4096) {
      EXPECT_GE(stats.depth, min_depth);
    }
    stats_ = stats;
  }

  void ExpectSameAsModel(bool check) { testing::ExpectTreeEquals(db_.get(), model_, check); }

  ScratchDir dir_;
  std::mt19937_64 rng_{42};
  std::unique_ptr<DB> db_;
  std::map<std::string, std::string> model_;
  Stats stats_;
};

TEST_P(SplitTreeTest, RandomKeysAndOverwrites) {
  std::vector<uint32_t> order(24000);
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng_);
  for (uint32_t i : order) {
    Put(UrlKey(i), MixedValue());
    if (rng_() % 8 == 0) {
      // Overwrite a key already there, often with a larger value: the
      // replaced entry can outgrow its page.
      auto at = model_.lower_bound(UrlKey(static_cast<uint32_t>(rng_() % order.size())));
      if (at != model_.end()) Put(at->first, Value(rng_() % (GetParam().page_size / 4)));
    }
  }
  ReplayAndCompare(3);
}

TEST_P(SplitTreeTest, RunsIntoGapsAtEitherEndOfPages) {
  // Loaded keys, then runs ascending into the gaps after them (each new key
  // at the end of the part of a page it goes to) and descending runs (each
  // at the start).
  for (uint32_t i = 0; i < 8000; ++i) Put(UrlKey(10 * i), Value(rng_() % 40));
  for (uint32_t i = 0; i < 8000; i += 1) Put(UrlKey(10 * i + 1), Value(rng_() % 40));
  for (uint32_t i = 8000; i-- > 0;) Put(UrlKey(10 * i + 9), Value(rng_() % 40));
  ReplayAndCompare(3);
}

TEST_P(SplitTreeTest, AppendsKeepPagesFull) {
  // Ascending keys at the right edge: the page is kept full and the new key
  // starts the next one.
  for (uint32_t i = 0; i < 40000; ++i) Put(UrlKey(i), Value(24));
  ReplayAndCompare(3);
  EXPECT_GT(stats_.leaf_fill, 0.9);
}

TEST_P(SplitTreeTest, LongestKeysAndLargeValues) {
  // Entries too large to halve a page with fall back to the greedy fill.
  const uint32_t inline_max = GetParam().page_size / 4;
  for (uint32_t i = 0; i < 600; ++i) {
    std::string key = UrlKey(static_cast<uint32_t>(rng_() % 100000));
    const uint32_t kind = rng_() % 4;
    if (kind == 0) key.append(kMaxKeySize - key.size(), static_cast<char>('a' + rng_() % 26));
    if (kind == 1) key.append(rng_() % 900, 'k');
    Put(key, Value(kind == 3 ? inline_max : rng_() % (inline_max + 1)));
  }
  ReplayAndCompare(2);
}

INSTANTIATE_TEST_SUITE_P(Intervals, SplitTreeTest,
                         ::testing::Values(TreeParams{16, 4096}, TreeParams{1, 4096},
                                           TreeParams{16, 8192}),
                         [](const ::testing::TestParamInfo<TreeParams>& info) {
                           return "Interval" + std::to_string(info.param.interval) + "Page" +
                                  std::to_string(info.param.page_size);
                         });

}  // namespace
}  // namespace pbtree
