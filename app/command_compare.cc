// `kvbench compare A.json B.json [--min-effect PCT] [--confidence C]
// [--fail-on-regression PCT] [--allow-mixed-time-base]`: B relative to A, a
// change marked only where a significance test and a minimum effect support
// it (reports/compare.h). ops/s is operations / wall span; rows of a results
// schema 4 file, whose ops/s divide by the time inside the engine's calls,
// are not set against wall-span rows unless --allow-mixed-time-base.
// Exit code 1 when --fail-on-regression is given and a significant slowdown
// exceeds it; 2 for bad input (unreadable files, different workloads, bad
// options, mixed time bases without the option).
#include <iostream>
#include <memory>
#include <string>

#include "app/cli.h"
#include "app/report_commands.h"

namespace kvbench::app {

void AddCompareCommand(CLI::App& app, int* exit_code) {
  struct Args {
    std::string a, b;
    double min_effect_pct = 5;
    double confidence = 0.95;
    double fail_pct = 0;
    bool allow_mixed_time_base = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("compare", "Compare two results.json files (B relative to A)");
  cmd->add_option("A", args->a, "baseline results.json")->required();
  cmd->add_option("B", args->b, "results.json to compare with the baseline")->required();
  cmd->add_option("--min-effect", args->min_effect_pct,
                  "Smallest change in percent worth calling a change")
      ->capture_default_str();
  cmd->add_option("--confidence", args->confidence,
                  "Confidence level of the significance test (Mann-Whitney U)")
      ->capture_default_str();
  auto* fail = cmd->add_option("--fail-on-regression", args->fail_pct,
                               "Exit 1 when a significant slowdown (throughput down or p99 "
                               "up) is larger than PCT percent");
  cmd->add_flag("--allow-mixed-time-base", args->allow_mixed_time_base,
                "Compare rows whose ops/s divide by different times (a results schema 4 "
                "file's time inside the engine's calls against the wall span) instead of "
                "refusing; the output lists them");
  cmd->footer("ops/s = operations / wall span of the phase's timed part, as YCSB and db_bench "
              "define it.\n"
              "Example: kvbench compare runs/before/results.json runs/after/results.json "
              "--fail-on-regression 10");
  cmd->callback([exit_code, args, fail] {
    reports::CompareOptions options;
    options.min_effect_pct = args->min_effect_pct;
    options.confidence = args->confidence;
    if (fail->count() > 0) options.fail_on_regression_pct = args->fail_pct;
    options.allow_mixed_time_base = args->allow_mixed_time_base;
    *exit_code = RunCompareCommand(args->a, args->b, options, std::cout, std::cerr);
  });
}

}  // namespace kvbench::app
