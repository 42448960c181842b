// What the conformance suite does not cover in the pbtree adapter: option
// checking, Reorganize, the file list, a batch's isolation from other
// sessions, and sessions reading on other threads while one commits.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "adapters/registry.h"
#include "tests/scratch_dir.h"

namespace kvbench {
namespace {

namespace fs = std::filesystem;

class PbtreeAdapterTest : public ::testing::Test {
 protected:
  void TearDown() override {
    other_.reset();
    session_.reset();
    if (adapter_) {
      EXPECT_TRUE(adapter_->Close().ok());
    }
  }

  Status Open(const std::map<std::string, std::string>& overrides) {
    other_.reset();
    session_.reset();
    if (adapter_) {
      EXPECT_TRUE(adapter_->Close().ok());
    }
    Status s = AdapterRegistry::Global().Create("pbtree", &adapter_);
    if (!s.ok()) return s;
    OpenRequest request;
    request.directory = dir_.path();
    s = ResolveEngineOptions("pbtree", adapter_->OptionSpecs(), overrides, &request.options);
    if (s.ok()) s = adapter_->Open(request);
    if (s.ok()) s = adapter_->NewSession(&session_);
    return s;
  }

  uint64_t FileBytes() {
    std::vector<std::string> files;
    EXPECT_TRUE(adapter_->ListFiles(&files).ok());
    uint64_t bytes = 0;
    for (const auto& f : files) bytes += fs::file_size(f);
    return bytes;
  }

  test::ScratchDir dir_{"pbtree-adapter"};
  std::unique_ptr<Adapter> adapter_;
  std::unique_ptr<Session> session_;
  std::unique_ptr<Session> other_;
};

TEST_F(PbtreeAdapterTest, ClaimsWhatItDoes) {
  ASSERT_TRUE(AdapterRegistry::Global().Create("pbtree", &adapter_).ok());
  Capabilities c = adapter_->capabilities();
  EXPECT_TRUE(c.ordered);
  EXPECT_TRUE(c.transactional);
  EXPECT_TRUE(c.durable);
  EXPECT_TRUE(c.reorganize);
  EXPECT_TRUE(c.concurrent_readers);
  EXPECT_FALSE(c.concurrent_writers);
  EXPECT_EQ(c.max_key_size, 0u) << "2 KiB keys are stored";
}

TEST_F(PbtreeAdapterTest, BadOptionsAreRefusedByName) {
  Status s = Open({{"pbtree.sync", "always"}});
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("pbtree.sync"), std::string::npos) << s.ToString();
  s = Open({{"pbtree.page_size", "5000"}});
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("pbtree.page_size"), std::string::npos) << s.ToString();
  s = Open({{"pbtree.cache_size", "lots"}});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  adapter_.reset();
  ASSERT_TRUE(Open({{"pbtree.page_size", "16KiB"}, {"pbtree.sync", "commit"}}).ok());
  ASSERT_TRUE(session_->Put("k", "v").ok());
}

TEST_F(PbtreeAdapterTest, ListsItsFileAndItsLog) {
  ASSERT_TRUE(Open({}).ok());
  ASSERT_TRUE(session_->Put("k", "v").ok());
  std::vector<std::string> files;
  ASSERT_TRUE(adapter_->ListFiles(&files).ok());
  ASSERT_EQ(files.size(), 2u);
  std::vector<std::string> names{fs::path(files[0]).filename(), fs::path(files[1]).filename()};
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names[0], "pbtree.db");
  EXPECT_EQ(names[1], "pbtree.db-log");
}

TEST_F(PbtreeAdapterTest, ReorganizeShrinksTheFileAndKeepsTheData) {
  ASSERT_TRUE(Open({}).ok());
  // Ten batches of interleaved keys: pages split in the middle, half full.
  for (int batch = 0; batch < 10; ++batch) {
    ASSERT_TRUE(session_->BeginBatch().ok());
    for (int i = batch; i < 20000; i += 10) {
      std::string key = "https://www.example.org/catalog/" + std::to_string(i * 7919 % 20011);
      ASSERT_TRUE(session_->Put(key, std::string(40, 'v')).ok());
    }
    ASSERT_TRUE(session_->CommitBatch().ok());
  }
  for (int i = 0; i < 20000; i += 2) {
    std::string key = "https://www.example.org/catalog/" + std::to_string(i * 7919 % 20011);
    ASSERT_TRUE(session_->Delete(key).ok());  // one transaction each: a fragmented file
  }
  const uint64_t before = FileBytes();
  Status s = adapter_->Reorganize();
  ASSERT_TRUE(s.ok()) << s.ToString();
  const uint64_t after = FileBytes();
  EXPECT_LT(after * 2, before) << before << " -> " << after;
  std::string value;
  for (int i = 0; i < 20000; ++i) {
    std::string key = "https://www.example.org/catalog/" + std::to_string(i * 7919 % 20011);
    s = session_->Get(key, &value);
    EXPECT_EQ(s.ok(), i % 2 == 1) << key << ": " << s.ToString();
  }
}

TEST_F(PbtreeAdapterTest, ABatchIsInvisibleToOtherSessionsUntilCommit) {
  ASSERT_TRUE(Open({}).ok());
  ASSERT_TRUE(adapter_->NewSession(&other_).ok());
  ASSERT_TRUE(session_->Put("a", "1").ok());
  ASSERT_TRUE(session_->BeginBatch().ok());
  ASSERT_TRUE(session_->Put("a", "2").ok());
  ASSERT_TRUE(session_->Put("b", "new").ok());
  std::string value;
  ASSERT_TRUE(session_->Get("a", &value).ok());
  EXPECT_EQ(value, "2") << "the batch reads its own writes";
  ASSERT_TRUE(other_->Get("a", &value).ok());
  EXPECT_EQ(value, "1") << "others read the last commit";
  EXPECT_TRUE(other_->Get("b", &value).IsNotFound());
  Status s = adapter_->Reorganize();
  EXPECT_EQ(s.code(), Status::Code::kBusy) << s.ToString();
  ASSERT_TRUE(session_->CommitBatch().ok());
  ASSERT_TRUE(other_->Get("b", &value).ok());
  EXPECT_EQ(value, "new");
}

// Each scan is one snapshot: while a session on another thread commits
// batches that rewrite 20 keys, sessions on two threads see all 20 from the
// same batch every time.
TEST_F(PbtreeAdapterTest, SessionsOnThreadsReadWholeBatchesWhileOneCommits) {
  ASSERT_TRUE(Open({}).ok());
  auto key = [](int i) { return "group/" + std::to_string(100 + i); };
  class SameVersion final : public ScanVisitor {
   public:
    bool Visit(Slice, Slice value) override {
      if (rows == 0) first = std::string(value);
      mixed = mixed || value != Slice(first);
      ++rows;
      return true;
    }
    std::string first;
    int rows = 0;
    bool mixed = false;
  };
  std::atomic<bool> stop{false};
  std::atomic<int> torn{0}, scans{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 2; ++t) {
    readers.emplace_back([&] {
      std::unique_ptr<Session> session;
      ASSERT_TRUE(adapter_->NewSession(&session).ok());
      ScanOptions options;
      options.limit = 20;
      while (!stop.load()) {
        SameVersion visitor;
        ASSERT_TRUE(session->Scan("group/", options, &visitor, nullptr).ok());
        if (visitor.mixed) ++torn;
        if (visitor.rows > 0) ++scans;
      }
    });
  }
  // At least 300 batches, and on until the readers have scanned 100 times
  // while batches commit (on a busy machine they may start late).
  for (int v = 0; v < 300 || scans.load() < 100; ++v) {
    ASSERT_LT(v, 1000000) << "the readers never scanned";
    ASSERT_TRUE(session_->BeginBatch().ok());
    const std::string value = std::to_string(1000 + v);
    for (int i = 0; i < 20; ++i) ASSERT_TRUE(session_->Put(key(i), value).ok());
    ASSERT_TRUE(session_->CommitBatch().ok());
  }
  stop = true;
  for (std::thread& t : readers) t.join();
  EXPECT_EQ(torn.load(), 0);
  EXPECT_GE(scans.load(), 100);
}

}  // namespace
}  // namespace kvbench
