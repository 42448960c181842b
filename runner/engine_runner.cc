#include "runner/engine_runner.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <optional>

#include "adapters/registry.h"
#include "datasets/key_generator.h"
#include "runner/engine_process.h"
#include "runner/engine_schedule.h"
#include "runner/phase_executor.h"
#include "results/results_json.h"
#include "datasets/value_generator.h"

namespace kvbench::runner {

namespace {

int Fail(int fd, const Status& s) {
  WriteLine(fd, nlohmann::json{{child_message::kError, s.ToString()}}.dump());
  return 3;
}

// Measures one matrix point and sends its row to the parent; false when the
// pipe is gone.
bool MeasureStep(const EngineStep& step, const PhaseSpec& phase, const MatrixPoint& point,
                 const EngineRows& rows, PhaseExecutor* executor, EngineHandle* handle,
                 const ProgressDisplay* progress, int fd) {
  results::PhaseRun run = executor->Run(phase, step.phase, point);
  // What the plan warned of, recorded on the row it describes, for the reports.
  run.writers_serialised = !run.repetitions.empty() &&
                           WritersSerialised(phase, run.threads, handle->adapter()->capabilities());
  if (rows.shard >= 0) {
    run.row = step.row;
    run.shard = rows.shard;
  }
  if (progress) progress->PointDone(run);
  return WriteLine(fd, nlohmann::json{{child_message::kRun, results::PhaseRunToJson(run)}}.dump());
}

// Setup: what the unsharded run would have left, untimed. A repetition that
// fails ends its point's replays (`*failed_replay` names that point), as a
// failure ends its point's repetitions in Run (the shard measuring that
// point records it).
Status RunSetupStep(const EngineStep& step, const PhaseSpec& phase, const MatrixPoint& point,
                    PhaseExecutor* executor, EngineHandle* handle,
                    std::pair<size_t, size_t>* failed_replay) {
  Status s;
  if (step.kind == EngineStep::kReplay && *failed_replay != std::pair{step.phase, step.point}) {
    s = executor->Replay(phase, step.phase, step.repetition, point);
    if (!s.ok()) *failed_replay = {step.phase, step.point};
  } else if (step.kind == EngineStep::kColdSync) {
    std::optional<double> ignored;
    s = handle->CloseAndEvict(&ignored);
    if (s.ok()) s = handle->Open(nullptr);
  } else if (step.kind == EngineStep::kRecreate) {
    s = handle->Recreate();
  }
  return s;
}

}  // namespace

int RunEngineInChild(const RunPlan& plan, const results::EngineRun& engine,
                     const std::string& data_directory, bool show_progress,
                     const RunPosition& position, const EngineRows& rows, int fd) {
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

  std::vector<bool> measured = rows.measured;
  if (measured.empty()) measured.assign(RowsPerEngine(w), true);
  // A phase with a dataset of its own gets its own key generator, made
  // when the schedule first reaches the phase.
  size_t keys_phase = w.phases.size();
  std::unique_ptr<datasets::KeyGenerator> phase_keys;
  std::vector<MatrixPoint> points;
  std::pair<size_t, size_t> failed_replay{w.phases.size(), 0};
  double setup_seconds = 0;
  for (const EngineStep& step :
       EngineSchedule(w, measured, handle.adapter()->capabilities(), rows.first_row)) {
    const PhaseSpec& phase = w.phases[step.phase];
    if (step.phase != keys_phase) {
      keys_phase = step.phase;
      points = ExpandMatrix(phase);
      phase_keys.reset();
      inputs.keys = keys.get();
      if (!phase.dataset_kind.empty()) {
        s = datasets::NewKeyGenerator(DatasetSpecOf(w, phase), &phase_keys);
        if (!s.ok()) return Fail(fd, s);
        inputs.keys = phase_keys.get();
      }
    }
    PhaseExecutor executor(inputs, &handle);
    if (step.kind == EngineStep::kMeasure) {
      if (!MeasureStep(step, phase, points[step.point], rows, &executor, &handle,
                       progress ? &*progress : nullptr, fd)) {
        return 4;
      }
      continue;
    }
    const auto t0 = std::chrono::steady_clock::now();
    s = RunSetupStep(step, phase, points[step.point], &executor, &handle, &failed_replay);
    setup_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!s.ok()) {
      std::fprintf(stderr, "kvbench: %s: setup before a later phase: phase '%s': %s\n",
                   engine.name.c_str(), phase.name.c_str(), s.ToString().c_str());
    }
  }
  if (rows.shard >= 0 &&
      !WriteLine(fd, nlohmann::json{{child_message::kSetupSeconds, setup_seconds}}.dump())) {
    return 4;
  }
  s = handle.Close();
  if (!s.ok()) return Fail(fd, s);
  return 0;
}

}  // namespace kvbench::runner
