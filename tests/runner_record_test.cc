// Record phases end to end (runner/record_phase.h): the same records,
// scans, indexed queries and reference walks on native (its own records),
// sqlite (a real table) and stdmap (the shared record layer), with the counts
// every engine must agree on; `null` runs the codec alone.
#include "tests/runner_fixture.h"

namespace kvbench::app {
namespace {

constexpr const char* kRecords = R"(
name = "records"
repetitions = 1  # the counts below are one pass's
[dataset]
kind = "sequential"
count = 1
[[phase]]
name = "baseline"
op = "memory-baseline"
count = 100000
[[phase]]
name = "insert"
op = "record-insert"
fresh = true
schema = "int,int,int,int%100,ref"
count = 2000
batch = 500
[[phase]]
name = "scan"
op = "record-scan"
field = 3
value = 7
count = 2
[[phase]]
name = "index"
op = "record-index"
field = 3
[[phase]]
name = "query"
op = "record-query"
field = 3
value = 7
count = 50
[[phase]]
name = "query-limited"
op = "record-query"
field = 3
value = 7
limit = 5
count = 50
[[phase]]
name = "follow"
op = "record-follow"
field = 4
count = 1
[[phase]]
name = "get"
op = "record-get"
count = 100
[[phase]]
name = "set"
op = "record-set"
field = 0
count = 100
[[phase]]
name = "delete"
op = "record-delete"
count = 500
[[phase]]
name = "scan-after-delete"
op = "record-scan"
field = 3
value = 7
count = 1
[[phase]]
name = "query-after-delete"
op = "record-query"
field = 3
value = 7
count = 1
[[phase]]
name = "checked-read-back"
op = "record-insert"
fresh = true
schema = "int*3"
set = "checked"
read_back = true
count = 300
[[phase]]
name = "create-delete"
op = "record-create"
delete_after = true
count = 100
[[phase]]
name = "named"
op = "record-insert"
fresh = true
table = "order"
schema = "named:5,5,5"
count = 100
sync = "commit"
[[phase]]
name = "recreate"
op = "recreate"
count = 3
)";

const results::WorkCounts& Work(const results::RunResults& r, const std::string& phase, const std::string& engine) {
  static const results::WorkCounts kNone;
  for (const results::PhaseRun& run : r.runs) {
    if (run.phase == phase && run.engine == engine) {
      EXPECT_EQ(run.status, "ok") << phase << " on " << engine << ": " << run.reason;
      if (run.repetitions.empty()) return kNone;
      EXPECT_EQ(run.repetitions[0].ops[0].work.errors, 0u);
      return run.repetitions[0].ops[0].work;
    }
  }
  ADD_FAILURE() << "no run of " << phase << " on " << engine;
  return kNone;
}

TEST_F(RunnerTest, RecordPhasesAgreeAcrossNativeSqliteAndTheRecordLayer) {
  const std::vector<std::string> engines = {"native", "sqlite", "stdmap"};
  ASSERT_EQ(Run(kRecords, engines), 0);
  const results::RunResults r = Results();
  for (const std::string& e : engines) {
    SCOPED_TRACE(e);
    // 2,000 records, field 3 = index mod 100: value 7 in 20 of them.
    EXPECT_EQ(Work(r, "scan", e).rows, 2u * 2000);
    EXPECT_EQ(Work(r, "scan", e).found, 2u * 20);
    EXPECT_EQ(Work(r, "query", e).rows, 50u * 20);
    EXPECT_EQ(Work(r, "query", e).found, 50u);
    EXPECT_EQ(Work(r, "query-limited", e).rows, 50u * 5);
    EXPECT_EQ(Work(r, "follow", e).rows, 2000u);  // the whole chain
    EXPECT_EQ(Work(r, "get", e).found, 100u);
    EXPECT_EQ(Work(r, "set", e).not_found, 0u);
    // The oldest 500 are gone: indexes 500..1999 hold 15 sevens.
    EXPECT_EQ(Work(r, "scan-after-delete", e).rows, 1500u);
    EXPECT_EQ(Work(r, "scan-after-delete", e).found, 15u);
    EXPECT_EQ(Work(r, "query-after-delete", e).rows, 15u);
    EXPECT_EQ(Work(r, "checked-read-back", e).found, 300u);
    Work(r, "create-delete", e);
    Work(r, "named", e);
    const results::PhaseRun* baseline = Find(r, "baseline", e);
    ASSERT_NE(baseline, nullptr);
    EXPECT_EQ(baseline->repetitions.at(0).ops.at(0).ops, 100000u);
    const results::PhaseRun* recreate = Find(r, "recreate", e);
    ASSERT_NE(recreate, nullptr);
    EXPECT_EQ(recreate->repetitions.at(0).ops.at(0).ops, 3u);
    // Same operation stream everywhere.
    EXPECT_EQ(Work(r, "insert", e).stream_digest, Work(r, "insert", "stdmap").stream_digest);
    EXPECT_EQ(Work(r, "get", e).stream_digest, Work(r, "get", "stdmap").stream_digest);
  }
}

TEST_F(RunnerTest, NullRunsTheRecordCodecAloneAndReportsReadsUnsupported) {
  const std::string toml = R"(
name = "serialise-only"
[dataset]
kind = "sequential"
count = 1
[[phase]]
name = "serialise"
op = "record-insert"
table = "order"
schema = "named:50,50,50"
count = 1000
[[phase]]
name = "read"
op = "record-get"
count = 10
)";
  ASSERT_EQ(Run(toml, {"null"}), 0);
  const results::RunResults r = Results();
  const results::PhaseRun* serialise = Find(r, "serialise", "null");
  ASSERT_NE(serialise, nullptr);
  EXPECT_EQ(serialise->status, "ok") << serialise->reason;
  EXPECT_EQ(serialise->repetitions.at(0).ops.at(0).ops, 1000u);
  const results::PhaseRun* read = Find(r, "read", "null");
  ASSERT_NE(read, nullptr);
  EXPECT_EQ(read->status, "unsupported");
}

TEST_F(RunnerTest, ARecordPhaseWithoutASchemaOrWithABadOneIsRefused) {
  const std::string header = R"(
name = "bad"
[dataset]
kind = "sequential"
count = 1
[[phase]]
count = 1
)";
  for (const std::string phase : {"op = \"record-scan\"\n",                          // no schema
                                  "op = \"record-insert\"\nschema = \"int,wibble\"\n",  // bad schema
                                  "op = \"record-insert\"\nschema = \"int\"\nthreads = 2\n"}) {
    EXPECT_EQ(Run(header + phase, {"stdmap"}), 2) << phase;
  }
  EXPECT_FALSE(fs::exists(out_ + "/results.json"));
}

}  // namespace
}  // namespace kvbench::app
