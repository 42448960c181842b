// An adapter's options go through ONE parser of its settings,
//
//   Status ParseMySettings(const EngineOptions& options, MySettings* out);
//
// (extra arguments allowed between the two: ParseBdbSettings takes the
// access method), called by Open for the settings it runs with, and by the
// two helpers below, so that CheckOptions accepts exactly what Open accepts
// and no adapter writes the throwaway-struct lines again:
//
//   Status CheckOptions(const EngineOptions& options) const override {
//     return CheckSettings(options, ParseMySettings);
//   }
//   DurabilityDeclaration DeclareDurability(const EngineOptions& options) const override {
//     const MySettings s = AcceptedSettings(options, ParseMySettings);
//     ...
//
// The rest of this file: typed, range-checked readers of single options for
// that parser. Each returns InvalidArgument "option 'x': ..." naming the
// option and what it accepts, so `kvbench validate` can point at it; the
// out-parameter is untouched on error.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "adapters/engine_options.h"

namespace kvbench {

namespace option_parsing_internal {
// The settings type a parser Status (*)(const EngineOptions&, ..., Settings*) fills.
template <typename Parse>
struct SettingsOf;
template <typename... Params>
struct SettingsOf<Status (*)(Params...)> {
  using type = std::remove_pointer_t<std::tuple_element_t<sizeof...(Params) - 1,
                                                          std::tuple<Params...>>>;
};
}  // namespace option_parsing_internal

// CheckOptions in one line: `parse` (a function, as above) run on `options`
// into a settings struct that is thrown away; its Status is the answer.
// `context` are the parser's arguments between the options and the struct.
template <typename Parse, typename... Context>
Status CheckSettings(const EngineOptions& options, Parse parse, const Context&... context) {
  typename option_parsing_internal::SettingsOf<Parse>::type ignored{};
  return parse(options, context..., &ignored);
}

// The settings `parse` makes of `options` that CheckOptions has accepted, for
// the calls the contract makes only with such options (DeclareDurability).
// Were they refused after all, the fields the parser did not reach keep the
// struct's defaults.
template <typename Parse, typename... Context>
typename option_parsing_internal::SettingsOf<Parse>::type AcceptedSettings(
    const EngineOptions& options, Parse parse, const Context&... context) {
  typename option_parsing_internal::SettingsOf<Parse>::type settings{};
  (void)parse(options, context..., &settings);
  return settings;
}

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
