#include "runner/phase_worker.h"

#include <chrono>
#include <cstring>
#include <thread>

#include "datasets/random.h"
#include "runner/cycle_clock.h"
#include "runner/status_reporter.h"

namespace kvbench::runner {

namespace {

// Word-at-a-time hash of the operation stream; cheap enough to run per
// operation outside the timed call.
inline uint64_t MixStream(uint64_t h, int kind, Slice key) {
  h = datasets::Mix64(h ^ (static_cast<uint64_t>(kind) + 0x9e37));
  size_t i = 0;
  for (; i + 8 <= key.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, key.data() + i, 8);
    h = (h ^ w) * 0x100000001b3ULL;
    h ^= h >> 29;
  }
  uint64_t tail = key.size();
  for (; i < key.size(); ++i) tail = (tail << 8) | static_cast<uint8_t>(key[i]);
  return datasets::Mix64(h ^ tail);
}

// Sleeps, then yields, then spins until `due`. A sleep on a loaded machine
// (or a VM) can wake a millisecond or more late, and lateness counts in the
// next operation's latency (it runs from its intended start), so the sleep
// stops well before `due` and the rest is yielded away.
void WaitUntil(const CycleClock& clock, uint64_t due, bool spin) {
  if (spin) {
    while (clock.Now() < due) {
    }
    return;
  }
  constexpr uint64_t kSleepMarginNs = 2'000'000;
  for (;;) {
    const uint64_t now = clock.Now();
    if (now >= due) return;
    const uint64_t left_ns = clock.ToNs(due - now);
    if (left_ns > 2 * kSleepMarginNs) {
      std::this_thread::sleep_for(std::chrono::nanoseconds(left_ns - kSleepMarginNs));
    } else if (left_ns > 20000) {
      std::this_thread::yield();
    }
  }
}

// Operation kinds that change the engine's data (a YCSB read-modify-write
// split in two syncs after its write part; see Run).
inline bool IsWrite(OpKind kind) {
  return kind == OpKind::kInsert || kind == OpKind::kUpdate || kind == OpKind::kDelete ||
         kind == OpKind::kRmw;
}

}  // namespace

PhaseWorker::PhaseWorker(const WorkerPlan& plan, int thread_index)
    : plan_(plan), stream_(plan, thread_index) {
  // Allocated here, before the timed span starts.
  if (plan_.interval_min_ns > 0) open_ = std::make_unique<std::array<LatencyHistogram, kOpKinds>>();
}

PhaseWorker::~PhaseWorker() = default;

void PhaseWorker::Run(Session* session, uint64_t start_ticks) {
  const CycleClock& clock = CycleClock::Get();
  WorkerResult* out = &result_;
  const bool throttled = plan_.target_ops > 0;
  const double interval_ticks =
      throttled ? 1e9 / (plan_.target_ops / plan_.threads) / clock.ns_per_tick() : 0;
  const uint64_t deadline =
      plan_.duration_s > 0
          ? start_ticks + clock.FromNs(static_cast<uint64_t>(plan_.duration_s * 1e9))
          : UINT64_MAX;
  const uint64_t total = plan_.ops_per_thread;
  const uint64_t batch = plan_.spec->batch;
  const bool batched = batch > 1 && stream_.writes();
  uint64_t in_batch = 0;
  uint64_t digest = 0;
  uint64_t measured = 0;
  record_to_ = out->latency.data();
  if (open_) {
    out->intervals.Start(start_ticks, clock.FromNs(plan_.interval_min_ns),
                         clock.FromNs(plan_.interval_max_ns));
    record_to_ = open_->data();
  }
  LatencyHistogram* const rec = record_to_;
  const bool split_rmw = stream_.SplitsRmw();
  uint64_t boundary = out->intervals.next_boundary();
  // sync = "commit" without batches: Sync() after every write.
  const bool sync_each_write = plan_.sync_each_commit && !batched && stream_.writes();
  uint64_t busy = 0;  // ticks inside the engine's calls: operations, begins, commits, syncs
  uint64_t t1 = clock.Now();

  for (uint64_t i = 0; i < total || plan_.duration_s > 0; ++i) {
    const OpKind kind = stream_.Next(i);
    digest = MixStream(digest, static_cast<int>(kind), stream_.key());

    uint64_t t0;
    uint64_t call_start;
    if (throttled) {
      const uint64_t due =
          start_ticks + static_cast<uint64_t>(static_cast<double>(i) * interval_ticks);
      WaitUntil(clock, due, plan_.spec->pacing == Pacing::kSpin);
      call_start = clock.Now();
      out->pacing_lateness.Record(clock.ToNs(call_start > due ? call_start - due : 0));
      t0 = due;  // latency from the intended start
    } else {
      t0 = call_start = clock.Now();
    }
    // A batch begins when its first operation is due, not before the wait
    // for it: an engine's batch may hold a lock (LMDB's writer mutex) that
    // would block the other threads through the pacing wait. Under a target
    // rate the begin is in the first operation's latency (it runs from the
    // intended start); unthrottled it is timed on its own.
    if (batched && in_batch == 0) {
      const Status s = session->BeginBatch();
      if (!s.ok() && out->first_error.ok()) out->first_error = s.WithContext("begin batch");
      if (!throttled) t0 = clock.Now();
    }
    Status s = stream_.Apply(kind, session);
    if (kind == OpKind::kRmw && split_rmw) {
      // YCSB times the read and the update of a read-modify-write apart too.
      const uint64_t tm = clock.Now();
      s = stream_.ApplyRmwWrite(s, session);
      if (sync_each_write && s.ok() && stream_.RmwWrote()) {
        s = plan_.adapter->Sync().WithContext("sync");
      }
      t1 = clock.Now();
      if (t1 >= boundary) {
        CloseInterval(t1, false);
        boundary = out->intervals.next_boundary();
      }
      rec[static_cast<size_t>(OpKind::kRmwRead)].Record(clock.ToNs(tm > t0 ? tm - t0 : 0));
      if (stream_.RmwWrote()) {
        rec[static_cast<size_t>(OpKind::kRmwUpdate)].Record(clock.ToNs(t1 - tm));
      }
    } else {
      // sync = "commit" unbatched: every write is its own commit, synced as
      // seed 004's db_sync after each db_put, inside the write's latency.
      if (sync_each_write && s.ok() && IsWrite(kind)) {
        s = plan_.adapter->Sync().WithContext("sync");
      }
      t1 = clock.Now();
      if (t1 >= boundary) {
        CloseInterval(t1, false);
        boundary = out->intervals.next_boundary();
      }
    }

    rec[static_cast<size_t>(kind)].Record(clock.ToNs(t1 > t0 ? t1 - t0 : 0));
    busy += t1 > call_start ? t1 - call_start : 0;
    ++measured;
    if (!stream_.Count(kind, s, out)) break;

    if (batched && ++in_batch == batch) {
      in_batch = 0;
      if (!Commit(session, &busy)) break;
      t1 = clock.Now();
    }
    if ((i & 1023) == 0) progress_.store(i, std::memory_order_relaxed);
    if (t1 >= deadline) break;
  }
  if (batched && in_batch > 0) {
    Commit(session, &busy);
    t1 = clock.Now();
  }
  if (open_) CloseInterval(t1, true);
  out->end_ticks = t1;
  out->busy_ticks = busy;
  out->ops = measured;
  out->digest = digest;
  progress_.store(total, std::memory_order_relaxed);
}

bool PhaseWorker::Commit(Session* session, uint64_t* busy) {
  const CycleClock& clock = CycleClock::Get();
  const uint64_t t0 = clock.Now();
  Status s = session->CommitBatch();
  if (s.ok() && plan_.sync_each_commit) s = plan_.adapter->Sync();
  const uint64_t t1 = clock.Now();
  *busy += t1 - t0;
  record_to_[static_cast<size_t>(OpKind::kCommit)].Record(clock.ToNs(t1 - t0));
  return stream_.Count(OpKind::kCommit, s, &result_);
}

void PhaseWorker::CloseInterval(uint64_t now, bool last) {
  IntervalRecorder& intervals = result_.intervals;
  const size_t first = intervals.cells().size();
  intervals.Close(now, open_->data(), result_.latency.data(), kOpKinds, last);
  if (plan_.status_feed != nullptr) plan_.status_feed->Publish(intervals, first);
}

}  // namespace kvbench::runner
