// Do kvbench's figures agree with a plain loop against the library?
//
// Both benchmarks load the same 100,000 sequential keys with 40-byte values
// into a fresh LMDB environment (MDB_NOSYNC) and then time uniform random
// gets of present keys:
//   BM_LmdbPlainLoop   a loop written directly against liblmdb, doing per get
//                      what an application (and our adapter) does: renew a
//                      reset read transaction, mdb_get, copy the value out,
//                      reset the transaction.
//   BM_LmdbThroughKvbench  the same gets through kvbench: the lmdb adapter's
//                      Session driven by the runner's timed loop (PhaseWorker:
//                      key generation, clock reads, histogram, digest).
// BM_LmdbPlainLoop's ns_per_op (wall time / gets) is what the library costs.
// BM_LmdbThroughKvbench reports two figures: reported_mean_ns, the mean of
// the per-get latencies kvbench records (what its reports state), which should
// agree with the plain loop within 10%; and ns_per_op, the wall time per get of
// the whole loop, which also pays for the harness's own work between calls.
#include <benchmark/benchmark.h>
#include <lmdb.h>

#include <filesystem>
#include <memory>

#include "adapters/registry.h"
#include "datasets/key_generator.h"
#include "datasets/random.h"
#include "runner/cycle_clock.h"
#include "runner/phase_worker.h"
#include "datasets/value_generator.h"

namespace kvbench::runner {
namespace {

constexpr uint64_t kKeys = 100000;
constexpr uint64_t kGetsPerIteration = 1 << 20;

struct Dataset {
  std::unique_ptr<datasets::KeyGenerator> keys;
  std::unique_ptr<datasets::ValueGenerator> values;
  Dataset() {
    datasets::DatasetSpec spec;
    spec.kind = "sequential";
    spec.count = kKeys;
    datasets::NewKeyGenerator(spec, &keys);
    values = std::make_unique<datasets::ValueGenerator>(datasets::ValueOptions{}, 1);
  }
};

std::string FreshDirectory(const char* tag) {
  const std::string dir = std::filesystem::temp_directory_path() / (std::string("kvbench-") + tag);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

void BM_LmdbPlainLoop(benchmark::State& state) {
  Dataset data;
  const std::string dir = FreshDirectory("lmdb-plain");
  MDB_env* env = nullptr;
  mdb_env_create(&env);
  mdb_env_set_mapsize(env, size_t{1} << 30);
  if (mdb_env_open(env, dir.c_str(), MDB_NOSYNC, 0644) != 0) {
    state.SkipWithError("mdb_env_open");
    return;
  }
  MDB_txn* txn = nullptr;
  MDB_dbi dbi;
  mdb_txn_begin(env, nullptr, 0, &txn);
  mdb_dbi_open(txn, nullptr, 0, &dbi);
  std::string key, value;
  for (uint64_t i = 0; i < kKeys; ++i) {
    data.keys->Key(i, &key);
    data.values->Value(i, 0, &value);
    MDB_val k{key.size(), key.data()}, v{value.size(), value.data()};
    mdb_put(txn, dbi, &k, &v, 0);
  }
  mdb_txn_commit(txn);

  MDB_txn* reader = nullptr;
  mdb_txn_begin(env, nullptr, MDB_RDONLY, &reader);
  mdb_txn_reset(reader);
  datasets::Rng rng(7);
  uint64_t found = 0;
  for (auto _ : state) {
    for (uint64_t n = 0; n < kGetsPerIteration; ++n) {
      data.keys->Key(rng.Uniform(kKeys), &key);
      mdb_txn_renew(reader);
      MDB_val k{key.size(), key.data()}, v;
      if (mdb_get(reader, dbi, &k, &v) == 0) {
        value.assign(static_cast<const char*>(v.mv_data), v.mv_size);
        ++found;
      }
      mdb_txn_reset(reader);
    }
  }
  benchmark::DoNotOptimize(found);
  mdb_txn_abort(reader);
  mdb_env_close(env);
  std::filesystem::remove_all(dir);
  state.counters["ns_per_op"] = benchmark::Counter(
      static_cast<double>(state.iterations() * kGetsPerIteration),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_LmdbPlainLoop)->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_LmdbThroughKvbench(benchmark::State& state) {
  Dataset data;
  const std::string dir = FreshDirectory("lmdb-kvbench");
  std::unique_ptr<Adapter> adapter;
  AdapterRegistry::Global().Create("lmdb", &adapter);
  OpenRequest request;
  request.directory = dir;
  ResolveEngineOptions("lmdb", adapter->OptionSpecs(), {}, &request.options);
  if (!adapter->Open(request).ok()) {
    state.SkipWithError("open");
    return;
  }
  std::unique_ptr<Session> session;
  adapter->NewSession(&session);

  PhaseSpec load;
  load.op = PhaseOp::kInsert;
  load.repetitions = 1;
  load.batch = kKeys;
  WorkerPlan plan;
  plan.spec = &load;
  plan.keys = data.keys.get();
  plan.values = data.values.get();
  plan.ops_per_thread = kKeys;
  plan.adapter = adapter.get();
  PhaseWorker(plan, 0).Run(session.get(), CycleClock::Get().Now());

  PhaseSpec gets;
  gets.op = PhaseOp::kGet;
  gets.repetitions = 1;
  plan.spec = &gets;
  plan.present = kKeys;
  plan.ops_per_thread = kGetsPerIteration;
  uint64_t found = 0;
  LatencyHistogram latency;
  for (auto _ : state) {
    PhaseWorker worker(plan, 0);
    worker.Run(session.get(), CycleClock::Get().Now());
    found += worker.result().work[static_cast<size_t>(OpKind::kGet)].found;
    latency.Merge(worker.result().latency[static_cast<size_t>(OpKind::kGet)]);
  }
  // What a kvbench report states per get: the mean of the timed calls.
  state.counters["reported_mean_ns"] = latency.mean();
  state.counters["reported_p50_ns"] = static_cast<double>(latency.ValueAtQuantile(0.5));
  if (found != state.iterations() * kGetsPerIteration) state.SkipWithError("missing keys");
  session.reset();
  adapter->Close();
  std::filesystem::remove_all(dir);
  state.counters["ns_per_op"] = benchmark::Counter(
      static_cast<double>(state.iterations() * kGetsPerIteration),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_LmdbThroughKvbench)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace
}  // namespace kvbench::runner

BENCHMARK_MAIN();
