// Typed, range-checked readers of engine options for an adapter's one
// settings parser (the one CheckOptions and Open both call; see
// adapters/template). Each returns InvalidArgument "option 'x': ..." naming
// the option and what it accepts, so `kvbench validate` can point at it; the
// out-parameter is untouched on error.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "adapters/engine_options.h"

namespace kvbench {

// An integer in [min, max].
inline Status ParseIntOption(const EngineOptions& options, std::string_view name, int64_t min,
                             int64_t max, int64_t* out) {
  int64_t value = 0;
  KVBENCH_RETURN_IF_ERROR(options.GetInt64(name, &value));
  if (value < min || value > max) {
    return Status::InvalidArgument("option '" + std::string(name) + "': " + std::to_string(value) +
                                   " is outside " + std::to_string(min) + ".." +
                                   std::to_string(max));
  }
  *out = value;
  return Status::OK();
}

// A byte size ("64MiB", "1G", plain bytes) in [min, max].
inline Status ParseBytesOption(const EngineOptions& options, std::string_view name, uint64_t min,
                               uint64_t max, uint64_t* out) {
  uint64_t value = 0;
  KVBENCH_RETURN_IF_ERROR(options.GetBytes(name, &value));
  if (value < min || value > max) {
    return Status::InvalidArgument("option '" + std::string(name) + "': " + std::to_string(value) +
                                   " bytes is outside " + std::to_string(min) + ".." +
                                   std::to_string(max));
  }
  *out = value;
  return Status::OK();
}

// One of `choices`; *index receives its position.
inline Status ParseChoiceOption(const EngineOptions& options, std::string_view name,
                                std::initializer_list<std::string_view> choices, size_t* index) {
  const std::string value = options.GetString(name);
  size_t i = 0;
  std::string list;
  for (std::string_view choice : choices) {
    if (value == choice) {
      *index = i;
      return Status::OK();
    }
    list += (list.empty() ? "" : ", ") + std::string(choice);
    ++i;
  }
  return Status::InvalidArgument("option '" + std::string(name) + "': '" + value +
                                 "' is not one of " + list);
}

}  // namespace kvbench
