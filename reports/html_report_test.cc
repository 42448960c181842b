#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>

#include "reports/html_charts.h"
#include "reports/reporter.h"
#include "reports/svg_chart.h"
#include "tests/support/golden_test_support.h"
#include "tests/support/many_engines_test_support.h"

namespace kvbench::reports {
namespace {

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

std::string Html(const results::RunResults& r) { return MakeHtmlReporter()->Render(r); }

TEST(HtmlReportTest, HasEveryKindOfChartEachWithACaption) {
  const std::string html = Html(test::LoadRunA());
  EXPECT_EQ(Count(html, "class=\"chart chart-throughput\""), 1u);
  EXPECT_EQ(Count(html, "class=\"chart chart-file-size\""), 1u);
  EXPECT_EQ(Count(html, "class=\"chart chart-cold-hot\""), 1u);
  // One per unthrottled point: load, get_cold, get_hot, scan, ycsb_a x 2 thread counts.
  EXPECT_EQ(Count(html, "class=\"chart chart-latency\""), 6u);
  EXPECT_EQ(Count(html, "class=\"chart chart-latency-vs-throughput\""), 2u);  // 1 and 4 threads
  EXPECT_EQ(Count(html, "class=\"chart chart-throughput-vs-threads\""), 1u);
  const size_t figures = Count(html, "<figure ");
  EXPECT_EQ(figures, 12u);
  EXPECT_EQ(Count(html, "<figcaption>"), figures);
  EXPECT_EQ(Count(html, "<svg "), figures);
  // Ids are unique.
  std::set<std::string> ids;
  const std::regex id_re("<figure class=\"[^\"]*\" id=\"([^\"]+)\"");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), id_re);
       it != std::sregex_iterator(); ++it) {
    EXPECT_TRUE(ids.insert((*it)[1]).second) << (*it)[1];
  }
  EXPECT_EQ(ids.size(), figures);
}

TEST(HtmlReportTest, IsSelfContained) {
  const std::string html = Html(test::LoadRunA());
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  // The only URL is the SVG namespace name, which is never fetched.
  EXPECT_EQ(Count(html, "http"), Count(html, "xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_TRUE(html.starts_with("<!DOCTYPE html>"));
  EXPECT_TRUE(html.ends_with("</html>\n"));
}

// Issue 31: the same note as report.md under the table of the phase whose
// writers ran one at a time, and nowhere else.
TEST(HtmlReportTest, SerialisedWritersAreNamedInTheirPhaseSection) {
  results::RunResults r = test::LoadRunA();
  EXPECT_EQ(Count(Html(r), "Serialised writers"), 0u);
  for (auto& run : r.runs) {
    run.writers_serialised = run.phase == "ycsb_a" && run.threads == 4 && run.engine == "sqlite";
  }
  const std::string html = Html(r);
  const std::string note =
      "<p class=\"warning\"><strong>Serialised writers:</strong> sqlite (4 threads) declares no "
      "concurrent writers (capabilities.concurrent_writers = false): its writing client threads "
      "ran one writer at a time, so those rows measure the threads sharing one writer, not "
      "parallel writes.</p>";
  ASSERT_EQ(Count(html, note), 1u) << html;
  const size_t at = html.find(note);
  const size_t section = html.rfind("<section class=\"phase\"", at);
  ASSERT_NE(section, std::string::npos);
  EXPECT_NE(html.find("<code>ycsb_a</code>", section), std::string::npos);
  EXPECT_LT(html.find("<code>ycsb_a</code>", section), at);
  EXPECT_LT(html.find("</table>", section), at);  // under the table
}

TEST(HtmlReportTest, EscapesAllText) {
  results::RunResults r = test::LoadRunA();
  for (auto& run : r.runs) {
    if (run.engine == "stdmap") run.engine = "<script>alert(1)</script>";
  }
  r.workload.description = "a & b <i>";
  const std::string html = Html(r);
  EXPECT_EQ(html.find("<script>"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("a &amp; b &lt;i&gt;"), std::string::npos);
}

TEST(HtmlReportTest, SweepChartsOnlyWhenThePhaseSweeps) {
  results::RunResults r = test::LoadRunA();
  std::erase_if(r.runs, [](const results::PhaseRun& run) {
    return run.phase == "ycsb_a" && (run.threads != 1 || run.target_ops != 0);
  });
  const std::string html = Html(r);
  EXPECT_EQ(Count(html, "chart-latency-vs-throughput\""), 0u);
  EXPECT_EQ(Count(html, "chart-throughput-vs-threads\""), 0u);
  std::erase_if(r.runs, [](const results::PhaseRun& run) { return run.cache == "hot"; });
  EXPECT_EQ(Count(Html(r), "chart-cold-hot\""), 0u);
}

// A run the size of seed 002's YCSB experiment: 12 engines, 6 workloads,
// 4 thread counts x 5 target rates, 5 repetitions.
results::RunResults LargeRun() {
  const results::RunResults a = test::LoadRunA();
  const results::PhaseRun* sample = nullptr;
  for (const auto& run : a.runs) {
    if (run.phase == "ycsb_a" && run.engine == "lmdb") sample = &run;
  }
  results::RunResults r = a;
  r.runs.clear();
  r.engines.clear();
  for (int e = 0; e < 12; ++e) {
    results::EngineRun engine;
    engine.name = "engine-" + std::to_string(e);
    r.engines.push_back(engine);
  }
  for (char w : std::string("abcdef")) {
    for (int threads : {1, 2, 4, 8}) {
      for (double target : {100.0, 500.0, 2500.0, 12500.0, 0.0}) {
        for (int e = 0; e < 12; ++e) {
          results::PhaseRun run = *sample;
          run.phase = std::string("ycsb_") + w;
          run.engine = "engine-" + std::to_string(e);
          run.threads = threads;
          run.target_ops = target;
          while (run.repetitions.size() < 5) run.repetitions.push_back(run.repetitions[0]);
          for (auto& rep : run.repetitions) {
            for (auto& op : rep.ops) op.ops_per_sec *= (e + 1) * threads / 7.0;
          }
          r.runs.push_back(std::move(run));
        }
      }
    }
  }
  return r;
}

TEST(HtmlReportTest, LargeRunStaysUnderTwoMegabytes) {
  const std::string html = Html(LargeRun());
  EXPECT_LT(html.size(), 2u * 1024 * 1024);
  // Per workload: one latency chart per unthrottled point (4), one latency vs
  // throughput chart per thread count (4), one throughput vs threads chart.
  EXPECT_EQ(Count(html, "chart-latency\""), 24u);
  EXPECT_EQ(Count(html, "chart-latency-vs-throughput\""), 24u);
  EXPECT_EQ(Count(html, "chart-throughput-vs-threads\""), 6u);
  // 24 unthrottled groups are too many for one chart: one throughput chart per phase.
  EXPECT_EQ(Count(html, "chart-throughput\""), 6u);
}

// Two engines' time series, one with a stall in its third interval.
TEST(HtmlReportTest, ThroughputAndP99OverTimeOneLinePerEngine) {
  results::RunResults r = test::LoadRunA();
  size_t with_series = 0;
  for (results::PhaseRun& run : r.runs) {
    if (run.phase != "load" || run.status != "ok") continue;
    for (results::Repetition& rep : run.repetitions) {
      results::TimeSeries ts;
      ts.interval_s = rep.seconds / 4;
      results::OpTimeSeries all;
      all.op = "all";
      const bool stalls = run.engine == "lmdb";
      all.count = {250, 250, stalls ? 10u : 250u, 250};
      for (uint64_t n : all.count) {
        all.ops_per_sec.push_back(static_cast<double>(n) / ts.interval_s);
        all.p99_ns.push_back(n == 10 ? 50'000'000 : 20'000);
      }
      ts.ops = {all};
      rep.time_series = ts;
    }
    ++with_series;
  }
  ASSERT_GE(with_series, 2u);
  const std::string html = Html(r);
  EXPECT_EQ(Count(html, "class=\"chart chart-throughput-over-time\""), 1u);
  EXPECT_EQ(Count(html, "class=\"chart chart-p99-over-time\""), 1u);
  const size_t from = html.find("chart-p99-over-time");
  const std::string p99 = html.substr(from, html.find("</figure>", from) - from);
  EXPECT_EQ(Count(p99, "<polyline"), with_series);
  EXPECT_NE(p99.find("time since the phase started (s)"), std::string::npos);
  EXPECT_NE(p99.find("50,000 µs p99"), std::string::npos) << "the stall's point and tooltip";
}


// One drawn mark of a chart: a bar, point, line or error bar with its
// tooltip, or a legend swatch with the label beside it.
struct Mark {
  std::string tag;     // rect, circle, polyline, path
  std::string colour;  // fill (rect, circle) or stroke (polyline, path)
  std::string title;   // its <title>; empty for a swatch
  std::string label;   // a swatch's legend text
};

std::string Attribute(const std::string& element, const std::string& name) {
  const size_t at = element.find(" " + name + "=\"");
  if (at == std::string::npos) return "";
  const size_t from = at + name.size() + 3;
  return element.substr(from, element.find('"', from) - from);
}

std::vector<Mark> MarksOf(const std::string& html) {
  std::vector<Mark> marks;
  for (const std::string tag : {"rect", "circle", "polyline", "path"}) {
    for (size_t at = html.find("<" + tag + " "); at != std::string::npos;
         at = html.find("<" + tag + " ", at + 1)) {
      const size_t end = html.find('>', at);
      const std::string element = html.substr(at, end - at + 1);
      Mark m{tag, Attribute(element, tag == "polyline" || tag == "path" ? "stroke" : "fill"), "",
             ""};
      const std::string after = html.substr(end + 1, 400);
      if (!element.ends_with("/>") && after.starts_with("<title>")) {
        m.title = after.substr(7, after.find("</title>") - 7);
      } else if (after.starts_with("<text")) {
        const size_t open = after.find('>');
        m.label = after.substr(open + 1, after.find("</text>") - open - 1);
      }
      marks.push_back(m);
    }
  }
  return marks;
}

// The engine a tooltip names first ("lmdb · load: 1,000 ops/s", "lmdb: ..."):
// the longest name followed by a space or colon; "" when none.
std::string EngineNamed(const std::string& title, const std::vector<std::string>& engines) {
  std::string best;
  for (const std::string& e : engines) {
    if (title.starts_with(e) && title.size() > e.size() &&
        (title[e.size()] == ' ' || title[e.size()] == ':') && e.size() > best.size()) {
      best = e;
    }
  }
  return best;
}

std::vector<std::string> EngineNames(const results::RunResults& r) {
  std::vector<std::string> names;
  for (const auto& e : r.engines) names.push_back(e.name);
  return names;
}

// Issue 33: a colour is never the only key. Every bar, point, line and error
// bar of every chart carries a tooltip naming its engine and its value; every
// mark without one is a legend swatch with its label written beside it.
TEST(HtmlReportTest, EveryBarPointAndLineNamesItsEngineAndValue) {
  for (const size_t engines : {5, 20}) {
    SCOPED_TRACE(std::to_string(engines) + " engines");
    const results::RunResults r = engines == 5 ? test::LoadRunA() : test::ManyEngineRun(20);
    const std::vector<std::string> names = EngineNames(r);
    const std::vector<Mark> marks = MarksOf(Html(r));
    std::set<std::string> named, titled_tags;
    size_t swatches = 0;
    for (const Mark& m : marks) {
      if (m.title.empty()) {
        EXPECT_FALSE(m.label.empty()) << "a <" << m.tag << "> with neither tooltip nor label";
        ++swatches;
        continue;
      }
      titled_tags.insert(m.tag);
      const std::string engine = EngineNamed(m.title, names);
      EXPECT_FALSE(engine.empty()) << "tooltip names no engine: " << m.title;
      EXPECT_TRUE(std::regex_search(m.title.substr(engine.size()), std::regex("[0-9]")))
          << "tooltip has no value: " << m.title;
      named.insert(engine);
    }
    EXPECT_GT(swatches, 0u);
    EXPECT_EQ(titled_tags, (std::set<std::string>{"rect", "circle", "polyline", "path"}));
    // Every engine that completed a phase is named somewhere (tc-btree of
    // run_a only crashed and skipped).
    EXPECT_GE(named.size(), names.size() - (engines == 5 ? 1 : 0));
  }
}

// Issue 33: an engine's colour comes from its place in the run's engine
// list, in every chart. With engines missing from some phases, a colour taken
// from the engine's place among one chart's series would shift.
TEST(HtmlReportTest, EachEngineKeepsItsColourInEveryChart) {
  results::RunResults r = test::ManyEngineRun(20);
  std::erase_if(r.runs, [](const results::PhaseRun& run) {
    return (run.phase == "scan" && (run.engine == "sqlite" || run.engine == "bdb-hash")) ||
           (run.phase == "load" && run.engine == "lmdb") ||
           (run.phase == "ycsb_a" && run.engine == "tc-hash");
  });
  const std::vector<std::string> names = EngineNames(r);
  std::map<std::string, std::set<std::string>> colours;  // engine -> colours of its marks
  size_t checked = 0;
  for (const Mark& m : MarksOf(Html(r))) {
    if (m.title.empty() || m.tag == "path") continue;  // error bars are grey
    const std::string engine = EngineNamed(m.title, names);
    const size_t index = static_cast<size_t>(std::find(names.begin(), names.end(), engine) -
                                             names.begin());
    ASSERT_LT(index, names.size()) << m.title;
    EXPECT_EQ(m.colour, svg::PaletteColour(index)) << m.title;
    colours[engine].insert(m.colour);
    ++checked;
  }
  EXPECT_GT(checked, 500u);
  EXPECT_EQ(colours.size(), names.size());
  std::set<std::string> distinct;
  for (const auto& [engine, c] : colours) {
    EXPECT_EQ(c.size(), 1u) << engine;
    distinct.insert(c.begin(), c.end());
  }
  EXPECT_EQ(distinct.size(), names.size()) << "two engines share a colour";
}

TEST(HtmlReportTest, EngineFamiliesOfTheBuiltInEngines) {
  EXPECT_EQ(EngineFamily("lmdb"), "B-trees");
  EXPECT_EQ(EngineFamily("sqlite@wal"), "B-trees");
  EXPECT_EQ(EngineFamily("wiredtiger-lsm"), "LSM trees");
  EXPECT_EQ(EngineFamily("rocksdb"), "LSM trees");
  EXPECT_EQ(EngineFamily("gdbm"), "hash tables");
  EXPECT_EQ(EngineFamily("stdmap"), "in memory");
  EXPECT_EQ(EngineFamily("redis"), "servers");
  EXPECT_EQ(EngineFamily("qdbm-villa"), "other");  // a plugin
  EXPECT_EQ(EngineFamily("null"), "other");
  EXPECT_EQ(EngineFamily(""), "other");
}

// The figures of a report: the text of each <figure>.
std::vector<std::string> Figures(const std::string& html) {
  std::vector<std::string> out;
  for (size_t at = html.find("<figure "); at != std::string::npos;
       at = html.find("<figure ", at + 1)) {
    out.push_back(html.substr(at, html.find("</figure>", at) - at));
  }
  return out;
}

// Issue 33: past eight engines a chart becomes one panel per engine family,
// each engine in its family's panel, every panel on one value axis.
TEST(HtmlReportTest, MoreThanEightEnginesSplitIntoFamilyPanels) {
  EXPECT_EQ(Html(test::ManyEngineRun(8)).find("class=\"panel\""), std::string::npos);
  EXPECT_NE(Html(test::ManyEngineRun(9)).find("class=\"panel\""), std::string::npos);

  const results::RunResults r = test::ManyEngineRun(20);
  const std::vector<std::string> names = EngineNames(r);
  const std::vector<std::string> figures = Figures(Html(r));
  ASSERT_GT(figures.size(), 5u);
  const std::regex label_re("<text class=\"panel-label\"[^>]*>([^<]*)</text>");
  const std::regex tick_re("text-anchor=\"end\">([^<]*)</text>");
  for (const std::string& figure : figures) {
    SCOPED_TRACE(figure.substr(0, figure.find('>')));
    std::vector<std::string> labels;
    std::vector<std::vector<std::string>> ticks;
    for (size_t at = figure.find("<svg"); at != std::string::npos;
         at = figure.find("<svg", at + 1)) {
      const std::string panel = figure.substr(at, figure.find("</svg>", at) - at);
      std::smatch label;
      ASSERT_TRUE(std::regex_search(panel, label, label_re)) << "a panel without its family";
      labels.push_back(label[1]);
      const std::string family = label[1].str().substr(0, label[1].str().find(" ("));
      for (const Mark& m : MarksOf(panel)) {
        const std::string engine = EngineNamed(m.title.empty() ? m.label + ":" : m.title, names);
        if (engine.empty()) continue;  // the file-size chart's key to its bar styles
        EXPECT_EQ(EngineFamily(engine), family) << engine;
      }
      ticks.emplace_back();
      for (auto it = std::sregex_iterator(panel.begin(), panel.end(), tick_re);
           it != std::sregex_iterator(); ++it) {
        ticks.back().push_back((*it)[1]);
      }
      EXPECT_EQ(ticks.back(), ticks.front()) << "panels of one chart on different scales";
    }
    EXPECT_NE(figure.find("one panel per engine family"), std::string::npos);
    if (figure.find("chart-throughput\"") != std::string::npos) {
      EXPECT_EQ(labels, (std::vector<std::string>{"B-trees (8 engines)", "LSM trees (3 engines)",
                                                  "hash tables (4 engines)",
                                                  "in memory (3 engines)", "servers (1 engine)",
                                                  "other (1 engine)"}));
    }
  }
}

}  // namespace
}  // namespace kvbench::reports
