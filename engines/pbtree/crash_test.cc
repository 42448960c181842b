// Crash test: a child process commits deterministic batches and is killed
// with SIGKILL at random moments; after each kill the reopened file must hold
// exactly the last batch the child committed (the child reports "begin b" and
// "done b" through a pipe, so a kill inside Commit may leave batch b or b - 1)
// and pass DB::Check (checksums, order, every page used once or free).
//
// Kills per sync mode: PBTREE_CRASH_KILLS (default 40; the full run
// is 200: PBTREE_CRASH_KILLS=200 ./pbtree_crash_test).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>

#include "engines/pbtree/pbtree.h"
#include "engines/pbtree/test_util.h"

namespace pbtree {
namespace {

using Map = std::map<std::string, std::string>;
const char kMarker[] = "\x01last-batch";

int Kills() {
  const char* env = std::getenv("PBTREE_CRASH_KILLS");
  return env != nullptr ? std::atoi(env) : 40;
}

// Batch b: puts (some with overflow values) and deletes, then the marker.
template <typename Put, typename Del>
void Batch(uint64_t b, Put put, Del del) {
  std::mt19937_64 rng(b * 7919 + 1);
  const int n = 10 + rng() % 150;
  for (int i = 0; i < n; ++i) {
    const uint64_t k = rng() % 4000;
    std::string key = std::string("https://example.org/items/") + std::to_string(k % 37) + "/" +
                      std::to_string(k);
    if (rng() % 5 == 0) {
      del(key);
      continue;
    }
    size_t size = rng() % 60 == 0 ? 2000 + rng() % 9000 : 40;
    std::string value(size, static_cast<char>('a' + b % 26));
    value.replace(0, std::min<size_t>(size, 20), std::to_string(b) + ":" + std::to_string(i));
    put(key, value);
  }
  put(kMarker, std::to_string(b));
}

void ApplyToModel(uint64_t b, Map* model) {
  Batch(b, [&](const std::string& k, const std::string& v) { (*model)[k] = v; },
        [&](const std::string& k) { model->erase(k); });
}

struct Record {
  uint32_t kind;  // 1 begin, 2 done
  uint32_t batch;
};

// The child: continues from whatever batch the file holds, forever.
[[noreturn]] void RunChild(const std::string& path, SyncMode sync, int fd) {
  Options options;
  options.sync = sync;
  std::unique_ptr<DB> db;
  if (!DB::Open(options, path, &db).ok()) _exit(3);
  std::string value;
  uint64_t b = db->Get(kMarker, &value).ok() ? std::strtoull(value.c_str(), nullptr, 10) : 0;
  for (;;) {
    ++b;
    Record begin{1, static_cast<uint32_t>(b)};
    if (write(fd, &begin, sizeof(begin)) != sizeof(begin)) _exit(4);
    std::unique_ptr<WriteTxn> txn;
    if (!db->BeginWrite(&txn).ok()) _exit(5);
    bool ok = true;
    Batch(b, [&](const std::string& k, const std::string& v) { ok = ok && txn->Put(k, v).ok(); },
          [&](const std::string& k) {
            Status s = txn->Delete(k);
            ok = ok && (s.ok() || s.IsNotFound());
          });
    if (!ok || !txn->Commit().ok()) _exit(6);
    Record done{2, static_cast<uint32_t>(b)};
    if (write(fd, &done, sizeof(done)) != sizeof(done)) _exit(7);
    // Now and then a reorganize, which a kill may also interrupt.
    if (b % 97 == 0 && !db->Reorganize().ok()) _exit(8);
  }
}

class CrashTest : public ::testing::TestWithParam<SyncMode> {};

TEST_P(CrashTest, KilledWriterLeavesExactlyTheLastCommittedBatch) {
  testing::ScratchDir dir;
  const std::string path = dir.File("crash.pbtree");
  std::mt19937_64 rng(GetParam() == SyncMode::kNone ? 11 : 12);
  Map model;
  uint64_t model_batch = 0;
  uint64_t kills_inside_commit = 0;
  const int kills = Kills();
  for (int round = 0; round < kills; ++round) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(fds[0]);
      RunChild(path, GetParam(), fds[1]);
    }
    close(fds[1]);
    const int max_us = GetParam() == SyncMode::kNone ? 20000 : 60000;
    std::this_thread::sleep_for(std::chrono::microseconds(rng() % max_us));
    ::kill(pid, SIGKILL);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status)) << "child failed on its own, exit " << WEXITSTATUS(status);

    uint64_t begun = 0, done = 0;
    Record r;
    while (read(fds[0], &r, sizeof(r)) == sizeof(r)) {
      if (r.kind == 1) {
        begun = r.batch;
        done = std::max<uint64_t>(done, r.batch - 1);  // what the child started from
      }
      if (r.kind == 2) done = r.batch;
    }
    close(fds[0]);

    std::unique_ptr<DB> db;
    Status s = DB::Open(Options(), path, &db);
    if (s.IsNotFound() && model_batch == 0) continue;  // killed before creating the file
    if (begun == 0) done = model_batch;                  // killed before starting a batch
    ASSERT_TRUE(s.ok()) << "kill " << round << ": " << s.ToString();
    std::string value;
    uint64_t in_file = 0;
    if (db->Get(kMarker, &value).ok()) in_file = std::strtoull(value.c_str(), nullptr, 10);
    // The batch being committed at the kill may or may not have made it.
    if (begun > done) {
      ASSERT_TRUE(in_file == done || in_file == begun)
          << "kill " << round << ": file has batch " << in_file << ", child had done " << done
          << " and begun " << begun;
      kills_inside_commit += in_file == begun;
    } else {
      ASSERT_EQ(in_file, done) << "kill " << round;
    }
    ASSERT_GE(in_file, model_batch);
    while (model_batch < in_file) ApplyToModel(++model_batch, &model);

    std::unique_ptr<Cursor> c = db->NewCursor();
    auto it = model.begin();
    for (c->SeekToFirst(); c->Valid(); c->Next(), ++it) {
      ASSERT_NE(it, model.end()) << "kill " << round << ": extra key";
      ASSERT_EQ(c->key(), it->first) << "kill " << round;
      ASSERT_EQ(c->value(), it->second) << "kill " << round;
    }
    ASSERT_TRUE(c->status().ok()) << c->status().ToString();
    ASSERT_EQ(it, model.end()) << "kill " << round << ": missing keys";
    ASSERT_EQ(db->Count(), model.size());
    c.reset();
    s = db->Check();
    ASSERT_TRUE(s.ok()) << "kill " << round << ": " << s.ToString();
  }
  EXPECT_GT(model_batch, 0u) << "the child never committed: make the delays longer";
  RecordProperty("batches", static_cast<int>(model_batch));
  RecordProperty("kills_inside_commit", static_cast<int>(kills_inside_commit));
}

INSTANTIATE_TEST_SUITE_P(SyncModes, CrashTest,
                         ::testing::Values(SyncMode::kNone, SyncMode::kCommit),
                         [](const ::testing::TestParamInfo<SyncMode>& info) {
                           return info.param == SyncMode::kNone ? std::string("SyncNone")
                                                                : std::string("SyncCommit");
                         });

}  // namespace
}  // namespace pbtree
