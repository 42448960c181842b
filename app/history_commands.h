// The work of `kvbench history add|list|trend|check` and of
// `kvbench run --history`, apart from parsing arguments
// (app/command_history.cc), so tests run them without a process. Each returns
// the process exit code of app/cli.h: 0 ok, 1 a regression (check), 2 bad
// input: a store that cannot be opened or reached, a malformed store URL, a
// results file that does not parse, a store that is not a kvbench store.
// Every failure is one line on `err`; an add writes all of its runs or none.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "results/change_points.h"
#include "results/history/history_store.h"

namespace kvbench::app {

// The store to use: `given` (--store) when not empty, else `env_store`
// ($KVBENCH_STORE) when not empty, else sqlite: at the default path
// (results::DefaultStorePath from $XDG_DATA_HOME and $HOME).
std::string ResolveStoreSpec(const std::string& given, const std::string& env_store,
                             const std::string& xdg_data_home, const std::string& home);
// The same, reading those variables from the environment.
std::string ResolveStoreSpec(const std::string& given);

// Adds every results file in one transaction; nothing when any file fails
// to parse. The files are only read.
int RunHistoryAdd(const std::vector<std::string>& files, const std::string& store_spec,
                  std::ostream& out, std::ostream& err, bool allow_incomplete = false);

int RunHistoryList(const std::string& store_spec, const results::RunFilter& filter,
                   std::ostream& out, std::ostream& err);

struct TrendArgs {
  results::FigureFilter filter;  // one figure
  std::string output;            // the HTML file
  results::ChangePointOptions detection;
};
int RunHistoryTrend(const std::string& store_spec, const TrendArgs& args, std::ostream& out,
                    std::ostream& err);

struct CheckArgs {
  results::FigureFilter filter;  // default figures: throughput and p99
  size_t last_runs = 10;
  double fail_pct = 5;
  results::ChangePointOptions detection;
};
int RunHistoryCheck(const std::string& store_spec, const CheckArgs& args, std::ostream& out,
                    std::ostream& err);

// `kvbench run --history` checks before the run that the store opens (so a
// bad store stops the run before it starts), and adds its results.json with
// RunHistoryAdd after it.
int CheckHistoryStoreOpens(const std::string& store_spec, std::ostream& err);

}  // namespace kvbench::app
