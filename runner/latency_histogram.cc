#include "runner/latency_histogram.h"

#include <algorithm>
#include <cmath>

namespace kvbench::runner {

uint64_t LatencyHistogram::BucketUpperBound(size_t b) {
  if (b < kLinearLimit) return b;
  const size_t rel = b - kLinearLimit;
  const int msb = static_cast<int>(rel >> kSubBucketBits) + 8;
  const uint64_t mantissa = rel & ((size_t{1} << kSubBucketBits) - 1);
  const int shift = msb - kSubBucketBits;
  const uint64_t lower = ((uint64_t{1} << kSubBucketBits) | mantissa) << shift;
  return lower + ((uint64_t{1} << shift) - 1);
}

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  for (size_t i = 0; i < kBucketCount; ++i) counts_[i] += other.counts_[i];
  count_ += other.count_;
  sum_ += other.sum_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
}

void LatencyHistogram::Clear() {
  std::fill(counts_.begin(), counts_.end(), 0);
  count_ = sum_ = max_ = 0;
  min_ = UINT64_MAX;
}

void LatencyHistogram::AddBucket(size_t b, uint64_t n) {
  counts_[b] += n;
  count_ += n;
}

void LatencyHistogram::AddExtremes(uint64_t sum, uint64_t min, uint64_t max) {
  sum_ += sum;
  min_ = std::min(min_, min);
  max_ = std::max(max_, max);
}

void LatencyHistogram::ClearRecorded() {
  const size_t last = LastBucket();
  for (size_t b = FirstBucket(); b <= last; ++b) counts_[b] = 0;
  count_ = sum_ = max_ = 0;
  min_ = UINT64_MAX;
}

uint64_t LatencyHistogram::ValueAtQuantile(double q) const {
  if (count_ == 0) return 0;
  q = std::clamp(q, 0.0, 1.0);
  const uint64_t rank = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(q * count_)));
  uint64_t seen = 0;
  for (size_t b = 0; b < kBucketCount; ++b) {
    seen += counts_[b];
    if (seen >= rank) return std::clamp(BucketUpperBound(b), min(), max_);
  }
  return max_;
}

results::LatencySummary LatencyHistogram::Summarize() const {
  results::LatencySummary s;
  s.count = count_;
  s.mean_ns = mean();
  s.min_ns = min();
  s.max_ns = max_;
  s.p50_ns = ValueAtQuantile(0.50);
  s.p90_ns = ValueAtQuantile(0.90);
  s.p95_ns = ValueAtQuantile(0.95);
  s.p99_ns = ValueAtQuantile(0.99);
  s.p999_ns = ValueAtQuantile(0.999);
  for (size_t b = 0; b < kBucketCount; ++b) {
    if (counts_[b] != 0) s.buckets.emplace_back(BucketUpperBound(b), counts_[b]);
  }
  return s;
}

}  // namespace kvbench::runner
