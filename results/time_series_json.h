// The JSON of histogram buckets and of a repetition's time series
// (results::TimeSeries), as results.json holds them (docs/results-schema.md).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "common/status.h"
#include "results/results.h"

namespace kvbench::results {

// [[upper bound ns, count], ...]
nlohmann::json BucketsToJson(const std::vector<std::pair<uint64_t, uint64_t>>& buckets);
// InvalidArgument "field 'buckets': ..." for anything else.
Status BucketsFromJson(const nlohmann::json& j, std::vector<std::pair<uint64_t, uint64_t>>* out);

// Figures of intervals where an operation type did not run are written as
// null (nothing was measured there) and read back as 0 beside a count of 0.
nlohmann::json TimeSeriesToJson(const TimeSeries& series);
// InvalidArgument "time_series field 'NAME': ..." naming what is missing or wrong.
Status TimeSeriesFromJson(const nlohmann::json& j, TimeSeries* out);

}  // namespace kvbench::results
