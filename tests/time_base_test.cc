// What ops/s divides by, end to end (issue 29): every row's ops/s is its
// operations over its `seconds`, the wall span of the timed part, whatever
// the phase's shape; the time inside the engine's calls is kept beside it;
// and an engine that serialises its calls is never reported faster than its
// lock allows, however many client threads drive it.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "tests/runner_fixture.h"

namespace kvbench::app {
namespace {

// ops x seconds = operations: ops_per_sec is written with full double
// precision and seconds too, so the product is exact to rounding.
void ExpectRateIsOpsOverSeconds(const results::RunResults& r) {
  size_t rows = 0;
  for (const results::PhaseRun& run : r.runs) {
    ASSERT_EQ(run.status, "ok") << run.phase << " " << run.engine << ": " << run.reason;
    for (const results::Repetition& rep : run.repetitions) {
      ASSERT_GT(rep.seconds, 0) << run.phase;
      EXPECT_EQ(rep.rate_base, results::RateBase::kWallSpan) << run.phase;
      // Every row carries its harness share, and the in-call time lies within the span.
      ASSERT_TRUE(rep.engine_seconds.has_value()) << run.phase;
      EXPECT_LE(*rep.engine_seconds, rep.seconds * (1 + 1e-6)) << run.phase;
      ASSERT_TRUE(rep.HarnessShare().has_value()) << run.phase;
      for (const results::OpFigures& f : rep.ops) {
        const double ops = static_cast<double>(f.ops);
        EXPECT_NEAR(f.ops_per_sec * rep.seconds, ops, 1e-9 * ops + 1e-9)
            << run.phase << " " << run.engine << " " << f.op;
        ++rows;
      }
    }
  }
  EXPECT_GT(rows, 0u);
}

// Stream phases of one and two threads, batched writes, a paced phase, a mix
// with every kind of operation, and record phases (whose `seconds` once
// included their untimed preparation).
TEST_F(RunnerTest, EveryRowsOpsPerSecondTimesSecondsIsItsOperations) {
  ASSERT_EQ(Run(R"(
name = "rate-is-ops-over-seconds"
repetitions = 2
[dataset]
kind = "urls"
count = 4000
[[phase]]
name = "load"
op = "insert"
count = 4000
[[phase]]
name = "batched"
op = "update"
count = 3000
batch = 100
[[phase]]
name = "get"
op = "get"
count = 4000
threads = [1, 2]
[[phase]]
name = "paced"
op = "get"
count = 200
target = 4000
[[phase]]
name = "mix"
op = "mix"
proportions = { read = 0.4, update = 0.2, insert = 0.2, rmw = 0.2 }
count = 3000
[[phase]]
name = "records"
op = "record-insert"
fresh = true
schema = "int,int,int%10"
count = 2000
batch = 100
[[phase]]
name = "record-get"
op = "record-get"
count = 1000
)", {"stdmap"}), 0);
  ExpectRateIsOpsOverSeconds(Results());
}

// The same through a YCSB property file (its READ-MODIFY-WRITE timed in two
// parts): [OVERALL] Throughput is this ops/s.
TEST_F(RunnerTest, YcsbRowsOpsPerSecondTimesSecondsIsItsOperations) {
  ASSERT_EQ(RunYcsb(RepoWorkload("workloadf"), {"stdmap"},
                    {"recordcount=2000", "operationcount=2000"}),
            0);
  ExpectRateIsOpsOverSeconds(Results());
}

// The null engine with null.serial_ns holds one lock for kSerialNs per call,
// so no number of threads can do more than 1e9 / kSerialNs calls a second;
// URL keys make kvbench's own work between calls (key generation, ~500 ns
// here) as long as a call or longer. That is the case the schema-4 figure
// got wrong: it divided by the busiest thread's time inside calls, assuming
// a thread's time between calls idle while the other threads' calls filled
// it (2x-4x over the engine's limit with 2 and 4 threads, issue 29).
//
// Noise: every call holds the lock for at least kSerialNs of the steady
// clock, so the wall span can only look shorter through the cycle clock's
// calibration against the steady clock (one 20 ms window per engine
// process, runner/cycle_clock.cc): a preemption of d ms between its last two
// reads shortens every span by d/20. The margin, 30%, takes a 6 ms
// preemption at exactly that point to cross, which a thread just woken from
// its sleep (a fresh time slice) meets far less often than once in
// thousands of runs even on a busy 2-core machine.
//
// What it can and cannot catch: it fails for any figure that claims more
// than the lock allows. On a quiet machine with a core per thread the
// schema-4 figure does; on a loaded 2-vCPU VM (measured 2026-11-25 with that
// formula put back: 0.9-1.9M ops/s against this test's 3.25M bound) lock
// holders are preempted so often that the waiting fills every thread's time
// inside calls and hides it. The deterministic guards of the time base are
// EveryRowsOpsPerSecondTimesSecondsIsItsOperations above and
// runner_test's PhaseTimeIsTheWallSpanAndEngineTimeIsInsideTheCalls (wall
// span longer than the calls by the key generation; in-call time the mean
// over threads, not the busiest).
TEST_F(RunnerTest, AnEngineThatSerialisesCallsIsNeverReportedFasterThanItsLock) {
  constexpr double kSerialNs = 400;
  constexpr double kMargin = 0.30;
  ASSERT_EQ(Run(R"(
name = "serialised"
repetitions = 3
engines = ["null"]
[dataset]
kind = "urls"
count = 40000
[options.null]
"null.serial_ns" = "400"
[[phase]]
name = "load"
op = "insert"
count = 40000
[[phase]]
name = "get"
op = "get"
count = 40000
threads = [1, 2, 4]
)"), 0);
  const results::RunResults r = Results();
  const double limit = 1e9 / kSerialNs;
  int points = 0;
  for (const results::PhaseRun& run : r.runs) {
    ASSERT_EQ(run.status, "ok") << run.reason;
    if (run.phase != "get") continue;
    ++points;
    for (const results::Repetition& rep : run.repetitions) {
      const double rate = rep.ops.at(0).ops_per_sec;
      EXPECT_LE(rate, limit * (1 + kMargin))
          << run.threads << " threads: " << rate << " ops/s against a lock that allows "
          << limit << " ops/s";
      // The lower bound of the span: the calls alone, back to back.
      EXPECT_GE(rep.seconds * (1 + kMargin),
                static_cast<double>(rep.ops.at(0).ops) * kSerialNs / 1e9);
      ASSERT_TRUE(rep.HarnessShare().has_value());
      EXPECT_GE(*rep.HarnessShare(), 0.0);
      EXPECT_LE(*rep.HarnessShare(), 1.0);
    }
  }
  EXPECT_EQ(points, 3);
}

// Operations prepared ahead in chunks (runner/phase_worker.h) are the
// operations the loop used to generate one by one: the same kinds and keys
// (stream digest), the same answers, whether generated live
// (op_buffer_mib = 0), in one chunk, or in many (a budget of 64 KiB a
// thread, some 500 URL operations a chunk). With chunks the wall span is
// the sum of the chunks' spans: ops x seconds = operations still holds, and
// the latency over time adds up to the operations.
TEST_F(RunnerTest, ChunksGiveTheSameOperationsAsGeneratingInTheLoop) {
  const std::string phases = R"(
[dataset]
kind = "urls"
count = 6000
[[phase]]
name = "load"
op = "insert"
count = 6000
batch = 7
[[phase]]
name = "get"
op = "get"
count = 6000
threads = [1, 3]
[[phase]]
name = "mix"
op = "mix"
proportions = { read = 0.5, update = 0.2, insert = 0.1, rmw = 0.2 }
count = 5000
[[phase]]
name = "range"
op = "range"
from = 0.1
to = 0.3
count = 20
[[phase]]
name = "timed"
op = "get"
duration = 0.3
)";
  struct Row {
    std::string digest;
    uint64_t ops, found, not_found, rows;
  };
  std::map<std::string, std::vector<Row>> by_budget;
  for (const char* mib : {"0", "0.01", "64"}) {
    ASSERT_EQ(Run("name = \"chunks\"\nrepetitions = 2\n[measurement]\nop_buffer_mib = " +
                      std::string(mib) + "\n" + phases,
                  {"stdmap"}),
              0)
        << mib;
    const results::RunResults r = Results();
    ExpectRateIsOpsOverSeconds(r);
    std::vector<Row>& rows = by_budget[mib];
    for (const results::PhaseRun& run : r.runs) {
      for (const results::Repetition& rep : run.repetitions) {
        const results::OpFigures& all = rep.ops.at(0);
        // Buffers are reported where there were any, apart from the engine's memory.
        EXPECT_EQ(rep.op_buffer_bytes.has_value(), std::string(mib) != "0") << run.phase;
        if (rep.time_series) {
          uint64_t counted = 0;
          for (uint64_t c : rep.time_series->ops.at(0).count) counted += c;
          EXPECT_EQ(counted, all.ops) << mib << " " << run.phase;
        }
        if (run.phase == "timed") {
          // Timed phases stop at their duration of span, chunks or not.
          EXPECT_GE(rep.seconds, 0.3) << mib;
          EXPECT_LT(rep.seconds, 0.6) << mib;
          continue;  // how many operations fit in 0.3 s varies
        }
        rows.push_back({all.work.stream_digest, all.ops, all.work.found, all.work.not_found,
                        all.work.rows});
      }
    }
  }
  const std::vector<Row>& live = by_budget["0"];
  ASSERT_EQ(live.size(), 2u * 5);  // load, get x 2 thread counts, mix, range; 2 repetitions
  for (const char* mib : {"0.01", "64"}) {
    const std::vector<Row>& rows = by_budget[mib];
    ASSERT_EQ(rows.size(), live.size()) << mib;
    for (size_t i = 0; i < rows.size(); ++i) {
      EXPECT_EQ(rows[i].digest, live[i].digest) << mib << " row " << i;
      EXPECT_EQ(rows[i].ops, live[i].ops) << mib << " row " << i;
      EXPECT_EQ(rows[i].found, live[i].found) << mib << " row " << i;
      EXPECT_EQ(rows[i].not_found, live[i].not_found) << mib << " row " << i;
      EXPECT_EQ(rows[i].rows, live[i].rows) << mib << " row " << i;
    }
  }
}

}  // namespace
}  // namespace kvbench::app
