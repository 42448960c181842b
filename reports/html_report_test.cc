#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "reports/golden_test_support.h"
#include "reports/reporter.h"

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

}  // namespace
}  // namespace kvbench::reports
