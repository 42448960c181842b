// `kvbench compare A B`: how run B differs from run A, figure by figure, with
// run-to-run noise taken into account.
//
// For every phase, operation type, engine and matrix point that both runs
// completed, the ratios B/A of the median throughput and the median p99
// latency. A ratio counts as a change only when it moves further from 1 than
// the noise band: the larger relative spread ((max - min) / median) of A's
// and B's repetitions, and at least the threshold (10% by default) when a
// side has a single repetition and so no spread to go by.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "results/results.h"
#include "reports/report_model.h"

namespace kvbench::reports {

struct CompareOptions {
  // Noise band, in percent, when a side has one repetition.
  double threshold_pct = 10;
  // When set, a regression is throughput down or p99 up by more than this
  // percent (and beyond the noise band), or an engine completing a phase in A
  // and not in B.
  std::optional<double> fail_on_regression_pct;
};

struct ComparedFigure {
  results::Spread a, b;
  double ratio = 0;  // b.median / a.median
  double band = 0;   // noise band as a fraction: 0.1 = ±10%
  bool changed = false;
};

struct ComparedRow {
  std::string phase, op, engine;
  MatrixPoint point;
  std::string point_label;  // "" when the phase has one matrix point
  ComparedFigure throughput;
  std::optional<ComparedFigure> p99;  // empty when a side has no latency or A's is 0
  bool regression = false;
};

struct Comparison {
  CompareOptions options;
  std::vector<ComparedRow> rows;
  // "phase load, engine sqlite: ok in A, failed in B (reason)"
  std::vector<std::string> status_changes;
  std::vector<std::string> only_in_a, only_in_b;
  bool has_regression = false;  // only ever true with fail_on_regression_pct set
};

Comparison CompareResults(const results::RunResults& a, const results::RunResults& b,
                          const CompareOptions& options);

// Markdown for a terminal or a pull request; `a_name` and `b_name` say where
// the runs came from (file names).
std::string RenderComparison(const Comparison& comparison, const results::RunResults& a,
                             const results::RunResults& b, std::string_view a_name,
                             std::string_view b_name);

}  // namespace kvbench::reports
