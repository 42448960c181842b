// Engine options: namespaced key/value settings ("sqlite.journal_mode",
// "lmdb.mapsize") with their defaults declared beside the adapter that reads
// them, as YCSB-cpp does.
//
// An adapter publishes its OptionSpecs; the harness resolves a workload's
// overrides against them (ResolveEngineOptions) so that an unknown option is
// an error before the engine is ever opened, and every resolved value (default
// or not) is written into the run's results.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/parse.h"
#include "common/status.h"

namespace kvbench {

struct OptionSpec {
  // Full namespaced name, e.g. "sqlite.journal_mode". When `is_prefix` is set
  // the spec accepts every name that starts with `name` (used for
  // "sqlite.pragma." so that every PRAGMA is settable).
  std::string name;
  // Default as text; empty means "unset / engine default".
  std::string default_value;
  // One line: what it does and why the default is what it is.
  std::string help;
  bool is_prefix = false;
};

// Resolved option values for one engine: every spec'd option with its default
// filled in, plus the overrides. Not thread-safe for writes; read-only after
// resolution, so any thread may read.
class EngineOptions {
 public:
  EngineOptions() = default;
  explicit EngineOptions(std::map<std::string, std::string> values) : values_(std::move(values)) {}

  bool Has(std::string_view name) const;
  // The raw text; empty when absent.
  std::string GetString(std::string_view name) const;

  // Typed readers. Each returns InvalidArgument naming the option and the bad
  // text when the value does not parse; the out-parameter is untouched then.
  Status GetInt64(std::string_view name, int64_t* out) const;
  Status GetBool(std::string_view name, bool* out) const;  // true/false/on/off/1/0/yes/no
  // Byte sizes: plain integers or with a suffix K, M, G, T (KiB, MiB... are the
  // same, powers of 1024), e.g. "64MiB", "1G".
  Status GetBytes(std::string_view name, uint64_t* out) const;

  // All options whose name starts with `prefix`, with the prefix removed.
  std::map<std::string, std::string> WithPrefix(std::string_view prefix) const;

  const std::map<std::string, std::string>& values() const { return values_; }
  void Set(std::string name, std::string value) { values_[std::move(name)] = std::move(value); }

 private:
  std::map<std::string, std::string> values_;
};

// Fills in defaults for every spec and applies `overrides`. An override whose
// name no spec accepts gives InvalidArgument "unknown option 'x' for engine
// 'y' (known: ...)".
Status ResolveEngineOptions(std::string_view engine, const std::vector<OptionSpec>& specs,
                            const std::map<std::string, std::string>& overrides,
                            EngineOptions* out);

}  // namespace kvbench
