#include "reports/compare.h"

#include <fmt/format.h>

#include <cmath>

#include "reports/phase_tables.h"
#include "reports/text_format.h"

namespace kvbench::reports {

using results::PhaseRun;
using results::RunResults;

namespace {

struct Located {
  const PhaseView* phase;
  const PointRuns* point;
  const PhaseRun* run;
};

std::vector<Located> Locate(const std::vector<PhaseView>& phases) {
  std::vector<Located> out;
  for (const PhaseView& phase : phases) {
    for (const PointRuns& pr : phase.points) {
      for (const PhaseRun* run : pr.runs) out.push_back({&phase, &pr, run});
    }
  }
  return out;
}

const Located* Find(const std::vector<Located>& runs, const Located& like) {
  for (const Located& l : runs) {
    if (l.run->phase == like.run->phase && l.run->engine == like.run->engine &&
        l.point->point == like.point->point) {
      return &l;
    }
  }
  return nullptr;
}

bool Completed(const PhaseRun& run) { return run.status == "ok" && !run.repetitions.empty(); }

std::string Where(const Located& l) {
  std::string s = "phase " + l.run->phase + ", engine " + l.run->engine;
  const std::string point = PointLabel(l.point->point, l.phase->varying);
  return point.empty() ? s : s + ", " + point;
}

std::optional<ComparedFigure> CompareFigure(const std::optional<results::Spread>& a,
                                            const std::optional<results::Spread>& b, int a_reps,
                                            int b_reps, const CompareOptions& options) {
  if (!a || !b || a->median <= 0) return std::nullopt;
  ComparedFigure f{*a, *b, b->median / a->median, 0, false};
  if (a_reps < 2 || b_reps < 2) f.band = options.threshold_pct / 100;
  if (a_reps >= 2) f.band = std::max(f.band, RelativeSpread(*a));
  if (b_reps >= 2) f.band = std::max(f.band, RelativeSpread(*b));
  f.changed = std::fabs(f.ratio - 1) > f.band;
  return f;
}

}  // namespace

Comparison CompareResults(const RunResults& a, const RunResults& b, const CompareOptions& options) {
  Comparison c;
  c.options = options;
  const std::vector<PhaseView> a_phases = GroupByPhase(a), b_phases = GroupByPhase(b);
  const std::vector<Located> a_runs = Locate(a_phases), b_runs = Locate(b_phases);
  const bool fail = options.fail_on_regression_pct.has_value();
  const double fail_fraction = options.fail_on_regression_pct.value_or(0) / 100;
  for (const Located& la : a_runs) {
    const Located* lb = Find(b_runs, la);
    if (lb == nullptr) {
      c.only_in_a.push_back(Where(la));
      continue;
    }
    const PhaseRun& ra = *la.run;
    const PhaseRun& rb = *lb->run;
    if (!Completed(ra) || !Completed(rb)) {
      if (ra.status != rb.status) {
        c.status_changes.push_back(
            fmt::format("{}: {} in A, {} in B{}", Where(la), ra.status, rb.status,
                        Completed(rb) ? "" : (rb.reason.empty() ? "" : " (" + rb.reason + ")")));
        if (fail && Completed(ra)) c.has_regression = true;
      }
      continue;
    }
    const std::vector<std::string> b_ops = OpNames(rb);
    for (const std::string& op : OpNames(ra)) {
      if (std::find(b_ops.begin(), b_ops.end(), op) == b_ops.end()) continue;
      const Figures fa = FiguresOf(ra, op), fb = FiguresOf(rb, op);
      std::optional<ComparedFigure> throughput =
          CompareFigure(fa.ops_per_sec, fb.ops_per_sec, fa.repetitions, fb.repetitions, options);
      if (!throughput) continue;
      ComparedRow row{ra.phase,
                      op,
                      ra.engine,
                      la.point->point,
                      PointLabel(la.point->point, la.phase->varying),
                      *throughput,
                      CompareFigure(fa.p99_us, fb.p99_us, fa.repetitions, fb.repetitions, options),
                      false};
      if (fail) {
        row.regression = (row.throughput.changed && row.throughput.ratio < 1 - fail_fraction) ||
                         (row.p99 && row.p99->changed && row.p99->ratio > 1 + fail_fraction);
        c.has_regression = c.has_regression || row.regression;
      }
      c.rows.push_back(std::move(row));
    }
  }
  for (const Located& lb : b_runs) {
    if (Find(a_runs, lb) == nullptr) c.only_in_b.push_back(Where(lb));
  }
  return c;
}

namespace {

std::string RunDescription(const RunResults& r, std::string_view name) {
  std::string s = MarkdownCode(name);
  std::vector<std::string> parts;
  if (!r.workload.name.empty()) parts.push_back("workload " + r.workload.name);
  if (!r.started_at.empty()) parts.push_back("started " + r.started_at);
  if (!r.environment.hostname.empty()) parts.push_back("host " + r.environment.hostname);
  if (!r.environment.kvbench_revision.empty()) {
    parts.push_back("kvbench " + r.environment.kvbench_revision);
  }
  std::string joined;
  for (const auto& p : parts) joined += (joined.empty() ? "" : ", ") + p;
  return joined.empty() ? s : s + " (" + MarkdownEscape(joined) + ")";
}

std::string RatioCell(const ComparedFigure& f) {
  const std::string r = FormatRatio(f.ratio);
  return f.changed ? "**" + r + "**" : r;
}

std::string Verdict(const ComparedRow& row) {
  std::vector<std::string> parts;
  if (row.throughput.changed) parts.push_back(row.throughput.ratio > 1 ? "faster" : "slower");
  if (row.p99 && row.p99->changed) {
    parts.push_back(row.p99->ratio > 1 ? "p99 worse" : "p99 better");
  }
  if (parts.empty()) return "no change";
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : ", ") + p;
  return row.regression ? "**REGRESSION**: " + s : s;
}

}  // namespace

std::string RenderComparison(const Comparison& c, const RunResults& a, const RunResults& b,
                             std::string_view a_name, std::string_view b_name) {
  std::string out = "# kvbench compare\n\n";
  out += "- A: " + RunDescription(a, a_name) + "\n";
  out += "- B: " + RunDescription(b, b_name) + "\n\n";
  out += fmt::format(
      "Ratios are B/A of medians over repetitions. A ratio is marked (bold) as a change only "
      "when it is further from 1 than the noise band (±): the larger spread (max − min) / median "
      "of A's and B's repetitions, and at least {}% when a side has one repetition. ",
      FormatExact(c.options.threshold_pct));
  out += c.options.fail_on_regression_pct
             ? fmt::format(
                   "A regression is throughput down or p99 up by more than {}% and "
                   "beyond the band.\n\n",
                   FormatExact(*c.options.fail_on_regression_pct))
             : "No regression threshold was given (--fail-on-regression).\n\n";
  size_t changed = 0, regressions = 0;
  for (const ComparedRow& row : c.rows) {
    changed += row.throughput.changed || (row.p99 && row.p99->changed);
    regressions += row.regression;
  }
  out += fmt::format("**{} compared, {} changed", c.rows.size(), changed);
  if (c.options.fail_on_regression_pct) out += fmt::format(", {} regressed", regressions);
  out += ".**\n\n";
  if (!c.rows.empty()) {
    out +=
        "| phase | op | engine | matrix point | A ops/s | B ops/s | B/A | ± | A p99 µs | "
        "B p99 µs | B/A | ± | change |\n";
    out += "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n";
    for (const ComparedRow& row : c.rows) {
      const auto band = [](const ComparedFigure& f) {
        return fmt::format("{:.1f}%", f.band * 100);
      };
      out +=
          fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                      MarkdownEscape(row.phase), MarkdownEscape(row.op), MarkdownEscape(row.engine),
                      row.point_label.empty() ? kUnmeasured : MarkdownEscape(row.point_label),
                      FormatRate(row.throughput.a.median), FormatRate(row.throughput.b.median),
                      RatioCell(row.throughput), band(row.throughput),
                      row.p99 ? FormatMicros(row.p99->a.median) : kUnmeasured,
                      row.p99 ? FormatMicros(row.p99->b.median) : kUnmeasured,
                      row.p99 ? RatioCell(*row.p99) : kUnmeasured,
                      row.p99 ? band(*row.p99) : kUnmeasured, Verdict(row));
    }
    out += "\n";
  }
  auto list = [&out](const char* title, const std::vector<std::string>& items) {
    if (items.empty()) return;
    out += fmt::format("{}:\n\n", title);
    for (const std::string& s : items) out += "- " + MarkdownEscape(s) + "\n";
    out += "\n";
  };
  list("Status changes", c.status_changes);
  list("Only in A", c.only_in_a);
  list("Only in B", c.only_in_b);
  out.pop_back();
  return out;
}

}  // namespace kvbench::reports
