// results.csv: one row per phase, matrix point, engine and operation type (a
// mixed phase has a row per operation type and one with op "all"), figures as
// medians over repetitions, for spreadsheets and scripts.
//
// Format: RFC 4180 (CRLF line ends, a header line, fields quoted when they
// hold a comma, quote or line break). The first 25 columns are fixed in name
// and order; later columns may be added at the end. Numbers are written in
// full precision ("182345.67"), latencies in µs, sizes in bytes. A figure that
// was not measured is an empty cell, never 0. Text cells that begin with
// '=', '+', '-' or '@' get a leading single quote (CsvTextField), so a
// spreadsheet shows them instead of running them as formulas. seconds, CPU, RSS, file and I/O
// figures belong to the whole repetition: rows of single operation types
// repeat them. A run that did not complete has one row, op "all", with its
// status and reason and no figures.
#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "reports/report_model.h"
#include "reports/reporter.h"
#include "reports/text_format.h"

namespace kvbench::reports {

namespace {

constexpr const char* kColumns[] = {
    "phase", "op", "cache", "engine", "threads", "target_ops", "repetitions", "ops", "seconds",
    "ops_per_sec", "p50_us", "p90_us", "p99_us", "p999_us", "max_us", "cpu_user_s", "cpu_sys_s",
    "peak_rss_bytes", "file_bytes", "allocated_bytes", "bytes_written", "cache_resident_pct",
    "found", "not_found", "status",
    // Extensions, after the fixed columns.
    "rows", "bytes_returned", "errors", "stream_digest", "phase_op", "bytes_read",
    "cache_resident_after_pct", "open_seconds", "ops_per_sec_min", "ops_per_sec_max",
    // Schema 2: the medians' confidence intervals (empty below 2 repetitions)
    // and the conditions of the sizes and of cold.
    "ops_per_sec_ci_low", "ops_per_sec_ci_high", "ops_per_sec_ci_level", "p99_us_ci_low",
    "p99_us_ci_high", "sizes_after_sync", "cache_resident_after_eviction_pct",
    // Results schema 5: what ops_per_sec divides by. wall_seconds repeats
    // `seconds` under a name that says what it is (in schema-4 files
    // `seconds` was the in-call time); engine_seconds is the time inside the
    // engine's calls, harness_share = 1 - engine_seconds / wall_seconds, and
    // rate_base says which of the two ops_per_sec divides by (engine_calls
    // only for rows read from a schema-4 file).
    "wall_seconds", "engine_seconds", "harness_share", "rate_base",
    // Non-empty where the latency columns are of block means (record
    // phases): the largest number of operations timed together in a block.
    "latency_block_ops",
    // Last: free text.
    "reason"};

std::string Median(const std::optional<results::Spread>& s) {
  return s ? FormatExact(s->median) : "";
}

std::string CiLow(const std::optional<results::Spread>& s) {
  return s && s->ci ? FormatExact(s->ci->low) : "";
}
std::string CiHigh(const std::optional<results::Spread>& s) {
  return s && s->ci ? FormatExact(s->ci->high) : "";
}

std::string Row(const results::PhaseRun& run, const Figures& f) {
  const std::vector<std::string> fields = {
      run.phase, f.op, run.cache, run.engine, std::to_string(run.threads),
      FormatExact(run.target_ops), std::to_string(f.repetitions), Median(f.ops), Median(f.seconds),
      Median(f.ops_per_sec), Median(f.p50_us), Median(f.p90_us), Median(f.p99_us),
      Median(f.p999_us), Median(f.max_us), Median(f.cpu_user_s), Median(f.cpu_sys_s),
      Median(f.peak_rss_bytes), Median(f.file_bytes), Median(f.allocated_bytes),
      Median(f.bytes_written),
      // Residency when the phase started: for a cold phase, the proof it was cold.
      Median(f.cache_resident_before_pct), Median(f.found), Median(f.not_found), run.status,
      Median(f.rows), Median(f.bytes_returned), Median(f.errors), f.stream_digest, run.op,
      Median(f.bytes_read), Median(f.cache_resident_after_pct), Median(f.open_seconds),
      f.ops_per_sec ? FormatExact(f.ops_per_sec->min) : "",
      f.ops_per_sec ? FormatExact(f.ops_per_sec->max) : "",
      CiLow(f.ops_per_sec), CiHigh(f.ops_per_sec),
      f.ops_per_sec && f.ops_per_sec->ci ? FormatExact(f.ops_per_sec->ci->level) : "",
      CiLow(f.p99_us), CiHigh(f.p99_us), f.sizes_after_sync ? "true" : "false",
      Median(f.cache_resident_after_eviction_pct), Median(f.seconds), Median(f.engine_seconds),
      Median(f.harness_share),
      f.rate_over_engine_calls ? "engine_calls" : (f.ops_per_sec ? "wall_span" : ""),
      f.block_ops > 0 ? std::to_string(f.block_ops) : "", run.reason};
  // Cells of free or user-given text (names from the workload file, reasons
  // from engines); every other cell is a number, a digest or a fixed word,
  // and a number's leading '-' must stay a minus sign.
  static constexpr size_t kTextCells[] = {0, 1, 2, 3, 24, 29};
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) line += ',';
    const bool text = i + 1 == fields.size() ||
                      std::find(std::begin(kTextCells), std::end(kTextCells), i) !=
                          std::end(kTextCells);
    line += text ? CsvTextField(fields[i]) : CsvField(fields[i]);
  }
  return line + "\r\n";
}

class CsvReporter final : public Reporter {
 public:
  std::string_view format() const override { return "csv"; }
  std::string_view file_name() const override { return "results.csv"; }

  std::string Render(const results::RunResults& results) const override {
    std::string out;
    for (const char* c : kColumns) {
      if (!out.empty()) out += ',';
      out += c;
    }
    out += "\r\n";
    for (const PhaseView& phase : GroupByPhase(results)) {
      for (const PointRuns& pr : phase.points) {
        for (const results::PhaseRun* run : pr.runs) {
          std::vector<std::string> ops = OpNames(*run);
          if (ops.empty()) ops.push_back("all");
          for (const std::string& op : ops) out += Row(*run, FiguresOf(*run, op));
        }
      }
    }
    return out;
  }
};

}  // namespace

std::unique_ptr<Reporter> MakeCsvReporter() { return std::make_unique<CsvReporter>(); }

}  // namespace kvbench::reports
