#include <cstdio>

#include <fmt/core.h>

#include "adapters/plugin/plugin_loader.h"
#include "adapters/registry.h"
#include "app/cli.h"

int main(int argc, char** argv) {
  using namespace kvbench::app;
  // A duplicate adapter registration is a programming error that must not pass
  // unnoticed (one silently winning is how YCSB-cpp got it wrong).
  const auto& registry_errors = kvbench::AdapterRegistry::Global().errors();
  if (!registry_errors.empty()) {
    for (const auto& e : registry_errors) fmt::print(stderr, "kvbench: {}\n", e);
    return kExitFailure;
  }
  // Plugins in $KVBENCH_PLUGIN_PATH register their engines before any command
  // looks one up; a bad one stops every command, as bad input.
  if (kvbench::Status s = kvbench::plugin_host::LoadPluginsOnSearchPath(); !s.ok()) {
    fmt::print(stderr, "kvbench: KVBENCH_PLUGIN_PATH: {}\n", s.message());
    return kExitBadInput;
  }

  CLI::App app{"kvbench: comparative benchmarks of embedded key-value and record databases"};
  app.require_subcommand(1);
  app.option_defaults()->always_capture_default();
  app.set_version_flag("--version", [] { return VersionText(); }, "Print the version, build and engine libraries, then exit");
  app.footer("Run `kvbench help COMMAND` (or `kvbench COMMAND --help`) for a command's options.");
  // Bad input is one line naming the option (CLI11's default adds a second).
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return std::string("kvbench: ") + e.what() + "\n";
  });
  int exit_code = kExitOk;
  AddEnginesCommand(app, &exit_code);
  AddGenCommand(app, &exit_code);
  AddValidateCommand(app, &exit_code);
  AddRunCommand(app, &exit_code);
  AddReportCommand(app, &exit_code);
  AddCompareCommand(app, &exit_code);
  AddHistoryCommand(app, &exit_code);
  AddCrashCommand(app, &exit_code);
  AddMergeCommand(app, &exit_code);
  AddSlurmCommand(app, &exit_code);
  AddYcsbCommand(app, &exit_code);
  AddConformanceCommand(app, &exit_code);
  AddHelpCommand(app, &exit_code);
  // Every value-taking option gets a checked range; a numeric one without a
  // stated bound is a programming error, refused like a duplicate adapter.
  const std::vector<std::string> unbounded = ApplyInputBounds(app);
  if (!unbounded.empty()) {
    for (const auto& o : unbounded) {
      fmt::print(stderr,
                 "kvbench: option '{}' takes a number but has no range in app/command_line.cc\n",
                 o);
    }
    return kExitFailure;
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitBadInput;
  }
  return exit_code;
}
