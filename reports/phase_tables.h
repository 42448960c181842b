// The per-phase tables of report.md and report.html, built once as plain
// text cells so both formats say the same thing; each renderer only escapes
// and marks up. A figure nobody measured is the cell "–", never 0.
#pragma once

#include <string>
#include <vector>

#include "results/results.h"
#include "reports/report_model.h"

namespace kvbench::reports {

inline constexpr const char* kUnmeasured = "–";

struct Cell {
  std::string text;
  bool best = false;  // the best of its column at its matrix point, its interval clear of the rest
  bool tied = false;  // among the leaders whose intervals overlap: no best can be named
};

struct Table {
  std::vector<std::string> header;
  std::vector<bool> numeric;  // per column: right-aligned
  std::vector<std::vector<Cell>> rows;
};

struct PhaseSection {
  std::string name;
  std::string op;
  std::string params;     // "batch=1024, count=10000"; "" when none
  std::string constants;  // dimensions with one value: "1 thread, unthrottled, cache cold"
  std::string note;       // how to read the table (medians, ranges, best marks)
  Table engines;          // one row per matrix point x engine, op "all"
  Table per_op;           // mixed phases: one row per point x engine x op type; else no rows
  std::vector<std::string> work;      // one "work done" sentence per matrix point
  std::vector<std::string> warnings;  // engines that did different work
  // Rows whose writers ran one at a time (results::PhaseRun::writers_serialised):
  // the engines and thread counts, and what that means; "" when none.
  std::string serialised_writers;
};

// One section per phase, in workload order; engines in EngineOrder.
std::vector<PhaseSection> BuildPhaseSections(const results::RunResults& results);

}  // namespace kvbench::reports
