#include "app/run_controller.h"

#include <fmt/core.h>
#include <sys/ioctl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "app/cli.h"
#include "app/history_commands.h"
#include "app/output_dir.h"
#include "common/atomic_file.h"
#include "common/owned_dir.h"
#include "reports/hdr_histogram.h"
#include "reports/reports.h"
#include "reports/verdict.h"
#include "reports/ycsb_summary.h"
#include "results/results_json.h"
#include "runner/engine_process.h"
#include "runner/engine_runner.h"
#include "runner/environment.h"
#include "runner/interrupt.h"
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

// Adds a phase run the engine's process reported (`fork` of `forks`: a
// later fork's rows join the same rows of the forks before it). A failure is
// said on stderr as it happens; rows measured after a writing phase failed
// (in the same process) are kept but marked, so no report ranks figures of a
// half-written database; a failure in any fork fails the row.
void TakePhaseRun(const std::string& workload, int fork, int forks, results::PhaseRun run,
                  std::string* failed_write, results::RunResults* results) {
  if (forks > 1) {
    for (results::Repetition& r : run.repetitions) r.fork = fork;
    for (results::Repetition& r : run.warmup_repetitions) r.fork = fork;
    if (run.status != "ok") run.reason = fmt::format("fork {} of {}: {}", fork + 1, forks, run.reason);
  }
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
  // The first fork's rows are new; a later fork's join the same row.
  auto same = fork == 0 ? results->runs.end()
                        : std::find_if(results->runs.begin(), results->runs.end(),
                                       [&](const results::PhaseRun& r) {
                                         return r.engine == run.engine && r.phase == run.phase &&
                                                r.threads == run.threads &&
                                                r.target_ops == run.target_ops &&
                                                r.cache == run.cache && r.row == run.row;
                                       });
  if (same == results->runs.end()) {
    results->runs.push_back(std::move(run));
    return;
  }
  if (run.wall_seconds) same->wall_seconds = same->wall_seconds.value_or(0) + *run.wall_seconds;
  if (run.status != "ok" && same->status == "ok") {
    same->status = run.status;
    same->reason = run.reason;
  }
  for (results::Repetition& r : run.repetitions) same->repetitions.push_back(std::move(r));
  for (results::Repetition& r : run.warmup_repetitions) {
    same->warmup_repetitions.push_back(std::move(r));
  }
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

// What one engine process (one fork) reported.
struct ForkReport {
  runner::ChildOutcome outcome;
  std::string child_error;
  std::string library_version;  // the opened engine's, when it said more than the library's
  double setup_seconds = 0;     // a shard's setup replays
};

// Runs `engine` once in a child process in `dir` (which must be empty).
// Each finished phase run goes to `on_run` as it arrives.
ForkReport RunEngineProcess(const runner::RunPlan& plan, const results::EngineRun& engine,
                            const std::string& dir, bool show_progress,
                            const runner::RunPosition& position, const runner::EngineRows& rows,
                            const std::function<void(results::PhaseRun)>& on_run) {
  ForkReport report;
  report.outcome = runner::RunInChildProcess(
      [&](int fd) {
        return runner::RunEngineInChild(plan, engine, dir, show_progress, position, rows, fd);
      },
      plan.workload.timeout_s,
      [&](const std::string& line) {
        nlohmann::json doc = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
        if (doc.is_discarded()) {
          report.child_error = "unreadable message from the engine process";
          return;
        }
        namespace msg = runner::child_message;
        if (doc.contains(msg::kError)) {
          report.child_error = doc[msg::kError].get<std::string>();
          return;
        }
        if (doc.contains(msg::kSetupSeconds) && doc[msg::kSetupSeconds].is_number()) {
          report.setup_seconds += doc[msg::kSetupSeconds].get<double>();
          return;
        }
        // The opened engine's version can say more than the library's alone
        // (redis adds the server's).
        if (doc.contains(msg::kLibraryVersion) && doc[msg::kLibraryVersion].is_string()) {
          report.library_version = doc[msg::kLibraryVersion].get<std::string>();
          return;
        }
        results::PhaseRun run;
        if (doc.contains(msg::kRun) && results::PhaseRunFromJson(doc[msg::kRun], &run).ok()) {
          on_run(std::move(run));
        }
      });
  return report;
}

// One engine's state across its forks, which interleave with the other
// engines' (RunEngines).
struct EngineForks {
  // Where its record is in results->engines, once a fork of it ran (or it
  // was skipped); the record is updated there fork by fork.
  std::optional<size_t> record_index;
  bool done = false;        // no fork of it is left to run
  bool phase_failed = false;
  bool owns_dir = false;  // its data folder was claimed for this run (and may be removed)
};

// The forks each engine runs: `kvbench ycsb` keeps the engine's files where
// they are (one process: a later fork would find the first one's data).
int ForksOf(const runner::RunPlan& plan, const RunArgs& args) {
  return args.engine_dir.empty() ? std::max(1, plan.workload.measurement.forks) : 1;
}

// Where `engine`'s process keeps its files.
std::string EngineDirOf(const std::string& data_root, const std::string& engine,
                        const RunArgs& args) {
  return args.engine_dir.empty() ? EngineDataDir(data_root, engine) : args.engine_dir;
}

// Runs fork `position.fork` of `engine` in a child, in its emptied folder
// (each engine, and each fork of it, starts from an empty directory of its
// own), and adds what it reported to `results` and to `state`. A fork after
// a failed phase or engine would fail the same way: `state->done` says no
// further fork runs.
void RunEngineFork(const runner::RunPlan& plan, const results::EngineRun& engine,
                   const std::string& data_root, bool show_progress,
                   const runner::RunPosition& position, const RunArgs& args,
                   const runner::EngineRows& rows, EngineForks* state,
                   results::RunResults* results) {
  const bool own_dir = args.engine_dir.empty();
  const int fork = position.fork, forks = position.fork_count;
  const std::string dir = EngineDirOf(data_root, engine.name, args);
  results::EngineRun& record = results->engines[*state->record_index];
  Status claimed;
  if (own_dir) {
    claimed = ClaimDirectory(dir, results->run_id, ClaimMode::kReuseOwned);
    if (claimed.ok()) claimed = EmptyOwnedDirectory(dir);
  } else {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) claimed = Status::IOError("cannot create '" + dir + "': " + ec.message());
  }
  state->owns_dir = own_dir && claimed.ok();
  if (!claimed.ok()) {
    record.status = "failed";
    record.reason = "data directory: " + claimed.message();
    state->done = true;
    return;
  }
  std::string failed_write;  // this process's first failed writing phase, once one failed
  const ForkReport report = RunEngineProcess(
      plan, engine, dir, show_progress, position, rows, [&](results::PhaseRun run) {
        state->phase_failed = state->phase_failed || run.status == "failed";
        TakePhaseRun(plan.workload.name, fork, forks, std::move(run), &failed_write, results);
      });
  if (!results->shards.empty()) results->shards.front().setup_seconds += report.setup_seconds;
  if (!report.library_version.empty()) {
    record.library_version = report.library_version;
    results->environment.libraries[engine.name] = record.library_version;
  }
  record.wall_seconds += report.outcome.wall_seconds;
  const std::string which = forks > 1 ? fmt::format("fork {} of {}: ", fork + 1, forks) : "";
  const std::string& error = report.child_error;
  const std::string& failure = report.outcome.failure;
  if (report.outcome.interrupted) {
    record.status = "interrupted";
    record.reason = "interrupted (" + std::string(strsignal(runner::InterruptSignal())) + ")";
  } else if (!report.outcome.ok || !error.empty()) {
    record.status = "failed";
    record.reason = which + (error.empty()       ? failure
                             : report.outcome.ok ? error
                                                 : error + " (" + failure + ")");
  }
  state->done = fork + 1 == forks || record.status != "ok" || state->phase_failed;
  // Between its forks an engine's files are removed too, so that the
  // engines' data never lie on the disk side by side.
  if (!args.keep_data && own_dir && !state->done) {
    if (Status removed = RemoveOwnedDirectory(dir); !removed.ok()) {
      fmt::print(stderr, "kvbench: {}\n", removed.message());
    }
  }
}

// After `engine`'s last fork: its status from its rows (the process ran to
// its end, but a phase failed on the way: the engine did not finish its work,
// and says which phase did not), and its files removed.
void FinishEngine(const std::string& engine, const std::string& data_root, const RunArgs& args,
                  const EngineForks& state, results::EngineRun* record,
                  const results::RunResults& results) {
  if (record->status == "ok") {
    for (const results::PhaseRun& run : results.runs) {
      if (run.engine != engine || run.status != "failed") continue;
      record->status = "partial";
      record->reason = "phase '" + run.phase + "' failed: " + run.reason;
      break;
    }
  }
  const std::string dir = EngineDirOf(data_root, engine, args);
  if (record->status == "failed" || record->status == "partial") {
    record->reason += DiskFullNote(dir);
  }
  if (!args.keep_data && state.owns_dir) {
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

namespace {

// Where a run writes, decided and claimed before anything runs.
struct RunPlace {
  std::string out;        // the output folder
  std::string data_root;  // where engines keep their files
  std::vector<bool> shard_rows;  // a shard's rows of the plan (runner/shard/shard_plan.h)
  results::ShardInfo shard;
};

// Plans a shard's rows, claims the output folder (held in `out_dir` until
// the run returns: one run per output folder) and the data folder, and
// starts `results`. kExitOk, or the exit code after one line on stderr.
int StartRun(const runner::RunPlan& plan, const std::string& file, const RunArgs& args,
             OutputDir* out_dir, RunPlace* place, results::RunResults* results) {
  Status s;
  if (args.shard) {
    s = PlanShard(plan, args, &place->shard, &place->shard_rows);
    if (!s.ok()) {
      fmt::print(stderr, "kvbench: {}\n", s.message());
      return kExitBadInput;
    }
  }
  std::string default_out = DefaultOutDir(plan.workload.name);
  if (args.shard) default_out += fmt::format("-shard{}of{}", place->shard.index, place->shard.count);
  place->out = args.out.empty() ? default_out : args.out;
  const std::string& out = place->out;
  place->data_root = !args.engine_dir.empty() ? args.engine_dir
                     : args.data_dir.empty()  ? out + "/data"
                                              : args.data_dir;
  const std::string& data_root = place->data_root;
  if (args.engine_dir.empty() && !args.data_dir.empty()) {
    if (s = CheckEngineDataDirs(plan, data_root); !s.ok()) {
      fmt::print(stderr, "kvbench: {}\n", s.message());
      return kExitBadInput;
    }
  }
  *results = {};
  results->run_id = results::NewRunId();
  if (!args.out_claimed) {
    std::string replaced;
    if (s = OutputDir::Open(out, results->run_id, args.overwrite, out_dir, &replaced); !s.ok()) {
      fmt::print(stderr, "kvbench: {}\n", s.message());
      return kExitBadInput;
    }
    if (!replaced.empty()) {
      fmt::print(stderr, "kvbench: --overwrite: replaced {} in '{}'\n", replaced, out);
    }
  }
  std::error_code ec;
  if (args.engine_dir.empty() && args.data_dir.empty()) {
    s = ClaimDirectory(data_root, results->run_id, ClaimMode::kReuseOwned);
  } else {
    fs::create_directories(data_root, ec);
    if (ec) s = Status::IOError("cannot create '" + data_root + "': " + ec.message());
  }
  if (!s.ok()) {
    fmt::print(stderr, "kvbench: data directory: {}\n", s.message());
    return kExitFailure;
  }
  results->started_at = runner::UtcTimestamp();
  results->complete = false;
  results->command_line = args.command_line;
  results->environment = runner::CaptureEnvironment(data_root);
  runner::CalibrateClock(&results->environment);
  const runner::Workload& w = plan.workload;
  results->workload = {w.name, w.description, file, w.source, args.overrides.scale, plan.dataset};
  for (const auto& [k, v] : plan.values) results->workload.dataset["values." + k] = v;
  for (const results::EngineRun& e : plan.engines) {
    results->environment.libraries[e.name] = e.library_version;
  }
  if (args.shard) {
    place->shard.started_at = results->started_at;
    results->shards.push_back(place->shard);
  }
  return kExitOk;
}

// The rows engine `engine_index`'s processes measure (runner/engine_runner.h);
// false when the run is a shard that has none of them (another shard runs
// all of it).
bool EngineRowsOf(const runner::RunPlan& plan, const RunArgs& args, const RunPlace& place,
                  size_t engine_index, runner::EngineRows* rows) {
  const size_t rows_per_engine = runner::RowsPerEngine(plan.workload);
  rows->first_row = static_cast<int>(engine_index * rows_per_engine);
  if (!args.shard) return true;
  const auto first = place.shard_rows.begin() + static_cast<ptrdiff_t>(rows->first_row);
  rows->measured.assign(first, first + static_cast<ptrdiff_t>(rows_per_engine));
  rows->shard = place.shard.index;
  return std::find(rows->measured.begin(), rows->measured.end(), true) != rows->measured.end();
}

// Says how an engine ended once no fork of it is left (stderr; YCSB's
// summary on stdout when asked) and marks what an interrupt left unmeasured.
// Returns the run's exit code so far.
int EndEngine(const runner::RunPlan& plan, const RunArgs& args, const runner::EngineRows& rows,
              const results::EngineRun& record, results::RunResults* results, int rc) {
  const runner::Workload& w = plan.workload;
  if (record.status == "interrupted") {
    MarkNotRun(plan, record.name, rows, results);
    rc = kExitInterrupted;
    if (!args.quiet) {
      fmt::print(stderr, "kvbench: interrupted: keeping the finished phases, writing the report\n");
    }
  } else if (record.status != "ok") {
    fmt::print(stderr, "kvbench: {}: engine {} {}: {}\n", w.name, record.name,
               record.status == "partial" ? "did not finish" : "failed", record.reason);
    rc = kExitFailure;
  }
  if (args.ycsb_output && args.ycsb_output_dir.empty()) {
    fmt::print("{}", reports::RenderYcsbSummary(*results, record.name, YcsbTextOptionsOf(w)));
    std::fflush(stdout);
  }
  return rc;
}

// Runs every engine of the plan (a shard's engines), writing results.json
// after each engine process. With forks the engines take turns: every
// engine's first fork, then every engine's second, and so on, so that each
// engine's processes spread over the whole run's time, and a machine that is
// slower for a while slows every engine's forks alike instead of one
// engine's. The run's exit code so far; `*unwritten` when results.json could
// not be written (the run stops there, said on stderr).
int RunEngines(const runner::RunPlan& plan, const RunArgs& args, const RunPlace& place,
               results::RunResults* results_out, bool* unwritten) {
  results::RunResults& results = *results_out;
  const runner::Workload& w = plan.workload;
  // YCSB's status lines (-s) take stderr's place of the progress line.
  const bool tty = ::isatty(STDERR_FILENO) && !args.quiet && !w.ycsb_output.status;
  runner::RunPosition position;
  position.engine_count = static_cast<int>(plan.engines.size());
  position.fork_count = ForksOf(plan, args);
  if (winsize ws{}; tty && ::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0) {
    position.terminal_width = ws.ws_col;
  }
  {
    std::vector<std::string> names;
    for (const results::EngineRun& e : plan.engines) names.push_back(e.name);
    position.columns = runner::MeasureLiveColumns(w, names);
  }
  bool in_memory_note_due = tty && HasColdPoint(w);
  const std::string results_path = place.out + "/results.json";
  int rc = kExitOk;
  std::vector<EngineForks> engines(plan.engines.size());
  for (int fork = 0; fork < position.fork_count; ++fork) {
    for (size_t engine_index = 0; engine_index < plan.engines.size(); ++engine_index) {
      const results::EngineRun& engine = plan.engines[engine_index];
      EngineForks& state = engines[engine_index];
      runner::EngineRows rows;
      if (state.done || !EngineRowsOf(plan, args, place, engine_index, &rows)) continue;
      if (!state.record_index) {
        state.record_index = results.engines.size();
        results.engines.push_back(engine);
      }
      results::EngineRun& record = results.engines[*state.record_index];
      if (runner::InterruptCount() > 0) {
        // Not started: recorded as such, so the results say what is missing.
        state.done = true;
        record.status = "interrupted";
        const int forks = position.fork_count;
        record.reason =
            fork == 0 ? "not run: the run was interrupted"
            : fork + 1 == forks
                ? fmt::format("fork {} of {} not run: the run was interrupted", forks, forks)
                : fmt::format("forks {} to {} not run: the run was interrupted", fork + 1, forks);
        MarkNotRun(plan, engine.name, rows, &results);
        continue;
      }
      if (!args.quiet) {
        fmt::print(stderr, "kvbench: {}: running {}{}\n", w.name, engine.name,
                   position.fork_count > 1
                       ? fmt::format(" (fork {} of {})", fork + 1, position.fork_count)
                       : "");
      }
      position.engine_index = static_cast<int>(engine_index);
      position.fork = fork;
      position.in_memory = DeclaredInMemory(engine);
      if (position.in_memory && in_memory_note_due) {
        in_memory_note_due = false;
        fmt::print(stderr, "{}\n", kInMemoryColdNote);
      }
      RunEngineFork(plan, engine, place.data_root, tty, position, args, rows, &state, &results);
      if (state.done) {
        // `record` stays valid: only results.runs grows in these calls.
        FinishEngine(engine.name, place.data_root, args, state, &record, results);
        rc = EndEngine(plan, args, rows, record, &results, rc);
      }
      results.finished_at = runner::UtcTimestamp();
      if (Status s = results::WriteResultsFile(results, results_path, args.pretty); !s.ok()) {
        fmt::print(stderr, "kvbench: {}\n", s.ToString());
        *unwritten = true;
        return kExitFailure;
      }
    }
  }
  return rc;
}

}  // namespace

int RunPlanned(const runner::RunPlan& plan, const std::string& file, const RunArgs& args,
               results::RunResults* results_out) {
  results::RunResults& results = *results_out;
  OutputDir out_dir;  // held until the run returns
  RunPlace place;
  if (const int started = StartRun(plan, file, args, &out_dir, &place, &results);
      started != kExitOk) {
    return started;
  }
  const std::string& out = place.out;
  const runner::Workload& w = plan.workload;
  std::FILE* summary = args.summary_on_stderr ? stderr : stdout;
  const std::string results_path = out + "/results.json";
  bool unwritten = false;
  int rc = RunEngines(plan, args, place, &results, &unwritten);
  if (unwritten) return rc;
  Status s;
  if (!args.keep_data && args.data_dir.empty() && args.engine_dir.empty()) {
    if (s = RemoveOwnedDirectory(place.data_root); !s.ok()) fmt::print(stderr, "kvbench: {}\n", s.message());
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
    fmt::print(summary,
               "\nVerdict (median ops/s, 95% intervals of the median or the level a line "
               "gives; \"tied\" where they "
               "overlap):\n{}",
               verdict);
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
