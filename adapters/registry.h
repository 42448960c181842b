// The adapter registry: each adapter registers itself with one line at the end
// of its own file, so adding an engine touches one folder and one CMake line.
//
//   KVBENCH_REGISTER_ADAPTER(sqlite, "sqlite", "SQLite table with the key as PRIMARY KEY",
//                            [] { return std::make_unique<SqliteAdapter>(); });
//
// Registration runs during static initialisation (the registry is a
// function-local static, so order does not matter). A second registration under
// a name already taken is refused: the first stays, and the conflict is kept in
// errors() so the CLI and the tests fail loudly instead of one silently winning.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/adapter.h"

namespace kvbench {

using AdapterFactory = std::function<std::unique_ptr<Adapter>()>;

struct AdapterInfo {
  std::string name;         // the engine name used in workloads and --engines
  std::string description;  // one line for `kvbench engines`
  AdapterFactory create;
  // The shared object the engine came from (adapters/plugin/plugin_loader.h);
  // empty for a built-in engine.
  std::string plugin_path;
};

class AdapterRegistry {
 public:
  static AdapterRegistry& Global();

  // Returns false (and records an error) when `info.name` is already taken or
  // empty. Thread-compatible: called during static initialisation.
  bool Register(AdapterInfo info);

  // nullptr when no adapter has that name. "ENGINE@LABEL" names ENGINE: a
  // workload runs one engine under several option sets that way
  // (engines = ["sqlite@full", "sqlite@off"], [options."sqlite@full"] ...).
  const AdapterInfo* Find(std::string_view name) const;
  // Sorted by name.
  std::vector<const AdapterInfo*> All() const;
  std::vector<std::string> Names() const;
  // Registration conflicts, one message each; empty when all is well.
  const std::vector<std::string>& errors() const { return errors_; }

  // Creates the named adapter, or InvalidArgument "unknown engine 'x' (known: ...)".
  Status Create(std::string_view name, std::unique_ptr<Adapter>* out) const;

 private:
  std::vector<AdapterInfo> adapters_;
  std::vector<std::string> errors_;
};

}  // namespace kvbench

#define KVBENCH_REGISTER_ADAPTER(ident, name, description, factory)       \
  [[maybe_unused]] static const bool kvbench_adapter_registered_##ident = \
      ::kvbench::AdapterRegistry::Global().Register(                      \
          ::kvbench::AdapterInfo{name, description, factory, {}})
