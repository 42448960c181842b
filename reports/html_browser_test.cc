// Renders report.html in headless Chromium from disk and checks, inside the
// page, that every chart is laid out with a visible size, that nothing was
// fetched from anywhere, and that the console stayed quiet; with twenty
// engines, that every engine has one colour of its own in the DOM and in a
// screenshot. Skipped (not passed) when /usr/bin/chromium is not installed.
//
// The check is a script the test appends to a copy of the report (the report
// itself has none): it writes its verdict into document.title, which
// --dump-dom prints. A screenshot of the page is left in the build directory
// (html_browser_test.png) for a person to look at.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <vector>

#ifdef KVBENCH_HAVE_PNG
#include <png.h>
#endif

#include "reports/reporter.h"
#include "reports/svg_chart.h"
#include "tests/scratch_dir.h"
#include "tests/support/golden_test_support.h"
#include "tests/support/many_engines_test_support.h"
#include "tests/support/trend_test_support.h"

namespace kvbench::reports {
namespace {

constexpr const char* kChromium = "/usr/bin/chromium";

constexpr const char* kCheckScript = R"js(<script>
(function () {
  var figures = document.querySelectorAll('figure.chart');
  var bad = [];
  figures.forEach(function (f) {
    // Every <svg> of the figure: one, or one panel per engine family.
    var svgs = f.querySelectorAll('svg');
    var caption = f.querySelector('figcaption');
    var ok = svgs.length > 0 && caption && caption.getBoundingClientRect().height > 0 &&
        f.scrollWidth <= f.clientWidth + 1;
    svgs.forEach(function (svg) {
      var box = svg.getBoundingClientRect();
      var visible = 0;
      svg.querySelectorAll('rect, circle').forEach(function (m) {
        var b = m.getBoundingClientRect();
        if (b.width > 0 && b.height > 0) visible++;
      });
      // Laid out, drawn, captioned, and not clipped: inside the window and
      // inside its figure.
      var clipped = box.left < 0 || box.right > window.innerWidth + 0.5;
      if (box.width < Math.min(200, window.innerWidth * 0.6) || box.height < 100 ||
          visible === 0 || clipped) {
        ok = false;
      }
    });
    if (!ok) bad.push(f.id);
  });
  var fetched = performance.getEntriesByType('resource').length;
  // The page itself never scrolls sideways (wide tables scroll in their box).
  var overflow = document.documentElement.scrollWidth > window.innerWidth + 1;
  document.title = (bad.length === 0 && fetched === 0 && !overflow ? 'ok:' : 'fail:') +
      figures.length + ':bad=' + bad.join(',') + ':fetched=' + fetched +
      (overflow ? ':page-overflows=' + document.documentElement.scrollWidth : '');
})();
</script>
)js";

// The in-page check of series colours (issue 33), after kCheckScript: every
// bar, point and line with a tooltip, its engine read from the tooltip (the
// longest of ENGINES it starts with), its colour the computed fill (a line's
// stroke). Appends "|engines=N:colours=ok" to document.title, or the
// problems: a mark naming no engine, two engines of one colour in a figure,
// an engine of two colours anywhere in the page.
constexpr const char* kColourScript = R"js(<script>
(function () {
  var engines = ENGINES;
  function engineOf(t) {
    var best = '';
    engines.forEach(function (e) {
      if (t.indexOf(e) === 0 && t.length > e.length && (t[e.length] === ' ' || t[e.length] === ':') &&
          e.length > best.length) best = e;
    });
    return best;
  }
  var page = {}, problems = [];
  document.querySelectorAll('figure.chart').forEach(function (f) {
    var byColour = {};
    f.querySelectorAll('rect, circle, polyline').forEach(function (m) {
      var t = m.querySelector('title');
      if (!t) return;  // a legend swatch: its label is beside it
      var e = engineOf(t.textContent);
      if (!e) { problems.push('unnamed@' + f.id); return; }
      var style = getComputedStyle(m);
      var c = m.tagName === 'polyline' ? style.stroke : style.fill;
      (byColour[c] = byColour[c] || {})[e] = 1;
      (page[e] = page[e] || {})[c] = 1;
    });
    Object.keys(byColour).forEach(function (c) {
      var shared = Object.keys(byColour[c]);
      if (shared.length > 1) problems.push(f.id + ':' + shared.join('+'));
    });
  });
  Object.keys(page).forEach(function (e) {
    if (Object.keys(page[e]).length !== 1) problems.push(e + ':' + Object.keys(page[e]).join('+'));
  });
  document.title += '|engines=' + Object.keys(page).length + ':colours=' +
      (problems.length ? problems.join(',') : 'ok');
})();
</script>
)js";

// Runs `command` with a time limit; returns its exit status and standard output.
std::pair<int, std::string> RunCommand(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return {-1, out};
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

std::string ChromiumCommand(const std::string& profile, int width = 1400) {
  return std::string("timeout 120 ") + kChromium +
         " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
         " --disable-background-networking --disable-component-update --disable-sync"
         " --user-data-dir=" +
         profile + " --window-size=" + std::to_string(width) + ",3000";
}

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

class HtmlBrowserTest : public testing::Test {
 protected:
  void SetUp() override {
    if (access(kChromium, X_OK) != 0) {
      GTEST_SKIP() << kChromium << " is not installed, so report.html was not rendered in a "
                   << "browser (apt-get install chromium to run this test)";
    }
    html_ = MakeHtmlReporter()->Render(test::LoadRunA());
    std::string checked = html_;
    checked.insert(checked.rfind("</body>"), kCheckScript);
    page_ = dir_.path() + "/report.html";
    std::ofstream(page_) << checked;
  }

  kvbench::test::ScratchDir dir_{"browser"};
  std::string html_;
  std::string page_;
};

// A phone, a laptop and a wide screen: every chart fits and nothing clips.
TEST_F(HtmlBrowserTest, EveryChartIsLaidOutAndNothingIsFetchedOrLogged) {
  for (const int width : {360, 800, 1600}) {
  SCOPED_TRACE("window width " + std::to_string(width));
  const std::string log = dir_.path() + "/chromium.log";
  const auto [rc, dom] =
      RunCommand(ChromiumCommand(dir_.path() + "/profile-dom", width) +
                 " --enable-logging=stderr --v=0 --dump-dom file://" + page_ + " 2>" + log);
  ASSERT_EQ(rc, 0) << test::ReadText(log);
  const std::smatch title = [&] {
    std::smatch m;
    std::regex_search(dom, m, std::regex("<title>([^<]*)</title>"));
    return m;
  }();
  ASSERT_FALSE(title.empty()) << "no <title> in the dumped DOM";
  const size_t charts = Count(html_, "<figure class=\"chart ");
  EXPECT_GT(charts, 5u);
  EXPECT_EQ(title[1].str(), "ok:" + std::to_string(charts) + ":bad=:fetched=0");
  // Chromium logs page console messages and script errors as "CONSOLE(line)".
  const std::string console = test::ReadText(log);
  EXPECT_EQ(console.find(":CONSOLE"), std::string::npos) << console;
  EXPECT_EQ(console.find("Uncaught"), std::string::npos) << console;
  }
}

TEST_F(HtmlBrowserTest, ScreenshotsAreTaken) {
  for (const int width : {800, 1600}) {
    const std::string png = std::string(KVBENCH_BROWSER_OUT_DIR) + "/html_browser_test_" +
                            std::to_string(width) + ".png";
    std::filesystem::remove(png);
    const auto [rc, out] =
        RunCommand(ChromiumCommand(dir_.path() + "/profile-shot", width) + " --screenshot=" +
                   png + " file://" + page_ + " 2>/dev/null");
    ASSERT_EQ(rc, 0) << out;
    const std::string bytes = test::ReadText(png);
    ASSERT_GT(bytes.size(), 20000u) << "screenshot missing or blank: " << png;
    EXPECT_EQ(bytes.substr(1, 3), "PNG");
  }
}

#ifdef KVBENCH_HAVE_PNG
// The RGB pixels of a PNG, three bytes each; false when it cannot be read.
bool ReadRgb(const std::string& path, std::vector<unsigned char>* pixels) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str())) return false;
  image.format = PNG_FORMAT_RGB;
  pixels->resize(PNG_IMAGE_SIZE(image));
  return png_image_finish_read(&image, nullptr, pixels->data(), 0, nullptr) != 0;
}

// Pixels within `tolerance` of "#rrggbb" in every channel.
size_t PixelsNear(const std::vector<unsigned char>& pixels, const std::string& hex,
                  int tolerance) {
  const int want[3] = {std::stoi(hex.substr(1, 2), nullptr, 16),
                       std::stoi(hex.substr(3, 2), nullptr, 16),
                       std::stoi(hex.substr(5, 2), nullptr, 16)};
  size_t n = 0;
  for (size_t i = 0; i + 2 < pixels.size(); i += 3) {
    n += std::abs(pixels[i] - want[0]) <= tolerance &&
         std::abs(pixels[i + 1] - want[1]) <= tolerance &&
         std::abs(pixels[i + 2] - want[2]) <= tolerance;
  }
  return n;
}
#endif

// Issue 33: a report of twenty engines in a browser. Every chart (each of
// its family panels) is laid out with a visible size, nothing is fetched,
// and the computed colours of the series in the DOM are one per engine in
// every chart and the same engine's everywhere; in a screenshot of the
// throughput chart every engine's palette colour is drawn, in more pixels
// than its legend swatch alone covers.
TEST(ManyEngineBrowserTest, TwentyEnginesEachDrawnInItsOwnColour) {
  if (access(kChromium, X_OK) != 0) GTEST_SKIP() << kChromium << " is not installed";
  kvbench::test::ScratchDir dir("browser-20");
  const results::RunResults run = test::ManyEngineRun(20);
  const std::string html = MakeHtmlReporter()->Render(run);
  ASSERT_NE(html.find("class=\"panel\""), std::string::npos) << "twenty engines, no panels";
  std::string engines = "[";
  for (const results::EngineRun& e : run.engines) {
    engines += (engines.size() > 1 ? ",'" : "'") + e.name + "'";
  }
  engines += "]";
  std::string colour_script = kColourScript;
  colour_script.replace(colour_script.find("ENGINES"), 7, engines);
  std::string page = html;
  page.insert(page.rfind("</body>"), std::string(kCheckScript) + colour_script);
  const std::string path = dir.path() + "/report.html";
  std::ofstream(path) << page;
  const auto [rc, dom] = RunCommand(ChromiumCommand(dir.path() + "/profile-dom") +
                                    " --dump-dom file://" + path + " 2>/dev/null");
  ASSERT_EQ(rc, 0);
  std::smatch title;
  ASSERT_TRUE(std::regex_search(dom, title, std::regex("<title>([^<]*)</title>")));
  const size_t charts = Count(html, "<figure class=\"chart ");
  EXPECT_GT(charts, 10u);
  EXPECT_EQ(title[1].str(), "ok:" + std::to_string(charts) + ":bad=:fetched=0|engines=" +
                                std::to_string(run.engines.size()) + ":colours=ok");

  // The screenshot: the throughput chart alone (the page is too long for one
  // window), at 1400 px.
  std::string shot = html;
  shot.insert(shot.find("</head>"),
              "<style>body>:not(#overview),#overview>:not(#chart-throughput-1){display:none}"
              "</style>");
  const std::string shot_path = dir.path() + "/throughput.html";
  std::ofstream(shot_path) << shot;
  const std::string png = std::string(KVBENCH_BROWSER_OUT_DIR) + "/html_browser_test_20.png";
  std::filesystem::remove(png);
  const auto [shot_rc, out] = RunCommand(ChromiumCommand(dir.path() + "/profile-shot", 1400) +
                                         " --screenshot=" + png + " file://" + shot_path +
                                         " 2>/dev/null");
  ASSERT_EQ(shot_rc, 0) << out;
#ifdef KVBENCH_HAVE_PNG
  std::vector<unsigned char> pixels;
  ASSERT_TRUE(ReadRgb(png, &pixels)) << "not a PNG: " << png;
  // A legend swatch is 12x12 at about 1.5 px per unit: some 330 pixels.
  for (size_t i = 0; i < run.engines.size(); ++i) {
    EXPECT_GT(PixelsNear(pixels, svg::PaletteColour(i), 6), 1000u)
        << run.engines[i].name << "'s colour " << svg::PaletteColour(i) << " hardly drawn";
  }
  // The palette's unused colours are not: the count measures colours, not noise.
  for (size_t i = run.engines.size(); i < svg::kPaletteSize; ++i) {
    EXPECT_LT(PixelsNear(pixels, svg::PaletteColour(i), 6), 50u) << svg::PaletteColour(i);
  }
#else
  EXPECT_GT(test::ReadText(png).size(), 20000u) << "screenshot missing or blank: " << png;
#endif
}

#ifdef KVBENCH_HAVE_PNG
// Pixels of a PNG: how many are dark (text, axes, lines) and how many are
// clearly coloured (series, change markers). A blank page has neither.
struct PixelCounts {
  size_t total = 0, dark = 0, coloured = 0;
};

bool CountPixels(const std::string& path, PixelCounts* counts) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str())) return false;
  image.format = PNG_FORMAT_RGB;
  std::vector<unsigned char> pixels(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr)) return false;
  for (size_t i = 0; i + 2 < pixels.size(); i += 3) {
    const int r = pixels[i], g = pixels[i + 1], b = pixels[i + 2];
    ++counts->total;
    counts->dark += r + g + b < 300;
    counts->coloured += std::max({r, g, b}) - std::min({r, g, b}) > 60;
  }
  return true;
}
#endif

// The history trend page in a browser: every chart laid out, nothing
// fetched (the same in-page check as report.html), and a screenshot that is
// not blank.
TEST(TrendPageBrowserTest, ChartsAreLaidOutAndTheScreenshotIsNotBlank) {
  if (access(kChromium, X_OK) != 0) GTEST_SKIP() << kChromium << " is not installed";
  kvbench::test::ScratchDir dir("trend-browser");
  std::string page = RenderTrendPage(test::MadeUpTrend());
  page.insert(page.rfind("</body>"), kCheckScript);
  const std::string path = dir.path() + "/trend.html";
  std::ofstream(path) << page;
  const auto [rc, dom] =
      RunCommand(ChromiumCommand(dir.path() + "/profile-dom") + " --dump-dom file://" + path +
                 " 2>/dev/null");
  ASSERT_EQ(rc, 0);
  std::smatch title;
  ASSERT_TRUE(std::regex_search(dom, title, std::regex("<title>([^<]*)</title>")));
  EXPECT_EQ(title[1].str(), "ok:2:bad=:fetched=0");
  const std::string png = std::string(KVBENCH_BROWSER_OUT_DIR) + "/trend_browser_test.png";
  std::filesystem::remove(png);
  const auto [shot_rc, out] = RunCommand(ChromiumCommand(dir.path() + "/profile-shot", 1200) +
                                         " --screenshot=" + png + " file://" + path + " 2>/dev/null");
  ASSERT_EQ(shot_rc, 0) << out;
#ifdef KVBENCH_HAVE_PNG
  PixelCounts counts;
  ASSERT_TRUE(CountPixels(png, &counts)) << "not a PNG: " << png;
  EXPECT_GT(counts.dark, counts.total / 200) << "too little text or line: blank?";
  EXPECT_GT(counts.coloured, 2000u) << "no coloured series or markers drawn";
#else
  EXPECT_GT(test::ReadText(png).size(), 20000u) << "screenshot missing or blank: " << png;
#endif
}

}  // namespace
}  // namespace kvbench::reports
