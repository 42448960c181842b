#include "results/trend.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace kvbench::results {

namespace {

// What a figure measures, apart from where (host) and under which version of
// the workload file.
using Measure = std::tuple<std::string, std::string, std::string, std::string, int, double,
                           std::string, std::string, std::string>;
Measure MeasureOf(const FigurePoint& p) {
  return {p.workload_name, p.engine, p.phase, p.phase_op, p.threads,
          p.target_ops,    p.cache,  p.op,    p.figure};
}

using Place = std::tuple<std::string, std::string>;
Place PlaceOf(const FigurePoint& p) { return {p.workload_hash, p.host_fingerprint}; }

double Mean(const std::vector<FigurePoint>& points, size_t begin, size_t end) {
  double sum = 0;
  for (size_t i = begin; i < end; ++i) sum += points[i].median;
  return end > begin ? sum / static_cast<double>(end - begin) : 0;
}

std::string SplitNote(const std::vector<FigurePoint>& group, const FigurePoint& first) {
  std::set<std::string> hosts, workloads;
  std::map<std::string, std::string> host_names;
  for (const FigurePoint& p : group) {
    hosts.insert(p.host_fingerprint);
    workloads.insert(p.workload_hash);
    host_names.emplace(p.host_fingerprint, p.hostname);
  }
  if (hosts.size() < 2 && workloads.size() < 2) return "";
  std::string why;
  if (hosts.size() > 1) {
    why = "this figure was measured on " + std::to_string(hosts.size()) + " different hosts (";
    bool comma = false;
    for (const auto& [fingerprint, name] : host_names) {
      why += (comma ? ", " : "") + name + " [" + fingerprint.substr(0, 8) + "]";
      comma = true;
    }
    why += ")";
  }
  if (workloads.size() > 1) {
    why += std::string(why.empty() ? "this figure was measured under " : " and under ") +
           std::to_string(workloads.size()) +
           " versions of the workload file (its text, scale or dataset changed)";
  }
  return "Split: " + why +
         ". Figures from different hosts or workload versions are not comparable, so each "
         "combination is its own series; this one is host " +
         first.hostname + " [" + first.host_fingerprint.substr(0, 8) + "], workload " +
         first.workload_hash.substr(0, 8) + ".";
}

}  // namespace

double SlowdownPercent(const std::string& figure, double before, double after) {
  if (before == 0) return 0;
  const FigureKind* kind = FindFigureKind(figure);
  const bool higher_is_better = kind != nullptr && kind->higher_is_better;
  return higher_is_better ? (1 - after / before) * 100 : (after / before - 1) * 100;
}

std::vector<Series> BuildSeries(std::vector<FigurePoint> points,
                                const ChangePointOptions& options) {
  std::stable_sort(points.begin(), points.end(), [](const FigurePoint& a, const FigurePoint& b) {
    return std::tie(a.started_at, a.run_id) < std::tie(b.started_at, b.run_id);
  });
  // Groups of one measure, in order of first appearance; within each, one
  // series per place.
  std::vector<std::vector<FigurePoint>> groups;
  std::map<Measure, size_t> group_of;
  for (FigurePoint& p : points) {
    auto [it, fresh] = group_of.emplace(MeasureOf(p), groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(std::move(p));
  }
  std::vector<Series> out;
  for (std::vector<FigurePoint>& group : groups) {
    std::vector<Series> places;
    std::map<Place, size_t> place_of;
    for (const FigurePoint& p : group) {
      auto [it, fresh] = place_of.emplace(PlaceOf(p), places.size());
      if (fresh) {
        Series s;
        s.key = {
            p.workload_name, p.workload_hash, p.host_fingerprint, p.hostname, p.engine, p.phase,
            p.phase_op,      p.threads,       p.target_ops,       p.cache,    p.op,     p.figure};
        places.push_back(std::move(s));
      }
      places[it->second].points.push_back(p);
    }
    for (Series& s : places) {
      s.split_note = places.size() > 1 ? SplitNote(group, s.points.front()) : "";
      for (size_t i = 1; i < s.points.size(); ++i) {
        if (s.points[i].time_base != s.points[i - 1].time_base) {
          s.time_base_changes.push_back({i, s.points[i - 1].time_base, s.points[i].time_base});
        }
      }
      // Each stretch of one time base is searched on its own, so no change
      // point can sit at (or lean on points across) a time-base change.
      for (size_t seg = 0; seg <= s.time_base_changes.size(); ++seg) {
        const size_t seg_begin = seg == 0 ? 0 : s.time_base_changes[seg - 1].index;
        const size_t seg_end =
            seg < s.time_base_changes.size() ? s.time_base_changes[seg].index : s.points.size();
        std::vector<double> values;
        for (size_t i = seg_begin; i < seg_end; ++i) values.push_back(s.points[i].median);
        std::vector<ChangePoint> cps = FindChangePoints(values, options);
        for (ChangePoint& cp : cps) cp.index += seg_begin;
        for (size_t i = 0; i < cps.size(); ++i) {
          SeriesChange c;
          c.point = cps[i];
          const size_t begin = i == 0 ? seg_begin : cps[i - 1].index;
          const size_t end = i + 1 < cps.size() ? cps[i + 1].index : seg_end;
          c.before_mean = Mean(s.points, begin, c.point.index);
          c.after_mean = Mean(s.points, c.point.index, end);
          c.ratio = c.before_mean != 0 ? c.after_mean / c.before_mean : 1;
          c.worse = SlowdownPercent(s.key.figure, c.before_mean, c.after_mean) > 0;
          s.changes.push_back(c);
        }
      }
      out.push_back(std::move(s));
    }
  }
  return out;
}

CheckOutcome CheckNewestRuns(const std::vector<Series>& series, size_t last_runs, double fail_pct) {
  CheckOutcome outcome;
  for (size_t si = 0; si < series.size(); ++si) {
    const Series& s = series[si];
    ++outcome.series_checked;
    const size_t n = s.points.size();
    size_t window_start = n > last_runs ? n - last_runs : 0;
    // Levels of different time bases are never held against each other.
    if (!s.time_base_changes.empty()) {
      window_start = std::max(window_start, s.time_base_changes.back().index);
    }
    size_t first = s.changes.size();
    for (size_t c = 0; c < s.changes.size(); ++c) {
      if (s.changes[c].point.index >= window_start) {
        first = c;
        break;
      }
    }
    if (first == s.changes.size()) continue;
    Regression r;
    r.series = si;
    r.change = first;
    r.before_mean = s.changes[first].before_mean;
    r.after_mean = s.changes.back().after_mean;
    r.slowdown_pct = SlowdownPercent(s.key.figure, r.before_mean, r.after_mean);
    if (r.slowdown_pct > fail_pct) {
      outcome.regressions.push_back(r);
    } else if (r.slowdown_pct > 0) {
      outcome.smaller.push_back(r);
    }
  }
  return outcome;
}

}  // namespace kvbench::results
