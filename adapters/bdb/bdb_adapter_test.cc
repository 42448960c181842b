// What the conformance suite cannot see in bdb-hash and bdb-btree: the non-default modes
// (transactional batches with abort, sync after each commit), that options reach Berkeley DB
// and bad ones are refused by name, that compaction shrinks the file, and that sessions on
// several threads read and write at once.
#include <db.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <thread>

#include "adapters/registry.h"
#include "tests/adapter_test_base.h"

namespace kvbench {
namespace {

namespace fs = std::filesystem;

class BdbAdapterTest : public test::AdapterTestBase<::testing::TestWithParam<std::string>> {
 protected:
  std::string Engine() const override { return GetParam(); }

  void CompactAfterDeletingNineTenths();

  std::string DataFileBytes() {
    std::ifstream in(dir_.path() + "/data.db", std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

};

TEST_P(BdbAdapterTest, DefaultsAreSeed004sPlainDatabase) {
  ASSERT_TRUE(Open({}).ok());
  const Capabilities caps = adapter_->capabilities();
  EXPECT_FALSE(caps.transactional);
  EXPECT_TRUE(caps.durable);
  EXPECT_EQ(caps.ordered, GetParam() == "bdb-btree");
  EXPECT_NE(adapter_->LibraryVersion().find("Berkeley DB 5."), std::string::npos);
  ASSERT_TRUE(session_->BeginBatch().ok());
  ASSERT_TRUE(session_->Put("k", "v").ok());
  EXPECT_TRUE(session_->AbortBatch().IsNotSupported());
  EXPECT_EQ(Get("k"), "v") << "an emulated batch writes at once";
  // No transaction logs and, with the private environment, no region files.
  std::vector<std::string> files;
  ASSERT_TRUE(adapter_->ListFiles(&files).ok());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(fs::path(files[0]).filename(), "data.db");
}

// With bdb.private_env=false the environment's regions are files in the directory: they are
// listed, and the next open starts from fresh ones.
TEST_P(BdbAdapterTest, SharedEnvironmentRegionFilesAreListed) {
  ASSERT_TRUE(Open({{"bdb.private_env", "false"}}).ok());
  ASSERT_TRUE(session_->Put("k", "v").ok());
  std::vector<std::string> files;
  ASSERT_TRUE(adapter_->ListFiles(&files).ok());
  bool has_region = false;
  for (const auto& f : files) has_region |= fs::path(f).filename() == "__db.001";
  EXPECT_TRUE(has_region) << files.size() << " files";
  ASSERT_TRUE(Open({{"bdb.private_env", "false"}}).ok());
  EXPECT_EQ(Get("k"), "v");
}

TEST_P(BdbAdapterTest, TransactionalBatchesAbortAndCommit) {
  ASSERT_TRUE(Open({{"bdb.transactional", "true"}}).ok());
  EXPECT_TRUE(adapter_->capabilities().transactional);
  ASSERT_TRUE(session_->Put("kept", "before").ok());
  ASSERT_TRUE(session_->BeginBatch().ok());
  ASSERT_TRUE(session_->Put("kept", "overwritten").ok());
  ASSERT_TRUE(session_->Put("new", "dropped").ok());
  EXPECT_EQ(Get("new"), "dropped") << "a batch reads its own writes";
  ASSERT_TRUE(session_->AbortBatch().ok());
  EXPECT_EQ(Get("kept"), "before");
  EXPECT_EQ(Get("new"), "<absent>");

  ASSERT_TRUE(session_->BeginBatch().ok());
  for (int i = 0; i < 2000; ++i) ASSERT_TRUE(session_->Put(Numbered("b", i), "x").ok());
  ASSERT_TRUE(session_->CommitBatch().ok());
  std::vector<std::string> files;
  ASSERT_TRUE(adapter_->ListFiles(&files).ok());
  bool has_log = false;
  for (const auto& f : files) has_log |= fs::path(f).filename().string().starts_with("log.");
  EXPECT_TRUE(has_log) << "the write-ahead log is one of the engine's files";

  ASSERT_TRUE(Open({{"bdb.transactional", "true"}}).ok());  // recovery runs here
  EXPECT_EQ(Get("b1999"), "x");
  EXPECT_EQ(Get("kept"), "before");
}

TEST_P(BdbAdapterTest, SyncOnCommitPutsEachWriteInTheFileAtOnce) {
  ASSERT_TRUE(Open({{"bdb.sync", "commit"}}).ok());
  ASSERT_TRUE(session_->Put("seed-004-key", "record written with sync").ok());
  EXPECT_NE(DataFileBytes().find("record written with sync"), std::string::npos);
  ASSERT_TRUE(session_->BeginBatch().ok());
  ASSERT_TRUE(session_->Put("second", "batched record").ok());
  ASSERT_TRUE(session_->CommitBatch().ok());
  EXPECT_NE(DataFileBytes().find("batched record"), std::string::npos);
}

TEST_P(BdbAdapterTest, OptionsReachBerkeleyDb) {
  std::map<std::string, std::string> options = {{"bdb.page_size", "8192"},
                                                {"bdb.cache_size", "8MiB"}};
  if (GetParam() == "bdb-hash") options["bdb.hash_ffactor"] = "40";
  ASSERT_TRUE(Open(options).ok());
  ASSERT_TRUE(session_->Put("k", "v").ok());
  ASSERT_TRUE(adapter_->Close().ok());
  DB* db = nullptr;
  ASSERT_EQ(db_create(&db, nullptr, 0), 0);
  ASSERT_EQ(
      db->open(db, nullptr, (dir_.path() + "/data.db").c_str(), nullptr, DB_UNKNOWN, DB_RDONLY, 0),
      0);
  u_int32_t page_size = 0;
  DBTYPE type = DB_UNKNOWN;
  EXPECT_EQ(db->get_pagesize(db, &page_size), 0);
  EXPECT_EQ(db->get_type(db, &type), 0);
  u_int32_t ffactor = 0;  // stored in the hash meta page, read back through DB->stat
  if (type == DB_HASH) {
    DB_HASH_STAT* stat = nullptr;
    EXPECT_EQ(db->stat(db, nullptr, &stat, 0), 0);
    if (stat != nullptr) ffactor = stat->hash_ffactor;
    free(stat);
  }
  db->close(db, 0);
  if (type == DB_HASH) {
    EXPECT_EQ(ffactor, 40u);
  }
  EXPECT_EQ(page_size, 8192u);
  EXPECT_EQ(type, GetParam() == "bdb-hash" ? DB_HASH : DB_BTREE);
}

TEST_P(BdbAdapterTest, BadOptionValuesNameTheOption) {
  Status s = Open({{"bdb.sync", "sometimes"}});
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("bdb.sync"), std::string::npos) << s.ToString();
  s = Open({{"bdb.page_size", "1000"}});  // not a power of two
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("bdb.page_size"), std::string::npos) << s.ToString();
  s = Open({{"bdb.cache_size", "lots"}});
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("bdb.cache_size"), std::string::npos) << s.ToString();
}

// In both modes: compaction runs in its own transactions when the database has them.
TEST_P(BdbAdapterTest, ReorganizeShrinksTheFileAndKeepsTheData) {
  for (const char* transactional : {"false", "true"}) {
    SCOPED_TRACE(std::string("bdb.transactional=") + transactional);
    ASSERT_TRUE(Open({{"bdb.transactional", transactional}}).ok());
    CompactAfterDeletingNineTenths();
  }
}

void BdbAdapterTest::CompactAfterDeletingNineTenths() {
  const std::string value(400, 'v');
  for (int i = 0; i < 5000; ++i) ASSERT_TRUE(session_->Put(Numbered("key", i), value).ok());
  for (int i = 0; i < 5000; ++i) {
    if (i % 10 != 0) {
      ASSERT_TRUE(session_->Delete(Numbered("key", i)).ok());
    }
  }
  ASSERT_TRUE(adapter_->Sync().ok());
  const uint64_t before = fs::file_size(dir_.path() + "/data.db");
  Status s = adapter_->Reorganize();
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_TRUE(adapter_->Sync().ok());
  const uint64_t after = fs::file_size(dir_.path() + "/data.db");
  EXPECT_LT(after, before / 2) << "before " << before << " after " << after;
  EXPECT_EQ(Get("key4990"), value);
  EXPECT_EQ(Get("key4991"), "<absent>");
}

// Seed 001 loads in 64K-key batches: one transaction must hold that many writes.
TEST_P(BdbAdapterTest, LargeTransactionalBatchFitsTheLockTable) {
  ASSERT_TRUE(Open({{"bdb.transactional", "true"}}).ok());
  ASSERT_TRUE(session_->BeginBatch().ok());
  for (int i = 0; i < 65536; ++i) {
    // Scattered keys, so the batch touches (and locks) every page.
    Status s = session_->Put(Numbered("k", i * 7919 % 65536), std::string(40, 'v'));
    ASSERT_TRUE(s.ok()) << i << ": " << s.ToString();
  }
  Status s = session_->CommitBatch();
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(Get("k65535"), std::string(40, 'v'));
}

// Four sessions on four threads write and read their own keys at once, in both modes. A batch
// that loses a deadlock (Busy) is aborted and run again, as the contract asks of callers.
TEST_P(BdbAdapterTest, SessionsOnSeveralThreads) {
  for (const char* transactional : {"false", "true"}) {
    ASSERT_TRUE(Open({{"bdb.transactional", transactional}}).ok());
    std::vector<std::thread> threads;
    std::vector<std::string> errors(4);
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&, t] {
        std::unique_ptr<Session> session;
        Status s = adapter_->NewSession(&session);
        std::string value;
        for (int batch = 0; s.ok() && batch < 20; ++batch) {
          s = session->BeginBatch();
          for (int i = 0; s.ok() && i < 100; ++i) {
            const std::string key =
                Numbered(std::string(transactional) + std::to_string(t) + "-", batch * 100 + i);
            s = session->Put(key, key);
            if (s.ok()) s = session->Get(key, &value);
            if (s.ok() && value != key) s = Status::Internal("read back " + value);
          }
          if (s.ok()) s = session->CommitBatch();
          if (s.code() == Status::Code::kBusy) {
            s = session->AbortBatch();
            --batch;
          }
        }
        if (!s.ok()) errors[t] = s.ToString();
      });
    }
    for (auto& th : threads) th.join();
    for (const auto& e : errors) EXPECT_EQ(e, "");
    EXPECT_EQ(Get(std::string(transactional) + "3-1999"), std::string(transactional) + "3-1999");
  }
}

INSTANTIATE_TEST_SUITE_P(Both, BdbAdapterTest, ::testing::Values("bdb-hash", "bdb-btree"),
                         [](const auto& info) {
                           return info.param == "bdb-hash" ? "hash" : "btree";
                         });

}  // namespace
}  // namespace kvbench
