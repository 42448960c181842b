#include "reports/history_text.h"

#include <fmt/format.h>

#include <map>
#include <tuple>

#include "reports/text_format.h"

namespace kvbench::reports {

std::string SeriesLabel(const results::SeriesKey& k) {
  std::string s = k.engine + " · " + k.phase;
  if (k.phase_op != k.phase) s += " (" + k.phase_op + ")";
  if (!k.op.empty()) s += " · " + k.op;
  if (k.threads != 1) s += " · " + std::to_string(k.threads) + " threads";
  if (k.target_ops != 0) s += " · target " + FormatTarget(k.target_ops);
  if (!k.cache.empty()) s += " · " + k.cache;
  return s;
}

std::string SeriesPlace(const results::SeriesKey& k) {
  return "workload " + k.workload_name + " [" + k.workload_hash.substr(0, 8) + "] on " +
         k.hostname + " [" + k.host_fingerprint.substr(0, 8) + "]";
}

std::string FormatFigure(const std::string& figure, double v) {
  const results::FigureKind* kind = results::FindFigureKind(figure);
  const std::string unit = kind != nullptr ? kind->unit : "";
  if (unit == "ops/s") return FormatRate(v) + " ops/s";
  if (unit == "ns") return FormatMicros(v / 1000) + " µs";
  if (unit == "bytes") return FormatBytes(v);
  if (unit == "s") return FormatSeconds(v);
  return FormatSignificant(v, 3);
}

std::string PointRun(const results::FigurePoint& p) {
  return p.started_at + ", rev " + (p.kvbench_revision.empty() ? "?" : p.kvbench_revision);
}

std::string ChangeContext(const results::Series& s, const results::SeriesChange& c) {
  const results::FigurePoint& a = s.points[c.point.index - 1];
  const results::FigurePoint& b = s.points[c.point.index];
  std::string out;
  auto differs = [&out](const std::string& what, const std::string& x, const std::string& y) {
    if (x == y) return;
    out +=
        (out.empty() ? "" : "; ") + what + (x.empty() ? "?" : x) + " -> " + (y.empty() ? "?" : y);
  };
  differs(s.key.engine + " ", a.library_version, b.library_version);
  differs("kernel ", a.kernel, b.kernel);
  differs("compiler ", a.compiler, b.compiler);
  return out;
}

namespace {

// The time a figure's base names, for people; "" for bases that name none.
std::string TimeBaseNoun(const std::string& base) {
  if (base == results::kTimeBaseWallSpan) return "the wall span";
  if (base == results::kTimeBaseEngineCalls) {
    return "the time inside the engine's calls (results schema 4)";
  }
  return "";
}

// What the figures of `base` are, as a predicate: "divided by the wall span".
std::string TimeBasePredicate(const std::string& figure, const std::string& base) {
  const std::string noun = TimeBaseNoun(base);
  if (!noun.empty()) return (figure == "seconds" ? "measured " : "divided by ") + noun;
  if (base == results::kTimeBaseUnknown) {
    return "were stored before the history recorded time bases (the wall span, or the time "
           "inside the engine's calls for results schema 4)";
  }
  if (base == results::kTimeBaseMixed) return "mixed time bases across their repetitions";
  return "had no time base";
}

}  // namespace

std::string TimeBaseChangeSentence(const results::Series& s, const results::TimeBaseChange& t) {
  const std::string& figure = s.key.figure;
  std::string after = TimeBasePredicate(figure, t.after);
  // "...divided by X; after it by Y" when both sides name their time.
  if (!TimeBaseNoun(t.before).empty() && !TimeBaseNoun(t.after).empty()) {
    after = (figure == "seconds" ? "" : "by ") + TimeBaseNoun(t.after);
  }
  return fmt::format(
      "Time-base change between run {} ({}) and run {} ({}): figures before this point {}; "
      "after it {}. A step here is the measurement's definition changing, not the engine: "
      "change points are looked for on each side apart, never across it.",
      t.index, PointRun(s.points[t.index - 1]), t.index + 1, PointRun(s.points[t.index]),
      TimeBasePredicate(figure, t.before), after);
}

std::string RenderTimeBaseChanges(const std::vector<results::Series>& series, size_t last_runs) {
  // One paragraph per (runs on both sides, bases, figure): a store's every
  // throughput series changes base between the same two runs.
  using Key = std::tuple<std::string, std::string, std::string, std::string, std::string>;
  std::map<Key, std::vector<std::pair<size_t, size_t>>> groups;  // -> (series, change)
  std::vector<Key> order;
  for (size_t si = 0; si < series.size(); ++si) {
    const results::Series& s = series[si];
    for (size_t ti = 0; ti < s.time_base_changes.size(); ++ti) {
      const results::TimeBaseChange& t = s.time_base_changes[ti];
      if (last_runs > 0 && t.index + last_runs < s.points.size()) continue;
      const Key key{s.points[t.index - 1].run_id, s.points[t.index].run_id, t.before, t.after,
                    s.key.figure};
      auto [it, fresh] = groups.try_emplace(key);
      if (fresh) order.push_back(key);
      it->second.emplace_back(si, ti);
    }
  }
  std::string out;
  for (const Key& key : order) {
    const std::vector<std::pair<size_t, size_t>>& members = groups[key];
    const auto& [first_series, first_change] = members.front();
    const results::Series& s = series[first_series];
    const results::TimeBaseChange& t = s.time_base_changes[first_change];
    // The run numbers differ between series; the runs themselves do not.
    std::string sentence = TimeBaseChangeSentence(s, t);
    sentence = sentence.substr(sentence.find(": ") + 2);
    std::string names;
    for (size_t m = 0; m < members.size() && m < 3; ++m) {
      names += (m ? ", " : "") + SeriesLabel(series[members[m].first].key);
    }
    if (members.size() > 3) names += fmt::format(" and {} more", members.size() - 3);
    const results::FigureKind* kind = results::FindFigureKind(s.key.figure);
    out += fmt::format("time-base change in {} {} series ({}) between {} and {}:\n    {}\n",
                       members.size(), kind != nullptr ? kind->label : s.key.figure.c_str(), names,
                       PointRun(s.points[t.index - 1]), PointRun(s.points[t.index]), sentence);
  }
  return out;
}

std::string RenderRunList(const std::vector<results::StoredRunInfo>& runs) {
  if (runs.empty()) return "No runs in the store match.\n";
  std::string out = fmt::format("{:<12}  {:<20}  {:<18}  {:<14}  {:<16}  {:>8}  {}\n", "run",
                                "started", "workload", "host", "revision", "figures", "engines");
  for (const results::StoredRunInfo& r : runs) {
    std::string engines;
    for (const std::string& e : r.engines) engines += (engines.empty() ? "" : ",") + e;
    out += fmt::format("{:<12}  {:<20}  {:<18}  {:<14}  {:<16}  {:>8}  {}\n",
                       r.run_id.substr(0, 12), r.started_at, r.workload_name, r.hostname,
                       r.kvbench_revision, r.figures, engines);
  }
  return out + fmt::format("{} run{}\n", runs.size(), runs.size() == 1 ? "" : "s");
}

namespace {

std::string Finding(const char* verdict, const results::Regression& r,
                    const std::vector<results::Series>& all) {
  const results::Series& s = all[r.series];
  const results::SeriesChange& c = s.changes[r.change];
  const results::FigurePoint& before = s.points[c.point.index - 1];
  const results::FigurePoint& after = s.points[c.point.index];
  const results::FigureKind* kind = results::FindFigureKind(s.key.figure);
  std::string out = fmt::format(
      "{}: {} · {} {:.1f}% worse ({} -> {}) since the change between run {} and run {} (p = "
      "{:.3f}); {} of its {} runs are after it\n    {}\n",
      verdict, SeriesLabel(s.key), kind != nullptr ? kind->label : s.key.figure.c_str(),
      r.slowdown_pct, FormatFigure(s.key.figure, r.before_mean),
      FormatFigure(s.key.figure, r.after_mean), PointRun(before), PointRun(after), c.point.p_value,
      s.points.size() - c.point.index, s.points.size(), SeriesPlace(s.key));
  if (const std::string context = ChangeContext(s, c); !context.empty()) {
    out += "    also changed: " + context + "\n";
  }
  return out;
}

}  // namespace

std::string RenderCheckReport(const results::CheckOutcome& outcome,
                              const std::vector<results::Series>& series, size_t last_runs,
                              double fail_pct) {
  std::string out;
  for (const results::Regression& r : outcome.regressions) out += Finding("REGRESSION", r, series);
  for (const results::Regression& r : outcome.smaller) {
    out += Finding("slower, within the threshold", r, series);
  }
  out += RenderTimeBaseChanges(series, last_runs);
  out += fmt::format(
      "{} series checked over their newest {} runs: {} significant slowdown{} larger than {}%{}\n",
      outcome.series_checked, last_runs, outcome.regressions.size(),
      outcome.regressions.size() == 1 ? "" : "s", fmt::format("{:g}", fail_pct),
      outcome.smaller.empty() ? "" : fmt::format(", {} smaller", outcome.smaller.size()));
  return out;
}

}  // namespace kvbench::reports
