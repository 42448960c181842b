// Text for the history commands: `kvbench history list` and `history check`
// as terminal text, and the pieces the trend page shares with them (how a
// series is named, how its values and changes are written).
#pragma once

#include <string>
#include <vector>

#include "results/history_model.h"
#include "results/trend.h"

namespace kvbench::reports {

// "lmdb · get (get) · all · 2 threads · cold": what a series measures,
// leaving out what it does not vary in (1 thread, unthrottled, no cache).
std::string SeriesLabel(const results::SeriesKey& key);
// "workload quickstart [1a2b3c4d] on bench-01 [9f8e7d6c]".
std::string SeriesPlace(const results::SeriesKey& key);
// A value of `figure` with its unit: "12,345 ops/s", "4.56 µs", "1.50 MiB", "2.31 s".
std::string FormatFigure(const std::string& figure, double value);
// The run a point came from: "2026-11-20T10:00:00Z, rev v0.3-12-gabc".
std::string PointRun(const results::FigurePoint& p);
// What else differs between the last run before a change and the first
// after it, besides the revision: "lmdb LMDB 0.9.24 -> LMDB 0.9.31; kernel
// 6.1.0 -> 6.5.0". "" when nothing else differs.
std::string ChangeContext(const results::Series& series, const results::SeriesChange& change);

// Why a series is in segments at `change`: "Time-base change between run 4
// (...) and run 5 (...): figures before this point divided by the time
// inside the engine's calls (results schema 4); after it by the wall span.
// ..." (what each side's figures are, and that no change point is looked
// for across it).
std::string TimeBaseChangeSentence(const results::Series& series,
                                   const results::TimeBaseChange& change);
// The time-base changes of `series` as terminal text: one paragraph per
// change of base between the same two runs (naming its series), the newest
// `last_runs` runs' only when last_runs > 0; "" when there are none.
std::string RenderTimeBaseChanges(const std::vector<results::Series>& series, size_t last_runs);

// One line per run, oldest first, with a header; a sentence when none.
std::string RenderRunList(const std::vector<results::StoredRunInfo>& runs);

// The verdict of `kvbench history check`: one paragraph per regression
// (and per smaller slowdown), the time-base changes among the newest
// `last_runs` runs, then a summary line.
std::string RenderCheckReport(const results::CheckOutcome& outcome,
                              const std::vector<results::Series>& series, size_t last_runs,
                              double fail_pct);

}  // namespace kvbench::reports
