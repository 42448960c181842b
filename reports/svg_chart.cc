#include "reports/svg_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "reports/text_format.h"

namespace kvbench::reports::svg {

namespace {

constexpr double kWidth = 880;
constexpr double kPlotLeft = 78;
constexpr double kPlotRight = kWidth - 18;
constexpr double kPlotHeight = 270;
// A panel of small multiples is shorter: several stack in one figure.
constexpr double kPanelPlotHeight = 170;
constexpr double kPanelLabelHeight = 20;  // the panel's heading above its legend
constexpr double kCharWidth = 6.8;  // average width of a 12px sans-serif character
constexpr double kLogRatio = 100;   // values spanning this factor get a log axis

// Width of `text` in pixels, counting UTF-8 code points.
double TextWidth(const std::string& text) {
  size_t n = 0;
  for (unsigned char c : text) n += (c & 0xC0) != 0x80;
  return static_cast<double>(n) * kCharWidth;
}

std::string Num(double v) { return fmt::format("{:.1f}", v); }

double NiceStep(double raw) {
  const double magnitude = std::pow(10, std::floor(std::log10(raw)));
  const double f = raw / magnitude;
  const double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
  return nice * magnitude;
}

std::string TrimZeros(std::string s) {
  if (s.find('.') == std::string::npos) return s;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

struct Legend {
  std::string svg;
  double height = 0;
};

// The legend's rows start at `y0` (below a panel's heading).
Legend DrawLegend(const std::vector<LegendEntry>& entries, double y0 = 0) {
  Legend legend;
  double x = kPlotLeft, y = y0 + 14;
  for (const LegendEntry& e : entries) {
    const double w = 18 + TextWidth(e.label) + 20;
    if (x + w > kPlotRight && x > kPlotLeft) {
      x = kPlotLeft;
      y += 20;
    }
    const std::string colour = HtmlEscape(e.colour);
    if (e.line) {
      legend.svg += fmt::format(
          "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2.5\"/>"
          "<circle cx=\"{}\" cy=\"{}\" r=\"3.5\" fill=\"{}\"/>",
          Num(x), Num(y), Num(x + 14), Num(y), colour, Num(x + 7), Num(y), colour);
    } else {
      legend.svg += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"{}/>", Num(x), Num(y - 6),
          colour,
          e.light ? fmt::format(" fill-opacity=\"0.35\" stroke=\"{}\"", colour) : std::string());
    }
    legend.svg += fmt::format("<text x=\"{}\" y=\"{}\" dy=\"0.35em\">{}</text>", Num(x + 18),
                              Num(y), HtmlEscape(e.label));
    x += w;
  }
  legend.height = entries.empty() ? y0 : y + 12;
  return legend;
}

// "p99 latency (µs)" on a log axis: "p99 latency (µs, log scale)".
std::string AxisTitle(const std::string& label, bool log) {
  if (!log) return HtmlEscape(label);
  if (label.ends_with(")")) {
    return HtmlEscape(label.substr(0, label.size() - 1) + ", log scale)");
  }
  return HtmlEscape(label + " (log scale)");
}

// Horizontal grid lines, y tick labels and the y axis title.
std::string DrawYAxis(const Axis& axis, double top, double plot_height, const std::string& label) {
  std::string s;
  const double bottom = top + plot_height;
  for (double t : axis.ticks) {
    const double y = bottom - axis.Fraction(t) * plot_height;
    s += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#e2e2e2\"/>",
                     Num(kPlotLeft), Num(y), Num(kPlotRight), Num(y));
    s += fmt::format("<text x=\"{}\" y=\"{}\" dy=\"0.35em\" text-anchor=\"end\">{}</text>",
                     Num(kPlotLeft - 6), Num(y), TickLabel(t));
  }
  s += fmt::format(
      "<text transform=\"translate(16,{}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
      Num(top + plot_height / 2), AxisTitle(label, axis.log));
  s += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#555\"/>",
                   Num(kPlotLeft), Num(top), Num(bottom));
  s += fmt::format("<line x1=\"{0}\" y1=\"{2}\" x2=\"{1}\" y2=\"{2}\" stroke=\"#555\"/>",
                   Num(kPlotLeft), Num(kPlotRight), Num(bottom));
  return s;
}

// A panel's <svg> has class "panel", its heading in the title and drawn at its top.
std::string SvgOpen(double height, const std::string& title, const std::string& panel = "") {
  std::string s = fmt::format(
      "<svg{3} xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" "
      "height=\"{1}\" role=\"img\" font-family=\"Helvetica, Arial, sans-serif\" "
      "font-size=\"12\" fill=\"#222\"><title>{2}</title>",
      Num(kWidth), Num(height), HtmlEscape(panel.empty() ? title : title + ": " + panel),
      panel.empty() ? "" : " class=\"panel\"");
  if (!panel.empty()) {
    s += fmt::format(
        "<text class=\"panel-label\" x=\"{}\" y=\"14\" font-size=\"13\" "
        "font-weight=\"bold\">{}</text>",
        Num(kPlotLeft), HtmlEscape(panel));
  }
  return s;
}

std::string ValueText(double v, const std::string& unit) {
  const bool whole = v == std::floor(v);  // thread counts, sizes in bytes
  return (std::fabs(v) >= 100 || whole ? FormatCount(v) : FormatSignificant(v, 3)) +
         (unit.empty() ? "" : " " + unit);
}

}  // namespace

const std::string& PaletteColour(size_t index) {
  static const std::string kPalette[kPaletteSize] = {
      "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
      "#ff9da7", "#9c755f", "#bab0ac", "#5610c2", "#f01cbb", "#66e10c", "#bb83fe",
      "#0a5136", "#7c1876", "#154dae", "#726d08", "#07e478", "#d60d03", "#7e273e",
      "#cc156d", "#824005", "#fb80d2", "#f5bb81", "#a8d64d", "#bec2fb", "#46deb5"};
  return kPalette[index % kPaletteSize];
}

double Axis::Fraction(double v) const {
  if (log) {
    if (v <= 0) return 0;
    return (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo));
  }
  return (v - lo) / (hi - lo);
}

Axis FitAxis(const std::vector<double>& values, bool from_zero, bool allow_log) {
  double min = INFINITY, max = -INFINITY, min_positive = INFINITY;
  for (double v : values) {
    if (!std::isfinite(v)) continue;
    min = std::min(min, v);
    max = std::max(max, v);
    if (v > 0) min_positive = std::min(min_positive, v);
  }
  Axis a;
  if (!std::isfinite(min)) return Axis{false, 0, 1, {0, 1}};
  if (allow_log && std::isfinite(min_positive) && max / min_positive >= kLogRatio) {
    a.log = true;
    a.lo = std::pow(10, std::floor(std::log10(min_positive)));
    a.hi = std::pow(10, std::ceil(std::log10(max)));
    if (a.hi <= a.lo) a.hi = a.lo * 10;
    const bool few_decades = std::log10(a.hi / a.lo) <= 2.5;
    for (double decade = a.lo; decade <= a.hi * 1.0001; decade *= 10) {
      a.ticks.push_back(decade);
      if (few_decades && decade * 10 <= a.hi * 1.0001) {
        a.ticks.push_back(decade * 2);
        a.ticks.push_back(decade * 5);
      }
    }
    return a;
  }
  double lo = from_zero ? std::min(0.0, min) : min;
  double hi = std::max(max, from_zero ? 0.0 : max);
  if (hi <= lo) hi = lo + (lo == 0 ? 1 : std::fabs(lo));
  const double step = NiceStep((hi - lo) / 5);
  a.lo = std::floor(lo / step + 1e-9) * step;
  a.hi = std::ceil(hi / step - 1e-9) * step;
  for (int i = 0; a.lo + i * step <= a.hi + step * 1e-6; ++i) a.ticks.push_back(a.lo + i * step);
  return a;
}

std::string TickLabel(double v) {
  const double a = std::fabs(v);
  if (a == 0) return "0";
  if (a >= 1e9) return TrimZeros(FormatSignificant(v / 1e9, 3)) + "G";
  if (a >= 1e6) return TrimZeros(FormatSignificant(v / 1e6, 3)) + "M";
  if (a >= 1e3) return TrimZeros(FormatSignificant(v / 1e3, 3)) + "k";
  return TrimZeros(FormatSignificant(v, 3));
}

namespace {

// How one <svg> of a chart is framed: a whole chart, or one panel of small
// multiples (shorter, with a heading, its bar width shared with the others).
struct Frame {
  double plot_height = kPlotHeight;
  std::string panel;  // the heading; empty: a whole chart
  size_t slots = 0;   // bars per group the group's width is divided among; 0: the series'
};

std::vector<double> BarValues(const BarChart& chart) {
  std::vector<double> values;
  for (const BarSeries& s : chart.series) {
    for (const auto& v : s.values) {
      if (v && *v > 0) values.push_back(*v);
    }
    for (const auto& ci : s.intervals) {
      if (ci && ci->second > 0) values.push_back(ci->second);
    }
  }
  return values;
}

std::string DrawBars(const BarChart& chart, const Axis& axis, const Frame& frame) {
  std::vector<LegendEntry> entries = chart.legend;
  if (entries.empty()) {
    for (const BarSeries& s : chart.series) entries.push_back({s.name, s.colour, s.light, false});
  }
  const double plot_height = frame.plot_height;
  const Legend legend = DrawLegend(entries, frame.panel.empty() ? 0 : kPanelLabelHeight);
  const double top = legend.height + 14;
  const double bottom = top + plot_height;
  const double group_width = (kPlotRight - kPlotLeft) / static_cast<double>(chart.groups.size());
  double longest = 0;
  for (const auto& g : chart.groups) longest = std::max(longest, TextWidth(g));
  const bool rotate = longest > group_width - 8;
  const double label_room = rotate ? std::min(longest, 190.0) * 0.72 + 24 : 26;
  const double height = bottom + label_room + 6;

  std::string s = SvgOpen(height, chart.title, frame.panel) + legend.svg +
                  DrawYAxis(axis, top, plot_height, chart.y_label);
  const size_t n = std::max<size_t>({1, chart.series.size(), frame.slots});
  const double bar_slot = std::min(group_width * 0.8 / static_cast<double>(n), 56.0);
  for (size_t g = 0; g < chart.groups.size(); ++g) {
    const double gx = kPlotLeft + group_width * static_cast<double>(g);
    const double first =
        gx + (group_width - bar_slot * static_cast<double>(chart.series.size())) / 2;
    for (size_t i = 0; i < chart.series.size(); ++i) {
      const BarSeries& series = chart.series[i];
      if (g >= series.values.size() || !series.values[g] || *series.values[g] <= 0) continue;
      const double v = *series.values[g];
      const double h = std::max(1.0, std::clamp(axis.Fraction(v), 0.0, 1.0) * plot_height);
      const std::string colour = HtmlEscape(series.colour);
      s += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"{}><title>{} · {}: "
          "{}</title></rect>",
          Num(first + bar_slot * static_cast<double>(i) + bar_slot * 0.06), Num(bottom - h),
          Num(std::max(1.0, bar_slot * 0.88)), Num(h), colour,
          series.light ? fmt::format(" fill-opacity=\"0.35\" stroke=\"{}\"", colour)
                       : std::string(),
          HtmlEscape(series.name), HtmlEscape(chart.groups[g]),
          HtmlEscape(ValueText(v, chart.value_unit)));
      if (g < series.intervals.size() && series.intervals[g]) {
        // The interval as an error bar: a vertical line with short caps.
        const auto [lo, hi] = *series.intervals[g];
        const double y_lo =
            bottom - std::clamp(axis.Fraction(std::max(lo, axis.lo)), 0.0, 1.0) * plot_height;
        const double y_hi = bottom - std::clamp(axis.Fraction(hi), 0.0, 1.0) * plot_height;
        const double x = first + bar_slot * static_cast<double>(i) + bar_slot * 0.5;
        const double cap = std::max(2.0, bar_slot * 0.2);
        s += fmt::format(
            "<path class=\"ci\" d=\"M{} {}V{}M{} {}H{}M{} {}H{}\" stroke=\"#24292f\" "
            "stroke-width=\"1.2\" fill=\"none\"><title>{} · {}: interval {} to {}</title></path>",
            Num(x), Num(y_lo), Num(y_hi), Num(x - cap), Num(y_lo), Num(x + cap), Num(x - cap),
            Num(y_hi), Num(x + cap), HtmlEscape(series.name), HtmlEscape(chart.groups[g]),
            HtmlEscape(ValueText(lo, chart.value_unit)), HtmlEscape(ValueText(hi, chart.value_unit)));
      }
    }
    const double cx = gx + group_width / 2;
    std::string label = chart.groups[g];
    if (rotate && TextWidth(label) > 190) label = label.substr(0, 26) + "…";
    if (rotate) {
      s += fmt::format(
          "<text transform=\"translate({},{}) rotate(-40)\" text-anchor=\"end\">{}</text>", Num(cx),
          Num(bottom + 14), HtmlEscape(label));
    } else {
      s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", Num(cx),
                       Num(bottom + 18), HtmlEscape(label));
    }
  }
  return s + "</svg>";
}

struct LineAxes {
  Axis x, y;
};

// std::nullopt when there is no point.
std::optional<LineAxes> FitLineAxes(const LineChart& chart) {
  std::vector<double> xs, ys;
  for (const LineSeries& s : chart.series) {
    for (const LinePoint& p : s.points) {
      xs.push_back(p.x);
      ys.push_back(p.y);
      if (p.interval) {
        ys.push_back(p.interval->first);
        ys.push_back(p.interval->second);
      }
    }
  }
  if (xs.empty()) return std::nullopt;
  LineAxes axes;
  if (!chart.x_ticks.empty()) {
    const auto [lo, hi] = std::minmax_element(chart.x_ticks.begin(), chart.x_ticks.end());
    axes.x.log = *lo > 0 && *hi / *lo >= 8;
    axes.x.lo = *lo;
    axes.x.hi = *hi > *lo ? *hi : *lo + 1;
    axes.x.ticks = chart.x_ticks;
  } else {
    axes.x = FitAxis(xs, /*from_zero=*/true, chart.x_log_allowed);
  }
  axes.y = FitAxis(ys, chart.y_from_zero, chart.y_log_allowed);
  return axes;
}

// "sqlite: 1,200 to 4,800 ops/s": a line's tooltip names its series and the
// range of its values (its points, when drawn, each value).
std::string LineTitle(const LineSeries& series, const std::string& unit) {
  double lo = INFINITY, hi = -INFINITY;
  for (const LinePoint& p : series.points) {
    lo = std::min(lo, p.y);
    hi = std::max(hi, p.y);
  }
  if (!std::isfinite(lo)) return series.name;
  if (lo == hi) return series.name + ": " + ValueText(lo, unit);
  return series.name + ": " + ValueText(lo, "") + " to " + ValueText(hi, unit);
}

std::string DrawLines(const LineChart& chart, const std::vector<LegendEntry>& legend_entries,
                      const LineAxes& axes, const Frame& frame) {
  const Axis& x_axis = axes.x;
  const Axis& y_axis = axes.y;
  const double plot_height = frame.plot_height;
  const Legend legend = DrawLegend(legend_entries, frame.panel.empty() ? 0 : kPanelLabelHeight);
  const double top = legend.height + 14;
  const double bottom = top + plot_height;
  const double height = bottom + 52;
  // Points sit inside the frame, not on it.
  const double inset = 14;
  auto px = [&](double x) {
    return kPlotLeft + inset +
           std::clamp(x_axis.Fraction(x), 0.0, 1.0) * (kPlotRight - kPlotLeft - 2 * inset);
  };
  auto py = [&](double y) {
    return bottom - std::clamp(y_axis.Fraction(y), 0.0, 1.0) * plot_height;
  };

  std::string s = SvgOpen(height, chart.title, frame.panel) + legend.svg +
                  DrawYAxis(y_axis, top, plot_height, chart.y_label);
  for (double t : x_axis.ticks) {
    s += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#555\"/>",
                     Num(px(t)), Num(bottom), Num(bottom + 4));
    s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", Num(px(t)),
                     Num(bottom + 18), TickLabel(t));
  }
  s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                   Num((kPlotLeft + kPlotRight) / 2), Num(bottom + 42),
                   AxisTitle(chart.x_label, x_axis.log));
  for (const LineMarker& m : chart.markers) {
    s += fmt::format(
        "<g class=\"marker\"><line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{3}\" "
        "stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/><text x=\"{4}\" y=\"{5}\" fill=\"{3}\">"
        "{6}</text><title>{7}</title></g>",
        Num(px(m.x)), Num(top), Num(bottom), HtmlEscape(m.colour), Num(px(m.x) + 3), Num(top + 11),
        HtmlEscape(m.label), HtmlEscape(m.note));
  }
  for (const LineLevel& l : chart.levels) {
    s += fmt::format(
        "<line class=\"level\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#57606a\" "
        "stroke-width=\"1.5\" stroke-dasharray=\"2 2\"><title>{}</title></line>",
        Num(px(l.x_from)), Num(py(l.y)), Num(px(l.x_to)), Num(py(l.y)), HtmlEscape(l.note));
  }
  for (const LineSeries& series : chart.series) {
    const std::string colour = HtmlEscape(series.colour);
    // Hundreds of runs: smaller points, so the line stays readable.
    const char* radius = series.points.size() > 150 ? "2.5" : "4";
    std::string points;
    for (const LinePoint& p : series.points) {
      if (y_axis.log && p.y <= 0) continue;
      if (!points.empty()) points += ' ';
      points.append(Num(px(p.x))).append(",").append(Num(py(p.y)));
    }
    s += fmt::format(
        "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"><title>{}</title>"
        "</polyline>",
        points, colour, HtmlEscape(LineTitle(series, chart.y_unit)));
    for (const LinePoint& p : series.points) {
      if (!chart.point_dots) break;
      if (y_axis.log && p.y <= 0) continue;
      if (p.interval) {
        s += fmt::format(
            "<line class=\"ci\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{3}\" "
            "stroke-opacity=\"0.45\" stroke-width=\"1.5\"/>",
            Num(px(p.x)), Num(py(std::max(p.interval->first, y_axis.log ? y_axis.lo : -INFINITY))),
            Num(py(p.interval->second)), colour);
      }
      s += fmt::format(
          "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" stroke=\"#fff\"><title>{}: {}, {}{}"
          "</title></circle>",
          Num(px(p.x)), Num(py(p.y)), radius, colour, HtmlEscape(series.name),
          HtmlEscape(ValueText(p.x, chart.x_unit)), HtmlEscape(ValueText(p.y, chart.y_unit)),
          p.note.empty() ? "" : " (" + HtmlEscape(p.note) + ")");
    }
  }
  return s + "</svg>";
}

std::vector<LegendEntry> LineLegend(const std::vector<LineSeries>& series) {
  std::vector<LegendEntry> entries;
  for (const LineSeries& s : series) entries.push_back({s.name, s.colour, false, true});
  return entries;
}

}  // namespace

std::string RenderBarChart(const BarChart& chart) {
  const std::vector<double> values = BarValues(chart);
  if (values.empty() || chart.groups.empty()) return "";
  return DrawBars(chart, FitAxis(values, /*from_zero=*/true, /*allow_log=*/true), Frame{});
}

std::string RenderLineChart(const LineChart& chart) {
  const std::optional<LineAxes> axes = FitLineAxes(chart);
  if (!axes) return "";
  return DrawLines(chart, LineLegend(chart.series), *axes, Frame{});
}

std::string RenderBarPanels(const BarChart& chart, const std::vector<Panel>& panels) {
  const std::vector<double> values = BarValues(chart);
  if (values.empty() || chart.groups.empty()) return "";
  const Axis axis = FitAxis(values, /*from_zero=*/true, /*allow_log=*/true);
  size_t slots = 1;
  for (const Panel& p : panels) slots = std::max(slots, p.series.size());
  std::string s;
  for (const Panel& p : panels) {
    BarChart part = chart;
    part.series.clear();
    for (size_t i : p.series) {
      if (i < chart.series.size()) part.series.push_back(chart.series[i]);
    }
    part.legend = p.legend;
    if (BarValues(part).empty()) continue;
    // Bars as wide in every panel as in the fullest one: they compare by height alone.
    s += DrawBars(part, axis, Frame{kPanelPlotHeight, p.label, slots});
  }
  return s;
}

std::string RenderLinePanels(const LineChart& chart, const std::vector<Panel>& panels) {
  const std::optional<LineAxes> axes = FitLineAxes(chart);
  if (!axes) return "";
  std::string s;
  for (const Panel& p : panels) {
    LineChart part = chart;
    part.series.clear();
    for (size_t i : p.series) {
      if (i < chart.series.size() && !chart.series[i].points.empty()) {
        part.series.push_back(chart.series[i]);
      }
    }
    if (part.series.empty()) continue;
    s += DrawLines(part, p.legend.empty() ? LineLegend(part.series) : p.legend, *axes,
                   Frame{kPanelPlotHeight, p.label, 0});
  }
  return s;
}

}  // namespace kvbench::reports::svg
