// `kvbench engines [--plugin P]...`: every registered adapter (built in, or
// from a plugin, with the plugin's path) with its library version,
// capabilities and default options.
#include <fmt/core.h>

#include <memory>
#include <string>
#include <vector>

#include "adapters/plugin/plugin_loader.h"
#include "adapters/registry.h"
#include "app/cli.h"

namespace kvbench::app {

namespace {

std::string CapabilityList(const Capabilities& c) {
  std::vector<std::string> names;
  if (!c.stores_data) names.push_back("discards-data");
  if (c.ordered) names.push_back("ordered");
  names.push_back(c.transactional ? "transactional" : "batch-emulated");
  if (c.durable) names.push_back("durable");
  if (c.concurrent_readers) names.push_back("concurrent-readers");
  if (c.concurrent_writers) names.push_back("concurrent-writers");
  if (c.native_records) names.push_back("native-records");
  if (c.native_secondary_index) names.push_back("native-secondary-index");
  if (c.reorganize) names.push_back("reorganize");
  if (c.max_key_size != 0) names.push_back("max-key-" + std::to_string(c.max_key_size) + "B");
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

int ListEngines(bool verbose) {
  for (const AdapterInfo* info : AdapterRegistry::Global().All()) {
    std::unique_ptr<Adapter> adapter = info->create();
    fmt::print("{:<10} {:<12} {}\n", info->name, adapter->LibraryVersion(), info->description);
    if (!info->plugin_path.empty()) fmt::print("           plugin: {}\n", info->plugin_path);
    fmt::print("           capabilities: {}\n", CapabilityList(adapter->capabilities()));
    for (const OptionSpec& spec : adapter->OptionSpecs()) {
      const std::string shown = spec.is_prefix ? spec.name + "<name>" : spec.name;
      if (verbose) {
        fmt::print("           {:<28} = {:<12} {}\n", shown,
                   spec.default_value.empty() ? "(unset)" : spec.default_value, spec.help);
      } else {
        fmt::print("           {} = {}\n", shown,
                   spec.default_value.empty() ? "(unset)" : spec.default_value);
      }
    }
  }
  return kExitOk;
}

}  // namespace

void AddEnginesCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("engines", "List engines with versions, capabilities and options");
  cmd->footer("Example: kvbench engines -v");
  auto verbose = std::make_shared<bool>(false);
  cmd->add_flag("-v,--verbose", *verbose, "Explain each option");
  auto plugins = std::make_shared<std::vector<std::string>>();
  cmd->add_option("--plugin", *plugins,
                  "Also list a plugin's engines: a path, or a name looked up in "
                  "$KVBENCH_PLUGIN_PATH (repeatable)")
      ->allow_extra_args(false);
  cmd->callback([exit_code, verbose, plugins] {
    if (Status s = plugin_host::LoadPlugins(*plugins, ""); !s.ok()) {
      fmt::print(stderr, "kvbench engines: --plugin: {}\n", s.message());
      *exit_code = kExitBadInput;
      return;
    }
    *exit_code = ListEngines(*verbose);
  });
}

}  // namespace kvbench::app
