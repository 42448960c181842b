// Named parameters of a dataset, value, record or distribution kind
// ("avg_length=142", "hotsetfraction=0.2"), checked against the kind's
// declared list so that a misspelt option is an error, not a silent default.
//
// Thread-safety: a resolved DatasetParams is read-only; any thread may read it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace kvbench::datasets {

// What the user writes: option name -> text.
using ParamMap = std::map<std::string, std::string>;

// One option a kind understands, with its default as text and one line of help.
struct ParamSpec {
  std::string name;
  std::string default_value;
  std::string help;
};

class DatasetParams {
 public:
  // Fills in every spec's default and applies `given`. An option no spec names
  // gives InvalidArgument "<what>: unknown option 'x' (known: a, b, c)", where
  // `what` names the owner (e.g. "dataset 'urls'").
  static Status Resolve(std::string_view what, const std::vector<ParamSpec>& specs,
                        const ParamMap& given, DatasetParams* out);

  // Typed readers. Each returns InvalidArgument naming the owner, the option
  // and the bad text when the value does not parse or is outside [min, max];
  // the out-parameter is untouched then.
  Status GetUint64(std::string_view name, uint64_t min, uint64_t max, uint64_t* out) const;
  Status GetDouble(std::string_view name, double min, double max, double* out) const;
  Status GetBool(std::string_view name, bool* out) const;
  // The value must be one of `choices`; *out receives its position.
  Status GetChoice(std::string_view name, const std::vector<std::string_view>& choices,
                   size_t* out) const;
  std::string GetString(std::string_view name) const;

  // Every resolved option (defaults included), for results files.
  const ParamMap& values() const { return values_; }

 private:
  Status Bad(std::string_view name, std::string_view expected) const;

  std::string what_;
  ParamMap values_;
};

// "k=v" -> (k, v). InvalidArgument when there is no '=' or the name is empty.
Status ParseParamAssignment(std::string_view text, std::string* name, std::string* value);

}  // namespace kvbench::datasets
