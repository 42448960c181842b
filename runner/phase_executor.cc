#include "runner/phase_executor.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>

#include "common/owned_dir.h"
#include "common/strings.h"
#include "datasets/key_generator.h"
#include "datasets/random.h"
#include "runner/chunk_barrier.h"
#include "runner/cpu_probe.h"
#include "runner/cycle_clock.h"
#include "runner/engine_schedule.h"
#include "runner/op_figures.h"
#include "runner/page_cache.h"
#include "runner/phase_worker.h"
#include "runner/resource_usage.h"

namespace kvbench::runner {

namespace {

using SteadyClock = std::chrono::steady_clock;

double SecondsSince(SteadyClock::time_point t0) {
  return std::chrono::duration<double>(SteadyClock::now() - t0).count();
}

// Redraws progress from the workers' own counters until Stop(). It waits on a
// condition variable, so Stop() returns at once, and it is stopped only after
// the workers ended: the phase's time comes from the workers' own end ticks,
// never from joining this thread.
class ProgressWatcher {
 public:
  template <typename Poll>
  explicit ProgressWatcher(Poll poll)
      : thread_([this, poll] {
          std::unique_lock lock(mutex_);
          // At most 10 redraws a second.
          while (!cv_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stop_; })) {
            poll();
          }
        }) {}
  ~ProgressWatcher() { Stop(); }
  void Stop() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

// The memory for prepared operations over all client threads
// (Measurement::op_buffer_mib; unset: 1/16 of the machine's, at most 1 GiB).
size_t OpBufferBytes(const Measurement& m) {
  if (m.op_buffer_mib) return static_cast<size_t>(*m.op_buffer_mib * 1024 * 1024);
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page = ::sysconf(_SC_PAGESIZE);
  const size_t machine = pages > 0 && page > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page)
                                               : size_t{1} << 30;
  return std::min(machine / 16, size_t{1} << 30);
}

}  // namespace

std::string UnsupportedReason(const PhaseSpec& spec, const Capabilities& caps) {
  const PhaseOpInfo& info = InfoOf(spec.op);
  if (!caps.ordered && (info.needs_ordered || (spec.op == PhaseOp::kMix &&
                                               spec.proportions.contains("scan") &&
                                               spec.proportions.at("scan") > 0))) {
    return "scans need an ordered engine";
  }
  if (spec.op == PhaseOp::kReorganize && !caps.reorganize) {
    return "the engine has no reorganize operation";
  }
  if (info.needs_durable && !caps.durable) return "an in-memory engine keeps nothing across a reopen";
  // Without stored data only the writes mean something: inserting into `null`
  // measures the record codec alone (seed 004's serialise-only baseline).
  if (!caps.stores_data && info.needs_stored_data) return "the engine keeps no records";
  return "";
}

// ---- EngineHandle ----

EngineHandle::~EngineHandle() {
  if (open_) adapter_->Close();
}

Status EngineHandle::Open(double* seconds) {
  const auto t0 = SteadyClock::now();
  Status s = adapter_->Open(request_);
  if (seconds != nullptr) *seconds = SecondsSince(t0);
  if (s.ok()) open_ = true;
  return s.WithContext(name_ + ": open");
}

Status EngineHandle::Close() {
  if (!open_) return Status::OK();
  open_ = false;
  return adapter_->Close().WithContext(name_ + ": close");
}

std::vector<std::string> EngineHandle::Files() const {
  std::vector<std::string> files;
  if (!adapter_->ListFiles(&files).ok()) files.clear();
  return files;
}

Status EngineHandle::Recreate() {
  KVBENCH_RETURN_IF_ERROR(Close());
  // Only a directory kvbench made (and marked) is emptied.
  KVBENCH_RETURN_IF_ERROR(EmptyOwnedDirectory(request_.directory).WithContext(name_ + ": recreate"));
  present = 0;
  synced = true;
  records.Clear();
  return Open(nullptr);
}

Status EngineHandle::CloseAndEvict(std::optional<double>* resident_pct) {
  if (open_) KVBENCH_RETURN_IF_ERROR(adapter_->Sync().WithContext(name_ + ": sync"));
  synced = true;
  const std::vector<std::string> files = Files();
  KVBENCH_RETURN_IF_ERROR(Close());
  KVBENCH_RETURN_IF_ERROR(ColdCacheEvictor::Evict(files));
  *resident_pct = ColdCacheEvictor::ResidentPercent(files);
  return Status::OK();
}

// ---- PhaseExecutor ----

results::PhaseRun PhaseExecutor::Run(const PhaseSpec& spec, size_t phase_index,
                                     const MatrixPoint& point) {
  results::PhaseRun run;
  run.phase = spec.name;
  run.op = NameOf(spec.op);
  run.engine = engine_->name();
  run.threads = point.threads;
  run.target_ops = point.target;
  run.cache = NameOf(point.cache);
  run.params = PhaseParameters(spec);

  const std::string reason = UnsupportedReason(spec, engine_->adapter()->capabilities());
  if (!reason.empty()) {
    run.status = "unsupported";
    run.reason = reason;
    return run;
  }
  const auto wall0 = SteadyClock::now();
  // Warm-up repetitions first: the same repetition, unthrottled (a warm-up
  // paced at a low target would only wait) and on the cache as it is (the
  // measured repetitions evict it themselves), its figures kept apart.
  const int warmups = WarmupRepetitions(*in_.workload, spec, phase_index);
  for (int w = 0; w < warmups; ++w) {
    results::Repetition r;
    bool unsupported = false;
    MatrixPoint unthrottled = point;
    unthrottled.target = 0;
    unthrottled.cache = CacheState::kAsIs;
    if (in_.progress != nullptr) in_.progress->Begin(phase_index, -1 - w, spec.count);
    Status s = RunRepetition(spec, phase_index, -1 - w, w, unthrottled, &r, &unsupported);
    if (in_.progress != nullptr) in_.progress->EndRepetition();
    // Its summary figures say what the warm-up took; its histogram buckets
    // and time series would only grow results.json.
    r.time_series.reset();
    for (results::OpFigures& op : r.ops) op.latency.buckets.clear();
    run.warmup_repetitions.push_back(std::move(r));
    if (!s.ok()) {
      run.status = unsupported ? "unsupported" : "failed";
      run.reason = "warm-up repetition: " + s.ToString();
      run.wall_seconds = SecondsSince(wall0);
      return run;
    }
  }
  for (int rep = 0; rep < spec.repetitions; ++rep) {
    results::Repetition r;
    bool unsupported = false;
    if (in_.progress != nullptr) in_.progress->Begin(phase_index, rep, spec.count);
    Status s = RunRepetition(spec, phase_index, rep, warmups + rep, point, &r, &unsupported);
    if (in_.progress != nullptr) in_.progress->EndRepetition();
    run.repetitions.push_back(std::move(r));
    if (!s.ok()) {
      run.status = unsupported ? "unsupported" : "failed";
      run.reason = s.ToString();
      break;
    }
  }
  run.wall_seconds = SecondsSince(wall0);
  return run;
}

Status PhaseExecutor::Replay(const PhaseSpec& spec, size_t phase_index, int rep,
                             const MatrixPoint& point) {
  if (!UnsupportedReason(spec, engine_->adapter()->capabilities()).empty()) return Status::OK();
  MatrixPoint unthrottled = point;
  unthrottled.target = 0;
  ProgressDisplay* const progress = in_.progress;
  in_.progress = nullptr;
  results::Repetition ignored;
  bool unsupported = false;
  Status s = RunRepetition(spec, phase_index, rep, rep, unthrottled, &ignored, &unsupported);
  in_.progress = progress;
  return s;
}

Status PhaseExecutor::RunRepetition(const PhaseSpec& spec, size_t phase_index, int rep,
                                    int run_index, const MatrixPoint& point,
                                    results::Repetition* out, bool* unsupported) {
  // Make the engine's state what the phase asks for. An engine that keeps
  // nothing across a reopen (in-memory) has no files to make cold: closing it
  // would lose the data, so it runs as it is and no open time is recorded.
  const PhaseOpInfo& info = InfoOf(spec.op);
  const bool durable = engine_->adapter()->capabilities().durable;
  // A phase that starts from an empty database (fresh, or the first phase)
  // starts every repetition from one, so every repetition does the same work.
  if (ResetsBefore(*in_.workload, spec, phase_index, run_index)) {
    KVBENCH_RETURN_IF_ERROR(engine_->Recreate());
  }
  const uint64_t seed = datasets::HashOf(in_.workload->seed, 0x7068617365,
                                         phase_index * 1000003 + static_cast<uint64_t>(rep));
  // Warm-up: the same kind of work, unmeasured, before the measured pass. It
  // runs before a cold phase's eviction (and a reopen), never after: a
  // warm-up after the eviction would read the files back into the page cache
  // the phase claims is cold. What it warms then is the process (allocator,
  // code, CPU frequency) and, for writes, the data; not the engine's caches,
  // which the close drops.
  if (spec.warmup > 0 && info.shape == PhaseShape::kStream) {
    if (!engine_->is_open()) KVBENCH_RETURN_IF_ERROR(engine_->Open(nullptr));
    results::Repetition ignored;
    KVBENCH_RETURN_IF_ERROR(RunWorkers(spec, seed ^ 0x5741524d, point, spec.warmup,
                                       /*measured=*/false, &ignored, unsupported));
  }
  if (point.cache == CacheState::kCold && durable) {
    KVBENCH_RETURN_IF_ERROR(engine_->CloseAndEvict(&out->cache_resident_after_eviction_pct));
    double open_s = 0;
    KVBENCH_RETURN_IF_ERROR(engine_->Open(&open_s));
    out->open_seconds = open_s;
  } else if (spec.reopen && durable && engine_->is_open()) {
    KVBENCH_RETURN_IF_ERROR(engine_->Close());
    double open_s = 0;
    KVBENCH_RETURN_IF_ERROR(engine_->Open(&open_s));
    out->open_seconds = open_s;
  }
  if (!engine_->is_open()) KVBENCH_RETURN_IF_ERROR(engine_->Open(nullptr));
  std::vector<std::string> files = engine_->Files();
  out->cache_resident_before_pct = ColdCacheEvictor::ResidentPercent(files);

  // The probe sits next to the span, outside it and outside the resource
  // snapshots (it is CPU time of kvbench's own).
  const double probe_before_us = CpuProbeMicros();
  ResetPeakRss();
  const ResourceSnapshot before = TakeResourceSnapshot();
  Status status;
  switch (info.shape) {
    case PhaseShape::kSingleCall:
      status = RunSingleCall(spec.op, out);
      if (status.IsNotSupported()) *unsupported = true;
      break;
    case PhaseShape::kRecord:
      status = RunRecordPhase(spec, seed, engine_->adapter(), &engine_->records, out, unsupported);
      break;
    case PhaseShape::kRecreate:
      status = RunRecreate(spec.count, out);
      break;
    case PhaseShape::kStream:
      status = RunWorkers(spec, seed, point, spec.count, /*measured=*/true, out, unsupported);
      break;
  }
  const ResourceSnapshot after = TakeResourceSnapshot();
  out->cpu_probe_us = {probe_before_us, CpuProbeMicros()};
  out->cpu_user_s = after.cpu_user_s - before.cpu_user_s;
  out->cpu_sys_s = after.cpu_sys_s - before.cpu_sys_s;
  // The prepared operations' buffers are resident through the whole span:
  // counted apart (op_buffer_bytes), not as the engine's memory.
  out->peak_rss_bytes = PeakRssBytes();
  if (out->op_buffer_bytes) {
    out->peak_rss_bytes -= std::min(out->peak_rss_bytes, *out->op_buffer_bytes);
  }
  if (before.read_bytes && after.read_bytes) out->bytes_read = *after.read_bytes - *before.read_bytes;
  // A writing phase is followed (untimed) by the engine's Sync(), so the
  // bytes written and the sizes are those that reached the files: an engine
  // that keeps its writes in memory until a sync is not "smaller".
  ResourceSnapshot synced = after;
  if (info.writes) engine_->synced = false;
  if (status.ok() && info.writes && engine_->is_open()) {
    status = engine_->adapter()->Sync().WithContext("sync after the phase (untimed)");
    synced = TakeResourceSnapshot();
    engine_->synced = status.ok();
  }
  // A read phase leaves the files as the last sync did.
  out->sizes_after_sync = engine_->synced;
  if (before.write_bytes && synced.write_bytes) {
    out->bytes_written = *synced.write_bytes - *before.write_bytes;
  }
  files = engine_->Files();
  const FileSizes sizes = SizeOfFiles(files);
  out->file_bytes = sizes.apparent_bytes;
  out->allocated_bytes = sizes.allocated_bytes;
  out->cache_resident_after_pct = ColdCacheEvictor::ResidentPercent(files);
  return status;
}

Status PhaseExecutor::RunSingleCall(PhaseOp op, results::Repetition* out) {
  const CycleClock& clock = CycleClock::Get();
  Status status;
  const uint64_t c0 = clock.Now();
  if (op == PhaseOp::kReorganize) {
    status = engine_->adapter()->Reorganize().WithContext("reorganize");
  } else if (op == PhaseOp::kSync) {
    status = engine_->adapter()->Sync().WithContext("sync");
  } else {
    status = engine_->Close();
    if (status.ok()) status = engine_->Open(nullptr);
  }
  const uint64_t c1 = clock.NowAfterPriorWork();
  out->seconds = static_cast<double>(clock.ToNs(c1 - c0)) / 1e9;
  out->engine_seconds = out->seconds;  // the timed part is the one call
  LatencyHistogram h;
  h.Record(clock.ToNs(c1 - c0));
  out->ops.push_back(MakeOpFigures("all", 1, out->seconds, h));
  return status;
}

// Seed 000's speed1: a database created and deleted `count` times, each
// cycle timed (open empty, close, delete the files).
Status PhaseExecutor::RunRecreate(uint64_t count, results::Repetition* out) {
  const CycleClock& clock = CycleClock::Get();
  LatencyHistogram h;
  Status s;
  const uint64_t start = clock.Now();
  uint64_t end = start;
  for (uint64_t i = 0; i < count && s.ok(); ++i) {
    const uint64_t c0 = clock.Now();
    s = engine_->Recreate();
    end = clock.NowAfterPriorWork();
    if (s.ok()) h.Record(clock.ToNs(end - c0));
  }
  out->seconds = static_cast<double>(clock.ToNs(end - start)) / 1e9;
  // Inside the timed part only the cycles' calls (close, delete, open).
  out->engine_seconds = out->seconds;
  out->ops.push_back(MakeOpFigures("all", h.count(), out->seconds, h));
  return s.WithContext("recreate");
}

WorkerPlan PhaseExecutor::BaseWorkerPlan(const PhaseSpec& spec, uint64_t seed,
                                         const MatrixPoint& point, bool measured) const {
  WorkerPlan base;
  base.spec = &spec;
  base.keys = in_.keys;
  base.values = in_.values;
  base.seed = seed;
  base.threads = point.threads;
  base.target_ops = point.target;
  base.present = engine_->present;
  base.insert_base = spec.ycsb && spec.ycsb->first_insert ? *spec.ycsb->first_insert
                                                          : engine_->present;
  base.duration_s = measured ? spec.duration_s : 0;
  base.sync_each_commit = spec.sync == CommitSync::kCommit;
  base.adapter = engine_->adapter();
  const Measurement& measurement = in_.workload->measurement;
  if (measured) {
    base.interval_max_ns = static_cast<uint64_t>(measurement.interval_s * 1e9);
    base.interval_min_ns =
        measurement.interval_exact
            ? base.interval_max_ns
            : std::max<uint64_t>(1, base.interval_max_ns / kNarrowestIntervalDivisor);
  }
  // Each thread's share of the memory for prepared operations (at least
  // 64 KiB; 0 asks for live generation).
  const size_t budget = OpBufferBytes(measurement);
  base.buffer_bytes =
      budget == 0 ? 0 : std::max<size_t>(budget / static_cast<size_t>(point.threads), 64 << 10);
  return base;
}

namespace {

// Runs the clients' chunks (phase_worker.h): every client prepares its next
// chunk untimed, they meet, and the chunk runs from a common start. The span
// clock (the phase's timed time) stops between chunks: chunk k starts on it
// where chunk k - 1 ended (the last client's end), so the wall span is the
// sum of the chunks' spans. Returns the span clock's start.
uint64_t RunInChunks(const std::vector<std::unique_ptr<PhaseWorker>>& workers,
                     const std::vector<std::unique_ptr<Session>>& sessions) {
  const CycleClock& clock = CycleClock::Get();
  const int threads = static_cast<int>(workers.size());
  uint64_t start_ticks = 0;  // the span clock's start: the first chunk's real start
  uint64_t chunk_start = 0;  // span clock at the current chunk's start
  uint64_t real_start = 0;   // CycleClock at the current chunk's start
  bool first_chunk = true;
  bool stop = false;
  std::vector<char> has_work(workers.size(), 0);
  // Run by the last client to arrive, the others waiting: whether there is
  // a next chunk, and where the span clock stands (the last client's end).
  uint64_t end = 0;
  const auto between_chunks = [&] {
    end = start_ticks;
    for (const auto& w : workers) end = std::max(end, w->end_ticks());
    stop = std::none_of(has_work.begin(), has_work.end(), [](char c) { return c != 0; });
  };
  // Then, the waiting clients woken: the chunk's start.
  const auto start_chunk = [&] {
    if (stop) return;
    real_start = clock.Now();
    if (first_chunk) {
      start_ticks = real_start;
      end = real_start;
      first_chunk = false;
    }
    chunk_start = end;
  };
  ChunkBarrier barrier(threads);
  const auto client = [&](size_t t) {
    for (;;) {
      has_work[t] = workers[t]->Prepare() ? 1 : 0;
      barrier.ArriveAndWait(between_chunks, start_chunk);
      if (stop) return;
      if (has_work[t]) workers[t]->RunChunk(sessions[t].get(), start_ticks, chunk_start, real_start);
    }
  };
  // One client runs on this thread itself: a thread of its own would give
  // the engine's allocations a fresh malloc arena per phase (a new heap to
  // fault in and mprotect as it grows), a cost a single-threaded program
  // does not pay. More clients each get a thread.
  if (threads == 1) {
    client(0);
    return start_ticks;
  }
  std::vector<std::thread> pool;
  for (size_t t = 0; t < workers.size(); ++t) pool.emplace_back(client, t);
  for (auto& th : pool) th.join();
  return start_ticks;
}

// The clients' results together: histograms, counters, digests (in thread
// order); the wall span ends when the last client's last operation ended.
struct MergedClients {
  WorkerResult merged;
  uint64_t digest = 0x6b7662656e6368ULL;
  uint64_t end_ticks = 0;
  uint64_t busy_ticks = 0;
  uint64_t buffer_bytes = 0;
  Status first_error;
  bool unsupported = false;
  std::vector<const IntervalRecorder*> intervals;
};

MergedClients MergeClients(const std::vector<std::unique_ptr<PhaseWorker>>& workers,
                           uint64_t start_ticks) {
  MergedClients m;
  m.end_ticks = start_ticks;
  for (const auto& w : workers) {
    const WorkerResult& r = w->result();
    for (size_t k = 0; k < m.merged.latency.size(); ++k) {
      m.merged.latency[k].Merge(r.latency[k]);
      AddWork(r.work[k], &m.merged.work[k]);
    }
    m.merged.pacing_lateness.Merge(r.pacing_lateness);
    m.merged.ops += r.ops;
    m.end_ticks = std::max(m.end_ticks, r.end_ticks);
    m.buffer_bytes += w->buffer_bytes();
    m.busy_ticks += r.busy_ticks;
    m.digest = datasets::Mix64(m.digest ^ r.digest) + 1;
    if (m.first_error.ok() && !r.first_error.ok()) m.first_error = r.first_error;
    m.unsupported |= r.unsupported;
    if (r.intervals.on()) m.intervals.push_back(&r.intervals);
  }
  return m;
}

// A measured repetition's figures from its clients' merged results.
//
// ops/s = operations / wall span (results::Repetition::seconds), as YCSB
// and db_bench: the rate the run achieved. The time inside the engine's
// calls is kept beside it as the mean over threads of each thread's own,
// not the busiest thread's: with an engine that serialises calls, the
// other threads' calls fill one thread's time between calls, and only the
// mean then comes out close to the wall span (the harness share near 0),
// where a figure over the busiest thread's calls would claim a rate the
// engine cannot reach.
void FillRepetition(const MergedClients& m, uint64_t start_ticks, int threads,
                    const std::vector<ReportedOp>& reported, bool hdrhistogram,
                    std::chrono::system_clock::time_point unix0, results::Repetition* out) {
  const CycleClock& clock = CycleClock::Get();
  const uint64_t span_ticks = m.end_ticks - start_ticks;
  const double seconds = static_cast<double>(clock.ToNs(span_ticks)) / 1e9;
  out->seconds = seconds;
  out->engine_seconds = static_cast<double>(clock.ToNs(m.busy_ticks)) / 1e9 / threads;
  for (const ReportedOp& op : reported) {
    LatencyHistogram latency;
    results::WorkCounts work;
    for (size_t k = 0; k < kOpKinds; ++k) {
      if ((op.kinds & (1u << k)) == 0) continue;
      latency.Merge(m.merged.latency[k]);
      AddWork(m.merged.work[k], &work);
    }
    const bool all = &op == &reported.front();
    if (all) work.stream_digest = HexU64(m.digest);
    if (!all && latency.count() == 0) continue;
    out->ops.push_back(MakeOpFigures(op.name, all ? m.merged.ops : latency.count(), seconds,
                                     latency, work));
  }
  if (!m.intervals.empty()) {
    std::vector<ReportedOp> series_ops;
    for (const ReportedOp& op : reported) {
      const bool shown = std::any_of(out->ops.begin(), out->ops.end(),
                                     [&](const results::OpFigures& f) { return f.op == op.name; });
      if (shown) series_ops.push_back(op);
    }
    out->time_series = BuildTimeSeries(m.intervals, series_ops, span_ticks, clock.ns_per_tick(),
                                       seconds, hdrhistogram);
    out->time_series->start_unix_s =
        std::chrono::duration<double>(unix0.time_since_epoch()).count();
  }
  if (m.buffer_bytes > 0) out->op_buffer_bytes = m.buffer_bytes;
  if (m.merged.pacing_lateness.count() > 0) {
    out->pacing_lateness = m.merged.pacing_lateness.Summarize();
  }
}

}  // namespace

Status PhaseExecutor::RunWorkers(const PhaseSpec& spec, uint64_t seed, const MatrixPoint& point,
                                 uint64_t count, bool measured, results::Repetition* out,
                                 bool* unsupported) {
  const int threads = point.threads;
  WorkerPlan base = BaseWorkerPlan(spec, seed, point, measured);
  std::unique_ptr<PaddedCounter[]> insert_counts;
  if (spec.ycsb && spec.proportions.contains("insert")) {
    insert_counts = std::make_unique<PaddedCounter[]>(static_cast<size_t>(threads));
    base.insert_counts = insert_counts.get();
  }
  std::vector<WorkerPlan> plans(static_cast<size_t>(threads), base);
  std::vector<std::unique_ptr<StatusFeed>> feeds;
  if (in_.status != nullptr && measured) {
    for (WorkerPlan& plan : plans) {
      feeds.push_back(std::make_unique<StatusFeed>());
      plan.status_feed = feeds.back().get();
    }
  }
  std::vector<std::unique_ptr<Session>> sessions(static_cast<size_t>(threads));
  std::vector<std::unique_ptr<PhaseWorker>> workers;
  for (int t = 0; t < threads; ++t) {
    const size_t ti = static_cast<size_t>(t);
    const uint64_t share = count / static_cast<uint64_t>(threads) +
                           (static_cast<uint64_t>(t) < count % static_cast<uint64_t>(threads));
    plans[ti].ops_per_thread = share;
    plans[ti].phase_ops = count;
    KVBENCH_RETURN_IF_ERROR(engine_->adapter()->NewSession(&sessions[ti]).WithContext(
        engine_->name() + ": new session"));
    workers.push_back(std::make_unique<PhaseWorker>(plans[ti], t));
  }

  const std::vector<ReportedOp> reported = ReportedOps(spec);
  std::optional<StatusReporter> status;
  if (!feeds.empty()) {
    std::vector<StatusFeed*> feed_list;
    for (const auto& f : feeds) feed_list.push_back(f.get());
    status.emplace(*in_.status, std::move(feed_list), reported, spec.duration_s > 0 ? 0 : count);
  }
  const auto wall0 = SteadyClock::now();
  const auto unix0 = std::chrono::system_clock::now();
  uint64_t start_ticks = 0;
  {
    std::optional<ProgressWatcher> watcher;
    if (in_.progress != nullptr && measured) {
      watcher.emplace([&] {
        uint64_t sum = 0;
        for (const auto& w : workers) sum += w->progress();
        in_.progress->Draw(sum, SecondsSince(wall0));
      });
    }
    start_ticks = RunInChunks(workers, sessions);
    if (watcher) watcher->Stop();
  }
  if (status) status->Stop();
  // Each client's session is closed after the span and timed on its own
  // (YCSB's [CLEANUP]: one DB cleanup per client thread).
  const CycleClock& clock = CycleClock::Get();
  LatencyHistogram cleanup;
  for (auto& session : sessions) {
    const uint64_t c0 = clock.Now();
    session.reset();
    cleanup.Record(clock.ToNs(clock.NowAfterPriorWork() - c0));
  }
  sessions.clear();

  const MergedClients m = MergeClients(workers, start_ticks);
  if (m.unsupported) *unsupported = true;
  // Inserted keys stay present for the following phases (warm-up inserts too).
  // Threads interleave, so the phase inserted [insert_base, insert_base + n).
  engine_->present = std::max(
      engine_->present,
      base.insert_base + m.merged.latency[static_cast<size_t>(OpKind::kInsert)].count());
  if (!measured) return m.first_error;
  FillRepetition(m, start_ticks, threads, reported, in_.workload->measurement.hdrhistogram, unix0,
                 out);
  if (cleanup.count() > 0) out->session_cleanup = cleanup.Summarize();
  return m.first_error;
}

}  // namespace kvbench::runner
