// What a call through the plugin ABI costs: the built-in null adapter
// against the same do-nothing engine loaded as a plugin
// (bench/plugin_null_plugin.cc), through kvbench's Session interface as the
// runner calls it. Issue 31's budget: at most 5 ns more per call.
//
// Measured (2-core AMD EPYC VM, Release, each run under the build lock so
// nothing else built or benchmarked meanwhile; medians of 5 repetitions; two
// sets of three runs, 12:12 and 12:33 UTC on 2026-11-26, each run alternated
// with the binary of the sources before this change, both loading the same
// null plugin; a figure is one run's plugin median minus its built-in median):
//                 Get (ns)                          Put (ns)
//   before   +5.8 +4.9 +3.5 | +2.9 +3.9 +3.8    +3.2 +3.2 +3.1 | +3.0 +3.0 +4.4
//   now      +2.2 +2.2 +2.4 | +2.9 +3.5 -0.4    +2.3 +2.6 +6.2 | +2.1 +2.7 +3.7
// Now, over the six runs: Get median +2.3 (built in 4.92-9.07 ns, plugin
// 7.15-8.75 ns), Put median +2.7 (built in 4.45-5.43 ns, plugin 6.88-10.6 ns);
// before, Get +3.9 and Put +3.1. (Earlier in the day, the machine busier, the
// same "before" measured Get +4.3/+6.1/+6.8 and Put +7.5/+6.9/+2.3.)
// Instructions per call with its loop (perf stat -e instructions:u over a
// scratch driver, not kept, making 2e8 calls through Session; exact, unlike
// time):
// Get built in 42, plugin 67 before and 56 now; Put built in 35, plugin 52
// before and 46 now.
//
// What changed (adapters/plugin/plugin_adapter.cc; the ABI, the C++ helper
// and the plugin are as they were: no plugin needs rebuilding): each session
// keeps its own copy of the engine's breach flag, in one flag byte with "its
// writes take turns" and "an ABI 1.0 plugin", so a timed call tests one byte
// of the object it already has instead of following a pointer to the shared
// state; the message buffer's guard is one 8-byte word (no NUL byte in it, so
// an off-by-one terminator is caught), compared together with the status in
// one compare and one branch; every failure path is one out-of-line call that
// needs only the session, so nothing is kept in a register across the
// plugin's function for it (Put saves two registers, not three), and get_ref's
// place and length are members, not a stack frame. Every check is kept: an
// invalid status, a write past the message buffer and get_ref's OK without
// bytes still fail the engine with the reason, on every session of it
// (adapters/plugin/plugin_host_test.cc).
// The ABI already spares the value a plugin-written host buffer (1.1's
// get_ref hands back the plugin's own bytes, which the host copies), but
// every call may still write the message buffer, so its guard is checked
// after every call; at one compare folded into the status check, it is not
// worth an ABI with calls that take no buffer.
//
// Where the rest goes (perf record -e cycles:u, perf annotate, of the plugin
// and the built-in Get): the loop below is one function for both engines,
// at the same addresses in both profiles (same code, same alignment), with
// its samples on the virtual call and on the load of the returned Status.
// In the plugin path a quarter of PluginSession::Get's samples sit on its
// entry and a sixth on the instruction after the call into the plugin, and
// the plugin's own (a fifth of all) on its first instruction: arriving
// through the second indirect call, into another shared object, that a
// built-in adapter does not make. What varies is per process, not per
// repetition, and the built-in varies as much: the same code runs faster or
// slower depending on where ASLR puts the binary, the plugin, the heap and
// the stack. The built-in null's Put, the same code linked into two builds
// of a scratch driver (not kept), took 10.2-15.2 and 10.5-19.1 cycles a call
// over ten processes each, and 9.1-10.4 and 10.6-12.7 over five each with
// ASLR off (setarch -R). So a run's five repetitions agree while runs differ
// by 1-4 ns, as much as what is left under the budget; the +6.2 above is one
// such process (plugin Put 10.6 ns against 6.88-9.11 ns in the other five
// runs). One layout is one draw: with ASLR off (setarch -R, two runs each,
// 12:37 UTC, the machine slower by then: built-in Get 7.4-8.9 ns) the old build
// measured Get +2.7 +2.5, Put +3.4 +1.2, and this one Get +4.3 +4.2, Put
// +3.3 +2.8: within the budget, but its fixed layout is a slow one for Get.
// Compare builds over several processes with ASLR on, as above.
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
