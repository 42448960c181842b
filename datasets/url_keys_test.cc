// The `urls` and `paths` kinds against DESIGN.md's contract: seed 001's
// 142-byte average, distinct keys, front-coded ratio between 0.25 and 0.5,
// same bytes on every run and thread, absent keys never present.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "datasets/key_generator.h"
#include "datasets/key_stats.h"
#include "datasets/word_lists.h"

namespace kvbench::datasets {
namespace {

std::unique_ptr<KeyGenerator> MakeOrDie(const std::string& kind, uint64_t seed = 1,
                                        ParamMap params = {}, uint64_t count = 0) {
  DatasetSpec spec;
  spec.kind = kind;
  spec.seed = seed;
  spec.params = std::move(params);
  spec.count = count;
  std::unique_ptr<KeyGenerator> g;
  const Status s = NewKeyGenerator(spec, &g);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return g;
}

// FNV-1a over keys [begin, end) with a stride: a fingerprint of many keys.
uint64_t Fingerprint(const KeyGenerator& g, uint64_t begin, uint64_t end, uint64_t stride = 1) {
  uint64_t h = 0xcbf29ce484222325ULL;
  std::string key;
  for (uint64_t i = begin; i < end; i += stride) {
    g.Key(i, &key);
    for (unsigned char c : key) h = (h ^ c) * 0x100000001b3ULL;
    h = (h ^ 0xff) * 0x100000001b3ULL;  // key separator
  }
  return h;
}

TEST(UrlKeysTest, MillionKeysHaveSeed001Statistics) {
  auto g = MakeOrDie("urls");
  ASSERT_EQ(g->count(), 1000000u);
  const KeySetStats stats = ComputeKeySetStats(*g, g->count());
  EXPECT_EQ(stats.count, 1000000u);
  EXPECT_EQ(stats.distinct, 1000000u);
  EXPECT_NEAR(stats.average_length, 142.0, 3.0);
  EXPECT_GT(stats.front_coded_ratio, 0.25);
  EXPECT_LT(stats.front_coded_ratio, 0.5);
  EXPECT_LE(stats.max_length, g->max_length());
  EXPECT_GE(stats.min_length, 40u);
}

TEST(UrlKeysTest, SameBytesOnEveryRun) {
  auto g = MakeOrDie("urls");
  std::string key;
  // Golden values: if these change, every stored dataset and published figure
  // built from `urls` changes too. Change them only with a format change.
  g->Key(0, &key);
  EXPECT_EQ(key,
            "https://www.oasis.nl/help/2001/11/market-laptop-course/program/"
            "science-complete-plan-performance-forecast-0.cgi");
  g->Key(123456, &key);
  EXPECT_EQ(key,
            "/export/home/ivan/packages/comet/portfolio_printer/college/interview/"
            "kernel_channel/summer_data_west_game_bright_of_with_123456.xml");
  EXPECT_EQ(Fingerprint(*g, 0, 1000000, 97), 0x652d8f1b0f0a0d45ULL);
}

TEST(UrlKeysTest, SameBytesFromEveryThread) {
  auto g = MakeOrDie("urls");
  constexpr uint64_t kKeys = 200000;
  constexpr int kThreads = 4;
  const uint64_t expected = Fingerprint(*g, 0, kKeys);
  // Each thread makes every key, in its own order (a multiplier coprime with
  // kKeys and an offset), and fingerprints them in index order.
  constexpr uint64_t kMultipliers[kThreads] = {1, 3, 7, 9};
  std::vector<uint64_t> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::vector<std::string> keys(kKeys);
      for (uint64_t k = 0; k < kKeys; ++k) {
        const uint64_t i = (k * kMultipliers[t] + t * 7919) % kKeys;
        g->Key(i, &keys[i]);
      }
      uint64_t h = 0xcbf29ce484222325ULL;
      for (const std::string& key : keys) {
        for (unsigned char c : key) h = (h ^ c) * 0x100000001b3ULL;
        h = (h ^ 0xff) * 0x100000001b3ULL;
      }
      got[t] = h;
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(got[t], expected) << "thread " << t;
}

TEST(UrlKeysTest, KeyDoesNotDependOnCount) {
  auto small = MakeOrDie("urls", 1, {}, 1000);
  auto large = MakeOrDie("urls", 1, {}, 5000000);
  EXPECT_EQ(Fingerprint(*small, 0, 1000), Fingerprint(*large, 0, 1000));
}

TEST(UrlKeysTest, DifferentSeedGivesDifferentSet) {
  auto a = MakeOrDie("urls", 1);
  auto b = MakeOrDie("urls", 2);
  std::unordered_set<std::string> set_a;
  std::string key;
  for (uint64_t i = 0; i < 20000; ++i) {
    a->Key(i, &key);
    set_a.insert(key);
  }
  uint64_t shared = 0;
  for (uint64_t i = 0; i < 20000; ++i) {
    b->Key(i, &key);
    shared += set_a.count(key);
  }
  EXPECT_EQ(shared, 0u);
}

TEST(UrlKeysTest, AbsentKeysAreNeverPresent) {
  auto g = MakeOrDie("urls");
  constexpr uint64_t kKeys = 200000;
  std::unordered_set<std::string> present;
  std::string key;
  for (uint64_t i = 0; i < kKeys; ++i) {
    g->Key(i, &key);
    present.insert(key);
  }
  for (uint64_t j = 0; j < kKeys; ++j) {
    g->AbsentKey(j, &key);
    ASSERT_EQ(present.count(key), 0u) << key;
    ASSERT_LE(key.size(), g->max_length());
  }
  // Absent keys sort next to present ones: same directory as Key(j).
  std::string present_key;
  g->Key(42, &present_key);
  g->AbsentKey(42, &key);
  EXPECT_EQ(key.substr(0, key.rfind('.')), present_key.substr(0, present_key.rfind('.')));
}

TEST(UrlKeysTest, KeysMixUrlsAndPathsWithUnsharedTail) {
  auto g = MakeOrDie("urls");
  std::string key;
  int urls = 0, paths = 0;
  for (uint64_t i = 0; i < 100000; i += 16) {
    g->Key(i, &key);
    if (key.starts_with("http://") || key.starts_with("https://")) {
      ++urls;
    } else {
      ASSERT_EQ(key[0], '/') << key;
      ++paths;
    }
    // The index is the digit run before the extension.
    const size_t dot = key.rfind('.');
    size_t start = dot;
    while (start > 0 && std::isdigit(static_cast<unsigned char>(key[start - 1]))) --start;
    EXPECT_EQ(key.substr(start, dot - start), std::to_string(i)) << key;
  }
  EXPECT_GT(urls, 100);
  EXPECT_GT(paths, 100);
}

TEST(UrlKeysTest, PathsKindHasOnlyPaths) {
  auto g = MakeOrDie("paths");
  std::string key;
  for (uint64_t i = 0; i < 20000; i += 7) {
    g->Key(i, &key);
    ASSERT_EQ(key[0], '/') << key;
    ASSERT_EQ(key.find("://"), std::string::npos) << key;
  }
  const KeySetStats stats = ComputeKeySetStats(*g, 100000);
  EXPECT_NEAR(stats.average_length, 142.0, 3.0);
  EXPECT_EQ(stats.distinct, 100000u);
}

TEST(UrlKeysTest, ParametersShapeLengthAndSharing) {
  const KeySetStats longer =
      ComputeKeySetStats(*MakeOrDie("urls", 1, {{"avg_length", "300"}}), 100000);
  EXPECT_NEAR(longer.average_length, 300.0, 6.0);
  const KeySetStats less_shared =
      ComputeKeySetStats(*MakeOrDie("urls", 1, {{"shared_fraction", "0.3"}}), 100000);
  const KeySetStats default_shared = ComputeKeySetStats(*MakeOrDie("urls"), 100000);
  EXPECT_GT(less_shared.front_coded_ratio, default_shared.front_coded_ratio + 0.1);
  EXPECT_NEAR(less_shared.average_length, 142.0, 3.0);
}

TEST(UrlKeysTest, BadParametersAreRejected) {
  DatasetSpec spec;
  spec.kind = "urls";
  std::unique_ptr<KeyGenerator> g;
  spec.params = {{"avg_length", "10"}};
  Status s = NewKeyGenerator(spec, &g);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("avg_length"), std::string::npos) << s.message();
  spec.params = {{"url_fraction", "0.5"}};
  spec.kind = "paths";
  s = NewKeyGenerator(spec, &g);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("unknown option 'url_fraction'"), std::string::npos) << s.message();
}

// The word-list contract url_keys.cc relies on for distinct and absent keys.
TEST(UrlKeysTest, WordListsKeepTheirContract) {
  std::set<size_t> slug_lengths;
  for (uint32_t i = 0; i < words::kSlugWords.size; ++i) {
    const std::string_view w = words::kSlugWords[i];
    ASSERT_LE(w.size(), words::kMaxSlugWordLength) << w;
    for (char c : w) ASSERT_TRUE(c >= 'a' && c <= 'z') << w;
    slug_lengths.insert(w.size());
  }
  for (size_t n = 1; n <= words::kMaxSlugWordLength; ++n) EXPECT_EQ(slug_lengths.count(n), 1u) << n;
  std::set<std::string_view> present;
  for (const words::WordList* list : {&words::kUrlExtensions, &words::kPathExtensions}) {
    for (uint32_t i = 0; i < list->size; ++i) {
      for (char c : (*list)[i]) ASSERT_TRUE(c >= 'a' && c <= 'z') << (*list)[i];
      present.insert((*list)[i]);
    }
  }
  for (uint32_t i = 0; i < words::kAbsentExtensions.size; ++i) {
    EXPECT_EQ(present.count(words::kAbsentExtensions[i]), 0u) << words::kAbsentExtensions[i];
  }
  // Every word fits the 16-byte slots url_keys.cc copies.
  for (const words::WordList* list :
       {&words::kHostNames, &words::kTopLevelDomains, &words::kSubdomains, &words::kUrlSections,
        &words::kPathRoots, &words::kUserNames, &words::kPathSections, &words::kTopics,
        &words::kSlugWords, &words::kUrlExtensions, &words::kPathExtensions,
        &words::kAbsentExtensions}) {
    for (uint32_t i = 0; i < list->size; ++i) EXPECT_LE((*list)[i].size(), 16u);
  }
}

}  // namespace
}  // namespace kvbench::datasets
