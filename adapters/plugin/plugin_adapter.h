// PluginAdapter: one engine of a loaded plugin (include/kvbench/plugin.h)
// seen through kvbench's adapter contract (adapters/adapter.h).
//
// The plugin is untrusted code: every status it returns is checked against
// the ABI's codes, and every message buffer it is given carries guard bytes
// after its capacity. A breach (an invalid status, a write past the buffer,
// a get that reports OK without a value) is the plugin's fault: the call
// returns Internal naming the engine, the function and the breach, and so
// does every later call on that engine, so the runner fails the engine with
// the reason. kvbench itself goes on (the engine runs in its own child
// process; a plugin that crashes or hangs ends only that process).
#pragma once

#include <memory>
#include <string>

#include "adapters/adapter.h"
#include "kvbench/plugin.h"

namespace kvbench::plugin_host {

// The engine table as validated by the loader (plugin_loader.cc): every
// required member set, members past the plugin's struct_size NULL. Lives as
// long as the process (plugins are never unloaded).
struct PluginEngine {
  kvbench_engine_api api{};
  std::string plugin_path;
  std::string plugin_name;
  std::string abi_version;  // "1.0": the version the plugin says it was built for
};

std::unique_ptr<Adapter> NewPluginAdapter(const PluginEngine* engine);

}  // namespace kvbench::plugin_host
