// End-to-end tests of the runner: real engines in child processes, real
// results.json files. Small datasets keep each test within seconds.
#include <gtest/gtest.h>
#include <sys/statfs.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "runner/ycsb/workload_file.h"
#include "tests/runner_fixture.h"

namespace kvbench::app {
namespace {

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
  const results::RunResults r = Results();
  ASSERT_EQ(r.engines.size(), 3u);
  for (const std::string phase : {"load", "get", "miss"}) {
    const results::PhaseRun* base = Find(r, phase, "stdmap");
    ASSERT_NE(base, nullptr) << phase;
    ASSERT_EQ(base->status, "ok") << base->reason;
    const results::OpFigures& expected = base->repetitions.at(0).ops.at(0);
    for (const std::string engine : {"sqlite", "lmdb"}) {
      const results::PhaseRun* run = Find(r, phase, engine);
      ASSERT_NE(run, nullptr);
      ASSERT_EQ(run->status, "ok") << run->reason;
      const results::OpFigures& got = run->repetitions.at(0).ops.at(0);
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
  const results::RunResults r = Results();
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

TEST_F(RunnerTest, WithForksAnEngineThatAbortsStopsAndTheOthersRunEveryFork) {
  // The engines take turns fork by fork; the aborting engine's first fork
  // fails, so it runs no second one, and the engines around it run all three.
  std::string toml = kSmall;
  toml.insert(toml.find("[dataset]"), "[measurement]\nforks = 3\n");
  EXPECT_EQ(Run(toml, {"stdmap", "aborting", "sqlite"}), 1);
  const results::RunResults r = Results();
  ASSERT_EQ(r.engines.size(), 3u);
  EXPECT_EQ(r.engines[0].name, "stdmap");
  EXPECT_EQ(r.engines[0].status, "ok");
  EXPECT_EQ(r.engines[1].status, "failed");
  EXPECT_NE(r.engines[1].reason.find("fork 1 of 3: killed by signal 6"), std::string::npos)
      << r.engines[1].reason;
  EXPECT_EQ(r.engines[2].name, "sqlite");
  EXPECT_EQ(r.engines[2].status, "ok");
  for (const std::string engine : {"stdmap", "sqlite"}) {
    const results::PhaseRun* miss = Find(r, "miss", engine);
    ASSERT_NE(miss, nullptr) << engine;
    EXPECT_EQ(miss->status, "ok") << engine << ": " << miss->reason;
    std::vector<int> forks;
    for (const results::Repetition& rep : miss->repetitions) forks.push_back(rep.fork.value_or(-1));
    std::sort(forks.begin(), forks.end());
    EXPECT_EQ(forks.front(), 0) << engine;
    EXPECT_EQ(forks.back(), 2) << engine;
  }
  const results::PhaseRun* load = Find(r, "load", "aborting");
  ASSERT_NE(load, nullptr);
  for (const results::Repetition& rep : load->repetitions) EXPECT_EQ(rep.fork, 0);
  EXPECT_EQ(Find(r, "get", "aborting"), nullptr);
  EXPECT_FALSE(fs::exists(out_ + "/data")) << "every engine's files are removed";
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
  const results::RunResults r = Results();
  for (const std::string engine : {"sqlite", "lmdb"}) {
    const results::PhaseRun* cold = Find(r, "get", engine, "cold");
    const results::PhaseRun* hot = Find(r, "get", engine, "hot");
    ASSERT_NE(cold, nullptr);
    ASSERT_NE(hot, nullptr);
    const results::Repetition& c = cold->repetitions.at(0);
    const results::Repetition& h = hot->repetitions.at(0);
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
  const results::RunResults r = Results();
  const results::PhaseRun* run = Find(r, "paced", "stdmap");
  ASSERT_NE(run, nullptr);
  // 400 operations at 2,000/s cannot finish in less than 0.2 s of schedule
  // (the last is due at 0.1995 s per thread).
  EXPECT_GE(run->repetitions[0].seconds, 0.19);
  EXPECT_EQ(run->repetitions[0].ops[0].ops, 400u);
}

// A phase's time is its wall span (ops/s = operations / wall span, as YCSB
// and db_bench); the time inside the engine's calls is kept beside it as
// engine_seconds: unthrottled, the sum of the operations' latencies (one
// rounding to ns per call), the driver's key generation and bookkeeping
// between calls left out; with several threads the mean over threads.
TEST_F(RunnerTest, PhaseTimeIsTheWallSpanAndEngineTimeIsInsideTheCalls) {
  ASSERT_EQ(Run(R"(
name = "busy"
repetitions = 1
# Each operation generated between the calls, inside the span: what the
# span holds besides the calls is then large enough to see.
[measurement]
op_buffer_mib = 0
[dataset]
kind = "urls"
count = 20000
[[phase]]
name = "load"
op = "insert"
count = 20000
[[phase]]
name = "get"
op = "get"
count = 20000
[[phase]]
name = "get-2"
op = "get"
count = 20000
threads = 2
[[phase]]
name = "paced"
op = "get"
count = 200
target = 4000
)", {"stdmap"}), 0);
  const results::RunResults r = Results();
  for (const char* phase : {"load", "get"}) {
    const results::PhaseRun* run = Find(r, phase, "stdmap");
    ASSERT_NE(run, nullptr) << phase;
    const results::Repetition& rep = run->repetitions.at(0);
    double call_ns = 0;
    uint64_t calls = 0;
    for (const results::OpFigures& f : rep.ops) {
      if (f.op == "all") continue;  // its kinds are listed again one by one
      call_ns += f.latency.mean_ns * static_cast<double>(f.latency.count);
      calls += f.latency.count;
    }
    ASSERT_TRUE(rep.engine_seconds.has_value()) << phase;
    EXPECT_NEAR(*rep.engine_seconds * 1e9, call_ns, 2.0 * static_cast<double>(calls)) << phase;
    // Generating a 142-byte URL key in the loop (op_buffer_mib = 0) costs
    // about 100 ns: far above rounding.
    EXPECT_GT(rep.seconds, *rep.engine_seconds + 20e-9 * static_cast<double>(calls)) << phase;
    EXPECT_NEAR(rep.ops[0].ops_per_sec, static_cast<double>(rep.ops[0].ops) / rep.seconds,
                1e-6 * rep.ops[0].ops_per_sec);
    ASSERT_TRUE(rep.HarnessShare().has_value());
    EXPECT_NEAR(*rep.HarnessShare(), 1 - *rep.engine_seconds / rep.seconds, 1e-12);
  }
  const results::Repetition& two = Find(r, "get-2", "stdmap")->repetitions.at(0);
  ASSERT_TRUE(two.engine_seconds.has_value());
  EXPECT_LT(*two.engine_seconds, two.seconds);
  // The mean over the two threads of each one's calls: half the calls' total.
  EXPECT_NEAR(*two.engine_seconds * 1e9, two.ops[0].latency.mean_ns * 20000 / 2,
              two.ops[0].latency.mean_ns * 20000 / 2 * 0.001 + 20000);
  const results::Repetition& paced = Find(r, "paced", "stdmap")->repetitions.at(0);
  EXPECT_GE(paced.seconds, 0.045);  // 200 operations at 4,000/s: the last is due at 49.75 ms
}

TEST_F(RunnerTest, BadInputExitsWithTwoAndWritesNothing) {
  EXPECT_EQ(Run("name = \"x\"\n[[phase]\n"), 2);
  EXPECT_EQ(Run(kSmall, {"no-such-engine"}), 2);
  EXPECT_EQ(Run(std::string(kSmall) + "[options.sqlite]\n\"sqlite.no_such\" = 1\n", {"sqlite"}), 2);
  EXPECT_EQ(Run(std::string(kSmall) + "[[phase]]\nop = \"get\"\ncount = -1\n"), 2);
  EXPECT_FALSE(fs::exists(out_ + "/results.json"));
}

// A bad value for the last engine fails the plan before the first engine runs
// (it used to fail inside sqlite's child after lmdb had run).
TEST_F(RunnerTest, BadOptionValueOfALaterEngineFailsBeforeAnyEngineRuns) {
  EXPECT_EQ(Run(std::string(kSmall) + "[options.sqlite]\n\"sqlite.journal_mode\" = \"wall\"\n",
                {"lmdb", "sqlite"}),
            2);
  EXPECT_FALSE(fs::exists(out_ + "/results.json"));
  EXPECT_FALSE(fs::exists(out_ + "/data"));
}

TEST_F(RunnerTest, UnorderedEnginesReportScansAsUnsupported) {
  ASSERT_EQ(Run(std::string(kSmall) + "[[phase]]\nname = \"scan\"\nop = \"scan\"\ncount = 10\n",
                {"bdb-hash", "stdmap"}),
            0);
  const results::RunResults r = Results();
  ASSERT_NE(Find(r, "scan", "bdb-hash"), nullptr);
  EXPECT_EQ(Find(r, "scan", "bdb-hash")->status, "unsupported");
  EXPECT_EQ(Find(r, "scan", "stdmap")->status, "ok");
  EXPECT_EQ(Find(r, "scan", "stdmap")->repetitions[0].ops[0].work.rows, 10u * 100u);
}


// ---- YCSB property files ----

TEST_F(RunnerTest, AllSixYcsbCoreWorkloadsRunAndHashEnginesReportScansUnsupported) {
  const std::vector<std::string> engines = {"stdmap", "sqlite", "lmdb", "bdb-btree", "tc-hash"};
  for (const std::string name : {"workloada", "workloadb", "workloadc", "workloadd", "workloade",
                                 "workloadf"}) {
    ASSERT_EQ(RunYcsb(RepoWorkload(name), engines, {"recordcount=300", "operationcount=300"}), 0)
        << name;
    const results::RunResults r = Results();
    ASSERT_EQ(r.engines.size(), engines.size());
    for (const std::string& engine : engines) {
      const results::PhaseRun* load = Find(r, "load", engine);
      const results::PhaseRun* run = Find(r, "run", engine);
      ASSERT_NE(load, nullptr) << name << " " << engine;
      ASSERT_NE(run, nullptr) << name << " " << engine;
      ASSERT_EQ(load->status, "ok") << load->reason;
      ASSERT_NE(FindOp(load->repetitions.at(0), "INSERT"), nullptr);
      EXPECT_EQ(FindOp(load->repetitions.at(0), "INSERT")->ops, 300u);
      if (name == "workloade" && engine == "tc-hash") {
        EXPECT_EQ(run->status, "unsupported") << name;
        continue;
      }
      ASSERT_EQ(run->status, "ok") << name << " " << engine << ": " << run->reason;
      const results::Repetition& rep = run->repetitions.at(0);
      EXPECT_EQ(rep.ops.at(0).ops, 300u);
      // Reads find every record, inserted ones included (workload D reads
      // the latest inserts).
      if (const results::OpFigures* read = FindOp(rep, "READ")) {
        EXPECT_EQ(read->work.not_found, 0u) << name << " " << engine;
        EXPECT_EQ(read->work.found, read->ops);
        EXPECT_EQ(read->work.bytes_returned, read->ops * 1000) << "10 fields of 100 bytes";
      }
    }
  }
}

TEST_F(RunnerTest, EveryYcsbOperationTypeGetsItsProportion) {
  const std::string file = WriteYcsbFile(
      "recordcount=2000\noperationcount=20000\nreadproportion=0.3\nupdateproportion=0.2\n"
      "insertproportion=0.15\nscanproportion=0.15\nreadmodifywriteproportion=0.2\n"
      "requestdistribution=zipfian\nmaxscanlength=10\nfieldlengthdistribution=uniform\n"
      "measurementtype=hdrhistogram\n");
  ASSERT_EQ(RunYcsb(file, {"stdmap", "sqlite", "lmdb"}, {}), 0);
  const results::RunResults r = Results();
  // As YCSB counts them, READ and UPDATE also hold READ-MODIFY-WRITE's read
  // and update parts.
  const std::map<std::string, double> expected = {{"READ", 0.5}, {"UPDATE", 0.4}, {"INSERT", 0.15},
                                                  {"SCAN", 0.15}, {"READ-MODIFY-WRITE", 0.2}};
  std::string digest;
  for (const std::string engine : {"stdmap", "sqlite", "lmdb"}) {
    const results::PhaseRun* run = Find(r, "run", engine);
    ASSERT_NE(run, nullptr);
    ASSERT_EQ(run->status, "ok") << run->reason;
    const results::Repetition& rep = run->repetitions.at(0);
    ASSERT_EQ(rep.ops.at(0).ops, 20000u);
    EXPECT_EQ(FindOp(rep, "READ")->ops + FindOp(rep, "UPDATE")->ops,
              20000u - FindOp(rep, "INSERT")->ops - FindOp(rep, "SCAN")->ops +
                  FindOp(rep, "READ-MODIFY-WRITE")->ops);
    if (digest.empty()) digest = rep.ops[0].work.stream_digest;
    EXPECT_EQ(rep.ops[0].work.stream_digest, digest) << engine;
    for (const auto& [op, share] : expected) {
      const results::OpFigures* f = FindOp(rep, op);
      ASSERT_NE(f, nullptr) << engine << " " << op;
      EXPECT_NEAR(static_cast<double>(f->ops) / 20000.0, share, 0.02) << engine << " " << op;
      EXPECT_GT(f->latency.count, 0u);
      EXPECT_EQ(f->work.errors, 0u);
    }
    EXPECT_EQ(FindOp(rep, "READ")->work.not_found, 0u) << engine;
    // Scans draw lengths from [1, 10] and start at present keys.
    const results::OpFigures* scan = FindOp(rep, "SCAN");
    EXPECT_GT(scan->work.rows, scan->ops * 3);
    EXPECT_LE(scan->work.rows, scan->ops * 10);
  }
}

TEST_F(RunnerTest, YcsbLatestWithThreadsReadsOnlyInsertedKeys) {
  ASSERT_EQ(RunYcsb(RepoWorkload("workloadd"), {"stdmap", "lmdb"},
                    {"recordcount=500", "operationcount=20000", "threadcount=4",
                     "insertproportion=0.2", "readproportion=0.8"}),
            0);
  const results::RunResults r = Results();
  for (const std::string engine : {"stdmap", "lmdb"}) {
    const results::PhaseRun* run = Find(r, "run", engine);
    ASSERT_NE(run, nullptr);
    ASSERT_EQ(run->status, "ok") << run->reason;
    EXPECT_EQ(run->threads, 4);
    const results::OpFigures* read = FindOp(run->repetitions.at(0), "READ");
    const results::OpFigures* insert = FindOp(run->repetitions.at(0), "INSERT");
    ASSERT_NE(read, nullptr);
    ASSERT_NE(insert, nullptr);
    EXPECT_GT(insert->ops, 3000u);
    EXPECT_EQ(read->work.not_found, 0u) << engine;
  }
}

TEST_F(RunnerTest, YcsbOverridesReplaceTheFileAsYcsbDoes) {
  runner::RunPlan plan;
  runner::RunOverrides o;
  o.properties = {"recordcount=123", "threadcount=2", "target=4000", "operationcount=400"};
  ASSERT_TRUE(runner::PlanRun(RepoWorkload("workloadb"), o, &plan).ok());
  EXPECT_EQ(plan.workload.dataset_count, 123u);
  EXPECT_EQ(plan.workload.phases.at(0).count, 123u);
  EXPECT_EQ(plan.workload.phases.at(1).threads, std::vector<int>{2});
  EXPECT_EQ(plan.workload.phases.at(1).targets, std::vector<double>{4000});
  EXPECT_EQ(plan.workload.ycsb_properties.at("recordcount"), "123");

  ASSERT_EQ(RunYcsb(RepoWorkload("workloadb"), {"stdmap"}, o.properties), 0);
  const results::RunResults r = Results();
  const results::PhaseRun* run = Find(r, "run", "stdmap");
  ASSERT_NE(run, nullptr);
  EXPECT_EQ(run->threads, 2);
  EXPECT_EQ(run->target_ops, 4000);
  EXPECT_EQ(run->repetitions.at(0).ops.at(0).ops, 400u);
  // 400 operations at 4,000/s take at least 0.1 s of schedule.
  EXPECT_GE(run->repetitions[0].seconds, 0.09);
  EXPECT_EQ(Find(r, "load", "stdmap")->repetitions.at(0).ops.at(0).ops, 123u);
}

TEST_F(RunnerTest, BadYcsbInputExitsWithTwo) {
  const std::string file = RepoWorkload("workloada");
  EXPECT_EQ(RunYcsb(file, {"stdmap"}, {"requestdistribution=pareto"}), 2);
  EXPECT_EQ(RunYcsb(file, {"stdmap"}, {"readproportion=lots"}), 2);
  EXPECT_EQ(RunYcsb(file, {"stdmap"}, {"operationcount=-3"}), 2);
  EXPECT_EQ(RunYcsb(WriteYcsbFile("recordcount=10\noperationcount=10\nupdateproportion=x\n"),
                    {"stdmap"}, {}),
            2);
  const std::string toml = dir_.path() + "/w.toml";
  std::ofstream(toml) << kSmall;
  EXPECT_EQ(RunYcsb(toml, {"stdmap"}, {"recordcount=5"}), 2);
  EXPECT_FALSE(fs::exists(out_ + "/results.json"));
}

TEST_F(RunnerTest, YcsbOutputPrintsYcsbSummaryLines) {
  testing::internal::CaptureStdout();
  const int rc = RunYcsb(RepoWorkload("workloada"), {"lmdb"},
                         {"recordcount=200", "operationcount=200"}, true);
  const std::string text = testing::internal::GetCapturedStdout();
  ASSERT_EQ(rc, 0);
  EXPECT_NE(text.find("[INSERT], Operations, 200\n"), std::string::npos) << text;
  EXPECT_NE(text.find("[OVERALL], Throughput(ops/sec), "), std::string::npos);
  EXPECT_NE(text.find("[READ], 99thPercentileLatency(us), "), std::string::npos);
  EXPECT_NE(text.find("[UPDATE], Return=OK, "), std::string::npos);
}

}  // namespace
}  // namespace kvbench::app

namespace kvbench::app {
namespace {

// Seed 003's "one table per thread": each thread's keys carry its own prefix,
// so keys written that way are not the unprefixed keys of the same indexes.
TEST_F(RunnerTest, TablePerThreadPrefixesEachThreadsKeys) {
  constexpr const char* kWorkload = R"(
name = "tables"
repetitions = 1  # the counts below are one pass's
[dataset]
kind = "sequential"
count = 1000
[[phase]]
name = "load"
op = "insert"
count = 1000
[[phase]]
name = "writers"
op = "insert"
count = 1000
threads = 2
table_per_thread = %s
[[phase]]
name = "get"
op = "get"
count = 4000
[[phase]]
name = "all"
op = "skip"
count = 1
limit = 100000
)";
  for (const bool per_thread : {false, true}) {
    char toml[1024];
    std::snprintf(toml, sizeof toml, kWorkload, per_thread ? "true" : "false");
    ASSERT_EQ(Run(toml, {"stdmap"}), 0);
    const results::RunResults r = Results();
    const results::WorkCounts& gets = Find(r, "get", "stdmap")->repetitions.at(0).ops.at(0).work;
    // Both variants store 2,000 distinct keys...
    EXPECT_EQ(Find(r, "all", "stdmap")->repetitions.at(0).ops.at(0).work.rows, 2000u);
    // ...but only without prefixes are indexes 1000..1999 found unprefixed.
    if (per_thread) {
      EXPECT_GT(gets.not_found, 1000u);
      EXPECT_GT(gets.found, 1000u);
    } else {
      EXPECT_EQ(gets.not_found, 0u);
    }
  }
}

}  // namespace
}  // namespace kvbench::app

namespace kvbench::app {
namespace {

// order = "shuffled" inserts the same key set in another order.
TEST_F(RunnerTest, ShuffledInsertOrderInsertsTheSameKeysInAnotherOrder) {
  std::string digests[2];
  for (const bool shuffled : {false, true}) {
    const std::string toml = std::string(R"(
name = "order"
[dataset]
kind = "sequential"
count = 3000
[[phase]]
name = "load"
op = "insert"
count = 3000
threads = 2
order = ")") + (shuffled ? "shuffled" : "index") + R"("
[[phase]]
name = "all"
op = "get"
distribution = "sequential"
count = 3000
)";
    ASSERT_EQ(Run(toml, {"stdmap"}), 0);
    const results::RunResults r = Results();
    EXPECT_EQ(Find(r, "all", "stdmap")->repetitions.at(0).ops.at(0).work.found, 3000u);
    digests[shuffled] = Find(r, "load", "stdmap")->repetitions.at(0).ops.at(0).work.stream_digest;
  }
  EXPECT_NE(digests[0], digests[1]);
}

}  // namespace
}  // namespace kvbench::app
