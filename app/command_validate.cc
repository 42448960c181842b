// `kvbench validate FILE...`: reads and checks workload files and prints the
// resolved plan; runs nothing.
#include <fmt/core.h>

#include "app/cli.h"
#include "runner/run_plan.h"

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
  cmd->add_option("-p", overrides->properties,
                  "YCSB property override name=value (repeatable; YCSB property files only)")
      ->allow_extra_args(false);
  cmd->callback([=] {
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
    }
    *exit_code = kExitOk;
  });
}

}  // namespace kvbench::app
