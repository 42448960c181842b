// What a call through the plugin ABI costs: the built-in null adapter
// against the same do-nothing engine loaded as a plugin
// (bench/plugin_null_plugin.cc), through kvbench's Session interface as the
// runner calls it. Issue 31's budget: at most 5 ns more per call.
//
// Measured (2-core 2.25 GHz VM, Release, medians of 5 repetitions, the build
// lock held so nothing else built meanwhile):
//   ABI 1.0 get (value sink)   Get: built in 9.4 ns, plugin 22.9 ns: +13.5 ns
//                              Put: built in 5.2 ns, plugin 12.0 ns: +6.8 ns
//   ABI 1.1 get_ref            Get: built in 5.2 ns, plugin 15.5 ns: +10.3 ns
//                              Put: built in 4.5 ns, plugin  9.9 ns: +5.3 ns
// get_ref drops the sink's second copy and indirect call; still over the
// 5 ns budget: the rest is the C++ helper's layers (a virtual call, its
// Status with a std::string, the exception guard) and the host's checks.
//
//   build/bench/plugin_call_bench --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true   (one line)
#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <string>

#include "adapters/plugin/plugin_loader.h"
#include "adapters/registry.h"

namespace kvbench {
namespace {

std::unique_ptr<Adapter> OpenEngine(const std::string& name, std::unique_ptr<Session>* session) {
  static const bool loaded = [] {
    Status s = plugin_host::LoadPlugin(KVBENCH_NULL_PLUGIN_PATH, "", {});
    if (!s.ok()) std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return s.ok();
  }();
  std::unique_ptr<Adapter> adapter;
  if (!loaded || !AdapterRegistry::Global().Create(name, &adapter).ok()) return nullptr;
  OpenRequest request;
  request.directory = "/tmp";
  if (!adapter->Open(request).ok() || !adapter->NewSession(session).ok()) return nullptr;
  return adapter;
}

void BM_Get(benchmark::State& state, const char* engine) {
  std::unique_ptr<Session> session;
  std::unique_ptr<Adapter> adapter = OpenEngine(engine, &session);
  if (!adapter) {
    state.SkipWithError("engine did not open");
    return;
  }
  const std::string key = "user:000000000042";
  std::string value;
  if (Status s = session->Get(key, &value); !s.ok()) {
    state.SkipWithError(s.ToString().c_str());
    return;
  }
  for (auto _ : state) {
    Status s = session->Get(key, &value);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(value);
  }
  session.reset();
  (void)adapter->Close();
}

void BM_Put(benchmark::State& state, const char* engine) {
  std::unique_ptr<Session> session;
  std::unique_ptr<Adapter> adapter = OpenEngine(engine, &session);
  if (!adapter) {
    state.SkipWithError("engine did not open");
    return;
  }
  const std::string key = "user:000000000042";
  const std::string value(100, 'v');
  for (auto _ : state) {
    Status s = session->Put(key, value);
    benchmark::DoNotOptimize(s);
  }
  session.reset();
  (void)adapter->Close();
}

BENCHMARK_CAPTURE(BM_Get, builtin_null, "null");
BENCHMARK_CAPTURE(BM_Get, plugin_null, "null-plugin");
BENCHMARK_CAPTURE(BM_Put, builtin_null, "null");
BENCHMARK_CAPTURE(BM_Put, plugin_null, "null-plugin");

}  // namespace
}  // namespace kvbench

BENCHMARK_MAIN();
