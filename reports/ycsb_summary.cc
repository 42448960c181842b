#include "reports/ycsb_summary.h"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "common/owned_dir.h"
#include "reports/java_format.h"
#include "reports/percentiles.h"

namespace kvbench::reports {

namespace {

uint64_t Micros(uint64_t ns) { return (ns + 500) / 1000; }

std::string YcsbName(const std::string& op) {
  std::string name = op;
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

// YCSB's OneMeasurementHdrHistogram.ordinal(): 50 -> "50th", 1 -> "1st",
// 99.9 -> "99.9".
std::string Ordinal(double p) {
  if (p != std::floor(p)) return JavaDouble(p);
  const auto n = static_cast<int64_t>(p);
  static const char* kSuffixes[] = {"th", "st", "nd", "rd", "th", "th", "th", "th", "th", "th"};
  const int64_t tens = n % 100;
  if (tens == 11 || tens == 12 || tens == 13) return std::to_string(n) + "th";
  return std::to_string(n) + kSuffixes[n % 10];
}

void Line(const std::string& metric, const std::string& measurement, const std::string& value,
          std::string* out) {
  *out += "[" + metric + "], " + measurement + ", " + value + "\n";
}

void AppendLatencies(const std::string& n, const results::LatencySummary& l,
                     const YcsbTextOptions& options, std::string* out) {
  Line(n, "Operations", std::to_string(l.count), out);
  Line(n, "AverageLatency(us)", JavaDouble(l.mean_ns / 1000.0), out);
  Line(n, "MinLatency(us)", std::to_string(Micros(l.min_ns)), out);
  Line(n, "MaxLatency(us)", std::to_string(Micros(l.max_ns)), out);
  for (double p : options.percentiles) {
    Line(n, Ordinal(p) + "PercentileLatency(us)", std::to_string(Micros(ValueAtPercentile(l, p))),
         out);
  }
}

void AppendOp(const results::OpFigures& f, const results::TimeSeries* series,
              const YcsbTextOptions& options, std::string* out) {
  const std::string n = YcsbName(f.op);
  AppendLatencies(n, f.latency, options, out);
  const uint64_t failed = f.work.not_found + f.work.errors;
  Line(n, "Return=OK", std::to_string(f.ops > failed ? f.ops - failed : 0), out);
  if (f.work.not_found > 0) Line(n, "Return=NOT_FOUND", std::to_string(f.work.not_found), out);
  if (f.work.errors > 0) Line(n, "Return=ERROR", std::to_string(f.work.errors), out);
  if (!options.timeseries || series == nullptr) return;
  for (const results::OpTimeSeries& s : series->ops) {
    if (s.op != f.op) continue;
    for (size_t i = 0; i < s.count.size(); ++i) {
      if (s.count[i] == 0) continue;
      const auto start_ms =
          static_cast<int64_t>(std::floor(static_cast<double>(i) * series->interval_s * 1000.0));
      Line(n, std::to_string(start_ms), JavaDouble(s.mean_ns[i] / 1000.0), out);
    }
  }
}

// "-target2000-cold": the target rate and cache state of a run, where set.
std::string RateAndCache(const results::PhaseRun& run) {
  std::string part;
  if (run.target_ops > 0) part += fmt::format("-target{}", run.target_ops);
  if (!run.cache.empty()) part += "-" + run.cache;
  return part;
}

// "-t4-target2000-cold": a run's matrix point, one client left unsaid.
std::string PointPart(const results::PhaseRun& run) {
  return (run.threads != 1 ? fmt::format("-t{}", run.threads) : "") + RateAndCache(run);
}

bool PhaseHasSeveralPoints(const results::RunResults& results, const results::PhaseRun& run) {
  return std::count_if(results.runs.begin(), results.runs.end(), [&](const results::PhaseRun& r) {
           return r.engine == run.engine && r.phase == run.phase;
         }) > 1;
}

}  // namespace

std::string RenderYcsbRun(const results::Repetition& rep, const YcsbTextOptions& options) {
  std::string out;
  if (rep.ops.empty()) return out;
  const results::OpFigures& all = rep.ops.front();
  // YCSB's RunTime is the client's wall time, its own work between calls
  // included: the wall span (Repetition::seconds, every schema as read).
  const double seconds = rep.seconds;
  const auto runtime_ms = std::llround(seconds * 1000);
  Line("OVERALL", "RunTime(ms)", std::to_string(runtime_ms), &out);
  // YCSB: 1000.0 * operations / RunTime(ms).
  Line("OVERALL", "Throughput(ops/sec)",
       JavaDouble(seconds > 0 ? static_cast<double>(all.ops) / seconds : 0.0), &out);
  const results::TimeSeries* series = rep.time_series ? &*rep.time_series : nullptr;
  for (size_t i = 1; i < rep.ops.size(); ++i) {
    if (rep.ops[i].op != "commit") AppendOp(rep.ops[i], series, options, &out);
  }
  if (rep.session_cleanup) {
    AppendLatencies("CLEANUP", *rep.session_cleanup, options, &out);
    Line("CLEANUP", "Return=OK", std::to_string(rep.session_cleanup->count), &out);
  }
  return out;
}

std::string RenderYcsbSummary(const results::RunResults& results, const std::string& engine,
                              const YcsbTextOptions& options) {
  std::string out;
  for (const results::PhaseRun& run : results.runs) {
    if (run.engine != engine) continue;
    out += fmt::format("[KVBENCH], Engine, {}\n[KVBENCH], Phase, {}\n", engine, run.phase);
    if (PhaseHasSeveralPoints(results, run)) {
      out += fmt::format("[KVBENCH], Point, t{}{}\n", run.threads, RateAndCache(run));
    }
    if (run.status != "ok") {
      out += fmt::format("[KVBENCH], Status, {}{}{}\n", run.status, run.reason.empty() ? "" : ": ",
                         run.reason);
    }
    for (size_t i = 0; i < run.repetitions.size(); ++i) {
      if (run.repetitions.size() > 1) out += fmt::format("[KVBENCH], Repetition, {}\n", i + 1);
      out += RenderYcsbRun(run.repetitions[i], options);
    }
  }
  return out;
}

std::string RunFileStem(const results::RunResults& results, const results::PhaseRun& run,
                        size_t repetition) {
  // Names from the workload reach a file name only through SlugOf: two
  // phases whose names differ never share a file ("a b" and "a_b" differ).
  std::string stem = SlugOf(run.engine) + "-" + SlugOf(run.phase);
  if (PhaseHasSeveralPoints(results, run)) stem += PointPart(run);
  if (run.repetitions.size() > 1) stem += fmt::format("-rep{}", repetition + 1);
  for (char& c : stem) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
  }
  return stem;
}

std::vector<std::pair<std::string, std::string>> YcsbRunFiles(const results::RunResults& results,
                                                              const YcsbTextOptions& options) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const results::PhaseRun& run : results.runs) {
    for (size_t i = 0; i < run.repetitions.size(); ++i) {
      files.emplace_back(RunFileStem(results, run, i) + ".txt",
                         RenderYcsbRun(run.repetitions[i], options));
    }
  }
  return files;
}

}  // namespace kvbench::reports
