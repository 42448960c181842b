// PhaseWorker: one client thread's timed driver for one phase.
//
// The operation stream (operation_stream.h) decides what to do; the driver
// paces, reads the clock around each Apply, groups writes into batches and
// commits them, and records histograms and counters. Each worker owns its
// Session, stream, histograms and counters; nothing shared is written while it
// runs but its own progress counter. The executor merges the workers' results
// after they all finish.
//
// Over time: with WorkerPlan::interval_min_ns set, the driver records into
// histograms of the open interval and hands them to the IntervalRecorder
// when an operation ends past the interval (interval_recorder.h), which also
// keeps WorkerResult::latency whole; one comparison per operation otherwise.
//
// Timing: unthrottled, an operation's latency runs from just before the call
// to just after it. Under a target rate, operation i of a thread is due at
// start + i * interval and its latency runs from that intended start, so a
// stall delays the following operations and counts in their latency too (no
// coordinated omission); how late the driver itself started each operation is
// kept apart (WorkerResult::pacing_lateness). Each worker records when its
// last operation ended (the wall span's end: what ops/s divides by) and how
// long it spent inside the engine's calls (operations, batch begins, commits
// and syncs: the busy time, reported as engine_seconds beside the wall span).
// The busy time leaves out everything of the driver's own between calls:
// choosing and generating the next key and value, hashing the stream,
// recording the histograms; the difference is the harness's share of the
// span. The executor makes the phase's figures from them
// (phase_executor.cc); neither ever includes joining threads or a progress
// display.
//
// Batches: a batch begins when its first operation is due (after the pacing
// wait), so a lock the engine's batch holds is not held through the wait.
// sync = "commit": Sync() after each commit, or after every write when
// unbatched, inside the timed call.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "runner/operation_stream.h"

namespace kvbench::runner {

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
  // Commits the open batch; adds the call's ticks to *busy.
  bool Commit(Session* session, uint64_t* busy);
  // Ends the open interval at `now` (its histograms go to result_.intervals
  // and result_.latency) and publishes it to the status feed.
  void CloseInterval(uint64_t now, bool last);

  const WorkerPlan& plan_;
  // Where the loop records: result_.latency, or the open interval's
  // histograms (open_) when over time is on.
  LatencyHistogram* record_to_ = nullptr;
  std::unique_ptr<std::array<LatencyHistogram, kOpKinds>> open_;
  OperationStream stream_;
  WorkerResult result_;
  alignas(64) std::atomic<uint64_t> progress_{0};
};

}  // namespace kvbench::runner
