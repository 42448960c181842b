// What the conformance suite does not cover in the pbtree adapter: option
// checking, Reorganize, the file list, a batch's isolation from other
// sessions, sessions reading on other threads while one commits, and with
// sync=commit sessions writing on several threads at once beside batches.
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

// With sync=commit the sessions' autocommit writes go to pbtree together
// (it commits them in groups) while another session's batches hold the writer
// alone: no write is refused and none is lost.
TEST_F(PbtreeAdapterTest, WithSyncCommitSessionsWriteOnThreadsBesideBatches) {
  ASSERT_TRUE(Open({{"pbtree.sync", "commit"}}).ok());
  constexpr int kThreads = 3, kPuts = 150, kBatches = 40;
  std::vector<std::string> problems(kThreads + 1);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::unique_ptr<Session> session;
      ASSERT_TRUE(adapter_->NewSession(&session).ok());
      for (int i = 0; i < kPuts && problems[t].empty(); ++i) {
        std::string key = std::to_string(t);
        key.append("/").append(std::to_string(1000 + i));
        Status s = session->Put(key, "v");
        if (s.ok() && i % 10 == 9) s = session->Delete(key);
        if (!s.ok()) problems[t] = key + ": " + s.ToString();
      }
    });
  }
  threads.emplace_back([&] {
    for (int b = 0; b < kBatches && problems[kThreads].empty(); ++b) {
      Status s = session_->BeginBatch();
      for (int i = 0; s.ok() && i < 5; ++i) {
        s = session_->Put(std::string("batch/").append(std::to_string(1000 + b * 5 + i)), "b");
      }
      if (s.ok()) s = session_->CommitBatch();
      if (!s.ok()) problems[kThreads] = "batch " + std::to_string(b) + ": " + s.ToString();
    }
  });
  for (std::thread& t : threads) t.join();
  for (const std::string& p : problems) EXPECT_EQ(p, "");
  size_t rows = 0;
  ScanOptions all;
  class Count final : public ScanVisitor {
   public:
    bool Visit(Slice, Slice) override { return true; }
  } count;
  ASSERT_TRUE(session_->Scan("", all, &count, &rows).ok());
  EXPECT_EQ(rows, static_cast<size_t>(kThreads * (kPuts - kPuts / 10) + kBatches * 5));
  EXPECT_TRUE(adapter_->CheckIntegrity().ok());
}

}  // namespace
}  // namespace kvbench
