// `kvbench run FILE... [--engines a,b] [--scale F] [--repeat N] [--out DIR]
//  [-p name=value]... [--ycsb-output[=DIR]]`
#include <memory>

#include "app/cli.h"
#include "app/run_controller.h"

namespace kvbench::app {

void AddRunCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("run", "Run workload files against engines");
  cmd->footer("Example: kvbench run workloads/quickstart.toml --engines sqlite,lmdb --scale 0.1 --out runs/try");
  auto args = std::make_shared<RunArgs>();
  auto engines = std::make_shared<std::string>();
  cmd->add_option("files", args->files, "Workload files (TOML, or YCSB property files: any other name)")->required();
  cmd->add_option("--engines", *engines, "Comma-separated engines (replaces the workload's list)");
  cmd->add_option("--scale", args->overrides.scale, "Multiply every count by this factor");
  cmd->add_option("--repeat", args->overrides.repeat, "Repetitions of every phase (>= 1; default: the workload's, 5 unless it says)")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--timeout", args->overrides.timeout_s, "Seconds allowed per engine");
  cmd->add_option("--seed", args->overrides.seed,
                  "Seed of every dataset (default: the workload's); recorded in results.json");
  cmd->add_option("--out", args->out, "Output directory (default runs/<workload>-<time>)");
  cmd->add_option("--data-dir", args->data_dir, "Where engines keep their files (default OUT/data)");
  cmd->add_flag("--keep-data", args->keep_data, "Keep the engines' files after the run");
  cmd->add_flag("-q,--quiet", args->quiet, "No progress on stderr");
  cmd->add_option("-p", args->overrides.properties,
                  "YCSB property override name=value (repeatable; YCSB property files only)")
      ->allow_extra_args(false);
  cmd->add_option("--ycsb-output", args->ycsb_output_dir,
                  "YCSB's summary lines ([OVERALL], [READ]...): on stdout after each engine, or "
                  "with =DIR one file per engine, phase, point and repetition in DIR")
      ->expected(0, 1);
  cmd->callback([cmd, args, engines, exit_code] {
    // The command as the user gave it (options in CLI11's canonical form),
    // for results.json.
    args->command_line = "kvbench run";
    for (const std::string& f : args->files) args->command_line += " " + f;
    for (const CLI::Option* option : cmd->get_options()) {
      if (option->get_name() == "files" || option->count() == 0) continue;
      if (option->get_items_expected_max() == 0) {  // a flag
        args->command_line += " " + option->get_name();
        continue;
      }
      for (const std::string& v : option->results()) {
        args->command_line += " " + option->get_name() + (v.empty() ? "" : " " + v);
      }
    }
    args->ycsb_output = cmd->count("--ycsb-output") > 0;
    if (!engines->empty()) {
      for (const auto& e : CLI::detail::split(*engines, ',')) args->overrides.engines.push_back(e);
    }
    *exit_code = RunWorkloads(*args);
  });
}

}  // namespace kvbench::app
