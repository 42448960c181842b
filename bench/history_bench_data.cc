// Writes made-up results files for bench/history_bench.sh:
//   history_bench_data big DIR FIGURES   one results.json of about FIGURES figures
//   history_bench_data runs DIR RUNS     RUNS results files of 4 engines x 6 phases,
//                                         3% noise, a 10% step in two engines' series
// Each run has its own run_id and start time, a minute apart.
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "results/history_model.h"
#include "results/results_json.h"

namespace {

using namespace kvbench::results;

RunResults Run(int index, int engines, int phases, double (*level)(int run, int engine)) {
  std::mt19937_64 rng(static_cast<uint64_t>(index) * 7919 + 1);
  std::normal_distribution<double> noise(1.0, 0.03);
  RunResults r;
  char id[40], stamp[32];
  std::snprintf(id, sizeof id, "%032x", index + 1);
  std::snprintf(stamp, sizeof stamp, "2026-%02d-%02dT%02d:%02d:00Z", 1 + index / 1440 % 12,
                1 + index / 1440 / 12 % 28, index / 60 % 24, index % 60);
  r.run_id = id;
  r.started_at = r.finished_at = stamp;
  r.command_line = "kvbench run bench.toml";
  r.environment.hostname = "bench-host";
  r.environment.cpu_model = "Bench CPU";
  r.environment.cores = 2;
  r.environment.memory_bytes = 8ULL << 30;
  r.environment.kvbench_revision = "rev" + std::to_string(index);
  r.workload.name = "bench";
  r.workload.source = "name = \"bench\"\n";
  for (int e = 0; e < engines; ++e) {
    EngineRun er;
    er.name = "engine" + std::to_string(e);
    er.library_version = "1.0";
    r.engines.push_back(er);
    for (int p = 0; p < phases; ++p) {
      PhaseRun pr;
      pr.phase = "phase" + std::to_string(p);
      pr.op = "get";
      pr.engine = er.name;
      for (int rep = 0; rep < 3; ++rep) {
        Repetition x;
        x.seconds = 1;
        OpFigures all;
        all.op = "all";
        all.ops = 100000;
        all.ops_per_sec = level(index, e) * noise(rng);
        all.latency.p50_ns = static_cast<uint64_t>(1e9 / all.ops_per_sec);
        all.latency.p99_ns = 4 * all.latency.p50_ns;
        x.ops.push_back(all);
        x.bytes_read = 0;
        x.bytes_written = 4096;
        x.open_seconds = 0.01;
        pr.repetitions.push_back(x);
      }
      r.runs.push_back(pr);
    }
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: history_bench_data big|runs DIR COUNT\n");
    return 2;
  }
  const std::string what = argv[1], dir = argv[2];
  const int count = std::atoi(argv[3]);
  if (what == "big") {
    // FigureKinds() figures per phase run.
    const int phase_runs = (count + static_cast<int>(FigureKinds().size()) - 1) /
                           static_cast<int>(FigureKinds().size());
    const RunResults r = Run(0, 1, phase_runs, [](int, int) { return 100000.0; });
    return WriteResultsFile(r, dir + "/big.json").ok() ? 0 : 1;
  }
  for (int i = 0; i < count; ++i) {
    // engine0 10% slower from run 600, engine1 10% faster from run 850.
    const RunResults r = Run(i, 4, 6, [](int run, int engine) {
      if (engine == 0 && run >= 600) return 90000.0;
      if (engine == 1 && run >= 850) return 110000.0;
      return 100000.0;
    });
    char name[32];
    std::snprintf(name, sizeof name, "/run%04d.json", i);
    if (!WriteResultsFile(r, dir + name).ok()) return 1;
  }
  return 0;
}
