#include "datasets/params.h"

#include <fmt/core.h>

#include <charconv>
#include <cmath>

#include "common/parse.h"

namespace kvbench::datasets {

Status DatasetParams::Resolve(std::string_view what, const std::vector<ParamSpec>& specs,
                              const ParamMap& given, DatasetParams* out) {
  DatasetParams resolved;
  resolved.what_ = std::string(what);
  for (const ParamSpec& spec : specs) resolved.values_[spec.name] = spec.default_value;
  for (const auto& [name, value] : given) {
    if (resolved.values_.count(name) == 0) {
      std::string known;
      for (const ParamSpec& spec : specs) known += (known.empty() ? "" : ", ") + spec.name;
      return Status::InvalidArgument(fmt::format("{}: unknown option '{}' (known: {})", what, name,
                                                 known.empty() ? "none" : known));
    }
    resolved.values_[name] = value;
  }
  *out = std::move(resolved);
  return Status::OK();
}

std::string DatasetParams::GetString(std::string_view name) const {
  auto it = values_.find(std::string(name));
  return it == values_.end() ? std::string() : it->second;
}

Status DatasetParams::Bad(std::string_view name, std::string_view expected) const {
  return Status::InvalidArgument(
      fmt::format("{}: option '{}': '{}' is not {}", what_, name, GetString(name), expected));
}

Status DatasetParams::GetUint64(std::string_view name, uint64_t min, uint64_t max,
                                uint64_t* out) const {
  const std::string text = GetString(name);
  uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || v < min || v > max) {
    return Bad(name, fmt::format("an integer in [{}, {}]", min, max));
  }
  *out = v;
  return Status::OK();
}

Status DatasetParams::GetDouble(std::string_view name, double min, double max, double* out) const {
  const std::string text = GetString(name);
  double v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v) ||
      v < min || v > max) {
    return Bad(name, fmt::format("a number in [{}, {}]", min, max));
  }
  *out = v;
  return Status::OK();
}

Status DatasetParams::GetBool(std::string_view name, bool* out) const {
  if (!ParseBool(GetString(name), out)) return Bad(name, "a boolean (true/false)");
  return Status::OK();
}

Status DatasetParams::GetChoice(std::string_view name, const std::vector<std::string_view>& choices,
                                size_t* out) const {
  const std::string text = GetString(name);
  std::string list;
  for (size_t i = 0; i < choices.size(); ++i) {
    if (choices[i] == text) {
      *out = i;
      return Status::OK();
    }
    list += (list.empty() ? "" : ", ") + std::string(choices[i]);
  }
  return Bad(name, "one of: " + list);
}

Status ParseParamAssignment(std::string_view text, std::string* name, std::string* value) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    return Status::InvalidArgument(
        fmt::format("parameter '{}' is not of the form name=value", text));
  }
  *name = std::string(text.substr(0, eq));
  *value = std::string(text.substr(eq + 1));
  return Status::OK();
}

}  // namespace kvbench::datasets
