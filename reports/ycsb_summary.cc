#include "reports/ycsb_summary.h"

#include <fmt/core.h>

#include <cctype>
#include <cmath>

namespace kvbench::reports {

namespace {

uint64_t Micros(uint64_t ns) { return (ns + 500) / 1000; }

std::string YcsbName(const std::string& op) {
  std::string name = op;
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return name;
}

void AppendOp(const results::OpFigures& f, std::string* out) {
  const std::string n = YcsbName(f.op);
  const results::LatencySummary& l = f.latency;
  *out += fmt::format("[{}], Operations, {}\n", n, f.ops);
  *out += fmt::format("[{}], AverageLatency(us), {}\n", n, l.mean_ns / 1000.0);
  *out += fmt::format("[{}], MinLatency(us), {}\n", n, Micros(l.min_ns));
  *out += fmt::format("[{}], MaxLatency(us), {}\n", n, Micros(l.max_ns));
  *out += fmt::format("[{}], 95thPercentileLatency(us), {}\n", n, Micros(l.p95_ns));
  *out += fmt::format("[{}], 99thPercentileLatency(us), {}\n", n, Micros(l.p99_ns));
  const uint64_t failed = f.work.not_found + f.work.errors;
  *out += fmt::format("[{}], Return=OK, {}\n", n, f.ops > failed ? f.ops - failed : 0);
  if (f.work.not_found > 0) {
    *out += fmt::format("[{}], Return=NOT_FOUND, {}\n", n, f.work.not_found);
  }
  if (f.work.errors > 0) *out += fmt::format("[{}], Return=ERROR, {}\n", n, f.work.errors);
}

}  // namespace

std::string RenderYcsbSummary(const results::RunResults& results, const std::string& engine) {
  std::string out;
  for (const results::PhaseRun& run : results.runs) {
    if (run.engine != engine) continue;
    out += fmt::format("[KVBENCH], Engine, {}\n[KVBENCH], Phase, {}\n", engine, run.phase);
    if (run.status != "ok") {
      out += fmt::format("[KVBENCH], Status, {}{}{}\n", run.status, run.reason.empty() ? "" : ": ",
                         run.reason);
    }
    for (const results::Repetition& rep : run.repetitions) {
      if (rep.ops.empty()) continue;
      const results::OpFigures& all = rep.ops.front();
      out += fmt::format("[OVERALL], RunTime(ms), {}\n", std::llround(rep.seconds * 1000));
      out += fmt::format("[OVERALL], Throughput(ops/sec), {}\n",
                         rep.seconds > 0 ? static_cast<double>(all.ops) / rep.seconds : 0.0);
      for (size_t i = 1; i < rep.ops.size(); ++i) {
        if (rep.ops[i].op != "commit") AppendOp(rep.ops[i], &out);
      }
    }
  }
  return out;
}

}  // namespace kvbench::reports
