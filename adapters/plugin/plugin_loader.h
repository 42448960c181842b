// Loading plugins (include/kvbench/plugin.h) and registering their engines
// in AdapterRegistry::Global() under their own names, beside the built-in
// engines. From then on a plugin engine is an engine like any other: the
// plan checks its options, the runner opens it in its own child process.
//
// Where plugins come from:
//  - `--plugin PATH` on the command line and `plugins = [...]` in a workload
//    file: LoadPlugin, one file each;
//  - KVBENCH_PLUGIN_PATH, a colon-separated list of directories: a plugin
//    named without a '/' is looked up there (as NAME, libkvbench-NAME.so,
//    NAME.so), and at start-up every libkvbench-*.so in them is loaded
//    (LoadPluginsOnSearchPath), so their engines are listed and runnable
//    without naming them.
//
// A bad plugin (not a shared object, no entry symbol, another ABI major
// version, an incomplete engine table, an invalid engine name, a name a
// built-in or another plugin already has) is refused with InvalidArgument,
// one message naming the file; the CLI exits 2. Loading one file twice is
// harmless (the second load is a no-op). Plugins are never unloaded.
// Not thread-safe: load before any engine runs.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"

namespace kvbench::plugin_host {

// Where a plugin engine came from, recorded in results.json (EngineRun).
struct PluginOrigin {
  std::string path;         // canonical path of the shared object
  std::string sha256;       // of its bytes when loaded, 64 hex digits
  std::string abi_version;  // "1.1": the ABI the plugin says it was built for
};

// The origin of `engine`, or nullptr for a built-in engine (or none loaded).
const PluginOrigin* PluginOriginOf(const std::string& engine);

// The directories of KVBENCH_PLUGIN_PATH, empty ones left out.
std::vector<std::string> PluginSearchPath();

// Loads the plugin `spec`: a path (relative ones against `base_directory`
// when not empty, else the working directory) when it holds a '/', else a
// name looked up in `search_path`. Registers its engines; `*engines`
// (optional) receives their names.
Status LoadPlugin(const std::string& spec, const std::string& base_directory,
                  const std::vector<std::string>& search_path,
                  std::vector<std::string>* engines = nullptr);

// LoadPlugin for each spec, stopping at the first error.
Status LoadPlugins(const std::vector<std::string>& specs, const std::string& base_directory);

// Loads every libkvbench-*.so in the KVBENCH_PLUGIN_PATH directories.
Status LoadPluginsOnSearchPath();

}  // namespace kvbench::plugin_host
