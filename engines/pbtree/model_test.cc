// Model test: random puts, overwrites, deletes, reads, scans, skips, read
// snapshots, commits, aborts, reopens and reorganizations, checked against a
// std::map after every commit (full scan both ways) and with DB::Check.
// Reopens leave the log to the next open's replay half of the time (as a
// crash would); seeds divisible by 3 checkpoint every 8 KiB of log, so that
// logged commits, checkpoints and replays interleave; one seed runs without
// the log.
//
// The issue asks for 1,000,000 operations; they are split across the seeds
// below (PBTREE_MODEL_OPS overrides the total, e.g. to run more).
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>

#include "engines/pbtree/pbtree.h"
#include "engines/pbtree/test_util.h"

namespace pbtree {
namespace {

using Map = std::map<std::string, std::string>;
using testing::ScratchDir;

uint64_t TotalOps() {
  const char* env = std::getenv("PBTREE_MODEL_OPS");
  return env != nullptr ? std::strtoull(env, nullptr, 10) : 1000000;
}

struct ModelParams {
  uint64_t seed;
  uint32_t page_size;
  uint32_t key_space;
  uint32_t restart_interval;
  uint32_t cache_pages;  // small caches make reads go to disk and evict
  uint32_t max_txn_ops;  // transactions have 1..max_txn_ops operations
  bool mmap_reads = true;  // false: every read through pread into the cache
  bool wal = true;         // false: every commit writes its pages
};

class ModelTest : public ::testing::TestWithParam<ModelParams> {
 protected:
  void SetUp() override {
    path_ = dir_.File("model.pbtree");
    rng_.seed(GetParam().seed);
    Reopen();
  }

  void Reopen() {
    db_.reset();
    Options options;
    options.page_size = GetParam().page_size;
    options.cache_bytes = uint64_t{GetParam().cache_pages} * GetParam().page_size;
    options.leaf_restart_interval = GetParam().restart_interval;
    options.internal_restart_interval = GetParam().restart_interval;
    options.mmap_reads = GetParam().mmap_reads;
    options.wal = GetParam().wal;
    if (GetParam().seed % 3 == 0) options.wal_checkpoint_bytes = 8192;
    options.checkpoint_on_close = rng_() % 2 == 0;
    Status s = DB::Open(options, path_, &db_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  // Keys share long prefixes; a few are long (up to the 2048-byte limit).
  std::string Key(uint32_t i) {
    static const char* kPrefixes[] = {
        "a", "https://www.example.org/", "https://www.example.org/catalog/items/",
        "https://www.example.org/catalog/items/2024/06/", "/usr/lib/python3/site-packages/",
        "/usr/lib/python3/site-packages/numpy/core/", "z\x00z", "\xff\xfe"};
    std::string key(kPrefixes[i % 8], i % 8 == 6 ? 3 : std::char_traits<char>::length(kPrefixes[i % 8]));
    key += std::to_string(i * 2654435761u % 1000003);
    if (i % 97 == 5) key.append(1000 + i % 1049, static_cast<char>('a' + i % 26));
    if (i % 211 == 7 || key.size() > kMaxKeySize) key.resize(kMaxKeySize, 'q');
    return key;
  }

  std::string Value(uint64_t version) {
    std::uniform_int_distribution<int> kind(0, 99);
    int k = kind(rng_);
    size_t size = k < 75 ? rng_() % 60 : k < 97 ? 60 + rng_() % 1500 : 1500 + rng_() % 20000;
    std::string v(size, '\0');
    for (size_t i = 0; i < size; i += 7) v[i] = static_cast<char>(version * 31 + i);
    return v;
  }

  void ExpectSameAsModel(Cursor* c, const Map& model, bool backward) {
    auto it = model.begin();
    uint64_t n = 0;
    for (c->SeekToFirst(); c->Valid(); c->Next(), ++it, ++n) {
      ASSERT_NE(it, model.end()) << "extra key " << c->key().substr(0, 60);
      ASSERT_EQ(c->key(), it->first);
      ASSERT_EQ(c->value(), it->second) << "value of " << it->first.substr(0, 60);
    }
    ASSERT_TRUE(c->status().ok()) << c->status().ToString();
    ASSERT_EQ(it, model.end()) << "missing key " << it->first.substr(0, 60);
    if (!backward) return;
    // Backward, keys only.
    auto rit = model.rbegin();
    for (c->SeekToLast(); c->Valid(); c->Prev(), ++rit) {
      ASSERT_NE(rit, model.rend());
      ASSERT_EQ(c->key(), rit->first);
    }
    ASSERT_TRUE(c->status().ok()) << c->status().ToString();
    ASSERT_EQ(rit, model.rend());
  }

  void CheckCommitted() {
    ASSERT_EQ(db_->Count(), committed_.size());
    std::unique_ptr<Cursor> c = db_->NewCursor();
    ExpectSameAsModel(c.get(), committed_, ++checks_ % 4 == 0);
  }

  // A short walk from a random key in a random direction, with a skip.
  void RandomScan(Cursor* c, const Map& model) {
    const std::string start = Key(rng_() % GetParam().key_space);
    if (rng_() % 2 == 0) {
      c->Seek(start);
      auto it = model.lower_bound(start);
      for (int i = 0; i < 20; ++i, ++it) {
        ASSERT_EQ(c->Valid(), it != model.end());
        if (!c->Valid()) break;
        ASSERT_EQ(c->key(), it->first);
        c->Next();
      }
      const uint64_t skip = rng_() % 300;
      c->Seek(start);
      c->Skip(skip);
      it = model.lower_bound(start);
      for (uint64_t i = 0; i < skip && it != model.end(); ++i) ++it;
      ASSERT_EQ(c->Valid(), it != model.end());
      if (c->Valid()) {
        ASSERT_EQ(c->key(), it->first);
      }
    } else {
      c->SeekForPrev(start);
      auto it = model.upper_bound(start);
      for (int i = 0; i < 20; ++i) {
        ASSERT_EQ(c->Valid(), it != model.begin());
        if (!c->Valid()) break;
        --it;
        ASSERT_EQ(c->key(), it->first);
        c->Prev();
      }
      const uint64_t skip = rng_() % 300;
      c->SeekForPrev(start);
      c->SkipBackward(skip);
      it = model.upper_bound(start);
      bool valid = it != model.begin();
      if (valid) --it;
      for (uint64_t i = 0; i < skip && valid; ++i) {
        if (it == model.begin()) {
          valid = false;
        } else {
          --it;
        }
      }
      ASSERT_EQ(c->Valid(), valid);
      if (valid) {
        ASSERT_EQ(c->key(), it->first);
      }
    }
    ASSERT_TRUE(c->status().ok());
  }

  ScratchDir dir_;
  std::string path_;
  std::mt19937_64 rng_;
  std::unique_ptr<DB> db_;
  Map committed_;
  uint64_t checks_ = 0;
};

TEST_P(ModelTest, RandomOperationsMatchStdMap) {
  const ModelParams& p = GetParam();
  const uint64_t ops = TotalOps() / 10;  // ten parameter sets share the total
  std::unique_ptr<WriteTxn> txn;
  std::unique_ptr<ReadTxn> snapshot;
  Map snapshot_model;
  Map pending;
  uint64_t version = 0, commits = 0;
  std::string value;
  size_t txn_ops = 0, txn_limit = 0;

  for (uint64_t op = 0; op < ops; ++op) {
    if (txn == nullptr) {
      ASSERT_TRUE(db_->BeginWrite(&txn).ok());
      pending = committed_;
      txn_ops = 0;
      txn_limit = 1 + rng_() % (rng_() % 4 == 0 ? p.max_txn_ops : p.max_txn_ops / 8 + 1);
    }
    const std::string key = Key(rng_() % p.key_space);
    const int kind = rng_() % 100;
    if (kind < 45) {
      std::string v = Value(++version);
      ASSERT_TRUE(txn->Put(key, v).ok());
      pending[key] = std::move(v);
    } else if (kind < 70) {
      Status s = txn->Delete(key);
      ASSERT_EQ(s.IsNotFound(), pending.count(key) == 0) << s.ToString();
      ASSERT_TRUE(s.ok() || s.IsNotFound());
      pending.erase(key);
    } else if (kind < 80) {
      Status s = txn->Get(key, &value);
      auto it = pending.find(key);
      ASSERT_EQ(s.ok(), it != pending.end()) << s.ToString();
      if (s.ok()) {
        ASSERT_EQ(value, it->second);
      }
    } else if (kind < 85) {
      Status s = db_->Get(key, &value);  // the committed state, not the open txn's
      auto it = committed_.find(key);
      ASSERT_EQ(s.ok(), it != committed_.end()) << s.ToString();
      if (s.ok()) {
        ASSERT_EQ(value, it->second);
      }
    } else if (kind < 90) {
      std::unique_ptr<Cursor> c = txn->NewCursor();
      RandomScan(c.get(), pending);
      // A cursor survives changes of its transaction: it re-seeks.
      c->Seek(key);
      if (c->Valid()) {
        const std::string at(c->key());
        const std::string other = Key(rng_() % p.key_space);
        if (rng_() % 2) {
          ASSERT_TRUE(txn->Put(other, "x").ok());
          pending[other] = "x";
        } else if (txn->Delete(other).ok()) {
          pending.erase(other);
        }
        c->Next();
        auto it = pending.upper_bound(at);
        ASSERT_EQ(c->Valid(), it != pending.end());
        if (c->Valid()) {
          ASSERT_EQ(c->key(), it->first);
        }
      }
    } else if (kind < 93) {
      std::unique_ptr<Cursor> c = db_->NewCursor();
      RandomScan(c.get(), committed_);
    } else if (kind < 95 && snapshot != nullptr) {
      // An old snapshot still reads its own state after later commits.
      Status s = snapshot->Get(key, &value);
      auto it = snapshot_model.find(key);
      ASSERT_EQ(s.ok(), it != snapshot_model.end()) << s.ToString();
      if (s.ok()) {
        ASSERT_EQ(value, it->second);
      }
      std::unique_ptr<Cursor> c = snapshot->NewCursor();
      RandomScan(c.get(), snapshot_model);
    }
    if (HasFatalFailure()) return;
    if (++txn_ops < txn_limit) continue;

    // End of the transaction.
    if (rng_() % 8 == 0) {
      txn->Abort();
    } else {
      ASSERT_EQ(txn->Count(), pending.size());
      Status s = txn->Commit();
      ASSERT_TRUE(s.ok()) << s.ToString();
      committed_ = std::move(pending);
      ++commits;
    }
    txn.reset();
    pending.clear();
    CheckCommitted();
    if (HasFatalFailure()) return;
    if (commits % 64 == 0) {
      Status s = db_->Check();
      ASSERT_TRUE(s.ok()) << s.ToString();
    }
    const int event = rng_() % 100;
    if (event < 2) {
      snapshot.reset();
      ASSERT_TRUE(db_->BeginRead(&snapshot).ok());
      snapshot_model = committed_;
    } else if (event < 4) {
      snapshot.reset();
    } else if (event < 5) {
      snapshot.reset();
      Reopen();
      CheckCommitted();
    } else if (event < 6) {
      snapshot.reset();
      Status s = db_->Reorganize();
      ASSERT_TRUE(s.ok()) << s.ToString();
      ASSERT_TRUE(db_->Check().ok());
      CheckCommitted();
    }
    if (HasFatalFailure()) return;
  }
  txn.reset();
  snapshot.reset();
  Status s = db_->Check();
  ASSERT_TRUE(s.ok()) << s.ToString();
  RecordProperty("commits", static_cast<int>(commits));
}

std::string ParamName(const ::testing::TestParamInfo<ModelParams>& info) {
  return "seed" + std::to_string(info.param.seed) + "_page" + std::to_string(info.param.page_size) +
         (info.param.mmap_reads ? "" : "_pread") + (info.param.wal ? "" : "_nowal");
}

INSTANTIATE_TEST_SUITE_P(Seeds, ModelTest,
                         ::testing::Values(ModelParams{1, 4096, 2000, 16, 4096, 300},
                                           ModelParams{2, 4096, 300, 16, 64, 100},
                                           ModelParams{3, 4096, 2000, 1, 4096, 300},
                                           ModelParams{4, 4096, 20000, 16, 4096, 5000},
                                           ModelParams{5, 8192, 2000, 16, 4096, 300},
                                           ModelParams{6, 16384, 2000, 4, 4096, 300},
                                           ModelParams{7, 32768, 2000, 16, 4096, 300},
                                           ModelParams{8, 4096, 50, 2, 64, 20},
                                           ModelParams{9, 4096, 2000, 64, 4096, 300},
                                           ModelParams{10, 8192, 1000, 16, 256, 200},
                                           ModelParams{11, 4096, 300, 16, 64, 100, false},
                                           ModelParams{12, 4096, 2000, 16, 4096, 300, false},
                                           ModelParams{13, 4096, 2000, 16, 256, 300, true, false}),
                         ParamName);

}  // namespace
}  // namespace pbtree
