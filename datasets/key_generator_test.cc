// The factory and the properties every kind promises: purity, length bound,
// absent keys never present, clear errors.
#include "datasets/key_generator.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <unordered_set>

namespace kvbench::datasets {
namespace {

class TempFile {
 public:
  explicit TempFile(const std::string& contents) {
    char name[] = "/tmp/kvbench_keys_XXXXXX";
    const int fd = mkstemp(name);
    EXPECT_GE(fd, 0);
    close(fd);
    path_ = name;
    std::ofstream(path_, std::ios::binary) << contents;
  }
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

Status Make(const std::string& kind, ParamMap params, std::unique_ptr<KeyGenerator>* g,
            uint64_t count = 0) {
  DatasetSpec spec;
  spec.kind = kind;
  spec.params = std::move(params);
  spec.count = count;
  return NewKeyGenerator(spec, g);
}

TEST(KeyGeneratorTest, UnknownKindNamesTheKnownOnes) {
  std::unique_ptr<KeyGenerator> g;
  const Status s = Make("urlz", {}, &g);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("unknown dataset 'urlz'"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("urls"), std::string::npos) << s.message();
}

TEST(KeyGeneratorTest, UnknownOptionAndBadValueNameTheOption) {
  std::unique_ptr<KeyGenerator> g;
  Status s = Make("sequential", {{"widht", "4"}}, &g);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("dataset 'sequential': unknown option 'widht'"), std::string::npos)
      << s.message();
  s = Make("sequential", {{"width", "3"}}, &g);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("width"), std::string::npos) << s.message();
  s = Make("random-int", {{"max", "12x"}}, &g);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("'12x'"), std::string::npos) << s.message();
}

TEST(KeyGeneratorTest, CountBeyondCapacityIsRejected) {
  std::unique_ptr<KeyGenerator> g;
  const Status s = Make("sequential", {{"width", "4"}, {"start", "4294967000"}}, &g, 1000);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("exceeds"), std::string::npos) << s.message();
}

TEST(KeyGeneratorTest, EveryKindIsPureBoundedAndHasAbsentKeys) {
  TempFile file("alpha\nbeta\n\ngamma\r\ndelta\n");
  for (const DatasetKind& kind : DatasetKinds()) {
    SCOPED_TRACE(kind.name);
    ParamMap params;
    if (kind.name == "file") params["path"] = file.path();
    std::unique_ptr<KeyGenerator> g;
    const Status s = Make(kind.name, params, &g, kind.name == "file" ? 0 : 5000);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(g->kind(), kind.name);
    EXPECT_EQ(g->params().values().size(), kind.params.size());
    const uint64_t n = g->count();
    std::unordered_set<std::string> present;
    std::string a, b;
    for (uint64_t i = 0; i < n; ++i) {
      g->Key(i, &a);
      g->Key(i, &b);
      ASSERT_EQ(a, b);
      ASSERT_LE(a.size(), g->max_length());
      present.insert(a);
    }
    if (g->distinct()) {
      EXPECT_EQ(present.size(), n);
    }
    for (uint64_t j = 0; j < 2 * n; ++j) {
      g->AbsentKey(j, &a);
      ASSERT_EQ(present.count(a), 0u) << "absent key " << j << " is present";
      ASSERT_LE(a.size(), g->max_length());
    }
  }
}

TEST(KeyGeneratorTest, FileKeysAreLinesWithBlanksAndCarriageReturnsDropped) {
  TempFile file("alpha\nbeta\n\ngamma\r\ndelta");
  std::unique_ptr<KeyGenerator> g;
  ASSERT_TRUE(Make("file", {{"path", file.path()}}, &g).ok());
  ASSERT_EQ(g->count(), 4u);
  std::string key;
  const char* expected[] = {"alpha", "beta", "gamma", "delta"};
  for (uint64_t i = 0; i < 4; ++i) {
    g->Key(i, &key);
    EXPECT_EQ(key, expected[i]);
  }
  g->AbsentKey(5, &key);
  EXPECT_EQ(key, "beta\n");
  ASSERT_TRUE(Make("file", {{"path", file.path()}}, &g, 2).ok());
  EXPECT_EQ(g->count(), 2u);
  EXPECT_EQ(g->capacity(), 4u);
  const Status s = Make("file", {{"path", file.path()}}, &g, 5);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("holds 4 keys"), std::string::npos) << s.message();
}

TEST(KeyGeneratorTest, MissingKeyFileIsAnErrorNamingTheFile) {
  std::unique_ptr<KeyGenerator> g;
  Status s = Make("file", {{"path", "/nonexistent/keys.txt"}}, &g);
  EXPECT_EQ(s.code(), Status::Code::kIOError);
  EXPECT_NE(s.message().find("/nonexistent/keys.txt"), std::string::npos) << s.message();
  s = Make("file", {}, &g);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("'path'"), std::string::npos) << s.message();
  TempFile empty("\n\n");
  s = Make("file", {{"path", empty.path()}}, &g);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("holds no keys"), std::string::npos) << s.message();
}

TEST(KeyGeneratorTest, DefaultCountIsSeed001Size) {
  std::unique_ptr<KeyGenerator> g;
  ASSERT_TRUE(Make("sequential", {}, &g).ok());
  EXPECT_EQ(g->count(), kDefaultKeyCount);
}

}  // namespace
}  // namespace kvbench::datasets
