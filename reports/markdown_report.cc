// report.md: reads well on GitHub. Environment, workload, engines, then one
// section per phase (table of engines, work done, warnings), then failures.
#include <fmt/format.h>

#include <algorithm>

#include "reports/durability_section.h"
#include "reports/phase_tables.h"
#include "reports/reporter.h"
#include "reports/run_facts.h"
#include "reports/verdict.h"
#include "reports/text_format.h"

namespace kvbench::reports {

namespace {

void AppendTable(const Table& t, std::string* out) {
  std::string line = "|";
  for (const std::string& h : t.header) line.append(" ").append(MarkdownEscape(h)).append(" |");
  *out += line + "\n|";
  for (bool numeric : t.numeric) *out += numeric ? "---:|" : "---|";
  *out += "\n";
  for (const auto& row : t.rows) {
    *out += '|';
    for (const Cell& c : row) {
      *out += ' ';
      if (c.best) *out += "**";
      *out += MarkdownEscape(c.text);
      if (c.best) *out += "**";
      if (c.tied) *out += " (tied)";
      *out += " |";
    }
    *out += '\n';
  }
  *out += "\n";
}

void AppendFacts(const Facts& facts, std::string* out) {
  Table t;
  t.header = {"", ""};
  t.numeric = {false, false};
  for (const auto& [k, v] : facts) t.rows.push_back({{k}, {v}});
  AppendTable(t, out);
}

// A fence longer than any backtick run in `text`, so the text cannot close it.
std::string FenceFor(const std::string& text) {
  size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<size_t>(3, longest + 1), '`');
}

std::string FenceLanguage(const std::string& file) {
  if (file.ends_with(".toml")) return "toml";
  if (file.ends_with(".properties") || file.find("workload") != std::string::npos) return "ini";
  return "";
}

void AppendPhase(const PhaseSection& s, std::string* out) {
  *out += fmt::format("### {} ({})\n\n", MarkdownCode(s.name), MarkdownEscape(s.op));
  std::string facts = s.params;
  if (!s.constants.empty()) facts += (facts.empty() ? "" : "; ") + s.constants;
  if (!facts.empty()) *out += MarkdownEscape(facts) + "\n\n";
  AppendTable(s.engines, out);
  *out += MarkdownEscape(s.note) + "\n\n";
  if (!s.serialised_writers.empty()) {
    *out += "> **Serialised writers:** " + MarkdownEscape(s.serialised_writers) + "\n\n";
  }
  for (const std::string& w : s.warnings) *out += "> **WARNING:** " + MarkdownEscape(w) + "\n>\n";
  if (!s.warnings.empty()) {
    out->resize(out->size() - 2);  // no trailing empty quote line
    *out += "\n";
  }
  *out += "**Work done**";
  if (s.work.size() == 1) {
    *out += ": " + MarkdownEscape(s.work.front()) + "\n\n";
  } else {
    *out += ":\n\n";
    for (const std::string& w : s.work) *out += "- " + MarkdownEscape(w) + "\n";
    *out += "\n";
  }
  if (!s.per_op.rows.empty()) {
    *out += "Per operation type (medians):\n\n";
    AppendTable(s.per_op, out);
  }
}

// `kvbench crash` runs: findings first, loudly, then the table.
void AppendDurability(const results::RunResults& results, std::string* out) {
  if (results.durability.empty()) return;
  *out += "## Durability\n\n" + MarkdownEscape(DurabilityNote()) + "\n\n";
  for (const std::string& f : DurabilityFindings(results)) {
    *out += "> **FINDING:** " + MarkdownEscape(f) + "\n>\n";
  }
  if (!DurabilityFindings(results).empty()) *out += "\n";
  AppendTable(DurabilityTable(results), out);
  const std::vector<std::string> problems = DurabilityProblems(results);
  if (!problems.empty()) {
    *out += "<details><summary>First problems seen</summary>\n\n";
    for (const std::string& p : problems) *out += "- " + MarkdownEscape(p) + "\n";
    *out += "\n</details>\n\n";
  }
}

class MarkdownReporter final : public Reporter {
 public:
  std::string_view format() const override { return "md"; }
  std::string_view file_name() const override { return "report.md"; }

  std::string Render(const results::RunResults& results) const override {
    std::string out;
    const results::WorkloadInfo& w = results.workload;
    out += "# kvbench report: " + MarkdownEscape(w.name.empty() ? "(unnamed workload)" : w.name) +
           "\n\n";
    if (!w.description.empty()) {
      // Paragraphs of the description stay paragraphs.
      std::string d = w.description;
      size_t start = 0;
      while (start <= d.size()) {
        size_t end = d.find("\n\n", start);
        if (end == std::string::npos) end = d.size();
        const std::string para = d.substr(start, end - start);
        if (!para.empty()) out += MarkdownEscape(para) + "\n\n";
        start = end + 2;
      }
    }
    if (const std::string verdict = RenderVerdict(results); !verdict.empty()) {
      out += std::string("## Verdict\n\n") + kVerdictNote + "\n\n";
      std::string line;
      for (char c : verdict) {
        if (c != '\n') {
          line += c;
          continue;
        }
        out += "- " + MarkdownEscape(line.substr(line.find_first_not_of(' '))) + "\n";
        line.clear();
      }
      out += "\n";
    }
    AppendDurability(results, &out);
    for (const std::string& w : MeasurementWarnings(results)) {
      out += "> **WARNING:** " + MarkdownEscape(w) + "\n>\n";
    }
    if (!MeasurementWarnings(results).empty()) out += "\n";
    out += "## Environment\n\n";
    AppendFacts(EnvironmentFacts(results), &out);
    out += "## Workload\n\n";
    AppendFacts(WorkloadFacts(results), &out);
    out += "### Engines\n\n";
    AppendTable(EnginesTable(results), &out);
    if (!w.source.empty()) {
      const std::string fence = FenceFor(w.source);
      out += "<details><summary>Workload file " + HtmlEscape(w.file) + "</summary>\n\n";
      out += fence + FenceLanguage(w.file) + "\n" + w.source;
      if (!w.source.ends_with("\n")) out += "\n";
      out += fence + "\n\n</details>\n\n";
    }
    out += "## Phases\n\n";
    for (const PhaseSection& s : BuildPhaseSections(results)) AppendPhase(s, &out);
    const Table problems = ProblemsTable(results);
    out += "## Failures and unsupported operations\n\n";
    if (problems.rows.empty()) {
      out += "None: every engine completed every phase.\n";
    } else {
      AppendTable(problems, &out);
      out.pop_back();  // one newline at the end of the file
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Reporter> MakeMarkdownReporter() { return std::make_unique<MarkdownReporter>(); }

}  // namespace kvbench::reports
