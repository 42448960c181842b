// The adapter conformance suite: every registered adapter runs every test
// here, so a new adapter is tested by registering it. Tests that need a
// capability the engine does not claim are skipped (and shown as skipped),
// never silently passed.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "adapters/registry.h"
#include "tests/scratch_dir.h"

namespace kvbench {
namespace {

namespace fs = std::filesystem;

class CollectingVisitor : public ScanVisitor {
 public:
  bool Visit(Slice key, Slice value) override {
    entries.emplace_back(std::string(key), std::string(value));
    return true;
  }
  std::vector<std::pair<std::string, std::string>> entries;
};

// GTEST_SKIP must be in the test body itself to end the test.
#define SKIP_UNLESS_STORES_DATA() \
  if (!caps_.stores_data) GTEST_SKIP() << GetParam() << " keeps no data"

class ConformanceTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(AdapterRegistry::Global().errors().empty());
    ASSERT_TRUE(AdapterRegistry::Global().Create(GetParam(), &adapter_).ok());
    caps_ = adapter_->capabilities();
    Reopen();
  }

  void TearDown() override {
    session_.reset();
    if (adapter_) {
      EXPECT_TRUE(adapter_->Close().ok());
    }
  }

  // Closes (when open) and opens the adapter on the same directory with its
  // default options, and makes a fresh session.
  void Reopen() {
    session_.reset();
    if (opened_) {
      ASSERT_TRUE(adapter_->Close().ok());
    }
    OpenRequest request;
    request.directory = dir_.path();
    ASSERT_TRUE(ResolveEngineOptions(GetParam(), adapter_->OptionSpecs(), {}, &request.options).ok());
    Status s = adapter_->Open(request);
    ASSERT_TRUE(s.ok()) << s.ToString();
    opened_ = true;
    s = adapter_->NewSession(&session_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }


  void Put(const std::string& k, const std::string& v) {
    Status s = session_->Put(k, v);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  // The stored value, or "<absent>" when NotFound; fails on any other status.
  std::string Get(const std::string& k) {
    std::string v;
    Status s = session_->Get(k, &v);
    if (s.IsNotFound()) return "<absent>";
    EXPECT_TRUE(s.ok()) << s.ToString();
    return v;
  }

  std::vector<std::pair<std::string, std::string>> Scan(const std::string& start,
                                                        const ScanOptions& options) {
    CollectingVisitor visitor;
    size_t visited = 0;
    Status s = session_->Scan(start, options, &visitor, &visited);
    EXPECT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(visited, visitor.entries.size());
    return visitor.entries;
  }

  test::ScratchDir dir_{"conformance"};
  std::unique_ptr<Adapter> adapter_;
  std::unique_ptr<Session> session_;
  Capabilities caps_;
  bool opened_ = false;
};

TEST_P(ConformanceTest, PutGetRoundTrip) {
  SKIP_UNLESS_STORES_DATA();
  Put("alpha", "one");
  Put("beta", "two");
  EXPECT_EQ(Get("alpha"), "one");
  EXPECT_EQ(Get("beta"), "two");
}

TEST_P(ConformanceTest, OverwriteReplacesValue) {
  SKIP_UNLESS_STORES_DATA();
  Put("key", "first value, longer than the second");
  Put("key", "second");
  EXPECT_EQ(Get("key"), "second");
}

TEST_P(ConformanceTest, DeleteRemovesKey) {
  SKIP_UNLESS_STORES_DATA();
  Put("doomed", "x");
  Put("kept", "y");
  Status s = session_->Delete("doomed");
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(Get("doomed"), "<absent>");
  EXPECT_EQ(Get("kept"), "y");
  s = session_->Delete("never-there");
  EXPECT_TRUE(s.ok() || s.IsNotFound()) << s.ToString();
}

TEST_P(ConformanceTest, MissingKeyIsNotFound) {
  SKIP_UNLESS_STORES_DATA();
  Put("present", "1");
  std::string v = "unchanged";
  Status s = session_->Get("absent", &v);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
}

TEST_P(ConformanceTest, KeysAndValuesWithNulBytes) {
  SKIP_UNLESS_STORES_DATA();
  const std::string k1("a\0b", 3), k2("a\0c", 3), k3("a", 1);
  const std::string v1("\0\0value\0", 8);
  Put(k1, v1);
  Put(k2, "second");
  Put(k3, "short");
  EXPECT_EQ(Get(k1), v1);
  EXPECT_EQ(Get(k2), "second");
  EXPECT_EQ(Get(k3), "short");
  EXPECT_EQ(Get(std::string("a\0", 2)), "<absent>");
}

TEST_P(ConformanceTest, TwoKiBKeys) {
  SKIP_UNLESS_STORES_DATA();
  if (caps_.max_key_size != 0) {
    // An engine with a smaller limit says so: the longest key it claims works,
    // one byte more is refused with InvalidArgument, never stored truncated.
    ASSERT_LT(caps_.max_key_size, 2048u);
    std::string longest(caps_.max_key_size, 'k');
    Put(longest, "max");
    EXPECT_EQ(Get(longest), "max");
    Status s = session_->Put(longest + "k", "too long");
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_EQ(Get(longest + "k"), "<absent>");
    return;
  }
  std::string a(2048, 'k'), b(2048, 'k');
  b.back() = 'z';
  Put(a, "a");
  Put(b, "b");
  EXPECT_EQ(Get(a), "a");
  EXPECT_EQ(Get(b), "b");
}

TEST_P(ConformanceTest, EmptyValue) {
  SKIP_UNLESS_STORES_DATA();
  Put("empty", "");
  std::string v = "not empty";
  Status s = session_->Get("empty", &v);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(v, "");
}

TEST_P(ConformanceTest, OneMiBValue) {
  SKIP_UNLESS_STORES_DATA();
  std::string big(1 << 20, '\0');
  std::mt19937_64 rng(7);
  for (char& c : big) c = static_cast<char>(rng());
  Put("big", big);
  Put("after", "small");
  EXPECT_EQ(Get("big"), big);
  EXPECT_EQ(Get("after"), "small");
}

TEST_P(ConformanceTest, CommittedBatchIsVisible) {
  SKIP_UNLESS_STORES_DATA();
  ASSERT_TRUE(session_->BeginBatch().ok());
  for (int i = 0; i < 100; ++i) Put("batch" + std::to_string(i), std::to_string(i));
  ASSERT_TRUE(session_->Delete("batch7").ok());
  Status s = session_->CommitBatch();
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(Get("batch0"), "0");
  EXPECT_EQ(Get("batch99"), "99");
  EXPECT_EQ(Get("batch7"), "<absent>");
}

TEST_P(ConformanceTest, AbortedBatchIsGone) {
  SKIP_UNLESS_STORES_DATA();
  if (!caps_.transactional) GTEST_SKIP() << GetParam() << " emulates batches";
  Put("before", "kept");
  ASSERT_TRUE(session_->BeginBatch().ok());
  Put("inside", "dropped");
  Put("before", "overwritten");
  Status s = session_->AbortBatch();
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(Get("inside"), "<absent>");
  EXPECT_EQ(Get("before"), "kept");
}

TEST_P(ConformanceTest, ReopenKeepsCommittedData) {
  SKIP_UNLESS_STORES_DATA();
  if (!caps_.durable) GTEST_SKIP() << GetParam() << " is not durable";
  Put("single", "autocommitted");
  ASSERT_TRUE(session_->BeginBatch().ok());
  Put("batched", "committed");
  ASSERT_TRUE(session_->CommitBatch().ok());
  ASSERT_TRUE(session_->Delete("single").ok());
  Reopen();
  EXPECT_EQ(Get("batched"), "committed");
  EXPECT_EQ(Get("single"), "<absent>");
}

TEST_P(ConformanceTest, OrderedScansInByteOrder) {
  SKIP_UNLESS_STORES_DATA();
  if (!caps_.ordered) {
    CollectingVisitor visitor;
    EXPECT_TRUE(session_->Scan("", ScanOptions{}, &visitor, nullptr).IsNotSupported());
    return;
  }
  // Byte order, not signed-char order: 0x80 sorts after 'z'.
  const std::vector<std::string> keys = {"b", "ba", "bb", "c", "d", "z", "\x80", "\xff"};
  for (const auto& k : keys) Put(k, "v" + k);

  ScanOptions fwd;
  fwd.limit = 3;
  auto got = Scan("b", fwd);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].first, "b");
  EXPECT_EQ(got[1].first, "ba");
  EXPECT_EQ(got[2].first, "bb");
  EXPECT_EQ(got[0].second, "vb");

  got = Scan("bc", fwd);  // between keys: starts at the next one
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].first, "c");

  ScanOptions all;
  got = Scan("\x81", all);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].first, "\xff");

  ScanOptions back;
  back.direction = ScanDirection::kBackward;
  back.limit = 2;
  got = Scan("bz", back);  // between keys: starts at the previous one
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].first, "bb");
  EXPECT_EQ(got[1].first, "ba");

  back.limit = 0;
  got = Scan("c", back);
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0].first, "c");
  EXPECT_EQ(got[3].first, "b");

  ScanOptions edge;
  edge.from_edge = true;
  edge.direction = ScanDirection::kBackward;
  edge.limit = 1;
  got = Scan("", edge);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].first, "\xff");
  edge.direction = ScanDirection::kForward;
  got = Scan("zzz", edge);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].first, "b");

  // A visitor that stops early.
  struct StopAfterTwo : ScanVisitor {
    int seen = 0;
    bool Visit(Slice, Slice) override { return ++seen < 2; }
  } stopper;
  size_t visited = 0;
  ASSERT_TRUE(session_->Scan("", edge, &stopper, &visited).ok());
  EXPECT_LE(stopper.seen, 2);
}

TEST_P(ConformanceTest, ListedFilesExistAndAccountForTheDirectory) {
  SKIP_UNLESS_STORES_DATA();
  for (int i = 0; i < 1000; ++i) Put("file-key-" + std::to_string(i), std::string(100, 'v'));
  ASSERT_TRUE(adapter_->Sync().ok());
  std::vector<std::string> files;
  ASSERT_TRUE(adapter_->ListFiles(&files).ok());
  uint64_t listed = 0;
  for (const auto& f : files) {
    ASSERT_TRUE(fs::is_regular_file(f)) << f;
    listed += fs::file_size(f);
  }
  uint64_t on_disk = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir_.path())) {
    if (entry.is_regular_file()) on_disk += entry.file_size();
  }
  // Every byte in the engine's directory belongs to a listed file.
  EXPECT_EQ(listed, on_disk);
  if (caps_.durable) {
    EXPECT_GT(listed, 1000u * 100u / 4) << "data of a durable engine is on disk";
  }
}

TEST_P(ConformanceTest, NullEngineAcceptsEverything) {
  if (caps_.stores_data) GTEST_SKIP() << GetParam() << " stores data";
  EXPECT_TRUE(session_->Put("k", "v").ok());
  std::string v = "x";
  EXPECT_TRUE(session_->Get("k", &v).ok());
  EXPECT_TRUE(v.empty());
  EXPECT_TRUE(session_->Delete("k").ok());
}

// 100,000 random operations (puts, overwrites, deletes, gets, batches and, on
// ordered engines, scans) cross-checked against std::map with a fixed seed.
TEST_P(ConformanceTest, RandomOperationsMatchStdMap) {
  SKIP_UNLESS_STORES_DATA();
  std::map<std::string, std::string> model;
  std::mt19937_64 rng(20261122);
  auto random_key = [&] {
    // A small key space so that overwrites, deletes and hits are common.
    const uint64_t n = rng() % 5000;
    std::string k = "k" + std::to_string(n * 7919 % 5000);
    if (n % 11 == 0) k.push_back('\0');
    return k;
  };
  bool in_batch = false;
  std::map<std::string, std::optional<std::string>> pending;
  std::string value;
  for (int op = 0; op < 100000; ++op) {
    const int dice = static_cast<int>(rng() % 100);
    if (dice < 40) {
      const std::string k = random_key();
      const std::string v = std::string(rng() % 64, 'a' + static_cast<char>(rng() % 26));
      ASSERT_TRUE(session_->Put(k, v).ok());
      if (in_batch) pending[k] = v; else model[k] = v;
    } else if (dice < 55) {
      const std::string k = random_key();
      Status s = session_->Delete(k);
      ASSERT_TRUE(s.ok() || s.IsNotFound()) << s.ToString();
      if (in_batch) pending[k] = std::nullopt; else model.erase(k);
    } else if (dice < 90) {
      if (in_batch) continue;  // reads inside a batch are engine-defined
      const std::string k = random_key();
      Status s = session_->Get(k, &value);
      auto it = model.find(k);
      if (it == model.end()) {
        ASSERT_TRUE(s.IsNotFound()) << "op " << op << " key " << k << ": " << s.ToString();
      } else {
        ASSERT_TRUE(s.ok()) << "op " << op << " key " << k << ": " << s.ToString();
        ASSERT_EQ(value, it->second) << "op " << op;
      }
    } else if (dice < 95) {
      if (!caps_.ordered || in_batch) continue;
      const std::string start = random_key();
      ScanOptions options;
      options.limit = 1 + rng() % 20;
      options.direction = rng() % 2 ? ScanDirection::kForward : ScanDirection::kBackward;
      auto got = Scan(start, options);
      std::vector<std::pair<std::string, std::string>> expected;
      if (options.direction == ScanDirection::kForward) {
        for (auto it = model.lower_bound(start); it != model.end() && expected.size() < options.limit; ++it)
          expected.emplace_back(*it);
      } else {
        for (auto it = model.upper_bound(start); it != model.begin() && expected.size() < options.limit;) {
          --it;
          expected.emplace_back(*it);
        }
      }
      ASSERT_EQ(got, expected) << "op " << op;
    } else {
      if (!in_batch) {
        ASSERT_TRUE(session_->BeginBatch().ok());
        in_batch = true;
      } else if (caps_.transactional && rng() % 4 == 0) {
        ASSERT_TRUE(session_->AbortBatch().ok());
        pending.clear();
        in_batch = false;
      } else {
        ASSERT_TRUE(session_->CommitBatch().ok());
        for (auto& [k, v] : pending) {
          if (v) model[k] = *v; else model.erase(k);
        }
        pending.clear();
        in_batch = false;
      }
    }
  }
  if (in_batch) {
    ASSERT_TRUE(session_->CommitBatch().ok());
    for (auto& [k, v] : pending) {
      if (v) model[k] = *v; else model.erase(k);
    }
  }
  for (const auto& [k, v] : model) ASSERT_EQ(Get(k), v) << k;
}

std::string ParamName(const ::testing::TestParamInfo<std::string>& info) {
  std::string out;
  for (char c : info.param) out.push_back(std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  return out;
}

INSTANTIATE_TEST_SUITE_P(AllAdapters, ConformanceTest,
                         ::testing::ValuesIn(AdapterRegistry::Global().Names()), ParamName);

}  // namespace
}  // namespace kvbench
