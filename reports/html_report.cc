// report.html: one self-contained file (inline CSS and SVG; no script, no
// font, nothing fetched), readable offline and attachable to an issue. Same
// content as report.md plus charts: run-wide charts in an overview, each
// phase's own charts beside its table. All text is escaped.
#include <fmt/format.h>

#include <map>

#include "reports/durability_section.h"
#include "reports/html_charts.h"
#include "reports/html_page.h"
#include "reports/phase_tables.h"
#include "reports/report_model.h"
#include "reports/reporter.h"
#include "reports/run_facts.h"
#include "reports/verdict.h"
#include "reports/text_format.h"

namespace kvbench::reports {

namespace {

std::string FactsHtml(const Facts& facts) {
  std::string s = "<div class=\"wrap\"><table class=\"facts\"><tbody>\n";
  for (const auto& [k, v] : facts) {
    s += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", HtmlEscape(k), HtmlEscape(v));
  }
  return s + "</tbody></table></div>\n";
}

// Numbers each kind of chart from 1 so every figure has a unique id.
class FigureWriter {
 public:
  std::string Write(const ChartFigure& chart) {
    const int n = ++counts_[chart.kind];
    return fmt::format(
        "<figure class=\"chart chart-{0}\" id=\"chart-{0}-{1}\">\n{2}\n<figcaption>{3}"
        "</figcaption>\n</figure>\n",
        chart.kind, n, chart.svg, HtmlEscape(chart.caption));
  }

 private:
  std::map<std::string, int> counts_;
};

std::string PhaseHtml(const PhaseSection& s, size_t index, const std::vector<ChartFigure>& charts,
                      FigureWriter* figures) {
  std::string h = fmt::format("<section class=\"phase\" id=\"phase-{}\">\n", index + 1);
  h += fmt::format("<h3><code>{}</code> ({})</h3>\n", HtmlEscape(s.name), HtmlEscape(s.op));
  std::string facts = s.params;
  if (!s.constants.empty()) facts += (facts.empty() ? "" : "; ") + s.constants;
  if (!facts.empty()) h += "<p class=\"params\">" + HtmlEscape(facts) + "</p>\n";
  h += TableHtml(s.engines);
  h += "<p class=\"note\">" + HtmlEscape(s.note) + "</p>\n";
  if (!s.serialised_writers.empty()) {
    h += "<p class=\"warning\"><strong>Serialised writers:</strong> " +
         HtmlEscape(s.serialised_writers) + "</p>\n";
  }
  for (const std::string& w : s.warnings) {
    h += "<p class=\"warning\"><strong>WARNING:</strong> " + HtmlEscape(w) + "</p>\n";
  }
  if (s.work.size() == 1) {
    h += "<p class=\"work\"><strong>Work done:</strong> " + HtmlEscape(s.work.front()) + "</p>\n";
  } else {
    h += "<p class=\"work\"><strong>Work done:</strong></p>\n<ul class=\"work\">\n";
    for (const std::string& w : s.work) h += "<li>" + HtmlEscape(w) + "</li>\n";
    h += "</ul>\n";
  }
  if (!s.per_op.rows.empty()) {
    h += "<p class=\"note\">Per operation type (medians):</p>\n" + TableHtml(s.per_op);
  }
  for (const ChartFigure& c : charts) h += figures->Write(c);
  return h + "</section>\n";
}

// `kvbench crash` runs: findings first, loudly, then the table.
std::string DurabilityHtml(const results::RunResults& results) {
  if (results.durability.empty()) return "";
  std::string h = "<section id=\"durability\">\n<h2>Durability</h2>\n<p class=\"note\">" +
                  HtmlEscape(DurabilityNote()) + "</p>\n";
  for (const std::string& f : DurabilityFindings(results)) {
    h += "<p class=\"warning\"><strong>FINDING:</strong> " + HtmlEscape(f) + "</p>\n";
  }
  h += TableHtml(DurabilityTable(results));
  const std::vector<std::string> problems = DurabilityProblems(results);
  if (!problems.empty()) {
    h += "<details><summary>First problems seen</summary>\n<ul>\n";
    for (const std::string& p : problems) h += "<li>" + HtmlEscape(p) + "</li>\n";
    h += "</ul>\n</details>\n";
  }
  return h + "</section>\n";
}

class HtmlReporter final : public Reporter {
 public:
  std::string_view format() const override { return "html"; }
  std::string_view file_name() const override { return "report.html"; }

  std::string Render(const results::RunResults& results) const override {
    const results::WorkloadInfo& w = results.workload;
    const std::string title =
        "kvbench report: " + (w.name.empty() ? std::string("(unnamed workload)") : w.name);
    const ChartEngines engines = ChartEnginesOf(results);
    const std::vector<PhaseView> phases = GroupByPhase(results);
    const std::vector<PhaseSection> sections = BuildPhaseSections(results);
    FigureWriter figures;

    std::string h = HtmlPageStart(title);
    if (!w.description.empty()) {
      std::string d = HtmlEscape(w.description);
      for (size_t p = d.find('\n'); p != std::string::npos; p = d.find('\n', p + 4)) {
        d.replace(p, 1, "<br>");
      }
      h += "<p>" + d + "</p>\n";
    }
    h += "<nav><a href=\"#verdict\">Verdict</a><a href=\"#environment\">Environment</a><a href=\"#workload\">Workload</a>"
         "<a href=\"#overview\">Overview</a>";
    if (!results.durability.empty()) h += "<a href=\"#durability\">Durability</a>";
    for (size_t i = 0; i < sections.size(); ++i) {
      h += fmt::format("<a href=\"#phase-{}\">{}</a>", i + 1, HtmlEscape(sections[i].name));
    }
    h += "<a href=\"#failures\">Failures</a></nav>\n";

    if (const std::string verdict = RenderVerdict(results); !verdict.empty()) {
      h += "<section id=\"verdict\">\n<h2>Verdict</h2>\n<p class=\"note\">" +
           HtmlEscape(kVerdictNote) + "</p>\n<ul>\n";
      size_t start = 0;
      for (size_t nl = verdict.find('\n'); nl != std::string::npos;
           start = nl + 1, nl = verdict.find('\n', start)) {
        const std::string line = verdict.substr(start, nl - start);
        h += "<li>" + HtmlEscape(line.substr(line.find_first_not_of(' '))) + "</li>\n";
      }
      h += "</ul>\n</section>\n";
    }
    h += DurabilityHtml(results);
    for (const std::string& w : MeasurementWarnings(results)) {
      h += "<p class=\"warning\"><strong>WARNING:</strong> " + HtmlEscape(w) + "</p>\n";
    }
    h += "<section id=\"environment\">\n<h2>Environment</h2>\n" +
         FactsHtml(EnvironmentFacts(results)) + "</section>\n";
    h += "<section id=\"workload\">\n<h2>Workload</h2>\n" + FactsHtml(WorkloadFacts(results));
    h += "<h3>Engines</h3>\n" + TableHtml(EnginesTable(results));
    if (!w.source.empty()) {
      h += "<details><summary>Workload file <code>" + HtmlEscape(w.file) + "</code></summary>\n" +
           "<pre>" + HtmlEscape(w.source) + "</pre>\n</details>\n";
    }
    h += "</section>\n<section id=\"overview\">\n<h2>Overview</h2>\n";
    const std::vector<ChartFigure> run_charts = RunCharts(phases, engines);
    if (run_charts.empty()) h += "<p>No engine completed a phase: nothing to chart.</p>\n";
    for (const ChartFigure& c : run_charts) h += figures.Write(c);
    h += "</section>\n<section id=\"phases\">\n<h2>Phases</h2>\n";
    for (size_t i = 0; i < sections.size(); ++i) {
      h += PhaseHtml(sections[i], i, PhaseCharts(phases[i], engines), &figures);
    }
    h += "</section>\n<section id=\"failures\">\n<h2>Failures and unsupported operations</h2>\n";
    const Table problems = ProblemsTable(results);
    h += problems.rows.empty() ? "<p>None: every engine completed every phase.</p>\n"
                               : TableHtml(problems);
    h += "</section>\n<footer>Made by kvbench " + HtmlEscape(results.environment.kvbench_version) +
         " from results.json (schema version " + std::to_string(results.schema_version) +
         "); every figure is a median over repetitions unless stated.</footer>\n</body>\n</html>\n";
    return h;
  }
};

}  // namespace

std::unique_ptr<Reporter> MakeHtmlReporter() { return std::make_unique<HtmlReporter>(); }

}  // namespace kvbench::reports
