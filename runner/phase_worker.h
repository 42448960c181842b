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
// Chunks: before its timed span, the worker generates its operations into
// memory (OperationStream::PrepareChunk; WorkerPlan::buffer_bytes bounds it),
// so generating keys and values, hashing the stream and choosing from the
// distributions are out of the wall span; what is left between calls is
// loading the next prepared operation and recording the last one. A phase
// longer than the buffer runs in chunks: every worker prepares its next
// chunk untimed, the workers meet at a barrier (runner/chunk_barrier.h), and the
// chunks' spans add up to the phase's wall span. Times are kept on a
// "span clock" that stops between chunks: real ticks minus the time spent
// between chunks, so intervals, deadlines and pacing see one continuous
// span. A live stream (operation_stream.h) runs as one chunk, generating
// each operation in the loop.
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

#include "runner/cycle_clock.h"
#include "runner/operation_stream.h"

namespace kvbench::runner {

class PhaseWorker {
 public:
  PhaseWorker(const WorkerPlan& plan, int thread_index);
  ~PhaseWorker();

  // Prepares the next chunk (untimed). False when the worker has nothing
  // left to run (its operations done, its deadline passed, or an error).
  bool Prepare();
  // Runs the prepared chunk on the calling thread with `session`.
  // `phase_start` is the span clock's start (the common start of the phase,
  // CycleClock ticks); `chunk_start` the span clock at this chunk's start;
  // `real_start` the CycleClock when the chunk starts (the span clock reads
  // real ticks minus real_start - chunk_start).
  void RunChunk(Session* session, uint64_t phase_start, uint64_t chunk_start, uint64_t real_start);
  // All chunks on the calling thread, alone (one client; benches): the
  // phase starts on the span clock at `start_ticks`.
  void Run(Session* session, uint64_t start_ticks);

  // The span clock when this worker's last operation ended.
  uint64_t end_ticks() const { return result_.end_ticks; }
  // The memory the prepared chunks took at their largest.
  size_t buffer_bytes() const { return stream_.buffer_bytes(); }

  const WorkerResult& result() const { return result_; }
  // Operations done so far (for progress display; written with relaxed stores
  // to this worker's own cache line).
  uint64_t progress() const { return progress_.load(std::memory_order_relaxed); }

 private:
  // Commits the open batch; adds the call's ticks to *busy.
  bool Commit(Session* session, uint64_t* busy);
  // Ends the open interval at `now` (span clock; its histograms go to
  // result_.intervals and result_.latency) and publishes it to the status feed.
  void CloseInterval(uint64_t now, bool last);
  // The first chunk: where the loop records, and the intervals' start.
  void Start(uint64_t phase_start);
  // Under a target rate: waits until `due` (real ticks), records how late
  // the driver was, and returns the clock.
  uint64_t WaitForDue(uint64_t due);
  // Reads the clock at the end of a call and closes the open interval when
  // the call ended past it (*boundary: its end in real ticks).
  uint64_t EndCall(uint64_t offset, uint64_t* boundary) {
    const uint64_t t = CycleClock::Get().NowAfterPriorWork();
    if (t >= *boundary) {
      CloseInterval(t - offset, false);
      *boundary = RealTicks(result_.intervals.next_boundary(), offset);
    }
    return t;
  }
  static uint64_t RealTicks(uint64_t span_ticks, uint64_t offset) {
    return span_ticks == UINT64_MAX ? UINT64_MAX : span_ticks + offset;
  }
  // Ends the worker's part: commits an open batch, closes the last interval
  // and fills result_. `offset` turns real ticks into span-clock ticks.
  void Finish(Session* session, uint64_t t1, uint64_t offset);

  const WorkerPlan& plan_;
  // Where the loop records: result_.latency, or the open interval's
  // histograms (open_) when over time is on.
  LatencyHistogram* record_to_ = nullptr;
  std::unique_ptr<std::array<LatencyHistogram, kOpKinds>> open_;
  OperationStream stream_;
  WorkerResult result_;
  // Where the worker is, across chunks.
  bool live_ = false;           // generating in the loop (one chunk)
  bool started_ = false;        // the first chunk ran (intervals started)
  bool finished_ = false;
  uint64_t next_op_ = 0;        // index (within this thread) of the next operation
  uint64_t prepared_ = 0;       // operations in the prepared chunk
  uint64_t duration_chunk_ = 0; // timed phases: the next chunk's size
  uint64_t in_batch_ = 0;
  uint64_t busy_ = 0;           // ticks inside the engine's calls
  uint64_t measured_ = 0;
  uint64_t boundary_ = 0;       // span clock: the open interval's end
  alignas(64) std::atomic<uint64_t> progress_{0};
};

}  // namespace kvbench::runner
