// Small SVG charts drawn by our own code, for report.html: grouped bars and
// lines, with axes, tick labels, units, a legend and a tooltip (<title>)
// naming the series and its value on every bar, point and line, so a colour is
// never the only key. No scripts, no external fonts: the SVG is plain text
// that any browser shows inline.
//
// An axis turns logarithmic when its values span two decades or more, so a
// 100x slower engine stays visible beside the fastest.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kvbench::reports::svg {

// A fixed palette of 28 colours, every two of them at least 20 apart in
// CIELAB (Delta E 1976; 2.3 is a just-noticeable difference) so that twenty
// engines on one chart never share a colour: the Tableau-10 hues first (the
// usual few engines keep familiar colours), then 18 more picked greedily for
// the largest least distance, with lightness about 30-80 so each reads on white.
// Index i beyond 27 wraps around; svg_chart_test checks the distances.
const std::string& PaletteColour(size_t index);
inline constexpr size_t kPaletteSize = 28;

struct LegendEntry {
  std::string label;
  std::string colour;
  bool light = false;  // drawn pale: a second measure of the same series
  bool line = false;   // a line swatch instead of a box
};

struct BarSeries {
  std::string name;  // legend and tooltips
  std::string colour;
  bool light = false;
  std::vector<std::optional<double>> values;  // one per group; empty: no bar
  // The confidence interval of each value (low, high), drawn as an error bar;
  // empty (or a shorter vector) where there is none.
  std::vector<std::optional<std::pair<double, double>>> intervals = {};
};

struct BarChart {
  std::string title;  // accessible name of the whole chart
  std::vector<std::string> groups;
  std::vector<BarSeries> series;
  std::string y_label;              // axis title, with its unit: "throughput (ops/s)"
  std::string value_unit;           // after values in tooltips: "ops/s"
  std::vector<LegendEntry> legend;  // empty: one entry per series
};

struct LinePoint {
  double x = 0;
  double y = 0;
  std::string note;  // added to the tooltip: "target 2,000/s"
  // The confidence interval of y (low, high), drawn as an error bar.
  std::optional<std::pair<double, double>> interval = {};
};

// A vertical dashed line across the plot at x (a change point), labelled at
// its top.
struct LineMarker {
  double x = 0;
  std::string label;
  std::string colour = "#cf222e";
  std::string note;  // its tooltip
};

// A dashed horizontal segment from x_from to x_to at y (a series' level
// between two change points).
struct LineLevel {
  double x_from = 0;
  double x_to = 0;
  double y = 0;
  std::string note;  // its tooltip
};

struct LineSeries {
  std::string name;
  std::string colour;
  std::vector<LinePoint> points;  // joined in this order
};

struct LineChart {
  std::string title;
  std::vector<LineSeries> series;
  std::string x_label, y_label;  // axis titles with units
  std::string x_unit, y_unit;    // after values in tooltips
  std::vector<double> x_ticks;   // explicit ticks (thread counts); empty: automatic
  // Axis choices: a trend over run numbers or time wants a linear x axis, and
  // a trend a y axis fitted to the values rather than starting at 0.
  bool x_log_allowed = true;
  bool y_log_allowed = true;
  bool y_from_zero = true;
  // A dot with a tooltip (and interval) on every point; off for long series.
  bool point_dots = true;
  std::vector<LineMarker> markers;
  std::vector<LineLevel> levels;
};

// The <svg> element, or "" when there is nothing to draw (no positive value).
std::string RenderBarChart(const BarChart& chart);
std::string RenderLineChart(const LineChart& chart);

// Small multiples: a chart with too many series to read as one, drawn as one
// shorter <svg class="panel"> per panel, each holding some of the series
// (`series`: indices into the chart's series) under a visible heading
// (`label`, also in its <title>). Every panel shares one value axis (and a
// line chart's x axis), fitted to all the chart's series, so bars and lines
// compare across panels. `legend` empty: one entry per series of the panel.
// A panel with nothing to draw is left out; "" when none has anything.
struct Panel {
  std::string label;
  std::vector<size_t> series;
  std::vector<LegendEntry> legend;
};
std::string RenderBarPanels(const BarChart& chart, const std::vector<Panel>& panels);
std::string RenderLinePanels(const LineChart& chart, const std::vector<Panel>& panels);

// A value axis. Exposed for tests.
struct Axis {
  bool log = false;
  double lo = 0;
  double hi = 1;
  std::vector<double> ticks;
  // Position of `v` along the axis, 0 at lo and 1 at hi.
  double Fraction(double v) const;
};
// Fits an axis around `values` (non-finite ones ignored; non-positive ones
// ignored on a log axis). A linear axis starts at 0 when `from_zero`.
Axis FitAxis(const std::vector<double>& values, bool from_zero, bool allow_log);
// "0", "500", "2.5k", "1.5M", "0.01".
std::string TickLabel(double v);

}  // namespace kvbench::reports::svg
