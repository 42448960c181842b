#include "reports/hdr_histogram.h"

#include <fmt/format.h>
#include <time.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <ctime>

#include "reports/java_format.h"
#include "reports/ycsb_summary.h"

namespace kvbench::reports {

namespace {

// HdrHistogram's parameters for kvbench's layout (see the header).
constexpr int kSignificantDigits = 2;
constexpr int kSubBucketCountMagnitude = 8;  // ceil(log2(2 * 10^2))
constexpr uint64_t kSubBucketCount = uint64_t{1} << kSubBucketCountMagnitude;
constexpr int kSubBucketHalfCountMagnitude = kSubBucketCountMagnitude - 1;
constexpr uint64_t kSubBucketHalfCount = kSubBucketCount / 2;
// Large enough that decoders size their counts for any latency up to an
// hour without resizing; a larger value raises it.
constexpr uint64_t kHighestTrackable = 3'600'000'000'000;

constexpr uint32_t kEncodingCookie = 0x1c849303 | 0x10;
constexpr uint32_t kCompressedEncodingCookie = 0x1c849304 | 0x10;

int BucketIndexOf(uint64_t v) {
  // 64 - unitMagnitude - subBucketCountMagnitude - numberOfLeadingZeros(v | mask)
  return 64 - kSubBucketCountMagnitude - __builtin_clzll(v | (kSubBucketCount - 1));
}

// Smallest value of counts index `index`, and the width of its bucket.
uint64_t ValueFromIndex(size_t index, uint64_t* width) {
  int bucket = static_cast<int>(index >> kSubBucketHalfCountMagnitude) - 1;
  uint64_t sub = (index & (kSubBucketHalfCount - 1)) + kSubBucketHalfCount;
  if (bucket < 0) {
    sub -= kSubBucketHalfCount;
    bucket = 0;
  }
  *width = uint64_t{1} << bucket;
  return sub << bucket;
}

int BucketsNeededToCover(uint64_t value) {
  uint64_t smallest_untrackable = kSubBucketCount;
  int buckets = 1;
  while (smallest_untrackable <= value) {
    if (smallest_untrackable > (UINT64_MAX >> 2)) return buckets + 1;
    smallest_untrackable <<= 1;
    ++buckets;
  }
  return buckets;
}

uint64_t HighestTrackable(const Buckets& buckets) {
  return std::max(kHighestTrackable, buckets.empty() ? 0 : buckets.back().first);
}

void PutInt32(uint32_t v, std::string* out) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>(v >> shift));
}
void PutInt64(uint64_t v, std::string* out) {
  for (int shift = 56; shift >= 0; shift -= 8) out->push_back(static_cast<char>(v >> shift));
}

// ZigZagEncoding.putLong: LEB128 of the ZigZag value, the ninth byte whole.
void PutZigZag(int64_t value, std::string* out) {
  uint64_t v = (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
  for (int i = 0; i < 8; ++i) {
    if ((v >> 7) == 0) {
      out->push_back(static_cast<char>(v));
      return;
    }
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

// The uncompressed V2 encoding.
std::string Encode(const Buckets& buckets) {
  std::string payload;
  size_t next = 0;  // the counts index after the last one written
  for (const auto& [upper, count] : buckets) {
    if (count == 0) continue;
    const size_t index = HdrCountsIndex(upper);
    const size_t zeros = index - next;
    if (zeros == 1) PutZigZag(0, &payload);
    if (zeros > 1) PutZigZag(-static_cast<int64_t>(zeros), &payload);
    PutZigZag(static_cast<int64_t>(count), &payload);
    next = index + 1;
  }
  std::string out;
  PutInt32(kEncodingCookie, &out);
  PutInt32(static_cast<uint32_t>(payload.size()), &out);
  PutInt32(0, &out);  // normalizing index offset
  PutInt32(kSignificantDigits, &out);
  PutInt64(1, &out);  // lowest discernible value
  PutInt64(HighestTrackable(buckets), &out);
  uint64_t ratio_bits;
  const double ratio = 1.0;
  std::memcpy(&ratio_bits, &ratio, sizeof ratio);
  PutInt64(ratio_bits, &out);
  return out + payload;
}

// Date.toString(): "Mon Nov 20 10:00:00 UTC 2023" in local time.
std::string JavaDate(double unix_s) {
  const time_t t = static_cast<time_t>(unix_s);
  tm local{};
  localtime_r(&t, &local);
  char buf[64];
  std::strftime(buf, sizeof buf, "%a %b %d %H:%M:%S %Z %Y", &local);
  return buf;
}

}  // namespace

size_t HdrCountsIndex(uint64_t v) {
  const int bucket = BucketIndexOf(v);
  const uint64_t sub = v >> bucket;
  return (static_cast<size_t>(bucket + 1) << kSubBucketHalfCountMagnitude) +
         static_cast<size_t>(sub - kSubBucketHalfCount);
}

std::string EncodeCompressedHistogram(const Buckets& buckets) {
  const std::string raw = Encode(buckets);
  uLongf size = compressBound(static_cast<uLong>(raw.size()));
  std::string zipped(size, '\0');
  // Deflater(BEST_COMPRESSION) writes a zlib stream; compress2 writes the same format.
  compress2(reinterpret_cast<Bytef*>(zipped.data()), &size,
            reinterpret_cast<const Bytef*>(raw.data()), static_cast<uLong>(raw.size()),
            Z_BEST_COMPRESSION);
  zipped.resize(size);
  std::string out;
  PutInt32(kCompressedEncodingCookie, &out);
  PutInt32(static_cast<uint32_t>(zipped.size()), &out);
  return out + zipped;
}

std::string Base64(const std::string& bytes) {
  static const char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v = (static_cast<uint8_t>(bytes[i]) << 16) |
                       (static_cast<uint8_t>(bytes[i + 1]) << 8) |
                       static_cast<uint8_t>(bytes[i + 2]);
    for (int shift = 18; shift >= 0; shift -= 6) out.push_back(kAlphabet[(v >> shift) & 63]);
  }
  if (i < bytes.size()) {
    uint32_t v = static_cast<uint8_t>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<uint8_t>(bytes[i + 1]) << 8;
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

std::string RenderHistogramLog(const results::TimeSeries& series, const results::OpTimeSeries& op,
                               double seconds, const std::string& comment) {
  std::string out = "#" + comment + "\n#[Histogram log format version 1.3]\n";
  out += "#[StartTime: " + JavaFixed(series.start_unix_s, 3) + " (seconds since epoch), " +
         JavaDate(series.start_unix_s) + "]\n";
  out += "#[BaseTime: " + JavaFixed(series.start_unix_s, 3) + " (seconds since epoch)]\n";
  out +=
      "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n";
  const size_t n = std::min(op.count.size(), op.buckets.size());
  for (size_t i = 0; i < n; ++i) {
    if (op.count[i] == 0) continue;
    const double start = static_cast<double>(i) * series.interval_s;
    // The last interval ends with the span.
    const double length = i + 1 == op.count.size() ? seconds - start : series.interval_s;
    const uint64_t max_ns = op.buckets[i].empty() ? 0 : op.buckets[i].back().first;
    out += JavaFixed(start, 3) + "," + JavaFixed(length, 3) + "," +
           JavaFixed(static_cast<double>(max_ns) / 1e6, 3) + "," +
           Base64(EncodeCompressedHistogram(op.buckets[i])) + "\n";
  }
  return out;
}

std::string RenderPercentileDistribution(const Buckets& buckets) {
  constexpr int kTicksPerHalfDistance = 5;
  constexpr double kUnitRatio = 1000.0;  // ns -> µs
  uint64_t total = 0;
  for (const auto& b : buckets) total += b.second;
  std::string out = fmt::format("{:>12} {:>14} {:>10} {:>14}\n\n", "Value", "Percentile",
                                "TotalCount", "1/(1-Percentile)");
  auto row = [&](uint64_t value, double level, uint64_t count, bool last) {
    out += fmt::format("{} {} {:>10}",
                       JavaFixed(static_cast<double>(value) / kUnitRatio, kSignificantDigits, 12),
                       JavaFixed(level / 100.0, 12, 2), count);
    if (!last) out += fmt::format(" {}", JavaFixed(1 / (1.0 - level / 100.0), 2, 14));
    out += "\n";
  };
  // PercentileIterator: levels 0, then 100/ticks steps whose count doubles
  // each time the remaining distance halves; a level is reported at the
  // first non-empty bucket whose cumulative percentile reaches it; the
  // bucket that completes the count reports once more, at 100%.
  double level = 0;
  uint64_t seen = 0;
  for (const auto& [upper, count] : buckets) {
    if (count == 0) continue;
    seen += count;
    while ((100.0 * static_cast<double>(seen)) / static_cast<double>(total) >= level) {
      row(upper, level, seen, false);
      const auto halvings =
          static_cast<int64_t>(std::log(100.0 / (100.0 - level)) / std::log(2.0)) + 1;
      const int64_t ticks = kTicksPerHalfDistance * static_cast<int64_t>(std::pow(2, halvings));
      level += 100.0 / static_cast<double>(ticks);
      if (seen >= total) break;
    }
  }
  double mean = 0;
  double deviation = 0;
  uint64_t max = 0;
  if (total > 0) {
    row(buckets.back().first, 100.0, total, true);
    // getMean / getStdDeviation: each bucket's count at its median value.
    auto median = [](uint64_t upper) {
      uint64_t width;
      const uint64_t lowest = ValueFromIndex(HdrCountsIndex(upper), &width);
      return static_cast<double>(lowest + (width >> 1));
    };
    double sum = 0;
    for (const auto& [upper, count] : buckets) sum += median(upper) * static_cast<double>(count);
    mean = sum * 1.0 / static_cast<double>(total);
    double squares = 0;
    for (const auto& [upper, count] : buckets) {
      const double d = median(upper) * 1.0 - mean;
      squares += (d * d) * static_cast<double>(count);
    }
    deviation = std::sqrt(squares / static_cast<double>(total));
    max = buckets.back().first;
  }
  out += "#[Mean    = " + JavaFixed(mean / kUnitRatio, kSignificantDigits, 12) +
         ", StdDeviation   = " + JavaFixed(deviation / kUnitRatio, kSignificantDigits, 12) + "]\n";
  out += "#[Max     = " + JavaFixed(static_cast<double>(max) / kUnitRatio, kSignificantDigits, 12) +
         fmt::format(", Total count    = {:>12}]\n", total);
  out += fmt::format("#[Buckets = {:>12}, SubBuckets     = {:>12}]\n",
                     BucketsNeededToCover(HighestTrackable(buckets)), kSubBucketCount);
  return out;
}

std::vector<std::pair<std::string, std::string>> HdrHistogramFiles(
    const results::RunResults& results) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const results::PhaseRun& run : results.runs) {
    for (size_t r = 0; r < run.repetitions.size(); ++r) {
      const results::Repetition& rep = run.repetitions[r];
      if (!rep.time_series) continue;
      const std::string stem = RunFileStem(results, run, r);
      for (const results::OpTimeSeries& op : rep.time_series->ops) {
        if (op.buckets.empty()) continue;
        std::string name = op.op;
        for (char& c : name) {
          if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') c = '_';
        }
        files.emplace_back(stem + "-" + name + ".hlog",
                           RenderHistogramLog(*rep.time_series, op, rep.seconds,
                                              "[kvbench " + run.engine + ", phase " + run.phase +
                                                  ", " + op.op + ", values in ns]"));
        for (const results::OpFigures& f : rep.ops) {
          if (f.op == op.op) {
            files.emplace_back(stem + "-" + name + ".hgrm",
                               RenderPercentileDistribution(f.latency.buckets));
          }
        }
      }
    }
  }
  return files;
}

}  // namespace kvbench::reports
