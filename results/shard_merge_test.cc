#include "results/shard_merge.h"

#include <gtest/gtest.h>

#include "results/results_json.h"

namespace kvbench::results {
namespace {

// Shard `index` of `count` holding the rows `rows` (engine "e<row % 2>").
ShardFile Shard(int index, int count, std::vector<int> rows, std::string host = "node0") {
  ShardFile f;
  f.path = "s" + std::to_string(index) + "/results.json";
  RunResults& r = f.results;
  r.environment.hostname = std::move(host);
  r.workload.name = "w";
  r.workload.scale = 1;
  r.started_at = "2026-01-0" + std::to_string(index + 1) + "T00:00:00Z";
  r.finished_at = r.started_at;
  ShardInfo s;
  s.index = index;
  s.count = count;
  s.plan_hash = "p1";
  s.assignment_hash = "a1";
  s.rows = static_cast<int>(rows.size());
  s.finished = true;
  s.labels["slurm.array_task_id"] = std::to_string(index);
  r.shards.push_back(s);
  for (int row : rows) {
    PhaseRun run;
    run.engine = "e" + std::to_string(row % 2);
    run.phase = "p" + std::to_string(row);
    run.row = row;
    run.shard = index;
    run.repetitions.resize(1);
    r.runs.push_back(run);
  }
  for (const char* e : {"e0", "e1"}) {
    EngineRun er;
    er.name = e;
    er.wall_seconds = 1;
    r.engines.push_back(er);
  }
  return f;
}

std::string MergeError(const std::vector<ShardFile>& shards, std::vector<std::string> absent = {}) {
  RunResults out;
  const Status s = MergeShards(shards, absent, "kvbench merge", &out);
  EXPECT_TRUE(s.IsInvalidArgument());
  return s.message();
}

TEST(ShardMergeTest, JoinsShardsInPlanOrderKeepingEachShardsEnvironment) {
  RunResults out;
  ASSERT_TRUE(
      MergeShards({Shard(1, 2, {1, 2}, "node1"), Shard(0, 2, {0, 3})}, {}, "cmd", &out).ok());
  ASSERT_EQ(out.runs.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(*out.runs[static_cast<size_t>(i)].row, i);
  EXPECT_EQ(*out.runs[1].shard, 1);
  EXPECT_EQ(*out.runs[3].shard, 0);
  ASSERT_EQ(out.shards.size(), 2u);
  EXPECT_EQ(out.shards[0].index, 0);
  EXPECT_EQ(out.shards[1].environment->hostname, "node1");
  EXPECT_EQ(out.shards[1].file, "s1/results.json");
  EXPECT_EQ(out.shards[1].labels.at("slurm.array_task_id"), "1");
  EXPECT_EQ(out.environment.hostname, "node0");
  EXPECT_EQ(out.started_at, "2026-01-01T00:00:00Z");
  EXPECT_EQ(out.finished_at, "2026-01-02T00:00:00Z");
  ASSERT_EQ(out.engines.size(), 2u);
  EXPECT_DOUBLE_EQ(out.engines[0].wall_seconds, 2);
  EXPECT_EQ(EnvironmentOf(out, out.runs[1]).hostname, "node1");
  EXPECT_EQ(HostsOf(out), (std::vector<std::string>{"node0", "node1"}));
  // It survives results.json.
  RunResults back;
  ASSERT_TRUE(ResultsFromJson(ResultsToJson(out), &back).ok());
  EXPECT_EQ(back.shards[1].environment->hostname, "node1");
  EXPECT_EQ(*back.runs[2].shard, 1);
  EXPECT_EQ(HostsOf(back).size(), 2u);
}

TEST(ShardMergeTest, AnEngineThatFailedOnOneShardFailedWithTheShardNamed) {
  std::vector<ShardFile> shards = {Shard(0, 2, {0, 1}), Shard(1, 2, {2, 3})};
  shards[1].results.engines[0].status = "failed";
  shards[1].results.engines[0].reason = "killed by signal 9";
  RunResults out;
  ASSERT_TRUE(MergeShards(shards, {}, "cmd", &out).ok());
  EXPECT_EQ(out.engines[0].status, "failed");
  EXPECT_EQ(out.engines[0].reason, "shard 1/2: killed by signal 9");
  EXPECT_EQ(out.engines[1].status, "ok");
}

TEST(ShardMergeTest, RefusesMissingShardsNamingThemAndWhereTheyWereExpected) {
  const std::string one =
      MergeError({Shard(0, 3, {0}), Shard(2, 3, {2})}, {"out/shard-1/results.json"});
  EXPECT_NE(one.find("shard 1/3 is missing ('out/shard-1/results.json' does not exist)"),
            std::string::npos)
      << one;
  EXPECT_NE(one.find("--shard 1/3"), std::string::npos) << one;
  const std::string two = MergeError({Shard(1, 3, {1})});
  EXPECT_NE(two.find("shards 0/3, 2/3 are missing"), std::string::npos) << two;
  EXPECT_NE(MergeError({}, {"a", "b"}).find("no shard's results exist: 'a', 'b'"),
            std::string::npos);
}

TEST(ShardMergeTest, RefusesAShardGivenTwice) {
  std::vector<ShardFile> shards = {Shard(0, 2, {0}), Shard(1, 2, {1}), Shard(1, 2, {1})};
  shards[2].path = "copy/results.json";
  EXPECT_EQ(MergeError(shards),
            "shard 1/2 is given twice: 's1/results.json' and 'copy/results.json'");
}

TEST(ShardMergeTest, RefusesAShardOfAnotherPlanSayingWhatDiffers) {
  std::vector<ShardFile> shards = {Shard(0, 2, {0}), Shard(1, 2, {1})};
  shards[1].results.shards[0].plan_hash = "p2";
  shards[1].results.workload.scale = 0.5;
  EXPECT_EQ(MergeError(shards),
            "shard 1/2 ('s1/results.json') belongs to a different plan than shard 0/2 "
            "('s0/results.json'): --scale 1 vs 0.5");
  shards[1].results.workload.scale = 1;
  shards[1].results.engines[0].options["x"] = "2";
  EXPECT_NE(MergeError(shards).find("engine e0's options (none) vs x=2"), std::string::npos);
  shards[1].results.shards[0].plan_hash = "p1";
  shards[1].results.shards[0].assignment_hash = "a2";
  EXPECT_NE(MergeError(shards).find("same --costs file"), std::string::npos);
  shards[1].results.shards[0].assignment_hash = "a1";
  shards[1].results.shards[0].count = 3;
  EXPECT_NE(MergeError(shards).find("(2 vs 3 shards)"), std::string::npos);
}

TEST(ShardMergeTest, RefusesWhatIsNotOneShardAnUnfinishedShardAndARowMeasuredTwice) {
  ShardFile unsharded = Shard(0, 1, {0});
  unsharded.results.shards.clear();
  EXPECT_NE(MergeError({unsharded}).find("is not a shard's results"), std::string::npos);
  std::vector<ShardFile> killed = {Shard(0, 2, {0}), Shard(1, 2, {1})};
  killed[1].results.shards[0].finished = false;
  killed[1].results.shards[0].rows = 5;
  EXPECT_NE(MergeError(killed).find("shard 1/2 ('s1/results.json') did not finish (its results "
                                    "hold 1 of its 5 rows"),
            std::string::npos);
  EXPECT_NE(MergeError({Shard(0, 2, {0, 1}), Shard(1, 2, {1})}).find("measured by both"),
            std::string::npos);
}

TEST(ShardMergeTest, OldResultsWithoutShardFieldsStillLoad) {
  RunResults plain = Shard(0, 1, {0}).results;
  plain.shards.clear();
  plain.runs[0].row.reset();
  plain.runs[0].shard.reset();
  nlohmann::json j = ResultsToJson(plain);
  EXPECT_FALSE(j.contains("shards"));
  EXPECT_FALSE(j["runs"][0].contains("row"));
  RunResults back;
  ASSERT_TRUE(ResultsFromJson(j, &back).ok());
  EXPECT_TRUE(back.shards.empty());
  EXPECT_FALSE(back.runs[0].shard.has_value());
  EXPECT_EQ(HostsOf(back), std::vector<std::string>{"node0"});
}

}  // namespace
}  // namespace kvbench::results
