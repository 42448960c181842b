// What the harness itself costs per operation.
//
//   BM_ClockPairAndHistogramRecord  two CycleClock reads and a histogram
//                                   record: the timing around every adapter call
//   BM_NullEngineTimedLoop/<key kind>  the per-thread timed loop (PhaseWorker)
//                                   against the `null` engine, for sequential
//                                   and urls keys: the wall span kvbench's
//                                   ops/s divides by (manual time), with the
//                                   operations prepared ahead (the default:
//                                   loading the next one, two clock reads,
//                                   the histogram and counters per operation)
//   BM_NullEngineTimedLoop...Live    the same with each operation generated
//                                   inside the loop (op_buffer_mib = 0: key
//                                   generation and the stream digest inside
//                                   the span, as before chunks)
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
    const uint64_t t1 = clock.NowAfterPriorWork();
    histogram.Record(clock.ToNs(t1 - t0));
  }
  benchmark::DoNotOptimize(histogram.count());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ClockPairAndHistogramRecord);

void NullEngineTimedLoop(benchmark::State& state, const char* kind, bool time_series,
                         bool live = false) {
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
  plan.buffer_bytes = live ? 0 : size_t{256} << 20;
  if (time_series) {
    plan.interval_max_ns = 1'000'000'000;
    plan.interval_min_ns = plan.interval_max_ns / kNarrowestIntervalDivisor;
  }
  const CycleClock& clock = CycleClock::Get();
  double span_ns = 0;
  for (auto _ : state) {
    PhaseWorker worker(plan, 0);
    const uint64_t start = clock.Now();
    worker.Run(session.get(), start);
    benchmark::DoNotOptimize(worker.result().digest);
    // The span the run's ops/s divides by: chunks' generation left out.
    const double ns = static_cast<double>(clock.ToNs(worker.end_ticks() - start));
    span_ns += ns;
    state.SetIterationTime(ns / 1e9);
  }
  state.SetItemsProcessed(state.iterations() * kOps);
  state.counters["ns_per_op"] = span_ns / static_cast<double>(state.iterations() * kOps);
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
void BM_NullEngineTimedLoopSequentialLive(benchmark::State& state) {
  NullEngineTimedLoop(state, "sequential", false, true);
}
void BM_NullEngineTimedLoopUrlsLive(benchmark::State& state) {
  NullEngineTimedLoop(state, "urls", false, true);
}
BENCHMARK(BM_NullEngineTimedLoopSequential)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NullEngineTimedLoopSequentialTimeSeries)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NullEngineTimedLoopUrls)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NullEngineTimedLoopUrlsTimeSeries)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NullEngineTimedLoopSequentialLive)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NullEngineTimedLoopUrlsLive)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace kvbench::runner

BENCHMARK_MAIN();
