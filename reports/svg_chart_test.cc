#include "reports/svg_chart.h"

#include <gtest/gtest.h>

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

TEST(SvgChartTest, PaletteHasTwelveDistinctColours) {
  std::set<std::string> colours;
  for (size_t i = 0; i < kPaletteSize; ++i) colours.insert(PaletteColour(i));
  EXPECT_EQ(colours.size(), kPaletteSize);
  EXPECT_EQ(PaletteColour(kPaletteSize), PaletteColour(0));
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

}  // namespace
}  // namespace kvbench::reports::svg
