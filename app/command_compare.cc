// `kvbench compare A.json B.json [--threshold PCT] [--fail-on-regression PCT]`:
// B relative to A, changes marked only beyond run-to-run noise. Exit code 1
// when --fail-on-regression is given and exceeded.
#include <iostream>
#include <memory>
#include <string>

#include "app/cli.h"
#include "app/report_commands.h"

namespace kvbench::app {

void AddCompareCommand(CLI::App& app, int* exit_code) {
  struct Args {
    std::string a, b;
    double threshold_pct = 10;
    double fail_pct = 0;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("compare", "Compare two results.json files (B relative to A)");
  cmd->add_option("A", args->a, "baseline results.json")->required();
  cmd->add_option("B", args->b, "results.json to compare with the baseline")->required();
  cmd->add_option("--threshold", args->threshold_pct,
                  "Noise band in percent when a run has one repetition (default 10)");
  auto* fail = cmd->add_option("--fail-on-regression", args->fail_pct,
                               "Exit 1 when throughput drops or p99 grows by more than PCT "
                               "percent beyond the noise band");
  cmd->callback([exit_code, args, fail] {
    reports::CompareOptions options;
    options.threshold_pct = args->threshold_pct;
    if (fail->count() > 0) options.fail_on_regression_pct = args->fail_pct;
    *exit_code = RunCompareCommand(args->a, args->b, options, std::cout, std::cerr);
  });
}

}  // namespace kvbench::app
