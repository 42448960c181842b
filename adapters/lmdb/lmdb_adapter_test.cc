// What the conformance suite cannot see in the lmdb adapter: the map growing
// under single writes, batches (replayed) and concurrent readers; the key size
// limit; compaction; option checking.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <string>
#include <thread>

#include "adapters/registry.h"
#include "tests/scratch_dir.h"

namespace kvbench {
namespace {

namespace fs = std::filesystem;

class LmdbAdapterTest : public ::testing::Test {
 protected:
  void TearDown() override {
    session_.reset();
    if (adapter_) {
      EXPECT_TRUE(adapter_->Close().ok());
    }
  }

  Status Open(const std::map<std::string, std::string>& overrides) {
    session_.reset();
    if (adapter_) {
      EXPECT_TRUE(adapter_->Close().ok());
    }
    Status s = AdapterRegistry::Global().Create("lmdb", &adapter_);
    if (!s.ok()) return s;
    OpenRequest request;
    request.directory = dir_.path();
    s = ResolveEngineOptions("lmdb", adapter_->OptionSpecs(), overrides, &request.options);
    if (s.ok()) s = adapter_->Open(request);
    if (s.ok()) s = adapter_->NewSession(&session_);
    return s;
  }

  std::string Get(const std::string& key) {
    std::string value;
    Status s = session_->Get(key, &value);
    if (s.IsNotFound()) return "<absent>";
    EXPECT_TRUE(s.ok()) << s.ToString();
    return value;
  }

  uint64_t DataFileBytes() { return fs::file_size(dir_.path() + "/data.mdb"); }

  static std::string Key(int i) {
    std::string key = "key";
    key += std::to_string(100000 + i);
    return key;
  }
  static std::string ReaderValue(int i) {
    std::string value = "r";
    value += std::to_string(i);
    return value;
  }

  test::ScratchDir dir_{"lmdb"};
  std::unique_ptr<Adapter> adapter_;
  std::unique_ptr<Session> session_;
};

TEST_F(LmdbAdapterTest, MapGrowsUnderSingleWritesAndReplayedBatches) {
  ASSERT_TRUE(Open({{"lmdb.mapsize", "64KiB"}}).ok());
  const std::string value(1000, 'v');
  for (int i = 0; i < 500; ++i) ASSERT_TRUE(session_->Put(Key(i), value).ok()) << i;
  // One batch far larger than the map: it fills it several times and is
  // replayed each time; its deletes and overwrites must replay in order.
  ASSERT_TRUE(session_->BeginBatch().ok());
  for (int i = 500; i < 3000; ++i) {
    Status s = session_->Put(Key(i), value);
    ASSERT_TRUE(s.ok()) << i << ": " << s.ToString();
    if (i % 100 == 0) {
      ASSERT_TRUE(session_->Delete(Key(i - 400)).ok());
    }
  }
  ASSERT_TRUE(session_->Put(Key(1000), "overwritten").ok());
  ASSERT_TRUE(session_->CommitBatch().ok());
  // A batch that grows the map and is then aborted leaves nothing behind.
  ASSERT_TRUE(session_->BeginBatch().ok());
  for (int i = 3000; i < 6000; ++i) ASSERT_TRUE(session_->Put(Key(i), value).ok());
  ASSERT_TRUE(session_->AbortBatch().ok());

  ASSERT_TRUE(Open({{"lmdb.mapsize", "64KiB"}}).ok());  // the grown map is kept on disk
  EXPECT_EQ(Get(Key(0)), value);
  EXPECT_EQ(Get(Key(100)), "<absent>");  // deleted at i = 500
  EXPECT_EQ(Get(Key(101)), value);
  EXPECT_EQ(Get(Key(1000)), "overwritten");
  EXPECT_EQ(Get(Key(2999)), value);
  EXPECT_EQ(Get(Key(3000)), "<absent>");
  EXPECT_GT(DataFileBytes(), 2000u * 1000u);
}

TEST_F(LmdbAdapterTest, ReadersKeepWorkingWhileTheMapGrows) {
  ASSERT_TRUE(Open({{"lmdb.mapsize", "64KiB"}}).ok());
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(session_->Put(Key(i), ReaderValue(i)).ok());
  std::atomic<bool> done{false};
  std::atomic<int> bad_reads{0}, readers_reading{0};
  auto reader = [&] {
    std::unique_ptr<Session> session;
    if (!adapter_->NewSession(&session).ok()) {
      ++bad_reads;
      return;
    }
    struct Counter : ScanVisitor {
      int n = 0;
      bool Visit(Slice, Slice) override { return ++n < 10; }
    };
    ++readers_reading;
    for (int round = 0; !done; ++round) {
      std::string v;
      const int i = round % 100;
      if (!session->Get(Key(i), &v).ok() || v != ReaderValue(i)) ++bad_reads;
      Counter counter;
      if (!session->Scan(Key(0), ScanOptions{}, &counter, nullptr).ok() || counter.n != 10) {
        ++bad_reads;
      }
    }
  };
  std::thread r1(reader), r2(reader);
  while (readers_reading < 2) std::this_thread::yield();
  const std::string value(2000, 'w');
  Status s;
  for (int batch = 0; batch < 20 && s.ok(); ++batch) {
    s = session_->BeginBatch();
    for (int i = 0; i < 100 && s.ok(); ++i) s = session_->Put(Key(1000 + batch * 100 + i), value);
    if (s.ok()) s = session_->CommitBatch();
  }
  done = true;
  r1.join();
  r2.join();
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(bad_reads, 0);
  EXPECT_EQ(Get(Key(2999)), value);
}

TEST_F(LmdbAdapterTest, KeysLongerThanTheLimitAreRefusedClearly) {
  ASSERT_TRUE(Open({}).ok());
  const std::string longest(511, 'k');  // Debian's liblmdb: MDB_MAXKEYSIZE 511
  std::string next = std::string(510, 'k') + "l";
  ASSERT_TRUE(session_->Put(longest, "longest").ok());
  ASSERT_TRUE(session_->Put(next, "next").ok());
  Status s = session_->Put(std::string(512, 'k'), "x");
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("511"), std::string::npos) << s.ToString();
  EXPECT_TRUE(session_->Put("", "x").IsInvalidArgument());
  EXPECT_EQ(Get(std::string(600, 'k')), "<absent>");

  // A start key longer than the limit still positions a scan exactly.
  struct First : ScanVisitor {
    std::string key;
    bool Visit(Slice k, Slice) override {
      key = std::string(k);
      return false;
    }
  } first;
  ScanOptions forward;
  ASSERT_TRUE(session_->Scan(std::string(600, 'k'), forward, &first, nullptr).ok());
  EXPECT_EQ(first.key, next);
  ScanOptions backward;
  backward.direction = ScanDirection::kBackward;
  ASSERT_TRUE(session_->Scan(std::string(600, 'k'), backward, &first, nullptr).ok());
  EXPECT_EQ(first.key, longest);
}

TEST_F(LmdbAdapterTest, ReorganizeCompactsAndSessionsSurviveIt) {
  ASSERT_TRUE(Open({}).ok());
  ASSERT_TRUE(session_->BeginBatch().ok());
  for (int i = 0; i < 4000; ++i) ASSERT_TRUE(session_->Put(Key(i), std::string(1000, 'v')).ok());
  ASSERT_TRUE(session_->CommitBatch().ok());
  ASSERT_TRUE(session_->BeginBatch().ok());
  for (int i = 0; i < 4000; ++i) {
    if (i % 10 == 0) continue;
    ASSERT_TRUE(session_->Delete(Key(i)).ok());
  }
  ASSERT_TRUE(session_->CommitBatch().ok());
  ASSERT_TRUE(adapter_->Sync().ok());
  const uint64_t before = DataFileBytes();

  ASSERT_TRUE(session_->BeginBatch().ok());
  EXPECT_EQ(adapter_->Reorganize().code(), Status::Code::kBusy);  // not under an open batch
  ASSERT_TRUE(session_->AbortBatch().ok());

  Status s = adapter_->Reorganize();
  ASSERT_TRUE(s.ok()) << s.ToString();
  const uint64_t after = DataFileBytes();
  EXPECT_LT(after * 3, before) << "before " << before << " after " << after;
  std::vector<std::string> files;
  ASSERT_TRUE(adapter_->ListFiles(&files).ok());
  // data.mdb and lock.mdb, no leftover copy.
  EXPECT_EQ(files.size(), 2u);
  EXPECT_EQ(Get(Key(10)), std::string(1000, 'v'));  // the same session, on the new file
  EXPECT_EQ(Get(Key(11)), "<absent>");
  ASSERT_TRUE(session_->Put(Key(11), "back").ok());
  EXPECT_EQ(Get(Key(11)), "back");
}

TEST_F(LmdbAdapterTest, OptionsAreCheckedAndApplied) {
  Status s = Open({{"lmdb.sync", "sometimes"}});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("lmdb.sync"), std::string::npos) << s.ToString();

  s = Open({{"lmdb.sync", "commit"}, {"lmdb.writemap", "true"}, {"lmdb.maxreaders", "8"}});
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_TRUE(session_->Put("a", "1").ok());
  EXPECT_EQ(Get("a"), "1");

  // MDB_APPEND: ascending keys load, a key out of order is refused by name.
  ASSERT_TRUE(Open({{"lmdb.append", "true"}}).ok());
  ASSERT_TRUE(session_->Put("b", "2").ok());
  s = session_->Put("0", "out of order");
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("lmdb.append"), std::string::npos) << s.ToString();
}

}  // namespace
}  // namespace kvbench
