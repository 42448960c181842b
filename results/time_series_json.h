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

// A histogram's non-empty buckets (upper bound ns, count), rising, packed into
// one string: "v1:" then base64 of LEB128 varints, for each bucket its upper
// bound's step from the previous one (from 0 for the first) and its count
// (docs/results-schema.md). Reads that, and the [[upper, count], ...] lists
// of files written before it; InvalidArgument "field 'buckets': ..." for
// anything else.
nlohmann::json BucketsToJson(const std::vector<std::pair<uint64_t, uint64_t>>& buckets);
Status BucketsFromJson(const nlohmann::json& j, std::vector<std::pair<uint64_t, uint64_t>>* out);

// Figures of intervals where an operation type did not run are written as
// null (nothing was measured there) and read back as 0 beside a count of 0.
nlohmann::json TimeSeriesToJson(const TimeSeries& series);
// InvalidArgument "time_series field 'NAME': ..." naming what is missing or wrong.
Status TimeSeriesFromJson(const nlohmann::json& j, TimeSeries* out);

}  // namespace kvbench::results
