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
  // The CPU probe (report_model.h, RanSlowed): each engine named above with
  // repetitions that ran while the machine gave the measuring thread less
  // CPU, and how many of its repetitions did.
  struct SlowedReps {
    std::string engine;
    int slowed = 0;
    int n = 0;
  };
  std::vector<SlowedReps> slowed;
  // A tie among engines some of whose repetitions ran slowed: the tied
  // engines ranked again on their repetitions at full speed alone
  // (report_model.h, RanAtFullSpeed). Set only when each kept
  // kMinFullSpeedReps of them; `separated` says whether the leader's
  // interval then clears every other's.
  struct FullSpeed {
    std::string fastest, runner_up;
    results::Spread fastest_rate, runner_up_rate;
    double margin = 0;
    bool separated = false;
  };
  std::optional<FullSpeed> at_full_speed;
  bool too_few_at_full_speed = false;  // the ranking above was not possible
};

// Repetitions at full speed an engine must keep before a tie is ranked
// again on those alone (three give a 75% interval of the median, which the
// line then says).
inline constexpr int kMinFullSpeedReps = 3;

// Engines that completed the point, ranked by median ops/s; in-memory
// engines are left out of cold-cache points (cold means nothing for them).
std::vector<PointVerdict> Verdicts(const results::RunResults& results);

// What the verdict's lines mean, said above them in report.md and report.html.
inline constexpr const char* kVerdictNote =
    "Median ops/s (operations / wall span) per phase with 95% intervals of the median (or the "
    "lower level a line gives, where a row has too few repetitions for 95%); \"tied\" where the "
    "leaders' intervals overlap; \"client-bound\" where a named engine's figure is partly "
    "kvbench's own work (harness share above 10%); \"CPU probe\" where some of a named engine's "
    "repetitions ran while the machine gave the measuring thread less CPU (a fixed piece of "
    "issue-bound work, timed before and after each repetition, took 1.25 times its fastest at that "
    "point or longer), a tie then ranked again on the tied engines' repetitions at full speed "
    "(both probes under 1.10 times the fastest).";

// "CPU probe 1.25× its fastest or slower in pbtree 3 of 15 repetitions;
// at full speed alone: ..." for a verdict with `slowed` engines.
std::string CpuProbeNote(const PointVerdict& v);

// Plain text, one line a point:
//   load: pbtree fastest, 1.32x tc-btree (1.2M-1.3M vs 912k-1.0M ops/s)
//   get (cold): tied: lmdb, pbtree (intervals overlap)
// A ranking that rests on a client-bound row says so on its line:
//   get: null fastest, ... [client-bound: this figure is partly kvbench's own work (null)]
std::string RenderVerdict(const results::RunResults& results);

}  // namespace kvbench::reports
