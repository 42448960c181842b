#include "reports/report_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>

#include "reports/text_format.h"
#include "results/shard_merge.h"

namespace kvbench::reports {

using results::OpFigures;
using results::PhaseRun;
using results::Repetition;
using results::RunResults;
using results::Spread;

namespace {

template <typename T>
void AddUnique(std::vector<T>* values, const T& v) {
  if (std::find(values->begin(), values->end(), v) == values->end()) values->push_back(v);
}

const OpFigures* FindOp(const Repetition& rep, std::string_view op) {
  for (const OpFigures& f : rep.ops) {
    if (f.op == op) return &f;
  }
  return nullptr;
}

// Median/min/max of `figure` over the repetitions that have operation `op`
// and a value for the figure.
std::optional<Spread> Collect(
    const PhaseRun& run, std::string_view op,
    const std::function<std::optional<double>(const Repetition&, const OpFigures&)>& figure) {
  std::vector<double> values;
  for (const Repetition& rep : run.repetitions) {
    const OpFigures* f = FindOp(rep, op);
    if (f == nullptr) continue;
    if (std::optional<double> v = figure(rep, *f)) values.push_back(*v);
  }
  if (values.empty()) return std::nullopt;
  return results::SpreadOfValues(std::move(values));
}

std::string JoinPerEngine(const std::vector<std::pair<std::string, std::string>>& values) {
  std::string out;
  for (const auto& [engine, v] : values) out += (out.empty() ? "" : ", ") + engine + " " + v;
  return out;
}

}  // namespace

std::string PointLabel(const MatrixPoint& point, const VaryingDimensions& show) {
  std::vector<std::string> parts;
  if (show.threads)
    parts.push_back(fmt::format("{} thread{}", point.threads, point.threads == 1 ? "" : "s"));
  if (show.target)
    parts.push_back(point.target_ops > 0 ? "target " + FormatTarget(point.target_ops)
                                         : "unthrottled");
  if (show.cache) parts.push_back(point.cache.empty() ? "no cache setting" : point.cache);
  if (show.host && !point.host.empty()) parts.push_back("host " + point.host);
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

std::string ShortPointLabel(const MatrixPoint& point, const VaryingDimensions& show) {
  std::string out;
  auto add = [&out](const std::string& s) { out += (out.empty() ? "" : " · ") + s; };
  if (show.threads) add(fmt::format("{} thr", point.threads));
  if (show.target) add(point.target_ops > 0 ? FormatTarget(point.target_ops) : "max");
  if (show.cache && !point.cache.empty()) add(point.cache);
  if (show.host && !point.host.empty()) add(point.host);
  return out;
}

std::vector<std::string> EngineOrder(const RunResults& results) {
  std::vector<std::string> order;
  for (const auto& e : results.engines) AddUnique(&order, e.name);
  for (const auto& r : results.runs) AddUnique(&order, r.engine);
  return order;
}

size_t EngineIndex(const std::vector<std::string>& order, std::string_view engine) {
  return static_cast<size_t>(std::find(order.begin(), order.end(), engine) - order.begin());
}

std::vector<PhaseView> GroupByPhase(const RunResults& results) {
  const std::vector<std::string> engines = EngineOrder(results);
  const bool several_hosts = results::HostsOf(results).size() > 1;
  std::vector<PhaseView> phases;
  for (const PhaseRun& run : results.runs) {
    auto phase = std::find_if(phases.begin(), phases.end(),
                              [&](const PhaseView& p) { return p.name == run.phase; });
    if (phase == phases.end()) {
      phases.push_back(PhaseView{run.phase, run.op, &run, {}, {}, {}, {}, {}});
      phase = phases.end() - 1;
    }
    const MatrixPoint point{run.threads, run.target_ops, run.cache,
                            several_hosts ? results::EnvironmentOf(results, run).hostname : ""};
    auto pr = std::find_if(phase->points.begin(), phase->points.end(),
                           [&](const PointRuns& p) { return p.point == point; });
    if (pr == phase->points.end()) {
      phase->points.push_back(PointRuns{point, {}});
      pr = phase->points.end() - 1;
    }
    pr->runs.push_back(&run);
    AddUnique(&phase->thread_counts, run.threads);
    AddUnique(&phase->targets, run.target_ops);
    AddUnique(&phase->caches, run.cache);
    AddUnique(&phase->hosts, point.host);
  }
  for (PhaseView& phase : phases) {
    phase.varying = {phase.thread_counts.size() > 1, phase.targets.size() > 1,
                     phase.caches.size() > 1, phase.hosts.size() > 1};
    for (PointRuns& pr : phase.points) {
      std::stable_sort(pr.runs.begin(), pr.runs.end(), [&](const PhaseRun* a, const PhaseRun* b) {
        return EngineIndex(engines, a->engine) < EngineIndex(engines, b->engine);
      });
    }
  }
  return phases;
}

std::vector<std::string> OpNames(const PhaseRun& run) {
  std::vector<std::string> names;
  for (const Repetition& rep : run.repetitions) {
    for (const OpFigures& f : rep.ops) AddUnique(&names, f.op);
  }
  auto all = std::find(names.begin(), names.end(), "all");
  if (all != names.end()) std::rotate(names.begin(), all, all + 1);
  return names;
}

Figures FiguresOf(const PhaseRun& run, std::string_view op) {
  using R = const Repetition&;
  using O = const OpFigures&;
  using Opt = std::optional<double>;
  Figures f;
  f.op = std::string(op);
  for (const Repetition& rep : run.repetitions) {
    if (const OpFigures* o = FindOp(rep, op)) {
      if (f.repetitions++ == 0) f.stream_digest = o->work.stream_digest;
    }
  }
  auto us = [](uint64_t ns) { return static_cast<double>(ns) / 1000.0; };
  auto opt = [](const auto& v) -> Opt { return v ? Opt(static_cast<double>(*v)) : Opt(); };
  f.ops = Collect(run, op, [](R, O o) -> Opt { return static_cast<double>(o.ops); });
  f.seconds = Collect(run, op, [](R r, O) -> Opt { return r.seconds; });
  f.ops_per_sec = Collect(run, op, [](R, O o) -> Opt { return o.ops_per_sec; });
  f.engine_seconds = Collect(run, op, [](R r, O) -> Opt { return r.engine_seconds; });
  f.harness_share = Collect(run, op, [](R r, O) -> Opt { return r.HarnessShare(); });
  for (const Repetition& r : run.repetitions) {
    f.rate_over_engine_calls |= r.rate_base == results::RateBase::kEngineCalls;
  }
  f.paced = run.target_ops > 0;
  f.p50_us = Collect(run, op, [&](R, O o) -> Opt { return us(o.latency.p50_ns); });
  f.p90_us = Collect(run, op, [&](R, O o) -> Opt { return us(o.latency.p90_ns); });
  f.p99_us = Collect(run, op, [&](R, O o) -> Opt { return us(o.latency.p99_ns); });
  f.p999_us = Collect(run, op, [&](R, O o) -> Opt { return us(o.latency.p999_ns); });
  f.max_us = Collect(run, op, [&](R, O o) -> Opt { return us(o.latency.max_ns); });
  f.cpu_user_s = Collect(run, op, [](R r, O) -> Opt { return r.cpu_user_s; });
  f.cpu_sys_s = Collect(run, op, [](R r, O) -> Opt { return r.cpu_sys_s; });
  f.peak_rss_bytes =
      Collect(run, op, [](R r, O) -> Opt { return static_cast<double>(r.peak_rss_bytes); });
  f.file_bytes = Collect(run, op, [](R r, O) -> Opt { return static_cast<double>(r.file_bytes); });
  f.allocated_bytes =
      Collect(run, op, [](R r, O) -> Opt { return static_cast<double>(r.allocated_bytes); });
  f.bytes_read = Collect(run, op, [&](R r, O) { return opt(r.bytes_read); });
  f.bytes_written = Collect(run, op, [&](R r, O) { return opt(r.bytes_written); });
  f.cpu_total_s = Collect(run, op, [](R r, O) -> Opt { return r.cpu_user_s + r.cpu_sys_s; });
  f.cache_resident_after_eviction_pct =
      Collect(run, op, [&](R r, O) { return opt(r.cache_resident_after_eviction_pct); });
  f.pacing_lateness_p99_us = Collect(run, op, [](R r, O) -> Opt {
    if (!r.pacing_lateness) return std::nullopt;
    return static_cast<double>(r.pacing_lateness->p99_ns) / 1000;
  });
  for (const Repetition& r : run.repetitions) {
    if (const OpFigures* o = FindOp(r, op)) f.block_ops = std::max(f.block_ops, o->latency.block_ops);
  }
  f.sizes_after_sync = !run.repetitions.empty();
  for (const Repetition& r : run.repetitions) f.sizes_after_sync &= r.sizes_after_sync;
  f.cache_resident_before_pct =
      Collect(run, op, [&](R r, O) { return opt(r.cache_resident_before_pct); });
  f.cache_resident_after_pct =
      Collect(run, op, [&](R r, O) { return opt(r.cache_resident_after_pct); });
  f.open_seconds = Collect(run, op, [&](R r, O) { return opt(r.open_seconds); });
  auto count = [](uint64_t v) -> Opt { return static_cast<double>(v); };
  f.found = Collect(run, op, [&](R, O o) { return count(o.work.found); });
  f.not_found = Collect(run, op, [&](R, O o) { return count(o.work.not_found); });
  f.rows = Collect(run, op, [&](R, O o) { return count(o.work.rows); });
  f.bytes_returned = Collect(run, op, [&](R, O o) { return count(o.work.bytes_returned); });
  f.errors = Collect(run, op, [&](R, O o) { return count(o.work.errors); });
  return f;
}

double FastestProbe(const std::vector<const results::PhaseRun*>& runs) {
  double fastest = 0;
  for (const results::PhaseRun* run : runs) {
    for (const results::Repetition& rep : run->repetitions) {
      for (double us : rep.cpu_probe_us) {
        if (us > 0 && (fastest == 0 || us < fastest)) fastest = us;
      }
    }
  }
  return fastest;
}

namespace {

// The slower of a repetition's probes over the fastest; 0 without probes.
double ProbeRatio(const results::Repetition& rep, double fastest_probe) {
  if (fastest_probe <= 0 || rep.cpu_probe_us.empty()) return 0;
  return *std::max_element(rep.cpu_probe_us.begin(), rep.cpu_probe_us.end()) / fastest_probe;
}

}  // namespace

bool RanSlowed(const results::Repetition& rep, double fastest_probe) {
  return ProbeRatio(rep, fastest_probe) >= kProbeSlowRatio;
}

int SlowedRepetitions(const results::PhaseRun& run, double fastest_probe) {
  return static_cast<int>(std::count_if(
      run.repetitions.begin(), run.repetitions.end(),
      [fastest_probe](const results::Repetition& rep) { return RanSlowed(rep, fastest_probe); }));
}

bool RanAtFullSpeed(const results::Repetition& rep, double fastest_probe) {
  const double ratio = ProbeRatio(rep, fastest_probe);
  return ratio > 0 && ratio < kProbeFullSpeedRatio;
}

bool ClientBound(const Figures& f) {
  return !f.paced && f.harness_share && f.harness_share->median > kClientBoundShare;
}

std::string HarnessShareText(const Figures& f, std::string_view unmeasured) {
  if (f.rate_over_engine_calls) return "ops/s over in-call time (schema 4)";
  if (!f.harness_share) return std::string(unmeasured);
  if (f.paced) return "n/a (paced)";
  const double v = 100 * f.harness_share->median;
  const std::string pct = v >= 1 ? fmt::format("{:.0f}%", v) : fmt::format("{:.1f}%", v);
  return ClientBound(f) ? pct + " (client-bound)" : pct;
}

uint64_t LatencyBlockOps(const PhaseView& phase) {
  uint64_t block = 0;
  for (const PointRuns& pr : phase.points) {
    for (const PhaseRun* run : pr.runs) block = std::max(block, FiguresOf(*run).block_ops);
  }
  return block;
}

std::string BlockMeansNote(uint64_t block_ops) {
  return fmt::format(
      "Latencies of block means: record phases time blocks of up to {} operations under one "
      "pair of clock reads, so their p50, p99 and max are of the blocks' mean latencies, not of "
      "single operations (a slow operation is averaged with its block).",
      FormatCount(static_cast<double>(block_ops)));
}

bool InMemory(const results::RunResults& results, std::string_view engine) {
  for (const results::EngineRun& e : results.engines) {
    if (e.name != engine) continue;
    const auto it = e.capabilities.find("durable");
    return it != e.capabilities.end() && !it->second;
  }
  return false;
}

double RelativeSpread(const Spread& s) {
  return s.median == 0 ? 0 : (s.max - s.min) / std::fabs(s.median);
}

std::vector<std::string> WorkDifferences(const PointRuns& point) {
  std::vector<const PhaseRun*> ok;
  size_t reps = SIZE_MAX;
  for (const PhaseRun* run : point.runs) {
    if (run->status != "ok" || run->repetitions.empty()) continue;
    ok.push_back(run);
    reps = std::min(reps, run->repetitions.size());
  }
  std::vector<std::string> differences;
  if (ok.size() < 2) return differences;
  struct Check {
    const char* what;
    std::function<std::string(const results::WorkCounts&)> value;
  };
  const Check checks[] = {
      {"stream digests differ", [](const auto& w) { return w.stream_digest; }},
      {"found counts differ", [](const auto& w) { return FormatCount(w.found); }},
      {"not-found counts differ", [](const auto& w) { return FormatCount(w.not_found); }},
      {"row counts differ", [](const auto& w) { return FormatCount(w.rows); }},
  };
  for (const Check& check : checks) {
    for (size_t rep = 0; rep < reps; ++rep) {
      std::vector<std::pair<std::string, std::string>> values;
      bool differ = false;
      for (const PhaseRun* run : ok) {
        const OpFigures* all = FindOp(run->repetitions[rep], "all");
        values.emplace_back(run->engine, all ? check.value(all->work) : "(no totals)");
        differ = differ || values.back().second != values.front().second;
      }
      if (!differ) continue;
      differences.push_back(fmt::format("{}{}: {}", check.what,
                                        reps > 1 ? fmt::format(" (repetition {})", rep + 1) : "",
                                        JoinPerEngine(values)));
      break;  // one sentence per kind of difference is enough
    }
  }
  return differences;
}

std::vector<Problem> ProblemsOf(const RunResults& results) {
  std::vector<Problem> problems;
  for (const auto& e : results.engines) {
    if (e.status != "ok") problems.push_back({e.name, "", "", e.status, e.reason});
  }
  for (const PhaseView& phase : GroupByPhase(results)) {
    for (const PointRuns& pr : phase.points) {
      for (const PhaseRun* run : pr.runs) {
        if (run->status == "ok") continue;
        problems.push_back({run->engine, run->phase, PointLabel(pr.point, phase.varying),
                            run->status, run->reason});
      }
    }
  }
  return problems;
}

}  // namespace kvbench::reports
