// `kvbench crash WORKLOAD [--engines a,b] [--fault power-loss|torn|kill[,...]]
//  [--trials N] [--seed S] [--out DIR]`: durability measured, not declared.
//
// First the workload's phases run as `kvbench run` runs them (the throughput
// each engine x option set buys; --no-throughput skips it), then the crash
// trials (runner/crash/crash_trials.h) of every durable engine under each fault.
// Both land in one results.json (the trials in its "durability" section) and
// its reports; the trials' timings are never mixed with the phases'.
#include <fmt/core.h>
#include <unistd.h>

#include <filesystem>
#include <memory>

#include "adapters/registry.h"
#include "app/cli.h"
#include "app/output_dir.h"
#include "app/run_controller.h"
#include "common/owned_dir.h"
#include "reports/reports.h"
#include "results/durability.h"
#include "results/results_json.h"
#include "runner/crash/crash_trials.h"
#include "runner/crash/power_loss_mount.h"
#include "runner/environment.h"
#include "runner/interrupt.h"
#include "runner/ycsb/workload_file.h"

namespace kvbench::app {

namespace {

namespace fs = std::filesystem;

struct CrashArgs {
  std::string file;
  runner::RunOverrides overrides;
  std::string faults = "power-loss";
  int trials = 20;
  uint64_t seed = 1;
  uint64_t max_commits = 200;
  int writers = 1;
  std::string out;
  bool overwrite = false;
  std::string layer_binary;  // default: kvbench-powerloss beside this executable
  bool no_throughput = false;
  bool quiet = false;
  std::string command_line;
};

std::string BesideThisExecutable(const std::string& name) {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? name : (self.parent_path() / name).string();
}

// The first line of a one-line summary for the terminal.
std::string TrialSummary(const results::DurabilityRun& d) {
  const std::string fault = results::FaultLabel(d);
  if (d.status != "ok") return fmt::format("{} ({}): {}: {}", d.engine, fault, d.status, d.reason);
  return fmt::format(
      "{} ({}): {} trials, acknowledged commits lost in {} (most {}), partial batches in {}, "
      "corrupt {}, unopenable {}: measured {}, declared {}{}",
      d.engine, fault, d.trials, d.trials_losing_acked, d.most_commits_lost, d.atomicity_violations,
      d.corrupt, d.unopenable, d.measured.empty() ? "-" : d.measured, d.declared,
      d.finding ? "  <-- FINDING: the declaration promises more" : "");
}

// The faults of --fault, each power-loss, torn or kill; false (said on
// stderr) for any other.
bool ParseFaults(const std::string& list, std::vector<std::string>* faults) {
  for (const std::string& f : CLI::detail::split(list, ',')) {
    if (f != "power-loss" && f != "torn" && f != "kill") {
      fmt::print(stderr, "kvbench: --fault: '{}' is not power-loss, torn or kill\n", f);
      return false;
    }
    faults->push_back(f);
  }
  return true;
}

// Whether some engine of the plan keeps its data across a fault (one whose
// adapter cannot be made counts as not).
bool AnyDurableEngine(const runner::RunPlan& plan) {
  bool any_durable = false;
  for (const results::EngineRun& e : plan.engines) {
    std::unique_ptr<Adapter> adapter;
    if (AdapterRegistry::Global().Create(e.name, &adapter).ok()) {
      any_durable = any_durable || adapter->capabilities().durable;
    }
  }
  return any_durable;
}

// The power-loss layer can run here: FUSE is there and so is the layer's
// executable; stale mounts of a dead daemon are detached. False (said on
// stderr) when it cannot.
bool PreparePowerLossLayer(const std::string& layer) {
  if (Status s = runner::CheckFuseDevice(); !s.ok()) {
    fmt::print(stderr, "kvbench: {}\n", s.message());
    return false;
  }
  if (::access(layer.c_str(), X_OK) != 0) {
    fmt::print(stderr,
               "kvbench: the power-loss layer '{}' is missing (build kvbench-powerloss)\n",
               layer);
    return false;
  }
  for (const std::string& stale : runner::CleanStaleMounts()) {
    fmt::print(stderr,
               "kvbench: detached a stale power-loss mount at '{}' (its daemon had died)\n",
               stale);
  }
  return true;
}

// The results the trials are added to: the throughput run's (a normal run of
// the workload into `out`, read back from results_path), or with
// --no-throughput the run's facts alone. Returns kExitOk, or the exit code to
// end with.
int StartResults(const CrashArgs& args, const runner::RunPlan& plan, const std::string& out,
                 const std::string& owner, const std::string& results_path,
                 results::RunResults* results) {
  if (!args.no_throughput) {
    RunArgs run;
    run.files = {args.file};
    run.overrides = args.overrides;
    run.out = out;
    run.out_claimed = true;  // this command holds the folder's claim and lock
    run.quiet = args.quiet;
    run.command_line = args.command_line;
    const int rc = RunWorkloads(run);
    if (rc == kExitBadInput || rc == kExitInterrupted) return rc;
    if (Status s = results::ReadResultsFile(results_path, results); !s.ok()) {
      fmt::print(stderr, "kvbench: {}\n", s.ToString());
      return kExitFailure;
    }
    return kExitOk;
  }
  results->started_at = runner::UtcTimestamp();
  results->command_line = args.command_line;
  results->environment = runner::CaptureEnvironment(out);
  const runner::Workload& w = plan.workload;
  results->workload = {w.name,   w.description,        args.file,
                       w.source, args.overrides.scale, plan.dataset};
  results->engines = plan.engines;
  results->run_id = owner;
  return kExitOk;
}

// The trials of every engine under every fault, each engine's added to
// results.json (results_path) as it ends; *rc becomes kExitFailure when an
// engine's trials failed. A results.json that cannot be written ends them at
// once with its status.
Status RunAllTrials(const CrashArgs& args, const runner::RunPlan& plan,
                    const std::vector<std::string>& faults, const std::string& layer,
                    const std::string& scratch, const std::string& results_path,
                    results::RunResults* results, int* rc) {
  const bool tty = ::isatty(STDERR_FILENO) && !args.quiet;
  for (const std::string& fault : faults) {
    for (const results::EngineRun& engine : plan.engines) {
      if (runner::InterruptCount() > 0) break;
      runner::CrashOptions options;
      options.fault = fault;
      options.trials = args.trials;
      options.seed = args.seed;
      options.max_commits = args.max_commits;
      options.writers = args.writers;
      options.scratch = scratch;
      options.layer_binary = layer;
      options.timeout_s = plan.workload.timeout_s;
      if (tty) {
        options.on_trial = [&](int done, int total) {
          fmt::print(stderr, "\r{} ({}): trial {}/{}   ", engine.name, fault, done, total);
        };
      }
      results::DurabilityRun d;
      runner::RunCrashTrials(engine, options, &d);
      if (tty) fmt::print(stderr, "\r\033[K");
      if (!args.quiet) fmt::print(stderr, "kvbench: {}\n", TrialSummary(d));
      if (d.status == "failed") *rc = kExitFailure;
      results->durability.push_back(std::move(d));
      results->finished_at = runner::UtcTimestamp();
      KVBENCH_RETURN_IF_ERROR(results::WriteResultsFile(*results, results_path));
    }
  }
  return Status::OK();
}

int RunCrash(const CrashArgs& args) {
  runner::InstallInterruptHandlers();
  if (args.trials < 1) {
    fmt::print(stderr, "kvbench: --trials must be at least 1 (got {})\n", args.trials);
    return kExitBadInput;
  }
  std::vector<std::string> faults;
  if (!ParseFaults(args.faults, &faults)) return kExitBadInput;
  runner::RunPlan plan;
  if (Status s = runner::PlanRun(args.file, args.overrides, &plan); !s.ok()) {
    fmt::print(stderr, "kvbench: {}\n", s.message());
    return kExitBadInput;
  }
  if (!AnyDurableEngine(plan)) {
    fmt::print(stderr,
               "kvbench: {}: no engine in the workload is durable (kvbench crash measures what "
               "survives a fault; in-memory engines keep nothing)\n",
               args.file);
    return kExitBadInput;
  }
  const bool power =
      std::any_of(faults.begin(), faults.end(), [](const std::string& f) { return f != "kill"; });
  const std::string layer =
      args.layer_binary.empty() ? BesideThisExecutable("kvbench-powerloss") : args.layer_binary;
  if (power && !PreparePowerLossLayer(layer)) return kExitBadInput;

  std::string out = args.out;
  if (out.empty()) {
    std::string stamp = runner::UtcTimestamp();
    std::replace(stamp.begin(), stamp.end(), ':', '-');
    out = "runs/" + SlugOf(plan.workload.name) + "-crash-" + stamp;
  }
  OutputDir out_dir;
  std::string replaced;
  const std::string owner = results::NewRunId();
  if (Status s = OutputDir::Open(out, owner, args.overwrite, &out_dir, &replaced); !s.ok()) {
    fmt::print(stderr, "kvbench: {}\n", s.message());
    return kExitBadInput;
  }
  if (!replaced.empty()) fmt::print(stderr, "kvbench: --overwrite: replaced {} in '{}'\n", replaced, out);
  const std::string results_path = out + "/results.json";

  results::RunResults results;
  if (const int rc = StartResults(args, plan, out, owner, results_path, &results); rc != kExitOk) {
    return rc;
  }
  // The trials add to the file engine by engine: incomplete until they end.
  results.complete = false;

  const std::string scratch = out + "/crash-scratch";
  if (Status s = ClaimDirectory(scratch, owner, ClaimMode::kReuseOwned); !s.ok()) {
    fmt::print(stderr, "kvbench: {}\n", s.message());
    return kExitFailure;
  }
  int rc = kExitOk;
  if (Status s = RunAllTrials(args, plan, faults, layer, scratch, results_path, &results, &rc);
      !s.ok()) {
    fmt::print(stderr, "kvbench: {}\n", s.ToString());
    return kExitFailure;
  }
  if (Status s = RemoveOwnedDirectory(scratch); !s.ok()) fmt::print(stderr, "kvbench: {}\n", s.message());
  results.complete = runner::InterruptCount() == 0;
  if (Status s = reports::WriteRunReports(results, out); !s.ok()) {
    fmt::print(stderr, "kvbench: the report was not written: {}\n", s.ToString());
    return kExitFailure;
  }
  fmt::print("\nreport: {0}/report.html\n        {0}/report.md\nresults: {1}\n", out, results_path);
  return runner::InterruptCount() > 0 ? kExitInterrupted : rc;
}

}  // namespace

void AddCrashCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "crash",
      "Measure durability: cut the power (a FUSE layer drops unsynced writes) or kill "
      "the engine, reopen, count lost acknowledged commits");
  cmd->footer(
      "Example: kvbench crash workloads/durability.toml --engines sqlite@full,lmdb --fault "
      "power-loss,torn --trials 50\nSee docs/durability.md for the fault model.");
  auto args = std::make_shared<CrashArgs>();
  auto engines = std::make_shared<std::string>();
  cmd->add_option("workload", args->file, "Workload file (its engines and options)")->required();
  cmd->add_option("--engines", *engines, "Comma-separated engines (replaces the workload's list)");
  cmd->add_option("--fault", args->faults,
                  "power-loss (unsynced writes discarded), torn (a random subset of unsynced "
                  "4 KiB pages survives) or kill (SIGKILL); a comma-separated list runs each");
  cmd->add_option("--trials", args->trials, "Trials per engine and fault (at least 1)");
  cmd->add_option("--seed", args->seed, "Seed of the commits, cut points and torn pages");
  cmd->add_option("--max-commits", args->max_commits,
                  "A trial cuts after 1..N acknowledged commits (random)")
      ->check(CLI::Range(1, 100000000));
  cmd->add_option("--writers", args->writers,
                  "Threads committing at once in each trial, each its own keys through its own "
                  "session (the cut counts all their acknowledged commits)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--scale", args->overrides.scale, "Multiply the throughput phases' counts");
  cmd->add_option("--repeat", args->overrides.repeat, "Repetitions of every throughput phase")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--out", args->out, "Output directory (default runs/<workload>-crash-<time>)");
  cmd->add_flag("--overwrite", args->overwrite,
                "Replace an earlier kvbench output in --out (never a folder kvbench did not make)");
  cmd->add_option("--layer-binary", args->layer_binary,
                  "The kvbench-powerloss executable (default: beside kvbench)");
  cmd->add_flag("--no-throughput", args->no_throughput,
                "Skip the normal run of the workload's phases (no throughput beside the trials)");
  cmd->add_flag("-q,--quiet", args->quiet, "No progress on stderr");
  cmd->callback([cmd, args, engines, exit_code] {
    args->command_line = CanonicalCommandLine(*cmd, "workload");
    if (!engines->empty()) {
      for (const auto& e : CLI::detail::split(*engines, ',')) args->overrides.engines.push_back(e);
    }
    *exit_code = RunCrash(*args);
  });
}

}  // namespace kvbench::app
