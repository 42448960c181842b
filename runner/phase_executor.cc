#include "runner/phase_executor.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <cstdio>
#include <thread>

#include "common/strings.h"
#include "datasets/key_generator.h"
#include "datasets/random.h"
#include "runner/cycle_clock.h"
#include "runner/page_cache.h"
#include "runner/phase_worker.h"
#include "runner/resource_usage.h"

namespace kvbench::runner {

namespace {

using SteadyClock = std::chrono::steady_clock;

double SecondsSince(SteadyClock::time_point t0) {
  return std::chrono::duration<double>(SteadyClock::now() - t0).count();
}

bool IsScanLike(const std::string& op) { return op == "scan" || op == "range" || op == "skip"; }

// Phases that are one timed call to the engine, not a stream of operations.
bool IsSingleCall(const std::string& op) {
  return op == "reorganize" || op == "reopen" || op == "sync";
}

// One line of progress on stderr, rewritten in place.
void ShowProgress(const std::string& phase, const std::string& engine, uint64_t done,
                  uint64_t total, double seconds) {
  const double pct = total ? 100.0 * static_cast<double>(done) / static_cast<double>(total) : 0;
  std::fprintf(stderr, "\r  %-24s %-10s %5.1f%%  %12.0f ops/s ", phase.c_str(), engine.c_str(),
               pct > 100 ? 100 : pct, seconds > 0 ? static_cast<double>(done) / seconds : 0);
  std::fflush(stderr);
}

}  // namespace

std::string UnsupportedReason(const PhaseSpec& spec, const Capabilities& caps) {
  if (!caps.ordered && (IsScanLike(spec.op) ||
                        (spec.op == "mix" && spec.proportions.contains("scan") &&
                         spec.proportions.at("scan") > 0))) {
    return "scans need an ordered engine";
  }
  if (spec.op == "reorganize" && !caps.reorganize) return "the engine has no reorganize operation";
  if (spec.op == "reopen" && !caps.durable) return "an in-memory engine keeps nothing across a reopen";
  // Without stored data only the writes mean something: inserting into `null`
  // measures the record codec alone (seed 004's serialise-only baseline).
  if (!caps.stores_data && spec.op.starts_with("record-") && spec.op != "record-insert" &&
      spec.op != "record-create") {
    return "the engine keeps no records";
  }
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
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(request_.directory, ec)) {
    std::filesystem::remove_all(entry.path(), ec);
    if (ec) return Status::IOError(name_ + ": cannot delete " + entry.path().string() + ": " + ec.message());
  }
  if (ec) return Status::IOError(name_ + ": cannot list " + request_.directory + ": " + ec.message());
  present = 0;
  records.Clear();
  return Open(nullptr);
}

Status EngineHandle::CloseAndEvict(std::optional<double>* resident_pct) {
  if (open_) KVBENCH_RETURN_IF_ERROR(adapter_->Sync().WithContext(name_ + ": sync"));
  const std::vector<std::string> files = Files();
  KVBENCH_RETURN_IF_ERROR(Close());
  KVBENCH_RETURN_IF_ERROR(ColdCacheEvictor::Evict(files));
  *resident_pct = ColdCacheEvictor::ResidentPercent(files);
  return Status::OK();
}

// ---- PhaseExecutor ----

results::PhaseRun PhaseExecutor::Run(const PhaseSpec& spec, size_t phase_index, int threads,
                            double target, const std::string& cache) {
  results::PhaseRun run;
  run.phase = spec.name;
  run.op = spec.op;
  run.engine = engine_->name();
  run.threads = threads;
  run.target_ops = target;
  run.cache = cache;
  run.params = {{"count", std::to_string(spec.count)},
                {"batch", std::to_string(spec.batch)},
                {"warmup", std::to_string(spec.warmup)},
                {"repetitions", std::to_string(spec.repetitions)},
                {"distribution", spec.distribution},
                {"keys", spec.keys},
                {"sync", spec.sync},
                {"order", spec.order}};
  if (IsScanLike(spec.op)) {
    run.params["limit"] = std::to_string(spec.limit);
    run.params["direction"] = spec.direction;
    run.params["values"] = spec.values ? "true" : "false";
  }
  if (spec.duration_s > 0) run.params["duration_s"] = std::to_string(spec.duration_s);
  if (!spec.dataset_kind.empty()) {
    run.params["dataset.kind"] = spec.dataset_kind;
    for (const auto& [k, v] : spec.dataset_params) run.params["dataset." + k] = v;
  }
  if (spec.fresh) run.params["fresh"] = "true";
  if (IsRecordPhase(spec.op)) {
    for (const char* k : {"keys", "distribution", "order"}) run.params.erase(k);
    if (!spec.schema.empty()) run.params["schema"] = spec.schema;
    run.params["table"] = spec.table;
    run.params["field"] = std::to_string(spec.field);
    if (spec.op == "record-scan" || spec.op == "record-query") {
      run.params["value"] = std::to_string(spec.value);
    }
    if (spec.op == "record-query") run.params["limit"] = std::to_string(spec.limit);
    if (spec.op == "record-insert") {
      run.params["set"] = spec.set;
      run.params["read_back"] = spec.read_back ? "true" : "false";
    }
    if (spec.op == "record-create") run.params["delete_after"] = spec.delete_after ? "true" : "false";
    run.params["timing"] = "blocks of up to 256 operations, generation excluded";
  }
  for (const auto& [k, v] : spec.proportions) run.params["proportion." + k] = std::to_string(v);
  if (spec.ycsb) {
    run.params["ycsb.fieldcount"] = std::to_string(spec.ycsb->field_count);
    run.params["ycsb.readallfields"] = spec.ycsb->read_all_fields ? "true" : "false";
    run.params["ycsb.writeallfields"] = spec.ycsb->write_all_fields ? "true" : "false";
    run.params["ycsb.key_space"] = std::to_string(spec.ycsb->key_space);
    if (spec.proportions.contains("scan")) {
      run.params["ycsb.scanlength"] = spec.ycsb->scan_length_distribution + " [" +
                                      std::to_string(spec.ycsb->min_scan_length) + ", " +
                                      std::to_string(spec.ycsb->max_scan_length) + "]";
    }
  }

  const std::string reason = UnsupportedReason(spec, engine_->adapter()->capabilities());
  if (!reason.empty()) {
    run.status = "unsupported";
    run.reason = reason;
    return run;
  }
  for (int rep = 0; rep < spec.repetitions; ++rep) {
    results::Repetition r;
    bool unsupported = false;
    Status s = RunRepetition(spec, phase_index, rep, threads, target, cache, &r, &unsupported);
    run.repetitions.push_back(std::move(r));
    if (!s.ok()) {
      run.status = unsupported ? "unsupported" : "failed";
      run.reason = s.ToString();
      break;
    }
  }
  return run;
}

Status PhaseExecutor::RunRepetition(const PhaseSpec& spec, size_t phase_index, int rep,
                                    int threads, double target, const std::string& cache,
                                    results::Repetition* out, bool* unsupported) {
  // Make the engine's state what the phase asks for. An engine that keeps
  // nothing across a reopen (in-memory) has no files to make cold: closing it
  // would lose the data, so it runs as it is and no open time is recorded.
  const bool durable = engine_->adapter()->capabilities().durable;
  if (spec.fresh && rep == 0) KVBENCH_RETURN_IF_ERROR(engine_->Recreate());
  if (cache == "cold" && durable) {
    std::optional<double> resident;
    KVBENCH_RETURN_IF_ERROR(engine_->CloseAndEvict(&resident));
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

  const uint64_t seed = datasets::HashOf(in_.workload->seed, 0x7068617365,
                                         phase_index * 1000003 + static_cast<uint64_t>(rep));
  // Warm-up: the same kind of work, unmeasured, before the measured pass.
  const bool single_call = IsSingleCall(spec.op);
  const bool record_phase = IsRecordPhase(spec.op);
  if (spec.warmup > 0 && !single_call && !record_phase && spec.op != "recreate") {
    results::Repetition ignored;
    KVBENCH_RETURN_IF_ERROR(RunWorkers(spec, seed ^ 0x5741524d, threads, target, spec.warmup,
                                       false, &ignored, unsupported));
  }

  ResetPeakRss();
  const ResourceSnapshot before = TakeResourceSnapshot();
  const auto t0 = SteadyClock::now();
  Status status;
  if (single_call) {
    const CycleClock& clock = CycleClock::Get();
    const uint64_t c0 = clock.Now();
    if (spec.op == "reorganize") {
      status = engine_->adapter()->Reorganize().WithContext("reorganize");
    } else if (spec.op == "sync") {
      status = engine_->adapter()->Sync().WithContext("sync");
    } else {
      status = engine_->Close();
      if (status.ok()) status = engine_->Open(nullptr);
    }
    const uint64_t c1 = clock.Now();
    out->seconds = SecondsSince(t0);
    LatencyHistogram h;
    h.Record(clock.ToNs(c1 - c0));
    results::OpFigures f;
    f.op = "all";
    f.ops = 1;
    f.ops_per_sec = out->seconds > 0 ? 1 / out->seconds : 0;
    f.latency = h.Summarize();
    out->ops.push_back(f);
    if (status.IsNotSupported()) *unsupported = true;
  } else if (record_phase) {
    status = RunRecordPhase(spec, seed, engine_->adapter(), &engine_->records, out, unsupported);
  } else if (spec.op == "recreate") {
    status = RunRecreate(spec.count, out);
  } else {
    status = RunWorkers(spec, seed, threads, target, spec.count, true, out, unsupported);
  }
  const ResourceSnapshot after = TakeResourceSnapshot();
  out->cpu_user_s = after.cpu_user_s - before.cpu_user_s;
  out->cpu_sys_s = after.cpu_sys_s - before.cpu_sys_s;
  out->peak_rss_bytes = PeakRssBytes();
  if (before.read_bytes && after.read_bytes) out->bytes_read = *after.read_bytes - *before.read_bytes;
  if (before.write_bytes && after.write_bytes) {
    out->bytes_written = *after.write_bytes - *before.write_bytes;
  }
  files = engine_->Files();
  const FileSizes sizes = SizeOfFiles(files);
  out->file_bytes = sizes.apparent_bytes;
  out->allocated_bytes = sizes.allocated_bytes;
  out->cache_resident_after_pct = ColdCacheEvictor::ResidentPercent(files);
  return status;
}

// Seed 000's speed1: a database created and deleted `count` times, each
// cycle timed (open empty, close, delete the files).
Status PhaseExecutor::RunRecreate(uint64_t count, results::Repetition* out) {
  const CycleClock& clock = CycleClock::Get();
  LatencyHistogram h;
  const auto t0 = SteadyClock::now();
  Status s;
  for (uint64_t i = 0; i < count && s.ok(); ++i) {
    const uint64_t c0 = clock.Now();
    s = engine_->Recreate();
    const uint64_t c1 = clock.Now();
    if (s.ok()) h.Record(clock.ToNs(c1 - c0));
  }
  out->seconds = SecondsSince(t0);
  results::OpFigures f;
  f.op = "all";
  f.ops = h.count();
  f.ops_per_sec = out->seconds > 0 ? static_cast<double>(f.ops) / out->seconds : 0;
  f.latency = h.Summarize();
  out->ops.push_back(std::move(f));
  return s.WithContext("recreate");
}

Status PhaseExecutor::RunWorkers(const PhaseSpec& spec, uint64_t seed, int threads,
                                 double target, uint64_t count, bool record, results::Repetition* out,
                                 bool* unsupported) {
  Adapter* adapter = engine_->adapter();
  WorkerPlan base;
  base.spec = &spec;
  base.keys = in_.keys;
  base.values = in_.values;
  base.seed = seed;
  base.threads = threads;
  base.target_ops = target;
  base.present = engine_->present;
  base.insert_base = spec.ycsb && spec.ycsb->first_insert ? *spec.ycsb->first_insert
                                                          : engine_->present;
  base.duration_s = record ? spec.duration_s : 0;
  base.sync_each_commit = spec.sync == "commit";
  base.adapter = adapter;

  std::unique_ptr<PaddedCounter[]> insert_counts;
  if (spec.ycsb && spec.proportions.contains("insert")) {
    insert_counts = std::make_unique<PaddedCounter[]>(static_cast<size_t>(threads));
    base.insert_counts = insert_counts.get();
  }

  std::vector<WorkerPlan> plans(static_cast<size_t>(threads), base);
  std::vector<std::unique_ptr<Session>> sessions(static_cast<size_t>(threads));
  std::vector<std::unique_ptr<PhaseWorker>> workers;
  for (int t = 0; t < threads; ++t) {
    const uint64_t share = count / static_cast<uint64_t>(threads) +
                           (static_cast<uint64_t>(t) < count % static_cast<uint64_t>(threads));
    plans[static_cast<size_t>(t)].ops_per_thread = share;
    plans[static_cast<size_t>(t)].phase_ops = count;
    KVBENCH_RETURN_IF_ERROR(adapter->NewSession(&sessions[static_cast<size_t>(t)])
                                .WithContext(engine_->name() + ": new session"));
    workers.push_back(std::make_unique<PhaseWorker>(plans[static_cast<size_t>(t)], t));
  }

  std::atomic<bool> go{false};
  std::atomic<uint64_t> start_ticks{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      workers[static_cast<size_t>(t)]->Run(sessions[static_cast<size_t>(t)].get(),
                                           start_ticks.load(std::memory_order_relaxed));
    });
  }
  const auto t0 = SteadyClock::now();
  start_ticks.store(CycleClock::Get().Now(), std::memory_order_relaxed);
  go.store(true, std::memory_order_release);
  if (in_.show_progress && record) {
    // Polls the workers' own counters; sleeps between polls so it takes no
    // measurable CPU from them.
    std::atomic<bool> done{false};
    std::thread watcher([&] {
      while (!done.load()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
        uint64_t sum = 0;
        for (const auto& w : workers) sum += w->progress();
        ShowProgress(spec.name, engine_->name(), sum, count, SecondsSince(t0));
      }
    });
    for (auto& th : pool) th.join();
    done = true;
    watcher.join();
    std::fprintf(stderr, "\r%*s\r", 70, "");
  } else {
    for (auto& th : pool) th.join();
  }
  const double seconds = SecondsSince(t0);
  sessions.clear();

  // Merge per-thread results: histograms, counters, digests (in thread order).
  WorkerResult merged;
  uint64_t digest = 0x6b7662656e6368ULL;
  Status first_error;
  for (const auto& w : workers) {
    const WorkerResult& r = w->result();
    for (size_t k = 0; k < merged.latency.size(); ++k) {
      merged.latency[k].Merge(r.latency[k]);
      merged.work[k].found += r.work[k].found;
      merged.work[k].not_found += r.work[k].not_found;
      merged.work[k].rows += r.work[k].rows;
      merged.work[k].bytes_returned += r.work[k].bytes_returned;
      merged.work[k].errors += r.work[k].errors;
    }
    merged.ops += r.ops;
    digest = datasets::Mix64(digest ^ r.digest) + 1;
    if (first_error.ok() && !r.first_error.ok()) first_error = r.first_error;
    if (r.unsupported) *unsupported = true;
  }
  // Inserted keys stay present for the following phases (warm-up inserts too).
  // Threads interleave, so the phase inserted [insert_base, insert_base + n).
  engine_->present = std::max(
      engine_->present,
      base.insert_base + merged.latency[static_cast<size_t>(OpKind::kInsert)].count());
  if (!record) return first_error;

  out->seconds = seconds;
  results::OpFigures all;
  all.op = "all";
  LatencyHistogram all_latency;
  for (size_t k = 0; k < merged.latency.size(); ++k) {
    if (static_cast<OpKind>(k) == OpKind::kCommit) continue;
    all_latency.Merge(merged.latency[k]);
    all.work.found += merged.work[k].found;
    all.work.not_found += merged.work[k].not_found;
    all.work.rows += merged.work[k].rows;
    all.work.bytes_returned += merged.work[k].bytes_returned;
    all.work.errors += merged.work[k].errors;
  }
  all.ops = merged.ops;
  all.ops_per_sec = seconds > 0 ? static_cast<double>(merged.ops) / seconds : 0;
  all.latency = all_latency.Summarize();
  all.work.stream_digest = HexU64(digest);
  out->ops.push_back(std::move(all));
  for (size_t k = 0; k < merged.latency.size(); ++k) {
    if (merged.latency[k].count() == 0) continue;
    results::OpFigures f;
    f.op = OpName(static_cast<OpKind>(k), spec);
    f.ops = merged.latency[k].count();
    f.ops_per_sec = seconds > 0 ? static_cast<double>(f.ops) / seconds : 0;
    f.latency = merged.latency[k].Summarize();
    f.work = merged.work[k];
    out->ops.push_back(std::move(f));
  }
  return first_error;
}

}  // namespace kvbench::runner
