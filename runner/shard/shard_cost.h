// Estimated seconds of a plan's steps (runner/shard/shard_plan.h), for placing
// units on shards and for `kvbench validate --shards N`.
//
// Without measurements: a fixed model of the plan alone, the same on every
// host, so every shard of a plan computes the same assignment. Its per
// operation costs are round figures of an embedded engine on one core (a get
// 2 µs, a batched write 3 µs, a write in a transaction of its own 20 µs, a
// sync per commit 2 ms, a scanned row 0.2 µs); a paced point takes at least
// count / target; threads are not assumed to speed anything up. It orders
// units well; its absolute times are rough.
//
// With an earlier run's results (`--costs FILE`, any scale, any host): each
// row found there (engine, phase, threads, target, cache) costs its measured
// wall time per repetition (PhaseRun::wall_seconds: preparation and the sync
// after writes included), scaled by this plan's count over that run's and by
// this plan's repetitions (a phase without a count, such as a sync or a
// reorganize, by the dataset's size instead); a replay costs the unthrottled
// point's measured time per repetition. Rows not found keep the model's
// estimate. Scaling is linear: a plan much larger than the measured run (a
// dataset that no longer fits in the page cache) takes longer than this says.
#pragma once

#include <map>
#include <string>
#include <tuple>

#include "results/results.h"
#include "runner/run_plan.h"
#include "runner/shard/shard_plan.h"

namespace kvbench::runner {

class ShardCostModel {
 public:
  // `measured` may be null; it must outlive the model.
  ShardCostModel(const RunPlan& plan, const results::RunResults* measured);

  // Estimated seconds of `step` on engine `engine` (an index into RunPlan::engines).
  double StepSeconds(size_t engine, const EngineStep& step) const;
  // A kMeasure step: every repetition of the matrix point, paced as planned.
  double MeasureSeconds(size_t engine, size_t phase, size_t point) const;
  // A kReplay step: one repetition, unthrottled.
  double ReplaySeconds(size_t engine, size_t phase, size_t point) const;

  // How many of the plan's rows had a measured cost.
  int measured_rows() const { return measured_rows_; }

 private:
  // Per repetition: the fixed model's estimate.
  double ModelRepSeconds(size_t engine, size_t phase, size_t point, bool paced) const;
  // Per repetition, scaled to this plan's count: a measured row's, or < 0.
  double MeasuredRepSeconds(size_t engine, size_t phase, const MatrixPoint& point) const;

  using RowKey = std::tuple<std::string, std::string, int, double, std::string>;
  struct MeasuredRow {
    double rep_seconds = 0;  // wall seconds per repetition
    double count = 0;        // its phase's count (0: not counted)
  };

  const RunPlan& plan_;
  std::map<RowKey, MeasuredRow> measured_;
  double dataset_ratio_ = 1;  // this plan's dataset count over the measured run's
  int measured_rows_ = 0;
};

}  // namespace kvbench::runner
