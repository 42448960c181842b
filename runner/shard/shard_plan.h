// Sharding one plan over N nodes: `kvbench run --shard K/N`, `kvbench
// validate --shards N`, and the Slurm job array built on them
// (docs/scale-out.md says why it is built this way).
//
// Rows. A plan's rows are engine x phase x matrix point in the order
// `kvbench run` runs them (engine by engine, each engine's phases in order,
// each phase's matrix points in order); row numbers count from 0 over the
// whole plan, so every shard numbers them alike and `kvbench merge` puts
// them back in this order.
//
// Units. The unit of sharding is one engine's phase at one (threads, target)
// pair with every cache point of it (a "hot" point is the cold point's
// queries again without eviction, so it runs right after it) and every
// repetition: the figures a report compares with each other (repetitions,
// cold with hot) come from one host. A unit that depends on a time-bounded
// writing phase (`duration`, whose operation count is not known in advance)
// is joined with it up to the engine's next fresh start, since no replay
// could write the same keys.
//
// Dependencies. A phase runs on what the engine's earlier phases left: a get
// needs the load, an update changes values, a sync and a reorganize change
// the files. A shard therefore runs, per engine and in plan order, its own
// units measured and before them, untimed and unrecorded (`setup`), every
// earlier repetition that changes the engine's state since the last fresh
// start: writes, syncs, reorganizations, record indexes, recreations, and
// the sync a cold point's eviction does. Reads that change nothing are not
// replayed. Those rules are the child's walk (EngineSchedule), so they live
// in the core: runner/engine_schedule.h. Replays run unthrottled (a target
// rate only paces, it does not change which operations run) with the same
// threads, seeds and repetition numbers, so every operation stream, key
// count and found/not-found count of a measured unit equals the unsharded
// run's. What replays cannot restore is
// the page cache left by skipped reads: a unit whose cache is not "cold"
// starts from what its setup left (its own cold point, in the same unit,
// still precedes its hot point).
//
// Assignment. Units are placed longest first on the shard whose estimated
// time grows least with it (a unit whose setup a shard already runs costs
// that shard only its own time); ties go to the lower shard. Estimates come
// from a fixed model of the plan (runner/shard/shard_cost.h) or from a results file
// of an earlier run (`--costs`), never from the host, so every shard of a
// plan computes the same assignment.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "results/results.h"
#include "runner/engine_schedule.h"
#include "runner/run_plan.h"

namespace kvbench::runner {

// `--shard K/N`: shard K (from 0) of N.
struct ShardSpec {
  int index = 0;
  int count = 1;
};
// InvalidArgument unless `text` is "K/N" with integers 0 <= K < N.
Status ParseShardSpec(std::string_view text, ShardSpec* out);

// A plan row's place: indexes into RunPlan::engines, Workload::phases and
// ExpandMatrix(phase).
struct RowPlace {
  size_t engine = 0;
  size_t phase = 0;
  size_t point = 0;
};
// Every row of the plan, in run order (index = row number); an engine's
// share is RowsPerEngine (runner/engine_schedule.h) long.
std::vector<RowPlace> PlanRows(const RunPlan& plan);

struct ShardUnit {
  size_t engine = 0;
  std::vector<int> rows;     // plan rows, in run order
  double own_seconds = 0;    // estimated time of its rows, measured
  double alone_seconds = 0;  // its own time plus the setup it needs alone
  std::string label;         // "lmdb: get, 2 threads, target 500/s, cold+hot"
};

struct ShardAssignment {
  int count = 1;
  std::vector<ShardUnit> units;             // in plan order
  std::vector<int> shard_of_unit;           // units[i] runs on shard shard_of_unit[i]
  std::vector<double> shard_seconds;        // estimated time of each shard, setup included
  std::vector<double> shard_setup_seconds;  // of which setup replays
  std::vector<int> shard_rows;              // rows each shard measures
  double unsharded_seconds = 0;             // the whole plan on one node, no setup
  std::string plan_hash;                    // PlanHash(plan)
  std::string assignment_hash;              // of count, units and shard_of_unit
  std::string cost_source;                  // "model" or "FILE (R of T rows measured)"

  // Rows shard `index` measures, by plan row number.
  std::vector<bool> RowsOf(int index, size_t total_rows) const;
};

// A hex digest of everything that decides what a plan measures: workload
// name, resolved dataset and values, engines with their library versions and
// options, phases with their parameters and matrix points, and the sharding
// rules' version. Not the file's path, the timeout or the host.
std::string PlanHash(const RunPlan& plan);

// Splits `plan` into `count` shards. `measured` (may be null): an earlier
// run's results whose rows (matched by engine, phase and matrix point) give
// measured unit costs in place of the model's.
ShardAssignment AssignShards(const RunPlan& plan, int count, const results::RunResults* measured,
                             const std::string& measured_name);

// `kvbench validate --shards N`: each shard's units and estimated time, and
// the estimated wall time of the plan on N nodes against one, with what
// limits it (the longest unit).
std::string DescribeShards(const RunPlan& plan, const ShardAssignment& assignment);

}  // namespace kvbench::runner
