// pbtree's reads against LMDB's, through the kvbench adapters (the code paths
// kvbench runs), on seed 001's data in the state its query phases find it:
// 1,048,576 `urls` keys (142 bytes on average) with 40-byte values loaded in
// 64K batches in index order, the engine's reorganize, 5 x 65,536 more keys
// one per transaction, then a close and reopen (pages are read again).
//
//   BM_HotGet/<engine>/threads:T  random present gets from T threads, each
//                       with its own session, keys made before the loop (the
//                       timed loop holds the adapter call alone)
//   BM_OneKeyGet/<engine>  one present key again and again: the code path
//                       alone, every page in the CPU's caches
//   BM_Scan100/<engine> 100-entry forward scans (keys and values) from random
//                       present keys
//   BM_FreshOpenGet/<engine>  seed 001's get-4k-fresh-open: the engine is
//                       closed and opened again (not timed), then 4,096
//                       random present keys are read (timed); new keys
//                       each time. Registered last: it leaves the engine
//                       freshly opened, not hot.
//   BM_ReadersWithWriter/<engine>/<readers>  what a writer costs readers:
//                       `readers` threads do random gets for a fixed time,
//                       first alone, then while one more thread commits
//                       batches of 1,000 updates back to back. Counters:
//                       solo_gets_per_s, gets_per_s (with the writer),
//                       kept = gets_per_s / solo_gets_per_s, commits_per_s,
//                       and snapshot_checks: every 64th operation of a reader
//                       is a scan of the 100 keys every batch rewrites, which
//                       must all carry the same batch number, never lower than
//                       the last one that reader saw (a torn or stale snapshot
//                       fails the benchmark).
// Engines: 0 = pbtree, 1 = lmdb. Run on a quiet machine (the CPU lock):
//   build/bench/pbtree_read_bench --benchmark_filter=BM_HotGet
// Instruction counts of the timed loops alone (Valgrind instruments nothing
// else when started with instrumentation off):
//   valgrind --tool=callgrind --instr-atstart=no build/bench/pbtree_read_bench
//       --benchmark_filter='BM_HotGet/0/.*threads:1' --benchmark_min_time=0.1
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define PROFILE_START() CALLGRIND_START_INSTRUMENTATION
#define PROFILE_STOP() CALLGRIND_STOP_INSTRUMENTATION
#else
#define PROFILE_START()
#define PROFILE_STOP()
#endif

#include "adapters/registry.h"
#include "datasets/key_generator.h"
#include "datasets/random.h"
#include "datasets/value_generator.h"

namespace kvbench {
namespace {

constexpr uint64_t kLoadKeys = 1 << 20;
constexpr uint64_t kLoadBatch = 65536;
constexpr uint64_t kKeys = kLoadKeys + 5 * 65536;  // with the one-per-transaction inserts
constexpr size_t kQueryKeys = 1 << 16;
constexpr const char* kEngines[] = {"pbtree", "lmdb"};

class CountingVisitor final : public ScanVisitor {
 public:
  bool Visit(Slice key, Slice value) override {
    bytes_ += key.size() + value.size();
    return true;
  }
  uint64_t bytes_ = 0;
};

// One engine loaded with the dataset, shared by every benchmark of it.
struct LoadedEngine {
  std::string directory;
  OpenRequest request;
  std::unique_ptr<Adapter> adapter;
  std::unique_ptr<datasets::KeyGenerator> keys;
  std::vector<std::string> query_keys;  // random present keys
  Status status;
};

LoadedEngine* Load(const char* engine) {
  static std::map<std::string, std::unique_ptr<LoadedEngine>> loaded;
  std::unique_ptr<LoadedEngine>& e = loaded[engine];
  if (e != nullptr) return e.get();
  e = std::make_unique<LoadedEngine>();
  datasets::DatasetSpec spec;
  spec.kind = "urls";
  spec.count = kKeys;
  e->status = datasets::NewKeyGenerator(spec, &e->keys);
  if (!e->status.ok()) return e.get();
  datasets::ValueGenerator values(datasets::ValueOptions{}, 1);
  e->directory =
      std::filesystem::temp_directory_path() / ("kvbench-read-bench-" + std::string(engine));
  std::filesystem::remove_all(e->directory);
  std::filesystem::create_directories(e->directory);
  e->status = AdapterRegistry::Global().Create(engine, &e->adapter);
  if (!e->status.ok()) return e.get();
  OpenRequest& request = e->request;  // kept for BM_FreshOpenGet's reopens
  request.directory = e->directory;
  // Defaults, except LMDB's map: 64 GiB of address space is more than
  // Valgrind can map, and the data needs under 1 GiB.
  std::map<std::string, std::string> overrides;
  if (std::string(engine) == "lmdb") overrides["lmdb.mapsize"] = "4GiB";
  e->status = ResolveEngineOptions(engine, e->adapter->OptionSpecs(), overrides, &request.options);
  if (e->status.ok()) e->status = e->adapter->Open(request);
  std::unique_ptr<Session> session;
  if (e->status.ok()) e->status = e->adapter->NewSession(&session);
  std::string key, value;
  for (uint64_t i = 0; i < kLoadKeys && e->status.ok(); ++i) {
    if (i % kLoadBatch == 0) e->status = session->BeginBatch();
    e->keys->Key(i, &key);
    values.Value(i, 0, &value);
    if (e->status.ok()) e->status = session->Put(key, value);
    if (e->status.ok() && (i + 1) % kLoadBatch == 0) e->status = session->CommitBatch();
  }
  session.reset();
  if (e->status.ok()) e->status = e->adapter->Reorganize();
  if (e->status.ok()) e->status = e->adapter->NewSession(&session);
  for (uint64_t i = kLoadKeys; i < kKeys && e->status.ok(); ++i) {
    e->keys->Key(i, &key);
    values.Value(i, 0, &value);
    e->status = session->Put(key, value);
  }
  session.reset();
  if (e->status.ok()) e->status = e->adapter->Close();
  if (e->status.ok()) e->status = e->adapter->Open(request);
  datasets::Rng rng(7);
  e->query_keys.resize(kQueryKeys);
  for (std::string& k : e->query_keys) e->keys->Key(rng.Uniform(kKeys), &k);
  // Hot means what kvbench's hot phases mean: the same queries ran once
  // already since the open.
  if (e->status.ok()) e->status = e->adapter->NewSession(&session);
  ScanOptions scan;
  scan.limit = 100;
  CountingVisitor visitor;
  for (size_t i = 0; i < kQueryKeys && e->status.ok(); ++i) {
    e->status = session->Get(e->query_keys[i], &value);
    if (e->status.ok()) e->status = session->Scan(e->query_keys[i], scan, &visitor, nullptr);
  }
  return e.get();
}

// The benchmark's engine (state.range(0)), loaded once, and a session on
// it; nullptr (the benchmark marked skipped) when either failed.
std::unique_ptr<Session> SessionOn(benchmark::State& state, LoadedEngine** engine) {
  LoadedEngine* e = *engine = Load(kEngines[state.range(0)]);
  state.SetLabel(kEngines[state.range(0)]);
  std::unique_ptr<Session> session;
  Status s = e->status;
  if (s.ok()) s = e->adapter->NewSession(&session);
  if (!s.ok()) {
    state.SkipWithError(s.ToString().c_str());
    return nullptr;
  }
  return session;
}

void BM_HotGet(benchmark::State& state) {
  LoadedEngine* e = nullptr;
  std::unique_ptr<Session> session = SessionOn(state, &e);
  if (session == nullptr) return;
  std::string value;
  size_t i = static_cast<size_t>(state.thread_index()) * (kQueryKeys / 2);
  uint64_t found = 0;
  PROFILE_START();
  for (auto _ : state) {
    found += session->Get(e->query_keys[i], &value).ok();
    i = (i + 1) % kQueryKeys;
  }
  PROFILE_STOP();
  if (found != static_cast<uint64_t>(state.iterations()))
    state.SkipWithError("a present key was not found");
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_HotGet)->Arg(0)->Arg(1)->Threads(1)->Threads(2)->UseRealTime()->MinTime(1.0);

// One present key, again and again: every page of its path stays in the
// CPU's caches, so this is the cost of the code path alone (seed 001's
// get-one-key-64k-times).
void BM_OneKeyGet(benchmark::State& state) {
  LoadedEngine* e = nullptr;
  std::unique_ptr<Session> session = SessionOn(state, &e);
  if (session == nullptr) return;
  std::string value;
  uint64_t found = 0;
  for (auto _ : state) found += session->Get(e->query_keys[0], &value).ok();
  if (found != static_cast<uint64_t>(state.iterations()))
    state.SkipWithError("a present key was not found");
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_OneKeyGet)->Arg(0)->Arg(1)->MinTime(1.0);

void BM_Scan100(benchmark::State& state) {
  LoadedEngine* e = nullptr;
  std::unique_ptr<Session> session = SessionOn(state, &e);
  if (session == nullptr) return;
  ScanOptions options;
  options.limit = 100;
  CountingVisitor visitor;
  size_t i = 0, visited = 0;
  uint64_t rows = 0;
  Status s;
  PROFILE_START();
  for (auto _ : state) {
    Status scanned = session->Scan(e->query_keys[i], options, &visitor, &visited);
    if (!scanned.ok() && s.ok()) s = scanned;  // the first failure, not only the last
    rows += visited;
    i = (i + 1) % kQueryKeys;
  }
  PROFILE_STOP();
  if (!s.ok()) state.SkipWithError(s.ToString().c_str());
  state.SetItemsProcessed(state.iterations());
  state.counters["rows_per_scan"] =
      static_cast<double>(rows) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_Scan100)->Arg(0)->Arg(1)->MinTime(1.0);

// The 100 keys every writer batch rewrites (consecutive in key order), and
// the version a value carries: its first 12 bytes, decimal.
constexpr size_t kGroup = 100;
constexpr size_t kBatchPuts = 1000;
std::string VersionedValue(uint64_t version) {
  char buf[48];
  std::snprintf(buf, sizeof(buf), "%012llu-written-by-one-batch-xxxxxxxxx",
                static_cast<unsigned long long>(version));
  return std::string(buf, 40);
}
uint64_t VersionOf(Slice value) {
  return value.size() < 12 ? UINT64_MAX
                           : std::strtoull(std::string(value.substr(0, 12)).c_str(), nullptr, 10);
}

// Checks one scan of the group: every value the same version, not older
// than `*last`.
class GroupVisitor final : public ScanVisitor {
 public:
  bool Visit(Slice key, Slice value) override {
    const uint64_t v = VersionOf(value);
    if (rows_ == 0) first_ = v;
    if (v != first_) torn_ = true;
    ++rows_;
    return true;
  }
  uint64_t first_ = 0;
  size_t rows_ = 0;
  bool torn_ = false;
};

struct ReaderResult {
  uint64_t gets = 0;
  uint64_t checks = 0;
  uint64_t violations = 0;
};

// Runs `readers` threads of gets (and group checks) for `seconds`, with or
// without a writer; returns their gets per second over all readers.
double RunReaders(LoadedEngine* e, const std::vector<std::string>& group, int readers,
                  bool with_writer, double seconds, uint64_t* checks, uint64_t* violations,
                  double* commits_per_s, Status* error) {
  std::atomic<bool> stop{false};
  std::atomic<int> ready{0};
  std::vector<ReaderResult> results(static_cast<size_t>(readers));
  std::vector<std::thread> threads;
  std::atomic<uint64_t> commits{0};
  std::mutex error_mutex;
  auto fail = [&](const Status& s) {
    std::lock_guard lock(error_mutex);
    if (error->ok()) *error = s;
    stop = true;
  };
  for (int r = 0; r < readers; ++r) {
    threads.emplace_back([&, r] {
      std::unique_ptr<Session> session;
      Status s = e->adapter->NewSession(&session);
      if (!s.ok()) return fail(s);
      ReaderResult& out = results[static_cast<size_t>(r)];
      std::string value;
      ScanOptions options;
      options.limit = kGroup;
      uint64_t last = 0;
      size_t i = static_cast<size_t>(r) * 7919;
      ++ready;
      while (!stop.load(std::memory_order_relaxed)) {
        for (int n = 0; n < 63; ++n) {
          s = session->Get(e->query_keys[i], &value);
          if (!s.ok()) return fail(s);
          i = (i + 1) % kQueryKeys;
        }
        out.gets += 63;
        GroupVisitor check;
        s = session->Scan(group.front(), options, &check, nullptr);
        if (!s.ok()) return fail(s);
        ++out.checks;
        if (check.torn_ || check.rows_ != kGroup || check.first_ < last) ++out.violations;
        last = check.first_;
      }
    });
  }
  if (with_writer) {
    threads.emplace_back([&] {
      std::unique_ptr<Session> session;
      Status s = e->adapter->NewSession(&session);
      if (!s.ok()) return fail(s);
      datasets::Rng rng(11);
      const std::set<std::string> in_group(group.begin(), group.end());
      std::string key;
      const std::string filler = VersionedValue(0);
      for (uint64_t version = 1; !stop.load(std::memory_order_relaxed); ++version) {
        const std::string value = VersionedValue(version);
        s = session->BeginBatch();
        for (size_t j = 0; s.ok() && j < kGroup; ++j) s = session->Put(group[j], value);
        for (size_t j = kGroup; s.ok() && j < kBatchPuts; ++j) {
          e->keys->Key(rng.Uniform(kKeys), &key);
          if (!in_group.contains(key)) s = session->Put(key, filler);
        }
        if (s.ok()) s = session->CommitBatch();
        if (!s.ok()) return fail(s);
        commits.fetch_add(1, std::memory_order_relaxed);
      }
    });
  }
  while (ready.load() < readers && error->ok()) std::this_thread::yield();
  const auto start = std::chrono::steady_clock::now();
  const uint64_t commits_before = commits.load();
  std::vector<uint64_t> gets_before(static_cast<size_t>(readers));
  for (int r = 0; r < readers; ++r)
    gets_before[static_cast<size_t>(r)] = results[static_cast<size_t>(r)].gets;
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  uint64_t gets = 0;
  for (int r = 0; r < readers; ++r)
    gets += results[static_cast<size_t>(r)].gets - gets_before[static_cast<size_t>(r)];
  const uint64_t commits_after = commits.load();
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  stop = true;
  for (std::thread& t : threads) t.join();
  for (const ReaderResult& r : results) {
    *checks += r.checks;
    *violations += r.violations;
  }
  *commits_per_s = static_cast<double>(commits_after - commits_before) / elapsed;
  return static_cast<double>(gets) / elapsed;
}

void BM_ReadersWithWriter(benchmark::State& state) {
  LoadedEngine* e = Load(kEngines[state.range(0)]);
  const int readers = static_cast<int>(state.range(1));
  state.SetLabel(kEngines[state.range(0)]);
  Status s = e->status;
  // The group: 100 consecutive keys from a present key, set to version 0.
  std::vector<std::string> group;
  if (s.ok()) {
    std::unique_ptr<Session> session;
    s = e->adapter->NewSession(&session);
    struct Collect final : ScanVisitor {
      std::vector<std::string>* out;
      bool Visit(Slice key, Slice) override {
        out->emplace_back(key);
        return true;
      }
    } collect;
    collect.out = &group;
    ScanOptions options;
    options.limit = kGroup;
    if (s.ok()) s = session->Scan(e->query_keys[12345], options, &collect, nullptr);
    if (s.ok()) s = session->BeginBatch();
    for (size_t j = 0; s.ok() && j < group.size(); ++j)
      s = session->Put(group[j], VersionedValue(0));
    if (s.ok()) s = session->CommitBatch();
    if (s.ok() && group.size() != kGroup)
      s = Status::Internal("fewer than 100 keys after the start");
  }
  if (!s.ok()) {
    state.SkipWithError(s.ToString().c_str());
    return;
  }
  uint64_t checks = 0, violations = 0;
  double solo = 0, shared = 0, commits_per_s = 0, unused = 0;
  for (auto _ : state) {
    solo = RunReaders(e, group, readers, false, 1.0, &checks, &violations, &unused, &s);
    if (s.ok())
      shared = RunReaders(e, group, readers, true, 1.0, &checks, &violations, &commits_per_s, &s);
  }
  if (!s.ok()) return state.SkipWithError(s.ToString().c_str());
  if (violations > 0) return state.SkipWithError("a reader saw a torn or stale snapshot");
  state.counters["solo_gets_per_s"] = solo;
  state.counters["gets_per_s"] = shared;
  state.counters["kept"] = shared / solo;
  state.counters["commits_per_s"] = commits_per_s;
  state.counters["snapshot_checks"] = static_cast<double>(checks);
}
BENCHMARK(BM_ReadersWithWriter)
    ->Args({0, 1})
    ->Args({0, 2})
    ->Args({1, 1})
    ->Args({1, 2})
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

// Seed 001's get-1k/4k-fresh-open phases: what a read costs while the
// engine's caches are empty (the OS's page cache holds the file, as in
// kvbench's runs: the file was read since it was written).
void BM_FreshOpenGet(benchmark::State& state) {
  constexpr size_t kGets = 4096;
  LoadedEngine* e = Load(kEngines[state.range(0)]);
  state.SetLabel(kEngines[state.range(0)]);
  std::vector<std::string> keys(kGets);
  std::string value;
  uint64_t round = 0, found = 0;
  for (auto _ : state) {
    state.PauseTiming();
    Status s = e->status;
    if (s.ok()) s = e->adapter->Close();
    if (s.ok()) s = e->adapter->Open(e->request);
    std::unique_ptr<Session> session;
    if (s.ok()) s = e->adapter->NewSession(&session);
    if (!s.ok()) {
      e->status = s;
      state.SkipWithError(s.ToString().c_str());
      break;
    }
    datasets::Rng rng(1000 + round++);
    for (std::string& k : keys) e->keys->Key(rng.Uniform(kKeys), &k);
    state.ResumeTiming();
    for (const std::string& k : keys) found += session->Get(k, &value).ok();
  }
  if (found != kGets * static_cast<uint64_t>(state.iterations()))
    state.SkipWithError("a present key was not found");
  state.SetItemsProcessed(static_cast<int64_t>(kGets * state.iterations()));
}
BENCHMARK(BM_FreshOpenGet)->Arg(0)->Arg(1)->MinTime(1.0);

}  // namespace
}  // namespace kvbench

BENCHMARK_MAIN();
