#include "results/time_series_json.h"

#include <string>

namespace kvbench::results {

using nlohmann::json;

namespace {

template <typename T>
json MeasuredOnly(const std::vector<T>& values, const std::vector<uint64_t>& count) {
  json out = json::array();
  for (size_t i = 0; i < values.size(); ++i) {
    if (i < count.size() && count[i] > 0) {
      out.push_back(values[i]);
    } else {
      out.push_back(nullptr);
    }
  }
  return out;
}

Status Bad(const std::string& field, const std::string& what) {
  return Status::InvalidArgument("time_series field '" + field + "': " + what);
}

// One value per interval; null (not measured) reads as 0.
template <typename T>
Status ReadSeries(const json& j, const char* name, size_t size, std::vector<T>* out) {
  if (!j.contains(name) || !j.at(name).is_array() || j.at(name).size() != size) {
    return Bad(name, "missing or not " + std::to_string(size) + " values");
  }
  for (const json& v : j.at(name)) {
    if (v.is_null()) {
      out->push_back(0);
    } else if (v.is_number()) {
      out->push_back(v.get<T>());
    } else {
      return Bad(name, "not a number");
    }
  }
  return Status::OK();
}

}  // namespace

json BucketsToJson(const std::vector<std::pair<uint64_t, uint64_t>>& buckets) {
  json out = json::array();
  for (const auto& [upper, count] : buckets) out.push_back({upper, count});
  return out;
}

Status BucketsFromJson(const json& j, std::vector<std::pair<uint64_t, uint64_t>>* out) {
  if (!j.is_array()) return Status::InvalidArgument("field 'buckets': must be a list");
  for (const json& b : j) {
    if (!b.is_array() || b.size() != 2 || !b[0].is_number_unsigned() ||
        !b[1].is_number_unsigned()) {
      return Status::InvalidArgument("field 'buckets': each bucket is [upper_ns, count]");
    }
    out->emplace_back(b[0].get<uint64_t>(), b[1].get<uint64_t>());
  }
  return Status::OK();
}

json TimeSeriesToJson(const TimeSeries& t) {
  json ops = json::array();
  for (const OpTimeSeries& o : t.ops) {
    json op = {{"op", o.op},
               {"count", o.count},
               {"ops_per_sec", o.ops_per_sec},
               {"mean_ns", MeasuredOnly(o.mean_ns, o.count)},
               {"p50_ns", MeasuredOnly(o.p50_ns, o.count)},
               {"p99_ns", MeasuredOnly(o.p99_ns, o.count)},
               {"max_ns", MeasuredOnly(o.max_ns, o.count)}};
    if (!o.buckets.empty()) {
      json buckets = json::array();
      for (const auto& b : o.buckets) buckets.push_back(BucketsToJson(b));
      op["buckets"] = buckets;
    }
    ops.push_back(op);
  }
  return {{"interval_s", t.interval_s}, {"start_unix_s", t.start_unix_s}, {"ops", ops}};
}

Status TimeSeriesFromJson(const json& j, TimeSeries* t) {
  try {
    t->interval_s = j.at("interval_s").get<double>();
    t->start_unix_s = j.at("start_unix_s").get<double>();
    for (const json& o : j.at("ops")) {
      OpTimeSeries s;
      s.op = o.at("op").get<std::string>();
      s.count = o.at("count").get<std::vector<uint64_t>>();
      const size_t n = s.count.size();
      KVBENCH_RETURN_IF_ERROR(ReadSeries(o, "ops_per_sec", n, &s.ops_per_sec));
      KVBENCH_RETURN_IF_ERROR(ReadSeries(o, "mean_ns", n, &s.mean_ns));
      KVBENCH_RETURN_IF_ERROR(ReadSeries(o, "p50_ns", n, &s.p50_ns));
      KVBENCH_RETURN_IF_ERROR(ReadSeries(o, "p99_ns", n, &s.p99_ns));
      KVBENCH_RETURN_IF_ERROR(ReadSeries(o, "max_ns", n, &s.max_ns));
      if (o.contains("buckets")) {
        const json& all = o.at("buckets");
        if (!all.is_array() || all.size() != n) return Bad("buckets", "not one list per interval");
        for (const json& b : all) {
          s.buckets.emplace_back();
          KVBENCH_RETURN_IF_ERROR(BucketsFromJson(b, &s.buckets.back()));
        }
      }
      t->ops.push_back(std::move(s));
    }
  } catch (const json::exception& e) {
    return Status::InvalidArgument(std::string("time_series: ") + e.what());
  }
  return Status::OK();
}

}  // namespace kvbench::results
