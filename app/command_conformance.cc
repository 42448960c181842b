// `kvbench conformance ENGINE [--plugin P]... [--suite S]... [--case TEXT]`:
// the conformance cases (conformance/) against one engine, built in or from
// a plugin, each case in a child process of its own. One line per case, then
// "N passed, M failed, K skipped". Exit 0 when none failed, 1 when one did
// (a crash of the engine's library is a failed case naming the signal), 2
// for bad input (an unknown engine or suite, a bad plugin).
#include <fmt/core.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "adapters/plugin/plugin_loader.h"
#include "adapters/registry.h"
#include "app/cli.h"
#include "conformance/case_runner.h"

namespace kvbench::app {
namespace {

struct ConformanceArgs {
  std::string engine;
  std::vector<std::string> plugins;
  std::vector<std::string> suites;  // empty: all
  std::string case_filter;          // a substring of "suite/Name"; empty: all
  double timeout_s = 600;
};

int RunConformance(const ConformanceArgs& args) {
  if (Status s = plugin_host::LoadPlugins(args.plugins, ""); !s.ok()) {
    fmt::print(stderr, "kvbench conformance: --plugin: {}\n", s.message());
    return kExitBadInput;
  }
  const AdapterInfo* info = AdapterRegistry::Global().Find(args.engine);
  if (info == nullptr || args.engine.find('@') != std::string::npos) {
    std::unique_ptr<Adapter> ignored;
    const Status s = AdapterRegistry::Global().Create(args.engine, &ignored);
    fmt::print(stderr, "kvbench conformance: {}\n",
               s.ok() ? "give an engine name without '@LABEL'" : s.message());
    return kExitBadInput;
  }
  const std::vector<std::string> known = conformance::SuiteNames();
  for (const std::string& suite : args.suites) {
    if (std::find(known.begin(), known.end(), suite) == known.end()) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      fmt::print(stderr, "kvbench conformance: --suite '{}': no such suite (known: {})\n", suite,
                 list);
      return kExitBadInput;
    }
  }

  fmt::print("conformance of {}{}\n", args.engine,
             info->plugin_path.empty() ? "" : " (plugin " + info->plugin_path + ")");
  std::fflush(stdout);
  int passed = 0, failed = 0, skipped = 0;
  for (const conformance::Case& c : conformance::CaseRegistry::Global().cases()) {
    if (!args.suites.empty() &&
        std::find(args.suites.begin(), args.suites.end(), c.suite) == args.suites.end()) {
      continue;
    }
    if (c.full_name().find(args.case_filter) == std::string::npos) continue;
    const conformance::CaseResult r = conformance::RunCaseInChild(c, args.engine, args.timeout_s);
    switch (r.verdict) {
      case conformance::Verdict::kPassed:
        ++passed;
        fmt::print("PASS  {}\n", c.full_name());
        break;
      case conformance::Verdict::kSkipped:
        ++skipped;
        fmt::print("SKIP  {}: {}\n", c.full_name(), r.skip_reason);
        break;
      case conformance::Verdict::kFailed:
        ++failed;
        fmt::print("FAIL  {}\n", c.full_name());
        for (const std::string& f : r.failures) fmt::print("      {}\n", f);
        break;
    }
    std::fflush(stdout);
  }
  if (passed + failed + skipped == 0) {
    fmt::print(stderr, "kvbench conformance: --case '{}': no case matches\n", args.case_filter);
    return kExitBadInput;
  }
  fmt::print("{} passed, {} failed, {} skipped\n", passed, failed, skipped);
  return failed > 0 ? kExitFailure : kExitOk;
}

}  // namespace

void AddConformanceCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand(
      "conformance", "Check an engine (built in or from a plugin) against the adapter contract");
  cmd->footer(
      "Each case runs in its own process: a crash in the engine's library fails that case,\n"
      "naming the signal. Exit 0 when no case failed, 1 when one did, 2 for bad input.\n"
      "Example: kvbench conformance c-memory --plugin ./libkvbench-c-memory.so");
  auto args = std::make_shared<ConformanceArgs>();
  cmd->add_option("engine", args->engine, "The engine to check")->required();
  cmd->add_option("--plugin", args->plugins,
                  "Load engines from a plugin: a path, or a name looked up in "
                  "$KVBENCH_PLUGIN_PATH (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--suite", args->suites,
                  "Only these suites: adapter, record, options, damaged-files (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--case", args->case_filter, "Only cases whose SUITE/NAME contains this text");
  cmd->add_option("--timeout", args->timeout_s, "Seconds allowed per case")
      ->check(CLI::Range(1.0, 86400.0));
  cmd->callback([args, exit_code] { *exit_code = RunConformance(*args); });
}

}  // namespace kvbench::app
