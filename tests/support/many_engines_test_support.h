// Test support: a made-up run of many engines (twenty by default), for the
// charts of report.html with more engines than fit one chart (issue 33).
// Made from the golden results (run_a.json): every run of lmdb's (eight
// matrix points, all ok) is copied for each engine, with its throughput,
// latency and file size scaled by the engine's place so that no two engines
// draw the same bar, and a time series of eight intervals in the load phase.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "tests/support/golden_test_support.h"

namespace kvbench::reports::test {

// Eighteen built-in engines of every family, a server and a plugin that no
// family table knows ("other").
inline const std::vector<std::string>& TwentyEngineNames() {
  static const std::vector<std::string> kNames = {
      "sqlite",     "bdb-hash",   "bdb-btree",        "tc-hash",        "tc-btree",
      "lmdb",       "pbtree",     "native",           "whitedb",        "stdmap",
      "leveldb",    "rocksdb",    "wiredtiger-btree", "wiredtiger-lsm", "kc-hash",
      "kc-tree",    "tkrzw-hash", "tkrzw-tree",       "redis",          "qdbm-villa"};
  return kNames;
}

// The first `count` (at most 20) of TwentyEngineNames, in that order.
inline results::RunResults ManyEngineRun(size_t count = 20) {
  const results::RunResults a = LoadRunA();
  results::RunResults r = a;
  r.engines.clear();
  r.runs.clear();
  const results::EngineRun* lmdb = nullptr;
  for (const results::EngineRun& e : a.engines) {
    if (e.name == "lmdb") lmdb = &e;
  }
  EXPECT_NE(lmdb, nullptr) << "run_a.json has no lmdb";
  if (lmdb == nullptr) return r;
  for (size_t e = 0; e < count && e < TwentyEngineNames().size(); ++e) {
    const std::string& name = TwentyEngineNames()[e];
    results::EngineRun engine = *lmdb;
    engine.name = name;
    r.engines.push_back(engine);
    // From 0.25x to about 5x lmdb's figures, a different factor per engine.
    const double factor = 0.25 * std::pow(1.17, static_cast<double>(e));
    for (const results::PhaseRun& sample : a.runs) {
      if (sample.engine != "lmdb") continue;
      results::PhaseRun run = sample;
      run.engine = name;
      for (results::Repetition& rep : run.repetitions) {
        for (results::OpFigures& op : rep.ops) {
          op.ops_per_sec *= factor;
          for (uint64_t* ns : {&op.latency.p50_ns, &op.latency.p90_ns, &op.latency.p95_ns,
                               &op.latency.p99_ns, &op.latency.p999_ns, &op.latency.max_ns}) {
            *ns = static_cast<uint64_t>(static_cast<double>(*ns) / factor) + 1;
          }
        }
        rep.file_bytes = static_cast<uint64_t>(static_cast<double>(rep.file_bytes) * factor);
        rep.allocated_bytes =
            static_cast<uint64_t>(static_cast<double>(rep.allocated_bytes) * factor);
        if (run.phase == "load" && !rep.ops.empty()) {
          results::TimeSeries ts;
          ts.interval_s = rep.seconds / 8;
          results::OpTimeSeries all;
          all.op = "all";
          for (size_t i = 0; i < 8; ++i) {
            const double rate = rep.ops.front().ops_per_sec * (0.8 + 0.05 * static_cast<double>(i));
            all.count.push_back(static_cast<uint64_t>(rate * ts.interval_s) + 1);
            all.ops_per_sec.push_back(rate);
            all.p99_ns.push_back(static_cast<uint64_t>(20'000 / factor) + i * 100);
          }
          ts.ops = {all};
          rep.time_series = ts;
        }
      }
      r.runs.push_back(std::move(run));
    }
  }
  return r;
}

}  // namespace kvbench::reports::test
