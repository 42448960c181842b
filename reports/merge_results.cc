// MergeResults: several results files into one report (`kvbench report A B`).
#include <fmt/format.h>

#include <cctype>
#include <set>

#include "reports/report_model.h"
#include "reports/reports.h"

namespace kvbench::reports {

namespace {

bool SameMachineAndBuild(const results::Environment& a, const results::Environment& b) {
  return a.hostname == b.hostname && a.cpu_model == b.cpu_model && a.cores == b.cores &&
         a.memory_bytes == b.memory_bytes && a.kernel == b.kernel && a.filesystem == b.filesystem &&
         a.compiler == b.compiler && a.cxx_flags == b.cxx_flags && a.build_type == b.build_type &&
         a.kvbench_version == b.kvbench_version && a.kvbench_revision == b.kvbench_revision;
}

std::string Describe(const results::Environment& e) {
  return fmt::format(
      "host {}, CPU {}, {} cores, kernel {}, filesystem {}, {} {} {}, kvbench {} ({})", e.hostname,
      e.cpu_model, e.cores, e.kernel, e.filesystem, e.compiler, e.build_type, e.cxx_flags,
      e.kvbench_version, e.kvbench_revision);
}

std::string Lower(std::string s) {
  s[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(s[0])));
  return s;
}

}  // namespace

results::RunResults MergeResults(const std::vector<results::RunResults>& inputs) {
  if (inputs.empty()) return {};
  results::RunResults out = inputs.front();
  if (inputs.size() == 1) return out;
  std::set<std::string> used;
  for (const std::string& e : EngineOrder(out)) used.insert(e);
  std::string notes;
  for (size_t k = 1; k < inputs.size(); ++k) {
    const results::RunResults& in = inputs[k];
    const std::string input = fmt::format("Input {}", k + 1);
    std::map<std::string, std::string> renamed;
    std::string renamed_list;
    for (const std::string& e : EngineOrder(in)) {
      std::string name = e;
      if (used.contains(name)) name = fmt::format("{}#{}", e, k + 1);
      for (int extra = 2; used.contains(name); ++extra) {
        name = fmt::format("{}#{}.{}", e, k + 1, extra);
      }
      used.insert(name);
      renamed[e] = name;
      if (name != e) renamed_list += (renamed_list.empty() ? "" : ", ") + e + " as " + name;
    }
    if (!renamed_list.empty()) {
      notes +=
          fmt::format(" Engines of {} whose names an earlier input used are shown renamed: {}.",
                      Lower(input), renamed_list);
    }
    for (results::EngineRun e : in.engines) {
      e.name = renamed[e.name];
      out.engines.push_back(std::move(e));
    }
    for (results::PhaseRun r : in.runs) {
      r.engine = renamed[r.engine];
      out.runs.push_back(std::move(r));
    }
    for (results::DurabilityRun d : in.durability) {
      if (const auto it = renamed.find(d.engine); it != renamed.end()) d.engine = it->second;
      out.durability.push_back(std::move(d));
    }
    for (const auto& [engine, version] : in.environment.libraries) {
      const auto it = renamed.find(engine);
      out.environment.libraries.emplace(it == renamed.end() ? engine : it->second, version);
    }
    if (!SameMachineAndBuild(out.environment, in.environment)) {
      notes +=
          fmt::format(" {} ran on a different environment: {}.", input, Describe(in.environment));
    }
    if (in.workload.name != out.workload.name || in.workload.source != out.workload.source) {
      notes += fmt::format(" {} ran workload {} ({}).", input, in.workload.name, in.workload.file);
    }
  }
  out.finished_at = inputs.back().finished_at;
  // Not any one input's run: a history store gives a merge an id of its own.
  out.run_id.clear();
  std::string& d = out.workload.description;
  d += fmt::format(
      "{}Merged from {} results files; the environment and workload shown are the "
      "first's.{}",
      d.empty() ? "" : "\n\n", inputs.size(), notes);
  return out;
}

}  // namespace kvbench::reports
