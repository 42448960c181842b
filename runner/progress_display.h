// What a person sees on stderr during a run in a terminal: one line, redrawn
// at most 10 times a second, with the engine (i/N), phase (j/M), repetition
// (r/R), percent, current rate, elapsed and ETA of the phase and of the whole
// run; and when a phase's matrix point is done, one permanent line with its
// median ops/s, p99 and the interval, in columns that line up over the whole
// run and with numbers written as the final table writes them. Nothing is
// drawn when stderr is not a terminal. It reads only the workers' own
// counters (phase_executor.cc), on a thread of its own that never runs inside
// a timed span.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "results/results.h"
#include "runner/run_plan.h"

namespace kvbench::runner {

// The widths of the permanent lines' text columns, measured over the whole
// plan before any engine runs, so the lines of every engine, phase and matrix
// point line up (the numbers after them have fixed widths).
struct LiveColumns {
  size_t engine = 12;  // the longest engine name
  size_t label = 20;   // the longest LivePointLabel of the plan
};
LiveColumns MeasureLiveColumns(const Workload& workload, const std::vector<std::string>& engines);

// A matrix point's row label in the live lines: the phase name, and when the
// phase has a matrix, "[threads thr, target/s, cache]" ("get [1 thr, cold]").
std::string LivePointLabel(const std::string& phase, int threads, double target_ops,
                           const std::string& cache);

// The permanent line of a finished matrix point, without a line end:
// engine, label, median ops/s, median p99, n, "(p99 of block means)" for
// record phases, and the interval of the median ops/s last (its width varies).
std::string PointDoneLine(const results::PhaseRun& run, const LiveColumns& columns);

// Where one engine's child stands in the whole run.
struct RunPosition {
  int engine_index = 0;  // 0-based
  int engine_count = 1;
  int fork = 0;  // 0-based: which of the engine's processes (Measurement::forks) this is
  int fork_count = 1;
  std::chrono::steady_clock::time_point run_start = std::chrono::steady_clock::now();
  // The terminal's width, read by the parent: the engine's child writes its
  // stderr into a pipe the parent passes on (engine_process.h), so it cannot
  // ask the terminal itself. 0: unknown (80 is used).
  int terminal_width = 0;
  LiveColumns columns;
  // The engine declares itself not durable (its data lives only in memory):
  // its cold-cache rows mean nothing and are not printed live; the parent
  // says so once per run, and the reports show them as "n/a (in memory)".
  bool in_memory = false;
};

// Planned operations of a plan (count x repetitions x matrix points per phase,
// a phase without a count as 1), for ETAs.
uint64_t PlannedWork(const Workload& workload);

class ProgressDisplay {
 public:
  ProgressDisplay(const Workload& workload, const RunPosition& position, std::string engine);

  // The phase, matrix point and repetition about to run (phase_index 0-based;
  // a negative repetition is a warm-up, shown as such).
  void Begin(size_t phase_index, int repetition, uint64_t ops_total);
  // Redraws the line with `done` of the repetition's operations after `seconds`.
  void Draw(uint64_t done, double seconds) const;
  // The repetition ended: its work counts as done.
  void EndRepetition();
  // A matrix point of a phase finished: clears the line, prints the permanent
  // one (none for a cold-cache row of an in-memory engine).
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
