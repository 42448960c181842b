// What the conformance suite cannot see in tc-hash and tc-btree: that tuning options reach the
// file and bad ones are refused by name, that another session's write is neither blocked forever
// nor rolled back by a batch it did not join, that Get copes with values around its buffer size,
// that optimize shrinks the file, and that sessions on several threads work at once.
#include <gtest/gtest.h>
#include <tcbdb.h>
#include <tchdb.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <thread>

#include "adapters/registry.h"
#include "tests/adapter_test_base.h"

namespace kvbench {
namespace {

namespace fs = std::filesystem;

class TcAdapterTest : public test::AdapterTestBase<::testing::TestWithParam<std::string>> {
 protected:
  std::string Engine() const override { return GetParam(); }

  bool is_tree() const { return GetParam() == "tc-btree"; }
  std::string DataFile() const { return dir_.path() + (is_tree() ? "/data.tcb" : "/data.tch"); }

};

TEST_P(TcAdapterTest, CapabilitiesAndVersion) {
  ASSERT_TRUE(Open({}).ok());
  const Capabilities caps = adapter_->capabilities();
  EXPECT_TRUE(caps.transactional);
  EXPECT_TRUE(caps.durable);
  EXPECT_TRUE(caps.concurrent_readers);
  EXPECT_EQ(caps.ordered, is_tree());
  EXPECT_EQ(caps.concurrent_writers, !is_tree());
  EXPECT_NE(adapter_->LibraryVersion().find("Tokyo Cabinet 1."), std::string::npos);
}

TEST_P(TcAdapterTest, TuningReachesTheFile) {
  std::map<std::string, std::string> options = {{"tc.bnum", "5003"}, {"tc.opts", "large,deflate"}};
  if (is_tree()) options["tc.lmemb"] = "64";
  ASSERT_TRUE(Open(options).ok());
  ASSERT_TRUE(session_->Put("k", "v").ok());
  ASSERT_TRUE(adapter_->Close().ok());
  if (is_tree()) {
    TCBDB* db = tcbdbnew();
    ASSERT_TRUE(tcbdbopen(db, DataFile().c_str(), BDBOREADER));
    EXPECT_EQ(tcbdblmemb(db), 64u);
    EXPECT_EQ(tcbdbopts(db), BDBTLARGE | BDBTDEFLATE);
    EXPECT_GE(tcbdbbnum(db), 5003u);
    tcbdbdel(db);
  } else {
    TCHDB* db = tchdbnew();
    ASSERT_TRUE(tchdbopen(db, DataFile().c_str(), HDBOREADER));
    EXPECT_EQ(tchdbopts(db), HDBTLARGE | HDBTDEFLATE);
    EXPECT_GE(tchdbbnum(db), 5003u);
    EXPECT_LT(tchdbbnum(db), 6000u);
    tchdbdel(db);
  }
}

TEST_P(TcAdapterTest, BadOptionValuesNameTheOption) {
  for (const auto& [name, value] : std::map<std::string, std::string>{{"tc.sync", "sometimes"},
                                                                      {"tc.opts", "large,gzip"},
                                                                      {"tc.apow", "many"},
                                                                      {"tc.fpow", "99"}}) {
    Status s = Open({{name, value}});
    EXPECT_TRUE(s.IsInvalidArgument()) << name;
    EXPECT_NE(s.message().find(name), std::string::npos) << s.ToString();
  }
}

// Another session's write waits for an open batch instead of joining it, so the batch's abort
// does not undo it.
TEST_P(TcAdapterTest, BatchDoesNotCaptureOtherSessionsWrites) {
  ASSERT_TRUE(Open({}).ok());
  std::unique_ptr<Session> other;
  ASSERT_TRUE(adapter_->NewSession(&other).ok());
  ASSERT_TRUE(session_->BeginBatch().ok());
  ASSERT_TRUE(session_->Put("inside", "dropped").ok());
  std::atomic<bool> other_done{false};
  Status other_status;
  std::thread writer([&] {
    other_status = other->Put("outside", "kept");
    other_done = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(other_done) << "a write from another session ran inside the open batch";
  ASSERT_TRUE(session_->AbortBatch().ok());
  writer.join();
  EXPECT_TRUE(other_status.ok()) << other_status.ToString();
  EXPECT_EQ(Get("inside"), "<absent>");
  EXPECT_EQ(Get("outside"), "kept");
}

// tc-hash reads into a reused buffer: values just under, at and over its size come back whole.
TEST_P(TcAdapterTest, ValuesAroundTheReadBufferSize) {
  ASSERT_TRUE(Open({}).ok());
  for (size_t size : {4095u, 4096u, 4097u, 8192u, 100000u, 3u}) {
    std::string value(size, 'x');
    value.back() = 'z';
    ASSERT_TRUE(session_->Put("k", value).ok());
    ASSERT_EQ(Get("k"), value) << size;
  }
}

TEST_P(TcAdapterTest, SyncOnCommitKeepsEveryWrite) {
  ASSERT_TRUE(Open({{"tc.sync", "commit"}}).ok());
  ASSERT_TRUE(session_->Put("single", "autocommitted").ok());
  ASSERT_TRUE(session_->BeginBatch().ok());
  ASSERT_TRUE(session_->Put("batched", "committed").ok());
  ASSERT_TRUE(session_->CommitBatch().ok());
  ASSERT_TRUE(Open({{"tc.sync", "commit"}}).ok());
  EXPECT_EQ(Get("single"), "autocommitted");
  EXPECT_EQ(Get("batched"), "committed");
}

TEST_P(TcAdapterTest, ReorganizeShrinksTheFileAndKeepsTheData) {
  ASSERT_TRUE(Open({}).ok());
  const std::string value(400, 'v');
  for (int i = 0; i < 5000; ++i) ASSERT_TRUE(session_->Put(Numbered("key", i), value).ok());
  for (int i = 0; i < 5000; ++i) {
    if (i % 10 != 0) {
      ASSERT_TRUE(session_->Delete(Numbered("key", i)).ok());
    }
  }
  ASSERT_TRUE(adapter_->Sync().ok());
  const uint64_t before = fs::file_size(DataFile());
  Status s = adapter_->Reorganize();
  ASSERT_TRUE(s.ok()) << s.ToString();
  const uint64_t after = fs::file_size(DataFile());
  EXPECT_LT(after, before / 2) << "before " << before << " after " << after;
  EXPECT_EQ(Get("key4990"), value);
  EXPECT_EQ(Get("key4991"), "<absent>");
}

// Four sessions on four threads: batches, autocommit writes and reads at once.
TEST_P(TcAdapterTest, SessionsOnSeveralThreads) {
  ASSERT_TRUE(Open({}).ok());
  std::vector<std::thread> threads;
  std::vector<std::string> errors(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::unique_ptr<Session> session;
      Status s = adapter_->NewSession(&session);
      std::string value;
      for (int i = 0; s.ok() && i < 2000; ++i) {
        const std::string key = Numbered(std::to_string(t) + "-", i);
        const bool batched = t % 2 == 0;
        if (batched && i % 100 == 0) s = session->BeginBatch();
        if (s.ok()) s = session->Put(key, key);
        if (s.ok()) s = session->Get(key, &value);
        if (s.ok() && value != key) s = Status::Internal("read back " + value);
        if (s.ok() && batched && i % 100 == 99) s = session->CommitBatch();
      }
      if (!s.ok()) errors[t] = s.ToString();
    });
  }
  for (auto& th : threads) th.join();
  for (const auto& e : errors) EXPECT_EQ(e, "");
  for (int t = 0; t < 4; ++t)
    EXPECT_EQ(Get(Numbered(std::to_string(t) + "-", 1999)),
              Numbered(std::to_string(t) + "-", 1999));
}

INSTANTIATE_TEST_SUITE_P(Both, TcAdapterTest, ::testing::Values("tc-hash", "tc-btree"),
                         [](const auto& info) {
                           return info.param == "tc-hash" ? "hash" : "btree";
                         });

}  // namespace
}  // namespace kvbench
