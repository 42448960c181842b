// Merged shards measured on several hosts: figures grouped by host, engines
// ranked only against engines of the same host, and the report saying that
// cross-host ratios are not comparable.
#include <gtest/gtest.h>

#include <set>

#include "reports/reporter.h"
#include "reports/reports.h"
#include "reports/verdict.h"
#include "tests/support/golden_test_support.h"

namespace kvbench::reports {
namespace {

const std::set<std::string> kSecondHostEngines = {"lmdb", "bdb-hash"};

// run_a as if merged from two shards: lmdb and bdb-hash measured on `second_host`.
results::RunResults MergedOnTwoHosts(const std::string& second_host) {
  results::RunResults r = test::LoadRunA();
  results::ShardInfo a, b;
  a.index = 0;
  a.count = b.count = 2;
  b.index = 1;
  a.finished = b.finished = true;
  a.environment = r.environment;
  b.environment = r.environment;
  b.environment->hostname = second_host;
  b.labels["slurm.node"] = second_host;
  r.shards = {a, b};
  for (results::PhaseRun& run : r.runs) run.shard = kSecondHostEngines.contains(run.engine) ? 1 : 0;
  return r;
}

bool Contains(const std::string& s, const std::string& what) {
  return s.find(what) != std::string::npos;
}

TEST(HostGroupingTest, ReportGroupsFiguresByHostAndSaysRatiosAcrossHostsAreNotComparable) {
  const results::RunResults r = MergedOnTwoHosts("bench-02");
  const std::string md = MakeMarkdownReporter()->Render(r);
  EXPECT_TRUE(Contains(md, "measured on 2 hosts (bench-01, bench-02)")) << md;
  EXPECT_TRUE(Contains(md, "it is not comparable"));
  EXPECT_TRUE(Contains(md, "| shard 1/2 | host bench-02, 0 rows"));
  EXPECT_TRUE(Contains(md, "slurm.node=bench-02"));
  EXPECT_TRUE(Contains(md, "| host | engine | ops/s |")) << md;
  EXPECT_TRUE(Contains(RenderSummaryTable(r), "host"));
  const std::string html = MakeHtmlReporter()->Render(r);
  EXPECT_TRUE(Contains(html, "measured on 2 hosts"));
}

TEST(HostGroupingTest, EnginesAreRankedOnlyAgainstEnginesOfTheirHost) {
  const std::vector<PointVerdict> verdicts = Verdicts(MergedOnTwoHosts("bench-02"));
  ASSERT_FALSE(verdicts.empty());
  int second_host_points = 0;
  for (const PointVerdict& v : verdicts) {
    const bool second = Contains(v.point, "host bench-02");
    EXPECT_TRUE(second || Contains(v.point, "host bench-01")) << v.point;
    second_host_points += second ? 1 : 0;
    for (const std::string& e : {v.fastest, v.runner_up}) {
      if (!e.empty()) {
        EXPECT_EQ(kSecondHostEngines.contains(e), second) << v.phase << " " << v.point;
      }
    }
  }
  EXPECT_GT(second_host_points, 0);
}

TEST(HostGroupingTest, ShardsOfOneHostReadAsOneRun) {
  const results::RunResults r = MergedOnTwoHosts("bench-01");
  const std::string md = MakeMarkdownReporter()->Render(r);
  EXPECT_FALSE(Contains(md, "hosts ("));
  EXPECT_FALSE(Contains(md, "| host | engine |"));
  EXPECT_TRUE(Contains(md, "| shard 1/2 | host bench-01"));
  for (const PointVerdict& v : Verdicts(r)) EXPECT_FALSE(Contains(v.point, "host")) << v.point;
}

}  // namespace
}  // namespace kvbench::reports
