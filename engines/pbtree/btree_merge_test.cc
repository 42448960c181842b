// Sorted runs of puts (btree_merge.cc): batches large enough that the put
// buffer merges thousands of keys into single leaves, into gaps between
// existing keys, at both ends of the tree and into an empty one, with
// overwrites, repeated keys, overflow values and the longest keys, checked
// against a std::map and DB::Check after every commit; and the page fill the
// merge promises.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engines/pbtree/pbtree.h"
#include "engines/pbtree/test_util.h"

namespace pbtree {
namespace {

using Map = std::map<std::string, std::string>;
using testing::ScratchDir;

// Key `file` of directory `dir`: directories are the gaps a batch fills.
std::string FileKey(uint32_t dir, uint32_t file) {
  char buf[96];
  std::snprintf(buf, sizeof(buf), "https://www.example.org/archive/%04u/section/%06u.html",
                dir * 7919 % 10007, file * 2654435761u % 1000003);
  return buf;
}

struct MergeParams {
  uint64_t seed;
  uint32_t page_size;
  uint32_t restart_interval;
};

class MergeTest : public ::testing::TestWithParam<MergeParams> {
 protected:
  void SetUp() override {
    rng_.seed(GetParam().seed);
    Options options;
    options.page_size = GetParam().page_size;
    options.leaf_restart_interval = GetParam().restart_interval;
    options.internal_restart_interval = GetParam().restart_interval;
    options.cache_bytes = 64 * uint64_t{GetParam().page_size};  // evicts: reads go to disk
    Status s = DB::Open(options, dir_.File("merge.pbtree"), &db_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  std::string Value() {
    const int kind = static_cast<int>(rng_() % 100);
    const uint32_t page = GetParam().page_size;
    const size_t size = kind < 80   ? rng_() % 48
                        : kind < 95 ? 48 + rng_() % (page / 4)
                                    : page / 4 + 1 + rng_() % 3 * page;  // overflow pages
    std::string v(size, '\0');
    for (size_t i = 0; i < size; i += 5) v[i] = static_cast<char>(rng_());
    return v;
  }

  // Puts `keys` in a random order in one transaction, some twice (the last
  // value wins); commits unless `abort`. Then compares the whole tree.
  void Batch(std::vector<std::string> keys, bool abort) {
    std::shuffle(keys.begin(), keys.end(), rng_);
    std::unique_ptr<WriteTxn> txn;
    ASSERT_TRUE(db_->BeginWrite(&txn).ok());
    Map pending = model_;
    for (const std::string& key : keys) {
      for (int times = rng_() % 16 == 0 ? 2 : 1; times > 0; --times) {
        std::string v = Value();
        Status s = txn->Put(key, v);
        ASSERT_TRUE(s.ok()) << s.ToString();
        pending[key] = std::move(v);
      }
    }
    ASSERT_EQ(txn->Count(), pending.size());
    if (abort) {
      txn->Abort();
    } else {
      Status s = txn->Commit();
      ASSERT_TRUE(s.ok()) << s.ToString();
      model_ = std::move(pending);
    }
    txn.reset();
    ExpectSameAsModel();
  }

  void ExpectSameAsModel() { testing::ExpectTreeEquals(db_.get(), model_); }

  ScratchDir dir_;
  std::mt19937_64 rng_;
  std::unique_ptr<DB> db_;
  Map model_;
};

TEST_P(MergeTest, BatchesIntoGapsMatchStdMap) {
  const uint32_t kDirs = 60;
  std::vector<uint32_t> files(kDirs, 0);  // files put so far per directory
  for (int batch = 0; batch < 24; ++batch) {
    std::vector<std::string> keys;
    // A few directories get many new files each: long runs into the gaps
    // between the directories already loaded.
    for (int d = 0; d < 3; ++d) {
      const uint32_t dir = static_cast<uint32_t>(rng_() % kDirs);
      const uint32_t n = 1 + static_cast<uint32_t>(rng_() % 800);
      for (uint32_t f = files[dir]; f < files[dir] + n; ++f) keys.push_back(FileKey(dir, f));
      files[dir] += n;
    }
    // Overwrites of keys already there (values move to and from overflow).
    for (int k = 0; k < 40 && !model_.empty(); ++k) {
      auto it = model_.begin();
      std::advance(it, rng_() % model_.size());
      keys.push_back(it->first);
    }
    // Keys before and after everything, and the longest keys, in runs.
    for (int k = 0; k < 30; ++k) {
      const std::string number = std::to_string(batch * 100 + k);
      keys.push_back(std::string("!").append(number));
      keys.push_back(std::string("~").append(number));
      keys.push_back(std::string("https://www.example.org/archive/long/")
                         .append(number)
                         .append(kMaxKeySize - 50, 'L'));
    }
    Batch(std::move(keys), /*abort=*/batch % 7 == 6);
    if (HasFatalFailure()) return;
    if (batch == 12) {
      // Delete a third of the keys (pages go underfull and merge), then go on
      // loading into what is left.
      std::unique_ptr<WriteTxn> txn;
      ASSERT_TRUE(db_->BeginWrite(&txn).ok());
      for (auto it = model_.begin(); it != model_.end();) {
        if (rng_() % 3 == 0) {
          Status s = txn->Delete(it->first);
          ASSERT_TRUE(s.ok()) << s.ToString();
          it = model_.erase(it);
        } else {
          ++it;
        }
      }
      ASSERT_TRUE(txn->Commit().ok());
      ExpectSameAsModel();
      if (HasFatalFailure()) return;
    }
  }
}

TEST_P(MergeTest, OneBatchBuildsADeepTreeFromEmpty) {
  std::vector<std::string> keys;
  for (uint32_t f = 0; f < 20000; ++f) keys.push_back(FileKey(f % 5, f));
  Batch(std::move(keys), /*abort=*/false);
  if (HasFatalFailure()) return;
  Stats stats;
  ASSERT_TRUE(db_->GetStats(&stats).ok());
  EXPECT_GE(stats.depth, 2u);
}

std::string ParamName(const ::testing::TestParamInfo<MergeParams>& info) {
  return "seed" + std::to_string(info.param.seed) + "_page" +
         std::to_string(info.param.page_size) + "_restart" +
         std::to_string(info.param.restart_interval);
}

INSTANTIATE_TEST_SUITE_P(Params, MergeTest,
                         ::testing::Values(MergeParams{1, 4096, 16}, MergeParams{2, 4096, 1},
                                           MergeParams{3, 8192, 4}, MergeParams{4, 32768, 16}),
                         ParamName);

// Loads `batches` of `per_batch` keys (each batch shuffled) and returns the
// leaf fill.
double LoadAndMeasureFill(const std::string& path, const std::vector<std::string>& keys,
                          size_t per_batch) {
  std::unique_ptr<DB> db;
  EXPECT_TRUE(DB::Open(Options(), path, &db).ok());
  std::mt19937_64 rng(7);
  for (size_t begin = 0; begin < keys.size(); begin += per_batch) {
    std::vector<std::string> batch(keys.begin() + begin,
                                   keys.begin() + std::min(keys.size(), begin + per_batch));
    std::shuffle(batch.begin(), batch.end(), rng);
    std::unique_ptr<WriteTxn> txn;
    EXPECT_TRUE(db->BeginWrite(&txn).ok());
    for (const std::string& k : batch) EXPECT_TRUE(txn->Put(k, std::string(40, 'v')).ok());
    EXPECT_TRUE(txn->Commit().ok());
  }
  EXPECT_TRUE(db->Check().ok());
  Stats stats;
  EXPECT_TRUE(db->GetStats(&stats).ok());
  EXPECT_EQ(stats.entries, keys.size());
  return stats.leaf_fill;
}

TEST(MergeFillTest, BatchesInKeyOrderAndIntoGapsFillPages) {
  ScratchDir dir;
  // Ascending batches: every batch goes past the last key.
  std::vector<std::string> keys;
  for (uint32_t i = 0; i < 40000; ++i) keys.push_back(FileKey(i / 1000, i));
  std::sort(keys.begin(), keys.end());
  EXPECT_GT(LoadAndMeasureFill(dir.File("ascending"), keys, 4096), 0.9);
  // Batches of whole directories in a scattered order: every batch fills
  // gaps in the middle of the tree (the urls dataset's pattern).
  keys.clear();
  for (uint32_t d = 0; d < 40; ++d) {
    for (uint32_t f = 0; f < 1000; ++f) keys.push_back(FileKey(d * 17 % 40, d * 1000 + f));
  }
  EXPECT_GT(LoadAndMeasureFill(dir.File("gaps"), keys, 4096), 0.8);
}

}  // namespace
}  // namespace pbtree
