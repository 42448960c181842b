// `kvbench run FILE... [--engines a,b] [--scale F] [--repeat N] [--forks N] [--out DIR]
//  [-p name=value]... [--ycsb-output[=DIR]] [--shard K/N [--costs FILE] [--label KEY=VALUE]...]`
#include <fmt/core.h>

#include <memory>

#include "adapters/plugin/plugin_loader.h"
#include "app/cli.h"
#include "app/history_commands.h"
#include "app/run_controller.h"

namespace kvbench::app {

namespace {

// --shard, --costs and --label into `args`; InvalidArgument naming the option.
Status ParseShardOptions(const std::string& shard, const std::vector<std::string>& labels,
                         RunArgs* args) {
  if (!shard.empty()) {
    runner::ShardSpec spec;
    KVBENCH_RETURN_IF_ERROR(runner::ParseShardSpec(shard, &spec));
    args->shard = spec;
  } else if (!args->costs.empty() || !labels.empty()) {
    return Status::InvalidArgument(std::string(args->costs.empty() ? "--label" : "--costs") +
                                   ": only with --shard K/N");
  }
  for (const std::string& label : labels) {
    const size_t eq = label.find('=');
    if (eq == 0 || eq == std::string::npos) {
      return Status::InvalidArgument("--label '" + label + "': expected KEY=VALUE");
    }
    args->labels[label.substr(0, eq)] = label.substr(eq + 1);
  }
  return Status::OK();
}

}  // namespace

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
  cmd->add_option("--forks", args->overrides.forks,
                  "Run every engine's phases in N fresh processes, the engines taking turns, and "
                  "pool their repetitions, so the figures' intervals hold the differences "
                  "between processes and times (default: the workload's [measurement] forks, 1 "
                  "unless it says)")
      ->check(CLI::Range(1, runner::kMaxForks));
  cmd->add_option("--warmup-repetitions", args->overrides.warmup_repetitions,
                  "Repetitions run and discarded before the measured ones, where a repetition "
                  "changes nothing later ones see (default: the workload's [measurement] "
                  "warmup_repetitions, 1 unless it says; 0 for YCSB property files)")
      ->check(CLI::Range(0, runner::kMaxWarmupRepetitions));
  cmd->add_option("--timeout", args->overrides.timeout_s, "Seconds allowed per engine");
  cmd->add_option("--seed", args->overrides.seed,
                  "Seed of every dataset (default: the workload's); recorded in results.json");
  cmd->add_option("--out", args->out, "Output directory (default runs/<workload>-<time>)");
  cmd->add_flag("--overwrite", args->overwrite,
                "Replace an earlier kvbench run's files in --out (never a folder kvbench did not "
                "make)");
  cmd->add_option("--data-dir", args->data_dir, "Where engines keep their files (default OUT/data)");
  cmd->add_flag("--keep-data", args->keep_data, "Keep the engines' files after the run");
  cmd->add_flag("--pretty", args->pretty,
                "Write results.json indented, one field a line (default: compact)");
  cmd->add_flag("-q,--quiet", args->quiet, "No progress on stderr");
  cmd->add_option("-p", args->overrides.properties,
                  "YCSB property override name=value (repeatable; YCSB property files only)")
      ->allow_extra_args(false);
  cmd->add_option("--ycsb-output", args->ycsb_output_dir,
                  "YCSB's summary lines ([OVERALL], [READ]...): on stdout after each engine, or "
                  "with =DIR one file per engine, phase, point and repetition in DIR")
      ->expected(0, 1);
  auto plugins = std::make_shared<std::vector<std::string>>();
  cmd->add_option("--plugin", *plugins,
                  "Load engines from a plugin: a path, or a name looked up in $KVBENCH_PLUGIN_PATH "
                  "(repeatable; docs/adding-an-adapter.md, \"Out of tree\")")
      ->allow_extra_args(false);
  auto shard = std::make_shared<std::string>();
  auto labels = std::make_shared<std::vector<std::string>>();
  cmd->add_option("--shard", *shard,
                  "Run shard K of N (K from 0) of each plan: its units and the setup they need "
                  "(docs/scale-out.md); join the shards with `kvbench merge`");
  cmd->add_option("--costs", args->costs,
                  "With --shard: an earlier run's results.json whose measured times place the "
                  "units (every shard must get the same file)");
  cmd->add_option("--label", *labels,
                  "With --shard: KEY=VALUE recorded in the shard's record (repeatable; the Slurm "
                  "script records its job ids and node)")
      ->allow_extra_args(false);
  auto* history = cmd->add_option(
      "--history", args->history_store,
      "Add the results to a history store after the run: sqlite:PATH or postgresql://... "
      "(without a value: $KVBENCH_STORE, else sqlite:~/.local/share/kvbench/history.db)");
  history->expected(0, 1);
  cmd->callback([cmd, args, engines, history, shard, labels, plugins, exit_code] {
    if (Status s = plugin_host::LoadPlugins(*plugins, ""); !s.ok()) {
      fmt::print(stderr, "kvbench run: --plugin: {}\n", s.message());
      *exit_code = kExitBadInput;
      return;
    }
    args->command_line = CanonicalCommandLine(*cmd, "files");
    args->ycsb_output = cmd->count("--ycsb-output") > 0;
    if (!engines->empty()) {
      for (const auto& e : CLI::detail::split(*engines, ',')) args->overrides.engines.push_back(e);
    }
    if (history->count() > 0) args->history_store = ResolveStoreSpec(args->history_store);
    if (Status s = ParseShardOptions(*shard, *labels, args.get()); !s.ok()) {
      fmt::print(stderr, "kvbench run: {}\n", s.message());
      *exit_code = kExitBadInput;
      return;
    }
    *exit_code = RunWorkloads(*args);
  });
}

}  // namespace kvbench::app
