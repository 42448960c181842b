// The plain-text table `kvbench run` prints at the end: ASCII only, columns
// padded with spaces, numbers right-aligned, so it reads in any terminal.
#include <fmt/format.h>

#include <algorithm>

#include "reports/report_model.h"
#include "reports/reports.h"
#include "reports/text_format.h"

namespace kvbench::reports {

namespace {

struct Column {
  std::string header;
  bool numeric = false;
};

}  // namespace

std::string RenderSummaryTable(const results::RunResults& results) {
  const std::vector<PhaseView> phases = GroupByPhase(results);
  VaryingDimensions v;
  for (const PhaseView& p : phases) {
    v.threads = v.threads || p.varying.threads || p.thread_counts != phases.front().thread_counts;
    v.target = v.target || p.varying.target || p.targets != phases.front().targets;
    v.cache = v.cache || p.varying.cache || p.caches != phases.front().caches;
    v.host = v.host || p.hosts != phases.front().hosts || p.varying.host;
  }
  std::vector<Column> columns = {{"phase"}, {"engine"}};
  if (v.threads) columns.push_back({"threads", true});
  if (v.target) columns.push_back({"target", true});
  if (v.cache) columns.push_back({"cache"});
  if (v.host) columns.push_back({"host"});
  // ops/s = operations / wall span; harness = the share of that span outside
  // the engine's calls, "client-bound" above 10% (reports/report_model.h).
  for (const char* h : {"ops/s", "harness", "p50 us", "p99 us"}) columns.push_back({h, true});
  columns.push_back({"status"});

  std::vector<std::vector<std::string>> rows;
  uint64_t block_ops = 0;  // the largest block of a row whose latencies are block means
  for (const PhaseView& phase : phases) {
    for (const PointRuns& pr : phase.points) {
      for (const results::PhaseRun* run : pr.runs) {
        // A failed phase's partial figures are not the phase's: none shown.
        const Figures f = run->status == "failed" ? Figures{} : FiguresOf(*run);
        std::vector<std::string> row = {run->phase, run->engine};
        if (v.threads) row.push_back(std::to_string(run->threads));
        if (v.target) row.push_back(FormatTarget(run->target_ops));
        if (v.cache) row.push_back(run->cache.empty() ? "-" : run->cache);
        if (v.host) row.push_back(pr.point.host);
        row.push_back(f.ops_per_sec ? FormatRate(f.ops_per_sec->median) : "-");
        row.push_back(HarnessShareText(f, "-"));  // ASCII: "-", not the reports' dash
        // "*": of block means (record phases), said below the table.
        const std::string block = f.block_ops > 0 ? "*" : "";
        block_ops = std::max(block_ops, f.block_ops);
        row.push_back(f.p50_us ? FormatMicros(f.p50_us->median) + block : "-");
        row.push_back(f.p99_us ? FormatMicros(f.p99_us->median) + block : "-");
        row.push_back(run->status + (run->reason.empty() ? "" : ": " + run->reason));
        rows.push_back(std::move(row));
      }
    }
  }
  std::vector<size_t> width(columns.size());
  for (size_t c = 0; c < columns.size(); ++c) {
    width[c] = columns[c].header.size();
    for (const auto& row : rows) width[c] = std::max(width[c], row[c].size());
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (size_t c = 0; c < cells.size(); ++c) {
      const bool last = c + 1 == cells.size();
      if (c > 0) out += "  ";
      if (columns[c].numeric) {
        out += fmt::format("{:>{}}", cells[c], width[c]);
      } else {
        out += last ? cells[c] : fmt::format("{:<{}}", cells[c], width[c]);
      }
    }
    return out + "\n";
  };
  std::vector<std::string> header;
  for (const Column& c : columns) header.push_back(c.header);
  std::string out = line(header);
  for (const auto& row : rows) out += line(row);
  if (block_ops > 0) out += "* " + BlockMeansNote(block_ops) + "\n";
  return out;
}

}  // namespace kvbench::reports
