#include "reports/run_facts.h"

#include <fmt/format.h>

#include "reports/report_model.h"
#include "reports/text_format.h"

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
      e.data_directory + (e.filesystem.empty() ? "" : " (" + e.filesystem + ")"));
  Add(&f, "compiler", e.compiler);
  Add(&f, "build", e.build_type + (e.cxx_flags.empty() ? "" : " " + e.cxx_flags));
  Add(&f, "kvbench",
      e.kvbench_version + (e.kvbench_revision.empty() ? "" : " (" + e.kvbench_revision + ")"));
  std::string libraries;
  for (const auto& [engine, version] : e.libraries) {
    libraries += (libraries.empty() ? "" : ", ") + engine + " " + version;
  }
  Add(&f, "libraries", libraries);
  return f;
}

Facts WorkloadFacts(const results::RunResults& results) {
  const results::WorkloadInfo& w = results.workload;
  Facts f;
  Add(&f, "workload", w.name);
  Add(&f, "file", w.file);
  Add(&f, "scale", FormatExact(w.scale));
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
