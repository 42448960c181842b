// End-to-end tests of the runner: real engines in child processes, real
// results.json files. Small datasets keep each test within seconds.
#include <gtest/gtest.h>
#include <sys/statfs.h>

#include <filesystem>
#include <fstream>

#include "harness/results_json.h"
#include "harness/run_controller.h"
#include "tests/scratch_dir.h"

namespace kvbench::harness {
namespace {

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
    args.quiet = true;
    args.overrides.engines = engines;
    return RunWorkloads(args);
  }

  RunResults Results() {
    RunResults r;
    Status s = ReadResultsFile(out_ + "/results.json", &r);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return r;
  }

  static const PhaseRun* Find(const RunResults& r, const std::string& phase,
                              const std::string& engine, const std::string& cache = "") {
    for (const PhaseRun& run : r.runs) {
      if (run.phase == phase && run.engine == engine && run.cache == cache) return &run;
    }
    return nullptr;
  }

  // A data directory on a real disk (not tmpfs) next to the test binary, so
  // page-cache eviction means something.
  test::ScratchDir dir_{"runner"};
  std::string out_ = dir_.path() + "/out";
};

constexpr const char* kSmall = R"(
name = "small"
timeout = 60
[dataset]
kind = "sequential"
count = 3000
[values]
size = 24
[[phase]]
name = "load"
op = "insert"
count = 3000
batch = 1000
[[phase]]
name = "get"
op = "get"
count = 1000
[[phase]]
name = "miss"
op = "get"
keys = "absent"
count = 300
)";

TEST_F(RunnerTest, EnginesGetTheSameOperationStreamAndFindTheSameKeys) {
  ASSERT_EQ(Run(kSmall, {"stdmap", "sqlite", "lmdb"}), 0);
  const RunResults r = Results();
  ASSERT_EQ(r.engines.size(), 3u);
  for (const std::string phase : {"load", "get", "miss"}) {
    const PhaseRun* base = Find(r, phase, "stdmap");
    ASSERT_NE(base, nullptr) << phase;
    ASSERT_EQ(base->status, "ok") << base->reason;
    const OpFigures& expected = base->repetitions.at(0).ops.at(0);
    for (const std::string engine : {"sqlite", "lmdb"}) {
      const PhaseRun* run = Find(r, phase, engine);
      ASSERT_NE(run, nullptr);
      ASSERT_EQ(run->status, "ok") << run->reason;
      const OpFigures& got = run->repetitions.at(0).ops.at(0);
      EXPECT_EQ(got.work.stream_digest, expected.work.stream_digest) << phase << " " << engine;
      EXPECT_EQ(got.work.found, expected.work.found) << phase << " " << engine;
      EXPECT_EQ(got.work.not_found, expected.work.not_found) << phase << " " << engine;
      EXPECT_EQ(got.ops, expected.ops);
    }
  }
  EXPECT_EQ(Find(r, "get", "sqlite")->repetitions[0].ops[0].work.found, 1000u);
  EXPECT_EQ(Find(r, "miss", "lmdb")->repetitions[0].ops[0].work.not_found, 300u);
  EXPECT_GT(Find(r, "load", "sqlite")->repetitions[0].file_bytes, 3000u * 24);
}

TEST_F(RunnerTest, AnAdapterThatAbortsMidPhaseLeavesTheOthersResultsAndAFailureRecord) {
  EXPECT_EQ(Run(kSmall, {"stdmap", "aborting", "sqlite"}), 1);
  const RunResults r = Results();
  ASSERT_EQ(r.engines.size(), 3u);
  EXPECT_EQ(r.engines[0].status, "ok");
  EXPECT_EQ(r.engines[1].name, "aborting");
  EXPECT_EQ(r.engines[1].status, "failed");
  EXPECT_NE(r.engines[1].reason.find("signal 6"), std::string::npos) << r.engines[1].reason;
  EXPECT_EQ(r.engines[2].status, "ok");
  // What the crashed engine finished before the crash is kept.
  ASSERT_NE(Find(r, "load", "aborting"), nullptr);
  EXPECT_EQ(Find(r, "get", "aborting"), nullptr);
  ASSERT_NE(Find(r, "miss", "sqlite"), nullptr);
  EXPECT_EQ(Find(r, "miss", "sqlite")->status, "ok");
}

TEST_F(RunnerTest, ColdPhaseStartsWithEvictedFilesAndHotRepeatIsWarmer) {
  struct statfs sfs {};
  ASSERT_EQ(statfs(dir_.path().c_str(), &sfs), 0);
  if (sfs.f_type == 0x01021994) GTEST_SKIP() << "the scratch directory is on tmpfs";
  ASSERT_EQ(Run(R"(
name = "cold"
[dataset]
kind = "sequential"
count = 40000
[values]
size = 200
[[phase]]
name = "load"
op = "insert"
count = 40000
batch = 10000
[[phase]]
name = "get"
op = "get"
count = 4000
cache = ["cold", "hot"]
)", {"sqlite", "lmdb"}), 0);
  const RunResults r = Results();
  for (const std::string engine : {"sqlite", "lmdb"}) {
    const PhaseRun* cold = Find(r, "get", engine, "cold");
    const PhaseRun* hot = Find(r, "get", engine, "hot");
    ASSERT_NE(cold, nullptr);
    ASSERT_NE(hot, nullptr);
    const Repetition& c = cold->repetitions.at(0);
    const Repetition& h = hot->repetitions.at(0);
    ASSERT_TRUE(c.cache_resident_before_pct.has_value());
    ASSERT_TRUE(h.cache_resident_before_pct.has_value());
    EXPECT_LT(*c.cache_resident_before_pct, 5.0) << engine;
    EXPECT_GT(*h.cache_resident_before_pct, *c.cache_resident_before_pct) << engine;
    EXPECT_TRUE(c.open_seconds.has_value()) << "a cold phase times the reopen on its own";
    // Both read the same keys.
    EXPECT_EQ(c.ops[0].work.stream_digest, h.ops[0].work.stream_digest);
  }
}

TEST_F(RunnerTest, TargetRateSpacesOperationsOverTime) {
  ASSERT_EQ(Run(R"(
name = "throttled"
[dataset]
kind = "sequential"
count = 100
[[phase]]
op = "insert"
count = 100
[[phase]]
name = "paced"
op = "get"
count = 400
threads = 2
target = 2000
)", {"stdmap"}), 0);
  const RunResults r = Results();
  const PhaseRun* run = Find(r, "paced", "stdmap");
  ASSERT_NE(run, nullptr);
  // 400 operations at 2,000/s cannot finish in less than 0.2 s of schedule
  // (the last is due at 0.1995 s per thread).
  EXPECT_GE(run->repetitions[0].seconds, 0.19);
  EXPECT_EQ(run->repetitions[0].ops[0].ops, 400u);
}

TEST_F(RunnerTest, BadInputExitsWithTwoAndWritesNothing) {
  EXPECT_EQ(Run("name = \"x\"\n[[phase]\n"), 2);
  EXPECT_EQ(Run(kSmall, {"no-such-engine"}), 2);
  EXPECT_EQ(Run(std::string(kSmall) + "[options.sqlite]\n\"sqlite.no_such\" = 1\n", {"sqlite"}), 2);
  EXPECT_EQ(Run(std::string(kSmall) + "[[phase]]\nop = \"get\"\ncount = -1\n"), 2);
  EXPECT_FALSE(fs::exists(out_ + "/results.json"));
}

TEST_F(RunnerTest, UnorderedEnginesReportScansAsUnsupported) {
  ASSERT_EQ(Run(std::string(kSmall) + "[[phase]]\nname = \"scan\"\nop = \"scan\"\ncount = 10\n",
                {"bdb-hash", "stdmap"}),
            0);
  const RunResults r = Results();
  ASSERT_NE(Find(r, "scan", "bdb-hash"), nullptr);
  EXPECT_EQ(Find(r, "scan", "bdb-hash")->status, "unsupported");
  EXPECT_EQ(Find(r, "scan", "stdmap")->status, "ok");
  EXPECT_EQ(Find(r, "scan", "stdmap")->repetitions[0].ops[0].work.rows, 10u * 100u);
}

}  // namespace
}  // namespace kvbench::harness
