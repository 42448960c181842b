#include "reports/percentiles.h"

#include <algorithm>
#include <cmath>

namespace kvbench::reports {

uint64_t ValueAtPercentile(const results::LatencySummary& l, double p) {
  if (p == 50) return l.p50_ns;
  if (p == 90) return l.p90_ns;
  if (p == 95) return l.p95_ns;
  if (p == 99) return l.p99_ns;
  if (p == 99.9) return l.p999_ns;
  if (l.count == 0) return 0;
  const double q = std::clamp(p / 100.0, 0.0, 1.0);
  const uint64_t rank =
      std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(q * static_cast<double>(l.count))));
  uint64_t seen = 0;
  for (const auto& [upper, count] : l.buckets) {
    seen += count;
    if (seen >= rank) return std::clamp(upper, l.min_ns, l.max_ns);
  }
  return l.max_ns;
}

}  // namespace kvbench::reports
