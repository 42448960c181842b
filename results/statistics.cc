#include "results/statistics.h"

#include "results/results.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <utility>
#include <map>

namespace kvbench::results {

namespace {

// P(Binomial(n, 1/2) <= k).
double BinomialHalfCdf(int n, int k) {
  if (k < 0) return 0;
  if (k >= n) return 1;
  double sum = 0;
  double term = std::pow(0.5, n);  // C(n, 0) / 2^n
  for (int i = 0; i <= k; ++i) {
    sum += term;
    term = term * (n - i) / (i + 1);
  }
  return std::min(1.0, sum);
}

double NormalCdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

// The sizes of the groups of equal values among `values` (1 for a value
// with no tie), for the tie corrections of the rank tests.
std::vector<double> TieGroupSizes(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  std::vector<double> sizes;
  for (size_t i = 0; i < values.size();) {
    size_t j = i;
    while (j < values.size() && values[j] == values[i]) ++j;
    sizes.push_back(static_cast<double>(j - i));
    i = j;
  }
  return sizes;
}

}  // namespace

std::optional<Interval> MedianInterval(std::vector<double> values, double level) {
  const int n = static_cast<int>(values.size());
  if (n < 2) return std::nullopt;
  std::sort(values.begin(), values.end());
  // Largest k (1-based) whose interval [x(k), x(n+1-k)] still reaches `level`.
  int best = 1;
  for (int k = 1; 2 * k <= n + 1; ++k) {
    const double coverage = 1 - 2 * BinomialHalfCdf(n, k - 1);
    if (coverage >= level) best = k;
  }
  Interval ci;
  ci.low = values[static_cast<size_t>(best - 1)];
  ci.high = values[static_cast<size_t>(n - best)];
  ci.level = 1 - 2 * BinomialHalfCdf(n, best - 1);
  return ci;
}

std::optional<double> BetweenGroupShare(const std::vector<double>& values,
                                        const std::vector<int>& group) {
  if (values.size() != group.size() || values.empty()) return std::nullopt;
  std::map<int, std::pair<double, size_t>> sums;  // group -> (sum, count)
  double total = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    sums[group[i]].first += values[i];
    ++sums[group[i]].second;
    total += values[i];
  }
  const bool some_pair = std::any_of(sums.begin(), sums.end(),
                                     [](const auto& g) { return g.second.second >= 2; });
  if (sums.size() < 2 || !some_pair) return std::nullopt;
  const double grand = total / static_cast<double>(values.size());
  double ss_total = 0, ss_between = 0;
  for (double v : values) ss_total += (v - grand) * (v - grand);
  for (const auto& [g, sc] : sums) {
    const double mean = sc.first / static_cast<double>(sc.second);
    ss_between += static_cast<double>(sc.second) * (mean - grand) * (mean - grand);
  }
  if (ss_total <= 0) return std::nullopt;
  return std::clamp(ss_between / ss_total, 0.0, 1.0);
}

double MannWhitneyP(const std::vector<double>& a, const std::vector<double>& b) {
  const size_t na = a.size(), nb = b.size();
  if (na == 0 || nb == 0) return 1;
  // U = pairs (x in a, y in b) with x > y, ties counting one half.
  double u = 0;
  bool ties = false;
  for (double x : a) {
    for (double y : b) {
      if (x > y) u += 1;
      else if (x == y) {
        u += 0.5;
        ties = true;
      }
    }
  }
  const double mean = static_cast<double>(na * nb) / 2;
  if (!ties && na <= 20 && nb <= 20) {
    // Exact: count(m, n, u) = arrangements of m a-values and n b-values with
    // statistic u, by the recurrence c(m,n,u) = c(m-1,n,u-n) + c(m,n-1,u).
    const size_t max_u = na * nb;
    std::vector<std::vector<double>> prev(nb + 1, std::vector<double>(max_u + 1, 0));
    for (size_t j = 0; j <= nb; ++j) prev[j][0] = 1;  // m = 0
    for (size_t m = 1; m <= na; ++m) {
      std::vector<std::vector<double>> cur(nb + 1, std::vector<double>(max_u + 1, 0));
      cur[0][0] = 1;
      for (size_t j = 1; j <= nb; ++j) {
        for (size_t v = 0; v <= m * j; ++v) {
          double c = cur[j - 1][v];
          if (v >= j) c += prev[j][v - j];
          cur[j][v] = c;
        }
      }
      prev = std::move(cur);
    }
    double total = 0;
    for (double c : prev[nb]) total += c;
    // Two-sided: the probability of a U at least as far from the mean.
    const double distance = std::fabs(u - mean);
    double tail = 0;
    for (size_t v = 0; v <= max_u; ++v) {
      if (std::fabs(static_cast<double>(v) - mean) >= distance - 1e-9) tail += prev[nb][v];
    }
    return std::min(1.0, tail / total);
  }
  // Normal approximation with the tie correction of the variance.
  std::vector<double> all(a);
  all.insert(all.end(), b.begin(), b.end());
  double tie_term = 0;
  for (const double t : TieGroupSizes(std::move(all))) tie_term += t * t * t - t;
  const double n = static_cast<double>(na + nb);
  const double variance =
      static_cast<double>(na * nb) / 12 * ((n + 1) - tie_term / (n * (n - 1)));
  if (variance <= 0) return 1;
  const double z = (std::fabs(u - mean) - 0.5) / std::sqrt(variance);  // continuity correction
  return std::min(1.0, 2 * (1 - NormalCdf(std::max(0.0, z))));
}

Spread SpreadOfValues(std::vector<double> values, double level) {
  Spread s;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  s.n = static_cast<int>(n);
  s.min = values.front();
  s.max = values.back();
  s.median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  s.ci = MedianInterval(values, level);
  s.values = std::move(values);
  return s;
}

std::optional<Trend> MannKendall(const std::vector<double>& x) {
  const int n = static_cast<int>(x.size());
  if (n < 3) return std::nullopt;
  Trend t;
  bool ties = false;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      t.s += (x[j] > x[i]) - (x[j] < x[i]);
      ties = ties || x[j] == x[i];
    }
  }
  const int pairs = n * (n - 1) / 2;
  if (!ties && n <= 60) {
    // P(k inversions) for permutations of 1..m, built up m by m: the m-th
    // element adds 0..m-1 inversions, each equally likely.
    std::vector<double> dist{1.0};
    for (int m = 2; m <= n; ++m) {
      std::vector<double> next(dist.size() + m - 1, 0.0);
      for (size_t k = 0; k < dist.size(); ++k) {
        for (int add = 0; add < m; ++add) next[k + add] += dist[k] / m;
      }
      dist = std::move(next);
    }
    // s = pairs - 2 * inversions; |s| at least as far out: inversions at
    // most (pairs - |s|) / 2, doubled by symmetry.
    const int d_max = (pairs - std::abs(t.s)) / 2;
    double tail = 0;
    for (int k = 0; k <= d_max; ++k) tail += dist[k];
    t.p = std::min(1.0, 2 * tail);
    return t;
  }
  double tie_term = 0;
  for (const double g : TieGroupSizes(x)) tie_term += g * (g - 1) * (2 * g + 5);
  const double var = (static_cast<double>(n) * (n - 1) * (2 * n + 5) - tie_term) / 18;
  if (var <= 0) return t;  // every value equal: no trend
  const double z = (t.s - (t.s > 0) + (t.s < 0)) / std::sqrt(var);
  t.p = std::min(1.0, 2 * (1 - NormalCdf(std::abs(z))));
  return t;
}

}  // namespace kvbench::results
