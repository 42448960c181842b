// PhaseExecutor: runs one phase at one matrix point (threads x target x
// cache) on one opened engine, with its repetitions, and measures everything
// around the workers' timed loops: the phase's time (and its wall span), CPU,
// peak RSS, storage bytes, file sizes, page-cache residency, and for cold runs
// the eviction and the separately timed reopen.
#pragma once

#include <memory>
#include <string>

#include "adapters/adapter.h"
#include "runner/operation_stream.h"
#include "runner/record_phase.h"
#include "results/results.h"
#include "runner/progress_display.h"
#include "runner/run_plan.h"
#include "runner/status_reporter.h"
#include "runner/workload.h"

namespace kvbench::datasets {
class KeyGenerator;
class ValueGenerator;
}

namespace kvbench::runner {

// The engine as the child process holds it across phases.
class EngineHandle {
 public:
  EngineHandle(std::string name, std::unique_ptr<Adapter> adapter, OpenRequest request)
      : name_(std::move(name)), adapter_(std::move(adapter)), request_(std::move(request)) {}
  ~EngineHandle();

  // Opens; *seconds receives the open time when non-null.
  Status Open(double* seconds);
  Status Close();
  // Close, evict the files from the page cache, and report their residency.
  Status CloseAndEvict(std::optional<double>* resident_pct_after_eviction);
  // Close, delete everything in the engine's directory, open empty. Forgets
  // the keys and records earlier phases wrote.
  Status Recreate();

  const std::string& name() const { return name_; }
  Adapter* adapter() { return adapter_.get(); }
  bool is_open() const { return open_; }
  std::vector<std::string> Files() const;

  // Keys [0, present) have been inserted by earlier phases.
  uint64_t present = 0;
  // No write since the engine's last Sync(): its files hold all its data.
  bool synced = true;
  // The record table record phases wrote (runner/record_phase.h).
  RecordState records;

 private:
  std::string name_;
  std::unique_ptr<Adapter> adapter_;
  OpenRequest request_;
  bool open_ = false;
};

struct PhaseInputs {
  const Workload* workload = nullptr;
  const datasets::KeyGenerator* keys = nullptr;
  const datasets::ValueGenerator* values = nullptr;
  // Non-null when stderr is a terminal: the progress line to redraw.
  ProgressDisplay* progress = nullptr;
  // Non-null with `kvbench ycsb -s`: YCSB's status lines while phases run.
  const StatusOptions* status = nullptr;
};

class PhaseExecutor {
 public:
  PhaseExecutor(const PhaseInputs& inputs, EngineHandle* engine)
      : in_(inputs), engine_(engine) {}

  // Never fails as a call: an engine error becomes status "failed" with the
  // reason, a missing capability status "unsupported".
  results::PhaseRun Run(const PhaseSpec& spec, size_t phase_index, const MatrixPoint& point);

  // A shard's setup (runner/engine_schedule.h): repetition `rep` of the phase at
  // `point` for the state it leaves, unthrottled (the same operations, not
  // paced), unrecorded, no progress drawn. A phase the engine cannot run does
  // nothing, as in Run. Returns the repetition's error.
  Status Replay(const PhaseSpec& spec, size_t phase_index, int rep, const MatrixPoint& point);

 private:
  // Repetition `rep` (its seed; a warm-up's is negative), the point's run
  // `run_index` counting warm-ups (whether the engine starts it empty:
  // ResetsBefore).
  Status RunRepetition(const PhaseSpec& spec, size_t phase_index, int rep, int run_index,
                       const MatrixPoint& point, results::Repetition* out, bool* unsupported);
  Status RunSingleCall(PhaseOp op, results::Repetition* out);
  Status RunRecreate(uint64_t count, results::Repetition* out);
  // What every client of a stream phase shares (phase_worker.h).
  WorkerPlan BaseWorkerPlan(const PhaseSpec& spec, uint64_t seed, const MatrixPoint& point,
                            bool measured) const;
  // `measured` false: a warm-up pass, nothing recorded.
  Status RunWorkers(const PhaseSpec& spec, uint64_t seed, const MatrixPoint& point,
                    uint64_t count, bool measured, results::Repetition* out, bool* unsupported);

  PhaseInputs in_;
  EngineHandle* engine_;
};

// Why `spec` cannot run on an engine with `caps`, or "" when it can.
std::string UnsupportedReason(const PhaseSpec& spec, const Capabilities& caps);

}  // namespace kvbench::runner
