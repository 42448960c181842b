// The parts of report.md and report.html that describe the run rather than
// its figures: environment, workload, engines and their options, problems.
// Plain text, escaped by each renderer.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "results/results.h"
#include "reports/phase_tables.h"

namespace kvbench::reports {

using Facts = std::vector<std::pair<std::string, std::string>>;

// Machine, build and kvbench version; empty values left out.
Facts EnvironmentFacts(const results::RunResults& results);
// One line per condition that spoils a measurement (a Debug build, a CPU
// governor other than "performance", cold cache on tmpfs, other load at the
// start); empty when none was seen.
std::vector<std::string> MeasurementWarnings(const results::RunResults& results);
// Runs with forks (each engine's phases in several processes): "N processes
// per engine (forks); between them: X% of the ops/s variance (median over M
// rows, min-max)". "" when every engine ran in one process.
std::string ForksSummary(const results::RunResults& results);
// Warm-up repetitions (results::PhaseRun::warmup_repetitions): how many, at
// how many rows, and how the first warm-up's ops/s compared with its row's
// measured median; "" when no row had one.
std::string WarmupSummary(const results::RunResults& results);
// Workload name, file, scale, dataset, command line, times (and forks).
Facts WorkloadFacts(const results::RunResults& results);
// engine | library | status | options | capabilities
Table EnginesTable(const results::RunResults& results);
// engine | phase | matrix point | status | reason; no rows when nothing failed.
Table ProblemsTable(const results::RunResults& results);

}  // namespace kvbench::reports
