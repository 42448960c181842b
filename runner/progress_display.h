// What a person sees on stderr during a run in a terminal: one line, redrawn
// at most 10 times a second, with the engine (i/N), phase (j/M), repetition
// (r/R), percent, current rate, elapsed and ETA of the phase and of the whole
// run; and when a phase's matrix point is done, one permanent line with its
// median ops/s, the interval and p99. Nothing is drawn when stderr is not a
// terminal. It reads only the workers' own counters (phase_executor.cc), on a
// thread of its own that never runs inside a timed span.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "results/results.h"
#include "runner/run_plan.h"

namespace kvbench::runner {

// Where one engine's child stands in the whole run.
struct RunPosition {
  int engine_index = 0;  // 0-based
  int engine_count = 1;
  std::chrono::steady_clock::time_point run_start = std::chrono::steady_clock::now();
  // The terminal's width, read by the parent: the engine's child writes its
  // stderr into a pipe the parent passes on (engine_process.h), so it cannot
  // ask the terminal itself. 0: unknown (80 is used).
  int terminal_width = 0;
};

// Planned operations of a plan (count x repetitions x matrix points per phase,
// a phase without a count as 1), for ETAs.
uint64_t PlannedWork(const Workload& workload);

class ProgressDisplay {
 public:
  ProgressDisplay(const Workload& workload, const RunPosition& position, std::string engine);

  // The phase, matrix point and repetition about to run (phase_index 0-based).
  void Begin(size_t phase_index, int repetition, uint64_t ops_total);
  // Redraws the line with `done` of the repetition's operations after `seconds`.
  void Draw(uint64_t done, double seconds) const;
  // The repetition ended: its work counts as done.
  void EndRepetition();
  // A matrix point of a phase finished: clears the line, prints the permanent one.
  void PointDone(const results::PhaseRun& run) const;

 private:
  std::string Line(uint64_t done, double seconds) const;

  const Workload& workload_;
  RunPosition position_;
  std::string engine_;
  uint64_t engine_work_ = 0;  // planned operations of this engine
  uint64_t done_work_ = 0;    // finished repetitions' operations, this engine
  size_t phase_ = 0;
  int repetition_ = 0;
  uint64_t ops_total_ = 0;
};

}  // namespace kvbench::runner
