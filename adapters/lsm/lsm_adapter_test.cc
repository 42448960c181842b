// The shared LSM adapter on both engines: reads inside a batch see the
// batch's writes merged into the engine's (Get and Scan both ways, against a
// std::map), and a directory that is not the engine's, or a damaged one, is a
// clear error at open, never a crash.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>

#include "adapters/registry.h"
#include "tests/scratch_dir.h"

namespace kvbench {
namespace {

class Collect : public ScanVisitor {
 public:
  bool Visit(Slice key, Slice value) override {
    rows.emplace_back(std::string(key), std::string(value));
    return true;
  }
  std::vector<std::pair<std::string, std::string>> rows;
};

class LsmAdapterTest : public ::testing::TestWithParam<std::string> {
 protected:
  Status Open(std::unique_ptr<Adapter>* adapter, const std::string& dir) {
    KVBENCH_RETURN_IF_ERROR(AdapterRegistry::Global().Create(GetParam(), adapter));
    OpenRequest request;
    request.directory = dir;
    KVBENCH_RETURN_IF_ERROR(
        ResolveEngineOptions(GetParam(), (*adapter)->OptionSpecs(), {}, &request.options));
    return (*adapter)->Open(request);
  }
  test::ScratchDir dir_{"lsm"};
};

TEST_P(LsmAdapterTest, ReadsInsideABatchSeeItsWrites) {
  std::unique_ptr<Adapter> adapter;
  ASSERT_TRUE(Open(&adapter, dir_.path()).ok());
  std::unique_ptr<Session> s;
  ASSERT_TRUE(adapter->NewSession(&s).ok());
  std::map<std::string, std::string> committed, model;
  std::mt19937 rng(7);
  for (int i = 0; i < 200; i += 2) {
    const std::string k = "k" + std::to_string(100 + i);
    ASSERT_TRUE(s->Put(k, "old").ok());
    committed[k] = "old";
  }
  model = committed;
  ASSERT_TRUE(s->BeginBatch().ok());
  for (int i = 0; i < 150; ++i) {
    const std::string k = "k" + std::to_string(100 + rng() % 200);
    if (rng() % 3 == 0) {
      ASSERT_TRUE(s->Delete(k).ok());
      model.erase(k);
    } else {
      ASSERT_TRUE(s->Put(k, "new" + std::to_string(i)).ok());
      model[k] = "new" + std::to_string(i);
    }
  }
  std::string v;
  for (int i = 100; i < 300; ++i) {
    const std::string k = "k" + std::to_string(i);
    const Status got = s->Get(k, &v);
    const auto it = model.find(k);
    ASSERT_EQ(got.ok(), it != model.end()) << k;
    if (got.ok()) {
      EXPECT_EQ(v, it->second) << k;
    }
  }
  for (const char* start : {"k150", "k0", "k9", "k201"}) {
    for (ScanDirection dir : {ScanDirection::kForward, ScanDirection::kBackward}) {
      ScanOptions options;
      options.direction = dir;
      options.limit = 25;
      Collect c;
      ASSERT_TRUE(s->Scan(start, options, &c, nullptr).ok());
      std::vector<std::pair<std::string, std::string>> expected;
      if (dir == ScanDirection::kForward) {
        for (auto it = model.lower_bound(start); it != model.end() && expected.size() < 25; ++it)
          expected.push_back(*it);
      } else {
        for (auto it = model.upper_bound(start); it != model.begin() && expected.size() < 25;) {
          --it;
          expected.push_back(*it);
        }
      }
      EXPECT_EQ(c.rows, expected) << start << (dir == ScanDirection::kForward ? " fwd" : " bwd");
    }
  }
  // Aborted: the engine still holds only what was committed before.
  ASSERT_TRUE(s->AbortBatch().ok());
  for (const auto& [k, old] : committed) {
    ASSERT_TRUE(s->Get(k, &v).ok());
    EXPECT_EQ(v, old);
  }
}

TEST_P(LsmAdapterTest, ADamagedDirectoryIsAnErrorAtOpen) {
  {
    std::unique_ptr<Adapter> adapter;
    ASSERT_TRUE(Open(&adapter, dir_.path()).ok());
    std::unique_ptr<Session> s;
    ASSERT_TRUE(adapter->NewSession(&s).ok());
    ASSERT_TRUE(s->Put("a", "1").ok());
    ASSERT_TRUE(adapter->Sync().ok());
  }
  // CURRENT names the manifest; point it at one that does not exist.
  std::ofstream(dir_.path() + "/CURRENT", std::ios::trunc) << "MANIFEST-999999\n";
  std::unique_ptr<Adapter> adapter;
  const Status s = Open(&adapter, dir_.path());
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(s.message().empty());
}

TEST_P(LsmAdapterTest, AnotherEnginesDirectoryIsAnErrorAtOpen) {
  std::ofstream(dir_.path() + "/CURRENT") << "not a manifest name at all\n";
  std::unique_ptr<Adapter> adapter;
  const Status s = Open(&adapter, dir_.path());
  EXPECT_FALSE(s.ok()) << "opened a directory it did not write";
}

std::vector<std::string> LsmEngines() {
  std::vector<std::string> out;
  for (const char* name : {"leveldb", "rocksdb"}) {
    if (AdapterRegistry::Global().Find(name) != nullptr) out.push_back(name);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Engines, LsmAdapterTest, ::testing::ValuesIn(LsmEngines()));

}  // namespace
}  // namespace kvbench
