#include "reports/html_charts.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <tuple>

#include "reports/svg_chart.h"
#include "reports/text_format.h"

namespace kvbench::reports {

using results::PhaseRun;

namespace {

// More bar groups than this and the run-wide throughput chart is split per phase.
constexpr size_t kMaxGroups = 16;

const PhaseRun* RunOf(const PointRuns& pr, const std::string& engine) {
  for (const PhaseRun* run : pr.runs) {
    if (run->engine == engine && run->status == "ok" && !run->repetitions.empty()) return run;
  }
  return nullptr;
}

std::optional<double> MedianOf(const std::optional<results::Spread>& s) {
  return s ? std::optional<double>(s->median) : std::nullopt;
}

// The engine's place in the run's engine list, not in one chart's series:
// the same colour in every chart of the run.
const std::string& Colour(const ChartEngines& engines, const std::string& engine) {
  return svg::PaletteColour(EngineIndex(engines.order, engine));
}

const std::string& FamilyOf(const ChartEngines& engines, const std::string& engine) {
  static const std::string kOther = "other";
  const size_t i = EngineIndex(engines.order, engine);
  return i < engines.families.size() ? engines.families[i] : kOther;
}

// One panel per family present among `engine_of` (the engine of each
// series; a series' name when empty), or none when the chart has at most
// kMaxEnginesPerChart engines or one family: it stays one chart. An explicit
// legend keeps, per panel, its entries for the panel's engines and those that
// name no engine (a key to the bars' styles).
std::vector<svg::Panel> FamilyPanels(const std::vector<std::string>& engine_of,
                                     const std::vector<svg::LegendEntry>& legend,
                                     const ChartEngines& engines) {
  std::vector<std::string> distinct;
  for (const std::string& e : engine_of) {
    if (std::find(distinct.begin(), distinct.end(), e) == distinct.end()) distinct.push_back(e);
  }
  if (distinct.size() <= kMaxEnginesPerChart) return {};
  std::vector<svg::Panel> panels;
  for (const char* family : kFamilies) {
    svg::Panel panel;
    std::set<std::string> members;
    for (size_t i = 0; i < engine_of.size(); ++i) {
      if (FamilyOf(engines, engine_of[i]) != family) continue;
      panel.series.push_back(i);
      members.insert(engine_of[i]);
    }
    if (panel.series.empty()) continue;
    panel.label = fmt::format("{} ({} {})", family, members.size(),
                              members.size() == 1 ? "engine" : "engines");
    for (const svg::LegendEntry& entry : legend) {
      const bool names_engine =
          std::find(distinct.begin(), distinct.end(), entry.label) != distinct.end();
      if (!names_engine || members.contains(entry.label)) panel.legend.push_back(entry);
    }
    panels.push_back(std::move(panel));
  }
  if (panels.size() < 2) return {};
  return panels;
}

std::string Render(const svg::BarChart& chart, const ChartEngines& engines,
                   std::vector<std::string> engine_of = {}) {
  if (engine_of.empty()) {
    for (const svg::BarSeries& s : chart.series) engine_of.push_back(s.name);
  }
  const std::vector<svg::Panel> panels = FamilyPanels(engine_of, chart.legend, engines);
  return panels.empty() ? svg::RenderBarChart(chart) : svg::RenderBarPanels(chart, panels);
}

std::string Render(const svg::LineChart& chart, const ChartEngines& engines) {
  std::vector<std::string> engine_of;
  for (const svg::LineSeries& s : chart.series) {
    if (!s.points.empty()) engine_of.push_back(s.name);
  }
  std::vector<svg::Panel> panels = FamilyPanels(engine_of, {}, engines);
  if (panels.empty()) return svg::RenderLineChart(chart);
  // engine_of skipped the empty series: panels index the chart's series.
  std::vector<size_t> index;
  for (size_t i = 0; i < chart.series.size(); ++i) {
    if (!chart.series[i].points.empty()) index.push_back(i);
  }
  for (svg::Panel& p : panels) {
    for (size_t& i : p.series) i = index[i];
  }
  return svg::RenderLinePanels(chart, panels);
}

// The points of a phase whose throughput says something: the unthrottled ones
// (a throttled point's throughput is its target), or all when none is.
std::vector<const PointRuns*> UnthrottledPoints(const PhaseView& phase) {
  std::vector<const PointRuns*> points;
  for (const PointRuns& pr : phase.points) {
    if (pr.point.target_ops <= 0) points.push_back(&pr);
  }
  if (points.empty()) {
    for (const PointRuns& pr : phase.points) points.push_back(&pr);
  }
  return points;
}

VaryingDimensions VaryingAmong(const std::vector<const PointRuns*>& points) {
  VaryingDimensions v;
  for (const PointRuns* p : points) {
    v.threads = v.threads || p->point.threads != points.front()->point.threads;
    v.target = v.target || p->point.target_ops != points.front()->point.target_ops;
    v.cache = v.cache || p->point.cache != points.front()->point.cache;
    v.host = v.host || p->point.host != points.front()->point.host;
  }
  return v;
}

struct Group {
  std::string label;
  const PointRuns* point;
};

// One bar per engine per group (its median, with the median's confidence
// interval as an error bar), engines that have no bar anywhere left out.
svg::BarChart BarsOf(
    const std::vector<Group>& groups, const ChartEngines& engines,
    const std::function<std::optional<results::Spread>(const PhaseRun&)>& value) {
  svg::BarChart chart;
  for (const Group& g : groups) chart.groups.push_back(g.label);
  for (const std::string& engine : engines.order) {
    svg::BarSeries series{engine, Colour(engines, engine), false, {}, {}};
    bool any = false;
    for (const Group& g : groups) {
      const PhaseRun* run = RunOf(*g.point, engine);
      const std::optional<results::Spread> s = run ? value(*run) : std::nullopt;
      series.values.push_back(MedianOf(s));
      series.intervals.push_back(s && s->ci ? std::optional(std::pair(s->ci->low, s->ci->high))
                                            : std::nullopt);
      any = any || series.values.back().has_value();
    }
    if (any) chart.series.push_back(std::move(series));
  }
  return chart;
}

std::optional<results::Spread> Throughput(const PhaseRun& run) {
  return FiguresOf(run).ops_per_sec;
}

void AddThroughputCharts(const std::vector<PhaseView>& phases,
                         const ChartEngines& engines, std::vector<ChartFigure>* out) {
  std::vector<std::vector<Group>> per_phase;
  size_t total = 0;
  for (const PhaseView& phase : phases) {
    const std::vector<const PointRuns*> points = UnthrottledPoints(phase);
    const VaryingDimensions v = VaryingAmong(points);
    std::vector<Group> groups;
    for (const PointRuns* p : points) {
      const std::string point = ShortPointLabel(p->point, v);
      groups.push_back({phase.name + (point.empty() ? "" : " · " + point), p});
    }
    total += groups.size();
    per_phase.push_back(std::move(groups));
  }
  std::vector<std::vector<Group>> charts;
  if (total <= kMaxGroups) {
    charts.emplace_back();
    for (auto& g : per_phase) charts.back().insert(charts.back().end(), g.begin(), g.end());
  } else {
    charts = per_phase;
  }
  for (size_t i = 0; i < charts.size(); ++i) {
    svg::BarChart chart = BarsOf(charts[i], engines, Throughput);
    chart.title = "Throughput per phase and engine";
    chart.y_label = "throughput (ops/s)";
    chart.value_unit = "ops/s";
    std::string caption = charts.size() > 1
                              ? fmt::format("Throughput of phase {} per engine", phases[i].name)
                              : "Throughput per phase and engine";
    caption += " (median ops/s; unthrottled points; higher is better).";
    if (std::string svg = Render(chart, engines); !svg.empty()) {
      out->push_back({"throughput", caption, std::move(svg)});
    }
  }
}

// The last point of a phase at which `engine` ran: its files after the phase.
const PhaseRun* LastRunOf(const PhaseView& phase, const std::string& engine) {
  for (auto it = phase.points.rbegin(); it != phase.points.rend(); ++it) {
    if (const PhaseRun* run = RunOf(*it, engine)) return run;
  }
  return nullptr;
}

void AddFileSizeChart(const std::vector<PhaseView>& phases, const ChartEngines& engines,
                      std::vector<ChartFigure>* out) {
  // Phases after which some engine's apparent size changed: the rest repeat.
  std::vector<const PhaseView*> shown;
  std::map<std::string, double> last;
  double max_bytes = 0;
  for (const PhaseView& phase : phases) {
    bool changed = false;
    for (const std::string& engine : engines.order) {
      const PhaseRun* run = LastRunOf(phase, engine);
      if (run == nullptr) continue;
      const Figures f = FiguresOf(*run);
      if (!f.file_bytes) continue;
      max_bytes = std::max(
          {max_bytes, f.file_bytes->median, f.allocated_bytes ? f.allocated_bytes->median : 0.0});
      auto prev = last.find(engine);
      changed = changed || prev == last.end() || prev->second != f.file_bytes->median;
      last[engine] = f.file_bytes->median;
    }
    if (changed) shown.push_back(&phase);
  }
  if (shown.empty() || max_bytes <= 0) return;
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (max_bytes >= 1024 && unit < 4) max_bytes /= 1024, ++unit;
  const double scale = std::pow(1024.0, unit);
  svg::BarChart chart;
  chart.title = "File size per engine";
  chart.y_label = fmt::format("size on disk ({})", kUnits[unit]);
  chart.value_unit = kUnits[unit];
  for (const PhaseView* phase : shown) chart.groups.push_back("after " + phase->name);
  std::vector<std::string> engine_of;  // of each series: two per engine
  for (const std::string& engine : engines.order) {
    svg::BarSeries apparent{engine + " apparent", Colour(engines, engine), false, {}};
    svg::BarSeries allocated{engine + " allocated", Colour(engines, engine), true, {}};
    bool any = false;
    for (const PhaseView* phase : shown) {
      const PhaseRun* run = LastRunOf(*phase, engine);
      const Figures f = run ? FiguresOf(*run) : Figures{};
      auto scaled = [&](const auto& s) {
        return s ? std::optional<double>(s->median / scale) : std::nullopt;
      };
      apparent.values.push_back(scaled(f.file_bytes));
      allocated.values.push_back(scaled(f.allocated_bytes));
      any = any || (f.file_bytes && f.file_bytes->median > 0);
    }
    if (!any) continue;
    chart.legend.push_back({engine, apparent.colour, false, false});
    chart.series.push_back(std::move(apparent));
    chart.series.push_back(std::move(allocated));
    engine_of.insert(engine_of.end(), 2, engine);
  }
  chart.legend.push_back({"apparent size: solid", "#777777", false, false});
  chart.legend.push_back({"allocated blocks: pale", "#777777", true, false});
  if (std::string svg = Render(chart, engines, engine_of); !svg.empty()) {
    out->push_back({"file-size",
                    "File size on disk per engine after each phase that changed it: apparent "
                    "size (solid) and allocated blocks (pale). Engines that keep no files are "
                    "left out.",
                    std::move(svg)});
  }
}

void AddColdHotChart(const std::vector<PhaseView>& phases, const ChartEngines& engines,
                     std::vector<ChartFigure>* out) {
  std::vector<Group> groups;
  std::set<std::string> caches;
  for (const PhaseView& phase : phases) {
    std::vector<const PointRuns*> points;
    for (const PointRuns* p : UnthrottledPoints(phase)) {
      if (!p->point.cache.empty()) points.push_back(p);
    }
    VaryingDimensions v = VaryingAmong(points);
    v.cache = true;
    for (const PointRuns* p : points) {
      groups.push_back({phase.name + " · " + ShortPointLabel(p->point, v), p});
      caches.insert(p->point.cache);
    }
  }
  if (!caches.contains("cold") || !caches.contains("hot")) return;
  svg::BarChart chart = BarsOf(groups, engines, Throughput);
  chart.title = "Cold vs hot cache";
  chart.y_label = "throughput (ops/s)";
  chart.value_unit = "ops/s";
  if (std::string svg = Render(chart, engines); !svg.empty()) {
    out->push_back({"cold-hot",
                    "Cold vs hot page cache: throughput of the phases run with the engine's "
                    "files evicted (cold) and cached (hot), side by side (median ops/s).",
                    std::move(svg)});
  }
}

std::string PointCaption(const MatrixPoint& p) {
  const std::string label = PointLabel(p, {true, true, !p.cache.empty(), !p.host.empty()});
  return label.empty() ? "" : " (" + label + ")";
}

void AddLatencyCharts(const PhaseView& phase, const ChartEngines& engines,
                      std::vector<ChartFigure>* out) {
  for (const PointRuns* p : UnthrottledPoints(phase)) {
    svg::BarChart chart;
    // Record phases: the percentiles are of block means, said on the chart.
    const uint64_t block_ops = LatencyBlockOps(phase);
    chart.title = "Latency percentiles of " + phase.name + (block_ops > 0 ? " (block means)" : "");
    chart.groups = {"p50", "p90", "p99", "p99.9"};
    chart.y_label = block_ops > 0 ? "latency of block means (µs)" : "latency (µs)";
    chart.value_unit = "µs";
    for (const std::string& engine : engines.order) {
      const PhaseRun* run = RunOf(*p, engine);
      if (run == nullptr) continue;
      const Figures f = FiguresOf(*run);
      svg::BarSeries series{engine, Colour(engines, engine), false, {}, {}};
      for (const auto* s : {&f.p50_us, &f.p90_us, &f.p99_us, &f.p999_us}) {
        series.values.push_back(MedianOf(*s));
        series.intervals.push_back(*s && (*s)->ci
                                       ? std::optional(std::pair((*s)->ci->low, (*s)->ci->high))
                                       : std::nullopt);
      }
      chart.series.push_back(std::move(series));
    }
    if (std::string svg = Render(chart, engines); !svg.empty()) {
      out->push_back({"latency",
                      "Latency percentiles of phase " + phase.name + PointCaption(p->point) +
                          " per engine (median over repetitions; lower is better)." +
                          (block_ops > 0 ? " " + BlockMeansNote(block_ops) : ""),
                      std::move(svg)});
    }
  }
}

// One chart per value of the other dimensions: `key` says which points share a chart.
template <typename Key>
std::vector<std::vector<const PointRuns*>> SplitBy(const PhaseView& phase, Key key) {
  std::vector<std::vector<const PointRuns*>> charts;
  std::vector<decltype(key(phase.points.front().point))> keys;
  for (const PointRuns& pr : phase.points) {
    const auto k = key(pr.point);
    auto it = std::find(keys.begin(), keys.end(), k);
    if (it == keys.end()) {
      keys.push_back(k);
      charts.emplace_back();
      it = keys.end() - 1;
    }
    charts[static_cast<size_t>(it - keys.begin())].push_back(&pr);
  }
  return charts;
}

void AddLatencyVsThroughputCharts(const PhaseView& phase, const ChartEngines& engines,
                                  std::vector<ChartFigure>* out) {
  if (phase.targets.size() < 2) return;
  // Points of different hosts never share a line: they are not comparable.
  auto charts =
      SplitBy(phase, [](const MatrixPoint& p) { return std::tuple(p.threads, p.cache, p.host); });
  for (auto& points : charts) {
    // Along a line in order of target rate, unthrottled last.
    std::stable_sort(points.begin(), points.end(), [](const PointRuns* a, const PointRuns* b) {
      const double ta = a->point.target_ops > 0 ? a->point.target_ops : INFINITY;
      const double tb = b->point.target_ops > 0 ? b->point.target_ops : INFINITY;
      return ta < tb;
    });
    svg::LineChart chart;
    const bool block_means = LatencyBlockOps(phase) > 0;
    chart.title = "p99 latency vs throughput of " + phase.name + (block_means ? " (block means)" : "");
    chart.x_label = "achieved throughput (ops/s)";
    chart.y_label = block_means ? "p99 of block means (µs)" : "p99 latency (µs)";
    chart.x_unit = "ops/s";
    chart.y_unit = "µs p99";
    for (const std::string& engine : engines.order) {
      svg::LineSeries series{engine, Colour(engines, engine), {}};
      for (const PointRuns* p : points) {
        const PhaseRun* run = RunOf(*p, engine);
        if (run == nullptr) continue;
        const Figures f = FiguresOf(*run);
        if (!f.ops_per_sec || !f.p99_us) continue;
        series.points.push_back({f.ops_per_sec->median, f.p99_us->median,
                                 p->point.target_ops > 0
                                     ? "target " + FormatTarget(p->point.target_ops)
                                     : "unthrottled"});
      }
      if (!series.points.empty()) chart.series.push_back(std::move(series));
    }
    MatrixPoint shared = points.front()->point;
    const std::string where =
        PointLabel(shared, {true, false, !shared.cache.empty(), !shared.host.empty()});
    if (std::string svg = Render(chart, engines); !svg.empty()) {
      out->push_back({"latency-vs-throughput",
                      "p99 latency vs achieved throughput of phase " + phase.name + " (" + where +
                          "), one point per target rate, unthrottled last (medians).",
                      std::move(svg)});
    }
  }
}

void AddThroughputVsThreadsCharts(const PhaseView& phase, const ChartEngines& engines,
                                  std::vector<ChartFigure>* out) {
  if (phase.thread_counts.size() < 2) return;
  const bool has_unthrottled =
      std::find(phase.targets.begin(), phase.targets.end(), 0.0) != phase.targets.end();
  auto charts = SplitBy(
      phase, [](const MatrixPoint& p) { return std::tuple(p.target_ops, p.cache, p.host); });
  std::vector<double> ticks(phase.thread_counts.begin(), phase.thread_counts.end());
  std::sort(ticks.begin(), ticks.end());
  for (auto& points : charts) {
    const MatrixPoint shared = points.front()->point;
    if (has_unthrottled && shared.target_ops > 0) continue;  // throughput = target there
    std::stable_sort(points.begin(), points.end(), [](const PointRuns* a, const PointRuns* b) {
      return a->point.threads < b->point.threads;
    });
    svg::LineChart chart;
    chart.title = "Throughput vs threads of " + phase.name;
    chart.x_label = "threads";
    chart.y_label = "throughput (ops/s)";
    chart.x_unit = "threads";
    chart.y_unit = "ops/s";
    chart.x_ticks = ticks;
    for (const std::string& engine : engines.order) {
      svg::LineSeries series{engine, Colour(engines, engine), {}};
      for (const PointRuns* p : points) {
        const PhaseRun* run = RunOf(*p, engine);
        if (run == nullptr) continue;
        if (std::optional<double> v = MedianOf(Throughput(*run))) {
          series.points.push_back({static_cast<double>(p->point.threads), *v, ""});
        }
      }
      if (!series.points.empty()) chart.series.push_back(std::move(series));
    }
    const std::string where =
        PointLabel(shared, {false, true, !shared.cache.empty(), !shared.host.empty()});
    if (std::string svg = Render(chart, engines); !svg.empty()) {
      out->push_back(
          {"throughput-vs-threads",
           "Throughput vs threads of phase " + phase.name + " (" + where + "), median ops/s.",
           std::move(svg)});
    }
  }
}

// The repetition whose throughput is the median of the run's (the lower
// one of an even count), among those with a time series.
const results::Repetition* MedianRepetitionWithSeries(const PhaseRun& run) {
  std::vector<const results::Repetition*> reps;
  for (const results::Repetition& r : run.repetitions) {
    if (r.time_series && r.time_series->intervals() > 0 && !r.ops.empty()) reps.push_back(&r);
  }
  if (reps.empty()) return nullptr;
  std::sort(reps.begin(), reps.end(), [](const auto* a, const auto* b) {
    return a->ops.front().ops_per_sec < b->ops.front().ops_per_sec;
  });
  return reps[(reps.size() - 1) / 2];
}

// Throughput and p99 of all operations against time, one line per engine,
// so a stall (compaction, checkpoint) shows where it happened.
void AddTimeSeriesCharts(const PhaseView& phase, const ChartEngines& engines,
                         std::vector<ChartFigure>* out) {
  // Every point of a small matrix; the unthrottled ones of a large one.
  std::vector<const PointRuns*> points;
  for (const PointRuns& pr : phase.points) points.push_back(&pr);
  if (points.size() > 4) points = UnthrottledPoints(phase);
  for (const PointRuns* p : points) {
    svg::LineChart rate, p99;
    for (svg::LineChart* chart : {&rate, &p99}) {
      chart->x_label = "time since the phase started (s)";
      chart->x_unit = "s";
      chart->x_log_allowed = false;
    }
    rate.title = "Throughput over time of " + phase.name;
    rate.y_label = "throughput (ops/s)";
    rate.y_unit = "ops/s";
    p99.title = "p99 latency over time of " + phase.name;
    p99.y_label = "p99 latency (µs)";
    p99.y_unit = "µs p99";
    size_t longest = 0;
    for (const std::string& engine : engines.order) {
      const PhaseRun* run = RunOf(*p, engine);
      const results::Repetition* rep = run ? MedianRepetitionWithSeries(*run) : nullptr;
      if (rep == nullptr) continue;
      const results::TimeSeries& ts = *rep->time_series;
      const results::OpTimeSeries& all = ts.ops.front();
      svg::LineSeries r{engine, Colour(engines, engine), {}};
      svg::LineSeries l{engine, Colour(engines, engine), {}};
      for (size_t i = 0; i < all.count.size(); ++i) {
        // At the interval's middle; the last interval may be shorter: it
        // ends with the wall span (rep->seconds, the wall span since
        // schema 5 and as read from every older file).
        const double begin = static_cast<double>(i) * ts.interval_s;
        const double end = i + 1 == all.count.size() ? rep->seconds : begin + ts.interval_s;
        const double x = (begin + std::max(begin, end)) / 2;
        r.points.push_back({x, all.ops_per_sec[i], ""});
        if (all.count[i] > 0) {
          l.points.push_back({x, static_cast<double>(all.p99_ns[i]) / 1000, ""});
        }
      }
      longest = std::max(longest, r.points.size());
      rate.series.push_back(std::move(r));
      p99.series.push_back(std::move(l));
    }
    rate.point_dots = p99.point_dots = longest <= 60;
    const std::string where = PointCaption(p->point);
    if (std::string svg = Render(rate, engines); !svg.empty()) {
      out->push_back({"throughput-over-time",
                      "Throughput over time of phase " + phase.name + where +
                          ", per interval of the median repetition (a dip is a stall).",
                      std::move(svg)});
    }
    if (std::string svg = Render(p99, engines); !svg.empty()) {
      out->push_back({"p99-over-time",
                      "p99 latency over time of phase " + phase.name + where +
                          ", per interval of the median repetition (a spike is a stall).",
                      std::move(svg)});
    }
  }
}

}  // namespace

std::string_view EngineFamily(std::string_view engine) {
  static const std::map<std::string_view, std::string_view> kFamilyOf = {
      {"sqlite", "B-trees"},          {"bdb-btree", "B-trees"},   {"tc-btree", "B-trees"},
      {"kc-tree", "B-trees"},         {"lmdb", "B-trees"},        {"pbtree", "B-trees"},
      {"tkrzw-tree", "B-trees"},      {"wiredtiger-btree", "B-trees"},
      {"leveldb", "LSM trees"},       {"rocksdb", "LSM trees"},   {"wiredtiger-lsm", "LSM trees"},
      {"bdb-hash", "hash tables"},    {"tc-hash", "hash tables"}, {"kc-hash", "hash tables"},
      {"tkrzw-hash", "hash tables"},  {"gdbm", "hash tables"},
      {"stdmap", "in memory"},        {"native", "in memory"},    {"whitedb", "in memory"},
      {"redis", "servers"},
      // tkrzw-skip (a sorted file rewritten at commit) and null (no engine) are
      // none of these: "other", like every plugin.
  };
  const auto it = kFamilyOf.find(engine.substr(0, engine.find('@')));
  return it == kFamilyOf.end() ? std::string_view("other") : it->second;
}

ChartEngines ChartEnginesOf(const results::RunResults& results) {
  ChartEngines e;
  e.order = EngineOrder(results);
  for (const std::string& name : e.order) e.families.emplace_back(EngineFamily(name));
  return e;
}

namespace {

// Split charts say so in their caption.
std::vector<ChartFigure> NoteSplits(std::vector<ChartFigure> figures) {
  for (ChartFigure& f : figures) {
    if (f.svg.starts_with("<svg class=\"panel\"")) {
      f.caption += fmt::format(
          " More than {} engines: one panel per engine family, all on one scale; each engine "
          "keeps its colour.",
          kMaxEnginesPerChart);
    }
  }
  return figures;
}

}  // namespace

std::vector<ChartFigure> RunCharts(const std::vector<PhaseView>& phases,
                                   const ChartEngines& engines) {
  std::vector<ChartFigure> out;
  AddThroughputCharts(phases, engines, &out);
  AddFileSizeChart(phases, engines, &out);
  AddColdHotChart(phases, engines, &out);
  return NoteSplits(std::move(out));
}

std::vector<ChartFigure> PhaseCharts(const PhaseView& phase, const ChartEngines& engines) {
  std::vector<ChartFigure> out;
  AddLatencyCharts(phase, engines, &out);
  AddLatencyVsThroughputCharts(phase, engines, &out);
  AddThroughputVsThreadsCharts(phase, engines, &out);
  AddTimeSeriesCharts(phase, engines, &out);
  return NoteSplits(std::move(out));
}

}  // namespace kvbench::reports
