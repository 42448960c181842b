#include "reports/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

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

// The operation types worth a row: a phase of one type has one row (its
// "all" duplicates it); a mixed phase one per type and one for "all".
std::vector<std::string> RowOps(const PhaseRun& run) {
  std::vector<std::string> ops = OpNames(run);
  // "all" counts every type but commits: with one type beside commits it is
  // that type again.
  const size_t types = static_cast<size_t>(
      std::count_if(ops.begin(), ops.end(),
                    [](const std::string& op) { return op != "all" && op != "commit"; }));
  if (types == 1 && !ops.empty() && ops.front() == "all") ops.erase(ops.begin());
  return ops;
}

// kFloorSigmas x 1.4826 x the median absolute deviation of the log ratios (a
// robust sigma), as a
// fraction; 0 below kMinRowsForFloor ratios.
constexpr size_t kMinRowsForFloor = 8;
// Four robust sigmas: run-to-run differences are heavier-tailed than normal
// (three let 5.2% of rows of identical runs through at --scale 0.1).
constexpr double kFloorSigmas = 4;
double NoiseFloor(std::vector<double> log_ratios) {
  if (log_ratios.size() < kMinRowsForFloor) return 0;
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  };
  const double m = median(log_ratios);
  for (double& x : log_ratios) x = std::fabs(x - m);
  return std::exp(kFloorSigmas * 1.4826 * median(log_ratios)) - 1;
}

// How many processes (forks) measured a row's repetitions.
int Forks(const results::PhaseRun& run) {
  std::vector<int> seen;
  for (const results::Repetition& r : run.repetitions) {
    if (std::find(seen.begin(), seen.end(), r.fork.value_or(0)) == seen.end()) {
      seen.push_back(r.fork.value_or(0));
    }
  }
  return std::max<int>(1, static_cast<int>(seen.size()));
}

// The median of each fork's repetitions of `op` (`figure` of each), when
// the run's repetitions came from two forks or more and some fork ran two or
// more: one value per process, so a test between two runs counts processes,
// not repetitions that share one. Empty otherwise.
std::optional<results::Spread> ForkMedians(
    const results::PhaseRun& run, std::string_view op,
    const std::function<double(const results::OpFigures&)>& figure) {
  std::map<int, std::vector<double>> by_fork;
  for (const results::Repetition& r : run.repetitions) {
    if (!r.fork) return std::nullopt;
    for (const results::OpFigures& f : r.ops) {
      if (f.op == op) by_fork[*r.fork].push_back(figure(f));
    }
  }
  const bool some_pair = std::any_of(by_fork.begin(), by_fork.end(),
                                     [](const auto& f) { return f.second.size() >= 2; });
  if (by_fork.size() < 2 || !some_pair) return std::nullopt;
  std::vector<double> medians;
  for (auto& [fork, values] : by_fork) medians.push_back(results::SpreadOfValues(values).median);
  return results::SpreadOfValues(std::move(medians));
}

std::string Percent(double fraction) { return fmt::format("{:.1f}%", fraction * 100); }

// Half-width of a spread's interval relative to its median.
std::optional<double> RelativeHalfWidth(const results::Spread& s) {
  if (!s.ci || s.median == 0) return std::nullopt;
  return (s.ci->high - s.ci->low) / 2 / std::fabs(s.median);
}

}  // namespace

std::string CheckCompareOptions(const CompareOptions& o) {
  if (!(o.min_effect_pct > 0 && o.min_effect_pct < 100)) {
    return fmt::format("--min-effect: {} is not a percentage between 0 and 100 (exclusive)",
                       o.min_effect_pct);
  }
  if (!(o.confidence >= 0.5 && o.confidence < 1)) {
    return fmt::format("--confidence: {} is not a level from 0.5 to below 1 (e.g. 0.95)",
                       o.confidence);
  }
  if (o.fail_on_regression_pct && !(*o.fail_on_regression_pct >= 0)) {
    return fmt::format("--fail-on-regression: {} is not a percentage >= 0",
                       *o.fail_on_regression_pct);
  }
  return "";
}

ComparedFigure CompareFigure(const results::Spread& a, const results::Spread& b,
                             bool higher_is_better, const CompareOptions& options,
                             double noise_floor) {
  ComparedFigure f;
  f.a = a;
  f.b = b;
  f.ratio = a.median != 0 ? b.median / a.median : 0;
  f.p_value = results::MannWhitneyP(a.values, b.values);
  const double effect = std::max(options.min_effect_pct / 100, noise_floor);
  // The smallest two-sided p the U test can give for these sizes is
  // 2 / C(na + nb, na): with fewer repetitions than that allows, no
  // difference could ever be significant (3 and 3 give 0.1).
  double smallest_p = 2;
  for (int i = 1; i <= a.n; ++i) smallest_p *= static_cast<double>(i) / (b.n + i);
  if (a.n == 0 || b.n == 0 || smallest_p >= 1 - options.confidence) {
    f.verdict = Verdict::kTooNoisy;
    f.reason = fmt::format(
        "too few repetitions (A n={}, B n={}: no difference could be significant at {:.0f}%)",
        a.n, b.n, options.confidence * 100);
    return f;
  }
  const bool significant = f.p_value < 1 - options.confidence;
  const bool large = std::fabs(f.ratio - 1) >= effect;
  if (significant && large) {
    const bool up = f.ratio > 1;
    f.verdict = up == higher_is_better ? Verdict::kFaster : Verdict::kSlower;
    return f;
  }
  if (significant) {
    f.verdict = Verdict::kNoChange;  // real, but below the minimum effect
    return f;
  }
  const std::optional<double> wa = RelativeHalfWidth(a), wb = RelativeHalfWidth(b);
  const double widest = std::max(wa.value_or(1e9), wb.value_or(1e9));
  if (widest <= effect) {
    f.verdict = Verdict::kNoChange;
  } else {
    f.verdict = Verdict::kTooNoisy;
    f.reason = fmt::format("CI ±{} is wider than the {} smallest change called", Percent(widest),
                           Percent(effect));
  }
  return f;
}

namespace {

void CountSlowed(const results::PhaseRun& a, const results::PhaseRun& b, ComparedRow* row) {
  const double fastest = FastestProbe({&a, &b});
  row->a_reps = static_cast<int>(a.repetitions.size());
  row->b_reps = static_cast<int>(b.repetitions.size());
  row->a_slowed = SlowedRepetitions(a, fastest);
  row->b_slowed = SlowedRepetitions(b, fastest);
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
    const bool a_calls = FiguresOf(ra).rate_over_engine_calls;
    const bool b_calls = FiguresOf(rb).rate_over_engine_calls;
    if (a_calls != b_calls) {
      c.mixed_time_base.push_back(fmt::format("{}: {}'s ops/s over the time inside the engine's "
                                              "calls (schema 4), {}'s over the wall span",
                                              Where(la), a_calls ? "A" : "B", a_calls ? "B" : "A"));
    }
    const std::vector<std::string> b_ops = RowOps(rb);
    for (const std::string& op : RowOps(ra)) {
      if (std::find(b_ops.begin(), b_ops.end(), op) == b_ops.end()) continue;
      const Figures fa = FiguresOf(ra, op), fb = FiguresOf(rb, op);
      if (!fa.ops_per_sec || !fb.ops_per_sec || fa.ops_per_sec->median <= 0 ||
          fb.ops_per_sec->median <= 0) {
        continue;
      }
      ComparedRow row;
      CountSlowed(ra, rb, &row);
      row.phase = ra.phase;
      row.op = op;
      row.engine = ra.engine;
      row.point = la.point->point;
      row.point_label = PointLabel(la.point->point, la.phase->varying);
      row.throughput.a = *fa.ops_per_sec;
      row.throughput.b = *fb.ops_per_sec;
      c.a_forks = std::max(c.a_forks, Forks(ra));
      c.b_forks = std::max(c.b_forks, Forks(rb));
      if (fa.p99_us && fb.p99_us && fa.p99_us->median > 0 && fb.p99_us->median > 0) {
        row.p99 = ComparedFigure{*fa.p99_us, *fb.p99_us};
        row.p99_block_ops = std::max(fa.block_ops, fb.block_ops);
      }
      auto rate = [](const results::OpFigures& f) { return f.ops_per_sec; };
      auto p99 = [](const results::OpFigures& f) { return f.latency.p99_ns / 1000.0; };
      if (auto ka = ForkMedians(ra, op, rate), kb = ForkMedians(rb, op, rate); ka && kb) {
        row.per_fork = true;
        row.throughput.a = *ka;
        row.throughput.b = *kb;
        if (row.p99) {
          row.p99->a = *ForkMedians(ra, op, p99);
          row.p99->b = *ForkMedians(rb, op, p99);
        }
      }
      c.rows.push_back(std::move(row));
    }
  }
  // The run-to-run noise floors, from every row's ratio; then the verdicts.
  std::vector<double> rate_logs, p99_logs;
  for (const ComparedRow& row : c.rows) {
    rate_logs.push_back(std::log(row.throughput.b.median / row.throughput.a.median));
    if (row.p99) p99_logs.push_back(std::log(row.p99->b.median / row.p99->a.median));
  }
  c.throughput_floor = NoiseFloor(rate_logs);
  c.p99_floor = NoiseFloor(p99_logs);
  for (ComparedRow& row : c.rows) {
    row.throughput =
        CompareFigure(row.throughput.a, row.throughput.b, true, options, c.throughput_floor);
    if (row.p99) row.p99 = CompareFigure(row.p99->a, row.p99->b, false, options, c.p99_floor);
    if (fail) {
      row.regression = (row.throughput.verdict == Verdict::kSlower &&
                        row.throughput.ratio < 1 - fail_fraction) ||
                       (row.p99 && row.p99->verdict == Verdict::kSlower &&
                        row.p99->ratio > 1 + fail_fraction);
      c.has_regression = c.has_regression || row.regression;
    }
  }
  for (const Located& lb : b_runs) {
    if (Find(a_runs, lb) == nullptr) c.only_in_b.push_back(Where(lb));
  }
  return c;
}

std::string MixedTimeBaseRefusal(const Comparison& c) {
  if (c.mixed_time_base.empty() || c.options.allow_mixed_time_base) return "";
  std::string out = fmt::format(
      "{} row(s) divide ops by different times, so their ratios would compare two "
      "definitions of ops/s: ",
      c.mixed_time_base.size());
  // The first few name the problem; the count says how far it goes.
  for (size_t i = 0; i < std::min<size_t>(3, c.mixed_time_base.size()); ++i) {
    out += (i == 0 ? "" : "; ") + c.mixed_time_base[i];
  }
  if (c.mixed_time_base.size() > 3) out += "; ...";
  return out +
         ". Rerun the schema-4 side with this kvbench (ops/s = operations / wall span), or "
         "pass --allow-mixed-time-base to compare them anyway";
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
  return f.changed() ? "**" + r + "**" : r;
}

std::string CiCell(const results::Spread& s, std::string (*format)(double)) {
  if (!s.ci) return kUnmeasured;
  return format(s.ci->low) + "–" + format(s.ci->high);
}

std::string FigureVerdict(const ComparedFigure& f, const char* better, const char* worse) {
  switch (f.verdict) {
    case Verdict::kFaster: return better;
    case Verdict::kSlower: return worse;
    case Verdict::kNoChange: return "no change";
    case Verdict::kTooNoisy: return "too noisy to say: " + f.reason;
  }
  return "";
}

std::string RowVerdict(const ComparedRow& row) {
  std::string s = FigureVerdict(row.throughput, "faster", "slower");
  if (row.p99 && row.p99->changed()) {
    s += row.p99->verdict == Verdict::kFaster ? "; p99 better" : "; p99 worse";
  }
  return row.regression ? "**REGRESSION**: " + s : s;
}

// Rows that changed while one side's repetitions ran slowed by the CPU
// probe: the machine's speed may be the change.
std::vector<std::string> SlowedChanges(const Comparison& c) {
  std::vector<std::string> out;
  for (const ComparedRow& row : c.rows) {
    if (!row.throughput.changed() || row.a_slowed + row.b_slowed == 0) continue;
    out.push_back(fmt::format(
        "{}, {}{}: {} {}, with the CPU probe {} the row's fastest or slower in {} of A's {} "
        "and {} of B's {} repetitions",
        row.phase, row.engine, row.point_label.empty() ? "" : " (" + row.point_label + ")",
        FigureVerdict(row.throughput, "faster", "slower"), FormatRatio(row.throughput.ratio),
        FormatRatio(kProbeSlowRatio), row.a_slowed, row.a_reps, row.b_slowed, row.b_reps));
  }
  return out;
}

// What the rows' repetitions say about differences between processes.
std::string ProcessesNote(const Comparison& c) {
  std::string out;
  if (c.a_forks > 1 && c.b_forks > 1) {
    out += fmt::format(
        "Each row pools repetitions from {} (A) and {} (B) engine processes (--forks), so its "
        "interval holds the differences between processes too. ",
        c.a_forks, c.b_forks);
    if (std::any_of(c.rows.begin(), c.rows.end(), [](const ComparedRow& r) { return r.per_fork; })) {
      out += "Where a fork ran several repetitions, they share a process and are not "
             "independent, so those rows compare each fork's median (n = forks; at 95% the test "
             "needs 4 forks a side). ";
    }
  } else {
    out += fmt::format(
        "{} ran each engine in one process, so its repetitions cannot show how much two "
        "processes differ (where their memory lands, which CPU they get): a change of a few "
        "percent may be that. Run both with --forks N (e.g. --forks 5 --repeat 1) to put it "
        "into the intervals. ",
        c.a_forks > 1 ? "B" : c.b_forks > 1 ? "A" : "Each side");
  }
  return out;
}

}  // namespace

std::string RenderComparison(const Comparison& c, const RunResults& a, const RunResults& b,
                             std::string_view a_name, std::string_view b_name) {
  std::string out = "# kvbench compare\n\n";
  out += "- A: " + RunDescription(a, a_name) + "\n";
  out += "- B: " + RunDescription(b, b_name) + "\n\n";
  out +=
      "ops/s = operations / wall span of the phase's timed part (kvbench's own work between "
      "the engine's calls included), as YCSB and db_bench define it. Results schema 4 files "
      "divided unthrottled phases' operations by the time inside the engine's calls instead; "
      "such rows are compared with wall-span rows only when asked (--allow-mixed-time-base).\n\n";
  if (!c.mixed_time_base.empty()) {
    out += fmt::format(
        "**Not like for like** (--allow-mixed-time-base): in {} row(s) one side's ops/s "
        "divide by the time inside the engine's calls (a results schema 4 file) and the "
        "other's by the wall span, which also holds kvbench's own work between calls. Their "
        "throughput ratios mix the two; rerun the schema-4 side with this kvbench.\n\n",
        c.mixed_time_base.size());
    for (const std::string& s : c.mixed_time_base) out += "- " + MarkdownEscape(s) + "\n";
    out += "\n";
  }
  out += fmt::format(
      "Ratios are B/A of medians over repetitions; intervals are {:.0f}% confidence intervals "
      "of the median (order statistics). Test: two-sided Mann-Whitney U between A's and B's "
      "repetitions at {:.0f}% confidence, with a minimum effect of {}: a ratio is a change "
      "(bold) only when it is significant and at least that large. \"No change\": not "
      "significant with intervals narrow enough to have shown such a change, or smaller than "
      "the minimum effect. \"Too noisy to say\": too few repetitions for any difference to be "
      "significant (at 95%, at least 4 a side), or intervals wider than the minimum effect; "
      "run more repetitions (--repeat) to decide. ",
      c.options.confidence * 100, c.options.confidence * 100,
      FormatExact(c.options.min_effect_pct) + "%");
  out += fmt::format(
      "Run-to-run noise floor (4 × the robust spread of all rows' ratios, which repetitions "
      "within one run cannot show): throughput {}, p99 {}; a change must also exceed it. ",
      c.throughput_floor > 0 ? Percent(c.throughput_floor) : "not estimated (fewer than 8 rows)",
      c.p99_floor > 0 ? Percent(c.p99_floor) : "not estimated (fewer than 8 rows)");
  out += ProcessesNote(c);
  out += c.options.fail_on_regression_pct
             ? fmt::format(
                   "A regression is a significant slowdown (throughput down or p99 up) of more "
                   "than {}%.\n\n",
                   FormatExact(*c.options.fail_on_regression_pct))
             : "No regression threshold was given (--fail-on-regression).\n\n";
  size_t changed = 0, noisy = 0, regressions = 0;
  for (const ComparedRow& row : c.rows) {
    changed += row.throughput.changed() || (row.p99 && row.p99->changed());
    noisy += row.throughput.verdict == Verdict::kTooNoisy;
    regressions += row.regression;
  }
  out += fmt::format("**{} compared, {} changed, {} too noisy to say", c.rows.size(), changed,
                     noisy);
  if (c.options.fail_on_regression_pct) out += fmt::format(", {} regressed", regressions);
  out += ".**\n\n";
  if (!c.rows.empty()) {
    out +=
        "| phase | op | engine | matrix point | A ops/s | A CI | B ops/s | B CI | B/A | p | "
        "A p99 µs | B p99 µs | B/A | verdict |\n";
    out += "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n";
    uint64_t block_ops = 0;  // the largest block of a row whose p99 is of block means
    for (const ComparedRow& row : c.rows) {
      block_ops = std::max(block_ops, row.p99_block_ops);
      const std::string block = row.p99_block_ops > 0 ? " (block means)" : "";
      out += fmt::format(
          "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.3f} | {} | {} | {} | {} |\n",
          MarkdownEscape(row.phase), MarkdownEscape(row.op), MarkdownEscape(row.engine),
          row.point_label.empty() ? kUnmeasured : MarkdownEscape(row.point_label),
          FormatRate(row.throughput.a.median), CiCell(row.throughput.a, FormatRate),
          FormatRate(row.throughput.b.median), CiCell(row.throughput.b, FormatRate),
          RatioCell(row.throughput), row.throughput.p_value,
          row.p99 ? FormatMicros(row.p99->a.median) + block : kUnmeasured,
          row.p99 ? FormatMicros(row.p99->b.median) + block : kUnmeasured,
          row.p99 ? RatioCell(*row.p99) : kUnmeasured, RowVerdict(row));
    }
    out += "\n";
    if (block_ops > 0) out += MarkdownEscape(BlockMeansNote(block_ops)) + "\n\n";
  }
  auto list = [&out](const char* title, const std::vector<std::string>& items) {
    if (items.empty()) return;
    out += fmt::format("{}:\n\n", title);
    for (const std::string& s : items) out += "- " + MarkdownEscape(s) + "\n";
    out += "\n";
  };
  list(
      "Changes measured while the CPU ran slowed (the CPU probe, a fixed piece of issue-bound "
      "work timed around every repetition: docs/reading-the-report.md); the machine's speed "
      "may be part of the change",
      SlowedChanges(c));
  list("Status changes", c.status_changes);
  list("Only in A", c.only_in_a);
  list("Only in B", c.only_in_b);
  out.pop_back();
  return out;
}

}  // namespace kvbench::reports
