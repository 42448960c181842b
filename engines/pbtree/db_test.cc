// Behaviour of the public API: values of every size, transactions and
// snapshots, cursors, statistics, reorganize, page reuse, sync modes.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "engines/pbtree/pbtree.h"
#include "engines/pbtree/test_util.h"

namespace pbtree {
namespace {

using testing::ScratchDir;

std::string UrlKey(uint64_t i) {
  static const char* kHosts[] = {"https://www.example.org/", "https://docs.example.com/",
                                 "http://static.example.net/assets/"};
  return std::string(kHosts[i % 3]) + "catalog/" + std::to_string(i % 17) + "/item-" +
         std::to_string(i * 2654435761u % 1000003);
}

class DbTest : public ::testing::Test {
 protected:
  void SetUp() override { Open(Options()); }
  void Open(const Options& options) {
    db_.reset();
    Status s = DB::Open(options, dir_.File("db"), &db_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  std::string Get(const std::string& key) {
    std::string value;
    Status s = db_->Get(key, &value);
    if (s.IsNotFound()) return "<absent>";
    EXPECT_TRUE(s.ok()) << s.ToString();
    return value;
  }
  uint64_t FileSize() { return std::filesystem::file_size(dir_.File("db")); }
  // The churn the finger tests put between their puts: now and then a
  // delete of the key put before (keys[i - 1]), and a write transaction that
  // puts `abort_key` and aborts.
  void Churn(size_t i, const std::vector<std::string>& keys, const std::string& abort_key,
             std::map<std::string, std::string>* model) {
    if (i % 211 == 0 && i > 0 && model->count(keys[i - 1]) > 0) {
      ASSERT_TRUE(db_->Delete(keys[i - 1]).ok()) << i;
      model->erase(keys[i - 1]);
    }
    if (i % 301 == 0) {
      std::unique_ptr<WriteTxn> w;
      ASSERT_TRUE(db_->BeginWrite(&w).ok());
      ASSERT_TRUE(w->Put(abort_key + "x", "aborted").ok());
      w->Abort();
    }
  }
  // The database holds exactly `model`, in order, and passes Check.
  void ExpectHolds(const std::map<std::string, std::string>& model) {
    std::unique_ptr<Cursor> c = db_->NewCursor();
    auto it = model.begin();
    for (c->SeekToFirst(); c->Valid(); c->Next(), ++it) {
      ASSERT_NE(it, model.end());
      ASSERT_EQ(c->key(), Slice(it->first));
      ASSERT_EQ(c->value(), Slice(it->second));
    }
    ASSERT_TRUE(c->status().ok()) << c->status().ToString();
    EXPECT_EQ(it, model.end());
    c.reset();
    EXPECT_EQ(db_->Count(), model.size());
    Status check = db_->Check();
    EXPECT_TRUE(check.ok()) << check.ToString();
  }

  ScratchDir dir_;
  std::unique_ptr<DB> db_;
};

TEST_F(DbTest, ValuesOfEverySizeAndBinaryKeys) {
  const std::string nul_key("a\0b", 3);
  std::mt19937_64 rng(1);
  std::map<std::string, std::string> model;
  for (size_t size : {0u, 1u, 40u, 1023u, 1024u, 1025u, 4072u, 4073u, 100000u, 1u << 20}) {
    std::string value(size, '\0');
    for (auto& c : value) c = static_cast<char>(rng());
    const std::string key = std::string("size-") + std::to_string(size);
    ASSERT_TRUE(db_->Put(key, value).ok());
    model[key] = value;
  }
  ASSERT_TRUE(db_->Put(nul_key, "nul").ok());
  ASSERT_TRUE(db_->Put("", "empty key").ok());
  ASSERT_TRUE(db_->Put(std::string(kMaxKeySize, 'k'), "longest").ok());
  EXPECT_TRUE(db_->Put(std::string(kMaxKeySize + 1, 'k'), "x").IsInvalidArgument());
  for (const auto& [k, v] : model) EXPECT_EQ(Get(k), v) << k;
  EXPECT_EQ(Get(nul_key), "nul");
  EXPECT_EQ(Get(std::string("a", 1)), "<absent>");
  EXPECT_EQ(Get(""), "empty key");
  EXPECT_EQ(Get(std::string(kMaxKeySize, 'k')), "longest");
  // Overwrite large with small and small with large; delete a large one.
  ASSERT_TRUE(db_->Put("size-100000", "small now").ok());
  ASSERT_TRUE(db_->Put("size-40", std::string(50000, 'L')).ok());
  ASSERT_TRUE(db_->Delete("size-1048576").ok());
  EXPECT_EQ(Get("size-100000"), "small now");
  EXPECT_EQ(Get("size-40"), std::string(50000, 'L'));
  EXPECT_EQ(Get("size-1048576"), "<absent>");
  EXPECT_TRUE(db_->Delete("size-1048576").IsNotFound());
  CheckReport report;
  Status s = db_->Check(&report);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_GT(report.free_pages, 250u) << "the 1 MiB value's pages are free again";
  Open(Options());
  EXPECT_EQ(Get("size-40"), std::string(50000, 'L'));
}

TEST_F(DbTest, ReadersSeeTheirSnapshotWhileAWriterWorks) {
  ASSERT_TRUE(db_->Put("k", "v1").ok());
  std::unique_ptr<ReadTxn> before;
  ASSERT_TRUE(db_->BeginRead(&before).ok());
  std::unique_ptr<WriteTxn> w;
  ASSERT_TRUE(db_->BeginWrite(&w).ok());
  std::unique_ptr<WriteTxn> second;
  EXPECT_TRUE(db_->BeginWrite(&second).IsBusy()) << "one writer at a time";
  EXPECT_TRUE(db_->Put("x", "y").IsBusy());
  ASSERT_TRUE(w->Put("k", "v2").ok());
  ASSERT_TRUE(w->Put("new", "n").ok());
  std::string value;
  ASSERT_TRUE(w->Get("k", &value).ok());
  EXPECT_EQ(value, "v2") << "a writer reads its own writes";
  EXPECT_EQ(Get("k"), "v1") << "others read the last commit";
  EXPECT_EQ(Get("new"), "<absent>");
  EXPECT_EQ(w->Count(), 2u);
  EXPECT_EQ(db_->Count(), 1u);
  ASSERT_TRUE(w->Commit().ok());
  EXPECT_EQ(Get("k"), "v2");
  ASSERT_TRUE(before->Get("k", &value).ok());
  EXPECT_EQ(value, "v1") << "an older snapshot keeps its view";
  EXPECT_TRUE(before->Get("new", &value).IsNotFound());
  EXPECT_EQ(before->Count(), 1u);
  // Many later commits must not reuse the snapshot's pages.
  for (int i = 0; i < 300; ++i) {
    ASSERT_TRUE(db_->Put("k", std::string("v") + std::to_string(i)).ok());
  }
  ASSERT_TRUE(before->Get("k", &value).ok());
  EXPECT_EQ(value, "v1");
  EXPECT_TRUE(db_->Reorganize().IsBusy()) << "a snapshot is open";
  before.reset();
  EXPECT_TRUE(db_->Reorganize().ok());
}

TEST_F(DbTest, AbortDiscardsEverything) {
  ASSERT_TRUE(db_->Put("keep", "1").ok());
  const uint64_t size = FileSize();
  {
    std::unique_ptr<WriteTxn> w;
    ASSERT_TRUE(db_->BeginWrite(&w).ok());
    for (int i = 0; i < 5000; ++i) ASSERT_TRUE(w->Put(UrlKey(i), std::string(100, 'x')).ok());
    ASSERT_TRUE(w->Delete("keep").ok());
    w->Abort();
    EXPECT_TRUE(w->Put("late", "x").IsInvalidArgument()) << "an ended transaction";
  }
  {
    std::unique_ptr<WriteTxn> w;
    ASSERT_TRUE(db_->BeginWrite(&w).ok());
    ASSERT_TRUE(w->Put("dropped", "x").ok());
  }  // destroyed without Commit: aborted
  EXPECT_EQ(Get("keep"), "1");
  EXPECT_EQ(Get("dropped"), "<absent>");
  EXPECT_EQ(Get(UrlKey(1)), "<absent>");
  EXPECT_EQ(db_->Count(), 1u);
  EXPECT_EQ(FileSize(), size) << "nothing of an aborted transaction is written";
  EXPECT_TRUE(db_->Check().ok());
}

TEST_F(DbTest, BufferedPutsBehaveLikeImmediateOnes) {
  // More puts than the buffer holds, with repeated keys (the last put wins),
  // values of every size, and reads, cursors and deletes in between.
  std::map<std::string, std::string> model;
  std::mt19937_64 rng(5);
  std::unique_ptr<WriteTxn> w;
  ASSERT_TRUE(db_->BeginWrite(&w).ok());
  for (int i = 0; i < 150000; ++i) {
    const std::string key = UrlKey(rng() % 60000);
    const std::string value(rng() % 50 == 0 ? 3000 : rng() % 30, static_cast<char>('a' + i % 26));
    ASSERT_TRUE(w->Put(key, value).ok());
    model[key] = value;
    if (i % 20000 == 0) {
      std::string got;
      ASSERT_TRUE(w->Get(key, &got).ok());
      EXPECT_EQ(got, value) << "a read applies the buffer first";
      std::unique_ptr<Cursor> c = w->NewCursor();
      c->Seek(key);
      ASSERT_TRUE(c->Valid());
      EXPECT_EQ(c->key(), key);
      ASSERT_TRUE(w->Put(key + "!", "after the cursor").ok());
      model[key + "!"] = "after the cursor";
      c->Next();
      ASSERT_TRUE(c->Valid());
      EXPECT_EQ(c->key(), key + "!") << "a cursor sees puts made after it";
    }
    if (i % 7000 == 0) {
      const std::string victim = model.begin()->first;
      ASSERT_TRUE(w->Delete(victim).ok());
      model.erase(victim);
    }
  }
  EXPECT_EQ(w->Count(), model.size());
  ASSERT_TRUE(w->Commit().ok());
  std::unique_ptr<Cursor> c = db_->NewCursor();
  auto it = model.begin();
  for (c->SeekToFirst(); c->Valid(); c->Next(), ++it) {
    ASSERT_NE(it, model.end());
    ASSERT_EQ(c->key(), it->first);
    ASSERT_EQ(c->value(), it->second);
  }
  EXPECT_EQ(it, model.end());
  c.reset();
  // Buffered puts of an aborted transaction vanish.
  ASSERT_TRUE(db_->BeginWrite(&w).ok());
  ASSERT_TRUE(w->Put("never", "committed").ok());
  w->Abort();
  EXPECT_EQ(Get("never"), "<absent>");
  EXPECT_TRUE(db_->Check().ok());
}

class CursorTest : public DbTest {
 protected:
  void SetUp() override {
    DbTest::SetUp();
    // Twenty transactions of random keys: pages split in the middle and are
    // left partly empty, as in real use.
    for (uint64_t batch = 0; batch < 20; ++batch) {
      std::unique_ptr<WriteTxn> w;
      ASSERT_TRUE(db_->BeginWrite(&w).ok());
      for (uint64_t i = batch; i < 20000; i += 20) {
        const std::string key = UrlKey(i);
        ASSERT_TRUE(w->Put(key, key.substr(key.size() - 6)).ok());
        model_[key] = key.substr(key.size() - 6);
      }
      ASSERT_TRUE(w->Commit().ok());
    }
  }
  std::map<std::string, std::string> model_;
};

TEST_F(CursorTest, RangeScansBothWays) {
  std::unique_ptr<Cursor> c = db_->NewCursor();
  auto it = model_.begin();
  for (c->SeekToFirst(); c->Valid(); c->Next(), ++it) {
    ASSERT_EQ(c->key(), it->first);
    ASSERT_EQ(c->value(), it->second);
  }
  EXPECT_EQ(it, model_.end());
  auto rit = model_.rbegin();
  for (c->SeekToLast(); c->Valid(); c->Prev(), ++rit) ASSERT_EQ(c->key(), rit->first);
  EXPECT_EQ(rit, model_.rend());
  EXPECT_TRUE(c->status().ok());

  // A range [from, to) forward and (to, from] backward.
  const std::string from = "https://docs.example.com/catalog/3",
                    to = "https://docs.example.com/catalog/5";
  size_t n = 0;
  for (c->Seek(from); c->Valid() && c->key() < to; c->Next()) ++n;
  size_t expected = std::distance(model_.lower_bound(from), model_.lower_bound(to));
  EXPECT_EQ(n, expected);
  EXPECT_GT(n, 100u);
  n = 0;
  for (c->SeekForPrev(to); c->Valid() && c->key() >= from; c->Prev()) ++n;
  EXPECT_EQ(n, expected);
  // Seeks between, before and after the keys.
  c->Seek("");
  EXPECT_EQ(c->key(), model_.begin()->first);
  c->Seek("\xff");
  EXPECT_FALSE(c->Valid());
  c->SeekForPrev("");
  EXPECT_FALSE(c->Valid());
  c->SeekForPrev("\xff");
  EXPECT_EQ(c->key(), model_.rbegin()->first);
}

TEST_F(CursorTest, SkipMovesByWholeLeaves) {
  std::unique_ptr<Cursor> c = db_->NewCursor();
  std::vector<std::string> keys;
  for (const auto& [k, v] : model_) keys.push_back(k);
  for (uint64_t start : {0u, 1u, 500u, 19000u}) {
    for (uint64_t skip : {0u, 1u, 37u, 1000u, 5000u, 19999u, 20000u}) {
      c->Seek(keys[start]);
      c->Skip(skip);
      if (start + skip < keys.size()) {
        ASSERT_TRUE(c->Valid()) << start << "+" << skip;
        EXPECT_EQ(c->key(), keys[start + skip]);
        EXPECT_EQ(c->value(), model_[keys[start + skip]]);
      } else {
        EXPECT_FALSE(c->Valid());
      }
      c->Seek(keys[start]);
      c->SkipBackward(skip);
      if (skip <= start) {
        ASSERT_TRUE(c->Valid()) << start << "-" << skip;
        EXPECT_EQ(c->key(), keys[start - skip]);
      } else {
        EXPECT_FALSE(c->Valid());
      }
    }
  }
}

TEST_F(CursorTest, WriteCursorFollowsItsTransaction) {
  std::unique_ptr<WriteTxn> w;
  ASSERT_TRUE(db_->BeginWrite(&w).ok());
  std::unique_ptr<Cursor> c = w->NewCursor();
  auto it = model_.begin();
  c->SeekToFirst();
  // Delete every other key while walking: the cursor re-seeks after each change.
  size_t visited = 0;
  while (c->Valid()) {
    ASSERT_EQ(c->key(), it->first);
    const std::string key(c->key());
    if (visited % 2 == 0) {
      ASSERT_TRUE(w->Delete(key).ok());
    }
    c->Next();
    ++it;
    ++visited;
  }
  EXPECT_EQ(visited, model_.size());
  EXPECT_EQ(w->Count(), model_.size() / 2);
  ASSERT_TRUE(w->Commit().ok());
  EXPECT_EQ(db_->Count(), model_.size() / 2);
  EXPECT_TRUE(db_->Check().ok());
}

// A snapshot cursor keeps its leaf's bytes between calls (cursor.cc) and must
// drop them once frames were retired. Here pages are read into a cache far
// smaller than the tree (pread, no mapping), and before each call on the
// cursor the same thread reads other keys, which evicts frames and reuses
// them at once (a thread's own slots do not hold frames back from it), and
// now and then commits changes to keys the cursor has yet to reach, which its
// snapshot must not show.
TEST_F(DbTest, ASnapshotCursorSurvivesEvictionsAndCommitsBetweenItsCalls) {
  Options options;
  options.mmap_reads = false;
  options.cache_bytes = 16 * 4096;
  Open(options);
  constexpr uint64_t kKeys = 4000;
  std::map<std::string, std::string> model;
  {
    std::unique_ptr<WriteTxn> w;
    ASSERT_TRUE(db_->BeginWrite(&w).ok());
    for (uint64_t i = 0; i < kKeys; ++i) {
      model[UrlKey(i)] = "v0-" + std::to_string(i);
      ASSERT_TRUE(w->Put(UrlKey(i), model[UrlKey(i)]).ok());
    }
    ASSERT_TRUE(w->Commit().ok());
  }
  ASSERT_TRUE(db_->Checkpoint().ok());
  std::mt19937_64 rng(5);
  auto evict = [&] {
    for (int r = 0; r < 4; ++r) Get(UrlKey(rng() % kKeys));
  };
  Stats before, after;
  ASSERT_TRUE(db_->GetStats(&before).ok());
  std::unique_ptr<Cursor> c = db_->NewCursor();
  std::map<std::string, std::string> changed;
  auto it = model.begin();
  size_t steps = 0;
  for (c->SeekToFirst(); c->Valid(); ++it, ++steps) {
    ASSERT_NE(it, model.end());
    evict();
    ASSERT_EQ(c->key(), it->first);
    ASSERT_EQ(c->value(), it->second) << "step " << steps;
    if (steps % 50 == 0) {
      auto ahead = std::next(it, std::min<size_t>(20, std::distance(it, model.end()) - 1));
      ASSERT_TRUE(db_->Put(ahead->first, "changed").ok());
      changed[ahead->first] = "changed";
    }
    evict();
    c->Next();
  }
  EXPECT_EQ(it, model.end());
  EXPECT_TRUE(c->status().ok()) << c->status().ToString();
  c.reset();
  ASSERT_TRUE(db_->GetStats(&after).ok());
  EXPECT_GT(after.cache_misses - before.cache_misses, kKeys) << "frames were evicted and reused";
  EXPECT_GT(changed.size(), 50u);
  for (const auto& [k, v] : changed) EXPECT_EQ(Get(k), v);
  EXPECT_TRUE(db_->Check().ok());
}

TEST_F(CursorTest, StatsDescribeTheTree) {
  Stats stats;
  ASSERT_TRUE(db_->GetStats(&stats).ok());
  EXPECT_EQ(stats.entries, 20000u);
  EXPECT_GE(stats.depth, 2u);
  EXPECT_GT(stats.leaf_pages, 50u);
  EXPECT_GT(stats.internal_pages, 0u);
  EXPECT_EQ(stats.file_pages, stats.meta_pages + stats.leaf_pages + stats.internal_pages +
                                  stats.overflow_pages + stats.free_map_pages + stats.free_pages);
  EXPECT_GT(stats.leaf_fill, 0.5);
  EXPECT_LE(stats.leaf_fill, 1.0);
  EXPECT_LT(stats.key_bytes_stored * 2, stats.key_bytes_raw) << "prefix compression";
  EXPECT_GT(stats.commits, 0u);

  // Reorganize: full pages, no free pages, the same data, a smaller file.
  const uint64_t before = FileSize();
  ASSERT_TRUE(db_->Reorganize().ok());
  Stats after;
  ASSERT_TRUE(db_->GetStats(&after).ok());
  EXPECT_EQ(after.entries, 20000u);
  EXPECT_EQ(after.free_pages, 0u);
  EXPECT_GT(after.leaf_fill, 0.95);
  EXPECT_LT(after.leaf_pages, stats.leaf_pages);
  EXPECT_LT(FileSize(), before);
  EXPECT_FALSE(std::filesystem::exists(dir_.File("db.reorg")));
  for (const auto& [k, v] : model_) ASSERT_EQ(Get(k), v);
  // Still writable afterwards, and still after a reopen.
  ASSERT_TRUE(db_->Put("after-reorganize", "x").ok());
  Open(Options());
  EXPECT_EQ(Get("after-reorganize"), "x");
  EXPECT_EQ(db_->Count(), 20001u);
  EXPECT_TRUE(db_->Check().ok());
}

// Reorganize writes the new file in runs that end at its 2 MiB boundaries
// (reorganize.cc, PageAppender): with every page size, a tree of several such
// runs comes back whole.
TEST_F(DbTest, ReorganizeWritesWholeRunsWithEveryPageSize) {
  for (uint32_t page_size : {4096u, 8192u, 16384u, 32768u}) {
    SCOPED_TRACE("page size " + std::to_string(page_size));
    std::filesystem::remove(dir_.File("db"));
    std::filesystem::remove(dir_.File("db-log"));
    Options options;
    options.page_size = page_size;
    Open(options);
    std::unique_ptr<WriteTxn> w;
    ASSERT_TRUE(db_->BeginWrite(&w).ok());
    constexpr uint64_t kKeys = 60000;  // 80-byte values: over 5 MiB of pages, three runs
    auto value = [](uint64_t i) {
      return std::string(72, static_cast<char>('a' + i % 26)) + std::to_string(i);
    };
    for (uint64_t i = 0; i < kKeys; ++i) ASSERT_TRUE(w->Put(UrlKey(i), value(i)).ok());
    ASSERT_TRUE(w->Commit().ok());
    ASSERT_TRUE(db_->Reorganize().ok());
    EXPECT_GT(FileSize(), uint64_t{4} << 20);
    Open(options);
    for (uint64_t i = 0; i < kKeys; ++i) ASSERT_EQ(Get(UrlKey(i)), value(i)) << i;
    EXPECT_EQ(db_->Count(), kKeys);
    EXPECT_TRUE(db_->Check().ok());
  }
}

// Commits through the log change the pages earlier logged commits made as
// new versions under the same page numbers (page_cache.h): readers of every
// older snapshot keep their own version, through aborts, deletes that free
// versioned pages, checkpoints, and a cache too small to hold the file.
TEST_F(DbTest, SnapshotsKeepTheirVersionsOfPagesChangedInPlace) {
  Options options;
  options.cache_bytes = 64 * 4096;  // far smaller than the tree: eviction runs
  Open(options);
  constexpr int kKeys = 3000;
  {
    std::unique_ptr<WriteTxn> w;
    ASSERT_TRUE(db_->BeginWrite(&w).ok());
    for (int i = 0; i < kKeys; ++i) ASSERT_TRUE(w->Put(UrlKey(i), "v0").ok());
    ASSERT_TRUE(w->Commit().ok());
  }
  ASSERT_TRUE(db_->Checkpoint().ok());
  // One reader per round, each pinned after the round's one-key commits to
  // the same few leaves (the first copies the path, the rest make versions).
  std::vector<std::unique_ptr<ReadTxn>> readers;
  for (int round = 1; round <= 6; ++round) {
    for (int i = 0; i < 40; ++i) {
      ASSERT_TRUE(db_->Put(UrlKey(i % 8), "v" + std::to_string(round)).ok());
    }
    if (round == 3) {
      // An aborted transaction that made versions leaves the last commit.
      std::unique_ptr<WriteTxn> w;
      ASSERT_TRUE(db_->BeginWrite(&w).ok());
      for (int i = 0; i < 8; ++i) ASSERT_TRUE(w->Put(UrlKey(i), "aborted").ok());
      ASSERT_TRUE(w->Delete(UrlKey(100)).ok());
      w->Abort();
    }
    if (round == 4) {
      // Deletes that empty and merge versioned leaves free them.
      std::unique_ptr<WriteTxn> w;
      ASSERT_TRUE(db_->BeginWrite(&w).ok());
      for (int i = 1000; i < 1400; ++i) ASSERT_TRUE(w->Delete(UrlKey(i)).ok());
      ASSERT_TRUE(w->Commit().ok());
    }
    if (round == 5) {
      // A transaction too large for the log is a checkpoint: the newest
      // versions go to the file while older snapshots still read theirs.
      std::unique_ptr<WriteTxn> w;
      ASSERT_TRUE(db_->BeginWrite(&w).ok());
      for (int i = 2000; i < 2300; ++i) ASSERT_TRUE(w->Put(UrlKey(i), std::string(4000, 'b')).ok());
      ASSERT_TRUE(w->Commit().ok());
    }
    readers.emplace_back();
    ASSERT_TRUE(db_->BeginRead(&readers.back()).ok());
  }
  std::string value;
  for (size_t r = 0; r < readers.size(); ++r) {
    const std::string want = "v" + std::to_string(r + 1);
    for (int i = 0; i < 8; ++i) {
      ASSERT_TRUE(readers[r]->Get(UrlKey(i), &value).ok()) << r << " " << i;
      EXPECT_EQ(value, want) << "reader " << r << ", key " << i;
    }
    const bool deleted = r >= 3;
    EXPECT_EQ(readers[r]->Get(UrlKey(1200), &value).IsNotFound(), deleted) << r;
    EXPECT_EQ(readers[r]->Count(), static_cast<uint64_t>(deleted ? kKeys - 400 : kKeys));
    uint64_t n = 0;
    std::unique_ptr<Cursor> c = readers[r]->NewCursor();
    for (c->SeekToFirst(); c->Valid(); c->Next()) ++n;
    ASSERT_TRUE(c->status().ok()) << c->status().ToString();
    EXPECT_EQ(n, readers[r]->Count()) << "reader " << r;
  }
  // The oldest readers go first; the versions they needed are given back.
  readers.erase(readers.begin(), readers.begin() + 3);
  for (int i = 0; i < 8; ++i) ASSERT_TRUE(db_->Put(UrlKey(i), "v7").ok());
  ASSERT_TRUE(readers[0]->Get(UrlKey(0), &value).ok());
  EXPECT_EQ(value, "v4");
  readers.clear();
  EXPECT_EQ(Get(UrlKey(5)), "v7");
  EXPECT_EQ(Get(UrlKey(100)), "v0");
  Status check = db_->Check();
  EXPECT_TRUE(check.ok()) << check.ToString();
  // And the log's replay rebuilds the same state.
  Options no_close = options;
  no_close.checkpoint_on_close = false;
  Open(no_close);
  for (int i = 0; i < 8; ++i) ASSERT_TRUE(db_->Put(UrlKey(i), "v8").ok());
  Open(options);
  EXPECT_EQ(Get(UrlKey(3)), "v8");
  EXPECT_EQ(db_->Count(), static_cast<uint64_t>(kKeys - 400));
  EXPECT_TRUE(db_->Check().ok());
}

// One-key commits that land in one part of the tree reuse the last descent's
// path (TreeWriter's finger) while no page changed number or place. Keys on
// both sides of each leaf's bounds, splits, deletes, an abort, a value in
// overflow pages and checkpoints in between must all leave the tree in order.
TEST_F(DbTest, CommitsIntoOneGapKeepTheTreeInOrder) {
  std::map<std::string, std::string> model;
  {
    std::unique_ptr<WriteTxn> w;
    ASSERT_TRUE(db_->BeginWrite(&w).ok());
    for (int i = 0; i < 4000; ++i) {
      const std::string key = "https://www.example.org/base/" + std::to_string(100000 + i * 10);
      ASSERT_TRUE(w->Put(key, "b").ok());
      model[key] = "b";
    }
    ASSERT_TRUE(w->Commit().ok());
  }
  // Keys between base keys 2000 and 2001 ("...120000" and "...120010"), in
  // random order, plus keys just outside the gap on either side.
  std::mt19937 rng(7);
  std::vector<std::string> gap;
  for (int i = 0; i < 3000; ++i) {
    gap.push_back("https://www.example.org/base/120000/" + std::to_string(rng() % 1000000));
  }
  for (size_t i = 0; i < gap.size(); ++i) {
    std::string key = gap[i];
    if (i % 97 == 0) key = "https://www.example.org/base/11999" + std::to_string(i % 10);
    if (i % 89 == 0) key = "https://www.example.org/base/12001" + std::to_string(i % 10);
    const std::string value = i % 500 == 7 ? std::string(3000, 'o') : "g" + std::to_string(i);
    ASSERT_TRUE(db_->Put(key, value).ok()) << i;
    model[key] = value;
    ASSERT_NO_FATAL_FAILURE(Churn(i, gap, gap[i], &model));
    if (i % 1000 == 999) {
      ASSERT_TRUE(db_->Checkpoint().ok());
    }
  }
  ExpectHolds(model);
}

// A one-key commit that the finger's leaf does not cover but its parent does
// (the next directory, the other half of a leaf split in place) searches
// only the parent (TreeWriter::ParentCovers). Walks through neighbouring
// directories of a three-level tree, with jumps elsewhere, splits, deletes,
// aborts, overflow values and checkpoints, must leave the tree in order, and
// the parent must have been used.
TEST_F(DbTest, CommitsBesideTheLastLeafStartAtItsParent) {
  std::map<std::string, std::string> model;
  std::mt19937 rng(11);
  auto file = [&](int dir, const std::string& tail) {
    char name[64];
    std::snprintf(name, sizeof name, "https://www.example.org/d%03d/f", dir);
    return name + tail;
  };
  {
    std::unique_ptr<WriteTxn> w;
    ASSERT_TRUE(db_->BeginWrite(&w).ok());
    for (int dir = 0; dir < 600; ++dir) {
      for (int f = 0; f < 100; ++f) {
        const std::string key = file(dir, std::to_string(100000 + rng() % 900000));
        model[key] = std::string(40, 'b');
        ASSERT_TRUE(w->Put(key, model[key]).ok());
      }
    }
    ASSERT_TRUE(w->Commit().ok());
  }
  Stats before;
  ASSERT_TRUE(db_->GetStats(&before).ok());
  ASSERT_GE(before.depth, 3u) << "the parent finger needs a page above the leaves' parents";
  std::vector<std::string> added;
  for (int i = 0; i < 2400; ++i) {
    // Directories 100, 101, ... in turn, 40 new files each in random order;
    // every 13th put lands in a random directory instead.
    const int dir = i % 13 == 5 ? static_cast<int>(rng() % 600) : 100 + i / 40;
    const std::string key = file(dir, std::to_string(100000 + rng() % 900000) + "n");
    const std::string value = i % 250 == 9 ? std::string(3000, 'o') : "n" + std::to_string(i);
    ASSERT_TRUE(db_->Put(key, value).ok()) << i;
    model[key] = value;
    added.push_back(key);
    ASSERT_NO_FATAL_FAILURE(Churn(i, added, key, &model));
    if (i % 500 == 499) {
      ASSERT_TRUE(db_->Checkpoint().ok());
    }
  }
  Stats after;
  ASSERT_TRUE(db_->GetStats(&after).ok());
  // Seeded: 1,260 from the parent, 463 from the root, 688 none.
  EXPECT_GT(after.descents_from_parent - before.descents_from_parent, 600u);
  EXPECT_GT(after.descents_from_root - before.descents_from_root, 200u);
  EXPECT_GT(after.descents_skipped - before.descents_skipped, 300u);
  ExpectHolds(model);
}

// A lookup whose key lies within the bounds of the leaf that the thread's
// last two lookups found reads that leaf without a descent (btree_read.cc's
// finger). Keys on either side of every leaf's bounds, absent keys, other
// files (of another shape, of the same shape), new commits that split the
// leaf (its number kept, its bounds not), an older snapshot and a write
// transaction's own view must each find their own values.
TEST_F(DbTest, LookupsBesideTheLastLeafFindTheirKeys) {
  std::map<std::string, std::string> model;
  {
    std::unique_ptr<WriteTxn> w;
    ASSERT_TRUE(db_->BeginWrite(&w).ok());
    for (int i = 0; i < 20000; ++i) {
      model[UrlKey(i)] = "v" + std::to_string(i);
      ASSERT_TRUE(w->Put(UrlKey(i), model[UrlKey(i)]).ok());
    }
    ASSERT_TRUE(w->Commit().ok());
  }
  const std::vector<std::pair<std::string, std::string>> sorted(model.begin(), model.end());
  // Another file: every third key, other values, so other leaves and bounds.
  std::unique_ptr<DB> other;
  ASSERT_TRUE(DB::Open(Options(), dir_.File("other"), &other).ok());
  for (size_t i = 0; i < sorted.size(); i += 3) {
    const Status s = other->Put(sorted[i].first, "other");
    ASSERT_TRUE(s.ok()) << s.ToString() << " at " << i;
  }
  std::string value;
  for (size_t i = 1; i + 1 < sorted.size(); ++i) {
    const std::string& key = sorted[i].first;
    ASSERT_EQ(Get(key), sorted[i].second);
    ASSERT_EQ(Get(key), sorted[i].second);
    ASSERT_EQ(Get(sorted[i + 1].first), sorted[i + 1].second) << i;
    ASSERT_EQ(Get(sorted[i - 1].first), sorted[i - 1].second) << i;
    ASSERT_EQ(Get(key + std::string(1, '\0')), "<absent>") << i;
    ASSERT_EQ(Get(key), sorted[i].second);
    if (i % 7 == 0) {
      const Status s = other->Get(key, &value);
      ASSERT_EQ(s.ok(), i % 3 == 0) << i << " " << s.ToString();
      if (s.ok()) {
        ASSERT_EQ(value, "other");
      }
    }
  }
  // Two more files of one commit each, of the same shape (same pages, root
  // and snapshot id) but keys shifted by five: the same leaf number has other
  // bounds in each.
  std::unique_ptr<DB> shifted[2];
  for (int f = 0; f < 2; ++f) {
    ASSERT_TRUE(DB::Open(Options(), dir_.File("shifted" + std::to_string(f)), &shifted[f]).ok());
    std::unique_ptr<WriteTxn> w;
    ASSERT_TRUE(shifted[f]->BeginWrite(&w).ok());
    for (int i = 0; i < 5000; ++i) {
      ASSERT_TRUE(w->Put("key" + std::to_string(100000 + i + 5 * f), "s").ok());
    }
    ASSERT_TRUE(w->Commit().ok());
  }
  for (int i = 5; i < 5000; ++i) {
    const std::string k = "key" + std::to_string(100000 + i);
    ASSERT_TRUE(shifted[0]->Get(k, &value).ok());
    ASSERT_TRUE(shifted[0]->Get(k, &value).ok());
    ASSERT_TRUE(shifted[1]->Get(k, &value).ok()) << k;
  }
  // An older snapshot, then commits that split the leaf of `key` again and
  // again while lookups of it and of the new keys beside it go on.
  std::unique_ptr<ReadTxn> before;
  ASSERT_TRUE(db_->BeginRead(&before).ok());
  const std::string key = sorted[sorted.size() / 2].first;
  for (int i = 0; i < 600; ++i) {
    const std::string fresh = key + "/" + std::to_string(1000 + i);
    ASSERT_EQ(Get(key), model[key]);
    ASSERT_EQ(Get(key), model[key]);
    ASSERT_TRUE(db_->Put(fresh, std::string(40, 'n')).ok());
    ASSERT_EQ(Get(fresh), std::string(40, 'n')) << i;
    ASSERT_EQ(Get(key + "/" + std::to_string(1000 + i / 2)), std::string(40, 'n')) << i;
    ASSERT_TRUE(before->Get(fresh, &value).IsNotFound()) << i;
    ASSERT_TRUE(before->Get(key, &value).ok());
    ASSERT_TRUE(before->Get(key, &value).ok());
    ASSERT_EQ(value, model[key]);
  }
  std::unique_ptr<WriteTxn> w;
  ASSERT_TRUE(db_->BeginWrite(&w).ok());
  for (int i = 0; i < 600; ++i) {
    // The leaf the new key goes to, twice, then the new key, which may split it.
    const std::string last = key + "/w" + std::to_string(999 + i);
    const std::string fresh = key + "/w" + std::to_string(1000 + i);
    ASSERT_EQ(w->Get(last, &value).ok(), i > 0);
    ASSERT_EQ(w->Get(last, &value).ok(), i > 0);
    ASSERT_TRUE(w->Put(fresh, std::string(40, 'w')).ok());
    ASSERT_TRUE(w->Get(fresh, &value).ok()) << i;
  }
}

TEST_F(DbTest, OneKeyCommitsReuseFreedPages) {
  for (int i = 0; i < 2000; ++i) ASSERT_TRUE(db_->Put(UrlKey(i), std::string(40, 'v')).ok());
  ASSERT_TRUE(db_->Checkpoint().ok());
  // A checkpoint needs room for the pages of the previous one (held until it
  // is written) beside its own: the file doubles once at most, then stays
  // put, as each checkpoint's held pages are reused by the next.
  uint64_t size = 0;
  for (int round = 0; round < 5; ++round) {
    for (int i = 0; i < 2000; ++i) ASSERT_TRUE(db_->Put(UrlKey(i), std::string(40, 'w')).ok());
    ASSERT_TRUE(db_->Checkpoint().ok());
    if (round == 0) size = FileSize();
  }
  EXPECT_LE(FileSize(), size + size / 4);
  Stats stats;
  ASSERT_TRUE(db_->GetStats(&stats).ok());
  EXPECT_LE(stats.pages_written / stats.commits, 2u)
      << "one-key commits go to the log; only checkpoints write pages";

  // Without the log, each commit frees the pages of the previous one.
  Options options;
  options.wal = false;
  Open(options);
  size = FileSize();
  for (int round = 0; round < 5; ++round) {
    for (int i = 0; i < 2000; ++i) ASSERT_TRUE(db_->Put(UrlKey(i), std::string(40, 'x')).ok());
  }
  EXPECT_LE(FileSize(), size + size / 4);
  ASSERT_TRUE(db_->GetStats(&stats).ok());
  EXPECT_LE(stats.pages_written / stats.commits, 12u)
      << "a one-key commit writes its root-to-leaf path, the free map and the meta";
}

// With no reader open, a one-key commit changes its leaf in place (no copy)
// unless its leaf has an older version: a commit of a write transaction
// copies the leaves it changes as new versions (so does a split that cannot
// go in place). Those versions must leave at the next commit, or each later
// commit into that leaf copies it again until a group of versions has
// gathered.
TEST_F(DbTest, OneKeyCommitsAfterACopyGoInPlaceWithNoReader) {
  for (int i = 0; i < 2000; ++i) ASSERT_TRUE(db_->Put(UrlKey(i), std::string(40, 'v')).ok());
  Stats before, after;
  ASSERT_TRUE(db_->GetStats(&before).ok());  // a checkpoint
  constexpr int kRounds = 400;
  constexpr int kPutsPerRound = 10;
  for (int round = 0; round < kRounds; ++round) {
    // Decreasing keys: every commit goes to the front of one leaf, which
    // splits every few dozen commits and keeps its number.
    auto key = [&](int j) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "zz/front/%08d", (kRounds - round) * 16 - j);
      return std::string(buf);
    };
    std::unique_ptr<WriteTxn> w;
    ASSERT_TRUE(db_->BeginWrite(&w).ok());
    ASSERT_TRUE(w->Put(key(0), std::string(40, 't')).ok());
    ASSERT_TRUE(w->Commit().ok());  // a new version of the leaf
    for (int j = 1; j <= kPutsPerRound; ++j) {
      ASSERT_TRUE(db_->Put(key(j), std::string(40, 'a')).ok());
    }
  }
  ASSERT_TRUE(db_->GetStats(&after).ok());
  const uint64_t puts = kRounds * kPutsPerRound;
  const uint64_t copied = puts - (after.in_place_commits - before.in_place_commits);
  const uint64_t splits = after.leaf_pages - before.leaf_pages;
  ASSERT_GT(splits, 40u);
  // At most a split, and the first commit into a leaf after the checkpoint.
  EXPECT_LE(copied, splits + 4) << splits << " splits";
  EXPECT_TRUE(db_->Check().ok());
}

// A one-key commit whose leaf is full splits it in place too, with its
// parent, when no reader is open: only the first commit into a leaf after
// the checkpoint copies pages, and one whose parent is full as well. A
// reader open over the same commits keeps them from changing anything in
// place, and its snapshot stays whole; the log replays them after a crash.
TEST_F(DbTest, LeafSplitsGoInPlaceWithNoReaderAndNotUnderOne) {
  const std::string value(40, 'v');
  for (int i = 0; i < 2000; ++i) ASSERT_TRUE(db_->Put(UrlKey(i), value).ok());
  auto front_puts = [&](char tag, int n, uint64_t* copied, uint64_t* splits) {
    Stats before, after;
    ASSERT_TRUE(db_->GetStats(&before).ok());  // a checkpoint
    for (int i = n; i > 0; --i) {
      // Decreasing keys: every commit goes to the front of one leaf, which
      // splits every few dozen commits.
      char key[32];
      std::snprintf(key, sizeof key, "zz/%c/%08d", tag, i);
      ASSERT_TRUE(db_->Put(key, value).ok());
    }
    ASSERT_TRUE(db_->GetStats(&after).ok());
    *copied = n - (after.in_place_commits - before.in_place_commits);
    *splits = after.leaf_pages - before.leaf_pages;
  };
  constexpr int kCommits = 4000;
  uint64_t copied = 0, splits = 0;
  front_puts('a', kCommits, &copied, &splits);
  ASSERT_GT(splits, 40u);
  // The first commit copies the path; a split whose parent is full, or
  // that makes a new root, goes the usual way (about one in 60 here).
  EXPECT_LE(copied, 4 + splits / 10) << splits << " splits";
  EXPECT_TRUE(db_->Check().ok());

  std::unique_ptr<ReadTxn> reader;
  ASSERT_TRUE(db_->BeginRead(&reader).ok());
  const uint64_t seen = reader->Count();
  front_puts('b', kCommits, &copied, &splits);
  ASSERT_GT(splits, 40u);
  EXPECT_EQ(copied, static_cast<uint64_t>(kCommits)) << "a reader is open";
  EXPECT_EQ(reader->Count(), seen);
  std::unique_ptr<Cursor> c = reader->NewCursor();
  uint64_t n = 0;
  for (c->SeekToFirst(); c->Valid(); c->Next()) {
    EXPECT_NE(c->key().substr(0, 5), Slice("zz/b/"));
    ++n;
  }
  EXPECT_TRUE(c->status().ok());
  EXPECT_EQ(n, seen);
  c.reset();
  reader.reset();

  // In-place splits after the last checkpoint, then the files as a crash
  // of the process leaves them (the log holds the commits).
  ASSERT_TRUE(db_->Checkpoint().ok());
  for (int i = kCommits; i > 0; --i) {
    char key[32];
    std::snprintf(key, sizeof key, "zz/c/%08d", i);
    ASSERT_TRUE(db_->Put(key, value).ok());
  }
  const std::vector<uint8_t> db_copy = testing::ReadAll(dir_.File("db"));
  const std::vector<uint8_t> log_copy = testing::ReadAll(dir_.File("db") + "-log");
  db_.reset();
  testing::WriteAll(dir_.File("db"), db_copy);
  testing::WriteAll(dir_.File("db") + "-log", log_copy);
  Open(Options());
  EXPECT_EQ(db_->Count(), 2000u + 3 * kCommits);
  for (char tag : {'a', 'b', 'c'}) {
    for (int i = 1; i <= kCommits; i += 97) {
      char key[32];
      std::snprintf(key, sizeof key, "zz/%c/%08d", tag, i);
      EXPECT_EQ(Get(key), value) << key;
    }
  }
  EXPECT_TRUE(db_->Check().ok());
}

// Increasing keys put one per commit into a gap between two keys of the
// tree fill their leaves as full as at the tree's right edge: a split by a
// put right after the leaf's last put cuts at the new key, which ends the
// left half (the keys after the gap move to the new page). Any other split
// cuts at the middle as before.
TEST_F(DbTest, SequentialPutsIntoAGapFillTheirLeaves) {
  auto key = [](char prefix, int i) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%c/https://example.org/catalog/item-%08d", prefix, i);
    return std::string(buf);
  };
  const std::string value(40, 'v');
  {
    std::unique_ptr<WriteTxn> w;
    ASSERT_TRUE(db_->BeginWrite(&w).ok());
    for (int i = 0; i < 2000; ++i) {
      ASSERT_TRUE(w->Put(key('a', i), value).ok());
      ASSERT_TRUE(w->Put(key('c', i), value).ok());
    }
    ASSERT_TRUE(w->Commit().ok());
  }
  constexpr int kPuts = 3000;
  auto leaves_added = [&](char prefix) {
    Stats before, after;
    EXPECT_TRUE(db_->GetStats(&before).ok());
    for (int i = 0; i < kPuts; ++i) EXPECT_TRUE(db_->Put(key(prefix, i), value).ok());
    EXPECT_TRUE(db_->GetStats(&after).ok());
    return after.leaf_pages - before.leaf_pages;
  };
  const uint64_t gap = leaves_added('b');   // between the a- and c-keys
  const uint64_t edge = leaves_added('d');  // after every key
  ASSERT_GT(edge, 30u);
  // A cut at the middle would leave ~2x as many leaves in the gap.
  EXPECT_LE(gap, edge + edge / 8 + 2) << "edge " << edge;
  for (int i = 0; i < kPuts; i += 97) EXPECT_EQ(Get(key('b', i)), value);
  EXPECT_EQ(db_->Count(), uint64_t{4000 + 2 * kPuts});
  EXPECT_TRUE(db_->Check().ok());
}

TEST_F(DbTest, TransactionsLargerThanTheCache) {
  Options options;
  options.cache_bytes = 16 * 4096;  // far below one transaction's dirty pages
  Open(options);
  for (int round = 0; round < 3; ++round) {
    std::unique_ptr<WriteTxn> w;
    ASSERT_TRUE(db_->BeginWrite(&w).ok());
    for (int i = 0; i < 20000; ++i) {
      ASSERT_TRUE(w->Put(UrlKey(i), std::string(500 + round, 'x')).ok());
    }
    ASSERT_TRUE(w->Commit().ok());
  }
  for (int i = 0; i < 20000; i += 97) EXPECT_EQ(Get(UrlKey(i)), std::string(502, 'x'));
  Stats stats;
  ASSERT_TRUE(db_->GetStats(&stats).ok());
  EXPECT_LE(stats.cached_pages, 16u) << "the cache shrinks back after each commit";
  EXPECT_TRUE(db_->Check().ok());
}

TEST_F(DbTest, SyncModeCommitSyncsEveryCommit) {
  Options options;
  options.sync = SyncMode::kCommit;
  Open(options);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(db_->Put(UrlKey(i), "v").ok());
  Stats stats;
  ASSERT_TRUE(db_->GetStats(&stats).ok());
  EXPECT_EQ(stats.syncs, 5u + 2u) << "the log at each commit, then GetStats's checkpoint: "
                                     "pages, then meta";
  options.wal = false;
  Open(options);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(db_->Put(UrlKey(i), "v").ok());
  ASSERT_TRUE(db_->GetStats(&stats).ok());
  EXPECT_EQ(stats.syncs, 10u) << "without the log: pages, then meta";
  Open(Options());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(db_->Put(UrlKey(i), "v").ok());
  ASSERT_TRUE(db_->GetStats(&stats).ok());
  EXPECT_EQ(stats.syncs, 0u) << "sync=none never fsyncs";
}

// With sync=commit the log's file grows by its own size (64 KiB first) in
// written zeros, made durable by the fdatasync of the commit that needed
// them; the commits replay from it after a crash (the log left as it is).
TEST_F(DbTest, SyncModeLogDoublesAndReplays) {
  Options options;
  options.sync = SyncMode::kCommit;
  options.checkpoint_on_close = false;
  Open(options);
  const std::string log = dir_.File("db") + "-log";
  const std::string value(1000, 'v');
  ASSERT_TRUE(db_->Put(UrlKey(0), value).ok());
  EXPECT_EQ(std::filesystem::file_size(log), 64u << 10) << "a new log starts at 64 KiB";
  std::vector<uint64_t> sizes;
  int commits = 1;
  for (; commits < 200; ++commits) {
    ASSERT_TRUE(db_->Put(UrlKey(commits), value).ok());
    const uint64_t size = std::filesystem::file_size(log);
    if (sizes.empty() || sizes.back() != size) sizes.push_back(size);
  }
  // ~200 KiB of records: 64 KiB, then 128 and 256.
  EXPECT_EQ(sizes, (std::vector<uint64_t>{64u << 10, 128u << 10, 256u << 10}));
  Stats stats;
  db_.reset();  // no checkpoint: every commit is in the log only
  options.checkpoint_on_close = true;
  Open(options);
  for (int i = 0; i < commits; ++i) ASSERT_EQ(Get(UrlKey(i)), value) << i;
  ASSERT_TRUE(db_->GetStats(&stats).ok());
  EXPECT_EQ(stats.entries, static_cast<uint64_t>(commits));
  EXPECT_TRUE(db_->Check().ok());
  // sync=none: a thread writes the zeros ahead of the records, in 256 KiB
  // steps, up to 1 MiB past the last record's end (rounded up to a step).
  // The writer waits only for the step under the record it appends.
  Open(Options());
  ASSERT_TRUE(db_->Put(UrlKey(0), "v").ok());
  EXPECT_GE(std::filesystem::file_size(log), 256u << 10);
  EXPECT_LE(std::filesystem::file_size(log), 1280u << 10);
  // ~300 KiB of records.
  for (int i = 1; i < 300; ++i) ASSERT_TRUE(db_->Put(UrlKey(i), value).ok());
  EXPECT_GE(std::filesystem::file_size(log), 512u << 10);
  EXPECT_LE(std::filesystem::file_size(log), 1536u << 10);
  // It stops at the log's truncation: nothing is written after it.
  ASSERT_TRUE(db_->Checkpoint().ok());
  EXPECT_EQ(std::filesystem::file_size(log), 0u);
  db_.reset();
  EXPECT_EQ(std::filesystem::file_size(log), 0u);
}

// The log's zeros are written ahead by a thread (sync=none). When it cannot
// write them (a full disk; here a file size limit, EFBIG), the commit that
// needs the room fails, loudly, having changed nothing, and every commit
// acknowledged is there after reopening.
TEST_F(DbTest, ALogThatCannotGrowFailsTheCommitThatNeedsTheRoom) {
  const std::string value(1000, 'v');
  ASSERT_TRUE(db_->Put(UrlKey(0), value).ok());
  rlimit old;
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
  rlimit limited = old;
  limited.rlim_cur = 2u << 20;  // writes past 2 MiB fail
  auto* old_handler = std::signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
  int acknowledged = 1;
  Status failed;
  for (; acknowledged < 10000; ++acknowledged) {
    failed = db_->Put(UrlKey(acknowledged), value);
    if (!failed.ok()) break;
  }
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);
  ASSERT_FALSE(failed.ok()) << "10,000 commits of 1 KB fit under a 2 MiB limit";
  EXPECT_TRUE(failed.IsIOError()) << failed.ToString();
  EXPECT_NE(failed.ToString().find("-log"), std::string::npos) << failed.ToString();
  // ~1 KB per record: the log reached about the limit.
  EXPECT_GT(acknowledged, 1000);
  EXPECT_LT(acknowledged, 2100);
  // The failed commit changed nothing: a smaller one may still fit the room
  // that is ready; one that needs more fails the same way.
  const bool small_acknowledged = db_->Put("small", "x").ok();
  EXPECT_FALSE(db_->Put("large", std::string(300u << 10, 'x')).ok());
  Open(Options());
  for (int i = 0; i < acknowledged; ++i) ASSERT_EQ(Get(UrlKey(i)), value) << i;
  EXPECT_EQ(Get(UrlKey(acknowledged)), "<absent>");
  EXPECT_EQ(Get("small"), small_acknowledged ? "x" : "<absent>");
  EXPECT_EQ(Get("large"), "<absent>");
  EXPECT_TRUE(db_->Check().ok());
}

// Huge pages behind the read mapping: asked for on a small file unless
// turned off (or there is no mapping); only a kernel without transparent huge
// pages refuses them.
TEST_F(DbTest, HugeMappingFollowsItsOption) {
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(db_->Put(UrlKey(i), "v").ok());
  Stats stats;
  ASSERT_TRUE(db_->GetStats(&stats).ok());
  if (std::filesystem::exists("/sys/kernel/mm/transparent_hugepage/enabled")) {
    EXPECT_TRUE(stats.huge_mapping) << "a file far below a quarter of memory";
  }
  Options options;
  options.huge_mapping = false;
  Open(options);
  ASSERT_TRUE(db_->GetStats(&stats).ok());
  EXPECT_FALSE(stats.huge_mapping);
  EXPECT_EQ(Get(UrlKey(7)), "v");
  options = Options();
  options.mmap_reads = false;
  Open(options);
  ASSERT_TRUE(db_->GetStats(&stats).ok());
  EXPECT_FALSE(stats.huge_mapping) << "no mapping, no huge pages";
  EXPECT_EQ(Get(UrlKey(7)), "v");
  // A new (empty) file too.
  options = Options();
  options.huge_mapping = false;
  std::unique_ptr<DB> empty;
  ASSERT_TRUE(DB::Open(options, dir_.File("new"), &empty).ok());
  ASSERT_TRUE(empty->GetStats(&stats).ok());
  EXPECT_FALSE(stats.huge_mapping);
}

TEST_F(DbTest, ReadOnlyHandles) {
  ASSERT_TRUE(db_->Put("k", "v").ok());
  db_.reset();
  Options options;
  options.read_only = true;
  std::unique_ptr<DB> a, b;
  ASSERT_TRUE(DB::Open(options, dir_.File("db"), &a).ok());
  ASSERT_TRUE(DB::Open(options, dir_.File("db"), &b).ok()) << "readers share the file";
  std::string value;
  EXPECT_TRUE(b->Get("k", &value).ok());
  EXPECT_TRUE(a->Put("k", "w").IsNotSupported());
  EXPECT_TRUE(a->Reorganize().IsNotSupported());
}

// Removing the first child of an internal page rebuilds the page, which can
// need more bytes than the page had: in-place inserts let restart blocks grow
// to twice the interval. Long keys (one per leaf) with restart interval 1
// make every internal page such a page; deleting the keys in order removes
// first children again and again. No key may get lost.
TEST_F(DbTest, DeletingFirstChildrenOfFullInternalPagesLosesNothing) {
  Options options;
  options.leaf_restart_interval = 1;
  options.internal_restart_interval = 1;
  Open(options);
  std::vector<std::string> keys;
  for (int i = 0; i < 2000; ++i) {
    keys.push_back("https://www.example.org/archive/long/" + std::to_string(i) +
                   std::string(kMaxKeySize - 50, 'L'));
  }
  std::mt19937_64 rng(3);
  std::shuffle(keys.begin(), keys.end(), rng);
  for (const std::string& k : keys) ASSERT_TRUE(db_->Put(k, "v").ok());
  std::sort(keys.begin(), keys.end());
  for (size_t i = 0; i < keys.size(); ++i) {
    ASSERT_TRUE(db_->Delete(keys[i]).ok()) << i;
    ASSERT_EQ(db_->Count(), keys.size() - i - 1);
    if (i % 50 == 0) {
      Status s = db_->Check();
      ASSERT_TRUE(s.ok()) << i << ": " << s.ToString();
    }
  }
}

}  // namespace
}  // namespace pbtree
