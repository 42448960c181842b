// Statistics of a key set: count, distinct count, lengths and the
// front-coded ratio, as `kvbench gen --stats` prints them and the tests assert.
//
// Front-coded ratio: sort the distinct keys in unsigned byte order and store
// each as (shared prefix length with the previous key, unshared suffix length,
// unshared suffix bytes) with the two lengths costing
// kFrontCodingOverheadBytes together (one byte each, as LevelDB's varints for
// lengths below 128). The ratio is
//   sum(len(k) - shared(k, previous) + kFrontCodingOverheadBytes) / sum(len(k))
// over the distinct keys: what prefix compression alone (no restarts, no
// entropy coding) would keep. Random strings give about 1.0; keys sharing
// long prefixes give much less.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "datasets/key_generator.h"

namespace kvbench::datasets {

inline constexpr uint64_t kFrontCodingOverheadBytes = 2;

struct KeySetStats {
  uint64_t count = 0;         // keys examined, duplicates included
  uint64_t distinct = 0;      // different keys among them
  double average_length = 0;  // over all `count` keys
  uint64_t min_length = 0;
  uint64_t max_length = 0;
  uint64_t distinct_bytes = 0;     // sum of the distinct keys' lengths
  uint64_t front_coded_bytes = 0;  // their front-coded size, defined above
  double front_coded_ratio = 0;    // front_coded_bytes / distinct_bytes (0 when empty)
};

// Statistics of `keys`, which this sorts in place. The views must stay valid
// during the call.
KeySetStats ComputeKeySetStats(std::vector<std::string_view>* keys);

// Statistics of keys [0, count) of `generator` (absent keys [0, count) when
// `absent`). Holds every key in memory: about count x (average length + 16)
// bytes.
KeySetStats ComputeKeySetStats(const KeyGenerator& generator, uint64_t count, bool absent = false);

}  // namespace kvbench::datasets
