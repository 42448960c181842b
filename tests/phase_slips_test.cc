// The timing slips found in review of issue 29, each against a test adapter
// that logs what the runner called, in order, run in this process through
// the real PhaseExecutor (no child process, so the log is readable here):
//
// - sync = "commit" syncs after every write of an unbatched stream phase, and
//   after every commit of a batched one;
// - a warm-up runs before a cold phase's eviction, never after it;
// - a paced batch begins when its first operation is due, not before the
//   pacing wait (an engine's batch may hold a lock through it);
// - warm-up repetitions (issue 29, item 5) run only where they change nothing
//   a later repetition sees, before a cold phase's eviction, and a first
//   phase that writes starts its measured repetition from an empty engine.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "adapters/adapter.h"
#include "common/owned_dir.h"
#include "datasets/key_generator.h"
#include "datasets/value_generator.h"
#include "runner/phase_executor.h"
#include "runner/run_plan.h"
#include "runner/workload.h"
#include "tests/scratch_dir.h"

namespace kvbench::runner {
namespace {

using Clock = std::chrono::steady_clock;

// What the runner did to the engine, one letter a call: P put, G get, D
// delete, B begin batch, C commit, S sync, O open, X close.
struct CallLog {
  std::mutex mutex;
  std::string calls;
  std::vector<Clock::time_point> times;  // of each call, index-aligned
  void Add(char c) {
    std::lock_guard lock(mutex);
    calls += c;
    times.push_back(Clock::now());
  }
};

class LoggingSession final : public Session {
 public:
  explicit LoggingSession(CallLog* log) : log_(log) {}
  Status Put(Slice, Slice) override { return Log('P'); }
  Status Get(Slice, std::string* value) override {
    value->assign("v");
    return Log('G');
  }
  Status Delete(Slice) override { return Log('D'); }
  Status BeginBatch() override { return Log('B'); }
  Status CommitBatch() override { return Log('C'); }
  Status AbortBatch() override { return Status::NotSupported("logging adapter"); }

 private:
  Status Log(char c) {
    log_->Add(c);
    return Status::OK();
  }
  CallLog* log_;
};

// Durable (so a cold phase closes, evicts and reopens it), owning no files.
class LoggingAdapter final : public Adapter {
 public:
  explicit LoggingAdapter(CallLog* log) : log_(log) {}
  std::string LibraryVersion() const override { return "test"; }
  std::vector<OptionSpec> OptionSpecs() const override { return {}; }
  Status CheckOptions(const EngineOptions&) const override { return Status::OK(); }
  Capabilities capabilities() const override {
    Capabilities c;
    c.durable = true;
    c.transactional = true;
    return c;
  }
  Status Open(const OpenRequest&) override {
    log_->Add('O');
    return Status::OK();
  }
  Status Close() override {
    log_->Add('X');
    return Status::OK();
  }
  Status NewSession(std::unique_ptr<Session>* session) override {
    *session = std::make_unique<LoggingSession>(log_);
    return Status::OK();
  }
  Status Sync() override {
    log_->Add('S');
    return Status::OK();
  }
  Status ListFiles(std::vector<std::string>* paths) const override {
    paths->clear();
    return Status::OK();
  }

 private:
  CallLog* log_;
};

// Runs every phase of `toml` once, in order, on the logging adapter; returns
// the call log from the start of phase `log_from` (by index) on.
class PhaseSlipsTest : public ::testing::Test {
 protected:
  std::string RunPhases(const std::string& toml, size_t log_from,
                        std::vector<Clock::time_point>* times = nullptr,
                        std::vector<results::PhaseRun>* runs = nullptr) {
    Workload w;
    Status s = ParseWorkload(toml, "slips.toml", &w);
    EXPECT_TRUE(s.ok()) << s.ToString();
    if (!s.ok()) return "";
    std::unique_ptr<datasets::KeyGenerator> keys;
    s = datasets::NewKeyGenerator(DatasetSpecOf(w), &keys);
    EXPECT_TRUE(s.ok()) << s.ToString();
    datasets::ValueOptions value_options;
    EXPECT_TRUE(datasets::ParseValueOptions(w.value_params, &value_options).ok());
    datasets::ValueGenerator values(value_options, w.seed);
    OpenRequest request;
    request.directory = dir_.path() + "/engine";
    // As the runner's own engine folders are: marked, so a fresh start may empty it.
    EXPECT_TRUE(ClaimDirectory(request.directory, "slips", ClaimMode::kReuseOwned).ok());
    EngineHandle handle("logging", std::make_unique<LoggingAdapter>(&log_), request);
    EXPECT_TRUE(handle.Open(nullptr).ok());
    PhaseInputs inputs;
    inputs.workload = &w;
    inputs.keys = keys.get();
    inputs.values = &values;
    size_t start = 0;
    for (size_t i = 0; i < w.phases.size(); ++i) {
      if (i == log_from) start = log_.calls.size();
      PhaseExecutor executor(inputs, &handle);
      const results::PhaseRun run = executor.Run(w.phases[i], i, ExpandMatrix(w.phases[i]).at(0));
      EXPECT_EQ(run.status, "ok") << run.phase << ": " << run.reason;
      if (runs != nullptr) runs->push_back(run);
    }
    if (times != nullptr) times->assign(log_.times.begin() + start, log_.times.end());
    return log_.calls.substr(start);
  }

  static std::string Repeat(const std::string& s, size_t n) {
    std::string out;
    for (size_t i = 0; i < n; ++i) out += s;
    return out;
  }

  CallLog log_;
  test::ScratchDir dir_{"slips"};
};

// No warm-up repetitions: the logs below are of one repetition each.
constexpr const char* kHeader = R"(
name = "slips"
repetitions = 1
[measurement]
warmup_repetitions = 0
[dataset]
kind = "sequential"
count = 40
)";

constexpr const char* kWarmHeader = R"(
name = "warm"
repetitions = 1
[measurement]
warmup_repetitions = 1
[dataset]
kind = "sequential"
count = 40
)";

TEST_F(PhaseSlipsTest, SyncCommitSyncsAfterEveryUnbatchedWrite) {
  const std::string calls = RunPhases(std::string(kHeader) + R"(
[[phase]]
name = "load"
op = "insert"
count = 40
sync = "commit"
)", 0);
  // 40 writes, each synced; then the runner's own untimed sync after a
  // writing phase.
  EXPECT_EQ(calls, Repeat("PS", 40) + "S");
}

TEST_F(PhaseSlipsTest, SyncCommitSyncsAfterWritesNotReadsOfAMix) {
  const std::string calls = RunPhases(std::string(kHeader) + R"(
[[phase]]
name = "load"
op = "insert"
count = 40
[[phase]]
name = "mix"
op = "mix"
proportions = { read = 0.5, update = 0.5 }
count = 200
sync = "commit"
)", 1);
  const size_t writes = static_cast<size_t>(std::count(calls.begin(), calls.end(), 'P'));
  const size_t reads = static_cast<size_t>(std::count(calls.begin(), calls.end(), 'G'));
  EXPECT_EQ(writes + reads, 200u);
  EXPECT_GT(writes, 50u);
  EXPECT_GT(reads, 50u);
  // Every write is followed by its sync, and only writes are.
  for (size_t i = 0; i + 1 < calls.size(); ++i) {
    if (calls[i] == 'P') {
      EXPECT_EQ(calls[i + 1], 'S') << "write " << i << " in " << calls;
    }
    if (calls[i] == 'S' && i + 1 < calls.size()) {
      EXPECT_NE(calls[i + 1], 'S') << calls;
    }
  }
  EXPECT_EQ(static_cast<size_t>(std::count(calls.begin(), calls.end(), 'S')), writes + 1);
}

TEST_F(PhaseSlipsTest, SyncCommitSyncsAfterEveryCommitOfABatchedPhase) {
  const std::string calls = RunPhases(std::string(kHeader) + R"(
[[phase]]
name = "load"
op = "insert"
count = 40
batch = 10
sync = "commit"
)", 0);
  EXPECT_EQ(calls, Repeat("B" + Repeat("P", 10) + "CS", 4) + "S");
}

TEST_F(PhaseSlipsTest, WarmUpOfAColdPhaseRunsBeforeTheEviction) {
  const std::string calls = RunPhases(std::string(kHeader) + R"(
[[phase]]
name = "load"
op = "insert"
count = 40
[[phase]]
name = "cold-get"
op = "get"
count = 20
warmup = 7
cache = "cold"
)", 1);
  // Warm-up gets, then the eviction (sync, close) and the reopen, then only
  // the measured gets: nothing reads the files between eviction and phase.
  EXPECT_EQ(calls, Repeat("G", 7) + "SXO" + Repeat("G", 20)) << calls;
}

// The first phase writes from an empty engine: its warm-up loads, the
// engine is recreated (close, emptied, open), and the measured repetition
// loads again. The read phase after it warms up with a whole repetition of
// gets. The update phase changes what later phases read and is not warmed.
TEST_F(PhaseSlipsTest, WarmUpRepetitionsRunOnlyWhereTheyChangeNothingLaterSeen) {
  std::vector<results::PhaseRun> runs;
  const std::string calls = RunPhases(std::string(kWarmHeader) + R"(
[[phase]]
name = "load"
op = "insert"
count = 40
[[phase]]
name = "get"
op = "get"
count = 20
[[phase]]
name = "update"
op = "update"
count = 10
)", 0, nullptr, &runs);
  EXPECT_EQ(calls, Repeat("P", 40) + "S" + "XO" + Repeat("P", 40) + "S" + Repeat("G", 20) +
                       Repeat("G", 20) + Repeat("P", 10) + "S")
      << calls;
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].warmup_repetitions.size(), 1u);
  EXPECT_EQ(runs[0].repetitions.size(), 1u);
  EXPECT_EQ(runs[1].warmup_repetitions.size(), 1u);
  EXPECT_EQ(runs[1].warmup_repetitions.at(0).ops.at(0).ops, 20u);
  EXPECT_TRUE(runs[2].warmup_repetitions.empty());
}

// A cold point's warm-up repetition reads as the cache is, before the
// measured repetition's own eviction and reopen: nothing reads the files
// between the eviction and the measured gets.
TEST_F(PhaseSlipsTest, WarmUpRepetitionOfAColdPhaseRunsBeforeTheEviction) {
  const std::string calls = RunPhases(std::string(kWarmHeader) + R"(
[[phase]]
name = "load"
op = "insert"
count = 40
fresh = true
[[phase]]
name = "cold-get"
op = "get"
count = 20
cache = "cold"
)", 1);
  EXPECT_EQ(calls, Repeat("G", 20) + "SXO" + Repeat("G", 20)) << calls;
}

// Under a target rate of 20 ops/s, operation i is due 50 ms after operation
// i - 1. A batch that began right after the previous commit would begin
// ~50 ms before its first put (the pacing wait in between); begun when the
// put is due, the two are microseconds apart. The bound, 25 ms, is half the
// wait: only a 25 ms stall between two adjacent calls fails it wrongly.
TEST_F(PhaseSlipsTest, APacedBatchBeginsWhenItsFirstOperationIsDue) {
  std::vector<Clock::time_point> times;
  const std::string calls = RunPhases(std::string(kHeader) + R"(
[[phase]]
name = "paced"
op = "insert"
count = 6
batch = 2
target = 20
)", 0, &times);
  ASSERT_EQ(calls, Repeat("BPPC", 3) + "S");
  for (size_t batch = 1; batch < 3; ++batch) {
    const size_t begin = batch * 4;
    const auto gap = times[begin + 1] - times[begin];
    EXPECT_LT(gap, std::chrono::milliseconds(25))
        << "batch " << batch << " began "
        << std::chrono::duration<double, std::milli>(gap).count()
        << " ms before its first operation";
  }
}

}  // namespace
}  // namespace kvbench::runner
