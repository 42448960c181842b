// RunPlan: a workload (read from a TOML file, or from YCSB property files:
// runner/ycsb/workload_file.h reads either kind and plans it) scaled and
// checked against the registered engines, their options and the datasets
// library, before anything runs. `kvbench validate` prints it; `kvbench run`
// executes it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "common/status.h"
#include "datasets/key_generator.h"
#include "results/results.h"
#include "runner/workload.h"

namespace kvbench::runner {

struct RunOverrides {
  std::vector<std::string> engines;  // --engines: replaces the workload's list
  double scale = 1.0;                // --scale
  int repeat = 0;                    // --repeat: repetitions of every phase (0 = as written)
  int forks = 0;                     // --forks: processes per engine (0 = as written)
  // --warmup-repetitions: discarded repetitions before the measured ones
  // (-1 = as written).
  int warmup_repetitions = -1;
  std::optional<uint64_t> seed;      // --seed: replaces every dataset seed
  double timeout_s = 0;              // --timeout: per engine (0 = as written)
  // -p name=value: YCSB property overrides (YCSB property files only).
  std::vector<std::string> properties;
};

struct RunPlan {
  Workload workload;
  // Name, library version, every resolved option and the capabilities of each
  // engine, in run order.
  std::vector<results::EngineRun> engines;
  // Resolved dataset and value parameters (defaults included).
  std::map<std::string, std::string> dataset;
  std::map<std::string, std::string> values;
  // Things to tell the user once, on stderr (e.g. unused YCSB properties).
  std::vector<std::string> warnings;
};

// Plans a workload already read (PlanRun in runner/ycsb/workload_file.h reads
// one file of either kind; `kvbench ycsb` reads several property files);
// overrides.properties are not read here. InvalidArgument (bad contents,
// unknown engine, option, dataset or distribution; "FILE: ..." prefixed) or
// IOError (an unreadable key file).
Status PlanWorkload(Workload workload, const RunOverrides& overrides, RunPlan* plan);

// An engine's capabilities as the plan recorded them (EngineRun::capabilities).
// The longest key is not recorded: max_key_size stays 0.
Capabilities CapabilitiesOf(const results::EngineRun& engine);

// Whether `threads` client threads of `phase` write on an engine with
// `capabilities` that declares no concurrent writers, so its adapter lets
// one writer in at a time (adapters/adapter.h): the plan's note for the
// phase, and results::PhaseRun::writers_serialised for each such row.
// A phase's client threads write when its operation writes, or, for a mix,
// when any share is not a read or a scan.
bool WritersSerialised(const PhaseSpec& phase, int threads, const Capabilities& capabilities);

// The key generator's spec for the workload's [dataset] table.
datasets::DatasetSpec DatasetSpecOf(const Workload& workload);
// A phase's dataset: its own when it has one, else the workload's.
datasets::DatasetSpec DatasetSpecOf(const Workload& workload, const PhaseSpec& phase);

// The plan as text for `kvbench validate`.
std::string DescribePlan(const RunPlan& plan);

// The parameters that shaped a phase, by name: exactly the fields its
// operation reads (PhaseOpInfo::fields), as `kvbench validate` prints them and
// results.json records them.
std::map<std::string, std::string> PhaseParameters(const PhaseSpec& spec);

// Every matrix point of a phase, in run order.
struct MatrixPoint {
  int threads;
  double target;
  CacheState cache = CacheState::kAsIs;
};
std::vector<MatrixPoint> ExpandMatrix(const PhaseSpec& spec);

}  // namespace kvbench::runner
