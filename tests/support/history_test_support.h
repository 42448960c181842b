// Results made up for the history tests and benchmarks: a run of one
// workload on one host with `phase_runs` phase runs of one engine, each with
// `repetitions` repetitions of one operation type, and so
// phase_runs x FigureKinds().size() figures (bytes_read, bytes_written and
// open_seconds included).
#pragma once

#include <string>

#include "results/results.h"

namespace kvbench::results {

inline RunResults MadeUpRun(const std::string& run_id, const std::string& started_at,
                            int phase_runs, int repetitions = 3, double ops_per_sec = 1000,
                            const std::string& hostname = "bench-01") {
  RunResults r;
  r.run_id = run_id;
  r.started_at = started_at;
  r.finished_at = started_at;
  r.command_line = "kvbench run made-up.toml";
  r.environment.hostname = hostname;
  r.environment.cpu_model = "Made-up CPU";
  r.environment.cores = 2;
  r.environment.memory_bytes = 8ULL << 30;
  r.environment.kernel = "6.1.0";
  r.environment.kvbench_revision = "rev-" + run_id.substr(0, 6);
  r.environment.libraries["lmdb"] = "LMDB 0.9.24";
  r.workload.name = "made-up";
  r.workload.file = "made-up.toml";
  r.workload.source = "name = \"made-up\"\n";
  EngineRun engine;
  engine.name = "lmdb";
  engine.library_version = "LMDB 0.9.24";
  engine.options["lmdb.sync"] = "none";
  r.engines.push_back(engine);
  for (int p = 0; p < phase_runs; ++p) {
    PhaseRun pr;
    pr.phase = "phase-" + std::to_string(p);
    pr.op = "get";
    pr.engine = "lmdb";
    pr.threads = 1 + p % 4;
    for (int i = 0; i < repetitions; ++i) {
      Repetition rep;
      rep.seconds = 1.0 + 0.01 * i;
      OpFigures all;
      all.op = "all";
      all.ops = 1000;
      all.ops_per_sec = ops_per_sec * (1 + 0.001 * i);
      all.latency.p50_ns = 1000 + i;
      all.latency.p99_ns = 5000 + 10 * i;
      all.latency.mean_ns = 1100;
      rep.ops.push_back(all);
      rep.bytes_read = 4096;
      rep.bytes_written = 8192;
      rep.open_seconds = 0.01;
      pr.repetitions.push_back(rep);
    }
    r.runs.push_back(pr);
  }
  return r;
}

}  // namespace kvbench::results
