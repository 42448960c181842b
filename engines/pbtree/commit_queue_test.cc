// Group commit (commit_queue.h): the queue's leader commits the writes queued
// behind it, in order; and DB::Put / DB::Delete with sync=commit on several
// threads at once lose nothing, answer each caller for its own write, and
// share commits.
#include "engines/pbtree/commit_queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "engines/pbtree/pbtree.h"
#include "engines/pbtree/test_util.h"

namespace pbtree {
namespace {

using testing::ScratchDir;

// Waits (yielding) until `done` holds; the queue's state changes on other threads.
template <class Done>
void AwaitCondition(Done done) {
  while (!done()) std::this_thread::yield();
}

TEST(CommitQueueTest, TheLeaderCommitsTheWritesQueuedBehindItInOrder) {
  CommitQueue queue;
  std::atomic<bool> release{false};
  std::vector<std::vector<std::string>> groups;  // written by the leader of the moment only
  std::atomic<int> started{0};                   // commits begun, for the test's thread
  auto commit = [&](QueuedWrite* const* writes, size_t n) {
    std::vector<std::string> keys;
    for (size_t i = 0; i < n; ++i) {
      keys.emplace_back(writes[i]->key);
      writes[i]->status = writes[i]->is_delete ? Status::NotFound("gone") : Status::OK();
    }
    groups.push_back(keys);
    started.fetch_add(1);
    AwaitCondition([&] { return release.load(); });  // the first leader holds the line
  };
  Status first, second, third;
  std::thread a([&] {
    QueuedWrite w("a", "1", false);
    first = queue.Submit(&w, commit);
  });
  AwaitCondition([&] { return started.load() == 1; });
  std::thread b([&] {
    QueuedWrite w("b", "2", false);
    second = queue.Submit(&w, commit);
  });
  AwaitCondition([&] { return queue.queued() == 2; });
  std::thread c([&] {
    QueuedWrite w("c", "", true);
    third = queue.Submit(&w, commit);
  });
  AwaitCondition([&] { return queue.queued() == 3; });
  release.store(true);
  a.join();
  b.join();
  c.join();
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0], std::vector<std::string>({"a"}));
  EXPECT_EQ(groups[1], std::vector<std::string>({"b", "c"}));
  EXPECT_TRUE(first.ok());
  EXPECT_TRUE(second.ok());
  EXPECT_TRUE(third.IsNotFound()) << third.ToString();
  EXPECT_EQ(queue.groups(), 1u);
  EXPECT_EQ(queue.grouped_writes(), 2u);
  EXPECT_EQ(queue.queued(), 0u);
}

TEST(CommitQueueTest, AGroupStopsAtItsByteLimitButTakesOneWriteWhateverItsSize) {
  CommitQueue queue;
  std::atomic<bool> release{false};
  std::vector<size_t> sizes;  // written by the leader of the moment only
  std::atomic<int> started{0};
  auto commit = [&](QueuedWrite* const*, size_t n) {
    sizes.push_back(n);
    started.fetch_add(1);
    AwaitCondition([&] { return release.load(); });
  };
  // With its one-byte key, a quarter write is a quarter of the limit.
  const std::string quarter(CommitQueue::kMaxGroupBytes / 4 - 1, 'v');
  const std::string huge(CommitQueue::kMaxGroupBytes * 2, 'v');
  std::vector<std::thread> threads;
  threads.emplace_back([&] {
    QueuedWrite w("0", "", false);
    queue.Submit(&w, commit);
  });
  AwaitCondition([&] { return started.load() == 1; });
  // Behind the leader: one write over the limit, then five quarters.
  for (int i = 0; i < 6; ++i) {
    threads.emplace_back([&, i] {
      QueuedWrite w("k", i == 0 ? Slice(huge) : Slice(quarter), false);
      queue.Submit(&w, commit);
    });
    AwaitCondition([&] { return queue.queued() == static_cast<size_t>(i + 2); });
  }
  release.store(true);
  for (std::thread& t : threads) t.join();
  // The leader; the huge write alone; four quarters (exactly the limit); the fifth.
  EXPECT_EQ(sizes, std::vector<size_t>({1, 1, 4, 1}));
  EXPECT_EQ(queue.groups(), 1u);
  EXPECT_EQ(queue.grouped_writes(), 4u);
}

std::string ThreadKey(int thread, int i) {
  char buf[80];
  std::snprintf(buf, sizeof(buf), "https://www.example.org/t%d/item-%07d.html", thread, i);
  return buf;
}

// One writer thread's run: puts, deletes of its own keys (present and absent)
// and a key too long, each checked against its own model. Returns the first
// unexpected status.
std::string WriteAndModel(DB* db, int thread, int round, int writes,
                          std::map<std::string, std::string>* model) {
  for (int i = 0; i < writes; ++i) {
    const int n = round * writes + i;
    const std::string key = ThreadKey(thread, n % 300);
    Status s;
    if (i % 7 == 3) {
      const bool present = model->erase(key) == 1;
      s = db->Delete(key);
      if (present ? !s.ok() : !s.IsNotFound()) return "Delete " + key + ": " + s.ToString();
      continue;
    }
    if (i % 97 == 5) {
      s = db->Put(std::string(kMaxKeySize + 1, 'k'), "v");
      if (!s.IsInvalidArgument()) return "Put of a key too long: " + s.ToString();
      continue;
    }
    std::string value = std::to_string(n);
    value.append(n % 50, '.');
    s = db->Put(key, value);
    if (!s.ok()) return "Put " + key + ": " + s.ToString();
    (*model)[key] = value;
  }
  return "";
}

// Expects the database to hold exactly the models' keys and values.
void ExpectHoldsModels(DB* db, const std::vector<std::map<std::string, std::string>>& models) {
  std::map<std::string, std::string> all;
  for (const auto& m : models) all.insert(m.begin(), m.end());
  std::unique_ptr<Cursor> c = db->NewCursor();
  auto it = all.begin();
  for (c->SeekToFirst(); c->Valid(); c->Next(), ++it) {
    ASSERT_NE(it, all.end()) << "extra key " << c->key();
    ASSERT_EQ(c->key(), Slice(it->first));
    ASSERT_EQ(c->value(), Slice(it->second));
  }
  ASSERT_TRUE(c->status().ok()) << c->status().ToString();
  EXPECT_EQ(it, all.end()) << "missing key " << it->first;
  EXPECT_EQ(db->Count(), all.size());
}

// Four threads write at once with sync=commit, in rounds, until a round has
// shared a commit (the first nearly always does: a thread that arrives while
// another commits waits behind it; 20 rounds without one fail the test).
TEST(GroupCommitTest, WritesOnSeveralThreadsShareCommitsAndLoseNothing) {
  constexpr int kThreads = 4, kWrites = 400, kMaxRounds = 20;
  ScratchDir dir;
  Options options;
  options.sync = SyncMode::kCommit;
  std::unique_ptr<DB> db;
  ASSERT_TRUE(DB::Open(options, dir.File("db"), &db).ok());
  std::vector<std::map<std::string, std::string>> models(kThreads);
  Stats stats;
  int round = 0;
  for (; round < kMaxRounds && stats.group_commits == 0; ++round) {
    std::vector<std::string> problems(kThreads);
    std::atomic<int> ready{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        ready.fetch_add(1);
        AwaitCondition([&] { return ready.load() == kThreads; });  // start together
        problems[t] = WriteAndModel(db.get(), t, round, kWrites, &models[t]);
      });
    }
    for (std::thread& t : threads) t.join();
    for (const std::string& p : problems) ASSERT_EQ(p, "");
    ASSERT_TRUE(db->GetStats(&stats).ok());
  }
  std::printf("%d round(s): %llu commits, %llu of them groups holding %llu writes\n", round,
              static_cast<unsigned long long>(stats.commits),
              static_cast<unsigned long long>(stats.group_commits),
              static_cast<unsigned long long>(stats.grouped_writes));
  EXPECT_GT(stats.group_commits, 0u)
      << "no commit held two threads' writes in " << round << " rounds";
  EXPECT_GE(stats.grouped_writes, 2 * stats.group_commits);
  // A group is one commit: fewer commits than writes that changed something.
  EXPECT_LT(stats.commits, static_cast<uint64_t>(round) * kThreads * kWrites);
  ExpectHoldsModels(db.get(), models);
  ASSERT_TRUE(db->Check().ok());
  // Every commit was durable in the log: reopened without a checkpoint, the
  // replay gives the same state.
  db.reset();
  options.checkpoint_on_close = false;
  ASSERT_TRUE(DB::Open(options, dir.File("db"), &db).ok());
  ExpectHoldsModels(db.get(), models);
  ASSERT_TRUE(db->Check().ok());
}

// Without sync, concurrent DB::Put calls are not queued: one writer at a time,
// a second gets Busy (pbtree.h); the queue exists only with sync=commit.
TEST(GroupCommitTest, WithoutSyncDBPutDoesNotQueue) {
  ScratchDir dir;
  std::unique_ptr<DB> db;
  ASSERT_TRUE(DB::Open(Options(), dir.File("db"), &db).ok());
  std::unique_ptr<WriteTxn> txn;
  ASSERT_TRUE(db->BeginWrite(&txn).ok());
  std::thread other([&] { EXPECT_TRUE(db->Put("k", "v").IsBusy()); });
  other.join();
  txn->Abort();
  ASSERT_TRUE(db->Put("k", "v").ok());
  Stats stats;
  ASSERT_TRUE(db->GetStats(&stats).ok());
  EXPECT_EQ(stats.group_commits, 0u);
}

}  // namespace
}  // namespace pbtree
