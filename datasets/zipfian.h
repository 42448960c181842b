// YCSB's zipfian generators, with YCSB's math (site.ycsb.generator,
// release 0.17.0), driven by our own PRNG.
//
// ZipfianGenerator is Jim Gray et al.'s method ("Quickly Generating
// Billion-Record Synthetic Databases", SIGMOD 1994) as YCSB implements it:
//   zetan = sum_{i=1..n} 1/i^theta, zeta2theta = 1 + 1/2^theta,
//   alpha = 1/(1-theta), eta = (1 - (2/items)^(1-theta)) / (1 - zeta2theta/zetan)
//   u uniform in [0,1): uz = u*zetan
//     uz < 1                -> base
//     uz < 1 + 0.5^theta    -> base + 1
//     otherwise             -> base + (long)(itemcount * (eta*u - eta + 1)^alpha)
// Item `base` is the most popular, base+1 the next, and so on. NextLong with a
// larger itemcount than before extends zetan incrementally; with a smaller one
// it keeps zetan (YCSB's allowitemcountdecrease=false). Like YCSB, eta is
// recomputed from the constructor's item count, not the new one.
//
// ScrambledZipfianGenerator draws from a ZipfianGenerator over
// [0, 10,000,000,000] with zetan = 26.46902820178302 (YCSB's precomputed
// constants for theta 0.99; a later YCSB master raised the item count to 1e16
// but kept this zetan, which no longer matches it) and returns
// min + fnvhash64(value) % itemcount, which scatters the popular items.
//
// Thread-safety: a generator is used by one thread at a time (its zetan may
// change). Zeta() is thread-safe.
#pragma once

#include <cstdint>

#include "datasets/random.h"

namespace kvbench::datasets {

inline constexpr double kZipfianConstant = 0.99;
inline constexpr uint64_t kScrambledZipfianItemCount = 10000000000ULL;
inline constexpr double kScrambledZipfianZetan = 26.46902820178302;

// sum_{i=st+1..n} 1/i^theta + initial_sum (YCSB's zetastatic), summed term by
// term in YCSB's order.
double ZetaSum(uint64_t st, uint64_t n, double theta, double initial_sum);

// zeta(n, theta), memoised for the process (threads share one computation):
// summed exactly as YCSB up to 2^25 items; above, the Euler-Maclaurin formula
// (relative error below 1e-12) instead of minutes of summation.
double Zeta(uint64_t n, double theta);

class ZipfianGenerator {
 public:
  // Items [min, max], zetan computed (memoised) for max - min + 1 items.
  ZipfianGenerator(uint64_t min, uint64_t max, double theta = kZipfianConstant);
  // With a precomputed zetan, as YCSB's 4-argument constructor.
  ZipfianGenerator(uint64_t min, uint64_t max, double theta, double zetan);

  // The next item of the constructor's item count.
  uint64_t Next(Rng* rng) { return NextLong(items_, rng->NextDouble()); }
  // YCSB's nextLong(itemcount) with the uniform draw `u` in [0, 1) supplied.
  uint64_t NextLong(uint64_t itemcount, double u);
  // The item for draw `u` with the constructor's item count. Const (zetan never
  // changes on this path), so one generator can serve many threads.
  uint64_t ItemFor(double u) const { return Draw(items_, u); }

  uint64_t items() const { return items_; }
  double zetan() const { return zetan_; }
  double theta() const { return theta_; }

 private:
  uint64_t Draw(uint64_t itemcount, double u) const;

  uint64_t items_;
  uint64_t base_;
  double theta_;
  double zeta2theta_;
  double alpha_;
  double zetan_;
  double eta_;
  uint64_t count_for_zeta_;
};

class ScrambledZipfianGenerator {
 public:
  // Items [min, max]. theta other than 0.99 computes zeta for 1e10 items with
  // the Euler-Maclaurin formula (YCSB sums it, which takes minutes).
  ScrambledZipfianGenerator(uint64_t min, uint64_t max, double theta = kZipfianConstant);

  uint64_t Next(Rng* rng);

  uint64_t item_count() const { return item_count_; }

 private:
  uint64_t min_;
  uint64_t item_count_;
  ZipfianGenerator gen_;
};

}  // namespace kvbench::datasets
