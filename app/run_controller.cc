#include "app/run_controller.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "app/cli.h"
#include "app/history_commands.h"
#include "runner/engine_process.h"
#include "runner/engine_runner.h"
#include "runner/environment.h"
#include "runner/interrupt.h"
#include "results/results_json.h"
#include "reports/reports.h"
#include "reports/verdict.h"
#include "reports/hdr_histogram.h"
#include "reports/ycsb_summary.h"
#include "common/atomic_file.h"

namespace kvbench::app {

namespace {

namespace fs = std::filesystem;


std::string DefaultOutDir(const std::string& workload_name) {
  std::string stamp = runner::UtcTimestamp();
  for (char& c : stamp) {
    if (c == ':') c = '-';
  }
  return "runs/" + workload_name + "-" + stamp;
}

// Runs one engine in a child and appends what it reported to `results`.
void RunEngine(const runner::RunPlan& plan, const results::EngineRun& engine,
               const std::string& data_root, bool show_progress,
               const runner::RunPosition& position, const RunArgs& args,
               const runner::EngineRows& rows, results::RunResults* results) {
  // `kvbench ycsb` keeps the engine's files where they are; otherwise each
  // engine starts from an empty directory of its own.
  const bool own_dir = args.engine_dir.empty();
  const std::string dir = own_dir ? data_root + "/" + engine.name : args.engine_dir;
  std::error_code ec;
  if (own_dir) fs::remove_all(dir, ec);
  fs::create_directories(dir, ec);
  results::EngineRun record = engine;
  if (ec) {
    record.status = "failed";
    record.reason = "cannot create data directory '" + dir + "': " + ec.message();
    results->engines.push_back(record);
    return;
  }
  std::string child_error;
  const runner::ChildOutcome outcome = runner::RunInChildProcess(
      [&](int fd) {
        return runner::RunEngineInChild(plan, engine, dir, show_progress, position, rows, fd);
      },
      plan.workload.timeout_s,
      [&](const std::string& line) {
        nlohmann::json doc = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
        if (doc.is_discarded()) {
          child_error = "unreadable message from the engine process";
          return;
        }
        namespace msg = runner::child_message;
        if (doc.contains(msg::kError)) {
          child_error = doc[msg::kError].get<std::string>();
          return;
        }
        if (doc.contains(msg::kSetupSeconds) && doc[msg::kSetupSeconds].is_number() &&
            !results->shards.empty()) {
          results->shards.front().setup_seconds += doc[msg::kSetupSeconds].get<double>();
          return;
        }
        // The opened engine's version can say more than the library's alone
        // (redis adds the server's).
        if (doc.contains(msg::kLibraryVersion) && doc[msg::kLibraryVersion].is_string()) {
          record.library_version = doc[msg::kLibraryVersion].get<std::string>();
          results->environment.libraries[engine.name] = record.library_version;
          return;
        }
        results::PhaseRun run;
        if (doc.contains(msg::kRun) && results::PhaseRunFromJson(doc[msg::kRun], &run).ok()) {
          results->runs.push_back(std::move(run));
        }
      });
  record.wall_seconds = outcome.wall_seconds;
  if (outcome.interrupted) {
    record.status = "interrupted";
    record.reason = "interrupted (" + std::string(strsignal(runner::InterruptSignal())) + ")";
  } else if (!outcome.ok || !child_error.empty()) {
    record.status = "failed";
    record.reason = child_error.empty() ? outcome.failure
                    : outcome.ok        ? child_error
                                        : child_error + " (" + outcome.failure + ")";
  }
  results->engines.push_back(record);
  if (!args.keep_data && own_dir) fs::remove_all(dir, ec);
}

// Writes `files` (name, text) under `prefix` (a directory with its '/', or a
// file name prefix); false with a message on stderr when one cannot be.
bool WriteFiles(const std::string& prefix,
                const std::vector<std::pair<std::string, std::string>>& files) {
  std::error_code ec;
  const fs::path dir = fs::path(prefix + "x").parent_path();
  if (!dir.empty()) fs::create_directories(dir, ec);
  for (const auto& [name, text] : files) {
    if (Status s = WriteFileAtomically(prefix + name, text); !s.ok()) {
      fmt::print(stderr, "kvbench: {}\n", s.ToString());
      return false;
    }
  }
  return true;
}

reports::YcsbTextOptions YcsbTextOptionsOf(const runner::Workload& w) {
  reports::YcsbTextOptions options;
  options.percentiles = w.ycsb_output.percentiles;
  options.timeseries = w.ycsb_output.timeseries;
  return options;
}

// Every phase x matrix point of `engine` it was to measure (`rows`) with no
// result yet gets one with status "interrupted", so results.json says what
// was not measured.
void MarkNotRun(const runner::RunPlan& plan, const std::string& engine,
                const runner::EngineRows& rows, results::RunResults* results) {
  int row = rows.first_row;
  for (const runner::PhaseSpec& phase : plan.workload.phases) {
    for (const runner::MatrixPoint& point : runner::ExpandMatrix(phase)) {
      const size_t local = static_cast<size_t>(row++ - rows.first_row);
      if (!rows.measured.empty() && !rows.measured[local]) continue;
      const std::string cache = runner::NameOf(point.cache);
      const bool have = std::any_of(results->runs.begin(), results->runs.end(),
                                    [&](const results::PhaseRun& r) {
                                      return r.engine == engine && r.phase == phase.name &&
                                             r.threads == point.threads &&
                                             r.target_ops == point.target && r.cache == cache;
                                    });
      if (have) continue;
      results::PhaseRun run;
      run.phase = phase.name;
      run.op = runner::NameOf(phase.op);
      run.engine = engine;
      run.threads = point.threads;
      run.target_ops = point.target;
      run.cache = cache;
      run.params = runner::PhaseParameters(phase);
      run.status = "interrupted";
      run.reason = "the run was interrupted before this phase finished";
      if (rows.shard >= 0) {
        run.row = row - 1;
        run.shard = rows.shard;
      }
      results->runs.push_back(std::move(run));
    }
  }
}

// Shard args.shard's record and rows of `plan`.
Status PlanShard(const runner::RunPlan& plan, const RunArgs& args, results::ShardInfo* shard,
                 std::vector<bool>* rows) {
  results::RunResults measured;
  if (!args.costs.empty()) {
    KVBENCH_RETURN_IF_ERROR(results::ReadResultsFile(args.costs, &measured).WithContext("--costs"));
  }
  const runner::ShardAssignment assignment = runner::AssignShards(
      plan, args.shard->count, args.costs.empty() ? nullptr : &measured, args.costs);
  shard->index = args.shard->index;
  shard->count = args.shard->count;
  shard->plan_hash = assignment.plan_hash;
  shard->assignment_hash = assignment.assignment_hash;
  shard->rows = assignment.shard_rows[static_cast<size_t>(shard->index)];
  shard->labels = args.labels;
  *rows = assignment.RowsOf(shard->index, runner::PlanRows(plan).size());
  return Status::OK();
}

}  // namespace

int RunWorkloadFile(const std::string& file, const RunArgs& args, bool several) {
  runner::RunPlan plan;
  Status s = runner::PlanRun(file, args.overrides, &plan);
  if (!s.ok()) {
    fmt::print(stderr, "kvbench: {}\n", s.message());
    return kExitBadInput;
  }
  for (const std::string& warning : plan.warnings) {
    fmt::print(stderr, "kvbench: warning: {}\n", warning);
  }
  // Properties of YCSB's command line, which `kvbench run` does not have.
  const runner::Workload& w = plan.workload;
  for (const char* name : {"db", "dbname", "doload", "dotransactions", "dotransaction",
                           "kvbench.dir", "exportfile"}) {
    if (w.ycsb_properties.contains(name) || (name == std::string("exportfile") &&
                                             !w.ycsb_output.export_file.empty())) {
      fmt::print(stderr,
                 "kvbench: warning: {}: {} is read by `kvbench ycsb`; `kvbench run` runs every "
                 "phase on --engines and writes YCSB's output with --ycsb-output[=DIR]\n",
                 file, name);
    }
  }
  RunArgs one = args;
  if (several && !args.out.empty()) one.out = args.out + "/" + plan.workload.name;
  if (several && !args.ycsb_output_dir.empty()) {
    one.ycsb_output_dir = args.ycsb_output_dir + "/" + plan.workload.name;
  }
  results::RunResults results;
  return RunPlanned(plan, file, one, &results);
}

int RunPlanned(const runner::RunPlan& plan, const std::string& file, const RunArgs& args,
               results::RunResults* results_out) {
  Status s;
  // A shard measures its units of the plan (runner/shard_plan.h).
  std::vector<bool> shard_rows;
  results::ShardInfo shard;
  if (args.shard) {
    s = PlanShard(plan, args, &shard, &shard_rows);
    if (!s.ok()) {
      fmt::print(stderr, "kvbench: {}\n", s.message());
      return kExitBadInput;
    }
  }
  std::string default_out = DefaultOutDir(plan.workload.name);
  if (args.shard) default_out += fmt::format("-shard{}of{}", shard.index, shard.count);
  const std::string out = args.out.empty() ? default_out : args.out;
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) {
    fmt::print(stderr, "kvbench: cannot create output directory '{}': {}\n", out, ec.message());
    return kExitBadInput;
  }
  const std::string data_root = !args.engine_dir.empty() ? args.engine_dir
                                : args.data_dir.empty()  ? out + "/data"
                                                         : args.data_dir;
  fs::create_directories(data_root, ec);

  results::RunResults& results = *results_out;
  results = {};
  results.run_id = results::NewRunId();
  results.started_at = runner::UtcTimestamp();
  results.command_line = args.command_line;
  results.environment = runner::CaptureEnvironment(data_root);
  const runner::Workload& w = plan.workload;
  results.workload = {w.name, w.description, file, w.source, args.overrides.scale, plan.dataset};
  for (const auto& [k, v] : plan.values) results.workload.dataset["values." + k] = v;
  for (const results::EngineRun& e : plan.engines) results.environment.libraries[e.name] = e.library_version;
  if (args.shard) {
    shard.started_at = results.started_at;
    results.shards.push_back(shard);
  }
  std::FILE* summary = args.summary_on_stderr ? stderr : stdout;

  // YCSB's status lines (-s) take stderr's place of the progress line.
  const bool tty = ::isatty(STDERR_FILENO) && !args.quiet && !w.ycsb_output.status;
  runner::RunPosition position;
  position.engine_count = static_cast<int>(plan.engines.size());
  const std::string results_path = out + "/results.json";
  int rc = kExitOk;
  const size_t rows_per_engine = runner::RowsPerEngine(w);
  for (const results::EngineRun& engine : plan.engines) {
    const size_t engine_index = static_cast<size_t>(&engine - plan.engines.data());
    runner::EngineRows rows;
    rows.first_row = static_cast<int>(engine_index * rows_per_engine);
    if (args.shard) {
      const auto first = shard_rows.begin() + static_cast<ptrdiff_t>(rows.first_row);
      rows.measured.assign(first, first + static_cast<ptrdiff_t>(rows_per_engine));
      rows.shard = shard.index;
      // Not this shard's engine: another shard runs all of it.
      if (std::find(rows.measured.begin(), rows.measured.end(), true) == rows.measured.end())
        continue;
    }
    if (runner::InterruptCount() > 0) {
      // Not started: recorded as such, so the results say what is missing.
      results::EngineRun skipped = engine;
      skipped.status = "interrupted";
      skipped.reason = "not run: the run was interrupted";
      results.engines.push_back(skipped);
      MarkNotRun(plan, engine.name, rows, &results);
      if (Status written = results::WriteResultsFile(results, results_path); !written.ok()) {
        fmt::print(stderr, "kvbench: {}\n", written.ToString());
        return kExitFailure;
      }
      continue;
    }
    if (!args.quiet) fmt::print(stderr, "kvbench: {}: running {}\n", w.name, engine.name);
    position.engine_index = static_cast<int>(engine_index);
    RunEngine(plan, engine, data_root, tty, position, args, rows, &results);
    if (results.engines.back().status == "interrupted") {
      MarkNotRun(plan, engine.name, rows, &results);
      rc = kExitInterrupted;
      if (!args.quiet) {
        fmt::print(stderr, "kvbench: interrupted: keeping the finished phases, writing the report\n");
      }
      if (runner::InterruptCount() > 1) break;  // a second Ctrl-C: no report, stop now
    } else if (results.engines.back().status != "ok") {
      fmt::print(stderr, "kvbench: {}: engine {} failed: {}\n", w.name, engine.name,
                 results.engines.back().reason);
      rc = kExitFailure;
    }
    if (args.ycsb_output && args.ycsb_output_dir.empty()) {
      fmt::print("{}", reports::RenderYcsbSummary(results, engine.name, YcsbTextOptionsOf(w)));
      std::fflush(stdout);
    }
    results.finished_at = runner::UtcTimestamp();
    s = results::WriteResultsFile(results, results_path);
    if (!s.ok()) {
      fmt::print(stderr, "kvbench: {}\n", s.ToString());
      return kExitFailure;
    }
  }
  if (!args.keep_data && args.data_dir.empty() && args.engine_dir.empty()) {
    fs::remove_all(data_root, ec);
  }
  if (runner::InterruptCount() > 1) return kExitInterrupted;
  if (args.shard) {
    // The shard's run ended: `kvbench merge` takes it as complete.
    results.finished_at = runner::UtcTimestamp();
    results.shards.front().finished = true;
    results.shards.front().finished_at = results.finished_at;
    if (Status written = results::WriteResultsFile(results, results_path); !written.ok()) {
      fmt::print(stderr, "kvbench: {}\n", written.ToString());
      return kExitFailure;
    }
  }
  if (runner::InterruptCount() > 0) rc = kExitInterrupted;
  s = reports::WriteRunReports(results, out);
  if (!s.ok()) {
    fmt::print(stderr, "kvbench: {}\n", s.ToString());
    rc = kExitFailure;
  }
  if (args.ycsb_output && !args.ycsb_output_dir.empty() &&
      !WriteFiles(args.ycsb_output_dir + "/",
                  reports::YcsbRunFiles(results, YcsbTextOptionsOf(w)))) {
    rc = kExitFailure;
  }
  if (w.measurement.hdrhistogram &&
      !WriteFiles(args.hdr_prefix.empty() ? out + "/hdrhistogram/" : args.hdr_prefix,
                  reports::HdrHistogramFiles(results))) {
    rc = kExitFailure;
  }
  fmt::print(summary, "{}", reports::RenderSummaryTable(results));
  if (const std::string verdict = reports::RenderVerdict(results); !verdict.empty()) {
    fmt::print(summary, "\nVerdict (median ops/s, 95% intervals of the median; \"tied\" where they "
               "overlap):\n{}", verdict);
  }
  fmt::print(summary, "\nreport: {0}/report.html\n        {0}/report.md\nresults: {1}\n", out,
             results_path);
  if (args.shard) {
    const results::ShardInfo& sh = results.shards.front();
    fmt::print(
        summary, "shard {}/{}: {} rows, setup replays {:.1f} s; join the shards with `kvbench merge "
        "SHARD_RESULTS... -o DIR`\n",
        sh.index, sh.count, sh.rows, sh.setup_seconds);
  }
  if (!args.history_store.empty()) {
    if (rc == kExitInterrupted) {
      fmt::print(stderr, "kvbench: the run was interrupted: not added to the history\n");
    } else if (RunHistoryAdd({results_path}, args.history_store, std::cout, std::cerr) != kExitOk) {
      fmt::print(stderr, "kvbench: the results are kept: kvbench history add {}\n", results_path);
      return kExitBadInput;
    }
  }
  return rc;
}


int RunWorkloads(const RunArgs& args) {
  // A store that cannot be used stops the run before it starts.
  if (!args.history_store.empty() && CheckHistoryStoreOpens(args.history_store, std::cerr) != kExitOk) {
    return kExitBadInput;
  }
  runner::InstallInterruptHandlers();
  int rc = kExitOk;
  for (const std::string& file : args.files) {
    if (runner::InterruptCount() > 0) return kExitInterrupted;
    const int one = RunWorkloadFile(file, args, args.files.size() > 1);
    if (one == kExitBadInput || one == kExitInterrupted) return one;
    if (one != kExitOk) rc = one;
  }
  return rc;
}

}  // namespace kvbench::app
