// SortKeys against std::stable_sort, on keys made to hit its edge cases:
// long shared prefixes, keys ending at and around 8-byte boundaries, zero
// bytes (which the zero padding must not confuse), duplicates, and groups
// small and large.
#include "engines/pbtree/sort_keys.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace pbtree {
namespace {

void ExpectSortsLikeStableSort(const std::vector<std::string>& strings) {
  std::vector<Slice> keys(strings.begin(), strings.end());
  std::vector<uint32_t> expected(keys.size());
  for (uint32_t i = 0; i < expected.size(); ++i) expected[i] = i;
  std::stable_sort(expected.begin(), expected.end(),
                   [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
  std::vector<uint32_t> order;
  SortKeys(keys, &order);
  ASSERT_EQ(order.size(), expected.size());
  for (size_t i = 0; i < order.size(); ++i) {
    ASSERT_EQ(order[i], expected[i]) << "position " << i << ": got " << keys[order[i]]
                                     << ", expected " << keys[expected[i]];
  }
}

TEST(SortKeysTest, EmptyAndOne) {
  ExpectSortsLikeStableSort({});
  ExpectSortsLikeStableSort({"only"});
  ExpectSortsLikeStableSort({"", "", ""});
}

TEST(SortKeysTest, PrefixesZeroBytesAndWordBoundaries) {
  std::vector<std::string> keys;
  const std::string base = "https://www.example.org/dir/";  // 28 bytes
  for (size_t len = 0; len <= 40; ++len) {
    keys.push_back(base.substr(0, std::min(len, base.size())) +
                   std::string(len > base.size() ? len - base.size() : 0, 'x'));
    keys.push_back(std::string(len, '\0'));
    keys.push_back(std::string(len, '\0') + "a");
    keys.push_back(std::string(len, '\xff'));
  }
  keys.push_back(std::string("abcdefgh\0", 9));
  keys.push_back("abcdefgh");
  keys.push_back(std::string("abcdefg\0", 8));
  keys.push_back("abcdefg");
  std::mt19937_64 rng(1);
  std::shuffle(keys.begin(), keys.end(), rng);
  ExpectSortsLikeStableSort(keys);
}

TEST(SortKeysTest, RandomKeysWithSharedPrefixesAndDuplicates) {
  std::mt19937_64 rng(2);
  const char* prefixes[] = {"https://www.example.org/catalog/items/2024/06/",
                            "https://www.example.org/catalog/items/2024/07/",
                            "/usr/lib/python3/site-packages/numpy/core/", "", "a"};
  for (size_t n : {5u, 13u, 100u, 5000u, 70000u}) {
    std::vector<std::string> keys;
    for (size_t i = 0; i < n; ++i) {
      if (!keys.empty() && rng() % 10 == 0) {
        keys.push_back(keys[rng() % keys.size()]);  // a duplicate
        continue;
      }
      std::string k = prefixes[rng() % 5];
      const size_t extra = rng() % 20;
      for (size_t j = 0; j < extra; ++j) k.push_back("ab\0z"[rng() % 4]);
      keys.push_back(k);
    }
    ExpectSortsLikeStableSort(keys);
  }
}

}  // namespace
}  // namespace pbtree
