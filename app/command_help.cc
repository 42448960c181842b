// `kvbench help [COMMAND]`, its machine-readable form `kvbench help --json`
// (the source of the man page and the bash completion), and the text of
// `kvbench --version`.
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "adapters/registry.h"
#include "app/cli.h"
#include "runner/environment.h"

namespace kvbench::app {

namespace {

// What each exit code means, for the man page's EXIT STATUS (cli.h defines them).
struct ExitCodeMeaning {
  int code;
  const char* meaning;
};
constexpr ExitCodeMeaning kExitCodeMeanings[] = {
    {kExitOk, "Success: every engine finished every phase, or the command did what it was asked."},
    {kExitFailure,
     "An engine or a phase failed (a crash, a time-out, an error status, a conformance case); "
     "the reason is on standard error as it happens and in results.json, and every result "
     "already written is kept."},
    {kExitBadInput,
     "Bad input: an unknown command, engine or option, a value out of range, a malformed "
     "workload file, an unreadable file or a bad plugin; nothing is written."},
    {kExitInterrupted,
     "Interrupted by SIGINT or SIGTERM; what finished is kept, marked incomplete."},
};

// One option or positional as data. `type` is CLI11's base type name (TEXT,
// UINT, ...); `choices` the values an IsMember check allows ("{md,html,csv}"
// in its full type name).
nlohmann::json OptionJson(const CLI::Option& o) {
  const std::string full_type = o.get_type_name();
  const bool flag = o.get_items_expected_max() == 0;
  nlohmann::json j = {{"description", o.get_description()},
                      {"required", o.get_required()},
                      {"flag", flag},
                      {"repeatable", o.get_expected_max() > 1},
                      {"value_optional", !flag && o.get_expected_min() == 0}};
  if (o.get_positional()) {
    j["name"] = o.get_name(/*positional=*/true);
  } else {
    nlohmann::json names = nlohmann::json::array();
    for (const std::string& s : o.get_snames()) names.push_back("-" + s);
    for (const std::string& l : o.get_lnames()) names.push_back("--" + l);
    j["names"] = names;
  }
  if (!flag) {
    j["type"] = full_type.substr(0, full_type.find(':'));
    if (!o.get_default_str().empty() && o.get_default_str() != "[]") {
      j["default"] = o.get_default_str();
    }
    const size_t open = full_type.find(":{");
    const size_t close = full_type.find('}', open);
    if (open != std::string::npos && close != std::string::npos) {
      nlohmann::json choices = nlohmann::json::array();
      const std::string set = full_type.substr(open + 2, close - open - 2);
      for (size_t at = 0; at <= set.size();) {
        const size_t comma = std::min(set.find(',', at), set.size());
        choices.push_back(set.substr(at, comma - at));
        at = comma + 1;
      }
      j["choices"] = choices;
    }
  }
  return j;
}

// A command, its options (hidden ones left out, as the human help does) and its subcommands.
nlohmann::json CommandJson(const CLI::App& cmd) {
  nlohmann::json j = {{"name", cmd.get_name()},
                      {"description", cmd.get_description()},
                      {"footer", cmd.get_footer()}};
  nlohmann::json positionals = nlohmann::json::array();
  nlohmann::json options = nlohmann::json::array();
  for (const CLI::Option* o : cmd.get_options()) {
    if (o->get_group().empty()) continue;
    (o->nonpositional() ? options : positionals).push_back(OptionJson(*o));
  }
  j["positionals"] = positionals;
  j["options"] = options;
  nlohmann::json subcommands = nlohmann::json::array();
  for (const CLI::App* sub : cmd.get_subcommands([](const CLI::App*) { return true; })) {
    if (!sub->get_group().empty()) subcommands.push_back(CommandJson(*sub));
  }
  j["commands"] = subcommands;
  return j;
}

std::string CommandLineJson(const CLI::App& app) {
  nlohmann::json j = CommandJson(app);
  j["name"] = "kvbench";
  j["version"] = runner::CaptureEnvironment(".").kvbench_version;
  nlohmann::json codes = nlohmann::json::array();
  for (const ExitCodeMeaning& e : kExitCodeMeanings) {
    codes.push_back({{"code", e.code}, {"meaning", e.meaning}});
  }
  j["exit_codes"] = codes;
  nlohmann::json engines = nlohmann::json::array();
  for (const AdapterInfo* info : AdapterRegistry::Global().All()) engines.push_back(info->name);
  j["engines"] = engines;
  return j.dump(2) + "\n";
}

}  // namespace

void AddHelpCommand(CLI::App& app, int* exit_code) {
  auto command = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("help", "Show the help of kvbench or of one command");
  // --json is hidden (no group): for scripts/kvbench_cli_docs.py, which writes
  // the man page and the bash completion from it at build time. It comes before
  // every option of the "Options" group, --help included, because CLI11 prints
  // a blank line after each group but the last, hidden ones counted.
  const std::string help_description = cmd->get_help_ptr()->get_description();
  cmd->set_help_flag();
  cmd->add_flag("--json", *json, "Every command and option as JSON")->group("");
  cmd->set_help_flag("-h,--help", help_description);
  cmd->add_option("command", *command,
                  "A command (run, validate, report, compare, history, crash, engines, gen, ...); "
                  "without one, kvbench's own help");
  cmd->footer("Example: kvbench help run");
  cmd->callback([&app, command, json, exit_code] {
    if (*json) {
      std::cout << CommandLineJson(app);
      return;
    }
    // Not app.help(): CLI11 hands that to the parsed subcommand, which is
    // `help` itself here, so `kvbench help` would print the help of `help`.
    if (command->empty()) {
      std::cout << app.get_formatter()->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal);
      return;
    }
    std::string known;
    for (CLI::App* sub : app.get_subcommands(nullptr)) {
      if (sub->get_name() == *command) {
        std::cout << sub->help(app.get_name());
        return;
      }
      if (!sub->get_group().empty()) known += (known.empty() ? "" : ", ") + sub->get_name();
    }
    std::cerr << "kvbench help: unknown command '" << *command << "' (commands: " << known
              << ")\n";
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
