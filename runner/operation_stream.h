// OperationStream: what one client thread does next in a phase, decided from
// the phase and its distributions, and how that operation is applied to a
// Session. It reads no clock and keeps no histogram: the timed driver
// (PhaseWorker) paces, times and records; this decides and applies.
//
// Two ways to drive it, giving the same operations and the same digest:
//
//   prepared (the default): PrepareChunk() generates the next chunk of
//     operations (kinds, keys, values, scan limits) into memory, untimed;
//     the driver then takes them in order: kind = Load(j); [clock]
//     Apply(kind, session) [clock]; Count(kind, status, out). Between calls
//     the driver's own work is a load from the chunk: key generation (some
//     400 ns for URL keys) is out of the timed span altogether.
//   live: kind = Next(i) generates operation i in place (not timed, but
//     inside the wall span). Needed where an operation depends on what the
//     other threads did so far (YCSB mixes with inserts read only keys
//     every thread has inserted: WorkerPlan::insert_counts).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "adapters/adapter.h"
#include "results/results.h"
#include "runner/interval_recorder.h"
#include "runner/latency_histogram.h"
#include "runner/workload.h"

namespace kvbench::datasets {
class KeyGenerator;
class ValueGenerator;
}  // namespace kvbench::datasets

namespace kvbench::runner {

// Key-value operation types a phase records separately. kRmwRead and
// kRmwUpdate are the two parts of a YCSB READ-MODIFY-WRITE, timed apart as
// YCSB times them (its read and its update also count under READ and
// UPDATE); other phases time a rmw as one call and leave them empty.
enum class OpKind : int {
  kInsert, kUpdate, kDelete, kRmw, kGet, kScan, kCommit, kRmwRead, kRmwUpdate, kCount
};
inline constexpr size_t kOpKinds = static_cast<size_t>(OpKind::kCount);
const char* OpKindName(OpKind kind);
// The name results give an operation type of `spec`: OpKindName, or for
// phases made from a YCSB file YCSB's names (READ, UPDATE, INSERT, SCAN,
// READ-MODIFY-WRITE).
const char* OpName(OpKind kind, const PhaseSpec& spec);

// The operation types a phase's results report, each with the kinds merged
// into it, in results order: "all" (every kind but commits and rmw parts),
// then one per kind. For YCSB phases READ also holds the rmw read parts and
// UPDATE the rmw update parts, as YCSB counts them.
std::vector<ReportedOp> ReportedOps(const PhaseSpec& spec);

// A counter on a cache line of its own.
struct alignas(64) PaddedCounter {
  std::atomic<uint64_t> value{0};
};

// What a worker needs to know about the phase; shared read-only by all workers.
class StatusFeed;

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
  // For Sync() with sync = "commit" (after each commit, or each write when
  // unbatched; the plan allows it with one thread only).
  Adapter* adapter = nullptr;
  // Latency over time (interval_recorder.h): the narrowest and the widest
  // interval in ns; 0 = none (warm-up passes).
  uint64_t interval_min_ns = 0;
  uint64_t interval_max_ns = 0;
  // `-s` status lines: where this worker publishes each closed interval
  // (status_reporter.h); null when nobody asked.
  StatusFeed* status_feed = nullptr;
  // The memory this worker may use for prepared operations (keys, values
  // and their descriptors); a longer phase runs in chunks that fit it.
  // 0: generate each operation in the loop (live).
  size_t buffer_bytes = 0;
};

// Per-thread results, merged by the executor after all workers finished.
struct WorkerResult {
  std::array<LatencyHistogram, kOpKinds> latency;
  std::array<results::WorkCounts, kOpKinds> work;
  // The intervals of the time series (off when the plan asks for none).
  IntervalRecorder intervals;
  // Under a target rate: how late the driver started each operation after
  // its intended start (the harness's own pacing error, not the engine's).
  LatencyHistogram pacing_lateness;
  uint64_t ops = 0;          // measured operations (commits not counted)
  uint64_t digest = 0;       // hash of the operation stream (kinds and keys)
  uint64_t end_ticks = 0;    // CycleClock when this worker's last operation ended
  uint64_t busy_ticks = 0;   // CycleClock ticks inside the engine's calls (ops, begins, commits, syncs)
  Status first_error;        // first error status (not NotFound)
  bool unsupported = false;  // the engine returned NotSupported
};

// Adds `from`'s counts to `into` (the digest is merged by the executor).
void AddWork(const results::WorkCounts& from, results::WorkCounts* into);

class OperationStream {
 public:
  OperationStream(const WorkerPlan& plan, int thread_index);
  ~OperationStream();

  // Whether the plan lets this stream prepare its operations ahead (see
  // the top of this file): false for live streams.
  bool CanPrepare() const;
  // Generates operations first_i, first_i + 1, ... (0-based within this
  // thread), at most `max_ops` of them, stopping early once the chunk holds
  // `max_bytes` (only after a multiple of `multiple` operations, so batches
  // never straddle two chunks). Replaces the previous chunk. Not timed.
  // Returns how many it made (at least one when max_ops > 0).
  uint64_t PrepareChunk(uint64_t first_i, uint64_t max_ops, size_t max_bytes, uint64_t multiple);
  // Makes prepared operation j of the chunk the current one.
  OpKind Load(uint64_t j);
  // After a chunk's timed span: the first `ran` operations of it ran (adds
  // them to the digest).
  void EndChunk(uint64_t ran);
  // Live streams: decides operation i and makes it the current one. Not timed.
  OpKind Next(uint64_t i);
  // The hash of the operation stream (kinds and keys) of the operations run
  // (live: up to the current one; prepared: up to the last EndChunk), the
  // same whichever way the stream was driven.
  uint64_t digest() const;
  // The bytes the prepared chunk holds at its largest (counted apart from
  // the engine's memory).
  size_t buffer_bytes() const;
  // Applies the prepared operation: the engine calls, and nothing else. For
  // a YCSB READ-MODIFY-WRITE (SplitsRmw()), only its read.
  Status Apply(OpKind kind, Session* session);
  // YCSB phases time READ-MODIFY-WRITE in two parts: Apply() reads, then
  // ApplyRmwWrite() modifies and writes, given the read's status; it writes
  // nothing after a read error (RmwWrote() says whether it wrote).
  bool SplitsRmw() const;
  Status ApplyRmwWrite(const Status& read, Session* session);
  bool RmwWrote() const;
  // Counts what the engine answered; false when the worker must stop (an
  // error). Also publishes a completed YCSB insert to the other threads.
  bool Count(OpKind kind, const Status& s, WorkerResult* out);
  // Whether the phase writes (batches apply).
  bool writes() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kvbench::runner
