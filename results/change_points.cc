#include "results/change_points.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

namespace kvbench::results {

namespace {

// Counts and sums of the values inserted so far, indexed by value rank, so
// that sum |v - x| over the inserted x takes two prefix queries.
class RankTree {
 public:
  explicit RankTree(size_t size) : count_(size + 1), sum_(size + 1) {}

  void Clear() {
    std::fill(count_.begin(), count_.end(), 0);
    std::fill(sum_.begin(), sum_.end(), 0.0);
    total_count_ = 0;
    total_sum_ = 0;
  }

  void Insert(uint32_t rank, double value) {
    for (size_t i = rank + 1; i < count_.size(); i += i & (~i + 1)) {
      ++count_[i];
      sum_[i] += value;
    }
    ++total_count_;
    total_sum_ += value;
  }

  // sum |value - x| over every inserted x; `rank` is value's rank. Values of
  // equal rank order are equal or ordered as their ranks, so the split into
  // "below" and "not below" gives every |value - x| its right sign.
  double DistanceSum(uint32_t rank, double value) const {
    uint64_t below_count = 0;
    double below_sum = 0;
    for (size_t i = rank; i > 0; i -= i & (~i + 1)) {
      below_count += count_[i];
      below_sum += sum_[i];
    }
    const uint64_t above_count = total_count_ - below_count;
    const double above_sum = total_sum_ - below_sum;
    return value * static_cast<double>(below_count) - below_sum + above_sum -
           value * static_cast<double>(above_count);
  }

 private:
  std::vector<uint64_t> count_;
  std::vector<double> sum_;
  uint64_t total_count_ = 0;
  double total_sum_ = 0;
};

// Q at every split of the segment whose i-th value is sorted[ranks[i]].
// within_left[t] = sum_{i<j<t} |z_i - z_j|, within_right[t] likewise over [t, m).
class SplitScorer {
 public:
  explicit SplitScorer(size_t size)
      : tree_(size), within_left_(size + 1), within_right_(size + 1) {}

  void Score(const std::vector<uint32_t>& ranks, const std::vector<double>& sorted,
             std::vector<double>* q) {
    const size_t m = ranks.size();
    tree_.Clear();
    within_left_[0] = 0;
    for (size_t i = 0; i < m; ++i) {
      const double v = sorted[ranks[i]];
      within_left_[i + 1] = within_left_[i] + tree_.DistanceSum(ranks[i], v);
      tree_.Insert(ranks[i], v);
    }
    tree_.Clear();
    within_right_[m] = 0;
    for (size_t i = m; i-- > 0;) {
      const double v = sorted[ranks[i]];
      within_right_[i] = within_right_[i + 1] + tree_.DistanceSum(ranks[i], v);
      tree_.Insert(ranks[i], v);
    }
    const double total = within_left_[m];
    q->assign(m + 1, 0.0);
    for (size_t t = 1; t < m; ++t) {
      const double p = static_cast<double>(t), r = static_cast<double>(m - t);
      const double between = total - within_left_[t] - within_right_[t];
      double e = 2 * between / (p * r);
      if (t > 1) e -= within_left_[t] / (p * (p - 1) / 2);
      if (m - t > 1) e -= within_right_[t] / (r * (r - 1) / 2);
      (*q)[t] = p * r / static_cast<double>(m) * e;
    }
  }

 private:
  RankTree tree_;
  std::vector<double> within_left_, within_right_;
};

// A stretch of the series between accepted change points.
struct Segment {
  size_t begin = 0, end = 0;
  std::vector<double> sorted;   // its values, ascending
  std::vector<uint32_t> ranks;  // rank of each value, in series order
  std::vector<uint32_t> shuffled;
  bool scored = false;
  size_t best_split = 0;  // absolute index; 0 = no admissible split
  double best_q = -std::numeric_limits<double>::infinity();
};

Segment MakeSegment(const std::vector<double>& series, size_t begin, size_t end) {
  Segment s;
  s.begin = begin;
  s.end = end;
  const size_t m = end - begin;
  std::vector<uint32_t> order(m);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return series[begin + a] < series[begin + b]; });
  s.sorted.resize(m);
  s.ranks.resize(m);
  for (uint32_t k = 0; k < m; ++k) {
    s.sorted[k] = series[begin + order[k]];
    s.ranks[order[k]] = k;
  }
  s.shuffled = s.ranks;
  return s;
}

// Largest Q over the admissible splits (min_segment points each side);
// returns -infinity when the segment has none, and the split's offset.
double BestSplit(const std::vector<uint32_t>& ranks, const std::vector<double>& sorted,
                 size_t min_segment, SplitScorer* scorer, std::vector<double>* q, size_t* offset) {
  const size_t m = ranks.size();
  double best = -std::numeric_limits<double>::infinity();
  *offset = 0;
  if (m < 2 * min_segment) return best;
  scorer->Score(ranks, sorted, q);
  for (size_t t = min_segment; t + min_segment <= m; ++t) {
    if ((*q)[t] > best) {
      best = (*q)[t];
      *offset = t;
    }
  }
  return best;
}

// Fisher-Yates with the generator's raw output (the modulo bias is below
// 2^-40 for any segment kvbench will see), so the order depends on the seed
// alone, not on the standard library's distributions.
void Shuffle(std::vector<uint32_t>* v, std::mt19937_64* rng) {
  for (size_t i = v->size(); i > 1; --i) {
    const size_t j = static_cast<size_t>((*rng)() % i);
    std::swap((*v)[i - 1], (*v)[j]);
  }
}

}  // namespace

std::string CheckChangePointOptions(const ChangePointOptions& o) {
  if (!(o.max_p_value > 0 && o.max_p_value < 1)) {
    return "the largest p-value of a change must be between 0 and 1 (exclusive)";
  }
  if (o.permutations < 1 || 1.0 / (o.permutations + 1) > o.max_p_value) {
    return "with " + std::to_string(o.permutations) +
           " permutations no p-value can be as small as " + std::to_string(o.max_p_value) +
           " (the smallest is 1/(permutations + 1)): use more permutations";
  }
  if (o.min_segment < 2) return "a segment needs at least 2 points on each side of a change";
  return "";
}

std::vector<double> DivergenceBySplitNaive(const std::vector<double>& z) {
  const size_t m = z.size();
  std::vector<double> q(m + 1, 0.0);
  for (size_t t = 1; t < m; ++t) {
    double between = 0, left = 0, right = 0;
    for (size_t i = 0; i < t; ++i) {
      for (size_t j = t; j < m; ++j) between += std::fabs(z[i] - z[j]);
      for (size_t j = i + 1; j < t; ++j) left += std::fabs(z[i] - z[j]);
    }
    for (size_t i = t; i < m; ++i) {
      for (size_t j = i + 1; j < m; ++j) right += std::fabs(z[i] - z[j]);
    }
    const double p = static_cast<double>(t), r = static_cast<double>(m - t);
    double e = 2 * between / (p * r);
    if (t > 1) e -= left / (p * (p - 1) / 2);
    if (m - t > 1) e -= right / (r * (r - 1) / 2);
    q[t] = p * r / static_cast<double>(m) * e;
  }
  return q;
}

std::vector<double> DivergenceBySplit(const std::vector<double>& z) {
  const Segment s = MakeSegment(z, 0, z.size());
  SplitScorer scorer(z.size());
  std::vector<double> q;
  scorer.Score(s.ranks, s.sorted, &q);
  return q;
}

std::vector<ChangePoint> FindChangePoints(const std::vector<double>& series,
                                          const ChangePointOptions& options) {
  std::vector<ChangePoint> found;
  if (!CheckChangePointOptions(options).empty()) return found;
  const size_t min_segment = static_cast<size_t>(options.min_segment);
  if (series.size() < 2 * min_segment) return found;

  std::vector<Segment> segments;
  segments.push_back(MakeSegment(series, 0, series.size()));
  SplitScorer scorer(series.size());
  std::vector<double> q;
  std::mt19937_64 rng(options.seed);
  // A split is kept only while exceedances stay within this many.
  const int allowed =
      static_cast<int>(std::floor(options.max_p_value * (options.permutations + 1) + 1e-9)) - 1;

  while (true) {
    Segment* best = nullptr;
    for (Segment& s : segments) {
      if (!s.scored) {
        size_t offset = 0;
        s.best_q = BestSplit(s.ranks, s.sorted, min_segment, &scorer, &q, &offset);
        s.best_split = offset == 0 ? 0 : s.begin + offset;
        s.scored = true;
      }
      if (s.best_split != 0 && (best == nullptr || s.best_q > best->best_q)) best = &s;
    }
    if (best == nullptr) break;

    int exceed = 0;
    for (int r = 0; r < options.permutations && exceed <= allowed; ++r) {
      double permuted_max = -std::numeric_limits<double>::infinity();
      for (Segment& s : segments) {
        if (s.end - s.begin < 2 * min_segment) continue;
        Shuffle(&s.shuffled, &rng);
        size_t offset = 0;
        permuted_max = std::max(permuted_max,
                                BestSplit(s.shuffled, s.sorted, min_segment, &scorer, &q, &offset));
      }
      if (permuted_max >= best->best_q) ++exceed;
    }
    if (exceed > allowed) break;  // not significant: the search ends here
    ChangePoint cp;
    cp.index = best->best_split;
    cp.statistic = best->best_q;
    cp.p_value = static_cast<double>(exceed + 1) / (options.permutations + 1);
    found.push_back(cp);
    const size_t begin = best->begin, split = best->best_split, end = best->end;
    *best = MakeSegment(series, begin, split);
    segments.push_back(MakeSegment(series, split, end));
  }
  std::sort(found.begin(), found.end(),
            [](const ChangePoint& a, const ChangePoint& b) { return a.index < b.index; });
  return found;
}

}  // namespace kvbench::results
