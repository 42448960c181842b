// YCSB's 64-bit FNV hash (site.ycsb.Utils.fnvhash64), used for YCSB keys
// (insertorder=hashed) and by ScrambledZipfianGenerator.
//
// Same arithmetic as YCSB's Java: FNV-1 over the 8 low-to-high bytes of the
// long, on signed 64-bit words that wrap, then Math.abs. Java's Math.abs of
// Long.MIN_VALUE stays negative, and so does this one.
#pragma once

#include <cstdint>

namespace kvbench::datasets {

inline constexpr int64_t YcsbFnvHash64(int64_t value) {
  constexpr uint64_t kOffsetBasis = 0xCBF29CE484222325ULL;
  constexpr uint64_t kPrime = 1099511628211ULL;
  uint64_t hash = kOffsetBasis;
  uint64_t v = static_cast<uint64_t>(value);
  for (int i = 0; i < 8; ++i) {
    hash ^= v & 0xff;
    hash *= kPrime;
    v >>= 8;  // Java's >> on a long is arithmetic, but only 8 low bytes are read
  }
  const int64_t h = static_cast<int64_t>(hash);
  return h < 0 && h != INT64_MIN ? -h : h;
}

}  // namespace kvbench::datasets
