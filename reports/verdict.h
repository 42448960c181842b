// The verdict of a run: per phase and matrix point, which engine was fastest
// and by how much, or "tied" where the intervals of the leaders' median
// throughputs overlap (the data cannot name a winner). Printed at the end of
// `kvbench run` and put first in report.md and report.html.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "results/results.h"

namespace kvbench::reports {

struct PointVerdict {
  std::string phase;
  std::string point;  // the matrix point's label, "" for a phase of one point
  std::string fastest;
  std::string runner_up;             // empty when only one engine has a figure
  results::Spread fastest_rate, runner_up_rate;
  double margin = 0;                 // fastest / runner-up medians
  bool tied = false;                 // intervals overlap (or one repetition)
  std::vector<std::string> tied_with;  // the engines tied with the fastest
  // Of the engines named above (fastest, runner-up, tied), those whose row is
  // client-bound (reports/report_model.h: ClientBound): their ops/s is partly
  // kvbench's own work, so the ranking is said to rest on it.
  std::vector<std::string> client_bound;
  // Of the engines named above, those whose ops/s divides by the time inside
  // the engine's calls (rows read from a schema-4 file): not the same figure
  // as the others', so the ranking is said to mix them.
  std::vector<std::string> engine_call_rates;
};

// Engines that completed the point, ranked by median ops/s; in-memory
// engines are left out of cold-cache points (cold means nothing for them).
std::vector<PointVerdict> Verdicts(const results::RunResults& results);

// Plain text, one line a point:
//   load: pbtree fastest, 1.32x tc-btree (1.2M-1.3M vs 912k-1.0M ops/s)
//   get (cold): tied: lmdb, pbtree (intervals overlap)
// A ranking that rests on a client-bound row says so on its line:
//   get: null fastest, ... [client-bound: this figure is partly kvbench's own work (null)]
std::string RenderVerdict(const results::RunResults& results);

}  // namespace kvbench::reports
