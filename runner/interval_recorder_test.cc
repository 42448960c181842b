#include "runner/interval_recorder.h"

#include <gtest/gtest.h>

#include <array>
#include <numeric>

namespace kvbench::runner {
namespace {

// A worker's recording as PhaseWorker does it, with clock ticks of 1 ns:
// one operation of kind 0 ending at each tick in `ends`, latency = tick % 1000.
struct SimulatedWorker {
  SimulatedWorker(uint64_t min_width, uint64_t max_width) {
    recorder.Start(0, min_width, max_width);
  }
  void Run(const std::vector<uint64_t>& ends, int kind = 0) {
    for (uint64_t t : ends) {
      if (t >= recorder.next_boundary()) recorder.Close(t, open.data(), totals.data(), 2);
      open[static_cast<size_t>(kind)].Record(t % 1000);
      last = t;
    }
    recorder.Close(last, open.data(), totals.data(), 2, /*last=*/true);
  }
  IntervalRecorder recorder;
  std::array<LatencyHistogram, 2> open, totals;
  uint64_t last = 0;
};

std::vector<uint64_t> Every(uint64_t step, uint64_t until) {
  std::vector<uint64_t> ends;
  for (uint64_t t = step; t <= until; t += step) ends.push_back(t);
  return ends;
}

uint64_t Sum(const std::vector<uint64_t>& v) { return std::accumulate(v.begin(), v.end(), 0ull); }

TEST(IntervalRecorderTest, WidthsDoubleOnAlignedBoundariesUpToTheWidest) {
  SimulatedWorker w(10, 640);  // 1/64 of 640
  w.Run(Every(3, 100000));
  uint64_t width = 1;
  for (const IntervalCell& c : w.recorder.cells()) {
    EXPECT_EQ(c.start % c.width, 0u) << c.start;
    EXPECT_GE(c.width, width) << "widths never shrink";
    width = c.width;
  }
  EXPECT_EQ(w.recorder.width(), 64u);  // 100000 ticks >= 40 x 640
  // The drained totals hold every operation, as the cells do.
  EXPECT_EQ(w.totals[0].count(), 100000u / 3);
  uint64_t in_cells = 0;
  for (const IntervalCell& c : w.recorder.cells()) in_cells += c.count;
  EXPECT_EQ(in_cells, w.totals[0].count());
  for (const LatencyHistogram& h : w.open) EXPECT_EQ(h.count(), 0u);
}

TEST(IntervalRecorderTest, APhaseOfAnyLengthShowsAtLeastTwentyIntervals) {
  const std::vector<ReportedOp> ops = {{"all", 3}, {"a", 1}, {"b", 2}};
  for (uint64_t span : {400ull, 1000ull, 5000ull, 12345ull, 25600ull, 100000ull}) {
    SimulatedWorker w(10, 640);
    w.Run(Every(1, span));
    const results::TimeSeries ts =
        BuildTimeSeries({&w.recorder}, ops, span, 1.0, static_cast<double>(span) / 1e9, false);
    EXPECT_GE(ts.intervals(), 20u) << span;
    if (span < 20 * 640) {
      EXPECT_LE(ts.intervals(), 40u) << span;
    }
    if (span >= 40 * 640) {
      EXPECT_DOUBLE_EQ(ts.interval_s, 640e-9) << span;
    }
    EXPECT_EQ(Sum(ts.ops[0].count), span);
    EXPECT_EQ(Sum(ts.ops[1].count), span);
    EXPECT_EQ(Sum(ts.ops[2].count), 0u);
  }
}

TEST(IntervalRecorderTest, WorkersMergeAtTheWidestWidthAndPercentilesAreTheMergedOnes) {
  SimulatedWorker fast(10, 640), slow(10, 640);
  fast.Run(Every(2, 20000));
  slow.Run(Every(7, 6000), 1);  // ends early, at a narrower width
  EXPECT_GT(fast.recorder.width(), slow.recorder.width());
  const std::vector<ReportedOp> ops = {{"all", 3}, {"a", 1}, {"b", 2}};
  const results::TimeSeries ts =
      BuildTimeSeries({&fast.recorder, &slow.recorder}, ops, 20000, 1.0, 20000e-9, true);
  EXPECT_DOUBLE_EQ(ts.interval_s, static_cast<double>(fast.recorder.width()) * 10e-9);
  EXPECT_EQ(Sum(ts.ops[1].count), 10000u);
  EXPECT_EQ(Sum(ts.ops[2].count), 6000u / 7);
  EXPECT_EQ(Sum(ts.ops[0].count), 10000u + 6000u / 7);
  ASSERT_EQ(ts.ops[0].buckets.size(), ts.intervals());
  for (size_t i = 0; i < ts.intervals(); ++i) {
    // "all" of an interval is both workers' histogram, its p99 that of it.
    const uint64_t n = ts.ops[0].count[i];
    const uint64_t rank = (99 * n + 99) / 100;
    uint64_t seen = 0, p99 = 0, total = 0;
    for (const auto& [upper, count] : ts.ops[0].buckets[i]) {
      total += count;
      if (seen < rank && seen + count >= rank) p99 = upper;
      seen += count;
    }
    EXPECT_EQ(total, n);
    if (n == 0) continue;
    EXPECT_EQ(ts.ops[0].p99_ns[i], std::min(p99, ts.ops[0].max_ns[i]));
    EXPECT_NEAR(ts.ops[0].ops_per_sec[i] * ts.interval_s, static_cast<double>(ts.ops[0].count[i]),
                ts.ops[0].count[i] * 1e-9 + (i + 1 == ts.intervals() ? 1e9 : 1e-6));
  }
}

TEST(IntervalRecorderTest, ASliverAtTheEndJoinsTheIntervalBeforeIt) {
  SimulatedWorker w(100, 100);  // fixed width: no narrowing
  std::vector<uint64_t> ends = Every(1, 1000);
  ends.push_back(1002);  // 2 ticks into an 11th interval
  w.Run(ends);
  const results::TimeSeries ts =
      BuildTimeSeries({&w.recorder}, {{"all", 1}}, 1002, 1.0, 1002e-9, false);
  ASSERT_EQ(ts.intervals(), 10u);
  // Operations end in the interval holding their end: 900..999, 1000, 1002.
  EXPECT_EQ(ts.ops[0].count.back(), 102u);
  EXPECT_NEAR(ts.ops[0].ops_per_sec.back(), 102 / 102e-9, 1);  // over 900..1002
}

TEST(IntervalRecorderTest, OffUntilStarted) {
  IntervalRecorder r;
  EXPECT_FALSE(r.on());
  EXPECT_EQ(r.next_boundary(), UINT64_MAX);
}

}  // namespace
}  // namespace kvbench::runner
