#include "reports/phase_tables.h"

#include <fmt/format.h>

#include <functional>
#include <limits>

#include "reports/text_format.h"

namespace kvbench::reports {

using results::PhaseRun;
using results::Spread;

namespace {

using OptSpread = std::optional<Spread>;

std::string Median(const OptSpread& s, const std::function<std::string(double)>& format) {
  return s ? format(s->median) : kUnmeasured;
}

std::string Range(const OptSpread& s, const std::function<std::string(double)>& format) {
  if (!s) return kUnmeasured;
  return format(s->min) + "–" + format(s->max);
}

// Marks as best the cells of `column` in `rows` whose value is the lowest
// (or highest), but only when some row is worse: a tie of all is no news.
void MarkBest(std::vector<std::vector<Cell>>* rows,
              const std::vector<std::optional<double>>& values, size_t column,
              bool higher_is_better) {
  std::optional<double> best, worst;
  for (const auto& v : values) {
    if (!v) continue;
    const bool better = !best || (higher_is_better ? *v > *best : *v < *best);
    const bool worse = !worst || (higher_is_better ? *v < *worst : *v > *worst);
    if (better) best = v;
    if (worse) worst = v;
  }
  if (!best || *best == *worst) return;
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] && *values[i] == *best) (*rows)[i][column].best = true;
  }
}

std::optional<double> MedianOf(const OptSpread& s) {
  return s ? std::optional<double>(s->median) : std::nullopt;
}

void AddMatrixHeader(const VaryingDimensions& v, Table* t) {
  if (v.threads) t->header.push_back("threads"), t->numeric.push_back(true);
  if (v.target) t->header.push_back("target"), t->numeric.push_back(true);
  if (v.cache) t->header.push_back("cache"), t->numeric.push_back(false);
}

void AddMatrixCells(const VaryingDimensions& v, const MatrixPoint& p, std::vector<Cell>* row) {
  if (v.threads) row->push_back({std::to_string(p.threads)});
  if (v.target) row->push_back({FormatTarget(p.target_ops)});
  if (v.cache) row->push_back({p.cache.empty() ? kUnmeasured : p.cache});
}

std::string Status(const PhaseRun& run) { return run.status; }

// Total CPU time and the system share of it: "53.2 ms (12% sys)".
std::string Cpu(const Figures& f) {
  if (!f.cpu_user_s || !f.cpu_sys_s) return kUnmeasured;
  const double total = f.cpu_user_s->median + f.cpu_sys_s->median;
  if (total <= 0) return "0 s";
  return fmt::format("{} ({:.0f}% sys)", FormatSeconds(total), 100 * f.cpu_sys_s->median / total);
}

// Optional columns, shown when some run of the phase has the figure.
struct Columns {
  bool range = false;     // more than one repetition
  bool resident = false;  // page-cache residency measured (cold and hot phases)
  bool open = false;      // reopen time measured (cold phases)
};

void AddEngineRows(const PhaseView& phase, const PointRuns& pr, const Columns& columns, Table* t) {
  const auto bytes = [](double v) { return FormatBytes(v); };
  const auto micros = [](double v) { return FormatMicros(v); };
  const auto rate = [](double v) { return FormatRate(v); };
  std::vector<std::vector<Cell>> rows;
  std::vector<std::optional<double>> ops, p50, p99, p999, cpu, rss, file, written;
  double fastest = 0;
  std::vector<Figures> figures;
  for (const PhaseRun* run : pr.runs) {
    figures.push_back(FiguresOf(*run));
    if (figures.back().ops_per_sec) fastest = std::max(fastest, figures.back().ops_per_sec->median);
  }
  for (size_t i = 0; i < pr.runs.size(); ++i) {
    const Figures& f = figures[i];
    std::vector<Cell> row;
    AddMatrixCells(phase.varying, pr.point, &row);
    row.push_back({pr.runs[i]->engine});
    row.push_back({Median(f.ops_per_sec, rate)});
    if (columns.range) {
      row.push_back({f.repetitions > 1 ? Range(f.ops_per_sec, rate) : kUnmeasured});
    }
    row.push_back({f.ops_per_sec && fastest > 0 ? FormatRatio(f.ops_per_sec->median / fastest)
                                                : kUnmeasured});
    row.push_back({Median(f.p50_us, micros)});
    row.push_back({Median(f.p99_us, micros)});
    row.push_back({Median(f.p999_us, micros)});
    row.push_back({Cpu(f)});
    row.push_back({Median(f.peak_rss_bytes, bytes)});
    row.push_back({Median(f.file_bytes, bytes)});
    row.push_back({Median(f.bytes_written, bytes)});
    if (columns.resident) {
      row.push_back({Median(f.cache_resident_before_pct,
                            [](double v) { return FormatSignificant(v, 2) + "%"; })});
    }
    if (columns.open) row.push_back({Median(f.open_seconds, FormatSeconds)});
    row.push_back({Status(*pr.runs[i])});
    rows.push_back(std::move(row));
    ops.push_back(MedianOf(f.ops_per_sec));
    p50.push_back(MedianOf(f.p50_us));
    p99.push_back(MedianOf(f.p99_us));
    p999.push_back(MedianOf(f.p999_us));
    cpu.push_back(f.cpu_user_s && f.cpu_sys_s
                      ? std::optional<double>(f.cpu_user_s->median + f.cpu_sys_s->median)
                      : std::nullopt);
    rss.push_back(MedianOf(f.peak_rss_bytes));
    // An engine that keeps no files (in memory) is not the "smallest file".
    file.push_back(f.file_bytes && f.file_bytes->median > 0 ? MedianOf(f.file_bytes)
                                                            : std::nullopt);
    written.push_back(MedianOf(f.bytes_written));
  }
  size_t c = (phase.varying.threads ? 1 : 0) + (phase.varying.target ? 1 : 0) +
             (phase.varying.cache ? 1 : 0) + 1;
  MarkBest(&rows, ops, c++, true);
  if (columns.range) ++c;
  ++c;  // ratio
  MarkBest(&rows, p50, c++, false);
  MarkBest(&rows, p99, c++, false);
  MarkBest(&rows, p999, c++, false);
  MarkBest(&rows, cpu, c++, false);
  MarkBest(&rows, rss, c++, false);
  MarkBest(&rows, file, c++, false);
  MarkBest(&rows, written, c++, false);
  for (auto& row : rows) t->rows.push_back(std::move(row));
}

void AddOpRows(const PhaseView& phase, const PointRuns& pr, Table* t) {
  const auto micros = [](double v) { return FormatMicros(v); };
  for (const PhaseRun* run : pr.runs) {
    for (const std::string& op : OpNames(*run)) {
      if (op == "all") continue;
      const Figures f = FiguresOf(*run, op);
      std::vector<Cell> row;
      AddMatrixCells(phase.varying, pr.point, &row);
      row.push_back({run->engine});
      row.push_back({op});
      row.push_back({Median(f.ops, [](double v) { return FormatCount(v); })});
      row.push_back({Median(f.ops_per_sec, [](double v) { return FormatRate(v); })});
      row.push_back({Median(f.p50_us, micros)});
      row.push_back({Median(f.p90_us, micros)});
      row.push_back({Median(f.p99_us, micros)});
      row.push_back({Median(f.p999_us, micros)});
      row.push_back({Median(f.found, [](double v) { return FormatCount(v); })});
      row.push_back({Median(f.not_found, [](double v) { return FormatCount(v); })});
      t->rows.push_back(std::move(row));
    }
  }
}

std::string WorkSentence(const PhaseView& phase, const PointRuns& pr, bool differ) {
  const std::string where =
      phase.points.size() > 1 ? PointLabel(pr.point, phase.varying) + ": " : "";
  std::vector<const PhaseRun*> ok;
  for (const PhaseRun* run : pr.runs) {
    if (run->status == "ok" && !run->repetitions.empty()) ok.push_back(run);
  }
  if (ok.empty()) return where + "no engine completed this phase.";
  const Figures f = FiguresOf(*ok.front());
  auto count = [](const OptSpread& s) { return s ? FormatCount(s->median) : kUnmeasured; };
  std::string s = fmt::format("{}{} found, {} not found, {} rows", where, count(f.found),
                              count(f.not_found), count(f.rows));
  if (differ) {
    s += fmt::format(" ({}; engines differ, see the warning)", ok.front()->engine);
  } else {
    s += fmt::format("; stream digest {}", f.stream_digest.empty() ? "(none)" : f.stream_digest);
    s += ok.size() > 1 ? fmt::format(", identical for all {} engines", ok.size()) : "";
  }
  std::string errors;
  for (const PhaseRun* run : ok) {
    const Figures e = FiguresOf(*run);
    if (e.errors && e.errors->max > 0) {
      errors += (errors.empty() ? "" : ", ") + run->engine + " " + FormatCount(e.errors->max);
    }
  }
  if (!errors.empty()) s += "; operations that returned an error: " + errors;
  return s + ".";
}

std::string Constants(const PhaseView& phase) {
  std::vector<std::string> parts;
  const MatrixPoint& p = phase.points.front().point;
  if (!phase.varying.threads) parts.push_back(PointLabel(p, {true, false, false}));
  if (!phase.varying.target) parts.push_back(PointLabel(p, {false, true, false}));
  if (!phase.varying.cache && !p.cache.empty()) parts.push_back("cache " + p.cache);
  std::string out;
  for (const auto& s : parts) out += (out.empty() ? "" : ", ") + s;
  return out;
}

}  // namespace

std::vector<PhaseSection> BuildPhaseSections(const results::RunResults& results) {
  std::vector<PhaseSection> sections;
  for (const PhaseView& phase : GroupByPhase(results)) {
    PhaseSection s;
    s.name = phase.name;
    s.op = phase.op;
    for (const auto& [k, v] : phase.first->params)
      s.params += (s.params.empty() ? "" : ", ") + k + "=" + v;
    s.constants = Constants(phase);

    int max_reps = 0;
    bool mixed = false;
    for (const PointRuns& pr : phase.points) {
      for (const PhaseRun* run : pr.runs) {
        max_reps = std::max(max_reps, static_cast<int>(run->repetitions.size()));
        mixed = mixed || OpNames(*run).size() > 1;
      }
    }
    Columns columns;
    columns.range = max_reps > 1;
    for (const PointRuns& pr : phase.points) {
      for (const PhaseRun* run : pr.runs) {
        const Figures f = FiguresOf(*run);
        columns.resident = columns.resident || f.cache_resident_before_pct.has_value();
        columns.open = columns.open || f.open_seconds.has_value();
      }
    }
    s.note = columns.range ? fmt::format(
                                 "Medians of up to {} repetitions; range = min–max of ops/s "
                                 "over repetitions.",
                                 max_reps)
                           : "One repetition.";
    s.note += " Bold: best at its matrix point. vs best = ops/s relative to the fastest engine.";
    if (columns.resident) {
      s.note +=
          " cached at start = share of the engine's files in the page cache when the phase "
          "began.";
    }
    if (columns.open) s.note += " reopen = time to reopen the engine, measured on its own.";

    Table& t = s.engines;
    AddMatrixHeader(phase.varying, &t);
    const std::vector<std::string> header = {
        "engine", "ops/s",    "ops/s range", "vs best", "p50 µs",          "p99 µs", "p99.9 µs",
        "CPU",    "peak RSS", "file size",   "written", "cached at start", "reopen", "status"};
    const std::vector<bool> numeric = {false, true, true, true, true, true, true,
                                       true,  true, true, true, true, true, false};
    for (size_t i = 0; i < header.size(); ++i) {
      if (header[i] == "ops/s range" && !columns.range) continue;
      if (header[i] == "cached at start" && !columns.resident) continue;
      if (header[i] == "reopen" && !columns.open) continue;
      t.header.push_back(header[i]);
      t.numeric.push_back(numeric[i]);
    }
    if (mixed) {
      AddMatrixHeader(phase.varying, &s.per_op);
      for (const char* h : {"engine", "op", "ops", "ops/s", "p50 µs", "p90 µs", "p99 µs",
                            "p99.9 µs", "found", "not found"}) {
        s.per_op.header.push_back(h);
        s.per_op.numeric.push_back(std::string(h) != "engine" && std::string(h) != "op");
      }
    }
    for (const PointRuns& pr : phase.points) {
      AddEngineRows(phase, pr, columns, &t);
      if (mixed) AddOpRows(phase, pr, &s.per_op);
      const std::vector<std::string> differences = WorkDifferences(pr);
      s.work.push_back(WorkSentence(phase, pr, !differences.empty()));
      for (const std::string& d : differences) {
        s.warnings.push_back(
            "engines did different work" +
            (phase.points.size() > 1 ? " at " + PointLabel(pr.point, phase.varying) : "") + ": " +
            d + ".");
      }
    }
    sections.push_back(std::move(s));
  }
  return sections;
}

}  // namespace kvbench::reports
