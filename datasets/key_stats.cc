#include "datasets/key_stats.h"

#include <algorithm>
#include <string>

namespace kvbench::datasets {

KeySetStats ComputeKeySetStats(std::vector<std::string_view>* keys) {
  KeySetStats stats;
  stats.count = keys->size();
  if (keys->empty()) return stats;
  uint64_t total_length = 0;
  stats.min_length = UINT64_MAX;
  for (std::string_view k : *keys) {
    total_length += k.size();
    stats.min_length = std::min<uint64_t>(stats.min_length, k.size());
    stats.max_length = std::max<uint64_t>(stats.max_length, k.size());
  }
  stats.average_length = static_cast<double>(total_length) / static_cast<double>(keys->size());

  // std::string_view compares through char_traits<char>, which orders bytes as
  // unsigned char: the order of ordered engines.
  std::sort(keys->begin(), keys->end());
  std::string_view previous;
  bool first = true;
  for (std::string_view k : *keys) {
    if (!first && k == previous) continue;
    size_t shared = 0;
    if (!first) {
      const size_t limit = std::min(k.size(), previous.size());
      while (shared < limit && k[shared] == previous[shared]) ++shared;
    }
    ++stats.distinct;
    stats.distinct_bytes += k.size();
    stats.front_coded_bytes += k.size() - shared + kFrontCodingOverheadBytes;
    previous = k;
    first = false;
  }
  stats.front_coded_ratio = stats.distinct_bytes == 0
                                ? 0.0
                                : static_cast<double>(stats.front_coded_bytes) /
                                      static_cast<double>(stats.distinct_bytes);
  return stats;
}

KeySetStats ComputeKeySetStats(const KeyGenerator& generator, uint64_t count, bool absent) {
  // One arena for every key: far fewer allocations than a string per key.
  std::string arena;
  std::vector<uint64_t> ends;
  ends.reserve(count);
  std::string key;
  key.reserve(generator.max_length());
  for (uint64_t i = 0; i < count; ++i) {
    if (absent) {
      generator.AbsentKey(i, &key);
    } else {
      generator.Key(i, &key);
    }
    arena += key;
    ends.push_back(arena.size());
  }
  std::vector<std::string_view> views;
  views.reserve(count);
  uint64_t start = 0;
  for (uint64_t end : ends) {
    views.emplace_back(arena.data() + start, end - start);
    start = end;
  }
  return ComputeKeySetStats(&views);
}

}  // namespace kvbench::datasets
