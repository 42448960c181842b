// `kvbench merge SHARD_RESULTS... -o DIR`: the shards of one sharded run
// (`kvbench run --shard K/N`) joined into one results.json and its reports
// (results/shard_merge.h checks them).
#include <fmt/core.h>

#include <filesystem>

#include "app/cli.h"
#include "app/output_dir.h"
#include "reports/reports.h"
#include "results/results_json.h"
#include "results/shard_merge.h"

namespace kvbench::app {

namespace {

namespace fs = std::filesystem;

struct MergeArgs {
  std::vector<std::string> inputs;
  std::string out;
  bool overwrite = false;
};

int Merge(const MergeArgs& args) {
  std::vector<results::ShardFile> shards;
  std::vector<std::string> absent;
  for (const std::string& input : args.inputs) {
    std::error_code ec;
    const std::string path = fs::is_directory(input, ec) ? input + "/results.json" : input;
    if (!fs::exists(path, ec)) {
      // A shard whose task never wrote anything: the merge names the missing
      // shard once it knows which, and this path with it.
      absent.push_back(path);
      continue;
    }
    results::ShardFile shard{path, {}};
    if (Status s = results::ReadResultsFile(path, &shard.results); !s.ok()) {
      fmt::print(stderr, "kvbench merge: {}\n", s.message());
      return kExitBadInput;
    }
    shards.push_back(std::move(shard));
  }
  std::string command_line = "kvbench merge";
  for (const std::string& input : args.inputs) command_line += " " + input;
  command_line += " -o " + args.out;
  results::RunResults merged;
  if (Status s = results::MergeShards(shards, absent, command_line, &merged); !s.ok()) {
    fmt::print(stderr, "kvbench merge: {}\n", s.message());
    return kExitBadInput;
  }
  OutputDir out;
  std::string replaced;
  if (Status s = OutputDir::Open(args.out, merged.run_id.empty() ? "merge" : merged.run_id,
                                 args.overwrite, &out, &replaced);
      !s.ok()) {
    fmt::print(stderr, "kvbench merge: {}\n", s.message());
    return kExitBadInput;
  }
  if (!replaced.empty()) {
    fmt::print(stderr, "kvbench merge: --overwrite: replaced {} in '{}'\n", replaced, args.out);
  }
  const std::string results_path = args.out + "/results.json";
  if (Status s = reports::WriteRunReports(merged, args.out); !s.ok()) {
    fmt::print(stderr, "kvbench merge: the results and reports were not written: {}\n",
               s.ToString());
    return kExitFailure;
  }
  const std::vector<std::string> hosts = results::HostsOf(merged);
  fmt::print("{}", reports::RenderSummaryTable(merged));
  fmt::print("\nmerged {} shards ({} rows) measured on {} host{}\n", merged.shards.size(),
             merged.runs.size(), hosts.size(), hosts.size() == 1 ? "" : "s");
  fmt::print("report: {0}/report.html\n        {0}/report.md\nresults: {1}\n", args.out,
             results_path);
  return kExitOk;
}

}  // namespace

void AddMergeCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "merge", "Join the shards of one sharded run (kvbench run --shard K/N) into one report");
  cmd->footer(
      "Example: kvbench merge runs/w/shard-0 runs/w/shard-1 runs/w/shard-2 -o runs/w/merged\n"
      "Refuses (exit 2) shards of different plans, a shard given twice and missing shards, "
      "naming them.");
  auto args = std::make_shared<MergeArgs>();
  cmd->add_option("shards", args->inputs, "Each shard's results.json, or the directory holding it")
      ->required();
  cmd->add_option("-o,--out", args->out, "Output directory for results.json and the reports")
      ->required();
  cmd->add_flag("--overwrite", args->overwrite,
                "Replace an earlier kvbench output in --out (never a folder kvbench did not make)");
  cmd->callback([args, exit_code] { *exit_code = Merge(*args); });
}

}  // namespace kvbench::app
