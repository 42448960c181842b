// The runner's scan shapes and per-phase datasets, end to end: ranges both
// ways with and without a limit, skips from the edge and from a key, a phase
// with a dataset of its own, and `fresh` phases that start from nothing.
#include "tests/runner_fixture.h"

namespace kvbench::app {
namespace {

// 10,000 timestamps; the scans' expected row counts follow from index order.
constexpr const char* kScans = R"(
name = "scans"
[dataset]
kind = "sequential"
count = 10
[values]
size = 8
[[phase]]
name = "load"
op = "insert"
fresh = true
dataset = { kind = "timestamp", count = 10000, step = 7 }
count = 10000
batch = 10000
[[phase]]
name = "range-forward"
op = "range"
from = 0.25
to = 0.5
count = 1
[[phase]]
name = "range-forward-limit"
op = "range"
from = 0.25
to = 0.5
limit = 100
count = 1
[[phase]]
name = "range-backward"
op = "range"
from = 0.25
to = 0.5
direction = "backward"
count = 1
[[phase]]
name = "skip-edge-backward"
op = "skip"
skip = 1000
limit = 500
direction = "backward"
count = 1
[[phase]]
name = "skip-from-key"
op = "skip"
from = 0.75
skip = 1000
limit = 5000
count = 1
[[phase]]
name = "skip-from-key-backward"
op = "skip"
from = 0.75
skip = 1000
limit = 100000
direction = "backward"
count = 1
[[phase]]
name = "gets"
op = "get"
count = 500
[[phase]]
name = "reload-other-keys"
op = "insert"
fresh = true
dataset = { kind = "sequential", count = 300, width = 4 }
count = 300
[[phase]]
name = "all-after-fresh"
op = "skip"
skip = 0
limit = 100000
count = 1
)";

uint64_t Rows(const results::RunResults& r, const std::string& phase, const std::string& engine) {
  for (const results::PhaseRun& run : r.runs) {
    if (run.phase == phase && run.engine == engine) {
      EXPECT_EQ(run.status, "ok") << phase << ": " << run.reason;
      return run.repetitions.empty() ? 0 : run.repetitions[0].ops[0].work.rows;
    }
  }
  ADD_FAILURE() << "no run of " << phase << " on " << engine;
  return 0;
}

TEST_F(RunnerTest, RangesSkipsAndPhaseDatasetsVisitTheExpectedKeys) {
  const std::vector<std::string> engines = {"stdmap", "lmdb", "pbtree"};
  ASSERT_EQ(Run(kScans, engines), 0);
  const results::RunResults r = Results();
  for (const std::string& e : engines) {
    SCOPED_TRACE(e);
    EXPECT_EQ(Rows(r, "range-forward", e), 2500u);       // keys [2500, 5000)
    EXPECT_EQ(Rows(r, "range-forward-limit", e), 100u);
    EXPECT_EQ(Rows(r, "range-backward", e), 2500u);      // keys 4999 down to 2500
    EXPECT_EQ(Rows(r, "skip-edge-backward", e), 500u);
    EXPECT_EQ(Rows(r, "skip-from-key", e), 1500u);       // 7500 + 1000 ... 9999
    EXPECT_EQ(Rows(r, "skip-from-key-backward", e), 6501u);  // 7500 - 1000 ... 0
    EXPECT_EQ(Rows(r, "all-after-fresh", e), 300u);      // the timestamps are gone
    const results::PhaseRun* gets = Find(r, "gets", e);
    ASSERT_NE(gets, nullptr);
    // Gets use the phase dataset in effect (the timestamps), so all hit.
    EXPECT_EQ(gets->repetitions.at(0).ops.at(0).work.found, 500u);
    EXPECT_EQ(gets->params.at("dataset.kind"), "timestamp");
  }
}

TEST_F(RunnerTest, ABadPhaseDatasetIsRefusedWithItsField) {
  const std::string toml = R"(
name = "bad"
[dataset]
kind = "sequential"
count = 10
[[phase]]
op = "insert"
count = 10
dataset = { kind = "no-such-kind", count = 10 }
)";
  EXPECT_EQ(Run(toml, {"stdmap"}), 2);
  EXPECT_FALSE(fs::exists(out_ + "/results.json"));
}

}  // namespace
}  // namespace kvbench::app

namespace kvbench::app {
namespace {

// delete-absent deletes keys the dataset guarantees are absent: every engine
// answers NotFound (or OK) and the present keys all stay.
TEST_F(RunnerTest, DeleteAbsentLeavesEveryPresentKey) {
  constexpr const char* kWorkload = R"(
name = "delete-absent"
repetitions = 1
[dataset]
kind = "urls"
count = 2000
[[phase]]
name = "load"
op = "insert"
count = 2000
batch = 500
[[phase]]
name = "tombstones"
op = "delete-absent"
count = 1000
batch = 100
[[phase]]
name = "gets"
op = "get"
count = 2000
distribution = "sequential"
)";
  const std::vector<std::string> engines = {"stdmap", "lmdb", "rocksdb"};
  ASSERT_EQ(Run(kWorkload, engines), 0);
  const results::RunResults r = Results();
  for (const std::string& e : engines) {
    SCOPED_TRACE(e);
    const results::PhaseRun* deletes = Find(r, "tombstones", e);
    ASSERT_NE(deletes, nullptr);
    ASSERT_EQ(deletes->status, "ok") << deletes->reason;
    EXPECT_EQ(deletes->repetitions.at(0).ops.at(0).ops, 1000u);
    EXPECT_EQ(deletes->repetitions.at(0).ops.at(0).work.errors, 0u);
    const results::PhaseRun* gets = Find(r, "gets", e);
    ASSERT_NE(gets, nullptr);
    EXPECT_EQ(gets->repetitions.at(0).ops.at(0).work.found, 2000u);
  }
}

}  // namespace
}  // namespace kvbench::app
