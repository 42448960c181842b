// `kvbench help [COMMAND]` and the text of `kvbench --version`.
#include <iostream>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "adapters/registry.h"
#include "app/cli.h"
#include "runner/environment.h"

namespace kvbench::app {

void AddHelpCommand(CLI::App& app, int* exit_code) {
  auto command = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("help", "Show the help of kvbench or of one command");
  cmd->add_option("command", *command, "A command (run, validate, report, compare, history, crash, engines, gen)");
  cmd->footer("Example: kvbench help run");
  cmd->callback([&app, command, exit_code] {
    if (command->empty()) {
      std::cout << app.help();
      return;
    }
    for (CLI::App* sub : app.get_subcommands(nullptr)) {
      if (sub->get_name() == *command) {
        std::cout << sub->help();
        return;
      }
    }
    std::cerr << "kvbench help: unknown command '" << *command << "'\n";
    *exit_code = kExitBadInput;
  });
}

std::string VersionText() {
  const results::Environment e = runner::CaptureEnvironment(".");
  std::string out = fmt::format("kvbench {} ({})\nbuild: {} {}\ncompiler: {}\nengines:\n",
                                e.kvbench_version, e.kvbench_revision, e.build_type, e.cxx_flags,
                                e.compiler);
  for (const AdapterInfo* info : AdapterRegistry::Global().All()) {
    out += fmt::format("  {:<12} {}\n", info->name, info->create()->LibraryVersion());
  }
  out.pop_back();  // CLI11 adds the last newline
  return out;
}

}  // namespace kvbench::app
