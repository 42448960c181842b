// The child-process side of a run: one engine, every phase of the plan.
#pragma once

#include <string>

#include "runner/progress_display.h"
#include "runner/run_plan.h"

namespace kvbench::runner {

// The messages from an engine's child to the parent, one JSON object a line
// with one of these keys: a finished PhaseRun, the opened engine's library
// version (when it says more than the library's), or why the engine could not
// run at all. Both sides use these names.
namespace child_message {
inline constexpr const char* kRun = "run";
inline constexpr const char* kLibraryVersion = "library_version";
inline constexpr const char* kError = "error";
}  // namespace child_message

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
