#include "results/time_series_json.h"

#include <cstring>
#include <string>
#include <string_view>

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

namespace {

constexpr std::string_view kPackedPrefix = "v1:";
constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void AppendVarint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

bool ReadVarint(const std::string& in, size_t* at, uint64_t* v) {
  *v = 0;
  for (int shift = 0; shift < 64 && *at < in.size(); shift += 7) {
    const auto byte = static_cast<uint8_t>(in[(*at)++]);
    *v |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

std::string Base64(const std::string& bytes) {
  std::string out;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t n = static_cast<uint8_t>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) n |= static_cast<uint8_t>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) n |= static_cast<uint8_t>(bytes[i + 2]);
    out += kBase64[(n >> 18) & 63];
    out += kBase64[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? kBase64[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kBase64[n & 63] : '=';
  }
  return out;
}

bool FromBase64(std::string_view text, std::string* bytes) {
  uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    if (c == '=') break;
    const char* p = std::strchr(kBase64, c);
    if (p == nullptr || c == '\0') return false;
    acc = (acc << 6) | static_cast<uint32_t>(p - kBase64);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes->push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  return true;
}

}  // namespace

json BucketsToJson(const std::vector<std::pair<uint64_t, uint64_t>>& buckets) {
  // Packed: the bounds rise, so each is written as its step from the one
  // before; steps and counts as LEB128 varints, in base64. A third of the
  // text of [[upper, count], ...] or less, which is most of a results.json.
  std::string bytes;
  uint64_t previous = 0;
  for (const auto& [upper, count] : buckets) {
    AppendVarint(upper - previous, &bytes);
    AppendVarint(count, &bytes);
    previous = upper;
  }
  return std::string(kPackedPrefix) + Base64(bytes);
}

Status BucketsFromJson(const json& j, std::vector<std::pair<uint64_t, uint64_t>>* out) {
  if (j.is_string()) {
    const std::string& text = j.get_ref<const std::string&>();
    std::string bytes;
    if (text.rfind(kPackedPrefix, 0) != 0 || !FromBase64(text.substr(kPackedPrefix.size()), &bytes)) {
      return Status::InvalidArgument("field 'buckets': not a packed histogram (\"v1:<base64>\")");
    }
    uint64_t upper = 0;
    for (size_t at = 0; at < bytes.size();) {
      uint64_t step = 0, count = 0;
      if (!ReadVarint(bytes, &at, &step) || !ReadVarint(bytes, &at, &count) ||
          (step == 0 && !out->empty())) {
        return Status::InvalidArgument("field 'buckets': a packed histogram is cut short or unordered");
      }
      upper += step;
      out->emplace_back(upper, count);
    }
    return Status::OK();
  }
  // Files before the packed form: [[upper_ns, count], ...].
  if (!j.is_array()) return Status::InvalidArgument("field 'buckets': must be a list or a packed string");
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
