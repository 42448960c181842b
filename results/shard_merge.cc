#include "results/shard_merge.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace kvbench::results {

namespace {

std::string Name(const ShardInfo& s) { return fmt::format("shard {}/{}", s.index, s.count); }

std::string Name(const ShardFile& f) {
  return fmt::format("{} ('{}')", Name(f.results.shards.front()), f.path);
}

std::string JoinMap(const std::map<std::string, std::string>& m) {
  std::string out;
  for (const auto& [k, v] : m) out += (out.empty() ? "" : " ") + k + "=" + v;
  return out.empty() ? "(none)" : out;
}

// What makes two shards' plans differ, as far as results show it: the first
// difference found, or a general sentence when it lies deeper (phases,
// repetitions, the matrix).
std::string PlanDifference(const RunResults& a, const RunResults& b) {
  const WorkloadInfo& wa = a.workload;
  const WorkloadInfo& wb = b.workload;
  if (wa.name != wb.name) return fmt::format("workload '{}' vs '{}'", wa.name, wb.name);
  if (wa.scale != wb.scale) return fmt::format("--scale {} vs {}", wa.scale, wb.scale);
  if (wa.dataset != wb.dataset) {
    return fmt::format("dataset {} vs {}", JoinMap(wa.dataset), JoinMap(wb.dataset));
  }
  if (wa.source != wb.source) return "the workload files' texts differ";
  for (const EngineRun& ea : a.engines) {
    for (const EngineRun& eb : b.engines) {
      if (ea.name != eb.name) continue;
      if (ea.options != eb.options) {
        return fmt::format("engine {}'s options {} vs {}", ea.name, JoinMap(ea.options),
                           JoinMap(eb.options));
      }
    }
  }
  return "the resolved plans differ (engines, phases, repetitions or matrix points: compare "
         "their command lines '" +
         a.command_line + "' and '" + b.command_line + "')";
}

// Checks that `files` are the shards 0..N-1 of one plan and one assignment,
// each once and finished.
Status CheckShardSet(const std::vector<ShardFile>& files, const std::vector<std::string>& absent) {
  if (files.empty()) {
    std::string msg = "no shard's results exist";
    for (const std::string& a : absent) msg += (&a == &absent[0] ? ": '" : ", '") + a + "'";
    return Status::InvalidArgument(msg);
  }
  for (const ShardFile& f : files) {
    if (f.results.shards.size() != 1) {
      return Status::InvalidArgument(
          f.results.shards.empty()
              ? fmt::format("'{}' is not a shard's results (run with --shard K/N)", f.path)
              : fmt::format("'{}' already holds {} merged shards; merge the shards' own results",
                            f.path, f.results.shards.size()));
    }
  }
  const ShardFile& first = files.front();
  const ShardInfo& s0 = first.results.shards.front();
  std::map<int, const ShardFile*> by_index;
  for (const ShardFile& f : files) {
    const ShardInfo& s = f.results.shards.front();
    if (s.count != s0.count) {
      return Status::InvalidArgument(
          fmt::format("{} and {} split the plan differently ({} vs {} shards)", Name(first),
                      Name(f), s0.count, s.count));
    }
    if (s.plan_hash != s0.plan_hash) {
      return Status::InvalidArgument(fmt::format("{} belongs to a different plan than {}: {}",
                                                 Name(f), Name(first),
                                                 PlanDifference(first.results, f.results)));
    }
    if (s.assignment_hash != s0.assignment_hash) {
      return Status::InvalidArgument(fmt::format(
          "{} assigned the plan's units to shards differently from {} (run every shard with "
          "the same --costs file, or none)",
          Name(f), Name(first)));
    }
    const auto [it, inserted] = by_index.emplace(s.index, &f);
    if (!inserted) {
      return Status::InvalidArgument(
          fmt::format("{} is given twice: '{}' and '{}'", Name(s), it->second->path, f.path));
    }
  }
  std::vector<int> missing;
  for (int k = 0; k < s0.count; ++k) {
    if (!by_index.contains(k)) missing.push_back(k);
  }
  if (!missing.empty()) {
    std::string names, reruns;
    for (int k : missing) {
      names += fmt::format("{}{}/{}", names.empty() ? "" : ", ", k, s0.count);
      reruns += fmt::format("{}--shard {}/{}", reruns.empty() ? "" : ", ", k, s0.count);
    }
    const bool many = missing.size() > 1;
    std::string msg =
        fmt::format("shard{} {} {} missing", many ? "s" : "", names, many ? "are" : "is");
    if (!absent.empty()) {
      std::string paths;
      for (const std::string& a : absent) paths += (paths.empty() ? "'" : ", '") + a + "'";
      msg += fmt::format(" ({} do{} not exist)", paths, absent.size() > 1 ? "" : "es");
    }
    msg += fmt::format(
        "; the {} other shard{} results are intact: run `kvbench run` with {} "
        "and merge again",
        files.size(), files.size() == 1 ? "'s" : "s'", reruns);
    return Status::InvalidArgument(msg);
  }
  for (const auto& [index, f] : by_index) {
    const ShardInfo& s = f->results.shards.front();
    if (!s.finished) {
      return Status::InvalidArgument(fmt::format(
          "{} did not finish (its results hold {} of its {} rows: the run was killed); rerun "
          "it and merge again",
          Name(*f), f->results.runs.size(), s.rows));
    }
  }
  return Status::OK();
}

// `from`'s status and reason folded into `into` (the same engine on another
// shard): a failure anywhere is the engine's failure, its shard named.
void FoldEngine(const EngineRun& from, const ShardInfo& shard, EngineRun* into) {
  into->wall_seconds += from.wall_seconds;
  if (from.status == "ok") return;
  if (into->status == "ok" || into->status == "interrupted") into->status = from.status;
  into->reason += (into->reason.empty() ? "" : "; ") + Name(shard) + ": " + from.reason;
}

}  // namespace

Status MergeShards(const std::vector<ShardFile>& files, const std::vector<std::string>& absent,
                   const std::string& command_line, RunResults* out) {
  KVBENCH_RETURN_IF_ERROR(CheckShardSet(files, absent));
  std::vector<const ShardFile*> ordered;
  for (const ShardFile& f : files) ordered.push_back(&f);
  std::sort(ordered.begin(), ordered.end(), [](const ShardFile* a, const ShardFile* b) {
    return a->results.shards.front().index < b->results.shards.front().index;
  });

  RunResults merged;
  const RunResults& first = ordered.front()->results;
  merged.command_line = command_line;
  merged.environment = first.environment;
  merged.workload = first.workload;
  merged.started_at = first.started_at;
  merged.finished_at = first.finished_at;
  std::map<int, std::pair<const PhaseRun*, const ShardFile*>> rows;
  std::map<std::string, EngineRun> engines;
  std::vector<std::string> engines_seen;
  for (const ShardFile* f : ordered) {
    const RunResults& r = f->results;
    ShardInfo shard = r.shards.front();
    shard.environment = r.environment;
    shard.file = f->path;
    merged.shards.push_back(shard);
    merged.started_at = std::min(merged.started_at, r.started_at);
    merged.finished_at = std::max(merged.finished_at, r.finished_at);
    for (const auto& [engine, version] : r.environment.libraries) {
      merged.environment.libraries.emplace(engine, version);
    }
    for (const PhaseRun& run : r.runs) {
      if (!run.row) {
        return Status::InvalidArgument(fmt::format(
            "{}: run of phase '{}' on {} has no row number (written by an older kvbench?)",
            Name(*f), run.phase, run.engine));
      }
      const auto [it, inserted] = rows.emplace(*run.row, std::pair{&run, f});
      if (!inserted) {
        return Status::InvalidArgument(
            fmt::format("phase '{}' on {} (row {}) was measured by both {} and {}", run.phase,
                        run.engine, *run.row, Name(*it->second.second), Name(*f)));
      }
    }
    for (const EngineRun& e : r.engines) {
      const auto [it, inserted] = engines.emplace(e.name, e);
      if (inserted) {
        it->second.wall_seconds = 0;
        it->second.status = "ok";
        it->second.reason.clear();
        engines_seen.push_back(e.name);
      }
      FoldEngine(e, shard, &it->second);
    }
  }
  for (const auto& [row, run_and_file] : rows) {
    PhaseRun run = *run_and_file.first;
    run.shard = run_and_file.second->results.shards.front().index;
    merged.runs.push_back(std::move(run));
  }
  // Engines in the plan's order: that of their first row, then any that
  // have none (an engine that failed before its first phase).
  std::vector<std::string> order;
  for (const PhaseRun& run : merged.runs) {
    if (std::find(order.begin(), order.end(), run.engine) == order.end())
      order.push_back(run.engine);
  }
  for (const std::string& e : engines_seen) {
    if (std::find(order.begin(), order.end(), e) == order.end()) order.push_back(e);
  }
  for (const std::string& e : order) {
    if (const auto it = engines.find(e); it != engines.end()) merged.engines.push_back(it->second);
  }
  *out = std::move(merged);
  return Status::OK();
}

const Environment& EnvironmentOf(const RunResults& results, const PhaseRun& run) {
  if (run.shard) {
    for (const ShardInfo& s : results.shards) {
      if (s.index == *run.shard && s.environment) return *s.environment;
    }
  }
  return results.environment;
}

std::vector<std::string> HostsOf(const RunResults& results) {
  std::vector<std::string> hosts;
  for (const PhaseRun& run : results.runs) {
    const std::string& h = EnvironmentOf(results, run).hostname;
    if (std::find(hosts.begin(), hosts.end(), h) == hosts.end()) hosts.push_back(h);
  }
  if (hosts.empty()) hosts.push_back(results.environment.hostname);
  return hosts;
}

}  // namespace kvbench::results
