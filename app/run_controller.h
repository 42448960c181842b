// The run controller: for each workload file, plan it (every check before
// anything runs), run each engine in its own child process with a time limit,
// rewrite results.json atomically after every engine (so a later failure of
// anything loses nothing already measured), then write the reports and print
// a summary table.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "results/results.h"
#include "runner/run_plan.h"
#include "runner/shard/shard_plan.h"

namespace kvbench::app {

struct RunArgs {
  std::vector<std::string> files;
  runner::RunOverrides overrides;
  std::string out;       // output directory; default runs/<workload>-<time>
  // --overwrite: `out` may hold an earlier kvbench run's files, which are
  // replaced (never a folder kvbench did not make: app/output_dir.h).
  bool overwrite = false;
  // The caller (`kvbench crash`) has claimed and locked `out` itself.
  bool out_claimed = false;
  // Engines' files, each in DIR/<engine> (made and marked by kvbench, removed
  // after it unless --keep-data); default OUT/data, removed after the run.
  std::string data_dir;
  bool keep_data = false;
  bool quiet = false;
  bool pretty = false;  // --pretty: results.json indented for people (compact by default)
  // YCSB's summary lines: on stdout after each engine, or with
  // ycsb_output_dir one file per engine, phase, point and repetition there.
  bool ycsb_output = false;
  std::string ycsb_output_dir;
  // --history: the store each finished run's results.json is added to
  // (app/history_commands.h); "" = none.
  std::string history_store;
  std::string command_line;
  // --shard K/N: only shard K's units of each plan (runner/shard/shard_plan.h), with
  // the setup they need; results.json records the shard.
  std::optional<runner::ShardSpec> shard;
  std::string costs;  // --costs FILE: an earlier run's results, for unit costs
  std::map<std::string, std::string> labels;  // --label KEY=VALUE, into the shard's record
  // `kvbench ycsb`: the one engine's files live here and are kept as they
  // are (neither emptied before nor removed after the run).
  std::string engine_dir;
  // Where the HdrHistogram files go (a prefix, as YCSB's
  // hdrhistogram.output.path); default OUT/hdrhistogram/.
  std::string hdr_prefix;
  // kvbench's summary table, verdict and report paths go to stderr, leaving
  // stdout to YCSB's output (`kvbench ycsb`).
  bool summary_on_stderr = false;
};

// Returns the process exit code: 0 every engine finished every phase, 1 an
// engine or a phase failed (in results.json, and said on stderr as it
// happened), 2 bad input (nothing was run or written), 130 interrupted (what
// finished is kept, results.json says complete: false).
int RunWorkloads(const RunArgs& args);

// Runs a plan made by the caller (`kvbench ycsb`), `file` naming its source,
// into `out` (or the default directory when empty); `results` receives what
// was measured. Same exit codes.
int RunPlanned(const runner::RunPlan& plan, const std::string& file, const RunArgs& args,
               results::RunResults* results);

}  // namespace kvbench::app
