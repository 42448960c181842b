#include "reports/trend_page.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "reports/history_text.h"
#include "reports/html_page.h"
#include "reports/svg_chart.h"
#include "reports/text_format.h"

namespace kvbench::reports {

namespace {

constexpr const char* kWorse = "#cf222e";
constexpr const char* kBetter = "#1a7f37";
constexpr const char* kTimeBase = "#0969da";

// Extra rules of this page: worse and better changes and time-base changes in their
// colours.
constexpr const char* kTrendCss = R"css(li.worse{color:#cf222e}li.better{color:#1a7f37}
li.time-base{color:#0969da}
ul.changes{font-size:14px;margin:4px 0 10px}
)css";

// Values in the unit the chart shows: latencies in µs, the rest as stored.
double Shown(const std::string& figure, double v) {
  const results::FigureKind* kind = results::FindFigureKind(figure);
  return kind != nullptr && std::string(kind->unit) == "ns" ? v / 1000 : v;
}

std::string AxisLabel(const std::string& figure) {
  const results::FigureKind* kind = results::FindFigureKind(figure);
  if (kind == nullptr) return figure;
  const std::string unit = kind->unit;
  return std::string(kind->label) + " (" + (unit == "ns" ? "µs" : unit) + ")";
}

std::string ChangeSentence(const results::Series& s, const results::SeriesChange& c) {
  const results::FigurePoint& before = s.points[c.point.index - 1];
  const results::FigurePoint& after = s.points[c.point.index];
  std::string text =
      fmt::format("{} {} ({} -> {}, ratio {}) between run {} ({}) and run {} ({}); p = {:.3f}",
                  c.worse ? "Worse:" : "Better:", FormatChange(c.ratio),
                  FormatFigure(s.key.figure, c.before_mean),
                  FormatFigure(s.key.figure, c.after_mean), FormatRatio(c.ratio), c.point.index,
                  PointRun(before), c.point.index + 1, PointRun(after), c.point.p_value);
  if (const std::string context = ChangeContext(s, c); !context.empty()) {
    text += "; also changed: " + context;
  }
  return text;
}

std::string SeriesChart(const results::Series& s, size_t index) {
  svg::LineChart chart;
  chart.title = SeriesLabel(s.key) + ": " + AxisLabel(s.key.figure);
  chart.x_label = "run (oldest first)";
  chart.y_label = AxisLabel(s.key.figure);
  chart.x_log_allowed = false;
  chart.y_log_allowed = false;
  chart.y_from_zero = false;
  // Runs are numbered 1..n: whole-number ticks, at most about ten of them.
  const size_t runs = s.points.size();
  const size_t step = std::max<size_t>(1, (runs + 9) / 10);
  for (size_t run = 1; run <= runs; run += step) chart.x_ticks.push_back(static_cast<double>(run));
  svg::LineSeries line;
  line.name = SeriesLabel(s.key);
  line.colour = svg::PaletteColour(index);
  for (size_t i = 0; i < s.points.size(); ++i) {
    const results::FigurePoint& p = s.points[i];
    svg::LinePoint point;
    point.x = static_cast<double>(i + 1);
    point.y = Shown(s.key.figure, p.median);
    point.note =
        "run " + std::to_string(i + 1) + ", " + PointRun(p) + ", n = " + std::to_string(p.n);
    if (p.ci) {
      point.interval = std::pair{Shown(s.key.figure, p.ci->low), Shown(s.key.figure, p.ci->high)};
      point.note += fmt::format(", interval {} to {}", FormatFigure(s.key.figure, p.ci->low),
                                FormatFigure(s.key.figure, p.ci->high));
    }
    line.points.push_back(std::move(point));
  }
  chart.series.push_back(std::move(line));
  // Each stretch between change points and time-base changes gets its level.
  std::vector<size_t> cuts;
  for (const results::SeriesChange& c : s.changes) cuts.push_back(c.point.index);
  for (const results::TimeBaseChange& t : s.time_base_changes) cuts.push_back(t.index);
  std::sort(cuts.begin(), cuts.end());
  cuts.push_back(s.points.size());
  size_t begin = 0;
  for (const size_t end : cuts) {
    if (cuts.size() == 1 || end <= begin) continue;
    double sum = 0;
    for (size_t i = begin; i < end; ++i) sum += s.points[i].median;
    const double mean = sum / static_cast<double>(end - begin);
    chart.levels.push_back({static_cast<double>(begin + 1), static_cast<double>(end),
                            Shown(s.key.figure, mean),
                            "level of runs " + std::to_string(begin + 1) + " to " +
                                std::to_string(end) + ": " + FormatFigure(s.key.figure, mean)});
    begin = end;
  }
  for (const results::SeriesChange& change : s.changes) {
    chart.markers.push_back({static_cast<double>(change.point.index) + 0.5,
                             FormatChange(change.ratio), change.worse ? kWorse : kBetter,
                             ChangeSentence(s, change)});
  }
  for (const results::TimeBaseChange& t : s.time_base_changes) {
    chart.markers.push_back(
        {static_cast<double>(t.index) + 0.5, "time base", kTimeBase, TimeBaseChangeSentence(s, t)});
  }
  return svg::RenderLineChart(chart);
}

Table ChangesTable(const std::vector<results::Series>& series) {
  Table t;
  t.header = {"series", "place", "before: run", "after: run", "before",
              "after",  "ratio", "change",      "p",          "also changed"};
  t.numeric = {false, false, false, false, true, true, true, true, true, false};
  for (size_t i = 0; i < series.size(); ++i) {
    const results::Series& s = series[i];
    for (const results::SeriesChange& c : s.changes) {
      t.rows.push_back({{SeriesLabel(s.key) + " (#" + std::to_string(i + 1) + ")"},
                        {SeriesPlace(s.key)},
                        {PointRun(s.points[c.point.index - 1])},
                        {PointRun(s.points[c.point.index])},
                        {FormatFigure(s.key.figure, c.before_mean)},
                        {FormatFigure(s.key.figure, c.after_mean)},
                        {FormatRatio(c.ratio)},
                        {(c.worse ? "worse " : "better ") + FormatChange(c.ratio)},
                        {fmt::format("{:.3f}", c.point.p_value)},
                        {ChangeContext(s, c)}});
    }
  }
  return t;
}

// The page's section of change points (a table) and time-base changes (a list).
std::string ChangesSection(const std::vector<results::Series>& series, size_t time_base_count) {
  std::string h;
  h += "<section id=\"changes\">\n<h2>Change points</h2>\n";
  const Table changes = ChangesTable(series);
  h += changes.rows.empty() ? "<p>No significant change in any series.</p>\n" : TableHtml(changes);
  if (time_base_count > 0) {
    h += "<h3>Time-base changes</h3>\n<ul class=\"changes\">\n";
    for (size_t i = 0; i < series.size(); ++i) {
      for (const results::TimeBaseChange& t : series[i].time_base_changes) {
        h += "<li class=\"time-base\">" +
             HtmlEscape(SeriesLabel(series[i].key) + " (#" + std::to_string(i + 1) +
                        "): " + TimeBaseChangeSentence(series[i], t)) +
             "</li>\n";
      }
    }
    h += "</ul>\n";
  }
  h += "</section>\n";
  return h;
}

// Series number i+1: its place, its chart, and its changes in run order.
std::string SeriesSection(const results::Series& s, size_t i) {
  std::string h;
  h += fmt::format("<section class=\"series\" id=\"series-{}\">\n<h3>{}. {}</h3>\n", i + 1, i + 1,
                   HtmlEscape(SeriesLabel(s.key)));
  h += "<p class=\"params\">" +
       HtmlEscape(SeriesPlace(s.key) + "; " + std::to_string(s.points.size()) + " runs") +
       "</p>\n";
  if (!s.split_note.empty()) {
    h += "<p class=\"warning\">" + HtmlEscape(s.split_note) + "</p>\n";
  }
  const std::string svg = SeriesChart(s, i);
  if (!svg.empty()) {
    h += fmt::format(
        "<figure class=\"chart chart-trend\" id=\"chart-trend-{}\">\n{}\n<figcaption>{}"
        "</figcaption>\n</figure>\n",
        i + 1, svg,
        HtmlEscape(AxisLabel(s.key.figure) + " of " + SeriesLabel(s.key) + " per run"));
  }
  if (!s.changes.empty() || !s.time_base_changes.empty()) {
    // Change points and time-base changes in run order.
    std::vector<std::pair<size_t, std::string>> items;
    for (const results::SeriesChange& c : s.changes) {
      items.emplace_back(c.point.index,
                         fmt::format("<li class=\"{}\">{}</li>\n", c.worse ? "worse" : "better",
                                     HtmlEscape(ChangeSentence(s, c))));
    }
    for (const results::TimeBaseChange& t : s.time_base_changes) {
      items.emplace_back(t.index, "<li class=\"time-base\">" +
                                      HtmlEscape(TimeBaseChangeSentence(s, t)) + "</li>\n");
    }
    std::stable_sort(items.begin(), items.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    h += "<ul class=\"changes\">\n";
    for (const auto& item : items) h += item.second;
    h += "</ul>\n";
  }
  h += "</section>\n";
  return h;
}

}  // namespace

std::string RenderTrendPage(const TrendPageInput& in) {
  std::set<std::string> runs, figures;
  size_t change_count = 0, split = 0, time_base_count = 0;
  for (const results::Series& s : in.series) {
    for (const results::FigurePoint& p : s.points) runs.insert(p.run_id);
    figures.insert(s.key.figure);
    change_count += s.changes.size();
    split += !s.split_note.empty();
    time_base_count += s.time_base_changes.size();
  }
  std::string title = "kvbench history: trend";
  if (figures.size() == 1) {
    const results::FigureKind* kind = results::FindFigureKind(*figures.begin());
    title += " of " + std::string(kind != nullptr ? kind->label : figures.begin()->c_str());
  }
  std::string h = HtmlPageStart(title, kTrendCss);
  h += "<p>" +
       HtmlEscape(fmt::format("{} series from {} runs in {}{}. {} change point{} found{}.",
                              in.series.size(), runs.size(), in.store,
                              in.filters.empty() ? "" : " (" + in.filters + ")", change_count,
                              change_count == 1 ? "" : "s",
                              split > 0 ? fmt::format("; {} series split by host or workload "
                                                      "version (each says why)",
                                                      split)
                                        : "")) +
       (time_base_count > 0
            ? HtmlEscape(fmt::format(" {} time-base change{} (each says why; no change point is "
                                     "looked for across one).",
                                     time_base_count, time_base_count == 1 ? "" : "s"))
            : "") +
       "</p>\n";
  h += "<p class=\"note\">" +
       HtmlEscape(fmt::format(
           "Each point is one run's median over its repetitions, with the confidence interval "
           "of the median as a bar; runs are in the order they started. A series holds only "
           "runs of one workload file on one host. Change points (dashed lines, red where the "
           "figure got worse, green where it got better) come from E-divisive with means "
           "(energy statistic, alpha = 1) over each series' medians with a permutation test: "
           "{} permutations, a change kept at p <= {}, at least {} runs on each side. Dotted "
           "lines are each segment's mean level. Blue lines labelled \"time base\" mark where a "
           "series' figures change what time they divide by (results schema 4 divided "
           "throughput by the time inside the engine's calls, every other schema by the wall "
           "span): change points are looked for on each side apart, never across one.",
           in.options.permutations, in.options.max_p_value, in.options.min_segment)) +
       "</p>\n";
  h += ChangesSection(in.series, time_base_count);
  h += "<section id=\"series\">\n<h2>Series</h2>\n";
  if (in.series.empty()) h += "<p>The store holds no figures that match.</p>\n";
  for (size_t i = 0; i < in.series.size(); ++i) h += SeriesSection(in.series[i], i);
  h += "</section>\n<footer>Made by kvbench history trend from " + HtmlEscape(in.store) +
       ".</footer>\n</body>\n</html>\n";
  return h;
}

}  // namespace kvbench::reports
