// Request distributions: which key index the next operation touches.
//
// Each kind follows YCSB's generator and CoreWorkload.nextKeynum(), with our
// own PRNG (xoshiro256**) so a run is deterministic for a seed:
//
//   uniform      uniform over [0, min(item_count, present)) (YCSB's
//                UniformLongGenerator over the loaded keys, redrawn while
//                beyond the last inserted key).
//   zipfian      ScrambledZipfianGenerator(0, item_count - 1, constant), redrawn
//                while >= present. For YCSB's behaviour pass item_count =
//                recordcount + 2 x operationcount x insertproportion + 1, as
//                CoreWorkload sizes its key space.
//   latest       SkewedLatestGenerator: present - 1 - zipfian.NextLong(present - 1)
//                with a ZipfianGenerator built for item_count - 1 items. The last
//                inserted key is the most popular; like YCSB, index 0 is never
//                returned once present > 2.
//   hotspot      HotspotIntegerGenerator(0, item_count - 1, hotsetfraction,
//                hotopnfraction), redrawn while >= present: hotopnfraction of the
//                requests go uniformly to the first hotsetfraction of the items.
//   sequential   0, 1, 2... cycling over [0, min(item_count, present)). With
//                `stream_count` streams (one per thread) stream s returns
//                s, s + stream_count, ... so together they walk the key space
//                once, as threads sharing YCSB's one counter would.
//   exponential  ExponentialGenerator(percentile, item_count x frac):
//                present - 1 - (long)x, redrawn while negative: percentile% of
//                the requests touch the most recent frac of the items.
//
// Deviations from YCSB, for clearer failures: hotset/hotopn fractions outside
// [0, 1] are an error (YCSB silently uses 0); a redraw loop gives up after 2^20
// tries and returns the draw modulo `present` (YCSB would loop on).
//
// Thread-safety: not thread-safe; make one per thread (each with its own
// stream number, so threads draw different sequences). Construction is cheap
// except the first zipfian/latest over n items in a process, which sums zeta
// over n items once (about 0.1 s for 10M; memoised for other threads).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "datasets/params.h"

namespace kvbench::datasets {

struct DistributionSpec {
  std::string kind = "uniform";
  ParamMap params;  // e.g. {"hotsetfraction", "0.2"}; see DistributionKinds()
};

class RequestDistribution {
 public:
  virtual ~RequestDistribution() = default;
  // The next index to request, in [0, present). `present` is how many keys
  // exist now (indexes [0, present)); it may grow between calls as a workload
  // inserts. Requires present >= 1.
  virtual uint64_t Next(uint64_t present) = 0;
};

// Makes a distribution over a key space of `item_count` indexes (>= 1).
// `seed` and `stream` (the thread number) pick the random sequence;
// `stream_count` is the number of streams of one phase (used by sequential).
// InvalidArgument for an unknown kind or option or a bad value.
Status NewRequestDistribution(const DistributionSpec& spec, uint64_t item_count, uint64_t seed,
                              uint32_t stream, uint32_t stream_count,
                              std::unique_ptr<RequestDistribution>* out);

struct DistributionKind {
  std::string name;
  std::string description;
  std::vector<ParamSpec> params;
};
const std::vector<DistributionKind>& DistributionKinds();

}  // namespace kvbench::datasets
