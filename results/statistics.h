// The statistics behind every figure's uncertainty and every comparison.
//
// Confidence interval of a median: distribution-free, from order statistics.
// For n sorted repetitions x(1) <= ... <= x(n), [x(k), x(n+1-k)] covers the
// true median with probability 1 - 2 * P(Binomial(n, 1/2) < k). We take the
// narrowest such interval whose coverage reaches the level asked for; when
// even [min, max] does not (n = 5 gives at most 93.75%), the interval is
// [min, max] and its achieved level is reported as it is, never rounded up.
// Below n = 2 there is no interval.
//
// Comparison of two sets of repetitions: the Mann-Whitney U test, two-sided,
// exact (by counting) when both sides have at most 20 values and no ties,
// else the normal approximation with a tie correction.
#pragma once

#include <optional>
#include <vector>

namespace kvbench::results {

struct Interval {
  double low = 0;
  double high = 0;
  double level = 0;  // the coverage achieved, e.g. 0.9375
};

// `values` need not be sorted. Empty when values.size() < 2.
std::optional<Interval> MedianInterval(std::vector<double> values, double level = 0.95);

// Two-sided p-value that `a` and `b` come from one distribution. 1 when a
// side is empty.
double MannWhitneyP(const std::vector<double>& a, const std::vector<double>& b);

// The share of the variance of `values` that lies between groups (eta
// squared: the sum of squares of the group means about the grand mean,
// weighted by group size, over the total sum of squares). `group[i]` is
// values[i]'s group (a fork). Empty unless there are at least two groups and
// some group has two values (else within-group variance is unseen), or when
// all values are equal.
std::optional<double> BetweenGroupShare(const std::vector<double>& values,
                                        const std::vector<int>& group);

// A monotone trend across repetitions in the order they ran (the
// Mann-Kendall test): s = the sum over pairs i < j of sign(x[j] - x[i]),
// > 0 rising; p two-sided under "no trend" (every order equally likely).
// Exact without ties (the distribution of s counted over permutations, from
// the numbers of permutations with k inversions), else the normal
// approximation with the tie correction. With 5 repetitions only a strictly
// monotone order reaches p < 0.05 (p = 2/120 = 0.017).
struct Trend {
  int s = 0;
  double p = 1;
};
// Empty below 3 values.
std::optional<Trend> MannKendall(const std::vector<double>& in_order);

}  // namespace kvbench::results
