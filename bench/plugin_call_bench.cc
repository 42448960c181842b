// What a call through the plugin ABI costs: the built-in null adapter
// against the same do-nothing engine loaded as a plugin
// (bench/plugin_null_plugin.cc), through kvbench's Session interface as the
// runner calls it. Issue 31's budget: at most 5 ns more per call.
//
// Measured (2-core 2.25 GHz AMD EPYC VM, Release, the build lock held so
// nothing else built or benchmarked meanwhile; medians of 5 repetitions, three
// runs alternated with a build of the sources before this change; ranges are
// the three runs' differences):
//   before (ABI 1.1 get_ref, Status with std::string, virtual calls, every
//   call guarded):           Get +19.4 to +22.7 ns, Put +4.5 to +13.4 ns
//   now                      Get: built in 7.1-9.1 ns, plugin 11.3-15.9 ns:
//                                 +4.3, +6.1, +6.8 ns (median +6.1)
//                            Put: built in 5.3-8.3 ns, plugin 10.6-15.1 ns:
//                                 +7.5, +6.9, +2.3 ns (median +6.9)
// What changed: the plugin side (kvbench/plugin_cpp.h) calls the adapter's
// SessionType directly and skips the exception guard for its noexcept
// methods, and its Status is an int and a null pointer on success, so the
// null plugin's put is `xor eax,eax; ret` and its get_ref two stores; the
// host (adapters/plugin/plugin_adapter.cc) keeps the writer gate, the value
// copy and every failure path out of line, so a timed call's frame is three
// registers.
// Where the rest goes (perf record/annotate of the plugin Get, cycles:u):
// 75% in PluginSession::Get, 21% in the loop, 4.5% in the plugin. Inside
// PluginSession::Get, 31% lands on its entry (the runner's virtual call,
// which the built-in null pays too) and 15% on the return from the plugin:
// the second indirect call, into another shared object, that a built-in
// adapter does not make and the ABI cannot avoid (the runner calls Session's
// virtual Get; the plugin's function is behind a pointer). The host's checks
// cost ~10% (the breach flag: two dependent loads) and ~5% (the 16 guard
// bytes: two compares); preparing the message buffer (one byte store) does
// not show. A build without the three checks (an experiment, not kept: they
// are what fails a misbehaving plugin) measured Get +1.7 and +3.9 ns against
// +6.0 and +5.6 ns with them, two runs alternated; Put showed no difference
// beyond the noise. So of the ~6 ns left on Get, about 2-4 ns are the checks
// and the rest is the call itself. On this VM run-to-run spread (1-3 ns) is
// as large as what is left over the 5 ns budget.
//
//   flock /tmp/kvbench-build.lock build/bench/plugin_call_bench
//       --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//       (one line; the lock keeps other builds and benchmarks off the cores)
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
