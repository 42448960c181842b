#include "runner/engine_runner.h"

#include <nlohmann/json.hpp>

#include <optional>

#include "adapters/registry.h"
#include "datasets/key_generator.h"
#include "runner/engine_process.h"
#include "runner/phase_executor.h"
#include "results/results_json.h"
#include "datasets/value_generator.h"

namespace kvbench::runner {

namespace {

int Fail(int fd, const Status& s) {
  WriteLine(fd, nlohmann::json{{child_message::kError, s.ToString()}}.dump());
  return 3;
}

}  // namespace

int RunEngineInChild(const RunPlan& plan, const results::EngineRun& engine,
                     const std::string& data_directory, bool show_progress,
                     const RunPosition& position, int fd) {
  const Workload& w = plan.workload;
  std::unique_ptr<Adapter> adapter;
  Status s = AdapterRegistry::Global().Create(engine.name, &adapter);
  if (!s.ok()) return Fail(fd, s);
  OpenRequest request;
  request.directory = data_directory;
  request.options = EngineOptions(engine.options);

  const datasets::DatasetSpec spec = DatasetSpecOf(w);
  std::unique_ptr<datasets::KeyGenerator> keys;
  s = datasets::NewKeyGenerator(spec, &keys);
  if (!s.ok()) return Fail(fd, s);
  datasets::ValueOptions value_options;
  s = datasets::ParseValueOptions(w.value_params, &value_options);
  if (!s.ok()) return Fail(fd, s);
  auto values = std::make_unique<datasets::ValueGenerator>(value_options, w.seed);

  EngineHandle handle(engine.name, std::move(adapter), request);
  handle.present = w.preloaded;
  s = handle.Open(nullptr);
  if (!s.ok()) return Fail(fd, s);
  if (const std::string opened = handle.adapter()->LibraryVersion(); opened != engine.library_version) {
    if (!WriteLine(fd, nlohmann::json{{child_message::kLibraryVersion, opened}}.dump())) return 4;
  }

  PhaseInputs inputs;
  inputs.workload = &w;
  inputs.keys = keys.get();
  inputs.values = values.get();
  std::optional<ProgressDisplay> progress;
  if (show_progress) progress.emplace(w, position, engine.name);
  inputs.progress = progress ? &*progress : nullptr;
  StatusOptions status{w.ycsb_output.status_interval_s, w.ycsb_output.label};
  if (w.ycsb_output.status) inputs.status = &status;
  for (size_t i = 0; i < w.phases.size(); ++i) {
    const PhaseSpec& phase = w.phases[i];
    // A phase with a dataset of its own gets its own key generator.
    std::unique_ptr<datasets::KeyGenerator> phase_keys;
    inputs.keys = keys.get();
    if (!phase.dataset_kind.empty()) {
      s = datasets::NewKeyGenerator(DatasetSpecOf(w, phase), &phase_keys);
      if (!s.ok()) return Fail(fd, s);
      inputs.keys = phase_keys.get();
    }
    PhaseExecutor executor(inputs, &handle);
    for (const MatrixPoint& point : ExpandMatrix(phase)) {
      results::PhaseRun run = executor.Run(phase, i, point);
      if (progress) progress->PointDone(run);
      if (!WriteLine(fd, nlohmann::json{{child_message::kRun, results::PhaseRunToJson(run)}}.dump())) return 4;
    }
  }
  s = handle.Close();
  if (!s.ok()) return Fail(fd, s);
  return 0;
}

}  // namespace kvbench::runner
