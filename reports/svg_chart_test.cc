#include "reports/svg_chart.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <regex>
#include <set>

namespace kvbench::reports::svg {
namespace {

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(SvgChartTest, LinearAxisHasNiceTicksFromZero) {
  const Axis a = FitAxis({12, 37}, /*from_zero=*/true, /*allow_log=*/true);
  EXPECT_FALSE(a.log);
  EXPECT_EQ(a.lo, 0);
  EXPECT_EQ(a.hi, 40);
  EXPECT_EQ(a.ticks, (std::vector<double>{0, 10, 20, 30, 40}));
  EXPECT_DOUBLE_EQ(a.Fraction(20), 0.5);
}

TEST(SvgChartTest, AxisSpanningDecadesIsLogarithmic) {
  const Axis a = FitAxis({5, 120, 45000}, true, true);
  EXPECT_TRUE(a.log);
  EXPECT_EQ(a.lo, 1);
  EXPECT_EQ(a.hi, 100000);
  EXPECT_EQ(a.ticks, (std::vector<double>{1, 10, 100, 1000, 10000, 100000}));
  EXPECT_NEAR(a.Fraction(100), 0.4, 1e-12);
  EXPECT_FALSE(FitAxis({5, 120, 45000}, true, /*allow_log=*/false).log);
  EXPECT_FALSE(FitAxis({50, 4000}, true, true).log);  // under two decades
}

TEST(SvgChartTest, TickLabelsUseSiSuffixes) {
  EXPECT_EQ(TickLabel(0), "0");
  EXPECT_EQ(TickLabel(500), "500");
  EXPECT_EQ(TickLabel(2500), "2.5k");
  EXPECT_EQ(TickLabel(1000000), "1M");
  EXPECT_EQ(TickLabel(0.01), "0.01");
}

// sRGB "#rrggbb" to CIELAB (D65), for the palette's distance rule.
std::array<double, 3> Lab(const std::string& hex) {
  auto linear = [&](int at) {
    const double c = std::stoi(hex.substr(static_cast<size_t>(at), 2), nullptr, 16) / 255.0;
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
  };
  const double r = linear(1), g = linear(3), b = linear(5);
  const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116; };
  return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}

// Issue 33: with 18 engines, 12 colours taken modulo 12 gave six pairs of
// engines one colour. At least 24 series, any two at least 20 apart.
TEST(SvgChartTest, PaletteKeepsTwentyFourSeriesApart) {
  ASSERT_GE(kPaletteSize, 24u);
  double least = 1e9;
  for (size_t i = 0; i < kPaletteSize; ++i) {
    const auto a = Lab(PaletteColour(i));
    EXPECT_GE(a[0], 25) << PaletteColour(i) << " too dark to tell from the axis";
    EXPECT_LE(a[0], 86) << PaletteColour(i) << " too light on white";
    for (size_t j = i + 1; j < kPaletteSize; ++j) {
      const auto b = Lab(PaletteColour(j));
      const double d = std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
      least = std::min(least, d);
      EXPECT_GE(d, 20.0) << PaletteColour(i) << " and " << PaletteColour(j);
    }
  }
  EXPECT_EQ(PaletteColour(kPaletteSize), PaletteColour(0));
  RecordProperty("least_delta_e", std::to_string(least));
}

TEST(SvgChartTest, NothingToDrawIsEmpty) {
  BarChart bars;
  bars.groups = {"load"};
  bars.series = {{"sqlite", "#000", false, {std::nullopt}}};
  EXPECT_EQ(RenderBarChart(bars), "");
  EXPECT_EQ(RenderLineChart(LineChart{}), "");
}

TEST(SvgChartTest, BarChartDrawsOneTitledBarPerValueAndALegend) {
  BarChart c;
  c.title = "t";
  c.groups = {"load", "get"};
  c.series = {{"sqlite", PaletteColour(0), false, {100, 200}},
              {"lmdb <fast>", PaletteColour(1), false, {300, std::nullopt}}};
  c.y_label = "throughput (ops/s)";
  c.value_unit = "ops/s";
  const std::string svg = RenderBarChart(c);
  EXPECT_EQ(Count(svg, "<rect x="), 3u + 2u);  // three bars, two legend swatches
  EXPECT_NE(svg.find("<title>lmdb &lt;fast&gt; · load: 300 ops/s</title>"), std::string::npos);
  EXPECT_NE(svg.find(">throughput (ops/s)</text>"), std::string::npos);
  EXPECT_EQ(svg.find("rotate(-40)"), std::string::npos);
  EXPECT_EQ(svg.find("<lmdb"), std::string::npos);
}

TEST(SvgChartTest, LongGroupLabelsAreRotated) {
  BarChart c;
  for (int i = 0; i < 12; ++i) c.groups.push_back("a_rather_long_phase_name_" + std::to_string(i));
  c.series = {{"e", "#000", false, std::vector<std::optional<double>>(12, 1.0)}};
  EXPECT_EQ(Count(RenderBarChart(c), "rotate(-40)"), 12u);
}

TEST(SvgChartTest, LineChartDrawsAPolylineAndPointsPerSeries) {
  LineChart c;
  c.series = {{"sqlite", "#111", {{1, 10, ""}, {2, 18, ""}, {4, 30, "x"}}},
              {"lmdb", "#222", {{1, 20, ""}, {4, 70, ""}}}};
  c.x_ticks = {1, 2, 4};
  const std::string svg = RenderLineChart(c);
  EXPECT_EQ(Count(svg, "<polyline"), 2u);
  EXPECT_EQ(Count(svg, "<circle cx"), 5u + 2u);  // points and legend swatches
  EXPECT_NE(svg.find("(x)</title>"), std::string::npos);
}


// Issue 33: a colour is never the only key. Every line names its series and
// the range of its values, with or without dots.
TEST(SvgChartTest, EveryLineCarriesItsNameAndValues) {
  LineChart c;
  c.y_unit = "ops/s";
  c.series = {{"sqlite", "#111", {{1, 1000, ""}, {2, 4000, ""}}}, {"lmdb", "#222", {{1, 20, ""}}}};
  for (const bool dots : {true, false}) {
    c.point_dots = dots;
    const std::string svg = RenderLineChart(c);
    EXPECT_NE(svg.find("stroke-width=\"2\"><title>sqlite: 1,000 to 4,000 ops/s</title></polyline>"),
              std::string::npos)
        << svg;
    EXPECT_NE(svg.find("<title>lmdb: 20 ops/s</title></polyline>"), std::string::npos);
  }
}

// The y tick labels of each <svg> in `svgs`, in order.
std::vector<std::vector<std::string>> YTicksPerSvg(const std::string& svgs) {
  std::vector<std::vector<std::string>> ticks;
  const std::regex tick_re("text-anchor=\"end\">([^<]*)</text>");
  for (size_t at = svgs.find("<svg"); at != std::string::npos; at = svgs.find("<svg", at + 1)) {
    const std::string one = svgs.substr(at, svgs.find("</svg>", at) - at);
    ticks.emplace_back();
    for (auto it = std::sregex_iterator(one.begin(), one.end(), tick_re);
         it != std::sregex_iterator(); ++it) {
      ticks.back().push_back((*it)[1]);
    }
  }
  return ticks;
}

// Small multiples: each panel draws only its series, under its heading, and
// all share the value axis fitted to every series, so a bar's height means
// the same value in each panel; a panel with nothing to draw is left out.
TEST(SvgChartTest, PanelsShareOneValueAxis) {
  BarChart c;
  c.title = "Throughput";
  c.groups = {"load", "get"};
  c.series = {{"a", "#111111", false, {10, 20}},
              {"b", "#222222", false, {30, std::nullopt}},
              {"c", "#333333", false, {40, 45}},
              {"d", "#444444", false, {std::nullopt, std::nullopt}}};
  const std::string svg =
      RenderBarPanels(c, {{"first", {0, 1}, {}}, {"second", {2}, {}}, {"empty", {3}, {}}});
  EXPECT_EQ(Count(svg, "<svg class=\"panel\""), 2u);
  EXPECT_NE(svg.find("<title>Throughput: first</title>"), std::string::npos);
  EXPECT_NE(svg.find(">second</text>"), std::string::npos);
  EXPECT_EQ(svg.find("empty"), std::string::npos);
  const auto ticks = YTicksPerSvg(svg);
  ASSERT_EQ(ticks.size(), 2u);
  EXPECT_EQ(ticks[0], ticks[1]);
  EXPECT_EQ(ticks[0].back(), "50");  // fitted to c's 45, which only the second panel draws
  const std::string first = svg.substr(0, svg.find("</svg>"));
  EXPECT_EQ(Count(first, "<title>a · "), 2u);
  EXPECT_EQ(Count(first, "<title>b · "), 1u);
  EXPECT_EQ(Count(first, "<title>c · "), 0u);
  // Bars are as wide in the panel of one series as in the panel of two.
  const std::regex width_re("<rect x=\"[^\"]*\" y=\"[^\"]*\" width=\"([^\"]*)\"[^>]*><title>");
  std::set<std::string> widths;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), width_re);
       it != std::sregex_iterator(); ++it) {
    widths.insert((*it)[1]);
  }
  EXPECT_EQ(widths.size(), 1u);
}

TEST(SvgChartTest, LinePanelsShareBothAxes) {
  LineChart c;
  c.title = "t";
  c.series = {{"a", "#111111", {{1, 10, ""}, {2, 12, ""}}}, {"b", "#222222", {{1, 90, ""}, {8, 70, ""}}}};
  const std::string svg = RenderLinePanels(c, {{"A", {0}, {}}, {"B", {1}, {}}});
  EXPECT_EQ(Count(svg, "<svg class=\"panel\""), 2u);
  const auto ticks = YTicksPerSvg(svg);
  ASSERT_EQ(ticks.size(), 2u);
  EXPECT_EQ(ticks[0], ticks[1]);
  // The x axis runs to 8 in the panel whose own points stop at 2.
  const std::string first = svg.substr(0, svg.find("</svg>"));
  EXPECT_NE(first.find("text-anchor=\"middle\">8</text>"), std::string::npos);
}

}  // namespace
}  // namespace kvbench::reports::svg
