// Deterministic pseudo-random numbers for the dataset generators.
//
// Two tools, both pure integer arithmetic so that every CPU and compiler gives
// the same bytes:
// - Mix64 / HashOf: stateless hashing of (seed, tag, index) tuples. Generators
//   that must make item i in O(1) (keys, values, records) draw all of item i's
//   randomness from HashOf(seed, tag, i), never from a shared sequence.
// - Rng: xoshiro256** (Blackman & Vigna), seeded through splitmix64. Used by
//   request distributions, which are sequences; one Rng per thread.
//
// Thread-safety: the functions are pure; an Rng is not thread-safe (one per
// thread).
#pragma once

#include <cstdint>

namespace kvbench::datasets {

// splitmix64's finaliser: a bijection on 64-bit words with good avalanche.
inline constexpr uint64_t Mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

inline constexpr uint64_t kGolden64 = 0x9e3779b97f4a7c15ULL;

// Hash of a (seed, tag, index) tuple. `tag` separates the uses of one seed
// (host names, file names, value bytes...) so they are independent.
// HashOf(seed, tag, i) == HashKeyed(KeyedSeed(seed, tag), i); hot loops
// compute KeyedSeed once.
inline constexpr uint64_t KeyedSeed(uint64_t seed, uint64_t tag) {
  return Mix64(seed ^ Mix64(tag + kGolden64));
}
inline constexpr uint64_t HashKeyed(uint64_t keyed_seed, uint64_t index) {
  return Mix64(keyed_seed + index * kGolden64);
}
inline constexpr uint64_t HashOf(uint64_t seed, uint64_t tag, uint64_t index) {
  return HashKeyed(KeyedSeed(seed, tag), index);
}

// A uniform integer in [0, n) from 32 random bits (Lemire's multiply-shift;
// the bias is below 2^-32 * n, invisible for the table sizes it serves).
inline constexpr uint32_t FastRange32(uint64_t random_bits, uint32_t n) {
  return static_cast<uint32_t>(((random_bits & 0xffffffffULL) * n) >> 32);
}

// A double in [0, 1) with 53 random bits.
inline constexpr double UnitDouble(uint64_t random_bits) {
  return static_cast<double>(random_bits >> 11) * 0x1.0p-53;
}

// A short stream of random words derived from one hash: item i's generator
// seeds one with HashOf(...) and draws as many words as it needs.
class HashStream {
 public:
  explicit constexpr HashStream(uint64_t seed) : state_(seed) {}
  constexpr uint64_t Next() {
    state_ += kGolden64;
    return Mix64(state_);
  }

 private:
  uint64_t state_;
};

// xoshiro256**: fast, 256-bit state, passes BigCrush. Deterministic for a seed.
class Rng {
 public:
  explicit Rng(uint64_t seed) {
    uint64_t x = seed;
    for (uint64_t& word : s_) {
      x += kGolden64;
      word = Mix64(x);
    }
  }

  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }

  // Uniform double in [0, 1).
  double NextDouble() { return UnitDouble(Next()); }

  // Exactly uniform integer in [0, n), n > 0 (Lemire's method with rejection).
  uint64_t Uniform(uint64_t n) {
    unsigned __int128 m = static_cast<unsigned __int128>(Next()) * n;
    uint64_t low = static_cast<uint64_t>(m);
    if (low < n) {
      const uint64_t threshold = -n % n;
      while (low < threshold) {
        m = static_cast<unsigned __int128>(Next()) * n;
        low = static_cast<uint64_t>(m);
      }
    }
    return static_cast<uint64_t>(m >> 64);
  }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace kvbench::datasets
