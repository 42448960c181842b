// `kvbench ycsb load|run ENGINE -P FILE... [-p k=v]... [-threads N] [-target N] [-s]`
// and YCSB-cpp's `kvbench ycsb -load -run -db ENGINE -P FILE... -s`
// (app/ycsb_command_line.h). The engine's files stay in a directory between
// a load and its runs (app/ycsb_data_dir.h); YCSB's output goes to stdout
// (or exportfile), kvbench's results.json and reports to --out.
#include <fmt/core.h>

#include <filesystem>
#include <memory>

#include "adapters/registry.h"
#include "app/cli.h"
#include "app/run_controller.h"
#include "app/ycsb_command_line.h"
#include "app/ycsb_data_dir.h"
#include "common/atomic_file.h"
#include "reports/ycsb_summary.h"
#include "runner/environment.h"
#include "runner/interrupt.h"
#include "runner/ycsb/ycsb_properties.h"

namespace kvbench::app {

namespace {

namespace fs = std::filesystem;

// A day: YCSB runs have no time limit; this one only ends a hung engine.
constexpr double kDefaultTimeoutS = 86400;

int BadInput(const Status& s) {
  fmt::print(stderr, "kvbench: {}\n", s.message());
  return kExitBadInput;
}

std::string Property(const runner::Workload& w, const std::string& name) {
  const auto it = w.ycsb_properties.find(name);
  return it == w.ycsb_properties.end() ? "" : it->second;
}

bool IsTrue(const std::string& v) { return v == "true" || v == "TRUE" || v == "True"; }

// Which of YCSB's phases to run when the command line named none: the
// doload / dotransaction(s) properties, else a run (YCSB's default).
void PhasesFromProperties(const runner::Workload& w, bool* load, bool* run) {
  *load = IsTrue(Property(w, "doload"));
  const std::string transactions = Property(w, "dotransactions").empty()
                                       ? Property(w, "dotransaction")
                                       : Property(w, "dotransactions");
  *run = IsTrue(transactions) || (!*load && transactions.empty());
}

// YCSB's output of every run: YCSB-cpp's three lines first in its form.
std::string YcsbText(const results::RunResults& results, const runner::Workload& w, bool cpp_form) {
  reports::YcsbTextOptions options;
  options.percentiles = w.ycsb_output.percentiles;
  options.timeseries = w.ycsb_output.timeseries;
  std::string text;
  for (const results::PhaseRun& run : results.runs) {
    for (const results::Repetition& rep : run.repetitions) {
      if (cpp_form && !rep.ops.empty()) {
        const std::string name = run.phase == "load" ? "Load" : "Run";
        const uint64_t ops = rep.ops.front().ops;
        const double seconds = rep.seconds;  // the wall span: the client's wall time
        text += fmt::format(
            "{0} runtime(sec): {1:.6g}\n{0} operations(ops): {2}\n"
            "{0} throughput(ops/sec): {3:.6g}\n",
            name, seconds, ops, seconds > 0 ? static_cast<double>(ops) / seconds : 0.0);
      }
      text += reports::RenderYcsbRun(rep, options);
    }
  }
  return text;
}

bool LoadFinished(const results::RunResults& results) {
  if (results.engines.empty() || results.engines.front().status != "ok") return false;
  for (const results::PhaseRun& run : results.runs) {
    if (run.phase == "load") return run.status == "ok";
  }
  return false;
}

// The engine to run, by kvbench's name: the command line's (load|run ENGINE
// or -db), else the properties' db or dbname.
Status FindYcsbEngine(const YcsbCommandLine& cl, const runner::Workload& w, std::string* engine) {
  std::string db = cl.engine;
  if (db.empty()) db = Property(w, "db").empty() ? Property(w, "dbname") : Property(w, "db");
  if (db.empty()) {
    return Status::InvalidArgument(
        "ycsb: name the engine: kvbench ycsb load|run ENGINE, or -db ENGINE");
  }
  *engine = YcsbEngineName(db);
  if (AdapterRegistry::Global().Find(*engine) == nullptr) {
    std::string known;
    for (const std::string& n : AdapterRegistry::Global().Names()) {
      known += (known.empty() ? "" : ", ") + n;
    }
    return Status::InvalidArgument("ycsb: -db " + db + ": unknown engine '" + *engine +
                                   "' (known: basic, wiredtiger, " + known + ")");
  }
  return Status::OK();
}

// Keeps the phases asked for (*load, *run: the command line's, else the
// properties') and drops the other.
Status KeepYcsbPhases(const YcsbCommandLine& cl, runner::Workload* w, bool* load, bool* run) {
  *load = cl.load;
  *run = cl.run;
  if (!*load && !*run) PhasesFromProperties(*w, load, run);
  std::vector<runner::PhaseSpec> phases;
  for (runner::PhaseSpec& p : w->phases) {
    if ((p.name == "load" && *load) || (p.name == "run" && *run)) phases.push_back(std::move(p));
  }
  if (*load && (phases.empty() || phases.front().name != "load")) {
    return Status::InvalidArgument(cl.files.front() + ": nothing to load (insertcount is 0)");
  }
  w->phases = std::move(phases);
  return Status::OK();
}

// The plan's warnings and the data directory's, and after a load each engine
// option a run sets differently from it.
void PrintYcsbWarnings(const runner::RunPlan& plan, const std::string& dir_warning, bool load,
                       const YcsbDataMarker& marker, const std::string& dir) {
  for (const std::string& note : plan.warnings) fmt::print(stderr, "kvbench: warning: {}\n", note);
  if (!dir_warning.empty()) fmt::print(stderr, "kvbench: warning: {}\n", dir_warning);
  if (load) return;
  for (const auto& [option, value] : plan.engines.front().options) {
    const auto loaded = marker.options.find(option);
    if (loaded != marker.options.end() && loaded->second != value) {
      fmt::print(stderr, "kvbench: warning: {}: loaded with {}={}, run with {}\n", dir, option,
                 loaded->second, value);
    }
  }
}

// kvbench's run of the plan: the engine's files in DIR/data, the results in
// --out (default runs/ycsb-ENGINE[-load][-run]-TIME).
RunArgs YcsbRunArgs(const YcsbCommandLine& cl, const std::vector<std::string>& argv,
                    const std::string& engine, const std::string& dir, bool load, bool run,
                    const runner::Workload& planned) {
  RunArgs args;
  args.engine_dir = dir + "/data";
  args.quiet = cl.quiet;
  args.summary_on_stderr = true;
  std::string stamp = runner::UtcTimestamp();
  for (char& c : stamp) {
    if (c == ':') c = '-';
  }
  args.out = !cl.out.empty() ? cl.out
                             : "runs/ycsb-" + engine + (load ? "-load" : "") + (run ? "-run" : "") +
                                   "-" + stamp;
  args.hdr_prefix =
      planned.ycsb_output.hdr_path.empty() ? args.out + "/" : planned.ycsb_output.hdr_path;
  args.command_line = "kvbench ycsb";
  for (const std::string& a : argv) args.command_line += " " + a;
  return args;
}

// After a load: its marker says complete if it finished, else runs will refuse
// the directory. Returns rc, or kExitFailure when the marker cannot be written.
int FinishYcsbLoad(const results::RunResults& results, const std::string& dir,
                   YcsbDataMarker* loaded, int rc) {
  if (!LoadFinished(results)) {
    fmt::print(stderr,
               "kvbench: {}: the load did not finish; runs will refuse it until a load does\n",
               dir);
    return rc;
  }
  loaded->complete = true;
  if (Status s = WriteYcsbMarker(dir, *loaded); !s.ok()) {
    fmt::print(stderr, "kvbench: {}\n", s.ToString());
    return kExitFailure;
  }
  return rc;
}

// YCSB's output of the run, to exportfile or stdout. Returns rc, or
// kExitFailure when a phase did not finish (YCSB's run did not happen unless
// every phase ran) or the exportfile cannot be written.
int ReportYcsbRun(const results::RunResults& results, const runner::Workload& planned,
                  const std::string& engine, bool cpp_form, int rc) {
  for (const results::PhaseRun& run : results.runs) {
    if (run.status != "ok" && rc == kExitOk) {
      fmt::print(stderr, "kvbench: {}: phase {} {}: {}\n", engine, run.phase, run.status,
                 run.reason);
      rc = kExitFailure;
    }
  }
  const std::string text = YcsbText(results, planned, cpp_form);
  if (const std::string& file = planned.ycsb_output.export_file; !file.empty()) {
    if (Status s = WriteFileAtomically(file, text); !s.ok()) {
      fmt::print(stderr, "kvbench: exportfile: {}\n", s.ToString());
      rc = kExitFailure;
    }
  } else {
    fmt::print("{}", text);
  }
  return rc;
}

int RunYcsbCommand(const std::vector<std::string>& argv) {
  YcsbCommandLine cl;
  if (Status s = ParseYcsbCommandLine(argv, &cl); !s.ok()) return BadInput(s);
  if (cl.help) {
    fmt::print("{}", YcsbUsage());
    return kExitOk;
  }
  if (cl.files.empty()) {
    return BadInput(Status::InvalidArgument(
        "ycsb: no workload: give -P FILE (e.g. -P workloads/ycsb/workloada)"));
  }
  runner::Workload w;
  if (Status s = runner::LoadYcsbWorkload(runner::PropertySources{cl.files, cl.overrides}, &w);
      !s.ok()) {
    return BadInput(s);
  }
  std::string engine;
  if (Status s = FindYcsbEngine(cl, w, &engine); !s.ok()) return BadInput(s);
  bool load = false;
  bool run = false;
  if (Status s = KeepYcsbPhases(cl, &w, &load, &run); !s.ok()) return BadInput(s);

  std::string dir = Property(w, "kvbench.dir");
  if (dir.empty() && w.ycsb_dirs.contains(engine)) dir = w.ycsb_dirs.at(engine);
  if (dir.empty()) dir = "kvbench-ycsb/" + engine;

  // Every check before anything in the directory is touched.
  bool reload = false;
  YcsbDataMarker marker;
  std::string warning;
  if (load) {
    if (Status s = CheckYcsbLoadDir(dir, engine, &reload); !s.ok()) return BadInput(s);
  } else {
    if (Status s = CheckYcsbRunDir(dir, engine, w, &marker, &warning); !s.ok()) {
      return BadInput(s);
    }
    w.preloaded = marker.records;
  }
  runner::RunOverrides overrides;
  overrides.engines = {engine};
  overrides.timeout_s = cl.timeout_s > 0 ? cl.timeout_s : kDefaultTimeoutS;
  runner::RunPlan plan;
  if (Status s = runner::PlanWorkload(std::move(w), overrides, &plan); !s.ok()) return BadInput(s);
  const runner::Workload& planned = plan.workload;
  PrintYcsbWarnings(plan, warning, load, marker, dir);

  YcsbDataMarker loaded;
  if (load) {
    if (reload && !cl.quiet) {
      fmt::print(stderr, "kvbench: {}: replacing the earlier load of {}\n", dir, engine);
    }
    const runner::PhaseSpec& phase = plan.workload.phases.front();
    loaded.engine = engine;
    loaded.options = plan.engines.front().options;
    loaded.records = phase.count + phase.ycsb->first_insert.value_or(0);
    loaded.layout = YcsbLayout(planned);
    loaded.loaded_at = runner::UtcTimestamp();
    if (Status s = StartYcsbLoad(dir, loaded); !s.ok()) {
      fmt::print(stderr, "kvbench: {}\n", s.ToString());
      return kExitFailure;
    }
  }
  const RunArgs args = YcsbRunArgs(cl, argv, engine, dir, load, run, planned);
  std::string sources;
  for (const std::string& f : cl.files) sources += (sources.empty() ? "" : " ") + f;

  runner::InstallInterruptHandlers();
  results::RunResults results;
  int rc = RunPlanned(plan, sources, args, &results);
  if (load) rc = FinishYcsbLoad(results, dir, &loaded, rc);
  return ReportYcsbRun(results, planned, engine, cl.cpp_form, rc);
}

}  // namespace

void AddYcsbCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "ycsb", "YCSB's command line: kvbench ycsb load|run ENGINE -P FILE... (see --help)");
  // YCSB's single-dash long options (-threads, -load) would read as groups
  // of short flags: everything after `ycsb` goes to its own parser.
  cmd->prefix_command();
  cmd->set_help_flag();
  cmd->footer(YcsbUsage());
  cmd->callback([cmd, exit_code] { *exit_code = RunYcsbCommand(cmd->remaining()); });
}

}  // namespace kvbench::app
