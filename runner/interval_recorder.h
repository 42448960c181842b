// IntervalRecorder: one worker's operations over time, from which the
// executor builds a phase's latency-over-time series (results::TimeSeries).
//
// The timed span is cut into intervals counted from the phase's common start;
// an operation belongs to the interval in which it ended. The worker records
// into histograms of the open interval (one per operation kind). When an
// operation ends past the open interval's end (one comparison per
// operation), Close() keeps each non-empty histogram as a cell (count, sum,
// min, max and its non-empty buckets) and drains it into the worker's
// whole-phase histograms, so the phase's figures are exactly the sum of its
// intervals.
//
// Width: a phase runs `count` operations, so its length is not known in
// advance, yet a phase of any length should show at least kMinIntervals
// intervals. The width starts at `min_width` and doubles whenever
// 2 x kMinIntervals intervals of the current width have passed since the
// start, up to `max_width` (the interval asked for; 1 s by default). Closed
// cells keep their width; every width is min_width x 2^k and every interval
// starts at a multiple of its width, so all threads' cells coarsen exactly to
// one width afterwards (BuildTimeSeries, outside the timed span). A phase of
// length D < kMinIntervals x max_width gets between kMinIntervals and
// 2 x kMinIntervals intervals (D / min_width when shorter than that);
// a longer one gets ceil(D / max_width).
//
// Cost in the timed loop: the comparison per operation, and per Close the
// buckets between each interval histogram's smallest and largest value.
// Memory: one cell per kind and interval plus 8 bytes per non-empty bucket
// (a few hundred a second for a spread-out distribution: ~20 MB per thread
// and hour); below max_width at most 2 x kMinIntervals intervals per doubling.
//
// Not thread-safe: each worker owns its recorder.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "results/results.h"
#include "runner/latency_histogram.h"

namespace kvbench::runner {

// The narrowest interval is the widest one divided by this (1 s -> 15.6 ms).
inline constexpr uint64_t kNarrowestIntervalDivisor = 64;

// One non-empty bucket of a closed interval, in 8 bytes (a long phase keeps
// many): a count above 2^32 - 1 is kept as several entries of one bucket.
struct BucketCount {
  uint32_t bucket = 0;  // LatencyHistogram bucket index
  uint32_t count = 0;
};

// One operation kind in one interval of one worker.
struct IntervalCell {
  uint64_t start = 0;  // in units of the minimum width, from the common start
  uint64_t width = 1;  // in the same units; a power of two
  int kind = 0;        // index of the histogram (OpKind)
  uint64_t count = 0;
  uint64_t sum_ns = 0;
  uint64_t min_ns = 0;
  uint64_t max_ns = 0;
  size_t first_bucket = 0;  // its non-empty buckets: buckets()[first_bucket, + bucket_count)
  size_t bucket_count = 0;
};

class IntervalRecorder {
 public:
  static constexpr uint64_t kMinIntervals = 20;

  // Off until Start: next_boundary() is UINT64_MAX, so the per-operation
  // comparison never fires.
  IntervalRecorder() = default;

  // Opens the first interval [start, start + min_width). Widths in clock
  // ticks; max_width_ticks is rounded down to min_width x 2^k.
  void Start(uint64_t start_ticks, uint64_t min_width_ticks, uint64_t max_width_ticks);
  bool on() const { return unit_ticks_ > 0; }

  // CycleClock ticks at which the open interval ends.
  uint64_t next_boundary() const { return next_boundary_; }

  // Ends the open interval (normally because an operation ended at `now`, at
  // or past next_boundary()): each non-empty histogram of `open` (kinds of
  // them) becomes a cell and drains into the same kind of `totals`. Then
  // opens the interval holding `now`, doubling the width first if it is due.
  // With `last`, opens nothing (the worker is done) but still settles the
  // final width from `now`.
  void Close(uint64_t now, LatencyHistogram* open, LatencyHistogram* totals, size_t kinds,
             bool last = false);

  const std::vector<IntervalCell>& cells() const { return cells_; }
  const std::vector<BucketCount>& buckets() const { return buckets_; }
  // Current width, in units of the minimum width.
  uint64_t width() const { return width_; }
  uint64_t unit_ticks() const { return unit_ticks_; }
  uint64_t start_ticks() const { return start_ticks_; }

 private:
  uint64_t start_ticks_ = 0;
  uint64_t unit_ticks_ = 0;  // the minimum width; 0 = off
  uint64_t max_units_ = 1;
  uint64_t width_ = 1;
  uint64_t open_start_ = 0;
  uint64_t next_boundary_ = UINT64_MAX;
  std::vector<IntervalCell> cells_;
  std::vector<BucketCount> buckets_;
};

// Adds cell `c` (whose buckets are in `buckets`) to `into`.
void AddCell(const IntervalCell& c, const std::vector<BucketCount>& buckets,
             LatencyHistogram* into);

// An operation name of the results and the operation kinds merged into it
// (bit k = histogram k): YCSB's READ also holds READ-MODIFY-WRITE's read part.
struct ReportedOp {
  std::string name;
  uint32_t kinds = 0;
};

// Merges the workers' cells into one series per reported op, at the widest
// width any worker reached; `span_ticks` is the timed span (its end closes
// the last interval), `seconds` the same in seconds. With
// `keep_buckets`, every interval's histogram is kept too (for HdrHistogram
// interval logs).
results::TimeSeries BuildTimeSeries(const std::vector<const IntervalRecorder*>& workers,
                                    const std::vector<ReportedOp>& ops, uint64_t span_ticks,
                                    double ns_per_tick, double seconds, bool keep_buckets);

}  // namespace kvbench::runner
