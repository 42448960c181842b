// Small SVG charts drawn by our own code, for report.html: grouped bars and
// lines, with axes, tick labels, units, a legend and a tooltip (<title>) on
// every bar and point. No scripts, no external fonts: the SVG is plain text
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

// A fixed palette of 12 colours, distinct on white for 2 to 12 series (the
// Tableau-10 hues, dark navy and near-black). Index i beyond 11 wraps around.
const std::string& PaletteColour(size_t index);
inline constexpr size_t kPaletteSize = 12;

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
  std::vector<std::optional<std::pair<double, double>>> intervals;
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
  bool x_linear = false;         // never a logarithmic x axis (time)
  bool markers = true;           // a dot with a tooltip on every point (off for long series)
};

// The <svg> element, or "" when there is nothing to draw (no positive value).
std::string RenderBarChart(const BarChart& chart);
std::string RenderLineChart(const LineChart& chart);

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
