// PhaseWorker: one client thread's timed loop for one phase.
//
// Each worker owns its Session, its generators, its histograms and its
// counters; nothing shared is written while it runs. The runner merges the
// workers' results after they all finish (PhaseExecutor).
//
// Timing: the runner, not the adapter, reads the clock around every adapter
// call. Unthrottled, an operation's latency runs from just before the call to
// just after it. Under a target rate, operation i of a thread is due at
// start + i * interval, and its latency runs from that intended start, so a
// stall delays the following operations' starts and is counted in their
// latency too (no coordinated omission).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "adapters/adapter.h"
#include "runner/latency_histogram.h"
#include "results/results.h"
#include "runner/workload.h"

namespace kvbench::datasets {
class KeyGenerator;
class ValueGenerator;
}  // namespace kvbench::datasets

namespace kvbench::runner {

// Operation types a phase can record separately.
enum class OpKind : int { kInsert, kUpdate, kDelete, kRmw, kGet, kScan, kCommit, kCount };
const char* OpKindName(OpKind kind);
// The name results give an operation type of `spec`: OpKindName, or for
// phases made from a YCSB file YCSB's names (READ, UPDATE, INSERT, SCAN,
// READ-MODIFY-WRITE).
const char* OpName(OpKind kind, const PhaseSpec& spec);

struct WorkerResult {
  std::array<LatencyHistogram, static_cast<size_t>(OpKind::kCount)> latency;
  std::array<results::WorkCounts, static_cast<size_t>(OpKind::kCount)> work;
  uint64_t ops = 0;          // measured operations (commits not counted)
  uint64_t digest = 0;       // hash of the operation stream (kinds and keys)
  Status first_error;        // first error status (not NotFound)
  bool unsupported = false;  // the engine returned NotSupported
};

// A counter on a cache line of its own.
struct alignas(64) PaddedCounter {
  std::atomic<uint64_t> value{0};
};

// What a worker needs to know about the phase; shared read-only by all workers.
struct WorkerPlan {
  const PhaseSpec* spec = nullptr;
  const datasets::KeyGenerator* keys = nullptr;
  const datasets::ValueGenerator* values = nullptr;
  uint64_t seed = 0;           // per phase and repetition; each thread derives its own
  int threads = 1;
  double target_ops = 0;       // over all threads
  uint64_t present = 0;        // keys [0, present) are loaded when the phase starts
  uint64_t insert_base = 0;    // the phase's inserts take indexes insert_base...
  // YCSB mix phases with inserts: one counter per thread, each written only by
  // its thread (inserts it completed), read by all to know which inserted
  // keys exist: keys below insert_base + threads x min(counters) do (threads
  // interleave their indexes). Null otherwise.
  PaddedCounter* insert_counts = nullptr;
  uint64_t ops_per_thread = 0;
  uint64_t phase_ops = 0;      // over all threads (the range a shuffled insert order permutes)
  double duration_s = 0;       // when > 0: run until this much time passed
  bool sync_each_commit = false;
  Adapter* adapter = nullptr;  // for Sync() with sync = "commit" (single thread only)
};

class PhaseWorker {
 public:
  PhaseWorker(const WorkerPlan& plan, int thread_index);
  ~PhaseWorker();

  // Runs the loop on the calling thread with `session`. `start_ticks` is the
  // common start (CycleClock ticks) for target-rate schedules.
  void Run(Session* session, uint64_t start_ticks);

  const WorkerResult& result() const { return result_; }
  // Operations done so far (for progress display; written with relaxed stores
  // to this worker's own cache line).
  uint64_t progress() const { return progress_.load(std::memory_order_relaxed); }

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
  WorkerResult result_;
  alignas(64) std::atomic<uint64_t> progress_{0};
};

}  // namespace kvbench::runner
