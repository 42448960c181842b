#include "adapters/engine_options.h"

#include <cctype>
#include <charconv>
#include <limits>

namespace kvbench {

namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

Status BadValue(std::string_view name, std::string_view text, std::string_view expected) {
  return Status::InvalidArgument("option '" + std::string(name) + "': '" + std::string(text) +
                                 "' is not " + std::string(expected));
}

}  // namespace

bool ParseInt64(std::string_view text, int64_t* out) {
  if (text.empty()) return false;
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size()) return false;
  *out = v;
  return true;
}

bool ParseBool(std::string_view text, bool* out) {
  const std::string t = Lower(text);
  if (t == "true" || t == "on" || t == "1" || t == "yes") {
    *out = true;
    return true;
  }
  if (t == "false" || t == "off" || t == "0" || t == "no") {
    *out = false;
    return true;
  }
  return false;
}

bool ParseBytes(std::string_view text, uint64_t* out) {
  if (text.empty()) return false;
  uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr == text.data()) return false;
  std::string suffix = Lower(std::string_view(ptr, text.data() + text.size() - ptr));
  if (!suffix.empty() && suffix.back() == 'b') suffix.pop_back();   // "MiB", "MB", "B"
  if (!suffix.empty() && suffix.back() == 'i') suffix.pop_back();   // "Mi"
  int shift = 0;
  if (suffix.empty()) shift = 0;
  else if (suffix == "k") shift = 10;
  else if (suffix == "m") shift = 20;
  else if (suffix == "g") shift = 30;
  else if (suffix == "t") shift = 40;
  else return false;
  if (shift > 0 && v > (std::numeric_limits<uint64_t>::max() >> shift)) return false;
  *out = v << shift;
  return true;
}

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
