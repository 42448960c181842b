// What `kvbench run`, `kvbench report` and `kvbench compare` call. The
// renderers themselves are behind reporter.h; run comparison is compare.h.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "results/results.h"

namespace kvbench::reports {

// Publishes results.json, report.md, report.html and results.csv into
// `out_dir` (which must exist) as one set (WriteFileSetAtomically): all four
// are written and synced under temporary names first, so a failure (a full
// disk) leaves the previous files, every one of them, in place. Returns the
// error naming the file.
Status WriteRunReports(const results::RunResults& results, const std::string& out_dir,
                       bool pretty_json = false);

// A compact plain-text table for a terminal at the end of a run: one line per
// phase, matrix point and engine with ops/s, p50 and p99 in µs and the status.
// Threads, target and cache get a column only when they vary in the run.
std::string RenderSummaryTable(const results::RunResults& results);

// Several results into one, for `kvbench report A.json B.json`: runs and
// engines concatenated in input order; the environment, workload and start
// time of the first, the finish time of the last. An engine name that an
// earlier input already used is renamed "<name>#<input number>" (input numbers
// from 1) so its rows stay apart. Since RunResults has no field for notes, a
// sentence naming the inputs' differing environments and workloads is
// appended to workload.description. One input is returned unchanged.
results::RunResults MergeResults(const std::vector<results::RunResults>& inputs);

}  // namespace kvbench::reports
