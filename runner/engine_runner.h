// The child-process side of a run: one engine, every phase of the plan.
#pragma once

#include <string>

#include "runner/progress_display.h"
#include "runner/run_plan.h"

namespace kvbench::runner {

// Opens `engine` in `data_directory` (which must exist and be empty), runs
// every phase's matrix points in order, and writes one JSON line per finished
// PhaseRun to `fd` ({"run": {...}}) as it finishes, or {"error": "..."} when
// the engine cannot even start. Returns the process exit code.
// With `show_progress` (stderr is a terminal) it draws the progress line and
// a permanent line per finished matrix point; `position` places this engine
// in the whole run for the ETA.
int RunEngineInChild(const RunPlan& plan, const results::EngineRun& engine,
                     const std::string& data_directory, bool show_progress,
                     const RunPosition& position, int fd);

}  // namespace kvbench::runner
