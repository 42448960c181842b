#include "adapters/engine_options.h"

#include "common/parse.h"
#include "common/strings.h"


namespace kvbench {

namespace {

Status BadValue(std::string_view name, std::string_view text, std::string_view expected) {
  return Status::InvalidArgument("option '" + std::string(name) + "': '" + std::string(text) +
                                 "' is not " + std::string(expected));
}

}  // namespace

bool EngineOptions::Has(std::string_view name) const {
  return values_.find(std::string(name)) != values_.end();
}

std::string EngineOptions::GetString(std::string_view name) const {
  auto it = values_.find(std::string(name));
  return it == values_.end() ? std::string() : it->second;
}

Status EngineOptions::GetInt64(std::string_view name, int64_t* out) const {
  const std::string text = GetString(name);
  if (!ParseInt64(text, out)) return BadValue(name, text, "an integer");
  return Status::OK();
}

Status EngineOptions::GetBool(std::string_view name, bool* out) const {
  const std::string text = GetString(name);
  if (!ParseBool(text, out)) return BadValue(name, text, "a boolean (true/false)");
  return Status::OK();
}

Status EngineOptions::GetBytes(std::string_view name, uint64_t* out) const {
  const std::string text = GetString(name);
  if (!ParseBytes(text, out)) return BadValue(name, text, "a byte size (e.g. 4096, 64MiB, 1G)");
  return Status::OK();
}

std::map<std::string, std::string> EngineOptions::WithPrefix(std::string_view prefix) const {
  std::map<std::string, std::string> out;
  for (auto it = values_.lower_bound(std::string(prefix));
       it != values_.end() && std::string_view(it->first).starts_with(prefix); ++it) {
    out.emplace(it->first.substr(prefix.size()), it->second);
  }
  return out;
}

Status ResolveEngineOptions(std::string_view engine, const std::vector<OptionSpec>& specs,
                            const std::map<std::string, std::string>& overrides,
                            EngineOptions* out) {
  EngineOptions resolved;
  for (const OptionSpec& spec : specs) {
    if (!spec.is_prefix) resolved.Set(spec.name, spec.default_value);
  }
  for (const auto& [name, value] : overrides) {
    bool known = false;
    for (const OptionSpec& spec : specs) {
      if (spec.is_prefix ? std::string_view(name).starts_with(spec.name) && name.size() > spec.name.size()
                         : name == spec.name) {
        known = true;
        break;
      }
    }
    if (!known) {
      std::string list;
      for (const OptionSpec& spec : specs) {
        if (!list.empty()) list += ", ";
        list += spec.name + (spec.is_prefix ? "<name>" : "");
      }
      return Status::InvalidArgument("unknown option '" + name + "' for engine '" +
                                     std::string(engine) + "' (known: " +
                                     (list.empty() ? "none" : list) + ")");
    }
    resolved.Set(name, value);
  }
  *out = std::move(resolved);
  return Status::OK();
}

}  // namespace kvbench
