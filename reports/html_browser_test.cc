// Renders report.html in headless Chromium from disk and checks, inside the
// page, that every chart is laid out with a visible size, that nothing was
// fetched from anywhere, and that the console stayed quiet. Skipped (not
// passed) when /usr/bin/chromium is not installed.
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
#include <filesystem>
#include <fstream>
#include <regex>
#include <vector>

#ifdef KVBENCH_HAVE_PNG
#include <png.h>
#endif

#include "reports/golden_test_support.h"
#include "reports/reporter.h"
#include "reports/trend_test_support.h"
#include "tests/scratch_dir.h"

namespace kvbench::reports {
namespace {

constexpr const char* kChromium = "/usr/bin/chromium";

constexpr const char* kCheckScript = R"js(<script>
(function () {
  var figures = document.querySelectorAll('figure.chart');
  var bad = [];
  figures.forEach(function (f) {
    var svg = f.querySelector('svg');
    var box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
    var visible = 0;
    if (svg) svg.querySelectorAll('rect, circle').forEach(function (m) {
      var b = m.getBoundingClientRect();
      if (b.width > 0 && b.height > 0) visible++;
    });
    var caption = f.querySelector('figcaption');
    // Laid out, drawn, captioned, and not clipped: inside the window and
    // inside its figure.
    var clipped = box.left < 0 || box.right > window.innerWidth + 0.5 ||
        f.scrollWidth > f.clientWidth + 1;
    if (box.width < Math.min(200, window.innerWidth * 0.6) || box.height < 100 || visible === 0 ||
        !caption || caption.getBoundingClientRect().height === 0 || clipped) {
      bad.push(f.id);
    }
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
