// LatencyHistogram: log-linear buckets in the manner of HdrHistogram.
//
// Values (nanoseconds) below 256 get a bucket each; above, every power of two
// is split into 128 equal buckets, so a bucket's width is at most 1/128 of its
// lower bound and any reported percentile is within 0.8% of the true value.
// Record() is a shift, a count-leading-zeros and an increment: cheap enough
// for the timed loop. One histogram per thread and operation type; merged
// after the phase (Merge), never shared while recording.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "results/results.h"

namespace kvbench::runner {

class LatencyHistogram {
 public:
  static constexpr int kSubBucketBits = 7;
  static constexpr uint64_t kLinearLimit = 256;  // values below are exact
  static constexpr size_t kBucketCount =
      kLinearLimit + (64 - 8) * (size_t{1} << kSubBucketBits);

  LatencyHistogram() : counts_(kBucketCount, 0) {}

  void Record(uint64_t ns) {
    ++counts_[BucketOf(ns)];
    ++count_;
    sum_ += ns;
    if (ns < min_) min_ = ns;
    if (ns > max_) max_ = ns;
  }

  void Merge(const LatencyHistogram& other);
  void Clear();

  // Moves every count into `into` and leaves this histogram empty, calling
  // on_bucket(bucket, count) for each non-empty bucket in increasing order.
  // Visits only the buckets between the smallest and the largest value
  // recorded, so draining an interval's histogram costs its spread, not
  // kBucketCount (runner/interval_recorder.h does it once an interval).
  template <typename OnBucket>
  void DrainInto(LatencyHistogram* into, OnBucket on_bucket);
  // Adds `n` values that fell into bucket `b` (a bucket of another
  // histogram: the layout is fixed); their sum, smallest and largest value
  // come separately through AddExtremes, once per histogram added.
  void AddBucket(size_t b, uint64_t n);
  void AddExtremes(uint64_t sum, uint64_t min, uint64_t max);
  // Clears only the buckets between the smallest and largest value recorded.
  void ClearRecorded();

  uint64_t count() const { return count_; }
  uint64_t min() const { return count_ ? min_ : 0; }
  uint64_t max() const { return max_; }
  double mean() const { return count_ ? static_cast<double>(sum_) / count_ : 0; }
  // The value at quantile q in [0, 1]: the upper bound of the bucket holding
  // the ceil(q * count)-th smallest value, clamped to [min, max].
  uint64_t ValueAtQuantile(double q) const;

  results::LatencySummary Summarize() const;

  static size_t BucketOf(uint64_t ns) {
    if (ns < kLinearLimit) return static_cast<size_t>(ns);
    const int msb = 63 - __builtin_clzll(ns);  // >= 8
    const int shift = msb - kSubBucketBits;
    const uint64_t mantissa = (ns >> shift) & ((uint64_t{1} << kSubBucketBits) - 1);
    return kLinearLimit + static_cast<size_t>(msb - 8) * (size_t{1} << kSubBucketBits) +
           static_cast<size_t>(mantissa);
  }
  // Largest value that falls into bucket `b`.
  static uint64_t BucketUpperBound(size_t b);
  // Range of buckets holding the recorded values, [first, last]; empty
  // histograms give first > last.
  size_t FirstBucket() const { return count_ ? BucketOf(min_) : 1; }
  size_t LastBucket() const { return count_ ? BucketOf(max_) : 0; }
  uint64_t sum() const { return sum_; }
  uint64_t bucket_count(size_t b) const { return counts_[b]; }

 private:
  std::vector<uint64_t> counts_;
  uint64_t count_ = 0;
  uint64_t sum_ = 0;
  uint64_t min_ = UINT64_MAX;
  uint64_t max_ = 0;
};

template <typename OnBucket>
void LatencyHistogram::DrainInto(LatencyHistogram* into, OnBucket on_bucket) {
  if (count_ == 0) return;
  const size_t last = LastBucket();
  for (size_t b = FirstBucket(); b <= last; ++b) {
    const uint64_t n = counts_[b];
    if (n == 0) continue;
    on_bucket(b, n);
    into->counts_[b] += n;
    counts_[b] = 0;
  }
  into->AddExtremes(sum_, min_, max_);
  into->count_ += count_;
  count_ = sum_ = max_ = 0;
  min_ = UINT64_MAX;
}

}  // namespace kvbench::runner
