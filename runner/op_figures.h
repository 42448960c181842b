// One place that turns a measured histogram into a result row, so every
// phase shape (worker streams, record blocks, single calls, recreate,
// memory-baseline) reports its figures the same way.
#pragma once

#include <string>

#include "results/results.h"
#include "runner/latency_histogram.h"

namespace kvbench::runner {

// `ops` operations in `seconds` (the timed span), their latencies in
// `latency`. ops_per_sec is 0 when no time was measured.
inline results::OpFigures MakeOpFigures(std::string op, uint64_t ops, double seconds,
                                        const LatencyHistogram& latency,
                                        const results::WorkCounts& work = {}) {
  results::OpFigures f;
  f.op = std::move(op);
  f.ops = ops;
  f.ops_per_sec = seconds > 0 ? static_cast<double>(ops) / seconds : 0;
  f.latency = latency.Summarize();
  f.work = work;
  return f;
}

}  // namespace kvbench::runner
