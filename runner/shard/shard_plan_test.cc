#include "runner/shard/shard_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <numeric>
#include <string>

#include "runner/shard/shard_cost.h"
#include "runner/ycsb/workload_file.h"
#include "tests/scratch_dir.h"

namespace kvbench::runner {
namespace {

class ShardPlanTest : public ::testing::Test {
 protected:
  RunPlan Plan(const std::string& toml, std::vector<std::string> engines,
               const std::string& file_name = "w.toml", double scale = 1.0) {
    const std::string path = dir_.path() + "/" + file_name;
    std::ofstream(path) << toml;
    RunOverrides overrides;
    overrides.engines = std::move(engines);
    overrides.scale = scale;
    RunPlan plan;
    const Status s = PlanRun(path, overrides, &plan);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return plan;
  }
  RunPlan ShardsWorkload(std::vector<std::string> engines) {
    std::ifstream in(std::string(KVBENCH_SOURCE_DIR) + "/tests/workloads/shards.toml");
    return Plan(std::string(std::istreambuf_iterator<char>(in), {}), std::move(engines));
  }
  // The steps engine 0 runs to measure only the rows of `phase_names`.
  std::vector<EngineStep> StepsFor(const RunPlan& plan,
                                   const std::vector<std::string>& phase_names) {
    std::vector<bool> measured;
    for (const PhaseSpec& p : plan.workload.phases) {
      const bool want =
          std::find(phase_names.begin(), phase_names.end(), p.name) != phase_names.end();
      for (size_t m = 0; m < ExpandMatrix(p).size(); ++m) measured.push_back(want);
    }
    return EngineSchedule(plan.workload, measured, CapabilitiesOf(plan.engines[0]), 0);
  }
  static std::string Describe(const RunPlan& plan, const std::vector<EngineStep>& steps) {
    std::string out;
    for (const EngineStep& s : steps) {
      const std::string& phase = plan.workload.phases[s.phase].name;
      switch (s.kind) {
        case EngineStep::kMeasure:
          out += "measure " + phase + "#" + std::to_string(s.point);
          break;
        case EngineStep::kReplay:
          out += "replay " + phase + "#" + std::to_string(s.point) + "r" +
                 std::to_string(s.repetition);
          break;
        case EngineStep::kColdSync:
          out += "coldsync " + phase;
          break;
        case EngineStep::kRecreate:
          out += "recreate " + phase;
          break;
      }
      out += "; ";
    }
    return out;
  }

  test::ScratchDir dir_{"shard-plan"};
};

TEST_F(ShardPlanTest, ParsesKOfNCountedFromZeroAndRefusesTheRest) {
  ShardSpec s;
  ASSERT_TRUE(ParseShardSpec("0/1", &s).ok());
  EXPECT_EQ(s.index, 0);
  EXPECT_EQ(s.count, 1);
  ASSERT_TRUE(ParseShardSpec("2/3", &s).ok());
  EXPECT_EQ(s.index, 2);
  EXPECT_EQ(s.count, 3);
  for (const char* bad :
       {"3/2", "2/2", "0/0", "-1/3", "a/3", "1/", "/3", "1/3/5", " 1/3", "1/3x"}) {
    const Status st = ParseShardSpec(bad, &s);
    EXPECT_TRUE(st.IsInvalidArgument()) << bad;
    EXPECT_NE(st.message().find(std::string("'") + bad + "'"), std::string::npos) << st.message();
  }
  EXPECT_NE(ParseShardSpec("3/2", &s).message().find("from 0 to 1"), std::string::npos);
  EXPECT_NE(ParseShardSpec("0/0", &s).message().find("at least 1"), std::string::npos);
}

TEST_F(ShardPlanTest, EveryRowRunsOnExactlyOneShardForAnyN) {
  const RunPlan plan = ShardsWorkload({"lmdb", "stdmap"});
  const size_t rows = PlanRows(plan).size();
  ASSERT_EQ(rows, 2 * RowsPerEngine(plan.workload));
  for (int n : {1, 2, 3, 5, 8, 40}) {
    const ShardAssignment a = AssignShards(plan, n, nullptr, "");
    std::vector<int> owners(rows, 0);
    int counted = 0;
    for (int k = 0; k < n; ++k) {
      const std::vector<bool> mine = a.RowsOf(k, rows);
      for (size_t r = 0; r < rows; ++r) owners[r] += mine[r] ? 1 : 0;
      counted += a.shard_rows[static_cast<size_t>(k)];
    }
    EXPECT_TRUE(std::all_of(owners.begin(), owners.end(), [](int o) { return o == 1; })) << n;
    EXPECT_EQ(counted, static_cast<int>(rows)) << n;
  }
}

TEST_F(ShardPlanTest, AssignmentIsStableForAPlanAndNAndChangesWithN) {
  const RunPlan plan = ShardsWorkload({"lmdb", "sqlite", "stdmap"});
  const ShardAssignment a = AssignShards(plan, 4, nullptr, "");
  const ShardAssignment b =
      AssignShards(ShardsWorkload({"lmdb", "sqlite", "stdmap"}), 4, nullptr, "");
  EXPECT_EQ(a.shard_of_unit, b.shard_of_unit);
  EXPECT_EQ(a.assignment_hash, b.assignment_hash);
  const ShardAssignment c = AssignShards(plan, 3, nullptr, "");
  EXPECT_EQ(a.plan_hash, c.plan_hash);
  EXPECT_NE(a.assignment_hash, c.assignment_hash);
}

TEST_F(ShardPlanTest, PlanHashIgnoresThePathButNotWhatIsMeasured) {
  const std::string toml =
      "name = \"h\"\ntimeout = 60\n[dataset]\nkind = \"sequential\"\ncount = 100\n"
      "[[phase]]\nname = \"load\"\nop = \"insert\"\ncount = 100\n";
  const std::string h = PlanHash(Plan(toml, {"lmdb"}, "a.toml"));
  EXPECT_EQ(h, PlanHash(Plan(toml, {"lmdb"}, "b.toml")));
  std::string other_timeout = toml;
  other_timeout.replace(other_timeout.find("timeout = 60"), 12, "timeout = 9");
  EXPECT_EQ(h, PlanHash(Plan(other_timeout, {"lmdb"})));
  EXPECT_NE(h, PlanHash(Plan(toml, {"lmdb"}, "a.toml", 0.5)));
  EXPECT_NE(h, PlanHash(Plan(toml, {"sqlite"})));
}

TEST_F(ShardPlanTest, AUnitKeepsColdWithHotAndSplitsThreadsAndTargets) {
  const RunPlan plan = ShardsWorkload({"lmdb"});
  const ShardAssignment a = AssignShards(plan, 1, nullptr, "");
  auto unit_of = [&](const std::string& label) {
    const auto it = std::find_if(a.units.begin(), a.units.end(),
                                 [&](const ShardUnit& u) { return u.label == label; });
    return it == a.units.end() ? nullptr : &*it;
  };
  ASSERT_NE(unit_of("lmdb: get cold hot"), nullptr);
  EXPECT_EQ(unit_of("lmdb: get cold hot")->rows.size(), 2u);
  EXPECT_NE(unit_of("lmdb: update 1thr"), nullptr);
  EXPECT_NE(unit_of("lmdb: update 2thr"), nullptr);
  EXPECT_NE(unit_of("lmdb: mix 2thr 20000/s"), nullptr);
  EXPECT_NE(unit_of("lmdb: mix 2thr max"), nullptr);
}

// The start of the dependency tests' workloads: 100 sequential keys.
constexpr const char* kHundredKeys = R"([dataset]
kind = "sequential"
count = 100
)";

TEST_F(ShardPlanTest, SetupReplaysTheWritesSinceTheLastFreshStartAndSkipsReads) {
  const std::string toml = std::string("name = \"deps\"\n") + kHundredKeys + R"([[phase]]
name = "load"
op = "insert"
count = 100
repetitions = 3
[[phase]]
name = "get"
op = "get"
count = 10
cache = ["cold", "hot"]
[[phase]]
name = "update"
op = "update"
count = 10
repetitions = 2
[[phase]]
name = "get2"
op = "get"
count = 10
[[phase]]
name = "reload"
op = "insert"
fresh = true
count = 50
repetitions = 2
[[phase]]
name = "get3"
op = "get"
count = 10
)";
  // The first phase recreates the engine before each repetition after the
  // first: only its last repetition's data survives. The cold point's
  // eviction syncs the engine; the reads themselves change nothing.
  EXPECT_EQ(
      Describe(Plan(toml, {"lmdb"}), StepsFor(Plan(toml, {"lmdb"}), {"get2"})),
      "replay load#0r2; coldsync get; replay update#0r0; replay update#0r1; measure get2#0; ");
  // In memory: nothing to evict.
  EXPECT_EQ(Describe(Plan(toml, {"stdmap"}), StepsFor(Plan(toml, {"stdmap"}), {"get2"})),
            "replay load#0r2; replay update#0r0; replay update#0r1; measure get2#0; ");
  // A fresh start drops everything before it, measured or replayed.
  const RunPlan plan = Plan(toml, {"lmdb"});
  EXPECT_EQ(Describe(plan, StepsFor(plan, {"get3"})), "replay reload#0r1; measure get3#0; ");
  EXPECT_EQ(Describe(plan, StepsFor(plan, {"reload"})), "measure reload#0; ");
  // Measured rows serve as the setup of later ones.
  EXPECT_EQ(Describe(plan, StepsFor(plan, {"load", "get2"})),
            "measure load#0; coldsync get; replay update#0r0; replay update#0r1; measure get2#0; ");
  // Nothing measured, nothing run; everything measured, no setup at all.
  EXPECT_EQ(Describe(plan, StepsFor(plan, {})), "");
  EXPECT_EQ(Describe(plan, StepsFor(plan, {"load", "get", "update", "get2", "reload", "get3"})),
            "measure load#0; measure get#0; measure get#1; measure update#0; measure get2#0; "
            "measure reload#0; measure get3#0; ");
}

TEST_F(ShardPlanTest, ATimeBoundedWriterKeepsItsDependentsUntilTheNextFreshStart) {
  const std::string toml = std::string("name = \"timed\"\n") + kHundredKeys + R"([[phase]]
name = "load"
op = "insert"
count = 100
[[phase]]
name = "timed-update"
op = "update"
duration = 0.1
threads = [1, 2]
[[phase]]
name = "get"
op = "get"
count = 10
[[phase]]
name = "reload"
op = "insert"
fresh = true
count = 10
[[phase]]
name = "get2"
op = "get"
count = 10
)";
  const ShardAssignment a = AssignShards(Plan(toml, {"lmdb"}), 2, nullptr, "");
  std::vector<std::string> labels;
  for (const ShardUnit& u : a.units) labels.push_back(u.label);
  EXPECT_EQ(labels, (std::vector<std::string>{"lmdb: load", "lmdb: timed-update 1thr; get",
                                              "lmdb: reload", "lmdb: get2"}));
}

TEST_F(ShardPlanTest, NoShardExceedsTheAverageByMoreThanTheLongestUnit) {
  const RunPlan plan = ShardsWorkload({"lmdb", "sqlite", "stdmap", "bdb-btree"});
  for (int n : {2, 3, 4, 7}) {
    const ShardAssignment a = AssignShards(plan, n, nullptr, "");
    double alone = 0, longest = 0;
    for (const ShardUnit& u : a.units) {
      alone += u.alone_seconds;
      longest = std::max(longest, u.alone_seconds);
    }
    const double worst = *std::max_element(a.shard_seconds.begin(), a.shard_seconds.end());
    EXPECT_LE(worst, alone / n + longest + 1e-9) << n;
    EXPECT_GT(a.unsharded_seconds, worst) << n;  // sharding helps this plan
  }
}

TEST_F(ShardPlanTest, MeasuredCostsReplaceTheModelsAndMoveTheUnits) {
  const RunPlan plan = ShardsWorkload({"lmdb", "sqlite"});
  results::RunResults measured;
  results::PhaseRun run;
  run.engine = "sqlite";
  run.phase = "scan";
  run.repetitions.resize(2);
  run.wall_seconds = 50;       // 25 s a repetition
  run.params["count"] = "20";  // half the plan's count
  measured.runs.push_back(run);
  const ShardAssignment a = AssignShards(plan, 2, &measured, "earlier.json");
  EXPECT_NE(a.cost_source.find("earlier.json for 1 of the plan's"), std::string::npos)
      << a.cost_source;
  const auto scan = std::find_if(a.units.begin(), a.units.end(),
                                 [](const ShardUnit& u) { return u.label == "sqlite: scan"; });
  ASSERT_NE(scan, a.units.end());
  EXPECT_DOUBLE_EQ(scan->own_seconds, 25.0 * 2 /*count*/ * 2 /*repetitions*/);
  // The 100 s unit has a shard to itself, apart from the setup it needs.
  const int its_shard = a.shard_of_unit[static_cast<size_t>(scan - a.units.begin())];
  for (size_t u = 0; u < a.units.size(); ++u) {
    if (a.shard_of_unit[u] == its_shard && a.units[u].engine == 0)
      ADD_FAILURE() << a.units[u].label;
  }
  EXPECT_NE(a.assignment_hash, AssignShards(plan, 2, nullptr, "").assignment_hash);
}

// A mix's parts cost what the phases made of one of them cost (the model reads
// each proportion as its OpKind): a mix of reads only is a get phase, of rmw
// only an rmw phase, of scans only a scan phase of the same limit; a mix
// phase writes, so it adds the sync after writes a read phase does not.
TEST_F(ShardPlanTest, TheModelCostsAMixAsTheOperationsItIsMadeOf) {
  std::string toml =
      "name = \"mix-costs\"\nrepetitions = 1\n[dataset]\nkind = \"sequential\"\n"
      "count = 1000\n";
  const auto phase = [&](const std::string& name, const std::string& body) {
    toml += "[[phase]]\nname = \"" + name + "\"\ncount = 1000\n" + body;
  };
  phase("get", "op = \"get\"\n");
  phase("rmw", "op = \"rmw\"\n");
  phase("scan", "op = \"scan\"\nlimit = 10\n");
  phase("update", "op = \"update\"\n");
  phase("mix-read", "op = \"mix\"\nproportions = { read = 1 }\n");
  phase("mix-rmw", "op = \"mix\"\nproportions = { rmw = 1 }\n");
  phase("mix-scan", "op = \"mix\"\nproportions = { scan = 1 }\nlimit = 10\n");
  phase("mix-half", "op = \"mix\"\nproportions = { read = 0.5, update = 0.5 }\n");
  const RunPlan plan = Plan(toml, {"stdmap"});
  const ShardCostModel model(plan, nullptr);
  std::map<std::string, double> cost;
  for (size_t p = 0; p < plan.workload.phases.size(); ++p) {
    cost[plan.workload.phases[p].name] = model.MeasureSeconds(0, p, 0);
  }
  EXPECT_DOUBLE_EQ(cost["mix-rmw"], cost["rmw"]);
  const double sync_after_writes = cost["mix-read"] - cost["get"];
  EXPECT_GT(sync_after_writes, 0);
  EXPECT_NEAR(cost["mix-scan"] - cost["scan"], sync_after_writes, 1e-9);
  EXPECT_GT(cost["mix-scan"], cost["mix-read"]);  // ten rows read after the seek
  EXPECT_NEAR(cost["mix-half"], (cost["mix-read"] + cost["update"]) / 2, 1e-9);
}

}  // namespace
}  // namespace kvbench::runner
