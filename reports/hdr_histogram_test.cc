#include "reports/hdr_histogram.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include "runner/latency_histogram.h"

namespace kvbench::reports {
namespace {

uint64_t Int(const std::string& b, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | static_cast<uint8_t>(b[at + i]);
  return v;
}

// A decoder of the compressed V2 encoding written from the format's
// description, to check the encoder's output round trips (the end-to-end
// test decodes with HdrHistogram's own Java reader).
std::vector<uint64_t> Decode(const std::string& compressed, uint64_t* highest) {
  EXPECT_EQ(Int(compressed, 0, 4), 0x1c849314u);
  const uint64_t length = Int(compressed, 4, 4);
  EXPECT_EQ(length + 8, compressed.size());
  std::string raw(1 << 20, '\0');
  uLongf size = raw.size();
  EXPECT_EQ(uncompress(reinterpret_cast<Bytef*>(raw.data()), &size,
                       reinterpret_cast<const Bytef*>(compressed.data() + 8), length),
            Z_OK);
  raw.resize(size);
  EXPECT_EQ(Int(raw, 0, 4), 0x1c849313u);
  const uint64_t payload = Int(raw, 4, 4);
  EXPECT_EQ(payload + 40, raw.size());
  EXPECT_EQ(Int(raw, 8, 4), 0u);   // normalizing index offset
  EXPECT_EQ(Int(raw, 12, 4), 2u);  // significant digits
  EXPECT_EQ(Int(raw, 16, 8), 1u);  // lowest discernible value
  *highest = Int(raw, 24, 8);
  EXPECT_EQ(Int(raw, 32, 8), 0x3ff0000000000000u);  // 1.0
  std::vector<uint64_t> counts;
  for (size_t at = 40; at < raw.size();) {
    uint64_t v = 0;
    int shift = 0;
    for (int i = 0; i < 9; ++i) {
      const uint8_t byte = static_cast<uint8_t>(raw[at++]);
      v |= static_cast<uint64_t>(i == 8 ? byte : (byte & 0x7f)) << shift;
      shift += 7;
      if (i < 8 && (byte & 0x80) == 0) break;
    }
    const int64_t value = static_cast<int64_t>((v >> 1) ^ (~(v & 1) + 1));
    if (value < 0) {
      counts.insert(counts.end(), static_cast<size_t>(-value), 0);
    } else {
      counts.push_back(static_cast<uint64_t>(value));
    }
  }
  return counts;
}

TEST(HdrHistogramTest, KvbenchBucketsAreHdrHistogramCountsIndexes) {
  for (size_t b = 0; b < runner::LatencyHistogram::kBucketCount; ++b) {
    const uint64_t upper = runner::LatencyHistogram::BucketUpperBound(b);
    ASSERT_EQ(HdrCountsIndex(upper), b) << upper;
    ASSERT_EQ(runner::LatencyHistogram::BucketOf(upper), b);
  }
  EXPECT_EQ(HdrCountsIndex(255), 255u);
  EXPECT_EQ(HdrCountsIndex(256), 256u);
  EXPECT_EQ(HdrCountsIndex(257), 256u);  // 2 ns wide from 256 on
}

TEST(HdrHistogramTest, EncodingRoundTripsEveryCountAndZeroRun) {
  runner::LatencyHistogram h;
  for (uint64_t v : {0ull, 1ull, 1ull, 255ull, 300ull, 1000ull, 123456ull, 9876543210ull}) {
    h.Record(v);
  }
  for (int i = 0; i < 100000; ++i) h.Record(777);  // a count needing 3 LEB128 bytes
  const results::LatencySummary s = h.Summarize();
  uint64_t highest = 0;
  const std::vector<uint64_t> counts = Decode(EncodeCompressedHistogram(s.buckets), &highest);
  EXPECT_GE(highest, 9876543210ull);
  ASSERT_EQ(counts.size(), runner::LatencyHistogram::BucketOf(9876543210ull) + 1);
  for (size_t b = 0; b < counts.size(); ++b) {
    ASSERT_EQ(counts[b], h.bucket_count(b)) << b;
  }
}

TEST(HdrHistogramTest, Base64IsRfc4648) {
  EXPECT_EQ(Base64(""), "");
  EXPECT_EQ(Base64("f"), "Zg==");
  EXPECT_EQ(Base64("fo"), "Zm8=");
  EXPECT_EQ(Base64("foobar"), "Zm9vYmFy");
  EXPECT_EQ(Base64(std::string("\xff\x00\x10", 3)), "/wAQ");
}

TEST(HdrHistogramTest, LogHasHeaderAndOneLinePerIntervalThatRan) {
  results::TimeSeries series;
  series.interval_s = 0.5;
  series.start_unix_s = 1700000000.25;
  results::OpTimeSeries op;
  op.op = "READ";
  op.count = {3, 0, 1};
  op.buckets = {{{1000, 2}, {2047, 1}}, {}, {{5000000, 1}}};
  const std::string log = RenderHistogramLog(series, op, 1.2, "[test]");
  EXPECT_EQ(log.find("#[test]\n#[Histogram log format version 1.3]\n#[StartTime: 1700000000.250 "
                     "(seconds since epoch), "),
            0u)
      << log;
  EXPECT_NE(log.find("\n#[BaseTime: 1700000000.250 (seconds since epoch)]\n"
                     "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
                     "\"Interval_Compressed_Histogram\"\n0.000,0.500,0.002,HISTF"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("\n1.000,0.200,5.000,HISTF"), std::string::npos) << log;
  EXPECT_EQ(log.find("\n0.500,"), std::string::npos);
}

// The expected text is what HdrHistogram 2.1.11's HistogramLogProcessor
// -outputValueUnitRatio 1000 printed for a log of this one histogram.
TEST(HdrHistogramTest, PercentileDistributionIsHdrHistogramsInMicroseconds) {
  const std::string hgrm = RenderPercentileDistribution({{100, 1}, {1000, 2}, {2047, 1}});
  EXPECT_EQ(hgrm,
            "       Value     Percentile TotalCount 1/(1-Percentile)\n\n"
            "        0.10 0.000000000000          1           1.00\n"
            "        0.10 0.100000000000          1           1.11\n"
            "        0.10 0.200000000000          1           1.25\n"
            "        1.00 0.300000000000          3           1.43\n"
            "        1.00 0.400000000000          3           1.67\n"
            "        1.00 0.500000000000          3           2.00\n"
            "        1.00 0.550000000000          3           2.22\n"
            "        1.00 0.600000000000          3           2.50\n"
            "        1.00 0.650000000000          3           2.86\n"
            "        1.00 0.700000000000          3           3.33\n"
            "        1.00 0.750000000000          3           4.00\n"
            "        2.05 0.775000000000          4           4.44\n"
            "        2.05 1.000000000000          4\n"
            "#[Mean    =         1.04, StdDeviation   =         0.69]\n"
            "#[Max     =         2.05, Total count    =            4]\n"
            "#[Buckets =           35, SubBuckets     =          256]\n");
}

}  // namespace
}  // namespace kvbench::reports
