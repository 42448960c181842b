#include "datasets/request_distribution.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "datasets/random.h"
#include "datasets/zipfian.h"

namespace kvbench::datasets {

namespace {

constexpr uint64_t kTagDistribution = 0x6469737472ULL;  // "distr"
constexpr int kMaxRedraws = 1 << 20;

// Shared by the kinds that draw from a fixed key space and redraw while the
// draw is beyond the last inserted key (YCSB's CoreWorkload.nextKeynum).
template <typename Draw>
uint64_t DrawBelow(uint64_t present, Draw draw) {
  uint64_t value = draw();
  for (int tries = 0; value >= present; ++tries) {
    if (tries == kMaxRedraws) return value % present;
    value = draw();
  }
  return value;
}

class UniformDistribution final : public RequestDistribution {
 public:
  UniformDistribution(uint64_t item_count, uint64_t seed) : item_count_(item_count), rng_(seed) {}
  uint64_t Next(uint64_t present) override { return rng_.Uniform(std::min(item_count_, present)); }

 private:
  uint64_t item_count_;
  Rng rng_;
};

class ZipfianDistribution final : public RequestDistribution {
 public:
  ZipfianDistribution(uint64_t item_count, double theta, uint64_t seed)
      : gen_(0, item_count - 1, theta), rng_(seed) {}
  uint64_t Next(uint64_t present) override {
    return DrawBelow(present, [this] { return gen_.Next(&rng_); });
  }

 private:
  ScrambledZipfianGenerator gen_;
  Rng rng_;
};

class LatestDistribution final : public RequestDistribution {
 public:
  // YCSB builds ZipfianGenerator(basis.lastValue()) = items [0, recordcount - 2].
  LatestDistribution(uint64_t item_count, uint64_t seed)
      : zipfian_(0, std::max<uint64_t>(item_count, 2) - 2), rng_(seed) {}
  uint64_t Next(uint64_t present) override {
    if (present <= 1) return 0;
    const uint64_t max = present - 1;
    const uint64_t offset = zipfian_.NextLong(max, rng_.NextDouble());
    return offset > max ? 0 : max - offset;
  }

 private:
  ZipfianGenerator zipfian_;
  Rng rng_;
};

class HotspotDistribution final : public RequestDistribution {
 public:
  HotspotDistribution(uint64_t item_count, double hot_set_fraction, double hot_op_fraction,
                      uint64_t seed)
      : hot_op_fraction_(hot_op_fraction), rng_(seed) {
    // YCSB: hotInterval = (int) (interval * hotsetFraction); Java's (int) saturates.
    const double hot = static_cast<double>(item_count) * hot_set_fraction;
    hot_interval_ = static_cast<uint64_t>(std::min(hot, 2147483647.0));
    cold_interval_ = item_count - hot_interval_;
  }
  uint64_t Next(uint64_t present) override {
    return DrawBelow(present, [this] {
      const bool hot = rng_.NextDouble() < hot_op_fraction_;
      // An empty hot or cold set (YCSB would divide by zero) sends every draw
      // to the other set.
      if ((hot && hot_interval_ > 0) || cold_interval_ == 0) return rng_.Uniform(hot_interval_);
      return hot_interval_ + rng_.Uniform(cold_interval_);
    });
  }

 private:
  double hot_op_fraction_;
  uint64_t hot_interval_ = 0;
  uint64_t cold_interval_ = 0;
  Rng rng_;
};

class SequentialDistribution final : public RequestDistribution {
 public:
  SequentialDistribution(uint64_t item_count, uint32_t stream, uint32_t stream_count)
      : item_count_(item_count), next_(stream), stream_(stream), step_(stream_count) {}
  uint64_t Next(uint64_t present) override {
    const uint64_t limit = std::min(item_count_, present);
    if (next_ >= limit) next_ = stream_;  // wrap around, as YCSB's counter modulo
    if (next_ >= limit) return stream_ % limit;
    const uint64_t value = next_;
    next_ += step_;
    return value;
  }

 private:
  uint64_t item_count_;
  uint64_t next_;
  uint64_t stream_;
  uint64_t step_;
};

class ExponentialDistribution final : public RequestDistribution {
 public:
  ExponentialDistribution(uint64_t item_count, double percentile, double frac, uint64_t seed)
      : gamma_(-std::log(1.0 - percentile / 100.0) / (static_cast<double>(item_count) * frac)),
        rng_(seed) {}
  uint64_t Next(uint64_t present) override {
    for (int tries = 0;; ++tries) {
      // 1 - u lies in (0, 1], so the logarithm is finite.
      const double x = -std::log(1.0 - rng_.NextDouble()) / gamma_;
      if (x < static_cast<double>(present)) return present - 1 - static_cast<uint64_t>(x);
      if (tries == kMaxRedraws) return 0;
    }
  }

 private:
  double gamma_;
  Rng rng_;
};

using Factory =
    std::function<Status(const DatasetParams&, uint64_t item_count, uint64_t seed, uint32_t stream,
                         uint32_t stream_count, std::unique_ptr<RequestDistribution>*)>;

struct KindEntry {
  DistributionKind kind;
  Factory make;
};

const std::vector<KindEntry>& Entries() {
  static const std::vector<KindEntry> entries = {
      {{"uniform", "every present key equally likely", {}},
       [](const DatasetParams&, uint64_t n, uint64_t seed, uint32_t, uint32_t,
          std::unique_ptr<RequestDistribution>* out) {
         *out = std::make_unique<UniformDistribution>(n, seed);
         return Status::OK();
       }},
      {{"zipfian",
        "YCSB's scrambled zipfian: a few keys, scattered over the key space, are very popular",
        {{"constant", "0.99", "zipfian constant theta (YCSB: 0.99)"}}},
       [](const DatasetParams& p, uint64_t n, uint64_t seed, uint32_t, uint32_t,
          std::unique_ptr<RequestDistribution>* out) {
         double theta = 0;
         KVBENCH_RETURN_IF_ERROR(p.GetDouble("constant", 0.01, 0.9999, &theta));
         *out = std::make_unique<ZipfianDistribution>(n, theta, seed);
         return Status::OK();
       }},
      {{"latest", "YCSB's skewed latest: the most recently inserted keys are the most popular", {}},
       [](const DatasetParams&, uint64_t n, uint64_t seed, uint32_t, uint32_t,
          std::unique_ptr<RequestDistribution>* out) {
         *out = std::make_unique<LatestDistribution>(n, seed);
         return Status::OK();
       }},
      {{"hotspot",
        "YCSB's hotspot: hotopnfraction of requests go to the first hotsetfraction of keys",
        {{"hotsetfraction", "0.2", "share of the keys that are hot (YCSB default 0.2)"},
         {"hotopnfraction", "0.8", "share of the requests to hot keys (YCSB default 0.8)"}}},
       [](const DatasetParams& p, uint64_t n, uint64_t seed, uint32_t, uint32_t,
          std::unique_ptr<RequestDistribution>* out) {
         double set = 0, op = 0;
         KVBENCH_RETURN_IF_ERROR(p.GetDouble("hotsetfraction", 0.0, 1.0, &set));
         KVBENCH_RETURN_IF_ERROR(p.GetDouble("hotopnfraction", 0.0, 1.0, &op));
         *out = std::make_unique<HotspotDistribution>(n, set, op, seed);
         return Status::OK();
       }},
      {{"sequential", "0, 1, 2... in order, cycling; threads interleave", {}},
       [](const DatasetParams&, uint64_t n, uint64_t, uint32_t stream, uint32_t streams,
          std::unique_ptr<RequestDistribution>* out) {
         *out = std::make_unique<SequentialDistribution>(n, stream, streams);
         return Status::OK();
       }},
      {{"exponential",
        "YCSB's exponential: percentile% of requests to the newest frac of keys",
        {{"percentile", "95", "share of requests, in percent (YCSB default 95)"},
         {"frac", "0.8571428571",
          "share of the key space they touch (YCSB default 0.8571428571)"}}},
       [](const DatasetParams& p, uint64_t n, uint64_t seed, uint32_t, uint32_t,
          std::unique_ptr<RequestDistribution>* out) {
         double percentile = 0, frac = 0;
         KVBENCH_RETURN_IF_ERROR(p.GetDouble("percentile", 0.001, 99.999, &percentile));
         KVBENCH_RETURN_IF_ERROR(p.GetDouble("frac", 1e-9, 1e9, &frac));
         *out = std::make_unique<ExponentialDistribution>(n, percentile, frac, seed);
         return Status::OK();
       }},
  };
  return entries;
}

}  // namespace

const std::vector<DistributionKind>& DistributionKinds() {
  static const std::vector<DistributionKind> kinds = [] {
    std::vector<DistributionKind> out;
    for (const KindEntry& e : Entries()) out.push_back(e.kind);
    return out;
  }();
  return kinds;
}

Status NewRequestDistribution(const DistributionSpec& spec, uint64_t item_count, uint64_t seed,
                              uint32_t stream, uint32_t stream_count,
                              std::unique_ptr<RequestDistribution>* out) {
  const std::string what = fmt::format("request distribution '{}'", spec.kind);
  if (item_count == 0) return Status::InvalidArgument(what + ": the key space is empty");
  if (stream_count == 0 || stream >= stream_count) {
    return Status::InvalidArgument(
        fmt::format("{}: stream {} is not below stream_count {}", what, stream, stream_count));
  }
  for (const KindEntry& e : Entries()) {
    if (e.kind.name != spec.kind) continue;
    DatasetParams params;
    KVBENCH_RETURN_IF_ERROR(DatasetParams::Resolve(what, e.kind.params, spec.params, &params));
    const uint64_t stream_seed = HashOf(seed, kTagDistribution, stream);
    return e.make(params, item_count, stream_seed, stream, stream_count, out);
  }
  std::string known;
  for (const KindEntry& e : Entries()) known += (known.empty() ? "" : ", ") + e.kind.name;
  return Status::InvalidArgument(
      fmt::format("unknown request distribution '{}' (known: {})", spec.kind, known));
}

}  // namespace kvbench::datasets
