// The work of `kvbench report` and `kvbench compare` apart from parsing
// arguments (app/command_report.cc and command_compare.cc do that), so
// tests can run the commands without a process. Both return the process exit
// code of app/cli.h: 0 ok, 1 a regression (compare), 2 bad input.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "reports/compare.h"

namespace kvbench::app {

// Reads every results file, merges them (MergeResults) and renders `format`
// ("md", "html", "csv") to `output_path` (written atomically) or, when it is
// empty, to `out`. A file that cannot be read or parsed, or an unknown format,
// is one line on `err` and exit code 2.
int RunReportCommand(const std::vector<std::string>& files, const std::string& format,
                     const std::string& output_path, std::ostream& out, std::ostream& err);

// Compares two results files and writes the Markdown comparison to `out`.
// Exit code 1 when options.fail_on_regression_pct is set and a regression was
// found, 2 when a file is bad (one line on `err`), else 0.
int RunCompareCommand(const std::string& a_path, const std::string& b_path,
                      const reports::CompareOptions& options, std::ostream& out, std::ostream& err);

}  // namespace kvbench::app
