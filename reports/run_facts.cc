#include "reports/run_facts.h"

#include <algorithm>

#include <fmt/format.h>

#include "reports/report_model.h"
#include "reports/text_format.h"
#include "results/shard_merge.h"
#include "results/statistics.h"

namespace kvbench::reports {

namespace {

void Add(Facts* facts, std::string key, std::string value) {
  if (!value.empty()) facts->emplace_back(std::move(key), std::move(value));
}

template <typename Map>
std::string JoinMap(const Map& m) {
  std::string out;
  for (const auto& [k, v] : m) out += (out.empty() ? "" : ", ") + k + "=" + v;
  return out;
}

}  // namespace

Facts EnvironmentFacts(const results::RunResults& results) {
  const results::Environment& e = results.environment;
  Facts f;
  Add(&f, "host", e.hostname);
  Add(&f, "CPU", e.cpu_model);
  Add(&f, "cores", e.cores > 0 ? std::to_string(e.cores) : "");
  Add(&f, "memory", e.memory_bytes > 0 ? FormatBytes(static_cast<double>(e.memory_bytes)) : "");
  Add(&f, "kernel", e.kernel);
  Add(&f, "data directory",
      e.data_directory + (e.filesystem.empty() ? "" : " (" + e.filesystem + ")") +
          (e.data_device.empty() ? "" : " on " + e.data_device));
  Add(&f, "CPU governor", e.cpu_governor);
  Add(&f, "turbo", e.turbo);
  Add(&f, "transparent huge pages", e.transparent_hugepages);
  Add(&f, "load average at start",
      e.load_average_1m ? fmt::format("{:.2f}", *e.load_average_1m) : "");
  Add(&f, "compiler", e.compiler);
  Add(&f, "build", e.build_type + (e.cxx_flags.empty() ? "" : " " + e.cxx_flags));
  Add(&f, "kvbench",
      e.kvbench_version + (e.kvbench_revision.empty() ? "" : " (" + e.kvbench_revision + ")"));
  std::string libraries;
  for (const auto& [engine, version] : e.libraries) {
    libraries += (libraries.empty() ? "" : ", ") + engine + " " + version;
  }
  Add(&f, "libraries", libraries);
  // A sharded run: which host ran each shard, and how.
  for (const results::ShardInfo& sh : results.shards) {
    const results::Environment& se = sh.environment ? *sh.environment : e;
    std::string value = fmt::format("host {}, {} rows, setup replays {}", se.hostname, sh.rows,
                                    FormatSeconds(sh.setup_seconds));
    if (sh.environment && !se.cpu_model.empty()) {
      value += fmt::format(", CPU {} ({} cores), kernel {}", se.cpu_model, se.cores, se.kernel);
    }
    if (!sh.labels.empty()) value += ", " + JoinMap(sh.labels);
    if (!sh.finished) value += ", did not finish";
    Add(&f, fmt::format("shard {}/{}", sh.index, sh.count), value);
  }
  return f;
}

namespace {

// Repetitions that ran slowed by the CPU probe's measure (report_model.h).
std::string CpuProbeWarning(const results::RunResults& results) {
  int probed = 0, slowed = 0;
  double worst = 0;
  for (const PhaseView& phase : GroupByPhase(results)) {
    for (const PointRuns& pr : phase.points) {
      const double fastest = FastestProbe(pr.runs);
      for (const results::PhaseRun* run : pr.runs) {
        slowed += SlowedRepetitions(*run, fastest);
        for (const results::Repetition& rep : run->repetitions) {
          probed += !rep.cpu_probe_us.empty();
          for (double us : rep.cpu_probe_us) worst = std::max(worst, us / fastest);
        }
      }
    }
  }
  if (slowed == 0) return "";
  return fmt::format(
      "the CPU probe took {} its fastest or longer (up to {}) around {} of {} repetitions: the "
      "machine then ran kvbench's thread slower (on a shared host, a busy neighbour on the same "
      "physical core, for instance). The verdict's lines name the engines, and rank their ties "
      "again on the repetitions at full speed.",
      FormatRatio(kProbeSlowRatio), FormatRatio(worst), slowed, probed);
}

}  // namespace

std::vector<std::string> MeasurementWarnings(const results::RunResults& results) {
  const results::Environment& e = results.environment;
  std::vector<std::string> out;
  if (const std::vector<std::string> hosts = results::HostsOf(results); hosts.size() > 1) {
    std::string names;
    for (const std::string& h : hosts) names += (names.empty() ? "" : ", ") + h;
    out.push_back(fmt::format(
        "these figures were measured on {} hosts ({}): the tables and charts group them by host "
        "and rank engines only against others of the same host. A ratio between figures of "
        "different hosts compares machines as much as engines: it is not comparable.",
        hosts.size(), names));
  }
  if (!e.build_type.empty() && e.build_type != "Release" && e.build_type != "RelWithDebInfo") {
    out.push_back("kvbench was built as " + e.build_type +
                  ": the harness's own cost is not that of a Release build.");
  }
  if (!e.cpu_governor.empty() && e.cpu_governor != "performance") {
    out.push_back("CPU governor is '" + e.cpu_governor +
                  "', not 'performance': clock frequency may change during the run.");
  }
  bool cold = false;
  for (const results::PhaseRun& run : results.runs) cold = cold || run.cache == "cold";
  if (cold && e.filesystem == "tmpfs") {
    out.push_back("cold-cache phases ran on tmpfs, where the files live in memory: 'cold' "
                  "means nothing there.");
  }
  if (const std::string slowed = CpuProbeWarning(results); !slowed.empty()) out.push_back(slowed);
  if (e.load_average_1m && e.cores > 0 && *e.load_average_1m > 0.25 * e.cores) {
    out.push_back(fmt::format("other load was present at the start (load average {:.2f} on {} "
                              "cores): figures may be disturbed.",
                              *e.load_average_1m, e.cores));
  }
  return out;
}

std::string ForksSummary(const results::RunResults& results) {
  int forks = 1;
  std::vector<double> shares;
  for (const results::PhaseRun& run : results.runs) {
    std::vector<double> rates;
    std::vector<int> fork_of;
    for (const results::Repetition& r : run.repetitions) {
      if (!r.fork || r.ops.empty()) continue;
      rates.push_back(r.ops.front().ops_per_sec);
      fork_of.push_back(*r.fork);
      forks = std::max(forks, *r.fork + 1);
    }
    if (run.status != "ok") continue;
    if (const std::optional<double> share = results::BetweenGroupShare(rates, fork_of)) {
      shares.push_back(*share);
    }
  }
  if (forks <= 1) return "";
  std::string out = fmt::format("{} processes per engine (forks), each running every phase", forks);
  if (shares.empty()) {
    return out + "; the share of the variance between them needs two repetitions in a fork";
  }
  std::sort(shares.begin(), shares.end());
  const size_t n = shares.size();
  const double median = n % 2 ? shares[n / 2] : (shares[n / 2 - 1] + shares[n / 2]) / 2;
  return out + fmt::format("; between processes: {:.0f}% of the ops/s variance (median over {} "
                           "rows, {:.0f}-{:.0f}%)",
                           median * 100, n, shares.front() * 100, shares.back() * 100);
}

std::string WarmupSummary(const results::RunResults& results) {
  size_t rows = 0, warmed = 0;
  int most = 0;
  std::vector<double> ratios;  // a warm-up's ops/s over its row's measured median
  for (const results::PhaseRun& run : results.runs) {
    if (run.status != "ok" || run.repetitions.empty()) continue;
    ++rows;
    if (run.warmup_repetitions.empty()) continue;
    ++warmed;
    most = std::max(most, static_cast<int>(run.warmup_repetitions.size()));
    const results::Spread measured =
        results::SpreadOf(run, [](const results::Repetition& r) { return r.ops.at(0).ops_per_sec; });
    const results::Repetition& first = run.warmup_repetitions.front();
    // A cold row's warm-up ran on the cache as it was, by design: not comparable.
    if (run.cache != "cold" && measured.median > 0 && !first.ops.empty()) {
      ratios.push_back(first.ops.front().ops_per_sec / measured.median);
    }
  }
  if (warmed == 0) return "";
  std::string out = fmt::format(
      "up to {} repetition{} per row before the measured ones, discarded (results.json keeps "
      "them), at {} of {} rows: those whose repetitions leave nothing later ones see",
      most, most == 1 ? "" : "s", warmed, rows);
  if (ratios.empty()) return out;
  std::sort(ratios.begin(), ratios.end());
  const size_t n = ratios.size();
  const double median = n % 2 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2;
  return out + fmt::format("; the first warm-up ran at {:.2f}x its row's measured median ops/s "
                           "(median over {} rows not cold, {:.2f}-{:.2f}x)",
                           median, n, ratios.front(), ratios.back());
}

Facts WorkloadFacts(const results::RunResults& results) {
  const results::WorkloadInfo& w = results.workload;
  Facts f;
  Add(&f, "workload", w.name);
  Add(&f, "file", w.file);
  Add(&f, "scale", FormatExact(w.scale));
  Add(&f, "processes", ForksSummary(results));
  Add(&f, "warm-up", WarmupSummary(results));
  Add(&f, "dataset", JoinMap(w.dataset));
  Add(&f, "command", results.command_line);
  Add(&f, "started", results.started_at);
  Add(&f, "finished", results.finished_at);
  return f;
}

Table EnginesTable(const results::RunResults& results) {
  Table t;
  t.header = {"engine", "library", "status", "options", "capabilities"};
  t.numeric = {false, false, false, false, false};
  for (const results::EngineRun& e : results.engines) {
    std::string caps;
    for (const auto& [name, on] : e.capabilities) {
      if (on) caps += (caps.empty() ? "" : ", ") + name;
    }
    const std::string options = JoinMap(e.options);
    t.rows.push_back({{e.name},
                      {e.library_version.empty() ? kUnmeasured : e.library_version},
                      {e.status},
                      {options.empty() ? "(defaults)" : options},
                      {caps.empty() ? "(none)" : caps}});
  }
  return t;
}

Table ProblemsTable(const results::RunResults& results) {
  Table t;
  t.header = {"engine", "phase", "matrix point", "status", "reason"};
  t.numeric = {false, false, false, false, false};
  for (const Problem& p : ProblemsOf(results)) {
    t.rows.push_back({{p.engine},
                      {p.phase.empty() ? "(whole run)" : p.phase},
                      {p.point.empty() ? kUnmeasured : p.point},
                      {p.status},
                      {p.reason.empty() ? "(no reason given)" : p.reason}});
  }
  return t;
}

}  // namespace kvbench::reports
