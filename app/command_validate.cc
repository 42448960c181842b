// `kvbench validate FILE... [--shards N [--costs FILE]]`: reads and checks
// workload files and prints the resolved plan, and with --shards how it
// splits into N shards with estimated times; runs nothing.
#include <fmt/core.h>

#include "app/cli.h"
#include "results/results_json.h"
#include "runner/run_plan.h"
#include "runner/shard/shard_plan.h"
#include "runner/ycsb/workload_file.h"

namespace kvbench::app {

void AddValidateCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("validate", "Check workload files and print the resolved plan");
  cmd->footer("Example: kvbench validate workloads/seed-001-urls.toml --engines pbtree,lmdb");
  auto files = std::make_shared<std::vector<std::string>>();
  auto overrides = std::make_shared<runner::RunOverrides>();
  auto engines = std::make_shared<std::string>();
  cmd->add_option("files", *files, "Workload files")->required();
  cmd->add_option("--engines", *engines, "Comma-separated engines (replaces the workload's list)");
  cmd->add_option("--scale", overrides->scale, "Multiply every count by this factor");
  cmd->add_option("--repeat", overrides->repeat, "Repetitions of every phase (>= 1; default: the workload's, 5 unless it says)")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--forks", overrides->forks,
                  "Processes per engine (>= 1; default: the workload's [measurement] forks, 1)")
      ->check(CLI::Range(1, runner::kMaxForks));
  cmd->add_option("--warmup-repetitions", overrides->warmup_repetitions,
                  "Discarded repetitions before the measured ones (>= 0; default: the "
                  "workload's [measurement] warmup_repetitions, 1)")
      ->check(CLI::Range(0, runner::kMaxWarmupRepetitions));
  cmd->add_option("-p", overrides->properties,
                  "YCSB property override name=value (repeatable; YCSB property files only)")
      ->allow_extra_args(false);
  auto shards = std::make_shared<int>(0);
  auto costs = std::make_shared<std::string>();
  cmd->add_option("--shards", *shards,
                  "Also print how the plan splits into N shards (`kvbench run --shard K/N`): each "
                  "shard's units and estimated time, and the wall time on N nodes")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--costs", *costs,
                  "With --shards: an earlier run's results.json whose measured times replace "
                  "the model's estimates");
  cmd->callback([=] {
    results::RunResults measured;
    if (!costs->empty()) {
      Status read = *shards > 0 ? results::ReadResultsFile(*costs, &measured)
                                : Status::InvalidArgument("only with --shards N");
      if (!read.ok()) {
        fmt::print(stderr, "kvbench: --costs: {}\n", read.message());
        *exit_code = kExitBadInput;
        return;
      }
    }
    if (!engines->empty()) {
      for (const auto& e : CLI::detail::split(*engines, ',')) overrides->engines.push_back(e);
    }
    for (const std::string& file : *files) {
      runner::RunPlan plan;
      Status s = runner::PlanRun(file, *overrides, &plan);
      if (!s.ok()) {
        fmt::print(stderr, "kvbench: {}\n", s.message());
        *exit_code = kExitBadInput;
        return;
      }
      for (const std::string& warning : plan.warnings) {
        fmt::print(stderr, "kvbench: warning: {}\n", warning);
      }
      fmt::print("{}", runner::DescribePlan(plan));
      if (*shards > 0) {
        fmt::print("{}",
                   runner::DescribeShards(
                       plan, runner::AssignShards(plan, *shards,
                                                  costs->empty() ? nullptr : &measured, *costs)));
      }
    }
    *exit_code = kExitOk;
  });
}

}  // namespace kvbench::app
