// The crash trials' check (runner/crash/crash_commits.h) and the rules that turn
// its counts into a measured promise (results/durability.h), on stdmap with
// losses made by hand.
#include <gtest/gtest.h>

#include <memory>

#include "adapters/registry.h"
#include "results/durability.h"
#include "runner/crash/crash_commits.h"

namespace kvbench::runner {
namespace {

class CrashCheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(AdapterRegistry::Global().Create("stdmap", &adapter_).ok());
    ASSERT_TRUE(adapter_->Open(OpenRequest{}).ok());
    ASSERT_TRUE(adapter_->NewSession(&session_).ok());
    CrashCommitStream stream(kSeed);
    for (uint64_t i = 0; i < kCommits; ++i) {
      commits_.push_back(stream.Next());
      ASSERT_TRUE(ApplyCrashCommit(session_.get(), commits_.back(), i).ok());
    }
  }
  CrashCheck Check(uint64_t acked) {
    CrashCheck c;
    EXPECT_TRUE(CheckCrashState(session_.get(), /*ordered=*/true, kSeed, acked, &c).ok());
    return c;
  }
  // The first batch commit after `from` whose keys no later commit rewrites.
  uint64_t SomeBatch(uint64_t from) {
    for (uint64_t i = from; i < commits_.size(); ++i) {
      if (!commits_[i].batch) continue;
      bool rewritten = false;
      for (uint64_t j = i + 1; j < commits_.size(); ++j) {
        for (uint64_t k : commits_[j].keys) {
          for (uint64_t mine : commits_[i].keys) rewritten = rewritten || k == mine;
        }
      }
      if (!rewritten) return i;
    }
    ADD_FAILURE() << "no batch";
    return 0;
  }

  static constexpr uint64_t kSeed = 7;
  static constexpr uint64_t kCommits = 60;
  std::unique_ptr<Adapter> adapter_;
  std::unique_ptr<Session> session_;
  std::vector<CrashCommit> commits_;
};

TEST_F(CrashCheckTest, EverythingThereIsClean) {
  const CrashCheck c = Check(kCommits);
  EXPECT_EQ(c.commits_lost, 0u);
  EXPECT_EQ(c.partial_batches, 0u);
  EXPECT_EQ(c.bad_values, 0u);
  EXPECT_EQ(c.extra_keys, 0u);
  EXPECT_TRUE(c.first_problem.empty()) << c.first_problem;
  // The in-flight commit (index acked) may be there: acked = kCommits - 1 is clean too.
  EXPECT_EQ(Check(kCommits - 1).commits_lost, 0u);
}

TEST_F(CrashCheckTest, MissingAcknowledgedWritesAreLostCommits) {
  const uint64_t batch = SomeBatch(10);
  for (uint64_t key : commits_[batch].keys) ASSERT_TRUE(session_->Delete(CrashKey(key)).ok());
  const CrashCheck c = Check(kCommits);
  EXPECT_GE(c.commits_lost, 1u);
  EXPECT_EQ(c.partial_batches, 0u);  // all of it is gone: atomic
  EXPECT_TRUE(c.reordered);          // later commits survived it
  EXPECT_NE(c.first_problem.find("missing"), std::string::npos) << c.first_problem;
}

TEST_F(CrashCheckTest, HalfABatchIsAnAtomicityViolation) {
  const uint64_t batch = SomeBatch(10);
  ASSERT_GE(commits_[batch].keys.size(), 2u);
  ASSERT_TRUE(session_->Delete(CrashKey(commits_[batch].keys[0])).ok());
  EXPECT_EQ(Check(kCommits).partial_batches, 1u);
}

TEST_F(CrashCheckTest, WrongBytesAndStrayKeysAreCorruption) {
  ASSERT_TRUE(session_->Put(CrashKey(commits_[3].keys[0]), "0000000003|garbage").ok());
  ASSERT_TRUE(session_->Put("stray", "x").ok());
  const CrashCheck c = Check(kCommits);
  EXPECT_EQ(c.bad_values, 1u);
  EXPECT_GE(c.extra_keys, 1u);
}

// Three writers' streams interleaved, as their threads commit them: each
// writer is held to its own acknowledgements, and a loss names its writer.
TEST(CrashCheckWritersTest, EachWriterIsHeldToItsOwnAcknowledgedCommits) {
  std::unique_ptr<Adapter> adapter;
  ASSERT_TRUE(AdapterRegistry::Global().Create("stdmap", &adapter).ok());
  ASSERT_TRUE(adapter->Open(OpenRequest{}).ok());
  std::unique_ptr<Session> session;
  ASSERT_TRUE(adapter->NewSession(&session).ok());
  constexpr uint64_t kSeed = 11;
  const std::vector<uint64_t> made = {30, 12, 21};  // commits each writer made
  std::vector<CrashCommitStream> streams;
  std::vector<std::vector<CrashCommit>> commits(made.size());
  for (int w = 0; w < 3; ++w) streams.emplace_back(kSeed, w);
  for (uint64_t i = 0; i < 30; ++i) {
    for (int w = 0; w < 3; ++w) {
      if (i >= made[w]) continue;
      commits[w].push_back(streams[w].Next());
      EXPECT_EQ(commits[w].back().writer, w);
      ASSERT_TRUE(ApplyCrashCommit(session.get(), commits[w].back(), i).ok());
    }
  }
  // Writer 0's stream is the single writer's; the others have keys of their own.
  CrashCommitStream single(kSeed);
  EXPECT_EQ(single.Next().keys, commits[0][0].keys);
  EXPECT_EQ(CrashKey(5, 0), CrashKey(5));
  EXPECT_NE(CrashKey(5, 1), CrashKey(5, 2));
  EXPECT_NE(CrashValue(5, 3, 1), CrashValue(5, 3, 2));

  CrashCheck c;
  ASSERT_TRUE(CheckCrashState(session.get(), /*ordered=*/true, kSeed, made, &c).ok());
  EXPECT_EQ(c.commits_lost, 0u);
  EXPECT_EQ(c.extra_keys, 0u) << c.first_problem;
  EXPECT_EQ(c.bad_values, 0u) << c.first_problem;
  // Writer 1 acknowledged 12: asking for 20 finds its commits 12..19 missing,
  // and says whose.
  ASSERT_TRUE(CheckCrashState(session.get(), /*ordered=*/true, kSeed, {30, 20, 21}, &c).ok());
  EXPECT_GE(c.commits_lost, 1u);
  EXPECT_EQ(c.first_problem.rfind("writer 1: acknowledged commit 12", 0), 0u) << c.first_problem;
  // One of writer 2's acknowledged keys deleted: a lost commit of writer 2's.
  ASSERT_TRUE(session->Delete(CrashKey(commits[2][4].keys[0], 2)).ok());
  ASSERT_TRUE(CheckCrashState(session.get(), /*ordered=*/true, kSeed, made, &c).ok());
  EXPECT_GE(c.commits_lost, 1u);
  EXPECT_EQ(c.first_problem.rfind("writer 2: ", 0), 0u) << c.first_problem;
  // Writer 1's keys checked as writer 0's (one stream): the scan sees keys
  // no stream wrote.
  ASSERT_TRUE(CheckCrashState(session.get(), /*ordered=*/true, kSeed, {30}, &c).ok());
  EXPECT_GE(c.extra_keys, 1u);
}

TEST(ClassifyDurability, MeasuredPromiseAndFindings) {
  results::DurabilityRun d;
  d.declared = "durable";
  d.declared_atomic = true;
  d.trials = 10;
  results::ClassifyDurability(&d);
  EXPECT_EQ(d.measured, "durable");
  EXPECT_FALSE(d.finding);
  d.trials_losing_acked = 1;
  results::ClassifyDurability(&d);
  EXPECT_EQ(d.measured, "consistent");
  EXPECT_TRUE(d.finding);
  d.declared = "consistent";
  results::ClassifyDurability(&d);
  EXPECT_FALSE(d.finding);
  d.atomicity_violations = 1;  // atomic batches promised, half a batch seen
  results::ClassifyDurability(&d);
  EXPECT_TRUE(d.finding);
  d.declared = "nothing";  // no promise at all under this fault
  d.unopenable = 1;
  results::ClassifyDurability(&d);
  EXPECT_EQ(d.measured, "nothing");
  EXPECT_FALSE(d.finding);
  d.trials = 0;
  results::ClassifyDurability(&d);
  EXPECT_EQ(d.measured, "");
}

}  // namespace
}  // namespace kvbench::runner
