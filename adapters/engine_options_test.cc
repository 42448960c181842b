#include "adapters/engine_options.h"

#include <gtest/gtest.h>

namespace kvbench {
namespace {

const std::vector<OptionSpec> kSpecs = {
    {"demo.cache_size", "64MiB", "cache"},
    {"demo.sync", "false", "sync"},
    {"demo.pragma.", "", "any pragma", /*is_prefix=*/true},
};

TEST(EngineOptionsTest, DefaultsAreFilledAndOverridesApplied) {
  EngineOptions options;
  ASSERT_TRUE(ResolveEngineOptions("demo", kSpecs, {{"demo.sync", "on"}}, &options).ok());
  uint64_t bytes = 0;
  ASSERT_TRUE(options.GetBytes("demo.cache_size", &bytes).ok());
  EXPECT_EQ(bytes, 64u << 20);
  bool sync = false;
  ASSERT_TRUE(options.GetBool("demo.sync", &sync).ok());
  EXPECT_TRUE(sync);
}

TEST(EngineOptionsTest, UnknownOptionIsAnErrorNamingEngineAndOption) {
  EngineOptions options;
  Status s = ResolveEngineOptions("demo", kSpecs, {{"demo.cache_sise", "1"}}, &options);
  ASSERT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.message().find("unknown option 'demo.cache_sise' for engine 'demo'"), std::string::npos);
  EXPECT_NE(s.message().find("demo.cache_size"), std::string::npos);
}

TEST(EngineOptionsTest, PrefixSpecsAcceptAnySuffix) {
  EngineOptions options;
  ASSERT_TRUE(ResolveEngineOptions("demo", kSpecs, {{"demo.pragma.mmap_size", "0"}}, &options).ok());
  auto pragmas = options.WithPrefix("demo.pragma.");
  ASSERT_EQ(pragmas.size(), 1u);
  EXPECT_EQ(pragmas["mmap_size"], "0");
  // The bare prefix is not an option.
  EXPECT_FALSE(ResolveEngineOptions("demo", kSpecs, {{"demo.pragma.", "0"}}, &options).ok());
}

TEST(EngineOptionsTest, BadValuesNameTheOption) {
  EngineOptions options(std::map<std::string, std::string>{{"demo.n", "12x"}});
  int64_t n = 5;
  Status s = options.GetInt64("demo.n", &n);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_EQ(n, 5);
  EXPECT_NE(s.message().find("demo.n"), std::string::npos);
}

TEST(EngineOptionsTest, ByteSizes) {
  uint64_t v = 0;
  EXPECT_TRUE(ParseBytes("4096", &v));
  EXPECT_EQ(v, 4096u);
  EXPECT_TRUE(ParseBytes("1G", &v));
  EXPECT_EQ(v, 1ull << 30);
  EXPECT_TRUE(ParseBytes("2KiB", &v));
  EXPECT_EQ(v, 2048u);
  EXPECT_FALSE(ParseBytes("12 parsecs", &v));
  EXPECT_FALSE(ParseBytes("", &v));
  EXPECT_FALSE(ParseBytes("99999999999999999999T", &v));
}

}  // namespace
}  // namespace kvbench
