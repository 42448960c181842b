#include "app/run_controller.h"

#include <sys/ioctl.h>
#include <sys/statvfs.h>
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
#include "app/output_dir.h"
#include "common/atomic_file.h"
#include "common/owned_dir.h"
#include "runner/phase_op.h"
#include "runner/ycsb/workload_file.h"

namespace kvbench::app {

namespace {

namespace fs = std::filesystem;


std::string DefaultOutDir(const std::string& workload_name) {
  std::string stamp = runner::UtcTimestamp();
  for (char& c : stamp) {
    if (c == ':') c = '-';
  }
  return "runs/" + SlugOf(workload_name) + "-" + stamp;
}

// Where `engine` keeps its files under `data_root`.
std::string EngineDataDir(const std::string& data_root, const std::string& engine) {
  return data_root + "/" + SlugOf(engine);
}

// Adds a phase run the engine's process reported. A failure is said on
// stderr as it happens; rows measured after a writing phase failed are kept
// but marked, so no report ranks figures of a half-written database.
void TakePhaseRun(const std::string& workload, results::PhaseRun run, std::string* failed_write,
                  results::RunResults* results) {
  if (run.status == "failed") {
    fmt::print(stderr, "kvbench: {}: {}: phase '{}' failed: {}\n", workload, run.engine, run.phase,
               run.reason);
    runner::PhaseOp op;
    if (failed_write->empty() && runner::ParsePhaseOp(run.op, &op) && runner::InfoOf(op).writes) {
      *failed_write = run.phase;
    }
  } else if (run.status == "ok" && !failed_write->empty()) {
    run.status = "after-failed-phase";
    run.reason = "ran after the writing phase '" + *failed_write +
                 "' failed: its figures are of a partly written database, so not compared";
  }
  results->runs.push_back(std::move(run));
}

// " (the file system of DIR is full: ...)" when a failure happened on a full
// disk, so ENOSPC is named as such even when the engine's message (or its
// abort) does not say it; "" otherwise.
std::string DiskFullNote(const std::string& dir) {
  struct statvfs st;
  if (::statvfs(dir.c_str(), &st) != 0) return "";
  const uint64_t free_bytes = static_cast<uint64_t>(st.f_bavail) * st.f_frsize;
  if (free_bytes >= (uint64_t{1} << 20) && st.f_favail > 0) return "";
  return fmt::format(" (no space left: the file system holding '{}' has {} bytes free)", dir,
                     free_bytes);
}

// Runs one engine in a child and appends what it reported to `results`.
void RunEngine(const runner::RunPlan& plan, const results::EngineRun& engine,
               const std::string& data_root, bool show_progress,
               const runner::RunPosition& position, const RunArgs& args,
               const runner::EngineRows& rows, results::RunResults* results) {
  // `kvbench ycsb` keeps the engine's files where they are; otherwise each
  // engine starts from an empty directory of its own.
  const bool own_dir = args.engine_dir.empty();
  const std::string dir = own_dir ? EngineDataDir(data_root, engine.name) : args.engine_dir;
  Status claimed;
  if (own_dir) {
    claimed = ClaimDirectory(dir, results->run_id, ClaimMode::kReuseOwned);
    if (claimed.ok()) claimed = EmptyOwnedDirectory(dir);
  } else {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) claimed = Status::IOError("cannot create '" + dir + "': " + ec.message());
  }
  results::EngineRun record = engine;
  if (!claimed.ok()) {
    record.status = "failed";
    record.reason = "data directory: " + claimed.message();
    results->engines.push_back(record);
    return;
  }
  std::string child_error;
  std::string failed_write;  // the first failed writing phase's name, once one failed
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
          TakePhaseRun(plan.workload.name, std::move(run), &failed_write, results);
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
  if (record.status == "ok") {
    // The engine process ran to its end, but a phase failed on the way: the
    // engine did not finish its work, and says which phase did not.
    for (const results::PhaseRun& run : results->runs) {
      if (run.engine != engine.name || run.status != "failed") continue;
      record.status = "partial";
      record.reason = "phase '" + run.phase + "' failed: " + run.reason;
      break;
    }
  }
  if (record.status == "failed" || record.status == "partial") record.reason += DiskFullNote(dir);
  results->engines.push_back(record);
  if (!args.keep_data && own_dir) {
    if (Status removed = RemoveOwnedDirectory(dir); !removed.ok()) {
      fmt::print(stderr, "kvbench: {}\n", removed.message());
    }
  }
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

namespace {

// Prints what the plan warns of, and properties of YCSB's command line,
// which `kvbench run` does not have.
void PrintPlanWarnings(const std::string& file, const runner::RunPlan& plan) {
  for (const std::string& warning : plan.warnings) {
    fmt::print(stderr, "kvbench: warning: {}\n", warning);
  }
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
}

// Bad input found before anything is written: every engine's data folder
// under a user's --data-dir must be new, empty, or kvbench's own.
Status CheckEngineDataDirs(const runner::RunPlan& plan, const std::string& data_root) {
  for (const results::EngineRun& engine : plan.engines) {
    const std::string dir = EngineDataDir(data_root, engine.name);
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(dir, ec)) || IsOwnedDirectory(dir)) continue;
    if (fs::is_symlink(fs::symlink_status(dir, ec)) || !fs::is_directory(dir, ec) ||
        !IsEmptyButForMarker(dir)) {
      return Status::InvalidArgument("--data-dir: refusing to use '" + dir + "' for engine " +
                                     engine.name +
                                     ": it is not empty (or not a directory) and kvbench did not "
                                     "create it; choose another --data-dir");
    }
  }
  return Status::OK();
}

// Said once per run, in a terminal, where the first in-memory engine starts:
// why its cold-cache rows are missing from the live lines.
constexpr const char* kInMemoryColdNote =
    "kvbench: note: cold-cache rows of in-memory engines (declared not durable) are not shown "
    "here: they keep no files to evict, so cold means nothing for them; the report lists them "
    "as n/a (in memory)";

// The engine declares its data lives only in memory (the rule the reports
// use: reports::InMemory).
bool DeclaredInMemory(const results::EngineRun& engine) {
  const auto it = engine.capabilities.find("durable");
  return it != engine.capabilities.end() && !it->second;
}

bool HasColdPoint(const runner::Workload& w) {
  for (const runner::PhaseSpec& p : w.phases) {
    for (const runner::MatrixPoint& m : runner::ExpandMatrix(p)) {
      if (m.cache == runner::CacheState::kCold) return true;
    }
  }
  return false;
}

// The file's run, its phases and engines already planned.
struct PlannedFile {
  std::string file;
  runner::RunPlan plan;
};

}  // namespace

int RunPlanned(const runner::RunPlan& plan, const std::string& file, const RunArgs& args,
               results::RunResults* results_out) {
  Status s;
  // A shard measures its units of the plan (runner/shard/shard_plan.h).
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
  const std::string data_root = !args.engine_dir.empty() ? args.engine_dir
                                : args.data_dir.empty()  ? out + "/data"
                                                         : args.data_dir;
  if (args.engine_dir.empty() && !args.data_dir.empty()) {
    if (s = CheckEngineDataDirs(plan, data_root); !s.ok()) {
      fmt::print(stderr, "kvbench: {}\n", s.message());
      return kExitBadInput;
    }
  }
  results::RunResults& results = *results_out;
  results = {};
  results.run_id = results::NewRunId();
  // Held until the run returns: one run per output folder.
  OutputDir out_dir;
  if (!args.out_claimed) {
    std::string replaced;
    if (s = OutputDir::Open(out, results.run_id, args.overwrite, &out_dir, &replaced); !s.ok()) {
      fmt::print(stderr, "kvbench: {}\n", s.message());
      return kExitBadInput;
    }
    if (!replaced.empty()) {
      fmt::print(stderr, "kvbench: --overwrite: replaced {} in '{}'\n", replaced, out);
    }
  }
  std::error_code ec;
  if (args.engine_dir.empty() && args.data_dir.empty()) {
    s = ClaimDirectory(data_root, results.run_id, ClaimMode::kReuseOwned);
  } else {
    fs::create_directories(data_root, ec);
    if (ec) s = Status::IOError("cannot create '" + data_root + "': " + ec.message());
  }
  if (!s.ok()) {
    fmt::print(stderr, "kvbench: data directory: {}\n", s.message());
    return kExitFailure;
  }

  results.started_at = runner::UtcTimestamp();
  results.complete = false;
  results.command_line = args.command_line;
  results.environment = runner::CaptureEnvironment(data_root);
  runner::CalibrateClock(&results.environment);
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
  if (winsize ws{}; tty && ::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0) {
    position.terminal_width = ws.ws_col;
  }
  {
    std::vector<std::string> names;
    for (const results::EngineRun& e : plan.engines) names.push_back(e.name);
    position.columns = runner::MeasureLiveColumns(w, names);
  }
  bool in_memory_note_due = tty && HasColdPoint(w);
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
      continue;
    }
    if (!args.quiet) fmt::print(stderr, "kvbench: {}: running {}\n", w.name, engine.name);
    position.engine_index = static_cast<int>(engine_index);
    position.in_memory = DeclaredInMemory(engine);
    if (position.in_memory && in_memory_note_due) {
      in_memory_note_due = false;
      fmt::print(stderr, "{}\n", kInMemoryColdNote);
    }
    RunEngine(plan, engine, data_root, tty, position, args, rows, &results);
    if (results.engines.back().status == "interrupted") {
      MarkNotRun(plan, engine.name, rows, &results);
      rc = kExitInterrupted;
      if (!args.quiet) {
        fmt::print(stderr, "kvbench: interrupted: keeping the finished phases, writing the report\n");
      }
    } else if (results.engines.back().status != "ok") {
      fmt::print(stderr, "kvbench: {}: engine {} {}: {}\n", w.name, engine.name,
                 results.engines.back().status == "partial" ? "did not finish" : "failed",
                 results.engines.back().reason);
      rc = kExitFailure;
    }
    if (args.ycsb_output && args.ycsb_output_dir.empty()) {
      fmt::print("{}", reports::RenderYcsbSummary(results, engine.name, YcsbTextOptionsOf(w)));
      std::fflush(stdout);
    }
    results.finished_at = runner::UtcTimestamp();
    s = results::WriteResultsFile(results, results_path, args.pretty);
    if (!s.ok()) {
      fmt::print(stderr, "kvbench: {}\n", s.ToString());
      return kExitFailure;
    }
  }
  if (!args.keep_data && args.data_dir.empty() && args.engine_dir.empty()) {
    if (s = RemoveOwnedDirectory(data_root); !s.ok()) fmt::print(stderr, "kvbench: {}\n", s.message());
  }
  results.finished_at = runner::UtcTimestamp();
  if (runner::InterruptCount() > 0) {
    rc = kExitInterrupted;
    results.interrupted = strsignal(runner::InterruptSignal());
  } else {
    results.complete = true;
  }
  if (args.shard) {
    // The shard's run ended: `kvbench merge` takes it as complete.
    results.shards.front().finished = true;
    results.shards.front().finished_at = results.finished_at;
  }
  // results.json and the reports, published as one set: a failure leaves the
  // results.json of the last finished engine (complete: false) and no report.
  s = reports::WriteRunReports(results, out, args.pretty);
  if (!s.ok()) {
    fmt::print(stderr, "kvbench: the report was not written: {}; {} holds the results of the "
               "engines that finished (marked incomplete)\n", s.ToString(), results_path);
    return kExitFailure;
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
  // Every file is planned before any runs: a bad one is exit 2 with nothing
  // written, not a failure after the others' results.
  std::vector<PlannedFile> planned(args.files.size());
  for (size_t i = 0; i < args.files.size(); ++i) {
    planned[i].file = args.files[i];
    if (Status s = runner::PlanRun(args.files[i], args.overrides, &planned[i].plan); !s.ok()) {
      fmt::print(stderr, "kvbench: {}\n", s.message());
      return kExitBadInput;
    }
  }
  const bool several = planned.size() > 1;
  // With several files and --out, each writes into a folder named after its
  // workload: two that would share one are refused.
  std::map<std::string, std::string> folder_of;
  for (const PlannedFile& p : planned) {
    const std::string folder = SlugOf(p.plan.workload.name);
    if (several && !args.out.empty() && !folder_of.emplace(folder, p.file).second) {
      fmt::print(stderr,
                 "kvbench: {} and {} both name their workload '{}': they would write into the "
                 "same folder '{}/{}'; rename one\n",
                 folder_of[folder], p.file, p.plan.workload.name, args.out, folder);
      return kExitBadInput;
    }
  }
  int rc = kExitOk;
  for (const PlannedFile& p : planned) {
    if (runner::InterruptCount() > 0) return kExitInterrupted;
    PrintPlanWarnings(p.file, p.plan);
    RunArgs one = args;
    const std::string folder = SlugOf(p.plan.workload.name);
    if (several && !args.out.empty()) one.out = args.out + "/" + folder;
    if (several && !args.ycsb_output_dir.empty()) {
      one.ycsb_output_dir = args.ycsb_output_dir + "/" + folder;
    }
    results::RunResults results;
    const int code = RunPlanned(p.plan, p.file, one, &results);
    if (code == kExitBadInput || code == kExitInterrupted) return code;
    if (code != kExitOk) rc = code;
  }
  return rc;
}

}  // namespace kvbench::app
