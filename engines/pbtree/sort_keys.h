// Sorting byte-string keys that share long prefixes (the put buffer's).
//
// A comparison sort of URL-like keys compares ~70 shared bytes per step.
// Here (multikey quicksort, Bentley and Sedgewick, with 15-byte characters)
// keys are partitioned by their next 15 bytes at a depth, compared as one
// big-endian integer so that integer order is byte order, and only the keys
// equal to the pivot there go on to the next 15 bytes: each shared byte is
// read about once per key instead of once per comparison.
#pragma once

#include <cstdint>
#include <vector>

#include "engines/pbtree/status.h"

namespace pbtree {

// Sets *order to the indexes of `keys` sorted by unsigned byte order, equal
// keys by index (so the last of equal keys comes last). Keys up to 4 GiB; at
// most 2^32 - 1 of them.
void SortKeys(const std::vector<Slice>& keys, std::vector<uint32_t>* order);

}  // namespace pbtree
