#include <gtest/gtest.h>

#include "runner/workload.h"

namespace kvbench::runner {
namespace {

constexpr const char* kHeader = R"(name = "t"
[dataset]
kind = "sequential"
count = 100
)";

Status Parse(const std::string& phases, Workload* w) {
  return ParseWorkload(std::string(kHeader) + phases, "w.toml", w);
}

TEST(WorkloadParserTest, ParsesPhasesAndMatrixLists) {
  Workload w;
  Status s = Parse(R"(
[[phase]]
name = "sweep"
op = "get"
count = 10
threads = [1, 2, 4]
target = [100, 0]
cache = ["cold", "hot"]
)", &w);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(w.phases.size(), 1u);
  const PhaseSpec& p = w.phases[0];
  EXPECT_EQ(p.threads, (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(p.targets, (std::vector<double>{100, 0}));
  EXPECT_EQ(p.caches, (std::vector<CacheState>{CacheState::kCold, CacheState::kHot}));
  EXPECT_EQ(p.line, 6);
  EXPECT_EQ(w.dataset_count, 100u);
}

// Each bad input gives one message with file, line, column and field.
struct BadCase {
  const char* phase;
  const char* expected;
};

class WorkloadParserErrorTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(WorkloadParserErrorTest, NamesFileLineAndField) {
  Workload w;
  Status s = Parse(GetParam().phase, &w);
  ASSERT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find(GetParam().expected), std::string::npos) << s.message();
  EXPECT_EQ(s.message().rfind("w.toml:", 0), 0u) << s.message();
}

INSTANTIATE_TEST_SUITE_P(
    BadInputs, WorkloadParserErrorTest,
    ::testing::Values(
        BadCase{"[[phase]]\nop = \"get\"\ncount = -5\n",
                "w.toml:7:9: field 'phase[0].count': must be from 0 to 1000000000000"},
        // Stated bounds, and no nan or inf where a number is a count, time or rate.
        BadCase{"[[phase]]\nop = \"get\"\ncount = 1000000000001\n",
                "field 'phase[0].count': must be from 0 to"},
        BadCase{"[[phase]]\nop = \"get\"\nduration = 1e308\n",
                "field 'phase[0].duration': must be a number from 0 to 604800"},
        BadCase{"[[phase]]\nop = \"get\"\nduration = inf\n", "field 'phase[0].duration'"},
        BadCase{"[[phase]]\nop = \"get\"\nduration = nan\n", "field 'phase[0].duration'"},
        BadCase{"[[phase]]\nop = \"get\"\ncount = 1\ntarget = nan\n", "field 'phase[0].target'"},
        BadCase{"[[phase]]\nop = \"get\"\ncount = 1\ntarget = inf\n", "field 'phase[0].target'"},
        BadCase{"[[phase]]\nop = \"mix\"\ncount = 1\nproportions = { read = nan }\n",
                "field 'phase[0].proportions.read'"},
        BadCase{"[[phase]]\nop = \"scan\"\ncount = 1\nlimit = 9999999999999\n",
                "field 'phase[0].limit'"},
        BadCase{"[[phase]]\nop = \"range\"\ncount = 1\nto = inf\n", "field 'phase[0].to'"},
        BadCase{"[[phase]]\nop = \"record-set\"\ncount = 1\nfield = 4294967296\n",
                "field 'phase[0].field'"},
        // Names: no control characters, unique per workload.
        BadCase{"[[phase]]\nname = \"a\\nb\"\nop = \"get\"\ncount = 1\n",
                "w.toml:6:8: field 'phase[0].name': holds a control character (byte 0x0a"},
        BadCase{"[[phase]]\nname = \"\"\nop = \"get\"\ncount = 1\n",
                "field 'phase[0].name': must be 1 to 200 bytes"},
        BadCase{
            "[[phase]]\nname = \"x\"\nop = \"get\"\ncount = 1\n[[phase]]\nname = \"x\"\nop = "
            "\"get\"\ncount = 1\n",
            "w.toml:10:8: field 'phase[1].name': 'x' is already the name of the phase at line 5"},
        BadCase{"[[phase]]\nop = \"teleport\"\ncount = 1\n",
                "field 'phase[0].op': unknown operation 'teleport'"},
        BadCase{"[[phase]]\nop = \"get\"\ncount = 1\ncolour = 3\n",
                "field 'phase[0].colour': unknown key"},
        BadCase{"[[phase]]\nop = \"get\"\ncount = 1\ntarget = 100\nthreads = []\n",
                "field 'phase[0].threads': must not be an empty list"},
        BadCase{"[[phase]]\nop = \"get\"\ncount = 1\nthreads = 0\n",
                "field 'phase[0].threads': must be an integer from 1 to 1024"},
        BadCase{"[[phase]]\nop = \"get\"\ncount = 1\ncache = \"lukewarm\"\n",
                "field 'phase[0].cache'"},
        BadCase{"[[phase]]\nop = \"get\"\n", "field 'phase[0].count': give count >= 1"},
        BadCase{"[[phase]]\nop = \"get\"\ncount = 1\ntarget = -1\n", "field 'phase[0].target'"},
        BadCase{"[[phase]]\nop = \"mix\"\ncount = 1\nproportions = { read = \"lots\" }\n",
                "field 'phase[0].proportions.read': must be a number"},
        BadCase{"[[phase]\nop = \"get\"\n", "w.toml:5:9: Error while parsing table header"}));

TEST(WorkloadParserTest, TopLevelBoundsAndNames) {
  Workload w;
  Status s = ParseWorkload(
      "name = \"x\\u0007\"\n[dataset]\ncount = 5\n[[phase]]\nop = \"get\"\ncount = 1\n", "a.toml",
      &w);
  EXPECT_NE(s.message().find("a.toml:1:8: field 'name': holds a control character"),
            std::string::npos)
      << s.message();
  s = ParseWorkload(
      "name = \"x\"\ntimeout = inf\n[dataset]\ncount = 5\n[[phase]]\nop = \"get\"\ncount = 1\n",
      "a.toml", &w);
  EXPECT_NE(s.message().find("a.toml:2:11: field 'timeout'"), std::string::npos) << s.message();
  s = ParseWorkload(
      "name = \"x\"\n[dataset]\ncount = 5000000000000\n[[phase]]\nop = \"get\"\ncount = 1\n",
      "a.toml", &w);
  EXPECT_NE(s.message().find("field 'dataset.count': must be from 1 to"), std::string::npos)
      << s.message();
}

TEST(WorkloadParserTest, MissingPhasesAndDatasetAreErrors) {
  Workload w;
  EXPECT_FALSE(ParseWorkload("name = \"x\"\n[dataset]\ncount = 5\n", "a.toml", &w).ok());
  Status s = ParseWorkload("name = \"x\"\n[[phase]]\nop = \"get\"\ncount = 1\n", "a.toml", &w);
  EXPECT_NE(s.message().find("dataset.count"), std::string::npos) << s.message();
}

TEST(WorkloadParserTest, ScaleMultipliesCountsButKeepsAtLeastOne) {
  Workload w;
  ASSERT_TRUE(Parse("[[phase]]\nop = \"get\"\ncount = 1000\nwarmup = 10\n", &w).ok());
  ScaleWorkload(0.01, &w);
  EXPECT_EQ(w.dataset_count, 1u);
  EXPECT_EQ(w.phases[0].count, 10u);
  EXPECT_EQ(w.phases[0].warmup, 1u);
}

TEST(WorkloadParserTest, UnreadableFileIsAnIOErrorNamingIt) {
  Workload w;
  Status s = LoadWorkloadFile("/nonexistent/dir/w.toml", &w);
  EXPECT_EQ(s.code(), Status::Code::kIOError);
  EXPECT_NE(s.message().find("/nonexistent/dir/w.toml"), std::string::npos);
}

// A directory or a device is not read (a directory used to parse as an empty
// workload; /dev/zero was read until memory ran out).
TEST(WorkloadParserTest, NonRegularFilesAreRefusedNamingThem) {
  Workload w;
  Status s = LoadWorkloadFile("/tmp", &w);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("workload file '/tmp': is a directory"), std::string::npos)
      << s.message();
  s = LoadWorkloadFile("/dev/zero", &w);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.message().find("'/dev/zero': is a character device"), std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace kvbench::runner
