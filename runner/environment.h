// What machine and build produced a run: written into every results.json.
#pragma once

#include <string>

#include "results/results.h"

namespace kvbench::runner {

// CPU, cores, memory, kernel, the filesystem holding `data_directory`,
// compiler and flags, kvbench's version and git revision. Library versions are
// filled in by the runner from each adapter.
results::Environment CaptureEnvironment(const std::string& data_directory);
// Calibrates the operation clock (runner/cycle_clock.h) in this process, if
// it was not yet, and records it in *e. Called by the parent before it forks
// the engines' processes, so they all inherit one calibration.
void CalibrateClock(results::Environment* e);

// Current UTC time as "2026-11-22T08:15:00Z".
std::string UtcTimestamp();

}  // namespace kvbench::runner
