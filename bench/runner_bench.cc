// What the harness itself costs per operation.
//
//   BM_ClockPairAndHistogramRecord  two CycleClock reads and a histogram
//                                   record: the timing around every adapter call
//   BM_NullEngineTimedLoop/<key kind>  the whole per-thread timed loop
//                                   (PhaseWorker: key generation, stream digest,
//                                   timing, histogram, counters) against the
//                                   `null` engine, for sequential and urls keys
//   BM_NullEngineTimedLoop.../TimeSeries  the same with latency over time on
//                                   (1 s intervals narrowed to 15.6 ms, so a
//                                   1M-operation pass closes a few intervals):
//                                   the issue allows at most 5 ns/op more
//
// The full runner (child process, workload file) on the null engine is
// workloads/harness-overhead.toml; its ops/s gives the same figure end to end.
#include <benchmark/benchmark.h>

#include <memory>

#include "adapters/registry.h"
#include "datasets/key_generator.h"
#include "runner/cycle_clock.h"
#include "runner/interval_recorder.h"
#include "runner/latency_histogram.h"
#include "runner/phase_worker.h"
#include "datasets/value_generator.h"

namespace kvbench::runner {
namespace {

void BM_ClockPairAndHistogramRecord(benchmark::State& state) {
  const CycleClock& clock = CycleClock::Get();
  LatencyHistogram histogram;
  for (auto _ : state) {
    const uint64_t t0 = clock.Now();
    const uint64_t t1 = clock.Now();
    histogram.Record(clock.ToNs(t1 - t0));
  }
  benchmark::DoNotOptimize(histogram.count());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ClockPairAndHistogramRecord);

void NullEngineTimedLoop(benchmark::State& state, const char* kind, bool time_series) {
  constexpr uint64_t kOps = 1 << 20;
  datasets::DatasetSpec spec;
  spec.kind = kind;
  spec.count = kOps;
  std::unique_ptr<datasets::KeyGenerator> keys;
  if (!datasets::NewKeyGenerator(spec, &keys).ok()) {
    state.SkipWithError("dataset");
    return;
  }
  auto values = std::make_unique<datasets::ValueGenerator>(datasets::ValueOptions{}, 1);
  std::unique_ptr<Adapter> adapter;
  AdapterRegistry::Global().Create("null", &adapter);
  adapter->Open(OpenRequest{});
  std::unique_ptr<Session> session;
  adapter->NewSession(&session);

  PhaseSpec phase;
  phase.op = PhaseOp::kGet;
  phase.repetitions = 1;
  WorkerPlan plan;
  plan.spec = &phase;
  plan.keys = keys.get();
  plan.values = values.get();
  plan.present = kOps;
  plan.ops_per_thread = kOps;
  plan.adapter = adapter.get();
  if (time_series) {
    plan.interval_max_ns = 1'000'000'000;
    plan.interval_min_ns = plan.interval_max_ns / kNarrowestIntervalDivisor;
  }
  for (auto _ : state) {
    PhaseWorker worker(plan, 0);
    worker.Run(session.get(), CycleClock::Get().Now());
    benchmark::DoNotOptimize(worker.result().digest);
  }
  state.SetItemsProcessed(state.iterations() * kOps);
  state.counters["ns_per_op"] = benchmark::Counter(
      static_cast<double>(state.iterations() * kOps),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_NullEngineTimedLoopSequential(benchmark::State& state) {
  NullEngineTimedLoop(state, "sequential", false);
}
void BM_NullEngineTimedLoopSequentialTimeSeries(benchmark::State& state) {
  NullEngineTimedLoop(state, "sequential", true);
}
void BM_NullEngineTimedLoopUrls(benchmark::State& state) {
  NullEngineTimedLoop(state, "urls", false);
}
void BM_NullEngineTimedLoopUrlsTimeSeries(benchmark::State& state) {
  NullEngineTimedLoop(state, "urls", true);
}
BENCHMARK(BM_NullEngineTimedLoopSequential)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NullEngineTimedLoopSequentialTimeSeries)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NullEngineTimedLoopUrls)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NullEngineTimedLoopUrlsTimeSeries)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace kvbench::runner

BENCHMARK_MAIN();
