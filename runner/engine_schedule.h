// What one engine's child runs, in order: the rows it measures and, before
// them, untimed and unrecorded, the setup that leaves the engine as the
// unsharded run would have (replays of earlier repetitions that changed its
// state, the sync a cold point's eviction does, fresh starts). Unsharded,
// every row is measured and the schedule is the plan's rows in order, with
// no setup. Which rows a shard measures, and why they are grouped so, is
// sharding's business (runner/shard/shard_plan.h); how to walk them is the
// child's (runner/engine_runner.cc), so the rules live here, in the core.
#pragma once

#include <functional>
#include <vector>

#include "adapters/adapter.h"
#include "runner/workload.h"

namespace kvbench::runner {

// Rows of one engine (the same for every engine): its phases' matrix points.
size_t RowsPerEngine(const Workload& workload);

// What one engine's child does, in order.
struct EngineStep {
  enum Kind {
    kMeasure,   // the matrix point with every repetition, recorded (PhaseExecutor::Run)
    kReplay,    // one repetition, unthrottled, unrecorded
    kColdSync,  // what a cold point leaves: the engine synced, closed and reopened
    kRecreate,  // what a fresh start leaves: an empty engine
  };
  Kind kind = kMeasure;
  size_t phase = 0;
  size_t point = 0;
  int repetition = 0;  // kReplay only
  int row = 0;         // the plan row (kMeasure)
};
// The steps for measuring `measured` (one flag per row of this engine,
// RowsPerEngine long) with every setup they need, ending at the last measured
// row. `caps`: the engine's (a phase it cannot run does nothing; an
// in-memory engine's cold points evict nothing). `first_row`: this engine's
// first row number.
std::vector<EngineStep> EngineSchedule(const Workload& workload, const std::vector<bool>& measured,
                                       const Capabilities& caps, int first_row);
// The same steps, handed to `emit` one by one instead of collected (the
// shard assignment costs many candidate schedules).
void WalkEngineSchedule(const Workload& workload, const std::vector<bool>& measured,
                        const Capabilities& caps, int first_row,
                        const std::function<void(const EngineStep&)>& emit);

// Whether a phase changes the engine's state (its data, key count or record
// table; the page cache aside): reads do not, everything else does. A setup
// replays only what does.
bool ChangesState(const PhaseSpec& spec);

// Whether the engine's state is thrown away (the engine recreated, empty)
// before run `run` of a matrix point of phase `phase` (0 = its first run,
// warm-up repetitions counted): before every run of a fresh phase, and in the
// first phase from the second run on where that phase changes the state and
// began from an empty engine (nothing preloaded), so every repetition does
// the same work. PhaseExecutor follows it; so do a shard's replays.
bool ResetsBefore(const Workload& workload, const PhaseSpec& spec, size_t phase, int run);

// The warm-up repetitions a matrix point of `spec` runs before its measured
// ones (Measurement::warmup_repetitions), or 0 where a repetition would leave
// something later repetitions or phases see: a phase that changes the state
// unless every repetition starts from an empty engine (ResetsBefore), a
// phase run once (PhaseOpInfo::single_run), single calls and recreates. A
// warm-up repetition thus changes nothing a shard's replay must redo.
int WarmupRepetitions(const Workload& workload, const PhaseSpec& spec, size_t phase);

}  // namespace kvbench::runner
