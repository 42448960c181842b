// Change-point detection for a series of figures in run order: E-divisive
// with means (Matteson & James, "A Nonparametric Approach for Multiple Change
// Point Analysis of Multivariate Data", JASA 2014), as MongoDB's performance
// team applies it to benchmark series (Daly et al., ICPE 2020; the `hunter`
// tool follows them).
//
// The divergence between two samples X (size p) and Y (size q) is the
// energy statistic with alpha = 1:
//
//   E(X, Y) = 2/(p q) sum|x - y| - 1/C(p,2) sum_{i<j}|x_i - x_j| - 1/C(q,2) sum_{i<j}|y_i - y_j|
//   Q(X, Y) = p q / (p + q) * E(X, Y)
//
// A segment z[a..b) is split at the tau that maximises Q(z[a..tau), z[tau..b))
// (the right end kappa fixed at the segment's end, as MongoDB's and hunter's
// implementations do). Divisive: the best split over all current segments is
// tested; when significant it is kept, its segment becomes two, and the search
// goes on; the first split that is not significant ends it.
//
// Significance: a permutation test. The values of every current segment are
// shuffled within the segment, the largest Q over all segments is recomputed,
// and the p-value is (1 + #{permuted Q >= observed Q}) / (1 + permutations).
// A split is kept when p <= max_p_value. The shuffles come from a seeded
// generator, so the same series always gives the same answer.
//
// Cost: Q for every tau of a segment of m points takes O(m log m) (prefix and
// suffix sums of |x_i - x_j| kept with Fenwick trees over value ranks), so one
// permutation of a whole series of n points costs O(n log n).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kvbench::results {

struct ChangePointOptions {
  // Behaviour.
  // A split is kept when its permutation p-value is at most this. 0.01 keeps
  // false changes in flat series near 1 in 100 series (bench/change_point_rates.sh).
  double max_p_value = 0.01;
  // Shuffles per test; with 199 the smallest p-value is 1/200 = 0.005.
  int permutations = 199;
  // Points on each side of a change, at least: 3 lets a regression show after
  // three runs, at the cost of less certainty about short segments.
  int min_segment = 3;
  // Seed of the shuffles: fixed, so reruns agree.
  uint64_t seed = 1;
};

struct ChangePoint {
  size_t index = 0;      // first point of the new segment (1 <= index < n)
  double statistic = 0;  // Q at the split
  double p_value = 1;    // of the permutation test that kept it
};

// Empty string when the options are usable, else what is wrong with them
// ("permutations must be at least 19...").
std::string CheckChangePointOptions(const ChangePointOptions& options);

// The significant change points of `series`, sorted by index. Non-finite
// values must not be passed. A series shorter than 2 * min_segment has none.
std::vector<ChangePoint> FindChangePoints(const std::vector<double>& series,
                                          const ChangePointOptions& options = {});

// Q(z[0..tau), z[tau..m)) for every tau in [0, m] (0 where a side is empty),
// computed directly from the definition in O(m^2). Exposed for tests, which
// hold the fast path to it.
std::vector<double> DivergenceBySplitNaive(const std::vector<double>& segment);
// The same, by the O(m log m) path FindChangePoints uses.
std::vector<double> DivergenceBySplit(const std::vector<double>& segment);

}  // namespace kvbench::results
