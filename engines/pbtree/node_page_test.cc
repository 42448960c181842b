// Unit tests of the node page format: prefix-coding round trip, restart
// search, in-place edits against a std::map, and the validator.
#include "engines/pbtree/node_page.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engines/pbtree/btree.h"

namespace pbtree {
namespace {

constexpr uint32_t kPageSize = 4096;

std::string UrlKey(std::mt19937_64& rng) {
  static const char* kParts[] = {"https://www.example.org/",
                                 "docs/",
                                 "api/",
                                 "v1/",
                                 "v2/",
                                 "users/",
                                 "items/",
                                 "search?q=",
                                 "index.html",
                                 "img/"};
  std::string key;
  int n = 2 + rng() % 5;
  for (int i = 0; i < n; ++i) key += kParts[rng() % 10];
  key += std::to_string(rng() % 100000);
  return key;
}

EntryValue Inline(const std::string& value) {
  return EntryValue{static_cast<uint32_t>(value.size()) << 1, value};
}

struct Page {
  std::vector<uint8_t> bytes = std::vector<uint8_t>(kPageSize);
  NodePage node() { return NodePage(bytes.data(), kPageSize); }
};

// Every key, value and restart of the page, checked against `model`.
void ExpectPageEquals(Page& page, const std::map<std::string, std::string>& model) {
  ASSERT_TRUE(ValidateNodePage(page.bytes.data(), kPageSize, 7).ok())
      << ValidateNodePage(page.bytes.data(), kPageSize, 7).ToString();
  DecodedNode decoded;
  DecodeNode(page.bytes.data(), kPageSize, &decoded);
  ASSERT_EQ(decoded.entries.size(), model.size());
  size_t i = 0;
  for (const auto& [key, value] : model) {
    EXPECT_EQ(decoded.key(i), key);
    EXPECT_EQ(decoded.value(i).payload, value);
    ++i;
  }
}

TEST(NodePageTest, BuilderRoundTripCompressesSharedPrefixes) {
  std::mt19937_64 rng(1);
  std::map<std::string, std::string> model;
  while (model.size() < 60) {
    std::string key = std::string("https://www.example.org/catalog/") +
                      (rng() % 2 ? "books/" : "music/") + std::to_string(rng() % 100000);
    model[key] = std::string("v") + std::to_string(model.size());
  }
  Page page;
  NodeBuilder builder(page.bytes.data(), kPageSize, PageType::kLeaf, 0, 16);
  size_t raw = 0;
  for (const auto& [key, value] : model) {
    ASSERT_TRUE(builder.Add(key, Inline(value)));
    raw += key.size();
  }
  builder.Finish();
  ExpectPageEquals(page, model);
  NodePage node = page.node();
  EXPECT_EQ(node.restarts(), (model.size() + 15) / 16);
  size_t stored = 0;
  for (uint32_t pos = kPageHeaderSize; pos < node.data_end(); pos = node.Next(pos)) {
    stored += node.Entry(pos).unshared;
  }
  EXPECT_LT(stored, raw / 2) << "URL-like keys should front-code to under half";
}

TEST(NodePageTest, SeekFindsEveryKeyAndEveryGap) {
  std::mt19937_64 rng(2);
  std::map<std::string, std::string> model;
  while (model.size() < 50) model[UrlKey(rng)] = "x";
  Page page;
  NodeBuilder builder(page.bytes.data(), kPageSize, PageType::kLeaf, 0, 4);
  for (const auto& [key, value] : model) ASSERT_TRUE(builder.Add(key, Inline(value)));
  builder.Finish();
  NodePage node = page.node();
  std::string key;
  for (const auto& [k, v] : model) {
    SeekResult r = node.Seek(k);
    ASSERT_TRUE(r.exact) << k;
    KeyAt(node, r.pos, &key);
    EXPECT_EQ(key, k);
  }
  // Probes between keys land on the successor (or the end).
  for (int i = 0; i < 500; ++i) {
    std::string probe = UrlKey(rng);
    if (i % 3 == 0) probe = probe.substr(0, probe.size() / 2);
    auto it = model.lower_bound(probe);
    SeekResult r = node.Seek(probe);
    EXPECT_EQ(r.exact, it != model.end() && it->first == probe);
    if (it == model.end()) {
      EXPECT_EQ(r.pos, node.data_end());
    } else {
      ASSERT_LT(r.pos, node.data_end());
      KeyAt(node, r.pos, &key);
      EXPECT_EQ(key, it->first) << "probe " << probe;
    }
  }
  EXPECT_EQ(node.Seek("").pos, kPageHeaderSize);
  EXPECT_EQ(node.Seek("\xff\xff").pos, node.data_end());
}

TEST(NodePageTest, InPlaceInsertReplaceEraseMatchAModel) {
  for (uint64_t seed = 0; seed < 20; ++seed) {
    std::mt19937_64 rng(seed);
    Page page;
    NodeBuilder(page.bytes.data(), kPageSize, PageType::kLeaf, 0, 4).Finish();
    std::map<std::string, std::string> model;
    for (int step = 0; step < 400; ++step) {
      NodePage node = page.node();
      const int op = rng() % 10;
      if (op < 6 || model.empty()) {
        std::string key = (op == 0 && !model.empty())
                              ? model.begin()->first.substr(0, 5) + char('A' + rng() % 26)
                              : UrlKey(rng);
        std::string value(rng() % 20, static_cast<char>('a' + rng() % 26));
        SeekResult r = node.Seek(key);
        bool ok = r.exact ? node.ReplaceValue(r.pos, Inline(value))
                          : node.Insert(r, key, Inline(value), 4);
        if (ok) model[key] = value;
      } else {
        auto it = model.begin();
        std::advance(it, rng() % model.size());
        SeekResult r = node.Seek(it->first);
        ASSERT_TRUE(r.exact);
        node.Erase(r);
        model.erase(it);
      }
      if (model.empty()) continue;
      ExpectPageEquals(page, model);
      if (HasFatalFailure()) return;
    }
  }
}

// Entries in each restart block of a page.
std::vector<uint32_t> BlockSizes(const NodePage& node) {
  std::vector<uint32_t> sizes(node.restarts(), 0);
  for (uint32_t pos = kPageHeaderSize; pos < node.data_end(); pos = node.Next(pos)) {
    ++sizes[node.BlockOf(pos)];
  }
  return sizes;
}

TEST(NodePageTest, InsertKeepsRestartBlocksShort) {
  // Ascending inserts all land in the last block, descending ones in the
  // first, random ones anywhere; leaves and internal pages.
  for (const PageType type : {PageType::kLeaf, PageType::kInternal}) {
    for (const int order : {0, 1, 2}) {
      SCOPED_TRACE(testing::Message() << "type " << static_cast<int>(type) << " order " << order);
      Page page;
      NodeBuilder builder(page.bytes.data(), kPageSize, type, type == PageType::kLeaf ? 0 : 1, 8);
      std::map<std::string, std::string> model;
      if (type == PageType::kInternal) {
        // An internal page's first entry has the empty key.
        model[""] = std::string("\x01\0\0\0", 4);
        ASSERT_TRUE(builder.Add("", Inline(model[""])));
      }
      builder.Finish();
      std::mt19937_64 rng(static_cast<uint64_t>(order));
      for (int i = 0; i < 150; ++i) {
        const int n = order == 0 ? i : order == 1 ? 1000 - i : static_cast<int>(rng() % 100000);
        char key[32];
        snprintf(key, sizeof(key), "key-%06d", n);
        if (model.count(key)) continue;
        NodePage node = page.node();
        const SeekResult r = node.Seek(key);
        ASSERT_FALSE(r.exact);
        const std::string value = type == PageType::kLeaf ? "v" : std::string("\x02\0\0\0", 4);
        ASSERT_TRUE(node.Insert(r, key, Inline(value), 8));
        model[key] = value;
        for (const uint32_t size : BlockSizes(page.node())) ASSERT_LE(size, 16u) << "after " << key;
      }
      ExpectPageEquals(page, model);
      EXPECT_GE(page.node().restarts(), model.size() / 16);
    }
  }
}

TEST(NodePageTest, InsertCutsABlockOfSmallEntriesOnceItsBytesNearTheLimit) {
  // Insert counts a block's entries only when an estimate from its bytes
  // comes near twice the interval. Small entries inserted in descending
  // order just after the large ones of a block make both estimates low (the
  // large entries before the insert are the sample, and the page's average
  // entry is large), so the block grows past twice the interval, and is cut
  // once its bytes reach seven eighths of that many average entries.
  Page page;
  NodeBuilder builder(page.bytes.data(), kPageSize, PageType::kLeaf, 0, 8);
  std::map<std::string, std::string> model;
  for (int i = 0; i < 16; ++i) {
    const std::string key = "a-" + std::to_string(100 + i);
    model[key] = std::string(150, 'x');
    ASSERT_TRUE(builder.Add(key, Inline(model[key])));
  }
  builder.Finish();
  size_t longest = 0;
  for (int i = 0; i < 150; ++i) {
    char key[32];
    snprintf(key, sizeof(key), "a-107-%06d", 1000 - i);  // between a-107 and a-108
    NodePage node = page.node();
    ASSERT_TRUE(node.Insert(node.Seek(key), key, Inline("v"), 8));
    model[key] = "v";
    const std::vector<uint32_t> sizes = BlockSizes(page.node());
    const uint64_t entry_bytes = page.node().data_end() - kPageHeaderSize;
    for (uint32_t b = 0; b < sizes.size(); ++b) {
      longest = std::max<size_t>(longest, sizes[b]);
      if (sizes[b] <= 16) continue;
      const uint32_t end =
          b + 1 < sizes.size() ? page.node().restart_offset(b + 1) : page.node().data_end();
      const uint64_t bytes = end - page.node().restart_offset(b);
      // Past the count, the block is below its byte mark.
      ASSERT_LT(8 * bytes * model.size(), 7 * 16 * entry_bytes)
          << "block " << b << " after " << key;
    }
  }
  ExpectPageEquals(page, model);
  EXPECT_GT(longest, 16u);                 // the block grew past the count (19 when written)
  EXPECT_LT(longest, 24u);                 // and was cut near it,
  EXPECT_GT(page.node().restarts(), 10u);  // again and again (2 restarts at first)
  EXPECT_TRUE(ValidateNodePage(page.bytes.data(), kPageSize, 1).ok());
}

TEST(NodePageTest, InsertReportsFullPage) {
  Page page;
  NodeBuilder(page.bytes.data(), kPageSize, PageType::kLeaf, 0, 16).Finish();
  int inserted = 0;
  for (int i = 0; i < 1000; ++i) {
    std::string key = std::string("k") + std::to_string(1000000 + i);
    NodePage node = page.node();
    if (!node.Insert(node.Seek(key), key, Inline(std::string(100, 'v')), 16)) break;
    ++inserted;
  }
  EXPECT_GT(inserted, 30);
  EXPECT_LT(inserted, 40);
  EXPECT_TRUE(ValidateNodePage(page.bytes.data(), kPageSize, 1).ok());
}

TEST(NodePageTest, InternalPageRoutesToTheLastSeparatorNotAbove) {
  Page page;
  NodeBuilder builder(page.bytes.data(), kPageSize, PageType::kInternal, 1, 2);
  uint8_t child[4];
  std::vector<std::string> seps = {"", "b", "d", "da", "f"};
  for (uint32_t i = 0; i < seps.size(); ++i) {
    EncodeFixed32(child, 100 + i);
    ASSERT_TRUE(builder.Add(seps[i], EntryValue{0, Slice(reinterpret_cast<char*>(child), 4)}));
  }
  builder.Finish();
  ASSERT_TRUE(ValidateNodePage(page.bytes.data(), kPageSize, 1).ok());
  NodePage node = page.node();
  auto child_for = [&](const std::string& k) { return node.ChildAt(node.FindChildEntry(k)); };
  EXPECT_EQ(child_for(""), 100u);
  EXPECT_EQ(child_for("a"), 100u);
  EXPECT_EQ(child_for("b"), 101u);
  EXPECT_EQ(child_for("czzz"), 101u);
  EXPECT_EQ(child_for("d"), 102u);
  EXPECT_EQ(child_for("d\x01"), 102u);
  EXPECT_EQ(child_for("da"), 103u);
  EXPECT_EQ(child_for("e"), 103u);
  EXPECT_EQ(child_for("zzz"), 104u);
}

// A search told how many leading bytes the target shares with every key of
// the page (what a parent's search passes down) finds what a search told
// nothing finds; and the bound an internal page hands to the chosen child
// holds for every key the child may hold (its separators' range).
// Seek steps over most entries of a block by their first bytes alone when
// every length in their header fits in one byte, and decodes the others in
// full. Pages here mix both: shared prefixes on either side of 128 bytes,
// inline values of 0-150 bytes (a value field of 128 or more takes two
// bytes) and overflow values (a 4-byte page number).
TEST(NodePageTest, SeekAgreesWithAModelAcrossOneAndTwoByteHeaders) {
  std::mt19937_64 rng(34);
  for (int round = 0; round < 120; ++round) {
    const size_t prefix_size =
        std::vector<size_t>{0, 60, 120, 126, 127, 128, 129, 140, 250}[round % 9];
    const std::string prefix(prefix_size, static_cast<char>('a' + round % 3));
    std::map<std::string, EntryValue> model;
    std::deque<std::string> values;  // the model's Slices point into it: never moved
    while (model.size() < 48) {
      std::string key = prefix;
      const int tail = static_cast<int>(rng() % 6);
      for (int i = 0; i < tail; ++i) key += static_cast<char>('a' + rng() % 3);
      if (rng() % 4 == 0) key += std::string(1 + rng() % 140, 'z');  // a long suffix
      values.push_back(std::string(rng() % 151, 'v'));
      const bool overflow = rng() % 5 == 0;
      model[key] = overflow ? EntryValue{1, Slice("\x07\0\0\0", 4)} : Inline(values.back());
    }
    const uint32_t interval = 1 + rng() % 32;
    Page page;
    NodeBuilder builder(page.bytes.data(), kPageSize, PageType::kLeaf, 0, interval);
    std::vector<std::string> stored;
    for (const auto& [key, value] : model) {
      if (!builder.Add(key, value)) break;
      stored.push_back(key);
    }
    builder.Finish();
    ASSERT_GT(stored.size(), 4u);
    NodePage node = page.node();
    std::string key;
    for (int probe = 0; probe < 200; ++probe) {
      std::string target = stored[rng() % stored.size()];
      if (probe % 4 == 1) target += static_cast<char>('a' + rng() % 4);
      if (probe % 4 == 2) target.resize(rng() % (target.size() + 1));
      if (probe % 4 == 3 && !target.empty()) target.back() = static_cast<char>(target.back() + 1);
      const auto it = std::lower_bound(stored.begin(), stored.end(), target);
      const SeekResult r = node.Seek(target);
      EXPECT_EQ(r.exact, it != stored.end() && *it == target) << round << " " << target;
      if (it == stored.end()) {
        EXPECT_EQ(r.pos, node.data_end()) << round;
      } else {
        ASSERT_LT(r.pos, node.data_end()) << round;
        KeyAt(node, r.pos, &key);
        EXPECT_EQ(key, *it) << round;
      }
      // The entry before pos (when it is in the scanned block) is the key
      // before the target, and prev_lcp is what the two share.
      if (r.prev != 0) {
        ASSERT_NE(it, stored.begin()) << round;
        KeyAt(node, r.prev, &key);
        EXPECT_EQ(key, *(it - 1)) << round;
        EXPECT_EQ(r.prev_lcp, CommonPrefix(key, target)) << round;
        EXPECT_EQ(node.Next(r.prev), r.pos) << round;
      }
    }
  }
}

TEST(NodePageTest, SearchesSkippingAKnownPrefixAgreeWithFullOnes) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 200; ++round) {
    const std::string prefix = "https://host" + std::to_string(round % 7) + ".example.org/a/";
    std::set<std::string> keys;
    while (keys.size() < 40) keys.insert(prefix + UrlKey(rng));
    const uint32_t interval = 1 + rng() % 16;
    for (const PageType type : {PageType::kLeaf, PageType::kInternal}) {
      const bool leaf = type == PageType::kLeaf;
      Page page;
      NodeBuilder builder(page.bytes.data(), kPageSize, type, leaf ? 0 : 1, interval);
      std::vector<std::string> stored;
      uint8_t child[4];
      if (!leaf) stored.push_back("");  // an internal page's first key is empty
      for (const std::string& k : keys) stored.push_back(k);
      for (uint32_t i = 0; i < stored.size(); ++i) {
        EncodeFixed32(child, i);
        const EntryValue value =
            leaf ? Inline("v") : EntryValue{0, Slice(reinterpret_cast<char*>(child), 4)};
        if (!builder.Add(stored[i], value)) {
          stored.resize(i);
          break;
        }
      }
      builder.Finish();
      NodePage node = page.node();
      for (int probe = 0; probe < 50; ++probe) {
        // Targets inside the page's range (every key shares `prefix` with
        // them): stored keys, keys next to them, absent ones.
        std::string target = stored[1 + rng() % (stored.size() - 1)];
        if (probe % 3 == 1) target += static_cast<char>(rng() % 256);
        if (probe % 3 == 2) target = prefix + UrlKey(rng);
        const uint32_t known = static_cast<uint32_t>(rng() % (prefix.size() + 1));
        const SeekResult full = node.Seek(target);
        const SeekResult skipped = node.Seek(target, known);
        EXPECT_EQ(skipped.pos, full.pos) << target;
        EXPECT_EQ(skipped.exact, full.exact) << target;
        EXPECT_EQ(skipped.prev, full.prev) << target;
        if (leaf) continue;
        uint32_t bound = known;
        const uint32_t entry = node.FindChildEntry(target, &bound);
        EXPECT_EQ(entry, node.FindChildEntry(target)) << target;
        const uint32_t i = DecodeFixed32(node.Entry(entry).payload);
        // The child holds keys in [stored[i], stored[i + 1]); both ends (the
        // page's own bounds past its first and last entries) share `bound`
        // bytes with the target.
        const std::string low = i == 0 ? prefix : stored[i];
        const std::string high = i + 1 < stored.size() ? stored[i + 1] : prefix + "\xff";
        EXPECT_LE(bound, CommonPrefix(low, target)) << target;
        EXPECT_LE(bound, CommonPrefix(high, target)) << target;
        EXPECT_GE(bound, known) << target;
      }
    }
  }
}

TEST(NodePageTest, ShortestSeparatorSplitsTheTwoKeys) {
  EXPECT_EQ(ShortestSeparator("https://a.org/x/1", "https://a.org/y/0"), "https://a.org/y");
  EXPECT_EQ(ShortestSeparator("abc", "abcd"), "abcd");
  EXPECT_EQ(ShortestSeparator("", "a"), "a");
  std::mt19937_64 rng(3);
  for (int i = 0; i < 1000; ++i) {
    std::string a = UrlKey(rng), b = UrlKey(rng);
    if (a == b) continue;
    if (b < a) std::swap(a, b);
    std::string s = ShortestSeparator(a, b);
    EXPECT_LT(a, s);
    EXPECT_LE(s, b);
  }
}

TEST(NodePageTest, ValidatorRejectsDamagedPages) {
  Page page;
  NodeBuilder builder(page.bytes.data(), kPageSize, PageType::kLeaf, 0, 16);
  for (const char* k : {"alpha", "alphabet", "beta", "gamma"})
    ASSERT_TRUE(builder.Add(k, Inline("v")));
  builder.Finish();
  ASSERT_TRUE(ValidateNodePage(page.bytes.data(), kPageSize, 1).ok());

  Page out_of_order = page;
  // "beta" -> "aeta": now below "alphabet".
  NodePage node = out_of_order.node();
  SeekResult r = node.Seek("beta");
  EntryView e = node.Entry(r.pos);
  out_of_order.bytes[e.suffix - node.data()] = 'a';
  EXPECT_TRUE(ValidateNodePage(out_of_order.bytes.data(), kPageSize, 1).IsCorruption());

  Page bad_count = page;
  EncodeFixed16(bad_count.bytes.data() + kOffCount, 9);
  EXPECT_TRUE(ValidateNodePage(bad_count.bytes.data(), kPageSize, 1).IsCorruption());

  Page bad_end = page;
  EncodeFixed16(bad_end.bytes.data() + kOffDataEnd, kPageSize);
  EXPECT_TRUE(ValidateNodePage(bad_end.bytes.data(), kPageSize, 1).IsCorruption());

  Page bad_shared = page;
  // "alphabet" shares 5 bytes with "alpha"; claim 9 (longer than "alpha").
  node = bad_shared.node();
  r = node.Seek("alphabet");
  bad_shared.bytes[r.pos] = 9;
  EXPECT_TRUE(ValidateNodePage(bad_shared.bytes.data(), kPageSize, 1).IsCorruption());
}

// The walk rebuilds each key from the one before it to check the order of
// restart keys. Keys sharing a long prefix and differing in their last bytes,
// until the page takes no more: every restart key made equal to the key
// before it must be caught, which needs every byte of that key rebuilt
// exactly, and the untouched page must pass.
TEST(NodePageTest, ValidatorRebuildsLongKeysExactly) {
  for (size_t prefix_size : {13u, 16u, 31u, 47u, 200u}) {
    SCOPED_TRACE("prefix of " + std::to_string(prefix_size) + " bytes");
    const std::string prefix(prefix_size, 'p');
    Page page;
    NodeBuilder builder(page.bytes.data(), kPageSize, PageType::kLeaf, 0, 4);
    std::vector<std::string> keys;
    char digits[16];
    for (int i = 0;; ++i) {
      std::snprintf(digits, sizeof(digits), "%05d", i);
      if (!builder.Add(prefix + digits, Inline("v"))) break;
      keys.push_back(prefix + digits);
    }
    builder.Finish();
    ASSERT_GT(keys.size(), 8u);
    ASSERT_TRUE(ValidateNodePage(page.bytes.data(), kPageSize, 1).ok())
        << ValidateNodePage(page.bytes.data(), kPageSize, 1).ToString();
    NodePage node = page.node();
    for (size_t i = 1; i < keys.size(); ++i) {
      SeekResult r = node.Seek(keys[i]);
      ASSERT_TRUE(r.exact);
      if (!r.pos_is_restart) continue;
      Page duplicate = page;
      EntryView e = node.Entry(r.pos);
      // The restart's whole key: make its number the previous key's.
      std::memcpy(duplicate.bytes.data() + (e.suffix - node.data()) + prefix_size,
                  keys[i - 1].data() + prefix_size, 5);
      EXPECT_TRUE(ValidateNodePage(duplicate.bytes.data(), kPageSize, 1).IsCorruption())
          << "restart key " << i << " made equal to the key before it";
    }
  }
}

}  // namespace
}  // namespace pbtree
