// `kvbench slurm WORKLOAD --shards N [--partition P] [--time T] [--out DIR]
//  [--sbatch-arg ARG]... [--submit]`: the Slurm job array that runs a plan's N
// shards on N nodes and the merge job after it (app/slurm_job.h), written
// into DIR and, with --submit, submitted with sbatch.
#include <fmt/core.h>

#include <algorithm>
#include <filesystem>

#include "app/cli.h"
#include "app/slurm_job.h"
#include "common/atomic_file.h"
#include "common/owned_dir.h"
#include "results/results_json.h"
#include "runner/environment.h"
#include "runner/run_plan.h"
#include "runner/shard/shard_plan.h"
#include "runner/ycsb/workload_file.h"

namespace kvbench::app {

namespace {

namespace fs = std::filesystem;

struct SlurmArgs {
  std::string workload;
  int shards = 0;
  std::string partition, time_limit, out, data_dir, kvbench, costs;
  std::vector<std::string> sbatch_args;
  bool submit = false;
  bool shared_nodes = false;
  runner::RunOverrides overrides;
  std::string engines;
};

std::string Absolute(const std::string& path) {
  std::error_code ec;
  const fs::path p = fs::absolute(path, ec);
  return ec ? path : p.lexically_normal().string();
}

// The running binary: the nodes run the same one (a shared filesystem).
std::string ThisBinary() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? "kvbench" : self.string();
}

// The `kvbench run` options every task repeats, as words.
std::vector<std::string> RunOptions(const SlurmArgs& a) {
  std::vector<std::string> o;
  if (!a.engines.empty()) o.insert(o.end(), {"--engines", a.engines});
  if (a.overrides.scale != 1.0)
    o.insert(o.end(), {"--scale", fmt::format("{}", a.overrides.scale)});
  if (a.overrides.repeat > 0) o.insert(o.end(), {"--repeat", std::to_string(a.overrides.repeat)});
  if (a.overrides.seed) o.insert(o.end(), {"--seed", std::to_string(*a.overrides.seed)});
  if (a.overrides.timeout_s > 0)
    o.insert(o.end(), {"--timeout", fmt::format("{}", a.overrides.timeout_s)});
  for (const std::string& p : a.overrides.properties) o.insert(o.end(), {"-p", p});
  if (!a.costs.empty()) o.insert(o.end(), {"--costs", Absolute(a.costs)});
  return o;
}

// Plans the workload as every task will (bad input fails here, before
// anything is written or submitted) and fills the job description.
Status PrepareJob(SlurmArgs& a, SlurmJobSpec* spec, std::string* estimate) {
  if (a.shards < 1) return Status::InvalidArgument("--shards must be at least 1");
  if (!a.engines.empty()) {
    for (const auto& e : CLI::detail::split(a.engines, ',')) a.overrides.engines.push_back(e);
  }
  runner::RunPlan plan;
  KVBENCH_RETURN_IF_ERROR(runner::PlanRun(a.workload, a.overrides, &plan));
  results::RunResults measured;
  if (!a.costs.empty()) {
    KVBENCH_RETURN_IF_ERROR(results::ReadResultsFile(a.costs, &measured).WithContext("--costs"));
  }
  const runner::ShardAssignment assignment =
      runner::AssignShards(plan, a.shards, a.costs.empty() ? nullptr : &measured, a.costs);
  if (static_cast<size_t>(a.shards) > assignment.units.size()) {
    return Status::InvalidArgument(fmt::format(
        "--shards {}: the plan has only {} units (engine x phase x threads/target), so {} array "
        "task{} would have nothing to run; use --shards {} or fewer",
        a.shards, assignment.units.size(), a.shards - assignment.units.size(),
        a.shards - assignment.units.size() == 1 ? "" : "s", assignment.units.size()));
  }
  std::string out = a.out;
  if (out.empty()) {
    std::string stamp = runner::UtcTimestamp();
    for (char& c : stamp) c = c == ':' ? '-' : c;
    out = "runs/" + SlugOf(plan.workload.name) + "-slurm-" + stamp;
  }
  spec->name = "kvbench-" + SlugOf(plan.workload.name);
  spec->kvbench = a.kvbench.empty() ? ThisBinary() : Absolute(a.kvbench);
  spec->workload = Absolute(a.workload);
  spec->run_options = RunOptions(a);
  spec->shards = a.shards;
  spec->out = Absolute(out);
  spec->partition = a.partition;
  spec->time_limit = a.time_limit;
  spec->exclusive = !a.shared_nodes;
  spec->data_dir = a.data_dir.empty() ? "" : Absolute(a.data_dir);
  // "qos=long" is "--qos=long": CLI11 takes a value that starts with a dash
  // only as --sbatch-arg=--qos=long.
  for (const std::string& arg : a.sbatch_args) {
    spec->sbatch_args.push_back(!arg.empty() && arg[0] != '-' ? "--" + arg : arg);
  }
  KVBENCH_RETURN_IF_ERROR(CheckSlurmJobSpec(*spec));
  const double wall =
      *std::max_element(assignment.shard_seconds.begin(), assignment.shard_seconds.end());
  *estimate = fmt::format(
      "{} shards of {} units; estimated {:.0f} s per shard at most ({:.0f} s unsharded), from {}",
      a.shards, assignment.units.size(), wall, assignment.unsharded_seconds,
      assignment.cost_source);
  return Status::OK();
}

Status WriteScripts(const SlurmJobSpec& spec) {
  // The folder is kvbench's from here on (marked); its shards and merged
  // report go below it, each claimed by the run that writes it.
  KVBENCH_RETURN_IF_ERROR(ClaimDirectory(spec.out, spec.name, ClaimMode::kEmptyOrNew));
  std::error_code ec;
  fs::create_directories(LogDir(spec), ec);
  if (ec) return Status::IOError("cannot create '" + LogDir(spec) + "': " + ec.message());
  for (const auto& [path, text] : {std::pair{ArrayScriptPath(spec), ArrayScript(spec)},
                                   std::pair{MergeScriptPath(spec), MergeScript(spec)},
                                   std::pair{SubmitScriptPath(spec), SubmitScript(spec)}}) {
    KVBENCH_RETURN_IF_ERROR(WriteFileAtomically(path, text));
    fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add, ec);
  }
  return Status::OK();
}

int Slurm(SlurmArgs& a) {
  SlurmJobSpec spec;
  std::string estimate;
  if (Status s = PrepareJob(a, &spec, &estimate); !s.ok()) {
    fmt::print(stderr, "kvbench slurm: {}\n", s.message());
    return kExitBadInput;
  }
  if (Status s = WriteScripts(spec); !s.ok()) {
    fmt::print(stderr, "kvbench slurm: {}\n", s.message());
    return kExitBadInput;
  }
  // Printed once nothing can fail any more: bad input prints one line only.
  const std::string wrote =
      fmt::format("{}\nwrote {}\n      {}\n      {}\n", estimate, ArrayScriptPath(spec),
                  MergeScriptPath(spec), SubmitScriptPath(spec));
  if (!a.submit) {
    fmt::print("{}submit both with: bash {}\n", wrote, SubmitScriptPath(spec));
    return kExitOk;
  }
  std::string array_id, merge_id;
  if (Status s = SubmitWithSbatch({}, ArrayScriptPath(spec), &array_id); !s.ok()) {
    fmt::print(stderr, "kvbench slurm: {}\n", s.message());
    return kExitBadInput;
  }
  if (Status s =
          SubmitWithSbatch({"--dependency=afterany:" + array_id}, MergeScriptPath(spec), &merge_id);
      !s.ok()) {
    fmt::print(stderr,
               "kvbench slurm: array job {} was submitted, the merge job was not: {}; submit it "
               "with: sbatch --dependency=afterany:{} {}\n",
               array_id, s.message(), array_id, MergeScriptPath(spec));
    return kExitBadInput;
  }
  fmt::print(
      "{}array job {} ({} tasks: shard K into {}/shard-K, logs in {})\n"
      "merge job {} (after every task ends: afterany)\n"
      "report, once job {} completes: {}/report.html\n",
      wrote, array_id, spec.shards, spec.out, LogDir(spec), merge_id, merge_id, MergedDir(spec));
  return kExitOk;
}

}  // namespace

void AddSlurmCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "slurm",
      "Write (and with --submit, submit) a Slurm job array running a plan's shards, "
      "and the merge job after it");
  cmd->footer(
      "Example: kvbench slurm workloads/seed-002-ycsb.toml --shards 16 --partition bench "
      "--time 2:00:00 --sbatch-arg=--account=storage --submit\n"
      "The nodes must see the kvbench binary, the workload file and --out at the same paths "
      "(a shared filesystem). docs/scale-out.md explains the jobs.");
  auto a = std::make_shared<SlurmArgs>();
  cmd->add_option("workload", a->workload, "Workload file (TOML or YCSB property file)")
      ->required();
  cmd->add_option("--shards", a->shards, "Number of shards: array tasks, one node each")
      ->required();
  cmd->add_option("--partition", a->partition, "Slurm partition (default: the cluster's)");
  cmd->add_option("--time", a->time_limit, "Time limit of each job, as sbatch --time takes it");
  cmd->add_option("--out", a->out,
                  "Directory for the scripts, logs, shards and merged report, on a filesystem "
                  "the nodes share (default runs/<workload>-slurm-<time>)");
  cmd->add_option("--sbatch-arg", a->sbatch_args,
                  "One more sbatch option for both jobs: --sbatch-arg qos=long or "
                  "--sbatch-arg=--qos=long (repeatable)")
      ->allow_extra_args(false);
  cmd->add_flag("--submit", a->submit, "Submit both jobs with sbatch and print their ids");
  cmd->add_flag("--shared-nodes", a->shared_nodes,
                "Do not ask for whole nodes (by default each task has its node to itself)");
  cmd->add_option("--data-dir", a->data_dir,
                  "Where each task's engines keep their files on its node (default "
                  "${TMPDIR:-/tmp}, node-local)");
  cmd->add_option("--kvbench", a->kvbench, "The kvbench binary the nodes run (default: this one)");
  cmd->add_option("--engines", a->engines,
                  "Comma-separated engines (replaces the workload's list)");
  cmd->add_option("--scale", a->overrides.scale, "Multiply every count by this factor");
  cmd->add_option("--repeat", a->overrides.repeat, "Repetitions of every phase")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--seed", a->overrides.seed, "Seed of every dataset");
  cmd->add_option("--timeout", a->overrides.timeout_s, "Seconds allowed per engine");
  cmd->add_option("-p", a->overrides.properties, "YCSB property override name=value (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--costs", a->costs,
                  "An earlier run's results.json whose measured times place the units");
  cmd->callback([a, exit_code] { *exit_code = Slurm(*a); });
}

}  // namespace kvbench::app
