// A pseudo-random bijection on [0, n) computed in O(1) without a table, so a
// load phase can insert keys 0..n-1 in a random order (or several threads can
// share one shuffled order) at no memory cost.
//
// A 4-round Feistel network on the smallest even number of bits covering n,
// keyed by the seed, with cycle walking: values that land outside [0, n) are
// permuted again until they land inside (on average fewer than 4 times).
//
// Thread-safety: immutable; operator() is const and safe from many threads.
#pragma once

#include <cstdint>

#include "datasets/random.h"

namespace kvbench::datasets {

class IndexPermutation {
 public:
  // Requires n >= 1.
  IndexPermutation(uint64_t n, uint64_t seed) : n_(n) {
    int bits = 2;
    while (bits < 64 && (uint64_t{1} << bits) < n) bits += 2;
    half_bits_ = bits / 2;
    half_mask_ = half_bits_ == 32 ? 0xffffffffULL : (uint64_t{1} << half_bits_) - 1;
    for (int r = 0; r < kRounds; ++r) round_keys_[r] = HashOf(seed, 0x7065726dULL, r);
  }

  // The position of `index` (< n) in the permuted order, in [0, n).
  uint64_t operator()(uint64_t index) const {
    uint64_t x = index;
    do {
      x = Encrypt(x);
    } while (x >= n_);
    return x;
  }

  uint64_t size() const { return n_; }

 private:
  static constexpr int kRounds = 4;

  uint64_t Encrypt(uint64_t x) const {
    uint64_t left = x >> half_bits_;
    uint64_t right = x & half_mask_;
    for (int r = 0; r < kRounds; ++r) {
      const uint64_t f = Mix64(right ^ round_keys_[r]) & half_mask_;
      const uint64_t next_right = left ^ f;
      left = right;
      right = next_right;
    }
    return (left << half_bits_) | right;
  }

  uint64_t n_;
  int half_bits_ = 1;
  uint64_t half_mask_ = 1;
  uint64_t round_keys_[kRounds];
};

}  // namespace kvbench::datasets
