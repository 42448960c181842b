// Crash trials: the power-loss layer's driver (and the kill fault's).
//
// One trial of one engine x option set:
//   1. power-loss / torn: an empty backing directory is mounted through the
//      power-loss layer (PowerLossMount); kill: a plain directory.
//   2. A writer child opens the engine there, syncs it, and says "ready"; the
//      layer checkpoints (the empty database is durable: the trial is about
//      commits, not about creating files). The writer then makes commits
//      (crash_commits.h) and reports each acknowledged one over a pipe; with
//      `writers` above 1, that many threads do, each its own stream.
//   3. After a random number of acknowledgements (1..max_commits) and a
//      random delay under 2 ms, the writer is SIGKILLed; in a quarter of the
//      trials the writer kills itself right after that acknowledgement
//      instead, before a later commit can sync what an acknowledged one did
//      not. For power-loss/torn the layer then cuts (discard, or torn) and
//      unmounts.
//   4. A checker child opens the engine on what is left (for power loss, the
//      backing directory itself, without the layer, so the recovery time
//      carries no layer overhead), times the open (recovery), runs the
//      engine's own check (Adapter::CheckIntegrity), reads every key written
//      and, on ordered engines, scans everything.
// Every choice is a function of (seed, trial), so a run can be repeated;
// only the exact moment of the kill depends on timing.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "results/results.h"

namespace kvbench::runner {

struct CrashOptions {
  std::string fault = "power-loss";  // "power-loss" | "torn" | "kill"
  int trials = 20;
  uint64_t seed = 1;
  uint64_t max_commits = 200;  // a trial cuts after 1..max_commits acknowledged commits
  // Writers committing at once, each its own stream on its own thread and
  // session (crash_commits.h); the cut counts every writer's acknowledgements.
  int writers = 1;
  std::string scratch;         // an existing directory the trials may fill and empty
  std::string layer_binary;    // the kvbench-powerloss executable (power-loss and torn)
  double timeout_s = 300;      // per writer or checker process
  // Called after each trial with (trial index, trials) for a progress display.
  std::function<void(int, int)> on_trial;
};

// Runs options.trials trials of `engine` (name, resolved options) and fills
// `run` (engine, fault, options, declaration, counts, measured, finding).
// An engine that cannot be set up on the layer is "not-testable" with the
// reason; a harness failure (the layer would not mount) is "failed". Stops
// early, keeping what it has, when the run is interrupted (interrupt.h).
void RunCrashTrials(const results::EngineRun& engine, const CrashOptions& options,
                    results::DurabilityRun* run);

}  // namespace kvbench::runner
