// Series of like with like from the history store's points, their change
// points, and the CI check on the newest runs.
//
// A series is one figure of one engine, phase, matrix point and operation
// type, over the runs of one workload file (its hash: the file's text, scale
// and resolved dataset) on one host (its fingerprint). Figures of different
// hosts or workload files are never put in one series: where a figure was
// measured under several, each combination is its own series and carries a
// note saying why.
//
// A series whose figures change time base (history_model.h: a throughput of
// results schema 4 divided by the time inside the engine's calls, one of
// schema 5 by the wall span) is one series in segments: change points are
// looked for within each segment apart, never across a time-base change,
// and each change of base is kept as a marker for the trend page to explain.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "results/change_points.h"
#include "results/history_model.h"

namespace kvbench::results {

struct SeriesKey {
  std::string workload_name;
  std::string workload_hash;
  std::string host_fingerprint;
  std::string hostname;  // of the first run (for people; the fingerprint decides)
  std::string engine;
  std::string phase;
  std::string phase_op;
  int threads = 1;
  double target_ops = 0;
  std::string cache;
  std::string op;
  std::string figure;
};

// A change point with what it means for the figure.
struct SeriesChange {
  ChangePoint point;  // point.index: the first run after the change
  // Mean of the segment before (from the previous change or time-base change).
  double before_mean = 0;
  // Mean of the segment after (up to the next change or time-base change).
  double after_mean = 0;
  double ratio = 1;    // after_mean / before_mean
  bool worse = false;  // a slowdown: throughput down, or a time, size or latency up
};

// Where a series' time base changes: the points before and after it divide
// by (or are) different times, so a step there is a changed definition, not
// a changed engine. Never a change point.
struct TimeBaseChange {
  size_t index = 0;    // the first point under the new base (1 <= index < points.size())
  std::string before;  // kTimeBase... of the points before it
  std::string after;   // and of the points from it on
};

struct Series {
  SeriesKey key;
  std::vector<FigurePoint> points;  // oldest run first
  std::vector<SeriesChange> changes;
  // In index order; change points are found between them only.
  std::vector<TimeBaseChange> time_base_changes;
  // Why this figure is drawn as more than one series ("" when it is not).
  std::string split_note;
};

// Groups `points` into series (in the order their first points come, after
// ordering points by run start), marks where each series' time base changes,
// and finds each series' change points within each stretch of one time base.
std::vector<Series> BuildSeries(std::vector<FigurePoint> points, const ChangePointOptions& options);

// A significant slowdown that the newest runs of a series sit after.
struct Regression {
  size_t series = 0;        // index into the series given to CheckNewestRuns
  size_t change = 0;        // index into that series' changes: the first in the window
  double before_mean = 0;   // level before that change
  double after_mean = 0;    // level of the newest segment
  double slowdown_pct = 0;  // how much worse the newest segment is, in percent
};

struct CheckOutcome {
  std::vector<Regression> regressions;  // slowdowns larger than the threshold
  std::vector<Regression> smaller;      // significant slowdowns within it (reported, not failed)
  size_t series_checked = 0;
};

// For each series: the change points among its newest `last_runs` runs (a
// change whose first run after is one of them) since its last time-base
// change. When there are any, the newest segment's level is held against the
// level before the first of them; a slowdown larger than `fail_pct` percent
// is a regression. Several changes in the window add up (two 6% slowdowns
// are one 12% slowdown); a slowdown that a later change undid is none; a
// time-base change is never one, and levels are never compared across it.
CheckOutcome CheckNewestRuns(const std::vector<Series>& series, size_t last_runs, double fail_pct);

// How much worse `after` is than `before` for `figure`, in percent
// (negative: better). Throughput falling by 10% and latency rising by 10%
// are both +10.
double SlowdownPercent(const std::string& figure, double before, double after);

}  // namespace kvbench::results
