// `kvbench compare A B`: how run B differs from run A, with evidence.
//
// For every phase, operation type, engine and matrix point that both runs
// completed: the ratio B/A of the median throughput and of the median p99
// latency, and for each a verdict from the repetitions of both sides:
//
// - "faster"/"slower" (for p99: "better"/"worse") when a two-sided
//   Mann-Whitney U test between A's and B's repetitions is significant at the
//   chosen confidence AND the medians differ by at least the minimum effect
//   (5% by default): a real change that matters;
// - "no change" when the test finds no significant difference and both
//   sides' confidence intervals are narrow enough (half-width at most the
//   minimum effect) that a change of that size would have shown, or when the
//   difference is significant but smaller than the minimum effect;
// - "too noisy to say" otherwise, with the reason: too few repetitions (fewer
//   than 3 on a side; the U test cannot reach significance with fewer), or an
//   interval wider than the minimum effect.
//
// Two runs differ by more than their own repetitions show: repetitions in one
// process share its memory layout, page cache and time window, a second run
// does not. So a comparison with enough rows (at least 8) also estimates a
// run-to-run noise floor from all its rows: 4 x the robust spread (1.4826 x
// the median absolute deviation) of the rows' log ratios, which half the rows
// changing cannot move. A change must be at least that large too; the floor
// in force is printed.
//
// One row per (phase, op, engine, matrix point); a phase of one operation
// type has one row (its "all" figures are the same), a mixed phase a row per
// type and one for "all".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reports/report_model.h"
#include "results/results.h"

namespace kvbench::reports {

struct CompareOptions {
  // A change smaller than this, in percent, is reported as no change.
  double min_effect_pct = 5;
  // Confidence of the significance test (1 - alpha).
  double confidence = 0.95;
  // When set, a regression is a significant slowdown (throughput down or p99
  // up) larger than this percent, or an engine completing a phase in A and
  // not in B.
  std::optional<double> fail_on_regression_pct;
  // Compare rows whose sides' ops/s divide by different times (a schema-4
  // file's time inside the engine's calls against a wall span) instead of
  // refusing; the comparison then says which rows mix them.
  bool allow_mixed_time_base = false;
};
// Empty when the options make sense; else one message naming the option.
std::string CheckCompareOptions(const CompareOptions& options);

enum class Verdict { kFaster, kSlower, kNoChange, kTooNoisy };

struct ComparedFigure {
  results::Spread a, b;
  double ratio = 0;    // b.median / a.median
  double p_value = 1;  // Mann-Whitney U, two-sided
  // For throughput: faster = higher. For latency: kFaster means lower
  // latency (better).
  Verdict verdict = Verdict::kTooNoisy;
  std::string reason = {};  // why "too noisy to say"
  bool changed() const { return verdict == Verdict::kFaster || verdict == Verdict::kSlower; }
};

struct ComparedRow {
  std::string phase, op, engine;
  MatrixPoint point;
  std::string point_label;  // "" when the phase has one matrix point
  ComparedFigure throughput;
  std::optional<ComparedFigure> p99;  // empty when a side has no latency or A's is 0
  // > 0: a side's p99 is of block means (Figures::block_ops), the larger block.
  uint64_t p99_block_ops = 0;
  bool regression = false;
  // Both sides ran in several processes (forks) with several repetitions in
  // some fork: repetitions of one process are not independent of each other,
  // so the figures compared are each fork's median (n = forks).
  bool per_fork = false;
  // The CPU probe (report_model.h, RanSlowed), against the fastest probe of
  // the row's two sides: each side's repetitions that ran slowed, of all.
  int a_slowed = 0, a_reps = 0, b_slowed = 0, b_reps = 0;
};

struct Comparison {
  CompareOptions options;
  std::vector<ComparedRow> rows;
  // "phase load, engine sqlite: ok in A, failed in B (reason)"
  std::vector<std::string> status_changes;
  std::vector<std::string> only_in_a, only_in_b;
  bool has_regression = false;  // only ever true with fail_on_regression_pct set
  // The run-to-run noise floors estimated from the rows (fractions; 0 with
  // fewer than 8 rows).
  double throughput_floor = 0, p99_floor = 0;
  // Rows whose sides' ops/s divide by different times: one side read from a
  // results schema 4 file (the busiest thread's time inside the engine's
  // calls), the other the wall span (every other schema). Their throughput
  // ratios mix two definitions. One line per row, naming the in-call side.
  std::vector<std::string> mixed_time_base;
  size_t mixed_time_base_rows() const { return mixed_time_base.size(); }
  // The most processes (forks, results::Repetition::fork) any compared row
  // of A / B pooled: 1 when every engine ran in one process, so the
  // repetitions cannot show how much two processes differ.
  int a_forks = 1, b_forks = 1;
};

// Why `c` must not be shown (`kvbench compare` exits 2 with it): rows of
// mixed time bases without options.allow_mixed_time_base. Empty otherwise.
std::string MixedTimeBaseRefusal(const Comparison& c);

// Compares one figure's repetitions; `higher_is_better` for throughput. A
// change must be at least max(minimum effect, `noise_floor`) (fractions).
ComparedFigure CompareFigure(const results::Spread& a, const results::Spread& b,
                             bool higher_is_better, const CompareOptions& options,
                             double noise_floor = 0);

Comparison CompareResults(const results::RunResults& a, const results::RunResults& b,
                          const CompareOptions& options);

// Markdown for a terminal or a pull request; `a_name` and `b_name` say where
// the runs came from (file names).
std::string RenderComparison(const Comparison& comparison, const results::RunResults& a,
                             const results::RunResults& b, std::string_view a_name,
                             std::string_view b_name);

}  // namespace kvbench::reports
