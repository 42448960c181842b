#include "runner/phase_worker.h"

#include <chrono>
#include <cstring>
#include <thread>

#include "datasets/random.h"
#include "runner/cycle_clock.h"
#include "runner/status_reporter.h"

namespace kvbench::runner {

namespace {

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
  live_ = plan_.buffer_bytes == 0 || !stream_.CanPrepare();
  // A timed phase does not know how many operations it will run: its chunks
  // start small and double (each chunk's generation is untimed, but a slow
  // engine should not wait for a buffer it will never use).
  duration_chunk_ = 1 << 16;
  if (plan_.ops_per_thread == 0 && plan_.duration_s <= 0) finished_ = true;
}

PhaseWorker::~PhaseWorker() = default;

bool PhaseWorker::Prepare() {
  if (finished_) return false;
  if (live_) return true;
  const bool timed = plan_.duration_s > 0;
  uint64_t want = timed ? duration_chunk_ : plan_.ops_per_thread - next_op_;
  if (timed) duration_chunk_ = std::min<uint64_t>(duration_chunk_ * 2, uint64_t{1} << 26);
  const uint64_t batch = plan_.spec->batch > 1 && stream_.writes() ? plan_.spec->batch : 1;
  prepared_ = stream_.PrepareChunk(next_op_, want, plan_.buffer_bytes, batch);
  return prepared_ > 0;
}

void PhaseWorker::Run(Session* session, uint64_t start_ticks) {
  const CycleClock& clock = CycleClock::Get();
  uint64_t chunk_start = start_ticks;
  // Each chunk starts when it is ready: the span clock stops while it is
  // prepared (the first one too: the span starts at start_ticks on it).
  while (Prepare()) {
    RunChunk(session, start_ticks, chunk_start, clock.Now());
    chunk_start = result_.end_ticks;
  }
}

void PhaseWorker::RunChunk(Session* session, uint64_t phase_start, uint64_t chunk_start,
                           uint64_t real_start) {
  const CycleClock& clock = CycleClock::Get();
  WorkerResult* out = &result_;
  // Span clock = real ticks - offset.
  const uint64_t offset = real_start - chunk_start;
  const bool throttled = plan_.target_ops > 0;
  const double interval_ticks =
      throttled ? 1e9 / (plan_.target_ops / plan_.threads) / clock.ns_per_tick() : 0;
  const bool timed = plan_.duration_s > 0;
  const uint64_t deadline =
      timed ? phase_start + offset + clock.FromNs(static_cast<uint64_t>(plan_.duration_s * 1e9))
            : UINT64_MAX;
  const uint64_t batch = plan_.spec->batch;
  const bool batched = batch > 1 && stream_.writes();
  if (!started_) Start(phase_start);
  LatencyHistogram* const rec = record_to_;
  const bool split_rmw = stream_.SplitsRmw();
  // sync = "commit" without batches: Sync() after every write.
  const bool sync_each_write = plan_.sync_each_commit && !batched && stream_.writes();
  // The open interval's end in real ticks (UINT64_MAX, intervals off, stays so).
  uint64_t boundary = RealTicks(boundary_, offset);
  const uint64_t count = live_ ? (timed ? UINT64_MAX : plan_.ops_per_thread - next_op_) : prepared_;
  uint64_t busy = busy_;
  uint64_t in_batch = in_batch_;
  uint64_t i = next_op_;
  uint64_t t1 = real_start;

  for (uint64_t j = 0; j < count; ++j, ++i) {
    const OpKind kind = live_ ? stream_.Next(i) : stream_.Load(j);

    uint64_t t0;
    uint64_t call_start;
    if (throttled) {
      t0 = phase_start + offset + static_cast<uint64_t>(static_cast<double>(i) * interval_ticks);
      call_start = WaitForDue(t0);  // latency runs from the intended start, t0
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
      const uint64_t tm = clock.NowAfterPriorWork();
      s = stream_.ApplyRmwWrite(s, session);
      if (sync_each_write && s.ok() && stream_.RmwWrote()) {
        s = plan_.adapter->Sync().WithContext("sync");
      }
      t1 = EndCall(offset, &boundary);
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
      t1 = EndCall(offset, &boundary);
    }

    rec[static_cast<size_t>(kind)].Record(clock.ToNs(t1 > t0 ? t1 - t0 : 0));
    busy += t1 > call_start ? t1 - call_start : 0;
    ++measured_;
    // An error (counted) ends the worker, before the batch commits.
    bool go_on = stream_.Count(kind, s, out);
    if (go_on && batched && ++in_batch == batch) {
      in_batch = 0;
      go_on = Commit(session, &busy);
      t1 = clock.NowAfterPriorWork();
    }
    if ((i & 1023) == 0) progress_.store(i, std::memory_order_relaxed);
    if (!go_on || t1 >= deadline) {
      finished_ = true;
      ++i;
      break;
    }
  }
  // Past the span (its end, t1, is read): the digest of what ran.
  if (!live_) stream_.EndChunk(i - next_op_);
  next_op_ = i;
  busy_ = busy;
  in_batch_ = in_batch;
  boundary_ = out->intervals.next_boundary();
  out->digest = stream_.digest();
  if (live_ || (!timed && next_op_ >= plan_.ops_per_thread)) finished_ = true;
  out->end_ticks = t1 - offset;
  if (finished_) Finish(session, t1, offset);
}

void PhaseWorker::Start(uint64_t phase_start) {
  const CycleClock& clock = CycleClock::Get();
  started_ = true;
  record_to_ = result_.latency.data();
  if (open_) {
    result_.intervals.Start(phase_start, clock.FromNs(plan_.interval_min_ns),
                            clock.FromNs(plan_.interval_max_ns));
    record_to_ = open_->data();
  }
  boundary_ = result_.intervals.next_boundary();
}

uint64_t PhaseWorker::WaitForDue(uint64_t due) {
  const CycleClock& clock = CycleClock::Get();
  WaitUntil(clock, due, plan_.spec->pacing == Pacing::kSpin);
  const uint64_t now = clock.Now();
  result_.pacing_lateness.Record(clock.ToNs(now > due ? now - due : 0));
  return now;
}

void PhaseWorker::Finish(Session* session, uint64_t t1, uint64_t offset) {
  const CycleClock& clock = CycleClock::Get();
  WorkerResult* out = &result_;
  const bool batched = plan_.spec->batch > 1 && stream_.writes();
  if (batched && in_batch_ > 0) {
    Commit(session, &busy_);
    in_batch_ = 0;
    t1 = clock.NowAfterPriorWork();
  }
  if (open_) CloseInterval(t1 - offset, true);
  out->end_ticks = t1 - offset;
  out->busy_ticks = busy_;
  out->ops = measured_;
  progress_.store(plan_.ops_per_thread, std::memory_order_relaxed);
}

bool PhaseWorker::Commit(Session* session, uint64_t* busy) {
  const CycleClock& clock = CycleClock::Get();
  const uint64_t t0 = clock.Now();
  Status s = session->CommitBatch();
  if (s.ok() && plan_.sync_each_commit) s = plan_.adapter->Sync();
  const uint64_t t1 = clock.NowAfterPriorWork();
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
