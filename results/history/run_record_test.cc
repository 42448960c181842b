#include "results/history/run_record.h"

#include <gtest/gtest.h>

#include <fstream>

#include "results/history_model.h"
#include "results/results_json.h"
#include "tests/scratch_dir.h"
#include "tests/support/history_test_support.h"

namespace kvbench::results {
namespace {

TEST(RunRecord, AWrittenRunIdIsKept) {
  RunRecord r;
  ASSERT_TRUE(
      MakeRunRecord(MadeUpRun("0123456789abcdef0123456789abcdef", "2026-01-01T00:00:00Z", 2),
                    "bytes", "x.json", &r)
          .ok());
  EXPECT_EQ(r.run_id, "0123456789abcdef0123456789abcdef");
  EXPECT_EQ(r.run_id_source, "results");
  EXPECT_EQ(r.figures.size(), 2 * FigureKinds().size());
  EXPECT_TRUE(r.header.runs.empty());
  const StoredFigure& first = r.figures[0];
  EXPECT_EQ(first.op, "all");
  EXPECT_EQ(first.figure, "ops_per_sec");
  EXPECT_EQ(first.values.size(), 3u);
  EXPECT_EQ(first.spread.n, 3);
}

TEST(RunRecord, AFileWithoutRunIdGetsOneFromItsContent) {
  test::ScratchDir dir("record");
  RunResults old = MadeUpRun("", "2026-01-01T00:00:00Z", 1);
  const std::string path = dir.path() + "/results.json";
  ASSERT_TRUE(WriteResultsFile(old, path).ok());
  RunRecord a, b;
  ASSERT_TRUE(ReadRunRecord(path, &a).ok());
  ASSERT_TRUE(ReadRunRecord(path, &b).ok());
  EXPECT_EQ(a.run_id_source, "content");
  EXPECT_EQ(a.run_id.size(), 32u);
  EXPECT_EQ(a.run_id, b.run_id);  // stable
  EXPECT_EQ(a.run_id, a.content_sha256.substr(0, 32));
  old.runs[0].repetitions[0].seconds = 7;  // another run
  ASSERT_TRUE(WriteResultsFile(old, path).ok());
  ASSERT_TRUE(ReadRunRecord(path, &b).ok());
  EXPECT_NE(a.run_id, b.run_id);
}

TEST(RunRecord, FailedPhasesGiveNoFiguresAndHashesSeparateExperiments) {
  RunResults run = MadeUpRun("x", "2026-01-01T00:00:00Z", 2);
  run.runs[1].status = "failed";
  RunRecord r;
  ASSERT_TRUE(MakeRunRecord(run, "", "x.json", &r).ok());
  EXPECT_EQ(r.figures.size(), FigureKinds().size());
  const std::string hash = WorkloadHash(run.workload);
  run.workload.scale = 0.1;
  EXPECT_NE(WorkloadHash(run.workload), hash);
  const std::string host = HostFingerprint(run.environment);
  run.environment.kernel = "6.2.0";  // a kernel update is a change to see, not another host
  run.environment.memory_bytes += 4096;
  EXPECT_EQ(HostFingerprint(run.environment), host);
  run.environment.hostname = "bench-02";
  EXPECT_NE(HostFingerprint(run.environment), host);
  run.started_at = "";
  EXPECT_FALSE(MakeRunRecord(run, "", "x.json", &r).ok());
}

// The time base of `figure` (op "all" where it has one) in record `r`'s
// phase run `phase`.
std::string TimeBase(const RunRecord& r, const std::string& phase, const std::string& figure) {
  for (const StoredFigure& f : r.figures) {
    if (f.phase == phase && f.figure == figure && (f.op == "" || f.op == "all")) {
      return f.time_base;
    }
  }
  return "(none)";
}

TEST(RunRecord, FiguresCarryTheTimeBaseTheirRepetitionsUsed) {
  RunResults run = MadeUpRun("x", "2026-11-25T12:00:00Z", 3);
  // Phase 0 as read from a schema-4 file; phase 2 a merge of shards of both.
  for (Repetition& rep : run.runs[0].repetitions) rep.rate_base = RateBase::kEngineCalls;
  run.runs[2].repetitions[1].rate_base = RateBase::kEngineCalls;
  RunRecord r;
  ASSERT_TRUE(MakeRunRecord(run, "", "x.json", &r).ok());
  EXPECT_EQ(TimeBase(r, "phase-0", "ops_per_sec"), kTimeBaseEngineCalls);
  EXPECT_EQ(TimeBase(r, "phase-1", "ops_per_sec"), kTimeBaseWallSpan);
  EXPECT_EQ(TimeBase(r, "phase-2", "ops_per_sec"), kTimeBaseMixed);
  // `seconds` is the wall span whatever the schema; latencies and sizes have none.
  EXPECT_EQ(TimeBase(r, "phase-0", "seconds"), kTimeBaseWallSpan);
  EXPECT_EQ(TimeBase(r, "phase-0", "p99_ns"), "");
  EXPECT_EQ(TimeBase(r, "phase-0", "file_bytes"), "");
}

}  // namespace
}  // namespace kvbench::results
