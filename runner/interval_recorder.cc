#include "runner/interval_recorder.h"

#include <algorithm>
#include <cmath>

namespace kvbench::runner {

void IntervalRecorder::Start(uint64_t start_ticks, uint64_t min_width_ticks,
                             uint64_t max_width_ticks) {
  start_ticks_ = start_ticks;
  unit_ticks_ = std::max<uint64_t>(1, min_width_ticks);
  max_units_ = 1;
  while (max_units_ * 2 * unit_ticks_ <= max_width_ticks) max_units_ *= 2;
  width_ = 1;
  open_start_ = 0;
  next_boundary_ = start_ticks_ + unit_ticks_;
  cells_.clear();
  buckets_.clear();
}

void IntervalRecorder::Close(uint64_t now, LatencyHistogram* open, LatencyHistogram* totals,
                             size_t kinds, bool last) {
  for (size_t k = 0; k < kinds; ++k) {
    LatencyHistogram& h = open[k];
    if (h.count() == 0) continue;
    IntervalCell cell;
    cell.start = open_start_;
    cell.width = width_;
    cell.kind = static_cast<int>(k);
    cell.count = h.count();
    cell.sum_ns = h.sum();
    cell.min_ns = h.min();
    cell.max_ns = h.max();
    cell.first_bucket = buckets_.size();
    h.DrainInto(&totals[k], [this](size_t b, uint64_t n) {
      for (uint64_t left = n; left > 0;) {
        const auto part = static_cast<uint32_t>(std::min<uint64_t>(left, UINT32_MAX));
        buckets_.push_back({static_cast<uint32_t>(b), part});
        left -= part;
      }
    });
    cell.bucket_count = buckets_.size() - cell.first_bucket;
    cells_.push_back(cell);
  }
  const uint64_t elapsed = (now > start_ticks_ ? now - start_ticks_ : 0) / unit_ticks_;
  while (width_ < max_units_ && elapsed >= 2 * kMinIntervals * width_) width_ *= 2;
  if (last) {
    next_boundary_ = UINT64_MAX;
    return;
  }
  open_start_ = elapsed / width_ * width_;
  next_boundary_ = start_ticks_ + (open_start_ + width_) * unit_ticks_;
}

void AddCell(const IntervalCell& c, const std::vector<BucketCount>& buckets,
             LatencyHistogram* into) {
  for (size_t b = c.first_bucket; b < c.first_bucket + c.bucket_count; ++b) {
    into->AddBucket(buckets[b].bucket, buckets[b].count);
  }
  into->AddExtremes(c.sum_ns, c.min_ns, c.max_ns);
}

namespace {

// Figures of one interval's merged histogram.
void AppendInterval(const LatencyHistogram& h, double length_s, bool keep_buckets,
                    results::OpTimeSeries* out) {
  const uint64_t n = h.count();
  out->count.push_back(n);
  out->ops_per_sec.push_back(length_s > 0 ? static_cast<double>(n) / length_s : 0);
  out->mean_ns.push_back(h.mean());
  out->p50_ns.push_back(n ? h.ValueAtQuantile(0.50) : 0);
  out->p99_ns.push_back(n ? h.ValueAtQuantile(0.99) : 0);
  out->max_ns.push_back(h.max());
  if (keep_buckets) {
    std::vector<std::pair<uint64_t, uint64_t>> buckets;
    for (size_t b = h.FirstBucket(); b <= h.LastBucket(); ++b) {
      // FirstBucket..LastBucket spans the recorded values; most are empty.
      const uint64_t c = h.bucket_count(b);
      if (c != 0) buckets.emplace_back(LatencyHistogram::BucketUpperBound(b), c);
    }
    out->buckets.push_back(std::move(buckets));
  }
}

}  // namespace

results::TimeSeries BuildTimeSeries(const std::vector<const IntervalRecorder*>& workers,
                                    const std::vector<ReportedOp>& ops, uint64_t span_ticks,
                                    double ns_per_tick, double seconds, bool keep_buckets) {
  results::TimeSeries series;
  uint64_t width = 1;
  uint64_t unit_ticks = 1;
  for (const IntervalRecorder* w : workers) {
    width = std::max(width, w->width());
    unit_ticks = w->unit_ticks();
  }
  // The last interval runs to the span's end; a sliver shorter than 1/20 of
  // the width joins the interval before it rather than show a rate measured
  // over a few operations.
  const uint64_t span_units = span_ticks / unit_ticks;
  uint64_t intervals = span_units / width + 1;
  if (intervals > 1 && (span_units - (intervals - 1) * width) * 20 < width) --intervals;
  series.interval_s = static_cast<double>(unit_ticks * width) * ns_per_tick / 1e9;

  std::vector<LatencyHistogram> merged(ops.size());
  std::vector<size_t> cursor(workers.size(), 0);
  for (const ReportedOp& op : ops) {
    series.ops.emplace_back();
    series.ops.back().op = op.name;
  }
  for (uint64_t i = 0; i < intervals; ++i) {
    const bool last = i + 1 == intervals;
    // Cells are in time order per worker: take those that fall in interval i.
    for (size_t w = 0; w < workers.size(); ++w) {
      const std::vector<IntervalCell>& cells = workers[w]->cells();
      const std::vector<BucketCount>& buckets = workers[w]->buckets();
      for (; cursor[w] < cells.size() && (last || cells[cursor[w]].start / width <= i);
           ++cursor[w]) {
        const IntervalCell& c = cells[cursor[w]];
        for (size_t o = 0; o < ops.size(); ++o) {
          if ((ops[o].kinds & (1u << c.kind)) != 0) AddCell(c, buckets, &merged[o]);
        }
      }
    }
    const double begin = static_cast<double>(i) * series.interval_s;
    const double length = last ? seconds - begin : series.interval_s;
    for (size_t o = 0; o < ops.size(); ++o) {
      AppendInterval(merged[o], length, keep_buckets, &series.ops[o]);
      merged[o].ClearRecorded();
    }
  }
  return series;
}

}  // namespace kvbench::runner
