// The fixture of the runner's end-to-end tests: writes a workload, runs it
// through RunWorkloads (real engines in child processes) and reads the
// results.json back.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "results/results_json.h"
#include "app/run_controller.h"
#include "runner/run_plan.h"
#include "tests/scratch_dir.h"

namespace kvbench::app {

namespace fs = std::filesystem;

class RunnerTest : public ::testing::Test {
 protected:
  // Writes `toml` to a workload file and runs it; returns the exit code.
  int Run(const std::string& toml, const std::vector<std::string>& engines = {}) {
    const std::string file = dir_.path() + "/w.toml";
    std::ofstream(file) << toml;
    RunArgs args;
    args.files = {file};
    args.out = out_;
    args.overwrite = true;  // a test runs several workloads into one folder, one after another
    args.quiet = true;
    args.overrides.engines = engines;
    return RunWorkloads(args);
  }

  // Runs a YCSB property file (the repository's, or `text` written to a file)
  // with -p overrides; returns the exit code.
  int RunYcsb(const std::string& file, const std::vector<std::string>& engines,
              const std::vector<std::string>& properties, bool ycsb_output = false) {
    RunArgs args;
    args.files = {file};
    args.out = out_;
    args.overwrite = true;
    args.quiet = true;
    args.ycsb_output = ycsb_output;
    args.overrides.engines = engines;
    args.overrides.properties = properties;
    return RunWorkloads(args);
  }
  std::string WriteYcsbFile(const std::string& text) {
    const std::string file = dir_.path() + "/ycsb-workload";
    std::ofstream(file) << text;
    return file;
  }
  static std::string RepoWorkload(const std::string& name) {
    return (fs::path(KVBENCH_SOURCE_DIR) / "workloads" / "ycsb" / name).string();
  }
  static const results::OpFigures* FindOp(const results::Repetition& rep, const std::string& op) {
    for (const results::OpFigures& f : rep.ops) {
      if (f.op == op) return &f;
    }
    return nullptr;
  }

  results::RunResults Results() {
    results::RunResults r;
    Status s = results::ReadResultsFile(out_ + "/results.json", &r);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return r;
  }

  static const results::PhaseRun* Find(const results::RunResults& r, const std::string& phase,
                              const std::string& engine, const std::string& cache = "") {
    for (const results::PhaseRun& run : r.runs) {
      if (run.phase == phase && run.engine == engine && run.cache == cache) return &run;
    }
    return nullptr;
  }

  // A data directory on a real disk (not tmpfs) next to the test binary, so
  // page-cache eviction means something.
  test::ScratchDir dir_{"runner"};
  std::string out_ = dir_.path() + "/out";
};

}  // namespace kvbench::app
