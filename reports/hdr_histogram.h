// HdrHistogram files from kvbench's histograms, for HdrHistogram's own tools
// (HistogramLogProcessor, HistogramLogAnalyzer, the plotter):
//
//   .hlog  HdrHistogram's interval log, format version 1.3: comment lines,
//          "#[StartTime: ...]" and "#[BaseTime: ...]", the legend, then one
//          line per interval, "START,LENGTH,MAX,HISTOGRAM": START seconds
//          from the base time, LENGTH seconds, MAX the interval's largest
//          value in ms (HistogramLogWriter's default ratio of 1e6 for values
//          in ns), HISTOGRAM the base64 of the histogram's compressed V2
//          encoding (below).
//   .hgrm  the percentile distribution AbstractHistogram.
//          outputPercentileDistribution prints (5 ticks per half distance),
//          with values in microseconds (HistogramLogProcessor
//          -outputValueUnitRatio 1000 prints the same from the .hlog).
//
// The V2 encoding (AbstractHistogram.encodeIntoByteBuffer), all integers
// big-endian: cookie 0x1c849313, payload length (int32), normalizing index
// offset (int32, 0), significant value digits (int32), lowest discernible
// value (int64), highest trackable value (int64), integer-to-double ratio
// (IEEE double, 1.0), then the counts of indexes 0..max: each count as a
// ZigZag LEB128 long of up to 9 bytes, a run of N > 1 zero counts as -N.
// Compressed (encodeIntoCompressedByteBuffer): cookie 0x1c849314, the
// length of the zlib stream (int32), then the zlib stream (deflate, as
// java.util.zip.Deflater writes it) of the encoding above.
//
// Values are nanoseconds. kvbench's LatencyHistogram (runner/
// latency_histogram.h) is, bucket for bucket, an HdrHistogram with lowest
// discernible value 1 and 2 significant digits: sub-bucket count 256, so
// values below 256 ns have a bucket each and each power of two above is cut
// into 128 buckets, exactly kvbench's layout. Bucket b is counts index b, so
// the files hold kvbench's counts without any loss: a value's bucket is at
// most 1/128 (0.78%) of it wide, and every percentile HdrHistogram's tools
// compute from these files is the upper bound of the bucket kvbench would
// pick (within 0.78% of the exact value).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "results/results.h"

namespace kvbench::reports {

// A histogram as results keep it: non-empty buckets (upper bound ns, count).
using Buckets = std::vector<std::pair<uint64_t, uint64_t>>;

// HdrHistogram's counts index of value `v` (lowest discernible value 1, 2
// significant digits).
size_t HdrCountsIndex(uint64_t v);

// The compressed V2 encoding of `buckets` (raw bytes, not base64).
std::string EncodeCompressedHistogram(const Buckets& buckets);
// RFC 4648 base64 with padding, as java.util.Base64 / DatatypeConverter.
std::string Base64(const std::string& bytes);

// The .hlog of operation `op` (an entry of series.ops, which must hold
// per-interval buckets) of a timed span of `seconds`: one line per interval
// in which it ran; `comment` goes on the first line.
std::string RenderHistogramLog(const results::TimeSeries& series, const results::OpTimeSeries& op,
                               double seconds, const std::string& comment);

// The .hgrm of a whole histogram.
std::string RenderPercentileDistribution(const Buckets& buckets);

// Every HdrHistogram file of `results`: for each repetition with a time
// series that kept its histograms, and each operation type in it,
// "STEM-OP.hlog" (its intervals) and "STEM-OP.hgrm" (the whole
// repetition's distribution), STEM as RunFileStem (ycsb_summary.h) names
// the run. (file name, text) pairs.
std::vector<std::pair<std::string, std::string>> HdrHistogramFiles(
    const results::RunResults& results);

}  // namespace kvbench::reports
