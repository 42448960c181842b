// Any percentile of a latency distribution as results keep it.
#pragma once

#include <cstdint>

#include "results/results.h"

namespace kvbench::reports {

// The value at percentile `p` (0-100] of `l`: the figure the runner stored
// for 50, 90, 95, 99 and 99.9, otherwise computed from the buckets as the
// runner computes those (runner/latency_histogram.h): the upper bound of the
// bucket holding the ceil(p/100 x count)-th value, clamped to [min, max].
uint64_t ValueAtPercentile(const results::LatencySummary& l, double p);

}  // namespace kvbench::reports
