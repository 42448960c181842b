// The child-process side of a run: one engine, every phase of the plan.
#pragma once

#include <string>
#include <vector>

#include "runner/progress_display.h"
#include "runner/run_plan.h"

namespace kvbench::runner {

// The messages from an engine's child to the parent, one JSON object a line
// with one of these keys: a finished PhaseRun, the opened engine's library
// version (when it says more than the library's), or why the engine could not
// run at all. Both sides use these names.
// A shard's child also reports the seconds its setup replays took.
namespace child_message {
inline constexpr const char* kRun = "run";
inline constexpr const char* kLibraryVersion = "library_version";
inline constexpr const char* kError = "error";
inline constexpr const char* kSetupSeconds = "setup_seconds";
}  // namespace child_message

// Which of an engine's rows its child measures: every one (unsharded), or a
// shard's, each preceded by the setup it needs (runner/engine_schedule.h).
struct EngineRows {
  std::vector<bool> measured;  // one flag per row of the engine; empty: all
  int first_row = 0;           // the engine's first plan row number
  int shard = -1;              // the shard's index; -1: unsharded (rows carry no numbers)
};

// Opens `engine` in `data_directory` (which must exist and be empty), runs
// its rows' phases and matrix points in order, and writes one JSON line per
// finished PhaseRun to `fd` ({"run": {...}}) as it finishes, or {"error":
// "..."} when the engine cannot even start. Returns the process exit code.
// With `show_progress` (stderr is a terminal) it draws the progress line and
// a permanent line per finished matrix point; `position` places this engine
// in the whole run for the ETA.
int RunEngineInChild(const RunPlan& plan, const results::EngineRun& engine,
                     const std::string& data_directory, bool show_progress,
                     const RunPosition& position, const EngineRows& rows, int fd);

}  // namespace kvbench::runner
