// Readers on several threads while one writer commits (issue 22): every
// reader must see whole commits only, snapshots must never go back in time,
// and nothing may be lost or corrupted while pages are freed, reused and
// evicted under the readers' feet (a cache far smaller than the file).
//
// The writer commits batches. Batch v sets every "group" key (spread over the
// whole key range, so over many leaves) to version v, inserts 50 new keys and
// deletes the 50 it inserted two batches before (splits, merges, freed and
// reused pages). Readers check, each on its own snapshot:
//   ReadTxn   every group key carries the same version, not older than the
//             version this reader saw before; a cursor of the transaction
//             visits exactly Count() keys, in order.
//   Cursor    a DB cursor seeks to every group key in turn (and steps past
//             it): one version on all of them, never older than before.
//   DB::Get   versions read one after the other never go back.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <initializer_list>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engines/pbtree/pbtree.h"
#include "engines/pbtree/test_util.h"

namespace pbtree {
namespace {

using testing::ScratchDir;

constexpr int kBaseKeys = 20000;
constexpr int kGroupEvery = 400;  // every 400th base key is a group key: 50 of them
constexpr int kChurn = 50;

// Long unshared tails (few keys per leaf) give the tree three levels or more,
// so readers and the writer meet on internal pages below the root too.
std::string BaseKey(int i) {
  char buf[96];
  std::snprintf(buf, sizeof(buf), "https://www.example.org/catalog/section-%03d/item-%08d-", i % 97,
                i);
  return std::string(buf) + std::string(120, static_cast<char>('a' + i % 26)) + ".html";
}
std::string ChurnKey(int batch, int i) {
  char buf[96];
  std::snprintf(buf, sizeof(buf), "https://www.example.org/catalog/section-%03d/new-%06d-%02d",
                (batch * 31 + i) % 97, batch, i);
  return buf;
}
std::string Versioned(uint64_t v) {
  std::string value = std::to_string(v);
  value.insert(0, 1, 'v');
  return value.append(30, '.');
}
uint64_t VersionOf(Slice value) { return std::stoull(std::string(value.substr(1))); }

// Parameter: PagerOptions::mmap_reads (committed pages through the mapping,
// or through pread into the cache).
class ConcurrencyTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    Options options;
    options.cache_bytes = 64 * 4096;  // far below the file: constant eviction
    options.mmap_reads = GetParam();
    ASSERT_TRUE(DB::Open(options, dir_.File("db"), &db_).ok());
    std::unique_ptr<WriteTxn> txn;
    ASSERT_TRUE(db_->BeginWrite(&txn).ok());
    for (int i = 0; i < kBaseKeys; ++i) {
      ASSERT_TRUE(txn->Put(BaseKey(i), i % kGroupEvery == 0 ? Versioned(0) : "base").ok());
    }
    ASSERT_TRUE(txn->Commit().ok());
    for (int i = 0; i < kBaseKeys; i += kGroupEvery) group_.push_back(BaseKey(i));
    Stats stats;
    ASSERT_TRUE(db_->GetStats(&stats).ok());
    ASSERT_GE(stats.depth, 3u);
  }

  // Commits `batches` batches; returns the first error.
  Status Write(int batches) {
    for (int v = 1; v <= batches; ++v) {
      std::unique_ptr<WriteTxn> txn;
      PBTREE_RETURN_IF_ERROR(db_->BeginWrite(&txn));
      for (const std::string& key : group_) PBTREE_RETURN_IF_ERROR(txn->Put(key, Versioned(v)));
      for (int i = 0; i < kChurn; ++i) {
        PBTREE_RETURN_IF_ERROR(txn->Put(ChurnKey(v, i), std::string(20 + i * 3, 'x')));
        if (v > 2) PBTREE_RETURN_IF_ERROR(txn->Delete(ChurnKey(v - 2, i)));
      }
      PBTREE_RETURN_IF_ERROR(txn->Commit());
      written_.store(v, std::memory_order_release);
    }
    return Status::OK();
  }

  ScratchDir dir_;
  std::unique_ptr<DB> db_;
  std::vector<std::string> group_;
  std::atomic<int> written_{0};
};

// One reader's findings.
struct Findings {
  uint64_t snapshots = 0;
  std::string problem;  // the first one
  void Fail(const std::string& what) {
    if (problem.empty()) problem = what;
  }
};

// Stops the reader threads and expects none of them found a problem.
void StopReaders(std::atomic<bool>* stop, std::vector<std::thread>* threads,
                 std::initializer_list<const Findings*> findings) {
  stop->store(true);
  for (std::thread& t : *threads) t.join();
  for (const Findings* f : findings) EXPECT_EQ(f->problem, "");
}

void CheckTransactions(DB* db, const std::vector<std::string>& group, const std::atomic<bool>& stop,
                       Findings* out) {
  uint64_t last = 0;
  std::string value;
  while (!stop.load() && out->problem.empty()) {
    std::unique_ptr<ReadTxn> txn;
    Status s = db->BeginRead(&txn);
    if (!s.ok()) return out->Fail("BeginRead: " + s.ToString());
    uint64_t version = UINT64_MAX;
    for (const std::string& key : group) {
      s = txn->Get(key, &value);
      if (!s.ok()) return out->Fail("ReadTxn::Get: " + s.ToString());
      const uint64_t v = VersionOf(value);
      if (version == UINT64_MAX) version = v;
      if (v != version) return out->Fail("a read transaction saw two batches");
    }
    if (version < last) return out->Fail("a newer read transaction saw an older batch");
    last = version;
    std::unique_ptr<Cursor> c = txn->NewCursor();
    uint64_t n = 0;
    std::string previous;
    for (c->SeekToFirst(); c->Valid(); c->Next(), ++n) {
      if (n > 0 && !(Slice(previous) < c->key())) return out->Fail("cursor keys out of order");
      previous.assign(c->key());
    }
    if (!c->status().ok()) return out->Fail("cursor: " + c->status().ToString());
    if (n != txn->Count()) {
      return out->Fail("a cursor visited " + std::to_string(n) + " keys, Count() says " +
                       std::to_string(txn->Count()));
    }
    ++out->snapshots;
  }
}

void CheckCursors(DB* db, const std::vector<std::string>& group, const std::atomic<bool>& stop,
                  Findings* out) {
  uint64_t last = 0;
  while (!stop.load() && out->problem.empty()) {
    std::unique_ptr<Cursor> c = db->NewCursor();
    uint64_t version = UINT64_MAX;
    size_t seen = 0;
    for (const std::string& key : group) {
      c->Seek(key);
      if (!c->Valid() || c->key() != Slice(key)) return out->Fail("a group key is missing");
      const uint64_t v = VersionOf(c->value());
      if (version == UINT64_MAX) version = v;
      if (v != version) return out->Fail("a cursor saw two batches");
      c->Next();  // moves across leaves too
      ++seen;
    }
    if (!c->status().ok()) return out->Fail("cursor: " + c->status().ToString());
    if (version < last) return out->Fail("a newer cursor saw an older batch");
    last = version;
    out->snapshots += seen == group.size();
  }
}

void CheckGets(DB* db, const std::vector<std::string>& group, const std::atomic<bool>& stop,
               Findings* out) {
  uint64_t last = 0;
  std::string value;
  size_t i = 0;
  while (!stop.load() && out->problem.empty()) {
    // Each key three times: the third get reads its leaf through the
    // thread's finger (btree_read.cc) when no commit came in between.
    Status s = db->Get(group[i++ / 3 % group.size()], &value);
    if (!s.ok()) return out->Fail("Get: " + s.ToString());
    const uint64_t v = VersionOf(value);
    if (v < last) return out->Fail("a later Get saw an older batch");
    last = v;
    ++out->snapshots;
  }
}

TEST_P(ConcurrencyTest, ReadersSeeWholeCommitsWhileTheWriterCommits) {
  constexpr int kBatches = 150;
  std::atomic<bool> stop{false};
  Findings txns, cursors, gets;
  std::vector<std::thread> threads;
  threads.emplace_back(CheckTransactions, db_.get(), std::cref(group_), std::cref(stop), &txns);
  threads.emplace_back(CheckCursors, db_.get(), std::cref(group_), std::cref(stop), &cursors);
  threads.emplace_back(CheckGets, db_.get(), std::cref(group_), std::cref(stop), &gets);
  Status written = Write(kBatches);
  StopReaders(&stop, &threads, {&txns, &cursors, &gets});
  ASSERT_TRUE(written.ok()) << written.ToString();
  EXPECT_GT(txns.snapshots, 0u);
  EXPECT_GT(cursors.snapshots, 0u);
  EXPECT_GT(gets.snapshots, 0u);
  std::fprintf(stderr, "snapshots checked: %llu transactions, %llu cursors, %llu gets\n",
               static_cast<unsigned long long>(txns.snapshots),
               static_cast<unsigned long long>(cursors.snapshots),
               static_cast<unsigned long long>(gets.snapshots));

  // The end state: the last batch everywhere, the churn of the last two
  // batches only, and a file that passes the full check.
  std::string value;
  for (const std::string& key : group_) {
    ASSERT_TRUE(db_->Get(key, &value).ok());
    EXPECT_EQ(VersionOf(value), static_cast<uint64_t>(kBatches));
  }
  EXPECT_EQ(db_->Count(), static_cast<uint64_t>(kBaseKeys + 2 * kChurn));
  Status check = db_->Check();
  EXPECT_TRUE(check.ok()) << check.ToString();
}

// Reads pinned at an old snapshot keep it whole while the writer goes on:
// the pages it reaches are not reused under it.
TEST_P(ConcurrencyTest, AnOldSnapshotStaysWholeAcrossManyCommits) {
  std::unique_ptr<ReadTxn> old;
  ASSERT_TRUE(db_->BeginRead(&old).ok());
  std::unique_ptr<Cursor> old_cursor = old->NewCursor();
  old.reset();  // the cursor pins the snapshot on its own
  std::thread writer([&] { ASSERT_TRUE(Write(40).ok()); });
  writer.join();
  const std::set<std::string> group(group_.begin(), group_.end());
  uint64_t n = 0, group_seen = 0;
  for (old_cursor->SeekToFirst(); old_cursor->Valid(); old_cursor->Next(), ++n) {
    if (group.contains(std::string(old_cursor->key()))) {
      ASSERT_EQ(VersionOf(old_cursor->value()), 0u);
      ++group_seen;
    } else {
      ASSERT_EQ(old_cursor->value(), Slice("base"));
    }
  }
  ASSERT_TRUE(old_cursor->status().ok()) << old_cursor->status().ToString();
  EXPECT_EQ(n, static_cast<uint64_t>(kBaseKeys));
  EXPECT_EQ(group_seen, group.size());
}

// A group value as Versioned wrote it, or false (a torn or foreign value).
bool ParseVersioned(Slice value, uint64_t* v) {
  if (value.size() < 32 || value[0] != 'v' ||
      value.substr(value.size() - 30) != Slice(std::string(30, '.'))) {
    return false;
  }
  const Slice digits = value.substr(1, value.size() - 31);
  *v = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
    *v = *v * 10 + static_cast<uint64_t>(c - '0');
  }
  return true;
}

// One-key commits (DB::Put) change their leaf in place while no reader is
// there (pager.h, "In place"), so readers that arrive meanwhile must wait for
// the commit, never read the leaf half changed, and see one-key commits in
// their order. The writer sets ten group keys (few leaves: few checkpoints
// in this small cache) to round v one at a time. In even rounds readers work
// without a pause (the writer mostly copies). Odd rounds start once every
// reader waits for the next round, so the writer is alone and changes leaves
// in place, and the readers come back in while it still does. An even round
// ends once some reader has finished a check in it. Each snapshot
// must show the keys, in the order written, at versions that do not grow and
// span at most one round (v, ..., v, v-1, ..., v-1); Gets of one key never go
// back.
TEST_P(ConcurrencyTest, OneKeyCommitsInPlaceShowReadersWholeCommitsInOrder) {
  constexpr int kRounds = 60;
  constexpr int kReaders = 3;
  constexpr int kFillers = 4;  // new keys put after each group key's commit
  group_.resize(10);
  std::atomic<int> round{0};
  std::atomic<int> away{0};         // readers waiting for the next round, or ended
  std::atomic<int> ended{0};        // readers that ended
  std::atomic<uint64_t> checks{0};  // checks passed, all readers
  std::atomic<bool> stop{false};
  auto check_snapshot = [&](const std::vector<uint64_t>& versions, Findings* out) {
    for (size_t i = 1; i < versions.size(); ++i) {
      if (versions[i] > versions[i - 1] || versions[0] - versions[i] > 1) {
        out->Fail("a snapshot saw one-key commits out of order, key " + std::to_string(i));
        return false;
      }
    }
    ++out->snapshots;
    return true;
  };
  // Runs `check` while the round is even; waits out odd rounds.
  auto reader = [&](Findings* out, const std::function<bool(Findings*)>& check) {
    while (!stop.load() && out->problem.empty()) {
      const int r = round.load();
      if (r % 2 == 1) {
        ++away;
        while (round.load() == r && !stop.load()) std::this_thread::yield();
        --away;
        continue;
      }
      if (!check(out)) break;
      ++checks;
    }
    ++away;
    ++ended;
  };
  auto transaction_check = [&](Findings* out) {
    std::unique_ptr<ReadTxn> txn;
    Status s = db_->BeginRead(&txn);
    if (!s.ok()) return out->Fail("BeginRead: " + s.ToString()), false;
    std::vector<uint64_t> versions;
    std::string value;
    for (const std::string& key : group_) {
      uint64_t v;
      s = txn->Get(key, &value);
      if (!s.ok()) return out->Fail("ReadTxn::Get: " + s.ToString()), false;
      if (!ParseVersioned(value, &v)) return out->Fail("a torn value: " + value), false;
      versions.push_back(v);
    }
    return check_snapshot(versions, out);
  };
  auto cursor_check = [&](Findings* out) {
    std::unique_ptr<Cursor> c = db_->NewCursor();
    std::vector<uint64_t> versions;
    for (const std::string& key : group_) {
      uint64_t v;
      c->Seek(key);
      if (!c->Valid() || c->key() != Slice(key)) return out->Fail("a group key is missing"), false;
      if (!ParseVersioned(c->value(), &v)) return out->Fail("a torn value"), false;
      versions.push_back(v);
    }
    if (!c->status().ok()) return out->Fail("cursor: " + c->status().ToString()), false;
    return check_snapshot(versions, out);
  };
  std::vector<uint64_t> last(group_.size(), 0);
  size_t next = 0;
  auto get_check = [&](Findings* out) {
    const size_t i = next++ % group_.size();
    std::string value;
    uint64_t v;
    Status s = db_->Get(group_[i], &value);
    if (!s.ok()) return out->Fail("Get: " + s.ToString()), false;
    if (!ParseVersioned(value, &v)) return out->Fail("a torn value: " + value), false;
    if (v < last[i]) return out->Fail("a later Get saw an older commit"), false;
    last[i] = v;
    ++out->snapshots;
    return true;
  };
  Findings txns, cursors, gets;
  std::vector<std::thread> threads;
  threads.emplace_back(reader, &txns, transaction_check);
  threads.emplace_back(reader, &cursors, cursor_check);
  threads.emplace_back(reader, &gets, get_check);
  Stats before;
  ASSERT_TRUE(db_->GetStats(&before).ok());
  Status written;
  for (int v = 1; v <= kRounds && written.ok(); ++v) {
    const uint64_t checks_before = checks.load();
    round.store(v);
    while (v % 2 == 1 && away.load() < kReaders) std::this_thread::yield();
    for (const std::string& key : group_) {
      written = db_->Put(key, Versioned(static_cast<uint64_t>(v)));
      // New keys right after it: its leaf fills and splits every few
      // rounds, in place when the writer is alone, with the group key on
      // either side of the cut.
      for (int j = 0; j < kFillers && written.ok(); ++j) {
        written = db_->Put(key + "/" + std::to_string(v * kFillers + j), std::string(40, 'f'));
      }
      if (!written.ok()) break;
    }
    while (v % 2 == 0 && checks.load() == checks_before && ended.load() < kReaders) {
      std::this_thread::yield();
    }
  }
  StopReaders(&stop, &threads, {&txns, &cursors, &gets});
  ASSERT_TRUE(written.ok()) << written.ToString();
  EXPECT_GT(txns.snapshots + cursors.snapshots + gets.snapshots, 0u);
  Stats after;
  ASSERT_TRUE(db_->GetStats(&after).ok());
  const uint64_t in_place = after.in_place_commits - before.in_place_commits;
  const size_t commits = kRounds * group_.size() * (1 + kFillers);
  const uint64_t splits = after.leaf_pages - before.leaf_pages;
  std::fprintf(stderr,
               "snapshots checked: %llu transactions, %llu cursors, %llu gets; %llu of %zu commits "
               "in place; %llu leaf splits\n",
               static_cast<unsigned long long>(txns.snapshots),
               static_cast<unsigned long long>(cursors.snapshots),
               static_cast<unsigned long long>(gets.snapshots),
               static_cast<unsigned long long>(in_place), commits,
               static_cast<unsigned long long>(splits));
  // Half the rounds start without readers: their commits go in place, but
  // for a leaf's first change after a checkpoint or a copy.
  EXPECT_GE(in_place, commits / 4);
  EXPECT_GE(splits, 20u);
  std::string value;
  uint64_t v;
  for (const std::string& key : group_) {
    ASSERT_TRUE(db_->Get(key, &value).ok());
    ASSERT_TRUE(ParseVersioned(value, &v));
    EXPECT_EQ(v, static_cast<uint64_t>(kRounds));
  }
  Status check = db_->Check();
  EXPECT_TRUE(check.ok()) << check.ToString();
}

std::string ZKey(int i) {
  char buf[48];
  std::snprintf(buf, sizeof(buf), "https://www.example.org/z%03d", i);
  return buf;
}

TEST_P(ConcurrencyTest, ASecondWriterGetsBusyAndManyCursorsMayBeOpen) {
  std::unique_ptr<WriteTxn> txn;
  ASSERT_TRUE(db_->BeginWrite(&txn).ok());
  Status second;
  std::thread other([&] {
    std::unique_ptr<WriteTxn> t;
    second = db_->BeginWrite(&t);
  });
  other.join();
  EXPECT_TRUE(second.IsBusy()) << second.ToString();
  txn->Abort();

  // More cursors than one block of reader slots, each on its own snapshot.
  std::vector<std::unique_ptr<Cursor>> cursors;
  for (int i = 0; i < 200; ++i) {
    if (i % 50 == 0) {
      ASSERT_TRUE(db_->Put(ZKey(i), "z").ok());
    }
    cursors.push_back(db_->NewCursor());
  }
  EXPECT_TRUE(db_->Reorganize().IsBusy());
  for (size_t i = 0; i < cursors.size(); ++i) {
    cursors[i]->SeekToLast();
    ASSERT_TRUE(cursors[i]->Valid());
    EXPECT_EQ(cursors[i]->key(), Slice(ZKey(static_cast<int>(i) / 50 * 50))) << i;
  }
  cursors.clear();
  Status s = db_->Reorganize();
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(db_->Check().ok());
}

INSTANTIATE_TEST_SUITE_P(ReadPaths, ConcurrencyTest, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "mmap" : "pread";
                         });

}  // namespace
}  // namespace pbtree
